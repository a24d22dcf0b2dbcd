/* sweep.c — a sweep's points evaluated and stored (see sweep.h): in detail, sampled, or through
 * the calibrated models (sweep_model.h) with a fixed share of the points spot-checked in detail
 * or, after the model pass, spot checks where they matter (sweep_spot.h). */
#include "studies/sweep.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "base/progress.h"
#include "base/random.h"
#include "model/model.h"
#include "protocols/mechanism.h"
#include "session/run_session.h"
#include "studies/sweep_spot.h"
#include "timing/sampled_engine.h"
#include "timing/timing_config.h"

sc_config *sweep_point_config(const sweep_session *session, int64_t index, double *values, sc_error *error)
{
    sweep_design_point(&session->design, index, values);
    sc_config *config = sc_config_copy(session->base);
    for (int a = 0; a < session->spec->axis_count; a++) {
        if (values[a] != values[a])   /* NAN: the preset's value */
            continue;
        char text[128];
        sweep_axis_format(&session->spec->axes[a], values[a], text, sizeof text);
        if (sc_config_set(config, session->spec->axes[a].key, text, error) < 0) {
            sc_fail_prefix(error, "sweep %s, point %lld", session->spec->name, (long long)index);
            sc_config_free(config);
            return NULL;
        }
    }
    return config;
}

/* Checks every point of the shard before anything runs: each key's value, and the system the
 * timing model derives from the whole configuration, with the keys each mechanism owns. */
static int check_points(const sweep_session *session, sc_error *error)
{
    double values[SWEEP_MAX_AXES];
    for (int64_t index = session->remainder; index < session->design.count; index += session->shards) {
        sc_config *config = sweep_point_config(session, index, values, error);
        if (!config)
            return -1;
        timing_config timing;
        int status = timing_config_load(config, 0, &timing, error);
        for (int m = 0; status == 0 && m < session->mechanism_count; m++) {
            const sc_protocol *protocol = sc_protocol_find(session->mechanisms[m]);
            status = protocol ? timing_config_load_protocol(config, protocol, &timing, error) : 0;
        }
        sc_config_free(config);
        if (status < 0) {
            char params[4096];
            sweep_design_params_json(&session->design, values, params, sizeof params);
            return sc_fail_prefix(error, "sweep %s, point %lld %s", session->spec->name, (long long)index, params);
        }
    }
    return 0;
}

/* Runs every mechanism x workload of a point on the detailed model (sampled, with the default
 * sampling, in a sampled sweep), keeping the results and their store records (one per run, in
 * results[] and records[]); returns how many ran, or -(n + 1) when the run after the first n
 * failed (those n kept, for the caller to release). */
static int run_detailed(sweep_session *session, const sc_config *config, int64_t index, run_result *results,
                        run_session_record *records, sc_error *error)
{
    int count = 0;
    bool sampled = !strcmp(session->spec->mode, "sampled");
    for (int m = 0; m < session->mechanism_count; m++) {
        for (int w = 0; w < session->workload_count; w++) {
            run_request request = {
                .system = session->spec->system,
                .mechanism = session->mechanisms[m],
                .mode = sampled ? "sampled" : "detailed",
                .size = session->size,
                .seed = 1,
                .sampling = sampling_defaults(),
            };
            run_request_set_workload(&request, &session->workload_refs[w]);
            if (run_session_simulate(&request, config, &results[count], error) < 0) {
                run_result_release(&results[count]);
                sc_fail_prefix(error, "sweep %s, point %lld, %s on %s", session->spec->name, (long long)index,
                               session->workloads[w], session->mechanisms[m]);
                return -count - 1;
            }
            run_session_make_record(&request, config, &results[count], &records[count]);
            session->detailed_seconds += results[count].wall_seconds;
            count++;
        }
    }
    return count;
}

/* Whether a model-evaluated point is also run in detail: a fixed pseudo-random share
 * `spot_check` of the points, the same whichever shard evaluates them. */
bool sweep_point_spot_checked(const sweep_session *session, int64_t index)
{
    uint64_t state = session->spec->seed ^ ((uint64_t)index * 0x9e3779b97f4a7c15ull);
    return (double)(sc_splitmix64(&state) >> 11) * 0x1.0p-53 < session->spec->spot_check;
}

/* Evaluates point `index` and stores it with all its runs in one transaction (a model sweep's
 * points in batches of several points): the database holds whole points or none. */
