/* calibration.h — fitting a mechanism's free parameters to detailed samples (calibration.c)
 * and the design points samples are taken at (design_points.c). */
#ifndef SYNCSCOPE_MODEL_CALIBRATION_H
#define SYNCSCOPE_MODEL_CALIBRATION_H

#include "model/model.h"

/* One detailed run (or sampled-run estimate) the model is fitted to (or checked against). */
typedef struct model_sample {
    const model_profile *profile;
    model_point point;
    double cycles;                                /* detailed, or the sampled estimate */
    double stall_fraction[GSI_CATEGORY_COUNT];    /* detailed, of the CUs' cycles */
    double weight;                                /* multiplies the sample's residuals: 1, or less for a
                                                     sampled estimate without an interval */
} model_sample;

/* A Gaussian prior on the parameters (the suite-wide fit, for a per-workload fit): one residual
 * (theta_p - center_p) / sigma_p per parameter, and every data residual divided by data_sigma
 * (the spread of one data residual), so the fit minimises the negative log posterior. */
typedef struct model_prior {
    model_params center;
    double sigma[MODEL_PARAMETER_COUNT];          /* > 0 */
    double data_sigma;                            /* > 0 */
} model_prior;

typedef struct model_fit {
    model_params params;
    double covariance[MODEL_PARAMETER_COUNT][MODEL_PARAMETER_COUNT];
    double *log_errors;                           /* per sample: log(model / detailed cycles), malloc'd */
    double r2;                                    /* of log cycles */
    int iterations;
} model_fit;

/* Nonlinear least squares (GSL gsl_multifit_nlinear, trust region with Levenberg-Marquardt
 * steps) over the bounded parameters, each mapped to an unbounded one by a logistic function.
 * Residuals per sample, times the sample's weight: log(model / detailed cycles) and, weighted by
 * STALL_WEIGHT, the eight stall-fraction differences. Without a prior (NULL) the fit starts at the
 * spec's initial values and the covariance is (J^T J)^-1 scaled by the residual variance; with
 * one it starts at the prior's center, adds the prior's residuals (model_prior) and the
 * covariance is (J^T J)^-1 unscaled (the posterior's). Either is carried to the bounded
 * parameters by the delta method. With a prior, no samples are needed (the fit is the prior's
 * center). fit->log_errors are the plain log(model / sample cycles), unweighted. */
int model_fit_parameters(const model_mechanism *mechanism, const model_param_spec *spec, const model_sample *samples,
                         int sample_count, const model_prior *prior, model_fit *fit, sc_error *error);
void model_fit_release(model_fit *fit);

/* Stall fractions of a prediction (mean CU cycles per category over cycles). */
void model_stall_fractions(const model_prediction *prediction, double fraction[GSI_CATEGORY_COUNT]);

/* ---- design points ---- */

#define MODEL_POINT_KEYS 5
/* A design point as --set assignments of the varied keys: l1.size, l2.size, gpu.cu_count,
 * dram.clock, noc.latency. */
typedef struct model_design_point {
    char sets[MODEL_POINT_KEYS][64];
    char json[320];                               /* {"l1.size": 32768, ...}: validations.point_config */
} model_design_point;

/* `count` distinct points drawn around the preset from the stream `seed`, each accepted by the
 * detailed model's configuration checks; points listed in `exclude` (by json) are never drawn.
 * The preset itself is a candidate like any other. */
int model_design_points(const char *system, uint64_t seed, int count, const char *const *exclude, int exclude_count,
                        model_design_point *out, sc_error *error);

/* A per-workload calibration's design: the MODEL_DESIGN_CORNERS corners of a 2^(5-2) fractional
 * factorial over the ranges model_design_points draws from (each key at its low or high end,
 * every key's two ends equally often), then `fill` (0..MODEL_DESIGN_MAX_FILL) Latin-hypercube
 * points over the same ranges from the stream `seed`, distinct from the corners and each other
 * and accepted by the detailed model's configuration checks. `out` holds CORNERS + fill. */
#define MODEL_DESIGN_CORNERS 8
#define MODEL_DESIGN_MAX_FILL 64
int model_design_corners_and_fill(const char *system, uint64_t seed, int fill, model_design_point *out,
                                  sc_error *error);

/* The configuration of a design point. */
sc_config *model_design_config(const char *system, const model_design_point *point, sc_error *error);

#endif
