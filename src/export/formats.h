/* formats.h — turning a result table into the file formats users take elsewhere.
 *
 * Every function returns malloc'd text that the caller frees, and is deterministic: the same
 * table gives the same bytes. Write the text with sc_output_write() (output.h).
 */
#ifndef SYNCSCOPE_EXPORT_FORMATS_H
#define SYNCSCOPE_EXPORT_FORMATS_H

#include "export/table.h"

/* The table writers: the only code that turns a result table into text for `query`, `show`,
 * `list runs` and `export`, so that all of them print the same rows the same way. Every cell
 * prints as sc_cell_format does: integers in decimal, reals in their shortest round-trip form
 * with ".0" on whole values (base/real_text.h), text as it is, NULL empty (null in JSON). */
typedef enum sc_table_format { SC_TABLE_ALIGNED, SC_TABLE_CSV, SC_TABLE_JSON } sc_table_format;

/* The table in `format` (sc_export_aligned, sc_export_csv or sc_export_json). */
char *sc_export_table(const sc_table *table, sc_table_format format);

/* For people: a header, a rule, one line per row, then "(N rows)"; numeric columns (every value
 * an integer, a real or NULL) right-aligned, the others left-aligned, no trailing spaces. */
char *sc_export_aligned(const sc_table *table);

/* RFC 4180 CSV, except that every line (the header's too) ends in LF alone, not CRLF, so that
 * shell tools read it as lines; Python's csv, pandas and spreadsheets read it either way. Fields
 * holding a comma, a double quote, CR or LF are quoted, quotes doubled; NULL is an empty field;
 * infinite and NaN reals are written inf, -inf and nan (as pandas reads them). */
char *sc_export_csv(const sc_table *table);

/* A JSON array (built with cJSON) with one object per row, keyed by column name, in column
 * order. NULL becomes null; numbers are written so that they read back exactly (integers even
 * beyond 2^53, reals in their shortest round-trip form); non-finite reals become null, as JSON
 * has no infinity or NaN. The text ends in a newline. */
char *sc_export_json(const sc_table *table);

/* The same JSON as cJSON values, for documents that embed a table (show --json): the array of
 * row objects, and the object of one row. */
struct cJSON *sc_table_json_rows(const sc_table *table);
struct cJSON *sc_table_json_row(const sc_table *table, size_t row);

/* What the generated notebook needs to know about the data it loads. */
typedef struct sc_notebook_spec {
    const char *title;          /* first heading: the query's name */
    const char *question;       /* the question the query answers (may be NULL) */
    const char *csv_path;       /* CSV the notebook reads, relative to the notebook */
    const char *stem;           /* figures are saved as STEM-NAME.png, the drawn values as
                                   STEM.plotted.json, relative to the notebook */
    const char *sql;            /* the query text, shown for provenance (may be NULL) */
    const sc_query_param *params;   /* the values the query ran with, as the PARAMS dict */
    size_t param_count;
    const char *plot_code;      /* the query's own plot cell (queries/NAME.py), NULL: none */
    const sc_table *table;      /* the exported rows: text columns are read as text */
} sc_notebook_spec;

/* A Jupyter notebook (nbformat 4.5, Python 3 kernel): the query and its parameters, a settings
 * cell (CSV_PATH, STEM, PARAMS, the text columns, the GSI stall kinds and colours), the drawing
 * helpers (grouped and stacked bars that record every height they draw with the CSV row it came
 * from), the query's plot cell, and a last cell that writes what was drawn to STEM.plotted.json.
 * Without a plot cell the notebook shows the rows and says that the query has no plot. */
char *sc_export_notebook(const sc_notebook_spec *spec);

#endif
