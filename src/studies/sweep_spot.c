/* sweep_spot.c — a model sweep's spot checks where the band is widest or the point lies outside
 * the calibrated region, with a refit where a measurement falls outside its band (sweep_spot.h). */
#include "studies/sweep_spot.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "base/clock.h"
#include "model/calibrated_region.h"
#include "protocols/mechanism.h"
#include "studies/model_studies.h"

typedef struct ranked {
    int64_t position;
    double width;
} ranked;

static int wider_first(const void *a, const void *b)
{
    const ranked *x = a, *y = b;
    if (x->width != y->width)
        return x->width > y->width ? -1 : 1;
    return x->position < y->position ? -1 : x->position > y->position;
}

static int ascending(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return x < y ? -1 : x > y;
}

int64_t sweep_spot_select(const double *widths, const bool *outside, int64_t count, int widest, bool take_outside,
                          int max_outside, int64_t *chosen)
{
    ranked *order = malloc((size_t)count * sizeof *order + 1);
    bool *taken = calloc((size_t)count + 1, sizeof *taken);
    if (!order || !taken) {
        free(order);
        free(taken);
        return -1;
    }
    for (int64_t i = 0; i < count; i++)
        order[i] = (ranked){i, widths[i]};
    qsort(order, (size_t)count, sizeof *order, wider_first);
    int64_t made = 0;
    for (int64_t i = 0; i < count && i < widest; i++) {
        chosen[made++] = order[i].position;
        taken[order[i].position] = true;
    }
    for (int64_t i = 0, extra = 0; take_outside && i < count && extra < max_outside; i++)
        if (outside[i] && !taken[i]) {
            chosen[made++] = i;
            extra++;
        }
    qsort(chosen, (size_t)made, sizeof *chosen, ascending);
    free(order);
    free(taken);
    return made;
}

bool sweep_spot_outside_band(double predicted, double measured, double sigma)
{
    return fabs(log(predicted / measured)) > SWEEP_SPOT_BAND_SIGMAS * sigma;
}

/* ---- reading the store ---- */

static int read_text(void *context, int columns, const char *const *names, const char *const *values,
                     const sc_value_kind *kinds)
{
    (void)columns, (void)names, (void)kinds;
    char **text = context;
    if (values && values[0] && !*text)
        *text = strdup(values[0]);
    return 0;
}

/* The residuals JSON of calibration `id` (malloc'd), or NULL with the error set. */
static char *calibration_residuals(sc_store *store, int64_t id, sc_error *error)
{
    char id_text[32], *text = NULL;
    snprintf(id_text, sizeof id_text, "%lld", (long long)id);
    sc_query_param param = {"id", id_text};
    if (sc_store_query(store, "SELECT residuals FROM calibrations WHERE id = :id", &param, 1, read_text, &text,
                       error) < 0)
        return NULL;
    if (!text)
        sc_fail(error, "%s: calibration %lld is not stored", sc_store_path(store), (long long)id);
    return text;
}

/* A stored point's row id and how many runs in `mode` it holds. */
typedef struct point_row {
    int64_t id, measured;
} point_row;

static int read_point_row(void *context, int columns, const char *const *names, const char *const *values,
                          const sc_value_kind *kinds)
{
    (void)columns, (void)names, (void)kinds;
    point_row *row = context;
    if (values && values[0]) {
        row->id = atoll(values[0]);
        row->measured = values[1] ? atoll(values[1]) : 0;
    }
    return 0;
}

