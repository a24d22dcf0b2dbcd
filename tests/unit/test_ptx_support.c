/* test_ptx_support.c — one row per entry of docs/ptx-support.md: every supported register
 * instruction form (arithmetic, logic, bit manipulation, comparison, selection, conversion,
 * warp-level primitives, special registers, shared atomics, bar.red) runs in a hand-written PTX
 * kernel on a 64-thread CTA and its result in every lane is compared with a C reference written
 * from the PTX ISA's definition: in the functional executor with 32-lane warps and with 64-lane
 * wavefronts (two PTX warps each), and in the detailed model under every mechanism. The kernel is assembled from the rows below: a prologue loads each
 * thread's inputs (u32 a, b, c; f32 x, y, z; and 64-bit pairs of them), every row leaves its
 * result in a register, and the epilogue of the row stores it to out[row][thread]. Memory,
 * atomics, fences, barriers, calls and control flow are covered by test_exec.c (see the doc).
 *
 * Approximate instructions (.approx, ex2, lg2, sin, cos, tanh) are checked against the C
 * library within a relative 2^-20; everything else must be bit-exact. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/config.h"
#include "host/host_api.h"
#include "protocols/mechanism.h"
#include "session/run_timing.h"

enum { THREADS = 64, LANES = 32 };

typedef struct inputs {
    uint32_t a[THREADS], b[THREADS], c[THREADS];
    float x[THREADS], y[THREADS], z[THREADS];
} inputs;

/* How a row leaves its result: %r10 (b32), %rd10 (b64), %f10, %fd10 or the predicate %p2. */
typedef enum result_kind { R32, R64, F32, F64, PRED } result_kind;

typedef uint64_t (*reference)(const inputs *in, unsigned t);

typedef struct row {
    const char *name;
    const char *ptx;
    result_kind kind;
    reference want;
    bool approximate;
} row;

/* ---- helpers for references ---------------------------------------------------------------- */

/* An f32 result as the GPU writes it: a NaN is the canonical NaN 0x7fffffff. */
static uint64_t f32_bits(float value)
{
    if (isnan(value))
        return 0x7fffffffu;
    uint32_t bits;
    memcpy(&bits, &value, sizeof bits);
    return bits;
}

static uint64_t f64_bits(double value)
{
    uint64_t bits;
    memcpy(&bits, &value, sizeof bits);
    return bits;
}

static float f32_of(uint64_t bits)
{
    uint32_t narrow = (uint32_t)bits;
    float value;
    memcpy(&value, &narrow, sizeof value);
    return value;
}

static uint64_t pair(uint32_t low, uint32_t high)
{
    return (uint64_t)high << 32 | low;
}

static int32_t s32(uint32_t v)
{
    return (int32_t)v;
}

static unsigned lane_of(unsigned t)
{
    return t % LANES;
}

static unsigned warp_base(unsigned t)
{
    return t - t % LANES;
}

/* ---- references ------------------------------------------------------------------------------ */

#define REF(name, expression) \
    static uint64_t name(const inputs *in, unsigned t) { (void)in; (void)t; return (uint64_t)(expression); }

#define A (in->a[t])
#define B (in->b[t])
#define C (in->c[t])
#define X (in->x[t])
#define Y (in->y[t])
#define Z (in->z[t])
#define A64 pair(in->a[t], in->b[t])
#define B64 pair(in->b[t], in->c[t])

/* cvt to s32 from a float already rounded to an integer: saturating, NaN gives 0. */
static uint64_t to_s32(float v)
{
    if (isnan(v))
        return 0;
    return (uint32_t)(v >= 2147483648.0f ? INT32_MAX : v < -2147483648.0f ? INT32_MIN : (int32_t)v);
}

static uint64_t clamp_s32(int64_t v)
{
    return (uint32_t)(int32_t)(v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : v);
}

static uint64_t permute(uint32_t a, uint32_t b, uint32_t selector)
{
    uint64_t bytes = pair(a, b);
    uint32_t result = 0;
    for (unsigned i = 0; i < 4; i++) {
        unsigned nibble = (selector >> (4 * i)) & 0xf;
        uint32_t byte = (uint32_t)(bytes >> (8 * (nibble & 7))) & 0xff;
        if (nibble & 8)
            byte = (byte & 0x80) ? 0xff : 0;
        result |= byte << (8 * i);
    }
    return result;
}

static uint64_t permute_forward(uint32_t a, uint32_t b, uint32_t selector)
{
    uint64_t bytes = pair(a, b);
    uint32_t result = 0;
    for (unsigned i = 0; i < 4; i++)
        result |= (uint32_t)((bytes >> (8 * ((selector + i) & 7))) & 0xff) << (8 * i);
    return result;
}

static uint64_t mul24(uint32_t a, uint32_t b, bool is_signed, bool high)
{
    int64_t x = is_signed ? (int64_t)((int32_t)(a << 8) >> 8) : (int64_t)(a & 0xffffff);
    int64_t y = is_signed ? (int64_t)((int32_t)(b << 8) >> 8) : (int64_t)(b & 0xffffff);
    int64_t product = x * y;
    return (uint32_t)(high ? (uint64_t)product >> 16 : (uint64_t)product);
}

static uint64_t dp4a(uint32_t a, uint32_t b, uint32_t c, bool a_signed, bool b_signed)
{
    int64_t sum = (int32_t)c;
    for (unsigned i = 0; i < 4; i++) {
        int64_t x = a_signed ? (int8_t)(a >> (8 * i)) : (uint8_t)(a >> (8 * i));
        int64_t y = b_signed ? (int8_t)(b >> (8 * i)) : (uint8_t)(b >> (8 * i));
        sum += x * y;
    }
    return (uint32_t)sum;
}

static uint64_t dp2a(uint32_t a, uint32_t b, uint32_t c, bool a_signed, bool b_signed, bool high)
{
    int64_t sum = (int32_t)c;
    for (unsigned i = 0; i < 2; i++) {
        int64_t x = a_signed ? (int16_t)(a >> (16 * i)) : (uint16_t)(a >> (16 * i));
        unsigned byte = (high ? 2 : 0) + i;
        int64_t y = b_signed ? (int8_t)(b >> (8 * byte)) : (uint8_t)(b >> (8 * byte));
        sum += x * y;
    }
    return (uint32_t)sum;
}

static uint64_t reverse_bits(uint64_t v, unsigned bits)
{
    uint64_t r = 0;
    for (unsigned i = 0; i < bits; i++)
        r |= ((v >> i) & 1) << (bits - 1 - i);
    return r;
}

static uint64_t extract(uint32_t a, unsigned pos, unsigned len, bool is_signed)
{
    if (len == 0)
        return 0;
    uint32_t result = 0;
    unsigned top = pos + len - 1 > 31 ? 31 : pos + len - 1;
    uint32_t sign = is_signed ? (a >> top) & 1 : 0;
    for (unsigned i = 0; i < 32; i++) {
        uint32_t bit = (i < len && pos + i <= 31) ? (a >> (pos + i)) & 1 : sign;
        result |= bit << i;
    }
    return result;
}

static uint64_t insert(uint32_t a, uint32_t b, unsigned pos, unsigned len)
{
    for (unsigned i = 0; i < len && pos + i < 32; i++)
        b = (b & ~(1u << (pos + i))) | (((a >> i) & 1) << (pos + i));
    return b;
}

static uint64_t leading_bit(uint32_t a, bool is_signed, bool shift_amount)
{
    uint32_t v = is_signed && (a >> 31) ? ~a : a;
    if (v == 0)
        return 0xffffffffu;
    unsigned position = 31 - (unsigned)__builtin_clz(v);
    return shift_amount ? 31 - position : position;
}

static uint64_t funnel(uint32_t low, uint32_t high, uint32_t n, bool left, bool wrap)
{
    n = wrap ? n & 31 : (n > 32 ? 32 : n);
    uint64_t joined = pair(low, high);
    return left ? (uint32_t)((joined << n) >> 32) : (uint32_t)(joined >> n);
}

static uint64_t lop3(uint32_t a, uint32_t b, uint32_t c, unsigned table)
{
    uint32_t result = 0;
    for (unsigned bit = 0; bit < 32; bit++) {
        unsigned index = ((a >> bit) & 1) << 2 | ((b >> bit) & 1) << 1 | ((c >> bit) & 1);
        result |= ((table >> index) & 1u) << bit;
    }
    return result;
}

