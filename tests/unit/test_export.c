/* test_export.c — the export layer: result tables from SQL, CSV quoting, JSON round trip,
 * notebook structure and Python validity, SVG well-formedness, bar heights proportional to the
 * data, GSI report figures from a small fixture database, and read-only database errors.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/files.h"
#include "export/breakdown.h"
#include "export/database.h"
#include "export/formats.h"
#include "export/output.h"
#include "cli/options.h"
#include "export/report.h"
#include "export/svg.h"
#include "export/table.h"

/* ---- helpers ---------------------------------------------------------------------------- */

static char temporary_directory[] = "/tmp/syncscope_test_export_XXXXXX";

static int make_directory(void **state)
{
    return mkdtemp(temporary_directory) ? 0 : -1;
}

static void temporary_path(const char *name, char *out, size_t size)
{
    snprintf(out, size, "%s/%s", temporary_directory, name);
}

static int python_available(void)
{
    return system("python3 -c 'import ast, json, xml.etree.ElementTree' >/dev/null 2>&1") == 0;
}

/* Runs `python3 -c PROGRAM FILE`, returning its exit status. */
static int run_python(const char *program, const char *file)
{
    char command[4096];
    snprintf(command, sizeof command, "python3 -c \"%s\" '%s'", program, file);
    return system(command);
}

/* Checks that every element opened in `xml` is closed in order and that every '&' starts one of
 * the five XML entities: enough to catch an unescaped label or a missing close tag. */
static int xml_is_balanced(const char *xml)
{
    char stack[64][32];
    int depth = 0;
    for (const char *c = xml; *c; c++) {
        if (*c == '&') {
            static const char *const entities[] = {"&amp;", "&lt;", "&gt;", "&quot;", "&apos;"};
            int known = 0;
            for (size_t e = 0; e < 5; e++)
                known |= !strncmp(c, entities[e], strlen(entities[e]));
            if (!known)
                return 0;
        }
        if (*c != '<')
            continue;
        if (c[1] == '?') {
            c = strstr(c, "?>");
            if (!c)
                return 0;
            continue;
        }
        int closing = c[1] == '/';
        const char *name = c + 1 + closing;
        size_t length = strcspn(name, " />\n");
        const char *end = name;
        int quoted = 0;
        while (*end && (quoted || *end != '>')) {
            quoted ^= *end == '"';
            end++;
        }
        if (!*end || length == 0 || length >= 32)
            return 0;
        if (closing) {
            if (depth == 0 || strncmp(stack[depth - 1], name, length) || stack[depth - 1][length])
                return 0;
            depth--;
        } else if (end[-1] != '/') {
            if (depth == 64)
                return 0;
            snprintf(stack[depth++], 32, "%.*s", (int)length, name);
        }
        c = end;
    }
    return depth == 0;
}

/* Heights of the <rect class="`css_class`"> elements in document order. */
static size_t rect_heights(const char *svg, const char *css_class, double *heights, size_t capacity)
{
    char pattern[64];
    snprintf(pattern, sizeof pattern, "<rect class=\"%s\"", css_class);
    size_t count = 0;
    for (const char *at = strstr(svg, pattern); at && count < capacity; at = strstr(at + 1, pattern)) {
        const char *height = strstr(at, " height=\"");
        assert_non_null(height);
        heights[count++] = strtod(height + 9, NULL);
    }
    return count;
}

static void write_text(const char *path, const char *text)
{
    sc_error error;
    assert_int_equal(sc_output_write(path, text, &error), 0);
}

