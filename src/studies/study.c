/* study.c — the registry of reproductions, and reading a reproduction's stored runs back as
 * workload x mechanism tables (study.h). */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base/names.h"
#include "export/output.h"
#include "export/strbuf.h"
#include "studies/study.h"


static const reproduction_study *const studies[] = {&study_quickrelease, &study_rcc, &study_gsi};

const reproduction_study *study_find(const char *name)
{
    for (size_t i = 0; i < sizeof studies / sizeof studies[0]; i++)
        if (!strcmp(studies[i]->name, name))
            return studies[i];
    return NULL;
}

void study_print_list(FILE *out)
{
    for (size_t i = 0; i < sizeof studies / sizeof studies[0]; i++)
        fprintf(out, "  %-14s %s (preset %s, size %s)\n", studies[i]->name, studies[i]->title, studies[i]->system,
                studies[i]->size);
}

typedef struct fetch_context {
    const study_runs *runs;
    const char *const *workloads;
    int workload_count;
    double *values;
    bool variant;               /* one value per workload (a variant's single mechanism) */
} fetch_context;

static int keep_value(void *context, int columns, const char *const *names, const char *const *values,
                      const sc_value_kind *kinds)
{
    (void)columns, (void)names, (void)kinds;
    fetch_context *fetch = context;
    if (!values || !values[2])
        return 0;
    int w = sc_name_index(fetch->workloads, fetch->workload_count, values[0]);
    int m = fetch->variant ? 0 : sc_name_index(fetch->runs->mechanisms, fetch->runs->mechanism_count, values[1]);
    if (w >= 0 && m >= 0)
        fetch->values[w * (fetch->variant ? 1 : fetch->runs->mechanism_count) + m] = atof(values[2]);
    return 0;
}

/* The latest ok run per workload and mechanism at one size of the sweep and one variant (none:
 * '' ), with the metric. */
static const char fetch_sql[] =
    "WITH latest AS (SELECT max(r.id) AS id FROM runs r JOIN sweep_points p ON p.id = r.sweep_point_id"
    "  WHERE p.sweep_id = :sweep AND json_extract(p.params, '$.size') = :size"
    "  AND coalesce(json_extract(p.params, '$.variant'), '') = :variant AND r.status = 'ok'"
    "  GROUP BY r.workload, r.mechanism)"
    " SELECT r.workload, r.mechanism,"
    "  CASE WHEN :metric = 'cycles' THEN r.cycles"
    "   WHEN :metric LIKE 'stalls.%' THEN (SELECT coalesce(sum(s.cycles), 0) FROM stalls s WHERE s.run_id = r.id"
    "    AND s.cu = -1 AND :metric IN ('stalls.' || s.category, 'stalls.' || s.category || '.' || s.subcategory))"
    "   ELSE (SELECT value FROM metrics m WHERE m.run_id = r.id"
    "   AND m.kernel_index = -1 AND m.name = :metric) END"
    " FROM runs r JOIN latest ON latest.id = r.id";

static int fetch(const study_runs *runs, const char *size, const char *variant, const char *const *workloads,
                 int workload_count, const char *metric, double *values, sc_error *error)
{
    for (int i = 0; i < workload_count * (variant ? 1 : runs->mechanism_count); i++)
        values[i] = NAN;
    char sweep[32];
    snprintf(sweep, sizeof sweep, "%lld", (long long)runs->sweep_id);
    const sc_query_param params[] = {{"sweep", sweep}, {"size", size}, {"metric", metric},
                                     {"variant", variant ? variant : ""}};
    fetch_context context = {runs, workloads, workload_count, values, variant != NULL};
    return sc_store_query(runs->store, fetch_sql, params, 4, keep_value, &context, error);
}

int study_fetch(const study_runs *runs, const char *size, const char *const *workloads, int workload_count,
                const char *metric, double *values, sc_error *error)
{
    return fetch(runs, size, NULL, workloads, workload_count, metric, values, error);
}

int study_fetch_variant(const study_runs *runs, const char *variant, const char *const *workloads,
                        int workload_count, const char *metric, double *values, sc_error *error)
{
    return fetch(runs, runs->size, variant, workloads, workload_count, metric, values, error);
}

double study_ratio(double a, double b)
{
    return isfinite(a) && isfinite(b) && b != 0.0 ? a / b : NAN;
}

const char *study_percent_verdict(double measured, double paper)
{
    if (isnan(measured))
        return "no data";
    if ((measured > 0) != (paper > 0))
        return "disagrees";
    return fabs(measured - paper) <= 5.0 ? "agrees" : "direction agrees";
}

int study_write_claims(const reproduction_study *study, const study_runs *runs, const char *heading,
                       const char *claims, const char *directory, FILE *out, sc_error *error)
{
    sc_strbuf text = SC_STRBUF_INIT;
    sc_strbuf_appendf(&text, "# %s\n\nPreset %s, size %s; runs of sweep %lld (`syncscope reproduce %s`).\n\n%s", heading,
                      study->system, runs->size, (long long)runs->sweep_id, study->name, claims);
    char path[4096];
    snprintf(path, sizeof path, "%s/claims.md", directory);
    int status = sc_output_write(path, text.text ? text.text : "", error);
    if (status == 0)
        fprintf(out, "%s\nfigures and claims.md written to %s/\n", text.text, directory);
    sc_strbuf_free(&text);
    return status;
}
