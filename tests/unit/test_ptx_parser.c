/* test_ptx_parser.c — the PTX front end on nvcc output committed under tests/data/ptx (real
 * kernels: reductions, shuffles, atomics, calls, local arrays, bit tricks) and on snippets:
 * opcodes, types, operands, immediates, symbol layout, and the exact error messages. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <time.h>

#include "ptx_test_support.h"

static const ptx_function *function_named(const ptx_module *module, const char *name)
{
    int index = ptx_find_function(module, name);
    assert_true(index >= 0);
    return &module->functions[index];
}

static void assert_snippet_fails(const char *body, const char *expected)
{
    sc_error error = {{0}};
    ptx_module *module = parse_snippet(body, &error);
    if (module)
        ptx_module_free(module);
    assert_null(module);
    assert_string_equal(error.message, expected);
}

static const ptx_instruction *single_instruction(ptx_module **module, const char *body)
{
    sc_error error = {{0}};
    *module = parse_snippet(body, &error);
    if (!*module)
        fail_msg("%s", error.message);
    assert_int_equal((*module)->functions[0].instruction_count, 1);
    return &(*module)->functions[0].instructions[0];
}

/* ---- nvcc output -------------------------------------------------------------------------- */

static void test_reduction_kernel(void **state)
{
    (void)state;
    sc_error error = {{0}};
    ptx_module *module = load_test_ptx("reduction.ptx", &error);
    if (!module)
        fail_msg("%s", error.message);
    assert_int_equal(module->version_major, 9);
    assert_string_equal(module->target, "sm_80");
    assert_int_equal(module->address_size, 64);
    const ptx_function *f = function_named(module, "block_sum");
    assert_true(f->is_entry);
    assert_int_equal(f->param_count, 3);
    assert_int_equal(module->symbols[f->params[1]].offset, 8);
    assert_int_equal(module->symbols[f->params[2]].offset, 16);
    assert_int_equal(module->symbols[f->params[2]].storage, PTX_STORAGE_KERNEL_PARAM);
    assert_int_equal(f->kernel_param_bytes, 20);

    /* mad.lo.s32 %r4, %r2, %r1, %r3; */
    const ptx_instruction *mad = &f->instructions[6];
    assert_int_equal(mad->opcode, PTX_OP_MAD);
    assert_int_equal(mad->type, PTX_TYPE_S32);
    assert_int_equal(mad->flags, PTX_FLAG_LO);
    assert_int_equal(mad->operand_count, 4);
    assert_string_equal(register_name(f, mad->operands[0].reg), "%r4");
    assert_string_equal(register_name(f, mad->operands[3].reg), "%r3");
    /* mov.u32 %r1, %ntid.x; */
    assert_int_equal(f->instructions[3].operands[1].kind, PTX_OPERAND_SPECIAL);
    assert_int_equal(f->instructions[3].operands[1].special, PTX_SREG_NTID);
    /* setp.ge.u32 %p1, %r4, %r9; @%p1 bra $L__BB0_2; */
    assert_int_equal(f->instructions[7].compare, PTX_CMP_GE);
    const ptx_instruction *bra = &f->instructions[9];
    assert_int_equal(bra->opcode, PTX_OP_BRA);
    assert_string_equal(register_name(f, bra->guard_reg), "%p1");
    assert_int_equal(bra->operands[0].kind, PTX_OPERAND_LABEL);
    assert_int_equal(bra->operands[0].value, 14);
    assert_int_equal(bra->reconverge, 14);
    /* the loop: skip branch, if inside the loop, back edge, final if */
    assert_int_equal(f->instructions[21].reconverge, 34);
    assert_int_equal(f->instructions[23].reconverge, 30);
    assert_int_equal(f->instructions[33].operands[0].value, 22);
    assert_int_equal(f->instructions[33].reconverge, 34);
    assert_int_equal(f->instructions[35].reconverge, 41);
    /* bar.sync 0 */
    const ptx_instruction *bar = nth_instruction(f, PTX_OP_BAR, 0);
    assert_int_equal(bar->mode, PTX_BAR_SYNC);
    assert_int_equal(bar->operands[0].kind, PTX_OPERAND_IMMEDIATE);
    assert_int_equal(bar->operands[0].value, 0);
    /* ld.shared.f32 %f7, [_ZZ9block_sumPKfPfiE7partial]; */
    const ptx_instruction *ld = &f->instructions[36];
    assert_int_equal(ld->space, PTX_SPACE_SHARED);
    assert_int_equal(ld->operands[1].kind, PTX_OPERAND_ADDRESS);
    assert_int_equal(ld->operands[1].reg, -1);
    const ptx_symbol *partial = &module->symbols[ld->operands[1].symbol];
    assert_int_equal(partial->storage, PTX_STORAGE_SHARED);
    assert_int_equal(partial->size, 1024);
    assert_int_equal(partial->align, 4);

    const ptx_function *scale = function_named(module, "dynamic_scale");
    const ptx_instruction *mov = &scale->instructions[9];  /* mov.u32 %r3, dynamic_buffer; */
    assert_int_equal(mov->operands[1].kind, PTX_OPERAND_SYMBOL);
    const ptx_symbol *dynamic = &module->symbols[mov->operands[1].symbol];
    assert_string_equal(dynamic->name, "dynamic_buffer");
    assert_int_equal(dynamic->storage, PTX_STORAGE_DYNAMIC_SHARED);
    assert_int_equal(dynamic->size, 0);
    assert_int_equal(dynamic->align, 16);
    ptx_module_free(module);
}

