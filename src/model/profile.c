/* profile.c — workload profiles: configuration key, model summaries, JSON form (profile.h). */
#include "model/profile.h"

#include "model/dram_rows.h"
#include "model/model_core.h"

#include <cjson/cJSON.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Version of the profile's contents, part of its key: 2 added the memory-side read classes, 3 the
 * scheduler-at-a-time interleaving of LSU-bound launches (profiler.c), 4 the hottest loaded line
 * and the barrier bursts, 5 the greedy-then-oldest warp order, 6 the L2's dirty reuses and spans,
 * 7 the bursts' peak bank loads, 8 the timed loose-round-robin warp order and the busiest CU
 * counted under round-robin CTA placement, 9 as many CTAs per CU as fit in its warp slots,
 * registers and shared memory (exec/occupancy.h), as the detailed dispatcher holds, 10 the
 * writes' invalidations of other CUs' readers (write_invalidations), 11 a warp's order: the gaps
 * after its global accesses to its next ordered access and its loads behind its own writes to a
 * line (order_after_reads, order_after_writes, own_line_loads), 12 the local-memory organisations:
 * the shared accesses' bank conflicts, a DMA mapping's transfers and a stash's first touches and
 * dirty words (profile.h), 13 the time of L1 hits and writes since their line's previous load
 * and latest read into an L1 (l1_hit_gaps, write_lease_gaps), 14 the stores a warp leaves in flight
 * at its exit and the warps' leads before their first access (order_final_writes,
 * order_final_write_leads), 15 the time from a launch's latest written lease to its end
 * (kernel_end_lease_ages), 16 the configured L1's set-associative hits (set_lru.h: keyed by
 * l1.associativity), 17 each CU's stack of the lines it stores to (l1_writes), 18 the L1's
 * lines installed when a miss's fill returns (fill_tags.h), 19 the L1 reuses on tags kept across
 * acquires that drop the CU's own stores' lines (l1_loads_kept), 20 the ages of the copies those
 * tags hit since their fill (l1_hit_ages, l1_hit_previous_ages), 21 a line's latest load kept
 * across launches: the ages at the kernel end of leases an earlier launch took
 * (kernel_end_earlier_lease_ages), 22 the loads on an ownership protocol's L1 tags
 * (l1_loads_owned), 23 the fields of 20 and of 21-22 together (two branches of session 28), 24
 * the groups of those hits' lines by their fill (l1_hit_fill_groups), 25 with 24's the fields of
 * the stack of sessions 28-30 (its branch's formats 24-28): the DRAM stream's row locality
 * (dram_stream_lines, dram_stream_row_hits; keyed by the DRAM mapping), the loads the configured L1
 * misses with their missing lines and the busiest CU's missing lines (load_misses.h), each
 * launch's longest warp (longest_warp_instructions) and that warp's global accesses
 * (longest_warp_global_accesses), the spread of the CUs' lines in flight over the L2 and L3 banks
 * (inflight_banks.h: inflight_pairs; keyed by l2.banks and l3.banks), 26 the banks that hold a
 * line in flight in place of 25's pairs of lines on one bank (inflight_positions,
 * inflight_l2_banks_held, inflight_l3_banks_held), 27 the DRAM stream's read/write turnarounds as a
 * per-bank-target scheduler makes them (dram_replayed_turnarounds, dram_interleaved_turnarounds;
 * keyed by dram.request_queue too), 28 the L2's write-backs charged to the launch that evicts the
 * line rather than to the group of its next access (profiler.c's record_dirty_at_launch_end), 29
 * the bursts with a read merged with a miss in flight (barrier_bursts_merged), 30 the reads at
 * the distances of the stores to their line since its previous read (l2_reads_around) and the
 * warps' leads before their first access (first_access_warps, first_access_leads,
 * first_access_lead_alu). */
#define PROFILE_FORMAT 30

