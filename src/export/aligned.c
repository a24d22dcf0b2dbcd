/* aligned.c — the table writer for people: columns padded to their widest value (see
 * formats.h). */
#include "export/formats.h"

#include <stdlib.h>
#include <string.h>

#include "export/strbuf.h"

static void append_padded(sc_strbuf *out, const char *text, size_t width, int right)
{
    size_t length = strlen(text);
    for (size_t i = length; right && i < width; i++)
        sc_strbuf_append_char(out, ' ');
    sc_strbuf_append(out, text);
    for (size_t i = length; !right && i < width; i++)
        sc_strbuf_append_char(out, ' ');
}

/* The cell's text: text cells as they are (any length), the others as sc_cell_format prints. */
static const char *cell_text(const sc_cell *cell, char number[32])
{
    return cell->type == SC_CELL_TEXT ? cell->as.text : sc_cell_format(cell, number, 32);
}

char *sc_export_aligned(const sc_table *table)
{
    size_t columns = table->column_count;
    size_t *widths = calloc(columns + 1, sizeof *widths);
    int *numeric = calloc(columns + 1, sizeof *numeric);
    char text[32];
    if (!widths || !numeric)
        abort();
    for (size_t c = 0; c < columns; c++) {
        widths[c] = strlen(table->column_names[c]);
        numeric[c] = table->row_count > 0;
        for (size_t r = 0; r < table->row_count; r++) {
            const sc_cell *cell = sc_table_cell(table, r, c);
            size_t length = strlen(cell_text(cell, text));
            widths[c] = length > widths[c] ? length : widths[c];
            numeric[c] &= cell->type != SC_CELL_TEXT;
        }
    }
    sc_strbuf out = SC_STRBUF_INIT;
    for (size_t c = 0; c < columns; c++) {
        sc_strbuf_append(&out, c ? "  " : "");
        append_padded(&out, table->column_names[c], c + 1 < columns || numeric[c] ? widths[c] : 0, numeric[c]);
    }
    sc_strbuf_append_char(&out, '\n');
    for (size_t c = 0; c < columns; c++) {
        sc_strbuf_append(&out, c ? "  " : "");
        for (size_t i = 0; i < widths[c]; i++)
            sc_strbuf_append_char(&out, '-');
    }
    sc_strbuf_append_char(&out, '\n');
    for (size_t r = 0; r < table->row_count; r++) {
        for (size_t c = 0; c < columns; c++) {
            sc_strbuf_append(&out, c ? "  " : "");
            /* the last column, when left-aligned, is not padded: no trailing spaces */
            size_t width = c + 1 < columns || numeric[c] ? widths[c] : 0;
            append_padded(&out, cell_text(sc_table_cell(table, r, c), text), width, numeric[c]);
        }
        sc_strbuf_append_char(&out, '\n');
    }
    sc_strbuf_appendf(&out, "(%zu row%s)\n", table->row_count, table->row_count == 1 ? "" : "s");
    free(widths);
    free(numeric);
    return sc_strbuf_take(&out);
}

char *sc_export_table(const sc_table *table, sc_table_format format)
{
    switch (format) {
    case SC_TABLE_CSV:
        return sc_export_csv(table);
    case SC_TABLE_JSON:
        return sc_export_json(table);
    case SC_TABLE_ALIGNED:
        break;
    }
    return sc_export_aligned(table);
}
