/* cl.c — driver of the CL workload (Ren's Table 3.4: the RopaDemo cloth kernels of Brownsword's
 * "Cloth in OpenCL", GDC 2009): a width x height cloth lying flat, pinned at its two near corners,
 * falls under gravity. Each frame is one Verlet launch (cl_integrate) and then, per solver
 * iteration, one cl_solve launch per batch of distance links (cl.cu). The links are structural
 * (horizontal, vertical) and shear (both diagonals), each kind split into two batches by the
 * parity of its first particle's row or column, so no two links of a batch share a particle.
 * The check compares the final positions with the same frames computed on the host.
 */
#include <math.h>

#include "workloads/workload_support.h"

#define CL_BLOCK 128
#define CL_BATCHES 8
#define CL_SPACING 0.1f
#define CL_DAMPING 0.99f
#define CL_STIFFNESS 0.8f

/* The links, batch after batch: batch b is links [offset[b], offset[b + 1]). */
typedef struct cl_links {
    uint32_t *first, *second;
    float *rest;
    uint32_t offset[CL_BATCHES + 1];
} cl_links;

/* Appends the links of kind `kind` whose parity key is `parity` (see the file comment). */
static uint32_t cl_add_batch(cl_links *links, uint32_t count, uint32_t width, uint32_t height, int kind, uint32_t parity)
{
    static const int step[4][4] = {{0, 0, 1, 0}, {0, 0, 0, 1}, {0, 0, 1, 1}, {1, 0, 0, 1}};   /* a: +i,+j; b: +i,+j */
    float rest = kind < 2 ? CL_SPACING : CL_SPACING * sqrtf(2.0f);
    for (uint32_t j = 0; j < height; j++)
        for (uint32_t i = 0; i < width; i++) {
            uint32_t ai = i + (uint32_t)step[kind][0], aj = j + (uint32_t)step[kind][1];
            uint32_t bi = i + (uint32_t)step[kind][2], bj = j + (uint32_t)step[kind][3];
            uint32_t key = kind == 1 ? j : i;
            if (ai >= width || bi >= width || aj >= height || bj >= height || key % 2 != parity)
                continue;
            links->first[count] = aj * width + ai;
            links->second[count] = bj * width + bi;
            links->rest[count] = rest;
            count++;
        }
    return count;
}

static void cl_make_links(sc_scratch *scratch, uint32_t width, uint32_t height, cl_links *links)
{
    size_t capacity = (size_t)4 * width * height;
    links->first = sc_scratch_alloc(scratch, capacity * sizeof(uint32_t));
    links->second = sc_scratch_alloc(scratch, capacity * sizeof(uint32_t));
    links->rest = sc_scratch_alloc(scratch, capacity * sizeof(float));
    uint32_t count = 0;
    for (int b = 0; b < CL_BATCHES; b++) {
        links->offset[b] = count;
        count = cl_add_batch(links, count, width, height, b / 2, (uint32_t)b % 2);
    }
    links->offset[CL_BATCHES] = count;
}

/* The particles: positions (x, y, z), previous positions and inverse masses. */
typedef struct cl_cloth {
    float *p[3], *previous[3], *inverse_mass;
    uint32_t n;
} cl_cloth;

/* One frame on the host; mirrors cl.cu. */
static void cl_reference_frame(cl_cloth *c, const cl_links *links, uint32_t iterations, float gravity_dt2)
{
    for (uint32_t i = 0; i < c->n; i++) {
        if (c->inverse_mass[i] == 0.0f)
            continue;
        float now[3] = {c->p[0][i], c->p[1][i], c->p[2][i]};
        for (int d = 0; d < 3; d++)
            c->p[d][i] = now[d] + CL_DAMPING * (now[d] - c->previous[d][i]) + (d == 1 ? gravity_dt2 : 0.0f);
        for (int d = 0; d < 3; d++)
            c->previous[d][i] = now[d];
    }
    for (uint32_t it = 0; it < iterations; it++)
        for (uint32_t l = 0; l < links->offset[CL_BATCHES]; l++) {
            uint32_t a = links->first[l], b = links->second[l];
            float wa = c->inverse_mass[a], wb = c->inverse_mass[b];
            if (wa + wb == 0.0f)
                continue;
            float delta[3];
            for (int d = 0; d < 3; d++)
                delta[d] = c->p[d][b] - c->p[d][a];
            float length = sqrtf(delta[0] * delta[0] + delta[1] * delta[1] + delta[2] * delta[2]);
            float k = CL_STIFFNESS * (length - links->rest[l]) / (length * (wa + wb));
            for (int d = 0; d < 3; d++) {
                c->p[d][a] += wa * k * delta[d];
                c->p[d][b] -= wb * k * delta[d];
            }
        }
}

