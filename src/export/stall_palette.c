/* stall_palette.c — the GSI taxonomy, its display order and its colours (see stall_palette.h).
 *
 * Categories follow the GSI thesis (Alsop), chapter 6 figures: (a) the eight top-level causes,
 * (b) memory-data stalls by the level that served the load, (c) memory-structural stalls by the
 * reason the load/store unit refused. Colours are chosen to stay distinct within each figure.
 * Names match case-insensitively (the store writes MEM_DATA, MAIN_MEMORY...); the spellings of
 * the GSI digest (l1_coalesce, sb_full, main_memory) are listed beside the short ones.
 */
#include "export/stall_palette.h"

#include <strings.h>

static const sc_stall_kind kinds[] = {
    {NULL, "no_stall", "no stall", "#59a14f"},
    {NULL, "idle", "idle", "#bab0ac"},
    {NULL, "control", "control", "#edc948"},
    {NULL, "sync", "synchronization", "#b07aa1"},
    {NULL, "mem_data", "memory data", "#4e79a7"},
    {NULL, "mem_struct", "memory structural", "#f28e2b"},
    {NULL, "comp_data", "compute data", "#e15759"},
    {NULL, "comp_struct", "compute structural", "#9c755f"},

    {"mem_data", "l1", "L1", "#a6cee3"},
    {"mem_data", "l1_coalesced", "L1 coalescing", "#1f78b4"},
    {"mem_data", "l1_coalesce", "L1 coalescing", "#1f78b4"},
    {"mem_data", "l2", "L2", "#b2df8a"},
    {"mem_data", "remote_l1", "remote L1", "#33a02c"},
    {"mem_data", "l3", "L3", "#fb9a99"},
    {"mem_data", "dram", "main memory", "#e31a1c"},
    {"mem_data", "main_memory", "main memory", "#e31a1c"},
    {"mem_data", "remote", "remote memory", "#ff7f00"},

    {"mem_struct", "mshr_full", "MSHR full", "#80b1d3"},
    {"mem_struct", "store_buffer_full", "store buffer full", "#fb8072"},
    {"mem_struct", "sb_full", "store buffer full", "#fb8072"},
    {"mem_struct", "bank_conflict", "bank conflict", "#bebada"},
    {"mem_struct", "pending_release", "pending release", "#fdb462"},
    {"mem_struct", "pending_dma", "pending DMA", "#8dd3c7"},

    {"sync", "acquire", "acquire", "#d4b9da"},
    {"sync", "release", "release", "#c994c7"},
    {"sync", "barrier", "barrier", "#980043"},
    {"sync", "ordering", "SC ordering", "#67001f"},
};

static const char *const series_colours[] = {
    "#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f",
    "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac",
};

#define KIND_COUNT (sizeof kinds / sizeof kinds[0])

const sc_stall_kind *sc_stall_kinds(size_t *count)
{
    *count = KIND_COUNT;
    return kinds;
}

static int same_parent(const char *a, const char *b)
{
    return (!a && !b) || (a && b && !strcasecmp(a, b));
}

size_t sc_stall_kind_rank(const char *parent, const char *name)
{
    for (size_t i = 0; i < KIND_COUNT; i++)
        if (same_parent(kinds[i].parent, parent) && !strcasecmp(kinds[i].name, name))
            return i;
    return KIND_COUNT;
}

const sc_stall_kind *sc_stall_kind_find(const char *parent, const char *name)
{
    size_t rank = sc_stall_kind_rank(parent, name);
    return rank < KIND_COUNT ? &kinds[rank] : NULL;
}

const char *sc_series_colour(size_t index)
{
    return series_colours[index % (sizeof series_colours / sizeof series_colours[0])];
}
