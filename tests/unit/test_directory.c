/* test_directory.c — the rfo directory, driven access by access on a two-CU qr-apu memory system
 * whose directory has one entry per L2 bank: a store gets ownership, a read from the other CU is
 * forwarded to the owner (data from a remote L1, both keep copies), a store by the O owner writes
 * the line back and invalidates the sharer, an atomic is performed in the L1 that owns the line,
 * a second line in the same bank recalls the first one's entry (the owner's dirty data reaches
 * the home), and every value read, and the image after a host read, is what the program wrote.
 * A hot line: atomics on an owned line, and atomics waiting for a line's ownership, go through
 * the owner's atomic unit one per cycle, and the owner answers a forward only once its unit has
 * performed what it took.
 * The NoC traffic classes of the same messages (docs/noc-energy.md): a store's GetM and grant are
 * ST, a load's GetS and grant LD, forwards, owner data and write-backs RCL, invalidations and their
 * acknowledgements INV, and a recall's invalidation and acknowledgement RCL.
 * mesi with write-through L1s: a store or atomic invalidates the other sharer before the L2
 * performs it, and the writer keeps no copy; with mesi.ideal_permissions the other copy is dropped
 * at once and the store takes less time. Two CUs' reads of one line wait for each other at the
 * blocking directory (dir_deferrals), and not under mesi.dir_reads concurrent, where a steady stream
 * of reads joining one line's read does not starve a store to it. rfo.cross_kernel drop: a kernel start writes back
 * and drops what the L1s hold; keep leaves it there.
 * A toy directory machine with a guarded row checks that the directory takes the first row whose
 * guard holds, and what its guard sees. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "memory_harness.h"
#include "protocols/common/directory.h"

static int setup(void **state)
{
    static memory_harness h;
    const char *sets[] = {"gpu.cu_count=2", "directory.full_map_size=128", "directory.full_map_associativity=1"};
    memory_harness_open(&h, "rfo", sets, 3);
    assert_int_equal(directory_config_of(&h.timing.memory)->entries, 1);
    *state = &h;
    return 0;
}

static int teardown(void **state)
{
    memory_harness_close(*state);
    return 0;
}

/* Line Y: in the same L2 bank (and directory set) as line X = h->base. */
static uint64_t line_y(const memory_harness *h)
{
    return h->base + (uint64_t)h->timing.memory.line_bytes * h->timing.memory.l2_banks;
}

static uint32_t image_word(memory_harness *h, uint64_t address)
{
    memory_host_access(h->memory, address, 4, false);
    uint32_t word;
    memcpy(&word, sc_device_global_pointer(h->device, address, 4), 4);
    return word;
}

static void test_ownership_forwarding_invalidation_and_recall(void **state)
{
    memory_harness *h = *state;
    gsi_source source;

    memory_harness_access(h, 0, L1_STORE, h->base, 1, NULL);            /* CU0: I -> M (GetM, home) */
    assert_int_equal(ownership_stats_of(h->memory)->dir_lookups, 1);
    assert_int_equal(image_word(h, h->base), 1);                       /* host read sees the L1's M data */

    assert_int_equal(memory_harness_access(h, 1, L1_LOAD, h->base, 0, &source), 1);   /* forwarded to CU0 */
    assert_int_equal(source, GSI_SOURCE_REMOTE_L1);
    assert_int_equal(ownership_stats_of(h->memory)->dir_forwards, 1);
    assert_int_equal(memory_harness_access(h, 1, L1_LOAD, h->base, 0, &source), 1);   /* CU1 now hits in S */
    assert_int_equal(source, GSI_SOURCE_L1);

    memory_harness_access(h, 0, L1_STORE, h->base + 4, 2, NULL);        /* CU0 in O: Put, GetM, Inv CU1 */
    assert_int_equal(ownership_stats_of(h->memory)->l1_writebacks, 1);
    assert_int_equal(ownership_stats_of(h->memory)->dir_invalidations, 1);
    assert_int_equal(memory_harness_access(h, 1, L1_LOAD, h->base + 4, 0, &source), 2);   /* miss again */
    assert_int_equal(source, GSI_SOURCE_REMOTE_L1);

    assert_int_equal(memory_harness_access(h, 1, L1_ATOMIC, h->base, 10, NULL), 1);   /* CU1 gets M, adds */
    assert_int_equal(memory_harness_access(h, 0, L1_LOAD, h->base, 0, NULL), 11);

    uint64_t recalls = ownership_stats_of(h->memory)->dir_recalls;
    memory_harness_access(h, 1, L1_STORE, line_y(h), 7, NULL);          /* Y's entry recalls X's */
    assert_int_equal(ownership_stats_of(h->memory)->dir_recalls, recalls + 1);
    assert_int_equal(memory_harness_access(h, 0, L1_LOAD, h->base, 0, &source), 11);  /* recalls Y; X from home */
    assert_int_equal(source, GSI_SOURCE_L2);
    assert_int_equal(memory_harness_access(h, 0, L1_LOAD, line_y(h), 0, &source), 7);  /* Y's dirty data was recalled */
    assert_int_equal(source, GSI_SOURCE_L2);
    assert_int_equal(ownership_stats_of(h->memory)->dir_recalls, recalls + 3);
    assert_int_equal(image_word(h, h->base), 11);
    assert_int_equal(image_word(h, h->base + 4), 2);
    assert_int_equal(image_word(h, line_y(h)), 7);
    for (unsigned cu = 0; cu < 2; cu++) {
        assert_int_equal(l1_writes_outstanding(h->memory, cu), 0);
        assert_true(l1_drained(h->memory, cu));
    }
}

