/* occupancy.c — CTAs per CU from the CU's capacity and a CTA's needs (occupancy.h). */
#include "exec/occupancy.h"

uint32_t occupancy_registers_per_thread(const ptx_function *entry)
{
    uint32_t slots = 0;
    for (int32_t r = 0; r < entry->register_count; r++) {
        ptx_type type = (ptx_type)entry->registers[r].type;
        if (type != PTX_TYPE_PRED)
            slots += ptx_type_size(type) > 4 ? 2 : 1;
    }
    return slots < 32 ? (slots ? slots : 1) : 32;
}

cta_needs occupancy_needs_of_launch(const sc_launch *launch, unsigned warp_size)
{
    uint64_t threads = (uint64_t)launch->block.x * launch->block.y * launch->block.z;
    return (cta_needs){
        .warps = (threads + warp_size - 1) / warp_size,
        .registers = occupancy_registers_per_thread(&launch->module->functions[launch->function]) * threads,
        .shared_bytes = (uint64_t)launch->static_shared_bytes + launch->dynamic_shared_bytes,
    };
}

/* The capacity over the need, or `ctas` when the need is 0 or leaves more. */
static uint64_t limit(uint64_t ctas, uint64_t capacity, uint64_t need)
{
    return need && capacity / need < ctas ? capacity / need : ctas;
}

uint64_t occupancy_ctas_per_cu(const cu_capacity *cu, const cta_needs *cta)
{
    uint64_t ctas = limit(cu->ctas, cu->warps, cta->warps);
    ctas = limit(ctas, cu->registers, cta->registers);
    return limit(ctas, cu->shared_bytes, cta->shared_bytes);
}

int occupancy_check_fits(const cu_capacity *cu, const cta_needs *cta, const char *name, sc_error *error)
{
    if (cta->warps > cu->warps)
        return sc_fail(error, "kernel %s: a CTA of %llu warps exceeds gpu.max_warps_per_cu (%llu)", name,
                       (unsigned long long)cta->warps, (unsigned long long)cu->warps);
    if (cta->shared_bytes > cu->shared_bytes)
        return sc_fail(error, "kernel %s: a CTA needs %llu bytes of shared memory, more than "
                       "gpu.shared_memory_per_cu (%llu)", name, (unsigned long long)cta->shared_bytes,
                       (unsigned long long)cu->shared_bytes);
    if (cta->registers > cu->registers)
        return sc_fail(error, "kernel %s: a CTA needs %llu registers, more than gpu.registers_per_cu (%llu)",
                       name, (unsigned long long)cta->registers, (unsigned long long)cu->registers);
    return 0;
}
