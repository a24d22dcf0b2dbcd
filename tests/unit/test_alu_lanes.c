/* test_alu_lanes.c — the executor's specialised whole-warp loops (exec/alu_lanes.c) against the
 * per-lane semantics of exec/alu.h. For every instruction form alu_lanes_handler accepts, random
 * register values (wide values, small ones, shift amounts past the width, signed extremes) go
 * through the handler that exec_program_build picks, for full warps and random partial masks, at
 * warp widths 32 and 64; every active lane must hold what alu_evaluate / alu_compare /
 * alu_convert give, truncated to the destination register, and every inactive lane must keep its
 * old value; likewise when the first source is the destination register itself (a full warp's
 * result is written in place, so each lane must read its sources before its result lands). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "base/random.h"
#include "exec/address_map.h"
#include "exec/alu.h"
#include "exec/execute_internal.h"
#include "exec/operands.h"
#include "exec/program.h"

enum { DESTINATION, PARTNER, FIRST_SOURCE, REGISTER_COUNT = FIRST_SOURCE + 3, TRIALS = 300 };

typedef struct lanes_case {
    ptx_opcode opcode;
    ptx_type type, src_type;
    uint32_t flags;
    ptx_compare compare;
    ptx_space space;        /* cvta */
    unsigned sources;
    bool immediate_last;    /* the last source is an immediate instead of a register */
    bool reads_destination; /* the first source is the destination register */
} lanes_case;

static const lanes_case cases[] = {
    {.opcode = PTX_OP_ADD, .type = PTX_TYPE_S32, .sources = 2},
    {.opcode = PTX_OP_ADD, .type = PTX_TYPE_U64, .sources = 2, .immediate_last = true},
    {.opcode = PTX_OP_SUB, .type = PTX_TYPE_S32, .sources = 2},
    {.opcode = PTX_OP_MUL, .type = PTX_TYPE_S32, .flags = PTX_FLAG_LO, .sources = 2},
    {.opcode = PTX_OP_MUL, .type = PTX_TYPE_U32, .flags = PTX_FLAG_WIDE, .sources = 2},
    {.opcode = PTX_OP_MUL, .type = PTX_TYPE_S32, .flags = PTX_FLAG_WIDE, .sources = 2, .immediate_last = true},
    {.opcode = PTX_OP_MAD, .type = PTX_TYPE_S32, .flags = PTX_FLAG_LO, .sources = 3},
    {.opcode = PTX_OP_MAD, .type = PTX_TYPE_S32, .flags = PTX_FLAG_WIDE, .sources = 3},
    {.opcode = PTX_OP_MAD, .type = PTX_TYPE_U32, .flags = PTX_FLAG_WIDE, .sources = 3},
    {.opcode = PTX_OP_AND, .type = PTX_TYPE_B32, .sources = 2},
    {.opcode = PTX_OP_AND, .type = PTX_TYPE_PRED, .sources = 2},
    {.opcode = PTX_OP_OR, .type = PTX_TYPE_B64, .sources = 2},
    {.opcode = PTX_OP_XOR, .type = PTX_TYPE_B32, .sources = 2, .immediate_last = true},
    {.opcode = PTX_OP_SHL, .type = PTX_TYPE_B32, .sources = 2},
    {.opcode = PTX_OP_SHL, .type = PTX_TYPE_B64, .sources = 2, .immediate_last = true},
    {.opcode = PTX_OP_SHR, .type = PTX_TYPE_U32, .sources = 2},
    {.opcode = PTX_OP_SHR, .type = PTX_TYPE_U64, .sources = 2},
    {.opcode = PTX_OP_SHR, .type = PTX_TYPE_B16, .sources = 2},
    {.opcode = PTX_OP_ADD, .type = PTX_TYPE_F32, .sources = 2},
    {.opcode = PTX_OP_SUB, .type = PTX_TYPE_F32, .sources = 2},
    {.opcode = PTX_OP_MUL, .type = PTX_TYPE_F32, .sources = 2, .immediate_last = true},
    {.opcode = PTX_OP_FMA, .type = PTX_TYPE_F32, .sources = 3},
    {.opcode = PTX_OP_MAD, .type = PTX_TYPE_F32, .sources = 3},
    {.opcode = PTX_OP_MOV, .type = PTX_TYPE_U32, .sources = 1},
    {.opcode = PTX_OP_MOV, .type = PTX_TYPE_B64, .sources = 1, .immediate_last = true},
    {.opcode = PTX_OP_CVTA, .type = PTX_TYPE_U64, .flags = PTX_FLAG_TO, .space = PTX_SPACE_GLOBAL, .sources = 1},
    {.opcode = PTX_OP_CVTA, .type = PTX_TYPE_U64, .space = PTX_SPACE_SHARED, .sources = 1},
    {.opcode = PTX_OP_CVTA, .type = PTX_TYPE_U64, .flags = PTX_FLAG_TO, .space = PTX_SPACE_LOCAL, .sources = 1},
    {.opcode = PTX_OP_SELP, .type = PTX_TYPE_B32, .sources = 3},
    {.opcode = PTX_OP_CVT, .type = PTX_TYPE_U64, .src_type = PTX_TYPE_U32, .sources = 1},
    {.opcode = PTX_OP_CVT, .type = PTX_TYPE_S64, .src_type = PTX_TYPE_S32, .sources = 1},
    {.opcode = PTX_OP_CVT, .type = PTX_TYPE_U32, .src_type = PTX_TYPE_U64, .sources = 1},
    {.opcode = PTX_OP_CVT, .type = PTX_TYPE_S32, .src_type = PTX_TYPE_S8, .sources = 1},
    {.opcode = PTX_OP_CVT, .type = PTX_TYPE_U16, .src_type = PTX_TYPE_S64, .sources = 1},
};

