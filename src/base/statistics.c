/* statistics.c — summary statistics (statistics.h). */
#include "base/statistics.h"

#include <math.h>

double sc_geometric_mean(const double *values, size_t count, size_t stride)
{
    double log_sum = 0.0;
    size_t used = 0;
    for (size_t i = 0; i < count; i++) {
        double value = values[i * stride];
        if (isfinite(value) && value > 0.0) {
            log_sum += log(value);
            used++;
        }
    }
    return used ? exp(log_sum / (double)used) : NAN;
}
