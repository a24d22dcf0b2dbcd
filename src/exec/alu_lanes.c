/* alu_lanes.c — whole-warp loops for the register instructions that dominate real kernels:
 * integer add/sub/mul/mad/logic and shifts, mul.wide, f32 add/sub/mul/fma, mov, cvta, selp,
 * integer-to-integer cvt and integer setp.
 *
 * Each operation is written once, for one lane, and inlined into a lane loop: for a full warp a
 * plain loop over every lane (no per-lane branch, so the compiler vectorises it), for a partial
 * mask a loop over the set lanes only, so divergent code pays for its active lanes alone. For the instructions
 * alu_lanes_handler accepts, the results are bit-identical to the general per-lane interpreter
 * (alu_evaluate, alu_compare, alu_convert); tests/unit/test_alu_lanes.c checks that. */
#include "exec/execute_internal.h"

#include <math.h>

#include "exec/alu.h"
#include "exec/operands.h"

#define LANE_LOOP static inline __attribute__((always_inline))

/* The operation of one lane: sources a, b, c (operands 1..3) to the result. */
typedef uint64_t (*lane_operation)(const exec_op *op, uint64_t a, uint64_t b, uint64_t c);

/* result = operation(sources) in every lane, written to the destination for `lanes`. Inlined
 * with a constant `operation`, which the compiler then inlines into the loop. */
LANE_LOOP void map_lanes(exec_warp *warp, exec_frame *frame, const exec_op *op, uint64_t lanes, unsigned sources,
                         lane_operation operation)
{
    uint64_t buffers[3][EXEC_MAX_WARP_WIDTH], result[EXEC_MAX_WARP_WIDTH];
    const uint64_t *a = operand_values(warp, frame, op, 1, lanes, buffers[0]);
    const uint64_t *b = sources > 1 ? operand_values(warp, frame, op, 2, lanes, buffers[1]) : a;
    const uint64_t *c = sources > 2 ? operand_values(warp, frame, op, 3, lanes, buffers[2]) : a;
    if (lanes == warp->kernel->full_mask && op->destination >= 0) {
        /* The whole warp, written in place as operand_write_lanes writes: each lane reads its
         * sources before its result replaces them, so a source that is the destination is read
         * unchanged. */
        uint64_t *row = operand_register_row(warp, frame, op->destination);
        uint64_t mask = frame->register_masks[op->destination], changed = 0;
        for (unsigned lane = 0; lane < warp->kernel->width; lane++) {
            uint64_t value = operation(op, a[lane], b[lane], c[lane]) & mask;
            changed |= row[lane] ^ value;
            row[lane] = value;
        }
        operand_note_change(warp, changed);
        return;
    }
    for (uint64_t m = lanes; m; m &= m - 1) {
        unsigned lane = (unsigned)__builtin_ctzll(m);
        result[lane] = operation(op, a[lane], b[lane], c[lane]);
    }
    operand_write_lanes(warp, frame, op->destination, lanes, result);
}

static uint64_t add(const exec_op *op, uint64_t a, uint64_t b, uint64_t c) { return a + b; }
static uint64_t subtract(const exec_op *op, uint64_t a, uint64_t b, uint64_t c) { return a - b; }
static uint64_t multiply(const exec_op *op, uint64_t a, uint64_t b, uint64_t c) { return a * b; }
static uint64_t multiply_add(const exec_op *op, uint64_t a, uint64_t b, uint64_t c) { return a * b + c; }
static uint64_t bit_and(const exec_op *op, uint64_t a, uint64_t b, uint64_t c) { return a & b; }
static uint64_t bit_or(const exec_op *op, uint64_t a, uint64_t b, uint64_t c) { return a | b; }
static uint64_t bit_xor(const exec_op *op, uint64_t a, uint64_t b, uint64_t c) { return a ^ b; }

static uint64_t shift_left(const exec_op *op, uint64_t a, uint64_t b, uint64_t c)
{
    return b >= op->source_bits ? 0 : (a << b) & op->result_mask;
}

static uint64_t shift_right_unsigned(const exec_op *op, uint64_t a, uint64_t b, uint64_t c)
{
    return b >= op->source_bits ? 0 : (a & op->result_mask) >> b;
}

/* mul.wide / mad.wide of 32-bit sources: the full 64-bit product. */
static uint64_t wide_product(const exec_op *op, uint64_t a, uint64_t b)
{
    if (op->source_signed)
        return (uint64_t)(alu_sign_extend(a, 4) * alu_sign_extend(b, 4));
    return (a & 0xffffffffull) * (b & 0xffffffffull);
}

