/* alu_integer.c — integer and bitwise PTX instructions, one lane at a time (see alu.h). */
#include "exec/alu.h"

typedef struct integer_operands {
    unsigned bytes;      /* width of the operation type */
    bool is_signed;
    uint64_t mask;
} integer_operands;

static uint64_t multiply(const ptx_instruction *in, const integer_operands *t, uint64_t a, uint64_t b)
{
    if (in->flags & PTX_FLAG_WIDE) {
        if (t->is_signed)
            return (uint64_t)(alu_sign_extend(a, t->bytes) * alu_sign_extend(b, t->bytes));
        return (a & t->mask) * (b & t->mask);
    }
    if (in->flags & PTX_FLAG_HI) {
        if (t->bytes == 8) {
            if (t->is_signed)
                return (uint64_t)(((__int128)(int64_t)a * (__int128)(int64_t)b) >> 64);
            return (uint64_t)(((unsigned __int128)a * b) >> 64);
        }
        unsigned bits = t->bytes * 8;
        if (t->is_signed)
            return (uint64_t)((alu_sign_extend(a, t->bytes) * alu_sign_extend(b, t->bytes)) >> bits) & t->mask;
        return (((a & t->mask) * (b & t->mask)) >> bits) & t->mask;
    }
    return (a * b) & t->mask;
}

static uint64_t divide(const integer_operands *t, uint64_t a, uint64_t b, bool remainder)
{
    if (t->is_signed) {
        int64_t x = alu_sign_extend(a, t->bytes), y = alu_sign_extend(b, t->bytes);
        if (y == 0)
            return remainder ? (uint64_t)x & t->mask : t->mask;
        if (y == -1)  /* avoids INT_MIN / -1 */
            return remainder ? 0 : (uint64_t)(0 - (uint64_t)x) & t->mask;
        return (uint64_t)(remainder ? x % y : x / y) & t->mask;
    }
    a &= t->mask;
    b &= t->mask;
    if (b == 0)
        return remainder ? a : t->mask;
    return remainder ? a % b : a / b;
}

static uint64_t shift_right(const integer_operands *t, uint64_t a, uint64_t amount)
{
    unsigned bits = t->bytes * 8;
    if (t->is_signed) {
        int64_t x = alu_sign_extend(a, t->bytes);
        return (uint64_t)(x >> (amount >= bits ? bits - 1 : amount)) & t->mask;
    }
    return amount >= bits ? 0 : ((a & t->mask) >> amount);
}

static uint64_t funnel_shift(const ptx_instruction *in, uint64_t low, uint64_t high, uint64_t amount)
{
    uint64_t n = (in->flags & PTX_FLAG_WRAP) ? (amount & 31) : (amount > 32 ? 32 : amount);
    uint64_t joined = ((high & 0xffffffffull) << 32) | (low & 0xffffffffull);
    if (in->flags & PTX_FLAG_SHIFT_LEFT)
        return ((joined << n) >> 32) & 0xffffffffull;
    return (joined >> n) & 0xffffffffull;
}

static uint64_t bit_field_extract(const integer_operands *t, uint64_t a, uint64_t position, uint64_t length)
{
    unsigned bits = t->bytes * 8, pos = (unsigned)(position & 0xff), len = (unsigned)(length & 0xff);
    unsigned msb = bits - 1;
    uint64_t sign = 0;
    if (t->is_signed && len != 0) {
        unsigned top = pos + len - 1 > msb ? msb : pos + len - 1;
        sign = (a >> top) & 1;
    }
    uint64_t result = 0;
    for (unsigned i = 0; i < bits; i++) {
        uint64_t bit = (i < len && pos + i <= msb) ? (a >> (pos + i)) & 1 : sign;
        result |= bit << i;
    }
    return result;
}

static uint64_t bit_field_insert(const integer_operands *t, uint64_t a, uint64_t b, uint64_t position,
                                 uint64_t length)
{
    unsigned bits = t->bytes * 8, pos = (unsigned)(position & 0xff), len = (unsigned)(length & 0xff);
    uint64_t result = b & t->mask;
    for (unsigned i = 0; i < len && pos + i < bits; i++) {
        result &= ~(1ull << (pos + i));
        result |= ((a >> i) & 1) << (pos + i);
    }
    return result;
}

static uint64_t find_leading_bit(const ptx_instruction *in, const integer_operands *t, uint64_t a)
{
    unsigned bits = t->bytes * 8;
    uint64_t x = a & t->mask;
    if (t->is_signed && ((x >> (bits - 1)) & 1))
        x = ~x & t->mask;
    if (x == 0)
        return 0xffffffffull;
    unsigned position = 63 - (unsigned)__builtin_clzll(x);
    return (in->flags & PTX_FLAG_SHIFTAMT) ? bits - 1 - position : position;
}

