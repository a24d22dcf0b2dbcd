/* model_samples.c — detailed and sampled-run samples shared by calibration and validation
 * (model_samples.h): runs simulated, or copied from an earlier database where it holds the same
 * computation (--detailed-from), and samples read back from stored runs. */
#include "studies/model_samples.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/detailed_identity.h"
#include "base/parallel.h"
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

/* A sample's run, taken on any thread (it touches no store): the run session's result, or an
 * error. */
typedef struct sample_run {
    run_request request;
    run_result result;
    int status;
    sc_error error;
} sample_run;

/* The request of a sample's run: one workload in detail (or sampled) at the study's size, seed 1. */
static run_request sample_request(const model_study *study, const sc_workload_ref *workload)
{
    run_request request = {.system = study->system, .mechanism = study->mechanism,
                           .mode = study->windows ? "sampled" : "detailed", .seed = 1, .sampling = study->sampling};
    run_request_set_workload(&request, workload);
    sc_workload_size_parse(study->size, &request.size);
    return request;
}

/* Runs one workload at one point in detail (or sampled) and checks it. */
static void simulate_sample(const model_study *study, const sc_config *config, const sc_workload_ref *workload,
                            sample_run *run)
{
    run->request = sample_request(study, workload);
    run->status = run_session_simulate(&run->request, config, &run->result, &run->error);
    if (run->status == 0 && !run->result.check.passed)
        run->status = sc_fail(&run->error, "%s: detailed run failed its check: %s", workload->name,
                              run->result.check.detail);
}

/* Stores a simulated run (in sweep point `sweep_point_id` unless 0), fills the sample's measured
 * side and releases the run's result. */
static int store_sample_run(const model_study *study, sc_store *store, const sc_config *config, sample_run *run,
                            int64_t sweep_point_id, study_sample *out, sc_error *error)
{
    int status = run->status;
    if (status != 0)
        *error = run->error;
    run_result *result = &run->result;
    if (status == 0 && !result->timing.gsi)
        status = sc_fail(error, "sim.gsi is false, but a model's samples need the GSI stall breakdown");
    if (status == 0) {
        run_session_record record;
        run_session_make_record(&run->request, config, result, &record);
        record.record.sweep_point_id = sweep_point_id;
        out->detailed_run_id = sc_store_insert_run(store, &record.record, error);
        run_session_record_release(&record);
        status = out->detailed_run_id < 0 ? -1 : 0;
    }
    if (status == 0) {
        double stall_cycles[GSI_CATEGORY_COUNT];
        for (int c = 0; c < GSI_CATEGORY_COUNT; c++)
            stall_cycles[c] = (double)result->timing.total.category[c];
        fill_measured(study, (double)result->timing.cycles, stall_cycles, result->timing.cu_count,
                      result->sample.has_ci, result->sample.detailed_fraction, result->stats.warp_instructions, out);
    }
    run_result_release(result);
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
    *out = (study_sample){.workload = workload, .point_json = point_json};
    out->sample.point = point;
    out->profile = model_profile_obtain(store, workload, study->size, 1, config, error);
    int status = -1;
    if (out->profile) {
        sample_run run;
        simulate_sample(study, config, workload, &run);
        status = store_sample_run(study, store, config, &run, sweep_point_id, out, error);
    }
    out->sample.profile = out->profile;
    if (status < 0) {
        profile_free(out->profile);
        out->profile = NULL;
    }
    return status;
}

/* Where a planned sample's profile comes from. */
typedef enum profile_source {
    PROFILE_STORED,   /* found in the store before the runs */
    PROFILE_TAKEN,    /* taken by the sample's job, stored when the sample is */
    PROFILE_LATER,    /* an earlier sample takes the same one: read back once that one is stored */
} profile_source;

/* One workload at one design point: what its job produces, stored in order afterwards. */
typedef struct planned_sample {
    int point, workload;
    int64_t reused_run_id;    /* the run of the study's detailed source copied instead of simulating; 0: none */
    profile_source source;
    model_profile *profile;
    sc_error profile_error;
    sample_run run;
} planned_sample;

