/* model_samples.c — detailed and sampled-run samples shared by calibration and validation
 * (model_samples.h). */
#include "studies/model_samples.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/progress.h"
#include "session/run_session.h"
#include "workloads/workload.h"

/* Fills the sample's measured side: the run's cycles, the stall cycles of each GSI category summed
 * over its `cu_count` CUs, and for a sampled run (study->windows) whether its estimate has an
 * interval, its share run in detail and its warp instructions. */
static void fill_measured(const model_study *study, double cycles, const double *stall_cycles, double cu_count,
                          bool has_ci, double detailed_fraction, uint64_t warp_instructions, study_sample *out)
{
    out->sample.cycles = cycles;
    double cu_cycles = cycles * cu_count;
    for (int c = 0; c < GSI_CATEGORY_COUNT; c++)
        out->sample.stall_fraction[c] = stall_cycles[c] / cu_cycles;
    out->has_interval = !study->windows || has_ci;
    out->detailed_fraction = study->windows ? detailed_fraction : 1.0;
    out->warp_instructions = warp_instructions;
    out->sample.weight = out->has_interval ? 1.0 : STUDY_NO_INTERVAL_WEIGHT;
}

/* Runs one workload at one point in detail (or sampled), stores it (in sweep point
 * `sweep_point_id` unless 0) and fills the sample's measured side. */
static int detailed_sample(const model_study *study, sc_store *store, const sc_config *config,
                           const sc_workload_ref *workload, int64_t sweep_point_id, study_sample *out, sc_error *error)
{
    run_request request = {.system = study->system, .mechanism = study->mechanism,
                           .mode = study->windows ? "sampled" : "detailed", .seed = 1, .sampling = study->sampling};
    run_request_set_workload(&request, workload);
    sc_workload_size_parse(study->size, &request.size);
    run_result result;
    int status = run_session_simulate(&request, config, &result, error);
    if (status == 0 && !result.check.passed)
        status = sc_fail(error, "%s: detailed run failed its check: %s", workload->name, result.check.detail);
    if (status == 0) {
        run_session_record record;
        run_session_make_record(&request, config, &result, &record);
        record.record.sweep_point_id = sweep_point_id;
        out->detailed_run_id = sc_store_insert_run(store, &record.record, error);
        run_session_record_release(&record);
        status = out->detailed_run_id < 0 ? -1 : 0;
    }
    if (status == 0) {
        double stall_cycles[GSI_CATEGORY_COUNT];
        for (int c = 0; c < GSI_CATEGORY_COUNT; c++)
            stall_cycles[c] = (double)result.timing.total.category[c];
        fill_measured(study, (double)result.timing.cycles, stall_cycles, result.timing.cu_count, result.sample.has_ci,
                      result.sample.detailed_fraction, result.stats.warp_instructions, out);
    }
    run_result_release(&result);
    return status;
}

/* One sample of `workload` at the point `point` of `config` (its profile, then its run). */
static int sample_at(const model_study *study, sc_store *store, const sc_config *config, const model_point *point,
                     const sc_workload_ref *workload, int64_t sweep_point_id, study_sample *s, sc_error *error)
{
    *s = (study_sample){.workload = workload};
    s->sample.point = *point;
    s->profile = model_profile_obtain(store, workload, study->size, 1, config, error);
    int status = s->profile ? detailed_sample(study, store, config, workload, sweep_point_id, s, error) : -1;
    s->sample.profile = s->profile;
    return status;
}

/* The model point of `config` as the study's mechanism sees it. */
static int study_point(const model_study *study, const sc_config *config, model_point *point, sc_error *error)
{
    return model_point_from_config(config, point, error) < 0 ||
                   model_point_of_mechanism(study->model, config, point, error) < 0
               ? -1
               : 0;
}

int model_study_sample_one(const model_study *study, sc_store *store, const sc_config *config,
                           const sc_workload_ref *workload, int64_t sweep_point_id, const char *point_json,
                           study_sample *out, sc_error *error)
{
    model_point point;
    if (study_point(study, config, &point, error) < 0)
        return -1;
    int status = sample_at(study, store, config, &point, workload, sweep_point_id, out, error);
    out->point_json = point_json;
    if (status < 0) {
        profile_free(out->profile);
        out->profile = NULL;
    }
    return status;
}

