/* test_alu.c — per-lane PTX semantics of the executor's ALU: integer widths and signedness,
 * wide/hi multiplies, division corner cases, bit-field and byte-permute instructions, funnel
 * shifts, lop3, comparisons (ordered/unordered), conversions with rounding and saturation,
 * half floats, and atomic read-modify-write. Expected values are worked out from the PTX ISA. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>

#include "exec/alu.h"
#include "exec/memory_request.h"

static uint64_t run(ptx_opcode opcode, ptx_type type, uint32_t flags, uint64_t a, uint64_t b, uint64_t c, uint64_t d)
{
    ptx_instruction in = {.opcode = opcode, .type = type, .flags = flags};
    uint64_t sources[4] = {a, b, c, d};
    return alu_evaluate(&in, sources);
}

static void test_integer_arithmetic(void **state)
{
    (void)state;
    assert_int_equal(run(PTX_OP_ADD, PTX_TYPE_U32, 0, 0xffffffffu, 2, 0, 0), 1);
    assert_int_equal(run(PTX_OP_SUB, PTX_TYPE_S32, 0, 0, 1, 0, 0), 0xffffffffu);
    assert_int_equal(run(PTX_OP_MUL, PTX_TYPE_S32, PTX_FLAG_WIDE, 0xfffffffeu, 3, 0, 0), (uint64_t)-6);
    assert_int_equal(run(PTX_OP_MUL, PTX_TYPE_U32, PTX_FLAG_WIDE, 0xffffffffu, 2, 0, 0), 0x1fffffffeull);
    assert_int_equal(run(PTX_OP_MUL, PTX_TYPE_U32, PTX_FLAG_HI, 0x80000000u, 4, 0, 0), 2);
    assert_int_equal(run(PTX_OP_MUL, PTX_TYPE_S32, PTX_FLAG_HI, 0xffffffffu, 0xffffffffu, 0, 0), 0);
    assert_int_equal(run(PTX_OP_MUL, PTX_TYPE_U64, PTX_FLAG_HI, 1ull << 63, 4, 0, 0), 2);
    assert_int_equal(run(PTX_OP_MAD, PTX_TYPE_S32, PTX_FLAG_LO, 3, 4, 5, 0), 17);
    assert_int_equal(run(PTX_OP_MAD, PTX_TYPE_S32, PTX_FLAG_WIDE, 0xffffffffu, 2, 10, 0), 8);
    assert_int_equal(run(PTX_OP_DIV, PTX_TYPE_S32, 0, (uint32_t)-7, 2, 0, 0), (uint32_t)-3);
    assert_int_equal(run(PTX_OP_REM, PTX_TYPE_S32, 0, (uint32_t)-7, 2, 0, 0), (uint32_t)-1);
    assert_int_equal(run(PTX_OP_DIV, PTX_TYPE_U32, 0, 7, 0, 0, 0), 0xffffffffu);
    assert_int_equal(run(PTX_OP_DIV, PTX_TYPE_S32, 0, 0x80000000u, 0xffffffffu, 0, 0), 0x80000000u);
    assert_int_equal(run(PTX_OP_MIN, PTX_TYPE_S32, 0, (uint32_t)-1, 1, 0, 0), 0xffffffffu);
    assert_int_equal(run(PTX_OP_MIN, PTX_TYPE_U32, 0, (uint32_t)-1, 1, 0, 0), 1);
    assert_int_equal(run(PTX_OP_ABS, PTX_TYPE_S32, 0, (uint32_t)-5, 0, 0, 0), 5);
}

static void test_shifts_and_bits(void **state)
{
    (void)state;
    assert_int_equal(run(PTX_OP_SHL, PTX_TYPE_B32, 0, 1, 33, 0, 0), 0);
    assert_int_equal(run(PTX_OP_SHR, PTX_TYPE_S32, 0, 0x80000000u, 40, 0, 0), 0xffffffffu);
    assert_int_equal(run(PTX_OP_SHR, PTX_TYPE_U32, 0, 0x80000000u, 31, 0, 0), 1);
    /* shf.l.wrap: (b:a) << 8, upper word */
    assert_int_equal(run(PTX_OP_SHF, PTX_TYPE_B32, PTX_FLAG_SHIFT_LEFT | PTX_FLAG_WRAP, 0xaabbccddu, 0x11223344u, 8, 0),
                     0x223344aau);
    assert_int_equal(run(PTX_OP_SHF, PTX_TYPE_B32, PTX_FLAG_WRAP, 0xaabbccddu, 0x11223344u, 8, 0), 0x44aabbccu);
    assert_int_equal(run(PTX_OP_SHF, PTX_TYPE_B32, 0, 0xaabbccddu, 0x11223344u, 40, 0), 0x11223344u);
    assert_int_equal(run(PTX_OP_POPC, PTX_TYPE_B32, 0, 0xf0f0u, 0, 0, 0), 8);
    assert_int_equal(run(PTX_OP_CLZ, PTX_TYPE_B32, 0, 1, 0, 0, 0), 31);
    assert_int_equal(run(PTX_OP_CLZ, PTX_TYPE_B32, 0, 0, 0, 0, 0), 32);
    assert_int_equal(run(PTX_OP_BREV, PTX_TYPE_B32, 0, 1, 0, 0, 0), 0x80000000u);
    assert_int_equal(run(PTX_OP_BFE, PTX_TYPE_U32, 0, 0xabcd1234u, 8, 8, 0), 0x12);
    assert_int_equal(run(PTX_OP_BFE, PTX_TYPE_S32, 0, 0x0000f000u, 12, 4, 0), 0xffffffffu);
    assert_int_equal(run(PTX_OP_BFI, PTX_TYPE_B32, 0, 0xf, 0xffff0000u, 4, 4), 0xffff00f0u);
    assert_int_equal(run(PTX_OP_BFIND, PTX_TYPE_U32, 0, 0x100, 0, 0, 0), 8);
    assert_int_equal(run(PTX_OP_BFIND, PTX_TYPE_U32, 0, 0, 0, 0, 0), 0xffffffffu);
    /* lop3 with LUT 0x96 is a ^ b ^ c */
    assert_int_equal(run(PTX_OP_LOP3, PTX_TYPE_B32, 0, 0xf0, 0xcc, 0xaa, 0x96), 0xf0 ^ 0xcc ^ 0xaa);
    /* lop3 with LUT 0xe8 is majority(a, b, c) */
    assert_int_equal(run(PTX_OP_LOP3, PTX_TYPE_B32, 0, 0xf0, 0xcc, 0xaa, 0xe8), 0xe8);
}