/* Every sample of a study's design points, and what the jobs read. */
typedef struct sample_plan {
    const model_study *study;
    sc_config **configs;      /* one per point */
    planned_sample *samples;
    int count;
} sample_plan;

/* A sample's job: its profile when it takes one, then its run. */
static void take_sample(void *context, int index)
{
    const sample_plan *plan = context;
    planned_sample *planned = &plan->samples[index];
    const sc_config *config = plan->configs[planned->point];
    const sc_workload_ref *workload = &plan->study->workloads[planned->workload];
    if (planned->source == PROFILE_TAKEN) {
        planned->profile = model_profile_take(workload, plan->study->size, 1, config, &planned->profile_error);
        if (!planned->profile)
            return;
    }
    if (!planned->reused_run_id)
        simulate_sample(plan->study, config, workload, &planned->run);
}

/* The run of the study's detailed source that is the same computation as the run
 * simulate_sample would make of `workload` at `config` (not one of the `taken_count` in `taken`):
 * its id, 0 when there is none, -1 on failure. */
static int64_t find_reusable_run(const model_study *study, const sc_config *config, const sc_workload_ref *workload,
                                 const int64_t *taken, int taken_count, sc_error *error)
{
    run_request request = sample_request(study, workload);
    char params[SC_WORKLOAD_PARAMS_BYTES];
    sc_workload_params_text(workload, sc_workload_size_name(request.size), request.seed, params);
    sc_metric_row settings[RUN_SAMPLED_SETTING_COUNT];
    run_sampled_settings(&request.sampling, settings);
    char *config_json = sc_config_canonical_json(config);
    sc_run_key key = {.system = request.system, .config_json = config_json, .config_hash = sc_config_hash(config),
                      .mechanism = request.mechanism, .workload = workload->name, .workload_params = params,
                      .mode = request.mode, .seed = (int64_t)request.seed, .detailed_identity = sc_detailed_identity(),
                      .settings = settings, .setting_count = study->windows ? RUN_SAMPLED_SETTING_COUNT : 0};
    int64_t id = sc_store_find_same_run(study->detailed_source->store, &key, taken, taken_count, error);
    free(config_json);
    return id;
}

/* Picks, for each planned sample, the run of the study's detailed source it reuses (each run of
 * the source reused at most once), if any. */
static int plan_reuse(const model_study *study, sample_plan *plan, sc_error *error)
{
    int64_t *taken = calloc((size_t)plan->count + 1, sizeof *taken);
    int taken_count = 0, status = 0;
    for (int s = 0; s < plan->count && status == 0; s++) {
        planned_sample *planned = &plan->samples[s];
        int64_t id = find_reusable_run(study, plan->configs[planned->point], &study->workloads[planned->workload],
                                       taken, taken_count, error);
        if (id < 0)
            status = sc_fail_prefix(error, "reusing detailed runs");
        else if (id > 0)
            planned->reused_run_id = taken[taken_count++] = id;
    }
    free(taken);
    return status;
}

/* Decides where each sample's profile comes from: the store, its own job (the first sample of
 * a profile the store lacks), or the store after an earlier sample's job took it, as taking
 * them one after the other would. */
static int plan_profiles(const model_study *study, sc_store *store, sample_plan *plan, sc_error *error)
{
    char (*keys)[PROFILE_KEY_BYTES] = calloc((size_t)plan->count + 1, sizeof *keys);
    int status = 0;
    for (int s = 0; s < plan->count && status == 0; s++) {
        planned_sample *planned = &plan->samples[s];
        const sc_config *config = plan->configs[planned->point];
        profile_key_of(config, keys[s]);
        planned->source = PROFILE_TAKEN;
        for (int earlier = 0; earlier < s && planned->source == PROFILE_TAKEN; earlier++)
            if (plan->samples[earlier].source == PROFILE_TAKEN && plan->samples[earlier].workload == planned->workload &&
                !strcmp(keys[earlier], keys[s]))
                planned->source = PROFILE_LATER;
        if (planned->source == PROFILE_LATER)
            continue;
        planned->profile = model_profile_find(store, &study->workloads[planned->workload], study->size, 1, config, error);
        if (planned->profile)
            planned->source = PROFILE_STORED;
        else if (error->message[0])
            status = -1;
    }
    free(keys);
    return status;
}

