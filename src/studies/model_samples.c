/* model_samples.c — detailed and sampled-run samples shared by calibration and validation
 * (model_samples.h). */
#include "studies/model_samples.h"

#include <stdio.h>
#include <stdlib.h>

#include "base/progress.h"
#include "session/run_session.h"
#include "workloads/workload.h"

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
        out->sample.cycles = (double)result.timing.cycles;
        double cu_cycles = (double)result.timing.cycles * result.timing.cu_count;
        for (int c = 0; c < GSI_CATEGORY_COUNT; c++)
            out->sample.stall_fraction[c] = (double)result.timing.total.category[c] / cu_cycles;
        out->has_interval = !study->windows || result.sample.has_ci;
        out->detailed_fraction = study->windows ? result.sample.detailed_fraction : 1.0;
        out->warp_instructions = result.stats.warp_instructions;
        out->sample.weight = out->has_interval ? 1.0 : STUDY_NO_INTERVAL_WEIGHT;
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

int model_study_sample_one(const model_study *study, sc_store *store, const sc_config *config,
                           const sc_workload_ref *workload, int64_t sweep_point_id, const char *point_json,
                           study_sample *out, sc_error *error)
{
    model_point point;
    if (model_point_from_config(config, &point, error) < 0 || model_point_of_mechanism(study->model, config, &point, error) < 0)
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
