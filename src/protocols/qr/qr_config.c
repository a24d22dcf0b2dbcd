/* qr_config.c — QuickRelease's configuration keys: their declarations in the schema
 * (qr_config_keys), and their values, read and derived only when qr is the mechanism selected
 * (qr.h: qr_config): the wL1 in whole lines, and the write caches below it split over their slices. */
#include "protocols/qr/qr.h"

#include <stdio.h>
#include <string.h>

static const sc_config_key keys[] = {
    {"gpu.barrier_release_scope", SC_KEY_ENUM, "", 0, 0, "global|cta", 0,
     "QuickRelease barrier (digest U21): global, a CTA barrier makes the warp's prior writes globally visible (a "
     "release marker) before it arrives (the paper); cta, it orders the CTA only, as PTX bar.sync"},
    {"gpu.barrier_release_granularity", SC_KEY_ENUM, "", 0, 0, "work_group|wavefront", 0,
     "QuickRelease global barrier's release (digest U10): work_group, one release marker per work-group when its "
     "last wavefront arrives, the barrier completing on its acknowledgement (the digest's default); wavefront, "
     "each wavefront's release marker before it arrives"},
    {"l1.sync_fifo_entries", SC_KEY_INT, "entries", 1, 1 << 16, NULL, 0,
     "QuickRelease S-FIFO1 per CU: line addresses of stores, dequeued when full and at releases"},
    {"l1.write_cache_size", SC_KEY_SIZE, "bytes", 1, 1 * SC_GIB, NULL, 0,
     "QuickRelease write-combining write cache (wL1) per CU, at least one line"},
    {"l2.sync_fifo_entries", SC_KEY_INT, "entries", 1, 1 << 20, NULL, 0,
     "QuickRelease S-FIFO2 (all banks; each bank's slice of the wL2 has its share): line addresses of the blocks "
     "the wL2 takes, dequeued when full and at release markers"},
    {"l2.write_cache_associativity", SC_KEY_INT, "ways", 1, 1024, NULL, 0,
     "QuickRelease wL2 ways (a bank's slice has at most as many ways as blocks)"},
    {"l2.write_cache_size", SC_KEY_SIZE, "bytes", 1, 1 * SC_GIB, NULL, 0,
     "QuickRelease write-combining wL2 beside the L2 (all banks, at least one line per bank)"},
    {"l3.sync_fifo_entries", SC_KEY_INT, "entries", 1, 1 << 20, NULL, 0,
     "QuickRelease S-FIFO3: line addresses of the blocks the wL3 takes, dequeued when full and at release "
     "markers"},
    {"l3.write_cache_associativity", SC_KEY_INT, "ways", 1, 1024, NULL, 0,
     "QuickRelease wL3 ways (at most as many as blocks)"},
    {"l3.write_cache_size", SC_KEY_SIZE, "bytes", 1, 1 * SC_GIB, NULL, 0,
     "QuickRelease write-combining wL3 on the GPU's path to memory, present with or without an L3 "
     "(at least one line)"},
};

const sc_config_key_table qr_config_keys = {keys, sizeof keys / sizeof keys[0]};

_Static_assert(sizeof(qr_config) <= PROTOCOL_CONFIG_BYTES, "qr_config outgrows memory_config.protocol_config");

/* The write caches below the wL1: `key_prefix`.write_cache_size split over `slices` (the wL2 over
 * the L2 banks, the wL3 whole), each slice rounded down to whole sets of
 * `key_prefix`.write_cache_associativity ways (fewer ways if a slice holds fewer blocks), and
 * `key_prefix`.sync_fifo_entries split the same way (at least one entry per slice). */
static int load_write_level(const sc_config *c, const char *key_prefix, unsigned slices, uint64_t line,
                            unsigned *blocks, unsigned *ways, unsigned *fifo_entries, sc_error *error)
{
    char size_key[64], ways_key[64], fifo_key[64];
    snprintf(size_key, sizeof size_key, "%s.write_cache_size", key_prefix);
    snprintf(ways_key, sizeof ways_key, "%s.write_cache_associativity", key_prefix);
    snprintf(fifo_key, sizeof fifo_key, "%s.sync_fifo_entries", key_prefix);
    uint64_t per_slice = (uint64_t)sc_config_int(c, size_key) / line / slices;
    if (per_slice == 0)
        return sc_fail_input(error, "%s: %lld bytes is less than one %llu-byte line per slice (%u slices)", size_key,
                       (long long)sc_config_int(c, size_key), (unsigned long long)line, slices);
    uint64_t associativity = (uint64_t)sc_config_int(c, ways_key);
    *ways = (unsigned)(associativity < per_slice ? associativity : per_slice);
    *blocks = (unsigned)(per_slice / *ways * *ways);
    uint64_t entries = (uint64_t)sc_config_int(c, fifo_key) / slices;
    *fifo_entries = entries ? (unsigned)entries : 1;
    return 0;
}

int qr_config_derive(const sc_config *c, unsigned line_bytes, unsigned l2_banks, qr_config *out, sc_error *error)
{
    uint64_t line = line_bytes;
    if ((uint64_t)sc_config_int(c, "l1.write_cache_size") < line)
        return sc_fail_input(error, "l1.write_cache_size: %lld bytes is less than one %llu-byte line",
                       (long long)sc_config_int(c, "l1.write_cache_size"), (unsigned long long)line);
    *out = (qr_config){
        .write_cache_lines = (unsigned)((uint64_t)sc_config_int(c, "l1.write_cache_size") / line),
        .sync_fifo_entries = (unsigned)sc_config_int(c, "l1.sync_fifo_entries"),
        .marker_latency = (unsigned)sc_config_int(c, "directory.latency"),
        .barriers_release = strcmp(sc_config_string(c, "gpu.barrier_release_scope"), "global") == 0,
        .barrier_release_per_wavefront =
            strcmp(sc_config_string(c, "gpu.barrier_release_granularity"), "wavefront") == 0,
    };
    if (load_write_level(c, "l2", l2_banks, line, &out->wl2_blocks_per_bank, &out->wl2_ways,
                         &out->wl2_fifo_entries_per_bank, error) < 0)
        return -1;
    return load_write_level(c, "l3", 1, line, &out->wl3_blocks, &out->wl3_ways, &out->wl3_fifo_entries, error);
}

int qr_load_config(const sc_config *config, const char *mechanism, memory_config *memory, sc_error *error)
{
    (void)mechanism;
    return qr_config_derive(config, memory->line_bytes, memory->l2_banks, (qr_config *)memory->protocol_config,
                            error);
}
