/* execute_collective.c — warp-collective instructions: shfl.sync, vote(.sync) and activemask.
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
        uint64_t votes = half_mask(ballot, lane), voters = half_mask(lanes, lane), result;
        switch ((ptx_vote_mode)in->mode) {
        case PTX_VOTE_ALL: result = votes == voters; break;
        case PTX_VOTE_ANY: result = votes != 0; break;
        case PTX_VOTE_UNI: result = votes == 0 || votes == voters; break;
        default: result = votes; break;
        }
        operand_write(warp, frame, in->operands[0].reg, lane, result);
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
    default: /* activemask */
        for (uint64_t m = lanes; m; m &= m - 1) {
            unsigned lane = (unsigned)__builtin_ctzll(m);
            operand_write(warp, frame, in->operands[0].reg, lane, half_mask(lanes, lane));
        }
        break;
    }
}
