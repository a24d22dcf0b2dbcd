/* store_check.c — `db check`: SQLite integrity, foreign keys, schema version, and the GSI
 * invariant that each CU's stall rows (and the cu -1 mean rows) sum to the run's cycles. */
#include <stdio.h>
#include <string.h>

#include "store/store_internal.h"

typedef struct check_report {
    FILE *out;
    const char *kind;
    int problems;
} check_report;

/* Reports every row as a problem, except integrity_check's single "ok". */
static int report_row(void *context, int columns, const char *const *names, const char *const *values,
                      const sc_value_kind *kinds)
{
    check_report *report = context;
    if (!values || (columns == 1 && values[0] && !strcmp(values[0], "ok")))
        return 0;
    report->problems++;
    fprintf(report->out, "%s:", report->kind);
    for (int c = 0; c < columns; c++)
        fprintf(report->out, " %s=%s", names[c], values[c] ? values[c] : "NULL");
    fputc('\n', report->out);
    return 0;
}

static int report_stall_sum(void *context, int columns, const char *const *names, const char *const *values,
                            const sc_value_kind *kinds)
{
    check_report *report = context;
    if (!values)
        return 0;
    report->problems++;
    fprintf(report->out, "stalls: run %s: the stall cycles of %s sum to %s but the run took %s cycles\n", values[0],
            values[1] ? values[1] : "the CU mean", values[2], values[3] ? values[3] : "an unknown number of");
    return 0;
}

int sc_store_check(sc_store *store, FILE *out, sc_error *error)
{
    check_report report = {out, "integrity", 0};
    if (sc_store_query(store, "PRAGMA integrity_check", NULL, 0, report_row, &report, error))
        return -1;
    report.kind = "foreign key";
    if (sc_store_query(store, "PRAGMA foreign_key_check", NULL, 0, report_row, &report, error))
        return -1;
    char expected[16];
    snprintf(expected, sizeof expected, "%d", sc_store_schema_version());
    const sc_query_param version[] = {{"expected", expected}};
    report.kind = "schema version";
    if (sc_store_query(store, "SELECT user_version, :expected AS expected FROM pragma_user_version"
                              " WHERE user_version != :expected",
                       version, 1, report_row, &report, error))
        return -1;
    if (sc_store_query(store,
                       "SELECT s.run_id, CASE WHEN s.cu = -1 THEN NULL ELSE 'cu ' || s.cu END,"
                       " sum(s.cycles), r.cycles FROM stalls s JOIN runs r ON r.id = s.run_id"
                       " GROUP BY s.run_id, s.cu"
                       " HAVING r.cycles IS NULL OR abs(sum(s.cycles) - r.cycles) > 1e-6 * max(1.0, r.cycles)",
                       NULL, 0, report_stall_sum, &report, error))
        return -1;
    return report.problems;
}
