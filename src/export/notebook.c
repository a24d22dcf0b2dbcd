/* notebook.c — a ready-to-run Jupyter notebook for an exported CSV (see formats.h).
 *
 * The notebook is nbformat 4.5 JSON built with cJSON. Its Python is fixed text except for a
 * few generated literals: the CSV path, the GSI colours (from stall_palette.c, so notebook and
 * SVG charts agree) and the plot choices preset from the exported columns. String literals are
 * written by cJSON, whose JSON string syntax is also valid Python.
 */
#include "export/formats.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export/stall_palette.h"
#include "export/strbuf.h"

static const char setup_code[] =
    "import numpy as np\n"
    "import pandas as pd\n"
    "import matplotlib.pyplot as plt\n"
    "\n"
    "data = pd.read_csv(CSV_PATH)\n"
    "data.head()\n";

static const char helpers_code[] =
    "def top_level(frame):\n"
    "    \"\"\"One row per category: the category's own row, else the sum of its subcategories.\"\"\"\n"
    "    if \"subcategory\" not in frame.columns:\n"
    "        return frame\n"
    "    keys = [k for k in (GROUP, SERIES) if k in frame.columns] + [\"category\"]\n"
    "    whole = frame[frame[\"subcategory\"].isna()]\n"
    "    parts = frame[frame[\"subcategory\"].notna()].set_index(keys)\n"
    "    parts = parts[~parts.index.isin(whole.set_index(keys).index)].reset_index()\n"
    "    return pd.concat([whole, parts], ignore_index=True)\n"
    "\n"
    "\n"
    "def baseline_totals(frame):\n"
    "    \"\"\"Total cycles of each bar's baseline: BASELINE (else the first SERIES) in its GROUP.\"\"\"\n"
    "    keys = [k for k in (GROUP, SERIES) if k in frame.columns]\n"
    "    totals = top_level(frame).groupby(keys, sort=False)[Y].sum()\n"
    "    def total_for(index):\n"
    "        candidates = totals.xs(index[0], level=0) if isinstance(index, tuple) else totals\n"
    "        chosen = BASELINE if BASELINE in candidates.index else candidates.index[0]\n"
    "        return candidates[chosen]\n"
    "    return total_for\n"
    "\n"
    "\n"
    "def stall_bars(frame, rows, segment_column, title):\n"
    "    \"\"\"Stacked bars of `rows` per segment, normalised to the baseline's total cycles.\"\"\"\n"
    "    keys = [k for k in (GROUP, SERIES) if k in frame.columns]\n"
    "    if rows.empty:\n"
    "        print(\"no rows for\", title)\n"
    "        return\n"
    "    cycles = rows.pivot_table(index=keys, columns=segment_column, values=Y, aggfunc=\"sum\",\n"
    "                              fill_value=0, sort=False)\n"
    "    rank = lambda c: (GSI_ORDER.index(str(c).lower()) if str(c).lower() in GSI_ORDER\n"
    "                      else len(GSI_ORDER), str(c))\n"
    "    order = sorted(cycles.columns, key=rank)\n"
    "    total_for = baseline_totals(frame)\n"
    "    normalised = cycles[order].div([total_for(i) for i in cycles.index], axis=0)\n"
    "    colours = [GSI_COLOURS.get(str(c).lower(), \"C%d\" % n) for n, c in enumerate(order)]\n"
    "    ax = normalised.plot(kind=\"bar\", stacked=True, color=colours, title=title,\n"
    "                         figsize=(max(6, 0.5 * len(normalised) + 3), 4))\n"
    "    ax.set_ylabel(\"stall cycles / baseline total cycles\")\n"
    "    labels = [\" / \".join(map(str, i)) if isinstance(i, tuple) else str(i) for i in normalised.index]\n"
    "    ax.set_xticklabels(labels, rotation=45, ha=\"right\")\n"
    "    ax.legend(bbox_to_anchor=(1.02, 1), loc=\"upper left\")\n"
    "    plt.tight_layout()\n"
    "    plt.show()\n";

