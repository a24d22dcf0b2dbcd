/* instructions.c — PTX instructions: the opcode table, the modifiers each opcode accepts
 * (".global", ".rn", ".lt", ".acquire", ...), operand-shape checks, conversion of immediates
 * to the instruction's type, and appending the result to the current function. An opcode or
 * modifier combination not in the tables is appended as PTX_OP_UNSUPPORTED with its text (its
 * operands skipped), so that only kernels that reach it are refused (ptx_check_kernel). */
#include "ptx/parser.h"

#include <string.h>

/* Modifier classes; an opcode lists the classes it accepts. */
enum {
    MOD_TYPE = 1u << 0,     MOD_TYPE2 = 1u << 1,  /* TYPE2: a second type (cvt, set, slct) */
    MOD_SPACE = 1u << 2,    MOD_SEM = 1u << 3,     MOD_SCOPE = 1u << 4,  MOD_LEVEL = 1u << 5,
    MOD_VEC = 1u << 6,      MOD_NC = 1u << 7,      MOD_CACHE = 1u << 8,  MOD_ROUND = 1u << 9,
    MOD_FTZ = 1u << 10,     MOD_SAT = 1u << 11,    MOD_APPROX = 1u << 12, MOD_FULL = 1u << 13,
    MOD_MULMODE = 1u << 14, MOD_UNI = 1u << 15,    MOD_TO = 1u << 16,    MOD_SHFDIR = 1u << 17,
    MOD_SHFMODE = 1u << 18, MOD_SHFL = 1u << 19,   MOD_VOTE = 1u << 20,  MOD_BARRED = 1u << 21,
    MOD_ALIGNED = 1u << 22, MOD_SHIFTAMT = 1u << 23, MOD_PRMT = 1u << 24, MOD_CMP = 1u << 25,
    MOD_COMBINE = 1u << 26, MOD_ATOMOP = 1u << 27, MOD_TESTP = 1u << 28, MOD_SYNC = 1u << 29,
    MOD_RELU = 1u << 30,
};

typedef struct modifier {
    const char *name;
    uint32_t class;
    uint32_t value;   /* enum value of the field, or PTX_FLAG_* bits */
} modifier;