static uint32_t half_bits(float value)
{
    _Float16 h = (_Float16)value;
    uint16_t bits;
    memcpy(&bits, &h, sizeof bits);
    return bits;
}

/* Lanes of t's warp whose predicate `p` (a function of the thread) holds, as a 32-bit mask. */
static uint32_t warp_mask(const inputs *in, unsigned t, bool (*p)(const inputs *, unsigned))
{
    uint32_t mask = 0;
    for (unsigned l = 0; l < LANES; l++)
        if (p(in, warp_base(t) + l))
            mask |= 1u << l;
    return mask;
}

static bool odd_a(const inputs *in, unsigned t)
{
    return in->a[t] & 1;
}

static bool same_a_low(const inputs *in, unsigned t)
{
    return (in->a[t] & 3) == (in->a[t - t % LANES + 0] & 3);
}

/* The shfl source lane for `mode` (0 up, 1 down, 2 bfly, 3 idx) with lane operand b and the
 * packed clamp/segment operand c, as the PTX ISA defines it. */
static unsigned shuffle_source(unsigned lane, unsigned mode, unsigned b, unsigned c, bool *in_range)
{
    unsigned clamp = c & 31, segment = (c >> 8) & 31;
    unsigned min_lane = lane & segment, max_lane = min_lane | (clamp & ~segment);
    int j;
    switch (mode) {
    case 0: j = (int)lane - (int)b; *in_range = j >= (int)max_lane; break;
    case 1: j = (int)(lane + b); *in_range = j <= (int)max_lane; break;
    case 2: j = (int)(lane ^ b); *in_range = j <= (int)max_lane; break;
    default: j = (int)(min_lane | (b & ~segment)); *in_range = j <= (int)max_lane; break;
    }
    return *in_range ? (unsigned)j : lane;
}

static uint64_t shuffled(const inputs *in, unsigned t, unsigned mode, unsigned b, unsigned c)
{
    bool in_range;
    return in->a[warp_base(t) + shuffle_source(lane_of(t), mode, b, c, &in_range)];
}

static uint64_t shuffle_predicate(unsigned t, unsigned mode, unsigned b, unsigned c)
{
    bool in_range;
    shuffle_source(lane_of(t), mode, b, c, &in_range);
    return in_range;
}

typedef enum reduction { SUM, MIN_S, MAX_U, AND, OR, XOR, MIN_U, MAX_S } reduction;

static uint64_t reduce(const inputs *in, unsigned t, reduction how)
{
    uint32_t r = in->a[warp_base(t)];
    for (unsigned l = 1; l < LANES; l++) {
        uint32_t v = in->a[warp_base(t) + l];
        switch (how) {
        case SUM: r += v; break;
        case MIN_S: r = s32(v) < s32(r) ? v : r; break;
        case MAX_S: r = s32(v) > s32(r) ? v : r; break;
        case MIN_U: r = v < r ? v : r; break;
        case MAX_U: r = v > r ? v : r; break;
        case AND: r &= v; break;
        case OR: r |= v; break;
        case XOR: r ^= v; break;
        }
    }
    return r;
}

static uint64_t match_any(const inputs *in, unsigned t, uint32_t value_mask)
{
    uint32_t mask = 0;
    for (unsigned l = 0; l < LANES; l++)
        if ((in->a[warp_base(t) + l] & value_mask) == (in->a[t] & value_mask))
            mask |= 1u << l;
    return mask;
}

static uint64_t match_any_64(const inputs *in, unsigned t)
{
    uint32_t mask = 0;
    for (unsigned l = 0; l < LANES; l++) {
        unsigned u = warp_base(t) + l;
        if ((pair(in->a[u], in->b[u]) & 0x100000001ull) == (A64 & 0x100000001ull))
            mask |= 1u << l;
    }
    return mask;
}

/* Lanes of t's warp in the same group as t: the same a & 3 (by_value) or, else, the same half
 * of the warp (lanes 0-15 or 16-31), as a 32-bit mask. */
static uint32_t group_mask(const inputs *in, unsigned t, bool by_value)
{
    uint32_t mask = 0;
    for (unsigned l = 0; l < LANES; l++) {
        unsigned u = warp_base(t) + l;
        bool same = by_value ? (in->a[u] & 3) == (in->a[t] & 3) : (l < 16) == (lane_of(t) < 16);
        if (same)
            mask |= 1u << l;
    }
    return mask;
}

static uint64_t group_max_b(const inputs *in, unsigned t)
{
    int32_t best = INT32_MIN;
    for (uint32_t m = group_mask(in, t, true); m; m &= m - 1)
        best = s32(in->b[warp_base(t) + (unsigned)__builtin_ctz(m)]) > best
                   ? s32(in->b[warp_base(t) + (unsigned)__builtin_ctz(m)]) : best;
    return (uint32_t)best;
}

static uint64_t parity_sum(const inputs *in, unsigned t)
{
    uint32_t sum = 0;
    for (unsigned l = 0; l < LANES; l++)
        if ((in->a[warp_base(t) + l] & 1) == (in->a[t] & 1))
            sum += in->a[warp_base(t) + l];
    return sum;
}

static uint64_t half_ballot(const inputs *in, unsigned t)
{
    return warp_mask(in, t, odd_a) & group_mask(in, t, false);
}

static uint64_t group_leader(const inputs *in, unsigned t)
{
    return (uint32_t)__builtin_ctz(group_mask(in, t, true));
}

static uint64_t half_match(const inputs *in, unsigned t)
{
    return match_any(in, t, 3) & group_mask(in, t, false);
}

static uint64_t vote_ballot(const inputs *in, unsigned t)
{
    return warp_mask(in, t, odd_a);
}

static bool float_class(float v, int wanted)
{
    return fpclassify(v) == wanted;
}