static int find_point(sc_store *store, int64_t sweep_id, int64_t index, const char *mode, point_row *row,
                      sc_error *error)
{
    char sweep_text[32], index_text[32];
    snprintf(sweep_text, sizeof sweep_text, "%lld", (long long)sweep_id);
    snprintf(index_text, sizeof index_text, "%lld", (long long)index);
    sc_query_param params[] = {{"sweep", sweep_text}, {"index", index_text}, {"mode", mode}};
    *row = (point_row){0};
    if (sc_store_query(store,
                       "SELECT p.id, (SELECT count(*) FROM runs r WHERE r.sweep_point_id = p.id AND r.mode = :mode) "
                       "FROM sweep_points p WHERE p.sweep_id = :sweep AND p.point_index = :index",
                       params, 3, read_point_row, row, error) < 0)
        return -1;
    return row->id ? 0 : sc_fail(error, "sweep point %lld is not stored", (long long)index);
}

/* The latest run in `mode` of `mechanism` on `workload` stored in sweep point `point_id` (an
 * earlier evaluation's spot measurement), 0 in *run_id if there is none. */
static int find_measured_run(sc_store *store, int64_t point_id, const char *mode, const char *mechanism,
                             const char *workload, int64_t *run_id, sc_error *error)
{
    char point_text[32];
    snprintf(point_text, sizeof point_text, "%lld", (long long)point_id);
    sc_query_param params[] = {{"point", point_text}, {"mode", mode}, {"mechanism", mechanism}, {"workload", workload}};
    *run_id = 0;
    return sc_store_query(store,
                          "SELECT max(id) FROM runs WHERE sweep_point_id = :point AND mode = :mode "
                          "AND mechanism = :mechanism AND workload = :workload",
                          params, 4, sc_store_row_int64, run_id, error);
}

/* Whether some entry of a calibration's residuals names run `run_id`: the calibration was fitted
 * on that measurement (a refit of an earlier evaluation). */
static bool residuals_name_run(const char *residuals, int64_t run_id)
{
    cJSON *list = cJSON_Parse(residuals), *entry;
    bool named = false;
    cJSON_ArrayForEach(entry, list) {
        const cJSON *id = cJSON_GetObjectItemCaseSensitive(entry, "detailed_run_id");
        named |= cJSON_IsNumber(id) && (int64_t)id->valuedouble == run_id;
    }
    cJSON_Delete(list);
    return named;
}

/* ---- the checks ---- */

/* What one evaluation's spot checks work with. */
typedef struct spot_state {
    sweep_session *session;
    sc_store *store;
    int64_t sweep_id;
    int pairs;                    /* mechanisms x workloads, pair = m * workload_count + w */
    int64_t positions;            /* the shard's points: index = remainder + position * shards */
    char **residuals;             /* [pair]: its calibration's residuals JSON */
    model_region *regions;        /* [pair] */
    model_prediction *predictions;   /* [pair], at the point in hand */
    double *sigmas;               /* [pair] */
    study_sample *samples;        /* [pair * capacity + k]: the pair's spot measurements */
    int *sample_counts;           /* [pair] */
    int64_t capacity;             /* measurements a pair may hold: the points chosen */
    double *log_errors;           /* [pair * capacity + k]: log(model / measured) with the sweep's calibration */
    int *outside;                 /* [pair]: measurements outside their band */
} spot_state;

static int64_t index_of(const spot_state *state, int64_t position)
{
    return state->session->remainder + position * state->session->shards;
}

static int load_regions(spot_state *state, sc_error *error)
{
    const sweep_session *session = state->session;
    for (int pair = 0; pair < state->pairs; pair++) {
        const model_calibration *calibration =
            sweep_model_calibration(session->model, pair / session->workload_count, pair % session->workload_count);
        state->residuals[pair] = calibration_residuals(state->store, calibration->id, error);
        if (!state->residuals[pair] ||
            model_region_from_residuals(session->spec->system, state->residuals[pair], &state->regions[pair], error) < 0)
            return sc_fail_prefix(error, "calibration %lld", (long long)calibration->id);
    }
    return 0;
}

/* Whether some pair's calibration does not cover the point's value of some swept key. */
static bool extrapolated(const spot_state *state, const sc_config *config, const double *values)
{
    const sweep_spec *spec = state->session->spec;
    for (int a = 0; a < spec->axis_count; a++) {
        if (isnan(values[a]))
            continue;
        for (int pair = 0; pair < state->pairs; pair++)
            if (!model_region_covers(&state->regions[pair], config, spec->axes[a].key, spec->axes[a].type))
                return true;
    }
    return false;
}

