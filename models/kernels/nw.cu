// nw.cu — one diagonal of 16 x 16 tiles of the Needleman-Wunsch global alignment score matrix,
// structured like Rodinia's nw. The matrix has (length + 1) x (length + 1) cells, row 0 and
// column 0 preset by the host, length a multiple of NW_TILE. The host launches one grid per
// diagonal of tiles (2 * length / NW_TILE - 1 launches); each CTA of NW_TILE threads copies its
// tile's top row, left column and corner into shared memory, fills the tile one anti-diagonal
// at a time (cell (i, j) takes the best of a match/mismatch from (i-1, j-1) and a gap from
// (i-1, j) or (i, j-1)), and writes the tile back row by row.

#define NW_TILE 16

extern "C" __global__ void nw_tiles(int *score, const unsigned char *a, const unsigned char *b, unsigned length,
                                    unsigned tile_diagonal, int match, int mismatch, int gap)
{
    __shared__ int tile[NW_TILE + 1][NW_TILE + 1];
    __shared__ unsigned char row_base[NW_TILE], column_base[NW_TILE];
    unsigned tiles = length / NW_TILE;
    unsigned first_tile_row = tile_diagonal >= tiles ? tile_diagonal - tiles + 1 : 0;
    unsigned tile_row = first_tile_row + blockIdx.x;
    unsigned tile_column = tile_diagonal - tile_row;
    unsigned width = length + 1;
    unsigned top = tile_row * NW_TILE, left = tile_column * NW_TILE;   // the tile's cells start at (top+1, left+1)
    unsigned t = threadIdx.x;

    if (t == 0)
        tile[0][0] = score[top * width + left];
    tile[0][t + 1] = score[top * width + left + t + 1];
    tile[t + 1][0] = score[(top + t + 1) * width + left];
    row_base[t] = a[top + t];
    column_base[t] = b[left + t];
    __syncthreads();

    for (unsigned step = 0; step < 2 * NW_TILE - 1; step++) {
        if (step >= t && step - t < NW_TILE) {
            unsigned r = t, c = step - t;
            int diagonal_score = tile[r][c] + (row_base[r] == column_base[c] ? match : mismatch);
            int up_score = tile[r][c + 1] - gap;
            int left_score = tile[r + 1][c] - gap;
            tile[r + 1][c + 1] = max(diagonal_score, max(up_score, left_score));
        }
        __syncthreads();
    }

    for (unsigned r = 0; r < NW_TILE; r++)
        score[(top + r + 1) * width + left + t + 1] = tile[r + 1][t + 1];
}
