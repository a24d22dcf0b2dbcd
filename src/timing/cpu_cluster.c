/* cpu_cluster.c — the CPU cluster's last-level tags of cpu_cluster.h: a tags-only cache array
 * whose line states are clean or dirty. */
#include "timing/cpu_cluster.h"

#include <stdlib.h>

#include "timing/cache_array.h"

enum { CPU_LINE_INVALID = 0, CPU_LINE_CLEAN, CPU_LINE_DIRTY };

struct cpu_cluster {
    cache_array *tags;
};

cpu_cluster *cpu_cluster_create(uint64_t size_bytes, unsigned associativity, unsigned line_bytes)
{
    cache_array *tags = cache_array_create_tags(size_bytes, associativity, line_bytes);
    if (!tags)
        return NULL;
    cpu_cluster *cluster = malloc(sizeof *cluster);
    cluster->tags = tags;
    return cluster;
}

void cpu_cluster_destroy(cpu_cluster *cluster)
{
    if (!cluster)
        return;
    cache_array_destroy(cluster->tags);
    free(cluster);
}

/* Makes the cluster hold the line, most recently used, at least in `state`; returns whether a
 * dirty victim left to make room. */
static bool hold(cpu_cluster *cluster, uint64_t line_address, uint8_t state)
{
    cache_line *line = cache_array_lookup(cluster->tags, line_address);
    if (line) {
        cache_array_touch(cluster->tags, line);
        if (state > line->state)
            line->state = state;
        return false;
    }
    line = cache_array_victim(cluster->tags, line_address);
    if (!line)
        return false;
    bool dirty_victim = line->state == CPU_LINE_DIRTY;
    cache_array_install(cluster->tags, line, line_address, state);
    return dirty_victim;
}

bool cpu_cluster_host_write(cpu_cluster *cluster, uint64_t line_address)
{
    return hold(cluster, line_address, CPU_LINE_DIRTY);
}

bool cpu_cluster_host_read(cpu_cluster *cluster, uint64_t line_address)
{
    return hold(cluster, line_address, CPU_LINE_CLEAN);
}

bool cpu_cluster_probe_read(cpu_cluster *cluster, uint64_t line_address)
{
    const cache_line *line = cache_array_lookup(cluster->tags, line_address);
    return line && line->state == CPU_LINE_DIRTY;
}

bool cpu_cluster_probe_write(cpu_cluster *cluster, uint64_t line_address)
{
    cache_line *line = cache_array_lookup(cluster->tags, line_address);
    if (!line)
        return false;
    cache_array_invalidate(cluster->tags, line);
    return true;
}