/* mesi with write-through L1s (mesi.stores=write_through, Ren's SC baseline): reads get S, never
 * E; a store or atomic drops the writer's copy and goes to the directory, which invalidates the
 * other sharer before the L2 performs it; nothing is owned or written back. */
static void test_write_through_mesi(void **state)
{
    (void)state;
    memory_harness fresh, *h = &fresh;
    const char *sets[] = {"gpu.cu_count=2", "mesi.stores=write_through"};
    memory_harness_open(h, "mesi", sets, 2);
    const ownership_stats *stats = ownership_stats_of(h->memory);
    gsi_source source;

    assert_int_equal(memory_harness_access(h, 0, L1_LOAD, h->base, 0, NULL), 0);   /* both read: S */
    assert_int_equal(memory_harness_access(h, 1, L1_LOAD, h->base, 0, NULL), 0);
    assert_int_equal(memory_harness_access(h, 1, L1_LOAD, h->base, 0, &source), 0);
    assert_int_equal(source, GSI_SOURCE_L1);

    memory_harness_access(h, 0, L1_STORE, h->base, 5, NULL);            /* Inv CU1, the L2 writes */
    assert_int_equal(stats->dir_invalidations, 1);
    assert_int_equal(memory_harness_access(h, 1, L1_LOAD, h->base, 0, &source), 5);
    assert_int_equal(source, GSI_SOURCE_L2);
    assert_int_equal(memory_harness_access(h, 0, L1_LOAD, h->base, 0, &source), 5);   /* no copy kept */
    assert_int_equal(source, GSI_SOURCE_L2);

    assert_int_equal(memory_harness_access(h, 1, L1_ATOMIC, h->base, 10, NULL), 5);   /* Inv CU0 */
    assert_int_equal(stats->dir_invalidations, 2);
    assert_int_equal(memory_harness_access(h, 0, L1_LOAD, h->base, 0, NULL), 15);
    memory_harness_access(h, 1, L1_STORE, h->base + 4, 7, NULL);        /* Inv CU0 again */
    assert_int_equal(stats->dir_invalidations, 3);
    assert_int_equal(memory_harness_access(h, 0, L1_LOAD, h->base + 4, 0, NULL), 7);

    assert_int_equal(stats->l1_ownership_requests, 0);
    assert_int_equal(stats->l1_writebacks, 0);
    assert_int_equal(stats->dir_forwards, 0);
    assert_int_equal(image_word(h, h->base), 15);
    assert_int_equal(image_word(h, h->base + 4), 7);
    for (unsigned cu = 0; cu < 2; cu++)
        assert_true(l1_drained(h->memory, cu));
    memory_harness_close(h);
}

/* Under mesi.stores write_through: how long CU0's store of 5 takes while CU1 shares the line, with
 * mesi.ideal_permissions `ideal`; the store drops CU1's copy either way (counted as one
 * invalidation), and both CUs read 5 from the L2 afterwards. */
