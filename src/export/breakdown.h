/* breakdown.h — GSI stall breakdowns read from the `stalls` table, ready to be drawn.
 *
 * A breakdown is a result table with the columns (key, category, subcategory, cycles): the key
 * is a run id (sc_breakdown_for_runs) or a CU number (sc_breakdown_by_cu). The `stalls` table may
 * store a category either as one row without subcategory or as rows per subcategory, or both;
 * sc_breakdown_cycles() reads the top level from the category row when there is one and from
 * the sum of its subcategories otherwise, so neither convention double-counts. A subcategory
 * that is NULL or '' means "none". Names compare case-insensitively (MEM_DATA = mem_data).
 */
#ifndef SYNCSCOPE_EXPORT_BREAKDOWN_H
#define SYNCSCOPE_EXPORT_BREAKDOWN_H

#include <stddef.h>
#include <sqlite3.h>

#include "base/error.h"
#include "export/table.h"

/* Name of the segment holding the part of a category its subcategories do not account for. */
#define SC_UNATTRIBUTED "unattributed"

/* Whole-GPU stall cycles of each run as the store defines them, the mean over CUs: the
 * aggregate rows (cu NULL), or for a run stored without them the per-CU rows averaged. */
sc_table *sc_breakdown_for_runs(sqlite3 *db, const long long *run_ids, size_t run_count,
                                sc_error *error);

/* Stall cycles of each CU of one run. */
sc_table *sc_breakdown_by_cu(sqlite3 *db, long long run_id, sc_error *error);

/* Cycles of `name` under `parent` for `key`: a top-level category when `parent` is NULL, a
 * subcategory otherwise (SC_UNATTRIBUTED: the category's cycles not in any subcategory). */
double sc_breakdown_cycles(const sc_table *breakdown, long long key, const char *parent,
                           const char *name);

/* Sum of the top-level categories of `key`: its total cycles. */
double sc_breakdown_total(const sc_table *breakdown, long long key);

/* The names present under `parent` (NULL: top level) in display order, known GSI kinds first;
 * when `parent` has subcategories, SC_UNATTRIBUTED is appended if any key has cycles of
 * `parent` outside them.
 * Returns the count; *names (free() the array, not its strings) point into the table. */
size_t sc_breakdown_names(const sc_table *breakdown, const char *parent, const char ***names);

/* The distinct keys in ascending order; free() the array. */
size_t sc_breakdown_keys(const sc_table *breakdown, long long **keys);

#endif
