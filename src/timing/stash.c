/* stash.c — the stash of GSI thesis §4.6 (Komuravelli et al.'s stash, docs/local-memory.md): a
 * launch's stash mapping makes each CTA's chunk of global memory directly addressed local memory
 * inside the coherent address space.
 *
 * The values stay in the executor's shared memory (exec/ performs shared accesses at issue); this
 * file keeps, per mapped word of each CTA, which of its bytes the stash holds (fetched since the
 * CU's last acquire, or written by the CTA), and after the executor performed a shared access it
 * decides what the access costs:
 *   - a load whose mapped bytes are all held hits locally (the banked scratchpad's timing);
 *   - a load of a byte not held (the first access of the word) becomes a global request of the
 *     mapped global addresses of its missing lanes: a strong (relaxed, GPU-scope) load, which the
 *     mechanisms that read strong loads around the L1 (denovo, wt, nol1) serve without filling
 *     the L1 (the thesis's bypass). It goes through the load/store unit and holds an MSHR like any
 *     load (MEM_STRUCT / mshr_full when they run out); only its warp waits for it (the scoreboard:
 *     MEM_DATA, with the sub-category of where it was served). When it completes, its data fills
 *     the bytes the stash does not hold yet and the missing lanes' registers;
 *   - a load whose missing words one request in flight already fetches sends nothing: it waits
 *     for that request's fill and reads the stash then (MEM_DATA / l1_coalesce, the stash map's
 *     merge of a second access to a word on its way);
 *   - a store makes its bytes held (dirty) and is written through the mechanism's store path as a
 *     plain global store of the mapped addresses (the store buffer: SB_FULL when it is full).
 *     Under denovo the buffer's flush registers the words, so the L2 names this SM their owner and
 *     forwards other SMs' requests for them here (docs/local-memory.md says how the answer is
 *     modelled), and the owned words go home lazily, when replaced.
 * An acquire of the CU (a fence or a load/atomic with acquire semantics) makes every held byte of
 * its CTAs not held, as DeNovo self-invalidates (a store's bytes are then in the mechanism's
 * hands, so nothing is lost); requests issued before it still answer their own load and the loads
 * waiting for them, but no later load waits for them and their fills make nothing held. Atomics and
 * reductions on mapped words are refused (the executor performs them at issue, before the words
 * could arrive).
 */
#include "timing/timing_internal.h"

#include <stdlib.h>
#include <string.h>

#include "ptx/ptx_ir.h"

#define STASH_WORD_BYTES SC_MAPPING_WORD_BYTES

static const sc_dma_mapping *stash_mapping(const timing_engine *engine)
{
    const sc_dma_mapping *mapping = &engine->kernel.launch->dma;
    return mapping->kind == SC_MAPPING_STASH && mapping->bytes_per_cta ? mapping : NULL;
}

void stash_cta_placed(timing_engine *engine, cta_slot *cta)
{
    const sc_dma_mapping *mapping = stash_mapping(engine);
    stash_cta_finished(cta);
    if (!mapping)
        return;
    size_t words = mapping->bytes_per_cta / STASH_WORD_BYTES;
    cta->stash_held = calloc(words, 1);
    cta->stash_fetch = malloc(words * sizeof *cta->stash_fetch);
    for (size_t w = 0; w < words; w++)
        cta->stash_fetch[w] = MEMORY_OP_NONE;
}

void stash_cta_finished(cta_slot *cta)
{
    free(cta->stash_held);
    free(cta->stash_fetch);
    cta->stash_held = NULL;
    cta->stash_fetch = NULL;
}

void stash_acquire(timing_engine *engine, compute_unit *cu, uint64_t cycle)
{
    const sc_dma_mapping *mapping = stash_mapping(engine);
    if (!mapping)
        return;
    size_t words = mapping->bytes_per_cta / STASH_WORD_BYTES;
    for (unsigned c = 0; c < engine->config.core.max_ctas; c++) {
        cta_slot *cta = &cu->ctas[c];
        if (!cta->used || !cta->stash_held)
            continue;
        memset(cta->stash_held, 0, words);
        for (size_t w = 0; w < words; w++)
            cta->stash_fetch[w] = MEMORY_OP_NONE;
    }
    cu->stash_acquired = cycle;
}