static int evaluate_point(sweep_session *session, sc_store *store, int64_t sweep_id, int64_t index, sc_error *error)
{
    double values[SWEEP_MAX_AXES];
    char params[4096];
    sc_config *config = sweep_point_config(session, index, values, error);
    if (!config)
        return -1;
    int status = 0;
    if (sweep_design_params_json(&session->design, values, params, sizeof params) < 0)
        status = sc_fail(error, "sweep %s: point %lld has too many parameters to store", session->spec->name,
                         (long long)index);
    bool model = !strcmp(session->spec->mode, "model");
    if (status == 0 && model) {
        status = sweep_model_point(session->model, config, sweep_id, index, params, error);
        session->runs += status == 0 ? session->mechanism_count * session->workload_count : 0;
    }
    if (status == 0 && (!model || sweep_point_spot_checked(session, index))) {
        int pairs = session->mechanism_count * session->workload_count;
        run_result *results = calloc((size_t)pairs, sizeof *results);
        run_session_record *kept = calloc((size_t)pairs, sizeof *kept);
        sc_run_record *records = calloc((size_t)pairs, sizeof *records);
        int ran = results && kept && records ? run_detailed(session, config, index, results, kept, error)
                                             : sc_fail(error, "out of memory");
        status = ran < 0 ? -1 : 0;
        ran = ran < 0 ? -ran - 1 : ran;
        for (int r = 0; r < ran; r++) {
            records[r] = kept[r].record;
            session->failed_checks += !results[r].check.passed;
            session->unreliable_estimates += results[r].sample.present && !results[r].sample.has_ci;
        }
        if (status == 0 && model) {
            status = sweep_model_flush(session->model, records, ran, error);
        } else if (status == 0) {
            sc_sweep_point_row point = {.point_index = index, .params_json = params, .run_count = ran};
            status = sc_store_insert_sweep_points(store, sweep_id, &point, 1, records, ran, error);
        }
        if (status == 0) {
            session->runs += model ? 0 : ran;
            session->spot_checks += model ? ran : 0;
        }
        for (int r = 0; r < ran; r++) {
            run_session_record_release(&kept[r]);
            run_result_release(&results[r]);
        }
        free(results);
        free(kept);
        free(records);
    }
    sc_config_free(config);
    session->points_stored += status == 0 && !model;
    return status;
}

/* The points of a sweep already stored: a bit per design point. */
typedef struct stored_points {
    uint8_t *bits;
    int64_t count, design_count;
} stored_points;

static int mark_stored(void *context, int columns, const char *const *names, const char *const *values,
                       const sc_value_kind *kinds)
{
    (void)columns, (void)names, (void)kinds;
    stored_points *stored = context;
    int64_t index = values && values[0] ? atoll(values[0]) : -1;
    if (index >= 0 && index < stored->design_count && !(stored->bits[index / 8] & (1u << (index % 8)))) {
        stored->bits[index / 8] |= (uint8_t)(1u << (index % 8));
        stored->count++;
    }
    return 0;
}

static int evaluate_shard(sweep_session *session, sc_store *store, int64_t sweep_id, sc_error *error)
{
    stored_points stored = {.bits = calloc((size_t)(session->design.count / 8 + 1), 1),
                            .design_count = session->design.count};
    if (!stored.bits)
        return sc_fail(error, "out of memory for a sweep of %lld points", (long long)session->design.count);
    char id_text[32];
    snprintf(id_text, sizeof id_text, "%lld", (long long)sweep_id);
    sc_query_param param = {"sweep", id_text};
    int status = sc_store_query(store, "SELECT point_index FROM sweep_points WHERE sweep_id = :sweep", &param, 1,
                                mark_stored, &stored, error);
    char what[160];
    snprintf(what, sizeof what, "sweep %s", session->spec->name);
    sc_progress progress;
    sc_progress_start(&progress, what, "points",
                      (long)((session->design.count - session->remainder + session->shards - 1) / session->shards));
    for (int64_t index = session->remainder; status == 0 && index < session->design.count; index += session->shards) {
        if (stored.bits[index / 8] & (1u << (index % 8)))
            session->points_resumed++;
        else
            status = evaluate_point(session, store, sweep_id, index, error);
        sc_progress_step(&progress, 1);
    }
    if (session->model) {
        if (status == 0)
            status = sweep_model_flush(session->model, NULL, 0, error);
        session->points_stored = sweep_model_points_stored(session->model);
        if (status == 0 && session->spec->spot_targeted)
            status = sweep_spot_check(session, store, sweep_id, error);
    }
    free(stored.bits);
    if (status < 0 && session->points_stored + session->points_resumed > 0)
        sc_fail_prefix(error, "sweep %s: %lld points are stored whole (run the sweep again to continue from there)",
                       session->spec->name, (long long)(session->points_stored + session->points_resumed));
    return status;
}