static void test_permute(void **state)
{
    (void)state;
    ptx_instruction in = {.opcode = PTX_OP_PRMT, .type = PTX_TYPE_B32};
    uint64_t sources[3] = {0x33221100u, 0x77665544u, 0x4567};
    assert_int_equal(alu_evaluate(&in, sources), 0x44556677u);
    sources[2] = 0x0123;
    assert_int_equal(alu_evaluate(&in, sources), 0x00112233u);
    sources[2] = 0x000b;  /* byte 3 with sign replication: 0x33 has a clear sign bit */
    sources[0] = 0x83221100u;
    assert_int_equal(alu_evaluate(&in, sources) & 0xff, 0xff);
    in.mode = PTX_PRMT_F4E;
    sources[0] = 0x33221100u;
    sources[2] = 1;
    assert_int_equal(alu_evaluate(&in, sources), 0x44332211u);
}

static void test_float(void **state)
{
    (void)state;
    uint64_t two = alu_from_f32(2.0f), three = alu_from_f32(3.0f), one = alu_from_f32(1.0f);
    assert_true(alu_as_f32(run(PTX_OP_FMA, PTX_TYPE_F32, 0, two, three, one, 0)) == 7.0f);
    assert_true(alu_as_f32(run(PTX_OP_MIN, PTX_TYPE_F32, 0, alu_from_f32(NAN), two, 0, 0)) == 2.0f);
    /* NaN results are the canonical NaN, whichever NaN payloads the sources carry */
    assert_int_equal(run(PTX_OP_ADD, PTX_TYPE_F32, 0, 0xffe07c2du, 0x7fc00001u, 0, 0), 0x7fffffffu);
    assert_int_equal(run(PTX_OP_MUL, PTX_TYPE_F32, 0, 0x7fc00001u, 0xffe07c2du, 0, 0), 0x7fffffffu);
    assert_true(alu_as_f32(run(PTX_OP_ADD, PTX_TYPE_F32, PTX_FLAG_SAT, two, three, 0, 0)) == 1.0f);
    assert_true(alu_as_f64(run(PTX_OP_DIV, PTX_TYPE_F64, 0, alu_from_f64(1.0), alu_from_f64(4.0), 0, 0)) == 0.25);
    assert_true(alu_as_f32(run(PTX_OP_EX2, PTX_TYPE_F32, PTX_FLAG_APPROX, three, 0, 0, 0)) == 8.0f);
    assert_true(alu_compare(PTX_CMP_LT, PTX_TYPE_F32, one, two));
    assert_false(alu_compare(PTX_CMP_NE, PTX_TYPE_F32, alu_from_f32(NAN), one));
    assert_true(alu_compare(PTX_CMP_NEU, PTX_TYPE_F32, alu_from_f32(NAN), one));
    assert_true(alu_compare(PTX_CMP_LT, PTX_TYPE_S32, 0xffffffffu, 0));
    assert_true(alu_test_float(PTX_TESTP_NOTANUMBER, PTX_TYPE_F32, alu_from_f32(NAN)));
    assert_false(alu_test_float(PTX_TESTP_FINITE, PTX_TYPE_F64, alu_from_f64(INFINITY)));
    assert_true(alu_test_float(PTX_TESTP_SUBNORMAL, PTX_TYPE_F32, 1));
    assert_false(alu_test_float(PTX_TESTP_NORMAL, PTX_TYPE_F32, 1));
    assert_false(alu_compare(PTX_CMP_LO, PTX_TYPE_U32, 0xffffffffu, 0));
}

