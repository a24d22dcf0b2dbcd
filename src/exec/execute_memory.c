/* execute_memory.c — ld, st, atom and red at issue: address generation, and either the access
 * itself (shared, local, param: private to the CTA or thread) or a global request for the engine.
 */
#include "exec/execute_internal.h"

#include <string.h>

#include "exec/address_map.h"
#include "exec/operands.h"

typedef enum resolved_space {
    RESOLVED_GLOBAL, RESOLVED_SHARED, RESOLVED_LOCAL, RESOLVED_KERNEL_PARAM,
    RESOLVED_PER_LANE,  /* generic addressing: each lane's address says */
} resolved_space;

/* Which space an access of `in` touches, the same for every lane unless the access is generic. */
static resolved_space instruction_space(const exec_warp *warp, const ptx_instruction *in,
                                        const ptx_operand *address_op)
{
    switch ((ptx_space)in->space) {
    case PTX_SPACE_SHARED: return RESOLVED_SHARED;
    case PTX_SPACE_LOCAL: return RESOLVED_LOCAL;
    case PTX_SPACE_PARAM: {
        const ptx_module *module = warp->kernel->module;
        if (address_op->symbol >= 0)
            return module->symbols[address_op->symbol].storage == PTX_STORAGE_KERNEL_PARAM
                       ? RESOLVED_KERNEL_PARAM : RESOLVED_LOCAL;
        return warp->frame_depth == 1 ? RESOLVED_KERNEL_PARAM : RESOLVED_LOCAL;
    }
    case PTX_SPACE_GENERIC: return RESOLVED_PER_LANE;
    default: return RESOLVED_GLOBAL;
    }
}

/* The space a generic `*address` falls in, made relative to that space. */
static resolved_space resolve_generic(uint64_t *address)
{
    if (sc_generic_is_shared(*address)) {
        *address -= SC_SHARED_WINDOW_BASE;
        return RESOLVED_SHARED;
    }
    if (sc_generic_is_local(*address)) {
        *address -= SC_LOCAL_WINDOW_BASE;
        return RESOLVED_LOCAL;
    }
    return RESOLVED_GLOBAL;
}

static const char *space_name(resolved_space space)
{
    switch (space) {
    case RESOLVED_SHARED: return "shared";
    case RESOLVED_LOCAL: return "local";
    case RESOLVED_KERNEL_PARAM: return "param";
    default: return "global";
    }
}

/* Where a CTA- or thread-private space lies: lane l's byte a is base[l * lane_stride + a], for
 * a < limit. */
typedef struct space_extent {
    uint8_t *base;
    uint64_t limit;
    uint64_t lane_stride;  /* local memory: each thread's own stack */
} space_extent;

static space_extent extent_of(const exec_warp *warp, resolved_space space)
{
    const exec_kernel *kernel = warp->kernel;
    switch (space) {
    case RESOLVED_SHARED: return (space_extent){warp->cta->shared_memory, kernel->shared_bytes, 0};
    case RESOLVED_LOCAL: return (space_extent){warp->local_memory, kernel->local_stride, kernel->local_stride};
    case RESOLVED_KERNEL_PARAM:
        return (space_extent){(uint8_t *)kernel->launch->param_buffer, kernel->entry->kernel_param_bytes, 0};
    default: return (space_extent){NULL, 0, 0};
    }
}

/* Lane `lane`'s `bytes` bytes at `address` of the space, or NULL when out of range. */
static inline uint8_t *extent_bytes(const space_extent *extent, unsigned lane, uint64_t address, uint64_t bytes)
{
    if (address > extent->limit || bytes > extent->limit - address)
        return NULL;
    return extent->base + (uint64_t)lane * extent->lane_stride + address;
}

/* Register receiving element `k` of a load/atom destination (operand 0). */
static int32_t destination_register(const ptx_operand *destination, unsigned k)
{
    if (destination->kind == PTX_OPERAND_VECTOR)
        return k < destination->count ? destination->vector[k] : -1;
    return destination->kind == PTX_OPERAND_REGISTER ? destination->reg : -1;
}

/* The store data of every lane: element k of lane l in data[k][l]. */
static void gather_store_data(const exec_warp *warp, const exec_frame *frame, const exec_op *op, unsigned data_index,
                              unsigned vector, uint64_t lanes, const uint64_t **data,
                              uint64_t (*buffers)[EXEC_MAX_WARP_WIDTH])
{
    const ptx_operand *data_op = &op->instruction->operands[data_index];
    if (data_op->kind != PTX_OPERAND_VECTOR) {
        data[0] = operand_values(warp, frame, op, data_index, lanes, buffers[0]);
        return;
    }
    static const uint64_t zeros[EXEC_MAX_WARP_WIDTH];
    for (unsigned k = 0; k < vector && k < 4; k++) {
        int32_t reg = k < data_op->count ? data_op->vector[k] : -1;
        data[k] = reg < 0 ? zeros : operand_register_row(warp, frame, reg);
    }
}