static sc_time shared_store_time(const char *ideal)
{
    memory_harness fresh, *h = &fresh;
    const char *sets[] = {"gpu.cu_count=2", "mesi.stores=write_through", ideal};
    memory_harness_open(h, "mesi", sets, 3);
    const ownership_stats *stats = ownership_stats_of(h->memory);
    gsi_source source;
    memory_harness_access(h, 0, L1_LOAD, h->base, 0, NULL);
    memory_harness_access(h, 1, L1_LOAD, h->base, 0, NULL);
    assert_int_equal(memory_harness_access(h, 1, L1_LOAD, h->base, 0, &source), 0);
    assert_int_equal(source, GSI_SOURCE_L1);
    sc_time start = memory_harness_now(h);
    memory_harness_access(h, 0, L1_STORE, h->base, 5, NULL);
    sc_time taken = h->done_time - start;
    assert_int_equal(stats->dir_invalidations, 1);
    for (unsigned cu = 0; cu < 2; cu++) {
        assert_int_equal(memory_harness_access(h, cu, L1_LOAD, h->base, 0, &source), 5);
        assert_int_equal(source, GSI_SOURCE_L2);
    }
    assert_int_equal(image_word(h, h->base), 5);
    memory_harness_close(h);
    return taken;
}

/* mesi.ideal_permissions (the thesis's SC-ideal): the store waits for no invalidation's round
 * trip, so it takes less time than with invalidation messages and acks, and the values agree. */
static void test_ideal_permissions_drop_sharers_at_once(void **state)
{
    (void)state;
    sc_time with_messages = shared_store_time("mesi.ideal_permissions=false");
    sc_time instant = shared_store_time("mesi.ideal_permissions=true");
    assert_true(instant < with_messages);
}

/* Starts `count` one-lane atomic adds of 1 on `address` from CU `cu`, all at `now`. */
static void start_atomics(memory_harness *h, unsigned cu, uint64_t address, unsigned count, sc_time now,
                          uint32_t *ops)
{
    for (unsigned i = 0; i < count; i++)
        ops[i] = memory_harness_start_at(h, cu, L1_ATOMIC, address, 1, now);
}

/* Runs events until every op of `ops` is done; records each one's completion time. */
static void complete(memory_harness *h, const uint32_t *ops, unsigned count, sc_time *done)
{
    unsigned remaining = count;
    while (remaining && memory_harness_step(h))
        for (unsigned i = 0; i < count; i++)
            if (h->done_op == ops[i] && done[i] == 0) {
                done[i] = h->done_time;
                remaining--;
                h->done_op = MEMORY_OP_NONE;
            }
    assert_int_equal(remaining, 0);
}

static void test_hot_line_atomics_take_the_atomic_unit_in_turn(void **state)
{
    memory_harness *h = *state;
    uint64_t x = h->base + 8 * h->timing.memory.line_bytes;
    sc_time cycle = h->timing.memory.gpu_clock.period;
    memory_harness_access(h, 0, L1_ATOMIC, x, 1, NULL);            /* CU0 owns x, x = 1 */
    sc_time now = memory_harness_now(h) + 1000 * cycle;

    /* Four atomics on the owned line at once: answered one cycle apart, in order. */
    uint32_t ops[4];
    sc_time done[4] = {0};
    start_atomics(h, 0, x, 4, now, ops);
    complete(h, ops, 4, done);
    for (unsigned i = 0; i < 4; i++) {
        assert_int_equal(done[i], now + sc_clock_span(h->timing.memory.gpu_clock, h->timing.memory.l1_latency) +
                                      i * cycle);
        assert_int_equal(memory_harness_value(h, ops[i]), 1 + i);
    }

    /* Four atomics of CU1 waiting for the line: performed when the owner's data arrives, one
     * per cycle. */
    now = done[3] + 1000 * cycle;
    sc_time waited[4] = {0};
    start_atomics(h, 1, x, 4, now, ops);
    complete(h, ops, 4, waited);
    for (unsigned i = 0; i < 4; i++) {
        assert_int_equal(waited[i], waited[0] + i * cycle);
        assert_int_equal(memory_harness_value(h, ops[i]), 5 + i);
    }

    /* CU0 takes eight atomics on the line CU1 owns while CU1 is given four more at once: CU1
     * answers CU0's forward only after its unit performed its four, so CU0's atomics see them. */
    now = waited[3] + 1000 * cycle;
    uint32_t mine[4], theirs[8];
    sc_time mine_done[4] = {0}, theirs_done[8] = {0};
    start_atomics(h, 1, x, 4, now, mine);
    start_atomics(h, 0, x, 8, now, theirs);
    complete(h, mine, 4, mine_done);
    complete(h, theirs, 8, theirs_done);
    for (unsigned i = 0; i < 4; i++)
        assert_int_equal(memory_harness_value(h, mine[i]), 9 + i);
    for (unsigned i = 0; i < 8; i++) {
        assert_int_equal(memory_harness_value(h, theirs[i]), 13 + i);
        assert_true(theirs_done[i] > mine_done[3]);
    }
    assert_int_equal(image_word(h, x), 21);
}

