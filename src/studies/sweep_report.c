/* sweep_report.c — the sensitivity report of a sweep, from its stored runs (see sweep_report.h). */
#include "studies/sweep_report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/names.h"
#include "export/output.h"
#include "export/svg.h"
#include "model/sensitivity.h"

typedef struct cycles_table {
    const sweep_report_input *input;
    double *cycles;              /* [(mechanism * workload_count + workload) * points + point]; 0 = missing */
    int64_t found;
    int64_t duplicates;          /* runs of a cell already found */
} cycles_table;

static double *cycles_of(const cycles_table *table, int mechanism, int workload)
{
    return table->cycles + ((size_t)mechanism * (size_t)table->input->workload_count + (size_t)workload) *
                               (size_t)table->input->design->count;
}

static int collect_cycles(void *context, int columns, const char *const *names, const char *const *values,
                          const sc_value_kind *kinds)
{
    (void)columns, (void)names, (void)kinds;
    cycles_table *table = context;
    if (!values)
        return 0;
    const sweep_report_input *input = table->input;
    int m = sc_name_index(input->mechanisms, input->mechanism_count, values[0]);
    int w = sc_name_index(input->workloads, input->workload_count, values[1]);
    int64_t point = atoll(values[2]);
    if (m < 0 || w < 0 || point < 0 || point >= input->design->count || !values[3])
        return 0;
    double *cell = &cycles_of(table, m, w)[point];
    table->duplicates += *cell != 0;
    table->found += *cell == 0;
    *cell = atof(values[3]);
    return 0;
}

static int load_cycles(sc_store *store, cycles_table *table, sc_error *error)
{
    char sweep[32];
    snprintf(sweep, sizeof sweep, "%lld", (long long)table->input->sweep_id);
    sc_query_param params[] = {{"sweep", sweep}, {"mode", table->input->design->spec->mode}};
    return sc_store_query(store,
                          "SELECT r.mechanism, r.workload, p.point_index, r.cycles FROM runs r"
                          " JOIN sweep_points p ON p.id = r.sweep_point_id"
                          " WHERE p.sweep_id = :sweep AND r.mode = :mode AND r.status = 'ok'",
                          params, 2, collect_cycles, table, error);
}

static const char *design_name(sweep_design_kind kind)
{
    static const char *const names[] = {"grid", "random", "lhs", "oat", "morris"};
    return names[kind];
}

/* Mean over workloads of each axis's sensitivity for one mechanism; prints one row per axis. */
static void report_sensitivity(const cycles_table *table, int mechanism, double *mean_value, FILE *out)
{
    const sweep_report_input *input = table->input;
    const sweep_spec *spec = input->design->spec;
    double sum[SWEEP_MAX_AXES] = {0}, spread[SWEEP_MAX_AXES] = {0}, largest[SWEEP_MAX_AXES] = {0};
    int largest_workload[SWEEP_MAX_AXES] = {0}, counted[SWEEP_MAX_AXES] = {0};
    for (int w = 0; w < input->workload_count; w++) {
        sensitivity result[SWEEP_MAX_AXES];
        if (spec->design == SWEEP_OAT)
            sensitivity_oat(input->design, cycles_of(table, mechanism, w), result);
        else
            sensitivity_morris(input->design, cycles_of(table, mechanism, w), result);
        for (int a = 0; a < spec->axis_count; a++) {
            if (!result[a].samples)
                continue;
            sum[a] += result[a].value;
            spread[a] += result[a].spread;
            counted[a]++;
            if (fabs(result[a].value) > fabs(largest[a])) {
                largest[a] = result[a].value;
                largest_workload[a] = w;
            }
        }
    }
    for (int a = 0; a < spec->axis_count; a++) {
        mean_value[a] = counted[a] ? sum[a] / counted[a] : NAN;
        fprintf(out, "%-10s %-26s %10.3f", input->mechanisms[mechanism], spec->axes[a].key, mean_value[a]);
        if (spec->design == SWEEP_MORRIS)
            fprintf(out, " %10.3f", counted[a] ? spread[a] / counted[a] : NAN);
        fprintf(out, " %10.3f  %s\n", largest[a], counted[a] ? input->workloads[largest_workload[a]] : "-");
    }
}

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* For designs without a sensitivity measure: the spread of cycles over the points. */
static void report_spread(const cycles_table *table, FILE *out)
{
    const sweep_report_input *input = table->input;
    int64_t count = input->design->count;
    double *sorted = malloc((size_t)count * sizeof *sorted);
    fprintf(out, "%-10s %-12s %8s %14s %14s %14s %8s\n", "mechanism", "workload", "points", "min cycles",
            "median", "max cycles", "best");
    for (int m = 0; m < input->mechanism_count; m++) {
        for (int w = 0; w < input->workload_count; w++) {
            const double *cycles = cycles_of(table, m, w);
            int64_t n = 0, best = -1;
            for (int64_t p = 0; p < count; p++) {
                if (cycles[p] > 0) {
                    sorted[n++] = cycles[p];
                    if (best < 0 || cycles[p] < cycles[best])
                        best = p;
                }
            }
            if (n == 0)
                continue;
            qsort(sorted, (size_t)n, sizeof *sorted, compare_doubles);
            double median = n % 2 ? sorted[n / 2] : 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]);
            fprintf(out, "%-10s %-12s %8lld %14.0f %14.0f %14.0f %8lld\n", input->mechanisms[m], input->workloads[w],
                    (long long)n, sorted[0], median, sorted[n - 1], (long long)best);
        }
    }
    free(sorted);
}

