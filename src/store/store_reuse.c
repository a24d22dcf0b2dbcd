/* store_reuse.c — finding, in an earlier database, a detailed or sampled run that is the same
 * computation as one about to be simulated (store.h: sc_run_key), so that `calibrate` and
 * `validate --detailed-from` copy it (sc_store_copy_run) instead of simulating it again.
 *
 * Two runs are the same computation when the binary's detailed identity (the SHA-256 of every
 * file that can change a detailed run: base/detailed_identity.h), the workload and its parameters
 * (size and seed, or a manifest's content digest), the system, the full resolved configuration
 * (its hash and its canonical JSON, every key), the mechanism, the mode and the seed are equal,
 * neither is jittered, and for a sampled run its sampling settings are equal too. Only runs that
 * finished (status ok, with cycles) are candidates. */
#include <stdio.h>
#include <string.h>

#include "store/store_internal.h"

static const char find_sql[] =
    "SELECT r.id FROM runs r JOIN configs c ON c.hash = r.config_hash"
    " WHERE r.workload = ?1 AND r.system = ?2 AND r.config_hash = ?3 AND r.mechanism = ?4 AND r.mode = ?5"
    " AND r.workload_params = ?6 AND r.seed = ?7 AND r.jitter IS NULL AND r.status = 'ok' AND r.cycles IS NOT NULL"
    " AND r.detailed_identity = ?8 AND c.json = ?9 ORDER BY r.id";

static const char setting_sql[] = "SELECT value FROM metrics WHERE run_id = ?1 AND kernel_index = -1 AND name = ?2";

/* Whether run `id` stores every setting of the key with exactly its value; -1 on failure. */
static int settings_match(sqlite3_stmt *setting, const sc_run_key *key, int64_t id)
{
    int match = 1;
    for (int s = 0; s < key->setting_count && match == 1; s++) {
        sqlite3_bind_int64(setting, 1, id);
        sqlite3_bind_text(setting, 2, key->settings[s].name, -1, SQLITE_STATIC);
        int rc = sqlite3_step(setting);
        if (rc == SQLITE_ROW)
            match = sqlite3_column_double(setting, 0) == key->settings[s].value;
        else
            match = rc == SQLITE_DONE ? 0 : -1;
        sqlite3_reset(setting);
    }
    return match;
}

static bool is_taken(int64_t id, const int64_t *taken, int taken_count)
{
    for (int t = 0; t < taken_count; t++)
        if (taken[t] == id)
            return true;
    return false;
}

int64_t sc_store_find_same_run(sc_store *source, const sc_run_key *key, const int64_t *taken, int taken_count,
                               sc_error *error)
{
    if (!key->detailed_identity)
        return 0;
    sqlite3_stmt *find = NULL, *setting = NULL;
    if (sqlite3_prepare_v2(source->db, find_sql, -1, &find, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(source->db, setting_sql, -1, &setting, NULL) != SQLITE_OK) {
        sqlite3_finalize(find);
        return sc_store_fail(source, "looking for a run to reuse", error);
    }
    const char *texts[] = {key->workload, key->system, key->config_hash, key->mechanism, key->mode,
                           key->workload_params};
    for (int t = 0; t < (int)(sizeof texts / sizeof texts[0]); t++)
        sqlite3_bind_text(find, t + 1, texts[t], -1, SQLITE_STATIC);
    sqlite3_bind_int64(find, 7, key->seed);
    sqlite3_bind_text(find, 8, key->detailed_identity, -1, SQLITE_STATIC);
    sqlite3_bind_text(find, 9, key->config_json, -1, SQLITE_STATIC);
    int64_t found = 0;
    int rc = SQLITE_DONE;
    while (found == 0 && (rc = sqlite3_step(find)) == SQLITE_ROW) {
        int64_t id = sqlite3_column_int64(find, 0);
        int match = is_taken(id, taken, taken_count) ? 0 : settings_match(setting, key, id);
        found = match == 1 ? id : match < 0 ? -1 : 0;
    }
    if (found == 0 && rc != SQLITE_DONE)
        found = -1;
    if (found < 0)
        sc_store_fail(source, "looking for a run to reuse", error);
    sqlite3_finalize(find);
    sqlite3_finalize(setting);
    return found;
}
