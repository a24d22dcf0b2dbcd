/* suite.c — the registry of built-in workloads, size-class names, and the check helpers that
 * every driver uses to report its reference comparison.
 */
#include "workloads/workload.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* Each driver file defines one or more of these. */
extern const sc_workload sc_workload_vecadd, sc_workload_nn, sc_workload_reduction, sc_workload_histogram,
    sc_workload_spmv, sc_workload_bfs, sc_workload_stencil, sc_workload_matmul, sc_workload_dct, sc_workload_nw,
    sc_workload_kmeans, sc_workload_backprop, sc_workload_lud, sc_workload_sort, sc_workload_sssp, sc_workload_apsp,
    sc_workload_uts, sc_workload_utsd, sc_workload_hashtable, sc_workload_bfsmask, sc_workload_bh, sc_workload_cl,
    sc_workload_dlb, sc_workload_stn, sc_workload_vpr, sc_workload_hsp, sc_workload_lps, sc_workload_sr,
    sc_workload_implicit, sc_workload_implicit_dma, sc_workload_implicit_stash, sc_workload_litmus, sc_workload_tester;

static const sc_workload *const suite[] = {
    &sc_workload_vecadd, &sc_workload_nn, &sc_workload_reduction, &sc_workload_histogram, &sc_workload_spmv,
    &sc_workload_bfs, &sc_workload_stencil, &sc_workload_matmul, &sc_workload_dct, &sc_workload_nw,
    &sc_workload_kmeans, &sc_workload_backprop, &sc_workload_lud, &sc_workload_sort, &sc_workload_sssp, &sc_workload_apsp,
    &sc_workload_uts, &sc_workload_utsd, &sc_workload_hashtable,
    /* Ren's Table 3.4: inter-workgroup, then intra-workgroup (kmeans, nw and lud above) */
    &sc_workload_bfsmask, &sc_workload_bh, &sc_workload_cl, &sc_workload_dlb, &sc_workload_stn, &sc_workload_vpr,
    &sc_workload_hsp, &sc_workload_lps, &sc_workload_sr,
    /* GSI case study 2: local-memory organisations */
    &sc_workload_implicit, &sc_workload_implicit_dma, &sc_workload_implicit_stash,
    &sc_workload_litmus, &sc_workload_tester,
};

const sc_workload *const *sc_workload_suite(int *count)
{
    *count = (int)(sizeof suite / sizeof suite[0]);
    return suite;
}

const sc_workload *sc_workload_find(const char *name)
{
    for (size_t i = 0; i < sizeof suite / sizeof suite[0]; i++)
        if (strcmp(suite[i]->name, name) == 0)
            return suite[i];
    return NULL;
}

static const char *const size_names[] = {"tiny", "small", "large", "huge"};

const char *sc_workload_size_name(sc_workload_size size)
{
    return (unsigned)size < sizeof size_names / sizeof size_names[0] ? size_names[size] : "?";
}

int sc_workload_size_parse(const char *text, sc_workload_size *size)
{
    for (size_t i = 0; i < sizeof size_names / sizeof size_names[0]; i++)
        if (strcmp(text, size_names[i]) == 0) {
            *size = (sc_workload_size)i;
            return 0;
        }
    return -1;
}

void sc_check_pass(sc_check_result *check)
{
    check->passed = true;
    snprintf(check->detail, sizeof check->detail, "ok");
}

void sc_check_fail(sc_check_result *check, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    check->passed = false;
    vsnprintf(check->detail, sizeof check->detail, format, args);
    va_end(args);
}