static sqlite3 *fixture_database(void)
{
    static const char schema_and_rows[] =
        "CREATE TABLE runs(id INTEGER PRIMARY KEY, system TEXT, mechanism TEXT, workload TEXT,"
        "  mode TEXT, config_json TEXT, status TEXT);"
        "CREATE TABLE metrics(run_id INTEGER, kernel_index INTEGER, name TEXT, value REAL, unit TEXT);"
        "CREATE TABLE stalls(run_id INTEGER, cu INTEGER, category TEXT, subcategory TEXT, cycles INTEGER);"
        "INSERT INTO runs VALUES (1,'gsi','gpu_coherence','uts','detailed','{}','done'),"
        "  (2,'gsi','denovo','uts','detailed','{}','done'), (3,'gsi','gpu_coherence','utsd','detailed','{}','done');"
        "INSERT INTO metrics VALUES (1,0,'cycles',1000,'cycles'), (2,0,'cycles',800,'cycles');"
        /* run 1: category rows plus subcategory rows that must not be counted twice */
        "INSERT INTO stalls VALUES (1,-1,'no_stall',NULL,500), (1,-1,'sync',NULL,200),"
        "  (1,-1,'mem_data',NULL,300), (1,-1,'mem_data','l2',200), (1,-1,'mem_data','dram',100),"
        /* run 2: only subcategory rows for mem_data, and a mem_struct category without subs */
        "  (2,-1,'NO_STALL','',400), (2,-1,'MEM_DATA','L2',100), (2,-1,'mem_data','remote_l1',100),"
        "  (2,-1,'mem_struct',NULL,200),"
        /* run 3: per-CU rows only */
        "  (3,0,'no_stall',NULL,300), (3,0,'idle',NULL,100), (3,1,'no_stall',NULL,200), (3,1,'sync',NULL,200);";
    sqlite3 *db;
    assert_int_equal(sqlite3_open(":memory:", &db), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db, schema_and_rows, NULL, NULL, NULL), SQLITE_OK);
    return db;
}

/* ---- result tables ---------------------------------------------------------------------- */

static void test_table_from_query_types_and_params(void **state)
{
    sqlite3 *db = fixture_database();
    sc_error error;
    sc_query_param params[] = {{"workload", "uts"}, {"least", "450"}};
    sc_table *table = sc_table_from_query(
        db, "-- heading comment\nSELECT id, mechanism, cycles * 0.5 AS half, NULL AS empty "
            "FROM runs JOIN stalls ON run_id = id WHERE workload = :workload AND cycles >= @least "
            "ORDER BY id, cycles; -- trailing comment\n",
        params, 2, &error);
    assert_non_null(table);
    assert_int_equal(table->column_count, 4);
    assert_string_equal(table->column_names[2], "half");
    assert_int_equal(table->row_count, 1);
    assert_int_equal(sc_table_cell(table, 0, 0)->type, SC_CELL_INTEGER);
    assert_int_equal(sc_table_cell(table, 0, 0)->as.integer, 1);
    assert_string_equal(sc_table_cell(table, 0, 1)->as.text, "gpu_coherence");
    assert_int_equal(sc_table_cell(table, 0, 2)->type, SC_CELL_REAL);
    assert_true(sc_table_cell(table, 0, 2)->as.real == 250.0);
    assert_int_equal(sc_table_cell(table, 0, 3)->type, SC_CELL_NULL);
    assert_int_equal(sc_table_column(table, "empty"), 3);
    assert_int_equal(sc_table_column(table, "absent"), -1);
    sc_table_free(table);
    sqlite3_close(db);
}

static void test_table_from_query_errors(void **state)
{
    sqlite3 *db = fixture_database();
    sc_error error;
    sc_query_param unused = {"unused", "1"};
    assert_null(sc_table_from_query(db, "SELECT * FROM runs WHERE id = :run", NULL, 0, &error));
    assert_non_null(strstr(error.message, ":run"));
    assert_null(sc_table_from_query(db, "SELECT 1", &unused, 1, &error));
    assert_non_null(strstr(error.message, "'unused' is not used"));
    assert_null(sc_table_from_query(db, "SELECT 1; SELECT 2;", NULL, 0, &error));
    assert_non_null(strstr(error.message, "more than one"));
    assert_null(sc_table_from_query(db, "DELETE FROM runs", NULL, 0, &error));
    assert_non_null(strstr(error.message, "modify"));
    assert_null(sc_table_from_query(db, "SELEC 1", NULL, 0, &error));
    assert_non_null(strstr(error.message, "SQL error"));
    assert_null(sc_table_from_query(db, "SELECT x'00ff'", NULL, 0, &error));
    assert_non_null(strstr(error.message, "BLOB"));
    sqlite3_close(db);
}