static int write_figure(const char *directory, const char *name, const char *suffix, char *svg, sc_error *error)
{
    if (!svg)
        return -1;
    char path[1024];
    snprintf(path, sizeof path, "%s/sweep-%s-%s.svg", directory, name, suffix);
    int status = sc_output_write_figure(path, svg, error);
    free(svg);
    return status;
}

/* oat: cycles against each numeric parameter, geometric mean over workloads of cycles relative to
 * the preset point, one line per mechanism. */
static int draw_oat(const cycles_table *table, const char *directory, sc_error *error)
{
    const sweep_report_input *input = table->input;
    const sweep_spec *spec = input->design->spec;
    int64_t first = 1;
    for (int a = 0; a < spec->axis_count; first += spec->axes[a].count, a++) {
        const sweep_axis *axis = &spec->axes[a];
        if (axis->kind == SWEEP_AXIS_LIST && axis->words[0])
            continue;
        double x[SWEEP_MAX_VALUES], y[SWEEP_MAX_NAMES][SWEEP_MAX_VALUES];
        sc_line_series series[SWEEP_MAX_NAMES];
        bool positive = true;
        for (int level = 0; level < axis->count; level++) {
            x[level] = sweep_axis_level(axis, level);
            positive &= x[level] > 0;
        }
        for (int m = 0; m < input->mechanism_count; m++) {
            for (int level = 0; level < axis->count; level++) {
                double log_sum = 0;
                int n = 0;
                for (int w = 0; w < input->workload_count; w++) {
                    const double *cycles = cycles_of(table, m, w);
                    if (cycles[0] > 0 && cycles[first + level] > 0) {
                        log_sum += log(cycles[first + level] / cycles[0]);
                        n++;
                    }
                }
                y[m][level] = n ? exp(log_sum / n) : NAN;
            }
            series[m] = (sc_line_series){input->mechanisms[m], (size_t)axis->count, x, y[m]};
        }
        char title[768];
        snprintf(title, sizeof title, "%s: cycles against %s, others at the %s preset", spec->name, axis->key,
                 spec->system);
        sc_line_chart chart = {
            .title = title, .x_label = axis->key, .y_label = "cycles / preset cycles (geomean over workloads)",
            .log_x = axis->kind == SWEEP_AXIS_LOG_RANGE && positive,
            .x_unit = axis->type == SC_KEY_SIZE ? SC_UNIT_BYTES : axis->type == SC_KEY_FREQUENCY ? SC_UNIT_HERTZ
                                                                                            : SC_UNIT_NONE,
            .series_count = (size_t)input->mechanism_count, .series = series,
        };
        if (write_figure(directory, spec->name, axis->key, sc_svg_line_chart(&chart, error), error) < 0)
            return -1;
    }
    return 0;
}

