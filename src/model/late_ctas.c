/* late_ctas.c — the CTAs of a launch's last round under a warp scheduler whose CUs run their
 * CTAs in step (late_ctas.h). */
#include "model/late_ctas.h"

#include <math.h>

/* late_ctas.h */
double late_ctas_busiest_share(double r, double cus, double left)
{
    double q = left / (cus * r), term = pow(1.0 - q, r), cdf = 0.0, expected = 0.0;
    for (double m = 0; m < r; m++) {
        cdf += term;
        expected += 1.0 - pow(fmin(cdf, 1.0), cus);
        term *= q < 1.0 ? (r - m) / (m + 1) * q / (1.0 - q) : 0.0;
    }
    return expected;
}

/* late_ctas.h */
bool late_ctas_to_first_freed_slots(bool first_freed, double ctas, double cus, double r, late_ctas *out)
{
    double round = cus * r, full_rounds = floor(ctas / round), left = ctas - full_rounds * round;
    if (!first_freed || full_rounds < 1 || left <= 0)
        return false;
    double busiest = late_ctas_busiest_share(r, cus, left);
    *out = (late_ctas){
        .full_rounds = full_rounds,
        .left = left,
        .busiest = busiest,
        .others = cus > 1 ? (left - busiest) / (cus - 1) : 0.0,
    };
    return true;
}
