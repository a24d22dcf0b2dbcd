/* sweep_design.h — the points of a sweep: which value each parameter takes at point i.
 *
 * Points are numbered 0 .. count-1 and point i is the same whatever else runs, so a sweep can be
 * split into shards (`--shard K/N` takes the points with i % N == K-1) and merged back:
 *   grid     mixed-radix decoding of i over the parameters' levels (the last parameter fastest);
 *   random   each parameter drawn uniformly from its own stream seeded by (seed, i);
 *   lhs      Latin hypercube: parameter a of point i lies in stratum perm_a(i) of count equal
 *            strata, jittered inside the stratum; the permutations come from the seed;
 *   oat      point 0 is the preset; then each parameter alone takes each of its levels;
 *   morris   R trajectories of (k + 1) points on an L-level grid: a random start, then each of
 *            the k parameters in random order moves by delta = L / (2 (L - 1)) of its range,
 *            upward from the lower half and downward from the upper half (Morris 1991).
 * A parameter at its preset value (oat's untouched parameters) is NAN.
 */
#ifndef SYNCSCOPE_MODEL_SWEEP_DESIGN_H
#define SYNCSCOPE_MODEL_SWEEP_DESIGN_H

#include <stdint.h>

#include "model/sweep_spec.h"

typedef struct sweep_design {
    const sweep_spec *spec;
    int64_t count;              /* points */
    int32_t *permutations;      /* lhs: axis_count x count strata; morris: trajectories x axis_count
                                   parameter orders; else NULL */
    int32_t *morris_start;      /* morris: trajectories x axis_count starting levels */
    int8_t *morris_direction;   /* morris: trajectories x axis_count, +1 or -1 */
} sweep_design;

/* Prepares the design; fails if it has no points or too many (more than 10^8). */
int sweep_design_init(sweep_design *design, const sweep_spec *spec, sc_error *error);
void sweep_design_free(sweep_design *design);

/* Fills values[axis] (spec->axis_count entries) for point `index`. */
void sweep_design_point(const sweep_design *design, int64_t index, double *values);

/* Morris only: the trajectory of a point, the step within it (0 = the start), and the axis that
 * step moved (-1 for the start). */
void sweep_design_morris_step(const sweep_design *design, int64_t index, int *trajectory, int *step, int *axis);

/* Morris only: the signed move of a step in units of the normalised range ([0, 1]). */
double sweep_design_morris_delta(const sweep_design *design, int trajectory, int axis);

/* Writes the point's varied keys as a JSON object {"l1.size": 32768, "gpu.scheduler": "gto"};
 * NAN entries are left out. Returns the length, or -1 if `size` is too small. */
int sweep_design_params_json(const sweep_design *design, const double *values, char *out, unsigned size);

/* Parses "K/N" (1 <= K <= N): the shard's 0-based remainder and the shard count. */
int sweep_parse_shard(const char *text, int64_t *remainder, int64_t *shards);

#endif
