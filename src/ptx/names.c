/* names.c — names and properties of PTX opcodes and types for messages and listings, and
 * function lookup by exact or unmangled C++ name. */
#include "ptx/ptx_ir.h"

#include <string.h>

static const char *const opcode_names[PTX_OP_COUNT] = {
    [PTX_OP_INVALID] = "invalid",
    [PTX_OP_MOV] = "mov", [PTX_OP_CVTA] = "cvta", [PTX_OP_CVT] = "cvt", [PTX_OP_LD] = "ld",
    [PTX_OP_ST] = "st", [PTX_OP_PRMT] = "prmt",
    [PTX_OP_ADD] = "add", [PTX_OP_SUB] = "sub", [PTX_OP_MUL] = "mul", [PTX_OP_MAD] = "mad",
    [PTX_OP_FMA] = "fma", [PTX_OP_DIV] = "div", [PTX_OP_REM] = "rem", [PTX_OP_ABS] = "abs",
    [PTX_OP_NEG] = "neg", [PTX_OP_MIN] = "min", [PTX_OP_MAX] = "max", [PTX_OP_COPYSIGN] = "copysign",
    [PTX_OP_RCP] = "rcp", [PTX_OP_SQRT] = "sqrt", [PTX_OP_RSQRT] = "rsqrt", [PTX_OP_EX2] = "ex2",
    [PTX_OP_LG2] = "lg2", [PTX_OP_SIN] = "sin", [PTX_OP_COS] = "cos", [PTX_OP_TANH] = "tanh",
    [PTX_OP_AND] = "and", [PTX_OP_OR] = "or", [PTX_OP_XOR] = "xor", [PTX_OP_NOT] = "not",
    [PTX_OP_CNOT] = "cnot", [PTX_OP_LOP3] = "lop3", [PTX_OP_SHL] = "shl", [PTX_OP_SHR] = "shr",
    [PTX_OP_SHF] = "shf", [PTX_OP_POPC] = "popc", [PTX_OP_CLZ] = "clz", [PTX_OP_BREV] = "brev",
    [PTX_OP_BFE] = "bfe", [PTX_OP_BFI] = "bfi", [PTX_OP_BFIND] = "bfind",
    [PTX_OP_SETP] = "setp", [PTX_OP_SET] = "set", [PTX_OP_SELP] = "selp", [PTX_OP_SLCT] = "slct",
    [PTX_OP_TESTP] = "testp",
    [PTX_OP_BRA] = "bra", [PTX_OP_CALL] = "call", [PTX_OP_RET] = "ret", [PTX_OP_EXIT] = "exit",
    [PTX_OP_BAR] = "bar", [PTX_OP_BAR_WARP] = "bar.warp", [PTX_OP_FENCE] = "fence",
    [PTX_OP_ATOM] = "atom", [PTX_OP_RED] = "red", [PTX_OP_SHFL] = "shfl", [PTX_OP_VOTE] = "vote",
    [PTX_OP_ACTIVEMASK] = "activemask", [PTX_OP_NANOSLEEP] = "nanosleep",
    [PTX_OP_MATCH] = "match", [PTX_OP_REDUX] = "redux", [PTX_OP_ELECT] = "elect",
    [PTX_OP_MUL24] = "mul24", [PTX_OP_MAD24] = "mad24", [PTX_OP_SAD] = "sad", [PTX_OP_DP4A] = "dp4a",
    [PTX_OP_DP2A] = "dp2a", [PTX_OP_UNSUPPORTED] = "unsupported",
};

static const struct {
    const char *name;
    unsigned size;
    bool is_float, is_signed;
} types[PTX_TYPE_COUNT] = {
    [PTX_TYPE_NONE] = {"none", 0, false, false},
    [PTX_TYPE_PRED] = {"pred", 1, false, false},
    [PTX_TYPE_B8] = {"b8", 1, false, false},   [PTX_TYPE_B16] = {"b16", 2, false, false},
    [PTX_TYPE_B32] = {"b32", 4, false, false}, [PTX_TYPE_B64] = {"b64", 8, false, false},
    [PTX_TYPE_U8] = {"u8", 1, false, false},   [PTX_TYPE_U16] = {"u16", 2, false, false},
    [PTX_TYPE_U32] = {"u32", 4, false, false}, [PTX_TYPE_U64] = {"u64", 8, false, false},
    [PTX_TYPE_S8] = {"s8", 1, false, true},    [PTX_TYPE_S16] = {"s16", 2, false, true},
    [PTX_TYPE_S32] = {"s32", 4, false, true},  [PTX_TYPE_S64] = {"s64", 8, false, true},
    [PTX_TYPE_F16] = {"f16", 2, true, true},   [PTX_TYPE_F16X2] = {"f16x2", 4, true, true},
    [PTX_TYPE_BF16] = {"bf16", 2, true, true}, [PTX_TYPE_F32] = {"f32", 4, true, true},
    [PTX_TYPE_F64] = {"f64", 8, true, true},
};

const char *ptx_opcode_name(ptx_opcode opcode)
{
    return (unsigned)opcode < PTX_OP_COUNT ? opcode_names[opcode] : "invalid";
}

const char *ptx_type_name(ptx_type type)
{
    return (unsigned)type < PTX_TYPE_COUNT ? types[type].name : "none";
}

unsigned ptx_type_size(ptx_type type)
{
    return (unsigned)type < PTX_TYPE_COUNT ? types[type].size : 0;
}

bool ptx_type_is_float(ptx_type type)
{
    return (unsigned)type < PTX_TYPE_COUNT && types[type].is_float;
}

bool ptx_type_is_signed(ptx_type type)
{
    return (unsigned)type < PTX_TYPE_COUNT && types[type].is_signed;
}

/* True if `mangled` is an Itanium-mangled name "_Z<length><name>..." (or "_ZL..." for internal
 * linkage: static functions and variables) whose name is `name`. */
static bool mangled_name_is(const char *mangled, const char *name)
{
    if (strncmp(mangled, "_Z", 2) != 0)
        return false;
    const char *cursor = mangled + (mangled[2] == 'L' ? 3 : 2);
    size_t length = 0;
    while (*cursor >= '0' && *cursor <= '9' && length < 4096)
        length = length * 10 + (size_t)(*cursor++ - '0');
    return length == strlen(name) && strncmp(cursor, name, length) == 0;
}

int ptx_find_function(const ptx_module *module, const char *name)
{
    for (int32_t i = 0; i < module->function_count; i++)
        if (strcmp(module->functions[i].name, name) == 0)
            return i;
    for (int32_t i = 0; i < module->function_count; i++)
        if (module->functions[i].is_entry && mangled_name_is(module->functions[i].name, name))
            return i;
    return -1;
}

int ptx_find_variable(const ptx_module *module, const char *name)
{
    for (int pass = 0; pass < 2; pass++)
        for (int32_t i = 0; i < module->symbol_count; i++) {
            const ptx_symbol *symbol = &module->symbols[i];
            if (symbol->storage != PTX_STORAGE_GLOBAL && symbol->storage != PTX_STORAGE_CONST)
                continue;
            if (pass == 0 ? strcmp(symbol->name, name) == 0 : mangled_name_is(symbol->name, name))
                return i;
        }
    return -1;
}
