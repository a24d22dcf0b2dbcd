/* breakdown.c — reading GSI stall breakdowns and summing them by level (see breakdown.h). */
#include "export/breakdown.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "export/stall_palette.h"
#include "export/strbuf.h"

enum { KEY, CATEGORY, SUBCATEGORY, CYCLES };

static void append_id_list(sc_strbuf *sql, const long long *run_ids, size_t run_count)
{
    sc_strbuf_append(sql, "run_id IN (");
    for (size_t i = 0; i < run_count; i++)
        sc_strbuf_appendf(sql, "%s%lld", i ? "," : "", run_ids[i]);
    sc_strbuf_append(sql, ")");
}

sc_table *sc_breakdown_for_runs(sqlite3 *db, const long long *run_ids, size_t run_count,
                                sc_error *error)
{
    sc_strbuf sql = SC_STRBUF_INIT;
    sc_strbuf_append(&sql, "SELECT run_id AS key, category, subcategory, SUM(cycles) AS cycles "
                           "FROM stalls WHERE cu = -1 AND ");
    append_id_list(&sql, run_ids, run_count);
    sc_strbuf_append(&sql, " GROUP BY run_id, category, subcategory UNION ALL "
                           "SELECT run_id, category, subcategory, SUM(cycles) * 1.0 / "
                           "(SELECT COUNT(DISTINCT cu) FROM stalls AS c WHERE c.run_id = s.run_id "
                           "AND c.cu >= 0) FROM stalls AS s WHERE cu >= 0 AND ");
    append_id_list(&sql, run_ids, run_count);
    sc_strbuf_append(&sql, " AND NOT EXISTS (SELECT 1 FROM stalls AS a WHERE a.run_id = s.run_id "
                           "AND a.cu = -1) GROUP BY run_id, category, subcategory ORDER BY 1");
    char *text = sc_strbuf_take(&sql);
    sc_table *table = sc_table_from_query(db, text, NULL, 0, error);
    free(text);
    return table;
}

sc_table *sc_breakdown_by_cu(sqlite3 *db, long long run_id, sc_error *error)
{
    char id[32];
    snprintf(id, sizeof id, "%lld", run_id);
    sc_query_param param = {"run", id};
    return sc_table_from_query(db,
                               "SELECT cu AS key, category, subcategory, SUM(cycles) AS cycles "
                               "FROM stalls WHERE run_id = :run AND cu >= 0 "
                               "GROUP BY cu, category, subcategory ORDER BY cu",
                               &param, 1, error);
}

static const char *text_of(const sc_table *table, size_t row, int column)
{
    const sc_cell *cell = sc_table_cell(table, row, (size_t)column);
    return cell->type == SC_CELL_TEXT && cell->as.text[0] ? cell->as.text : NULL;
}

static long long key_of(const sc_table *table, size_t row)
{
    return (long long)sc_cell_number(sc_table_cell(table, row, KEY));
}

static double cycles_of(const sc_table *table, size_t row)
{
    double cycles = sc_cell_number(sc_table_cell(table, row, CYCLES));
    return isnan(cycles) ? 0 : cycles;
}

/* Sums the rows of `key` in `category`: either those without subcategory, or all the others. */
static double category_sum(const sc_table *breakdown, long long key, const char *category,
                           int with_subcategory, int *found)
{
    double sum = 0;
    *found = 0;
    for (size_t row = 0; row < breakdown->row_count; row++) {
        const char *row_category = text_of(breakdown, row, CATEGORY);
        if (key_of(breakdown, row) != key || !row_category || strcasecmp(row_category, category))
            continue;
        if ((text_of(breakdown, row, SUBCATEGORY) != NULL) != with_subcategory)
            continue;
        sum += cycles_of(breakdown, row);
        *found = 1;
    }
    return sum;
}

static double category_cycles(const sc_table *breakdown, long long key, const char *category)
{
    int found;
    double whole = category_sum(breakdown, key, category, 0, &found);
    return found ? whole : category_sum(breakdown, key, category, 1, &found);
}

