/* gsi.c — the GSI stall inspector (see gsi.h and ../shared/seeds/digests/001-gsi.md §1-2):
 * Algorithm 1 gives each considered instruction its strongest cause, Algorithm 2 gives the CU
 * cycle the first category of the cycle order that some instruction has; both orders come from
 * the gsi_policy. Also the per-CU counters, their invariants, and the stored names.
 *
 * Two categories are facts rather than causes, so their place in the instruction order does not
 * matter: an idle slot has no instruction, hence no other cause (IDLE), and an instruction is
 * able to issue (NO_STALL) exactly when none of the other predicates holds.
 *
 * gsi_classify_cycle runs once per simulated CU cycle: it allocates nothing and stops at the
 * first instruction of the cycle order's first category.
 */
#include "stalls/gsi.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static const char *const category_names[GSI_CATEGORY_COUNT] = {
    [GSI_NO_STALL] = "no_stall",
    [GSI_IDLE] = "idle",
    [GSI_CONTROL] = "control",
    [GSI_SYNC] = "sync",
    [GSI_MEM_DATA] = "mem_data",
    [GSI_MEM_STRUCT] = "mem_struct",
    [GSI_COMP_DATA] = "comp_data",
    [GSI_COMP_STRUCT] = "comp_struct",
};

static const char *const source_names[GSI_SOURCE_COUNT] = {
    [GSI_SOURCE_L1] = "l1",
    [GSI_SOURCE_L1_COALESCE] = "l1_coalesce",
    [GSI_SOURCE_L2] = "l2",
    [GSI_SOURCE_REMOTE_L1] = "remote_l1",
    [GSI_SOURCE_L3] = "l3",
    [GSI_SOURCE_DRAM] = "dram",
    [GSI_SOURCE_REMOTE] = "remote",
    [GSI_SOURCE_UNRESOLVED] = "unresolved",
};

static const char *const struct_cause_names[GSI_STRUCT_COUNT] = {
    [GSI_STRUCT_MSHR_FULL] = "mshr_full",
    [GSI_STRUCT_STORE_BUFFER_FULL] = "store_buffer_full",
    [GSI_STRUCT_BANK_CONFLICT] = "bank_conflict",
    [GSI_STRUCT_PENDING_RELEASE] = "pending_release",
    [GSI_STRUCT_PENDING_DMA] = "pending_dma",
};

static const char *const sync_kind_names[GSI_SYNC_KIND_COUNT] = {
    [GSI_SYNC_ACQUIRE] = "acquire",
    [GSI_SYNC_RELEASE] = "release",
    [GSI_SYNC_BARRIER] = "barrier",
    [GSI_SYNC_ORDERING] = "ordering",
};

static const char *name_or_unknown(const char *const *names, unsigned count, unsigned index)
{
    return index < count ? names[index] : "unknown";
}

const char *gsi_category_name(gsi_category category)
{
    return name_or_unknown(category_names, GSI_CATEGORY_COUNT, (unsigned)category);
}

const char *gsi_source_name(gsi_source source)
{
    return name_or_unknown(source_names, GSI_SOURCE_COUNT, (unsigned)source);
}

const char *gsi_struct_cause_name(gsi_struct_cause cause)
{
    return name_or_unknown(struct_cause_names, GSI_STRUCT_COUNT, (unsigned)cause);
}

const char *gsi_sync_kind_name(gsi_sync_kind kind)
{
    return name_or_unknown(sync_kind_names, GSI_SYNC_KIND_COUNT, (unsigned)kind);
}

/* ---- policy ---------------------------------------------------------------------------- */

gsi_policy gsi_default_policy(void)
{
    return (gsi_policy){
        .instruction_order = {GSI_IDLE, GSI_CONTROL, GSI_SYNC, GSI_MEM_DATA, GSI_MEM_STRUCT, GSI_COMP_DATA,
                              GSI_COMP_STRUCT, GSI_NO_STALL},
        .cycle_order = {GSI_NO_STALL, GSI_MEM_STRUCT, GSI_MEM_DATA, GSI_SYNC, GSI_COMP_STRUCT, GSI_COMP_DATA,
                        GSI_CONTROL, GSI_IDLE},
    };
}

