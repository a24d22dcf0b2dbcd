/* notebook.c — a ready-to-run Jupyter notebook for an exported CSV (see formats.h).
 *
 * The notebook is nbformat 4.5 JSON built with cJSON. Its Python is the fixed drawing helpers
 * below, the query's own plot cell (queries/NAME.py, written for that query's columns: nothing
 * here guesses what to plot) and a settings cell of generated literals: the CSV path, the
 * parameters, the text columns and the GSI colours (from stall_palette.c, so notebook and SVG
 * charts agree). String literals are written by cJSON, whose JSON string syntax is also valid
 * Python.
 */
#include "export/formats.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export/stall_palette.h"
#include "export/strbuf.h"

static const char helpers_code[] =
    "import json\n"
    "\n"
    "import matplotlib.pyplot as plt\n"
    "import numpy as np\n"
    "import pandas as pd\n"
    "\n"
    "# Text columns stay text (a configuration hash of digits is no number); empty fields are NaN.\n"
    "data = pd.read_csv(CSV_PATH, dtype={column: str for column in TEXT_COLUMNS},\n"
    "                   keep_default_na=False, na_values=[\"\"])\n"
    "PLOTTED = []  # every bar or segment drawn: its figure, CSV row (0: the first after the header),\n"
    "              # column and drawn height; the last cell writes them to STEM.plotted.json\n"
    "\n"
    "\n"
    "def record(figure, index, column, height):\n"
    "    \"\"\"Notes that `height` was drawn for data.loc[index, column] in `figure`.\"\"\"\n"
    "    PLOTTED.append({\"figure\": figure, \"row\": int(index), \"column\": column,\n"
    "                    \"drawn\": None if np.isnan(height) else float(height)})\n"
    "\n"
    "\n"
    "def series_of(frame, series, value):\n"
    "    \"\"\"(name, rows, column) per series: one per distinct frame[series] value of column `value`,\n"
    "    or, without `series`, one per column of the list `value` over all rows.\"\"\"\n"
    "    if series is None:\n"
    "        return [(column, frame, column) for column in value]\n"
    "    return [(name, frame[frame[series] == name], value) for name in dict.fromkeys(frame[series])]\n"
    "\n"
    "\n"
    "def grouped_bars(ax, frame, group, value, figure, series=None, colours=None):\n"
    "    \"\"\"A group of bars per distinct frame[group] (in order), a bar per series in each, as high\n"
    "    as its row's value.\"\"\"\n"
    "    groups = list(dict.fromkeys(frame[group]))\n"
    "    parts = series_of(frame, series, value)\n"
    "    width = 0.8 / len(parts)\n"
    "    for n, (name, rows, column) in enumerate(parts):\n"
    "        positions = [groups.index(g) - 0.4 + width * (n + 0.5) for g in rows[group]]\n"
    "        bars = ax.bar(positions, rows[column].astype(float), width, label=str(name),\n"
    "                      color=(colours or {}).get(name, \"C%d\" % (n % 10)))\n"
    "        for index, bar in zip(rows.index, bars.patches):\n"
    "            record(figure, index, column, bar.get_height())\n"
    "    ax.set_xticks(range(len(groups)))\n"
    "    ax.set_xticklabels([str(g) for g in groups], rotation=45, ha=\"right\")\n"
    "    ax.set_xlim(-0.6, len(groups) - 0.4)\n"
    "\n"
    "\n"
    "def stacked_bars(ax, frame, bar, value, figure, segment=None, colours=None, labels=None):\n"
    "    \"\"\"A bar per distinct frame[bar], stacked from its segments (in the order of `colours`,\n"
    "    then by name), each segment as high as its row's value.\"\"\"\n"
    "    bars = list(dict.fromkeys(frame[bar]))\n"
    "    bottoms = np.zeros(len(bars))\n"
    "    order = list(colours or {})\n"
    "    parts = sorted(series_of(frame, segment, value),\n"
    "                   key=lambda part: (order.index(part[0]) if part[0] in order else len(order), str(part[0])))\n"
    "    for n, (name, rows, column) in enumerate(parts):\n"
    "        positions = [bars.index(b) for b in rows[bar]]\n"
    "        heights = rows[column].astype(float).to_numpy()\n"
    "        drawn = ax.bar(positions, heights, 0.8, bottom=bottoms[positions], label=(labels or {}).get(name, str(name)),\n"
    "                       color=(colours or {}).get(name, \"C%d\" % (n % 10)))\n"
    "        for index, patch in zip(rows.index, drawn.patches):\n"
    "            record(figure, index, column, patch.get_height())\n"
    "        bottoms[positions] += np.nan_to_num(heights)\n"
    "    ax.set_xticks(range(len(bars)))\n"
    "    ax.set_xticklabels([str(b) for b in bars], rotation=45, ha=\"right\")\n"
    "\n"
    "\n"
    "def log_scale_if_spread(ax, values):\n"
    "    \"\"\"A logarithmic y axis when the values are all positive and span a factor of 100 or more.\"\"\"\n"
    "    values = pd.Series(np.asarray(values, dtype=float)).dropna()\n"
    "    if len(values) and (values > 0).all() and values.max() >= 100 * values.min():\n"
    "        ax.set_yscale(\"log\")\n"
    "\n"
    "\n"
    "def legend(ax):\n"
    "    ax.legend(bbox_to_anchor=(1.02, 1), loc=\"upper left\", fontsize=\"small\")\n"
    "\n"
    "\n"
    "def finish(fig, name):\n"
    "    \"\"\"Saves the figure as STEM-name.png beside the notebook and shows it.\"\"\"\n"
    "    fig.tight_layout()\n"
    "    fig.savefig(\"%s-%s.png\" % (STEM, name), dpi=150, bbox_inches=\"tight\")\n"
    "    plt.show()\n"
    "    plt.close(fig)\n";