static const ptx_compare integer_compares[] = {
    PTX_CMP_EQ, PTX_CMP_NE, PTX_CMP_LT, PTX_CMP_LE, PTX_CMP_GT, PTX_CMP_GE,
    PTX_CMP_LO, PTX_CMP_LS, PTX_CMP_HI, PTX_CMP_HS,
};
static const ptx_type compare_types[] = {PTX_TYPE_S32, PTX_TYPE_U32, PTX_TYPE_S64, PTX_TYPE_U64, PTX_TYPE_S16, PTX_TYPE_B32};

/* One function holding the instruction, with registers typed as PTX requires. */
typedef struct test_program {
    ptx_register registers[REGISTER_COUNT];
    ptx_instruction instruction;
    ptx_function function;
    ptx_module module;
} test_program;

static ptx_type destination_type(const lanes_case *c)
{
    if (c->opcode == PTX_OP_SETP)
        return PTX_TYPE_PRED;
    if (c->flags & PTX_FLAG_WIDE)
        return ptx_type_is_signed(c->type) ? PTX_TYPE_S64 : PTX_TYPE_U64;
    return c->type;
}

static ptx_type source_type(const lanes_case *c, unsigned source)
{
    if (c->opcode == PTX_OP_SELP && source == 2)
        return PTX_TYPE_PRED;
    if (c->opcode == PTX_OP_CVT)
        return c->src_type;
    if ((c->opcode == PTX_OP_SHL || c->opcode == PTX_OP_SHR) && source == 1)
        return PTX_TYPE_U32;
    if ((c->flags & PTX_FLAG_WIDE) && source == 2)
        return destination_type(c);
    return c->type;
}

static void build_program(test_program *p, const lanes_case *c)
{
    *p = (test_program){0};
    p->registers[DESTINATION].type = (uint8_t)destination_type(c);
    p->registers[PARTNER].type = PTX_TYPE_PRED;
    for (unsigned i = 0; i < 3; i++)
        p->registers[FIRST_SOURCE + i].type = (uint8_t)source_type(c, i);
    ptx_instruction *in = &p->instruction;
    *in = (ptx_instruction){.opcode = (uint16_t)c->opcode, .type = (uint8_t)c->type, .src_type = (uint8_t)c->src_type,
                            .compare = (uint8_t)c->compare, .space = (uint8_t)c->space, .flags = c->flags,
                            .operand_count = (uint8_t)(c->sources + 1), .guard_reg = -1, .reconverge = -1, .callee = -1};
    in->operands[0] = (ptx_operand){.kind = PTX_OPERAND_REGISTER, .reg = DESTINATION,
                                    .reg2 = c->opcode == PTX_OP_SETP ? PARTNER : -1, .symbol = -1};
    for (unsigned i = 0; i < c->sources; i++)
        in->operands[i + 1] = (ptx_operand){.kind = PTX_OPERAND_REGISTER, .reg = FIRST_SOURCE + (int32_t)i, .reg2 = -1,
                                            .symbol = -1};
    if (c->reads_destination)
        in->operands[1].reg = DESTINATION;
    p->function = (ptx_function){.name = "lanes", .is_entry = true, .registers = p->registers,
                                 .register_count = REGISTER_COUNT, .instructions = in, .instruction_count = 1};
    p->module = (ptx_module){.path = "test_alu_lanes", .functions = &p->function, .function_count = 1};
}