static uint32_t category_bit(unsigned category)
{
    return UINT32_C(1) << category;
}

static int category_named(const char *name, size_t length)
{
    for (int category = 0; category < GSI_CATEGORY_COUNT; category++)
        if (strlen(category_names[category]) == length && !memcmp(category_names[category], name, length))
            return category;
    return -1;
}

/* Room for all eight category names with their ", " separators (75 bytes). */
enum { NAME_LIST_SIZE = 128 };

/* "a, b, c" for the categories in `categories` (a bit set), in enum order. */
static const char *join_category_names(uint32_t categories, char buffer[static NAME_LIST_SIZE])
{
    size_t used = 0;
    buffer[0] = '\0';
    for (unsigned category = 0; category < GSI_CATEGORY_COUNT; category++)
        if (categories & category_bit(category))
            used += (size_t)snprintf(buffer + used, NAME_LIST_SIZE - used, "%s%s", used ? ", " : "", category_names[category]);
    return buffer;
}

static const char *skip_blanks(const char *text, const char *end)
{
    while (text < end && isspace((unsigned char)*text))
        text++;
    return text;
}

static const char *trim_blanks_back(const char *start, const char *end)
{
    while (end > start && isspace((unsigned char)end[-1]))
        end--;
    return end;
}

int gsi_parse_order(const char *text, uint8_t order[GSI_CATEGORY_COUNT], const char *what, sc_error *error)
{
    const uint32_t all_categories = category_bit(GSI_CATEGORY_COUNT) - 1;
    char names[NAME_LIST_SIZE];
    uint8_t parsed[GSI_CATEGORY_COUNT];
    uint32_t seen = 0;
    unsigned count = 0;
    for (const char *item = text;;) {
        const char *comma = strchr(item, ',');
        const char *item_end = comma ? comma : item + strlen(item);
        const char *name = skip_blanks(item, item_end);
        const char *name_end = trim_blanks_back(name, item_end);
        int category = category_named(name, (size_t)(name_end - name));
        if (category < 0)
            return sc_fail(error, "%s: unknown category '%.*s' (expected %s)", what, (int)(name_end - name), name,
                           join_category_names(all_categories, names));
        if (seen & category_bit((unsigned)category))
            return sc_fail(error, "%s: category '%s' listed twice", what, category_names[category]);
        seen |= category_bit((unsigned)category);
        parsed[count++] = (uint8_t)category;
        if (!comma)
            break;
        item = comma + 1;
    }
    if (seen != all_categories)
        return sc_fail(error, "%s: missing %s (every category must appear exactly once)", what,
                       join_category_names(all_categories & ~seen, names));
    memcpy(order, parsed, sizeof parsed);
    return 0;
}

/* ---- Algorithm 1 ----------------------------------------------------------------------- */

/* The categories whose Algorithm 1 predicate holds for `view`, as a bit set. */
static uint32_t holding_predicates(const gsi_instruction_view *view)
{
    if (view->idle)
        return category_bit(GSI_IDLE);
    uint32_t causes = (view->next_unavailable ? category_bit(GSI_CONTROL) : 0) |
                      (view->sync != GSI_NONE ? category_bit(GSI_SYNC) : 0) |
                      (view->pending_load ? category_bit(GSI_MEM_DATA) : 0) |
                      (view->mem_struct != GSI_NONE ? category_bit(GSI_MEM_STRUCT) : 0) |
                      (view->pending_compute ? category_bit(GSI_COMP_DATA) : 0) |
                      (view->compute_busy ? category_bit(GSI_COMP_STRUCT) : 0);
    return causes ? causes : category_bit(GSI_NO_STALL);
}

/* The first category of `order` in `categories`. `order` lists every category (gsi_parse_order
 * and gsi_default_policy guarantee it), so the loop always returns for a non-empty set; the
 * final return only serves a policy that breaks that contract. */