static void test_warp_operations(void **state)
{
    (void)state;
    sc_error error = {{0}};
    ptx_module *module = load_test_ptx("reduction.ptx", &error);
    assert_non_null(module);
    const ptx_function *f = function_named(module, "warp_ops");
    /* shfl.sync.down.b32 %r13|%p5, %r8, %r11, %r10, %r12; */
    const ptx_instruction *shfl = nth_instruction(f, PTX_OP_SHFL, 0);
    assert_int_equal(shfl->mode, PTX_SHFL_DOWN);
    assert_true(shfl->flags & PTX_FLAG_SYNC);
    assert_int_equal(shfl->operand_count, 5);
    assert_string_equal(register_name(f, shfl->operands[0].reg), "%r13");
    assert_string_equal(register_name(f, shfl->operands[0].reg2), "%p5");
    assert_int_equal(nth_instruction(f, PTX_OP_SHFL, 5)->mode, PTX_SHFL_UP);
    assert_int_equal(nth_instruction(f, PTX_OP_SHFL, 6)->mode, PTX_SHFL_BFLY);
    assert_int_equal(nth_instruction(f, PTX_OP_SHFL, 7)->mode, PTX_SHFL_IDX);
    const ptx_instruction *ballot = nth_instruction(f, PTX_OP_VOTE, 0);
    assert_int_equal(ballot->mode, PTX_VOTE_BALLOT);
    assert_int_equal(ballot->type, PTX_TYPE_B32);
    assert_int_equal(nth_instruction(f, PTX_OP_VOTE, 1)->mode, PTX_VOTE_ALL);
    assert_int_equal(nth_instruction(f, PTX_OP_VOTE, 2)->mode, PTX_VOTE_ANY);
    assert_non_null(nth_instruction(f, PTX_OP_ACTIVEMASK, 0));
    const ptx_instruction *warp_sync = nth_instruction(f, PTX_OP_BAR_WARP, 0);
    assert_int_equal(warp_sync->operands[0].value, 0xFFFFFFFF);
    ptx_module_free(module);
}

static void test_atomics_and_fences(void **state)
{
    (void)state;
    sc_error error = {{0}};
    ptx_module *module = load_test_ptx("atomics.ptx", &error);
    if (!module)
        fail_msg("%s", error.message);
    const ptx_symbol *counter = &module->symbols[0];
    assert_string_equal(counter->name, "counter");
    assert_int_equal(counter->storage, PTX_STORAGE_GLOBAL);
    assert_int_equal(counter->initializer[0], 7);
    const ptx_symbol *flags = &module->symbols[1];
    assert_int_equal(flags->size, 16);
    assert_int_equal(flags->initializer[12], 4);
    assert_int_equal(flags->initializer[15], 0);
    const ptx_symbol *coefficients = &module->symbols[2];
    assert_int_equal(coefficients->storage, PTX_STORAGE_CONST);
    assert_int_equal(coefficients->initializer[3], 63);  /* 1.0f = 0x3F800000 */

    const ptx_function *f = function_named(module, "all_atomics");
    static const uint8_t expected_ops[] = {
        PTX_ATOM_ADD, PTX_ATOM_ADD, PTX_ATOM_EXCH, PTX_ATOM_MIN, PTX_ATOM_MAX, PTX_ATOM_INC,
        PTX_ATOM_DEC, PTX_ATOM_AND, PTX_ATOM_OR, PTX_ATOM_XOR, PTX_ATOM_CAS, PTX_ATOM_ADD,
        PTX_ATOM_ADD, PTX_ATOM_ADD, PTX_ATOM_ADD, PTX_ATOM_MAX};
    for (int i = 0; i < (int)sizeof expected_ops; i++)
        assert_int_equal(nth_instruction(f, PTX_OP_ATOM, i)->mode, expected_ops[i]);
    const ptx_instruction *cas = nth_instruction(f, PTX_OP_ATOM, 10);
    assert_int_equal(cas->operand_count, 4);
    assert_int_equal(cas->type, PTX_TYPE_B32);
    const ptx_instruction *add_f32 = nth_instruction(f, PTX_OP_ATOM, 11);
    assert_int_equal(add_f32->type, PTX_TYPE_F32);
    const ptx_instruction *add_f64 = nth_instruction(f, PTX_OP_ATOM, 12);
    assert_int_equal(add_f64->operands[2].value, 0x4000000000000000);
    assert_int_equal(nth_instruction(f, PTX_OP_ATOM, 14)->space, PTX_SPACE_SHARED);
    static const uint8_t membar_scopes[] = {PTX_SCOPE_GPU, PTX_SCOPE_CTA, PTX_SCOPE_SYS};
    for (int i = 0; i < 3; i++) {
        const ptx_instruction *fence = nth_instruction(f, PTX_OP_FENCE, i);
        assert_int_equal(fence->semantics, PTX_SEM_SC);
        assert_int_equal(fence->scope, membar_scopes[i]);
    }
    /* st.global.u32 [%rd33+36], %r30; */
    const ptx_instruction *st = &f->instructions[f->instruction_count - 2];
    assert_int_equal(st->opcode, PTX_OP_ST);
    assert_int_equal(st->operands[0].value, 36);

    const ptx_function *scoped = function_named(module, "scoped_atomics");
    const ptx_instruction *acquire = nth_instruction(scoped, PTX_OP_LD, 3);
    assert_int_equal(acquire->semantics, PTX_SEM_ACQUIRE);
    assert_int_equal(acquire->scope, PTX_SCOPE_GPU);
    assert_int_equal(acquire->space, PTX_SPACE_GENERIC);
    const ptx_instruction *release = nth_instruction(scoped, PTX_OP_ST, 3);
    assert_int_equal(release->semantics, PTX_SEM_RELEASE);
    assert_int_equal(release->scope, PTX_SCOPE_SYS);
    assert_int_equal(release->space, PTX_SPACE_GLOBAL);
    assert_int_equal(nth_instruction(scoped, PTX_OP_LD, 7)->semantics, PTX_SEM_VOLATILE);
    const ptx_instruction *fence = nth_instruction(scoped, PTX_OP_FENCE, 0);
    assert_int_equal(fence->semantics, PTX_SEM_ACQ_REL);
    assert_int_equal(fence->scope, PTX_SCOPE_GPU);
    const ptx_instruction *red = nth_instruction(scoped, PTX_OP_RED, 0);
    assert_int_equal(red->mode, PTX_ATOM_ADD);
    assert_int_equal(red->semantics, PTX_SEM_RELEASE);
    assert_int_equal(red->operands[0].kind, PTX_OPERAND_ADDRESS);
    const ptx_instruction *or = nth_instruction(scoped, PTX_OP_ATOM, 2);
    assert_int_equal(or->mode, PTX_ATOM_OR);
    assert_int_equal(or->semantics, PTX_SEM_ACQUIRE);
    assert_int_equal(or->scope, PTX_SCOPE_CTA);
    assert_non_null(nth_instruction(scoped, PTX_OP_NANOSLEEP, 0));
    ptx_module_free(module);
}