REF(r_mov, A)
REF(r_mov_pack, A64)
REF(r_mov_unpack, B)
REF(r_cvt_u16, A & 0xffff)
REF(r_cvt_s8, (uint32_t)(int32_t)(int8_t)A)
REF(r_cvt_s64_s32, (uint64_t)(int64_t)s32(A))
REF(r_cvt_u64_u32, (uint64_t)A)
REF(r_cvt_f32_s32, f32_bits((float)s32(A)))
REF(r_cvt_f32_u32, f32_bits((float)A))
REF(r_cvt_f32_u64, f32_bits((float)A64))
REF(r_cvt_rzi, to_s32(truncf(X)))
REF(r_cvt_rni, to_s32(nearbyintf(X)))
REF(r_cvt_rmi, f32_bits(floorf(X)))
REF(r_cvt_rpi, f32_bits(ceilf(X)))
REF(r_cvt_sat, f32_bits(X < 0 ? 0.0f : X > 1 ? 1.0f : X))
REF(r_cvt_rzi_sat_u8, (uint32_t)(X <= 0 ? 0 : X >= 255 ? 255 : (uint32_t)truncf(X)))
REF(r_cvt_f64_f32, f64_bits((double)X))
REF(r_cvt_f32_f64, f32_bits((float)((double)X * (double)Y)))
REF(r_cvt_f16, half_bits(X))
REF(r_cvt_f16_back, f32_bits((float)(_Float16)X))
REF(r_prmt, permute(A, B, C & 0xffff))
REF(r_prmt_f4e, permute_forward(A, B, C & 3))
REF(r_add_s32, A + B)
REF(r_add_s64, A64 + B64)
REF(r_sub_s32, A - B)
REF(r_add_sat, clamp_s32((int64_t)s32(A) + s32(B)))
REF(r_sub_sat, clamp_s32((int64_t)s32(A) - s32(B)))
REF(r_mul_lo, A * B)
REF(r_mul_hi_u32, (uint32_t)(((uint64_t)A * B) >> 32))
REF(r_mul_hi_s32, (uint32_t)(((int64_t)s32(A) * s32(B)) >> 32))
REF(r_mul_wide_s32, (uint64_t)((int64_t)s32(A) * s32(B)))
REF(r_mul_wide_u32, (uint64_t)A * B)
REF(r_mul_lo_u64, A64 * B64)
REF(r_mul_hi_u64, (uint64_t)(((unsigned __int128)A64 * B64) >> 64))
REF(r_mad_lo, A * B + C)
REF(r_mad_wide_u32, (uint64_t)A * B + B64)
REF(r_mad_hi_sat, clamp_s32((int64_t)(int32_t)(((int64_t)s32(A) * s32(B)) >> 32) + s32(C)))
REF(r_mul24_lo_u, mul24(A, B, false, false))
REF(r_mul24_hi_u, mul24(A, B, false, true))
REF(r_mul24_lo_s, mul24(A, B, true, false))
REF(r_mul24_hi_s, mul24(A, B, true, true))
REF(r_mad24_lo_u, (uint32_t)(mul24(A, B, false, false) + C))
REF(r_mad24_hi_sat, clamp_s32((int64_t)s32((uint32_t)mul24(A, B, true, true)) + s32(C)))
REF(r_sad_u32, C + (A > B ? A - B : B - A))
REF(r_sad_s32, (uint32_t)(C + (uint32_t)(s32(A) > s32(B) ? (int64_t)s32(A) - s32(B) : (int64_t)s32(B) - s32(A))))
REF(r_sad_u64, B64 + (A64 > B64 ? A64 - B64 : B64 - A64))
REF(r_div_u32, A / (B | 1))
REF(r_div_s32, (uint32_t)(s32(A) / s32(B | 1)))
REF(r_rem_u32, A % (B | 1))
REF(r_rem_s32, (uint32_t)(s32(A) % s32(B | 1)))
REF(r_div_s64, (uint64_t)((int64_t)A64 / (int64_t)(B64 | 1)))
REF(r_abs, (uint32_t)(s32(A) < 0 ? 0u - A : A))
REF(r_neg, 0u - A)
REF(r_min_s32, s32(A) < s32(B) ? A : B)
REF(r_min_u32, A < B ? A : B)
REF(r_max_s32, s32(A) > s32(B) ? A : B)
REF(r_max_u64, A64 > B64 ? A64 : B64)
REF(r_min_relu, s32(A) < s32(B) ? (s32(A) < 0 ? 0 : A) : (s32(B) < 0 ? 0 : B))
REF(r_max_relu, s32(A) > s32(B) ? (s32(A) < 0 ? 0 : A) : (s32(B) < 0 ? 0 : B))
REF(r_dp4a_uu, dp4a(A, B, C, false, false))
REF(r_dp4a_ss, dp4a(A, B, C, true, true))
REF(r_dp4a_su, dp4a(A, B, C, true, false))
REF(r_dp2a_lo_ss, dp2a(A, B, C, true, true, false))
REF(r_dp2a_hi_uu, dp2a(A, B, C, false, false, true))
REF(r_and, A & B)
REF(r_or, A | B)
REF(r_xor, A ^ B)
REF(r_not, ~A)
REF(r_cnot, (A & 3) == 0)
REF(r_lop3_xor3, lop3(A, B, C, 0x96))
REF(r_lop3_majority, lop3(A, B, C, 0xe8))
REF(r_shl, (B % 40) >= 32 ? 0 : A << (B % 40))
REF(r_shr_u32, (B % 40) >= 32 ? 0 : A >> (B % 40))
REF(r_shr_s32, (uint32_t)(s32(A) >> ((B % 40) >= 32 ? 31 : (B % 40))))
REF(r_shr_b64, A64 >> (B & 63))
REF(r_shf_l_wrap, funnel(A, B, C, true, true))
REF(r_shf_r_wrap, funnel(A, B, C, false, true))
REF(r_shf_l_clamp, funnel(A, B, C & 63, true, false))
REF(r_shf_r_clamp, funnel(A, B, C & 63, false, false))
REF(r_popc32, __builtin_popcount(A))
REF(r_popc64, __builtin_popcountll(A64))
REF(r_clz32, A ? __builtin_clz(A) : 32)
REF(r_clz64, A64 ? __builtin_clzll(A64) : 64)
REF(r_brev32, reverse_bits(A, 32))
REF(r_brev64, reverse_bits(A64, 64))
REF(r_bfe_u32, extract(A, B & 31, C & 31, false))
REF(r_bfe_s32, extract(A, B & 31, C & 31, true))
REF(r_bfi, insert(A, B, C & 31, (C >> 8) & 31))
REF(r_bfind_u32, leading_bit(A >> (B & 31), false, false))
REF(r_bfind_s32, leading_bit(A, true, false))
REF(r_bfind_shiftamt, leading_bit(A >> (B & 31), false, true))
REF(r_setp_lt_s32, s32(A) < s32(B))
REF(r_setp_lo_u32, A < B)
REF(r_setp_gt_f32, X > Y)
REF(r_setp_ltu_f32, isunordered(X, Y) || X < Y)
REF(r_setp_nan_f32, isunordered(X, Y))
REF(r_setp_and, (s32(A) != s32(B)) && (A & 1))
REF(r_set_u32, s32(A) < s32(B) ? 0xffffffffu : 0)
REF(r_set_f32, f32_bits(X > Y ? 1.0f : 0.0f))
REF(r_selp, (A & 1) ? B : C)
REF(r_slct_s32, s32(C) >= 0 ? A : B)
REF(r_slct_f32, Z >= 0 ? A : B)
REF(r_testp_finite, isfinite(X) != 0)
REF(r_testp_infinite, isinf(X) != 0)
REF(r_testp_number, !isnan(X))
REF(r_testp_notanumber, isnan(X) != 0)
REF(r_testp_normal, float_class(X, FP_NORMAL))
REF(r_testp_subnormal, float_class(X, FP_SUBNORMAL))
REF(r_add_f32, f32_bits(X + Y))
REF(r_sub_f32, f32_bits(X - Y))
REF(r_mul_f32, f32_bits(X * Y))
REF(r_fma_f32, f32_bits(fmaf(X, Y, Z)))
REF(r_div_rn_f32, f32_bits(X / Y))
REF(r_abs_f32, f32_bits(fabsf(X)))
REF(r_neg_f32, f32_bits(-X))
REF(r_min_f32, f32_bits(fminf(X, Y)))
REF(r_max_f32, f32_bits(fmaxf(X, Y)))
REF(r_copysign_f32, f32_bits(copysignf(Y, X)))
REF(r_rcp_rn_f32, f32_bits(1.0f / Y))
REF(r_sqrt_rn_f32, f32_bits(sqrtf(fabsf(X))))
REF(r_add_sat_f32, f32_bits(fminf(fmaxf(X + Y, 0.0f), 1.0f)))
REF(r_mul_ftz_f32, f32_bits(fpclassify(X) == FP_SUBNORMAL ? copysignf(0.0f, X) * Y : X * Y))
REF(r_div_approx_f32, f32_bits(X / Y))
REF(r_rcp_approx_f32, f32_bits(1.0f / Y))
REF(r_sqrt_approx_f32, f32_bits(sqrtf(Y)))
REF(r_rsqrt_approx_f32, f32_bits(1.0f / sqrtf(Y)))
REF(r_ex2_f32, f32_bits(exp2f(Z)))
REF(r_lg2_f32, f32_bits(log2f(Y)))
REF(r_sin_f32, f32_bits(sinf(Z)))
REF(r_cos_f32, f32_bits(cosf(Z)))
REF(r_tanh_f32, f32_bits(tanhf(Z)))
REF(r_add_f64, f64_bits((double)X + (double)Y))
REF(r_fma_f64, f64_bits(fma((double)X, (double)Y, (double)Z)))
REF(r_div_f64, f64_bits((double)X / (double)Y))
REF(r_sqrt_f64, f64_bits(sqrt((double)Y)))
REF(r_rcp_f64, f64_bits(1.0 / (double)Y))
REF(r_min_f64, f64_bits(fmin((double)X, (double)Y)))
REF(r_neg_f64, f64_bits(-(double)X))
REF(r_shfl_up, shuffled(in, t, 0, 3, 0))
REF(r_shfl_up_p, shuffle_predicate(t, 0, 3, 0))
REF(r_shfl_down, shuffled(in, t, 1, 5, 0x1f))
REF(r_shfl_down_p, shuffle_predicate(t, 1, 5, 0x1f))
REF(r_shfl_bfly, shuffled(in, t, 2, 6, 0x1f))
REF(r_shfl_idx, shuffled(in, t, 3, B & 31, 0x1f))
REF(r_shfl_idx_width8, shuffled(in, t, 3, B & 31, 0x181f))
REF(r_shfl_down_width8, shuffled(in, t, 1, 2, 0x181f))
REF(r_vote_all, warp_mask(in, t, odd_a) == 0xffffffffu)
REF(r_vote_any, warp_mask(in, t, odd_a) != 0)
REF(r_vote_uni, warp_mask(in, t, same_a_low) == 0xffffffffu)
REF(r_vote_ballot, vote_ballot(in, t))
REF(r_activemask, (A & 1) ? vote_ballot(in, t) : ~vote_ballot(in, t))
REF(r_match_any, match_any(in, t, 3))
REF(r_match_any_64, match_any_64(in, t))
REF(r_match_all_same, 0xffffffffu)
REF(r_match_all_same_p, 1)
REF(r_match_all_differ, 0)
REF(r_match_all_differ_p, 0)
REF(r_redux_add, reduce(in, t, SUM))
REF(r_redux_min_s, reduce(in, t, MIN_S))
REF(r_redux_max_s, reduce(in, t, MAX_S))
REF(r_redux_min_u, reduce(in, t, MIN_U))
REF(r_redux_max_u, reduce(in, t, MAX_U))
REF(r_redux_and, reduce(in, t, AND))
REF(r_redux_or, reduce(in, t, OR))
REF(r_redux_xor, reduce(in, t, XOR))
REF(r_elect, 0)
REF(r_elect_p, lane_of(t) == 0)
REF(r_elect_divergent, (A & 1) ? (uint32_t)__builtin_ctz(vote_ballot(in, t)) : 0xffffffffu)
REF(r_laneid, lane_of(t))
REF(r_lanemask_lt, (1u << lane_of(t)) - 1)
REF(r_lanemask_ge, ~((1u << lane_of(t)) - 1))
REF(r_ntid, THREADS)
REF(r_warp_size, LANES)
REF(r_shared, in->a[t ^ 1])
REF(r_shared_wrap, in->b[t ^ 1])
REF(r_bar_warp, A)
REF(r_setp_true, 1)