static unsigned permute_byte_index(ptx_prmt_mode mode, uint64_t selector, unsigned i)
{
    unsigned s = (unsigned)(selector & 3);
    switch (mode) {
    case PTX_PRMT_F4E: return (s + i) & 7;
    case PTX_PRMT_B4E: return (s - i) & 7;
    case PTX_PRMT_RC8: return s;
    case PTX_PRMT_ECL: return i > s ? i : s;
    case PTX_PRMT_ECR: return i < s ? i : s;
    case PTX_PRMT_RC16: return 2 * (s & 1) + (i & 1);
    default: return (unsigned)(selector >> (4 * i)) & 7;
    }
}

static uint64_t permute_bytes(const ptx_instruction *in, uint64_t a, uint64_t b, uint64_t selector)
{
    uint64_t source = ((b & 0xffffffffull) << 32) | (a & 0xffffffffull);
    uint64_t result = 0;
    for (unsigned i = 0; i < 4; i++) {
        unsigned index = permute_byte_index((ptx_prmt_mode)in->mode, selector, i);
        uint64_t byte = (source >> (8 * index)) & 0xff;
        if (in->mode == PTX_PRMT_DEFAULT && ((selector >> (4 * i + 3)) & 1))
            byte = (byte & 0x80) ? 0xff : 0;
        result |= byte << (8 * i);
    }
    return result;
}

static uint64_t lookup_table_logic(uint64_t a, uint64_t b, uint64_t c, uint64_t table)
{
    uint64_t result = 0;
    for (unsigned minterm = 0; minterm < 8; minterm++)
        if ((table >> minterm) & 1)
            result |= ((minterm & 4) ? a : ~a) & ((minterm & 2) ? b : ~b) & ((minterm & 1) ? c : ~c);
    return result;
}

/* A signed 32-bit result clamped to [INT32_MIN, INT32_MAX] (add/sub/mad .sat.s32). */
static uint64_t saturate_s32(int64_t value)
{
    int64_t clamped = value > INT32_MAX ? INT32_MAX : value < INT32_MIN ? INT32_MIN : value;
    return (uint64_t)clamped & 0xffffffffull;
}

/* mul24 / mad24: the 48-bit product of the low 24 bits of a and b (sign-extended from bit 23
 * for .s32); .lo keeps its bits 31..0, .hi its bits 47..16. */
static uint64_t multiply_24(const ptx_instruction *in, const integer_operands *t, uint64_t a, uint64_t b)
{
    int64_t x = t->is_signed ? alu_sign_extend(a & 0xffffff, 3) : (int64_t)(a & 0xffffff);
    int64_t y = t->is_signed ? alu_sign_extend(b & 0xffffff, 3) : (int64_t)(b & 0xffffff);
    int64_t product = x * y;
    return (in->flags & PTX_FLAG_HI) ? (uint64_t)(product >> 16) : (uint64_t)product;
}

/* dp4a: c plus the four products of a's and b's bytes; dp2a: c plus the products of a's two
 * 16-bit halves with two bytes of b (.lo: bytes 0-1, .hi: bytes 2-3). Each source is signed or
 * unsigned as its type says (a: the type, b: the second type). */
static uint64_t dot_product(const ptx_instruction *in, uint64_t a, uint64_t b, uint64_t c)
{
    bool a_signed = in->type == PTX_TYPE_S32, b_signed = in->src_type == PTX_TYPE_S32;
    int64_t sum = a_signed ? alu_sign_extend(c, 4) : (int64_t)(c & 0xffffffffull);
    if (in->opcode == PTX_OP_DP4A) {
        for (unsigned i = 0; i < 4; i++) {
            uint64_t x = (a >> (8 * i)) & 0xff, y = (b >> (8 * i)) & 0xff;
            sum += (a_signed ? alu_sign_extend(x, 1) : (int64_t)x) * (b_signed ? alu_sign_extend(y, 1) : (int64_t)y);
        }
    } else {
        unsigned first = (in->flags & PTX_FLAG_HI) ? 2 : 0;
        for (unsigned i = 0; i < 2; i++) {
            uint64_t x = (a >> (16 * i)) & 0xffff, y = (b >> (8 * (first + i))) & 0xff;
            sum += (a_signed ? alu_sign_extend(x, 2) : (int64_t)x) * (b_signed ? alu_sign_extend(y, 1) : (int64_t)y);
        }
    }
    return (uint64_t)sum & 0xffffffffull;
}

/* sad: c + |a - b| in the type's width. */
static uint64_t absolute_difference_sum(const integer_operands *t, uint64_t a, uint64_t b, uint64_t c)
{
    uint64_t difference;
    if (t->is_signed) {
        int64_t x = alu_sign_extend(a, t->bytes), y = alu_sign_extend(b, t->bytes);
        difference = x > y ? (uint64_t)x - (uint64_t)y : (uint64_t)y - (uint64_t)x;
    } else {
        uint64_t x = a & t->mask, y = b & t->mask;
        difference = x > y ? x - y : y - x;
    }
    return (c + difference) & t->mask;
}

