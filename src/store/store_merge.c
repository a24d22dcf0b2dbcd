/* store_merge.c — merging databases (e.g. the --shard K/N parts of a sweep) into one, all inputs
 * in one transaction, adding only what the output does not hold yet.
 *
 * Every input is checked before anything is written (it exists, is a syncscope database this
 * binary reads, and is not the output); only then is the output opened or created. Each input is
 * attached read-only and copied, in one read transaction, into temporary tables of the output's
 * connection: SQLite attaches only a few databases at once and cannot detach one inside a
 * transaction, so the inputs are staged first and then merged, one after another, in a single
 * write transaction. Configurations are shared by hash, sweeps matched by (name, spec) and their
 * points by index. A run is identified by its content: every column but its id, its sweep point
 * named by sweep and index. A run already in the output (stored there before, or by an earlier
 * input) is not added again, nor are its kernels, metrics and stall rows; profiles and
 * validations likewise by every column but their ids, with the runs and calibrations they refer to
 * mapped, and calibrations by every column but their ids and creation times (each shard of a model
 * sweep holds a copy of the calibrations it used: the merged database keeps one; the residuals are
 * compared with the ids they name left out, as a copy names none), with the calibration_id metric of
 * the model runs, and the detailed runs and prior calibrations a calibration's residuals name, mapped
 * to their ids in the output (residual_ids.c). What is added gets ids past the output's current
 * maximum, so that every reference between rows survives.
 *
 * The same code copies one run of an earlier database (sc_store_copy_run, calibrate and validate
 * --detailed-from): only that run, its configuration, kernels, metrics and stall rows are staged,
 * as run 1 (so that it lands after the output's last run), marked with where it came from. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/files.h"
#include "store/store_internal.h"

/* The tables an input is staged from, as temp.merge_in_<table> with the input's number first. */
static const char *const staged_tables[] = {"configs", "sweeps",  "sweep_points", "runs",         "kernels",
                                            "metrics", "stalls",  "profiles",     "calibrations", "validations"};

/* Merges the sweeps and runs of staged input :input into main; leaves temp.merge_runs (old_id,
 * present, new_id) and an empty temp.merge_calibrations (old_id, present, new_id). */
static const char merge_runs_sql[] =
    "CREATE TEMP TABLE merge_offsets AS SELECT"
    " (SELECT coalesce(max(id), 0) FROM main.runs) AS runs,"
    " (SELECT coalesce(max(id), 0) FROM main.profiles) AS profiles,"
    " (SELECT coalesce(max(id), 0) FROM main.calibrations) AS calibrations;"
    "INSERT OR IGNORE INTO main.configs (hash, system, json)"
    " SELECT hash, system, json FROM temp.merge_in_configs WHERE input = :input;"
    "INSERT OR IGNORE INTO main.sweeps (name, spec, created_at)"
    " SELECT name, spec, created_at FROM temp.merge_in_sweeps WHERE input = :input;"
    "CREATE TEMP TABLE merge_points (old_id INTEGER PRIMARY KEY, new_id INTEGER);"
    "INSERT OR IGNORE INTO main.sweep_points (sweep_id, point_index, params)"
    " SELECT ms.id, p.point_index, p.params FROM temp.merge_in_sweep_points p"
    " JOIN temp.merge_in_sweeps s ON s.input = p.input AND s.id = p.sweep_id"
    " JOIN main.sweeps ms ON ms.name = s.name AND ms.spec = s.spec WHERE p.input = :input;"
    "INSERT INTO temp.merge_points SELECT p.id, mp.id FROM temp.merge_in_sweep_points p"
    " JOIN temp.merge_in_sweeps s ON s.input = p.input AND s.id = p.sweep_id"
    " JOIN main.sweeps ms ON ms.name = s.name AND ms.spec = s.spec"
    " JOIN main.sweep_points mp ON mp.sweep_id = ms.id AND mp.point_index = p.point_index WHERE p.input = :input;"
    /* each run of the input, with the output's run of the same content (present) if there is one */
    "CREATE TEMP TABLE merge_runs (old_id INTEGER PRIMARY KEY, present INTEGER, new_id INTEGER);"
    "INSERT INTO temp.merge_runs (old_id, present) SELECT r.id, (SELECT m.id FROM main.runs m"
    " WHERE m.workload = r.workload AND m.system = r.system AND m.config_hash = r.config_hash"
    " AND m.mechanism = r.mechanism AND m.mode = r.mode AND m.workload_params = r.workload_params"
    " AND m.created_at = r.created_at AND m.tool_version = r.tool_version AND m.git_revision = r.git_revision"
    " AND m.seed = r.seed AND m.jitter IS r.jitter AND m.status = r.status AND m.check_detail = r.check_detail"
    " AND m.cycles IS r.cycles AND m.wall_seconds = r.wall_seconds AND m.sweep_point_id IS p.new_id"
    " AND m.detailed_identity IS r.detailed_identity AND m.reused_from IS r.reused_from"
    " AND m.reused_run_id IS r.reused_run_id LIMIT 1)"
    " FROM temp.merge_in_runs r LEFT JOIN temp.merge_points p ON p.old_id = r.sweep_point_id WHERE r.input = :input;"
    "UPDATE temp.merge_runs SET new_id = coalesce(present, old_id + (SELECT runs FROM temp.merge_offsets));"
    "INSERT INTO main.runs (id, created_at, tool_version, git_revision, system, config_hash, mechanism, workload,"
    " workload_params, mode, seed, jitter, status, check_detail, cycles, wall_seconds, sweep_point_id,"
    " detailed_identity, reused_from, reused_run_id)"
    " SELECT m.new_id, r.created_at, r.tool_version, r.git_revision, r.system, r.config_hash, r.mechanism,"
    " r.workload, r.workload_params, r.mode, r.seed, r.jitter, r.status, r.check_detail, r.cycles, r.wall_seconds,"
    " p.new_id, r.detailed_identity, r.reused_from, r.reused_run_id"
    " FROM temp.merge_in_runs r JOIN temp.merge_runs m ON m.old_id = r.id"
    " LEFT JOIN temp.merge_points p ON p.old_id = r.sweep_point_id"
    " WHERE r.input = :input AND m.present IS NULL ORDER BY r.id;"
    "CREATE TEMP TABLE merge_calibrations (old_id INTEGER PRIMARY KEY, present INTEGER, new_id INTEGER);";

