/* calibration.c — fitting a mechanism's free parameters with GSL's nonlinear least squares,
 * optionally with a Gaussian prior on them (see calibration.h for the residuals and the bounds). */
#include "model/calibration.h"

#include <gsl/gsl_blas.h>
#include <gsl/gsl_multifit_nlinear.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define STALL_WEIGHT 1.0

enum { RESIDUALS_PER_SAMPLE = 1 + GSI_CATEGORY_COUNT };

typedef struct fit_context {
    const model_mechanism *mechanism;
    const model_param_spec *spec;
    const model_sample *samples;
    int sample_count;
    const model_prior *prior;     /* NULL: none */
} fit_context;

static double logistic(double u) { return 1.0 / (1.0 + exp(-u)); }

static void bounded_params(const model_param_spec *spec, const gsl_vector *u, model_params *params)
{
    for (int p = 0; p < MODEL_PARAMETER_COUNT; p++)
        params->value[p] = spec->lower.value[p] +
                           (spec->upper.value[p] - spec->lower.value[p]) * logistic(gsl_vector_get(u, (size_t)p));
}

static double unbounded(const model_param_spec *spec, int p, double value)
{
    double share = (value - spec->lower.value[p]) / (spec->upper.value[p] - spec->lower.value[p]);
    share = share < 1e-6 ? 1e-6 : share > 1 - 1e-6 ? 1 - 1e-6 : share;
    return log(share / (1 - share));
}

void model_stall_fractions(const model_prediction *prediction, double fraction[GSI_CATEGORY_COUNT])
{
    for (int c = 0; c < GSI_CATEGORY_COUNT; c++)
        fraction[c] = prediction->cycles > 0 ? prediction->stalls[c] / prediction->cycles : 0.0;
}

static int residuals(const gsl_vector *u, void *data, gsl_vector *f)
{
    const fit_context *context = data;
    const model_prior *prior = context->prior;
    double scale = prior ? 1.0 / prior->data_sigma : 1.0;
    model_params params;
    bounded_params(context->spec, u, &params);
    for (int s = 0; s < context->sample_count; s++) {
        const model_sample *sample = &context->samples[s];
        model_prediction prediction;
        context->mechanism->evaluate(sample->profile, &sample->point, &params, &prediction);
        double fraction[GSI_CATEGORY_COUNT];
        model_stall_fractions(&prediction, fraction);
        size_t row = (size_t)s * RESIDUALS_PER_SAMPLE;
        gsl_vector_set(f, row, scale * sample->weight * log(prediction.cycles / sample->cycles));
        for (int c = 0; c < GSI_CATEGORY_COUNT; c++)
            gsl_vector_set(f, row + 1 + (size_t)c,
                           scale * sample->weight * STALL_WEIGHT * (fraction[c] - sample->stall_fraction[c]));
    }
    for (int p = 0; prior && p < MODEL_PARAMETER_COUNT; p++)
        gsl_vector_set(f, (size_t)context->sample_count * RESIDUALS_PER_SAMPLE + (size_t)p,
                       (params.value[p] - prior->center.value[p]) / prior->sigma[p]);
    return GSL_SUCCESS;
}

static double log_cycles_r2(const double *log_errors, const model_sample *samples, int count)
{
    double mean = 0, total = 0, residual = 0;
    for (int s = 0; s < count; s++)
        mean += log(samples[s].cycles) / count;
    for (int s = 0; s < count; s++) {
        total += (log(samples[s].cycles) - mean) * (log(samples[s].cycles) - mean);
        residual += log_errors[s] * log_errors[s];
    }
    return total > 0 ? 1.0 - residual / total : 1.0;
}

int model_fit_parameters(const model_mechanism *mechanism, const model_param_spec *spec, const model_sample *samples,
                         int sample_count, const model_prior *prior, model_fit *fit, sc_error *error)
{
    size_t data_rows = (size_t)sample_count * RESIDUALS_PER_SAMPLE, p = MODEL_PARAMETER_COUNT;
    size_t n = data_rows + (prior ? p : 0);
    if (n < p)
        return sc_fail(error, "calibration needs at least %zu residuals, has %zu (more points or workloads)", p, n);
    fit_context context = {mechanism, spec, samples, sample_count, prior};
    gsl_multifit_nlinear_fdf fdf = {.f = residuals, .df = NULL, .fvv = NULL, .n = n, .p = p, .params = &context};
    gsl_multifit_nlinear_parameters parameters = gsl_multifit_nlinear_default_parameters();
    gsl_multifit_nlinear_workspace *workspace = gsl_multifit_nlinear_alloc(gsl_multifit_nlinear_trust, &parameters, n, p);
    gsl_vector *u = gsl_vector_alloc(p);
    for (size_t i = 0; i < p; i++)
        gsl_vector_set(u, i, unbounded(spec, (int)i, prior ? prior->center.value[i] : spec->initial.value[i]));
    gsl_multifit_nlinear_init(u, &fdf, workspace);
    int info;
    gsl_set_error_handler_off();
    int status = gsl_multifit_nlinear_driver(200, 1e-8, 1e-8, 1e-8, NULL, NULL, &info, workspace);
    const gsl_vector *solution = gsl_multifit_nlinear_position(workspace);
    memset(fit, 0, sizeof *fit);
    bounded_params(spec, solution, &fit->params);
    fit->iterations = (int)gsl_multifit_nlinear_niter(workspace);

    /* Covariance of u, scaled by the residual variance (with a prior the residuals are already in
     * units of their standard deviations: no scaling), then dtheta/du on both sides. */
    gsl_matrix *covariance = gsl_matrix_alloc(p, p);
    gsl_multifit_nlinear_covar(gsl_multifit_nlinear_jac(workspace), 0.0, covariance);
    const gsl_vector *f = gsl_multifit_nlinear_residual(workspace);
    double chi2;
    gsl_blas_ddot(f, f, &chi2);
    double variance = prior ? 1.0 : n > p ? chi2 / (double)(n - p) : chi2;
    for (size_t i = 0; i < p; i++)
        for (size_t j = 0; j < p; j++) {
            double ui = gsl_vector_get(solution, i), uj = gsl_vector_get(solution, j);
            double di = (spec->upper.value[i] - spec->lower.value[i]) * logistic(ui) * (1 - logistic(ui));
            double dj = (spec->upper.value[j] - spec->lower.value[j]) * logistic(uj) * (1 - logistic(uj));
            fit->covariance[i][j] = di * dj * variance * gsl_matrix_get(covariance, i, j);
        }
    fit->log_errors = malloc((size_t)sample_count * sizeof *fit->log_errors + 1);
    for (int s = 0; s < sample_count; s++) {
        model_prediction prediction;
        mechanism->evaluate(samples[s].profile, &samples[s].point, &fit->params, &prediction);
        fit->log_errors[s] = log(prediction.cycles / samples[s].cycles);
    }
    fit->r2 = log_cycles_r2(fit->log_errors, samples, sample_count);
    gsl_matrix_free(covariance);
    gsl_vector_free(u);
    gsl_multifit_nlinear_free(workspace);
    if (status != GSL_SUCCESS && status != GSL_EMAXITER && status != GSL_ENOPROG) {
        model_fit_release(fit);
        return sc_fail(error, "calibration: the least-squares fit failed: %s", gsl_strerror(status));
    }
    return 0;
}

void model_fit_release(model_fit *fit)
{
    free(fit->log_errors);
    fit->log_errors = NULL;
}
