/* test_dram.c — the DRAM timing model: unloaded latency formula, row hit/miss/conflict timing,
 * FR-FCFS against FCFS ordering within and across banks, bus bandwidth, bank parallelism,
 * channel interleaving, queue capacity, write-to-read and read-to-write turnaround, the
 * four-activate window, refresh (when due, on an idle channel, while busy), exact next-event
 * times and determinism. Expected times are worked out by hand from the constraints in dram_channel.c. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>

#include "timing/dram.h"

enum { LOG_CAPACITY = 4096 };

/* 1 ns DRAM cycle, 4-cycle bursts (128-byte lines over a 32-byte bus), 5 ns pipeline: an unloaded
 * read on an idle bank takes 5 + 12 + 12 + 4 = 33 ns. */
static dram_config test_config(void)
{
    return (dram_config){
        .channels = 2, .banks_per_channel = 4,
        .row_bytes = 2048, .line_bytes = 128, .interleave_bytes = 256,
        .bus_bytes = 32, .queue_entries = 8, .frfcfs = true,
        .clock = {1000}, .pipeline_latency = 5000,
        .t_cl = 12, .t_rcd = 12, .t_rp = 12, .t_ras = 28, .t_rc = 40, .t_rrd = 6,
        .t_wl = 4, .t_wr = 12, .t_cdlr = 5,
    };
}

/* The address of line `line` of row `row` in bank `bank` of channel `channel`: the inverse of
 * the mapping documented in dram.c. */
static uint64_t address_of(const dram_config *config, unsigned channel, unsigned bank, uint64_t row, unsigned line)
{
    uint64_t local = (row * config->banks_per_channel + bank) * config->row_bytes + line * config->line_bytes;
    uint64_t chunk = local / config->interleave_bytes, offset = local % config->interleave_bytes;
    return (chunk * config->channels + channel) * config->interleave_bytes + offset;
}

typedef struct completion_log {
    unsigned count;
    sc_time advanced_to;        /* the `now` of the dram_advance in progress */
    uint64_t tag[LOG_CAPACITY];
    sc_time when[LOG_CAPACITY];
} completion_log;

static void record(void *context, const dram_request *request, sc_time when)
{
    completion_log *log = context;
    assert_true(when <= log->advanced_to);
    if (log->count > 0)
        assert_true(when >= log->when[log->count - 1]);
    assert_true(log->count < LOG_CAPACITY);
    log->tag[log->count] = request->tag;
    log->when[log->count++] = when;
}

static void advance(dram *memory, sc_time now, completion_log *log)
{
    log->advanced_to = now;
    dram_advance(memory, now, record, log);
    sc_time next = dram_next_event(memory);
    assert_true(next == SC_TIME_NEVER || next > now);
}

/* Advances event by event until the memory is idle. */
static void drain(dram *memory, completion_log *log)
{
    for (sc_time next = dram_next_event(memory); next != SC_TIME_NEVER; next = dram_next_event(memory))
        advance(memory, next, log);
}

static void enqueue(dram *memory, uint64_t address, bool is_write, uint64_t tag, sc_time now)
{
    assert_true(dram_can_accept(memory, address));
    dram_request request = {.address = address, .is_write = is_write, .tag = tag};
    dram_enqueue(memory, &request, now);
}

/* The completion time of the request tagged `tag`. */
static sc_time completion_of(const completion_log *log, uint64_t tag)
{
    for (unsigned i = 0; i < log->count; i++)
        if (log->tag[i] == tag)
            return log->when[i];
    fail_msg("request %llu never completed", (unsigned long long)tag);
    return 0;
}

static void test_unloaded_latency_matches_formula(void **state)
{
    (void)state;
    dram_config config = test_config();
    dram *memory = dram_create(&config);
    completion_log log = {0};
    assert_int_equal(dram_next_event(memory), SC_TIME_NEVER);
    enqueue(memory, address_of(&config, 0, 0, 0, 0), false, 1, 0);
    assert_int_equal(dram_next_event(memory), 0);          /* ACT */
    advance(memory, 0, &log);
    assert_int_equal(dram_next_event(memory), 12000);      /* RD after tRCD */
    advance(memory, 12000, &log);
    assert_int_equal(dram_next_event(memory), 33000);      /* data end 28 ns + pipeline */
    drain(memory, &log);
    assert_int_equal(log.count, 1);
    sc_time expected = config.pipeline_latency + sc_clock_span(config.clock, config.t_rcd + config.t_cl + 4);
    assert_int_equal(completion_of(&log, 1), expected);

    /* Off an edge, the request waits for the next DRAM edge (7.5 ns -> 8 ns). */
    enqueue(memory, address_of(&config, 1, 0, 0, 0), false, 2, 7500);
    /* An unloaded write: tRCD + tWL + burst. */
    enqueue(memory, address_of(&config, 0, 1, 0, 0), true, 3, 100000);
    drain(memory, &log);
    assert_int_equal(completion_of(&log, 2), 8000 + expected);
    assert_int_equal(completion_of(&log, 3), 100000 + 5000 + (12 + 4 + 4) * 1000);
    dram_destroy(memory);
}

