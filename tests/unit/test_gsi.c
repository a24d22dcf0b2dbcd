/* test_gsi.c — the GSI stall inspector (stalls/gsi.c): both classification algorithms on every
 * worked example of digest 001 §1.5, the cases that tell Algorithm 2 from a naive inversion of
 * Algorithm 1, sub-category selection, tailored policies, order parsing and its errors, the
 * counter arithmetic with its invariants, and the stored names. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "stalls/gsi.h"

/* ---- views ----------------------------------------------------------------------------- */

static gsi_instruction_view ready(void)
{
    return (gsi_instruction_view){.sync = GSI_NONE, .mem_struct = GSI_NONE};
}

static gsi_instruction_view idle_slot(void)
{
    gsi_instruction_view view = ready();
    view.idle = true;
    return view;
}

static gsi_instruction_view control(void)
{
    gsi_instruction_view view = ready();
    view.next_unavailable = true;
    return view;
}

static gsi_instruction_view at_sync(gsi_sync_kind kind)
{
    gsi_instruction_view view = ready();
    view.sync = (int8_t)kind;
    return view;
}

static gsi_instruction_view waiting_load(uint32_t load)
{
    gsi_instruction_view view = ready();
    view.pending_load = true;
    view.load = load;
    return view;
}

static gsi_instruction_view refused(gsi_struct_cause cause)
{
    gsi_instruction_view view = ready();
    view.mem_struct = (int8_t)cause;
    return view;
}

static gsi_instruction_view waiting_compute(void)
{
    gsi_instruction_view view = ready();
    view.pending_compute = true;
    return view;
}

static gsi_instruction_view unit_busy(void)
{
    gsi_instruction_view view = ready();
    view.compute_busy = true;
    return view;
}

static gsi_policy policy_from(const char *instruction_order, const char *cycle_order)
{
    gsi_policy policy;
    sc_error error = {{0}};
    if (gsi_parse_order(instruction_order, policy.instruction_order, "test.instruction_order", &error) != 0 ||
        gsi_parse_order(cycle_order, policy.cycle_order, "test.cycle_order", &error) != 0)
        fail_msg("%s", error.message);
    return policy;
}

static void assert_cycle(gsi_cycle cycle, gsi_category category, int sub, int winner, uint32_t load)
{
    assert_string_equal(gsi_category_name((gsi_category)cycle.category), gsi_category_name(category));
    assert_int_equal(cycle.sub, sub);
    assert_int_equal(cycle.winner, winner);
    assert_int_equal(cycle.load, load);
}

/* ---- policy ---------------------------------------------------------------------------- */

static void test_default_policy_is_the_thesis(void **state)
{
    (void)state;
    gsi_policy policy = gsi_default_policy();
    const uint8_t algorithm1[] = {GSI_IDLE, GSI_CONTROL, GSI_SYNC, GSI_MEM_DATA, GSI_MEM_STRUCT, GSI_COMP_DATA,
                                  GSI_COMP_STRUCT, GSI_NO_STALL};
    const uint8_t algorithm2[] = {GSI_NO_STALL, GSI_MEM_STRUCT, GSI_MEM_DATA, GSI_SYNC, GSI_COMP_STRUCT,
                                  GSI_COMP_DATA, GSI_CONTROL, GSI_IDLE};
    assert_memory_equal(policy.instruction_order, algorithm1, sizeof algorithm1);
    assert_memory_equal(policy.cycle_order, algorithm2, sizeof algorithm2);

    gsi_policy parsed = policy_from("idle,control,sync,mem_data,mem_struct,comp_data,comp_struct,no_stall",
                                    "no_stall,mem_struct,mem_data,sync,comp_struct,comp_data,control,idle");
    assert_memory_equal(&parsed, &policy, sizeof policy);
}

/* ---- Algorithm 1 ----------------------------------------------------------------------- */

static void test_instruction_single_causes(void **state)
{
    (void)state;
    gsi_policy policy = gsi_default_policy();
    gsi_instruction_view views[] = {ready(), idle_slot(), control(), at_sync(GSI_SYNC_ACQUIRE), waiting_load(1),
                                    refused(GSI_STRUCT_MSHR_FULL), waiting_compute(), unit_busy()};
    const gsi_category expected[] = {GSI_NO_STALL, GSI_IDLE, GSI_CONTROL, GSI_SYNC, GSI_MEM_DATA, GSI_MEM_STRUCT,
                                     GSI_COMP_DATA, GSI_COMP_STRUCT};
    for (unsigned i = 0; i < sizeof views / sizeof views[0]; i++)
        assert_int_equal(gsi_classify_instruction(&policy, &views[i]), expected[i]);
}

