/* sweep_check.c — the stored sweeps checked against their specifications (sweep_check.h):
 * each sweep's stored specification is parsed again and its design rebuilt, then every stored
 * point is compared with what evaluating it stores (sweep.c): one run of each mechanism x
 * workload in the sweep's mode, plus, in a model sweep, one detailed run of each at the points
 * it spot-checks and none elsewhere (spot checks where they matter: one run of each in their mode
 * at the points that hold any, sweep_spot.h). */
#include "studies/sweep_check.h"

#include <cjson/cJSON.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "studies/sweep.h"

/* One stored sweep row. */
typedef struct stored_sweep {
    int64_t id;
    char *name, *spec;
} stored_sweep;

typedef struct sweep_rows {
    stored_sweep *rows;
    int count, capacity;
} sweep_rows;

static int collect_sweep(void *context, int columns, const char *const *names, const char *const *values,
                         const sc_value_kind *kinds)
{
    (void)columns, (void)names, (void)kinds;
    sweep_rows *list = context;
    if (!values)
        return 0;
    if (list->count == list->capacity) {
        int capacity = list->capacity ? 2 * list->capacity : 16;
        stored_sweep *grown = realloc(list->rows, (size_t)capacity * sizeof *grown);
        if (!grown)
            return 1;
        list->rows = grown;
        list->capacity = capacity;
    }
    list->rows[list->count++] = (stored_sweep){atoll(values[0]), strdup(values[1]), strdup(values[2])};
    return 0;
}

/* What one sweep's check found, and the points to remove on repair. */
typedef struct sweep_checker {
    const sweep_session *session;
    const stored_sweep *sweep;
    FILE *out;
    int64_t expected_pairs;       /* mechanisms x workloads */
    int64_t problems, stored;
    int64_t *faulty;              /* point row ids at fault */
    int64_t faulty_count, faulty_capacity;
} sweep_checker;

/* Prints one problem of point `index` (row `point_id`) and keeps the point for repair. */
static void report(sweep_checker *checker, int64_t point_id, int64_t index, const char *format, ...)
{
    fprintf(checker->out, "sweep: %s (id %" PRId64 "), point %" PRId64 ": ", checker->sweep->name, checker->sweep->id,
            index);
    va_list arguments;
    va_start(arguments, format);
    vfprintf(checker->out, format, arguments);
    va_end(arguments);
    fputc('\n', checker->out);
    checker->problems++;
    if (checker->faulty_count && checker->faulty[checker->faulty_count - 1] == point_id)
        return;
    if (checker->faulty_count == checker->faulty_capacity) {
        int64_t capacity = checker->faulty_capacity ? 2 * checker->faulty_capacity : 64;
        int64_t *grown = realloc(checker->faulty, (size_t)capacity * sizeof *grown);
        if (!grown)
            return;
        checker->faulty = grown;
        checker->faulty_capacity = capacity;
    }
    checker->faulty[checker->faulty_count++] = point_id;
}

/* One row per stored point: id, index, runs and distinct mechanism x workload pairs in the
 * sweep's mode, the same for spot checks (model sweeps), runs in any other mode. */
static int check_point(void *context, int columns, const char *const *names, const char *const *values,
                       const sc_value_kind *kinds)
{
    (void)columns, (void)names, (void)kinds;
    sweep_checker *checker = context;
    if (!values)
        return 0;
    int64_t id = atoll(values[0]), index = atoll(values[1]);
    int64_t runs = atoll(values[2]), pairs = atoll(values[3]);
    int64_t checks = atoll(values[4]), check_pairs = atoll(values[5]), other = atoll(values[6]);
    int64_t expected = checker->expected_pairs;
    checker->stored++;
    if (index < 0 || index >= checker->session->design.count) {
        report(checker, id, index, "outside the specification's design of %" PRId64 " points",
               checker->session->design.count);
        return 0;
    }
    const sweep_spec *spec = checker->session->spec;
    bool model = !strcmp(spec->mode, "model");
    /* spot checks where they matter are chosen after the model pass: a point holds all or none */
    int64_t expected_checks = model && (sweep_point_spot_checked(checker->session, index) ||
                                        (spec->spot_targeted && checks > 0)) ? expected : 0;
    if (pairs < expected)
        report(checker, id, index, "partial: it holds runs of %" PRId64 " of its %" PRId64
               " mechanism x workload pairs", pairs, expected);
    if (runs > pairs)
        report(checker, id, index, "%" PRId64 " duplicated runs (%" PRId64 " distinct mechanism x workload pairs)",
               runs - pairs, pairs);
    if (model && (check_pairs != expected_checks || checks != check_pairs))
        report(checker, id, index, "%" PRId64 " %s spot-check runs where its specification makes %" PRId64, checks,
               spec->spot_targeted ? spec->spot_mode : "detailed", expected_checks);
    if (other)
        report(checker, id, index, "%" PRId64 " runs in another mode than the sweep's", other);
    return 0;
}