static const modifier modifiers[] = {
    {"global", MOD_SPACE, PTX_SPACE_GLOBAL}, {"shared", MOD_SPACE, PTX_SPACE_SHARED},
    {"shared::cta", MOD_SPACE, PTX_SPACE_SHARED}, {"local", MOD_SPACE, PTX_SPACE_LOCAL},
    {"param", MOD_SPACE, PTX_SPACE_PARAM}, {"const", MOD_SPACE, PTX_SPACE_CONST},
    {"weak", MOD_SEM, PTX_SEM_WEAK}, {"volatile", MOD_SEM, PTX_SEM_VOLATILE},
    {"relaxed", MOD_SEM, PTX_SEM_RELAXED}, {"acquire", MOD_SEM, PTX_SEM_ACQUIRE},
    {"release", MOD_SEM, PTX_SEM_RELEASE}, {"acq_rel", MOD_SEM, PTX_SEM_ACQ_REL},
    {"sc", MOD_SEM, PTX_SEM_SC},
    {"cta", MOD_SCOPE, PTX_SCOPE_CTA}, {"gpu", MOD_SCOPE, PTX_SCOPE_GPU}, {"sys", MOD_SCOPE, PTX_SCOPE_SYS},
    {"cta", MOD_LEVEL, PTX_SCOPE_CTA}, {"gl", MOD_LEVEL, PTX_SCOPE_GPU}, {"sys", MOD_LEVEL, PTX_SCOPE_SYS},
    {"v2", MOD_VEC, 2}, {"v4", MOD_VEC, 4},
    {"nc", MOD_NC, PTX_FLAG_NC},
    {"ca", MOD_CACHE, 0}, {"cg", MOD_CACHE, 0}, {"cs", MOD_CACHE, 0}, {"lu", MOD_CACHE, 0},
    {"cv", MOD_CACHE, 0}, {"wb", MOD_CACHE, 0}, {"wt", MOD_CACHE, 0},
    {"L1::no_allocate", MOD_CACHE, 0}, {"L1::evict_normal", MOD_CACHE, 0},
    {"L1::evict_unchanged", MOD_CACHE, 0}, {"L1::evict_first", MOD_CACHE, 0},
    {"L1::evict_last", MOD_CACHE, 0}, {"L2::evict_normal", MOD_CACHE, 0},
    {"L2::evict_first", MOD_CACHE, 0}, {"L2::evict_last", MOD_CACHE, 0},
    {"L2::64B", MOD_CACHE, 0}, {"L2::128B", MOD_CACHE, 0}, {"L2::256B", MOD_CACHE, 0},
    {"rn", MOD_ROUND, PTX_ROUND_RN}, {"rz", MOD_ROUND, PTX_ROUND_RZ}, {"rm", MOD_ROUND, PTX_ROUND_RM},
    {"rp", MOD_ROUND, PTX_ROUND_RP}, {"rni", MOD_ROUND, PTX_ROUND_RNI}, {"rzi", MOD_ROUND, PTX_ROUND_RZI},
    {"rmi", MOD_ROUND, PTX_ROUND_RMI}, {"rpi", MOD_ROUND, PTX_ROUND_RPI},
    {"ftz", MOD_FTZ, PTX_FLAG_FTZ}, {"sat", MOD_SAT, PTX_FLAG_SAT},
    {"approx", MOD_APPROX, PTX_FLAG_APPROX}, {"full", MOD_FULL, PTX_FLAG_FULL},
    {"wide", MOD_MULMODE, PTX_FLAG_WIDE}, {"hi", MOD_MULMODE, PTX_FLAG_HI}, {"lo", MOD_MULMODE, PTX_FLAG_LO},
    {"uni", MOD_UNI, PTX_FLAG_UNI}, {"to", MOD_TO, PTX_FLAG_TO},
    {"l", MOD_SHFDIR, PTX_FLAG_SHIFT_LEFT}, {"r", MOD_SHFDIR, 0},
    {"wrap", MOD_SHFMODE, PTX_FLAG_WRAP}, {"clamp", MOD_SHFMODE, 0},
    {"up", MOD_SHFL, PTX_SHFL_UP}, {"down", MOD_SHFL, PTX_SHFL_DOWN},
    {"bfly", MOD_SHFL, PTX_SHFL_BFLY}, {"idx", MOD_SHFL, PTX_SHFL_IDX},
    {"all", MOD_VOTE, PTX_VOTE_ALL}, {"any", MOD_VOTE, PTX_VOTE_ANY},
    {"uni", MOD_VOTE, PTX_VOTE_UNI}, {"ballot", MOD_VOTE, PTX_VOTE_BALLOT},
    {"popc", MOD_BARRED, PTX_BAR_RED_POPC}, {"and", MOD_BARRED, PTX_BAR_RED_AND},
    {"or", MOD_BARRED, PTX_BAR_RED_OR},
    {"aligned", MOD_ALIGNED, 0}, {"shiftamt", MOD_SHIFTAMT, PTX_FLAG_SHIFTAMT},
    {"f4e", MOD_PRMT, PTX_PRMT_F4E}, {"b4e", MOD_PRMT, PTX_PRMT_B4E}, {"rc8", MOD_PRMT, PTX_PRMT_RC8},
    {"ecl", MOD_PRMT, PTX_PRMT_ECL}, {"ecr", MOD_PRMT, PTX_PRMT_ECR}, {"rc16", MOD_PRMT, PTX_PRMT_RC16},
    {"eq", MOD_CMP, PTX_CMP_EQ}, {"ne", MOD_CMP, PTX_CMP_NE}, {"lt", MOD_CMP, PTX_CMP_LT},
    {"le", MOD_CMP, PTX_CMP_LE}, {"gt", MOD_CMP, PTX_CMP_GT}, {"ge", MOD_CMP, PTX_CMP_GE},
    {"lo", MOD_CMP, PTX_CMP_LO}, {"ls", MOD_CMP, PTX_CMP_LS}, {"hi", MOD_CMP, PTX_CMP_HI},
    {"hs", MOD_CMP, PTX_CMP_HS}, {"equ", MOD_CMP, PTX_CMP_EQU}, {"neu", MOD_CMP, PTX_CMP_NEU},
    {"ltu", MOD_CMP, PTX_CMP_LTU}, {"leu", MOD_CMP, PTX_CMP_LEU}, {"gtu", MOD_CMP, PTX_CMP_GTU},
    {"geu", MOD_CMP, PTX_CMP_GEU}, {"num", MOD_CMP, PTX_CMP_NUM}, {"nan", MOD_CMP, PTX_CMP_NAN},
    {"and", MOD_COMBINE, PTX_COMBINE_AND}, {"or", MOD_COMBINE, PTX_COMBINE_OR},
    {"xor", MOD_COMBINE, PTX_COMBINE_XOR},
    {"add", MOD_ATOMOP, PTX_ATOM_ADD}, {"min", MOD_ATOMOP, PTX_ATOM_MIN}, {"max", MOD_ATOMOP, PTX_ATOM_MAX},
    {"inc", MOD_ATOMOP, PTX_ATOM_INC}, {"dec", MOD_ATOMOP, PTX_ATOM_DEC}, {"and", MOD_ATOMOP, PTX_ATOM_AND},
    {"or", MOD_ATOMOP, PTX_ATOM_OR}, {"xor", MOD_ATOMOP, PTX_ATOM_XOR}, {"exch", MOD_ATOMOP, PTX_ATOM_EXCH},
    {"cas", MOD_ATOMOP, PTX_ATOM_CAS},
    {"finite", MOD_TESTP, PTX_TESTP_FINITE}, {"infinite", MOD_TESTP, PTX_TESTP_INFINITE},
    {"number", MOD_TESTP, PTX_TESTP_NUMBER}, {"notanumber", MOD_TESTP, PTX_TESTP_NOTANUMBER},
    {"normal", MOD_TESTP, PTX_TESTP_NORMAL}, {"subnormal", MOD_TESTP, PTX_TESTP_SUBNORMAL},
    {"sync", MOD_SYNC, PTX_FLAG_SYNC}, {"relu", MOD_RELU, PTX_FLAG_RELU},
};

/* How operands are arranged. */
typedef enum operand_shape {
    SHAPE_VALUE,     /* operand 0 is the destination, the rest are sources */
    SHAPE_LOAD,      /* destination, [address], sources (ld, atom) */
    SHAPE_STORE,     /* [address], sources (st, red) */
    SHAPE_SOURCES,   /* sources only (bar, nanosleep, ...) */
    SHAPE_BRANCH,    /* one label */
    SHAPE_CALL,      /* call's own syntax */
} operand_shape;

typedef struct opcode_info {
    const char *name;       /* may span modifiers: "bar.warp.sync" */
    ptx_opcode opcode;
    uint32_t accepts;       /* MOD_* classes */
    uint32_t requires;      /* MOD_* classes that must appear */
    uint8_t min_operands, max_operands;
    operand_shape shape;
    uint8_t mode;           /* fixed mode (bar forms) */
    uint32_t flags;         /* fixed flags (.sync forms) */
} opcode_info;

