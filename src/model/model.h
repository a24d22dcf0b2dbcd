/* model.h — the fast layer's public API: analytical models of each mechanism that predict
 * cycles, the GSI stall breakdown and traffic from a workload profile and a design point, with
 * free parameters calibrated against detailed runs.
 *
 * Typical use (a sweep):
 *
 *     sc_workload_ref workload;  sc_workload_ref_resolve("vecadd", NULL, &workload, &error);   // or "m.json"
 *     model_profile *profile = model_profile_obtain(store, &workload, "small", 1, config, &error);
 *     const model_mechanism *m = model_mechanism_find(name);      // protocols/mechanism.h
 *     model_calibration cal;
 *     model_calibration_latest(store, name, "gtx480", &workload, "small", 1, &cal, &error);   // or model_params_defaults
 *     for each point:  model_point_from_config(config_of_point, &point, &error);
 *                      model_point_of_mechanism(m, config_of_point, &point, &error);
 *                      m->evaluate(profile, &point, &cal.params, &prediction);
 *
 * model_point_from_config reads the configuration once (string-keyed lookups), and
 * model_point_of_mechanism adds the numbers a mechanism derives from the keys it owns; evaluate is
 * allocation-free and costs, per kernel group, a few table lookups of the reuse summaries (one
 * cache line each) and one to three network solves of 2.6-3.3 full cycle_at evaluations (plus one
 * at zero load) each; what depends on the profile alone is computed once, when it is loaded
 * (profile.h: model_group_terms) (syncscope bench model prints the rate per workload and per group). A profile is valid for the design
 * points whose key (profile.h: CU count, warp size, CTA residency, line size, schedulers, issue
 * width, L1 banks) matches its own; model_profile_obtain takes a new one when it does not.
 *
 * The equations are in model_core.c (the queueing network every mechanism shares) and in each
 * mechanism's module (src/protocols/NAME/NAME_model.c: where each line request is served). A new
 * mechanism's module defines its model_mechanism there, lists it in its registry entry, and adds
 * src/protocols/NAME/NAME_params.json with its free parameters' initial values and bounds (named
 * by its registry entry's params_file).
 */
#ifndef SYNCSCOPE_MODEL_MODEL_H
#define SYNCSCOPE_MODEL_MODEL_H

#include <stdbool.h>
#include <stdint.h>

#include "base/error.h"
#include "config/config.h"
#include "model/profile.h"
#include "stalls/gsi.h"
#include "store/store.h"
#include "workloads/workload_ref.h"

/* Numbers of a design point that only a mechanism's model knows how to derive (model_point.h's
 * protocol_terms). */
#define MODEL_PROTOCOL_TERMS 5

/* A design point's numbers, in GPU cycles, lines and bytes. */
typedef struct model_point {
    double cu_count, max_warps, max_ctas, registers, shared_bytes;
    double issue_rate;                      /* schedulers x issue width: warp instructions per cycle */
    bool oldest_first;                      /* greedy-then-oldest issue (gpu.scheduler gto): oldest_first.h */
    double alu_cycles, sfu_cycles;          /* cycles one warp instruction occupies the SIMD units / SFU */
    double alu_latency, sfu_latency, shared_latency, branch_penalty, launch_latency;
    double line_bytes, l1_lines, l1_banks, l1_latency, l1_mshrs, store_buffer_entries;
    double l2_lines, l2_banks, l2_latency;     /* mean end-to-end L2 hit latency */
    double dram_latency;                    /* mean end-to-end DRAM latency */
    /* The memory side (0 lines: absent): an L2 miss is answered by the CPU cluster when it owns
     * the line, else by a memory-side L3 hit, else by DRAM; latencies end to end. */
    double cpu_lines, cpu_latency;
    double l3_lines, l3_banks, l3_latency;
    double protocol_terms[MODEL_PROTOCOL_TERMS];   /* the mechanism's own numbers for the point,
                                               filled by its load_point (a write cache's lines, a
                                               directory's forward latency) */
    double dram_queue_lines;                /* writes the DRAM channels' request and write queues take */
    /* 1 when the L2 sends every write and atomic on to DRAM as it takes them (l2.write_policy
     * write_through, as the engine's L2 banks do unless the mechanism's build makes the L2 the
     * home of written lines: its load_point clears it then), else 0 (write-back). */
    double l2_write_through;
    double dram_channels, dram_line_cycles; /* GPU cycles a line occupies a channel's bus */
    double noc_data_cycles, noc_header_cycles;   /* GPU cycles a message with / without a line holds a NoC port */
    /* Local memory (docs/local-memory.md): whether the scratchpad is banked (local_memory.timing),
     * the line requests a CU's DMA engine presents per cycle, and whether an access to a pending
     * transfer blocks the whole CU (local_memory.dma_blocking core) or only its warp. */
    double scratchpad_banked, dma_requests_per_cycle, dma_blocks_cu;
    char profile_key[PROFILE_KEY_BYTES];    /* the profile this point needs (profile.h) */
} model_point;

