/* sensitivity.h — how much each swept parameter moves the cycles of a workload.
 *
 * Both measures work on log cycles, so they are free of the workload's scale:
 *   one-at-a-time (oat design): the arc elasticity of cycles over the parameter's whole range,
 *       e = ln(y_high / y_low) / ln(x_high / x_low), with every other parameter at the preset;
 *       for a list of words (no numeric scale) e = ln(y_max / y_min) over its values;
 *   Morris elementary effects (morris design): per trajectory step that moved parameter i by
 *       delta (a fraction of its normalised range), EE_i = (ln y_after - ln y_before) / delta;
 *       mu* = mean |EE_i| ranks importance, sigma = standard deviation of EE_i shows
 *       interactions or non-linearity (Morris 1991; Campolongo et al. 2007 for mu*).
 * A point whose cycles are missing (not positive) is skipped, with the effects that need it.
 */
#ifndef SYNCSCOPE_MODEL_SENSITIVITY_H
#define SYNCSCOPE_MODEL_SENSITIVITY_H

#include "model/sweep_design.h"

typedef struct sensitivity {
    double value;       /* oat: elasticity; morris: mu* */
    double spread;      /* morris: sigma; oat: 0 */
    int samples;        /* effects that went into it */
} sensitivity;

/* cycles[i] is point i's cycles (design->count entries); fills out[axis] for every axis. */
void sensitivity_oat(const sweep_design *design, const double *cycles, sensitivity *out);
void sensitivity_morris(const sweep_design *design, const double *cycles, sensitivity *out);

#endif