void profile_key_of(const sc_config *config, char key[PROFILE_KEY_BYTES])
{
    /* The warp slots, registers and shared memory decide with the CTA slots how many CTAs a CU
     * holds, so how many warps interleave on it (profiler.c). */
    static const char *const keys[] = {"gpu.cu_count", "gpu.warp_size", "gpu.max_ctas_per_cu", "gpu.max_warps_per_cu",
                                       "gpu.registers_per_cu", "gpu.shared_memory_per_cu", "l1.line_size",
                                       "gpu.schedulers_per_cu", "gpu.issue_width", "l1.banks",
                                       "gpu.shared_memory_banks", "local_memory.bank_bytes", "l2.banks", "l3.banks"};
    static const char *const names[] = {"cu", "warp", "ctas", "warps", "registers", "shared", "line", "schedulers",
                                        "issue", "banks", "spbanks", "spword", "l2banks", "l3banks"};
    int used = 0;
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++)
        used += snprintf(key + used, PROFILE_KEY_BYTES - (size_t)used, "%s=%lld ", names[k],
                         (long long)sc_config_int(config, keys[k]));
    /* The DRAM mapping decides which cold lines share a row (dram_stream_row_hits), with the
     * channels' queues which lines a channel chooses among (dram_replayed_turnarounds). */
    used += snprintf(key + used, PROFILE_KEY_BYTES - (size_t)used, "dram=%lldx%lldx%lldq%lld ",
                     (long long)sc_config_int(config, "dram.channels"),
                     (long long)sc_config_int(config, "dram.banks_per_channel"),
                     (long long)sc_config_int(config, "dram.row_size"),
                     (long long)sc_config_int(config, "dram.request_queue"));
    /* l1.size, l1.associativity and l1.mshrs decide which loads hit and stall a warp, and how long
     * (profiler.c). */
    snprintf(key + used, PROFILE_KEY_BYTES - (size_t)used, "scheduler=%s l1=%lld ways=%lld mshrs=%lld format=%d",
             sc_config_string(config, "gpu.scheduler"), (long long)sc_config_int(config, "l1.size"),
             (long long)sc_config_int(config, "l1.associativity"), (long long)sc_config_int(config, "l1.mshrs"),
             PROFILE_FORMAT);
}

void profile_free(model_profile *profile)
{
    if (!profile)
        return;
    free(profile->kernels);
    free(profile);
}

/* Every scalar field of a kernel group, by JSON name. */
#define FIELD(name) {#name, offsetof(model_kernel_profile, name)}
static const struct {
    const char *name;
    size_t offset;
} scalar_fields[] = {
    FIELD(launches), FIELD(ctas), FIELD(warps_per_cta), FIELD(threads_per_cta), FIELD(shared_bytes),
    FIELD(registers_per_thread), FIELD(warp_instructions), FIELD(thread_instructions), FIELD(alu), FIELD(sfu),
    FIELD(branches), FIELD(barriers), FIELD(other_control), FIELD(shared_accesses), FIELD(acquires),
    FIELD(releases), FIELD(busiest_cu_instructions), FIELD(longest_warp_instructions),
    FIELD(longest_warp_global_accesses), FIELD(footprint_lines), FIELD(written_lines),
    FIELD(shared_lines), FIELD(remote_read_after_write), FIELD(write_invalidations), FIELD(atomic_hottest_share),
    FIELD(load_hottest_share), FIELD(barrier_bursts), FIELD(barrier_burst_lines),
    FIELD(barrier_burst_instructions), FIELD(barrier_bursts_merged), FIELD(shared_conflict_cycles), FIELD(mapped_bytes_per_cta), FIELD(dma_lines),
    FIELD(dma_writeback_lines), FIELD(stash_first_touch_loads), FIELD(stash_first_touch_lines),
    FIELD(stash_store_lines), FIELD(stash_dirty_words), FIELD(order_final_write_leads), FIELD(l1_hit_fill_groups),
    FIELD(dram_stream_lines), FIELD(dram_stream_row_hits), FIELD(dram_replayed_turnarounds),
    FIELD(dram_interleaved_turnarounds), FIELD(l1_missing_loads), FIELD(l1_missing_load_lines),
    FIELD(busiest_cu_l1_missing_lines), FIELD(inflight_positions), FIELD(inflight_l2_banks_held),
    FIELD(inflight_l3_banks_held), FIELD(first_access_warps), FIELD(first_access_leads), FIELD(first_access_lead_alu),
};

