/* cfg.h — basic blocks and immediate post-dominators of a parsed PTX function. The parser uses
 * them to set every bra's reconvergence point; tools and tests may inspect the graph. */
#ifndef SYNCSCOPE_PTX_CFG_H
#define SYNCSCOPE_PTX_CFG_H

#include "ptx/ptx_ir.h"

typedef struct ptx_cfg {
    int32_t block_count;
    int32_t *block_start;      /* block_count + 1 entries; the last is instruction_count */
    int32_t *block_of;         /* the block of each instruction */
    int32_t (*successors)[2];  /* up to two successor blocks, -1 when absent; block_count = exit */
    int32_t *ipdom;            /* immediate post-dominator block; block_count = exit */
} ptx_cfg;

/* Builds the blocks and post-dominators of `function`. Blocks from which the exit cannot be
 * reached (endless loops) get the exit as their post-dominator. Free with ptx_cfg_free. */
int ptx_cfg_build(const ptx_function *function, ptx_cfg *cfg, sc_error *error);
void ptx_cfg_free(ptx_cfg *cfg);

/* Sets `reconverge` of every bra: the first instruction of the immediate post-dominator of
 * the branch's block, or instruction_count when that is the function exit. */
int ptx_cfg_set_reconvergence(ptx_function *function, sc_error *error);

#endif
