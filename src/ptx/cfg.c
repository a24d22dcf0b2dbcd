/* cfg.c — basic blocks of a PTX function and their immediate post-dominators, computed with
 * the Cooper-Harvey-Kennedy iterative algorithm on the reverse graph rooted at a virtual exit. */
#include "ptx/cfg.h"

#include <stdlib.h>
#include <string.h>

static bool ends_block(const ptx_instruction *instruction)
{
    return instruction->opcode == PTX_OP_BRA || instruction->opcode == PTX_OP_RET
        || instruction->opcode == PTX_OP_EXIT;
}

static int32_t branch_target(const ptx_instruction *instruction)
{
    return (int32_t)instruction->operands[0].value;
}

static int find_blocks(const ptx_function *function, ptx_cfg *cfg)
{
    int32_t n = function->instruction_count;
    bool *leader = calloc((size_t)n + 1, sizeof *leader);
    cfg->block_of = malloc(((size_t)n + 1) * sizeof *cfg->block_of);
    cfg->block_start = malloc(((size_t)n + 2) * sizeof *cfg->block_start);
    if (!leader || !cfg->block_of || !cfg->block_start) {
        free(leader);
        return -1;
    }
    leader[0] = true;
    for (int32_t i = 0; i < n; i++) {
        const ptx_instruction *instruction = &function->instructions[i];
        if (instruction->opcode == PTX_OP_BRA)
            leader[branch_target(instruction)] = true;
        if (ends_block(instruction))
            leader[i + 1] = true;
    }
    cfg->block_count = 0;
    for (int32_t i = 0; i < n; i++) {
        if (leader[i])
            cfg->block_start[cfg->block_count++] = i;
        cfg->block_of[i] = cfg->block_count - 1;
    }
    cfg->block_start[cfg->block_count] = n;
    cfg->block_of[n] = cfg->block_count;  /* "one past the end" is the exit */
    free(leader);
    return 0;
}

static void find_successors(const ptx_function *function, ptx_cfg *cfg)
{
    int32_t exit = cfg->block_count;
    for (int32_t b = 0; b < cfg->block_count; b++) {
        const ptx_instruction *last = &function->instructions[cfg->block_start[b + 1] - 1];
        bool guarded = last->guard_reg >= 0;
        int32_t fallthrough = b + 1;  /* the block after the last one is the exit */
        int32_t *successors = cfg->successors[b];
        successors[0] = fallthrough;
        successors[1] = -1;
        if (last->opcode == PTX_OP_BRA)
            successors[0] = cfg->block_of[branch_target(last)];
        else if (last->opcode == PTX_OP_RET || last->opcode == PTX_OP_EXIT)
            successors[0] = exit;
        if (guarded && ends_block(last) && successors[0] != fallthrough)
            successors[1] = fallthrough;
    }
}

/* Predecessor lists in compressed form: the predecessors of node v are
 * sources[offsets[v] .. offsets[v + 1]). Node block_count is the exit. */
typedef struct predecessors {
    int32_t *offsets;
    int32_t *sources;
} predecessors;

static int find_predecessors(const ptx_cfg *cfg, predecessors *preds)
{
    int32_t nodes = cfg->block_count + 1;
    preds->offsets = calloc((size_t)nodes + 1, sizeof *preds->offsets);
    preds->sources = malloc(((size_t)cfg->block_count * 2 + 1) * sizeof *preds->sources);
    if (!preds->offsets || !preds->sources)
        return -1;
    for (int32_t b = 0; b < cfg->block_count; b++)
        for (int k = 0; k < 2; k++)
            if (cfg->successors[b][k] >= 0)
                preds->offsets[cfg->successors[b][k] + 1]++;
    for (int32_t v = 0; v < nodes; v++)
        preds->offsets[v + 1] += preds->offsets[v];
    int32_t *fill = malloc((size_t)nodes * sizeof *fill);
    if (!fill)
        return -1;
    memcpy(fill, preds->offsets, (size_t)nodes * sizeof *fill);
    for (int32_t b = 0; b < cfg->block_count; b++)
        for (int k = 0; k < 2; k++)
            if (cfg->successors[b][k] >= 0)
                preds->sources[fill[cfg->successors[b][k]]++] = b;
    free(fill);
    return 0;
}

/* Depth-first search from the exit along predecessor edges; fills the postorder number of
 * each reached node (-1 if unreached) and the nodes in postorder. Returns the number reached. */
