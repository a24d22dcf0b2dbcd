/* protocol_tester.c — driver of the random protocol tester (protocol_tester.h): generates the
 * seeded program and the arena layout on the host, computes the final value of every arena word
 * while generating, runs protocol_tester.cu, and checks the threads' own mismatch counts and the
 * final arena. The layout is a random permutation of the arena, so the own words of threads of
 * different CTAs, lock words, guarded words, counters and mailboxes all share cache lines.
 */
#include "workloads/protocol_tester.h"

#include <stdio.h>
#include <string.h>

#include "workloads/workload_support.h"

/* Operation kinds, op encoding and result record: must match protocol_tester.cu. */
enum tester_kind {
    KIND_STORE, KIND_STORE_RELAXED, KIND_LOAD, KIND_LOAD_RELAXED, KIND_LOAD_STORE, KIND_LOAD_STORE_RELAXED,
    KIND_EXCH,
    KIND_LOCK_ACQREL, KIND_LOCK_FENCED, KIND_LOCK_EXCH, KIND_LOCK_UNORDERED,
    KIND_COUNTER_ADD, KIND_COUNTER_RED, KIND_COUNTER_READ,
    KIND_PUBLISH, KIND_PUBLISH_FENCED,
    KIND_PEEK, KIND_PEEK_FENCED, KIND_PEEK_UNORDERED,
    KIND_FENCE_ACQREL, KIND_FENCE_SC,
    KIND_COUNT
};
#define KIND_BITS 8
#define OP_WORDS 4           /* kind | index << KIND_BITS, value, second own word, second value */
#define MAX_COUNTERS 8
#define LOCK_WORDS 3         /* lock, guarded a, guarded b */
#define BOX_WORDS 3          /* flag, data 0, data 1 */
#define RESULT_WORDS 8       /* mismatches, first bad op + 1, got, expected, peeks seen, spins */
#define LINE_WORDS 32        /* the arena is a whole number of the largest lines (128 B) */
#define GROUP_THREADS 32     /* threads that draw their op class together */
#define MAX_DELTA 15

/* Each group of 32 threads (a warp on 32-lane presets) draws one class per op, and each thread
 * a kind of that class, so that warps spend runs of ops on their own words without acquiring:
 * L1 lines then live long enough to be hit, updated and evicted, not only invalidated. The
 * mixed class draws any kind per thread. */
enum tester_class { CLASS_OWN, CLASS_LOCK, CLASS_COUNTER, CLASS_PEEK, CLASS_FENCE, CLASS_MIXED, CLASS_COUNT };
static const uint32_t class_weight[CLASS_COUNT] = {
    [CLASS_OWN] = 60, [CLASS_LOCK] = 10, [CLASS_COUNTER] = 10, [CLASS_PEEK] = 10, [CLASS_FENCE] = 3,
    [CLASS_MIXED] = 7,
};

/* Relative frequency of each kind within its class. Publications are scheduled instead
 * (schedule_publications); the broken kinds come only from the variants' substitutions. */
static const uint32_t kind_weight[KIND_COUNT] = {
    [KIND_STORE] = 12, [KIND_STORE_RELAXED] = 4, [KIND_LOAD] = 10, [KIND_LOAD_RELAXED] = 4,
    [KIND_LOAD_STORE] = 6, [KIND_LOAD_STORE_RELAXED] = 3, [KIND_EXCH] = 3,
    [KIND_LOCK_ACQREL] = 3, [KIND_LOCK_FENCED] = 2, [KIND_LOCK_EXCH] = 2,
    [KIND_COUNTER_ADD] = 3, [KIND_COUNTER_RED] = 2, [KIND_COUNTER_READ] = 3,
    [KIND_PEEK] = 5, [KIND_PEEK_FENCED] = 3,
    [KIND_FENCE_ACQREL] = 1, [KIND_FENCE_SC] = 1,
};