static gsi_category first_in_order(const uint8_t order[GSI_CATEGORY_COUNT], uint32_t categories)
{
    for (unsigned rank = 0; rank < GSI_CATEGORY_COUNT; rank++)
        if (categories & category_bit(order[rank]))
            return (gsi_category)order[rank];
    return GSI_NO_STALL;
}

gsi_category gsi_classify_instruction(const gsi_policy *policy, const gsi_instruction_view *view)
{
    return first_in_order(policy->instruction_order, holding_predicates(view));
}

/* ---- Algorithm 2 ----------------------------------------------------------------------- */

static gsi_cycle decided_by(const gsi_instruction_view *views, int32_t winner, gsi_category category)
{
    const gsi_instruction_view *view = &views[winner];
    gsi_cycle cycle = {.category = (uint8_t)category, .sub = GSI_NONE, .winner = winner, .load = 0};
    if (category == GSI_SYNC)
        cycle.sub = view->sync;
    else if (category == GSI_MEM_STRUCT)
        cycle.sub = view->mem_struct;
    else if (category == GSI_MEM_DATA)
        cycle.load = view->load;
    return cycle;
}

gsi_cycle gsi_classify_cycle(const gsi_policy *policy, const gsi_instruction_view *views, unsigned count)
{
    if (count == 0)
        return (gsi_cycle){.category = GSI_IDLE, .sub = GSI_NONE, .winner = -1, .load = 0};
    uint8_t cycle_rank[GSI_CATEGORY_COUNT];
    for (unsigned rank = 0; rank < GSI_CATEGORY_COUNT; rank++)
        cycle_rank[policy->cycle_order[rank]] = (uint8_t)rank;

    gsi_category best = gsi_classify_instruction(policy, &views[0]);
    int32_t winner = 0;
    for (unsigned index = 1; index < count && cycle_rank[best] > 0; index++) {
        gsi_category category = gsi_classify_instruction(policy, &views[index]);
        if (cycle_rank[category] < cycle_rank[best]) {
            best = category;
            winner = (int32_t)index;
        }
    }
    return decided_by(views, winner, best);
}

/* ---- counters -------------------------------------------------------------------------- */

void gsi_charge(gsi_counters *counters, const gsi_cycle *cycle, uint64_t cycles)
{
    counters->category[cycle->category] += cycles;
    if (cycle->category == GSI_MEM_DATA)
        counters->source[GSI_SOURCE_UNRESOLVED] += cycles;
    /* A SYNC or MEM_STRUCT cycle without a sub-category is a caller's bug: it is left out of
     * the sub-counters, which gsi_check then reports, instead of indexing with -1. */
    else if (cycle->category == GSI_MEM_STRUCT && cycle->sub != GSI_NONE)
        counters->struct_cause[cycle->sub] += cycles;
    else if (cycle->category == GSI_SYNC && cycle->sub != GSI_NONE)
        counters->sync_kind[cycle->sub] += cycles;
}

void gsi_resolve(gsi_counters *counters, gsi_source source, uint64_t cycles)
{
    counters->source[GSI_SOURCE_UNRESOLVED] -= cycles;
    counters->source[source] += cycles;
}

static void add_counts(uint64_t *into, const uint64_t *from, unsigned count)
{
    for (unsigned i = 0; i < count; i++)
        into[i] += from[i];
}

void gsi_accumulate(gsi_counters *into, const gsi_counters *from)
{
    add_counts(into->category, from->category, GSI_CATEGORY_COUNT);
    add_counts(into->source, from->source, GSI_SOURCE_COUNT);
    add_counts(into->struct_cause, from->struct_cause, GSI_STRUCT_COUNT);
    add_counts(into->sync_kind, from->sync_kind, GSI_SYNC_KIND_COUNT);
}

static uint64_t sum_counts(const uint64_t *counts, unsigned count)
{
    uint64_t sum = 0;
    for (unsigned i = 0; i < count; i++)
        sum += counts[i];
    return sum;
}