static int32_t reverse_postorder(const ptx_cfg *cfg, const predecessors *preds, int32_t *number,
                                 int32_t *order, int32_t *stack, int32_t *cursor)
{
    int32_t nodes = cfg->block_count + 1, exit = cfg->block_count, count = 0, depth = 0;
    for (int32_t v = 0; v < nodes; v++)
        number[v] = -2;  /* -2 unvisited, -1 on the stack */
    stack[depth] = exit;
    cursor[depth++] = preds->offsets[exit];
    number[exit] = -1;
    while (depth > 0) {
        int32_t v = stack[depth - 1];
        if (cursor[depth - 1] < preds->offsets[v + 1]) {
            int32_t w = preds->sources[cursor[depth - 1]++];
            if (number[w] == -2) {
                number[w] = -1;
                stack[depth] = w;
                cursor[depth++] = preds->offsets[w];
            }
        } else {
            number[v] = count;
            order[count++] = v;
            depth--;
        }
    }
    for (int32_t v = 0; v < nodes; v++)
        if (number[v] == -2)
            number[v] = -1;
    return count;
}

static int32_t intersect(const int32_t *ipdom, const int32_t *number, int32_t a, int32_t b)
{
    while (a != b) {
        while (number[a] < number[b])
            a = ipdom[a];
        while (number[b] < number[a])
            b = ipdom[b];
    }
    return a;
}

static void find_post_dominators(ptx_cfg *cfg, const int32_t *number, const int32_t *order,
                                 int32_t reached)
{
    int32_t exit = cfg->block_count;
    for (int32_t v = 0; v <= exit; v++)
        cfg->ipdom[v] = -1;
    cfg->ipdom[exit] = exit;
    for (bool changed = true; changed;) {
        changed = false;
        for (int32_t i = reached - 2; i >= 0; i--) {  /* reverse postorder, skipping the exit */
            int32_t b = order[i], candidate = -1;
            for (int k = 0; k < 2; k++) {
                int32_t s = cfg->successors[b][k];
                if (s < 0 || cfg->ipdom[s] < 0)
                    continue;
                candidate = candidate < 0 ? s : intersect(cfg->ipdom, number, s, candidate);
            }
            if (candidate != cfg->ipdom[b]) {
                cfg->ipdom[b] = candidate;
                changed = true;
            }
        }
    }
    for (int32_t v = 0; v < exit; v++)
        if (cfg->ipdom[v] < 0)
            cfg->ipdom[v] = exit;  /* cannot reach the exit */
}

static int compute_post_dominators(ptx_cfg *cfg)
{
    int32_t nodes = cfg->block_count + 1;
    predecessors preds = {0};
    int32_t *scratch = malloc((size_t)nodes * 4 * sizeof *scratch);
    cfg->ipdom = malloc((size_t)nodes * sizeof *cfg->ipdom);
    int result = -1;
    if (scratch && cfg->ipdom && find_predecessors(cfg, &preds) == 0) {
        int32_t *number = scratch, *order = scratch + nodes;
        int32_t reached = reverse_postorder(cfg, &preds, number, order, scratch + 2 * nodes,
                                            scratch + 3 * nodes);
        find_post_dominators(cfg, number, order, reached);
        result = 0;
    }
    free(preds.offsets);
    free(preds.sources);
    free(scratch);
    return result;
}

int ptx_cfg_build(const ptx_function *function, ptx_cfg *cfg, sc_error *error)
{
    *cfg = (ptx_cfg){0};
    if (find_blocks(function, cfg) < 0)
        goto fail;
    cfg->successors = malloc(((size_t)cfg->block_count + 1) * sizeof *cfg->successors);
    if (!cfg->successors)
        goto fail;
    find_successors(function, cfg);
    if (compute_post_dominators(cfg) < 0)
        goto fail;
    return 0;
fail:
    ptx_cfg_free(cfg);
    return sc_fail(error, "out of memory while building the control-flow graph of '%s'", function->name);
}

void ptx_cfg_free(ptx_cfg *cfg)
{
    free(cfg->block_start);
    free(cfg->block_of);
    free(cfg->successors);
    free(cfg->ipdom);
    *cfg = (ptx_cfg){0};
}

int ptx_cfg_set_reconvergence(ptx_function *function, sc_error *error)
{
    ptx_cfg cfg;
    if (ptx_cfg_build(function, &cfg, error) < 0)
        return -1;
    for (int32_t i = 0; i < function->instruction_count; i++) {
        ptx_instruction *instruction = &function->instructions[i];
        if (instruction->opcode == PTX_OP_BRA)
            instruction->reconverge = cfg.block_start[cfg.ipdom[cfg.block_of[i]]];
    }
    ptx_cfg_free(&cfg);
    return 0;
}