static const char *const kind_names[KIND_COUNT] = {
    "st", "st.relaxed", "ld", "ld.relaxed", "ld then st", "ld then st.relaxed", "atom.exch",
    "cas.acquire/st.release", "cas+fence/fence+exch", "cas.acquire/exch.release", "relaxed cas/st.release",
    "atom.add", "red.add", "ld.relaxed",
    "st.release", "fence.sc+st.relaxed",
    "ld.acquire", "ld.relaxed+fence", "ld.relaxed without acquire",
    "fence.acq_rel", "fence.sc",
};

static const char *const family_names[] = {"own", "ld-st", "exch", "locks", "counters", "mailboxes", "fences"};

static sc_tester_family family_of(uint32_t kind)
{
    return kind <= KIND_LOAD_RELAXED ? SC_TESTER_OWN
           : kind <= KIND_LOAD_STORE_RELAXED ? SC_TESTER_LOAD_STORE
           : kind == KIND_EXCH ? SC_TESTER_EXCH
           : kind <= KIND_LOCK_UNORDERED ? SC_TESTER_LOCKS
           : kind <= KIND_COUNTER_READ ? SC_TESTER_COUNTERS
           : kind <= KIND_PEEK_UNORDERED ? SC_TESTER_MAILBOXES
                                          : SC_TESTER_FENCES;
}

static enum tester_class class_of(uint32_t kind)
{
    return kind <= KIND_EXCH ? CLASS_OWN
           : kind <= KIND_LOCK_UNORDERED ? CLASS_LOCK
           : kind <= KIND_COUNTER_READ ? CLASS_COUNTER
           : kind <= KIND_PEEK_UNORDERED ? CLASS_PEEK
                                          : CLASS_FENCE;
}

static const char *const variant_names[] = {"correct", "unordered-peeks", "unordered-locks"};

const char *sc_tester_variant_name(sc_tester_variant variant)
{
    return (unsigned)variant < sizeof variant_names / sizeof variant_names[0] ? variant_names[variant] : "?";
}

int sc_tester_variant_parse(const char *text, sc_tester_variant *variant)
{
    for (size_t i = 0; i < sizeof variant_names / sizeof variant_names[0]; i++)
        if (strcmp(text, variant_names[i]) == 0) {
            *variant = (sc_tester_variant)i;
            return 0;
        }
    return -1;
}

int sc_tester_families_parse(const char *list, uint32_t *families)
{
    *families = 0;
    for (const char *name = list; *name;) {
        size_t length = strcspn(name, ","), f = 0;
        while (f < sizeof family_names / sizeof family_names[0] &&
               (strlen(family_names[f]) != length || strncmp(name, family_names[f], length) != 0))
            f++;
        if (f == sizeof family_names / sizeof family_names[0])
            return -1;
        *families |= 1u << f;
        name += length + (name[length] == ',');
    }
    return 0;
}

/* ---- the program ---- */

typedef struct tester_shape {
    uint32_t ctas, block, ops, own, locks, counters, boxes;
} tester_shape;

static tester_shape shape_for(sc_workload_size size)
{
    return (tester_shape){
        .ctas = sc_size_pick(size, 8, 30, 120, 120),
        .block = sc_size_pick(size, 64, 128, 256, 256),
        .ops = sc_size_pick(size, 32, 64, 128, 128),
        .own = 2,
        .locks = sc_size_pick(size, 4, 32, 128, 128),
        .counters = sc_size_pick(size, 4, MAX_COUNTERS, MAX_COUNTERS, MAX_COUNTERS),
        .boxes = sc_size_pick(size, 64, 512, 2048, 2048),
    };
}

