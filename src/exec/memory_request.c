/* memory_request.c — atomic read-modify-write semantics and the direct (functional) performance
 * of global requests on the device image (see memory_request.h). */
#include "exec/memory_request.h"

#include "exec/address_map.h"
#include "exec/alu.h"

/* The simulated device is little-endian, like every host syncscope builds on (checked below). */
_Static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "syncscope assumes a little-endian host");

static uint64_t atomic_minimum_or_maximum(ptx_type type, uint64_t old, uint64_t operand, bool maximum)
{
    unsigned bytes = ptx_type_size(type);
    bool operand_less;
    if (type == PTX_TYPE_F32)
        operand_less = alu_as_f32(operand) < alu_as_f32(old);
    else if (type == PTX_TYPE_F64)
        operand_less = alu_as_f64(operand) < alu_as_f64(old);
    else if (ptx_type_is_signed(type))
        operand_less = alu_sign_extend(operand, bytes) < alu_sign_extend(old, bytes);
    else
        operand_less = (operand & alu_width_mask(bytes)) < (old & alu_width_mask(bytes));
    return operand_less != maximum ? operand : old;
}

uint64_t exec_atomic_apply(ptx_atom_op op, ptx_type type, uint64_t old, uint64_t operand, uint64_t compare)
{
    uint64_t mask = alu_width_mask(ptx_type_size(type));
    old &= mask;
    operand &= mask;
    switch (op) {
    case PTX_ATOM_ADD:
        if (type == PTX_TYPE_F32)
            return alu_from_f32(alu_as_f32(old) + alu_as_f32(operand));
        if (type == PTX_TYPE_F64)
            return alu_from_f64(alu_as_f64(old) + alu_as_f64(operand));
        return (old + operand) & mask;
    case PTX_ATOM_MIN: return atomic_minimum_or_maximum(type, old, operand, false);
    case PTX_ATOM_MAX: return atomic_minimum_or_maximum(type, old, operand, true);
    case PTX_ATOM_INC: return old >= operand ? 0 : old + 1;
    case PTX_ATOM_DEC: return (old == 0 || old > operand) ? operand : old - 1;
    case PTX_ATOM_AND: return old & operand;
    case PTX_ATOM_OR: return old | operand;
    case PTX_ATOM_XOR: return old ^ operand;
    case PTX_ATOM_EXCH: return operand;
    case PTX_ATOM_CAS: return old == (compare & mask) ? operand : old;
    default: return old;
    }
}

void exec_memory_perform_lane(exec_memory_request *request, unsigned lane, uint8_t *bytes)
{
    unsigned size = request->element_bytes;
    for (unsigned k = 0; k < request->vector; k++) {
        uint8_t *element = bytes + (size_t)k * size;
        uint64_t old = exec_load_bytes(element, size);
        switch ((exec_access_kind)request->kind) {
        case EXEC_ACCESS_LOAD:
            request->data[lane][k] = old;
            break;
        case EXEC_ACCESS_STORE:
            exec_store_bytes(element, size, request->data[lane][k]);
            break;
        default:
            exec_store_bytes(element, size, exec_atomic_apply((ptx_atom_op)request->atom_op, (ptx_type)request->type,
                                                              old, request->data[lane][k], request->compare[lane]));
            request->data[lane][k] = old;
            break;
        }
    }
}

/* Loads or stores of `vector` `size`-byte elements for `lanes`, in lane order. Inlined per
 * constant element size (and for scalar accesses), so each element copy is a single move. */
static inline __attribute__((always_inline)) void transfer_lanes(exec_memory_request *request, uint64_t lanes,
                                                                 uint8_t *const *pointers, unsigned size,
                                                                 unsigned vector)
{
    bool store = request->kind == EXEC_ACCESS_STORE;
    for (uint64_t m = lanes; m; m &= m - 1) {
        unsigned lane = (unsigned)__builtin_ctzll(m);
        uint8_t *element = pointers[lane];
        for (unsigned k = 0; k < vector; k++, element += size) {
            if (store)
                exec_store_bytes(element, size, request->data[lane][k]);
            else
                request->data[lane][k] = exec_load_bytes(element, size);
        }
    }
}

void exec_memory_perform_lanes(exec_memory_request *request, uint64_t lanes, uint8_t *const *pointers)
{
    if (request->kind != EXEC_ACCESS_LOAD && request->kind != EXEC_ACCESS_STORE) {
        for (uint64_t m = lanes; m; m &= m - 1) {
            unsigned lane = (unsigned)__builtin_ctzll(m);
            exec_memory_perform_lane(request, lane, pointers[lane]);
        }
        return;
    }
    unsigned vector = request->vector;
    switch (request->element_bytes) {
    case 4:
        if (vector == 1)
            transfer_lanes(request, lanes, pointers, 4, 1);
        else
            transfer_lanes(request, lanes, pointers, 4, vector);
        break;
    case 8:
        if (vector == 1)
            transfer_lanes(request, lanes, pointers, 8, 1);
        else
            transfer_lanes(request, lanes, pointers, 8, vector);
        break;
    case 1: transfer_lanes(request, lanes, pointers, 1, vector); break;
    case 2: transfer_lanes(request, lanes, pointers, 2, vector); break;
    default: transfer_lanes(request, lanes, pointers, request->element_bytes, vector); break;
    }
}

/* A loaded element as its register holds it: signed elements sign-extended (shifted to the top
 * and back by `extension`; others shift 0), then masked to the register's width. */