int sweep_find_stored(sc_store *store, const sweep_session *session, int64_t *sweep_id, sc_error *error)
{
    const sweep_spec *spec = session->spec;
    sc_query_param params[] = {{"name", spec->name}, {"spec", session->stored_spec}};
    *sweep_id = -1;
    if (sc_store_query(store, "SELECT id FROM sweeps WHERE name = :name AND spec = :spec", params, 2, sc_store_row_int64,
                       sweep_id, error) < 0)
        return -1;
    if (*sweep_id < 0)
        return sc_fail(error, "%s: no sweep '%s' with this specification in the database", sc_store_path(store),
                       spec->name);
    return 0;
}

/* Mechanisms and workloads: the spec's (built-in workloads and manifests), or every mechanism
 * and the whole suite. */
static int resolve_names(sweep_session *session, sc_error *error)
{
    const sweep_spec *spec = session->spec;
    for (int m = 0; m < spec->mechanism_count; m++)
        if (!sc_mechanism_find(spec->mechanisms[m]))
            return sc_fail(error, "sweep %s: mechanisms: unknown mechanism '%s'", spec->name, spec->mechanisms[m]);
    int count;
    const sc_mechanism *const *mechanisms = sc_mechanism_list(&count);
    bool model = !strcmp(spec->mode, "model");
    if (spec->mechanism_count) {
        session->mechanism_count = spec->mechanism_count;
        for (int m = 0; m < spec->mechanism_count; m++)
            session->mechanisms[m] = spec->mechanisms[m];
    } else {
        /* Every mechanism; in model mode, every mechanism with a model. */
        for (int m = 0; m < count; m++)
            if (!model || model_mechanism_find(mechanisms[m]->name))
                session->mechanisms[session->mechanism_count++] = mechanisms[m]->name;
    }
    const sc_workload *const *suite = sc_workload_suite(&count);
    session->workload_count = spec->workload_count ? spec->workload_count : count;
    session->workload_refs = calloc((size_t)session->workload_count, sizeof *session->workload_refs);
    if (!session->workload_refs)
        return sc_fail(error, "out of memory");
    for (int w = 0; w < session->workload_count; w++) {
        const char *name = spec->workload_count ? spec->workloads[w] : suite[w]->name;
        sc_workload_ref *ref = &session->workload_refs[w];
        if (session->names_only && !sc_workload_find(name) && sc_workload_is_manifest_name(name))
            snprintf(ref->name, sizeof ref->name, "%s", name);
        else if (sc_workload_ref_resolve(name, spec->path[0] ? spec->path : NULL, ref, error) < 0)
            return sc_fail_prefix(error, "sweep %s: workloads", spec->name);
        session->workloads[w] = session->workload_refs[w].name;
    }
    sc_workload_size_parse(spec->size, &session->size);
    return 0;
}

/* session->stored_spec: the spec's text, with the content digest of each manifest it names (a
 * spec of built-in workloads only is stored as it is). */
static int make_stored_spec(sweep_session *session, sc_error *error)
{
    const sweep_spec *spec = session->spec;
    bool manifests = false;
    for (int w = 0; w < spec->workload_count; w++)
        manifests |= !session->workload_refs[w].builtin;
    if (!manifests)
        return (session->stored_spec = strdup(spec->text)) ? 0 : sc_fail(error, "out of memory");
    cJSON *root = cJSON_Parse(spec->text), *digests = cJSON_CreateObject();
    if (!root || !digests) {
        cJSON_Delete(root);
        cJSON_Delete(digests);
        return sc_fail(error, "sweep %s: out of memory", spec->name);
    }
    for (int w = 0; w < spec->workload_count; w++)
        if (!session->workload_refs[w].builtin && !cJSON_GetObjectItemCaseSensitive(digests, spec->workloads[w]))
            cJSON_AddStringToObject(digests, spec->workloads[w], session->workload_refs[w].digest);
    cJSON_DeleteItemFromObjectCaseSensitive(root, "manifest_digests");
    if (digests->child)
        cJSON_AddItemToObject(root, "manifest_digests", digests);
    else
        cJSON_Delete(digests);
    session->stored_spec = cJSON_PrintUnformatted(root);
    cJSON_Delete(root);
    return session->stored_spec ? 0 : sc_fail(error, "sweep %s: out of memory", spec->name);
}