static void test_calls_and_frames(void **state)
{
    (void)state;
    sc_error error = {{0}};
    ptx_module *module = load_test_ptx("functions.ptx", &error);
    if (!module)
        fail_msg("%s", error.message);
    int pick_index = ptx_find_function(module, "_Z4pickPKiii");
    assert_true(pick_index >= 0);
    const ptx_function *pick = &module->functions[pick_index];
    assert_false(pick->is_entry);
    assert_int_equal(pick->return_count, 1);
    assert_int_equal(pick->param_count, 3);
    const ptx_symbol *retval = &module->symbols[pick->returns[0]];
    assert_int_equal(retval->storage, PTX_STORAGE_FRAME);
    assert_int_equal(retval->offset, 0);
    assert_int_equal(module->symbols[pick->params[0]].offset, 8);
    assert_int_equal(module->symbols[pick->params[2]].offset, 20);
    /* __local_depot0 is 16-aligned after 24 bytes of parameters */
    const ptx_instruction *depot_mov = &pick->instructions[0];
    const ptx_symbol *depot = &module->symbols[depot_mov->operands[1].symbol];
    assert_string_equal(depot->name, "__local_depot0");
    assert_int_equal(depot->offset, 32);
    assert_int_equal(pick->frame_bytes, 96);
    const ptx_instruction *st_v4 = nth_instruction(pick, PTX_OP_ST, 0);
    assert_int_equal(st_v4->space, PTX_SPACE_LOCAL);
    assert_int_equal(st_v4->vector, 4);
    assert_int_equal(st_v4->operands[1].kind, PTX_OPERAND_VECTOR);
    assert_int_equal(st_v4->operands[1].count, 4);
    assert_string_equal(register_name(pick, st_v4->operands[1].vector[1]), "%r14");

    const ptx_function *chain = function_named(module, "call_chain");
    const ptx_instruction *first = nth_instruction(chain, PTX_OP_CALL, 0);
    const ptx_instruction *second = nth_instruction(chain, PTX_OP_CALL, 1);
    assert_int_equal(first->callee, pick_index);
    assert_true(first->flags & PTX_FLAG_UNI);
    assert_int_equal(first->call_return_count, 1);
    assert_int_equal(first->call_arg_count, 3);
    assert_string_equal(module->symbols[first->call_args[0]].name, "param0");
    /* every callseq block declares its own param0 and retval0 */
    assert_int_not_equal(first->call_args[0], second->call_args[0]);
    assert_int_not_equal(first->call_returns[0], second->call_returns[0]);
    const ptx_symbol *arg = &module->symbols[second->call_args[0]];
    assert_int_equal(arg->storage, PTX_STORAGE_FRAME);
    assert_int_equal(arg->owner, ptx_find_function(module, "call_chain"));
    const ptx_instruction *store_arg = &chain->instructions[(second - chain->instructions) - 3];
    assert_int_equal(store_arg->operands[0].symbol, second->call_args[0]);
    const ptx_instruction *note = nth_instruction(chain, PTX_OP_CALL, 3);
    assert_int_equal(note->call_return_count, 0);
    assert_int_equal(note->call_arg_count, 2);
    /* mov.b64 {%r6, %temp}, %fd20; with %temp declared in a nested block */
    const ptx_instruction *unpack = NULL;
    for (int32_t i = 0; i < chain->instruction_count && !unpack; i++)
        if (chain->instructions[i].opcode == PTX_OP_MOV && chain->instructions[i].operands[0].kind == PTX_OPERAND_VECTOR)
            unpack = &chain->instructions[i];
    assert_non_null(unpack);
    assert_int_equal(unpack->operands[0].count, 2);
    assert_string_equal(register_name(chain, unpack->operands[0].vector[1]), "%temp");
    ptx_module_free(module);
}