/* Copies run `run_id` of the study's detailed source into the store and fills the sample from it
 * (below, with the samples read back from stored runs). */
static int store_reused_run(const model_study *study, sc_store *store, int64_t run_id, study_sample *out,
                            sc_error *error);

/* Stores planned sample `planned` (its profile if its job took it, then its run) into `s`. */
static int store_planned(const model_study *study, sc_store *store, const sample_plan *plan, planned_sample *planned,
                         study_sample *s, sc_error *error)
{
    const sc_config *config = plan->configs[planned->point];
    const sc_workload_ref *workload = &study->workloads[planned->workload];
    int status = 0;
    if (planned->source == PROFILE_TAKEN && !planned->profile) {
        *error = planned->profile_error;
        status = -1;
    } else if (planned->source == PROFILE_TAKEN) {
        status = model_profile_keep(store, workload, study->size, 1, config, planned->profile, error);
    } else if (planned->source == PROFILE_LATER) {
        planned->profile = model_profile_obtain(store, workload, study->size, 1, config, error);
        status = planned->profile ? 0 : -1;
    }
    s->profile = planned->profile;
    s->sample.profile = planned->profile;
    planned->profile = NULL;
    if (status == 0 && planned->reused_run_id)
        return store_reused_run(study, store, planned->reused_run_id, s, error);
    if (status == 0)
        return store_sample_run(study, store, config, &planned->run, 0, s, error);
    run_result_release(&planned->run.result);
    return status;
}