/* Merges staged calibration :calibration of input :input (its residuals' ids already mapped to the
 * output's, merge_calibration), with the output's calibration of the same content if there is one:
 * every column but its id and creation time, the residuals compared without their ids (shards
 * given one calibration each hold a copy that names no runs, sc_store_copy_calibration). */
static const char merge_calibration_sql[] =
    "INSERT INTO temp.merge_calibrations (old_id, present) SELECT c.id, (SELECT e.id FROM main.calibrations e"
    " WHERE e.mechanism = c.mechanism AND e.system = c.system AND e.params = c.params"
    " AND e.covariance = c.covariance AND merge_residuals_unlinked(e.residuals) = merge_residuals_unlinked(c.residuals)"
    " AND e.r2 IS c.r2 AND e.sample_count = c.sample_count AND e.manifests IS c.manifests AND e.workload IS c.workload"
    " AND e.workload_params IS c.workload_params ORDER BY e.id LIMIT 1)"
    " FROM temp.merge_in_calibrations c WHERE c.input = :input AND c.id = :calibration;"
    "UPDATE temp.merge_calibrations SET new_id = coalesce(present, old_id + (SELECT calibrations FROM temp.merge_offsets))"
    " WHERE old_id = :calibration;"
    "INSERT INTO main.calibrations (id, created_at, mechanism, system, params, covariance, residuals, r2, sample_count,"
    " manifests, workload, workload_params) SELECT m.new_id, c.created_at, c.mechanism, c.system, c.params,"
    " c.covariance, c.residuals, c.r2, c.sample_count, c.manifests, c.workload, c.workload_params"
    " FROM temp.merge_in_calibrations c JOIN temp.merge_calibrations m ON m.old_id = c.id"
    " WHERE c.input = :input AND c.id = :calibration AND m.present IS NULL;";