static uint64_t multiply_wide(const exec_op *op, uint64_t a, uint64_t b, uint64_t c) { return wide_product(op, a, b); }
static uint64_t multiply_add_wide(const exec_op *op, uint64_t a, uint64_t b, uint64_t c) { return wide_product(op, a, b) + c; }

static uint64_t add_f32(const exec_op *op, uint64_t a, uint64_t b, uint64_t c)
{
    return alu_f32_result(alu_as_f32(a) + alu_as_f32(b));
}

static uint64_t subtract_f32(const exec_op *op, uint64_t a, uint64_t b, uint64_t c)
{
    return alu_f32_result(alu_as_f32(a) - alu_as_f32(b));
}

static uint64_t multiply_f32(const exec_op *op, uint64_t a, uint64_t b, uint64_t c)
{
    return alu_f32_result(alu_as_f32(a) * alu_as_f32(b));
}

static uint64_t fused_multiply_add_f32(const exec_op *op, uint64_t a, uint64_t b, uint64_t c)
{
    return alu_f32_result(fmaf(alu_as_f32(a), alu_as_f32(b), alu_as_f32(c)));
}

static uint64_t copy(const exec_op *op, uint64_t a, uint64_t b, uint64_t c) { return a; }
static uint64_t offset(const exec_op *op, uint64_t a, uint64_t b, uint64_t c) { return a + op->addend; }
static uint64_t select(const exec_op *op, uint64_t a, uint64_t b, uint64_t c) { return c != 0 ? a : b; }

/* cvt between integer types without saturation: extend from the source width, then truncate. */
static uint64_t convert_integer(const exec_op *op, uint64_t a, uint64_t b, uint64_t c)
{
    unsigned unused_bits = 64u - op->source_bits;
    uint64_t extended = op->source_signed ? (uint64_t)((int64_t)(a << unused_bits) >> unused_bits)
                                          : a & (~0ull >> unused_bits);
    return extended & op->result_mask;
}

static void run_add(exec_warp *w, exec_frame *f, const exec_op *op, uint64_t l) { map_lanes(w, f, op, l, 2, add); }
static void run_subtract(exec_warp *w, exec_frame *f, const exec_op *op, uint64_t l) { map_lanes(w, f, op, l, 2, subtract); }
static void run_multiply(exec_warp *w, exec_frame *f, const exec_op *op, uint64_t l) { map_lanes(w, f, op, l, 2, multiply); }
static void run_multiply_add(exec_warp *w, exec_frame *f, const exec_op *op, uint64_t l) { map_lanes(w, f, op, l, 3, multiply_add); }
static void run_and(exec_warp *w, exec_frame *f, const exec_op *op, uint64_t l) { map_lanes(w, f, op, l, 2, bit_and); }
static void run_or(exec_warp *w, exec_frame *f, const exec_op *op, uint64_t l) { map_lanes(w, f, op, l, 2, bit_or); }
static void run_xor(exec_warp *w, exec_frame *f, const exec_op *op, uint64_t l) { map_lanes(w, f, op, l, 2, bit_xor); }
static void run_shift_left(exec_warp *w, exec_frame *f, const exec_op *op, uint64_t l) { map_lanes(w, f, op, l, 2, shift_left); }
static void run_shift_right_unsigned(exec_warp *w, exec_frame *f, const exec_op *op, uint64_t l) { map_lanes(w, f, op, l, 2, shift_right_unsigned); }
static void run_multiply_wide(exec_warp *w, exec_frame *f, const exec_op *op, uint64_t l) { map_lanes(w, f, op, l, 2, multiply_wide); }
static void run_multiply_add_wide(exec_warp *w, exec_frame *f, const exec_op *op, uint64_t l) { map_lanes(w, f, op, l, 3, multiply_add_wide); }
static void run_add_f32(exec_warp *w, exec_frame *f, const exec_op *op, uint64_t l) { map_lanes(w, f, op, l, 2, add_f32); }
static void run_subtract_f32(exec_warp *w, exec_frame *f, const exec_op *op, uint64_t l) { map_lanes(w, f, op, l, 2, subtract_f32); }
static void run_multiply_f32(exec_warp *w, exec_frame *f, const exec_op *op, uint64_t l) { map_lanes(w, f, op, l, 2, multiply_f32); }
static void run_fused_multiply_add_f32(exec_warp *w, exec_frame *f, const exec_op *op, uint64_t l) { map_lanes(w, f, op, l, 3, fused_multiply_add_f32); }
#if defined(__x86_64__) && defined(__GNUC__)
/* The same loop built for x86-64 CPUs with FMA instructions: there fmaf is one vfmadd per lane
 * instead of a call into libm, with the same IEEE fused result. Chosen when the CPU has them. */
