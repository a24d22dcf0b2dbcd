// hsp.cu — Ren's HSP (Rodinia's hotspot): transient 2-D thermal simulation of a chip from its power
// map. One launch advances the temperature grid by `steps` (<= HSP_PYRAMID) time steps with the
// pyramid scheme: a CTA loads its output tile plus a halo of HSP_PYRAMID cells into shared
// memory, computes the steps there (the valid region shrinking by one cell per side and step,
// CTA barriers between steps) and writes only its output tile. The output tile is
// HSP_TILE_X x HSP_TILE_Y cells: 32 floats, one 128-byte cache block, per row, so with a row
// length that is a multiple of 32 no two CTAs write the same block (the thesis's change to avoid
// false sharing). Cell update (neighbours outside the chip are the cell itself):
//   T' = T + step_div_cap * (P + (N + S - 2T) * ry1 + (E + W - 2T) * rx1 + (ambient - T) * rz1)
// Expects blockDim = (HSP_TILE_X + 2 * HSP_PYRAMID, HSP_TILE_Y + 2 * HSP_PYRAMID).

#define HSP_PYRAMID 2
#define HSP_TILE_X 32
#define HSP_TILE_Y 8
#define HSP_BX (HSP_TILE_X + 2 * HSP_PYRAMID)
#define HSP_BY (HSP_TILE_Y + 2 * HSP_PYRAMID)

extern "C" __global__ void hsp_step(const float *power, const float *in, float *out, unsigned rows, unsigned cols,
                                    unsigned steps, float step_div_cap, float rx1, float ry1, float rz1, float ambient)
{
    __shared__ float temp[HSP_BY][HSP_BX], heat[HSP_BY][HSP_BX], next[HSP_BY][HSP_BX];
    int tx = threadIdx.x, ty = threadIdx.y;
    int gx = (int)(blockIdx.x * HSP_TILE_X) - HSP_PYRAMID + tx;
    int gy = (int)(blockIdx.y * HSP_TILE_Y) - HSP_PYRAMID + ty;
    bool on_chip = gx >= 0 && gy >= 0 && gx < (int)cols && gy < (int)rows;
    if (on_chip) {
        temp[ty][tx] = in[gy * cols + gx];
        heat[ty][tx] = power[gy * cols + gx];
    }
    __syncthreads();
    for (int s = 0; s < (int)steps; s++) {
        bool computed = false;
        if (on_chip && tx > s && ty > s && tx < HSP_BX - 1 - s && ty < HSP_BY - 1 - s) {
            float t = temp[ty][tx];
            float north = gy == 0 ? t : temp[ty - 1][tx];
            float south = gy == (int)rows - 1 ? t : temp[ty + 1][tx];
            float west = gx == 0 ? t : temp[ty][tx - 1];
            float east = gx == (int)cols - 1 ? t : temp[ty][tx + 1];
            next[ty][tx] = t + step_div_cap * (heat[ty][tx] + (north + south - 2.0f * t) * ry1 +
                                               (east + west - 2.0f * t) * rx1 + (ambient - t) * rz1);
            computed = true;
        }
        __syncthreads();
        if (computed)
            temp[ty][tx] = next[ty][tx];
        __syncthreads();
    }
    if (on_chip && tx >= HSP_PYRAMID && ty >= HSP_PYRAMID && tx < HSP_BX - HSP_PYRAMID && ty < HSP_BY - HSP_PYRAMID)
        out[gy * cols + gx] = temp[ty][tx];
}