/* Two CUs' reads of one line at the same time, under mesi.dir_reads `dir_reads`: returns the time
 * between their completions and sets *deferrals; both read 0, and after CU0's store of 9 (which
 * invalidates CU1's copy, so both reads left CU1 a sharer) CU1 reads 9. */
static sc_time two_reads_of_one_line(const char *dir_reads, uint64_t *deferrals, sc_time *l2_access)
{
    memory_harness fresh, *h = &fresh;
    const char *sets[] = {"gpu.cu_count=2", "mesi.stores=write_through", dir_reads};
    memory_harness_open(h, "mesi", sets, 3);
    memory_harness_access(h, 0, L1_LOAD, h->base + h->timing.memory.line_bytes, 0, NULL);   /* warms the bank */
    sc_time now = memory_harness_now(h) + 1000 * h->timing.memory.gpu_clock.period;
    uint32_t ops[2] = {memory_harness_start_at(h, 0, L1_LOAD, h->base, 0, now),
                       memory_harness_start_at(h, 1, L1_LOAD, h->base, 0, now)};
    sc_time done[2] = {0};
    h->done_op = MEMORY_OP_NONE;   /* the warming access's handle may be reused by ops[0] */
    complete(h, ops, 2, done);
    *deferrals = ownership_stats_of(h->memory)->dir_deferrals;
    *l2_access = sc_clock_span(h->timing.memory.gpu_clock, h->timing.memory.l2_latency);
    sc_time first = done[0] < done[1] ? done[0] : done[1], second = done[0] < done[1] ? done[1] : done[0];
    assert_int_equal(memory_harness_value(h, ops[0]), 0);
    assert_int_equal(memory_harness_value(h, ops[1]), 0);
    memory_harness_access(h, 0, L1_STORE, h->base, 9, NULL);
    assert_int_equal(ownership_stats_of(h->memory)->dir_invalidations, 1);
    assert_int_equal(memory_harness_access(h, 1, L1_LOAD, h->base, 0, NULL), 9);
    memory_harness_close(h);
    return second - first;
}

/* The blocking directory (mesi.dir_reads blocking): the second read waits in the first's
 * transaction (dir_deferrals) and gets its grant an L2 access later (every grant's data comes
 * from the home). With concurrent, it joins the first's read of the home and is granted in less
 * than an L2 access after the first, with nothing deferred. */
static void test_reads_of_one_line_wait_in_turn_unless_concurrent(void **state)
{
    (void)state;
    uint64_t deferrals;
    sc_time l2_access;
    assert_true(two_reads_of_one_line("mesi.dir_reads=blocking", &deferrals, &l2_access) >= l2_access);
    assert_int_equal(deferrals, 1);
    assert_true(two_reads_of_one_line("mesi.dir_reads=concurrent", &deferrals, &l2_access) < l2_access);
    assert_int_equal(deferrals, 0);
}

/* Runs the events due before `until`; notes the time of the event that finished each started
 * operation of `ops` (MEMORY_OP_NONE: not started yet), however many one event finishes. */