/* Offset of the CTA's mapped chunk in its shared memory. */
static uint64_t chunk_offset(const cta_slot *cta)
{
    return (uint64_t)(exec_dma_shared(&cta->cta) - cta->cta.shared_memory);
}

/* Whether the stash holds every byte of [offset, offset + bytes) of the chunk. */
static bool held(const cta_slot *cta, uint64_t offset, unsigned bytes)
{
    for (uint64_t b = offset; b < offset + bytes; b++)
        if (!(cta->stash_held[b / STASH_WORD_BYTES] & 1u << (b % STASH_WORD_BYTES)))
            return false;
    return true;
}

static void hold(cta_slot *cta, uint64_t offset, unsigned bytes)
{
    for (uint64_t b = offset; b < offset + bytes; b++)
        cta->stash_held[b / STASH_WORD_BYTES] |= (uint8_t)(1u << (b % STASH_WORD_BYTES));
}

/* The request in flight that fetches every word of [offset, offset + bytes) the stash does not
 * hold, or MEMORY_OP_NONE when there is no single such request. */
static uint32_t fetching(const cta_slot *cta, uint64_t offset, unsigned bytes)
{
    uint32_t op = MEMORY_OP_NONE;
    for (uint64_t w = offset / STASH_WORD_BYTES; w <= (offset + bytes - 1) / STASH_WORD_BYTES; w++) {
        if (cta->stash_held[w] == (1u << STASH_WORD_BYTES) - 1)
            continue;
        if (cta->stash_fetch[w] == MEMORY_OP_NONE || (op != MEMORY_OP_NONE && cta->stash_fetch[w] != op))
            return MEMORY_OP_NONE;
        op = cta->stash_fetch[w];
    }
    return op;
}

stash_verdict stash_access(timing_engine *engine, compute_unit *cu, warp_slot *slot, uint32_t handle)
{
    const sc_dma_mapping *mapping = stash_mapping(engine);
    exec_memory_request *request = &memory_op_get(engine->memory, handle)->request;
    if (!mapping || request->shared_lanes == 0)
        return STASH_LOCAL;
    cta_slot *cta = slot->cta;
    uint64_t base = chunk_offset(cta), chunk = exec_dma_global(&cta->cta);
    unsigned bytes = (unsigned)request->element_bytes * request->vector;
    uint64_t fetch_lanes = 0, wait_lanes = 0;
    uint32_t waits_for = MEMORY_OP_NONE;
    bool merge = true;   /* every lane not held waits for one request in flight */
    for (uint64_t m = request->shared_lanes; m; m &= m - 1) {
        unsigned lane = (unsigned)__builtin_ctzll(m);
        uint64_t offset = request->address[lane] - base;
        if (offset >= mapping->bytes_per_cta)
            continue;   /* shared memory outside the chunk: plain scratchpad */
        if (request->kind == EXEC_ACCESS_ATOMIC || request->kind == EXEC_ACCESS_REDUCE) {
            sc_fail(engine->error, "%s:%d: atom/red on stash-mapped shared memory is not modelled "
                    "(docs/local-memory.md)", request->kernel_path, request->instruction->line);
            return STASH_FAILED;
        }
        request->address[lane] = chunk + offset;
        if (request->kind == EXEC_ACCESS_STORE) {   /* held (dirty), and written through */
            hold(cta, offset, bytes);
            fetch_lanes |= 1ull << lane;
            continue;
        }
        if (held(cta, offset, bytes))
            continue;   /* a local hit */
        uint32_t op = fetching(cta, offset, bytes);
        merge = merge && op != MEMORY_OP_NONE && (waits_for == MEMORY_OP_NONE || op == waits_for);
        waits_for = op;
        if (merge)
            wait_lanes |= 1ull << lane;
        else
            fetch_lanes |= 1ull << lane;
    }
    if (!fetch_lanes && !wait_lanes)
        return STASH_LOCAL;
    if (request->kind == EXEC_ACCESS_STORE) {
        request->lane_mask = fetch_lanes;
        return STASH_GLOBAL;
    }
    if (merge) {   /* every missing lane waits for one fetch in flight */
        request->lane_mask = wait_lanes;
        if (cu->stash_waiter_count == cu->stash_waiter_capacity) {
            cu->stash_waiter_capacity = cu->stash_waiter_capacity ? 2 * cu->stash_waiter_capacity : 8;
            cu->stash_waiters = realloc(cu->stash_waiters, cu->stash_waiter_capacity * sizeof *cu->stash_waiters);
        }
        cu->stash_waiters[cu->stash_waiter_count++] = (stash_waiter){.op = handle, .waits_for = waits_for};
        return STASH_WAITS;
    }
    request->lane_mask = fetch_lanes | wait_lanes;
    request->semantics = PTX_SEM_RELAXED;
    request->scope = PTX_SCOPE_GPU;
    for (uint64_t m = request->lane_mask; m; m &= m - 1) {
        uint64_t offset = request->address[__builtin_ctzll(m)] - chunk;
        for (uint64_t w = offset / STASH_WORD_BYTES; w <= (offset + bytes - 1) / STASH_WORD_BYTES; w++)
            cta->stash_fetch[w] = handle;
    }
    return STASH_GLOBAL;
}

