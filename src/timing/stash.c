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
 *   - a store makes its bytes held (dirty) and is written through the mechanism's store path as a
 *     plain global store of the mapped addresses (the store buffer: SB_FULL when it is full).
 *     Under denovo the buffer's flush registers the words, so the L2 names this SM their owner and
 *     forwards other SMs' requests for them here (docs/local-memory.md says how the answer is
 *     modelled), and the owned words go home lazily, when replaced.
 * An acquire of the CU (a fence or a load/atomic with acquire semantics) makes every held byte of
 * its CTAs not held, as DeNovo self-invalidates (a store's bytes are then in the mechanism's
 * hands, so nothing is lost), and fills from loads issued before it are dropped. Atomics and
 * reductions on mapped words are refused (the executor performs them at issue, before the words
 * could arrive).
 */
#include "timing/timing_internal.h"

#include <stdlib.h>
#include <string.h>

#include "exec/address_map.h"
#include "ptx/ptx_ir.h"

#define STASH_WORD_BYTES 4

static const sc_dma_mapping *stash_mapping(const timing_engine *engine)
{
    const sc_dma_mapping *mapping = &engine->kernel.launch->dma;
    return mapping->kind == SC_MAPPING_STASH && mapping->bytes_per_cta ? mapping : NULL;
}

void stash_cta_placed(timing_engine *engine, cta_slot *cta)
{
    const sc_dma_mapping *mapping = stash_mapping(engine);
    free(cta->stash_held);
    cta->stash_held = mapping ? calloc(mapping->bytes_per_cta / STASH_WORD_BYTES, 1) : NULL;
}

void stash_cta_finished(cta_slot *cta)
{
    free(cta->stash_held);
    cta->stash_held = NULL;
}

void stash_acquire(timing_engine *engine, compute_unit *cu, uint64_t cycle)
{
    const sc_dma_mapping *mapping = stash_mapping(engine);
    if (!mapping)
        return;
    for (unsigned c = 0; c < engine->config.core.max_ctas; c++)
        if (cu->ctas[c].used && cu->ctas[c].stash_held)
            memset(cu->ctas[c].stash_held, 0, mapping->bytes_per_cta / STASH_WORD_BYTES);
    cu->stash_acquired = cycle;
}

/* Offset of the CTA's mapped chunk in its shared memory. */
static uint64_t chunk_offset(const cta_slot *cta)
{
    return (uint64_t)(exec_dma_shared(&cta->cta) - cta->cta.shared_memory);
}

/* Whether the stash holds every byte of [offset, offset + bytes) of the chunk; with `hold`, makes
 * it hold them. */
static bool held(cta_slot *cta, uint64_t offset, unsigned bytes, bool hold)
{
    bool all = true;
    for (uint64_t b = offset; b < offset + bytes; b++) {
        uint8_t bit = (uint8_t)(1u << (b % STASH_WORD_BYTES));
        all = all && (cta->stash_held[b / STASH_WORD_BYTES] & bit);
        if (hold)
            cta->stash_held[b / STASH_WORD_BYTES] |= bit;
    }
    return all;
}

int stash_access(timing_engine *engine, warp_slot *slot, exec_memory_request *request)
{
    const sc_dma_mapping *mapping = stash_mapping(engine);
    if (!mapping || request->shared_lanes == 0)
        return 0;
    cta_slot *cta = slot->cta;
    uint64_t base = chunk_offset(cta), chunk = exec_dma_global(&cta->cta);
    unsigned bytes = (unsigned)request->element_bytes * request->vector;
    uint64_t global_lanes = 0;
    for (uint64_t m = request->shared_lanes; m; m &= m - 1) {
        unsigned lane = (unsigned)__builtin_ctzll(m);
        uint64_t offset = request->address[lane] - base;
        if (offset >= mapping->bytes_per_cta)
            continue;   /* shared memory outside the chunk: plain scratchpad */
        if (request->kind == EXEC_ACCESS_ATOMIC || request->kind == EXEC_ACCESS_REDUCE)
            return sc_fail(engine->error, "%s:%d: atom/red on stash-mapped shared memory is not modelled "
                           "(docs/local-memory.md)", request->kernel_path, request->instruction->line);
        if (request->kind == EXEC_ACCESS_STORE)
            held(cta, offset, bytes, true);   /* written: held (dirty), and written through below */
        else if (held(cta, offset, bytes, false))
            continue;   /* a local hit */
        global_lanes |= 1ull << lane;
        request->address[lane] = chunk + offset;
    }
    if (!global_lanes)
        return 0;
    request->lane_mask = global_lanes;
    if (request->kind == EXEC_ACCESS_LOAD) {
        request->semantics = PTX_SEM_RELAXED;
        request->scope = PTX_SCOPE_GPU;
    }
    return 1;
}

void stash_fill(timing_engine *engine, compute_unit *cu, const memory_op *op)
{
    const sc_dma_mapping *mapping = stash_mapping(engine);
    if (!mapping || op->issued_cycle <= cu->stash_acquired)
        return;   /* an acquire came after it was issued: its data may be older than the acquire */
    cta_slot *cta = cu->slots[op->warp].cta;
    uint8_t *chunk_bytes = exec_dma_shared(&cta->cta);
    uint64_t chunk = exec_dma_global(&cta->cta);
    const exec_memory_request *request = &op->request;
    for (uint64_t m = request->lane_mask; m; m &= m - 1) {
        unsigned lane = (unsigned)__builtin_ctzll(m);
        for (unsigned k = 0; k < request->vector; k++) {
            uint64_t offset = request->address[lane] - chunk + (uint64_t)k * request->element_bytes;
            for (unsigned b = 0; b < request->element_bytes; b++) {
                uint8_t bit = (uint8_t)(1u << ((offset + b) % STASH_WORD_BYTES));
                uint8_t *word = &cta->stash_held[(offset + b) / STASH_WORD_BYTES];
                if (*word & bit)
                    continue;   /* the CTA wrote it meanwhile */
                chunk_bytes[offset + b] = (uint8_t)(request->data[lane][k] >> (8 * b));
                *word |= bit;
            }
        }
    }
}
