/* alu_convert.c — the cvt instruction: every integer and float width, rounding modes and
 * saturation, plus IEEE half conversions (see alu.h). Float-to-integer conversions saturate to
 * the destination range and map NaN to 0, as PTX specifies. */
#include "exec/alu.h"

#include <math.h>

float alu_half_to_float(uint16_t half)
{
    uint32_t sign = (uint32_t)(half >> 15) << 31;
    int exponent = (half >> 10) & 0x1f;
    uint32_t mantissa = half & 0x3ff;
    uint32_t bits;
    if (exponent == 0x1f)
        bits = sign | 0x7f800000u | (mantissa << 13);
    else if (exponent == 0)
        return (sign ? -1.0f : 1.0f) * ldexpf((float)mantissa, -24);
    else
        bits = sign | (uint32_t)(exponent - 15 + 127) << 23 | (mantissa << 13);
    return alu_as_f32(bits);
}

uint16_t alu_float_to_half(float value)
{
    uint16_t sign = signbit(value) ? 0x8000 : 0;
    float magnitude = fabsf(value);
    if (isnan(value))
        return sign | 0x7e00;
    if (magnitude >= 65520.0f)
        return sign | 0x7c00;
    if (magnitude < ldexpf(1.0f, -14))  /* subnormal half: round to nearest multiple of 2^-24 */
        return sign | (uint16_t)nearbyintf(magnitude * ldexpf(1.0f, 24));
    int exponent;
    float fraction = frexpf(magnitude, &exponent);  /* magnitude = fraction * 2^exponent */
    uint32_t mantissa = (uint32_t)nearbyintf((fraction * 2.0f - 1.0f) * 1024.0f);
    if (mantissa == 1024) {
        mantissa = 0;
        exponent++;
    }
    return sign | (uint16_t)((exponent - 1 + 15) << 10) | (uint16_t)mantissa;
}

static double round_integral(ptx_rounding rounding, double x)
{
    switch (rounding) {
    case PTX_ROUND_RNI: return nearbyint(x);
    case PTX_ROUND_RZI: return trunc(x);
    case PTX_ROUND_RMI: return floor(x);
    case PTX_ROUND_RPI: return ceil(x);
    default: return x;
    }
}

static double source_as_double(ptx_type type, uint64_t value)
{
    switch (type) {
    case PTX_TYPE_F16: return alu_half_to_float((uint16_t)value);
    case PTX_TYPE_F32: return alu_as_f32(value);
    case PTX_TYPE_F64: return alu_as_f64(value);
    default: return 0.0;
    }
}

static uint64_t float_to_integer(ptx_type destination, double x)
{
    unsigned bytes = ptx_type_size(destination);
    if (isnan(x))
        return 0;
    if (ptx_type_is_signed(destination)) {
        double low = -ldexp(1.0, (int)bytes * 8 - 1), high = ldexp(1.0, (int)bytes * 8 - 1);
        if (x < low)
            return (uint64_t)(int64_t)low & alu_width_mask(bytes);
        if (x >= high)
            return alu_width_mask(bytes) >> 1;
        return (uint64_t)(int64_t)x & alu_width_mask(bytes);
    }
    double high = ldexp(1.0, (int)bytes * 8);
    if (x <= 0.0)
        return 0;
    if (x >= high)
        return alu_width_mask(bytes);
    return (uint64_t)x;
}

static uint64_t integer_to_integer(const ptx_instruction *in, ptx_type from, uint64_t value)
{
    ptx_type to = (ptx_type)in->type;
    unsigned from_bytes = ptx_type_size(from), to_bytes = ptx_type_size(to);
    bool from_signed = ptx_type_is_signed(from);
    uint64_t mask = alu_width_mask(to_bytes);
    if (!(in->flags & PTX_FLAG_SAT)) {
        uint64_t extended = from_signed ? (uint64_t)alu_sign_extend(value, from_bytes)
                                        : value & alu_width_mask(from_bytes);
        return extended & mask;
    }
    __int128 x = from_signed ? (__int128)alu_sign_extend(value, from_bytes)
                             : (__int128)(value & alu_width_mask(from_bytes));
    __int128 low = ptx_type_is_signed(to) ? -((__int128)1 << (to_bytes * 8 - 1)) : 0;
    __int128 high = ptx_type_is_signed(to) ? ((__int128)1 << (to_bytes * 8 - 1)) - 1
                                           : (__int128)mask;
    if (x < low)
        x = low;
    if (x > high)
        x = high;
    return (uint64_t)x & mask;
}

static uint64_t store_float(ptx_type destination, double x, bool flush)
{
    if (destination == PTX_TYPE_F64)
        return alu_from_f64(x);
    float narrow = (float)x;
    if (flush && fpclassify(narrow) == FP_SUBNORMAL)
        narrow = copysignf(0.0f, narrow);
    if (destination == PTX_TYPE_F16)
        return alu_float_to_half(narrow);
    return alu_f32_result(narrow);
}

uint64_t alu_convert(const ptx_instruction *in, uint64_t value)
{
    ptx_type to = (ptx_type)in->type, from = (ptx_type)in->src_type;
    bool to_float = ptx_type_is_float(to), from_float = ptx_type_is_float(from);
    if (!to_float && !from_float)
        return integer_to_integer(in, from, value);
    if (from_float && !to_float)
        return float_to_integer(to, round_integral((ptx_rounding)in->rounding, source_as_double(from, value)));
    double x = from_float ? source_as_double(from, value)
                          : (ptx_type_is_signed(from) ? (double)alu_sign_extend(value, ptx_type_size(from))
                                                      : (double)(value & alu_width_mask(ptx_type_size(from))));
    if (!from_float && ptx_type_size(from) == 8 && to != PTX_TYPE_F64) /* u64/s64 -> f32 rounds once */
        x = ptx_type_is_signed(from) ? (double)(float)(int64_t)value : (double)(float)value;
    x = round_integral((ptx_rounding)in->rounding, x);
    if ((in->flags & PTX_FLAG_SAT) && to_float && !isnan(x))
        x = x < 0.0 ? 0.0 : (x > 1.0 ? 1.0 : x);
    return store_float(to, x, (in->flags & PTX_FLAG_FTZ) != 0);
}
