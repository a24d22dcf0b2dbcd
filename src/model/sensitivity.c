/* sensitivity.c — one-at-a-time elasticities and Morris elementary effects (see sensitivity.h). */
#include "model/sensitivity.h"

#include <math.h>
#include <string.h>

void sensitivity_oat(const sweep_design *design, const double *cycles, sensitivity *out)
{
    const sweep_spec *spec = design->spec;
    int64_t first = 1;
    for (int a = 0; a < spec->axis_count; first += spec->axes[a].count, a++) {
        const sweep_axis *axis = &spec->axes[a];
        out[a] = (sensitivity){0};
        if (axis->kind == SWEEP_AXIS_LIST && axis->words[0]) {
            double low = INFINITY, high = 0;
            for (int level = 0; level < axis->count; level++) {
                double y = cycles[first + level];
                if (y > 0) {
                    low = fmin(low, y);
                    high = fmax(high, y);
                    out[a].samples++;
                }
            }
            out[a].value = out[a].samples > 1 ? log(high / low) : 0.0;
            continue;
        }
        /* The levels with the smallest and largest parameter value. */
        int low_level = 0, high_level = 0;
        for (int level = 1; level < axis->count; level++) {
            if (sweep_axis_level(axis, level) < sweep_axis_level(axis, low_level))
                low_level = level;
            if (sweep_axis_level(axis, level) > sweep_axis_level(axis, high_level))
                high_level = level;
        }
        double x_low = sweep_axis_level(axis, low_level), x_high = sweep_axis_level(axis, high_level);
        double y_low = cycles[first + low_level], y_high = cycles[first + high_level];
        if (x_low > 0 && x_high > x_low && y_low > 0 && y_high > 0) {
            out[a].value = log(y_high / y_low) / log(x_high / x_low);
            out[a].samples = 1;
        }
    }
}

void sensitivity_morris(const sweep_design *design, const double *cycles, sensitivity *out)
{
    const sweep_spec *spec = design->spec;
    double sum[SWEEP_MAX_AXES] = {0}, sum_abs[SWEEP_MAX_AXES] = {0}, sum_squares[SWEEP_MAX_AXES] = {0};
    int samples[SWEEP_MAX_AXES] = {0};
    for (int64_t index = 0; index < design->count; index++) {
        int trajectory, step, axis;
        sweep_design_morris_step(design, index, &trajectory, &step, &axis);
        if (step == 0 || !(cycles[index] > 0) || !(cycles[index - 1] > 0))
            continue;
        double effect = (log(cycles[index]) - log(cycles[index - 1])) / sweep_design_morris_delta(design, trajectory, axis);
        sum[axis] += effect;
        sum_abs[axis] += fabs(effect);
        sum_squares[axis] += effect * effect;
        samples[axis]++;
    }
    for (int a = 0; a < spec->axis_count; a++) {
        int n = samples[a];
        double mean = n ? sum[a] / n : 0.0;
        double variance = n > 1 ? (sum_squares[a] - n * mean * mean) / (n - 1) : 0.0;
        out[a] = (sensitivity){
            .value = n ? sum_abs[a] / n : 0.0,
            .spread = sqrt(fmax(variance, 0.0)),
            .samples = n,
        };
    }
}