static uint64_t convert(ptx_type to, ptx_type from, ptx_rounding rounding, uint32_t flags, uint64_t value)
{
    ptx_instruction in = {.opcode = PTX_OP_CVT, .type = to, .src_type = from, .rounding = rounding, .flags = flags};
    return alu_convert(&in, value);
}

static void test_convert(void **state)
{
    (void)state;
    assert_int_equal(convert(PTX_TYPE_S64, PTX_TYPE_S32, 0, 0, 0xffffffffu), ~0ull);
    assert_int_equal(convert(PTX_TYPE_U64, PTX_TYPE_U32, 0, 0, 0xffffffffu), 0xffffffffu);
    assert_int_equal(convert(PTX_TYPE_U8, PTX_TYPE_S32, 0, PTX_FLAG_SAT, 300), 255);
    assert_int_equal(convert(PTX_TYPE_S8, PTX_TYPE_S32, 0, PTX_FLAG_SAT, (uint32_t)-300), 0x80);
    assert_int_equal(convert(PTX_TYPE_S32, PTX_TYPE_F32, PTX_ROUND_RZI, 0, alu_from_f32(-2.7f)), (uint32_t)-2);
    assert_int_equal(convert(PTX_TYPE_S32, PTX_TYPE_F32, PTX_ROUND_RMI, 0, alu_from_f32(-2.2f)), (uint32_t)-3);
    assert_int_equal(convert(PTX_TYPE_S32, PTX_TYPE_F32, PTX_ROUND_RNI, 0, alu_from_f32(2.5f)), 2);
    assert_int_equal(convert(PTX_TYPE_U32, PTX_TYPE_F32, PTX_ROUND_RZI, 0, alu_from_f32(-5.0f)), 0);
    assert_int_equal(convert(PTX_TYPE_S32, PTX_TYPE_F32, PTX_ROUND_RZI, 0, alu_from_f32(3e10f)), 0x7fffffffu);
    assert_int_equal(convert(PTX_TYPE_S32, PTX_TYPE_F32, PTX_ROUND_RZI, 0, alu_from_f32(NAN)), 0);
    assert_true(alu_as_f32(convert(PTX_TYPE_F32, PTX_TYPE_S32, PTX_ROUND_RN, 0, (uint32_t)-3)) == -3.0f);
    assert_true(alu_as_f64(convert(PTX_TYPE_F64, PTX_TYPE_F32, 0, 0, alu_from_f32(0.1f))) == (double)0.1f);
    assert_int_equal(convert(PTX_TYPE_F16, PTX_TYPE_F32, PTX_ROUND_RN, 0, alu_from_f32(1.5f)), 0x3e00);
    assert_true(alu_half_to_float(0x3e00) == 1.5f);
    assert_true(alu_half_to_float(0x0001) == ldexpf(1.0f, -24));
    assert_int_equal(alu_float_to_half(65504.0f), 0x7bff);
    assert_int_equal(alu_float_to_half(1e6f), 0x7c00);
}

static void test_atomics(void **state)
{
    (void)state;
    assert_int_equal(exec_atomic_apply(PTX_ATOM_ADD, PTX_TYPE_U32, 0xffffffffu, 1, 0), 0);
    assert_int_equal(exec_atomic_apply(PTX_ATOM_INC, PTX_TYPE_U32, 5, 5, 0), 0);
    assert_int_equal(exec_atomic_apply(PTX_ATOM_INC, PTX_TYPE_U32, 4, 5, 0), 5);
    assert_int_equal(exec_atomic_apply(PTX_ATOM_DEC, PTX_TYPE_U32, 0, 5, 0), 5);
    assert_int_equal(exec_atomic_apply(PTX_ATOM_DEC, PTX_TYPE_U32, 3, 5, 0), 2);
    assert_int_equal(exec_atomic_apply(PTX_ATOM_CAS, PTX_TYPE_B32, 7, 9, 7), 9);
    assert_int_equal(exec_atomic_apply(PTX_ATOM_CAS, PTX_TYPE_B32, 7, 9, 8), 7);
    assert_int_equal(exec_atomic_apply(PTX_ATOM_MIN, PTX_TYPE_S32, 3, 0xffffffffu, 0), 0xffffffffu);
    assert_int_equal(exec_atomic_apply(PTX_ATOM_MAX, PTX_TYPE_U32, 3, 0xffffffffu, 0), 0xffffffffu);
    assert_true(alu_as_f32(exec_atomic_apply(PTX_ATOM_ADD, PTX_TYPE_F32, alu_from_f32(1.5f), alu_from_f32(2.0f), 0)) ==
                3.5f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_integer_arithmetic), cmocka_unit_test(test_shifts_and_bits),
        cmocka_unit_test(test_permute),           cmocka_unit_test(test_float),
        cmocka_unit_test(test_convert),           cmocka_unit_test(test_atomics),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