/* With every predicate true but idle, each step drops the strongest cause: the next one wins. */
static void test_instruction_strongest_cause_first(void **state)
{
    (void)state;
    gsi_policy policy = gsi_default_policy();
    gsi_instruction_view view = {.next_unavailable = true, .sync = GSI_SYNC_BARRIER, .pending_load = true,
                                 .mem_struct = GSI_STRUCT_BANK_CONFLICT, .pending_compute = true,
                                 .compute_busy = true};
    assert_int_equal(gsi_classify_instruction(&policy, &view), GSI_CONTROL);
    view.next_unavailable = false;
    assert_int_equal(gsi_classify_instruction(&policy, &view), GSI_SYNC);
    view.sync = GSI_NONE;
    assert_int_equal(gsi_classify_instruction(&policy, &view), GSI_MEM_DATA);
    view.pending_load = false;
    assert_int_equal(gsi_classify_instruction(&policy, &view), GSI_MEM_STRUCT);
    view.mem_struct = GSI_NONE;
    assert_int_equal(gsi_classify_instruction(&policy, &view), GSI_COMP_DATA);
    view.pending_compute = false;
    assert_int_equal(gsi_classify_instruction(&policy, &view), GSI_COMP_STRUCT);
    view.compute_busy = false;
    assert_int_equal(gsi_classify_instruction(&policy, &view), GSI_NO_STALL);
}

/* An idle slot has no instruction: IDLE whatever else is set and wherever the policy puts idle. */
static void test_idle_view_is_idle(void **state)
{
    (void)state;
    gsi_instruction_view view = {.idle = true, .next_unavailable = true, .sync = GSI_SYNC_BARRIER,
                                 .pending_load = true, .mem_struct = GSI_STRUCT_MSHR_FULL};
    gsi_policy policy = gsi_default_policy();
    assert_int_equal(gsi_classify_instruction(&policy, &view), GSI_IDLE);
    gsi_policy idle_last = policy_from("control,sync,mem_data,mem_struct,comp_data,comp_struct,no_stall,idle",
                                       "no_stall,mem_struct,mem_data,sync,comp_struct,comp_data,control,idle");
    assert_int_equal(gsi_classify_instruction(&idle_last, &view), GSI_IDLE);
    assert_cycle(gsi_classify_cycle(&idle_last, &view, 1), GSI_IDLE, GSI_NONE, 0, 0);
}

/* ---- Algorithm 2: the worked examples of digest §1.5 ----------------------------------- */

typedef struct worked_example {
    const char *situation;
    gsi_instruction_view views[2];
    unsigned count;
    gsi_category per_instruction[2];
    gsi_category category;
    int sub;
    int winner;
    uint32_t load;
} worked_example;