enum {
    FLOAT_MODS = MOD_ROUND | MOD_FTZ | MOD_SAT,
    MEMORY_MODS = MOD_TYPE | MOD_SPACE | MOD_SEM | MOD_SCOPE | MOD_VEC | MOD_CACHE,
    ATOMIC_MODS = MOD_TYPE | MOD_SPACE | MOD_SEM | MOD_SCOPE | MOD_ATOMOP,
    UNARY_FLOAT_MODS = MOD_TYPE | MOD_ROUND | MOD_APPROX | MOD_FTZ | MOD_FULL,
};

static const opcode_info opcodes[] = {
    {"mov", PTX_OP_MOV, MOD_TYPE, MOD_TYPE, 2, 2, SHAPE_VALUE, 0, 0},
    {"cvta", PTX_OP_CVTA, MOD_TYPE | MOD_SPACE | MOD_TO, MOD_TYPE | MOD_SPACE, 2, 2, SHAPE_VALUE, 0, 0},
    {"cvt", PTX_OP_CVT, MOD_TYPE | MOD_TYPE2 | FLOAT_MODS, MOD_TYPE, 2, 2, SHAPE_VALUE, 0, 0},
    {"ld", PTX_OP_LD, MEMORY_MODS | MOD_NC, MOD_TYPE, 2, 2, SHAPE_LOAD, 0, 0},
    {"st", PTX_OP_ST, MEMORY_MODS, MOD_TYPE, 2, 2, SHAPE_STORE, 0, 0},
    {"prmt", PTX_OP_PRMT, MOD_TYPE | MOD_PRMT, MOD_TYPE, 4, 4, SHAPE_VALUE, 0, 0},
    {"add", PTX_OP_ADD, MOD_TYPE | FLOAT_MODS, MOD_TYPE, 3, 3, SHAPE_VALUE, 0, 0},
    {"sub", PTX_OP_SUB, MOD_TYPE | FLOAT_MODS, MOD_TYPE, 3, 3, SHAPE_VALUE, 0, 0},
    {"mul", PTX_OP_MUL, MOD_TYPE | FLOAT_MODS | MOD_MULMODE, MOD_TYPE, 3, 3, SHAPE_VALUE, 0, 0},
    {"mad", PTX_OP_MAD, MOD_TYPE | FLOAT_MODS | MOD_MULMODE, MOD_TYPE, 4, 4, SHAPE_VALUE, 0, 0},
    {"fma", PTX_OP_FMA, MOD_TYPE | FLOAT_MODS, MOD_TYPE, 4, 4, SHAPE_VALUE, 0, 0},
    {"div", PTX_OP_DIV, UNARY_FLOAT_MODS, MOD_TYPE, 3, 3, SHAPE_VALUE, 0, 0},
    {"rem", PTX_OP_REM, MOD_TYPE, MOD_TYPE, 3, 3, SHAPE_VALUE, 0, 0},
    {"abs", PTX_OP_ABS, MOD_TYPE | MOD_FTZ, MOD_TYPE, 2, 2, SHAPE_VALUE, 0, 0},
    {"neg", PTX_OP_NEG, MOD_TYPE | MOD_FTZ, MOD_TYPE, 2, 2, SHAPE_VALUE, 0, 0},
    {"min", PTX_OP_MIN, MOD_TYPE | MOD_FTZ | MOD_RELU, MOD_TYPE, 3, 3, SHAPE_VALUE, 0, 0},
    {"max", PTX_OP_MAX, MOD_TYPE | MOD_FTZ | MOD_RELU, MOD_TYPE, 3, 3, SHAPE_VALUE, 0, 0},
    {"mul24", PTX_OP_MUL24, MOD_TYPE | MOD_MULMODE, MOD_TYPE | MOD_MULMODE, 3, 3, SHAPE_VALUE, 0, 0},
    {"mad24", PTX_OP_MAD24, MOD_TYPE | MOD_MULMODE | MOD_SAT, MOD_TYPE | MOD_MULMODE, 4, 4, SHAPE_VALUE, 0, 0},
    {"sad", PTX_OP_SAD, MOD_TYPE, MOD_TYPE, 4, 4, SHAPE_VALUE, 0, 0},
    {"dp4a", PTX_OP_DP4A, MOD_TYPE | MOD_TYPE2, MOD_TYPE, 4, 4, SHAPE_VALUE, 0, 0},
    {"dp2a", PTX_OP_DP2A, MOD_TYPE | MOD_TYPE2 | MOD_MULMODE, MOD_TYPE | MOD_MULMODE, 4, 4, SHAPE_VALUE, 0, 0},
    {"copysign", PTX_OP_COPYSIGN, MOD_TYPE, MOD_TYPE, 3, 3, SHAPE_VALUE, 0, 0},
    {"rcp", PTX_OP_RCP, UNARY_FLOAT_MODS, MOD_TYPE, 2, 2, SHAPE_VALUE, 0, 0},
    {"sqrt", PTX_OP_SQRT, UNARY_FLOAT_MODS, MOD_TYPE, 2, 2, SHAPE_VALUE, 0, 0},
    {"rsqrt", PTX_OP_RSQRT, UNARY_FLOAT_MODS, MOD_TYPE, 2, 2, SHAPE_VALUE, 0, 0},
    {"ex2", PTX_OP_EX2, UNARY_FLOAT_MODS, MOD_TYPE, 2, 2, SHAPE_VALUE, 0, 0},
    {"lg2", PTX_OP_LG2, UNARY_FLOAT_MODS, MOD_TYPE, 2, 2, SHAPE_VALUE, 0, 0},
    {"sin", PTX_OP_SIN, UNARY_FLOAT_MODS, MOD_TYPE, 2, 2, SHAPE_VALUE, 0, 0},
    {"cos", PTX_OP_COS, UNARY_FLOAT_MODS, MOD_TYPE, 2, 2, SHAPE_VALUE, 0, 0},
    {"tanh", PTX_OP_TANH, UNARY_FLOAT_MODS, MOD_TYPE, 2, 2, SHAPE_VALUE, 0, 0},
    {"and", PTX_OP_AND, MOD_TYPE, MOD_TYPE, 3, 3, SHAPE_VALUE, 0, 0},
    {"or", PTX_OP_OR, MOD_TYPE, MOD_TYPE, 3, 3, SHAPE_VALUE, 0, 0},
    {"xor", PTX_OP_XOR, MOD_TYPE, MOD_TYPE, 3, 3, SHAPE_VALUE, 0, 0},
    {"not", PTX_OP_NOT, MOD_TYPE, MOD_TYPE, 2, 2, SHAPE_VALUE, 0, 0},
    {"cnot", PTX_OP_CNOT, MOD_TYPE, MOD_TYPE, 2, 2, SHAPE_VALUE, 0, 0},
    {"lop3", PTX_OP_LOP3, MOD_TYPE, MOD_TYPE, 5, 5, SHAPE_VALUE, 0, 0},
    {"shl", PTX_OP_SHL, MOD_TYPE, MOD_TYPE, 3, 3, SHAPE_VALUE, 0, 0},
    {"shr", PTX_OP_SHR, MOD_TYPE, MOD_TYPE, 3, 3, SHAPE_VALUE, 0, 0},
    {"shf", PTX_OP_SHF, MOD_TYPE | MOD_SHFDIR | MOD_SHFMODE, MOD_TYPE | MOD_SHFDIR | MOD_SHFMODE,
     4, 4, SHAPE_VALUE, 0, 0},
    {"popc", PTX_OP_POPC, MOD_TYPE, MOD_TYPE, 2, 2, SHAPE_VALUE, 0, 0},
    {"clz", PTX_OP_CLZ, MOD_TYPE, MOD_TYPE, 2, 2, SHAPE_VALUE, 0, 0},
    {"brev", PTX_OP_BREV, MOD_TYPE, MOD_TYPE, 2, 2, SHAPE_VALUE, 0, 0},
    {"bfe", PTX_OP_BFE, MOD_TYPE, MOD_TYPE, 4, 4, SHAPE_VALUE, 0, 0},
    {"bfi", PTX_OP_BFI, MOD_TYPE, MOD_TYPE, 5, 5, SHAPE_VALUE, 0, 0},
    {"bfind", PTX_OP_BFIND, MOD_TYPE | MOD_SHIFTAMT, MOD_TYPE, 2, 2, SHAPE_VALUE, 0, 0},
    {"setp", PTX_OP_SETP, MOD_TYPE | MOD_CMP | MOD_COMBINE | MOD_FTZ, MOD_TYPE | MOD_CMP,
     3, 4, SHAPE_VALUE, 0, 0},
    {"set", PTX_OP_SET, MOD_TYPE | MOD_TYPE2 | MOD_CMP | MOD_COMBINE | MOD_FTZ, MOD_TYPE | MOD_CMP,
     3, 4, SHAPE_VALUE, 0, 0},
    {"selp", PTX_OP_SELP, MOD_TYPE, MOD_TYPE, 4, 4, SHAPE_VALUE, 0, 0},
    {"slct", PTX_OP_SLCT, MOD_TYPE | MOD_TYPE2 | MOD_FTZ, MOD_TYPE, 4, 4, SHAPE_VALUE, 0, 0},
    {"testp", PTX_OP_TESTP, MOD_TYPE | MOD_TESTP, MOD_TYPE | MOD_TESTP, 2, 2, SHAPE_VALUE, 0, 0},
    {"bra", PTX_OP_BRA, MOD_UNI, 0, 1, 1, SHAPE_BRANCH, 0, 0},
    {"call", PTX_OP_CALL, MOD_UNI, 0, 0, 0, SHAPE_CALL, 0, 0},
    {"ret", PTX_OP_RET, MOD_UNI, 0, 0, 0, SHAPE_SOURCES, 0, 0},
    {"exit", PTX_OP_EXIT, 0, 0, 0, 0, SHAPE_SOURCES, 0, 0},
    {"bar.sync", PTX_OP_BAR, MOD_ALIGNED, 0, 1, 2, SHAPE_SOURCES, PTX_BAR_SYNC, 0},
    {"barrier.sync", PTX_OP_BAR, MOD_ALIGNED, 0, 1, 2, SHAPE_SOURCES, PTX_BAR_SYNC, 0},
    {"bar.arrive", PTX_OP_BAR, MOD_ALIGNED, 0, 2, 2, SHAPE_SOURCES, PTX_BAR_ARRIVE, 0},
    {"barrier.arrive", PTX_OP_BAR, MOD_ALIGNED, 0, 2, 2, SHAPE_SOURCES, PTX_BAR_ARRIVE, 0},
    {"bar.red", PTX_OP_BAR, MOD_ALIGNED | MOD_BARRED | MOD_TYPE, MOD_BARRED | MOD_TYPE,
     3, 4, SHAPE_VALUE, 0, 0},
    {"barrier.red", PTX_OP_BAR, MOD_ALIGNED | MOD_BARRED | MOD_TYPE, MOD_BARRED | MOD_TYPE,
     3, 4, SHAPE_VALUE, 0, 0},
    {"bar.warp.sync", PTX_OP_BAR_WARP, 0, 0, 1, 1, SHAPE_SOURCES, 0, PTX_FLAG_SYNC},
    {"membar", PTX_OP_FENCE, MOD_LEVEL, MOD_LEVEL, 0, 0, SHAPE_SOURCES, 0, 0},
    {"fence", PTX_OP_FENCE, MOD_SEM | MOD_SCOPE, MOD_SEM | MOD_SCOPE, 0, 0, SHAPE_SOURCES, 0, 0},
    {"atom", PTX_OP_ATOM, ATOMIC_MODS, MOD_TYPE | MOD_ATOMOP, 3, 4, SHAPE_LOAD, 0, 0},
    {"red", PTX_OP_RED, ATOMIC_MODS, MOD_TYPE | MOD_ATOMOP, 2, 2, SHAPE_STORE, 0, 0},
    {"shfl.sync", PTX_OP_SHFL, MOD_TYPE | MOD_SHFL, MOD_TYPE | MOD_SHFL, 5, 5, SHAPE_VALUE, 0, PTX_FLAG_SYNC},
    {"shfl", PTX_OP_SHFL, MOD_TYPE | MOD_SHFL, MOD_TYPE | MOD_SHFL, 4, 4, SHAPE_VALUE, 0, 0},
    {"vote.sync", PTX_OP_VOTE, MOD_TYPE | MOD_VOTE, MOD_TYPE | MOD_VOTE, 3, 3, SHAPE_VALUE, 0, PTX_FLAG_SYNC},
    {"vote", PTX_OP_VOTE, MOD_TYPE | MOD_VOTE, MOD_TYPE | MOD_VOTE, 2, 2, SHAPE_VALUE, 0, 0},
    {"activemask", PTX_OP_ACTIVEMASK, MOD_TYPE, MOD_TYPE, 1, 1, SHAPE_VALUE, 0, 0},
    {"match", PTX_OP_MATCH, MOD_TYPE | MOD_VOTE | MOD_SYNC, MOD_TYPE | MOD_VOTE | MOD_SYNC, 3, 3, SHAPE_VALUE, 0, 0},
    {"redux.sync", PTX_OP_REDUX, MOD_TYPE | MOD_ATOMOP, MOD_TYPE | MOD_ATOMOP, 3, 3, SHAPE_VALUE, 0, PTX_FLAG_SYNC},
    {"elect.sync", PTX_OP_ELECT, 0, 0, 2, 2, SHAPE_VALUE, 0, PTX_FLAG_SYNC},
    {"nanosleep", PTX_OP_NANOSLEEP, MOD_TYPE, 0, 1, 1, SHAPE_SOURCES, 0, 0},
};

