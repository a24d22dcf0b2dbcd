/* test_memory_side.c — the memory side below the L2 banks (memory_side.c, cpu_cluster.c), driven
 * access by access on qr-apu memory systems whose L2 has one line per bank and whose L3 is one
 * bank of one two-way set, so that lines X, Y, Z, W (same L2 bank) evict each other:
 *   - a non-writable L3 (nol1) serves re-reads of clean lines, lets a dirty L2 victim go around
 *     it to DRAM and drops its own copy, and evicts silently;
 *   - the same protocol with the descriptor's l3_writable set keeps the write-back in the L3 and
 *     writes to DRAM only when the dirty L3 line is evicted (rfo is the writable one);
 *   - with a CPU cluster, host writes leave lines dirty in it: a GPU read reaching memory is
 *     served by the CPU (which keeps owning the line), a GPU write-back drops the CPU copy, and
 *     a directory (directory.entries > 0) probes only lines the CPU holds;
 *   - the CPU cluster's tags evict LRU and report dirty victims;
 *   - memory's write queue (dram.write_queue) bounds the writes waiting for a full DRAM channel:
 *     a write-through L2 holds its writes back (and every one still lands);
 *   - an L3 hit (of a line functional warming left in the L3) is faster than DRAM, and the
 *     unloaded DRAM latency is the preset's whether or not an L3 sits in front of it; an
 *     impossible L3 geometry is refused with the key's name. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "memory_harness.h"
#include "protocols/mechanism.h"
#include "timing/cpu_cluster.h"

/* One L2 line per bank (16 banks), one L3 bank holding one set of two ways. */
#define SMALL_CACHES "l2.size=1KiB", "l2.associativity=1", "l3.banks=1", "l3.size=128", "l3.associativity=2"

/* The k-th line of the harness's zeroed lines that falls in the L2 bank of h->base (and, with
 * one L3 set, in the L3 set of every other). */
static uint64_t line_k(const memory_harness *h, unsigned k)
{
    return h->base + (uint64_t)k * h->timing.memory.line_bytes * h->timing.memory.l2_banks;
}

static uint32_t load(memory_harness *h, uint64_t address, gsi_source *source)
{
    return memory_harness_access(h, 0, L1_LOAD, address, 0, source);
}

static void store(memory_harness *h, uint64_t address, uint32_t value)
{
    memory_harness_access(h, 0, L1_STORE, address, value, NULL);
}

/* A host copy to the device, as the timing engine passes it on between kernels. */
static void host_write(memory_harness *h, uint64_t address, uint32_t value)
{
    sc_error error = {{0}};
    assert_int_equal(sc_memcpy_to_device(h->device, address, &value, sizeof value, &error), 0);
    memory_host_access(h->memory, address, sizeof value, true);
}

/* The host wrote the harness's zeroed lines: they are dirty in the CPU cluster. */
static void host_wrote_every_line(memory_harness *h)
{
    memory_host_access(h->memory, h->base, 64ull * h->timing.memory.line_bytes, true);
}

static void test_l3_not_writable(void **state)
{
    (void)state;
    memory_harness harness, *h = &harness;
    const char *sets[] = {"cpu.count=0", "l2.write_policy=write_back", SMALL_CACHES};
    memory_harness_open(h, "nol1", sets, 7);
    const memory_stats *stats = memory_statistics(h->memory);
    const dram_stats *traffic = memory_dram_statistics(h->memory);
    uint64_t x = line_k(h, 0), y = line_k(h, 1), z = line_k(h, 2);
    gsi_source source;

    assert_int_equal(load(h, x, &source), 0);                  /* L3 miss: DRAM, fills the L3 */
    assert_int_equal(source, GSI_SOURCE_DRAM);
    load(h, y, NULL);                                          /* evicts X from the L2 (clean) */
    assert_int_equal(load(h, x, &source), 0);                  /* L3 hit */
    assert_int_equal(source, GSI_SOURCE_L3);
    assert_int_equal(stats->l3_hits, 1);
    assert_int_equal(stats->l3_misses, 2);
    assert_int_equal(traffic->reads, 2);

    store(h, x, 5);                                            /* X dirty in the L2 */
    load(h, y, NULL);                                          /* Y: L3 hit; X's write-back goes through to DRAM */
    assert_int_equal(stats->l2_writebacks, 1);
    assert_int_equal(traffic->writes, 1);
    assert_int_equal(load(h, x, &source), 5);                  /* the L3 copy was updated in place, still clean */
    assert_int_equal(source, GSI_SOURCE_L3);

    load(h, z, NULL);                                          /* a third line in the set: a clean victim */
    assert_int_equal(stats->l3_writebacks, 0);
    assert_int_equal(traffic->writes, 1);
    assert_int_equal(stats->cpu_probes, 0);
    memory_harness_close(h);
}

