/* dma_engine.c — the per-CU DMA engine of scratchpad+DMA (GSI thesis §4.5; docs/local-memory.md).
 *
 * A launch may declare a DMA mapping (exec/engine_interface.h: sc_dma_mapping): each CTA's chunk of
 * global memory belongs in its scratchpad. When a CTA is placed on a CU, the CU's DMA engine loads
 * every line of its chunk, at most local_memory.dma_requests_per_cycle requests per cycle, each a
 * strong (GPU-scope) load of the words of the line the chunk covers presented to the L1 like the
 * load/store unit's: under denovo, wt and nol1 it reads around the L1 (the thesis's bypass) and
 * holds an MSHR of the L1's budget while in flight; other mechanisms serve it as their strong
 * loads. Arrived words are written into the CTA's scratchpad, bypassing the registers.
 *
 * Until the whole chunk has arrived the transfer is pending: the first shared-memory access of one
 * of the CTA's warps blocks the whole CU (every warp, §4.5: "blocking at core granularity") until
 * it completes, charged to GSI MEM_STRUCT / pending_dma; with local_memory.dma_blocking warp (D2MA's
 * choice, the option) only warps whose next instruction is such an access wait. With gsi.dma_wait
 * mshr_full (an experiment) the wait is charged to mshr_full instead in the cycles the engine's line
 * load is refused an MSHR. A CTA never
 * finishes while its transfer is pending (its scratchpad must stay).
 *
 * When the CTA finishes, its chunk is written back conservatively (all of it, §4.5): one store per
 * line, of the words the chunk covers, taken from the scratchpad at once and presented to the L1 as
 * plain stores (the store buffer, then the mechanism's write path; kernel end flushes them), write-
 * backs before loads, within the same per-cycle budget. The kernel does not end while write-backs
 * wait to be presented.
 */
#include "timing/timing_internal.h"

#include <stdlib.h>

#include "exec/address_map.h"
#include "timing/coalescer.h"

/* Words of a mapping are 4 bytes (exec/launch.c checks the alignment). */
#define DMA_WORD_BYTES 4

static const sc_dma_mapping *mapping_of(const timing_engine *engine)
{
    return &engine->kernel.launch->dma;
}

/* Bytes of each CTA's chunk the DMA engine moves: 0 without a mapping or with a stash's. */
static uint64_t dma_chunk_bytes(const timing_engine *engine)
{
    return mapping_of(engine)->kind == SC_MAPPING_DMA ? mapping_of(engine)->bytes_per_cta : 0;
}

/* The first line of CTA `cta`'s chunk, and how many lines it spans. */
static uint64_t chunk_first_line(const timing_engine *engine, const exec_cta *cta)
{
    return exec_dma_global(cta) & ~(uint64_t)(engine->config.memory.line_bytes - 1);
}

static uint32_t chunk_lines(const timing_engine *engine, const exec_cta *cta)
{
    uint64_t line_bytes = engine->config.memory.line_bytes;
    uint64_t end = exec_dma_global(cta) + dma_chunk_bytes(engine);
    return (uint32_t)((end - chunk_first_line(engine, cta) + line_bytes - 1) / line_bytes);
}

/* An operation of the DMA engine on the words of line `line_address` that CTA `cta`'s chunk
 * covers: a strong load, or a plain store of the scratchpad's words. */