typedef struct tester_program {
    tester_shape shape;
    sc_tester_variant variant;
    uint32_t threads, words;
    uint32_t kind_weight[KIND_COUNT];     /* the tables above without the left-out families */
    uint32_t class_weight[CLASS_COUNT];
    uint32_t *order;           /* arena words in role order: the slices below point into it */
    uint32_t *own_words;       /* shape.own per thread */
    uint32_t *lock_words;      /* LOCK_WORDS per lock */
    uint32_t *box_words;       /* BOX_WORDS per mailbox */
    uint32_t *counter_words;
    uint32_t *box_base;        /* data word k of mailbox m holds box_base[m] + k */
    uint32_t *publisher;       /* per op slot (i * threads + t): 1 + the mailbox it publishes, or 0 */
    uint32_t *ops;             /* OP_WORDS per op, op-major: op i of thread t at OP_WORDS * (i * threads + t) */
    uint32_t *expected;        /* every arena word, as the program leaves it */
} tester_program;

static uint32_t round_up(uint32_t value, uint32_t multiple)
{
    return (value + multiple - 1) / multiple * multiple;
}

/* Scatters every role over a random permutation of the arena, with an eighth of spare words
 * that nobody touches (they must stay zero). */
static void place_words(tester_program *p, sc_scratch *scratch, sc_rng *rng)
{
    const tester_shape *s = &p->shape;
    uint32_t own = p->threads * s->own, needed = own + s->locks * LOCK_WORDS + s->boxes * BOX_WORDS + s->counters;
    p->words = round_up(needed + needed / 8, LINE_WORDS);
    p->order = sc_scratch_alloc(scratch, p->words * sizeof *p->order);
    for (uint32_t i = 0; i < p->words; i++)
        p->order[i] = i;
    for (uint32_t i = p->words - 1; i > 0; i--) {
        uint32_t j = sc_rng_below(rng, i + 1), t = p->order[i];
        p->order[i] = p->order[j];
        p->order[j] = t;
    }
    p->own_words = p->order;
    p->lock_words = p->own_words + own;
    p->box_words = p->lock_words + s->locks * LOCK_WORDS;
    p->counter_words = p->box_words + s->boxes * BOX_WORDS;
    p->box_base = sc_scratch_alloc(scratch, s->boxes * sizeof *p->box_base);
    for (uint32_t m = 0; m < s->boxes; m++)   /* nonzero, and base + 1 does not wrap to zero */
        p->box_base[m] = (uint32_t)(sc_rng_next(rng) >> 33) | 1u;
}

static uint32_t variant_kind(uint32_t kind, sc_tester_variant variant)
{
    bool peek = kind == KIND_PEEK || kind == KIND_PEEK_FENCED;
    bool lock = kind >= KIND_LOCK_ACQREL && kind <= KIND_LOCK_EXCH;
    if (variant == SC_TESTER_UNORDERED_PEEKS && peek)
        return KIND_PEEK_UNORDERED;
    if (variant == SC_TESTER_UNORDERED_LOCKS && lock)
        return KIND_LOCK_UNORDERED;
    return kind;
}

/* Mailbox m is published once, by a random thread at op ~ m * ops / boxes, so publications
 * spread over the whole run and peeks (peek_box) can aim at those happening about then. */
static void schedule_publications(tester_program *p, sc_scratch *scratch, sc_rng *rng, bool mailboxes)
{
    size_t slots = (size_t)p->shape.ops * p->threads;
    p->publisher = sc_scratch_alloc(scratch, slots * sizeof *p->publisher);
    for (uint32_t m = 0; mailboxes && m < p->shape.boxes; m++) {
        uint64_t op = (uint64_t)m * p->shape.ops / p->shape.boxes;
        size_t slot = op * p->threads + sc_rng_below(rng, p->threads);
        while (p->publisher[slot])
            slot = slot + 1 < slots ? slot + 1 : 0;
        p->publisher[slot] = m + 1;
    }
}

/* A mailbox published within a few ops of op i (before or after). */
static uint32_t peek_box(const tester_program *p, sc_rng *rng, uint32_t i)
{
    int64_t boxes = p->shape.boxes, window = boxes / 8 + 1;
    int64_t centre = (int64_t)i * boxes / p->shape.ops;
    int64_t m = centre - window + sc_rng_below(rng, (uint32_t)(2 * window + 1));
    return (uint32_t)(m < 0 ? 0 : m >= boxes ? boxes - 1 : m);
}