static void run_until(memory_harness *h, sc_time until, const uint32_t *ops, unsigned count, sc_time *done)
{
    while (h->events.count && event_queue_next_time(&h->events) < until) {
        sc_time now = event_queue_next_time(&h->events);
        memory_harness_step(h);
        for (unsigned i = 0; i < count; i++)
            if (ops[i] != MEMORY_OP_NONE && done[i] == 0 && memory_op_get(h->memory, ops[i])->lines_pending == 0)
                done[i] = now;
    }
}

enum { STREAM_CUS = 64, STREAM_READS = STREAM_CUS - 1 };

/* mesi.dir_reads concurrent under a steady stream of reads of line X: CU k (1..63) reads X a
 * quarter of an L2 access after CU k - 1, so a new read always arrives before the last joined one
 * is due and the transaction on X would stay open until the stream ends if reads kept joining it.
 * CU0 (a sharer) stores 5 to X one and a half read gaps into the stream. Once the store waits in
 * the transaction no read joins (MESI_READ_JOINS), so the transaction closes when the reads that
 * joined before it are granted, and the store is done long before the stream ends (15.5 L2
 * accesses); every read sees 0 or 5, and those issued after the store is done see 5. */
static void test_a_stream_of_joining_reads_does_not_starve_a_write(void **state)
{
    (void)state;
    memory_harness fresh, *h = &fresh;
    const char *sets[] = {"gpu.cu_count=64", "mesi.stores=write_through", "mesi.dir_reads=concurrent"};
    memory_harness_open(h, "mesi", sets, 3);
    sc_time l2_access = sc_clock_span(h->timing.memory.gpu_clock, h->timing.memory.l2_latency);
    sc_time gap = l2_access / 4;
    memory_harness_access(h, 0, L1_LOAD, h->base, 0, NULL);   /* X in the L2; CU0 a sharer */
    sc_time start = memory_harness_now(h) + 1000 * h->timing.memory.gpu_clock.period;
    sc_time store_at = start + gap + gap / 2;

    uint32_t ops[STREAM_READS + 1];
    sc_time issued[STREAM_READS + 1], done[STREAM_READS + 1] = {0};
    for (unsigned i = 0; i <= STREAM_READS; i++)
        ops[i] = MEMORY_OP_NONE;
    h->done_op = MEMORY_OP_NONE;
    for (unsigned k = 1; k <= STREAM_READS; k++) {
        sc_time read_at = start + (k - 1) * gap;
        if (ops[0] == MEMORY_OP_NONE && store_at <= read_at) {
            run_until(h, store_at, ops, STREAM_READS + 1, done);
            ops[0] = memory_harness_start_at(h, 0, L1_STORE, h->base, 5, store_at);
        }
        run_until(h, read_at, ops, STREAM_READS + 1, done);
        ops[k] = memory_harness_start_at(h, k, L1_LOAD, h->base, 0, read_at);
        issued[k] = read_at;
    }
    run_until(h, UINT64_MAX, ops, STREAM_READS + 1, done);

    assert_true(done[0] != 0 && done[0] < issued[STREAM_READS]);
    for (unsigned k = 1; k <= STREAM_READS; k++) {
        uint32_t value = memory_harness_value(h, ops[k]);
        assert_true(value == 0 || value == 5);
        if (issued[k] > done[0])
            assert_int_equal(value, 5);
    }
    memory_harness_value(h, ops[0]);
    assert_int_equal(image_word(h, h->base), 5);
    memory_harness_close(h);
}

/* The bytes each traffic class gained since `before` are the expected ones; `before` moves on. */
static void expect_class_bytes(memory_harness *h, uint64_t *before, uint64_t ld, uint64_t st, uint64_t ato,
                               uint64_t inv, uint64_t rcl)
{
    const uint64_t *now = memory_noc_statistics(h->memory)->class_bytes;
    assert_int_equal(now[NOC_TRAFFIC_LD] - before[NOC_TRAFFIC_LD], ld);
    assert_int_equal(now[NOC_TRAFFIC_ST] - before[NOC_TRAFFIC_ST], st);
    assert_int_equal(now[NOC_TRAFFIC_ATO] - before[NOC_TRAFFIC_ATO], ato);
    assert_int_equal(now[NOC_TRAFFIC_REQ] - before[NOC_TRAFFIC_REQ], 0);
    assert_int_equal(now[NOC_TRAFFIC_INV] - before[NOC_TRAFFIC_INV], inv);
    assert_int_equal(now[NOC_TRAFFIC_RCL] - before[NOC_TRAFFIC_RCL], rcl);
    memcpy(before, now, sizeof(uint64_t) * NOC_TRAFFIC_CLASS_COUNT);
}