static void test_bit_tricks(void **state)
{
    (void)state;
    sc_error error = {{0}};
    ptx_module *module = load_test_ptx("functions.ptx", &error);
    assert_non_null(module);
    const ptx_function *f = function_named(module, "bits");
    assert_int_equal(nth_instruction(f, PTX_OP_POPC, 1)->type, PTX_TYPE_B64);
    assert_int_equal(nth_instruction(f, PTX_OP_CLZ, 0)->type, PTX_TYPE_B32);
    assert_int_equal(nth_instruction(f, PTX_OP_BREV, 1)->type, PTX_TYPE_B64);
    assert_int_equal(nth_instruction(f, PTX_OP_PRMT, 0)->mode, PTX_PRMT_DEFAULT);
    assert_true(nth_instruction(f, PTX_OP_BFIND, 0)->flags & PTX_FLAG_SHIFTAMT);
    const ptx_instruction *shf = nth_instruction(f, PTX_OP_SHF, 0);
    assert_int_equal(shf->flags & (PTX_FLAG_SHIFT_LEFT | PTX_FLAG_WRAP), PTX_FLAG_SHIFT_LEFT | PTX_FLAG_WRAP);
    assert_int_equal(nth_instruction(f, PTX_OP_SHF, 1)->flags & (PTX_FLAG_SHIFT_LEFT | PTX_FLAG_WRAP), 0);
    ptx_module_free(module);
}

static void test_hand_written_forms(void **state)
{
    (void)state;
    sc_error error = {{0}};
    ptx_module *module = load_test_ptx("forms.ptx", &error);
    if (!module)
        fail_msg("%s", error.message);
    const ptx_function *f = function_named(module, "forms");
    assert_int_equal(f->reqntid[0], 128);
    assert_int_equal(f->reqntid[1], 1);
    assert_int_equal(module->symbols[f->params[1]].offset, 16);  /* .align 16 .b8 [16] */
    assert_int_equal(f->kernel_param_bytes, 36);
    const ptx_symbol *halves = &module->symbols[2];
    assert_int_equal(halves->size, 12);  /* x[] sized by its initialiser */
    const ptx_symbol *minus_two = &module->symbols[1];
    assert_int_equal(minus_two->initializer[0], 0xFE);
    assert_int_equal(minus_two->initializer[3], 0xFF);

    const ptx_instruction *ld_v4 = &f->instructions[1];  /* ld.param.v4.u32 {%r1, %r2, _, %r4} */
    assert_int_equal(ld_v4->vector, 4);
    assert_int_equal(ld_v4->operands[0].vector[2], -1);
    assert_int_equal(f->instructions[4].flags, PTX_FLAG_NC);  /* .nc.L1::no_allocate.v4 */
    assert_int_equal(f->instructions[4].vector, 4);
    const ptx_instruction *ld_negative = &f->instructions[5];  /* [%rd2+-8] */
    assert_int_equal(ld_negative->operands[1].value, -8);
    assert_int_equal(f->instructions[9].operands[1].special, PTX_SREG_CTAID);
    assert_int_equal(f->instructions[9].operands[1].component, 1);
    assert_int_equal(f->instructions[8].operands[1].special, PTX_SREG_CLOCK64);
    const ptx_instruction *lop3 = &f->instructions[10];
    assert_int_equal(lop3->opcode, PTX_OP_LOP3);
    assert_int_equal(lop3->operands[4].value, 0xE8);
    assert_int_equal(f->instructions[14].mode, PTX_PRMT_F4E);
    const ptx_instruction *mad_wide = &f->instructions[16];  /* mad.wide.s32 %rd5, %r1, -3, %rd4 */
    assert_int_equal(mad_wide->flags, PTX_FLAG_WIDE);
    assert_int_equal(mad_wide->operands[2].value, 0xFFFFFFFD);
    assert_int_equal(f->instructions[18].mode, PTX_TESTP_FINITE);
    const ptx_instruction *setp_and = &f->instructions[19];  /* setp.lt.and.f32 %p2, %f1, %f2, !%p1 */
    assert_int_equal(setp_and->combine, PTX_COMBINE_AND);
    assert_true(setp_and->operands[3].negated);
    const ptx_instruction *setp_pair = &f->instructions[20];
    assert_int_equal(setp_pair->compare, PTX_CMP_GTU);
    assert_string_equal(register_name(f, setp_pair->operands[0].reg2), "%p4");
    assert_int_equal(setp_pair->operands[2].value, 0x40490FDB);
    const ptx_instruction *set = &f->instructions[21];
    assert_int_equal(set->type, PTX_TYPE_U32);
    assert_int_equal(set->src_type, PTX_TYPE_F32);
    assert_int_equal(f->instructions[22].src_type, PTX_TYPE_S32);  /* slct.f32.s32 */
    assert_int_equal(f->instructions[24].type, PTX_TYPE_PRED);     /* not.pred */
    const ptx_instruction *cvt = &f->instructions[29];  /* cvt.rzi.ftz.sat.s32.f32 */
    assert_int_equal(cvt->rounding, PTX_ROUND_RZI);
    assert_int_equal(cvt->flags, PTX_FLAG_FTZ | PTX_FLAG_SAT);
    assert_int_equal(cvt->type, PTX_TYPE_S32);
    assert_int_equal(cvt->src_type, PTX_TYPE_F32);
    assert_int_equal(f->instructions[35].flags, PTX_FLAG_FULL);
    assert_int_equal(f->instructions[36].flags, PTX_FLAG_APPROX | PTX_FLAG_FTZ);
    assert_int_equal(f->instructions[40].operands[2].value, -1);  /* max.s64 ..., -1 */
    const ptx_instruction *add_rz = &f->instructions[54];  /* the executor rounds f32 to nearest only */
    assert_int_equal(add_rz->opcode, PTX_OP_UNSUPPORTED);
    assert_string_equal(add_rz->unsupported_text, "add.rz.ftz.f32");
    const ptx_instruction *pack = &f->instructions[63];
    assert_int_equal(pack->operands[1].kind, PTX_OPERAND_VECTOR);
    const ptx_instruction *cvta_from = &f->instructions[66], *cvta_to = &f->instructions[67];
    assert_int_equal(cvta_from->space, PTX_SPACE_SHARED);
    assert_false(cvta_from->flags & PTX_FLAG_TO);
    assert_true(cvta_to->flags & PTX_FLAG_TO);
    const ptx_instruction *st_local = &f->instructions[69];  /* st.local.f64 [depot+8] */
    assert_int_equal(module->symbols[st_local->operands[0].symbol].storage, PTX_STORAGE_FRAME);
    assert_int_equal(st_local->operands[0].value, 8);
    const ptx_instruction *relaxed_max = &f->instructions[77];
    assert_int_equal(relaxed_max->semantics, PTX_SEM_RELAXED);
    assert_int_equal(relaxed_max->scope, PTX_SCOPE_GPU);
    assert_int_equal(relaxed_max->operands[2].value, 0xFFFFFFF9);
    assert_int_equal(f->instructions[82].mode, PTX_VOTE_UNI);
    const ptx_instruction *bar_64 = &f->instructions[86];
    assert_int_equal(bar_64->operand_count, 2);
    assert_int_equal(bar_64->operands[1].value, 64);
    assert_int_equal(f->instructions[88].mode, PTX_BAR_ARRIVE);
    assert_int_equal(f->instructions[89].mode, PTX_BAR_RED_POPC);
    assert_int_equal(f->instructions[90].mode, PTX_BAR_RED_AND);
    const ptx_instruction *exit = &f->instructions[95];
    assert_int_equal(exit->opcode, PTX_OP_EXIT);
    assert_true(exit->guard_negated);
    ptx_module_free(module);
}

