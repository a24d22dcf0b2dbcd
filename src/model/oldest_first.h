/* oldest_first.h — a CU's CTAs under greedy-then-oldest issue (gpu.scheduler gto): the oldest
 * resident CTA's warps issue first, so the CTAs a CU starts together finish one after another
 * and the last runs its last rounds alone (docs/calibration.md, "matmul on gsi: under gto a
 * CU's CTAs finish one after another", session 29). */
#ifndef SYNCSCOPE_MODEL_OLDEST_FIRST_H
#define SYNCSCOPE_MODEL_OLDEST_FIRST_H

/* The most CTAs a CU's oldest-first drain is followed for (every preset's gpu.max_ctas_per_cu); a
 * CU holding more at once is charged at the rate of all of them together, as under round-robin
 * issue. */
enum { OLDEST_FIRST_MAX_CTAS = 8 };

/* Fills finish[i - 1] with the cycle at which the i-th oldest of `ctas` CTAs of `cta_work` warp
 * instructions each, all started together on one CU, finishes when the older CTAs' warps always
 * issue first: the i oldest run as if the younger were not there, so while m of them are left
 * they advance together at cu_rate[m - 1], the CU's warp instructions per cycle with m CTAs
 * resident. `cu_rate` and `finish` have `ctas` entries. */
void oldest_first_finish(const double *cu_rate, int ctas, double cta_work, double *finish);

#endif