/* Index of a weighted draw among `count` weights. */
static uint32_t draw_weighted(sc_rng *rng, const uint32_t *weights, uint32_t count)
{
    uint32_t total = 0, pick = 0;
    for (uint32_t k = 0; k < count; k++)
        total += weights[k];
    for (uint32_t r = sc_rng_below(rng, total); r >= weights[pick]; pick++)
        r -= weights[pick];
    return pick;
}

/* A kind of `op_class` (any kind for the mixed class). */
static uint32_t draw_kind(const tester_program *p, sc_rng *rng, enum tester_class op_class)
{
    uint32_t weights[KIND_COUNT];
    for (uint32_t k = 0; k < KIND_COUNT; k++)
        weights[k] = op_class == CLASS_MIXED || class_of(k) == op_class ? p->kind_weight[k] : 0;
    return variant_kind(draw_weighted(rng, weights, KIND_COUNT), p->variant);
}

/* Zeroes the weights of the left-out families, and of classes left without a kind. Returns
 * -1 when nothing is left to draw. */
static int apply_without(tester_program *p, uint32_t without, sc_error *error)
{
    uint32_t left = 0;
    for (uint32_t c = 0; c < CLASS_COUNT; c++)
        p->class_weight[c] = 0;
    for (uint32_t k = 0; k < KIND_COUNT; k++) {
        p->kind_weight[k] = family_of(k) & without ? 0 : kind_weight[k];
        if (p->kind_weight[k]) {
            p->class_weight[class_of(k)] = class_weight[class_of(k)];
            p->class_weight[CLASS_MIXED] = class_weight[CLASS_MIXED];
            left++;
        }
    }
    return left ? 0 : sc_fail(error, "tester: --without leaves no operation to draw");
}

/* A store value that differs from the word's current one, so a stale read cannot pass. */
static uint32_t fresh_value(sc_rng *rng, uint32_t current)
{
    uint32_t value = (uint32_t)sc_rng_next(rng) | 1u;
    return value == current ? value + 2 : value;
}

/* An own-word op: the value it stores or expects, and for the load-store kinds and atom.exch
 * the second word and the value stored there (op layout in protocol_tester.cu's own_access). */
static void generate_own(tester_program *p, sc_rng *rng, uint32_t thread, uint32_t kind, uint32_t *op,
                         sc_tester_report *report)
{
    const uint32_t *mine = p->own_words + thread * p->shape.own;
    uint32_t a = mine[sc_rng_below(rng, p->shape.own)], *expected = p->expected;
    op[0] = kind | a << KIND_BITS;
    if (kind == KIND_STORE || kind == KIND_STORE_RELAXED) {
        op[1] = expected[a] = fresh_value(rng, expected[a]);
        return;
    }
    op[1] = expected[a];   /* what the load (or exchange) must return */
    report->value_checks++;
    if (kind == KIND_LOAD || kind == KIND_LOAD_RELAXED)
        return;
    op[2] = kind == KIND_EXCH ? a : mine[sc_rng_below(rng, p->shape.own)];
    op[3] = expected[op[2]] = fresh_value(rng, expected[op[2]]);
}

