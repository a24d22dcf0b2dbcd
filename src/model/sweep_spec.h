/* sweep_spec.h — a design-space sweep as the user writes it (SPEC.json), parsed and checked.
 *
 *   {"name": "caches", "system": "gtx480", "size": "small",
 *    "mechanisms": ["wt", "nol1"], "workloads": ["vecadd", "bfs"],   (default: the whole suite)
 *    "parameters": {
 *      "l1.size":     {"values": [16384, 32768, 65536]},
 *      "l2.size":     {"log_range": [262144, 2097152], "count": 4},
 *      "noc.latency": {"range": [2, 20], "count": 5}},
 *    "design": "grid" | {"random": N} | {"lhs": N} | {"morris": R, "levels": L} | "oat",
 *    "seed": 1, "mode": "model" | "detailed" | "sampled", "spot_check": 0.01}
 *
 * "spot_check" is a share of the points also run in detail, or (model sweeps) where it matters:
 * {"widest": K, "outside": true, "max_outside": 8, "mode": "sampled" | "detailed"}, the K points
 * with the widest band and up to max_outside points outside the calibrated region, run after the
 * model pass and compared with their bands (studies/sweep_spot.h).
 *
 * A parameter is a list of values (numbers or words), a linear range or a log range. Grid and
 * one-at-a-time designs use a range's `count` evenly (geometrically) spaced levels; random and
 * Latin-hypercube designs draw from the continuous range (log-uniformly for a log range) and
 * round integer-valued keys; Morris designs move along `levels` grid levels. Every value is
 * checked against the configuration schema before anything runs, so a bad key or value fails in
 * one line naming the spec file and the key path.
 */
#ifndef SYNCSCOPE_MODEL_SWEEP_SPEC_H
#define SYNCSCOPE_MODEL_SWEEP_SPEC_H

#include <stdbool.h>
#include <stdint.h>

#include "base/error.h"
#include "config/schema.h"

#define SWEEP_MAX_AXES 32
#define SWEEP_MAX_VALUES 256
#define SWEEP_MAX_NAMES 64
#define SWEEP_MAX_SPOT_CHECKS 1024     /* widest and max_outside, each */
#define SWEEP_DEFAULT_MAX_OUTSIDE 8

typedef enum sweep_axis_kind { SWEEP_AXIS_LIST, SWEEP_AXIS_RANGE, SWEEP_AXIS_LOG_RANGE } sweep_axis_kind;

typedef struct sweep_axis {
    char key[96];                 /* configuration key path, e.g. "l1.size" */
    sc_key_type type;             /* the key's schema type */
    sweep_axis_kind kind;
    int count;                    /* levels: list length, or a range's count */
    double low, high;             /* a range's bounds */
    double numbers[SWEEP_MAX_VALUES];   /* a numeric list */
    char *words[SWEEP_MAX_VALUES];      /* a list of words (enum, string, bool keys); owned */
} sweep_axis;

typedef enum sweep_design_kind {
    SWEEP_GRID,       /* every combination of levels */
    SWEEP_RANDOM,     /* `points` independent uniform draws */
    SWEEP_LHS,        /* `points` Latin-hypercube draws */
    SWEEP_OAT,        /* the preset, then each parameter alone at each of its levels */
    SWEEP_MORRIS      /* `trajectories` Morris trajectories of (axes + 1) points on `levels` levels */
} sweep_design_kind;

typedef struct sweep_spec {
    char name[128];
    char system[256];
    char size[16];                /* tiny | small | large | huge */
    char mode[16];                /* model | detailed | sampled (run --mode sampled, default sampling) */
    char *mechanisms[SWEEP_MAX_NAMES];   /* owned; count 0 = every mechanism with a model */
    int mechanism_count;
    char *workloads[SWEEP_MAX_NAMES];    /* owned; count 0 = the whole suite; a name ending in .json is a
                                            manifest, relative to the spec file's directory */
    int workload_count;
    sweep_axis axes[SWEEP_MAX_AXES];
    int axis_count;
    sweep_design_kind design;
    int64_t points;               /* random/lhs draws */
    int trajectories, levels;     /* morris */
    uint64_t seed;
    double spot_check;            /* fraction of model-evaluated points also run in detail */
    bool spot_targeted;           /* spot checks where they matter (the object form; studies/sweep_spot.h): */
    int spot_widest;              /*   the points with the widest band, this many */
    bool spot_outside;            /*   and the points outside the calibrated region, */
    int spot_max_outside;         /*   at most this many of them */
    char spot_mode[16];           /*   run sampled | detailed */
    char *text;                   /* the spec's compact JSON, as stored in the sweeps table */
    char path[4096];              /* the spec file (sweep_spec_load); "" when parsed from text */
} sweep_spec;

/* Parses and checks `path`. Errors name the file and the key path inside it. */
int sweep_spec_load(const char *path, sweep_spec *spec, sc_error *error);

/* The same from JSON text; `origin` names it in errors. */
int sweep_spec_parse(const char *text, const char *origin, sweep_spec *spec, sc_error *error);

void sweep_spec_free(sweep_spec *spec);

/* Whether values of this key type are whole numbers (rounded after sampling). */
bool sweep_axis_is_integer(const sweep_axis *axis);

/* Level `level` (0 .. count-1) of a numeric axis: a list entry, or an evenly (geometrically)
 * spaced point of the range, rounded for integer keys. */
double sweep_axis_level(const sweep_axis *axis, int level);

/* The value at position u in [0, 1) of a numeric axis: a list entry chosen by u, or the point u
 * of the way through the range (log-scaled for a log range), rounded for integer keys. */
double sweep_axis_at(const sweep_axis *axis, double u);

/* Writes an axis value as configuration text ("32768", "gto"). A word list's value is words[(int)value]. */
void sweep_axis_format(const sweep_axis *axis, double value, char *out, unsigned size);

#endif