static void test_worked_examples(void **state)
{
    (void)state;
    const worked_example examples[] = {
        {"W0 issues, W1 waits on a load", {ready(), waiting_load(5)}, 2, {GSI_NO_STALL, GSI_MEM_DATA},
         GSI_NO_STALL, GSI_NONE, 0, 0},
        {"W0 waits on a load, W1's ALU is busy", {waiting_load(7), unit_busy()}, 2, {GSI_MEM_DATA, GSI_COMP_STRUCT},
         GSI_MEM_DATA, GSI_NONE, 0, 7},
        {"W0 waits on a load, W1 refused (MSHR full)", {waiting_load(7), refused(GSI_STRUCT_MSHR_FULL)}, 2,
         {GSI_MEM_DATA, GSI_MEM_STRUCT}, GSI_MEM_STRUCT, GSI_STRUCT_MSHR_FULL, 1, 0},
        {"W0 at a barrier, W1 waits on an ALU result", {at_sync(GSI_SYNC_BARRIER), waiting_compute()}, 2,
         {GSI_SYNC, GSI_COMP_DATA}, GSI_SYNC, GSI_SYNC_BARRIER, 0, 0},
        {"W0 at a barrier and waiting on a load",
         {{.sync = GSI_SYNC_BARRIER, .pending_load = true, .load = 9, .mem_struct = GSI_NONE}}, 1, {GSI_SYNC},
         GSI_SYNC, GSI_SYNC_BARRIER, 0, 0},
        {"W0 waits on a load and is refused (MSHR full)",
         {{.sync = GSI_NONE, .pending_load = true, .load = 9, .mem_struct = GSI_STRUCT_MSHR_FULL}}, 1,
         {GSI_MEM_DATA}, GSI_MEM_DATA, GSI_NONE, 0, 9},
        {"W0 control, W1 waits on an ALU result", {control(), waiting_compute()}, 2, {GSI_CONTROL, GSI_COMP_DATA},
         GSI_COMP_DATA, GSI_NONE, 1, 0},
        {"W0 control, W1 at a barrier", {control(), at_sync(GSI_SYNC_BARRIER)}, 2, {GSI_CONTROL, GSI_SYNC}, GSI_SYNC,
         GSI_SYNC_BARRIER, 1, 0},
        {"no active warp (slots present)", {idle_slot(), idle_slot()}, 2, {GSI_IDLE, GSI_IDLE}, GSI_IDLE, GSI_NONE, 0,
         0},
        {"no warp at all", {ready()}, 0, {GSI_NO_STALL}, GSI_IDLE, GSI_NONE, -1, 0},
    };
    gsi_policy policy = gsi_default_policy();
    for (unsigned e = 0; e < sizeof examples / sizeof examples[0]; e++) {
        const worked_example *example = &examples[e];
        print_message("%s\n", example->situation);
        for (unsigned i = 0; i < example->count; i++)
            assert_int_equal(gsi_classify_instruction(&policy, &example->views[i]), example->per_instruction[i]);
        assert_cycle(gsi_classify_cycle(&policy, example->views, example->count), example->category, example->sub,
                     example->winner, example->load);
    }
}

/* A naive inversion of Algorithm 1 would let compute stalls win both of these cycles. */
static void test_not_a_naive_inversion(void **state)
{
    (void)state;
    gsi_policy policy = gsi_default_policy();
    gsi_policy inverted = policy_from("idle,control,sync,mem_data,mem_struct,comp_data,comp_struct,no_stall",
                                      "no_stall,comp_struct,comp_data,mem_struct,mem_data,sync,control,idle");

    gsi_instruction_view memory_first[] = {waiting_load(3), unit_busy()};
    gsi_instruction_view compute_first[] = {unit_busy(), waiting_load(3)};
    assert_cycle(gsi_classify_cycle(&policy, memory_first, 2), GSI_MEM_DATA, GSI_NONE, 0, 3);
    assert_cycle(gsi_classify_cycle(&policy, compute_first, 2), GSI_MEM_DATA, GSI_NONE, 1, 3);
    assert_cycle(gsi_classify_cycle(&inverted, memory_first, 2), GSI_COMP_STRUCT, GSI_NONE, 1, 0);

    gsi_instruction_view sync_first[] = {at_sync(GSI_SYNC_ACQUIRE), waiting_compute()};
    gsi_instruction_view compute_data_first[] = {waiting_compute(), at_sync(GSI_SYNC_ACQUIRE)};
    assert_cycle(gsi_classify_cycle(&policy, sync_first, 2), GSI_SYNC, GSI_SYNC_ACQUIRE, 0, 0);
    assert_cycle(gsi_classify_cycle(&policy, compute_data_first, 2), GSI_SYNC, GSI_SYNC_ACQUIRE, 1, 0);
    assert_cycle(gsi_classify_cycle(&inverted, sync_first, 2), GSI_COMP_DATA, GSI_NONE, 1, 0);
}

