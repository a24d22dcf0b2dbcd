/* backprop.c — driver of the Rodinia back-propagation workload: one training step of a network
 * with n input units, 16 hidden units and one output, with the host/GPU split of Rodinia's
 * bpnn_train_cuda:
 *   1. the host writes the input units and the input-to-hidden weights to the device;
 *   2. backprop_layer_forward gives, per CTA of 16 input units, each hidden unit's partial sum
 *      (and, as in Rodinia, leaves its reduction tree over the device weights);
 *   3. the host reads the partial sums, finishes the forward pass on the CPU (hidden units,
 *      output unit), computes the output and hidden errors, and writes the hidden deltas, the
 *      previous weight changes and the input-to-hidden weights to the device again;
 *   4. backprop_adjust_weights moves every input-to-hidden weight;
 *   5. the host reads the input units and the adjusted weights back.
 * So the GPU's inputs are freshly written by the CPU before each kernel and its outputs are read
 * by the CPU after it: the CPU-GPU data pulling that QuickRelease finds dominating backprop.
 * (Rodinia also adjusts the hidden-to-output weights on the CPU; no GPU buffer depends on them,
 * so that step is left out.)
 *
 * The check recomputes everything on the host: the partial sums with the kernel's tree order, the
 * host phase from them, and the adjusted weights with the operations in the order of the PTX
 * (fused multiply-adds where nvcc contracts), then compares the device's partial sums, input
 * units (which no kernel changes) and adjusted weights with them.
 */
#include <math.h>

#include "workloads/workload_support.h"

#define BP_HEIGHT 16             /* input units per CTA, blockDim.y (backprop.cu) */
#define BP_HIDDEN 16             /* hidden units, blockDim.x */
#define BP_COLUMNS (BP_HIDDEN + 1)   /* a weight row: the bias hidden unit, then the hidden units */
#define BP_ETA 0.3f
#define BP_MOMENTUM 0.3f
#define BP_TARGET 0.1f

/* The network's host arrays, as Rodinia's bpnn_create lays them out (index 0 = bias unit). */
typedef struct backprop_net {
    uint32_t inputs;                        /* input units, not counting the bias */
    uint32_t blocks;                        /* CTAs: inputs / BP_HEIGHT */
    float *input_units;                     /* inputs + 1 */
    float *input_weights;                   /* (inputs + 1) x BP_COLUMNS */
    float *input_prev_weights;              /* the previous step's changes */
    float hidden_weights[BP_COLUMNS];       /* hidden unit j -> the output unit */
} backprop_net;

static float squash(float x)
{
    return (float)(1.0 / (1.0 + exp(-x)));
}

/* Step 3's CPU work: from the partial sums to the hidden units' deltas (delta[0] unused). */
static void host_phase(const backprop_net *net, const float *partial_sums, float delta[BP_COLUMNS])
{
    float hidden[BP_COLUMNS];
    hidden[0] = 1.0f;
    for (int j = 1; j <= BP_HIDDEN; j++) {
        float sum = 0.0f;
        for (uint32_t b = 0; b < net->blocks; b++)
            sum += partial_sums[b * BP_HIDDEN + j - 1];
        hidden[j] = squash(sum + net->input_weights[j]);
    }
    float sum = 0.0f;
    for (int j = 0; j <= BP_HIDDEN; j++)
        sum += net->hidden_weights[j] * hidden[j];
    float output = squash(sum);
    float output_delta = output * (1.0f - output) * (BP_TARGET - output);
    delta[0] = 0.0f;
    for (int j = 1; j <= BP_HIDDEN; j++)
        delta[j] = hidden[j] * (1.0f - hidden[j]) * output_delta * net->hidden_weights[j];
}

/* What the host reads from the device. */
typedef struct backprop_results {
    float *partial_sums;     /* blocks x BP_HIDDEN, after the forward kernel */
    float *input_units;      /* inputs + 1, after the adjust kernel (unchanged by it) */
    float *weights;          /* (inputs + 1) x BP_COLUMNS, adjusted */
} backprop_results;