static void test_row_hit_beats_miss_beats_conflict(void **state)
{
    (void)state;
    dram_config config = test_config();
    dram *memory = dram_create(&config);
    completion_log log = {0};
    enqueue(memory, address_of(&config, 0, 2, 5, 0), false, 1, 0);        /* bank closed: miss */
    drain(memory, &log);
    enqueue(memory, address_of(&config, 0, 2, 5, 3), false, 2, 100000);   /* row 5 open: hit */
    drain(memory, &log);
    enqueue(memory, address_of(&config, 0, 2, 6, 0), false, 3, 200000);   /* row 5 open: conflict */
    drain(memory, &log);
    sc_time miss = completion_of(&log, 1), hit = completion_of(&log, 2) - 100000;
    sc_time conflict = completion_of(&log, 3) - 200000;
    assert_int_equal(hit, 5000 + (12 + 4) * 1000);
    assert_int_equal(miss, 5000 + (12 + 12 + 4) * 1000);
    assert_int_equal(conflict, 5000 + (12 + 12 + 12 + 4) * 1000);
    assert_true(hit < miss && miss < conflict);
    const dram_stats *stats = dram_statistics(memory);
    assert_int_equal(stats->row_hits, 1);
    assert_int_equal(stats->row_misses, 1);
    assert_int_equal(stats->row_conflicts, 1);
    assert_int_equal(stats->reads, 3);
    assert_int_equal(stats->writes, 0);
    dram_destroy(memory);
}

/* Opens row 0 of bank 0, then queues an older request for row 1 and a younger one for row 0 of
 * the same bank; returns the tags in completion order. */
static void complete_miss_then_hit(bool frfcfs, uint64_t order[2])
{
    dram_config config = test_config();
    config.frfcfs = frfcfs;
    dram *memory = dram_create(&config);
    completion_log log = {0};
    enqueue(memory, address_of(&config, 0, 0, 0, 0), false, 0, 0);
    drain(memory, &log);
    enqueue(memory, address_of(&config, 0, 0, 1, 0), false, 1, 100000);
    enqueue(memory, address_of(&config, 0, 0, 0, 1), false, 2, 100000);
    drain(memory, &log);
    assert_int_equal(log.count, 3);
    order[0] = log.tag[1];
    order[1] = log.tag[2];
    if (frfcfs)
        assert_int_equal(log.when[1], 100000 + 5000 + (12 + 4) * 1000);   /* served as a row hit */
    dram_destroy(memory);
}

static void test_frfcfs_serves_row_hit_before_older_miss(void **state)
{
    (void)state;
    uint64_t order[2];
    complete_miss_then_hit(true, order);
    assert_int_equal(order[0], 2);
    assert_int_equal(order[1], 1);
    complete_miss_then_hit(false, order);
    assert_int_equal(order[0], 1);
    assert_int_equal(order[1], 2);
}

/* Row 0 of bank 0 is open; at cycle 100 an older miss to bank 1 and a younger hit to bank 0
 * both have a command ready. Returns the hit's completion time. */
static sc_time hit_beside_older_miss(bool frfcfs)
{
    dram_config config = test_config();
    config.frfcfs = frfcfs;
    dram *memory = dram_create(&config);
    completion_log log = {0};
    enqueue(memory, address_of(&config, 0, 0, 0, 0), false, 0, 0);
    drain(memory, &log);
    enqueue(memory, address_of(&config, 0, 1, 0, 0), false, 1, 100000);
    enqueue(memory, address_of(&config, 0, 0, 0, 1), false, 2, 100000);
    drain(memory, &log);
    sc_time hit = completion_of(&log, 2);
    dram_destroy(memory);
    return hit;
}

static void test_frfcfs_prefers_column_commands_across_banks(void **state)
{
    (void)state;
    assert_int_equal(hit_beside_older_miss(true), 100000 + 5000 + (12 + 4) * 1000);      /* RD at 100 */
    assert_int_equal(hit_beside_older_miss(false), 100000 + 5000 + (1 + 12 + 4) * 1000); /* after ACT */
}