/* Merges the rest of staged input :input: the rows that belong to runs, profiles, validations. */
static const char merge_rest_sql[] =
    "INSERT INTO main.kernels (run_id, kernel_index, name, grid, block, warp_instructions, cycles)"
    " SELECT m.new_id, k.kernel_index, k.name, k.grid, k.block, k.warp_instructions, k.cycles"
    " FROM temp.merge_in_kernels k JOIN temp.merge_runs m ON m.old_id = k.run_id"
    " WHERE k.input = :input AND m.present IS NULL;"
    /* a model run's calibration_id metric names the calibration's id in the output */
    "INSERT INTO main.metrics (run_id, kernel_index, name, value, unit)"
    " SELECT m.new_id, x.kernel_index, x.name, CASE WHEN x.name = 'calibration_id' THEN coalesce((SELECT c.new_id"
    " FROM temp.merge_calibrations c WHERE c.old_id = x.value), x.value) ELSE x.value END, x.unit"
    " FROM temp.merge_in_metrics x JOIN temp.merge_runs m ON m.old_id = x.run_id"
    " WHERE x.input = :input AND m.present IS NULL;"
    "INSERT INTO main.stalls (run_id, cu, category, subcategory, cycles)"
    " SELECT m.new_id, s.cu, s.category, s.subcategory, s.cycles"
    " FROM temp.merge_in_stalls s JOIN temp.merge_runs m ON m.old_id = s.run_id"
    " WHERE s.input = :input AND m.present IS NULL;"
    "INSERT INTO main.profiles (id, created_at, workload, workload_params, system, config_hash, run_id, profile)"
    " SELECT p.id + o.profiles, p.created_at, p.workload, p.workload_params, p.system, p.config_hash, m.new_id,"
    " p.profile FROM temp.merge_in_profiles p CROSS JOIN temp.merge_offsets o"
    " LEFT JOIN temp.merge_runs m ON m.old_id = p.run_id WHERE p.input = :input AND NOT EXISTS"
    " (SELECT 1 FROM main.profiles e WHERE e.workload = p.workload AND e.system = p.system"
    " AND e.created_at = p.created_at AND e.workload_params = p.workload_params AND e.config_hash IS p.config_hash"
    " AND e.run_id IS m.new_id AND e.profile = p.profile);"
    "INSERT INTO main.validations (calibration_id, workload, point_config, detailed_run_id, model_run_id,"
    " detailed_cycles, model_cycles, stall_fraction_error)"
    " SELECT c.new_id, v.workload, v.point_config, d.new_id, o.new_id, v.detailed_cycles, v.model_cycles,"
    " v.stall_fraction_error FROM temp.merge_in_validations v JOIN temp.merge_calibrations c ON c.old_id = v.calibration_id"
    " LEFT JOIN temp.merge_runs d ON d.old_id = v.detailed_run_id LEFT JOIN temp.merge_runs o ON o.old_id = v.model_run_id"
    " WHERE v.input = :input AND NOT EXISTS (SELECT 1 FROM main.validations e WHERE e.calibration_id = c.new_id"
    " AND e.workload = v.workload AND e.point_config = v.point_config AND e.detailed_run_id IS d.new_id"
    " AND e.model_run_id IS o.new_id AND e.detailed_cycles = v.detailed_cycles AND e.model_cycles = v.model_cycles"
    " AND e.stall_fraction_error IS v.stall_fraction_error);";

static const char merge_cleanup_sql[] =
    "DROP TABLE temp.merge_offsets; DROP TABLE temp.merge_points; DROP TABLE temp.merge_runs;"
    " DROP TABLE temp.merge_calibrations;";

/* Runs every statement of `sql`, binding :input and :calibration where a statement has them. */
static int exec_for_input(sc_store *store, const char *sql, int input, int64_t calibration, sc_error *error)
{
    const char *next = sql;
    while (*sc_store_skip_comments(next)) {
        sqlite3_stmt *statement = NULL;
        if (sqlite3_prepare_v2(store->db, next, -1, &statement, &next) != SQLITE_OK)
            return sc_store_fail(store, "merging", error);
        int parameter = sqlite3_bind_parameter_index(statement, ":input");
        if (parameter)
            sqlite3_bind_int(statement, parameter, input);
        if ((parameter = sqlite3_bind_parameter_index(statement, ":calibration")))
            sqlite3_bind_int64(statement, parameter, calibration);
        int rc = sqlite3_step(statement);
        sqlite3_finalize(statement);
        if (rc != SQLITE_DONE)
            return sc_store_fail(store, "merging", error);
    }
    return 0;
}

/* SQL function merge_residuals_unlinked(residuals): the residuals with every id they name made
 * null (residual_ids.c), so that copies of one calibration compare equal; text that is not a JSON
 * array compares as it is. */