/* Steps 1-5 on the device. */
static int backprop_on_device(sc_device *device, const backprop_net *net, const backprop_results *read,
                              sc_error *error)
{
    int module = sc_device_load_builtin_ptx(device, "backprop", error);
    if (module < 0)
        return -1;
    size_t unit_bytes = ((size_t)net->inputs + 1) * sizeof(float);
    size_t weight_bytes = ((size_t)net->inputs + 1) * BP_COLUMNS * sizeof(float);
    size_t partial_bytes = (size_t)net->blocks * BP_HIDDEN * sizeof(float);
    uint64_t units_dev = sc_workload_upload(device, net->input_units, unit_bytes, error);
    uint64_t weights_dev = sc_workload_upload(device, net->input_weights, weight_bytes, error);
    uint64_t partial_dev = sc_workload_alloc(device, partial_bytes, error);
    uint64_t delta_dev = sc_workload_alloc(device, BP_COLUMNS * sizeof(float), error);
    uint64_t prev_dev = sc_workload_alloc(device, weight_bytes, error);
    if (units_dev == 0 || weights_dev == 0 || partial_dev == 0 || delta_dev == 0 || prev_dev == 0)
        return -1;
    sc_dim3 grid = {1, net->blocks, 1}, block = {BP_HIDDEN, BP_HEIGHT, 1};
    sc_kernel_arg forward_args[] = {sc_arg_ptr(units_dev), sc_arg_ptr(weights_dev), sc_arg_ptr(partial_dev),
                                    sc_arg_u32(BP_HIDDEN)};
    if (sc_launch_kernel(device, module, "backprop_layer_forward", grid, block, 0, forward_args, 4, error) < 0 ||
        sc_memcpy_from_device(device, read->partial_sums, partial_dev, partial_bytes, error) < 0)
        return -1;
    float delta[BP_COLUMNS];
    host_phase(net, read->partial_sums, delta);
    sc_kernel_arg adjust_args[] = {sc_arg_ptr(delta_dev), sc_arg_u32(BP_HIDDEN), sc_arg_ptr(units_dev),
                                   sc_arg_ptr(weights_dev), sc_arg_ptr(prev_dev)};
    if (sc_memcpy_to_device(device, delta_dev, delta, sizeof delta, error) < 0 ||
        sc_memcpy_to_device(device, prev_dev, net->input_prev_weights, weight_bytes, error) < 0 ||
        sc_memcpy_to_device(device, weights_dev, net->input_weights, weight_bytes, error) < 0 ||
        sc_launch_kernel(device, module, "backprop_adjust_weights", grid, block, 0, adjust_args, 5, error) < 0 ||
        sc_memcpy_from_device(device, read->input_units, units_dev, unit_bytes, error) < 0)
        return -1;
    return sc_memcpy_from_device(device, read->weights, weights_dev, weight_bytes, error);
}

/* The forward kernel's partial sums: per CTA, products summed by the same stride-doubling tree. */
static void reference_partial_sums(const backprop_net *net, float *partial_sums)
{
    for (uint32_t b = 0; b < net->blocks; b++)
        for (int j = 0; j < BP_HIDDEN; j++) {
            float products[BP_HEIGHT];
            for (int r = 0; r < BP_HEIGHT; r++) {
                uint32_t row = b * BP_HEIGHT + (uint32_t)r + 1;
                products[r] = net->input_weights[(size_t)row * BP_COLUMNS + (uint32_t)j + 1] * net->input_units[row];
            }
            for (int stride = 1; stride < BP_HEIGHT; stride *= 2)
                for (int r = 0; r < BP_HEIGHT; r += 2 * stride)
                    products[r] += products[r + stride];
            partial_sums[b * BP_HIDDEN + (uint32_t)j] = products[0];
        }
}

