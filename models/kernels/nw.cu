// nw.cu — one anti-diagonal of the Needleman-Wunsch global alignment score matrix. The matrix
// has (length + 1) x (length + 1) cells, row 0 and column 0 preset by the host; cell (i, j) with
// i + j == diagonal takes the best of a match/mismatch from (i-1, j-1) and a gap from (i-1, j)
// or (i, j-1). The host launches one small kernel per diagonal, 2 * length - 1 in all.

extern "C" __global__ void nw_diagonal(int *score, const unsigned char *a, const unsigned char *b,
                                       unsigned length, unsigned diagonal, int match,
                                       int mismatch, int gap)
{
    unsigned first_row = diagonal > length ? diagonal - length : 1;
    unsigned i = first_row + blockIdx.x * blockDim.x + threadIdx.x;
    unsigned j = diagonal - i;
    if (i > length || i >= diagonal)
        return;
    unsigned width = length + 1;
    int diagonal_score = score[(i - 1) * width + j - 1] + (a[i - 1] == b[j - 1] ? match : mismatch);
    int up_score = score[(i - 1) * width + j] - gap;
    int left_score = score[i * width + j - 1] - gap;
    score[i * width + j] = max(diagonal_score, max(up_score, left_score));
}