/* ---- opcode and modifiers ----------------------------------------------------------------- */

/* The longest table entry that is a whole-part prefix of the opcode token. */
static const opcode_info *find_opcode(const ptx_token *token, int *consumed)
{
    const opcode_info *best = NULL;
    int best_length = 0;
    for (size_t i = 0; i < sizeof opcodes / sizeof opcodes[0]; i++) {
        int length = (int)strlen(opcodes[i].name);
        if (length > token->length || length <= best_length
            || memcmp(token->text, opcodes[i].name, (size_t)length) != 0)
            continue;
        if (length < token->length && token->text[length] != '.')
            continue;
        best = &opcodes[i];
        best_length = length;
    }
    *consumed = best_length;
    return best;
}

static const modifier *find_modifier(const char *text, int length, uint32_t accepts)
{
    for (size_t i = 0; i < sizeof modifiers / sizeof modifiers[0]; i++)
        if ((modifiers[i].class & accepts) && strlen(modifiers[i].name) == (size_t)length
            && memcmp(modifiers[i].name, text, (size_t)length) == 0)
            return &modifiers[i];
    return NULL;
}

static bool apply_type(ptx_instruction *instruction, ptx_type type, uint32_t accepts)
{
    if (instruction->type == PTX_TYPE_NONE) {
        instruction->type = (uint8_t)type;
        return true;
    }
    if ((accepts & MOD_TYPE2) && instruction->src_type == PTX_TYPE_NONE) {
        instruction->src_type = (uint8_t)type;
        return true;
    }
    return false;
}