__attribute__((target("fma"))) static void run_fused_multiply_add_f32_fma(exec_warp *w, exec_frame *f,
                                                                          const exec_op *op, uint64_t l)
{
    map_lanes(w, f, op, l, 3, fused_multiply_add_f32);
}

static exec_handler fused_multiply_add_f32_handler(void)
{
    return __builtin_cpu_supports("fma") ? run_fused_multiply_add_f32_fma : run_fused_multiply_add_f32;
}
#else
static exec_handler fused_multiply_add_f32_handler(void)
{
    return run_fused_multiply_add_f32;
}
#endif
static void run_move(exec_warp *w, exec_frame *f, const exec_op *op, uint64_t l) { map_lanes(w, f, op, l, 1, copy); }
static void run_cvta(exec_warp *w, exec_frame *f, const exec_op *op, uint64_t l) { map_lanes(w, f, op, l, 1, offset); }
static void run_select(exec_warp *w, exec_frame *f, const exec_op *op, uint64_t l) { map_lanes(w, f, op, l, 3, select); }
static void run_convert_integer(exec_warp *w, exec_frame *f, const exec_op *op, uint64_t l) { map_lanes(w, f, op, l, 1, convert_integer); }

/* Integer setp without a combining predicate. Sources are compared as keys: masked to the type's
 * width, with the sign bit flipped for signed ordered comparisons, so one unsigned comparison
 * serves both signednesses. Writes the result to operand 0 and its negation to the '|' partner. */
typedef bool (*lane_comparison)(uint64_t a, uint64_t b);

LANE_LOOP void compare_lanes(exec_warp *warp, exec_frame *frame, const exec_op *op, uint64_t lanes, bool ordered,
                             lane_comparison comparison)
{
    uint64_t buffers[2][EXEC_MAX_WARP_WIDTH], value[EXEC_MAX_WARP_WIDTH], negation[EXEC_MAX_WARP_WIDTH];
    const uint64_t *a = operand_values(warp, frame, op, 1, lanes, buffers[0]);
    const uint64_t *b = operand_values(warp, frame, op, 2, lanes, buffers[1]);
    uint64_t mask = op->result_mask;
    uint64_t flip = ordered && op->source_signed ? 1ull << (op->source_bits - 1) : 0;
    if (lanes == warp->kernel->full_mask)
        for (unsigned lane = 0; lane < warp->kernel->width; lane++) {
            value[lane] = comparison((a[lane] & mask) ^ flip, (b[lane] & mask) ^ flip);
            negation[lane] = !value[lane];
        }
    else
        for (uint64_t m = lanes; m; m &= m - 1) {
            unsigned lane = (unsigned)__builtin_ctzll(m);
            value[lane] = comparison((a[lane] & mask) ^ flip, (b[lane] & mask) ^ flip);
            negation[lane] = !value[lane];
        }
    operand_write_lanes(warp, frame, op->destination, lanes, value);
    operand_write_lanes(warp, frame, op->instruction->operands[0].reg2, lanes, negation);
}

static bool equal(uint64_t a, uint64_t b) { return a == b; }
static bool not_equal(uint64_t a, uint64_t b) { return a != b; }
static bool less(uint64_t a, uint64_t b) { return a < b; }
static bool less_or_equal(uint64_t a, uint64_t b) { return a <= b; }
static bool greater(uint64_t a, uint64_t b) { return a > b; }
static bool greater_or_equal(uint64_t a, uint64_t b) { return a >= b; }

static void run_setp_eq(exec_warp *w, exec_frame *f, const exec_op *op, uint64_t l) { compare_lanes(w, f, op, l, false, equal); }
static void run_setp_ne(exec_warp *w, exec_frame *f, const exec_op *op, uint64_t l) { compare_lanes(w, f, op, l, false, not_equal); }
static void run_setp_lt(exec_warp *w, exec_frame *f, const exec_op *op, uint64_t l) { compare_lanes(w, f, op, l, true, less); }
static void run_setp_le(exec_warp *w, exec_frame *f, const exec_op *op, uint64_t l) { compare_lanes(w, f, op, l, true, less_or_equal); }
static void run_setp_gt(exec_warp *w, exec_frame *f, const exec_op *op, uint64_t l) { compare_lanes(w, f, op, l, true, greater); }
static void run_setp_ge(exec_warp *w, exec_frame *f, const exec_op *op, uint64_t l) { compare_lanes(w, f, op, l, true, greater_or_equal); }
static void run_setp_lo(exec_warp *w, exec_frame *f, const exec_op *op, uint64_t l) { compare_lanes(w, f, op, l, false, less); }
static void run_setp_ls(exec_warp *w, exec_frame *f, const exec_op *op, uint64_t l) { compare_lanes(w, f, op, l, false, less_or_equal); }
static void run_setp_hi(exec_warp *w, exec_frame *f, const exec_op *op, uint64_t l) { compare_lanes(w, f, op, l, false, greater); }
static void run_setp_hs(exec_warp *w, exec_frame *f, const exec_op *op, uint64_t l) { compare_lanes(w, f, op, l, false, greater_or_equal); }