static void test_misc_cuda_forms(void **state)
{
    (void)state;
    sc_error error = {{0}};
    ptx_module *module = load_test_ptx("misc.ptx", &error);
    if (!module)
        fail_msg("%s", error.message);
    const ptx_function *f = function_named(module, "misc");
    static const uint8_t bar_modes[] = {PTX_BAR_SYNC, PTX_BAR_RED_POPC, PTX_BAR_RED_AND, PTX_BAR_RED_OR};
    for (int i = 0; i < 4; i++)
        assert_int_equal(nth_instruction(f, PTX_OP_BAR, i)->mode, bar_modes[i]);
    assert_int_equal(nth_instruction(f, PTX_OP_BAR, 1)->type, PTX_TYPE_U32);
    const ptx_instruction *shared_cas = nth_instruction(f, PTX_OP_ATOM, 2);  /* atom.shared.cas.b64 */
    assert_int_equal(shared_cas->space, PTX_SPACE_SHARED);
    assert_int_equal(shared_cas->mode, PTX_ATOM_CAS);
    assert_int_equal(shared_cas->type, PTX_TYPE_B64);
    assert_int_equal(nth_instruction(f, PTX_OP_ATOM, 4)->scope, PTX_SCOPE_CTA);  /* atomicAdd_block */
    assert_int_equal(nth_instruction(f, PTX_OP_ATOM, 5)->scope, PTX_SCOPE_SYS);  /* atomicAdd_system */
    const ptx_instruction *floor = nth_instruction(f, PTX_OP_CVT, 11);  /* cvt.rmi.f64.f64 */
    assert_int_equal(floor->rounding, PTX_ROUND_RMI);
    assert_int_equal(floor->src_type, PTX_TYPE_F64);
    /* {add.f16 ...} from an inline-asm block: parsed, kept as unsupported (no f16 arithmetic) */
    const ptx_instruction *half_add = nth_instruction(f, PTX_OP_UNSUPPORTED, 0);
    assert_non_null(half_add);
    assert_string_equal(half_add->unsupported_text, "add.f16");
    ptx_module_free(module);
}

/* ---- snippets ----------------------------------------------------------------------------- */

static void test_immediates(void **state)
{
    (void)state;
    ptx_module *module;
    const ptx_instruction *add = single_instruction(&module, "add.f32 %f1, %f2, 1;");
    assert_int_equal(add->operands[2].value, 0x3F800000);  /* integer literal under .f32 */
    ptx_module_free(module);
    const ptx_instruction *mul = single_instruction(&module, "mul.f64 %fd1, %fd2, 0f3F800000;");
    assert_int_equal(mul->operands[2].value, 0x3FF0000000000000);
    ptx_module_free(module);
    const ptx_instruction *hex = single_instruction(&module, "and.b32 %r1, %r2, 0xFF00FF00;");
    assert_int_equal(hex->operands[2].value, 0xFF00FF00);
    ptx_module_free(module);
    const ptx_instruction *suffix = single_instruction(&module, "add.u64 %rd1, %rd2, 4294967296U;");
    assert_int_equal(suffix->operands[2].value, 4294967296);
    ptx_module_free(module);
    const ptx_instruction *negative = single_instruction(&module, "add.s64 %rd1, %rd2, -16;");
    assert_int_equal(negative->operands[2].value, -16);
    ptx_module_free(module);
    const ptx_instruction *cvt = single_instruction(&module, "cvt.rn.f32.s32 %f1, -2;");
    assert_int_equal(cvt->operands[1].value, 0xFFFFFFFE);  /* the source type is .s32 */
    ptx_module_free(module);
}

