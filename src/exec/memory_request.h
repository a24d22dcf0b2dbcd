/* memory_request.h — one warp instruction's access to global memory, as the executor hands it to
 * an engine.
 *
 * The executor computes addresses and store data at issue and returns the request; the engine
 * performs it (at once for the functional engine; through the modelled caches for the timing
 * engine, which decides both when it completes and which values loads see) and then calls
 * exec_memory_complete to write loaded values into the destination registers. Shared, local and
 * param accesses never leave the executor; the request still tells an engine which lanes touched
 * the CTA's shared memory and where (shared_lanes), so that it can time a banked scratchpad.
 */
#ifndef SYNCSCOPE_EXEC_MEMORY_REQUEST_H
#define SYNCSCOPE_EXEC_MEMORY_REQUEST_H

#include <stdint.h>
#include <string.h>

#include "exec/warp.h"

typedef enum exec_access_kind {
    EXEC_ACCESS_LOAD = 1,
    EXEC_ACCESS_STORE,
    EXEC_ACCESS_ATOMIC,   /* atom: returns the old value */
    EXEC_ACCESS_REDUCE,   /* red: no return value */
} exec_access_kind;

typedef struct exec_memory_request {
    uint8_t kind;          /* exec_access_kind */
    uint8_t semantics;     /* ptx_semantics */
    uint8_t scope;         /* ptx_scope */
    uint8_t atom_op;       /* ptx_atom_op */
    uint8_t type;          /* ptx_type of each element */
    uint8_t element_bytes;
    uint8_t vector;        /* elements per lane (1, 2, 4) */
    uint8_t non_coherent;  /* ld.global.nc / ld.const: read-only path */
    uint64_t lane_mask;    /* lanes performing the access */
    uint64_t shared_lanes; /* lanes the executor performed on the CTA's shared memory, their address[]
                              the offset in it (a uniform load: its one performing lane) */
    uint64_t broadcast_lanes; /* a uniform load: the lanes that take its performing lane's value
                                 (exec_memory_complete copies it to them); 0 otherwise */
    const ptx_instruction *instruction;
    const char *kernel_path;  /* PTX file, for messages */
    uint64_t *registers;   /* destination frame's register array */
    uint64_t *value_changes;  /* the warp's CTA's count of value-changing writes (NULL: none) */
    int32_t destinations[4];     /* loads and atomics: each element's destination register (-1: none) */
    uint64_t register_masks[4];  /* width mask of each destination element's register */
    unsigned width;
    uint64_t address[EXEC_MAX_WARP_WIDTH];
    uint64_t data[EXEC_MAX_WARP_WIDTH][4];     /* store data / atomic operand; load results */
    uint64_t compare[EXEC_MAX_WARP_WIDTH];     /* atom.cas: the compare value */
} exec_memory_request;

/* Writes loaded (or atomic old) values into the destination registers (and a uniform load's
 * value into its broadcast_lanes). */
void exec_memory_complete(const exec_memory_request *request);

/* A load performed and completed at once for `lanes` (request->lane_mask): lane l's elements are
 * read from pointers[l] straight into the destination registers, as exec_memory_perform_lanes
 * then exec_memory_complete would leave them (request->data is not filled). */
void exec_memory_load_lanes(const exec_memory_request *request, uint64_t lanes, uint8_t *const *pointers);

/* The new memory value of an atomic: op applied to `old`, operand and (for cas) compare. */
uint64_t exec_atomic_apply(ptx_atom_op op, ptx_type type, uint64_t old, uint64_t operand,
                           uint64_t compare);

/* Performs the request's access for one lane on `bytes` (the lane's element bytes). */
void exec_memory_perform_lane(exec_memory_request *request, unsigned lane, uint8_t *bytes);

/* Performs the request's access for the lanes of `lanes`, in lane order, lane l on the bytes at
 * pointers[l]. */
void exec_memory_perform_lanes(exec_memory_request *request, uint64_t lanes, uint8_t *const *pointers);

/* Performs the request directly on the launch's global memory, lane by lane in lane order, and
 * completes it (exec_memory_complete). */
int exec_memory_perform(const sc_global_image *global, exec_memory_request *request, sc_error *error);

/* Little-endian element access into a byte buffer. The element sizes get copies of constant
 * size, which compile to single moves; inlined, a constant size keeps only its own. */
static inline uint64_t exec_load_bytes(const uint8_t *bytes, unsigned size)
{
    uint64_t value = 0;
    switch (size) {
    case 1: memcpy(&value, bytes, 1); break;
    case 2: memcpy(&value, bytes, 2); break;
    case 4: memcpy(&value, bytes, 4); break;
    case 8: memcpy(&value, bytes, 8); break;
    default: memcpy(&value, bytes, size); break;
    }
    return value;
}

static inline void exec_store_bytes(uint8_t *bytes, unsigned size, uint64_t value)
{
    switch (size) {
    case 1: memcpy(bytes, &value, 1); break;
    case 2: memcpy(bytes, &value, 2); break;
    case 4: memcpy(bytes, &value, 4); break;
    case 8: memcpy(bytes, &value, 8); break;
    default: memcpy(bytes, &value, size); break;
    }
}

#endif