static void residuals_unlinked(sqlite3_context *context, int argc, sqlite3_value **argv)
{
    (void)argc;
    const char *residuals = (const char *)sqlite3_value_text(argv[0]);
    char *unlinked = sc_residuals_map_ids(residuals, NULL, NULL, NULL);
    if (unlinked)
        sqlite3_result_text(context, unlinked, -1, free);
    else
        sqlite3_result_value(context, argv[0]);
}

/* The output's ids of the runs and calibrations of the input being merged (temp.merge_runs,
 * temp.merge_calibrations), looked up by the input's id. */
typedef struct merged_ids {
    sqlite3_stmt *run, *calibration;
    int failed_rc;                 /* a lookup's SQLite error, 0 if none */
} merged_ids;

static int64_t merged_id(merged_ids *ids, sqlite3_stmt *lookup, int64_t id)
{
    sqlite3_bind_int64(lookup, 1, id);
    int rc = sqlite3_step(lookup);
    int64_t found = rc == SQLITE_ROW && sqlite3_column_type(lookup, 0) != SQLITE_NULL ? sqlite3_column_int64(lookup, 0) : 0;
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        ids->failed_rc = rc;
    sqlite3_reset(lookup);
    return found;
}

static int64_t merged_run_id(void *context, int64_t id)
{
    merged_ids *ids = context;
    return merged_id(ids, ids->run, id);
}

static int64_t merged_calibration_id(void *context, int64_t id)
{
    merged_ids *ids = context;
    return merged_id(ids, ids->calibration, id);
}

/* Maps the ids in staged calibration `id`'s residuals to the output's (null where the output has no
 * such run or calibration: the input named one it does not hold). */
static int map_residual_ids(sc_store *out, int input, int64_t id, merged_ids *ids, sc_error *error)
{
    sqlite3_stmt *read = NULL, *write = NULL;
    int status = -1;
    if (sqlite3_prepare_v2(out->db, "SELECT residuals FROM temp.merge_in_calibrations WHERE input = ?1 AND id = ?2", -1,
                           &read, NULL) == SQLITE_OK &&
        sqlite3_prepare_v2(out->db, "UPDATE temp.merge_in_calibrations SET residuals = ?3 WHERE input = ?1 AND id = ?2",
                           -1, &write, NULL) == SQLITE_OK) {
        sqlite3_bind_int(read, 1, input);
        sqlite3_bind_int64(read, 2, id);
        char *mapped = NULL;
        if (sqlite3_step(read) == SQLITE_ROW)
            mapped = sc_residuals_map_ids((const char *)sqlite3_column_text(read, 0), merged_run_id,
                                          merged_calibration_id, ids);
        status = ids->failed_rc ? -1 : 0;
        if (mapped && !status) {
            sqlite3_bind_int(write, 1, input);
            sqlite3_bind_int64(write, 2, id);
            sqlite3_bind_text(write, 3, mapped, -1, free);
            status = sqlite3_step(write) == SQLITE_DONE ? 0 : -1;
        } else
            free(mapped);
    }
    sqlite3_finalize(read);
    sqlite3_finalize(write);
    return status ? sc_store_fail(out, "merging the calibrations", error) : 0;
}

/* Merges the staged calibrations of input `input` one by one in the order of their ids, so that a
 * refit's prior (an earlier calibration) already has its id in the output when the refit's
 * residuals name it. */
static int merge_calibrations(sc_store *out, int input, sc_error *error)
{
    sqlite3_stmt *list = NULL;
    merged_ids ids = {NULL, NULL, 0};
    int status = sqlite3_prepare_v2(out->db, "SELECT id FROM temp.merge_in_calibrations WHERE input = ?1 ORDER BY id",
                                    -1, &list, NULL) != SQLITE_OK ||
                 sqlite3_prepare_v2(out->db, "SELECT new_id FROM temp.merge_runs WHERE old_id = ?1", -1, &ids.run,
                                    NULL) != SQLITE_OK ||
                 sqlite3_prepare_v2(out->db, "SELECT new_id FROM temp.merge_calibrations WHERE old_id = ?1", -1,
                                    &ids.calibration, NULL) != SQLITE_OK
                     ? sc_store_fail(out, "merging the calibrations", error)
                     : 0;
    int64_t *calibrations = NULL;
    size_t count = 0, capacity = 0;
    sqlite3_bind_int(list, 1, input);
    int rc = SQLITE_DONE;
    while (!status && (rc = sqlite3_step(list)) == SQLITE_ROW) {
        if (count == capacity) {
            capacity = capacity ? 2 * capacity : 16;
            calibrations = realloc(calibrations, capacity * sizeof *calibrations);
        }
        calibrations[count++] = sqlite3_column_int64(list, 0);
    }
    if (!status && rc != SQLITE_DONE)
        status = sc_store_fail(out, "merging the calibrations", error);
    for (size_t c = 0; c < count && !status; c++)
        if (!(status = map_residual_ids(out, input, calibrations[c], &ids, error)))
            status = exec_for_input(out, merge_calibration_sql, input, calibrations[c], error);
    free(calibrations);
    sqlite3_finalize(list);
    sqlite3_finalize(ids.run);
    sqlite3_finalize(ids.calibration);
    return status;
}