static void test_operand_forms(void **state)
{
    (void)state;
    ptx_module *module;
    const ptx_instruction *ld = single_instruction(&module, "ld.shared.u32 %r1, [buf+12];");
    assert_int_equal(ld->operands[1].reg, -1);
    assert_int_equal(ld->operands[1].value, 12);
    assert_string_equal(module->symbols[ld->operands[1].symbol].name, "buf");
    ptx_module_free(module);
    const ptx_instruction *absolute = single_instruction(&module, "ld.global.u32 %r1, [0x10];");
    assert_int_equal(absolute->operands[1].value, 16);
    assert_int_equal(absolute->operands[1].symbol, -1);
    ptx_module_free(module);
    const ptx_instruction *vote = single_instruction(&module, "vote.any.pred %p1, !%p2;");
    assert_false(vote->flags & PTX_FLAG_SYNC);
    assert_true(vote->operands[1].negated);
    ptx_module_free(module);
    const ptx_instruction *hint = single_instruction(&module,
                                                     "ld.global.L1::evict_last.L2::256B.f32 %f1, [%rd1];");
    assert_int_equal(hint->type, PTX_TYPE_F32);
    ptx_module_free(module);
    const ptx_instruction *special = single_instruction(&module, "mov.u32 %r1, %dynamic_smem_size;");
    assert_int_equal(special->operands[1].special, PTX_SREG_DYNAMIC_SMEM_SIZE);
    ptx_module_free(module);
    const ptx_instruction *guarded = single_instruction(&module, "@!%p3 st.global.v2.f32 [%rd1], {%f1, %f2};");
    assert_true(guarded->guard_negated);
    assert_string_equal(register_name(&module->functions[0], guarded->guard_reg), "%p3");
    ptx_module_free(module);
}

/* An unsupported instruction parses as a placeholder; the kernel that contains it is refused
 * with the file, line and instruction. */
static void assert_snippet_unsupported(const char *body, const char *expected)
{
    sc_error error = {{0}};
    ptx_module *module = parse_snippet(body, &error);
    if (!module)
        fail_msg("%s", error.message);
    assert_int_equal(ptx_check_kernel(module, 0, &error), -1);
    assert_string_equal(error.message, expected);
    ptx_module_free(module);
}

static void test_unsupported_instructions(void **state)
{
    (void)state;
    assert_snippet_unsupported("tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f5, %f6}];",
                               "snippet.ptx:11: unsupported PTX instruction 'tex.2d.v4.f32.f32' (kernel k)");
    assert_snippet_unsupported("mov.u32 %r1, 0;\nfoo.bar.u32 %r1, %r2;",
                               "snippet.ptx:12: unsupported PTX instruction 'foo.bar.u32' (kernel k)");
    assert_snippet_unsupported("add.global.u32 %r1, %r2, %r3;",
                               "snippet.ptx:11: unsupported PTX instruction 'add.global.u32' (kernel k)");
    assert_snippet_unsupported("add.cc.u32 %r1, %r2, %r3;",
                               "snippet.ptx:11: unsupported PTX instruction 'add.cc.u32' (kernel k)");
    assert_snippet_unsupported("atom.global.u32 %r1, [%rd1], 1;",
                               "snippet.ptx:11: unsupported PTX instruction 'atom.global.u32' (kernel k)");
    assert_snippet_unsupported("ld.global.L2::cache_hint.u32 %r1, [%rd1], %rd2;",
                               "snippet.ptx:11: unsupported PTX instruction 'ld.global.L2::cache_hint.u32' (kernel k)");
    assert_snippet_unsupported("ld.release.gpu.u32 %r1, [%rd1];",
                               "snippet.ptx:11: unsupported PTX instruction 'ld.release.gpu.u32' (kernel k)");
    assert_snippet_unsupported("cvt.rn.f32 %f1, %r1;",
                               "snippet.ptx:11: unsupported PTX instruction 'cvt.rn.f32' (kernel k)");
    assert_snippet_unsupported("sad.f32 %f1, %f2, %f3, %f4;",
                               "snippet.ptx:11: unsupported PTX instruction 'sad.f32' (kernel k)");
    assert_snippet_unsupported("redux.sync.add.b64 %rd1, %rd2, -1;",
                               "snippet.ptx:11: unsupported PTX instruction 'redux.sync.add.b64' (kernel k)");
    assert_snippet_unsupported("setp.eq.s32.u32 %p1, %r1, %r2;",
                               "snippet.ptx:11: unsupported PTX instruction 'setp.eq.s32.u32' (kernel k)");
}

/* Only the kernels that reach an unsupported instruction (themselves or through calls) are
 * refused; the module's other kernels pass, and labels after the placeholder still resolve. */
static void test_unsupported_is_per_kernel(void **state)
{
    (void)state;
    static const char text[] =
        ".version 8.0\n.target sm_80\n.address_size 64\n"
        ".func helper()\n{\n.reg .b32 %r<2>;\ntex.1d.v4.f32.s32 {%r1, %r1, %r1, %r1}, [t, {%r1}];\nret;\n}\n"
        ".visible .entry uses_helper()\n{\ncall.uni helper, ();\nret;\n}\n"
        ".visible .entry direct()\n{\n.reg .pred %p<2>;\n@%p1 bra $L_end;\nfoo.u32 %p1;\n$L_end:\nret;\n}\n"
        ".visible .entry clean()\n{\n.reg .b32 %r<3>;\nmatch.any.sync.b32 %r1, %r2, -1;\nret;\n}\n";
    sc_error error = {{0}};
    ptx_module *module = ptx_parse(text, strlen(text), "mixed.ptx", &error);
    if (!module)
        fail_msg("%s", error.message);
    assert_int_equal(ptx_check_kernel(module, ptx_find_function(module, "uses_helper"), &error), -1);
    assert_string_equal(error.message, "mixed.ptx:7: unsupported PTX instruction 'tex.1d.v4.f32.s32' (kernel uses_helper)");
    assert_int_equal(ptx_check_kernel(module, ptx_find_function(module, "direct"), &error), -1);
    assert_string_equal(error.message, "mixed.ptx:19: unsupported PTX instruction 'foo.u32' (kernel direct)");
    assert_int_equal(ptx_check_kernel(module, ptx_find_function(module, "clean"), &error), 0);
    const ptx_function *direct = &module->functions[ptx_find_function(module, "direct")];
    assert_int_equal(direct->instructions[0].operands[0].value, 2);  /* $L_end: the ret after the placeholder */
    ptx_module_free(module);
}

