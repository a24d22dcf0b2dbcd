/* json.c — the JSON table writer: an array of row objects, built with cJSON (see formats.h). */
#include "export/formats.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/real_text.h"
#include "export/strbuf.h"

/* Numbers go in as raw text: cJSON would round integers beyond 2^53 and print reals that are
 * merely close (0.3 for 0.30000000000000004); this way every value reads back exactly. */
static cJSON *cell_to_json(const sc_cell *cell)
{
    char number[32];
    switch (cell->type) {
    case SC_CELL_INTEGER:
        snprintf(number, sizeof number, "%lld", cell->as.integer);
        return cJSON_CreateRaw(number);
    case SC_CELL_REAL:
        if (!isfinite(cell->as.real))
            return cJSON_CreateNull();
        sc_real_text(cell->as.real, number);
        return cJSON_CreateRaw(number);
    case SC_CELL_TEXT:
        return cJSON_CreateString(cell->as.text);
    case SC_CELL_NULL:
        break;
    }
    return cJSON_CreateNull();
}

cJSON *sc_table_json_row(const sc_table *table, size_t row)
{
    cJSON *object = cJSON_CreateObject();
    if (!object)
        abort();
    for (size_t column = 0; column < table->column_count; column++)
        cJSON_AddItemToObject(object, table->column_names[column], cell_to_json(sc_table_cell(table, row, column)));
    return object;
}

cJSON *sc_table_json_rows(const sc_table *table)
{
    cJSON *rows = cJSON_CreateArray();
    if (!rows)
        abort();
    for (size_t row = 0; row < table->row_count; row++)
        cJSON_AddItemToArray(rows, sc_table_json_row(table, row));
    return rows;
}

char *sc_export_json(const sc_table *table)
{
    cJSON *rows = sc_table_json_rows(table);
    char *text = cJSON_Print(rows);
    cJSON_Delete(rows);
    if (!text)
        abort();
    sc_strbuf out = SC_STRBUF_INIT;
    sc_strbuf_append(&out, text);
    sc_strbuf_append_char(&out, '\n');
    cJSON_free(text);
    return sc_strbuf_take(&out);
}