static int private_fault(const exec_warp *warp, const ptx_instruction *in, resolved_space space, uint64_t address,
                         unsigned bytes, sc_error *error)
{
    return sc_fail(error, "%s:%d: %s access of %u bytes at offset 0x%llx is out of bounds",
                   warp->kernel->module->path, in->line, space_name(space), bytes, (unsigned long long)address);
}

/* A load in which every lane reads the same CTA-wide bytes (ld.param [sym], ld.shared [sym+8]). */
static bool is_uniform_load(const exec_op *op, unsigned address_index, exec_access_kind kind, resolved_space space)
{
    return kind == EXEC_ACCESS_LOAD && (space == RESOLVED_KERNEL_PARAM || space == RESOLVED_SHARED) &&
           op->sources[address_index].kind == EXEC_SOURCE_CONSTANT;
}

static exec_access_kind access_kind(ptx_opcode opcode)
{
    switch (opcode) {
    case PTX_OP_LD: return EXEC_ACCESS_LOAD;
    case PTX_OP_ST: return EXEC_ACCESS_STORE;
    case PTX_OP_ATOM: return EXEC_ACCESS_ATOMIC;
    default: return EXEC_ACCESS_REDUCE;
    }
}

/* The request's description of the access (everything but the lanes' addresses and data). */
static void describe_request(exec_memory_request *request, const exec_warp *warp, const exec_frame *frame,
                             const ptx_instruction *in, exec_access_kind kind)
{
    request->kind = (uint8_t)kind;
    request->broadcast_lanes = 0;
    request->semantics = in->semantics;
    request->scope = in->scope;
    request->atom_op = in->mode;
    request->type = in->type;
    request->element_bytes = (uint8_t)ptx_type_size((ptx_type)in->type);
    request->vector = in->vector ? in->vector : 1;
    request->non_coherent = (in->flags & PTX_FLAG_NC) || in->space == PTX_SPACE_CONST;
    request->instruction = in;
    request->kernel_path = warp->kernel->module->path;
    request->registers = frame->registers;
    request->value_changes = warp->cta ? &warp->cta->value_changes : NULL;
    request->width = warp->kernel->width;
    if (kind == EXEC_ACCESS_LOAD || kind == EXEC_ACCESS_ATOMIC)
        for (unsigned k = 0; k < request->vector; k++) {
            int32_t reg = destination_register(&in->operands[0], k);
            request->destinations[k] = reg;
            request->register_masks[k] = reg >= 0 ? frame->register_masks[reg] : 0;
        }
}

/* Every lane's address, and its store data / atomic operands, into the request. */
static void gather_lanes(exec_memory_request *request, const exec_warp *warp, const exec_frame *frame,
                         const exec_op *op, unsigned address_index, uint64_t lanes)
{
    const ptx_instruction *in = op->instruction;
    uint64_t data_buffers[2][EXEC_MAX_WARP_WIDTH];
    /* The addresses are computed in place; a plain register's row is copied for the whole warp at
     * once (engines read only lane_mask's slots). */
    const uint64_t *addresses = operand_values(warp, frame, op, address_index, lanes, request->address);
    if (addresses != request->address)
        memcpy(request->address, addresses, warp->kernel->width * sizeof *addresses);
    if (request->kind == EXEC_ACCESS_LOAD)
        return;
    const uint64_t *data[4] = {NULL, NULL, NULL, NULL};
    gather_store_data(warp, frame, op, address_index + 1, request->vector, lanes, data, data_buffers);
    bool is_cas = in->opcode == PTX_OP_ATOM && in->mode == PTX_ATOM_CAS;
    const uint64_t *swap = is_cas ? operand_values(warp, frame, op, address_index + 2, lanes, data_buffers[1]) : NULL;
    for (uint64_t m = lanes; m; m &= m - 1) {
        unsigned lane = (unsigned)__builtin_ctzll(m);
        for (unsigned k = 0; k < request->vector; k++)
            request->data[lane][k] = data[k][lane];
        if (is_cas) {
            request->compare[lane] = data[0][lane];
            request->data[lane][0] = swap[lane];
        }
    }
}

/* .shared and .local addresses are 32 bits: [%r4+68] with %r4 holding a negative offset wraps
 * around, as address arithmetic on a 32-bit register does on the GPU. */
static bool has_32_bit_addresses(resolved_space space)
{
    return space == RESOLVED_SHARED || space == RESOLVED_LOCAL;
}

/* pointers[] for the lanes of `performing`, all in `space` (not generic), which then all perform
 * privately. Returns 0, or -1 with `error` set at the first lane out of bounds (and at the first
 * lane of a write to the kernel parameters). */
