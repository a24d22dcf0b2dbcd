/* formats.h — turning a result table into the file formats users take elsewhere.
 *
 * Every function returns malloc'd text that the caller frees, and is deterministic: the same
 * table gives the same bytes. Write the text with sc_output_write() (output.h).
 */
#ifndef SYNCSCOPE_EXPORT_FORMATS_H
#define SYNCSCOPE_EXPORT_FORMATS_H

#include "export/table.h"

/* RFC 4180 CSV: a header line of column names, then one line per row, CRLF line ends. Fields
 * holding a comma, a double quote, CR or LF are quoted, quotes doubled; NULL is an empty field. */
char *sc_export_csv(const sc_table *table);

/* A JSON array with one object per row, keyed by column name, in column order. NULL becomes
 * null; numbers are written so that they read back exactly (integers even beyond 2^53, reals
 * in their shortest round-trip form); non-finite reals become null. */
char *sc_export_json(const sc_table *table);

/* What the generated notebook needs to know about the data it loads. */
typedef struct sc_notebook_spec {
    const char *title;          /* first heading, e.g. the query name */
    const char *csv_path;       /* CSV the notebook reads, relative to the notebook */
    const char *sql;            /* the query text, shown for provenance (may be NULL) */
    const sc_table *table;      /* the exported rows; their columns preset the plot choices */
} sc_notebook_spec;

/* A Jupyter notebook (nbformat 4.5, Python 3 kernel) that loads the CSV with pandas and draws
 * the standard syncscope plots with matplotlib: GSI stall stacked bars normalised to a baseline,
 * speedup bars with a geometric mean, and sweep lines. Each plot cell checks for the columns it
 * needs and says what is missing instead of failing. */
char *sc_export_notebook(const sc_notebook_spec *spec);

#endif