static void test_row_hits_stream_at_one_burst_per_line(void **state)
{
    (void)state;
    dram_config config = test_config();
    config.queue_entries = 16;
    dram *memory = dram_create(&config);
    completion_log log = {0};
    for (unsigned i = 0; i < 12; i++)
        enqueue(memory, address_of(&config, 0, 1, 3, i), false, i, 0);
    drain(memory, &log);
    assert_int_equal(log.count, 12);
    for (unsigned i = 0; i < 12; i++) {
        assert_int_equal(log.tag[i], i);
        assert_int_equal(log.when[i], 33000 + i * 4000);   /* burst = 128 / 32 = 4 cycles */
    }
    const dram_stats *stats = dram_statistics(memory);
    assert_int_equal(stats->bytes, 12 * 128);
    assert_int_equal(stats->bus_busy, 12 * 4000);
    assert_int_equal(stats->row_hits, 11);
    assert_int_equal(stats->row_misses, 1);
    dram_destroy(memory);
}

/* A long controller pipeline holds many finished transfers in flight; it must not throttle the
 * bus, however small the queue. */
static void test_long_pipeline_keeps_bus_streaming(void **state)
{
    (void)state;
    dram_config config = test_config();
    config.queue_entries = 2;
    config.pipeline_latency = 200000;
    dram *memory = dram_create(&config);
    completion_log log = {0};
    sc_time now = 0;
    for (unsigned i = 0; i < 16; i++) {
        uint64_t address = address_of(&config, 1, 2, 7, i);
        while (!dram_can_accept(memory, address)) {
            now = dram_next_event(memory);
            advance(memory, now, &log);
        }
        enqueue(memory, address, false, i, now);
    }
    drain(memory, &log);
    assert_int_equal(log.count, 16);
    for (unsigned i = 0; i < 16; i++)
        assert_int_equal(log.when[i], 200000 + (12 + 12 + 4 + 4 * i) * 1000);
    dram_destroy(memory);
}

static void test_banks_overlap_their_activations(void **state)
{
    (void)state;
    dram_config config = test_config();
    dram *memory = dram_create(&config);
    completion_log log = {0};
    for (unsigned bank = 0; bank < 4; bank++)
        enqueue(memory, address_of(&config, 0, bank, 0, 0), false, bank, 0);
    drain(memory, &log);
    /* ACTs at 0, 6 (tRRD), 13 (cycle 12 went to RD0, column first), 19; RDs at 12, 18, 25, 31. */
    assert_int_equal(completion_of(&log, 0), 33000);
    assert_int_equal(completion_of(&log, 1), 39000);
    assert_int_equal(completion_of(&log, 2), 46000);
    assert_int_equal(completion_of(&log, 3), 52000);
    assert_int_equal(dram_statistics(memory)->row_misses, 4);
    dram_destroy(memory);
}

static void test_channels_interleave_and_work_in_parallel(void **state)
{
    (void)state;
    dram_config config = test_config();
    dram *memory = dram_create(&config);
    assert_int_equal(dram_channel_of(memory, 0), 0);
    assert_int_equal(dram_channel_of(memory, 128), 0);
    assert_int_equal(dram_channel_of(memory, 256), 1);
    assert_int_equal(dram_channel_of(memory, 512), 0);
    assert_int_equal(dram_channel_of(memory, 768 + 128), 1);
    completion_log log = {0};
    enqueue(memory, 0, false, 1, 0);
    enqueue(memory, 256, false, 2, 0);
    drain(memory, &log);
    assert_int_equal(completion_of(&log, 1), 33000);
    assert_int_equal(completion_of(&log, 2), 33000);
    /* Lines 0 and 128 share channel 0 and row 0 of bank 0: the second is a hit, one burst later. */
    enqueue(memory, 0, false, 3, 100000);
    enqueue(memory, 128, false, 4, 100000);
    drain(memory, &log);
    assert_int_equal(completion_of(&log, 4), completion_of(&log, 3) + 4000);
    dram_destroy(memory);
}

static void test_full_queue_refuses_until_a_request_issues(void **state)
{
    (void)state;
    dram_config config = test_config();
    dram *memory = dram_create(&config);
    completion_log log = {0};
    for (unsigned i = 0; i < config.queue_entries; i++)
        enqueue(memory, address_of(&config, 0, 0, 0, i), false, i, 0);
    assert_false(dram_can_accept(memory, address_of(&config, 0, 3, 9, 0)));
    assert_true(dram_can_accept(memory, address_of(&config, 1, 0, 0, 0)));
    const dram_stats *stats = dram_statistics(memory);
    assert_int_equal(stats->queue_samples, 8);
    assert_int_equal(stats->queue_peak, 8);
    assert_int_equal(stats->queue_occupancy_sum, 1 + 2 + 3 + 4 + 5 + 6 + 7 + 8);
    advance(memory, 11999, &log);
    assert_false(dram_can_accept(memory, 0));
    advance(memory, 12000, &log);                /* the first RD leaves the queue */
    assert_true(dram_can_accept(memory, 0));
    assert_int_equal(log.count, 0);
    dram_destroy(memory);
}