void stash_fill(timing_engine *engine, compute_unit *cu, uint32_t handle, uint64_t cycle)
{
    memory_op *op = memory_op_get(engine->memory, handle);
    cta_slot *cta = cu->slots[op->warp].cta;
    uint8_t *chunk_bytes = exec_dma_shared(&cta->cta);
    uint64_t chunk = exec_dma_global(&cta->cta);
    bool fresh = op->issued_cycle > cu->stash_acquired;   /* no acquire since it was issued */
    const exec_memory_request *request = &op->request;
    for (uint64_t m = request->lane_mask; m; m &= m - 1) {
        unsigned lane = (unsigned)__builtin_ctzll(m);
        for (unsigned k = 0; k < request->vector; k++) {
            uint64_t offset = request->address[lane] - chunk + (uint64_t)k * request->element_bytes;
            for (unsigned b = 0; b < request->element_bytes; b++) {
                uint64_t word = (offset + b) / STASH_WORD_BYTES;
                uint8_t bit = (uint8_t)(1u << ((offset + b) % STASH_WORD_BYTES));
                if (cta->stash_fetch[word] == handle)
                    cta->stash_fetch[word] = MEMORY_OP_NONE;
                if (cta->stash_held[word] & bit)
                    continue;   /* the CTA wrote it meanwhile */
                chunk_bytes[offset + b] = (uint8_t)(request->data[lane][k] >> (8 * b));
                if (fresh)
                    cta->stash_held[word] |= bit;
            }
        }
    }
    /* the loads waiting for it read the stash now */
    for (unsigned i = 0; i < cu->stash_waiter_count;) {
        if (cu->stash_waiters[i].waits_for != handle) {
            i++;
            continue;
        }
        uint32_t waiter = cu->stash_waiters[i].op;
        cu->stash_waiters[i] = cu->stash_waiters[--cu->stash_waiter_count];
        exec_memory_request *waiting = &memory_op_get(engine->memory, waiter)->request;
        uint8_t *pointers[EXEC_MAX_WARP_WIDTH];
        for (uint64_t m = waiting->lane_mask; m; m &= m - 1) {
            unsigned lane = (unsigned)__builtin_ctzll(m);
            pointers[lane] = chunk_bytes + (waiting->address[lane] - chunk);
        }
        exec_memory_perform_lanes(waiting, waiting->lane_mask, pointers);
        memory_op_get(engine->memory, waiter)->source = GSI_SOURCE_L1_COALESCE;
        cu_op_done(engine, waiter, cycle);
    }
}
