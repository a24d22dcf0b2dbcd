/* sweep_spot.h — a model sweep's spot checks where they matter ("spot_check": {"widest": K,
 * "outside": true, "max_outside": N, "mode": "sampled"}). After the model pass, the shard's points
 * are predicted again to find the K whose prediction has the widest band (the largest sigma over
 * the point's mechanism x workload pairs) and, with "outside", up to N points outside the region
 * some pair's calibration covered (model/calibrated_region.h). Those points are measured, every
 * pair in `mode` (sampled: short detailed windows, the sampled engine's default sampling), each
 * run stored in its sweep point beside the model runs, and each measurement compared with its
 * prediction's 95% band. A pair with a measurement outside its band is refitted
 * (calibrate_refit_study: its spot measurements as samples, the calibration the sweep used as the
 * prior), the refit stored as that workload's calibration, and the pair's model runs at every
 * point of the shard evaluated again with it and stored in place of the old ones (each model run
 * names its calibration: its calibration_id metric). */
#ifndef SYNCSCOPE_STUDIES_SWEEP_SPOT_H
#define SYNCSCOPE_STUDIES_SWEEP_SPOT_H

#include <stdbool.h>
#include <stdint.h>

#include "studies/sweep.h"

/* The band a measurement is compared with: the prediction times exp(+-2 sigma), the 95% band
 * `run --mode model` prints. */
#define SWEEP_SPOT_BAND_SIGMAS 2.0

/* Chooses among `count` points: the `widest` with the largest widths[] (ties: the earlier), then,
 * with take_outside, up to max_outside of those with outside[] set that are not chosen already,
 * in order. Writes their positions to chosen[] (room for widest + max_outside) in increasing
 * order and returns how many, or -1 out of memory. */
int64_t sweep_spot_select(const double *widths, const bool *outside, int64_t count, int widest, bool take_outside,
                          int max_outside, int64_t *chosen);

/* Whether `measured` cycles lie outside the band of a prediction of `predicted` cycles with
 * relative (log) sigma `sigma`. */
bool sweep_spot_outside_band(double predicted, double measured, double sigma);

/* Spot-checks the evaluated shard of a model sweep `sweep_id` as its spec says, refits where a
 * measurement disagrees, and fills session->spot. */
int sweep_spot_check(sweep_session *session, sc_store *store, int64_t sweep_id, sc_error *error);

#endif