/* Every category against every other: the one earlier in the cycle order wins, in either order. */
static void test_cycle_order_pairwise(void **state)
{
    (void)state;
    gsi_policy policy = gsi_default_policy();
    const gsi_instruction_view one_per_category[GSI_CATEGORY_COUNT] = {
        [GSI_NO_STALL] = ready(),          [GSI_IDLE] = idle_slot(),
        [GSI_CONTROL] = control(),         [GSI_SYNC] = at_sync(GSI_SYNC_RELEASE),
        [GSI_MEM_DATA] = waiting_load(4),  [GSI_MEM_STRUCT] = refused(GSI_STRUCT_PENDING_DMA),
        [GSI_COMP_DATA] = waiting_compute(), [GSI_COMP_STRUCT] = unit_busy(),
    };
    for (unsigned stronger = 0; stronger < GSI_CATEGORY_COUNT; stronger++)
        for (unsigned weaker = stronger + 1; weaker < GSI_CATEGORY_COUNT; weaker++) {
            uint8_t winner = policy.cycle_order[stronger];
            gsi_instruction_view pair[] = {one_per_category[policy.cycle_order[weaker]], one_per_category[winner]};
            assert_int_equal(gsi_classify_cycle(&policy, pair, 2).category, winner);
            assert_int_equal(gsi_classify_cycle(&policy, pair, 2).winner, 1);
            gsi_instruction_view swapped[] = {pair[1], pair[0]};
            assert_int_equal(gsi_classify_cycle(&policy, swapped, 2).category, winner);
            assert_int_equal(gsi_classify_cycle(&policy, swapped, 2).winner, 0);
        }
}

/* ---- sub-categories -------------------------------------------------------------------- */

static void test_subcategory_from_first_view(void **state)
{
    (void)state;
    gsi_policy policy = gsi_default_policy();

    gsi_instruction_view syncs[] = {waiting_compute(), at_sync(GSI_SYNC_RELEASE), at_sync(GSI_SYNC_BARRIER)};
    assert_cycle(gsi_classify_cycle(&policy, syncs, 3), GSI_SYNC, GSI_SYNC_RELEASE, 1, 0);

    gsi_instruction_view refusals[] = {refused(GSI_STRUCT_BANK_CONFLICT), refused(GSI_STRUCT_STORE_BUFFER_FULL)};
    assert_cycle(gsi_classify_cycle(&policy, refusals, 2), GSI_MEM_STRUCT, GSI_STRUCT_BANK_CONFLICT, 0, 0);
    gsi_instruction_view refusals_swapped[] = {refusals[1], refusals[0]};
    assert_cycle(gsi_classify_cycle(&policy, refusals_swapped, 2), GSI_MEM_STRUCT, GSI_STRUCT_STORE_BUFFER_FULL, 0,
                 0);

    gsi_instruction_view loads[] = {control(), waiting_load(11), waiting_load(22)};
    assert_cycle(gsi_classify_cycle(&policy, loads, 3), GSI_MEM_DATA, GSI_NONE, 1, 11);
}

/* The sub-category comes from the first view whose Algorithm 1 category is the winner, not from
 * the first view on which the category's predicate merely holds. */
static void test_subcategory_ignores_outranked_predicates(void **state)
{
    (void)state;
    gsi_policy policy = gsi_default_policy();

    gsi_instruction_view load_under_sync = at_sync(GSI_SYNC_ACQUIRE);
    load_under_sync.pending_load = true;
    load_under_sync.load = 30;
    gsi_instruction_view loads[] = {load_under_sync, waiting_load(31)};
    assert_cycle(gsi_classify_cycle(&policy, loads, 2), GSI_MEM_DATA, GSI_NONE, 1, 31);

    gsi_instruction_view refusal_under_load = waiting_load(40);
    refusal_under_load.mem_struct = GSI_STRUCT_MSHR_FULL;
    gsi_instruction_view refusals[] = {refusal_under_load, refused(GSI_STRUCT_PENDING_RELEASE)};
    assert_cycle(gsi_classify_cycle(&policy, refusals, 2), GSI_MEM_STRUCT, GSI_STRUCT_PENDING_RELEASE, 1, 0);

    gsi_instruction_view sync_under_control = at_sync(GSI_SYNC_BARRIER);
    sync_under_control.next_unavailable = true;
    gsi_instruction_view syncs[] = {sync_under_control, at_sync(GSI_SYNC_ACQUIRE)};
    assert_cycle(gsi_classify_cycle(&policy, syncs, 2), GSI_SYNC, GSI_SYNC_ACQUIRE, 1, 0);
}

/* ---- tailored policies ----------------------------------------------------------------- */