/* Checks one sweep; a sweep row that is not a design sweep (a reproduction's) is left alone. */
static int check_sweep(sc_store *store, const stored_sweep *sweep, FILE *out, sweep_checker *checker, sc_error *error)
{
    cJSON *root = cJSON_Parse(sweep->spec);
    bool design = root && !cJSON_GetObjectItemCaseSensitive(root, "study");
    cJSON_Delete(root);
    if (!design)
        return 0;
    sweep_spec spec = {0};
    sweep_session session = {.spec = &spec, .shards = 1, .names_only = true};
    sc_error problem = {{0}};
    if (sweep_spec_parse(sweep->spec, sweep->name, &spec, &problem) < 0 || sweep_session_prepare(&session, &problem) < 0) {
        fprintf(out, "sweep: %s (id %" PRId64 "): its stored specification no longer evaluates: %s\n", sweep->name,
                sweep->id, problem.message);
        checker->problems++;
        sweep_session_release(&session);
        sweep_spec_free(&spec);
        return 0;
    }
    checker->session = &session;
    checker->sweep = sweep;
    checker->out = out;
    checker->expected_pairs = (int64_t)session.mechanism_count * session.workload_count;
    char id_text[32];
    snprintf(id_text, sizeof id_text, "%" PRId64, sweep->id);
    sc_query_param params[] = {{"sweep", id_text}, {"mode", spec.mode},
                               {"spot", spec.spot_targeted ? spec.spot_mode : "detailed"}};
    int status = sc_store_query(
        store,
        "SELECT p.id, p.point_index,"
        " count(CASE WHEN r.mode = :mode THEN 1 END),"
        " count(DISTINCT CASE WHEN r.mode = :mode THEN r.mechanism || char(31) || r.workload END),"
        " count(CASE WHEN r.mode = :spot AND :mode = 'model' THEN 1 END),"
        " count(DISTINCT CASE WHEN r.mode = :spot AND :mode = 'model' THEN r.mechanism || char(31) || r.workload END),"
        " count(CASE WHEN r.mode != :mode AND (r.mode != :spot OR :mode != 'model') THEN 1 END)"
        " FROM sweep_points p LEFT JOIN runs r ON r.sweep_point_id = p.id WHERE p.sweep_id = :sweep"
        " GROUP BY p.id ORDER BY p.point_index",
        params, 3, check_point, checker, error);
    int64_t whole = checker->stored - checker->faulty_count;
    if (status == 0 && whole < session.design.count) {
        fprintf(out, "sweep: %s (id %" PRId64 "): %" PRId64 " of its %" PRId64 " points stored whole (an interrupted "
                "sweep: run it again to complete it; a shard's database: merge all the shards)\n",
                sweep->name, sweep->id, whole, session.design.count);
        checker->problems++;
    }
    sweep_session_release(&session);
    sweep_spec_free(&spec);
    return status;
}

int sweep_check_store(sc_store *store, FILE *out, bool repair, int64_t *removed, sc_error *error)
{
    sweep_rows sweeps = {0};
    int64_t problems = 0;
    *removed = 0;
    int status = sc_store_query(store, "SELECT id, name, spec FROM sweeps ORDER BY id", NULL, 0, collect_sweep,
                                &sweeps, error);
    for (int s = 0; status == 0 && s < sweeps.count; s++) {
        sweep_checker checker = {0};
        status = check_sweep(store, &sweeps.rows[s], out, &checker, error);
        problems += checker.problems;
        if (status == 0 && repair && checker.faulty_count) {
            status = sc_store_remove_sweep_points(store, checker.faulty, checker.faulty_count, error);
            if (status == 0) {
                fprintf(out, "sweep: %s (id %" PRId64 "): removed %" PRId64 " faulty points with their runs\n",
                        sweeps.rows[s].name, sweeps.rows[s].id, checker.faulty_count);
                *removed += checker.faulty_count;
            }
        }
        free(checker.faulty);
    }
    for (int s = 0; s < sweeps.count; s++) {
        free(sweeps.rows[s].name);
        free(sweeps.rows[s].spec);
    }
    free(sweeps.rows);
    return status < 0 ? -1 : (int)(problems > 1000000 ? 1000000 : problems);
}