static const char save_code[] =
    "with open(STEM + \".plotted.json\", \"w\") as out:\n"
    "    json.dump({\"csv\": CSV_PATH, \"plotted\": PLOTTED}, out, indent=1)\n"
    "print(len(PLOTTED), \"values drawn; written to\", STEM + \".plotted.json\")\n";

static const char no_plot_code[] =
    "# This query has no plot cell (a canned query's is queries/NAME.py; for FILE.sql, write FILE.py\n"
    "# beside it): here are its rows.\n"
    "data\n";

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

static void append_setting(sc_strbuf *out, const char *name, const char *value)
{
    sc_strbuf_appendf(out, "%s = ", name);
    append_python_string(out, value);
    sc_strbuf_append_char(out, '\n');
}

static char *settings_code(const sc_notebook_spec *spec)
{
    const sc_table *table = spec->table;
    sc_strbuf out = SC_STRBUF_INIT;
    sc_strbuf_append(&out, "# The exported rows, and where figures and drawn values go (beside the notebook).\n");
    append_setting(&out, "CSV_PATH", spec->csv_path);
    append_setting(&out, "STEM", spec->stem);
    sc_strbuf_append(&out, "# The parameters the query ran with.\nPARAMS = {\n");
    for (size_t i = 0; i < spec->param_count; i++) {
        sc_strbuf_append(&out, "    ");
        append_python_string(&out, spec->params[i].name);
        sc_strbuf_append(&out, ": ");
        append_python_string(&out, spec->params[i].value);
        sc_strbuf_append(&out, ",\n");
    }
    sc_strbuf_append(&out, "}\n# Columns holding text in the database, read as text.\nTEXT_COLUMNS = [");
    for (size_t c = 0; c < table->column_count; c++) {
        int text = 0;
        for (size_t row = 0; row < table->row_count && !text; row++)
            text = sc_table_cell(table, row, c)->type == SC_CELL_TEXT;
        if (text) {
            append_python_string(&out, table->column_names[c]);
            sc_strbuf_append(&out, ", ");
        }
    }
    sc_strbuf_append(&out, "]\n\n# GSI stall kinds in display order (\"category\" or \"category/subcategory\"),\n"
                           "# with the colours and labels of the SVG charts.\nSTALL_COLOURS = {\n");
    size_t count;
    const sc_stall_kind *kinds = sc_stall_kinds(&count);
    sc_strbuf labels = SC_STRBUF_INIT;
    for (size_t i = 0; i < count; i++) {
        char key[128];
        snprintf(key, sizeof key, "%s%s%s", kinds[i].parent ? kinds[i].parent : "", kinds[i].parent ? "/" : "",
                 kinds[i].name);
        sc_strbuf_append(&out, "    ");
        append_python_string(&out, key);
        sc_strbuf_append(&out, ": ");
        append_python_string(&out, kinds[i].colour);
        sc_strbuf_append(&out, ",\n");
        sc_strbuf_append(&labels, "    ");
        append_python_string(&labels, key);
        sc_strbuf_append(&labels, ": ");
        char label[256];
        snprintf(label, sizeof label, "%s%s%s", kinds[i].parent ? sc_stall_kind_find(NULL, kinds[i].parent)->label : "",
                 kinds[i].parent ? ": " : "", kinds[i].label);
        append_python_string(&labels, label);
        sc_strbuf_append(&labels, ",\n");
    }
    char *label_text = sc_strbuf_take(&labels);
    sc_strbuf_appendf(&out, "}\nSTALL_LABELS = {\n%s}\n", label_text);
    free(label_text);
    return sc_strbuf_take(&out);
}

static char *introduction(const sc_notebook_spec *spec)
{
    sc_strbuf out = SC_STRBUF_INIT;
    sc_strbuf_appendf(&out, "# %s\n\n", spec->title);
    if (spec->question)
        sc_strbuf_appendf(&out, "%s\n\n", spec->question);
    sc_strbuf_appendf(&out, "Exported by `syncscope export`. The rows are in `%s`", spec->csv_path);
    if (spec->sql)
        sc_strbuf_appendf(&out, ", produced by this query:\n\n```sql\n%s\n```\n", spec->sql);
    else
        sc_strbuf_append(&out, ".\n");
    sc_strbuf_appendf(&out, "\nRun all cells. Each figure is saved beside the notebook as `%s-NAME.png`, and "
                            "every value drawn, with the CSV row it came from, is written to `%s.plotted.json`.\n",
                      spec->stem, spec->stem);
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
    add_cell(cells, "code", helpers_code);
    add_cell(cells, "code", spec->plot_code ? spec->plot_code : no_plot_code);
    add_cell(cells, "code", save_code);
    cJSON_AddItemToObject(notebook, "metadata", notebook_metadata());
    cJSON_AddNumberToObject(notebook, "nbformat", 4);
    cJSON_AddNumberToObject(notebook, "nbformat_minor", 5);
    char *json = cJSON_Print(notebook);
    cJSON_Delete(notebook);
    if (!json)
        abort();
    return json;
}