/* The CTA-wide result of an atomic every thread applies to one shared word. */
static uint64_t cta_sum(const inputs *in, unsigned t)
{
    (void)t;
    uint32_t sum = 0;
    for (unsigned u = 0; u < THREADS; u++)
        sum += in->a[u];
    return sum;
}

static uint64_t cta_max_s32(const inputs *in, unsigned t)
{
    (void)t;
    int32_t best = INT32_MIN;
    for (unsigned u = 0; u < THREADS; u++)
        best = s32(in->a[u]) > best ? s32(in->a[u]) : best;
    return (uint32_t)best;
}

static uint64_t cta_odd_count(const inputs *in, unsigned t)
{
    (void)t;
    uint32_t count = 0;
    for (unsigned u = 0; u < THREADS; u++)
        count += in->a[u] & 1;
    return count;
}

static uint64_t cta_all_odd(const inputs *in, unsigned t)
{
    return cta_odd_count(in, t) == THREADS;
}

static uint64_t cta_some_even(const inputs *in, unsigned t)
{
    return cta_odd_count(in, t) < THREADS;
}

static uint64_t cta_or(const inputs *in, unsigned t)
{
    (void)t;
    uint32_t bits = 0;
    for (unsigned u = 0; u < THREADS; u++)
        bits |= in->b[u];
    return bits;
}

/* Row text may use: %r1..%r3 = a, b, c; %f1..%f3 = x, y, z; %fd1..%fd3 = x, y, z as f64;
 * %rd6 = b:a and %rd7 = c:b (64-bit, high:low); %p1 = a is odd; %r0 = %tid.x; scratch %r4-%r9,
 * %rd8-%rd9, %f4-%f9, %fd4-%fd9, %p3-%p7, %rs1-%rs7. Results go to %r10/%rd10/%f10/%fd10/%p2.
 * Labels must be unique to the row. */
