/* occupancy.h — how many CTAs of a kernel one CU holds at once. The one rule the detailed
 * dispatcher (timing/timing_engine.c), the functional engine when asked to (exec/functional_engine.h:
 * the profiler's runs) and the analytical models (model/model_core.c) share.
 *
 * A CU holds a CTA while it has a CTA slot (gpu.max_ctas_per_cu), warp slots (gpu.max_warps_per_cu),
 * registers (gpu.registers_per_cu: registers per thread x threads per CTA) and shared memory
 * (gpu.shared_memory_per_cu) left for it. The CTAs of one launch are alike, so the CTAs a CU holds
 * at once is the smallest of the capacities divided by a CTA's needs (a need of 0 does not limit). */
#ifndef SYNCSCOPE_EXEC_OCCUPANCY_H
#define SYNCSCOPE_EXEC_OCCUPANCY_H

#include <stdint.h>

#include "base/error.h"
#include "exec/engine_interface.h"
#include "ptx/ptx_ir.h"

/* What one CU offers. */
typedef struct cu_capacity {
    uint64_t ctas, warps, registers, shared_bytes;
} cu_capacity;

/* What one CTA of a kernel needs. */
typedef struct cta_needs {
    uint64_t warps, registers, shared_bytes;
} cta_needs;

/* 32-bit register slots a thread of `entry` needs. PTX registers are virtual (ptxas maps them to
 * far fewer), so this is the declared count (64-bit ones count twice, predicates not at all),
 * capped at 32: an estimate. */
uint32_t occupancy_registers_per_thread(const ptx_function *entry);

/* The needs of a CTA of `launch` on warps of `warp_size` lanes. */
cta_needs occupancy_needs_of_launch(const sc_launch *launch, unsigned warp_size);

/* CTAs a CU holds at once; 0 if one does not fit. */
uint64_t occupancy_ctas_per_cu(const cu_capacity *cu, const cta_needs *cta);

/* 0 if a CTA of kernel `name` fits on a CU; else -1 with an error naming the configuration key it
 * exceeds. */
int occupancy_check_fits(const cu_capacity *cu, const cta_needs *cta, const char *name, sc_error *error);

#endif