study_sample *model_study_sample(const model_study *study, sc_store *store, const model_design_point *points,
                                 int point_count, int *count, sc_error *error)
{
    int total = point_count * study->workload_count;
    study_sample *samples = calloc((size_t)total + 1, sizeof *samples);
    sample_plan plan = {.study = study, .configs = calloc((size_t)point_count + 1, sizeof *plan.configs),
                        .samples = calloc((size_t)total + 1, sizeof *plan.samples)};
    model_point *model_points = calloc((size_t)point_count + 1, sizeof *model_points);
    /* A point whose configuration fails ends the study after the points before it, as one run
     * after the other would. */
    int status = 0, configured = 0, config_status = 0;
    sc_error config_error = {{0}};
    for (; configured < point_count && config_status == 0; configured++) {
        plan.configs[configured] = model_design_config(study->system, &points[configured], &config_error);
        if (plan.configs[configured])
            sc_config_hash(plan.configs[configured]);   /* cached on first use: the jobs must only read it */
        config_status = plan.configs[configured]
                            ? study_point(study, plan.configs[configured], &model_points[configured], &config_error)
                            : -1;
        for (int w = 0; w < study->workload_count && config_status == 0; w++)
            plan.samples[plan.count++] = (planned_sample){.point = configured, .workload = w};
    }
    if (status == 0)
        status = plan_profiles(study, store, &plan, error);
    if (status == 0 && study->detailed_source)
        status = plan_reuse(study, &plan, error);
    if (status == 0)
        sc_parallel_run(plan.count, study->jobs > 0 ? study->jobs : sc_parallel_processors(), take_sample, &plan);
    char what[96];
    snprintf(what, sizeof what, "%s model of %s: detailed runs", study->system, study->mechanism);
    sc_progress progress;
    sc_progress_start(&progress, what, "runs", (long)total);
    int made = 0;
    for (; made < plan.count && status == 0; made++) {
        planned_sample *planned = &plan.samples[made];
        study_sample *s = &samples[made];
        *s = (study_sample){.workload = &study->workloads[planned->workload], .point = planned->point,
                            .point_json = points[planned->point].json};
        s->sample.point = model_points[planned->point];
        status = store_planned(study, store, &plan, planned, s, error);
        if (status == 0 && study->detailed_source) {
            study->detailed_source->reused += s->reused;
            study->detailed_source->simulated += !s->reused;
        }
        if (status == 0 && !study->quiet)
            fprintf(stderr, "  point %d/%d %-10s %s %.0f cycles%s%s\n", planned->point + 1, point_count,
                    s->workload->name, study->windows ? "sampled" : "detailed", s->sample.cycles,
                    s->has_interval ? "" : " (no interval: down-weighted)", s->reused ? " (reused)" : "");
        sc_progress_step(&progress, 1);
    }
    for (int rest = made; rest < plan.count; rest++) {   /* after a failure: what the jobs made */
        profile_free(plan.samples[rest].profile);
        run_result_release(&plan.samples[rest].run.result);
    }
    if (status == 0 && config_status != 0) {
        *error = config_error;
        status = -1;
    }
    for (int p = 0; p < configured; p++)
        sc_config_free(plan.configs[p]);
    free(plan.configs);
    free(plan.samples);
    free(model_points);
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

/* Reads stored run `run_id`'s measured side as store_sample_run filled it when it was simulated:
 * its cycles, its stall cycles per GSI category summed over its CUs (whole numbers: exact in any
 * order), its interval flag, detailed share and warp instructions. */
static int read_measurement(sc_store *store, int64_t run_id, stored_measurement *m, sc_error *error)
{
    char id_text[32];
    snprintf(id_text, sizeof id_text, "%lld", (long long)run_id);
    sc_query_param param = {"run", id_text};
    *m = (stored_measurement){0};
    int status = sc_store_query(store, "SELECT r.cycles, c.cu_count FROM runs r JOIN configs c ON c.hash = r.config_hash "
                                       "WHERE r.id = :run AND r.cycles IS NOT NULL",
                                &param, 1, read_run_row, m, error);
    if (status == 0 && !m->found)
        status = sc_fail(error, "%s: run %lld is not stored with its cycles", sc_store_path(store), (long long)run_id);
    if (status == 0)
        status = sc_store_query(store, "SELECT category, sum(cycles) FROM stalls WHERE run_id = :run AND cu >= 0 "
                                       "GROUP BY category",
                                &param, 1, read_stall_row, m, error);
    if (status == 0)
        status = sc_store_query(store, "SELECT name, value FROM metrics WHERE run_id = :run AND kernel_index = -1 AND name IN "
                                       "('sample.has_interval', 'sample.detailed_fraction', 'warp_instructions')",
                                &param, 1, read_metric_row, m, error);
    return status;
}

static void fill_stored(const model_study *study, const stored_measurement *m, study_sample *out)
{
    fill_measured(study, m->cycles, m->stall_cycles, m->cu_count, m->has_ci, m->detailed_fraction,
                  (uint64_t)m->warp_instructions, out);
}

/* Copies run `run_id` of the study's detailed source into the store (a sample whose run is the
 * same computation) and fills the sample's measured side from the copy. */
static int store_reused_run(const model_study *study, sc_store *store, int64_t run_id, study_sample *out,
                            sc_error *error)
{
    out->detailed_run_id = sc_store_copy_run(store, study->detailed_source->store, run_id, error);
    stored_measurement m;
    if (out->detailed_run_id < 0 || read_measurement(store, out->detailed_run_id, &m, error) < 0)
        return -1;
    fill_stored(study, &m, out);
    out->reused = true;
    return 0;
}

int model_study_sample_stored(const model_study *study, sc_store *store, const sc_config *config,
                              const sc_workload_ref *workload, int64_t run_id, const char *point_json,
                              study_sample *out, sc_error *error)
{
    model_point point;
    if (study_point(study, config, &point, error) < 0)
        return -1;
    stored_measurement m;
    int status = read_measurement(store, run_id, &m, error);
    *out = (study_sample){.workload = workload, .point_json = point_json, .detailed_run_id = run_id};
    out->sample.point = point;
    if (status == 0 && !(out->profile = model_profile_obtain(store, workload, study->size, 1, config, error)))
        status = -1;
    out->sample.profile = out->profile;
    if (status == 0)
        fill_stored(study, &m, out);
    return status;
}