/* ---- CSV and JSON ----------------------------------------------------------------------- */

static sc_table *awkward_table(void)
{
    const char *names[] = {"name", "count", "ratio", "missing"};
    sc_table *table = sc_table_new(4, names);
    const char *texts[] = {"plain", "with,comma", "with \"quotes\"", "two\nlines", "cr\rhere"};
    for (size_t i = 0; i < 5; i++) {
        sc_cell *row = sc_table_append_row(table);
        sc_cell_set_text(&row[0], texts[i]);
        sc_cell_set_integer(&row[1], i == 4 ? 1152921504606846977LL : (long long)i);
        sc_cell_set_real(&row[2], 0.1 * (double)i);
    }
    return table;
}

static void test_csv_quoting(void **state)
{
    sc_table *table = awkward_table();
    char *csv = sc_export_csv(table);
    assert_string_equal(csv,
                        "name,count,ratio,missing\n"
                        "plain,0,0.0,\n"
                        "\"with,comma\",1,0.1,\n"
                        "\"with \"\"quotes\"\"\",2,0.2,\n"
                        "\"two\nlines\",3,0.30000000000000004,\n"
                        "\"cr\rhere\",1152921504606846977,0.4,\n");
    free(csv);
    sc_table_free(table);
}

static void test_json_round_trip(void **state)
{
    sc_table *table = awkward_table();
    char *json = sc_export_json(table);
    assert_non_null(strstr(json, "1152921504606846977"));   /* exact, not rounded to a double */
    cJSON *rows = cJSON_Parse(json);
    assert_non_null(rows);
    assert_int_equal(cJSON_GetArraySize(rows), 5);
    for (int i = 0; i < 5; i++) {
        cJSON *row = cJSON_GetArrayItem(rows, i);
        const sc_cell *name = sc_table_cell(table, (size_t)i, 0);
        assert_string_equal(cJSON_GetObjectItem(row, "name")->valuestring, name->as.text);
        assert_true(cJSON_GetObjectItem(row, "ratio")->valuedouble == sc_table_cell(table, (size_t)i, 2)->as.real);
        assert_true(cJSON_IsNull(cJSON_GetObjectItem(row, "missing")));
        if (i < 4)
            assert_int_equal(cJSON_GetObjectItem(row, "count")->valueint, i);
    }
    assert_string_equal(cJSON_GetArrayItem(rows, 0)->child->string, "name");   /* column order */
    cJSON_Delete(rows);
    free(json);
    sc_table_free(table);
}

/* Infinity and NaN: null in JSON (which has neither), inf/nan in CSV and the aligned table;
 * whole reals keep ".0" in every writer, so a real never reads as an integer. */
static void test_non_finite_and_whole_reals(void **state)
{
    (void)state;
    const char *names[] = {"value"};
    sc_table *table = sc_table_new(1, names);
    const double values[] = {INFINITY, -INFINITY, NAN, 2.0};
    for (size_t i = 0; i < 4; i++)
        sc_cell_set_real(sc_table_append_row(table), values[i]);
    char *json = sc_export_json(table), *csv = sc_export_csv(table), *aligned = sc_export_aligned(table);
    cJSON *rows = cJSON_Parse(json);
    assert_non_null(rows);
    for (int i = 0; i < 3; i++)
        assert_true(cJSON_IsNull(cJSON_GetObjectItem(cJSON_GetArrayItem(rows, i), "value")));
    assert_non_null(strstr(json, "2.0"));
    assert_string_equal(csv, "value\ninf\n-inf\nnan\n2.0\n");
    assert_string_equal(aligned, "value\n-----\n  inf\n -inf\n  nan\n  2.0\n(4 rows)\n");
    cJSON_Delete(rows);
    free(json);
    free(csv);
    free(aligned);
    sc_table_free(table);
}

