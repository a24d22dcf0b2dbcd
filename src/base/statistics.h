/* statistics.h — small summary statistics shared by reports and charts. */
#ifndef SYNCSCOPE_BASE_STATISTICS_H
#define SYNCSCOPE_BASE_STATISTICS_H

#include <stddef.h>

/* The geometric mean of values[0], values[stride], ... (count of them), skipping values that are
 * not finite and positive (missing bars, NAN); NAN when none is left. */
double sc_geometric_mean(const double *values, size_t count, size_t stride);

#endif