/* Reads a point from a configuration (also checks it with the detailed model's derivations, so
 * a point the detailed model rejects is rejected here with the same message). The numbers a
 * mechanism derives from its own keys are left 0. */
int model_point_from_config(const sc_config *config, model_point *point, sc_error *error);

/* ---- free parameters ---- */

typedef enum model_parameter {
    MODEL_LATENCY_EXPOSURE = 0,   /* share of a load's latency its warp waits for (MLP, overlap) */
    MODEL_BARRIER_CYCLES,         /* cycles a warp waits per CTA barrier */
    MODEL_DRAM_EFFICIENCY,        /* achieved share of peak DRAM bandwidth (row conflicts, turnarounds) */
    MODEL_ISSUE_SPREAD,           /* no_stall cycles per issued warp instruction (1/issue_rate..1) */
    MODEL_LAUNCH_OVERHEAD,        /* cycles per launch: fill and drain (release at kernel end) */
    MODEL_PARAMETER_COUNT
} model_parameter;

typedef struct model_params {
    double value[MODEL_PARAMETER_COUNT];
} model_params;

/* A mechanism's parameter file (its registry entry's params_file, relative to the source tree:
 * src/protocols/NAME/NAME_params.json): initial values and bounds. */
typedef struct model_param_spec {
    model_params initial, lower, upper;
} model_param_spec;

const char *model_parameter_name(model_parameter parameter);
/* Whether a parameter moves a prediction's cycles: issue_spread only splits a CU's busy cycles
 * between no_stall and the stalls (model_core.c's GSI split), so the cycles do not depend on it. */
bool model_parameter_moves_cycles(model_parameter parameter);
int model_param_spec_load(const char *params_file, model_param_spec *spec, sc_error *error);

/* ---- predictions ---- */

typedef struct model_prediction {
    double cycles;
    double stalls[GSI_CATEGORY_COUNT];       /* mean CU cycles per category; they sum to cycles */
    double l1_hits, l1_misses, l2_hits, l2_misses;     /* line requests */
    double cpu_probe_hits, l3_hits, l3_misses;         /* L2 read misses by who answers (l3_misses: DRAM, with an L3) */
    double noc_bytes_to_cus, noc_bytes_from_cus;       /* over all CU links */
    double dram_read_bytes, dram_write_bytes;
} model_prediction;

typedef struct model_mechanism {
    const char *name;
    /* Allocation-free; `out` is fully overwritten. */
    void (*evaluate)(const model_profile *profile, const model_point *point, const model_params *params,
                     model_prediction *out);
    /* Fills the point's numbers that come from the keys the mechanism owns, checking them as its
     * detailed protocol does (a bad value fails naming its key). NULL: it owns none. */
    int (*load_point)(const sc_config *config, model_point *point, sc_error *error);
} model_mechanism;

/* Completes a point from model_point_from_config for `mechanism` (its load_point). */
int model_point_of_mechanism(const model_mechanism *mechanism, const sc_config *config, model_point *point,
                             sc_error *error);