static double subcategory_cycles(const sc_table *breakdown, long long key, const char *parent,
                                 const char *name)
{
    double sum = 0;
    for (size_t row = 0; row < breakdown->row_count; row++) {
        const char *category = text_of(breakdown, row, CATEGORY);
        const char *subcategory = text_of(breakdown, row, SUBCATEGORY);
        if (key_of(breakdown, row) == key && category && subcategory &&
            !strcasecmp(category, parent) && !strcasecmp(subcategory, name))
            sum += cycles_of(breakdown, row);
    }
    return sum;
}

/* The cycles of `parent` that no subcategory row accounts for (never negative). */
static double unattributed_cycles(const sc_table *breakdown, long long key, const char *parent)
{
    int found;
    double in_subcategories = category_sum(breakdown, key, parent, 1, &found);
    double rest = category_cycles(breakdown, key, parent) - in_subcategories;
    return rest > 1e-9 * fmax(1, in_subcategories) ? rest : 0;
}

double sc_breakdown_cycles(const sc_table *breakdown, long long key, const char *parent,
                           const char *name)
{
    if (!parent)
        return category_cycles(breakdown, key, name);
    if (!strcmp(name, SC_UNATTRIBUTED))
        return unattributed_cycles(breakdown, key, parent);
    return subcategory_cycles(breakdown, key, parent, name);
}

size_t sc_breakdown_keys(const sc_table *breakdown, long long **keys)
{
    *keys = malloc((breakdown->row_count + 1) * sizeof **keys);
    if (!*keys)
        abort();
    size_t count = 0;
    for (size_t row = 0; row < breakdown->row_count; row++) {
        long long key = key_of(breakdown, row);
        size_t at = count;
        while (at > 0 && (*keys)[at - 1] > key)
            at--;
        if (at > 0 && (*keys)[at - 1] == key)
            continue;
        memmove(*keys + at + 1, *keys + at, (count - at) * sizeof **keys);
        (*keys)[at] = key;
        count++;
    }
    return count;
}

double sc_breakdown_total(const sc_table *breakdown, long long key)
{
    const char **names;
    size_t count = sc_breakdown_names(breakdown, NULL, &names);
    double total = 0;
    for (size_t i = 0; i < count; i++)
        total += category_cycles(breakdown, key, names[i]);
    free(names);
    return total;
}

/* Display order: known kinds by their rank, unknown ones after them alphabetically. */
static int comes_before(const char *parent, const char *left, const char *right)
{
    size_t left_rank = sc_stall_kind_rank(parent, left);
    size_t right_rank = sc_stall_kind_rank(parent, right);
    return left_rank != right_rank ? left_rank < right_rank : strcasecmp(left, right) < 0;
}

static int has_unattributed(const sc_table *breakdown, const char *parent)
{
    long long *keys;
    size_t key_count = sc_breakdown_keys(breakdown, &keys);
    int found = 0;
    for (size_t i = 0; i < key_count && !found; i++)
        found = unattributed_cycles(breakdown, keys[i], parent) > 0;
    free(keys);
    return found;
}

size_t sc_breakdown_names(const sc_table *breakdown, const char *parent, const char ***names)
{
    *names = malloc((breakdown->row_count + 1) * sizeof **names);
    if (!*names)
        abort();
    size_t count = 0;
    for (size_t row = 0; row < breakdown->row_count; row++) {
        const char *category = text_of(breakdown, row, CATEGORY);
        const char *name = parent ? text_of(breakdown, row, SUBCATEGORY) : category;
        if (!category || !name || (parent && strcasecmp(category, parent)))
            continue;
        size_t i = 0;
        while (i < count && strcasecmp((*names)[i], name))
            i++;
        if (i < count)
            continue;
        while (i > 0 && comes_before(parent, name, (*names)[i - 1])) {   /* insertion sort */
            (*names)[i] = (*names)[i - 1];
            i--;
        }
        (*names)[i] = name;
        count++;
    }
    if (parent && count && has_unattributed(breakdown, parent))
        (*names)[count++] = SC_UNATTRIBUTED;
    return count;
}
