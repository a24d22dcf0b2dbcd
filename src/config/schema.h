/* schema.h — the typed table of every configuration key a system preset must define.
 *
 * A key path is "group.name" (e.g. "l1.size"). Each key has a type that says how its values
 * are written and normalised: sizes are stored in bytes, frequencies in Hz, latencies in cycles
 * of the clock named in the key's unit. The schema is the union of the engine's keys (schema.c)
 * and the keys the mechanism modules declare in their own folders, which the program adds
 * (sc_schema_add_keys) before it reads the schema; from the first read on, the schema is fixed.
 * The union is sorted by path, so the canonical JSON that config_json.c writes comes out with
 * sorted keys simply by walking it.
 */
#ifndef SYNCSCOPE_CONFIG_SCHEMA_H
#define SYNCSCOPE_CONFIG_SCHEMA_H

#include <stddef.h>

typedef enum sc_key_type {
    SC_KEY_INT,        /* plain integer */
    SC_KEY_SIZE,       /* bytes: 64, "64B", "16KiB", "2MiB", "1GiB" */
    SC_KEY_FREQUENCY,  /* Hz: 700000000, "700MHz", "1.4GHz" */
    SC_KEY_FLOAT,      /* real number */
    SC_KEY_BOOL,       /* true/false (also yes/no, on/off, 1/0 on the command line) */
    SC_KEY_ENUM,       /* one of a '|'-separated list of words */
    SC_KEY_STRING      /* free text */
} sc_key_type;

/* Quantities the ranges of keys are written in. */
#define SC_KIB 1024.0
#define SC_MIB (1024.0 * 1024.0)
#define SC_GIB (1024.0 * 1024.0 * 1024.0)
#define SC_GHZ 1e9
#define SC_MAX_SAFE_INTEGER 9007199254740991.0 /* 2^53 - 1: exact in a double and in JSON */

/* Extra constraints a key may carry beyond its range. */
enum { SC_KEY_POWER_OF_TWO = 1 };

typedef struct sc_config_key {
    const char *path;
    sc_key_type type;
    const char *unit;         /* shown by `config keys`; "" when unitless */
    double min, max;          /* inclusive range for numeric types */
    const char *choices;      /* "gto|lrr" for SC_KEY_ENUM, else NULL */
    unsigned flags;
    const char *description;
} sc_config_key;

/* Keys a module declares: `count` entries at `keys`, in any order. */
typedef struct sc_config_key_table {
    const sc_config_key *keys;
    size_t count;
} sc_config_key_table;

/* Adds the keys of `table` to the schema as keys that module `owner` (a mechanism's name)
 * reads. Several owners may add the same table (its keys are then theirs together); adding a
 * pair again does nothing. Adding after the schema has been read, or a path that another table
 * or the engine declares too, is a programming error: the process aborts naming it. */
void sc_schema_add_keys(const char *owner, const sc_config_key_table *table);

/* The whole schema, sorted by path. */
const sc_config_key *sc_schema_keys(size_t *count);

/* The key at `index` of the schema. */
const sc_config_key *sc_schema_key(int index);

/* Index of `path` in the schema, or -1. */
int sc_schema_find(const char *path);

/* The owners of the key at `index`, comma-separated in the order they were added, into `out`;
 * "" for a key of the engine. */
void sc_schema_key_owners(int index, char *out, size_t size);

/* The known key closest to an unknown `path` by edit distance, or NULL if none is close. */
const char *sc_schema_nearest(const char *path);

/* The name of a type as shown to users ("size", "frequency"...). */
const char *sc_key_type_name(sc_key_type type);

/* Writes a value of a numeric type the way users write it: "16KiB", "1.4GHz", "32". */
void sc_format_quantity(sc_key_type type, double value, char *out, size_t size);

/* Whether `word` is one of the '|'-separated `choices`. */
int sc_choice_allowed(const char *choices, const char *word);

#endif