/* A row callback filling widths[position] with a stored point's widest band. */
typedef struct stored_widths {
    const spot_state *state;
    double *widths;
    bool *found;
} stored_widths;

static int read_width(void *context, int columns, const char *const *names, const char *const *values,
                      const sc_value_kind *kinds)
{
    (void)columns, (void)names, (void)kinds;
    stored_widths *read = context;
    const sweep_session *session = read->state->session;
    if (!values || !values[0] || !values[1])
        return 0;
    int64_t index = atoll(values[0]);
    if (index < session->remainder || (index - session->remainder) % session->shards)
        return 0;
    int64_t position = (index - session->remainder) / session->shards;
    if (position < read->state->positions) {
        read->widths[position] = strtod(values[1], NULL);
        read->found[position] = true;
    }
    return 0;
}

/* Each point of the shard's widest band, read from the cycles_sigma its model runs stored (the
 * model pass just evaluated every point), and whether it lies outside the calibrated region. */
static int rank_points(spot_state *state, double *widths, bool *outside, sc_error *error)
{
    sweep_session *session = state->session;
    bool *found = calloc((size_t)state->positions + 1, sizeof *found);
    if (!found)
        return sc_fail(error, "out of memory");
    char sweep_text[32];
    snprintf(sweep_text, sizeof sweep_text, "%lld", (long long)state->sweep_id);
    sc_query_param param = {"sweep", sweep_text};
    stored_widths read = {state, widths, found};
    int status = sc_store_query(state->store,
                                "SELECT p.point_index, max(m.value) FROM sweep_points p "
                                "JOIN runs r ON r.sweep_point_id = p.id AND r.mode = 'model' "
                                "JOIN metrics m ON m.run_id = r.id AND m.kernel_index = -1 AND m.name = 'cycles_sigma' "
                                "WHERE p.sweep_id = :sweep GROUP BY p.point_index",
                                &param, 1, read_width, &read, error);
    double values[SWEEP_MAX_AXES];
    for (int64_t position = 0; status == 0 && position < state->positions; position++) {
        if (!found[position]) {
            status = sc_fail(error, "point %lld has no stored model run with a band", (long long)index_of(state, position));
            break;
        }
        sc_config *config = sweep_point_config(session, index_of(state, position), values, error);
        if (!config) {
            status = -1;
            break;
        }
        outside[position] = extrapolated(state, config, values);
        session->spot.extrapolated += outside[position];
        sc_config_free(config);
    }
    free(found);
    return status;
}

/* The study a pair's measurements and refit are made in. */
static void pair_study(const spot_state *state, int pair, model_study *study)
{
    const sweep_session *session = state->session;
    int m = pair / session->workload_count, w = pair % session->workload_count;
    *study = (model_study){.mechanism = session->mechanisms[m], .system = session->spec->system,
                           .size = session->spec->size, .model = model_mechanism_find(session->mechanisms[m]),
                           .workload_count = 1, .quiet = true,
                           .windows = !strcmp(session->spec->spot_mode, "sampled"), .sampling = sampling_defaults(),
                           .prior_floor = MODEL_WINDOWS_DEFAULT_PRIOR_FLOOR};
    study->workloads[0] = session->workload_refs[w];
}

/* Measures every pair at the chosen point `index` (row `point_id`) and compares each measurement
 * with its prediction's band. At a point an earlier, interrupted evaluation measured
 * (`measured_before`), a pair's stored measurement is compared instead, unless the pair's
 * calibration was fitted on it (that evaluation's refit); a pair it did not reach is measured now. */