static const char stalls_code[] =
    "# GSI stall breakdowns (thesis figures 6.x): needs category and Y columns, one row per\n"
    "# (GROUP, SERIES, category[, subcategory]).\n"
    "if {\"category\", Y, SERIES} <= set(data.columns):\n"
    "    stall_bars(data, top_level(data), \"category\", \"GSI stall breakdown\")\n"
    "    if \"subcategory\" in data.columns:\n"
    "        for parent, title in ((\"mem_data\", \"Memory data stalls by serving level\"),\n"
    "                              (\"mem_struct\", \"Memory structural stalls by cause\")):\n"
    "            rows = data[(data[\"category\"].str.lower() == parent) & data[\"subcategory\"].notna()]\n"
    "            stall_bars(data, rows, \"subcategory\", title)\n"
    "else:\n"
    "    print(\"skipped: stall breakdowns need columns category, %s and %s\" % (Y, SERIES))\n";

static const char speedup_code[] =
    "# Speedup per GROUP with a geometric mean: a `speedup` column, or baseline Y / Y.\n"
    "columns = set(data.columns)\n"
    "if \"category\" not in columns and {GROUP, SERIES} <= columns and (\"speedup\" in columns or Y in columns):\n"
    "    if \"speedup\" in columns:\n"
    "        speedup = data.pivot_table(index=GROUP, columns=SERIES, values=\"speedup\", sort=False)\n"
    "    else:\n"
    "        cycles = data.pivot_table(index=GROUP, columns=SERIES, values=Y, aggfunc=\"sum\", sort=False)\n"
    "        base = BASELINE if BASELINE in cycles.columns else cycles.columns[0]\n"
    "        speedup = cycles.rdiv(cycles[base], axis=0)\n"
    "    speedup.loc[\"geomean\"] = np.exp(np.log(speedup).mean())\n"
    "    ax = speedup.plot(kind=\"bar\", title=\"Speedup\", figsize=(max(6, len(speedup) + 2), 4))\n"
    "    ax.axhline(1.0, color=\"black\", linestyle=\"--\", linewidth=1)\n"
    "    ax.set_ylabel(\"speedup over baseline\")\n"
    "    ax.legend(bbox_to_anchor=(1.02, 1), loc=\"upper left\")\n"
    "    plt.tight_layout()\n"
    "    plt.show()\n"
    "else:\n"
    "    print(\"skipped: speedup bars need columns %s, %s and speedup or %s (and no category)\"\n"
    "          % (GROUP, SERIES, Y))\n";

static const char sweep_code[] =
    "# Sweep / sensitivity lines: Y against the numeric column X, one line per SERIES value.\n"
    "if X is not None and {X, Y} <= set(data.columns):\n"
    "    points = data.dropna(subset=[X, Y]).sort_values(X)\n"
    "    fig, ax = plt.subplots(figsize=(7, 4))\n"
    "    lines = points.groupby(SERIES, sort=False) if SERIES in points.columns else [(Y, points)]\n"
    "    for name, line in lines:\n"
    "        ax.plot(line[X], line[Y], marker=\"o\", label=str(name))\n"
    "    if points[X].min() > 0 and points[X].max() >= 10 * points[X].min():\n"
    "        ax.set_xscale(\"log\")\n"
    "    ax.set_xlabel(X)\n"
    "    ax.set_ylabel(Y)\n"
    "    ax.set_title(\"%s against %s\" % (Y, X))\n"
    "    ax.legend(bbox_to_anchor=(1.02, 1), loc=\"upper left\")\n"
    "    plt.tight_layout()\n"
    "    plt.show()\n"
    "else:\n"
    "    print(\"skipped: sweep lines need a numeric X column (set X above)\")\n";