/* Fills the op of a non-own kind (index, value) and applies its effect to the expected arena. */
static void generate_shared(tester_program *p, sc_rng *rng, uint32_t i, uint32_t kind, uint32_t box, uint32_t *op,
                            sc_tester_report *report)
{
    const tester_shape *s = &p->shape;
    uint32_t index = 0, value = 0;
    if (kind <= KIND_LOCK_UNORDERED) {
        index = sc_rng_below(rng, s->locks);
        value = 1 + sc_rng_below(rng, MAX_DELTA);
        p->expected[p->lock_words[index * LOCK_WORDS + 1]] += value;
        p->expected[p->lock_words[index * LOCK_WORDS + 2]] += value;
        report->lock_sections++;
        report->value_checks++;
    } else if (kind <= KIND_COUNTER_READ) {
        index = sc_rng_below(rng, s->counters);
        value = kind == KIND_COUNTER_READ ? 0 : 1 + sc_rng_below(rng, MAX_DELTA);
        p->expected[p->counter_words[index]] += value;
        report->value_checks += kind != KIND_COUNTER_RED;
    } else if (kind <= KIND_PUBLISH_FENCED) {
        index = box - 1;
        value = p->box_base[index];
        const uint32_t *words = p->box_words + index * BOX_WORDS;
        p->expected[words[0]] = 1;
        p->expected[words[1]] = value;
        p->expected[words[2]] = value + 1;
    } else if (kind <= KIND_PEEK_UNORDERED) {
        index = peek_box(p, rng, i);
        value = p->box_base[index];
        report->peeks++;
        report->value_checks++;   /* the flag; its data adds two checks when it is seen */
    }
    op[0] = kind | index << KIND_BITS;
    op[1] = value;
}

/* Op i of `thread`, of the class its group drew (a scheduled publication takes precedence). */
static void generate_op(tester_program *p, sc_rng *rng, uint32_t i, uint32_t thread, enum tester_class op_class,
                        sc_tester_report *report)
{
    uint32_t *op = p->ops + OP_WORDS * ((size_t)i * p->threads + thread);
    uint32_t box = p->publisher[(size_t)i * p->threads + thread];
    uint32_t kind = box ? KIND_PUBLISH + sc_rng_below(rng, 2) : draw_kind(p, rng, op_class);
    if (kind <= KIND_EXCH)
        generate_own(p, rng, thread, kind, op, report);
    else
        generate_shared(p, rng, i, kind, box, op, report);
    report->operations++;
}

static int tester_program_build(tester_program *p, sc_scratch *scratch, const sc_tester_options *options,
                                sc_tester_report *report, sc_error *error)
{
    *p = (tester_program){.shape = shape_for(options->size), .variant = options->variant};
    if (apply_without(p, options->without, error) < 0)
        return -1;
    p->threads = p->shape.ctas * p->shape.block;
    sc_rng rng;
    sc_rng_seed(&rng, options->seed, 17);
    place_words(p, scratch, &rng);
    schedule_publications(p, scratch, &rng, !(options->without & SC_TESTER_MAILBOXES));
    p->expected = sc_scratch_alloc(scratch, p->words * sizeof *p->expected);
    p->ops = sc_scratch_alloc(scratch, (size_t)p->threads * p->shape.ops * OP_WORDS * sizeof *p->ops);
    *report = (sc_tester_report){.ctas = p->shape.ctas, .threads_per_cta = p->shape.block,
                                 .ops_per_thread = p->shape.ops, .arena_words = p->words};
    enum tester_class group_class = CLASS_OWN;
    for (uint32_t i = 0; i < p->shape.ops; i++)
        for (uint32_t t = 0; t < p->threads; t++) {
            if (t % GROUP_THREADS == 0)
                group_class = (enum tester_class)draw_weighted(&rng, p->class_weight, CLASS_COUNT);
            generate_op(p, &rng, i, t, group_class, report);
        }
    return 0;
}

/* ---- the run ---- */

/* Device copies of the program's arrays. */
typedef struct tester_buffers {
    uint64_t ops, arena, lock_words, box_words, counter_words, results;
} tester_buffers;

static int tester_upload(sc_device *device, const tester_program *p, tester_buffers *b, sc_error *error)
{
    const tester_shape *s = &p->shape;
    b->ops = sc_workload_upload(device, p->ops, (size_t)p->threads * s->ops * OP_WORDS * sizeof *p->ops, error);
    b->arena = sc_workload_alloc(device, p->words * sizeof(uint32_t), error);
    b->lock_words = sc_workload_upload(device, p->lock_words, s->locks * LOCK_WORDS * sizeof(uint32_t), error);
    b->box_words = sc_workload_upload(device, p->box_words, s->boxes * BOX_WORDS * sizeof(uint32_t), error);
    b->counter_words = sc_workload_upload(device, p->counter_words, s->counters * sizeof(uint32_t), error);
    b->results = sc_workload_alloc(device, (size_t)p->threads * RESULT_WORDS * sizeof(uint32_t), error);
    bool ok = b->ops && b->arena && b->lock_words && b->box_words && b->counter_words && b->results;
    return ok ? 0 : -1;
}

