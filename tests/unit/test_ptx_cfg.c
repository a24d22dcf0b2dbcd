/* test_ptx_cfg.c — basic blocks, successors and immediate post-dominators of PTX functions,
 * and the reconvergence index the parser stores on every bra, on hand-checked graphs. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "ptx/cfg.h"
#include "ptx_test_support.h"

static ptx_module *parse_or_fail(const char *body)
{
    sc_error error = {{0}};
    ptx_module *module = parse_snippet(body, &error);
    if (!module)
        fail_msg("%s", error.message);
    return module;
}

static const char if_else[] =
    "setp.eq.s32 %p1, %r1, 0;\n"   /* 0  block 0 */
    "@%p1 bra $ELSE;\n"            /* 1 */
    "mov.u32 %r2, 1;\n"            /* 2  block 1 */
    "bra.uni $JOIN;\n"             /* 3 */
    "$ELSE:\n"
    "mov.u32 %r2, 2;\n"            /* 4  block 2 */
    "$JOIN:\n"
    "add.s32 %r3, %r2, 1;\n"       /* 5  block 3 */
    "ret;\n";                      /* 6 */

static void test_if_else_blocks(void **state)
{
    (void)state;
    ptx_module *module = parse_or_fail(if_else);
    const ptx_function *f = &module->functions[0];
    ptx_cfg cfg;
    sc_error error;
    assert_int_equal(ptx_cfg_build(f, &cfg, &error), 0);
    assert_int_equal(cfg.block_count, 4);
    static const int32_t starts[] = {0, 2, 4, 5, 7};
    for (int b = 0; b <= 4; b++)
        assert_int_equal(cfg.block_start[b], starts[b]);
    assert_int_equal(cfg.successors[0][0], 2);  /* taken */
    assert_int_equal(cfg.successors[0][1], 1);  /* fall through */
    assert_int_equal(cfg.successors[1][0], 3);
    assert_int_equal(cfg.successors[1][1], -1);
    assert_int_equal(cfg.successors[3][0], 4);  /* ret: the exit */
    assert_int_equal(cfg.ipdom[0], 3);
    assert_int_equal(cfg.ipdom[1], 3);
    assert_int_equal(cfg.ipdom[2], 3);
    assert_int_equal(cfg.ipdom[3], 4);
    ptx_cfg_free(&cfg);
    assert_int_equal(f->instructions[1].reconverge, 5);
    assert_int_equal(f->instructions[3].reconverge, 5);
    ptx_module_free(module);
}

static void test_loop_with_break(void **state)
{
    (void)state;
    ptx_module *module = parse_or_fail(
        "mov.u32 %r1, 0;\n"            /* 0 */
        "$LOOP:\n"
        "add.s32 %r1, %r1, 1;\n"       /* 1 */
        "setp.eq.s32 %p1, %r1, 7;\n"   /* 2 */
        "@%p1 bra $OUT;\n"             /* 3  break */
        "setp.lt.s32 %p2, %r1, 100;\n" /* 4 */
        "@%p2 bra $LOOP;\n"            /* 5  back edge */
        "$OUT:\n"
        "st.shared.u32 [buf], %r1;\n"  /* 6 */
        "ret;\n");                     /* 7 */
    const ptx_function *f = &module->functions[0];
    assert_int_equal(f->instructions[3].operands[0].value, 6);
    assert_int_equal(f->instructions[3].reconverge, 6);
    assert_int_equal(f->instructions[5].operands[0].value, 1);
    assert_int_equal(f->instructions[5].reconverge, 6);
    ptx_module_free(module);
}

static void test_nested_if_in_loop(void **state)
{
    (void)state;
    ptx_module *module = parse_or_fail(
        "$HEAD:\n"
        "setp.lt.s32 %p1, %r1, 4;\n"   /* 0 */
        "@%p1 bra $SKIP;\n"            /* 1  inner if */
        "add.s32 %r2, %r2, 1;\n"       /* 2 */
        "$SKIP:\n"
        "add.s32 %r1, %r1, 1;\n"       /* 3 */
        "setp.ne.s32 %p2, %r1, 9;\n"   /* 4 */
        "@%p2 bra $HEAD;\n"            /* 5 */
        "ret;\n");                     /* 6 */
    const ptx_function *f = &module->functions[0];
    assert_int_equal(f->instructions[1].reconverge, 3);
    assert_int_equal(f->instructions[5].reconverge, 6);
    ptx_module_free(module);
}

static void test_guarded_return_reconverges_at_exit(void **state)
{
    (void)state;
    ptx_module *module = parse_or_fail(
        "setp.eq.s32 %p1, %r1, 0;\n"   /* 0 */
        "@%p1 bra $A;\n"               /* 1 */
        "@%p2 ret;\n"                  /* 2  one path leaves early */
        "mov.u32 %r2, 1;\n"            /* 3 */
        "$A:\n"
        "ret;\n");                     /* 4 */
    const ptx_function *f = &module->functions[0];
    assert_int_equal(f->instructions[1].reconverge, f->instruction_count);
    ptx_module_free(module);
}

static void test_endless_loop_and_branch_to_end(void **state)
{
    (void)state;
    ptx_module *module = parse_or_fail(
        "@%p1 bra $END;\n"             /* 0 */
        "$SPIN:\n"
        "add.s32 %r1, %r1, 1;\n"       /* 1 */
        "bra.uni $SPIN;\n"             /* 2  never reaches the exit */
        "$END:\n");
    const ptx_function *f = &module->functions[0];
    assert_int_equal(f->instruction_count, 3);
    assert_int_equal(f->instructions[0].operands[0].value, 3);
    assert_int_equal(f->instructions[0].reconverge, 3);
    assert_int_equal(f->instructions[2].reconverge, 3);
    ptx_module_free(module);
}

static void test_nvcc_loop_kernel(void **state)
{
    (void)state;
    sc_error error = {{0}};
    ptx_module *module = load_test_ptx("atomics.ptx", &error);
    if (!module)
        fail_msg("%s", error.message);
    const ptx_function *f = &module->functions[ptx_find_function(module, "scoped_atomics")];
    /* @%p1 bra $L__BB1_4 (if/else around the spin loop) joins at $L__BB1_5 */
    assert_int_equal(f->instructions[8].reconverge, 22);
    /* the acquire spin loop: @%p2 bra $L__BB1_2 reconverges right after the loop */
    assert_int_equal(f->instructions[12].operands[0].value, 10);
    assert_int_equal(f->instructions[12].reconverge, 13);
    ptx_module_free(module);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_if_else_blocks),
        cmocka_unit_test(test_loop_with_break),
        cmocka_unit_test(test_nested_if_in_loop),
        cmocka_unit_test(test_guarded_return_reconverges_at_exit),
        cmocka_unit_test(test_endless_loop_and_branch_to_end),
        cmocka_unit_test(test_nvcc_loop_kernel),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