static const char *const access_names[MODEL_ACCESS_COUNT] = {"load", "load_strong", "store", "store_strong", "atomic"};

/* Every reuse histogram of a kernel group, by JSON name, with the summary the models read. */
#define HISTOGRAM(name, summary) {#name, offsetof(model_kernel_profile, name), offsetof(model_kernel_profile, summary)}
static const struct {
    const char *name;
    size_t offset, summary_offset;
} histogram_fields[] = {
    HISTOGRAM(l1_loads, l1_summary),
    HISTOGRAM(l1_loads_crossing, l1_crossing_summary),
    HISTOGRAM(l1_writes, l1_write_summary),
    HISTOGRAM(l2_reads, l2_read_summary),
    HISTOGRAM(l2_writes, l2_write_summary),
    HISTOGRAM(l2_reads_around, l2_read_around_summary),
    HISTOGRAM(l2_reads_cpu_owned, cpu_owned_summary),
    HISTOGRAM(l2_reads_fetched, fetched_summary),
    HISTOGRAM(l2_reads_written, written_summary),
    HISTOGRAM(cpu_recency, cpu_recency_summary),
    HISTOGRAM(l1_loads_host_flushed, l1_host_flushed_summary),
    HISTOGRAM(l1_loads_host_written, l1_host_written_summary),
    HISTOGRAM(l1_loads_rewritten, l1_rewritten_summary),
    HISTOGRAM(l1_loads_kept, l1_kept_summary),
    HISTOGRAM(l1_loads_owned, l1_owned_summary),
    HISTOGRAM(l2_reads_fetched_rewritten, fetched_rewritten_summary),
    HISTOGRAM(l2_reads_written_rewritten, written_rewritten_summary),
    HISTOGRAM(l2_dirty_reuses, dirty_reuse_summary),
    HISTOGRAM(l2_dirty_spans, dirty_span_summary),
    HISTOGRAM(order_after_reads, order_reads_summary),
    HISTOGRAM(order_after_writes, order_writes_summary),
    HISTOGRAM(order_final_writes, order_final_write_summary),
    HISTOGRAM(own_line_loads, own_line_summary),
    HISTOGRAM(l1_hit_gaps, l1_hit_gap_summary),
    HISTOGRAM(l1_hit_ages, l1_hit_age_summary),
    HISTOGRAM(l1_hit_previous_ages, l1_hit_previous_age_summary),
    HISTOGRAM(write_lease_gaps, write_lease_gap_summary),
    HISTOGRAM(kernel_end_lease_ages, kernel_end_lease_age_summary),
    HISTOGRAM(kernel_end_earlier_lease_ages, kernel_end_earlier_lease_age_summary),
    HISTOGRAM(dma_reads, dma_read_summary),
    HISTOGRAM(dma_reads_cpu_owned, dma_cpu_owned_summary),
    HISTOGRAM(dma_reads_fetched, dma_fetched_summary),
    HISTOGRAM(dma_reads_written, dma_written_summary),
    HISTOGRAM(dma_cpu_recency, dma_cpu_recency_summary),
};
#undef HISTOGRAM
#undef FIELD

void profile_prepare(model_profile *profile)
{
    for (int k = 0; k < profile->kernel_count; k++) {
        char *kernel = (char *)&profile->kernels[k];
        for (size_t h = 0; h < sizeof histogram_fields / sizeof histogram_fields[0]; h++)
            reuse_summarize((const reuse_histogram *)(kernel + histogram_fields[h].offset),
                            (reuse_summary *)(kernel + histogram_fields[h].summary_offset));
        model_core_prepare_group(&profile->kernels[k]);
    }
    dram_rows_prepare(profile);
}