static void test_custom_policy_changes_outcome(void **state)
{
    (void)state;
    /* Studying divergence: control stalls first in the cycle. */
    gsi_policy divergence = policy_from("idle,control,sync,mem_data,mem_struct,comp_data,comp_struct,no_stall",
                                        "no_stall,control,mem_struct,mem_data,sync,comp_struct,comp_data,idle");
    gsi_instruction_view views[] = {control(), waiting_compute()};
    assert_cycle(gsi_classify_cycle(&divergence, views, 2), GSI_CONTROL, GSI_NONE, 0, 0);

    /* Loads outrank synchronization in Algorithm 1: a warp at a barrier waiting on a load. */
    gsi_policy loads_first = policy_from("idle,control,mem_data,sync,mem_struct,comp_data,comp_struct,no_stall",
                                         "no_stall,mem_struct,mem_data,sync,comp_struct,comp_data,control,idle");
    gsi_instruction_view both = at_sync(GSI_SYNC_BARRIER);
    both.pending_load = true;
    both.load = 8;
    gsi_policy policy = gsi_default_policy();
    assert_int_equal(gsi_classify_instruction(&policy, &both), GSI_SYNC);
    assert_int_equal(gsi_classify_instruction(&loads_first, &both), GSI_MEM_DATA);
    assert_cycle(gsi_classify_cycle(&loads_first, &both, 1), GSI_MEM_DATA, GSI_NONE, 0, 8);

    /* The place of no_stall in the instruction order does not make a blocked instruction issue. */
    gsi_policy no_stall_first = policy_from("no_stall,idle,control,sync,mem_data,mem_struct,comp_data,comp_struct",
                                            "no_stall,mem_struct,mem_data,sync,comp_struct,comp_data,control,idle");
    gsi_instruction_view blocked = unit_busy();
    gsi_instruction_view free_to_issue = ready();
    assert_int_equal(gsi_classify_instruction(&no_stall_first, &blocked), GSI_COMP_STRUCT);
    assert_int_equal(gsi_classify_instruction(&no_stall_first, &free_to_issue), GSI_NO_STALL);
}

/* ---- parsing --------------------------------------------------------------------------- */

static void assert_parse_fails(const char *text, const char *message)
{
    uint8_t order[GSI_CATEGORY_COUNT];
    memset(order, 0xee, sizeof order);
    sc_error error = {{0}};
    assert_int_equal(gsi_parse_order(text, order, "gsi.cycle_order", &error), -1);
    assert_string_equal(error.message, message);
    for (unsigned i = 0; i < GSI_CATEGORY_COUNT; i++)
        assert_int_equal(order[i], 0xee);
}

static void test_parse_order_errors(void **state)
{
    (void)state;
    const char *expected = "(expected no_stall, idle, control, sync, mem_data, mem_struct, comp_data, comp_struct)";
    char message[256];
    snprintf(message, sizeof message, "gsi.cycle_order: unknown category 'foo' %s", expected);
    assert_parse_fails("no_stall,foo,mem_data,sync,comp_struct,comp_data,control,idle", message);
    snprintf(message, sizeof message, "gsi.cycle_order: unknown category 'IDLE' %s", expected);
    assert_parse_fails("no_stall,mem_struct,mem_data,sync,comp_struct,comp_data,control,IDLE", message);
    snprintf(message, sizeof message, "gsi.cycle_order: unknown category '' %s", expected);
    assert_parse_fails("no_stall,,mem_data", message);
    assert_parse_fails("", message);
    assert_parse_fails("no_stall,mem_struct,mem_data,sync,comp_struct,comp_data,control,idle,", message);

    assert_parse_fails("no_stall,mem_struct,mem_data,sync,sync,comp_data,control,idle",
                       "gsi.cycle_order: category 'sync' listed twice");
    assert_parse_fails("no_stall,mem_struct,mem_data,sync,comp_struct,comp_data,control,idle,no_stall",
                       "gsi.cycle_order: category 'no_stall' listed twice");

    assert_parse_fails("no_stall,mem_struct,mem_data,sync,comp_struct,control,idle",
                       "gsi.cycle_order: missing comp_data (every category must appear exactly once)");
    assert_parse_fails("idle", "gsi.cycle_order: missing no_stall, control, sync, mem_data, mem_struct, comp_data, "
                               "comp_struct (every category must appear exactly once)");
}