/* ---- notebook --------------------------------------------------------------------------- */

static void test_notebook_structure(void **state)
{
    sqlite3 *db = fixture_database();
    sc_error error;
    sc_table *table = sc_table_from_query(db, "SELECT workload, mechanism, category, subcategory, cycles "
                                              "FROM runs JOIN stalls ON run_id = id", NULL, 0, &error);
    assert_non_null(table);
    const sc_query_param params[] = {{"baseline", "w\"t'"}};
    sc_notebook_spec spec = {.title = "stall \"breakdown\"", .question = "where?", .csv_path = "it's here.csv",
                             .stem = "it's here", .sql = "SELECT 1 -- \"\"\"", .params = params, .param_count = 1,
                             .plot_code = "grouped_bars(plt.gca(), data, \"workload\", \"cycles\", \"f\", series=\"mechanism\")\n",
                             .table = table};
    char *text = sc_export_notebook(&spec);
    cJSON *notebook = cJSON_Parse(text);
    assert_non_null(notebook);
    assert_int_equal(cJSON_GetObjectItem(notebook, "nbformat")->valueint, 4);
    assert_true(cJSON_IsNumber(cJSON_GetObjectItem(notebook, "nbformat_minor")));
    cJSON *kernelspec = cJSON_GetObjectItem(cJSON_GetObjectItem(notebook, "metadata"), "kernelspec");
    assert_string_equal(cJSON_GetObjectItem(kernelspec, "name")->valuestring, "python3");
    cJSON *cells = cJSON_GetObjectItem(notebook, "cells");
    assert_true(cJSON_GetArraySize(cells) >= 5);
    cJSON *cell;
    int code_cells = 0;
    cJSON_ArrayForEach(cell, cells) {
        assert_true(cJSON_IsString(cJSON_GetObjectItem(cell, "id")));
        assert_true(cJSON_IsArray(cJSON_GetObjectItem(cell, "source")));
        assert_true(cJSON_IsObject(cJSON_GetObjectItem(cell, "metadata")));
        if (!strcmp(cJSON_GetObjectItem(cell, "cell_type")->valuestring, "code")) {
            code_cells++;
            assert_true(cJSON_IsArray(cJSON_GetObjectItem(cell, "outputs")));
            assert_true(cJSON_IsNull(cJSON_GetObjectItem(cell, "execution_count")));
        }
    }
    assert_int_equal(code_cells, 4);   /* settings, helpers, the plot cell, saving what was drawn */
    assert_non_null(strstr(text, "grouped_bars(plt.gca()"));   /* the query's own plot cell */
    /* the text columns are named, so that they are read as text */
    assert_non_null(strstr(text, "TEXT_COLUMNS = [\\\"workload\\\", \\\"mechanism\\\", \\\"category\\\""));
    cJSON_Delete(notebook);

    if (python_available()) {
        char path[512];
        temporary_path("notebook.ipynb", path, sizeof path);
        write_text(path, text);
        assert_int_equal(run_python("import json, ast, sys; nb = json.load(open(sys.argv[1])); "
                                    "[ast.parse(''.join(c['source'])) for c in nb['cells'] "
                                    "if c['cell_type'] == 'code']", path), 0);
    }
    free(text);
    sc_table_free(table);
    sqlite3_close(db);
}

/* ---- SVG charts ------------------------------------------------------------------------- */

static const char *const bar_labels[] = {"base <&>", "\"quoted\" 'bar'"};
static const char *const group_labels[] = {"w1", "w2 & more"};
static const char *const segment_labels[] = {"no stall", "memory data"};
static const char *const segment_colours[] = {"#59a14f", "#4e79a7"};

static void assert_well_formed(const char *svg, const char *name)
{
    assert_true(xml_is_balanced(svg));
    if (python_available()) {
        char path[512];
        temporary_path(name, path, sizeof path);
        write_text(path, svg);
        assert_int_equal(run_python("import sys, xml.etree.ElementTree as et; "
                                    "root = et.parse(sys.argv[1]).getroot(); "
                                    "sys.exit(root.tag != '{http://www.w3.org/2000/svg}svg')", path), 0);
    }
}

