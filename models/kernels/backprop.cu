// backprop.cu — one training step of Rodinia's back-propagation network (input layer of n units
// plus a bias unit, 16 hidden units, one output), the two kernels Rodinia offloads to the GPU.
// The weights from the input layer to the hidden layer are one (n + 1) x (hidden + 1) row-major
// array (row = input unit, column = hidden unit; row 0 and column 0 belong to the bias units),
// so each row is 17 floats and CTAs' rows share cache lines at their edges.
//
// backprop_layer_forward: CTA by handles input units 16*by+1 .. 16*by+16 (threadIdx.y) for
//   every hidden unit (threadIdx.x): each thread multiplies its weight by its input unit, the
//   CTA sums the 16 products of each hidden unit by a tree in shared memory, and thread row 0
//   writes the 16 sums to partial_sums[by][*]. As in Rodinia, the tree is also written back over
//   the weights, which is why the host copies the weights to the device again before adjusting.
// backprop_adjust_weights: every weight w[row][col] moves by
//   change = ETA * delta[col] * layer[row] + MOMENTUM * old[row][col], and old[row][col] becomes
//   change; the bias row 0 is adjusted by the first CTA's first thread row (layer value 1).

#define BP_HEIGHT 16   // input units per CTA (blockDim.y)
#define BP_WIDTH 16    // hidden units (blockDim.x)
#define BP_ETA 0.3f
#define BP_MOMENTUM 0.3f

extern "C" __global__ void backprop_layer_forward(const float *input, float *weights, float *partial_sums,
                                                  unsigned hidden)
{
    __shared__ float input_node[BP_HEIGHT];
    __shared__ float products[BP_HEIGHT][BP_WIDTH];
    unsigned tx = threadIdx.x, ty = threadIdx.y;
    unsigned row = BP_HEIGHT * blockIdx.y + ty + 1;   // input unit; unit 0 is the bias
    unsigned index = (hidden + 1) * row + tx + 1;     // weight from input unit `row` to hidden unit tx + 1
    if (tx == 0)
        input_node[ty] = input[row];
    __syncthreads();
    products[ty][tx] = weights[index] * input_node[ty];
    __syncthreads();
    for (unsigned stride = 1; stride < BP_HEIGHT; stride *= 2) {
        if (ty % (2 * stride) == 0)
            products[ty][tx] += products[ty + stride][tx];
        __syncthreads();
    }
    weights[index] = products[ty][tx];
    __syncthreads();
    if (tx == 0)
        partial_sums[blockIdx.y * hidden + ty] = products[0][ty];
}

extern "C" __global__ void backprop_adjust_weights(const float *delta, unsigned hidden, const float *layer,
                                                   float *weights, float *old_weights)
{
    unsigned tx = threadIdx.x, ty = threadIdx.y;
    unsigned row = BP_HEIGHT * blockIdx.y + ty + 1;
    unsigned column = tx + 1;
    unsigned index = (hidden + 1) * row + column;
    float change = BP_ETA * delta[column] * layer[row] + BP_MOMENTUM * old_weights[index];
    weights[index] += change;
    old_weights[index] = change;
    __syncthreads();
    if (ty == 0 && blockIdx.y == 0) {   // the bias row: its input unit is 1
        float bias_change = BP_ETA * delta[column] + BP_MOMENTUM * old_weights[column];
        weights[column] += bias_change;
        old_weights[column] = bias_change;
    }
}
