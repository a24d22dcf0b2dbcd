/* ptx_ir.h — the kernel IR that the PTX parser produces and the SIMT executor interprets.
 *
 * A module holds symbols (variables in every state space) and functions. A function holds a
 * dense register table and a flat instruction array; branch targets are instruction indices and
 * every conditional branch carries its reconvergence point (the immediate post-dominator), so the
 * executor never looks at text again.
 *
 * Conventions the parser guarantees:
 *  - Operand 0 is the destination for instructions that write a register (st, red, bra, bar,
 *    fence and friends have no destination: all their operands are sources, in PTX order).
 *  - IMMEDIATE values hold the bit pattern of the value in the instruction's operand type
 *    (0f3F800000 under .f32 is 0x3F800000; an integer literal under .f32 is converted).
 *  - ADDRESS operands ([%rd1+4], [sym], [sym+8], [%r6], [0x10]) name a base register and/or a
 *    symbol plus a constant byte offset.
 *  - Symbols are laid out by the parser inside their storage (see ptx_storage): kernel params get
 *    offsets in the kernel's parameter buffer; .local and in-body .param variables and a .func's
 *    own parameters get offsets in the function's per-thread frame. Global, const and shared
 *    symbols get their addresses from the loader (exec/), not the parser.
 */
#ifndef SYNCSCOPE_PTX_IR_H
#define SYNCSCOPE_PTX_IR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/error.h"

/* Lanes of a warp as PTX sees it: collectives, %laneid and the predefined constant WARP_SZ. */
#define PTX_WARP_LANES 32

typedef enum ptx_type {
    PTX_TYPE_NONE = 0,
    PTX_TYPE_PRED,
    PTX_TYPE_B8, PTX_TYPE_B16, PTX_TYPE_B32, PTX_TYPE_B64,
    PTX_TYPE_U8, PTX_TYPE_U16, PTX_TYPE_U32, PTX_TYPE_U64,
    PTX_TYPE_S8, PTX_TYPE_S16, PTX_TYPE_S32, PTX_TYPE_S64,
    PTX_TYPE_F16, PTX_TYPE_F16X2, PTX_TYPE_BF16, PTX_TYPE_F32, PTX_TYPE_F64,
    PTX_TYPE_COUNT
} ptx_type;

typedef enum ptx_space {
    PTX_SPACE_GENERIC = 0,  /* no space qualifier: generic addressing */
    PTX_SPACE_GLOBAL,
    PTX_SPACE_SHARED,
    PTX_SPACE_LOCAL,
    PTX_SPACE_PARAM,
    PTX_SPACE_CONST,
    PTX_SPACE_REG,          /* only for declarations */
} ptx_space;

/* Memory-ordering semantics of ld/st/atom/red/fence. WEAK is a plain access. */
typedef enum ptx_semantics {
    PTX_SEM_WEAK = 0,
    PTX_SEM_VOLATILE,
    PTX_SEM_RELAXED,
    PTX_SEM_ACQUIRE,
    PTX_SEM_RELEASE,
    PTX_SEM_ACQ_REL,
    PTX_SEM_SC,
} ptx_semantics;

/* Scope of a strong access or fence. NONE on plain accesses; the executor treats an atom/red
 * without a scope as .gpu, and membar.cta/.gl/.sys map to fence.sc at CTA/GPU/SYS scope. */
typedef enum ptx_scope {
    PTX_SCOPE_NONE = 0,
    PTX_SCOPE_CTA,
    PTX_SCOPE_GPU,
    PTX_SCOPE_SYS,
} ptx_scope;