static uint32_t line_operation(timing_engine *engine, compute_unit *cu, const exec_cta *cta, uint64_t line_address,
                               exec_access_kind kind, uint64_t cycle)
{
    uint32_t handle = memory_op_allocate(engine->memory);
    memory_op *op = memory_op_get(engine->memory, handle);
    uint64_t chunk = exec_dma_global(cta), chunk_end = chunk + dma_chunk_bytes(engine);
    uint64_t first = line_address > chunk ? line_address : chunk;
    uint64_t last = line_address + engine->config.memory.line_bytes < chunk_end
                        ? line_address + engine->config.memory.line_bytes : chunk_end;
    exec_memory_request *request = &op->request;
    *request = (exec_memory_request){
        .kind = (uint8_t)kind,
        .semantics = kind == EXEC_ACCESS_LOAD ? PTX_SEM_RELAXED : PTX_SEM_WEAK,
        .scope = kind == EXEC_ACCESS_LOAD ? PTX_SCOPE_GPU : PTX_SCOPE_NONE,
        .type = PTX_TYPE_B32,
        .element_bytes = DMA_WORD_BYTES,
        .vector = 1,
        .width = EXEC_MAX_WARP_WIDTH,
    };
    const uint8_t *scratchpad = exec_dma_shared(cta);
    unsigned lane = 0;
    for (uint64_t address = first; address < last; address += DMA_WORD_BYTES, lane++) {
        request->lane_mask |= 1ull << lane;
        request->address[lane] = address;
        if (kind == EXEC_ACCESS_STORE)
            request->data[lane][0] = exec_load_bytes(scratchpad + (address - chunk), DMA_WORD_BYTES);
    }
    op->cu = cu->index;
    op->warp = engine->config.core.max_warps;   /* the DMA engine's own slot number */
    op->issued_cycle = cycle;
    op->data_stall_cycles = 0;
    op->source = GSI_SOURCE_L1;
    op->event = (uint8_t)(kind == EXEC_ACCESS_LOAD ? L1_LOAD_STRONG : L1_STORE);
    op->destination_count = 0;
    op->acquire = 0;
    op->fills_stash = 0;
    op->lines_pending = 1;
    return handle;
}

void dma_cta_placed(timing_engine *engine, cta_slot *cta)
{
    cta->dma_lines_left = dma_chunk_bytes(engine) ? chunk_lines(engine, &cta->cta) : 0;
    cta->dma_lines_pending = 0;
    cta->dma_pending = cta->dma_lines_left > 0;
}

void dma_cta_finished(timing_engine *engine, compute_unit *cu, const cta_slot *cta)
{
    if (!dma_chunk_bytes(engine))
        return;
    uint64_t line = chunk_first_line(engine, &cta->cta);
    for (uint32_t i = 0; i < chunk_lines(engine, &cta->cta); i++, line += engine->config.memory.line_bytes) {
        if (cu->dma_write_count == cu->dma_write_capacity) {
            cu->dma_write_capacity = cu->dma_write_capacity ? 2 * cu->dma_write_capacity : 16;
            cu->dma_writes = realloc(cu->dma_writes, cu->dma_write_capacity * sizeof *cu->dma_writes);
        }
        cu->dma_writes[cu->dma_write_count++] =
            line_operation(engine, cu, &cta->cta, line, EXEC_ACCESS_STORE, engine->now_cycle);
    }
}

bool dma_busy(const timing_engine *engine, const compute_unit *cu)
{
    if (!dma_chunk_bytes(engine))   /* every CU cycle of every launch asks: no scan without a mapping */
        return false;
    if (cu->dma_write_head < cu->dma_write_count)
        return true;
    for (unsigned c = 0; c < engine->config.core.max_ctas; c++)
        if (cu->ctas[c].used && cu->ctas[c].dma_lines_left)
            return true;
    return false;
}

/* Presents one line access of the DMA engine to the L1: *accepted, or refused for this cycle (a full
 * store buffer is asked to make room; a load refused an MSHR is noted for GSI, dma_blocks). Returns
 * -1 on a protocol table error. */
static int present(timing_engine *engine, compute_unit *cu, uint32_t handle, sc_time now, bool *accepted)
{
    memory_op *op = memory_op_get(engine->memory, handle);
    coalesced_line line;
    coalesce_lines(op->request.address, op->request.lane_mask, DMA_WORD_BYTES, engine->config.memory.line_bytes, &line);
    l1_verdict verdict = l1_access(engine->memory, cu->index, (l1_event)op->event, &line, handle, now, engine->error);
    if (verdict == L1_FAILED)
        return -1;
    if (verdict == L1_REFUSED_STORE_BUFFER_FULL)
        l1_make_store_room(engine->memory, cu->index, now);
    if (verdict == L1_REFUSED_MSHR_FULL) {
        cu->dma_refused_mshr = true;
        engine->dma_mshr_refused_cycles++;
    }
    *accepted = verdict == L1_ACCEPTED;
    return 0;
}