/* A Python literal for `text` (None when NULL): a JSON string is a valid Python string. */
static void append_python_string(sc_strbuf *out, const char *text)
{
    if (!text) {
        sc_strbuf_append(out, "None");
        return;
    }
    cJSON *string = cJSON_CreateString(text);
    char *literal = cJSON_PrintUnformatted(string);
    if (!string || !literal)
        abort();
    sc_strbuf_append(out, literal);
    free(literal);
    cJSON_Delete(string);
}

/* A column is numeric when it has a value and every value is an integer or a real. */
static int column_is_numeric(const sc_table *table, size_t column)
{
    int seen = 0;
    for (size_t row = 0; row < table->row_count; row++) {
        sc_cell_type type = sc_table_cell(table, row, column)->type;
        if (type == SC_CELL_TEXT)
            return 0;
        seen |= type != SC_CELL_NULL;
    }
    return seen;
}

static int column_is_identifier(const char *name)
{
    size_t length = strlen(name);
    return !strcmp(name, "id") || (length > 3 && !strcmp(name + length - 3, "_id"));
}

/* The first column of `table` that is named like `preferred`, else the first text column not
 * in `taken` (NULL if none). */
static const char *pick_text_column(const sc_table *table, const char *preferred, const char *taken)
{
    if (sc_table_column(table, preferred) >= 0)
        return preferred;
    for (size_t c = 0; c < table->column_count; c++) {
        const char *name = table->column_names[c];
        if (!column_is_numeric(table, c) && (!taken || strcmp(name, taken)))
            return name;
    }
    return NULL;
}

static const char *pick_value_column(const sc_table *table)
{
    static const char *const preferred[] = {"cycles", "value", "speedup"};
    for (size_t i = 0; i < sizeof preferred / sizeof preferred[0]; i++)
        if (sc_table_column(table, preferred[i]) >= 0)
            return preferred[i];
    for (size_t c = table->column_count; c-- > 0;)
        if (column_is_numeric(table, c) && !column_is_identifier(table->column_names[c]))
            return table->column_names[c];
    return "cycles";
}

static const char *pick_x_column(const sc_table *table, const char *y)
{
    for (size_t c = 0; c < table->column_count; c++) {
        const char *name = table->column_names[c];
        if (column_is_numeric(table, c) && !column_is_identifier(name) && strcmp(name, y) &&
            strcmp(name, "cu") && strcmp(name, "kernel_index"))
            return name;
    }
    return NULL;
}

static char *settings_code(const sc_notebook_spec *spec)
{
    const sc_table *table = spec->table;
    const char *group = pick_text_column(table, "workload", NULL);
    const char *series = pick_text_column(table, "mechanism", group);
    const char *y = pick_value_column(table);
    sc_strbuf out = SC_STRBUF_INIT;
    sc_strbuf_append(&out, "# What to plot: preset from the exported columns; edit freely.\nCSV_PATH = ");
    append_python_string(&out, spec->csv_path);
    sc_strbuf_append(&out, "\n# one group of bars per value of GROUP, one bar or line per value of SERIES\nGROUP = ");
    append_python_string(&out, group ? group : "workload");
    sc_strbuf_append(&out, "\nSERIES = ");
    append_python_string(&out, series ? series : "mechanism");
    sc_strbuf_append(&out, "\n# the SERIES value bars are normalised to (None: the first in each group)\n"
                           "BASELINE = None\n# numeric column for sweep lines (None: no sweep plot)\nX = ");
    append_python_string(&out, pick_x_column(table, y));
    sc_strbuf_append(&out, "\n# the value plotted\nY = ");
    append_python_string(&out, y);
    sc_strbuf_append(&out, "\n\n# GSI stall colours, as in the SVG charts\nGSI_COLOURS = {\n");
    size_t count;
    const sc_stall_kind *kinds = sc_stall_kinds(&count);
    for (size_t i = 0; i < count; i++) {
        sc_strbuf_append(&out, "    ");
        append_python_string(&out, kinds[i].name);
        sc_strbuf_append(&out, ": ");
        append_python_string(&out, kinds[i].colour);
        sc_strbuf_append(&out, ",\n");
    }
    sc_strbuf_append(&out, "}\nGSI_ORDER = list(GSI_COLOURS)\n");
    return sc_strbuf_take(&out);
}