/* l2.write_policy write_through (qr-apu's wt and no-L1): every write goes on to memory at once,
 * a write miss does not allocate, and the L2 never holds dirty data, so evictions write nothing. */
static void test_l2_write_through(void **state)
{
    (void)state;
    memory_harness harness, *h = &harness;
    const char *sets[] = {"cpu.count=0", "l2.write_policy=write_through", SMALL_CACHES};
    memory_harness_open(h, "nol1", sets, 7);
    const memory_stats *stats = memory_statistics(h->memory);
    uint64_t x = line_k(h, 0), y = line_k(h, 1);
    gsi_source source;

    store(h, x, 5);                                            /* miss: written around the L2 */
    assert_int_equal(stats->l2_write_throughs, 1);
    assert_int_equal(stats->dram_write_requests, 1);
    assert_int_equal(load(h, x, &source), 5);                  /* not allocated by the write: a read miss */
    assert_int_equal(source, GSI_SOURCE_DRAM);
    store(h, x, 6);                                            /* hit: the L2 copy is updated, and memory */
    assert_int_equal(stats->dram_write_requests, 2);
    load(h, y, NULL);                                          /* evicts X: clean, nothing written back */
    assert_int_equal(stats->l2_writebacks, 0);
    assert_int_equal(stats->dram_write_requests, 2);
    assert_int_equal(load(h, x, &source), 6);
    memory_harness_close(h);
}

/* The k-th of the harness's zeroed lines in the DRAM channel of h->base. */
static uint64_t channel_line_k(const memory_harness *h, unsigned k)
{
    return h->base + (uint64_t)k * h->timing.memory.line_bytes * h->timing.memory.dram.channels;
}

static void test_write_queue_holds_writers_back(void **state)
{
    (void)state;
    memory_harness harness, *h = &harness;
    const char *sets[] = {"cpu.count=0", "l3.enabled=false", "l2.write_policy=write_through",
                          "dram.request_queue=1", "dram.write_queue=2"};
    memory_harness_open(h, "nol1", sets, 5);
    const memory_stats *stats = memory_statistics(h->memory);
    unsigned cus = h->timing.memory.cu_count, writes = 2 * cus;
    for (unsigned k = 0; k < writes; k++)
        memory_harness_start(h, k % cus, L1_STORE, channel_line_k(h, k), 100 + k);
    memory_harness_settle(h);
    assert_int_equal(stats->dram_write_requests, writes);
    assert_true(stats->l2_memory_write_waits > 0);
    assert_true(stats->dram_write_queue_peak <= 2);
    for (unsigned k = 0; k < writes; k++)
        assert_int_equal(load(h, channel_line_k(h, k), NULL), 100 + k);
    memory_harness_close(h);

    const char *unbounded[] = {"cpu.count=0", "l3.enabled=false", "l2.write_policy=write_through",
                               "dram.request_queue=1", "dram.write_queue=1000"};
    memory_harness_open(h, "nol1", unbounded, 5);
    stats = memory_statistics(h->memory);
    for (unsigned k = 0; k < writes; k++)
        memory_harness_start(h, k % cus, L1_STORE, channel_line_k(h, k), 1);
    memory_harness_settle(h);
    assert_int_equal(stats->l2_memory_write_waits, 0);
    assert_true(stats->dram_write_queue_peak > 2);
    memory_harness_close(h);
}

/* A protocol's build hook makes the L3 writable: here nol1 with such a hook. */
static void make_l3_writable(memory_system *memory)
{
    memory->l3_writable = true;
}

static bool l3_writable_under(const char *protocol)
{
    memory_harness harness;
    const char *sets[] = {"cpu.count=0", SMALL_CACHES};
    memory_harness_open(&harness, protocol, sets, 6);
    bool writable = harness.memory->l3_writable;
    memory_harness_close(&harness);
    return writable;
}

