/* csv.c — the CSV table writer: RFC 4180 fields, LF line ends (see formats.h). */
#include "export/formats.h"

#include <string.h>

#include "export/strbuf.h"

static void append_field(sc_strbuf *out, const char *text)
{
    if (!strpbrk(text, ",\"\r\n")) {
        sc_strbuf_append(out, text);
        return;
    }
    sc_strbuf_append_char(out, '"');
    for (const char *c = text; *c; c++) {
        if (*c == '"')
            sc_strbuf_append_char(out, '"');
        sc_strbuf_append_char(out, *c);
    }
    sc_strbuf_append_char(out, '"');
}

static void append_cell(sc_strbuf *out, const sc_cell *cell)
{
    char number[32];
    if (cell->type == SC_CELL_TEXT)
        append_field(out, cell->as.text);
    else
        sc_strbuf_append(out, sc_cell_format(cell, number, sizeof number));
}

char *sc_export_csv(const sc_table *table)
{
    sc_strbuf out = SC_STRBUF_INIT;
    for (size_t column = 0; column < table->column_count; column++) {
        if (column)
            sc_strbuf_append_char(&out, ',');
        append_field(&out, table->column_names[column]);
    }
    sc_strbuf_append_char(&out, '\n');
    for (size_t row = 0; row < table->row_count; row++) {
        for (size_t column = 0; column < table->column_count; column++) {
            if (column)
                sc_strbuf_append_char(&out, ',');
            append_cell(&out, sc_table_cell(table, row, column));
        }
        sc_strbuf_append_char(&out, '\n');
    }
    return sc_strbuf_take(&out);
}