static void test_stacked_bars_proportional_and_well_formed(void **state)
{
    /* values[group][bar][segment] */
    const double values[] = {0.6, 0.4, 0.3, 0.5, 0.2, 0.1, NAN, NAN};
    sc_bar_chart chart = {"stalls <normalised>", "cycles / baseline", SC_BARS_STACKED, 2, group_labels,
                          2, bar_labels, 2, segment_labels, segment_colours, values, NULL, NULL, 1.0, 0};
    sc_error error;
    char *svg = sc_svg_bar_chart(&chart, &error);
    assert_non_null(svg);
    assert_well_formed(svg, "stacked.svg");
    assert_non_null(strstr(svg, "base &lt;&amp;&gt;"));
    assert_null(strstr(svg, "nan"));
    double heights[16];
    size_t count = rect_heights(svg, "segment", heights, 16);
    assert_int_equal(count, 6);                   /* the missing bar draws nothing */
    const double drawn[] = {0.6, 0.4, 0.3, 0.5, 0.2, 0.1};
    for (size_t i = 0; i < count; i++)
        assert_true(fabs(heights[i] / drawn[i] - heights[0] / drawn[0]) < 0.05);
    assert_non_null(strstr(svg, ">1.00<"));      /* the first stack's total above it */

    char *again = sc_svg_bar_chart(&chart, &error);
    assert_string_equal(svg, again);              /* deterministic */
    free(again);
    free(svg);
}

static void test_grouped_bars_with_geomean(void **state)
{
    const double values[] = {2.0, 1.0, 8.0, 1.0};
    const char *const series[] = {"quickrelease", "baseline"};
    sc_bar_chart chart = {"speedup", "speedup", SC_BARS_GROUPED, 2, group_labels, 2, series,
                          1, NULL, NULL, values, NULL, NULL, 1.0, 1};
    sc_error error;
    char *svg = sc_svg_bar_chart(&chart, &error);
    assert_non_null(svg);
    assert_well_formed(svg, "grouped.svg");
    assert_non_null(strstr(svg, ">geomean<"));
    assert_non_null(strstr(svg, ">4.00<"));       /* sqrt(2 * 8) */
    double heights[8];
    assert_int_equal(rect_heights(svg, "bar", heights, 8), 6);
    assert_true(fabs(heights[2] / heights[0] - 4.0) < 0.05);
    free(svg);

    const double negative[] = {2.0, -1.0, 8.0, 1.0};
    chart.values = negative;
    assert_null(sc_svg_bar_chart(&chart, &error));
    assert_non_null(strstr(error.message, "positive"));
}

/* A chart of 30 groups of 7 bars wraps onto rows that fit a page; ratios from 0.05 to 20 get a
 * logarithmic axis, on which a bar's height grows with the log of its value. */
static void test_wide_bars_wrap_and_log_axis(void **state)
{
    (void)state;
    enum { GROUPS = 30, BARS = 7 };
    double values[GROUPS * BARS];
    const char *groups[GROUPS], *bars[BARS] = {"a", "b", "c", "d", "e", "f", "g"};
    char names[GROUPS][8];
    for (int g = 0; g < GROUPS; g++) {
        snprintf(names[g], sizeof names[g], "w%d", g);
        groups[g] = names[g];
        for (int b = 0; b < BARS; b++)
            values[g * BARS + b] = g == 0 && b == 0 ? 20.0 : g == 0 && b == 1 ? 0.05 : 1.0;
    }
    sc_bar_chart chart = {"ratios", "mechanism / baseline", SC_BARS_GROUPED, GROUPS, groups, BARS, bars,
                          1, NULL, NULL, values, NULL, NULL, 1.0, 0};
    sc_error error;
    char *svg = sc_svg_bar_chart(&chart, &error);
    assert_non_null(svg);
    assert_well_formed(svg, "wide.svg");
    double width = strtod(strstr(svg, "width=\"") + 7, NULL), height = strtod(strstr(svg, "height=\"") + 8, NULL);
    assert_true(width <= 1300);               /* fits a page (the old strip was ~5000 px wide) */
    assert_true(height > 2 * 300);            /* on more than two rows of 300 px plots */
    assert_non_null(strstr(svg, "(log scale)"));
    double heights[GROUPS * BARS];
    assert_int_equal(rect_heights(svg, "bar", heights, GROUPS * BARS), GROUPS * BARS);
    /* log axis: 20 stands as far above 1 as 1 above 0.05 (20 = 1 / 0.05) */
    assert_true(fabs((heights[0] - heights[2]) - (heights[2] - heights[1])) < 0.5);
    free(svg);
}

