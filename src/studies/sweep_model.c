/* sweep_model.c — a sweep's points through the calibrated analytical models (sweep_model.h). Each
 * mechanism x workload pair evaluates with a memo of its solved groups (model/group_memo.h) of its
 * own, so that the pairs of a sweep do not take each other's room: the groups a pair solves at one
 * point are found again at the next where the swept keys leave their inputs alone. The environment
 * variable SYNCSCOPE_NO_GROUP_MEMO, set, turns the memos off (tests/integration/sweep_cli.sh
 * compares the two). */
#include "studies/sweep_model.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "model/group_memo.h"
#include "model/model.h"
#include "model/sweep_spec.h"
#include "protocols/mechanism.h"
#include "session/model_run.h"

/* Runs per transaction, at least; whole points only. Every transaction rewrites the last page
 * of each design point it adds to in the runs_by_point index (2,304 of them in a sweep of 8
 * workloads x 4 mechanisms x 72 configurations), so larger transactions write those pages
 * fewer times: the 10,000-point model-lhs sweep wrote 2.2 GB for its 320 MB of rows at 2,048
 * runs per transaction and 1.2 GB at 16,384. The batch holds 1.4 kB per run, and the
 * write lock is held only while a batch is stored (at most 0.73 s per batch in that sweep). */
enum { SWEEP_MODEL_BATCH = 16384 };

/* Profiles kept per workload. A profile depends on l1.size and l1.mshrs among others
 * (profile.h), so a sweep over those keys alternates between several: each one reloaded from the
 * database at every point made the 10,000-point model-lhs sweep (3 L1 sizes) 1.65x slower. Past
 * this many the oldest is dropped. */
enum { SWEEP_PROFILES_KEPT = 16 };

typedef struct sweep_model {
    sc_store *store;
    const model_mechanism *mechanisms[SWEEP_MAX_NAMES];
    model_calibration *calibrations;   /* [mechanism * workload_count + workload] */
    const char *const *mechanism_names;
    int mechanism_count;
    const sc_workload_ref *workloads;
    char (*workload_params)[SC_WORKLOAD_PARAMS_BYTES];   /* per workload, as its runs store them */
    int workload_count;
    const char *size;
    model_profile *profiles[SWEEP_MAX_NAMES][SWEEP_PROFILES_KEPT];   /* per workload, newest first */
    bool memos_on;
    group_memo **memos;           /* [pair], made at the pair's first evaluation (NULL: none yet) */
    int capacity;                 /* runs a batch holds: whole points, at least SWEEP_MODEL_BATCH */
    model_run *batch;
    sc_run_record *records;
    int queued;
    /* The queued points' canonical configuration JSON and hash (serialised once per point), and
     * the rows that store each point with its runs. */
    char **point_json;
    char (*point_hash)[17];
    sc_sweep_point_row *points;
    int points_queued;
    int64_t sweep_id;
    int64_t points_stored;
    int64_t evaluations;
} sweep_model;

/* The calibration mechanism `m` models workload `w` with, looked up in `source` (copied into the
 * sweep's database when it is another one). */
static int find_calibration(sweep_model *model, sc_store *source, const char *system, int m, int w, sc_error *error)
{
    model_calibration *out = &model->calibrations[m * model->workload_count + w];
    const sc_workload_ref *workload = &model->workloads[w];
    return source == model->store ? model_calibration_latest(source, model->mechanism_names[m], system, workload,
                                                             model->size, 1, out, error)
                                  : model_calibration_import(model->store, source, model->mechanism_names[m], system,
                                                             workload, model->size, 1, out, error);
}

sweep_model *sweep_model_open(sc_store *store, sc_store *calibrations, const char *system,
                              const char *const *mechanisms, int mechanism_count, const sc_workload_ref *workloads,
                              int workload_count, const char *size, sc_error *error)
{
    sweep_model *model = calloc(1, sizeof *model);
    if (!model) {
        sc_fail(error, "out of memory");
        return NULL;
    }
    *model = (sweep_model){.store = store, .mechanism_names = mechanisms, .mechanism_count = mechanism_count,
                           .workloads = workloads, .workload_count = workload_count, .size = size};
    int runs_per_point = mechanism_count * workload_count;
    model->capacity = (SWEEP_MODEL_BATCH + runs_per_point - 1) / runs_per_point * runs_per_point;
    model->batch = malloc((size_t)model->capacity * sizeof *model->batch);
    model->records = malloc((size_t)model->capacity * sizeof *model->records);
    model->point_json = malloc((size_t)(model->capacity / runs_per_point) * sizeof *model->point_json);
    model->point_hash = malloc((size_t)(model->capacity / runs_per_point) * sizeof *model->point_hash);
    model->points = malloc((size_t)(model->capacity / runs_per_point) * sizeof *model->points);
    model->calibrations = calloc((size_t)runs_per_point, sizeof *model->calibrations);
    model->workload_params = calloc((size_t)workload_count, sizeof *model->workload_params);
    model->memos = calloc((size_t)runs_per_point, sizeof *model->memos);
    model->memos_on = getenv("SYNCSCOPE_NO_GROUP_MEMO") == NULL;
    if (!model->batch || !model->records || !model->point_json || !model->point_hash || !model->points ||
        !model->calibrations || !model->workload_params || !model->memos) {
        sc_fail(error, "out of memory for a batch of %d model runs", model->capacity);
        sweep_model_close(model);
        return NULL;
    }
    for (int w = 0; w < workload_count; w++)
        sc_workload_params_text(&workloads[w], size, 1, model->workload_params[w]);
    for (int m = 0; m < mechanism_count; m++) {
        model->mechanisms[m] = model_mechanism_find(mechanisms[m]);
        if (!model->mechanisms[m]) {
            sc_fail(error, "mechanism %s has no analytical model: use \"mode\": \"detailed\" for it", mechanisms[m]);
            sweep_model_close(model);
            return NULL;
        }
        for (int w = 0; w < workload_count; w++)
            if (find_calibration(model, calibrations, system, m, w, error) < 0) {
                sc_fail_prefix(error, "model sweep (run syncscope calibrate --mechanism %s --system %s first)",
                               mechanisms[m], system);
                sweep_model_close(model);
                return NULL;
            }
    }
    return model;
}