int dma_step(timing_engine *engine, compute_unit *cu, uint64_t cycle)
{
    if (!dma_chunk_bytes(engine))   /* write-backs exist only with a mapping */
        return 0;
    sc_time now = cycle * engine->config.memory.gpu_clock.period;
    cu->dma_refused_mshr = false;
    for (unsigned budget = engine->config.core.dma_requests_per_cycle; budget > 0; budget--) {
        bool accepted = false;
        if (cu->dma_write_head < cu->dma_write_count) {
            if (present(engine, cu, cu->dma_writes[cu->dma_write_head], now, &accepted) < 0)
                return -1;
            if (!accepted)
                return 0;
            if (++cu->dma_write_head == cu->dma_write_count)
                cu->dma_write_head = cu->dma_write_count = 0;
            continue;
        }
        cta_slot *cta = NULL;
        for (unsigned c = 0; c < engine->config.core.max_ctas && !cta; c++)
            if (cu->ctas[c].used && cu->ctas[c].dma_lines_left)
                cta = &cu->ctas[c];
        if (!cta)
            return 0;
        uint64_t line = chunk_first_line(engine, &cta->cta) +
                        (uint64_t)(chunk_lines(engine, &cta->cta) - cta->dma_lines_left) * engine->config.memory.line_bytes;
        uint32_t handle = line_operation(engine, cu, &cta->cta, line, EXEC_ACCESS_LOAD, cycle);
        cta->dma_lines_left--;
        cta->dma_lines_pending++;
        if (present(engine, cu, handle, now, &accepted) < 0)
            return -1;
        if (!accepted) {
            cta->dma_lines_left++;
            cta->dma_lines_pending--;
            memory_op_free(engine->memory, handle);
            return 0;
        }
        engine->dma_line_requests++;
    }
    return 0;
}

/* The CTA slot of `cu` whose chunk holds global `address`, or NULL. */
static cta_slot *cta_of(timing_engine *engine, compute_unit *cu, uint64_t address)
{
    uint64_t bytes = dma_chunk_bytes(engine);
    for (unsigned c = 0; c < engine->config.core.max_ctas; c++) {
        cta_slot *cta = &cu->ctas[c];
        if (cta->used && cta->dma_pending && address - exec_dma_global(&cta->cta) < bytes)
            return cta;
    }
    return NULL;
}

void dma_op_done(timing_engine *engine, compute_unit *cu, uint32_t handle, uint64_t cycle)
{
    memory_op *op = memory_op_get(engine->memory, handle);
    const exec_memory_request *request = &op->request;
    cta_slot *cta = request->kind == EXEC_ACCESS_LOAD
                        ? cta_of(engine, cu, request->address[__builtin_ctzll(request->lane_mask)]) : NULL;
    if (cta) {
        uint8_t *scratchpad = exec_dma_shared(&cta->cta);
        uint64_t chunk = exec_dma_global(&cta->cta);
        for (uint64_t m = request->lane_mask; m; m &= m - 1) {
            unsigned lane = (unsigned)__builtin_ctzll(m);
            exec_store_bytes(scratchpad + (request->address[lane] - chunk), DMA_WORD_BYTES, request->data[lane][0]);
        }
        if (--cta->dma_lines_pending == 0 && cta->dma_lines_left == 0) {
            cta->dma_pending = false;
            if (cu->dma_blocking == cta - cu->ctas)
                cu->dma_blocking = -1;
            cu_finish_idle_ctas(engine, cu);
        }
    }
    memory_op_free(engine->memory, handle);
    cu_wake(engine, cu, cycle);
}

int8_t dma_blocks(const timing_engine *engine, compute_unit *cu, const warp_slot *slot, const ptx_instruction *next)
{
    bool waits = slot->cta->dma_pending && next->space == PTX_SPACE_SHARED &&
                 (next->opcode == PTX_OP_LD || next->opcode == PTX_OP_ST || next->opcode == PTX_OP_ATOM ||
                  next->opcode == PTX_OP_RED);
    int8_t cause = engine->config.core.dma_wait_mshr_full && cu->dma_refused_mshr ? GSI_STRUCT_MSHR_FULL
                                                                                  : GSI_STRUCT_PENDING_DMA;
    if (engine->config.core.dma_blocks_warp)
        return waits ? cause : GSI_NONE;
    if (waits && cu->dma_blocking < 0)
        cu->dma_blocking = (int)(slot->cta - cu->ctas);
    return cu->dma_blocking >= 0 ? cause : GSI_NONE;
}