static int measure_point(spot_state *state, model_study *study, int64_t index, int64_t point_id, bool measured_before,
                         sc_error *error)
{
    sweep_session *session = state->session;
    double values[SWEEP_MAX_AXES];
    char params[4096];
    sc_config *config = sweep_point_config(session, index, values, error);
    int status = config ? sweep_model_predict(session->model, config, state->predictions, state->sigmas, error) : -1;
    if (status == 0 && sweep_design_params_json(&session->design, values, params, sizeof params) < 0)
        status = sc_fail(error, "point %lld has too many parameters", (long long)index);
    for (int pair = 0; status == 0 && pair < state->pairs; pair++) {
        const char *mechanism = session->mechanisms[pair / session->workload_count];
        const sc_workload_ref *workload = &session->workload_refs[pair % session->workload_count];
        int64_t stored = 0;
        if (measured_before && (status = find_measured_run(state->store, point_id, session->spec->spot_mode, mechanism,
                                                           workload->name, &stored, error)) < 0)
            break;
        if (stored && residuals_name_run(state->residuals[pair], stored))
            continue;
        pair_study(state, pair, study);
        int k = state->sample_counts[pair];
        study_sample *sample = &state->samples[pair * state->capacity + k];
        /* the sample keeps its point's text: one copy per measurement, freed with the state */
        char *point_json = strdup(params);
        if (!point_json)
            status = sc_fail(error, "out of memory");
        else if (stored)
            status = model_study_sample_stored(study, state->store, config, &study->workloads[0], stored, point_json,
                                               sample, error);
        else
            status = model_study_sample_one(study, state->store, config, &study->workloads[0], point_id, point_json,
                                            sample, error);
        if (status < 0) {
            free(point_json);
            profile_free(sample->profile);
            sample->profile = NULL;
            sc_fail_prefix(error, "spot check of point %lld, %s on %s", (long long)index, workload->name, mechanism);
            break;
        }
        sample->workload = workload;
        state->sample_counts[pair]++;
        double predicted = state->predictions[pair].cycles, sigma = state->sigmas[pair];
        bool outside = sweep_spot_outside_band(predicted, sample->sample.cycles, sigma);
        state->log_errors[pair * state->capacity + k] = log(predicted / sample->sample.cycles);
        state->outside[pair] += outside;
        if (stored)
            session->spot.runs_measured_before++;
        else
            session->spot.runs++;
        session->spot.outside_band += outside;
        session->unreliable_estimates += !sample->has_interval;
        fprintf(stderr, "  spot check: point %lld %s on %s: %s %.0f cycles%s%s, model %.0f (95%% band %.0f .. %.0f)%s\n",
                (long long)index, workload->name, mechanism, session->spec->spot_mode, sample->sample.cycles,
                stored ? " (measured before)" : "", sample->has_interval ? "" : " (no interval: unreliable)", predicted,
                predicted * exp(-SWEEP_SPOT_BAND_SIGMAS * sigma), predicted * exp(SWEEP_SPOT_BAND_SIGMAS * sigma),
                outside ? " OUTSIDE" : "");
    }
    sc_config_free(config);
    return status;
}

/* Refits pair `pair` on its measurements with the sweep's calibration as the prior, stores the
 * refit and makes the sweep use it; adds the errors after the refit to *error_after. */