int sweep_session_prepare(sweep_session *session, sc_error *error)
{
    if (resolve_names(session, error) < 0 || (!session->names_only && make_stored_spec(session, error) < 0) ||
        sweep_design_init(&session->design, session->spec, error) < 0)
        return -1;
    return (session->base = sc_config_load(session->spec->system, NULL, NULL, 0, error)) ? 0 : -1;
}

int sweep_session_check(sweep_session *session, sc_store *store, sc_error *error)
{
    const sweep_spec *spec = session->spec;
    if (!strcmp(spec->mode, "model") && !session->model &&
        !(session->model = sweep_model_open(store, session->calibration_store ? session->calibration_store : store,
                                            spec->system, session->mechanisms, session->mechanism_count,
                                            session->workload_refs, session->workload_count, spec->size, error)))
        return -1;
    return check_points(session, error);
}

/* A row callback appending the first column to a growing list of ids. */
typedef struct id_list {
    int64_t *ids;
    int64_t count, capacity;
} id_list;

static int append_id(void *context, int columns, const char *const *names, const char *const *values,
                     const sc_value_kind *kinds)
{
    (void)columns, (void)names, (void)kinds;
    id_list *list = context;
    if (!values)
        return 0;
    if (list->count == list->capacity) {
        int64_t capacity = list->capacity ? 2 * list->capacity : 256;
        int64_t *grown = realloc(list->ids, (size_t)capacity * sizeof *grown);
        if (!grown)
            return 1;
        list->ids = grown;
        list->capacity = capacity;
    }
    list->ids[list->count++] = atoll(values[0]);
    return 0;
}

int sweep_remove_stored_points(sc_store *store, int64_t sweep_id, int64_t *removed, sc_error *error)
{
    char id_text[32];
    snprintf(id_text, sizeof id_text, "%lld", (long long)sweep_id);
    sc_query_param param = {"sweep", id_text};
    id_list list = {0};
    int status = sc_store_query(store, "SELECT id FROM sweep_points WHERE sweep_id = :sweep", &param, 1, append_id,
                                &list, error);
    if (status == 0)
        status = sc_store_remove_sweep_points(store, list.ids, list.count, error);
    *removed = status == 0 ? list.count : 0;
    free(list.ids);
    return status;
}

int sweep_session_evaluate(sweep_session *session, sc_store *store, bool restart, int64_t *sweep_id, double *seconds,
                           sc_error *error)
{
    const sweep_spec *spec = session->spec;
    if ((*sweep_id = sc_store_ensure_sweep(store, spec->name, session->stored_spec, error)) < 0)
        return -1;
    if (restart && sweep_remove_stored_points(store, *sweep_id, &session->points_removed, error) < 0)
        return -1;
    double start = sc_monotonic_seconds();
    int status = evaluate_shard(session, store, *sweep_id, error);
    *seconds = sc_monotonic_seconds() - start;
    return status;
}

void sweep_session_release(sweep_session *session)
{
    sweep_model_close(session->model);
    free(session->workload_refs);
    free(session->stored_spec);
    sc_config_free(session->base);
    sweep_design_free(&session->design);
}

int sweep_evaluate(const sweep_spec *spec, sc_store *store, sweep_totals *totals, sc_error *error)
{
    sweep_session session = {.spec = spec, .shards = 1};
    *totals = (sweep_totals){0};
    int status = sweep_session_prepare(&session, error);
    if (status == 0)
        status = sweep_session_check(&session, store, error);
    if (status == 0)
        status = sweep_session_evaluate(&session, store, false, &totals->sweep_id, &totals->seconds, error);
    totals->points = session.design.count;
    totals->mechanism_count = session.mechanism_count;
    totals->workload_count = session.workload_count;
    totals->runs = session.runs;
    totals->points_resumed = session.points_resumed;
    totals->failed_checks = session.failed_checks;
    sweep_session_release(&session);
    return status;
}
