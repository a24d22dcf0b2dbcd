/* alu_float.c — f32/f64 PTX arithmetic, comparisons of every type, and the dispatch between the
 * integer and float paths (see alu.h). Approximate instructions use the C library's correctly
 * or nearly correctly rounded functions, which is within PTX's stated error bounds. An f32 NaN
 * result is the canonical NaN, whatever the payloads of NaN sources (alu_f32_result). */
#include "exec/alu.h"

#include <math.h>

static float flush_f32(const ptx_instruction *in, float x)
{
    if ((in->flags & PTX_FLAG_FTZ) && fpclassify(x) == FP_SUBNORMAL)
        return copysignf(0.0f, x);
    return x;
}

static float saturate_f32(const ptx_instruction *in, float x)
{
    if (!(in->flags & PTX_FLAG_SAT))
        return x;
    if (isnan(x))
        return 0.0f;
    return x < 0.0f ? 0.0f : (x > 1.0f ? 1.0f : x);
}

static float evaluate_f32(const ptx_instruction *in, const uint64_t *s)
{
    float a = flush_f32(in, alu_as_f32(s[0]));
    float b = flush_f32(in, alu_as_f32(s[1]));
    float c = flush_f32(in, alu_as_f32(s[2]));
    switch ((ptx_opcode)in->opcode) {
    case PTX_OP_ADD: return a + b;
    case PTX_OP_SUB: return a - b;
    case PTX_OP_MUL: return a * b;
    case PTX_OP_MAD:
    case PTX_OP_FMA: return fmaf(a, b, c);
    case PTX_OP_DIV: return a / b;
    case PTX_OP_ABS: return fabsf(a);
    case PTX_OP_NEG: return -a;
    case PTX_OP_MIN: return fminf(a, b);
    case PTX_OP_MAX: return fmaxf(a, b);
    case PTX_OP_COPYSIGN: return copysignf(b, a);
    case PTX_OP_RCP: return 1.0f / a;
    case PTX_OP_SQRT: return sqrtf(a);
    case PTX_OP_RSQRT: return 1.0f / sqrtf(a);
    case PTX_OP_EX2: return exp2f(a);
    case PTX_OP_LG2: return log2f(a);
    case PTX_OP_SIN: return sinf(a);
    case PTX_OP_COS: return cosf(a);
    case PTX_OP_TANH: return tanhf(a);
    default: return 0.0f;
    }
}

static double evaluate_f64(const ptx_instruction *in, const uint64_t *s)
{
    double a = alu_as_f64(s[0]), b = alu_as_f64(s[1]), c = alu_as_f64(s[2]);
    switch ((ptx_opcode)in->opcode) {
    case PTX_OP_ADD: return a + b;
    case PTX_OP_SUB: return a - b;
    case PTX_OP_MUL: return a * b;
    case PTX_OP_MAD:
    case PTX_OP_FMA: return fma(a, b, c);
    case PTX_OP_DIV: return a / b;
    case PTX_OP_ABS: return fabs(a);
    case PTX_OP_NEG: return -a;
    case PTX_OP_MIN: return fmin(a, b);
    case PTX_OP_MAX: return fmax(a, b);
    case PTX_OP_COPYSIGN: return copysign(b, a);
    case PTX_OP_RCP: return 1.0 / a;
    case PTX_OP_SQRT: return sqrt(a);
    case PTX_OP_RSQRT: return 1.0 / sqrt(a);
    case PTX_OP_EX2: return exp2(a);
    case PTX_OP_LG2: return log2(a);
    case PTX_OP_SIN: return sin(a);
    case PTX_OP_COS: return cos(a);
    case PTX_OP_TANH: return tanh(a);
    default: return 0.0;
    }
}

uint64_t alu_evaluate_float(const ptx_instruction *in, const uint64_t *sources)
{
    if (in->type == PTX_TYPE_F64)
        return alu_from_f64(evaluate_f64(in, sources));
    return alu_f32_result(flush_f32(in, saturate_f32(in, evaluate_f32(in, sources))));
}

uint64_t alu_evaluate(const ptx_instruction *in, const uint64_t *sources)
{
    if (ptx_type_is_float((ptx_type)in->type))
        return alu_evaluate_float(in, sources);
    return alu_evaluate_integer(in, sources);
}

bool alu_test_float(ptx_testp_mode mode, ptx_type type, uint64_t bits)
{
    double x = type == PTX_TYPE_F64 ? alu_as_f64(bits) : alu_as_f32(bits);
    int kind = type == PTX_TYPE_F64 ? fpclassify(x) : fpclassify(alu_as_f32(bits));
    switch (mode) {
    case PTX_TESTP_FINITE: return isfinite(x);
    case PTX_TESTP_INFINITE: return isinf(x);
    case PTX_TESTP_NUMBER: return !isnan(x);
    case PTX_TESTP_NOTANUMBER: return isnan(x);
    case PTX_TESTP_NORMAL: return kind == FP_NORMAL;
    case PTX_TESTP_SUBNORMAL: return kind == FP_SUBNORMAL;
    default: return false;
    }
}

static bool compare_ordered(ptx_compare compare, double a, double b)
{
    bool unordered = isnan(a) || isnan(b);
    switch (compare) {
    case PTX_CMP_EQ: return !unordered && a == b;
    case PTX_CMP_NE: return !unordered && a != b;
    case PTX_CMP_LT: return !unordered && a < b;
    case PTX_CMP_LE: return !unordered && a <= b;
    case PTX_CMP_GT: return !unordered && a > b;
    case PTX_CMP_GE: return !unordered && a >= b;
    case PTX_CMP_EQU: return unordered || a == b;
    case PTX_CMP_NEU: return unordered || a != b;
    case PTX_CMP_LTU: return unordered || a < b;
    case PTX_CMP_LEU: return unordered || a <= b;
    case PTX_CMP_GTU: return unordered || a > b;
    case PTX_CMP_GEU: return unordered || a >= b;
    case PTX_CMP_NUM: return !unordered;
    case PTX_CMP_NAN: return unordered;
    default: return false;
    }
}

bool alu_compare(ptx_compare compare, ptx_type type, uint64_t a, uint64_t b)
{
    if (type == PTX_TYPE_F32)
        return compare_ordered(compare, alu_as_f32(a), alu_as_f32(b));
    if (type == PTX_TYPE_F64)
        return compare_ordered(compare, alu_as_f64(a), alu_as_f64(b));
    unsigned bytes = ptx_type_size(type);
    uint64_t mask = alu_width_mask(bytes);
    uint64_t ua = a & mask, ub = b & mask;
    int64_t sa = alu_sign_extend(a, bytes), sb = alu_sign_extend(b, bytes);
    bool is_signed = ptx_type_is_signed(type);
    switch (compare) {
    case PTX_CMP_EQ: return ua == ub;
    case PTX_CMP_NE: return ua != ub;
    case PTX_CMP_LT: return is_signed ? sa < sb : ua < ub;
    case PTX_CMP_LE: return is_signed ? sa <= sb : ua <= ub;
    case PTX_CMP_GT: return is_signed ? sa > sb : ua > ub;
    case PTX_CMP_GE: return is_signed ? sa >= sb : ua >= ub;
    case PTX_CMP_LO: return ua < ub;
    case PTX_CMP_LS: return ua <= ub;
    case PTX_CMP_HI: return ua > ub;
    case PTX_CMP_HS: return ua >= ub;
    default: return false;
    }
}