/* A write to bank 0 and a read to bank 1, both at 0; returns the read's completion time. */
static sc_time read_after_write(unsigned t_cdlr)
{
    dram_config config = test_config();
    config.t_cdlr = t_cdlr;
    dram *memory = dram_create(&config);
    completion_log log = {0};
    enqueue(memory, address_of(&config, 0, 0, 0, 0), true, 1, 0);
    enqueue(memory, address_of(&config, 0, 1, 0, 0), false, 2, 0);
    drain(memory, &log);
    assert_int_equal(completion_of(&log, 1), 5000 + (12 + 4 + 4) * 1000);   /* WR at 12, data to 20 */
    sc_time read = completion_of(&log, 2);
    dram_destroy(memory);
    return read;
}

static void test_write_to_read_turnaround_delays_read(void **state)
{
    (void)state;
    /* Without the write the read (ACT at 6 after tRRD) would issue at 18. */
    assert_int_equal(read_after_write(0), 5000 + (20 + 12 + 4) * 1000);
    assert_int_equal(read_after_write(20), 5000 + (40 + 12 + 4) * 1000);
}

static void test_read_to_write_turnaround_delays_write(void **state)
{
    (void)state;
    for (unsigned t_rtw = 0; t_rtw <= 20; t_rtw += 20) {
        dram_config config = test_config();
        config.t_rtw = t_rtw;
        dram *memory = dram_create(&config);
        completion_log log = {0};
        enqueue(memory, address_of(&config, 0, 0, 0, 0), false, 1, 0);   /* ACT 0, RD 12, data to 28 */
        enqueue(memory, address_of(&config, 0, 1, 0, 0), true, 2, 0);    /* ACT 6, WR ready at 18 */
        drain(memory, &log);
        assert_int_equal(completion_of(&log, 1), 33000);
        /* The bus alone lets the write's data start as the read's ends (WR at 24); tRTW 20 holds
         * the WR until 32. */
        sc_time expected = t_rtw ? 5000 + (32 + 4 + 4) * 1000 : 5000 + (24 + 4 + 4) * 1000;
        assert_int_equal(completion_of(&log, 2), expected);
        dram_destroy(memory);
    }
}

static void test_four_activate_window_holds_the_fifth_activate(void **state)
{
    (void)state;
    dram_config config = test_config();
    config.banks_per_channel = 8;
    config.t_faw = 100;
    dram *memory = dram_create(&config);
    completion_log log = {0};
    for (unsigned bank = 0; bank < 5; bank++)
        enqueue(memory, address_of(&config, 0, bank, 0, 0), false, bank, 0);
    drain(memory, &log);
    /* The first ACT at 0: the fifth waits until 100, reads at 112, its data ends at 128. */
    assert_int_equal(completion_of(&log, 4), 5000 + (100 + 12 + 12 + 4) * 1000);
    for (unsigned bank = 0; bank < 4; bank++)
        assert_true(completion_of(&log, bank) < 100000);
    dram_destroy(memory);
}

static void test_refresh_closes_rows_and_blocks_activates(void **state)
{
    (void)state;
    dram_config config = test_config();
    config.t_rfc = 50;
    config.t_refi = 200;
    dram *memory = dram_create(&config);
    completion_log log = {0};
    enqueue(memory, address_of(&config, 0, 0, 0, 0), false, 1, 0);
    drain(memory, &log);
    assert_int_equal(completion_of(&log, 1), 33000);
    /* The refresh due at 200 closed row 0 and holds activates until 250: the same row at 210 is
     * a miss that activates at 250. */
    enqueue(memory, address_of(&config, 0, 0, 0, 1), false, 2, 210000);
    drain(memory, &log);
    assert_int_equal(completion_of(&log, 2), 5000 + (250 + 12 + 12 + 4) * 1000);
    assert_int_equal(dram_statistics(memory)->refreshes, 1);
    /* Idle from then until 10,000: 49 refreshes fell in idle time and the one due at 10,000 runs
     * until 10,050. */
    enqueue(memory, address_of(&config, 0, 0, 0, 2), false, 3, 10000000);
    drain(memory, &log);
    assert_int_equal(completion_of(&log, 3), 5000 + (10050 + 12 + 12 + 4) * 1000);
    assert_int_equal(dram_statistics(memory)->refreshes, 50);
    dram_destroy(memory);
}