static const row rows[] = {
    {"mov.b32", "mov.u32 %r10, %r1;", R32, r_mov, false},
    {"mov.b64 pack", "mov.b64 %rd10, {%r1, %r2};", R64, r_mov_pack, false},
    {"mov.b64 unpack", "mov.b64 {%r11, %r10}, %rd6;", R32, r_mov_unpack, false},
    {"cvt.u16.u32 / cvt.u32.u16", "cvt.u16.u32 %rs1, %r1; cvt.u32.u16 %r10, %rs1;", R32, r_cvt_u16, false},
    {"cvt.s32.s8", "cvt.s32.s8 %r10, %r1;", R32, r_cvt_s8, false},
    {"cvt.s64.s32", "cvt.s64.s32 %rd10, %r1;", R64, r_cvt_s64_s32, false},
    {"cvt.u64.u32", "cvt.u64.u32 %rd10, %r1;", R64, r_cvt_u64_u32, false},
    {"cvt.rn.f32.s32", "cvt.rn.f32.s32 %f10, %r1;", F32, r_cvt_f32_s32, false},
    {"cvt.rn.f32.u32", "cvt.rn.f32.u32 %f10, %r1;", F32, r_cvt_f32_u32, false},
    {"cvt.rn.f32.u64", "cvt.rn.f32.u64 %f10, %rd6;", F32, r_cvt_f32_u64, false},
    {"cvt.rzi.s32.f32", "cvt.rzi.s32.f32 %r10, %f1;", R32, r_cvt_rzi, false},
    {"cvt.rni.s32.f32", "cvt.rni.s32.f32 %r10, %f1;", R32, r_cvt_rni, false},
    {"cvt.rmi.f32.f32", "cvt.rmi.f32.f32 %f10, %f1;", F32, r_cvt_rmi, false},
    {"cvt.rpi.f32.f32", "cvt.rpi.f32.f32 %f10, %f1;", F32, r_cvt_rpi, false},
    {"cvt.sat.f32.f32", "cvt.sat.f32.f32 %f10, %f1;", F32, r_cvt_sat, false},
    {"cvt.rzi.sat.u8.f32", "cvt.rzi.sat.u8.f32 %rs1, %f1; cvt.u32.u8 %r10, %rs1;", R32, r_cvt_rzi_sat_u8, false},
    {"cvt.f64.f32", "cvt.f64.f32 %fd10, %f1;", F64, r_cvt_f64_f32, false},
    {"cvt.rn.f32.f64", "mul.rn.f64 %fd4, %fd1, %fd2; cvt.rn.f32.f64 %f10, %fd4;", F32, r_cvt_f32_f64, false},
    {"cvt.rn.f16.f32", "cvt.rn.f16.f32 %rs1, %f1; cvt.u32.u16 %r10, %rs1;", R32, r_cvt_f16, false},
    {"cvt.f32.f16", "cvt.rn.f16.f32 %rs1, %f1; cvt.f32.f16 %f10, %rs1;", F32, r_cvt_f16_back, false},
    {"prmt.b32", "prmt.b32 %r10, %r1, %r2, %r3;", R32, r_prmt, false},
    {"prmt.b32.f4e", "prmt.b32.f4e %r10, %r1, %r2, %r3;", R32, r_prmt_f4e, false},
    {"add.s32", "add.s32 %r10, %r1, %r2;", R32, r_add_s32, false},
    {"add.s64", "add.s64 %rd10, %rd6, %rd7;", R64, r_add_s64, false},
    {"sub.s32", "sub.s32 %r10, %r1, %r2;", R32, r_sub_s32, false},
    {"add.sat.s32", "add.sat.s32 %r10, %r1, %r2;", R32, r_add_sat, false},
    {"sub.sat.s32", "sub.sat.s32 %r10, %r1, %r2;", R32, r_sub_sat, false},
    {"mul.lo.s32", "mul.lo.s32 %r10, %r1, %r2;", R32, r_mul_lo, false},
    {"mul.hi.u32", "mul.hi.u32 %r10, %r1, %r2;", R32, r_mul_hi_u32, false},
    {"mul.hi.s32", "mul.hi.s32 %r10, %r1, %r2;", R32, r_mul_hi_s32, false},
    {"mul.wide.s32", "mul.wide.s32 %rd10, %r1, %r2;", R64, r_mul_wide_s32, false},
    {"mul.wide.u32", "mul.wide.u32 %rd10, %r1, %r2;", R64, r_mul_wide_u32, false},
    {"mul.lo.u64", "mul.lo.u64 %rd10, %rd6, %rd7;", R64, r_mul_lo_u64, false},
    {"mul.hi.u64", "mul.hi.u64 %rd10, %rd6, %rd7;", R64, r_mul_hi_u64, false},
    {"mad.lo.s32", "mad.lo.s32 %r10, %r1, %r2, %r3;", R32, r_mad_lo, false},
    {"mad.wide.u32", "mad.wide.u32 %rd10, %r1, %r2, %rd7;", R64, r_mad_wide_u32, false},
    {"mad.hi.sat.s32", "mad.hi.sat.s32 %r10, %r1, %r2, %r3;", R32, r_mad_hi_sat, false},
    {"mul24.lo.u32", "mul24.lo.u32 %r10, %r1, %r2;", R32, r_mul24_lo_u, false},
    {"mul24.hi.u32", "mul24.hi.u32 %r10, %r1, %r2;", R32, r_mul24_hi_u, false},
    {"mul24.lo.s32", "mul24.lo.s32 %r10, %r1, %r2;", R32, r_mul24_lo_s, false},
    {"mul24.hi.s32", "mul24.hi.s32 %r10, %r1, %r2;", R32, r_mul24_hi_s, false},
    {"mad24.lo.u32", "mad24.lo.u32 %r10, %r1, %r2, %r3;", R32, r_mad24_lo_u, false},
    {"mad24.hi.sat.s32", "mad24.hi.sat.s32 %r10, %r1, %r2, %r3;", R32, r_mad24_hi_sat, false},
    {"sad.u32", "sad.u32 %r10, %r1, %r2, %r3;", R32, r_sad_u32, false},
    {"sad.s32", "sad.s32 %r10, %r1, %r2, %r3;", R32, r_sad_s32, false},
    {"sad.u64", "sad.u64 %rd10, %rd6, %rd7, %rd7;", R64, r_sad_u64, false},
    {"div.u32", "or.b32 %r4, %r2, 1; div.u32 %r10, %r1, %r4;", R32, r_div_u32, false},
    {"div.s32", "or.b32 %r4, %r2, 1; div.s32 %r10, %r1, %r4;", R32, r_div_s32, false},
    {"rem.u32", "or.b32 %r4, %r2, 1; rem.u32 %r10, %r1, %r4;", R32, r_rem_u32, false},
    {"rem.s32", "or.b32 %r4, %r2, 1; rem.s32 %r10, %r1, %r4;", R32, r_rem_s32, false},
    {"div.s64", "or.b64 %rd8, %rd7, 1; div.s64 %rd10, %rd6, %rd8;", R64, r_div_s64, false},
    {"abs.s32", "abs.s32 %r10, %r1;", R32, r_abs, false},
    {"neg.s32", "neg.s32 %r10, %r1;", R32, r_neg, false},
    {"min.s32", "min.s32 %r10, %r1, %r2;", R32, r_min_s32, false},
    {"min.u32", "min.u32 %r10, %r1, %r2;", R32, r_min_u32, false},
    {"max.s32", "max.s32 %r10, %r1, %r2;", R32, r_max_s32, false},
    {"max.u64", "max.u64 %rd10, %rd6, %rd7;", R64, r_max_u64, false},
    {"min.relu.s32", "min.relu.s32 %r10, %r1, %r2;", R32, r_min_relu, false},
    {"max.relu.s32", "max.relu.s32 %r10, %r1, %r2;", R32, r_max_relu, false},
    {"dp4a.u32.u32", "dp4a.u32.u32 %r10, %r1, %r2, %r3;", R32, r_dp4a_uu, false},
    {"dp4a.s32.s32", "dp4a.s32.s32 %r10, %r1, %r2, %r3;", R32, r_dp4a_ss, false},
    {"dp4a.s32.u32", "dp4a.s32.u32 %r10, %r1, %r2, %r3;", R32, r_dp4a_su, false},
    {"dp2a.lo.s32.s32", "dp2a.lo.s32.s32 %r10, %r1, %r2, %r3;", R32, r_dp2a_lo_ss, false},
    {"dp2a.hi.u32.u32", "dp2a.hi.u32.u32 %r10, %r1, %r2, %r3;", R32, r_dp2a_hi_uu, false},
    {"and.b32", "and.b32 %r10, %r1, %r2;", R32, r_and, false},
    {"or.b32", "or.b32 %r10, %r1, %r2;", R32, r_or, false},
    {"xor.b32", "xor.b32 %r10, %r1, %r2;", R32, r_xor, false},
    {"not.b32", "not.b32 %r10, %r1;", R32, r_not, false},
    {"cnot.b32", "and.b32 %r4, %r1, 3; cnot.b32 %r10, %r4;", R32, r_cnot, false},
    {"lop3.b32 0x96", "lop3.b32 %r10, %r1, %r2, %r3, 0x96;", R32, r_lop3_xor3, false},
    {"lop3.b32 0xe8", "lop3.b32 %r10, %r1, %r2, %r3, 0xe8;", R32, r_lop3_majority, false},
    {"shl.b32", "rem.u32 %r4, %r2, 40; shl.b32 %r10, %r1, %r4;", R32, r_shl, false},
    {"shr.u32", "rem.u32 %r4, %r2, 40; shr.u32 %r10, %r1, %r4;", R32, r_shr_u32, false},
    {"shr.s32", "rem.u32 %r4, %r2, 40; shr.s32 %r10, %r1, %r4;", R32, r_shr_s32, false},
    {"shr.b64", "and.b32 %r4, %r2, 63; shr.b64 %rd10, %rd6, %r4;", R64, r_shr_b64, false},
    {"shf.l.wrap.b32", "shf.l.wrap.b32 %r10, %r1, %r2, %r3;", R32, r_shf_l_wrap, false},
    {"shf.r.wrap.b32", "shf.r.wrap.b32 %r10, %r1, %r2, %r3;", R32, r_shf_r_wrap, false},
    {"shf.l.clamp.b32", "and.b32 %r4, %r3, 63; shf.l.clamp.b32 %r10, %r1, %r2, %r4;", R32, r_shf_l_clamp, false},
    {"shf.r.clamp.b32", "and.b32 %r4, %r3, 63; shf.r.clamp.b32 %r10, %r1, %r2, %r4;", R32, r_shf_r_clamp, false},
    {"popc.b32", "popc.b32 %r10, %r1;", R32, r_popc32, false},
    {"popc.b64", "popc.b64 %r10, %rd6;", R32, r_popc64, false},
    {"clz.b32", "clz.b32 %r10, %r1;", R32, r_clz32, false},
    {"clz.b64", "clz.b64 %r10, %rd6;", R32, r_clz64, false},
    {"brev.b32", "brev.b32 %r10, %r1;", R32, r_brev32, false},
    {"brev.b64", "brev.b64 %rd10, %rd6;", R64, r_brev64, false},
    {"bfe.u32", "and.b32 %r4, %r2, 31; and.b32 %r5, %r3, 31; bfe.u32 %r10, %r1, %r4, %r5;", R32, r_bfe_u32, false},
    {"bfe.s32", "and.b32 %r4, %r2, 31; and.b32 %r5, %r3, 31; bfe.s32 %r10, %r1, %r4, %r5;", R32, r_bfe_s32, false},
    {"bfi.b32", "and.b32 %r4, %r3, 31; bfe.u32 %r5, %r3, 8, 5; bfi.b32 %r10, %r1, %r2, %r4, %r5;", R32, r_bfi, false},
    {"bfind.u32", "and.b32 %r4, %r2, 31; shr.u32 %r5, %r1, %r4; bfind.u32 %r10, %r5;", R32, r_bfind_u32, false},
    {"bfind.s32", "bfind.s32 %r10, %r1;", R32, r_bfind_s32, false},
    {"bfind.shiftamt.u32", "and.b32 %r4, %r2, 31; shr.u32 %r5, %r1, %r4; bfind.shiftamt.u32 %r10, %r5;", R32,
     r_bfind_shiftamt, false},
    {"setp.lt.s32", "setp.lt.s32 %p2, %r1, %r2;", PRED, r_setp_lt_s32, false},
    {"setp.lo.u32", "setp.lo.u32 %p2, %r1, %r2;", PRED, r_setp_lo_u32, false},
    {"setp.gt.f32", "setp.gt.f32 %p2, %f1, %f2;", PRED, r_setp_gt_f32, false},
    {"setp.ltu.f32", "setp.ltu.f32 %p2, %f1, %f2;", PRED, r_setp_ltu_f32, false},
    {"setp.nan.f32", "setp.nan.f32 %p2, %f1, %f2;", PRED, r_setp_nan_f32, false},
    {"setp.ne.and.s32", "setp.ne.and.s32 %p2, %r1, %r2, %p1;", PRED, r_setp_and, false},
    {"set.lt.u32.s32", "set.lt.u32.s32 %r10, %r1, %r2;", R32, r_set_u32, false},
    {"set.gt.f32.f32", "set.gt.f32.f32 %f10, %f1, %f2;", F32, r_set_f32, false},
    {"selp.b32", "selp.b32 %r10, %r2, %r3, %p1;", R32, r_selp, false},
    {"slct.s32.s32", "slct.s32.s32 %r10, %r1, %r2, %r3;", R32, r_slct_s32, false},
    {"slct.b32.f32", "slct.b32.f32 %r10, %r1, %r2, %f3;", R32, r_slct_f32, false},
    {"testp.finite.f32", "testp.finite.f32 %p2, %f1;", PRED, r_testp_finite, false},
    {"testp.infinite.f32", "testp.infinite.f32 %p2, %f1;", PRED, r_testp_infinite, false},
    {"testp.number.f32", "testp.number.f32 %p2, %f1;", PRED, r_testp_number, false},
    {"testp.notanumber.f32", "testp.notanumber.f32 %p2, %f1;", PRED, r_testp_notanumber, false},
    {"testp.normal.f32", "testp.normal.f32 %p2, %f1;", PRED, r_testp_normal, false},
    {"testp.subnormal.f32", "testp.subnormal.f32 %p2, %f1;", PRED, r_testp_subnormal, false},
    {"add.f32", "add.f32 %f10, %f1, %f2;", F32, r_add_f32, false},
    {"sub.rn.f32", "sub.rn.f32 %f10, %f1, %f2;", F32, r_sub_f32, false},
    {"mul.rn.f32", "mul.rn.f32 %f10, %f1, %f2;", F32, r_mul_f32, false},
    {"fma.rn.f32", "fma.rn.f32 %f10, %f1, %f2, %f3;", F32, r_fma_f32, false},
    {"div.rn.f32", "div.rn.f32 %f10, %f1, %f2;", F32, r_div_rn_f32, false},
    {"abs.f32", "abs.f32 %f10, %f1;", F32, r_abs_f32, false},
    {"neg.f32", "neg.f32 %f10, %f1;", F32, r_neg_f32, false},
    {"min.f32", "min.f32 %f10, %f1, %f2;", F32, r_min_f32, false},
    {"max.f32", "max.f32 %f10, %f1, %f2;", F32, r_max_f32, false},
    {"copysign.f32", "copysign.f32 %f10, %f1, %f2;", F32, r_copysign_f32, false},
    {"rcp.rn.f32", "rcp.rn.f32 %f10, %f2;", F32, r_rcp_rn_f32, false},
    {"sqrt.rn.f32", "abs.f32 %f4, %f1; sqrt.rn.f32 %f10, %f4;", F32, r_sqrt_rn_f32, false},
    {"add.sat.f32", "add.sat.f32 %f10, %f1, %f2;", F32, r_add_sat_f32, false},
    {"mul.ftz.f32", "mul.ftz.f32 %f10, %f1, %f2;", F32, r_mul_ftz_f32, false},
    {"div.approx.f32", "div.approx.f32 %f10, %f1, %f2;", F32, r_div_approx_f32, true},
    {"div.full.f32", "div.full.f32 %f10, %f1, %f2;", F32, r_div_approx_f32, true},
    {"rcp.approx.ftz.f32", "rcp.approx.ftz.f32 %f10, %f2;", F32, r_rcp_approx_f32, true},
    {"sqrt.approx.f32", "sqrt.approx.f32 %f10, %f2;", F32, r_sqrt_approx_f32, true},
    {"rsqrt.approx.f32", "rsqrt.approx.f32 %f10, %f2;", F32, r_rsqrt_approx_f32, true},
    {"ex2.approx.ftz.f32", "ex2.approx.ftz.f32 %f10, %f3;", F32, r_ex2_f32, true},
    {"lg2.approx.f32", "lg2.approx.f32 %f10, %f2;", F32, r_lg2_f32, true},
    {"sin.approx.f32", "sin.approx.f32 %f10, %f3;", F32, r_sin_f32, true},
    {"cos.approx.f32", "cos.approx.f32 %f10, %f3;", F32, r_cos_f32, true},
    {"tanh.approx.f32", "tanh.approx.f32 %f10, %f3;", F32, r_tanh_f32, true},
    {"add.f64", "add.f64 %fd10, %fd1, %fd2;", F64, r_add_f64, false},
    {"fma.rn.f64", "fma.rn.f64 %fd10, %fd1, %fd2, %fd3;", F64, r_fma_f64, false},
    {"div.rn.f64", "div.rn.f64 %fd10, %fd1, %fd2;", F64, r_div_f64, false},
    {"sqrt.rn.f64", "sqrt.rn.f64 %fd10, %fd2;", F64, r_sqrt_f64, false},
    {"rcp.rn.f64", "rcp.rn.f64 %fd10, %fd2;", F64, r_rcp_f64, false},
    {"min.f64", "min.f64 %fd10, %fd1, %fd2;", F64, r_min_f64, false},
    {"neg.f64", "neg.f64 %fd10, %fd1;", F64, r_neg_f64, false},
    {"shfl.sync.up.b32", "shfl.sync.up.b32 %r10|%p3, %r1, 3, 0, -1;", R32, r_shfl_up, false},
    {"shfl.sync.up.b32 predicate", "shfl.sync.up.b32 %r4|%p2, %r1, 3, 0, -1;", PRED, r_shfl_up_p, false},
    {"shfl.sync.down.b32", "shfl.sync.down.b32 %r10|%p3, %r1, 5, 31, -1;", R32, r_shfl_down, false},
    {"shfl.sync.down.b32 predicate", "shfl.sync.down.b32 %r4|%p2, %r1, 5, 31, -1;", PRED, r_shfl_down_p, false},
    {"shfl.sync.bfly.b32", "shfl.sync.bfly.b32 %r10, %r1, 6, 31, -1;", R32, r_shfl_bfly, false},
    {"shfl.sync.idx.b32", "and.b32 %r4, %r2, 31; shfl.sync.idx.b32 %r10, %r1, %r4, 31, -1;", R32, r_shfl_idx, false},
    {"shfl.sync.idx.b32 width 8", "and.b32 %r4, %r2, 31; shfl.sync.idx.b32 %r10, %r1, %r4, 6175, -1;", R32,
     r_shfl_idx_width8, false},
    {"shfl.sync.down.b32 width 8", "shfl.sync.down.b32 %r10, %r1, 2, 6175, -1;", R32, r_shfl_down_width8, false},
    {"vote.sync.all.pred", "vote.sync.all.pred %p2, %p1, -1;", PRED, r_vote_all, false},
    {"vote.sync.any.pred", "vote.sync.any.pred %p2, %p1, -1;", PRED, r_vote_any, false},
    {"vote.sync.uni.pred", "and.b32 %r4, %r1, 3; shfl.sync.idx.b32 %r5, %r4, 0, 31, -1; setp.eq.u32 %p3, %r4, %r5; "
                           "vote.sync.uni.pred %p2, %p3, -1;", PRED, r_vote_uni, false},
    {"vote.sync.ballot.b32", "vote.sync.ballot.b32 %r10, %p1, -1;", R32, r_vote_ballot, false},
    {"activemask.b32", "@%p1 bra $L_active_odd; activemask.b32 %r10; bra.uni $L_active_join; "
                       "$L_active_odd: activemask.b32 %r10; $L_active_join:", R32, r_activemask, false},
    {"match.any.sync.b32", "and.b32 %r4, %r1, 3; match.any.sync.b32 %r10, %r4, -1;", R32, r_match_any, false},
    {"match.any.sync.b64", "and.b64 %rd8, %rd6, 4294967297; match.any.sync.b64 %r10, %rd8, -1;", R32,
     r_match_any_64, false},
    {"match.all.sync.b32 (equal)", "and.b32 %r4, %r1, 0; match.all.sync.b32 %r10|%p3, %r4, -1;", R32,
     r_match_all_same, false},
    {"match.all.sync.b32 (equal) predicate", "and.b32 %r4, %r1, 0; match.all.sync.b32 %r5|%p2, %r4, -1;", PRED,
     r_match_all_same_p, false},
    {"match.all.sync.b32 (differ)", "match.all.sync.b32 %r10|%p3, %r1, -1;", R32, r_match_all_differ, false},
    {"match.all.sync.b32 (differ) predicate", "match.all.sync.b32 %r5|%p2, %r1, -1;", PRED, r_match_all_differ_p,
     false},
    {"redux.sync.add.u32", "redux.sync.add.u32 %r10, %r1, -1;", R32, r_redux_add, false},
    {"redux.sync.min.s32", "redux.sync.min.s32 %r10, %r1, -1;", R32, r_redux_min_s, false},
    {"redux.sync.max.s32", "redux.sync.max.s32 %r10, %r1, -1;", R32, r_redux_max_s, false},
    {"redux.sync.min.u32", "redux.sync.min.u32 %r10, %r1, -1;", R32, r_redux_min_u, false},
    {"redux.sync.max.u32", "redux.sync.max.u32 %r10, %r1, -1;", R32, r_redux_max_u, false},
    {"redux.sync.and.b32", "redux.sync.and.b32 %r10, %r1, -1;", R32, r_redux_and, false},
    {"redux.sync.or.b32", "redux.sync.or.b32 %r10, %r1, -1;", R32, r_redux_or, false},
    {"redux.sync.xor.b32", "redux.sync.xor.b32 %r10, %r1, -1;", R32, r_redux_xor, false},
    {"redux.sync.max.s32 per match.any group", "and.b32 %r4, %r1, 3; match.any.sync.b32 %r5, %r4, -1; "
                                                "redux.sync.max.s32 %r10, %r2, %r5;", R32, group_max_b, false},
    {"redux.sync.add.u32 per ballot group", "vote.sync.ballot.b32 %r5, %p1, -1; not.b32 %r6, %r5; "
                                            "selp.b32 %r7, %r5, %r6, %p1; redux.sync.add.u32 %r10, %r1, %r7;", R32,
     parity_sum, false},
    {"vote.sync.ballot.b32 per half-warp mask", "mov.u32 %r4, %laneid; setp.lt.u32 %p3, %r4, 16; "
                                                "selp.b32 %r5, 65535, -65536, %p3; vote.sync.ballot.b32 %r10, %p1, %r5;",
     R32, half_ballot, false},
    {"match.any.sync.b32 per half-warp mask", "mov.u32 %r4, %laneid; setp.lt.u32 %p3, %r4, 16; "
                                              "selp.b32 %r5, 65535, -65536, %p3; and.b32 %r6, %r1, 3; "
                                              "match.any.sync.b32 %r10, %r6, %r5;", R32, half_match, false},
    {"elect.sync per match.any group", "and.b32 %r4, %r1, 3; match.any.sync.b32 %r5, %r4, -1; "
                                       "elect.sync %r10|%p3, %r5;", R32, group_leader, false},
    {"elect.sync", "elect.sync %r10|%p3, -1;", R32, r_elect, false},
    {"elect.sync predicate", "elect.sync %r4|%p2, -1;", PRED, r_elect_p, false},
    {"elect.sync (divergent)", "mov.u32 %r10, -1; @!%p1 bra $L_elect_skip; vote.sync.ballot.b32 %r4, %p1, -1; "
                               "elect.sync %r10|%p3, %r4; $L_elect_skip:", R32, r_elect_divergent, false},
    {"mov.u32 %laneid", "mov.u32 %r10, %laneid;", R32, r_laneid, false},
    {"mov.u32 %lanemask_lt", "mov.u32 %r10, %lanemask_lt;", R32, r_lanemask_lt, false},
    {"mov.u32 %lanemask_ge", "mov.u32 %r10, %lanemask_ge;", R32, r_lanemask_ge, false},
    {"mov.u32 %ntid.x", "mov.u32 %r10, %ntid.x;", R32, r_ntid, false},
    {"mov.u32 WARP_SZ", "mov.u32 %r10, WARP_SZ;", R32, r_warp_size, false},
    {"ld/st.shared + bar.sync", "shl.b32 %r4, %r0, 2; mov.u32 %r5, sbuf; add.u32 %r6, %r5, %r4; "
                                "st.shared.u32 [%r6], %r1; bar.sync 0; xor.b32 %r4, %r4, 4; add.u32 %r6, %r5, %r4; "
                                "ld.shared.u32 %r10, [%r6]; bar.sync 0;", R32, r_shared, false},
    {"ld/st.shared [%r+offset] wrapping at 32 bits",
     "shl.b32 %r4, %r0, 2; mov.u32 %r5, sbuf; add.u32 %r6, %r5, %r4; sub.u32 %r6, %r6, 64; "
     "st.shared.u32 [%r6+64], %r2; bar.sync 0; xor.b32 %r4, %r4, 4; add.u32 %r7, %r5, %r4; sub.u32 %r7, %r7, 128; "
     "ld.shared.u32 %r10, [%r7+128]; bar.sync 0;", R32, r_shared_wrap, false},
    {"bar.warp.sync", "bar.warp.sync -1; mov.u32 %r10, %r1;", R32, r_bar_warp, false},
    {"bar.red.popc.u32", "bar.red.popc.u32 %r10, 0, %p1;", R32, cta_odd_count, false},
    {"bar.red.and.pred", "bar.red.and.pred %p2, 0, %p1;", PRED, cta_all_odd, false},
    {"bar.red.or.pred", "bar.red.or.pred %p2, 0, !%p1;", PRED, cta_some_even, false},
    {"bar.red.and.pred (all hold)", "setp.ge.u32 %p3, %r0, 0; bar.red.and.pred %p2, 0, %p3;", PRED, r_setp_true,
     false},
    {"red.shared.add.u32", "st.shared.u32 [sbuf+256], 0; bar.sync 0; red.shared.add.u32 [sbuf+256], %r1; bar.sync 0; "
                           "ld.shared.u32 %r10, [sbuf+256]; bar.sync 0;", R32, cta_sum, false},
    {"atom.shared.max.s32", "st.shared.u32 [sbuf+260], -2147483648; bar.sync 0; "
                            "atom.shared.max.s32 %r4, [sbuf+260], %r1; bar.sync 0; ld.shared.u32 %r10, [sbuf+260]; "
                            "bar.sync 0;", R32, cta_max_s32, false},
    {"atom.or.b32 (generic)", "st.shared.u32 [sbuf+264], 0; bar.sync 0; cvta.shared.u64 %rd8, sbuf; "
                              "atom.or.b32 %r4, [%rd8+264], %r2; bar.sync 0; ld.shared.u32 %r10, [sbuf+264]; "
                              "bar.sync 0;", R32, cta_or, false},
};

