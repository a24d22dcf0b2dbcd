// spmv.cu — sparse matrix-vector product y = A x with A in CSR form, one row per thread
// (the scalar CSR kernel). Irregular, data-dependent gathers from x.

extern "C" __global__ void spmv_csr(unsigned rows, const unsigned *row_offsets,
                                    const unsigned *columns, const float *values, const float *x,
                                    float *y)
{
    unsigned row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= rows)
        return;
    float sum = 0.0f;
    for (unsigned k = row_offsets[row]; k < row_offsets[row + 1]; k++)
        sum += values[k] * x[columns[k]];
    y[row] = sum;
}
