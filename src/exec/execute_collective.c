/* execute_collective.c — warp-collective instructions: shfl.sync, vote(.sync), activemask,
 * match.any/all.sync, redux.sync and elect.sync. A lane of vote.sync, match, redux and elect
 * takes part with the executing lanes its own member mask names: lanes of one instruction may
 * name different groups at once (cooperative groups' labeled_partition gives each group its own
 * mask from match.any, then reduces each group with redux.sync).
 * All source values are gathered before any destination is written, since lanes read each
 * other's registers. PTX defines these instructions on 32-lane warps (5-bit lane numbers, 32-bit
 * masks), so in a 64-lane wavefront each 32-lane half acts as one PTX warp: CUDA code written for
 * 32-lane warps keeps its meaning. */
#include "exec/execute_internal.h"

#include "exec/operands.h"

static void shuffle(exec_warp *warp, exec_frame *frame, const ptx_instruction *in, uint64_t lanes)
{
    unsigned width = warp->kernel->width, lane_bits = PTX_WARP_LANES - 1;
    uint64_t values[EXEC_MAX_WARP_WIDTH];
    for (unsigned lane = 0; lane < width; lane++)
        values[lane] = operand_read(warp, frame, &in->operands[1], lane);
    for (uint64_t m = lanes; m; m &= m - 1) {
        unsigned lane = (unsigned)__builtin_ctzll(m);
        unsigned half = lane & ~lane_bits, local = lane & lane_bits;
        unsigned b = (unsigned)operand_read(warp, frame, &in->operands[2], lane) & lane_bits;
        uint64_t c = operand_read(warp, frame, &in->operands[3], lane);
        unsigned clamp = (unsigned)c & lane_bits, segment = (unsigned)(c >> 8) & lane_bits;
        unsigned max_lane = (local & segment) | (clamp & ~segment), min_lane = local & segment;
        int source;
        bool in_range;
        switch ((ptx_shfl_mode)in->mode) {
        case PTX_SHFL_UP: source = (int)local - (int)b; in_range = source >= (int)max_lane; break;
        case PTX_SHFL_DOWN: source = (int)(local + b); in_range = source <= (int)max_lane; break;
        case PTX_SHFL_BFLY: source = (int)(local ^ b); in_range = source <= (int)max_lane; break;
        default: source = (int)(min_lane | (b & ~segment)); in_range = source <= (int)max_lane; break;
        }
        if (!in_range)
            source = (int)local;
        operand_write(warp, frame, in->operands[0].reg, lane, values[half + (unsigned)source]);
        operand_write(warp, frame, in->operands[0].reg2, lane, in_range);
    }
}

/* The lanes of `lanes` in the 32-lane half holding `lane`, as a 32-bit PTX mask. */
static uint64_t half_mask(uint64_t lanes, unsigned lane)
{
    return (lanes >> (lane & ~(PTX_WARP_LANES - 1u))) & 0xffffffffull;
}

/* The 32-bit mask of the lanes `lane` takes part with: the executing lanes of its 32-lane half
 * that the member mask in operand `mask_index` names (all executing lanes when it is < 0). */
static uint64_t group_of(exec_warp *warp, exec_frame *frame, const ptx_instruction *in, int mask_index,
                         uint64_t lanes, unsigned lane)
{
    uint64_t group = half_mask(lanes, lane);
    if (mask_index >= 0)
        group &= operand_read(warp, frame, &in->operands[mask_index], lane) & 0xffffffffull;
    return group;
}

static void vote(exec_warp *warp, exec_frame *frame, const ptx_instruction *in, uint64_t lanes)
{
    uint64_t ballot = 0;
    for (uint64_t m = lanes; m; m &= m - 1) {
        unsigned lane = (unsigned)__builtin_ctzll(m);
        if (operand_read(warp, frame, &in->operands[1], lane))
            ballot |= 1ull << lane;
    }
    for (uint64_t m = lanes; m; m &= m - 1) {
        unsigned lane = (unsigned)__builtin_ctzll(m);
        uint64_t voters = group_of(warp, frame, in, (in->flags & PTX_FLAG_SYNC) ? 2 : -1, lanes, lane);
        uint64_t votes = half_mask(ballot, lane) & voters, result;
        switch ((ptx_vote_mode)in->mode) {
        case PTX_VOTE_ALL: result = votes == voters; break;
        case PTX_VOTE_ANY: result = votes != 0; break;
        case PTX_VOTE_UNI: result = votes == 0 || votes == voters; break;
        default: result = votes; break;
        }
        operand_write(warp, frame, in->operands[0].reg, lane, result);
    }
}

/* match.any: the lanes holding the same value; match.all: every taking part lane when all hold
 * the same value (and the predicate true), else 0 (and false). */