static inline uint64_t register_value(uint64_t element, unsigned extension, uint64_t register_mask)
{
    return (uint64_t)((int64_t)(element << extension) >> extension) & register_mask;
}

static unsigned sign_extension(const exec_memory_request *request)
{
    return ptx_type_is_signed((ptx_type)request->type) ? 64 - 8 * request->element_bytes : 0;
}

/* The end of a completion: a uniform load's one performing lane's values go to its broadcast
 * lanes, and a write that changed a register counts as the CTA's progress. */
static void finish_completion(const exec_memory_request *request, uint64_t changed)
{
    if (request->broadcast_lanes) {
        unsigned source = (unsigned)__builtin_ctzll(request->lane_mask);
        for (unsigned k = 0; k < request->vector; k++) {
            if (request->destinations[k] < 0)
                continue;
            uint64_t *row = request->registers + (size_t)request->destinations[k] * request->width;
            for (uint64_t m = request->broadcast_lanes; m; m &= m - 1)
                row[__builtin_ctzll(m)] = row[source];
        }
    }
    if (changed && request->value_changes)
        *request->value_changes += 1;
}

void exec_memory_complete(const exec_memory_request *request)
{
    if (request->kind == EXEC_ACCESS_STORE || request->kind == EXEC_ACCESS_REDUCE)
        return;
    unsigned extension = sign_extension(request);
    uint64_t changed = 0;
    for (unsigned k = 0; k < request->vector; k++) {
        if (request->destinations[k] < 0)
            continue;
        uint64_t *row = request->registers + (size_t)request->destinations[k] * request->width;
        uint64_t mask = request->register_masks[k];
        for (uint64_t m = request->lane_mask; m; m &= m - 1) {
            unsigned lane = (unsigned)__builtin_ctzll(m);
            uint64_t value = register_value(request->data[lane][k], extension, mask);
            changed |= row[lane] ^ value;
            row[lane] = value;
        }
    }
    finish_completion(request, changed);
}

/* exec_memory_load_lanes for `vector` `size`-byte elements: inlined per constant size. */
static inline __attribute__((always_inline)) uint64_t load_into_registers(const exec_memory_request *request,
                                                                          uint64_t lanes, uint8_t *const *pointers,
                                                                          unsigned size, unsigned vector)
{
    unsigned extension = sign_extension(request);
    uint64_t changed = 0;
    for (unsigned k = 0; k < vector; k++) {
        if (request->destinations[k] < 0)
            continue;
        uint64_t *row = request->registers + (size_t)request->destinations[k] * request->width;
        uint64_t mask = request->register_masks[k];
        for (uint64_t m = lanes; m; m &= m - 1) {
            unsigned lane = (unsigned)__builtin_ctzll(m);
            uint64_t value = register_value(exec_load_bytes(pointers[lane] + (size_t)k * size, size), extension, mask);
            changed |= row[lane] ^ value;
            row[lane] = value;
        }
    }
    return changed;
}

void exec_memory_load_lanes(const exec_memory_request *request, uint64_t lanes, uint8_t *const *pointers)
{
    unsigned vector = request->vector;
    uint64_t changed;
    switch (request->element_bytes) {
    case 4: changed = vector == 1 ? load_into_registers(request, lanes, pointers, 4, 1)
                                  : load_into_registers(request, lanes, pointers, 4, vector); break;
    case 8: changed = vector == 1 ? load_into_registers(request, lanes, pointers, 8, 1)
                                  : load_into_registers(request, lanes, pointers, 8, vector); break;
    case 1: changed = load_into_registers(request, lanes, pointers, 1, vector); break;
    case 2: changed = load_into_registers(request, lanes, pointers, 2, vector); break;
    default: changed = load_into_registers(request, lanes, pointers, request->element_bytes, vector); break;
    }
    finish_completion(request, changed);
}

static int outside_device_memory(const exec_memory_request *request, uint64_t address, uint64_t bytes,
                                 sc_error *error)
{
    return sc_fail(error, "%s:%d: global access of %u bytes at 0x%llx is outside device memory",
                   request->kernel_path, request->instruction->line, (unsigned)bytes, (unsigned long long)address);
}

int exec_memory_perform(const sc_global_image *global, exec_memory_request *request, sc_error *error)
{
    /* The whole global image is one region: each lane's range is checked against it inline. */
    uint8_t *image = global->bytes;
    uint64_t image_bytes = global->size;
    uint64_t bytes = (uint64_t)request->element_bytes * request->vector;
    uint64_t last_offset = image && image_bytes >= bytes ? image_bytes - bytes : 0;
    uint8_t *pointers[EXEC_MAX_WARP_WIDTH];
    for (uint64_t m = request->lane_mask; m; m &= m - 1) {
        unsigned lane = (unsigned)__builtin_ctzll(m);
        uint64_t offset = request->address[lane] - SC_GLOBAL_BASE;
        if (!image || image_bytes < bytes || request->address[lane] < SC_GLOBAL_BASE || offset > last_offset)
            return outside_device_memory(request, request->address[lane], bytes, error);
        pointers[lane] = image + offset;
    }
    if (request->kind == EXEC_ACCESS_LOAD) {
        exec_memory_load_lanes(request, request->lane_mask, pointers);
        return 0;
    }
    exec_memory_perform_lanes(request, request->lane_mask, pointers);
    exec_memory_complete(request);
    return 0;
}
