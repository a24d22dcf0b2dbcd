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

/* Bytes of a CTA- or thread-private space at `address`, or NULL when out of range. */
static uint8_t *private_bytes(exec_warp *warp, resolved_space space, unsigned lane, uint64_t address, uint64_t bytes)
{
    const exec_kernel *kernel = warp->kernel;
    switch (space) {
    case RESOLVED_SHARED:
        if (address > kernel->shared_bytes || bytes > kernel->shared_bytes - address)
            return NULL;
        return warp->cta->shared_memory + address;
    case RESOLVED_LOCAL:
        if (address > kernel->local_stride || bytes > kernel->local_stride - address)
            return NULL;
        return warp->local_memory + (uint64_t)lane * kernel->local_stride + address;
    case RESOLVED_KERNEL_PARAM:
        if (address > kernel->entry->kernel_param_bytes || bytes > kernel->entry->kernel_param_bytes - address)
            return NULL;
        return (uint8_t *)kernel->launch->param_buffer + address;
    default:
        return NULL;
    }
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

void exec_memory_complete(const exec_memory_request *request)
{
    if (request->kind == EXEC_ACCESS_STORE || request->kind == EXEC_ACCESS_REDUCE)
        return;
    const ptx_operand *destination = &request->instruction->operands[0];
    /* Signed elements are sign-extended by shifting them to the top and back; others shift 0. */
    unsigned extension = ptx_type_is_signed((ptx_type)request->type) ? 64 - 8 * request->element_bytes : 0;
    uint64_t changed = 0;
    for (unsigned k = 0; k < request->vector; k++) {
        int32_t reg = destination_register(destination, k);
        if (reg < 0)
            continue;
        uint64_t *row = request->registers + (size_t)reg * request->width;
        uint64_t mask = request->register_masks[k];
        for (uint64_t m = request->lane_mask; m; m &= m - 1) {
            unsigned lane = (unsigned)__builtin_ctzll(m);
            uint64_t value = (uint64_t)((int64_t)(request->data[lane][k] << extension) >> extension) & mask;
            changed |= row[lane] ^ value;
            row[lane] = value;
        }
    }
    if (request->broadcast_lanes) {   /* a uniform load: its one performing lane's value to every lane */
        unsigned source = (unsigned)__builtin_ctzll(request->lane_mask);
        for (unsigned k = 0; k < request->vector; k++) {
            int32_t reg = destination_register(destination, k);
            if (reg < 0)
                continue;
            uint64_t *row = request->registers + (size_t)reg * request->width;
            for (uint64_t m = request->broadcast_lanes; m; m &= m - 1)
                row[__builtin_ctzll(m)] = row[source];
        }
    }
    if (changed && request->value_changes)
        *request->value_changes += 1;
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
            request->register_masks[k] = reg >= 0 ? frame->register_masks[reg] : 0;
        }
}

/* Every lane's address, and its store data / atomic operands, into the request. */
static void gather_lanes(exec_memory_request *request, const exec_warp *warp, const exec_frame *frame,
                         const exec_op *op, unsigned address_index, uint64_t lanes)
{
    const ptx_instruction *in = op->instruction;
    uint64_t address_buffer[EXEC_MAX_WARP_WIDTH], data_buffers[2][EXEC_MAX_WARP_WIDTH];
    const uint64_t *addresses = operand_values(warp, frame, op, address_index, lanes, address_buffer);
    /* The address slots of the whole warp are copied at once (engines read only lane_mask's). */
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
    unsigned bytes = (unsigned)request->element_bytes * request->vector;
    *private_lanes = 0;
    for (uint64_t m = space == RESOLVED_GLOBAL ? 0 : uniform ? lanes & (0 - lanes) : lanes; m; m &= m - 1) {
        unsigned lane = (unsigned)__builtin_ctzll(m);
        resolved_space lane_space = space == RESOLVED_PER_LANE ? resolve_generic(&request->address[lane]) : space;
        if (lane_space == RESOLVED_GLOBAL)
            continue;
        /* .shared and .local addresses are 32 bits: [%r4+68] with %r4 holding a negative offset
         * wraps around, as address arithmetic on a 32-bit register does on the GPU. */
        if (space == RESOLVED_SHARED || space == RESOLVED_LOCAL)
            request->address[lane] &= 0xffffffffull;
        pointers[lane] = private_bytes(warp, lane_space, lane, request->address[lane], bytes);
        if (!pointers[lane] || (lane_space == RESOLVED_KERNEL_PARAM && kind != EXEC_ACCESS_LOAD))
            return private_fault(warp, in, lane_space, request->address[lane], bytes, error);
        *private_lanes |= 1ull << lane;
        if (lane_space == RESOLVED_SHARED)
            request->shared_lanes |= 1ull << lane;
    }
    if (*private_lanes == 0)
        return 0;
    exec_memory_perform_lanes(request, *private_lanes, pointers);
    if (uniform)
        request->broadcast_lanes = lanes;
    if (kind == EXEC_ACCESS_LOAD || kind == EXEC_ACCESS_ATOMIC) {
        request->lane_mask = *private_lanes;
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