/* Which rows of each table (in the order of staged_tables) are staged: a whole input's, or one
 * run's (run_filters' %lld: its id) with its configuration and nothing else. */
static const char *const every_row[] = {"1", "1", "1", "1", "1", "1", "1", "1", "1", "1"};
static const char *const run_filters[] = {
    "hash = (SELECT config_hash FROM shard.runs WHERE id = %lld)", "0", "0", "id = %lld", "run_id = %lld",
    "run_id = %lld", "run_id = %lld", "0", "0", "0"};

/* Copies the rows `filters` select (with `run` for their %lld) of every table of input number
 * `input` (attached as shard) into its staging table, creating the staging tables on first use. */
static int stage_tables(sc_store *out, int input, const char *const *filters, int64_t run, sc_error *error)
{
    char sql[512], filter[128];
    for (size_t t = 0; t < sizeof staged_tables / sizeof staged_tables[0]; t++) {
        const char *table = staged_tables[t];
        snprintf(sql, sizeof sql,
                 "CREATE TEMP TABLE IF NOT EXISTS merge_in_%s AS SELECT 0 AS input, * FROM shard.%s WHERE 0;"
                 " CREATE INDEX IF NOT EXISTS temp.merge_in_%s_by_input ON merge_in_%s (input);",
                 table, table, table, table);
        if (sc_store_exec(out, sql, error))
            return -1;
        snprintf(filter, sizeof filter, filters[t], (long long)run);
        snprintf(sql, sizeof sql, "INSERT INTO temp.merge_in_%s SELECT :input, * FROM shard.%s WHERE %s", table, table,
                 filter);
        if (exec_for_input(out, sql, input, -1, error))
            return -1;
    }
    return 0;
}

/* Attaches the input read-only by `uri` and stages the rows `filters` select (stage_tables), all
 * its tables read in one transaction. */
static int stage_input(sc_store *out, const char *uri, int input, const char *const *filters, int64_t run,
                       sc_error *error)
{
    const sc_query_param attach[] = {{"uri", uri}};
    if (sc_store_query(out, "ATTACH DATABASE :uri AS shard", attach, 1, NULL, NULL, error))
        return -1;
    int status = sc_store_exec(out, "BEGIN", error);
    if (!status && (status = stage_tables(out, input, filters, run, error)) == 0)
        status = sc_store_exec(out, "COMMIT", error);
    if (status)
        sc_store_rollback(out);
    sqlite3_exec(out->db, "DETACH DATABASE shard", NULL, NULL, NULL);
    return status;
}

/* Adds the runs the last merged input added and those it found present to `counts`. */
static int count_runs(void *context, int columns, const char *const *names, const char *const *values,
                      const sc_value_kind *kinds)
{
    (void)columns;
    (void)names;
    (void)kinds;
    sc_merge_counts *counts = context;
    if (values) {
        counts->runs_added += strtoll(values[0] ? values[0] : "0", NULL, 10);
        counts->runs_present += strtoll(values[1] ? values[1] : "0", NULL, 10);
    }
    return 0;
}

/* Merges every staged input into main, in one write transaction. */
static int merge_staged(sc_store *out, int in_count, sc_merge_counts *counts, sc_error *error)
{
    if (sc_store_exec(out, "BEGIN IMMEDIATE", error))
        return -1;
    int status = 0;
    for (int input = 0; input < in_count && !status; input++) {
        status = exec_for_input(out, merge_runs_sql, input, -1, error);
        if (!status)
            status = merge_calibrations(out, input, error);
        if (!status)
            status = exec_for_input(out, merge_rest_sql, input, -1, error);
        if (!status)
            status = sc_store_query(out,
                                    "SELECT count(*) FILTER (WHERE present IS NULL),"
                                    " count(*) FILTER (WHERE present IS NOT NULL) FROM temp.merge_runs",
                                    NULL, 0, count_runs, counts, error);
        if (!status)
            status = sc_store_exec(out, merge_cleanup_sql, error);
    }
    if (!status)
        status = sc_store_exec(out, "COMMIT", error);
    if (status)
        sc_store_rollback(out);
    return status;
}