typedef enum ptx_opcode {
    PTX_OP_INVALID = 0,
    /* data movement and conversion */
    PTX_OP_MOV, PTX_OP_CVTA, PTX_OP_CVT, PTX_OP_LD, PTX_OP_ST, PTX_OP_PRMT,
    /* integer and float arithmetic */
    PTX_OP_ADD, PTX_OP_SUB, PTX_OP_MUL, PTX_OP_MAD, PTX_OP_FMA, PTX_OP_DIV, PTX_OP_REM,
    PTX_OP_ABS, PTX_OP_NEG, PTX_OP_MIN, PTX_OP_MAX, PTX_OP_COPYSIGN,
    PTX_OP_RCP, PTX_OP_SQRT, PTX_OP_RSQRT, PTX_OP_EX2, PTX_OP_LG2, PTX_OP_SIN, PTX_OP_COS,
    PTX_OP_TANH,
    /* logic and bit manipulation */
    PTX_OP_AND, PTX_OP_OR, PTX_OP_XOR, PTX_OP_NOT, PTX_OP_CNOT, PTX_OP_LOP3,
    PTX_OP_SHL, PTX_OP_SHR, PTX_OP_SHF,
    PTX_OP_POPC, PTX_OP_CLZ, PTX_OP_BREV, PTX_OP_BFE, PTX_OP_BFI, PTX_OP_BFIND,
    /* comparison and selection */
    PTX_OP_SETP, PTX_OP_SET, PTX_OP_SELP, PTX_OP_SLCT, PTX_OP_TESTP,
    /* control flow */
    PTX_OP_BRA, PTX_OP_CALL, PTX_OP_RET, PTX_OP_EXIT,
    /* synchronization and communication */
    PTX_OP_BAR, PTX_OP_BAR_WARP, PTX_OP_FENCE, PTX_OP_ATOM, PTX_OP_RED,
    PTX_OP_SHFL, PTX_OP_VOTE, PTX_OP_ACTIVEMASK, PTX_OP_NANOSLEEP,
    PTX_OP_MATCH, PTX_OP_REDUX, PTX_OP_ELECT,
    /* integer arithmetic added for CUDA intrinsics (__mul24, __sad, __dp4a, ...) */
    PTX_OP_MUL24, PTX_OP_MAD24, PTX_OP_SAD, PTX_OP_DP4A, PTX_OP_DP2A,
    /* an instruction the parser does not support: kept so that the rest of the module loads;
     * launching a kernel that contains it (or calls a function that does) is an error */
    PTX_OP_UNSUPPORTED,
    PTX_OP_COUNT
} ptx_opcode;

typedef enum ptx_compare {
    PTX_CMP_NONE = 0,
    PTX_CMP_EQ, PTX_CMP_NE, PTX_CMP_LT, PTX_CMP_LE, PTX_CMP_GT, PTX_CMP_GE,
    PTX_CMP_LO, PTX_CMP_LS, PTX_CMP_HI, PTX_CMP_HS,
    PTX_CMP_EQU, PTX_CMP_NEU, PTX_CMP_LTU, PTX_CMP_LEU, PTX_CMP_GTU, PTX_CMP_GEU,
    PTX_CMP_NUM, PTX_CMP_NAN,
} ptx_compare;

/* setp/set predicate combining with a third source predicate (setp.lt.and.s32 ...). */
typedef enum ptx_combine { PTX_COMBINE_NONE = 0, PTX_COMBINE_AND, PTX_COMBINE_OR, PTX_COMBINE_XOR } ptx_combine;

typedef enum ptx_rounding {
    PTX_ROUND_NONE = 0,
    PTX_ROUND_RN, PTX_ROUND_RZ, PTX_ROUND_RM, PTX_ROUND_RP,      /* float results */
    PTX_ROUND_RNI, PTX_ROUND_RZI, PTX_ROUND_RMI, PTX_ROUND_RPI,  /* integral results */
} ptx_rounding;

/* The operation-specific selector; which enum applies depends on the opcode. */
typedef enum ptx_atom_op {
    PTX_ATOM_NONE = 0,
    PTX_ATOM_ADD, PTX_ATOM_MIN, PTX_ATOM_MAX, PTX_ATOM_INC, PTX_ATOM_DEC,
    PTX_ATOM_AND, PTX_ATOM_OR, PTX_ATOM_XOR, PTX_ATOM_EXCH, PTX_ATOM_CAS,
} ptx_atom_op;