/* A sweep over sizes is labelled in binary units at the values swept. */
static void test_line_chart_in_bytes(void **state)
{
    (void)state;
    const double x[] = {24576, 49152, 1048576}, y[] = {1.0, 0.9, 0.8};
    sc_line_series series[] = {{"wt", 3, x, y}};
    sc_line_chart chart = {"cycles against l1.size", "l1.size", "cycles / preset cycles", 0, 1, series,
                           SC_UNIT_BYTES};
    sc_error error;
    char *svg = sc_svg_line_chart(&chart, &error);
    assert_non_null(svg);
    assert_non_null(strstr(svg, ">24 KiB<"));
    assert_non_null(strstr(svg, ">48 KiB<"));
    assert_non_null(strstr(svg, ">1 MiB<"));
    assert_null(strstr(svg, ">24576<"));
    free(svg);
}

static void test_line_chart(void **state)
{
    const double x[] = {8, 16, 32, 64}, fast[] = {100, 80, 70, 65}, slow[] = {120, NAN, 90, 88};
    sc_line_series series[] = {{"stash & dma", 4, x, fast}, {"scratchpad", 4, x, slow}};
    sc_line_chart chart = {"cycles vs MSHR <entries>", "MSHR entries", "cycles", 1, 2, series, SC_UNIT_NONE};
    sc_error error;
    char *svg = sc_svg_line_chart(&chart, &error);
    assert_non_null(svg);
    assert_well_formed(svg, "lines.svg");
    assert_int_equal(strstr(svg, "<polyline") != NULL, 1);
    size_t circles = 0;
    for (const char *at = strstr(svg, "<circle"); at; at = strstr(at + 1, "<circle"))
        circles++;
    assert_int_equal(circles, 4 + 3 + 2);         /* markers (NAN skipped) + legend markers */
    assert_non_null(strstr(svg, ">20<"));         /* a 1-2-5 tick on the log axis */
    free(svg);

    const double bad_x[] = {0, 1, 2, 3};
    series[0].x = bad_x;
    assert_null(sc_svg_line_chart(&chart, &error));
    assert_non_null(strstr(error.message, "logarithmic"));
}

/* ---- GSI breakdowns and reports --------------------------------------------------------- */

static void test_breakdown_levels(void **state)
{
    sqlite3 *db = fixture_database();
    sc_error error;
    const long long runs[] = {1, 2, 3};
    sc_table *breakdown = sc_breakdown_for_runs(db, runs, 3, &error);
    assert_non_null(breakdown);
    assert_true(sc_breakdown_cycles(breakdown, 1, NULL, "mem_data") == 300);   /* not 600 */
    assert_true(sc_breakdown_cycles(breakdown, 2, NULL, "mem_data") == 200);   /* from subs */
    assert_true(sc_breakdown_total(breakdown, 1) == 1000);
    assert_true(sc_breakdown_total(breakdown, 3) == 400);                      /* CU mean */
    const char **names;
    size_t count = sc_breakdown_names(breakdown, "mem_data", &names);
    assert_int_equal(count, 3);
    assert_string_equal(names[0], "l2");          /* GSI order: l2, remote_l1, dram */
    assert_string_equal(names[1], "remote_l1");
    assert_string_equal(names[2], "dram");
    free(names);
    sc_table_free(breakdown);
    sqlite3_close(db);
}

