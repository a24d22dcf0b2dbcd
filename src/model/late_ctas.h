/* late_ctas.h — where the CTAs beyond a launch's full rounds run. The detailed dispatcher gives
 * each slot a CTA frees the launch's next CTA (timing_engine.c's engine_dispatch), so which CUs
 * run the L = C mod (P r) CTAs of a launch's last round (C CTAs, P CUs holding r at once) depends
 * on the order in which the full rounds' CTAs finish, and that order on the warp scheduler
 * (docs/calibration.md, sessions 26 and 27):
 *
 *   gto  a CU's oldest CTA runs ahead and its CTAs finish one by one, the CUs' finishes
 *        interleaving in their dispatch order: the late CTAs go to the CUs in turn, as the
 *        model's round-robin placement deals them (gsi: 24 left at 13 CUs, 2 to 11 CUs, 1 to 2).
 *   lrr  a CU's CTAs run in step and finish close together: the late CTAs go to the first L of
 *        the round's P r CTAs to finish, wherever they are. Taken in no particular order, a CU's
 *        count of them is Binomial(r, L / (P r)) and the busiest CU's their expected largest
 *        (gtx480 at 13 CUs: 3.95 of 24; the detailed run's first CU takes 5-8), the other CUs
 *        sharing the rest evenly. */
#ifndef SYNCSCOPE_MODEL_LATE_CTAS_H
#define SYNCSCOPE_MODEL_LATE_CTAS_H

#include <stdbool.h>

typedef struct late_ctas {
    double full_rounds;   /* floor(C / (P r)): the rounds every CU runs r CTAs of */
    double left;          /* C mod (P r): the last round's CTAs */
    double busiest;       /* of those, the busiest CU's (expected largest share) */
    double others;        /* of those, each other CU's */
} late_ctas;

/* Whether the last round's CTAs go to the slots that free first (the configuration's
 * gpu.scheduler is lrr) and there are any after at least one full round; fills `out` then. */
bool late_ctas_to_first_freed_slots(bool first_freed, double ctas, double cus, double r, late_ctas *out);

/* The expected largest count, over `cus` CUs, of a CU's r CTAs among the first `left` of the
 * round's cus r CTAs to finish, each of a CU's CTAs among them with probability q = left / (cus r)
 * independently of the others: E max = sum over m < r of 1 - F(m)^cus, F the Binomial(r, q)
 * distribution function. */
double late_ctas_busiest_share(double r, double cus, double left);

#endif