static void test_refresh_interrupts_a_busy_channel(void **state)
{
    (void)state;
    dram_config config = test_config();
    config.t_rfc = 50;
    config.t_refi = 200;
    dram *memory = dram_create(&config);
    completion_log log = {0};
    /* Row hits in bank 0 every 8 cycles from 0 to 900 (half the bus's rate, so the backlog a
     * refresh leaves drains): the refreshes due at 200, 400, 600 and 800 each stop the stream,
     * and the first read after each one activates the row again. */
    sc_time now = 0;
    unsigned tags = 0;
    for (; now <= 900000; now += 8000) {
        advance(memory, now, &log);
        if (dram_can_accept(memory, address_of(&config, 0, 0, 0, 0)))
            enqueue(memory, address_of(&config, 0, 0, 0, tags % 16), false, tags, now), tags++;
    }
    drain(memory, &log);
    const dram_stats *stats = dram_statistics(memory);
    assert_int_equal(stats->refreshes, 4);
    assert_int_equal(stats->row_misses, 1 + 4);
    assert_int_equal(stats->reads, tags);
    dram_destroy(memory);
}

/* Issues `count` pseudo-random requests every 300 ps, waiting while a queue is full. */
static void run_random_requests(const dram_config *config, unsigned count, completion_log *log)
{
    dram *memory = dram_create(config);
    uint64_t seed = 0x5eed;
    sc_time now = 0;
    for (unsigned i = 0; i < count; i++) {
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        uint64_t address = (seed >> 24) % (1u << 20) / config->line_bytes * config->line_bytes;
        now += 300;
        advance(memory, now, log);
        while (!dram_can_accept(memory, address)) {
            now = dram_next_event(memory);
            advance(memory, now, log);
        }
        enqueue(memory, address, (seed >> 60) < 5, i, now);
    }
    drain(memory, log);
    assert_int_equal(log->count, count);
    const dram_stats *stats = dram_statistics(memory);
    assert_int_equal(stats->reads + stats->writes, count);
    assert_int_equal(stats->row_hits + stats->row_misses + stats->row_conflicts, count);
    dram_destroy(memory);
}

static void test_same_sequence_gives_same_times(void **state)
{
    (void)state;
    dram_config config = test_config();
    for (int frfcfs = 0; frfcfs < 2; frfcfs++) {
        config.frfcfs = frfcfs;
        completion_log *first = calloc(1, sizeof *first), *second = calloc(1, sizeof *second);
        run_random_requests(&config, 3000, first);
        run_random_requests(&config, 3000, second);
        assert_memory_equal(first->tag, second->tag, sizeof first->tag);
        assert_memory_equal(first->when, second->when, sizeof first->when);
        free(first);
        free(second);
    }
}

static void test_invalid_config_is_refused(void **state)
{
    (void)state;
    dram_config config = test_config();
    config.bus_bytes = 0;
    assert_null(dram_create(&config));
    config = test_config();
    config.t_rfc = 50;
    config.t_refi = 50;   /* a refresh that never ends before the next is due */
    assert_null(dram_create(&config));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_unloaded_latency_matches_formula),
        cmocka_unit_test(test_row_hit_beats_miss_beats_conflict),
        cmocka_unit_test(test_frfcfs_serves_row_hit_before_older_miss),
        cmocka_unit_test(test_frfcfs_prefers_column_commands_across_banks),
        cmocka_unit_test(test_row_hits_stream_at_one_burst_per_line),
        cmocka_unit_test(test_long_pipeline_keeps_bus_streaming),
        cmocka_unit_test(test_banks_overlap_their_activations),
        cmocka_unit_test(test_channels_interleave_and_work_in_parallel),
        cmocka_unit_test(test_full_queue_refuses_until_a_request_issues),
        cmocka_unit_test(test_write_to_read_turnaround_delays_read),
        cmocka_unit_test(test_read_to_write_turnaround_delays_write),
        cmocka_unit_test(test_four_activate_window_holds_the_fifth_activate),
        cmocka_unit_test(test_refresh_closes_rows_and_blocks_activates),
        cmocka_unit_test(test_refresh_interrupts_a_busy_channel),
        cmocka_unit_test(test_same_sequence_gives_same_times),
        cmocka_unit_test(test_invalid_config_is_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