/* oat and morris: the table, and the mean sensitivity per parameter and mechanism as bars. */
static int report_sensitivities(const cycles_table *table, const char *directory, FILE *out, sc_error *error)
{
    const sweep_report_input *input = table->input;
    const sweep_spec *spec = input->design->spec;
    bool morris = spec->design == SWEEP_MORRIS;
    fprintf(out, "%-10s %-26s %10s", "mechanism", "parameter", morris ? "mu*" : "elasticity");
    if (morris)
        fprintf(out, " %10s", "sigma");
    fprintf(out, " %10s  %s\n", "largest", "in workload");
    double *values = calloc((size_t)spec->axis_count * (size_t)input->mechanism_count, sizeof *values);
    double mean[SWEEP_MAX_AXES];
    for (int m = 0; m < input->mechanism_count; m++) {
        report_sensitivity(table, m, mean, out);
        for (int a = 0; a < spec->axis_count; a++)
            values[(size_t)a * (size_t)input->mechanism_count + (size_t)m] = mean[a];
    }
    const char *axis_names[SWEEP_MAX_AXES];
    for (int a = 0; a < spec->axis_count; a++)
        axis_names[a] = spec->axes[a].key;
    char title[768];
    snprintf(title, sizeof title, "%s on %s: %s of cycles per parameter (mean over workloads)", spec->name,
             spec->system, morris ? "Morris mu* (log cycles per unit range)" : "elasticity");
    sc_bar_chart chart = {
        .title = title, .y_label = morris ? "mu*" : "d ln cycles / d ln parameter", .style = SC_BARS_GROUPED,
        .group_count = (size_t)spec->axis_count, .group_labels = axis_names,
        .bar_count = (size_t)input->mechanism_count, .bar_labels = input->mechanisms,
        .segment_count = 1, .values = values,
    };
    int status = write_figure(directory, spec->name, morris ? "morris" : "elasticity", sc_svg_bar_chart(&chart, error),
                              error);
    free(values);
    if (status == 0 && !morris)
        status = draw_oat(table, directory, error);
    return status;
}

int sweep_report(sc_store *store, const sweep_report_input *input, const char *directory, FILE *out, sc_error *error)
{
    const sweep_spec *spec = input->design->spec;
    size_t cells = (size_t)input->mechanism_count * (size_t)input->workload_count * (size_t)input->design->count;
    cycles_table table = {.input = input, .cycles = calloc(cells, sizeof(double))};
    if (!table.cycles)
        return sc_fail(error, "sweep %s: out of memory for %zu results", spec->name, cells);
    int status = load_cycles(store, &table, error);
    if (status == 0 && table.duplicates)
        status = sc_fail(error, "sweep %s: %lld stored runs repeat a mechanism x workload of their point (left by an "
                         "interrupted sweep run again by an older syncscope): run syncscope db check, then db repair "
                         "and the sweep again", spec->name, (long long)table.duplicates);
    if (status == 0) {
        fprintf(out, "sweep %s on %s: %s design, %lld points x %d mechanisms x %d workloads; %lld of %zu %s runs "
                     "found%s\n",
                spec->name, spec->system, design_name(spec->design), (long long)input->design->count,
                input->mechanism_count, input->workload_count, (long long)table.found, cells, spec->mode,
                (size_t)table.found < cells ? " (run the sweep again to complete it, or merge the other shards)" : "");
        if (spec->design == SWEEP_OAT || spec->design == SWEEP_MORRIS) {
            status = sc_output_make_directories(directory, error);
            if (status == 0)
                status = report_sensitivities(&table, directory, out, error);
            if (status == 0)
                fprintf(out, "figures in %s/sweep-%s-*.svg\n", directory, spec->name);
        } else {
            report_spread(&table, out);
        }
    }
    free(table.cycles);
    return status;
}