static int cl_on_device(sc_device *device, const cl_cloth *c, const cl_links *links, uint32_t frames,
                        uint32_t iterations, float gravity_dt2, float *result[3], sc_error *error)
{
    int module = sc_device_load_builtin_ptx(device, "cl", error);
    if (module < 0)
        return -1;
    size_t bytes = (size_t)c->n * sizeof(float), link_count = links->offset[CL_BATCHES];
    uint64_t p[3], previous[3];
    for (int d = 0; d < 3; d++) {
        p[d] = sc_workload_upload(device, c->p[d], bytes, error);
        previous[d] = sc_workload_upload(device, c->previous[d], bytes, error);
        if (!p[d] || !previous[d])
            return -1;
    }
    uint64_t inverse_mass = sc_workload_upload(device, c->inverse_mass, bytes, error);
    uint64_t first = sc_workload_upload(device, links->first, link_count * sizeof(uint32_t), error);
    uint64_t second = sc_workload_upload(device, links->second, link_count * sizeof(uint32_t), error);
    uint64_t rest = sc_workload_upload(device, links->rest, link_count * sizeof(float), error);
    if (!inverse_mass || !first || !second || !rest)
        return -1;
    for (uint32_t f = 0; f < frames; f++) {
        sc_kernel_arg integrate[] = {sc_arg_ptr(p[0]),        sc_arg_ptr(p[1]),        sc_arg_ptr(p[2]),
                                     sc_arg_ptr(previous[0]), sc_arg_ptr(previous[1]), sc_arg_ptr(previous[2]),
                                     sc_arg_ptr(inverse_mass), sc_arg_u32(c->n),       sc_arg_f32(CL_DAMPING),
                                     sc_arg_f32(gravity_dt2)};
        if (sc_launch_1d(device, module, "cl_integrate", sc_blocks_for(c->n, CL_BLOCK), CL_BLOCK, integrate, 10,
                         error) < 0)
            return -1;
        for (uint32_t it = 0; it < iterations; it++)
            for (int b = 0; b < CL_BATCHES; b++) {
                uint32_t start = links->offset[b], count = links->offset[b + 1] - start;
                sc_kernel_arg solve[] = {sc_arg_ptr(first + start * sizeof(uint32_t)),
                                         sc_arg_ptr(second + start * sizeof(uint32_t)),
                                         sc_arg_ptr(rest + start * sizeof(float)),
                                         sc_arg_u32(count),
                                         sc_arg_ptr(p[0]),
                                         sc_arg_ptr(p[1]),
                                         sc_arg_ptr(p[2]),
                                         sc_arg_ptr(inverse_mass),
                                         sc_arg_f32(CL_STIFFNESS)};
                if (sc_launch_1d(device, module, "cl_solve", sc_blocks_for(count, CL_BLOCK), CL_BLOCK, solve, 9,
                                 error) < 0)
                    return -1;
            }
    }
    for (int d = 0; d < 3; d++)
        if (sc_memcpy_from_device(device, result[d], p[d], bytes, error) < 0)
            return -1;
    return 0;
}

static int run_cl(sc_device *device, const sc_workload_params *params, sc_check_result *check, sc_error *error)
{
    uint32_t width = sc_size_pick(params->size, 16, 64, 128, 256);
    uint32_t height = sc_size_pick(params->size, 16, 64, 128, 256);
    uint32_t frames = sc_size_pick(params->size, 1, 2, 4, 4);
    uint32_t iterations = sc_size_pick(params->size, 2, 4, 4, 4);
    float dt = 1.0f / 60.0f, gravity_dt2 = -9.8f * dt * dt;
    sc_scratch scratch = {0};
    sc_rng rng;
    sc_rng_seed(&rng, params->seed, 37);
    cl_cloth cloth = {.n = width * height};
    size_t bytes = (size_t)cloth.n * sizeof(float);
    for (int d = 0; d < 3; d++) {
        cloth.p[d] = sc_scratch_alloc(&scratch, bytes);
        cloth.previous[d] = sc_scratch_alloc(&scratch, bytes);
    }
    cloth.inverse_mass = sc_scratch_alloc(&scratch, bytes);
    for (uint32_t j = 0; j < height; j++)
        for (uint32_t i = 0; i < width; i++) {
            uint32_t k = j * width + i;
            cloth.p[0][k] = cloth.previous[0][k] = (float)i * CL_SPACING;
            cloth.p[1][k] = cloth.previous[1][k] = sc_rng_float(&rng, -0.01f, 0.01f);   /* a slightly rumpled start */
            cloth.p[2][k] = cloth.previous[2][k] = (float)j * CL_SPACING;
            cloth.inverse_mass[k] = j == 0 && (i == 0 || i == width - 1) ? 0.0f : sc_rng_float(&rng, 0.8f, 1.2f);
        }
    cl_links links;
    cl_make_links(&scratch, width, height, &links);
    float *result[3];
    for (int d = 0; d < 3; d++)
        result[d] = sc_scratch_alloc(&scratch, bytes);
    int status = cl_on_device(device, &cloth, &links, frames, iterations, gravity_dt2, result, error);
    if (status == 0) {
        for (uint32_t f = 0; f < frames; f++)
            cl_reference_frame(&cloth, &links, iterations, gravity_dt2);
        static const char *const names[3] = {"x", "y", "z"};
        for (int d = 0; d < 3 && sc_compare_f32(check, names[d], result[d], cloth.p[d], cloth.n, 1e-5f); d++)
            ;
    }
    sc_scratch_release(&scratch);
    return status;
}

const sc_workload sc_workload_cl = {
    .name = "cl",
    .description = "cloth physics (RopaDemo): Verlet step, then distance links solved batch by batch, a launch per batch",
    .behaviour = "inter-workgroup: particles written by one CTA are read by others in the next batch launch (Ren's CL)",
    .run = run_cl,
};
