/* oldest_first.c — the finishing time of a CU's CTAs started together under greedy-then-oldest
 * issue (oldest_first.h). CTA i (i = 1 oldest) finishes at t_i. The i oldest CTAs see none of
 * the younger ones, so over (t_{j-1}, t_j] (CTAs j..ctas left) those of them still running, i - j + 1,
 * advance together at the CU's rate with i - j + 1 CTAs resident, R(i - j + 1):
 *     i W = sum_{j=1}^{i} R(i - j + 1) (t_j - t_{j-1}),  t_0 = 0,
 * so t_i = t_{i-1} + (i W - sum_{j<i} R(i - j + 1) (t_j - t_{j-1})) / R(1). Where the rates grow in
 * proportion to the CTAs (a latency-bound CU) every CTA finishes at W / R(1), as under
 * round-robin issue; where they grow less (a CU bound by a station its CTAs share) the younger
 * CTAs run their last rounds with fewer CTAs beside them, at the lower rates, and the last CTA's
 * t_ctas exceeds the round-robin ctas W / R(ctas). */
#include "model/oldest_first.h"

void oldest_first_finish(const double *cu_rate, int ctas, double cta_work, double *finish)
{
    for (int i = 1; i <= ctas; i++) {
        double before = i > 1 ? finish[i - 2] : 0.0, done = 0;   /* the i oldest CTAs' work by t_{i-1} */
        for (int j = 1; j < i; j++)
            done += cu_rate[i - j] * (finish[j - 1] - (j > 1 ? finish[j - 2] : 0.0));
        double left = i * cta_work - done;
        finish[i - 1] = before + (left > 0 ? left / cu_rate[0] : 0.0);
    }
}