enum { ROWS = sizeof rows / sizeof rows[0] };

/* ---- the kernel ------------------------------------------------------------------------------ */

static const char prologue[] =
    ".version 8.0\n.target sm_80\n.address_size 64\n"
    ".shared .align 4 .b8 sbuf[512];\n"
    ".visible .entry support(.param .u64 support_in, .param .u64 support_out)\n{\n"
    ".reg .pred %p<8>;\n.reg .b16 %rs<8>;\n.reg .b32 %r<12>;\n.reg .f32 %f<11>;\n.reg .b64 %rd<11>;\n"
    ".reg .f64 %fd<11>;\n"
    "ld.param.u64 %rd1, [support_in];\nld.param.u64 %rd2, [support_out];\n"
    "cvta.to.global.u64 %rd1, %rd1;\ncvta.to.global.u64 %rd2, %rd2;\n"
    "mov.u32 %r0, %tid.x;\nmul.wide.u32 %rd4, %r0, 4;\nadd.s64 %rd5, %rd1, %rd4;\n"
    "mul.wide.u32 %rd4, %r0, 8;\nadd.s64 %rd3, %rd2, %rd4;\n"
    "ld.global.u32 %r1, [%rd5];\nld.global.u32 %r2, [%rd5+256];\nld.global.u32 %r3, [%rd5+512];\n"
    "ld.global.f32 %f1, [%rd5+768];\nld.global.f32 %f2, [%rd5+1024];\nld.global.f32 %f3, [%rd5+1280];\n"
    "mov.b64 %rd6, {%r1, %r2};\nmov.b64 %rd7, {%r2, %r3};\n"
    "cvt.f64.f32 %fd1, %f1;\ncvt.f64.f32 %fd2, %f2;\ncvt.f64.f32 %fd3, %f3;\n"
    "and.b32 %r4, %r1, 1;\nsetp.ne.u32 %p1, %r4, 0;\n";