static int fixed_space_pointers(exec_warp *warp, const ptx_instruction *in, resolved_space space,
                                exec_memory_request *request, uint64_t performing, uint8_t **pointers,
                                sc_error *error)
{
    space_extent extent = extent_of(warp, space);
    uint64_t address_mask = has_32_bit_addresses(space) ? 0xffffffffull : ~0ull;
    unsigned bytes = (unsigned)request->element_bytes * request->vector;
    bool read_only = space == RESOLVED_KERNEL_PARAM && request->kind != EXEC_ACCESS_LOAD;
    for (uint64_t m = performing; m; m &= m - 1) {
        unsigned lane = (unsigned)__builtin_ctzll(m);
        uint64_t address = request->address[lane] & address_mask;
        request->address[lane] = address;
        pointers[lane] = extent_bytes(&extent, lane, address, bytes);
        if (!pointers[lane] || read_only)
            return private_fault(warp, in, space, address, bytes, error);
    }
    if (space == RESOLVED_SHARED)
        request->shared_lanes |= performing;
    return 0;
}

/* pointers[] for the lanes of `performing` whose generic address falls in shared or local memory
 * (made relative to it); *private_lanes receives them. Returns 0, or -1 with `error` set at the
 * first lane out of bounds. */
static int generic_pointers(exec_warp *warp, const ptx_instruction *in, exec_memory_request *request,
                            uint64_t performing, uint8_t **pointers, uint64_t *private_lanes, sc_error *error)
{
    unsigned bytes = (unsigned)request->element_bytes * request->vector;
    for (uint64_t m = performing; m; m &= m - 1) {
        unsigned lane = (unsigned)__builtin_ctzll(m);
        resolved_space lane_space = resolve_generic(&request->address[lane]);
        if (lane_space == RESOLVED_GLOBAL)
            continue;
        space_extent extent = extent_of(warp, lane_space);
        pointers[lane] = extent_bytes(&extent, lane, request->address[lane], bytes);
        if (!pointers[lane])
            return private_fault(warp, in, lane_space, request->address[lane], bytes, error);
        *private_lanes |= 1ull << lane;
        if (lane_space == RESOLVED_SHARED)
            request->shared_lanes |= 1ull << lane;
    }
    return 0;
}

/* Performs (and completes) the lanes whose access is to a private space: shared, local, param.
 * A uniform load is performed by its first lane alone and broadcast. Sets *private_lanes;
 * returns 0, or -1 with `error` set on an out-of-bounds access. */
static int perform_private(exec_warp *warp, const exec_op *op, unsigned address_index, exec_memory_request *request,
                           uint64_t lanes, uint64_t *private_lanes, sc_error *error)
{
    const ptx_instruction *in = op->instruction;
    exec_access_kind kind = (exec_access_kind)request->kind;
    resolved_space space = instruction_space(warp, in, &in->operands[address_index]);
    bool uniform = is_uniform_load(op, address_index, kind, space);
    uint8_t *pointers[EXEC_MAX_WARP_WIDTH];
    uint64_t performing = uniform ? lanes & (0 - lanes) : lanes;
    *private_lanes = 0;
    if (space == RESOLVED_GLOBAL)
        return 0;
    if (space == RESOLVED_PER_LANE) {
        if (generic_pointers(warp, in, request, performing, pointers, private_lanes, error) < 0)
            return -1;
    } else {
        if (fixed_space_pointers(warp, in, space, request, performing, pointers, error) < 0)
            return -1;
        *private_lanes = performing;
    }
    if (*private_lanes == 0)
        return 0;
    if (uniform)
        request->broadcast_lanes = lanes;
    request->lane_mask = *private_lanes;
    if (kind == EXEC_ACCESS_LOAD) {
        exec_memory_load_lanes(request, *private_lanes, pointers);
    } else {
        exec_memory_perform_lanes(request, *private_lanes, pointers);
        exec_memory_complete(request);
    }
    if (uniform)
        *private_lanes = lanes;
    return 0;
}

int execute_memory(exec_warp *warp, const exec_op *op, uint64_t lanes, exec_memory_request *request,
                   sc_error *error)
{
    const ptx_instruction *in = op->instruction;
    exec_frame *frame = exec_warp_frame(warp);
    exec_access_kind kind = access_kind((ptx_opcode)in->opcode);
    unsigned address_index = kind == EXEC_ACCESS_LOAD || kind == EXEC_ACCESS_ATOMIC ? 1 : 0;
    describe_request(request, warp, frame, in, kind);
    gather_lanes(request, warp, frame, op, address_index, lanes);
    uint64_t private_lanes;
    if (perform_private(warp, op, address_index, request, lanes, &private_lanes, error) < 0)
        return -1;
    request->lane_mask = lanes & ~private_lanes;
    return request->lane_mask != 0;
}