/* The adjust kernel: change = ETA * delta * unit + MOMENTUM * previous change, with nvcc's
 * contraction fma(ETA * delta, unit, MOMENTUM * previous); the bias row's unit is 1. Column 0
 * (into the bias hidden unit) keeps the weights the host wrote. */
static void reference_adjust(const backprop_net *net, const float delta[BP_COLUMNS], float *weights)
{
    for (uint32_t row = 0; row <= net->inputs; row++) {
        weights[(size_t)row * BP_COLUMNS] = net->input_weights[(size_t)row * BP_COLUMNS];
        for (uint32_t column = 1; column < BP_COLUMNS; column++) {
            size_t index = (size_t)row * BP_COLUMNS + column;
            float momentum = BP_MOMENTUM * net->input_prev_weights[index];
            float change = row == 0 ? fmaf(delta[column], BP_ETA, momentum)
                                    : fmaf(BP_ETA * delta[column], net->input_units[row], momentum);
            weights[index] = net->input_weights[index] + change;
        }
    }
}

static int run_backprop(sc_device *device, const sc_workload_params *params, sc_check_result *check,
                        sc_error *error)
{
    backprop_net net = {.inputs = sc_size_pick(params->size, 256, 4096, 65536, 524288)};
    net.blocks = net.inputs / BP_HEIGHT;
    sc_scratch scratch = {0};
    sc_rng rng;
    sc_rng_seed(&rng, params->seed, 17);
    size_t weight_count = ((size_t)net.inputs + 1) * BP_COLUMNS;
    /* Rodinia draws every weight from [0, 1), which drives each hidden unit's sum to about n / 4,
     * so every hidden unit saturates at 1, every delta is 0 and the adjustment changes nothing. The
     * weights here are scaled so that a sum has a standard deviation of about 1, and the previous
     * changes are those of a step in mid-training, so the check covers every term. */
    float scale = 3.0f / sqrtf((float)net.inputs);
    net.input_units = sc_random_floats(&scratch, &rng, (size_t)net.inputs + 1, 0.0f, 1.0f);
    net.input_weights = sc_random_floats(&scratch, &rng, weight_count, -scale, scale);
    net.input_prev_weights = sc_random_floats(&scratch, &rng, weight_count, -0.01f, 0.01f);
    for (int j = 0; j <= BP_HIDDEN; j++)
        net.hidden_weights[j] = sc_rng_float(&rng, -1.0f, 1.0f);
    size_t partial_count = (size_t)net.blocks * BP_HIDDEN;
    backprop_results read = {
        .partial_sums = sc_scratch_alloc(&scratch, partial_count * sizeof(float)),
        .input_units = sc_scratch_alloc(&scratch, ((size_t)net.inputs + 1) * sizeof(float)),
        .weights = sc_scratch_alloc(&scratch, weight_count * sizeof(float)),
    };
    int status = backprop_on_device(device, &net, &read, error);
    if (status == 0) {
        float *expected_partial = sc_scratch_alloc(&scratch, partial_count * sizeof(float));
        float *expected_weights = sc_scratch_alloc(&scratch, weight_count * sizeof(float));
        float delta[BP_COLUMNS];
        reference_partial_sums(&net, expected_partial);
        host_phase(&net, expected_partial, delta);
        reference_adjust(&net, delta, expected_weights);
        if (sc_compare_f32(check, "partial_sums", read.partial_sums, expected_partial, partial_count, 1e-6f) &&
            sc_compare_f32(check, "input_units", read.input_units, net.input_units, (size_t)net.inputs + 1, 0.0f))
            sc_compare_f32(check, "weights", read.weights, expected_weights, weight_count, 1e-6f);
    }
    sc_scratch_release(&scratch);
    return status;
}

const sc_workload sc_workload_backprop = {
    .name = "backprop",
    .description = "Rodinia back-propagation step: GPU layer forward and weight adjust, host hidden/output layers between",
    .behaviour = "CPU writes inputs and weights before each kernel and reads results after: CPU-GPU data pulling",
    .run = run_backprop,
};