static int refit_pair(spot_state *state, model_study *study, int pair, double *error_after, sc_error *error)
{
    sweep_session *session = state->session;
    int m = pair / session->workload_count, w = pair % session->workload_count;
    pair_study(state, pair, study);
    calibration_outcome outcome = {0};
    const model_calibration *prior = sweep_model_calibration(session->model, m, w);
    if (calibrate_refit_study(study, state->store, prior, state->residuals[pair], &state->samples[pair * state->capacity],
                              state->sample_counts[pair], &outcome, error) < 0)
        return -1;
    for (int k = 0; k < state->sample_counts[pair]; k++)
        *error_after += fabs(exp(outcome.fit.log_errors[k]) - 1);
    model_fit_release(&outcome.fit);
    model_calibration refit;
    if (model_calibration_latest(state->store, session->mechanisms[m], session->spec->system,
                                 &session->workload_refs[w], session->spec->size, 1, &refit, error) < 0)
        return -1;
    if (refit.id != outcome.id)
        return sc_fail(error, "the refit of %s on %s (calibration %lld) is not the one its workload is modelled with",
                       session->workloads[w], session->mechanisms[m], (long long)outcome.id);
    fprintf(stderr, "  refit: %s on %s, calibration %lld -> %lld (from %d spot measurements)\n", session->workloads[w],
            session->mechanisms[m], (long long)prior->id, (long long)refit.id, state->sample_counts[pair]);
    sweep_model_set_calibration(session->model, m, w, &refit);
    session->spot.refits++;
    return 0;
}

/* A row callback filling ids[point_index] with the point's row id. */
typedef struct point_ids {
    int64_t *ids;
    int64_t count;
} point_ids;

static int read_point_id(void *context, int columns, const char *const *names, const char *const *values,
                         const sc_value_kind *kinds)
{
    (void)columns, (void)names, (void)kinds;
    point_ids *list = context;
    int64_t index = values && values[0] ? atoll(values[0]) : -1;
    if (index >= 0 && index < list->count)
        list->ids[index] = atoll(values[1]);
    return 0;
}

/* The refitted pairs' model runs at every stored point of the shard, evaluated again and stored
 * in place of the old ones. */
static int replace_refitted(spot_state *state, const bool *refitted, sc_error *error)
{
    sweep_session *session = state->session;
    point_ids list = {.ids = calloc((size_t)session->design.count + 1, sizeof *list.ids), .count = session->design.count};
    if (!list.ids)
        return sc_fail(error, "out of memory");
    char sweep_text[32];
    snprintf(sweep_text, sizeof sweep_text, "%lld", (long long)state->sweep_id);
    sc_query_param param = {"sweep", sweep_text};
    int status = sc_store_query(state->store, "SELECT point_index, id FROM sweep_points WHERE sweep_id = :sweep",
                                &param, 1, read_point_id, &list, error);
    double values[SWEEP_MAX_AXES];
    for (int64_t position = 0; status == 0 && position < state->positions; position++) {
        int64_t index = index_of(state, position);
        if (!list.ids[index])
            continue;
        sc_config *config = sweep_point_config(session, index, values, error);
        status = config ? 0 : -1;
        for (int pair = 0; status == 0 && pair < state->pairs; pair++)
            if (refitted[pair]) {
                status = sweep_model_replace(session->model, config, list.ids[index], pair / session->workload_count,
                                             pair % session->workload_count, error);
                session->spot.refitted_runs += status == 0;
            }
        sc_config_free(config);
    }
    if (status == 0)
        status = sweep_model_flush_replacements(session->model, error);
    free(list.ids);
    return status;
}

/* Measures the chosen points, then refits the pairs with a measurement outside its band. */
static int check_chosen(spot_state *state, const int64_t *chosen, int64_t chosen_count, sc_error *error)
{
    sweep_session *session = state->session;
    model_study *study = malloc(sizeof *study);
    bool *refitted = calloc((size_t)state->pairs, sizeof *refitted);
    int status = study && refitted ? 0 : sc_fail(error, "out of memory");
    for (int64_t c = 0; status == 0 && c < chosen_count; c++) {
        int64_t index = index_of(state, chosen[c]);
        point_row row;
        status = find_point(state->store, state->sweep_id, index, session->spec->spot_mode, &row, error);
        if (status == 0)
            status = measure_point(state, study, index, row.id, row.measured > 0, error);
        if (status == 0 && row.measured)
            session->spot.points_measured_before++;
        else if (status == 0)
            session->spot.points++;
    }
    double before = 0, after = 0;
    for (int pair = 0; status == 0 && pair < state->pairs; pair++) {
        double pair_before = 0;
        for (int k = 0; k < state->sample_counts[pair]; k++)
            pair_before += fabs(exp(state->log_errors[pair * state->capacity + k]) - 1);
        before += pair_before;
        refitted[pair] = state->outside[pair] > 0;
        if (refitted[pair])
            status = refit_pair(state, study, pair, &after, error);
        else
            after += pair_before;
    }
    int64_t compared = session->spot.runs + session->spot.runs_measured_before;
    if (compared) {
        session->spot.error_before = before / (double)compared;
        session->spot.error_after = after / (double)compared;
    }
    if (status == 0 && session->spot.refits)
        status = replace_refitted(state, refitted, error);
    free(study);
    free(refitted);
    return status;
}