static char *introduction(const sc_notebook_spec *spec)
{
    sc_strbuf out = SC_STRBUF_INIT;
    sc_strbuf_appendf(&out, "# %s\n\nExported by `syncscope export`. The rows are in `%s`",
                      spec->title, spec->csv_path);
    if (spec->sql)
        sc_strbuf_appendf(&out, ", produced by this query:\n\n```sql\n%s\n```\n", spec->sql);
    else
        sc_strbuf_append(&out, ".\n");
    sc_strbuf_append(&out, "\nRun all cells. Each plot cell says which columns it needs when they "
                           "are missing; adjust the settings cell to your query's columns.\n");
    return sc_strbuf_take(&out);
}

/* nbformat stores source as a list of lines, each keeping its "\n". */
static cJSON *source_lines(const char *text)
{
    cJSON *lines = cJSON_CreateArray();
    const char *start = text;
    while (*start) {
        const char *newline = strchr(start, '\n');
        size_t length = newline ? (size_t)(newline - start) + 1 : strlen(start);
        char *line = malloc(length + 1);
        if (!line)
            abort();
        memcpy(line, start, length);
        line[length] = '\0';
        cJSON_AddItemToArray(lines, cJSON_CreateString(line));
        free(line);
        start += length;
    }
    return lines;
}

static void add_cell(cJSON *cells, const char *type, const char *text)
{
    char id[32];
    snprintf(id, sizeof id, "syncscope-%d", cJSON_GetArraySize(cells) + 1);
    cJSON *cell = cJSON_CreateObject();
    cJSON_AddStringToObject(cell, "id", id);
    cJSON_AddStringToObject(cell, "cell_type", type);
    cJSON_AddItemToObject(cell, "metadata", cJSON_CreateObject());
    if (!strcmp(type, "code")) {
        cJSON_AddNullToObject(cell, "execution_count");
        cJSON_AddItemToObject(cell, "outputs", cJSON_CreateArray());
    }
    cJSON_AddItemToObject(cell, "source", source_lines(text));
    cJSON_AddItemToArray(cells, cell);
}

static cJSON *notebook_metadata(void)
{
    cJSON *metadata = cJSON_CreateObject();
    cJSON *kernelspec = cJSON_AddObjectToObject(metadata, "kernelspec");
    cJSON_AddStringToObject(kernelspec, "display_name", "Python 3");
    cJSON_AddStringToObject(kernelspec, "language", "python");
    cJSON_AddStringToObject(kernelspec, "name", "python3");
    cJSON *language = cJSON_AddObjectToObject(metadata, "language_info");
    cJSON_AddStringToObject(language, "name", "python");
    return metadata;
}

char *sc_export_notebook(const sc_notebook_spec *spec)
{
    cJSON *notebook = cJSON_CreateObject();
    cJSON *cells = cJSON_AddArrayToObject(notebook, "cells");
    char *text = introduction(spec);
    add_cell(cells, "markdown", text);
    free(text);
    text = settings_code(spec);
    add_cell(cells, "code", text);
    free(text);
    add_cell(cells, "code", setup_code);
    add_cell(cells, "code", helpers_code);
    add_cell(cells, "code", stalls_code);
    add_cell(cells, "code", speedup_code);
    add_cell(cells, "code", sweep_code);
    cJSON_AddItemToObject(notebook, "metadata", notebook_metadata());
    cJSON_AddNumberToObject(notebook, "nbformat", 4);
    cJSON_AddNumberToObject(notebook, "nbformat_minor", 5);
    char *json = cJSON_Print(notebook);
    cJSON_Delete(notebook);
    if (!json)
        abort();
    return json;
}