typedef enum ptx_shfl_mode { PTX_SHFL_UP = 1, PTX_SHFL_DOWN, PTX_SHFL_BFLY, PTX_SHFL_IDX } ptx_shfl_mode;
typedef enum ptx_vote_mode { PTX_VOTE_ALL = 1, PTX_VOTE_ANY, PTX_VOTE_UNI, PTX_VOTE_BALLOT } ptx_vote_mode;

typedef enum ptx_bar_mode { PTX_BAR_SYNC = 1, PTX_BAR_ARRIVE, PTX_BAR_RED_POPC, PTX_BAR_RED_AND, PTX_BAR_RED_OR } ptx_bar_mode;
/* prmt modes; PTX_PRMT_DEFAULT is the generic byte-selector form. */
typedef enum ptx_prmt_mode {
    PTX_PRMT_DEFAULT = 0, PTX_PRMT_F4E, PTX_PRMT_B4E, PTX_PRMT_RC8, PTX_PRMT_ECL, PTX_PRMT_ECR, PTX_PRMT_RC16,
} ptx_prmt_mode;
/* testp properties (the mode of PTX_OP_TESTP). */
typedef enum ptx_testp_mode {
    PTX_TESTP_FINITE = 1, PTX_TESTP_INFINITE, PTX_TESTP_NUMBER, PTX_TESTP_NOTANUMBER,
    PTX_TESTP_NORMAL, PTX_TESTP_SUBNORMAL,
} ptx_testp_mode;

/* Instruction flags (bit set). */
enum {
    PTX_FLAG_WIDE   = 1u << 0,  /* mul.wide / mad.wide */
    PTX_FLAG_HI     = 1u << 1,  /* mul.hi / mad.hi / mul24.hi / dp2a.hi */
    PTX_FLAG_LO     = 1u << 2,  /* mul.lo / mad.lo / mul24.lo / dp2a.lo */
    PTX_FLAG_SAT    = 1u << 3,
    PTX_FLAG_FTZ    = 1u << 4,
    PTX_FLAG_APPROX = 1u << 5,
    PTX_FLAG_FULL   = 1u << 6,
    PTX_FLAG_UNI    = 1u << 7,  /* bra.uni / call.uni */
    PTX_FLAG_NC     = 1u << 8,  /* ld.global.nc */
    PTX_FLAG_TO     = 1u << 9,  /* cvta.to.<space>: generic -> space; without it space -> generic */
    PTX_FLAG_SHIFT_LEFT = 1u << 10,  /* shf.l (else shf.r) */
    PTX_FLAG_WRAP   = 1u << 11,      /* shf.*.wrap (else .clamp) */
    PTX_FLAG_SYNC   = 1u << 12,      /* shfl.sync / vote.sync / match / redux / elect / bar.warp.sync */
    PTX_FLAG_SHIFTAMT = 1u << 13,    /* bfind.shiftamt */
    PTX_FLAG_RELU   = 1u << 14,      /* min.relu / max.relu: a negative result becomes 0 */
};

typedef enum ptx_special_register {
    PTX_SREG_NONE = 0,
    PTX_SREG_TID, PTX_SREG_NTID, PTX_SREG_CTAID, PTX_SREG_NCTAID,
    PTX_SREG_LANEID, PTX_SREG_WARPID, PTX_SREG_NWARPID, PTX_SREG_SMID, PTX_SREG_NSMID,
    PTX_SREG_GRIDID, PTX_SREG_CLOCK, PTX_SREG_CLOCK64, PTX_SREG_GLOBALTIMER,
    PTX_SREG_LANEMASK_EQ, PTX_SREG_LANEMASK_LT, PTX_SREG_LANEMASK_LE,
    PTX_SREG_LANEMASK_GT, PTX_SREG_LANEMASK_GE,
    PTX_SREG_DYNAMIC_SMEM_SIZE, PTX_SREG_TOTAL_SMEM_SIZE,
} ptx_special_register;