/* A random value for a register: small numbers (shift amounts, equal operands) as often as wide
 * ones and signed extremes, truncated to the register's width. */
static uint64_t random_value(uint64_t *state, uint64_t mask)
{
    uint64_t r = sc_splitmix64(state);
    switch (r % 4) {
    case 0: return (r >> 8) % 70 & mask;
    case 1: return (mask >> 1) + ((r >> 8) & 1);  /* the largest positive value or the smallest negative */
    default: return sc_splitmix64(state) & mask;
    }
}

static uint64_t expected_value(const ptx_instruction *in, const uint64_t *sources, uint64_t *partner)
{
    switch ((ptx_opcode)in->opcode) {
    case PTX_OP_MOV: return sources[0];
    case PTX_OP_CVTA: {
        uint64_t base = in->space == PTX_SPACE_SHARED ? SC_SHARED_WINDOW_BASE
                        : in->space == PTX_SPACE_LOCAL ? SC_LOCAL_WINDOW_BASE : 0;
        return (in->flags & PTX_FLAG_TO) ? sources[0] - base : sources[0] + base;
    }
    case PTX_OP_SELP: return sources[2] ? sources[0] : sources[1];
    case PTX_OP_CVT: return alu_convert(in, sources[0]);
    case PTX_OP_SETP: {
        bool result = alu_compare((ptx_compare)in->compare, (ptx_type)in->type, sources[0], sources[1]);
        *partner = !result;
        return result;
    }
    default: return alu_evaluate(in, sources);
    }
}

/* Runs `c` through its pre-decoded handler on random values and checks every lane. */
static void check_case(const lanes_case *c, unsigned width, uint64_t *state)
{
    test_program p;
    build_program(&p, c);
    assert_non_null(alu_lanes_handler(&p.instruction));
    exec_kernel kernel = {.module = &p.module, .width = width,
                          .full_mask = width == 64 ? ~0ull : (1ull << width) - 1};
    exec_op *ops = exec_program_build(&kernel, 0);
    assert_ptr_equal(ops[0].execute, alu_lanes_handler(&p.instruction));
    uint64_t masks[REGISTER_COUNT], registers[REGISTER_COUNT * EXEC_MAX_WARP_WIDTH], before[REGISTER_COUNT * EXEC_MAX_WARP_WIDTH];
    for (int32_t r = 0; r < REGISTER_COUNT; r++)
        masks[r] = operand_register_mask(&p.function, r);
    exec_frame frame = {.registers = registers, .register_masks = masks, .ops = ops};
    exec_warp warp = {.kernel = &kernel, .frames = &frame, .frame_depth = 1};
    for (unsigned trial = 0; trial < TRIALS; trial++) {
        uint64_t immediate = random_value(state, masks[FIRST_SOURCE + c->sources - 1]);
        ops[0].sources[c->sources] = c->immediate_last
            ? (exec_source){.kind = EXEC_SOURCE_CONSTANT, .reg = -1, .constant = immediate}
            : (exec_source){.kind = EXEC_SOURCE_ROW, .reg = FIRST_SOURCE + (int32_t)c->sources - 1};
        p.instruction.operands[c->sources] = c->immediate_last
            ? (ptx_operand){.kind = PTX_OPERAND_IMMEDIATE, .reg = -1, .reg2 = -1, .symbol = -1, .value = (int64_t)immediate}
            : (ptx_operand){.kind = PTX_OPERAND_REGISTER, .reg = FIRST_SOURCE + (int32_t)c->sources - 1, .reg2 = -1,
                            .symbol = -1};
        for (int32_t r = 0; r < REGISTER_COUNT; r++)
            for (unsigned lane = 0; lane < width; lane++)
                registers[r * width + lane] = random_value(state, masks[r]);
        memcpy(before, registers, sizeof registers);
        uint64_t lanes = trial % 2 ? kernel.full_mask : sc_splitmix64(state) & kernel.full_mask;
        ops[0].execute(&warp, &frame, &ops[0], lanes);
        for (unsigned lane = 0; lane < width; lane++) {
            uint64_t sources[4] = {0}, partner = 0;
            for (unsigned i = 0; i < c->sources; i++)
                sources[i] = before[(i == 0 && c->reads_destination ? DESTINATION : FIRST_SOURCE + i) * width + lane];
            if (c->immediate_last)
                sources[c->sources - 1] = immediate;
            bool active = (lanes >> lane) & 1;
            uint64_t want = active ? expected_value(&p.instruction, sources, &partner) & masks[DESTINATION]
                                   : before[DESTINATION * width + lane];
            if (registers[DESTINATION * width + lane] != want)
                fail_msg("%s.%s lane %u of mask 0x%llx: got 0x%llx, want 0x%llx", ptx_opcode_name(c->opcode),
                         ptx_type_name(c->type), lane, (unsigned long long)lanes,
                         (unsigned long long)registers[DESTINATION * width + lane], (unsigned long long)want);
            uint64_t want_partner = c->opcode == PTX_OP_SETP && active ? partner : before[PARTNER * width + lane];
            assert_int_equal(registers[PARTNER * width + lane], want_partner);
        }
    }
    free(ops);
}