/* Checks every input (without writing to the output) and returns the URIs they read by. */
static char **check_inputs(const char *out_path, const char *const *in_paths, int in_count, sc_error *error)
{
    char **uris = calloc((size_t)in_count, sizeof *uris);
    for (int i = 0; i < in_count; i++) {
        sc_store *input = NULL;
        if (sc_same_file(out_path, in_paths[i]))
            sc_fail(error, "%s: cannot merge a database into itself", in_paths[i]);
        else
            input = sc_store_open_reader(in_paths[i], error);
        if (!input) {
            for (int j = 0; j < i; j++)
                free(uris[j]);
            free(uris);
            return NULL;
        }
        uris[i] = strdup(input->uri);
        sc_store_close(input);
    }
    return uris;
}

int sc_store_merge(const char *out_path, const char *const *in_paths, int in_count, sc_merge_counts *counts,
                   sc_error *error)
{
    *counts = (sc_merge_counts){0, 0};
    char **uris = check_inputs(out_path, in_paths, in_count, error);
    if (!uris)
        return -1;
    sc_store *out = sc_store_open(out_path, error);
    /* staged rows go to a temporary file, not memory: inputs may be large */
    int status = out ? sc_store_exec(out, "PRAGMA temp_store = FILE", error) : -1;
    if (!status && sqlite3_create_function_v2(out->db, "merge_residuals_unlinked", 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC,
                                              NULL, residuals_unlinked, NULL, NULL, NULL) != SQLITE_OK)
        status = sc_store_fail(out, "merging", error);
    for (int i = 0; i < in_count && !status; i++)
        if (stage_input(out, uris[i], i, every_row, 0, error))
            status = sc_fail_prefix(error, "merging %s", in_paths[i]);
    if (!status)
        status = merge_staged(out, in_count, counts, error);
    sc_store_close(out);
    for (int i = 0; i < in_count; i++)
        free(uris[i]);
    free(uris);
    return status;
}

/* Empties the staging tables of a run copy; they stay for the next one. */
static const char unstage_sql[] =
    "DELETE FROM temp.merge_in_configs; DELETE FROM temp.merge_in_runs; DELETE FROM temp.merge_in_kernels;"
    " DELETE FROM temp.merge_in_metrics; DELETE FROM temp.merge_in_stalls;";

int64_t sc_store_copy_run(sc_store *to, sc_store *source, int64_t run_id, sc_error *error)
{
    sc_merge_counts counts;
    const sc_query_param path[] = {{"path", source->path}};
    int64_t id = 0;
    char id_text[32];
    snprintf(id_text, sizeof id_text, "%lld", (long long)run_id);
    const sc_query_param copied[] = {{"path", source->path}, {"run", id_text}};
    int status = stage_input(to, source->uri, 0, run_filters, run_id, error);
    /* The staged run becomes run 1, so that the merge gives it the id after the output's last
     * (the output's runs stay numbered in the order they were stored). */
    if (!status)
        status = sc_store_query(to, "UPDATE temp.merge_in_runs SET reused_from = :path, reused_run_id = id, id = 1",
                                path, 1, NULL, NULL, error);
    if (!status)
        status = sc_store_exec(to, "UPDATE temp.merge_in_kernels SET run_id = 1; UPDATE temp.merge_in_metrics SET"
                                   " run_id = 1; UPDATE temp.merge_in_stalls SET run_id = 1;", error);
    if (!status)
        status = merge_staged(to, 1, &counts, error);
    if (!status)
        status = sc_store_query(to, "SELECT id FROM main.runs WHERE reused_from = :path AND reused_run_id = :run"
                                    " ORDER BY id LIMIT 1", copied, 2, sc_store_row_int64, &id, error);
    sc_error ignored;   /* after a failure: its error is the one to report */
    if (sc_store_exec(to, unstage_sql, status ? &ignored : error))
        status = -1;
    if (!status && id == 0)
        status = sc_fail(error, "%s: run %lld of %s was not copied", to->path, (long long)run_id, source->path);
    return status ? -1 : id;
}