static void apply_modifier(ptx_instruction *instruction, const modifier *m)
{
    switch (m->class) {
    case MOD_SPACE: instruction->space = (uint8_t)m->value; break;
    case MOD_SEM: instruction->semantics = (uint8_t)m->value; break;
    case MOD_SCOPE: case MOD_LEVEL: instruction->scope = (uint8_t)m->value; break;
    case MOD_VEC: instruction->vector = (uint8_t)m->value; break;
    case MOD_ROUND: instruction->rounding = (uint8_t)m->value; break;
    case MOD_CMP: instruction->compare = (uint8_t)m->value; break;
    case MOD_COMBINE: instruction->combine = (uint8_t)m->value; break;
    case MOD_ATOMOP: case MOD_SHFL: case MOD_VOTE: case MOD_BARRED: case MOD_PRMT: case MOD_TESTP:
        instruction->mode = (uint8_t)m->value;
        break;
    default: instruction->flags |= m->value; break;
    }
}

/* Memory-ordering semantics each memory opcode may carry (bit per ptx_semantics). */
static bool semantics_allowed(ptx_opcode opcode, ptx_semantics semantics)
{
    enum {
        WEAK = 1u << PTX_SEM_WEAK, VOLATILE = 1u << PTX_SEM_VOLATILE, RELAXED = 1u << PTX_SEM_RELAXED,
        ACQUIRE = 1u << PTX_SEM_ACQUIRE, RELEASE = 1u << PTX_SEM_RELEASE,
        ACQ_REL = 1u << PTX_SEM_ACQ_REL, SC = 1u << PTX_SEM_SC,
    };
    unsigned allowed;
    switch (opcode) {
    case PTX_OP_LD: allowed = WEAK | VOLATILE | RELAXED | ACQUIRE; break;
    case PTX_OP_ST: allowed = WEAK | VOLATILE | RELAXED | RELEASE; break;
    case PTX_OP_ATOM: allowed = RELAXED | ACQUIRE | RELEASE | ACQ_REL; break;
    case PTX_OP_RED: allowed = RELAXED | RELEASE; break;
    case PTX_OP_FENCE: allowed = SC | ACQ_REL; break;
    default: allowed = 0; break;
    }
    return (allowed >> semantics) & 1u;
}