/* The profile of workload `w` valid for `key`: one kept, or a stored or new one. */
static model_profile *profile_for(sweep_model *model, int w, const sc_config *config, const char *key, sc_error *error)
{
    model_profile **kept = model->profiles[w];
    for (int i = 0; i < SWEEP_PROFILES_KEPT && kept[i]; i++)
        if (!strcmp(kept[i]->key, key))
            return kept[i];
    model_profile *profile = model_profile_obtain(model->store, &model->workloads[w], model->size, 1, config, error);
    if (!profile)
        return NULL;
    if (kept[SWEEP_PROFILES_KEPT - 1])   /* the workload's memos may hold the dropped profile's kernels */
        for (int m = 0; m < model->mechanism_count; m++)
            if (model->memos[m * model->workload_count + w])
                group_memo_clear(model->memos[m * model->workload_count + w]);
    profile_free(kept[SWEEP_PROFILES_KEPT - 1]);
    memmove(kept + 1, kept, (SWEEP_PROFILES_KEPT - 1) * sizeof *kept);
    kept[0] = profile;
    return profile;
}

static void drop_queued(sweep_model *model);

/* The point of `config` for each mechanism (own[m]). */
static int points_of_mechanisms(const sweep_model *model, const sc_config *config, model_point *own, sc_error *error)
{
    model_point point;
    if (model_point_from_config(config, &point, error) < 0)
        return -1;
    for (int m = 0; m < model->mechanism_count; m++) {
        own[m] = point;
        if (model_point_of_mechanism(model->mechanisms[m], config, &own[m], error) < 0)
            return -1;
    }
    return 0;
}

/* Mechanism `m`'s prediction of workload `w` at its point `own`, and its sigma, evaluated with the
 * pair's memo attached (the memo attached before is attached again after, so that no other
 * evaluation on the thread finds it). */
static void predict_pair(sweep_model *model, const model_profile *profile, const model_point *own, int m, int w,
                         model_prediction *prediction, double *sigma)
{
    int pair = m * model->workload_count + w;
    const model_mechanism *mechanism = model->mechanisms[m];
    const model_calibration *calibration = &model->calibrations[pair];
    if (model->memos_on && !model->memos[pair])
        model->memos[pair] = group_memo_create();   /* NULL (out of memory): evaluated without */
    group_memo *before = group_memo_attach(model->memos[pair]);
    mechanism->evaluate(profile, own, &calibration->params, prediction);
    *sigma = model_cycles_sigma(mechanism, profile, own, calibration, prediction->cycles);
    group_memo_attach(before);
    model->evaluations++;
}

/* Predicts mechanism `m` on workload `w` at its point `own` and queues the run. */
static void queue_run(sweep_model *model, const sc_config *config, const char *config_json, const char *config_hash,
                      const model_profile *profile, const model_point *own, int m, int w)
{
    const model_calibration *calibration = &model->calibrations[m * model->workload_count + w];
    model_prediction prediction;
    double sigma;
    predict_pair(model, profile, own, m, w, &prediction, &sigma);
    model_run *run = &model->batch[model->queued];
    model_run_fill(run, config, config_json, config_hash, model->mechanism_names[m], model->workloads[w].name,
                   model->workload_params[w], &prediction, sigma, calibration->id, 0.0);
    model->queued++;
}