/* The instructions that move a row's result into %rd10 for the store. */
static const char *widen(result_kind kind)
{
    switch (kind) {
    case R32: return "cvt.u64.u32 %rd10, %r10;";
    case F32: return "mov.b32 %r10, %f10; cvt.u64.u32 %rd10, %r10;";
    case F64: return "mov.b64 %rd10, %fd10;";
    case PRED: return "selp.u64 %rd10, 1, 0, %p2;";
    default: return "";
    }
}

static char *kernel_text(void)
{
    size_t size = sizeof prologue + 64;
    for (unsigned i = 0; i < ROWS; i++)
        size += strlen(rows[i].ptx) + 160;
    char *text = malloc(size);
    size_t used = (size_t)snprintf(text, size, "%s", prologue);
    for (unsigned i = 0; i < ROWS; i++)
        used += (size_t)snprintf(text + used, size - used, "%s\n%s\nst.global.u64 [%%rd3+%u], %%rd10;\n",
                                 rows[i].ptx, widen(rows[i].kind), i * THREADS * 8);
    snprintf(text + used, size - used, "ret;\n}\n");
    return text;
}

/* Inputs with sign changes, overflowing sums, byte patterns, zero, and floats that are negative,
 * fractional, infinite, NaN, subnormal and -0. */