static int tester_on_device(sc_device *device, const tester_program *p, uint32_t *arena, uint32_t *results,
                            sc_error *error)
{
    int module = sc_device_load_builtin_ptx(device, "protocol_tester", error);
    tester_buffers b;
    if (module < 0 || tester_upload(device, p, &b, error) < 0)
        return -1;
    sc_kernel_arg args[] = {sc_arg_ptr(b.ops), sc_arg_u32(p->shape.ops), sc_arg_ptr(b.arena),
                            sc_arg_ptr(b.lock_words), sc_arg_ptr(b.box_words), sc_arg_ptr(b.counter_words),
                            sc_arg_ptr(b.results)};
    if (sc_launch_1d(device, module, "protocol_tester", p->shape.ctas, p->shape.block, args, 7, error) < 0 ||
        sc_memcpy_from_device(device, arena, b.arena, p->words * sizeof *arena, error) < 0)
        return -1;
    return sc_memcpy_from_device(device, results, b.results, (size_t)p->threads * RESULT_WORDS * sizeof *results,
                                 error);
}

/* ---- the check ---- */

/* Names the role of arena word `word`: "own word 1 of thread 3", "counter 2", ... */
static void describe_word(const tester_program *p, uint32_t word, char *out, size_t size)
{
    const tester_shape *s = &p->shape;
    uint32_t at = 0;
    while (p->order[at] != word)
        at++;
    uint32_t own = p->threads * s->own, locks = s->locks * LOCK_WORDS, boxes = s->boxes * BOX_WORDS;
    static const char *const lock_roles[LOCK_WORDS] = {"lock word", "guarded word a", "guarded word b"};
    static const char *const box_roles[BOX_WORDS] = {"flag", "data word 0", "data word 1"};
    if (at < own)
        snprintf(out, size, "own word %u of thread %u", at % s->own, at / s->own);
    else if ((at -= own) < locks)
        snprintf(out, size, "%s of lock %u", lock_roles[at % LOCK_WORDS], at / LOCK_WORDS);
    else if ((at -= locks) < boxes)
        snprintf(out, size, "%s of mailbox %u", box_roles[at % BOX_WORDS], at / BOX_WORDS);
    else if ((at -= boxes) < s->counters)
        snprintf(out, size, "counter %u", at);
    else
        snprintf(out, size, "a spare word");
}

/* Describes the first mismatch a thread recorded (result record r). */
static void describe_thread_mismatch(const tester_program *p, uint32_t thread, const uint32_t *r, char *out,
                                     size_t size)
{
    uint32_t op_index = r[1] - 1;
    const uint32_t *op = p->ops + OP_WORDS * ((size_t)op_index * p->threads + thread);
    uint32_t kind = op[0] & ((1u << KIND_BITS) - 1u), index = op[0] >> KIND_BITS;
    const char *name = kind < KIND_COUNT ? kind_names[kind] : "?";
    int used = snprintf(out, size, "thread %u op %u (%s) ", thread, op_index, name);
    char *rest = out + used;
    size_t left = size - (size_t)used;
    if (kind <= KIND_EXCH)
        snprintf(rest, left, "of word %u: got %u, expected %u", index, r[2], r[3]);
    else if (kind <= KIND_LOCK_UNORDERED)
        snprintf(rest, left, "under lock %u: guarded words read %u and %u, expected equal", index, r[2], r[3]);
    else if (kind <= KIND_COUNTER_READ)
        snprintf(rest, left, "of counter %u: got %u after seeing %u", index, r[2], r[3]);
    else
        snprintf(rest, left, "of mailbox %u: got %u, expected %u", index, r[2], r[3]);
}