static void test_l3_writable_is_the_protocols_choice(void **state)
{
    (void)state;
    assert_true(l3_writable_under("rfo"));
    assert_false(l3_writable_under("wt"));
    assert_false(l3_writable_under("nol1"));
    assert_false(l3_writable_under("qr"));

    static const protocol_hooks writable_hooks = {.build = make_l3_writable};
    sc_protocol writable = *sc_protocol_find("nol1");
    writable.hooks = &writable_hooks;
    memory_harness harness, *h = &harness;
    const char *sets[] = {"cpu.count=0", "l2.write_policy=write_back", SMALL_CACHES};
    memory_harness_open_protocol(h, &writable, sets, 7);
    const memory_stats *stats = memory_statistics(h->memory);
    const dram_stats *traffic = memory_dram_statistics(h->memory);
    uint64_t x = line_k(h, 0), y = line_k(h, 1), z = line_k(h, 2), w = line_k(h, 3);
    gsi_source source;

    store(h, x, 5);                                            /* X: DRAM fill, dirty in the L2 */
    load(h, y, NULL);                                          /* X's write-back stops at the L3 */
    assert_int_equal(stats->l2_writebacks, 1);
    assert_int_equal(traffic->writes, 0);
    assert_int_equal(load(h, x, &source), 5);                  /* the L3 serves the written line */
    assert_int_equal(source, GSI_SOURCE_L3);

    load(h, z, NULL);                                          /* L3 set {X dirty, Y}: Y is the LRU victim */
    assert_int_equal(stats->l3_writebacks, 0);
    load(h, w, NULL);                                          /* now X is: written back to DRAM */
    assert_int_equal(stats->l3_writebacks, 1);
    assert_int_equal(traffic->writes, 1);
    assert_int_equal(load(h, x, &source), 5);
    assert_int_equal(source, GSI_SOURCE_DRAM);
    memory_harness_close(h);
}

static void test_gpu_reads_pull_dirty_cpu_lines(void **state)
{
    (void)state;
    memory_harness harness, *h = &harness;
    const char *sets[] = {"l2.write_policy=write_back", SMALL_CACHES};
    memory_harness_open(h, "nol1", sets, 6);     /* qr-apu: 2 CPU cores, null directory */
    assert_true(h->timing.memory.cpu_null_directory);
    const memory_stats *stats = memory_statistics(h->memory);
    const dram_stats *traffic = memory_dram_statistics(h->memory);
    uint64_t x = line_k(h, 0), y = line_k(h, 1), z = line_k(h, 2);
    gsi_source source;

    host_wrote_every_line(h);
    assert_int_equal(load(h, x, &source), 0);                  /* dirty in the CPU: pulled from there */
    assert_int_equal(source, GSI_SOURCE_REMOTE);
    load(h, y, NULL);
    assert_int_equal(load(h, x, &source), 0);                  /* the CPU still owns X: pulled again */
    assert_int_equal(source, GSI_SOURCE_REMOTE);
    assert_int_equal(stats->cpu_probe_hits, 3);
    assert_int_equal(stats->l3_hits + stats->l3_misses, 0);
    assert_int_equal(traffic->reads + traffic->writes, 0);

    store(h, x, 7);                                            /* X dirty in the L2 */
    load(h, z, NULL);                                          /* its write-back drops the CPU copy */
    assert_int_equal(stats->cpu_invalidations, 1);
    assert_int_equal(traffic->writes, 1);
    assert_int_equal(load(h, x, &source), 7);                  /* no CPU copy, no L3 copy: DRAM */
    assert_int_equal(source, GSI_SOURCE_DRAM);
    assert_int_equal(stats->cpu_probes, 6);                    /* every read and write reaching memory */

    host_write(h, x, 9);                                       /* the CPU owns X again, the L2 copy is gone */
    assert_int_equal(load(h, x, &source), 9);
    assert_int_equal(source, GSI_SOURCE_REMOTE);
    memory_harness_close(h);
}

static void test_directory_probes_only_lines_the_cpu_holds(void **state)
{
    (void)state;
    memory_harness harness, *h = &harness;
    const char *sets[] = {"directory.entries=4096", "l2.write_policy=write_back", SMALL_CACHES};
    memory_harness_open(h, "nol1", sets, 7);
    assert_false(h->timing.memory.cpu_null_directory);
    const memory_stats *stats = memory_statistics(h->memory);
    uint64_t x = line_k(h, 0), y = line_k(h, 1);
    gsi_source source;

    host_wrote_every_line(h);
    store(h, x, 3);                                            /* fill pulled from the CPU: probe 1 */
    load(h, y, NULL);                                          /* Y pulled (probe 2); X's write-back invalidates (3) */
    assert_int_equal(stats->cpu_probes, 3);
    assert_int_equal(stats->cpu_invalidations, 1);
    assert_int_equal(load(h, x, &source), 3);                  /* the CPU holds no X (nor the L3): no probe */
    assert_int_equal(source, GSI_SOURCE_DRAM);
    assert_int_equal(stats->cpu_probes, 3);
    memory_harness_close(h);
}