/* decode_opcode's result for an opcode token the tables do not accept; the caller keeps it as
 * PTX_OP_UNSUPPORTED. */
enum { UNSUPPORTED = 1 };

static bool is_half(ptx_type type)
{
    return type == PTX_TYPE_F16 || type == PTX_TYPE_F16X2 || type == PTX_TYPE_BF16;
}

/* Float arithmetic and comparisons: the executor computes f32 and f64 only, rounding to
 * nearest (f16/bf16 arithmetic and the .rz/.rm/.rp roundings are kept unsupported rather than
 * computed wrongly). */
static bool float_form_supported(const ptx_instruction *in)
{
    ptx_type type = (ptx_type)(in->opcode == PTX_OP_SET ? in->src_type : in->type);
    bool directed = in->rounding == PTX_ROUND_RZ || in->rounding == PTX_ROUND_RM || in->rounding == PTX_ROUND_RP;
    switch ((ptx_opcode)in->opcode) {
    case PTX_OP_ADD: case PTX_OP_SUB: case PTX_OP_MUL: case PTX_OP_MAD: case PTX_OP_FMA: case PTX_OP_DIV:
    case PTX_OP_RCP: case PTX_OP_SQRT:
        return !is_half(type) && !(directed && ptx_type_is_float(type));
    case PTX_OP_ABS: case PTX_OP_NEG: case PTX_OP_MIN: case PTX_OP_MAX: case PTX_OP_COPYSIGN: case PTX_OP_RSQRT:
    case PTX_OP_EX2: case PTX_OP_LG2: case PTX_OP_SIN: case PTX_OP_COS: case PTX_OP_TANH: case PTX_OP_SETP:
    case PTX_OP_SET: case PTX_OP_TESTP:
        return !is_half(type);
    case PTX_OP_SLCT:
        return !is_half((ptx_type)in->src_type);
    case PTX_OP_CVT:
        return in->type != PTX_TYPE_BF16 && in->src_type != PTX_TYPE_BF16 && in->type != PTX_TYPE_F16X2 &&
               in->src_type != PTX_TYPE_F16X2 && !(directed && ptx_type_is_float((ptx_type)in->type));
    default:
        return true;
    }
}

/* Type and mode combinations the executor computes (the tables admit every type and mode of a
 * modifier class). */
static bool form_supported(const ptx_instruction *in)
{
    ptx_type type = (ptx_type)in->type;
    if (!float_form_supported(in))
        return false;
    switch ((ptx_opcode)in->opcode) {
    case PTX_OP_MATCH:
        return (in->mode == PTX_VOTE_ANY || in->mode == PTX_VOTE_ALL) &&
               (type == PTX_TYPE_B32 || type == PTX_TYPE_B64);
    case PTX_OP_REDUX:
        if (in->mode == PTX_ATOM_AND || in->mode == PTX_ATOM_OR || in->mode == PTX_ATOM_XOR)
            return type == PTX_TYPE_B32;
        return (in->mode == PTX_ATOM_ADD || in->mode == PTX_ATOM_MIN || in->mode == PTX_ATOM_MAX) &&
               (type == PTX_TYPE_U32 || type == PTX_TYPE_S32);
    case PTX_OP_MUL24: case PTX_OP_MAD24:
        return (type == PTX_TYPE_U32 || type == PTX_TYPE_S32) && !(in->flags & PTX_FLAG_WIDE) &&
               (!(in->flags & PTX_FLAG_SAT) || (type == PTX_TYPE_S32 && (in->flags & PTX_FLAG_HI)));
    case PTX_OP_SAD:
        return !ptx_type_is_float(type) && ptx_type_size(type) >= 2 && type != PTX_TYPE_B16 &&
               type != PTX_TYPE_B32 && type != PTX_TYPE_B64;
    case PTX_OP_DP4A:
        return (type == PTX_TYPE_U32 || type == PTX_TYPE_S32) &&
               (in->src_type == PTX_TYPE_U32 || in->src_type == PTX_TYPE_S32);
    case PTX_OP_DP2A:
        return (type == PTX_TYPE_U32 || type == PTX_TYPE_S32) &&
               (in->src_type == PTX_TYPE_U32 || in->src_type == PTX_TYPE_S32) && !(in->flags & PTX_FLAG_WIDE);
    case PTX_OP_MIN: case PTX_OP_MAX:
        return !(in->flags & PTX_FLAG_RELU) || type == PTX_TYPE_S32;
    default:
        return true;
    }
}