static bool is_integer(ptx_type type)
{
    return type != PTX_TYPE_NONE && type != PTX_TYPE_PRED && !ptx_type_is_float(type);
}

static exec_handler integer_compare(ptx_compare compare)
{
    switch (compare) {
    case PTX_CMP_EQ: return run_setp_eq;
    case PTX_CMP_NE: return run_setp_ne;
    case PTX_CMP_LT: return run_setp_lt;
    case PTX_CMP_LE: return run_setp_le;
    case PTX_CMP_GT: return run_setp_gt;
    case PTX_CMP_GE: return run_setp_ge;
    case PTX_CMP_LO: return run_setp_lo;
    case PTX_CMP_LS: return run_setp_ls;
    case PTX_CMP_HI: return run_setp_hi;
    case PTX_CMP_HS: return run_setp_hs;
    default: return NULL;
    }
}

/* Integer arithmetic with the result truncated only to the destination register's width, as
 * alu_evaluate_integer's result is once written (add/sub/mul.lo/mad.lo/logic wrap). */
static exec_handler integer_arithmetic(const ptx_instruction *in)
{
    if (in->flags & (PTX_FLAG_HI | PTX_FLAG_SAT))
        return NULL;
    if (in->flags & PTX_FLAG_WIDE) {
        bool word = in->type == PTX_TYPE_U32 || in->type == PTX_TYPE_S32;
        return !word ? NULL : in->opcode == PTX_OP_MUL ? run_multiply_wide
                            : in->opcode == PTX_OP_MAD ? run_multiply_add_wide : NULL;
    }
    switch ((ptx_opcode)in->opcode) {
    case PTX_OP_ADD: return run_add;
    case PTX_OP_SUB: return run_subtract;
    case PTX_OP_MUL: return run_multiply;
    case PTX_OP_MAD: return run_multiply_add;
    case PTX_OP_AND: return run_and;
    case PTX_OP_OR: return run_or;
    case PTX_OP_XOR: return run_xor;
    case PTX_OP_SHL: return in->type == PTX_TYPE_PRED ? NULL : run_shift_left;
    case PTX_OP_SHR: return is_integer((ptx_type)in->type) && !ptx_type_is_signed((ptx_type)in->type)
                            ? run_shift_right_unsigned : NULL;
    default: return NULL;
    }
}

static exec_handler f32_arithmetic(const ptx_instruction *in)
{
    if (in->type != PTX_TYPE_F32 || (in->flags & (PTX_FLAG_FTZ | PTX_FLAG_SAT)))
        return NULL;
    switch ((ptx_opcode)in->opcode) {
    case PTX_OP_ADD: return run_add_f32;
    case PTX_OP_SUB: return run_subtract_f32;
    case PTX_OP_MUL: return run_multiply_f32;
    case PTX_OP_MAD:
    case PTX_OP_FMA: return fused_multiply_add_f32_handler();
    default: return NULL;
    }
}

exec_handler alu_lanes_handler(const ptx_instruction *in)
{
    const ptx_operand *destination = &in->operands[0], *source = &in->operands[1];
    if (in->operand_count < 2 || destination->kind != PTX_OPERAND_REGISTER)
        return NULL;
    ptx_type type = (ptx_type)in->type;
    switch ((ptx_opcode)in->opcode) {
    case PTX_OP_MOV: return source->kind != PTX_OPERAND_VECTOR ? run_move : NULL;
    case PTX_OP_CVTA: return run_cvta;
    case PTX_OP_SELP: return run_select;
    case PTX_OP_CVT:
        return is_integer(type) && is_integer((ptx_type)in->src_type) && !(in->flags & PTX_FLAG_SAT)
                   ? run_convert_integer : NULL;
    case PTX_OP_SETP:
        return is_integer(type) && in->combine == PTX_COMBINE_NONE ? integer_compare((ptx_compare)in->compare) : NULL;
    default:
        return ptx_type_is_float(type) ? f32_arithmetic(in) : integer_arithmetic(in);
    }
}