typedef enum ptx_operand_kind {
    PTX_OPERAND_NONE = 0,
    PTX_OPERAND_REGISTER,   /* reg (and reg2 for the "%r|%p" pair destinations of setp/shfl) */
    PTX_OPERAND_IMMEDIATE,  /* value */
    PTX_OPERAND_SYMBOL,     /* the address of symbol `symbol` (+ value) used as a value */
    PTX_OPERAND_ADDRESS,    /* [reg + symbol + value]; reg and/or symbol may be -1 */
    PTX_OPERAND_VECTOR,     /* {v0, v1, ...}: count element registers, -1 for the '_' sink */
    PTX_OPERAND_SPECIAL,    /* special register `special`, component 0..2 for .x/.y/.z */
    PTX_OPERAND_LABEL,      /* branch target: value is the instruction index */
    PTX_OPERAND_SINK,       /* '_' as a whole operand */
} ptx_operand_kind;

typedef struct ptx_operand {
    uint8_t kind;        /* ptx_operand_kind */
    uint8_t count;       /* VECTOR: number of elements (1..4) */
    uint8_t negated;     /* '!' before a predicate source operand */
    uint8_t component;   /* SPECIAL: 0=x 1=y 2=z */
    uint16_t special;    /* ptx_special_register */
    int32_t reg;         /* REGISTER, ADDRESS base register, or -1 */
    int32_t reg2;        /* REGISTER: second destination after '|', or -1 */
    int32_t symbol;      /* SYMBOL / ADDRESS: module symbol index, or -1 */
    int32_t vector[4];   /* VECTOR elements */
    int64_t value;       /* IMMEDIATE bits, ADDRESS/SYMBOL byte offset, LABEL target index */
} ptx_operand;

#define PTX_MAX_OPERANDS 6

typedef struct ptx_instruction {
    uint16_t opcode;      /* ptx_opcode */
    uint8_t type;         /* ptx_type: operation type (cvt: destination type) */
    uint8_t src_type;     /* ptx_type: cvt/set source type, else NONE */
    uint8_t compare;      /* ptx_compare */
    uint8_t combine;      /* ptx_combine */
    uint8_t rounding;     /* ptx_rounding */
    uint8_t mode;         /* ptx_atom_op (atom, red, redux) / ptx_shfl_mode / ptx_vote_mode (vote; match:
                           * ANY or ALL) / ptx_bar_mode / ptx_prmt_mode / ptx_testp_mode */
    uint8_t space;        /* ptx_space of ld/st/atom/red/cvta */
    uint8_t semantics;    /* ptx_semantics */
    uint8_t scope;        /* ptx_scope */
    uint8_t vector;       /* 1, 2 or 4 (ld/st .v2/.v4) */
    uint8_t operand_count;
    uint32_t flags;       /* PTX_FLAG_* */
    int32_t guard_reg;    /* guard predicate register, or -1 */
    uint8_t guard_negated;
    int32_t line;         /* source line, for messages */
    /* bra: index of the immediate post-dominator instruction of the branch, where diverged
     * lanes reconverge; equals the function's instruction_count when that is the exit. */
    int32_t reconverge;
    /* call: callee function index and the symbols of its return and argument parameters in
     * the caller (in-body .param variables). */
    int32_t callee;
    int32_t *call_returns;
    int32_t *call_args;
    uint8_t call_return_count;
    uint8_t call_arg_count;
    ptx_operand operands[PTX_MAX_OPERANDS];
    const char *unsupported_text;  /* PTX_OP_UNSUPPORTED: the opcode as written ("tex.2d.v4.f32.f32") */
} ptx_instruction;

typedef struct ptx_register {
    char *name;     /* "%r12", "%p3", "%SP" */
    uint8_t type;   /* ptx_type as declared */
} ptx_register;