enum { GSI_LEAF_COUNT = GSI_CATEGORY_COUNT + GSI_SOURCE_COUNT + GSI_STRUCT_COUNT + GSI_SYNC_KIND_COUNT };

/* Pointers to the leaves of `counters`: categories without sub-categories, then every sub-category. */
static unsigned leaves_of(gsi_counters *counters, uint64_t **leaves)
{
    unsigned count = 0;
    for (int c = 0; c < GSI_CATEGORY_COUNT; c++)
        if (c != GSI_MEM_DATA && c != GSI_MEM_STRUCT && c != GSI_SYNC)
            leaves[count++] = &counters->category[c];
    for (int s = 0; s < GSI_SOURCE_COUNT; s++)
        leaves[count++] = &counters->source[s];
    for (int s = 0; s < GSI_STRUCT_COUNT; s++)
        leaves[count++] = &counters->struct_cause[s];
    for (int s = 0; s < GSI_SYNC_KIND_COUNT; s++)
        leaves[count++] = &counters->sync_kind[s];
    return count;
}

void gsi_scale(const gsi_counters *from, uint64_t cycles, gsi_counters *to)
{
    gsi_counters source = *from;
    *to = (gsi_counters){0};
    uint64_t *in[GSI_LEAF_COUNT], *out[GSI_LEAF_COUNT];
    unsigned count = leaves_of(&source, in);
    leaves_of(to, out);
    uint64_t total = 0, assigned = 0;
    for (unsigned i = 0; i < count; i++)
        total += *in[i];
    double remainder[GSI_LEAF_COUNT];
    for (unsigned i = 0; i < count; i++) {
        double exact = total ? (double)*in[i] * (double)cycles / (double)total : 0.0;
        *out[i] = (uint64_t)exact;
        remainder[i] = exact - (double)*out[i];
        assigned += *out[i];
    }
    /* The leftover (less than one cycle per leaf) goes one cycle each to the largest remainders. */
    while (assigned < cycles) {
        unsigned best = 0;
        for (unsigned i = 1; i < count; i++)
            if (remainder[i] > remainder[best])
                best = i;
        (*out[best])++;
        remainder[best] = -1.0;
        assigned++;
    }
    to->category[GSI_MEM_DATA] = sum_counts(to->source, GSI_SOURCE_COUNT);
    to->category[GSI_MEM_STRUCT] = sum_counts(to->struct_cause, GSI_STRUCT_COUNT);
    to->category[GSI_SYNC] = sum_counts(to->sync_kind, GSI_SYNC_KIND_COUNT);
}

int gsi_check(const gsi_counters *counters, uint64_t cycles, sc_error *error)
{
    uint64_t categories = sum_counts(counters->category, GSI_CATEGORY_COUNT);
    if (categories != cycles)
        return sc_fail(error, "GSI: the categories sum to %" PRIu64 " cycles, but %" PRIu64 " cycles were charged",
                       categories, cycles);
    uint64_t sources = sum_counts(counters->source, GSI_SOURCE_COUNT);
    if (sources != counters->category[GSI_MEM_DATA])
        return sc_fail(error, "GSI: the memory-data sources sum to %" PRIu64 ", but mem_data is %" PRIu64, sources,
                       counters->category[GSI_MEM_DATA]);
    uint64_t struct_causes = sum_counts(counters->struct_cause, GSI_STRUCT_COUNT);
    if (struct_causes != counters->category[GSI_MEM_STRUCT])
        return sc_fail(error, "GSI: the memory-structural causes sum to %" PRIu64 ", but mem_struct is %" PRIu64,
                       struct_causes, counters->category[GSI_MEM_STRUCT]);
    uint64_t sync_kinds = sum_counts(counters->sync_kind, GSI_SYNC_KIND_COUNT);
    if (sync_kinds != counters->category[GSI_SYNC])
        return sc_fail(error, "GSI: the sync kinds sum to %" PRIu64 ", but sync is %" PRIu64, sync_kinds,
                       counters->category[GSI_SYNC]);
    return 0;
}