static void make_inputs(inputs *in)
{
    uint64_t state = 0x9e3779b97f4a7c15ull;
    for (unsigned t = 0; t < THREADS; t++) {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        in->a[t] = (uint32_t)(state >> 32);
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        in->b[t] = (uint32_t)(state >> 29);
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        in->c[t] = (uint32_t)(state >> 33) ^ (t * 0x01010101u);
        in->x[t] = ((float)t - 20.0f) * 0.37f;
        in->y[t] = (float)t * 0.11f + 0.5f;
        in->z[t] = ((float)t - 31.5f) * 0.093f;
    }
    in->a[3] = 0;
    in->a[4] = 0x80000000u;
    in->b[4] = 0x80000000u;
    in->a[9] = 0x7fffffffu;
    in->b[9] = 1;
    in->b[11] = 0xffffffffu;
    in->x[5] = INFINITY;
    in->x[6] = NAN;
    in->x[7] = 1e-40f;
    in->x[8] = -0.0f;
    in->x[10] = -INFINITY;
    in->x[12] = 300.7f;
}

static bool results_match(const row *r, uint64_t got, uint64_t want)
{
    if (!r->approximate || got == want)
        return got == want;
    float g = f32_of(got), w = f32_of(want);
    if (isnan(g) || isnan(w))
        return isnan(g) && isnan(w);
    return fabsf(g - w) <= ldexpf(1.0f, -20) * fmaxf(fabsf(w), 1e-30f) || (isinf(g) && g == w);
}

/* Writes the assembled kernel to a temporary file (and to $SYNCSCOPE_PTX_SUPPORT_DUMP if set). */
static void write_kernel(char *path)
{
    char *text = kernel_text();
    const char *dump = getenv("SYNCSCOPE_PTX_SUPPORT_DUMP");
    FILE *file = dump ? fopen(dump, "w") : NULL;
    if (file) {
        fputs(text, file);
        fclose(file);
    }
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    file = fdopen(fd, "w");
    fputs(text, file);
    fclose(file);
    free(text);
}

/* Runs every row on `device` (which it destroys) and compares each thread's result with the
 * reference; `what` names the engine in messages. */
static void check_rows(sc_device *device, const char *what)
{
    static inputs in;
    make_inputs(&in);
    char path[] = "/tmp/ptx_support_XXXXXX";
    write_kernel(path);
    sc_error error = {{0}};
    int module = sc_device_load_ptx(device, path, &error);
    remove(path);
    if (module < 0)
        fail_msg("%s", error.message);
    uint32_t packed[6 * THREADS];
    memcpy(packed, in.a, sizeof in.a);
    memcpy(packed + THREADS, in.b, sizeof in.b);
    memcpy(packed + 2 * THREADS, in.c, sizeof in.c);
    memcpy(packed + 3 * THREADS, in.x, sizeof in.x);
    memcpy(packed + 4 * THREADS, in.y, sizeof in.y);
    memcpy(packed + 5 * THREADS, in.z, sizeof in.z);
    uint64_t input = sc_device_malloc(device, sizeof packed);
    uint64_t output = sc_device_malloc(device, (uint64_t)ROWS * THREADS * 8);
    assert_int_equal(sc_memcpy_to_device(device, input, packed, sizeof packed, &error), 0);
    sc_kernel_arg args[2] = {sc_arg_ptr(input), sc_arg_ptr(output)};
    if (sc_launch_kernel(device, module, "support", (sc_dim3){1, 1, 1}, (sc_dim3){THREADS, 1, 1}, 0, args, 2,
                         &error) < 0)
        fail_msg("%s: %s", what, error.message);
    uint64_t *results = malloc((size_t)ROWS * THREADS * 8);
    assert_int_equal(sc_memcpy_from_device(device, results, output, (size_t)ROWS * THREADS * 8, &error), 0);
    unsigned failures = 0;
    for (unsigned i = 0; i < ROWS; i++)
        for (unsigned t = 0; t < THREADS; t++) {
            uint64_t got = results[i * THREADS + t], want = rows[i].want(&in, t);
            if (rows[i].kind == R32 || rows[i].kind == F32)
                want &= 0xffffffffull;
            if (!results_match(&rows[i], got, want) && failures++ < 40)
                print_error("%s: %s: thread %u: got 0x%llx, expected 0x%llx\n", what, rows[i].name, t,
                            (unsigned long long)got, (unsigned long long)want);
        }
    free(results);
    sc_device_destroy(device);
    if (failures)
        fail_msg("%s: %u results differ from the C references", what, failures);
}

static sc_device *functional_device(unsigned warp_size)
{
    sc_error error = {{0}};
    sc_device *device = sc_device_create(warp_size, &error);
    if (!device)
        fail_msg("%s", error.message);
    return device;
}

/* 32-lane warps, and 64-lane wavefronts whose 32-lane halves are the PTX warps. */
static void test_functional(void **state)
{
    (void)state;
    check_rows(functional_device(32), "functional, 32 lanes");
    check_rows(functional_device(64), "functional, 64 lanes");
}

/* The detailed model under every mechanism gives the same values. */
static void test_detailed_every_mechanism(void **state)
{
    (void)state;
    int count;
    const sc_mechanism *const *mechanisms = sc_mechanism_list(&count);
    sc_mechanism_add_config_keys();
    for (int i = 0; i < count; i++) {
        sc_error error = {{0}};
        const char *sets[] = {"gpu.cu_count=1", "cpu.count=0"};
        sc_config *config = sc_config_load("gtx480", NULL, sets, 2, &error);
        if (!config)
            fail_msg("%s", error.message);
        void *engine;
        sc_device *device = run_timing_device(config, mechanisms[i]->name, 0, &engine, &error);
        if (!device)
            fail_msg("%s: %s", mechanisms[i]->name, error.message);
        char what[64];
        snprintf(what, sizeof what, "detailed, %s", mechanisms[i]->name);
        check_rows(device, what);
        sc_config_free(config);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_functional),
        cmocka_unit_test(test_detailed_every_mechanism),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
