/* functional_engine.h — the engine that runs launches without timing: fast functional runs,
 * fast-forward and profiling. */
#ifndef SYNCSCOPE_EXEC_FUNCTIONAL_ENGINE_H
#define SYNCSCOPE_EXEC_FUNCTIONAL_ENGINE_H

#include "exec/memory_request.h"
#include "host/host_api.h"

typedef struct functional_engine_options {
    unsigned warp_size;
    unsigned cu_count;          /* CTAs are co-resident up to cu_count * ctas_per_cu */
    unsigned ctas_per_cu;
    unsigned quantum;           /* warp instructions a warp runs before the next warp's turn */
    uint64_t max_warp_instructions;  /* watchdog for one launch */
    /* Called with every global access once performed (a sampled run's cache warming); NULL: none. */
    void (*observe_access)(void *context, const exec_memory_request *request);
    void *observe_context;
} functional_engine_options;

functional_engine_options functional_engine_defaults(unsigned warp_size);
/* Creates the engine state for sc_device_set_engine. */
void *functional_engine_create(const functional_engine_options *options);
extern const sc_engine_ops functional_engine_ops;

#endif