static uint64_t minimum_or_maximum(const integer_operands *t, uint64_t a, uint64_t b, bool maximum)
{
    bool a_less = t->is_signed ? alu_sign_extend(a, t->bytes) < alu_sign_extend(b, t->bytes)
                               : (a & t->mask) < (b & t->mask);
    return (a_less != maximum) ? a : b;
}

uint64_t alu_evaluate_integer(const ptx_instruction *in, const uint64_t *s)
{
    ptx_type type = (ptx_type)in->type;
    integer_operands t = {ptx_type_size(type), ptx_type_is_signed(type), 0};
    t.mask = alu_width_mask(t.bytes);
    uint64_t wide_mask = (in->flags & PTX_FLAG_WIDE) ? alu_width_mask(t.bytes * 2) : t.mask;
    if (type == PTX_TYPE_PRED)
        t.mask = 1;
    bool saturate = (in->flags & PTX_FLAG_SAT) && type == PTX_TYPE_S32;
    bool relu = (in->flags & PTX_FLAG_RELU) != 0;
    switch ((ptx_opcode)in->opcode) {
    case PTX_OP_ADD:
        if (saturate)
            return saturate_s32(alu_sign_extend(s[0], 4) + alu_sign_extend(s[1], 4));
        return (s[0] + s[1]) & t.mask;
    case PTX_OP_SUB:
        if (saturate)
            return saturate_s32(alu_sign_extend(s[0], 4) - alu_sign_extend(s[1], 4));
        return (s[0] - s[1]) & t.mask;
    case PTX_OP_MUL: return multiply(in, &t, s[0], s[1]) & wide_mask;
    case PTX_OP_MAD:
        if (saturate)  /* mad.hi.sat.s32 */
            return saturate_s32(alu_sign_extend(multiply(in, &t, s[0], s[1]), 4) + alu_sign_extend(s[2], 4));
        return (multiply(in, &t, s[0], s[1]) + s[2]) & wide_mask;
    case PTX_OP_MUL24: return multiply_24(in, &t, s[0], s[1]) & t.mask;
    case PTX_OP_MAD24:
        if (saturate)  /* mad24.hi.sat.s32 */
            return saturate_s32(alu_sign_extend(multiply_24(in, &t, s[0], s[1]), 4) + alu_sign_extend(s[2], 4));
        return (multiply_24(in, &t, s[0], s[1]) + s[2]) & t.mask;
    case PTX_OP_SAD: return absolute_difference_sum(&t, s[0], s[1], s[2]);
    case PTX_OP_DP4A: case PTX_OP_DP2A: return dot_product(in, s[0], s[1], s[2]);
    case PTX_OP_DIV: return divide(&t, s[0], s[1], false);
    case PTX_OP_REM: return divide(&t, s[0], s[1], true);
    case PTX_OP_ABS: {
        int64_t x = alu_sign_extend(s[0], t.bytes);
        return (uint64_t)(x < 0 ? 0 - (uint64_t)x : (uint64_t)x) & t.mask;
    }
    case PTX_OP_NEG: return (0 - s[0]) & t.mask;
    case PTX_OP_MIN: case PTX_OP_MAX: {
        uint64_t result = minimum_or_maximum(&t, s[0], s[1], in->opcode == PTX_OP_MAX) & t.mask;
        return relu && alu_sign_extend(result, t.bytes) < 0 ? 0 : result;
    }
    case PTX_OP_AND: return s[0] & s[1] & t.mask;
    case PTX_OP_OR: return (s[0] | s[1]) & t.mask;
    case PTX_OP_XOR: return (s[0] ^ s[1]) & t.mask;
    case PTX_OP_NOT: return ~s[0] & t.mask;
    case PTX_OP_CNOT: return (s[0] & t.mask) == 0;
    case PTX_OP_LOP3: return lookup_table_logic(s[0], s[1], s[2], s[3]) & t.mask;
    case PTX_OP_SHL: return s[1] >= t.bytes * 8 ? 0 : (s[0] << s[1]) & t.mask;
    case PTX_OP_SHR: return shift_right(&t, s[0], s[1]);
    case PTX_OP_SHF: return funnel_shift(in, s[0], s[1], s[2]);
    case PTX_OP_POPC: return (uint64_t)__builtin_popcountll(s[0] & t.mask);
    case PTX_OP_CLZ: return (s[0] & t.mask) == 0 ? t.bytes * 8
                            : (uint64_t)__builtin_clzll(s[0] & t.mask) - (64 - t.bytes * 8);
    case PTX_OP_BREV: {
        uint64_t result = 0;
        for (unsigned i = 0; i < t.bytes * 8; i++)
            result |= ((s[0] >> i) & 1) << (t.bytes * 8 - 1 - i);
        return result;
    }
    case PTX_OP_BFE: return bit_field_extract(&t, s[0], s[1], s[2]);
    case PTX_OP_BFI: return bit_field_insert(&t, s[0], s[1], s[2], s[3]);
    case PTX_OP_BFIND: return find_leading_bit(in, &t, s[0]);
    case PTX_OP_PRMT: return permute_bytes(in, s[0], s[1], s[2]);
    default: return 0;
    }
}