/* {"cold": n, "buckets": [[bucket, count], ...]} with non-empty buckets only. */
static cJSON *histogram_to_json(const reuse_histogram *histogram)
{
    cJSON *object = cJSON_CreateObject(), *buckets = cJSON_CreateArray();
    cJSON_AddNumberToObject(object, "cold", histogram->cold);
    for (int b = 0; b < REUSE_BUCKETS; b++)
        if (histogram->count[b] > 0) {
            double pair[2] = {b, histogram->count[b]};
            cJSON_AddItemToArray(buckets, cJSON_CreateDoubleArray(pair, 2));
        }
    cJSON_AddItemToObject(object, "buckets", buckets);
    return object;
}

static cJSON *kernel_to_json(const model_kernel_profile *kernel)
{
    cJSON *object = cJSON_CreateObject();
    cJSON_AddStringToObject(object, "name", kernel->name);
    for (size_t f = 0; f < sizeof scalar_fields / sizeof scalar_fields[0]; f++)
        cJSON_AddNumberToObject(object, scalar_fields[f].name,
                                *(const double *)((const char *)kernel + scalar_fields[f].offset));
    cJSON *instructions = cJSON_AddObjectToObject(object, "instructions"), *lines = cJSON_AddObjectToObject(object, "lines");
    for (int a = 0; a < MODEL_ACCESS_COUNT; a++) {
        cJSON_AddNumberToObject(instructions, access_names[a], kernel->instructions[a]);
        cJSON_AddNumberToObject(lines, access_names[a], kernel->lines[a]);
    }
    for (size_t h = 0; h < sizeof histogram_fields / sizeof histogram_fields[0]; h++)
        cJSON_AddItemToObject(object, histogram_fields[h].name,
                              histogram_to_json((const reuse_histogram *)((const char *)kernel + histogram_fields[h].offset)));
    cJSON_AddItemToObject(object, "burst_bank_peak_lines",
                          cJSON_CreateDoubleArray(kernel->burst_bank_peak_lines, BURST_BANK_COUNTS));
    return object;
}

char *profile_to_json(const model_profile *profile)
{
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "workload", profile->workload);
    cJSON_AddStringToObject(root, "params", profile->params);
    cJSON_AddStringToObject(root, "system", profile->system);
    cJSON_AddStringToObject(root, "key", profile->key);
    cJSON_AddNumberToObject(root, "cu_count", profile->cu_count);
    cJSON_AddNumberToObject(root, "warp_size", profile->warp_size);
    cJSON_AddNumberToObject(root, "line_bytes", profile->line_bytes);
    cJSON *kernels = cJSON_AddArrayToObject(root, "kernels");
    for (int k = 0; k < profile->kernel_count; k++)
        cJSON_AddItemToArray(kernels, kernel_to_json(&profile->kernels[k]));
    char *text = cJSON_PrintUnformatted(root);
    cJSON_Delete(root);
    return text;
}

/* ---- reading ---- */

static int read_number(const cJSON *object, const char *name, double *out, sc_error *error)
{
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(object, name);
    if (!cJSON_IsNumber(item))
        return sc_fail(error, "profile: field '%s' missing or not a number", name);
    *out = item->valuedouble;
    return 0;
}

static int read_string(const cJSON *object, const char *name, char *out, size_t size, sc_error *error)
{
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(object, name);
    if (!cJSON_IsString(item))
        return sc_fail(error, "profile: field '%s' missing or not a string", name);
    snprintf(out, size, "%s", item->valuestring);
    return 0;
}

static int histogram_from_json(const cJSON *object, const char *name, reuse_histogram *histogram, sc_error *error)
{
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(object, name);
    if (!cJSON_IsObject(item) || read_number(item, "cold", &histogram->cold, error) < 0)
        return sc_fail(error, "profile: histogram '%s' missing or malformed", name);
    const cJSON *pair;
    cJSON_ArrayForEach(pair, cJSON_GetObjectItemCaseSensitive(item, "buckets")) {
        const cJSON *bucket = cJSON_GetArrayItem(pair, 0), *count = cJSON_GetArrayItem(pair, 1);
        if (!cJSON_IsNumber(bucket) || !cJSON_IsNumber(count) || bucket->valueint < 0 || bucket->valueint >= REUSE_BUCKETS)
            return sc_fail(error, "profile: histogram '%s' has a malformed bucket", name);
        histogram->count[bucket->valueint] = count->valuedouble;
    }
    return 0;
}