static void test_report_figures(void **state)
{
    sqlite3 *db = fixture_database();
    sc_error error;
    const long long runs[] = {1, 2, 3};
    sc_report_options options = {NULL, "gpu_coherence"};
    char *svg = sc_report_runs_figure(db, runs, 3, NULL, &options, &error);
    assert_non_null(svg);
    assert_well_formed(svg, "report.svg");
    /* uts: gpu_coherence 500+200+300 = 1.00, denovo 400+200+200 = 0.80 of it; utsd 1.00 */
    assert_non_null(strstr(svg, ">1.00<"));
    assert_non_null(strstr(svg, ">0.80<"));
    double heights[16];
    size_t count = rect_heights(svg, "segment", heights, 16);
    assert_int_equal(count, 3 + 3 + 3);
    /* no_stall: run 1 500/1000, run 2 400/1000 (same baseline), run 3 500/800 (own workload) */
    assert_true(fabs(heights[0] / heights[3] - 500.0 / 400.0) < 0.02);
    assert_true(fabs(heights[0] / heights[6] - 0.5 / 0.625) < 0.02);
    free(svg);

    char directory[512];
    temporary_path("report", directory, sizeof directory);
    assert_int_equal(sc_report_write_gsi(db, runs, 3, &options, directory, &error), 0);
    const char *files[] = {"stalls_overall.svg", "stalls_mem_data.svg", "stalls_mem_struct.svg"};
    for (size_t i = 0; i < 3; i++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", directory, files[i]);
        char *text = sc_read_file(path, NULL, &error);
        assert_non_null(text);
        assert_true(xml_is_balanced(text));
        free(text);
    }

    options.baseline = "missing_mechanism";
    assert_int_equal(sc_report_write_gsi(db, runs, 3, &options, directory, &error), -1);
    assert_non_null(strstr(error.message, "missing_mechanism"));
    const long long absent[] = {99};
    assert_null(sc_report_runs_figure(db, absent, 1, NULL, NULL, &error));
    assert_non_null(strstr(error.message, "run 99 not found"));

    char *per_cu = sc_report_cu_figure(db, 3, NULL, &error);
    assert_non_null(per_cu);
    assert_true(xml_is_balanced(per_cu));
    assert_non_null(strstr(per_cu, ">CU 1<"));
    free(per_cu);
    sqlite3_close(db);
}

/* ---- database opening ------------------------------------------------------------------- */

static void test_database_errors(void **state)
{
    sc_error error;
    char path[512];
    temporary_path("absent.sqlite", path, sizeof path);
    assert_null(sc_database_open_readonly(path, &error));
    assert_non_null(strstr(error.message, "no database"));
    temporary_path("garbage.sqlite", path, sizeof path);
    write_text(path, "this is certainly not an SQLite database, just some text long enough........"
                     "..............................................................................");
    assert_null(sc_database_open_readonly(path, &error));
    assert_non_null(strstr(error.message, "not a readable SQLite database"));
    assert_string_equal(cli_database_path("given.sqlite"), "given.sqlite");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table_from_query_types_and_params),
        cmocka_unit_test(test_table_from_query_errors),
        cmocka_unit_test(test_csv_quoting),
        cmocka_unit_test(test_json_round_trip),
        cmocka_unit_test(test_non_finite_and_whole_reals),
        cmocka_unit_test(test_notebook_structure),
        cmocka_unit_test(test_stacked_bars_proportional_and_well_formed),
        cmocka_unit_test(test_grouped_bars_with_geomean),
        cmocka_unit_test(test_wide_bars_wrap_and_log_axis),
        cmocka_unit_test(test_line_chart_in_bytes),
        cmocka_unit_test(test_line_chart),
        cmocka_unit_test(test_breakdown_levels),
        cmocka_unit_test(test_report_figures),
        cmocka_unit_test(test_database_errors),
    };
    return cmocka_run_group_tests(tests, make_directory, NULL);
}