static void test_arithmetic_and_moves(void **state)
{
    (void)state;
    uint64_t random = 1;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        check_case(&cases[i], 32, &random);
        check_case(&cases[i], 64, &random);
    }
}

static void test_integer_compares(void **state)
{
    (void)state;
    uint64_t random = 2;
    for (size_t t = 0; t < sizeof compare_types / sizeof compare_types[0]; t++)
        for (size_t k = 0; k < sizeof integer_compares / sizeof integer_compares[0]; k++) {
            lanes_case c = {.opcode = PTX_OP_SETP, .type = compare_types[t], .compare = integer_compares[k], .sources = 2,
                            .immediate_last = k % 2 == 1};
            check_case(&c, 32, &random);
            check_case(&c, 64, &random);
        }
}

/* An accumulation into a source register: add, mad and fma with the destination as their first
 * source (the other sources stay registers). */
static void test_destination_as_source(void **state)
{
    (void)state;
    uint64_t random = 3;
    const lanes_case accumulations[] = {
        {.opcode = PTX_OP_ADD, .type = PTX_TYPE_S32, .sources = 2, .reads_destination = true},
        {.opcode = PTX_OP_ADD, .type = PTX_TYPE_U64, .sources = 2, .immediate_last = true, .reads_destination = true},
        {.opcode = PTX_OP_MAD, .type = PTX_TYPE_S32, .flags = PTX_FLAG_LO, .sources = 3, .reads_destination = true},
        {.opcode = PTX_OP_FMA, .type = PTX_TYPE_F32, .sources = 3, .reads_destination = true},
        {.opcode = PTX_OP_SHL, .type = PTX_TYPE_B32, .sources = 2, .reads_destination = true},
    };
    for (size_t i = 0; i < sizeof accumulations / sizeof accumulations[0]; i++) {
        check_case(&accumulations[i], 32, &random);
        check_case(&accumulations[i], 64, &random);
    }
}

/* Forms the loops do not cover keep the general interpreter. */
static void test_general_forms_are_not_specialised(void **state)
{
    (void)state;
    const lanes_case general[] = {
        {.opcode = PTX_OP_ADD, .type = PTX_TYPE_S32, .flags = PTX_FLAG_SAT, .sources = 2},
        {.opcode = PTX_OP_MUL, .type = PTX_TYPE_S32, .flags = PTX_FLAG_HI, .sources = 2},
        {.opcode = PTX_OP_SHR, .type = PTX_TYPE_S32, .sources = 2},
        {.opcode = PTX_OP_ADD, .type = PTX_TYPE_F32, .flags = PTX_FLAG_FTZ, .sources = 2},
        {.opcode = PTX_OP_ADD, .type = PTX_TYPE_F64, .sources = 2},
        {.opcode = PTX_OP_CVT, .type = PTX_TYPE_U8, .src_type = PTX_TYPE_S32, .flags = PTX_FLAG_SAT, .sources = 1},
        {.opcode = PTX_OP_CVT, .type = PTX_TYPE_F32, .src_type = PTX_TYPE_S32, .sources = 1},
        {.opcode = PTX_OP_SETP, .type = PTX_TYPE_F32, .compare = PTX_CMP_LT, .sources = 2},
        {.opcode = PTX_OP_DIV, .type = PTX_TYPE_U32, .sources = 2},
    };
    for (size_t i = 0; i < sizeof general / sizeof general[0]; i++) {
        test_program p;
        build_program(&p, &general[i]);
        assert_null(alu_lanes_handler(&p.instruction));
        assert_non_null(execute_register_handler(&p.instruction));
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_arithmetic_and_moves),
        cmocka_unit_test(test_integer_compares),
        cmocka_unit_test(test_destination_as_source),
        cmocka_unit_test(test_general_forms_are_not_specialised),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