/* Sums the threads' result records into the report; describes the first mismatch. */
static void check_threads(const tester_program *p, const uint32_t *results, sc_tester_report *report, char *first,
                          size_t size)
{
    for (uint32_t t = 0; t < p->threads; t++) {
        const uint32_t *r = results + (size_t)t * RESULT_WORDS;
        if (r[0] && !report->gpu_mismatches)
            describe_thread_mismatch(p, t, r, first, size);
        report->gpu_mismatches += r[0];
        report->peeks_seen += r[4];
        report->lock_spins += r[5];
    }
    report->value_checks += 2 * report->peeks_seen;
}

static void check_arena(const tester_program *p, const uint32_t *arena, sc_tester_report *report, char *first,
                        size_t size)
{
    for (uint32_t w = 0; w < p->words; w++) {
        if (arena[w] == p->expected[w])
            continue;
        if (!report->word_mismatches) {
            char role[64];
            describe_word(p, w, role, sizeof role);
            snprintf(first, size, "word %u (%s) = %u, expected %u", w, role, arena[w], p->expected[w]);
        }
        report->word_mismatches++;
    }
}

static void check_run(const tester_program *p, const uint32_t *arena, const uint32_t *results,
                      sc_tester_report *report, sc_check_result *check)
{
    char thread_detail[160] = "", word_detail[160] = "";
    check_threads(p, results, report, thread_detail, sizeof thread_detail);
    check_arena(p, arena, report, word_detail, sizeof word_detail);
    if (report->word_mismatches)
        sc_check_fail(check, "%u of %u final words wrong, first: %s; %llu mismatches seen by threads%s%s",
                      report->word_mismatches, p->words, word_detail, (unsigned long long)report->gpu_mismatches,
                      report->gpu_mismatches ? ", first: " : "", thread_detail);
    else if (report->gpu_mismatches)
        sc_check_fail(check, "%llu mismatches seen by threads, first: %s (final words all right)",
                      (unsigned long long)report->gpu_mismatches, thread_detail);
    else
        snprintf(check->detail, sizeof check->detail,
                 "ok: %llu ops by %u threads, %llu values checked on the GPU (%llu of %llu peeks saw the message), "
                 "%u final words", (unsigned long long)report->operations, p->threads,
                 (unsigned long long)report->value_checks, (unsigned long long)report->peeks_seen,
                 (unsigned long long)report->peeks, p->words);
    check->passed = !report->word_mismatches && !report->gpu_mismatches;
}

int sc_tester_run(sc_device *device, const sc_tester_options *options, sc_tester_report *report,
                  sc_check_result *check, sc_error *error)
{
    sc_scratch scratch = {0};
    tester_program program;
    int status = tester_program_build(&program, &scratch, options, report, error);
    if (status == 0) {
        uint32_t *arena = sc_scratch_alloc(&scratch, program.words * sizeof *arena);
        uint32_t *results = sc_scratch_alloc(&scratch, (size_t)program.threads * RESULT_WORDS * sizeof *results);
        status = tester_on_device(device, &program, arena, results, error);
        if (status == 0)
            check_run(&program, arena, results, report, check);
    }
    sc_scratch_release(&scratch);
    return status;
}

static int run_tester(sc_device *device, const sc_workload_params *params, sc_check_result *check, sc_error *error)
{
    sc_tester_options options = {.size = params->size, .seed = params->seed, .variant = SC_TESTER_CORRECT};
    sc_tester_report report;
    return sc_tester_run(device, &options, &report, check, error);
}

const sc_workload sc_workload_tester = {
    .name = "tester",
    .description = "random protocol tester: seeded data-race-free loads, stores, atomics, locks and flags on "
                   "falsely shared lines",
    .behaviour = "coherence stress: every value read and every final word checked",
    .run = run_tester,
};