study_sample *model_study_sample(const model_study *study, sc_store *store, const model_design_point *points,
                                 int point_count, int *count, sc_error *error)
{
    study_sample *samples = calloc((size_t)point_count * study->workload_count + 1, sizeof *samples);
    int made = 0, status = 0;
    char what[96];
    snprintf(what, sizeof what, "%s model of %s: detailed runs", study->system, study->mechanism);
    sc_progress progress;
    sc_progress_start(&progress, what, "runs", (long)point_count * study->workload_count);
    for (int p = 0; p < point_count && status == 0; p++) {
        sc_config *config = model_design_config(study->system, &points[p], error);
        if (!config || model_point_from_config(config, &samples[made].sample.point, error) < 0 ||
            model_point_of_mechanism(study->model, config, &samples[made].sample.point, error) < 0) {
            sc_config_free(config);
            status = -1;
            break;
        }
        model_point point = samples[made].sample.point;
        for (int w = 0; w < study->workload_count && status == 0; w++) {
            study_sample *s = &samples[made];
            status = sample_at(study, store, config, &point, &study->workloads[w], 0, s, error);
            s->point = p;
            s->point_json = points[p].json;
            made++;
            if (status == 0 && !study->quiet)
                fprintf(stderr, "  point %d/%d %-10s %s %.0f cycles%s\n", p + 1, point_count, s->workload->name,
                        study->windows ? "sampled" : "detailed", s->sample.cycles,
                        s->has_interval ? "" : " (no interval: down-weighted)");
            sc_progress_step(&progress, 1);
        }
        sc_config_free(config);
    }
    if (status != 0) {
        model_study_samples_free(samples, made);
        return NULL;
    }
    *count = made;
    return samples;
}

void model_study_samples_free(study_sample *samples, int count)
{
    for (int i = 0; i < count; i++)
        profile_free(samples[i].profile);
    free(samples);
}

/* ---- a sample read back from a stored run ---- */

/* What the store holds of a run's measured side. */
typedef struct stored_measurement {
    double cycles, cu_count;
    double stall_cycles[GSI_CATEGORY_COUNT];
    bool has_ci, found;
    double detailed_fraction, warp_instructions;
} stored_measurement;

static int read_run_row(void *context, int columns, const char *const *names, const char *const *values,
                        const sc_value_kind *kinds)
{
    (void)columns, (void)names, (void)kinds;
    stored_measurement *m = context;
    if (values && values[0] && values[1]) {
        m->cycles = strtod(values[0], NULL);
        m->cu_count = strtod(values[1], NULL);
        m->found = true;
    }
    return 0;
}

static int read_stall_row(void *context, int columns, const char *const *names, const char *const *values,
                          const sc_value_kind *kinds)
{
    (void)columns, (void)names, (void)kinds;
    stored_measurement *m = context;
    for (int c = 0; values && values[0] && values[1] && c < GSI_CATEGORY_COUNT; c++)
        if (!strcmp(values[0], gsi_category_name((gsi_category)c)))
            m->stall_cycles[c] += strtod(values[1], NULL);
    return 0;
}

static int read_metric_row(void *context, int columns, const char *const *names, const char *const *values,
                           const sc_value_kind *kinds)
{
    (void)columns, (void)names, (void)kinds;
    stored_measurement *m = context;
    if (!values || !values[0] || !values[1])
        return 0;
    double value = strtod(values[1], NULL);
    if (!strcmp(values[0], "sample.has_interval"))
        m->has_ci = value != 0;
    else if (!strcmp(values[0], "sample.detailed_fraction"))
        m->detailed_fraction = value;
    else if (!strcmp(values[0], "warp_instructions"))
        m->warp_instructions = value;
    return 0;
}

int model_study_sample_stored(const model_study *study, sc_store *store, const sc_config *config,
                              const sc_workload_ref *workload, int64_t run_id, const char *point_json,
                              study_sample *out, sc_error *error)
{
    model_point point;
    if (study_point(study, config, &point, error) < 0)
        return -1;
    char id_text[32];
    snprintf(id_text, sizeof id_text, "%lld", (long long)run_id);
    sc_query_param param = {"run", id_text};
    stored_measurement m = {0};
    int status = sc_store_query(store, "SELECT r.cycles, c.cu_count FROM runs r JOIN configs c ON c.hash = r.config_hash "
                                       "WHERE r.id = :run AND r.cycles IS NOT NULL",
                                &param, 1, read_run_row, &m, error);
    if (status == 0 && !m.found)
        status = sc_fail(error, "%s: run %lld is not stored with its cycles", sc_store_path(store), (long long)run_id);
    if (status == 0)
        status = sc_store_query(store, "SELECT category, sum(cycles) FROM stalls WHERE run_id = :run AND cu >= 0 "
                                       "GROUP BY category",
                                &param, 1, read_stall_row, &m, error);
    if (status == 0)
        status = sc_store_query(store, "SELECT name, value FROM metrics WHERE run_id = :run AND kernel_index = -1 AND name IN "
                                       "('sample.has_interval', 'sample.detailed_fraction', 'warp_instructions')",
                                &param, 1, read_metric_row, &m, error);
    *out = (study_sample){.workload = workload, .point_json = point_json, .detailed_run_id = run_id};
    out->sample.point = point;
    if (status == 0 && !(out->profile = model_profile_obtain(store, workload, study->size, 1, config, error)))
        status = -1;
    out->sample.profile = out->profile;
    if (status == 0)
        fill_measured(study, m.cycles, m.stall_cycles, m.cu_count, m.has_ci, m.detailed_fraction,
                      (uint64_t)m.warp_instructions, out);
    return status;
}