/* Decodes "ld.global.nc.v4.u32" into the instruction fields: 0, or UNSUPPORTED. */
static int decode_opcode(const ptx_token *token, ptx_instruction *instruction,
                         const opcode_info **info_out)
{
    int position;
    const opcode_info *info = find_opcode(token, &position);
    if (!info)
        return UNSUPPORTED;
    instruction->opcode = (uint16_t)info->opcode;
    instruction->mode = info->mode;
    instruction->flags = info->flags;
    uint32_t seen = 0;
    while (position < token->length) {
        const char *part = token->text + position + 1;
        const char *end = memchr(part, '.', (size_t)(token->length - position - 1));
        int length = end ? (int)(end - part) : (int)(token->length - position - 1);
        position += length + 1;
        ptx_token type_token = {part - 1, length + 1, token->line, PTX_TOKEN_IDENT};
        ptx_type type = (info->accepts & MOD_TYPE) ? ptx_lookup_type(&type_token) : PTX_TYPE_NONE;
        if (type != PTX_TYPE_NONE) {
            if (!apply_type(instruction, type, info->accepts))
                return UNSUPPORTED;
            seen |= MOD_TYPE;
            continue;
        }
        const modifier *m = find_modifier(part, length, info->accepts);
        if (!m || (seen & m->class & ~(uint32_t)MOD_CACHE))
            return UNSUPPORTED;
        seen |= m->class;
        apply_modifier(instruction, m);
    }
    if ((seen & info->requires) != info->requires)
        return UNSUPPORTED;
    if ((info->accepts & MOD_TYPE2) && instruction->src_type == PTX_TYPE_NONE)
        return UNSUPPORTED;  /* cvt, set and slct name two types */
    if ((seen & MOD_SEM) && !semantics_allowed(info->opcode, (ptx_semantics)instruction->semantics))
        return UNSUPPORTED;
    if (!form_supported(instruction))
        return UNSUPPORTED;
    *info_out = info;
    return 0;
}

/* ---- operands ----------------------------------------------------------------------------- */

static ptx_type wider(ptx_type type)
{
    switch (type) {
    case PTX_TYPE_U16: return PTX_TYPE_U32;
    case PTX_TYPE_S16: return PTX_TYPE_S32;
    case PTX_TYPE_U32: return PTX_TYPE_U64;
    case PTX_TYPE_S32: return PTX_TYPE_S64;
    default: return type;
    }
}

/* The type an immediate in operand `index` is written in. */
static ptx_type immediate_type(const ptx_instruction *instruction, int index)
{
    ptx_type type = (ptx_type)instruction->type;
    switch (instruction->opcode) {
    case PTX_OP_CVT: case PTX_OP_SET: return (ptx_type)instruction->src_type;
    case PTX_OP_SLCT: return index == 3 ? (ptx_type)instruction->src_type : type;
    case PTX_OP_MAD: return (instruction->flags & PTX_FLAG_WIDE) && index >= 3 ? wider(type) : type;
    case PTX_OP_SHL: case PTX_OP_SHR: return index == 2 ? PTX_TYPE_U32 : type;
    case PTX_OP_SHF: return index == 3 ? PTX_TYPE_U32 : type;
    case PTX_OP_BFE: return index >= 2 ? PTX_TYPE_U32 : type;
    case PTX_OP_BFI: return index >= 3 ? PTX_TYPE_U32 : type;
    case PTX_OP_LOP3: return index == 4 ? PTX_TYPE_B32 : type;
    case PTX_OP_SHFL: return index >= 2 ? PTX_TYPE_B32 : type;
    case PTX_OP_MATCH: return index == 2 ? PTX_TYPE_B32 : type;
    case PTX_OP_DP4A: case PTX_OP_DP2A: return index == 2 ? (ptx_type)instruction->src_type : type;
    case PTX_OP_VOTE: case PTX_OP_BAR: case PTX_OP_BAR_WARP: case PTX_OP_NANOSLEEP: case PTX_OP_ELECT:
        return PTX_TYPE_U32;
    default: return type;
    }
}

static bool is_predicate(const ptx_parser *p, int32_t reg)
{
    return p->module->functions[p->function].registers[reg].type == PTX_TYPE_PRED;
}

/* Checks one operand against its role: destination, address or source. */
static int check_operand(ptx_parser *p, const ptx_instruction *instruction, const opcode_info *info,
                         int index, int line)
{
    const ptx_operand *operand = &instruction->operands[index];
    bool is_destination = index == 0 && (info->shape == SHAPE_VALUE || info->shape == SHAPE_LOAD);
    bool is_address = (index == 0 && info->shape == SHAPE_STORE) || (index == 1 && info->shape == SHAPE_LOAD);
    int position = index + 1;
    if (is_address != (operand->kind == PTX_OPERAND_ADDRESS))
        return ptx_error(p, line, is_address ? "operand %d must be an [address]"
                                             : "operand %d must not be an [address]", position);
    if (is_destination && operand->kind != PTX_OPERAND_REGISTER && operand->kind != PTX_OPERAND_VECTOR
        && operand->kind != PTX_OPERAND_SINK)
        return ptx_error(p, line, "destination must be a register");
    if (!is_destination && operand->kind == PTX_OPERAND_SINK)
        return ptx_error(p, line, "'_' is only allowed as a destination");
    bool pairs = instruction->opcode == PTX_OP_SETP || instruction->opcode == PTX_OP_SHFL ||
                 instruction->opcode == PTX_OP_MATCH || instruction->opcode == PTX_OP_ELECT;
    if (operand->reg2 >= 0 && (index != 0 || !pairs))
        return ptx_error(p, line, "'|' pairs are only allowed in setp, shfl, match and elect destinations");
    if (operand->negated && (is_destination || !is_predicate(p, operand->reg)))
        return ptx_error(p, line, "'!' applies only to predicate source operands");
    if (operand->kind == PTX_OPERAND_VECTOR) {
        if (instruction->opcode != PTX_OP_MOV && instruction->opcode != PTX_OP_LD && instruction->opcode != PTX_OP_ST)
            return ptx_error(p, line, "vector operands are only allowed in ld, st and mov");
        if (instruction->opcode != PTX_OP_MOV && operand->count != instruction->vector)
            return ptx_error(p, line, "vector operand has %d elements, the instruction moves %d",
                             operand->count, instruction->vector);
        for (int k = 0; k < operand->count && !is_destination; k++)
            if (operand->vector[k] < 0)
                return ptx_error(p, line, "'_' is only allowed as a destination");
    } else if (instruction->vector > 1 && !is_address) {
        return ptx_error(p, line, "%s.v%d needs a {vector} operand", ptx_opcode_name(instruction->opcode),
                         instruction->vector);
    }
    return 0;
}