/* Where a symbol's bytes live at run time. */
typedef enum ptx_storage {
    PTX_STORAGE_GLOBAL = 1,     /* .global variable: one copy in device memory */
    PTX_STORAGE_CONST,          /* .const variable: one copy, read-only */
    PTX_STORAGE_SHARED,         /* .shared variable: one copy per CTA */
    PTX_STORAGE_DYNAMIC_SHARED, /* .extern .shared ... x[]: starts after the static shared bytes */
    PTX_STORAGE_KERNEL_PARAM,   /* parameter of a .entry: offset in the launch parameter buffer */
    PTX_STORAGE_FRAME,          /* .local, in-body .param, or .func parameter/return: per thread */
} ptx_storage;

typedef struct ptx_symbol {
    char *name;
    uint8_t storage;       /* ptx_storage */
    uint8_t element_type;  /* ptx_type of the declaration */
    uint32_t align;
    uint64_t size;         /* bytes (0 for a dynamic-shared array) */
    uint64_t offset;       /* KERNEL_PARAM / FRAME: byte offset set by the parser */
    int32_t owner;         /* function index for function-scoped symbols, -1 for module scope */
    uint8_t *initializer;  /* GLOBAL/CONST initial bytes (size bytes) or NULL for zero */
    bool is_extern;        /* .extern declaration without storage in this module */
} ptx_symbol;

typedef struct ptx_function {
    char *name;
    bool is_entry;                 /* .entry (kernel) vs .func */
    ptx_register *registers;
    int32_t register_count;
    ptx_instruction *instructions;
    int32_t instruction_count;
    int32_t *params;               /* symbol indices, declaration order */
    int32_t param_count;
    int32_t *returns;              /* .func return parameter symbols */
    int32_t return_count;
    uint64_t kernel_param_bytes;   /* .entry: size of the parameter buffer */
    uint64_t frame_bytes;          /* per-thread FRAME storage of this function */
    uint32_t reqntid[3];           /* .reqntid / .maxntid if given, else 0 */
    int32_t line;                  /* line of the declaration */
} ptx_function;

typedef struct ptx_module {
    char *path;                    /* for messages */
    int version_major, version_minor;
    char target[32];
    int address_size;
    ptx_symbol *symbols;
    int32_t symbol_count;
    ptx_function *functions;
    int32_t function_count;
    void *arena;                   /* owned allocations; freed by ptx_module_free */
} ptx_module;

/* Parses PTX text. `path` is used only in messages ("path:LINE: ..."). An instruction outside
 * the supported set (docs/ptx-support.md) becomes PTX_OP_UNSUPPORTED, so the module's other
 * kernels still run; ptx_check_kernel refuses a kernel that reaches one. */
ptx_module *ptx_parse(const char *text, size_t length, const char *path, sc_error *error);
ptx_module *ptx_load_file(const char *path, sc_error *error);
void ptx_module_free(ptx_module *module);

/* Finds a function by exact name, or a kernel by its unmangled C++ base name
 * ("scan_block" finds "_Z10scan_blockPKjPji"). Returns the index or -1. */
int ptx_find_function(const ptx_module *module, const char *name);
/* Finds a .global or .const variable by exact name, or by its unmangled C++ name ("coef" finds
 * "_ZL4coef"). Returns the symbol index or -1. */
int ptx_find_variable(const ptx_module *module, const char *name);

/* Marks in `reached` (function_count entries, cleared by the caller) the functions kernel
 * `entry` runs: itself and every function it calls, directly or through other functions. */
void ptx_reachable_functions(const ptx_module *module, int32_t entry, bool *reached);
/* Fails with "path:LINE: unsupported PTX instruction 'x.y.z' (kernel K)" when kernel `entry` or
 * a function it calls contains an unsupported instruction. */
int ptx_check_kernel(const ptx_module *module, int32_t entry, sc_error *error);

/* Names for messages and listings. */
const char *ptx_opcode_name(ptx_opcode opcode);
const char *ptx_type_name(ptx_type type);
unsigned ptx_type_size(ptx_type type);     /* bytes; PRED is 1 */
bool ptx_type_is_float(ptx_type type);
bool ptx_type_is_signed(ptx_type type);

#endif
