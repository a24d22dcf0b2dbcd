/* result_table.c — query rows collected in memory and printed aligned, as CSV or as JSON. */
#include "store/result_table.h"

#include <stdlib.h>
#include <string.h>

int sc_result_table_collect(void *context, int column_count, const char *const *names,
                            const char *const *values, const sc_value_kind *kinds)
{
    sc_result_table *table = context;
    if (!values) {
        table->column_count = column_count;
        table->names = calloc((size_t)column_count, sizeof *table->names);
        for (int c = 0; c < column_count; c++)
            table->names[c] = strdup(names[c]);
        return 0;
    }
    if (table->row_count == table->capacity) {
        table->capacity = table->capacity ? table->capacity * 2 : 64;
        table->cells = realloc(table->cells, table->capacity * (size_t)column_count * sizeof *table->cells);
        table->kinds = realloc(table->kinds, table->capacity * (size_t)column_count * sizeof *table->kinds);
    }
    size_t base = table->row_count * (size_t)column_count;
    for (int c = 0; c < column_count; c++) {
        table->cells[base + c] = values[c] ? strdup(values[c]) : NULL;
        table->kinds[base + c] = kinds[c];
    }
    table->row_count++;
    return 0;
}

void sc_result_table_free(sc_result_table *table)
{
    for (size_t i = 0; i < table->row_count * (size_t)table->column_count; i++)
        free(table->cells[i]);
    for (int c = 0; c < table->column_count; c++)
        free(table->names[c]);
    free(table->cells);
    free(table->kinds);
    free(table->names);
    memset(table, 0, sizeof *table);
}

static const char *shown(const sc_result_table *table, size_t row, int column)
{
    const char *cell = table->cells[row * (size_t)table->column_count + column];
    return cell ? cell : "";
}

static void print_aligned(const sc_result_table *table, FILE *out)
{
    size_t *widths = calloc((size_t)table->column_count, sizeof *widths);
    int *numeric = calloc((size_t)table->column_count, sizeof *numeric);
    for (int c = 0; c < table->column_count; c++) {
        widths[c] = strlen(table->names[c]);
        numeric[c] = table->row_count > 0;
        for (size_t r = 0; r < table->row_count; r++) {
            size_t length = strlen(shown(table, r, c));
            widths[c] = length > widths[c] ? length : widths[c];
            sc_value_kind kind = table->kinds[r * (size_t)table->column_count + c];
            numeric[c] &= kind == SC_VALUE_INTEGER || kind == SC_VALUE_REAL || kind == SC_VALUE_NULL;
        }
    }
    for (int c = 0; c < table->column_count; c++)
        fprintf(out, "%s%*s", c ? "  " : "", numeric[c] ? (int)widths[c] : -(int)widths[c], table->names[c]);
    fputc('\n', out);
    for (int c = 0; c < table->column_count; c++) {
        fprintf(out, "%s", c ? "  " : "");
        for (size_t i = 0; i < widths[c]; i++)
            fputc('-', out);
    }
    fputc('\n', out);
    for (size_t r = 0; r < table->row_count; r++) {
        for (int c = 0; c < table->column_count; c++) {
            int width = numeric[c] ? (int)widths[c] : -(int)widths[c];
            if (c == table->column_count - 1 && !numeric[c])
                width = 0; /* no trailing spaces */
            fprintf(out, "%s%*s", c ? "  " : "", width, shown(table, r, c));
        }
        fputc('\n', out);
    }
    fprintf(out, "(%zu row%s)\n", table->row_count, table->row_count == 1 ? "" : "s");
    free(widths);
    free(numeric);
}

static void print_csv_field(const char *text, FILE *out)
{
    if (!strpbrk(text, ",\"\n\r")) {
        fputs(text, out);
        return;
    }
    fputc('"', out);
    for (const char *p = text; *p; p++) {
        if (*p == '"')
            fputc('"', out);
        fputc(*p, out);
    }
    fputc('"', out);
}

static void print_csv(const sc_result_table *table, FILE *out)
{
    for (int c = 0; c < table->column_count; c++) {
        fputs(c ? "," : "", out);
        print_csv_field(table->names[c], out);
    }
    fputc('\n', out);
    for (size_t r = 0; r < table->row_count; r++) {
        for (int c = 0; c < table->column_count; c++) {
            fputs(c ? "," : "", out);
            print_csv_field(shown(table, r, c), out);
        }
        fputc('\n', out);
    }
}

static void print_json_string(const char *text, FILE *out)
{
    fputc('"', out);
    for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(out, "\\%c", *p);
        else if (*p < 0x20)
            fprintf(out, "\\u%04x", *p);
        else
            fputc(*p, out);
    }
    fputc('"', out);
}

void sc_result_table_print_json_row(const sc_result_table *table, size_t row, FILE *out)
{
    fputs("{", out);
    for (int c = 0; c < table->column_count; c++) {
        size_t index = row * (size_t)table->column_count + c;
        fputs(c ? ", " : "", out);
        print_json_string(table->names[c], out);
        fputs(": ", out);
        if (table->kinds[index] == SC_VALUE_NULL)
            fputs("null", out);
        else if (table->kinds[index] == SC_VALUE_TEXT)
            print_json_string(table->cells[index], out);
        else
            fputs(table->cells[index], out);
    }
    fputs("}", out);
}

static void print_json(const sc_result_table *table, FILE *out)
{
    fputs("[", out);
    for (size_t r = 0; r < table->row_count; r++) {
        fputs(r ? ",\n " : "\n ", out);
        sc_result_table_print_json_row(table, r, out);
    }
    fputs(table->row_count ? "\n]\n" : "]\n", out);
}

void sc_result_table_print(const sc_result_table *table, sc_table_format format, FILE *out)
{
    switch (format) {
    case SC_TABLE_ALIGNED: print_aligned(table, out); break;
    case SC_TABLE_CSV: print_csv(table, out); break;
    case SC_TABLE_JSON: print_json(table, out); break;
    }
}