static void test_syntax_errors(void **state)
{
    (void)state;
    assert_snippet_fails("mov.u32 %r1, %r2\nret;", "snippet.ptx:12: expected ';' after the instruction, found 'ret'");
    assert_snippet_fails("add.s32 %r1, %r99, 1;", "snippet.ptx:11: undefined register '%r99'");
    assert_snippet_fails("ld.global.u32 %r1, [missing];", "snippet.ptx:11: undefined symbol 'missing'");
    assert_snippet_fails("bra $L_nowhere;", "snippet.ptx:11: undefined label '$L_nowhere'");
    assert_snippet_fails("$L1:\nmov.u32 %r1, 0;\n$L1:\nret;", "snippet.ptx:13: duplicate label '$L1'");
    assert_snippet_fails("add.s32 %r1, %r2, %r3, %r4;", "snippet.ptx:11: add takes 3 operand(s), found 4");
    assert_snippet_fails("mad.lo.s32 %r1, %r2, %r3, %r4, %r5, %r6, %r7;", "snippet.ptx:11: too many operands");
    assert_snippet_fails("mov.u32 5, %r1;", "snippet.ptx:11: destination must be a register");
    assert_snippet_fails("ld.global.u32 %r1, %rd1;", "snippet.ptx:11: operand 2 must be an [address]");
    assert_snippet_fails("ld.global.v2.u32 {%r1, %r2, %r3}, [%rd1];",
                         "snippet.ptx:11: vector operand has 3 elements, the instruction moves 2");
    assert_snippet_fails("@%r1 ret;", "snippet.ptx:11: guard '%r1' is not a predicate");
    assert_snippet_fails("add.f32 %f1, %f2, 0f3F80;", "snippet.ptx:11: malformed floating-point literal, found '0f3F80'");
    assert_snippet_fails("add.u32 %r1, %r2, 99999999999999999999;",
                         "snippet.ptx:11: number '99999999999999999999' does not fit in 64 bits");
    assert_snippet_fails(".reg .b32 %r1;", "snippet.ptx:11: duplicate declaration of '%r1'");
    assert_snippet_fails("/* never closed\nret;", "snippet.ptx:11: unterminated comment");
    assert_snippet_fails("mov.u32 %r1, #3;", "snippet.ptx:11: unexpected character '#'");
}

static void test_module_errors(void **state)
{
    (void)state;
    sc_error error = {{0}};
    static const char missing_brace[] = ".version 8.0\n.target sm_80\n.entry k()\n{\nret;\n";
    assert_null(ptx_parse(missing_brace, strlen(missing_brace), "m.ptx", &error));
    assert_string_equal(error.message, "m.ptx:5: missing '}' at the end of function 'k'");
    static const char bad_call[] =
        ".version 8.0\n.target sm_80\n"
        ".func f(.param .b32 a)\n{\nret;\n}\n"
        ".entry k()\n{\n{\n.param .b32 x;\n.param .b32 y;\ncall f, (x, y);\n}\nret;\n}\n";
    assert_null(ptx_parse(bad_call, strlen(bad_call), "m.ptx", &error));
    assert_string_equal(error.message,
                        "m.ptx:12: call to 'f' passes 2 argument(s) and 0 return(s), expected 1 and 0");
    static const char undeclared[] = ".version 8.0\n.target sm_80\n.entry k()\n{\ncall.uni g;\nret;\n}\n";
    assert_null(ptx_parse(undeclared, strlen(undeclared), "m.ptx", &error));
    assert_string_equal(error.message, "m.ptx:5: call to undeclared function 'g'");
    static const char external[] = ".version 8.0\n.target sm_80\n.extern .func ext(.param .b32 a);\n"
                                   ".entry k()\n{\n.param .b32 x;\ncall ext, (x);\nret;\n}\n";
    assert_null(ptx_parse(external, strlen(external), "m.ptx", &error));
    assert_string_equal(error.message, "m.ptx:7: call to 'ext', which has no body in this module");
    static const char stray[] = ".version 8.0\n.target sm_80\nmov.u32 %r1, 0;\n";
    assert_null(ptx_parse(stray, strlen(stray), "m.ptx", &error));
    assert_string_equal(error.message, "m.ptx:3: unexpected 'mov.u32' at module scope");
    assert_null(ptx_load_file("/nonexistent/file.ptx", &error));
    assert_true(strstr(error.message, "/nonexistent/file.ptx") != NULL);
}