static void match(exec_warp *warp, exec_frame *frame, const ptx_instruction *in, uint64_t lanes)
{
    uint64_t values[EXEC_MAX_WARP_WIDTH];
    uint64_t value_mask = in->type == PTX_TYPE_B64 ? ~0ull : 0xffffffffull;
    for (uint64_t m = lanes; m; m &= m - 1) {
        unsigned lane = (unsigned)__builtin_ctzll(m);
        values[lane] = operand_read(warp, frame, &in->operands[1], lane) & value_mask;
    }
    for (uint64_t m = lanes; m; m &= m - 1) {
        unsigned lane = (unsigned)__builtin_ctzll(m);
        uint64_t same = 0, voters = group_of(warp, frame, in, 2, lanes, lane);
        unsigned base = lane & ~(PTX_WARP_LANES - 1u);
        for (uint64_t v = voters; v; v &= v - 1) {
            unsigned other = (unsigned)__builtin_ctzll(v);
            if (values[base + other] == values[lane])
                same |= 1ull << other;
        }
        bool all = same == voters;
        if (in->mode == PTX_VOTE_ANY) {
            operand_write(warp, frame, in->operands[0].reg, lane, same);
        } else {
            operand_write(warp, frame, in->operands[0].reg, lane, all ? voters : 0);
            operand_write(warp, frame, in->operands[0].reg2, lane, all);
        }
    }
}

static uint32_t reduce(ptx_atom_op op, bool is_signed, uint32_t a, uint32_t b)
{
    switch (op) {
    case PTX_ATOM_ADD: return a + b;
    case PTX_ATOM_MIN: return is_signed ? ((int32_t)a < (int32_t)b ? a : b) : (a < b ? a : b);
    case PTX_ATOM_MAX: return is_signed ? ((int32_t)a > (int32_t)b ? a : b) : (a > b ? a : b);
    case PTX_ATOM_AND: return a & b;
    case PTX_ATOM_OR: return a | b;
    default: return a ^ b;
    }
}

/* redux.sync: every taking part lane gets the reduction of all their values (add wraps). */
static void reduce_lanes(exec_warp *warp, exec_frame *frame, const ptx_instruction *in, uint64_t lanes)
{
    uint32_t values[EXEC_MAX_WARP_WIDTH];
    bool is_signed = in->type == PTX_TYPE_S32;
    for (uint64_t m = lanes; m; m &= m - 1) {
        unsigned lane = (unsigned)__builtin_ctzll(m);
        values[lane] = (uint32_t)operand_read(warp, frame, &in->operands[1], lane);
    }
    for (uint64_t m = lanes; m; m &= m - 1) {
        unsigned lane = (unsigned)__builtin_ctzll(m), base = lane & ~(PTX_WARP_LANES - 1u);
        uint64_t voters = group_of(warp, frame, in, 2, lanes, lane);
        if (voters == 0)
            voters = 1ull << (lane - base);  /* not in its own mask (undefined in PTX): its own value */
        uint32_t result = values[base + (unsigned)__builtin_ctzll(voters)];
        for (uint64_t v = voters & (voters - 1); v; v &= v - 1)
            result = reduce((ptx_atom_op)in->mode, is_signed, result, values[base + (unsigned)__builtin_ctzll(v)]);
        operand_write(warp, frame, in->operands[0].reg, lane, result);
    }
}

/* elect.sync: the lowest taking part lane is elected; every lane gets its lane number and the
 * predicate says whether it is the elected one. */
static void elect(exec_warp *warp, exec_frame *frame, const ptx_instruction *in, uint64_t lanes)
{
    for (uint64_t m = lanes; m; m &= m - 1) {
        unsigned lane = (unsigned)__builtin_ctzll(m);
        uint64_t group = group_of(warp, frame, in, 1, lanes, lane);
        unsigned leader = group ? (unsigned)__builtin_ctzll(group) : lane & (PTX_WARP_LANES - 1u);
        if (in->operands[0].kind == PTX_OPERAND_REGISTER)
            operand_write(warp, frame, in->operands[0].reg, lane, leader);
        operand_write(warp, frame, in->operands[0].reg2, lane, (lane & (PTX_WARP_LANES - 1u)) == leader);
    }
}

void execute_warp_collective(exec_warp *warp, exec_frame *frame, const exec_op *op, uint64_t lanes)
{
    const ptx_instruction *in = op->instruction;
    switch ((ptx_opcode)in->opcode) {
    case PTX_OP_SHFL:
        shuffle(warp, frame, in, lanes);
        break;
    case PTX_OP_VOTE:
        vote(warp, frame, in, lanes);
        break;
    case PTX_OP_MATCH:
        match(warp, frame, in, lanes);
        break;
    case PTX_OP_REDUX:
        reduce_lanes(warp, frame, in, lanes);
        break;
    case PTX_OP_ELECT:
        elect(warp, frame, in, lanes);
        break;
    default: /* activemask */
        for (uint64_t m = lanes; m; m &= m - 1) {
            unsigned lane = (unsigned)__builtin_ctzll(m);
            operand_write(warp, frame, in->operands[0].reg, lane, half_mask(lanes, lane));
        }
        break;
    }
}