/* Operand-count rules that depend on modifiers. */
static int check_operand_count(ptx_parser *p, const ptx_instruction *instruction,
                               const opcode_info *info, int line)
{
    int count = instruction->operand_count;
    int expected = -1;
    if (instruction->opcode == PTX_OP_SETP || instruction->opcode == PTX_OP_SET)
        expected = instruction->combine ? 4 : 3;
    else if (instruction->opcode == PTX_OP_DP4A || instruction->opcode == PTX_OP_DP2A)
        expected = 4;
    else if (instruction->opcode == PTX_OP_ATOM)
        expected = instruction->mode == PTX_ATOM_CAS ? 4 : 3;
    if (expected >= 0 && count != expected)
        return ptx_error(p, line, "%s takes %d operands, found %d", ptx_opcode_name(instruction->opcode),
                         expected, count);
    if (count < info->min_operands || count > info->max_operands)
        return ptx_error(p, line, info->min_operands == info->max_operands
                         ? "%s takes %d operand(s), found %d" : "%s takes at least %d operand(s), found %d",
                         info->name, count > info->max_operands ? info->max_operands : info->min_operands, count);
    return 0;
}

static int parse_operands(ptx_parser *p, ptx_instruction *instruction, const opcode_info *info)
{
    if (info->shape == SHAPE_CALL)
        return ptx_parse_call(p, instruction);
    if (ptx_token_is(ptx_peek(p), ';'))
        return 0;
    do {
        if (instruction->operand_count == PTX_MAX_OPERANDS)
            return ptx_error(p, ptx_peek(p)->line, "too many operands");
        if (ptx_parse_operand(p, instruction, instruction->operand_count, info->shape == SHAPE_BRANCH) < 0)
            return -1;
        instruction->operand_count++;
    } while (ptx_accept(p, ','));
    return 0;
}

static void convert_immediates(ptx_parser *p, ptx_instruction *instruction)
{
    for (int i = 0; i < instruction->operand_count; i++) {
        ptx_operand *operand = &instruction->operands[i];
        if (operand->kind == PTX_OPERAND_IMMEDIATE)
            operand->value = (int64_t)ptx_convert_literal(immediate_type(instruction, i),
                                                          (uint64_t)operand->value, p->literals[i]);
    }
}

/* Fields implied by the opcode rather than written as modifiers. */
static void complete_fields(ptx_instruction *instruction, const opcode_info *info)
{
    if (strcmp(info->name, "membar") == 0)
        instruction->semantics = PTX_SEM_SC;
}

static int append_instruction(ptx_parser *p, const ptx_instruction *instruction)
{
    ptx_function *function = ptx_current_function(p);
    if (ptx_reserve(p, (void **)&function->instructions, &p->instruction_capacity,
                    function->instruction_count, sizeof *function->instructions) < 0)
        return -1;
    function->instructions[function->instruction_count++] = *instruction;
    return 0;
}

/* Keeps an unsupported instruction as a placeholder (its operands skipped up to the ';'), so
 * that branch targets keep their indices and the module's other kernels still load. */
static int append_unsupported(ptx_parser *p, const ptx_token *token, ptx_instruction *instruction)
{
    *instruction = (ptx_instruction){.opcode = PTX_OP_UNSUPPORTED, .guard_reg = instruction->guard_reg,
                                     .guard_negated = instruction->guard_negated, .line = token->line,
                                     .reconverge = -1, .callee = -1, .vector = 1};
    instruction->unsupported_text = ptx_arena_strndup(p->arena, token->text,
                                                      (size_t)(token->length > 200 ? 200 : token->length));
    if (!instruction->unsupported_text)
        return ptx_out_of_memory(p);
    while (ptx_peek(p)->kind != PTX_TOKEN_END && !ptx_token_is(ptx_peek(p), ';'))
        ptx_next(p);
    if (ptx_expect(p, ';', "';' after the instruction") < 0)
        return -1;
    return append_instruction(p, instruction);
}

int ptx_parse_instruction(ptx_parser *p, int32_t guard_reg, bool guard_negated)
{
    const ptx_token *token = ptx_next(p);
    if (token->kind != PTX_TOKEN_IDENT || token->text[0] == '%' || token->text[0] == '$')
        return ptx_error(p, token->line, "expected an instruction, found '%.*s'",
                         token->length > 60 ? 60 : token->length, token->text);
    ptx_instruction instruction = {.guard_reg = guard_reg, .guard_negated = guard_negated,
                                   .line = token->line, .reconverge = -1, .callee = -1, .vector = 1};
    const opcode_info *info = NULL;
    int decoded = decode_opcode(token, &instruction, &info);
    if (decoded == UNSUPPORTED)
        return append_unsupported(p, token, &instruction);
    if (decoded < 0 || parse_operands(p, &instruction, info) < 0
        || ptx_expect(p, ';', "';' after the instruction") < 0
        || check_operand_count(p, &instruction, info, token->line) < 0)
        return -1;
    for (int i = 0; i < instruction.operand_count; i++)
        if (check_operand(p, &instruction, info, i, token->line) < 0)
            return -1;
    convert_immediates(p, &instruction);
    complete_fields(&instruction, info);
    return append_instruction(p, &instruction);
}
