/* stall_palette.h — the GSI stall taxonomy in display order, with a readable label and a fixed
 * colour for every category and sub-category, plus a general palette for chart series.
 *
 * Every chart and notebook takes its colours from here, so "memory data" is the same blue in a
 * report SVG, a `syncscope stalls --svg` picture and a generated notebook.
 */
#ifndef SYNCSCOPE_EXPORT_STALL_PALETTE_H
#define SYNCSCOPE_EXPORT_STALL_PALETTE_H

#include <stddef.h>

typedef struct sc_stall_kind {
    const char *parent;         /* NULL for the eight top-level categories */
    const char *name;           /* as stored in stalls.category / stalls.subcategory */
    const char *label;          /* for legends */
    const char *colour;         /* "#rrggbb" */
} sc_stall_kind;

/* All known kinds: the top-level categories first, then each category's sub-categories. */
const sc_stall_kind *sc_stall_kinds(size_t *count);

/* The kind `name` under `parent` (NULL parent: a top-level category), or NULL if unknown.
 * Names compare case-insensitively. */
const sc_stall_kind *sc_stall_kind_find(const char *parent, const char *name);

/* Position of the kind in display order; unknown kinds sort after every known one. */
size_t sc_stall_kind_rank(const char *parent, const char *name);

/* Colour number `index` of a ten-colour series palette (wraps around). */
const char *sc_series_colour(size_t index);

#endif