static void test_traffic_classes_of_directory_messages(void **state)
{
    (void)state;
    memory_harness fresh, *h = &fresh;
    const char *sets[] = {"gpu.cu_count=2", "directory.full_map_size=128", "directory.full_map_associativity=1"};
    memory_harness_open(h, "rfo", sets, 3);
    const uint64_t header = MEMORY_MESSAGE_HEADER_BYTES, line = h->timing.memory.line_bytes;
    uint64_t before[NOC_TRAFFIC_CLASS_COUNT] = {0};

    memory_harness_access(h, 0, L1_STORE, h->base, 1, NULL);      /* GetM, grant with the line */
    expect_class_bytes(h, before, 0, 2 * header + line, 0, 0, 0);
    memory_harness_access(h, 1, L1_LOAD, h->base, 0, NULL);       /* GetS, FwdGetS, OwnerData, grant */
    expect_class_bytes(h, before, 2 * header + line, 0, 0, 0, 2 * header + line);
    memory_harness_access(h, 1, L1_ATOMIC, h->base, 10, NULL);    /* GetM, FwdGetM to the O owner,
                                                                      OwnerData, grant */
    expect_class_bytes(h, before, 0, 0, 2 * header + line, 0, 2 * header + line);
    memory_harness_access(h, 0, L1_LOAD, h->base, 0, NULL);       /* the same, CU1 owning */
    expect_class_bytes(h, before, 2 * header + line, 0, 0, 0, 2 * header + line);
    memory_harness_access(h, 0, L1_STORE, h->base, 3, NULL);      /* GetM, FwdGetM, OwnerData, grant */
    expect_class_bytes(h, before, 0, 2 * header + line, 0, 0, 2 * header + line);
    memory_harness_access(h, 1, L1_LOAD, h->base, 0, NULL);       /* the same: CU0 O, CU1 S */
    expect_class_bytes(h, before, 2 * header + line, 0, 0, 0, 2 * header + line);
    /* Y's entry recalls X's (one entry per bank): FwdGetM to the owner and its OwnerData, the Inv
     * of CU1's copy and its InvAck, all RCL; Y's GetM and grant are the store's. */
    memory_harness_access(h, 1, L1_STORE, line_y(h), 7, NULL);
    expect_class_bytes(h, before, 0, 2 * header + line, 0, 0, 2 * header + line + 2 * header);
    memory_harness_access(h, 0, L1_LOAD, line_y(h), 0, NULL);     /* the same: CU1 O, CU0 S */
    expect_class_bytes(h, before, 2 * header + line, 0, 0, 0, 2 * header + line);
    /* The O owner stores: it writes the line back (Put, PutAck: RCL), asks for ownership (GetM,
     * grant: ST) and the sharer's copy is invalidated (Inv, InvAck: INV). */
    memory_harness_access(h, 1, L1_STORE, line_y(h) + 4, 8, NULL);
    expect_class_bytes(h, before, 0, 2 * header + line, 0, 2 * header, 2 * header + line);
    memory_harness_close(h);
}

/* The toy: MESI's L1 over a directory that grants a first reader E, except to odd CUs, which get
 * S (a guarded row). The guard records what it was shown. */
enum { GUARD_ODD_REQUESTER = 1 };
static directory_guard_view toy_seen;
static unsigned toy_guard_calls;

static bool toy_guard(memory_system *memory, const directory_guard_view *line, unsigned guard)
{
    (void)memory;
    toy_seen = *line;
    toy_guard_calls++;
    return guard == GUARD_ODD_REQUESTER && line->requester % 2 == 1;
}