static void test_prototype_and_scoping(void **state)
{
    (void)state;
    static const char text[] =
        "// forward declaration, then the definition\n"
        ".version 8.0\n.target sm_80\n.address_size 64\n"
        ".func (.param .b32 r) twice(.param .b32 a);\n"
        ".global .align 4 .u32 g[2][3] = {{1, 2, 3}, {4, 5, 6}};\n"
        ".visible .entry k(.param .u32 n)\n.maxntid 64\n{\n"
        ".reg .b32 %r<3>;\n"
        "ld.param.u32 %r1, [n];\n"
        "{\n.reg .b32 %r1;\n.param .b32 a0;\n.param .b32 r0;\nst.param.b32 [a0], %r1;\n"
        "call.uni (r0), twice, (a0);\nld.param.b32 %r2, [r0];\n}\n"
        "st.global.u32 [g+20], %r1;\nret;\n}\n"
        ".func (.param .b32 r) twice(.param .b32 a)\n{\n.reg .b32 %x;\n"
        "ld.param.b32 %x, [a];\nadd.s32 %x, %x, %x;\nst.param.b32 [r], %x;\nret;\n}\n";
    sc_error error = {{0}};
    ptx_module *module = ptx_parse(text, strlen(text), "scope.ptx", &error);
    if (!module)
        fail_msg("%s", error.message);
    assert_int_equal(module->function_count, 2);
    const ptx_function *k = function_named(module, "k");
    assert_int_equal(k->reqntid[0], 64);
    /* the inner %r1 shadows the outer one only inside its block */
    const ptx_instruction *st_param = nth_instruction(k, PTX_OP_ST, 0);
    const ptx_instruction *st_global = nth_instruction(k, PTX_OP_ST, 1);
    assert_int_not_equal(st_param->operands[1].reg, k->instructions[0].operands[0].reg);
    assert_int_equal(st_global->operands[1].reg, k->instructions[0].operands[0].reg);
    assert_int_equal(nth_instruction(k, PTX_OP_CALL, 0)->callee, ptx_find_function(module, "twice"));
    const ptx_function *twice = function_named(module, "twice");
    assert_int_equal(twice->instruction_count, 4);
    assert_int_equal(module->symbols[twice->params[0]].offset, 4);
    const ptx_symbol *g = &module->symbols[st_global->operands[0].symbol];
    assert_int_equal(g->size, 24);
    assert_int_equal(g->initializer[20], 6);
    ptx_module_free(module);
}

static void test_debug_directives_are_skipped(void **state)
{
    (void)state;
    static const char text[] =
        ".version 8.0\n.target sm_80, debug\n.address_size 64\n"
        ".file 1 \"/tmp/x.cu\", 1700000000, 1234\n"
        ".weak .func nothing()\n{\n.loc 1 3 5\nret;\n}\n"
        ".visible .entry k()\n{\n.pragma \"nounroll\";\n.loc 1 7 1\ncall nothing;\nexit;\n}\n"
        ".section .debug_abbrev\n{\n.b8 1\n.b8 17 }\n";
    sc_error error = {{0}};
    ptx_module *module = ptx_parse(text, strlen(text), "debug.ptx", &error);
    if (!module)
        fail_msg("%s", error.message);
    const ptx_function *k = function_named(module, "k");
    assert_int_equal(k->instruction_count, 2);
    assert_int_equal(k->instructions[0].opcode, PTX_OP_CALL);
    assert_int_equal(k->instructions[0].line, 14);
    assert_int_equal(k->instructions[1].opcode, PTX_OP_EXIT);
    ptx_module_free(module);
}

static void test_names(void **state)
{
    (void)state;
    assert_string_equal(ptx_opcode_name(PTX_OP_SHFL), "shfl");
    assert_string_equal(ptx_type_name(PTX_TYPE_F16X2), "f16x2");
    assert_int_equal(ptx_type_size(PTX_TYPE_PRED), 1);
    assert_int_equal(ptx_type_size(PTX_TYPE_S64), 8);
    assert_true(ptx_type_is_float(PTX_TYPE_F64));
    assert_false(ptx_type_is_float(PTX_TYPE_B32));
    assert_true(ptx_type_is_signed(PTX_TYPE_S16));
    assert_false(ptx_type_is_signed(PTX_TYPE_U32));
}

/* A 10k-line kernel must parse in well under a second even with sanitizers. */
static void test_large_input_is_fast(void **state)
{
    (void)state;
    size_t capacity = 64 * 10000 + 1024, length = 0;
    char *text = malloc(capacity);
    length += (size_t)snprintf(text + length, capacity - length,
                               ".version 8.0\n.target sm_80\n.address_size 64\n.entry big()\n{\n"
                               ".reg .b32 %%r<10000>;\n.reg .pred %%p1;\n");
    for (int i = 1; i < 9999; i++) {
        if (i % 100)
            length += (size_t)snprintf(text + length, capacity - length, "add.s32 %%r%d, %%r%d, %d;\n",
                                       i, i - 1, i);
        else
            length += (size_t)snprintf(text + length, capacity - length, "$L%d:\n@%%p1 bra $L%d;\n", i, i);
    }
    length += (size_t)snprintf(text + length, capacity - length, "ret;\n}\n");
    sc_error error = {{0}};
    clock_t start = clock();
    ptx_module *module = ptx_parse(text, length, "big.ptx", &error);
    double seconds = (double)(clock() - start) / CLOCKS_PER_SEC;
    free(text);
    if (!module)
        fail_msg("%s", error.message);
    assert_true(module->functions[0].instruction_count > 9900);
    assert_true(seconds < 1.0);
    ptx_module_free(module);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reduction_kernel),
        cmocka_unit_test(test_warp_operations),
        cmocka_unit_test(test_atomics_and_fences),
        cmocka_unit_test(test_calls_and_frames),
        cmocka_unit_test(test_bit_tricks),
        cmocka_unit_test(test_hand_written_forms),
        cmocka_unit_test(test_misc_cuda_forms),
        cmocka_unit_test(test_immediates),
        cmocka_unit_test(test_operand_forms),
        cmocka_unit_test(test_unsupported_instructions),
        cmocka_unit_test(test_unsupported_is_per_kernel),
        cmocka_unit_test(test_syntax_errors),
        cmocka_unit_test(test_module_errors),
        cmocka_unit_test(test_prototype_and_scoping),
        cmocka_unit_test(test_debug_directives_are_skipped),
        cmocka_unit_test(test_names),
        cmocka_unit_test(test_large_input_is_fast),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