static void test_parse_order_accepts_blanks(void **state)
{
    (void)state;
    uint8_t order[GSI_CATEGORY_COUNT];
    sc_error error = {{0}};
    assert_int_equal(gsi_parse_order(" comp_struct , comp_data,\tmem_struct,mem_data ,sync,control,idle,no_stall ",
                                     order, "gsi.instruction_order", &error),
                     0);
    const uint8_t expected[] = {GSI_COMP_STRUCT, GSI_COMP_DATA, GSI_MEM_STRUCT, GSI_MEM_DATA,
                                GSI_SYNC,        GSI_CONTROL,   GSI_IDLE,       GSI_NO_STALL};
    assert_memory_equal(order, expected, sizeof expected);
}

/* ---- counters -------------------------------------------------------------------------- */

static gsi_cycle classified(gsi_category category, int sub)
{
    return (gsi_cycle){.category = (uint8_t)category, .sub = (int8_t)sub, .winner = 0, .load = 0};
}

/* 5 no-stall, 7 mem-data (4 from L2, 3 from DRAM), 3 MSHR-full, 2 barrier, 1 acquire, 4 idle. */
static gsi_counters sample_counters(void)
{
    gsi_counters counters = {0};
    gsi_cycle no_stall = classified(GSI_NO_STALL, GSI_NONE), mem_data = classified(GSI_MEM_DATA, GSI_NONE);
    gsi_cycle mshr = classified(GSI_MEM_STRUCT, GSI_STRUCT_MSHR_FULL), barrier = classified(GSI_SYNC, GSI_SYNC_BARRIER);
    gsi_cycle acquire = classified(GSI_SYNC, GSI_SYNC_ACQUIRE), idle = classified(GSI_IDLE, GSI_NONE);
    gsi_charge(&counters, &no_stall, 5);
    gsi_charge(&counters, &mem_data, 4);
    gsi_charge(&counters, &mem_data, 3);
    gsi_charge(&counters, &mshr, 3);
    gsi_charge(&counters, &barrier, 2);
    gsi_charge(&counters, &acquire, 1);
    gsi_charge(&counters, &idle, 4);
    assert_int_equal(counters.source[GSI_SOURCE_UNRESOLVED], 7);
    gsi_resolve(&counters, GSI_SOURCE_L2, 4);
    gsi_resolve(&counters, GSI_SOURCE_DRAM, 3);
    return counters;
}

static void test_charge_resolve_accumulate(void **state)
{
    (void)state;
    gsi_counters counters = sample_counters();
    const uint64_t categories[GSI_CATEGORY_COUNT] = {[GSI_NO_STALL] = 5, [GSI_IDLE] = 4, [GSI_SYNC] = 3,
                                                     [GSI_MEM_DATA] = 7, [GSI_MEM_STRUCT] = 3};
    const uint64_t sources[GSI_SOURCE_COUNT] = {[GSI_SOURCE_L2] = 4, [GSI_SOURCE_DRAM] = 3};
    const uint64_t causes[GSI_STRUCT_COUNT] = {[GSI_STRUCT_MSHR_FULL] = 3};
    const uint64_t kinds[GSI_SYNC_KIND_COUNT] = {[GSI_SYNC_ACQUIRE] = 1, [GSI_SYNC_BARRIER] = 2};
    assert_memory_equal(counters.category, categories, sizeof categories);
    assert_memory_equal(counters.source, sources, sizeof sources);
    assert_memory_equal(counters.struct_cause, causes, sizeof causes);
    assert_memory_equal(counters.sync_kind, kinds, sizeof kinds);
    sc_error error = {{0}};
    assert_int_equal(gsi_check(&counters, 22, &error), 0);

    gsi_counters total = {0};
    gsi_accumulate(&total, &counters);
    gsi_accumulate(&total, &counters);
    assert_int_equal(total.category[GSI_MEM_DATA], 14);
    assert_int_equal(total.source[GSI_SOURCE_L2], 8);
    assert_int_equal(total.struct_cause[GSI_STRUCT_MSHR_FULL], 6);
    assert_int_equal(total.sync_kind[GSI_SYNC_BARRIER], 4);
    assert_int_equal(gsi_check(&total, 44, &error), 0);

    gsi_counters nothing = {0};
    assert_int_equal(gsi_check(&nothing, 0, &error), 0);
}