static const protocol_transition toy_directory[] = {
    PROTOCOL_GUARDED_ROW(DIR_I, DIR_GET_S, GUARD_ODD_REQUESTER, DIR_WAIT_HOME_S, DIR_OPEN, DIR_READ_HOME),
    PROTOCOL_ROW(DIR_I, DIR_GET_S, DIR_WAIT_HOME_E, DIR_OPEN, DIR_READ_HOME),
    PROTOCOL_ROW(DIR_WAIT_HOME_E, DIR_HOME_DATA, DIR_M, DIR_TAKE_DATA, DIR_SET_OWNER, DIR_GRANT_E, DIR_CLOSE),
    PROTOCOL_ROW(DIR_WAIT_HOME_S, DIR_HOME_DATA, DIR_S, DIR_TAKE_DATA, DIR_ADD_REQUESTER, DIR_GRANT_S, DIR_CLOSE),
};
static const directory_machine toy_machine = {
    .table = toy_directory, .size = sizeof toy_directory / sizeof toy_directory[0], .guard = toy_guard};

static void toy_build(memory_system *memory) { directory_build(memory, &toy_machine); }

static const protocol_hooks toy_hooks = DIRECTORY_HOOKS(toy_build);

static void test_guarded_directory_rows(void **state)
{
    (void)state;
    sc_protocol toy = *sc_protocol_find("mesi");
    toy.name = "toy";
    toy.hooks = &toy_hooks;
    memory_harness harness, *h = &harness;
    const char *sets[] = {"gpu.cu_count=2"};
    memory_harness_open_protocol(h, &toy, sets, 1);
    uint64_t line = h->timing.memory.line_bytes;
    assert_int_equal(memory_harness_access(h, 0, L1_LOAD, h->base, 0, NULL), 0);
    assert_int_equal(toy_guard_calls, 2);   /* admitting the GetS and running it select its row */
    assert_int_equal(toy_seen.requester, 0);
    assert_int_equal(toy_seen.state, DIR_I);
    assert_int_equal(toy_seen.owner, -1);
    assert_int_equal(toy_seen.line_address, h->base);
    assert_int_equal(memory_harness_access(h, 1, L1_LOAD, h->base + line, 0, NULL), 0);
    assert_int_equal(toy_seen.requester, 1);
    assert_int_equal(cache_array_lookup(h->memory->l1[0].cache, h->base)->state, L1_E);          /* unguarded row */
    assert_int_equal(cache_array_lookup(h->memory->l1[1].cache, h->base + line)->state, L1_S);   /* guarded row */
    assert_int_equal(toy_guard_calls, 4);   /* the HomeData rows have no guard and never call it */
    memory_harness_close(h);
}

/* rfo.cross_kernel, on its own memory systems: with keep (the paper's RFO) a line CU 0 wrote
 * stays in its L1 in M across a kernel start and its next load hits there; with drop (the
 * reproduction's experiment) the kernel start writes the line back and drops it, so the load
 * misses and reads the written value from the L2. */
static void test_cross_kernel_keep_or_drop(void **state)
{
    (void)state;
    for (int drop = 0; drop <= 1; drop++) {
        memory_harness h;
        const char *sets[] = {"gpu.cu_count=2", drop ? "rfo.cross_kernel=drop" : "rfo.cross_kernel=keep"};
        memory_harness_open(&h, "rfo", sets, 2);
        memory_harness_access(&h, 0, L1_STORE, h.base, 5, NULL);
        memory_kernel_begin(h.memory, memory_harness_now(&h));
        memory_harness_settle(&h);
        assert_int_equal(ownership_stats_of(h.memory)->l1_writebacks, drop);
        gsi_source source;
        assert_int_equal(memory_harness_access(&h, 0, L1_LOAD, h.base, 0, &source), 5);
        assert_int_equal(source, drop ? GSI_SOURCE_L2 : GSI_SOURCE_L1);
        memory_harness_close(&h);
    }
}

int main(void)
{
    sc_mechanism_add_config_keys();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ownership_forwarding_invalidation_and_recall),
        cmocka_unit_test(test_hot_line_atomics_take_the_atomic_unit_in_turn),
        cmocka_unit_test(test_guarded_directory_rows),
        cmocka_unit_test(test_write_through_mesi),
        cmocka_unit_test(test_ideal_permissions_drop_sharers_at_once),
        cmocka_unit_test(test_reads_of_one_line_wait_in_turn_unless_concurrent),
        cmocka_unit_test(test_a_stream_of_joining_reads_does_not_starve_a_write),
        cmocka_unit_test(test_traffic_classes_of_directory_messages),
        cmocka_unit_test(test_cross_kernel_keep_or_drop),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