static int kernel_from_json(const cJSON *object, model_kernel_profile *kernel, sc_error *error)
{
    if (read_string(object, "name", kernel->name, sizeof kernel->name, error) < 0)
        return -1;
    for (size_t f = 0; f < sizeof scalar_fields / sizeof scalar_fields[0]; f++)
        if (read_number(object, scalar_fields[f].name, (double *)((char *)kernel + scalar_fields[f].offset), error) < 0)
            return -1;
    const cJSON *instructions = cJSON_GetObjectItemCaseSensitive(object, "instructions");
    const cJSON *lines = cJSON_GetObjectItemCaseSensitive(object, "lines");
    for (int a = 0; a < MODEL_ACCESS_COUNT; a++)
        if (read_number(instructions, access_names[a], &kernel->instructions[a], error) < 0 ||
            read_number(lines, access_names[a], &kernel->lines[a], error) < 0)
            return -1;
    for (size_t h = 0; h < sizeof histogram_fields / sizeof histogram_fields[0]; h++)
        if (histogram_from_json(object, histogram_fields[h].name,
                                (reuse_histogram *)((char *)kernel + histogram_fields[h].offset), error) < 0)
            return -1;
    const cJSON *peaks = cJSON_GetObjectItemCaseSensitive(object, "burst_bank_peak_lines");
    if (cJSON_GetArraySize(peaks) != BURST_BANK_COUNTS)
        return sc_fail(error, "profile: 'burst_bank_peak_lines' missing or not %d numbers", BURST_BANK_COUNTS);
    for (int b = 0; b < BURST_BANK_COUNTS; b++) {
        const cJSON *peak = cJSON_GetArrayItem(peaks, b);
        if (!cJSON_IsNumber(peak))
            return sc_fail(error, "profile: 'burst_bank_peak_lines' has a non-number");
        kernel->burst_bank_peak_lines[b] = peak->valuedouble;
    }
    return 0;
}

model_profile *profile_from_json(const char *json, sc_error *error)
{
    cJSON *root = cJSON_Parse(json);
    if (!root)
        return sc_fail(error, "profile: not valid JSON"), NULL;
    model_profile *profile = calloc(1, sizeof *profile);
    double cu_count = 0, warp_size = 0, line_bytes = 0;
    const cJSON *kernels = cJSON_GetObjectItemCaseSensitive(root, "kernels");
    int status = read_string(root, "workload", profile->workload, sizeof profile->workload, error) < 0 ||
                 read_string(root, "params", profile->params, sizeof profile->params, error) < 0 ||
                 read_string(root, "system", profile->system, sizeof profile->system, error) < 0 ||
                 read_string(root, "key", profile->key, sizeof profile->key, error) < 0 ||
                 read_number(root, "cu_count", &cu_count, error) < 0 ||
                 read_number(root, "warp_size", &warp_size, error) < 0 ||
                 read_number(root, "line_bytes", &line_bytes, error) < 0 ? -1 : 0;
    if (status == 0 && !cJSON_IsArray(kernels))
        status = sc_fail(error, "profile: 'kernels' missing");
    if (status == 0) {
        profile->cu_count = (unsigned)cu_count;
        profile->warp_size = (unsigned)warp_size;
        profile->line_bytes = (unsigned)line_bytes;
        profile->kernel_count = cJSON_GetArraySize(kernels);
        profile->kernels = calloc((size_t)profile->kernel_count + 1, sizeof *profile->kernels);
        for (int k = 0; k < profile->kernel_count && status == 0; k++)
            status = kernel_from_json(cJSON_GetArrayItem(kernels, k), &profile->kernels[k], error);
    }
    cJSON_Delete(root);
    if (status != 0) {
        profile_free(profile);
        return NULL;
    }
    profile_prepare(profile);
    return profile;
}