static void assert_check_fails(const gsi_counters *counters, uint64_t cycles, const char *message)
{
    sc_error error = {{0}};
    assert_int_equal(gsi_check(counters, cycles, &error), -1);
    assert_string_equal(error.message, message);
}

static void test_check_catches_each_invariant(void **state)
{
    (void)state;
    gsi_counters counters = sample_counters();
    assert_check_fails(&counters, 23, "GSI: the categories sum to 22 cycles, but 23 cycles were charged");

    gsi_counters unresolved_lost = sample_counters();
    unresolved_lost.source[GSI_SOURCE_DRAM] -= 1;
    assert_check_fails(&unresolved_lost, 22, "GSI: the memory-data sources sum to 6, but mem_data is 7");

    gsi_counters extra_cause = sample_counters();
    extra_cause.struct_cause[GSI_STRUCT_BANK_CONFLICT] = 2;
    assert_check_fails(&extra_cause, 22, "GSI: the memory-structural causes sum to 5, but mem_struct is 3");

    gsi_counters missing_kind = sample_counters();
    missing_kind.sync_kind[GSI_SYNC_ACQUIRE] = 0;
    assert_check_fails(&missing_kind, 22, "GSI: the sync kinds sum to 2, but sync is 3");

    gsi_counters sync_without_kind = {0};
    gsi_cycle bad = classified(GSI_SYNC, GSI_NONE);
    gsi_charge(&sync_without_kind, &bad, 6);
    assert_check_fails(&sync_without_kind, 6, "GSI: the sync kinds sum to 0, but sync is 6");
}

/* ---- names ----------------------------------------------------------------------------- */

static void test_names(void **state)
{
    (void)state;
    const char *categories[] = {"no_stall", "idle",      "control",  "sync",
                                "mem_data", "mem_struct", "comp_data", "comp_struct"};
    for (unsigned i = 0; i < GSI_CATEGORY_COUNT; i++)
        assert_string_equal(gsi_category_name((gsi_category)i), categories[i]);
    const char *sources[] = {"l1", "l1_coalesce", "l2", "remote_l1", "l3", "dram", "remote", "unresolved"};
    for (unsigned i = 0; i < GSI_SOURCE_COUNT; i++)
        assert_string_equal(gsi_source_name((gsi_source)i), sources[i]);
    const char *causes[] = {"mshr_full", "store_buffer_full", "bank_conflict", "pending_release", "pending_dma"};
    for (unsigned i = 0; i < GSI_STRUCT_COUNT; i++)
        assert_string_equal(gsi_struct_cause_name((gsi_struct_cause)i), causes[i]);
    const char *kinds[] = {"acquire", "release", "barrier", "ordering"};
    for (unsigned i = 0; i < GSI_SYNC_KIND_COUNT; i++)
        assert_string_equal(gsi_sync_kind_name((gsi_sync_kind)i), kinds[i]);
    assert_string_equal(gsi_category_name(GSI_CATEGORY_COUNT), "unknown");
    assert_string_equal(gsi_source_name(GSI_SOURCE_COUNT), "unknown");
    assert_string_equal(gsi_struct_cause_name(GSI_STRUCT_COUNT), "unknown");
    assert_string_equal(gsi_sync_kind_name(GSI_SYNC_KIND_COUNT), "unknown");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_default_policy_is_the_thesis),
        cmocka_unit_test(test_instruction_single_causes),
        cmocka_unit_test(test_instruction_strongest_cause_first),
        cmocka_unit_test(test_idle_view_is_idle),
        cmocka_unit_test(test_worked_examples),
        cmocka_unit_test(test_not_a_naive_inversion),
        cmocka_unit_test(test_cycle_order_pairwise),
        cmocka_unit_test(test_subcategory_from_first_view),
        cmocka_unit_test(test_subcategory_ignores_outranked_predicates),
        cmocka_unit_test(test_custom_policy_changes_outcome),
        cmocka_unit_test(test_parse_order_errors),
        cmocka_unit_test(test_parse_order_accepts_blanks),
        cmocka_unit_test(test_charge_resolve_accumulate),
        cmocka_unit_test(test_check_catches_each_invariant),
        cmocka_unit_test(test_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
