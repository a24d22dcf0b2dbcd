/* json.c — JSON export of a result table as an array of row objects, built with cJSON. */
#include "export/formats.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* cJSON keeps numbers as doubles; integers go in as raw text so that large ones stay exact. */
static cJSON *cell_to_json(const sc_cell *cell)
{
    char integer[32];
    switch (cell->type) {
    case SC_CELL_INTEGER:
        snprintf(integer, sizeof integer, "%lld", cell->as.integer);
        return cJSON_CreateRaw(integer);
    case SC_CELL_REAL:
        return isfinite(cell->as.real) ? cJSON_CreateNumber(cell->as.real) : cJSON_CreateNull();
    case SC_CELL_TEXT:
        return cJSON_CreateString(cell->as.text);
    case SC_CELL_NULL:
        break;
    }
    return cJSON_CreateNull();
}

char *sc_export_json(const sc_table *table)
{
    cJSON *rows = cJSON_CreateArray();
    if (!rows)
        abort();
    for (size_t row = 0; row < table->row_count; row++) {
        cJSON *object = cJSON_CreateObject();
        if (!object)
            abort();
        for (size_t column = 0; column < table->column_count; column++)
            cJSON_AddItemToObject(object, table->column_names[column],
                                  cell_to_json(sc_table_cell(table, row, column)));
        cJSON_AddItemToArray(rows, object);
    }
    char *text = cJSON_Print(rows);
    cJSON_Delete(rows);
    if (!text)
        abort();
    return text;
}