int sweep_model_point(sweep_model *model, const sc_config *config, int64_t sweep_id, int64_t index,
                      const char *params_json, sc_error *error)
{
    model_point own[SWEEP_MAX_NAMES];
    if (points_of_mechanisms(model, config, own, error) < 0)
        return -1;
    if (model->queued + model->mechanism_count * model->workload_count > model->capacity &&
        sweep_model_flush(model, NULL, 0, error) < 0)
        return -1;
    const char *config_json = model->point_json[model->points_queued] = sc_config_canonical_json(config);
    const char *config_hash = memcpy(model->point_hash[model->points_queued], sc_config_hash(config), 17);
    model->points[model->points_queued] = (sc_sweep_point_row){
        .point_index = index, .params_json = strdup(params_json), .run_count = model->mechanism_count * model->workload_count};
    model->sweep_id = sweep_id;
    model->points_queued++;
    for (int w = 0; w < model->workload_count; w++) {
        const model_profile *profile = profile_for(model, w, config, own[0].profile_key, error);
        if (!profile)
            return -1;
        for (int m = 0; m < model->mechanism_count; m++)
            queue_run(model, config, config_json, config_hash, profile, &own[m], m, w);
    }
    return 0;
}

int sweep_model_predict(sweep_model *model, const sc_config *config, model_prediction *predictions, double *sigmas,
                        sc_error *error)
{
    model_point own[SWEEP_MAX_NAMES];
    if (points_of_mechanisms(model, config, own, error) < 0)
        return -1;
    for (int w = 0; w < model->workload_count; w++) {
        const model_profile *profile = profile_for(model, w, config, own[0].profile_key, error);
        if (!profile)
            return -1;
        for (int m = 0; m < model->mechanism_count; m++) {
            int pair = m * model->workload_count + w;
            predict_pair(model, profile, &own[m], m, w, &predictions[pair], &sigmas[pair]);
        }
    }
    return 0;
}

const model_calibration *sweep_model_calibration(const sweep_model *model, int m, int w)
{
    return &model->calibrations[m * model->workload_count + w];
}

void sweep_model_set_calibration(sweep_model *model, int m, int w, const model_calibration *calibration)
{
    model->calibrations[m * model->workload_count + w] = *calibration;
}

int sweep_model_replace(sweep_model *model, const sc_config *config, int64_t point_id, int m, int w, sc_error *error)
{
    int runs_per_point = model->mechanism_count * model->workload_count;
    if ((model->queued + 1 > model->capacity || model->points_queued == model->capacity / runs_per_point) &&
        sweep_model_flush_replacements(model, error) < 0)
        return -1;
    model_point own[SWEEP_MAX_NAMES];
    if (points_of_mechanisms(model, config, own, error) < 0)
        return -1;
    const model_profile *profile = profile_for(model, w, config, own[0].profile_key, error);
    if (!profile)
        return -1;
    const char *config_json = model->point_json[model->points_queued] = sc_config_canonical_json(config);
    model->points[model->points_queued++] = (sc_sweep_point_row){0};
    queue_run(model, config, config_json, NULL, profile, &own[m], m, w);
    model->batch[model->queued - 1].record.sweep_point_id = point_id;
    return 0;
}

int sweep_model_flush_replacements(sweep_model *model, sc_error *error)
{
    for (int i = 0; i < model->queued; i++)
        model->records[i] = model->batch[i].record;
    int status = model->queued ? sc_store_replace_model_runs(model->store, model->records, model->queued, error) : 0;
    drop_queued(model);
    return status;
}

/* Frees the queued points' texts and empties the batch. */
static void drop_queued(sweep_model *model)
{
    for (int i = 0; i < model->points_queued; i++) {
        free(model->point_json[i]);
        free((char *)model->points[i].params_json);
    }
    model->queued = model->points_queued = 0;
}

int sweep_model_flush(sweep_model *model, const sc_run_record *extra, int extra_count, sc_error *error)
{
    int count = model->queued + extra_count;
    sc_run_record *records = extra_count ? malloc((size_t)count * sizeof *records) : model->records;
    if (!records) {
        drop_queued(model);
        return sc_fail(error, "out of memory for %d runs", count);
    }
    for (int i = 0; i < model->queued; i++)
        records[i] = model->batch[i].record;
    for (int i = 0; i < extra_count; i++)
        records[model->queued + i] = extra[i];
    if (extra_count)
        model->points[model->points_queued - 1].run_count += extra_count;
    int status = model->points_queued ? sc_store_insert_sweep_points(model->store, model->sweep_id, model->points,
                                                                      model->points_queued, records, count, error)
                                      : 0;
    if (records != model->records)
        free(records);
    model->points_stored += status == 0 ? model->points_queued : 0;
    drop_queued(model);
    return status;
}

int64_t sweep_model_points_stored(const sweep_model *model)
{
    return model->points_stored;
}

int64_t sweep_model_evaluations(const sweep_model *model)
{
    return model->evaluations;
}

void sweep_model_close(sweep_model *model)
{
    if (!model)
        return;
    drop_queued(model);
    free(model->batch);
    free(model->records);
    free(model->point_json);
    free(model->point_hash);
    free(model->points);
    free(model->calibrations);
    free(model->workload_params);
    if (model->memos)
        for (int pair = 0; pair < model->mechanism_count * model->workload_count; pair++)
            group_memo_free(model->memos[pair]);
    free(model->memos);
    for (int w = 0; w < model->workload_count; w++)
        for (int i = 0; i < SWEEP_PROFILES_KEPT; i++)
            profile_free(model->profiles[w][i]);
    free(model);
}
