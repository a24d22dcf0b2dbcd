/* sweep_model.h — evaluating a sweep's points with the calibrated analytical models: for each
 * mechanism and workload the calibration the workload is modelled with on the system (model.h:
 * model_calibration_latest), one profile per workload and profile key
 * (reused while the swept keys leave the key alone), and the runs stored in batches of many
 * runs per transaction (mode 'model'), each point stored in the transaction that stores its runs. */
#ifndef SYNCSCOPE_STUDIES_SWEEP_MODEL_H
#define SYNCSCOPE_STUDIES_SWEEP_MODEL_H

#include <stdint.h>

#include "config/config.h"
#include "model/model.h"
#include "store/store.h"
#include "workloads/workload_ref.h"

typedef struct sweep_model sweep_model;

/* Looks the calibrations up in `calibrations` (the sweep's database `store`, or another one: each
 * calibration used is then copied into `store`, sc_store_copy_calibration, so the runs' calibration
 * ids name rows of their own database). `workloads` must outlive the model. Fails naming the
 * mechanism that has no model or no calibration on `system`. */
sweep_model *sweep_model_open(sc_store *store, sc_store *calibrations, const char *system,
                              const char *const *mechanisms, int mechanism_count, const sc_workload_ref *workloads,
                              int workload_count, const char *size, sc_error *error);

/* Predicts every mechanism x workload at `config` and queues the runs with point `index` of sweep
 * `sweep_id` (params_json: its varied keys). */
int sweep_model_point(sweep_model *model, const sc_config *config, int64_t sweep_id, int64_t index,
                      const char *params_json, sc_error *error);

/* Stores the queued points with their runs in one transaction, `extra` (detailed runs of the
 * point queued last: its spot checks) with them. */
int sweep_model_flush(sweep_model *model, const sc_run_record *extra, int extra_count, sc_error *error);

/* Every mechanism x workload's prediction at `config` and its sigma (model.h:
 * model_cycles_sigma), in predictions[] and sigmas[] at m * workload_count + w; nothing stored. */
int sweep_model_predict(sweep_model *model, const sc_config *config, model_prediction *predictions, double *sigmas,
                        sc_error *error);

/* The calibration mechanism `m` models workload `w` with, and its replacement (a refit). */
const model_calibration *sweep_model_calibration(const sweep_model *model, int m, int w);
void sweep_model_set_calibration(sweep_model *model, int m, int w, const model_calibration *calibration);

/* Predicts mechanism `m` on workload `w` at `config` again (with its current calibration) and
 * queues the run to replace the model run of that pair in the stored sweep point `point_id`;
 * sweep_model_flush_replacements stores the queued ones (store.h: sc_store_replace_model_runs). */
int sweep_model_replace(sweep_model *model, const sc_config *config, int64_t point_id, int m, int w, sc_error *error);
int sweep_model_flush_replacements(sweep_model *model, sc_error *error);

/* Points stored so far, with all their runs. */
int64_t sweep_model_points_stored(const sweep_model *model);

/* Model evaluations so far. */
int64_t sweep_model_evaluations(const sweep_model *model);

void sweep_model_close(sweep_model *model);

#endif
