/* report.h — the GSI stall figures of a set of runs, as SVG (thesis figures 6.1–6.4 style).
 *
 * Each figure has one group of bars per workload and one bar per run (labelled by its mechanism
 * unless told otherwise); a bar stacks stall cycles by cause, divided by the total cycles of the
 * workload's baseline run, so the baseline bar reaches 1 and every other bar's height is its
 * execution time relative to the baseline. The totals are the sums of the runs' top-level GSI
 * categories (SM-cycles), which keeps numerator and denominator in the same unit. Tooltips
 * give the absolute cycles.
 */
#ifndef SYNCSCOPE_EXPORT_REPORT_H
#define SYNCSCOPE_EXPORT_REPORT_H

#include <stddef.h>
#include <sqlite3.h>

#include "base/error.h"

typedef struct sc_report_options {
    const char *label_sql;      /* SQL expression over `runs` naming each bar; NULL: mechanism */
    const char *baseline;       /* bar label to normalise to; NULL: the leftmost bar of each
                                 * workload (bars are ordered by their lowest run id) */
} sc_report_options;

/* The ids of the runs matching an SQL condition over `runs` (e.g. "workload = 'uts'"), in id
 * order; free() *run_ids. Fails if none match. */
int sc_report_select_runs(sqlite3 *db, const char *condition, long long **run_ids, size_t *count,
                          sc_error *error);

/* One figure: the top-level breakdown when `parent` is NULL, else the subcategories of
 * `parent` ("mem_data", "mem_struct", "sync"). Returns malloc'd SVG. */
char *sc_report_runs_figure(sqlite3 *db, const long long *run_ids, size_t run_count,
                            const char *parent, const sc_report_options *options, sc_error *error);

/* One bar per CU of a run, each normalised to that CU's own cycles. */
char *sc_report_cu_figure(sqlite3 *db, long long run_id, const char *parent, sc_error *error);

/* Writes stalls_overall.svg, stalls_mem_data.svg and stalls_mem_struct.svg into `directory`
 * (created if missing). */
int sc_report_write_gsi(sqlite3 *db, const long long *run_ids, size_t run_count,
                        const sc_report_options *options, const char *directory, sc_error *error);

#endif