static void test_cpu_cluster_tags(void **state)
{
    (void)state;
    cpu_cluster *cluster = cpu_cluster_create(128, 2, 64);    /* one set of two ways */
    assert_non_null(cluster);
    assert_false(cpu_cluster_host_write(cluster, 0));
    assert_false(cpu_cluster_host_read(cluster, 64));
    assert_true(cpu_cluster_probe_read(cluster, 0));            /* dirty: the CPU answers */
    assert_true(cpu_cluster_probe_read(cluster, 0));            /* and keeps owning it */
    assert_false(cpu_cluster_probe_read(cluster, 64));          /* clean: memory answers */
    assert_true(cpu_cluster_host_read(cluster, 128));           /* LRU victim: line 0, dirty */
    assert_false(cpu_cluster_host_write(cluster, 192));         /* victim: line 64, clean */
    assert_true(cpu_cluster_probe_write(cluster, 192));         /* a GPU write drops the copy */
    assert_false(cpu_cluster_probe_read(cluster, 192));
    assert_false(cpu_cluster_probe_write(cluster, 192));
    assert_null(cpu_cluster_create(100, 2, 64));
    cpu_cluster_destroy(cluster);
}

/* The unloaded load-to-use time of the first load of X on a fresh system (GPU cycles); with
 * `warmed`, functional warming first touched X and then Y, which left X in the L3 only. */
static uint64_t first_load_cycles(const char *const *sets, int set_count, bool warmed, gsi_source expected)
{
    memory_harness harness, *h = &harness;
    memory_harness_open(h, "nol1", sets, set_count);
    uint64_t x = line_k(h, 0);
    gsi_source source;
    host_wrote_every_line(h);
    if (warmed) {
        memory_warm_line(h->memory, x, false);
        memory_warm_line(h->memory, line_k(h, 1), false);
        memory_warm_finish(h->memory);
    }
    sc_time start = memory_harness_now(h);
    load(h, x, &source);
    assert_int_equal(source, expected);
    uint64_t cycles = (h->done_time - start) / h->timing.memory.gpu_clock.period;
    memory_harness_close(h);
    return cycles;
}

static void test_latencies(void **state)
{
    (void)state;
    const char *with_l3[] = {"cpu.count=0", SMALL_CACHES};
    const char *without_l3[] = {"cpu.count=0", "l3.enabled=false"};
    uint64_t dram_behind_l3 = first_load_cycles(with_l3, 6, false, GSI_SOURCE_DRAM);
    uint64_t dram_alone = first_load_cycles(without_l3, 2, false, GSI_SOURCE_DRAM);
    /* equal but for the phase of the DRAM clock (400 MHz: 2.5 GPU cycles) the read meets */
    assert_in_range(dram_behind_l3, dram_alone - 2, dram_alone + 2);
    uint64_t l3_hit = first_load_cycles(with_l3, 6, true, GSI_SOURCE_L3);
    assert_true(l3_hit < dram_alone);
    const char *with_cpu[] = {SMALL_CACHES};
    assert_true(first_load_cycles(with_cpu, 5, false, GSI_SOURCE_REMOTE) < dram_alone);

    sc_error error = {{0}};
    const char *bad[] = {"l3.size=100"};
    sc_config *config = sc_config_load("qr-apu", NULL, bad, 1, &error);
    assert_non_null(config);
    timing_config timing;
    assert_int_equal(timing_config_load(config, 0, &timing, &error), -1);
    assert_non_null(strstr(error.message, "l3.size"));
    sc_config_free(config);
}

int main(void)
{
    sc_mechanism_add_config_keys();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_l3_not_writable),
        cmocka_unit_test(test_l2_write_through),
        cmocka_unit_test(test_write_queue_holds_writers_back),
        cmocka_unit_test(test_l3_writable_is_the_protocols_choice),
        cmocka_unit_test(test_gpu_reads_pull_dirty_cpu_lines),
        cmocka_unit_test(test_directory_probes_only_lines_the_cpu_holds),
        cmocka_unit_test(test_cpu_cluster_tags),
        cmocka_unit_test(test_latencies),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