int sweep_spot_check(sweep_session *session, sc_store *store, int64_t sweep_id, sc_error *error)
{
    const sweep_spec *spec = session->spec;
    spot_state state = {.session = session, .store = store, .sweep_id = sweep_id,
                        .pairs = session->mechanism_count * session->workload_count,
                        .positions = (session->design.count - session->remainder + session->shards - 1) / session->shards};
    state.capacity = spec->spot_widest + (spec->spot_outside ? spec->spot_max_outside : 0);
    state.residuals = calloc((size_t)state.pairs, sizeof *state.residuals);
    state.regions = calloc((size_t)state.pairs, sizeof *state.regions);
    state.predictions = calloc((size_t)state.pairs, sizeof *state.predictions);
    state.sigmas = calloc((size_t)state.pairs, sizeof *state.sigmas);
    state.samples = calloc((size_t)(state.pairs * state.capacity) + 1, sizeof *state.samples);
    state.log_errors = calloc((size_t)(state.pairs * state.capacity) + 1, sizeof *state.log_errors);
    state.sample_counts = calloc((size_t)state.pairs, sizeof *state.sample_counts);
    state.outside = calloc((size_t)state.pairs, sizeof *state.outside);
    double *widths = malloc((size_t)state.positions * sizeof *widths + 1);
    bool *outside = calloc((size_t)state.positions + 1, sizeof *outside);
    int64_t *chosen = malloc((size_t)state.capacity * sizeof *chosen + 1);
    int status = state.residuals && state.regions && state.predictions && state.sigmas && state.samples &&
                         state.log_errors && state.sample_counts && state.outside && widths && outside && chosen
                     ? 0
                     : sc_fail(error, "out of memory for the spot checks of %lld points", (long long)state.positions);
    double start = sc_monotonic_seconds();
    if (status == 0)
        status = load_regions(&state, error);
    if (status == 0)
        status = rank_points(&state, widths, outside, error);
    int64_t chosen_count = status == 0 ? sweep_spot_select(widths, outside, state.positions, spec->spot_widest,
                                                           spec->spot_outside, spec->spot_max_outside, chosen)
                                       : 0;
    if (chosen_count < 0)
        status = sc_fail(error, "out of memory choosing the spot checks");
    if (status == 0)
        status = check_chosen(&state, chosen, chosen_count, error);
    session->spot.seconds = sc_monotonic_seconds() - start;
    for (int pair = 0; pair < state.pairs; pair++) {
        for (int k = 0; state.samples && k < state.sample_counts[pair]; k++) {
            free((char *)state.samples[pair * state.capacity + k].point_json);
            profile_free(state.samples[pair * state.capacity + k].profile);
        }
        if (state.residuals)
            free(state.residuals[pair]);
        if (state.regions)
            model_region_free(&state.regions[pair]);
    }
    free(state.residuals);
    free(state.regions);
    free(state.predictions);
    free(state.sigmas);
    free(state.samples);
    free(state.log_errors);
    free(state.sample_counts);
    free(state.outside);
    free(widths);
    free(outside);
    free(chosen);
    return status < 0 ? sc_fail_prefix(error, "sweep %s: spot checks", spec->name) : 0;
}
