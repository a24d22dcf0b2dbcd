/* nw.c — driver of the Needleman-Wunsch workload: the global alignment score matrix of two
 * random DNA sequences, filled as Rodinia's nw fills it: 16 x 16 tiles, one launch per diagonal
 * of tiles, each tile reading the row above it and the column left of it. The check compares
 * every cell with the host's dynamic program.
 */
#include "workloads/workload_support.h"

#define NW_TILE 16   /* NW_TILE of nw.cu: a CTA of NW_TILE threads fills one tile */
#define NW_MATCH 3
#define NW_MISMATCH (-1)
#define NW_GAP 2

static int32_t best_of_three(int32_t x, int32_t y, int32_t z)
{
    int32_t best = x > y ? x : y;
    return best > z ? best : z;
}

/* The border every alignment starts from: row 0 and column 0 are gap penalties. */
static void nw_border(int32_t *score, uint32_t length)
{
    uint32_t width = length + 1;
    for (uint32_t k = 0; k <= length; k++) {
        score[k] = -(int32_t)k * NW_GAP;
        score[k * width] = -(int32_t)k * NW_GAP;
    }
}

static void nw_reference(const uint8_t *a, const uint8_t *b, uint32_t length, int32_t *score)
{
    uint32_t width = length + 1;
    nw_border(score, length);
    for (uint32_t i = 1; i <= length; i++)
        for (uint32_t j = 1; j <= length; j++)
            score[i * width + j] = best_of_three(
                score[(i - 1) * width + j - 1] + (a[i - 1] == b[j - 1] ? NW_MATCH : NW_MISMATCH),
                score[(i - 1) * width + j] - NW_GAP, score[i * width + j - 1] - NW_GAP);
}

static int nw_on_device(sc_device *device, const uint8_t *a, const uint8_t *b, uint32_t length, int32_t *score,
                        sc_error *error)
{
    int module = sc_device_load_builtin_ptx(device, "nw", error);
    if (module < 0)
        return -1;
    size_t bytes = (size_t)(length + 1) * (length + 1) * sizeof *score;
    nw_border(score, length);
    uint64_t score_dev = sc_workload_upload(device, score, bytes, error);
    uint64_t a_dev = sc_workload_upload(device, a, length, error);
    uint64_t b_dev = sc_workload_upload(device, b, length, error);
    if (score_dev == 0 || a_dev == 0 || b_dev == 0)
        return -1;
    uint32_t tiles = length / NW_TILE;
    for (uint32_t tile_diagonal = 0; tile_diagonal < 2 * tiles - 1; tile_diagonal++) {
        uint32_t first_tile_row = tile_diagonal >= tiles ? tile_diagonal - tiles + 1 : 0;
        uint32_t last_tile_row = tile_diagonal < tiles ? tile_diagonal : tiles - 1;
        sc_kernel_arg args[] = {sc_arg_ptr(score_dev), sc_arg_ptr(a_dev), sc_arg_ptr(b_dev), sc_arg_u32(length),
                                sc_arg_u32(tile_diagonal), sc_arg_i32(NW_MATCH), sc_arg_i32(NW_MISMATCH),
                                sc_arg_i32(NW_GAP)};
        if (sc_launch_1d(device, module, "nw_tiles", last_tile_row - first_tile_row + 1, NW_TILE, args, 8, error) < 0)
            return -1;
    }
    return sc_memcpy_from_device(device, score, score_dev, bytes, error);
}

static int run_nw(sc_device *device, const sc_workload_params *params, sc_check_result *check,
                  sc_error *error)
{
    uint32_t length = sc_size_pick(params->size, 48, 256, 768, 768);   /* multiples of NW_TILE */
    size_t cells = (size_t)(length + 1) * (length + 1);
    sc_scratch scratch = {0};
    sc_rng rng;
    sc_rng_seed(&rng, params->seed, 8);
    uint8_t *a = sc_scratch_alloc(&scratch, length), *b = sc_scratch_alloc(&scratch, length);
    for (uint32_t k = 0; k < length; k++) {
        a[k] = (uint8_t)"ACGT"[sc_rng_below(&rng, 4)];
        b[k] = (uint8_t)"ACGT"[sc_rng_below(&rng, 4)];
    }
    int32_t *score = sc_scratch_alloc(&scratch, cells * sizeof *score);
    int status = nw_on_device(device, a, b, length, score, error);
    if (status == 0) {
        int32_t *expected = sc_scratch_alloc(&scratch, cells * sizeof *expected);
        nw_reference(a, b, length, expected);
        sc_compare_i32(check, "score", score, expected, cells);
    }
    sc_scratch_release(&scratch);
    return status;
}

const sc_workload sc_workload_nw = {
    .name = "nw",
    .description = "Needleman-Wunsch alignment scores in 16x16 tiles, one launch per diagonal of tiles",
    .behaviour = "wavefront dependences, many small launches, each cell written once",
    .run = run_nw,
};