/* ---- stored profiles and calibrations ---- */

/* The stored profile of (workload, size, seed) under the configuration's system and profile
 * key, or a new one from a functional pass (then stored). A manifest's profile is keyed by its
 * content digest as well (its parameters text, workload_ref.h), so a changed kernel or input is
 * profiled again. `store` may be NULL (not kept). */
model_profile *model_profile_obtain(sc_store *store, const sc_workload_ref *workload, const char *size, uint64_t seed,
                                    const sc_config *config, sc_error *error);

/* Its three steps, for callers that take profiles on several threads and store them on one: the
 * stored profile (NULL with an empty error message when none is stored, or with an error), a new
 * one from a functional pass (touches no store), and storing one that model_profile_take made. */
model_profile *model_profile_find(sc_store *store, const sc_workload_ref *workload, const char *size, uint64_t seed,
                                  const sc_config *config, sc_error *error);
model_profile *model_profile_take(const sc_workload_ref *workload, const char *size, uint64_t seed,
                                  const sc_config *config, sc_error *error);
int model_profile_keep(sc_store *store, const sc_workload_ref *workload, const char *size, uint64_t seed,
                       const sc_config *config, const model_profile *profile, sc_error *error);

typedef struct model_calibration {
    int64_t id;
    model_params params;
    double covariance[MODEL_PARAMETER_COUNT][MODEL_PARAMETER_COUNT];
    double residual_rms;          /* RMS of the fit's log(model / detailed) cycle residuals */
    double r2;
    int sample_count;
    bool own_workload;            /* fitted to the modelled workload alone (its sample windows) */
    double validation_rms;        /* RMS held-out log(model / detailed) cycle error of its validations, else
                                     of every validation of mechanism+system (store.h: sc_store_validation_spread) */
    int64_t validation_count;     /* validations behind validation_rms (0: none stored) */
} model_calibration;

/* The calibration of mechanism+system that `workload` at `size` and `seed` is modelled with
 * (store.h: sc_store_latest_calibration): the latest fitted to that workload alone with those
 * parameters (a manifest: its content digest), else the latest suite-wide one (for a manifest:
 * fitted on its content, else on built-in workloads only). `size` NULL: the suite-wide one only.
 * Fails naming mechanism and system when there is none. */
int model_calibration_latest(sc_store *store, const char *mechanism, const char *system, const sc_workload_ref *workload,
                             const char *size, uint64_t seed, model_calibration *out, sc_error *error);

/* The same calibration looked up in the database `from` and copied into `to` (unless `to` holds
 * one of the same content, store.h: sc_store_copy_calibration); out->id is its id in `to`. */
int model_calibration_import(sc_store *to, sc_store *from, const char *mechanism, const char *system,
                             const sc_workload_ref *workload, const char *size, uint64_t seed, model_calibration *out,
                             sc_error *error);

/* The stored calibration row `workload` at `size` and `seed` is modelled with (as
 * model_calibration_latest chooses it; release with sc_calibration_row_release). */
int model_calibration_row(sc_store *store, const char *mechanism, const char *system, const sc_workload_ref *workload,
                          const char *size, uint64_t seed, sc_calibration_row *row, sc_error *error);

/* Relative one-sigma uncertainty of a prediction's cycles (of its log): the spread of the
 * calibration's misfit, the larger of its fit's RMS log residual and its validations' held-out
 * RMS log error, combined with the parameters' covariance propagated through the model at this
 * point: sigma^2 = max(rms_fit, rms_validation)^2 + g^T C g (docs/calibration.md); g by one
 * evaluation per parameter that moves the cycles, moved by a small step (0 for the others).
 * `cycles`: the prediction's own cycles, as evaluate gave them at this point with the
 * calibration's parameters (the caller has them). */
double model_cycles_sigma(const model_mechanism *mechanism, const model_profile *profile, const model_point *point,
                          const model_calibration *calibration, double cycles);

#endif
