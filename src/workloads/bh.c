/* bh.c — driver of the BH workload (Ren's Table 3.4: the Barnes-Hut n-body kernel of Burtscher
 * and Pingali): one time step of n bodies (uniform in a cube, masses around 1/n, small random
 * velocities) through bh.cu's five kernels: bounding box, concurrent octree build with locked
 * child slots, bottom-up centres of mass with ready flags, tree-walk forces and leapfrog
 * integration. The octree of a set of bodies in a given box is unique (one body per leaf), so the
 * host builds the same tree, the same centres of mass (explicitly rounded on both sides) and the
 * same cell approximations. The check compares the number of cells, the accelerations (measured
 * against their RMS: the force sums are contracted differently on the device), and the new
 * velocities and positions.
 */
#include <math.h>

#include "workloads/workload_support.h"

#define BH_EMPTY (-1)   /* must match bh.cu */
#define BH_THETA_SQUARED 0.25f
#define BH_SOFTENING_SQUARED 0.0025f
#define BH_DT 0.025f

/* The host octree: node ids as on the device (bodies 0..n-1, cells from n in creation order). */
typedef struct bh_tree {
    uint32_t n, cells, max_cells;
    float *x, *y, *z, *size, *mass;   /* n + max_cells entries */
    int32_t *child;                   /* 8 per cell */
} bh_tree;

static int octant(float px, float py, float pz, float cx, float cy, float cz)
{
    return (px > cx) << 2 | (py > cy) << 1 | (pz > cz);
}

static void child_centre(int o, float half, float *cx, float *cy, float *cz)
{
    float quarter = half * 0.5f;
    *cx = *cx + (o & 4 ? quarter : -quarter);
    *cy = *cy + (o & 2 ? quarter : -quarter);
    *cz = *cz + (o & 1 ? quarter : -quarter);
}

static int32_t new_cell(bh_tree *t, float cx, float cy, float cz, float half)
{
    int32_t cell = (int32_t)(t->n + t->cells);
    t->x[cell] = cx;
    t->y[cell] = cy;
    t->z[cell] = cz;
    t->size[cell] = half;
    for (int o = 0; o < 8; o++)
        t->child[8 * t->cells + o] = BH_EMPTY;
    t->cells++;
    return cell;
}

/* Inserts body i below the root, splitting leaves as bh_build does. */
static void bh_insert(bh_tree *t, uint32_t i)
{
    int32_t node = (int32_t)t->n;
    float cx = t->x[node], cy = t->y[node], cz = t->z[node], half = t->size[node];
    for (;;) {
        int o = octant(t->x[i], t->y[i], t->z[i], cx, cy, cz);
        int32_t *slot = &t->child[8 * (node - (int32_t)t->n) + o];
        child_centre(o, half, &cx, &cy, &cz);
        half *= 0.5f;
        if (*slot == BH_EMPTY) {
            *slot = (int32_t)i;
            return;
        }
        if (*slot < (int32_t)t->n) {   /* a body: replace it by a cell holding it */
            int32_t body = *slot;
            int32_t cell = new_cell(t, cx, cy, cz, half);
            t->child[8 * (cell - (int32_t)t->n) + octant(t->x[body], t->y[body], t->z[body], cx, cy, cz)] = body;
            *slot = cell;
        }
        node = *slot;
    }
}

/* Centre of mass of `node` (children in octant order, as bh_summarize). */
static float bh_summarize(bh_tree *t, int32_t node)
{
    if (node < (int32_t)t->n)
        return t->mass[node];
    float m = 0.0f, mx = 0.0f, my = 0.0f, mz = 0.0f;
    for (int o = 0; o < 8; o++) {
        int32_t c = t->child[8 * (node - (int32_t)t->n) + o];
        if (c < 0)
            continue;
        float w = bh_summarize(t, c);
        m = m + w;
        mx = mx + w * t->x[c];
        my = my + w * t->y[c];
        mz = mz + w * t->z[c];
    }
    t->x[node] = mx / m;
    t->y[node] = my / m;
    t->z[node] = mz / m;
    t->mass[node] = m;
    return m;
}

/* The acceleration of body i (the walk of bh_force). */
static void bh_force(const bh_tree *t, uint32_t i, int32_t *stack, float acceleration[3])
{
    float px = t->x[i], py = t->y[i], pz = t->z[i], f[3] = {0.0f, 0.0f, 0.0f};
    int depth = 0;
    stack[depth++] = (int32_t)t->n;
    while (depth > 0) {
        int32_t node = stack[--depth];
        float dx = t->x[node] - px, dy = t->y[node] - py, dz = t->z[node] - pz;
        float d2 = dx * dx + dy * dy + dz * dz;
        bool far = node < (int32_t)t->n;
        if (!far) {
            float s = t->size[node] * 2.0f;
            far = s * s < BH_THETA_SQUARED * d2;
        }
        if (far) {
            if (node != (int32_t)i) {
                float r2 = d2 + BH_SOFTENING_SQUARED;
                float scale = t->mass[node] / (r2 * sqrtf(r2));
                f[0] += dx * scale;
                f[1] += dy * scale;
                f[2] += dz * scale;
            }
        } else {
            for (int o = 7; o >= 0; o--) {
                int32_t next = t->child[8 * (node - (int32_t)t->n) + o];
                if (next >= 0)
                    stack[depth++] = next;
            }
        }
    }
    for (int d = 0; d < 3; d++)
        acceleration[d] = f[d];
}

/* Builds the tree of the bodies already in t (box as bh_bound). */
static void bh_build(bh_tree *t)
{
    float lo[3] = {3.0e38f, 3.0e38f, 3.0e38f}, hi[3] = {-3.0e38f, -3.0e38f, -3.0e38f};
    float *axes[3] = {t->x, t->y, t->z};
    for (uint32_t i = 0; i < t->n; i++)
        for (int d = 0; d < 3; d++) {
            lo[d] = fminf(lo[d], axes[d][i]);
            hi[d] = fmaxf(hi[d], axes[d][i]);
        }
    float extent = fmaxf(fmaxf(hi[0] - lo[0], hi[1] - lo[1]), hi[2] - lo[2]);
    t->cells = 0;
    new_cell(t, (lo[0] + hi[0]) * 0.5f, (lo[1] + hi[1]) * 0.5f, (lo[2] + hi[2]) * 0.5f, extent * 0.5f);
    for (uint32_t i = 0; i < t->n; i++)
        bh_insert(t, i);
    bh_summarize(t, (int32_t)t->n);
}

/* Device arrays of one run. */
typedef struct bh_device {
    uint64_t x, y, z, size, mass, child, velocity[3], acceleration[3], partial, arrived, cells, overflow;
} bh_device;

static int bh_upload(sc_device *device, const bh_tree *t, float *const velocity[3], uint32_t ctas, bh_device *d,
                     sc_error *error)
{
    size_t nodes = (size_t)(t->n + t->max_cells) * sizeof(float), bodies = (size_t)t->n * sizeof(float);
    d->x = sc_workload_alloc(device, nodes, error);
    d->y = sc_workload_alloc(device, nodes, error);
    d->z = sc_workload_alloc(device, nodes, error);
    d->size = sc_workload_alloc(device, nodes, error);
    d->mass = sc_workload_alloc(device, nodes, error);
    d->child = sc_workload_alloc(device, (size_t)t->max_cells * 8 * sizeof(int32_t), error);
    d->partial = sc_workload_alloc(device, (size_t)ctas * 6 * sizeof(float), error);
    d->arrived = sc_workload_alloc(device, sizeof(uint32_t), error);
    d->cells = sc_workload_alloc(device, sizeof(uint32_t), error);
    d->overflow = sc_workload_alloc(device, sizeof(uint32_t), error);
    for (int k = 0; k < 3; k++) {
        d->velocity[k] = sc_workload_upload(device, velocity[k], bodies, error);
        d->acceleration[k] = sc_workload_alloc(device, bodies, error);
        if (!d->velocity[k] || !d->acceleration[k])
            return -1;
    }
    if (!d->x || !d->y || !d->z || !d->size || !d->mass || !d->child || !d->partial || !d->arrived || !d->cells ||
        !d->overflow)
        return -1;
    return sc_memcpy_to_device(device, d->x, t->x, bodies, error) < 0 ||
                   sc_memcpy_to_device(device, d->y, t->y, bodies, error) < 0 ||
                   sc_memcpy_to_device(device, d->z, t->z, bodies, error) < 0 ||
                   sc_memcpy_to_device(device, d->mass, t->mass, bodies, error) < 0
               ? -1
               : 0;
}

/* Runs the time step; fills the device's cell count, overflow flag, accelerations, velocities and
 * positions (3 arrays of n each in `out`: acceleration, velocity, position). */
static int bh_on_device(sc_device *device, const bh_tree *t, float *const velocity[3], uint32_t ctas, uint32_t block,
                        uint32_t *cells, uint32_t *overflow, float *out[9], sc_error *error)
{
    int module = sc_device_load_builtin_ptx(device, "bh", error);
    bh_device d;
    if (module < 0 || bh_upload(device, t, velocity, ctas, &d, error) < 0)
        return -1;
    sc_kernel_arg bound[] = {sc_arg_ptr(d.x),     sc_arg_ptr(d.y),       sc_arg_ptr(d.z),       sc_arg_ptr(d.size),
                             sc_arg_ptr(d.mass),  sc_arg_ptr(d.child),   sc_arg_u32(t->n),      sc_arg_ptr(d.partial),
                             sc_arg_ptr(d.arrived), sc_arg_ptr(d.cells)};
    sc_kernel_arg build[] = {sc_arg_ptr(d.x),    sc_arg_ptr(d.y),     sc_arg_ptr(d.z),          sc_arg_ptr(d.size),
                             sc_arg_ptr(d.mass), sc_arg_ptr(d.child), sc_arg_u32(t->n),         sc_arg_u32(t->max_cells),
                             sc_arg_ptr(d.cells), sc_arg_ptr(d.overflow)};
    sc_kernel_arg summarize[] = {sc_arg_ptr(d.x),     sc_arg_ptr(d.y), sc_arg_ptr(d.z), sc_arg_ptr(d.mass),
                                 sc_arg_ptr(d.child), sc_arg_u32(t->n), sc_arg_ptr(d.cells)};
    sc_kernel_arg force[] = {sc_arg_ptr(d.x),    sc_arg_ptr(d.y),     sc_arg_ptr(d.z),
                             sc_arg_ptr(d.size), sc_arg_ptr(d.mass),  sc_arg_ptr(d.child),
                             sc_arg_u32(t->n),   sc_arg_f32(BH_THETA_SQUARED), sc_arg_f32(BH_SOFTENING_SQUARED),
                             sc_arg_ptr(d.acceleration[0]), sc_arg_ptr(d.acceleration[1]), sc_arg_ptr(d.acceleration[2])};
    sc_kernel_arg advance[] = {sc_arg_ptr(d.x),           sc_arg_ptr(d.y),           sc_arg_ptr(d.z),
                               sc_arg_ptr(d.velocity[0]), sc_arg_ptr(d.velocity[1]), sc_arg_ptr(d.velocity[2]),
                               sc_arg_ptr(d.acceleration[0]), sc_arg_ptr(d.acceleration[1]),
                               sc_arg_ptr(d.acceleration[2]), sc_arg_u32(t->n), sc_arg_f32(BH_DT)};
    if (sc_launch_1d(device, module, "bh_bound", ctas, block, bound, 10, error) < 0 ||
        sc_launch_1d(device, module, "bh_build", ctas, block, build, 10, error) < 0 ||
        sc_launch_1d(device, module, "bh_summarize", ctas, block, summarize, 7, error) < 0 ||
        sc_launch_1d(device, module, "bh_force", ctas, block, force, 12, error) < 0 ||
        sc_launch_1d(device, module, "bh_advance", ctas, block, advance, 11, error) < 0 ||
        sc_workload_read_u32(device, d.cells, cells, error) < 0 ||
        sc_workload_read_u32(device, d.overflow, overflow, error) < 0)
        return -1;
    size_t bytes = (size_t)t->n * sizeof(float);
    uint64_t sources[9] = {d.acceleration[0], d.acceleration[1], d.acceleration[2], d.velocity[0], d.velocity[1],
                           d.velocity[2], d.x, d.y, d.z};
    for (int k = 0; k < 9; k++)
        if (sc_memcpy_from_device(device, out[k], sources[k], bytes, error) < 0)
            return -1;
    return 0;
}

/* Compares the device's results with the host tree's step. */
static void bh_check(bh_tree *t, float *const velocity[3], uint32_t cells, uint32_t overflow, float *const out[9],
                     int32_t *stack, sc_scratch *scratch, sc_check_result *check)
{
    if (overflow) {
        sc_check_fail(check, "the octree needed more than %u cells", t->max_cells);
        return;
    }
    if (cells != t->cells) {
        sc_check_fail(check, "the octree has %u cells, expected %u", cells, t->cells);
        return;
    }
    uint32_t n = t->n;
    float *expected[9];
    for (int k = 0; k < 9; k++)
        expected[k] = sc_scratch_alloc(scratch, n * sizeof(float));
    double sum_squares = 0.0;
    for (uint32_t i = 0; i < n; i++) {
        float a[3];
        bh_force(t, i, stack, a);
        for (int d = 0; d < 3; d++) {
            expected[d][i] = a[d];
            sum_squares += (double)a[d] * a[d];
        }
    }
    float rms = (float)sqrt(sum_squares / (3.0 * n));
    float *position[3] = {t->x, t->y, t->z};
    for (uint32_t i = 0; i < n; i++)
        for (int d = 0; d < 3; d++) {
            expected[3 + d][i] = velocity[d][i] + out[d][i] * BH_DT;
            expected[6 + d][i] = position[d][i] + out[3 + d][i] * BH_DT;
        }
    static const char *const names[9] = {"ax", "ay", "az", "vx", "vy", "vz", "x", "y", "z"};
    for (int k = 0; k < 3; k++)
        if (!sc_compare_f32_scaled(check, names[k], out[k], expected[k], n, 1e-4f, rms))
            return;
    for (int k = 3; k < 9; k++)
        if (!sc_compare_f32(check, names[k], out[k], expected[k], n, 1e-5f))
            return;
}

static int run_bh(sc_device *device, const sc_workload_params *params, sc_check_result *check, sc_error *error)
{
    uint32_t n = sc_size_pick(params->size, 128, 1024, 16384, 32768);
    uint32_t ctas = sc_size_pick(params->size, 4, 8, 32, 64);
    uint32_t block = sc_size_pick(params->size, 32, 128, 128, 128);
    sc_scratch scratch = {0};
    sc_rng rng;
    sc_rng_seed(&rng, params->seed, 36);
    bh_tree t = {.n = n, .max_cells = 4 * n + 64};
    size_t nodes = (size_t)(n + t.max_cells) * sizeof(float);
    t.x = sc_scratch_alloc(&scratch, nodes);
    t.y = sc_scratch_alloc(&scratch, nodes);
    t.z = sc_scratch_alloc(&scratch, nodes);
    t.size = sc_scratch_alloc(&scratch, nodes);
    t.mass = sc_scratch_alloc(&scratch, nodes);
    t.child = sc_scratch_alloc(&scratch, (size_t)t.max_cells * 8 * sizeof(int32_t));
    float *velocity[3];
    for (uint32_t i = 0; i < n; i++) {
        t.x[i] = sc_rng_float(&rng, -1.0f, 1.0f);
        t.y[i] = sc_rng_float(&rng, -1.0f, 1.0f);
        t.z[i] = sc_rng_float(&rng, -1.0f, 1.0f);
        t.mass[i] = sc_rng_float(&rng, 0.5f, 1.5f) / (float)n;
    }
    for (int d = 0; d < 3; d++)
        velocity[d] = sc_random_floats(&scratch, &rng, n, -0.1f, 0.1f);
    float *out[9];
    for (int k = 0; k < 9; k++)
        out[k] = sc_scratch_alloc(&scratch, n * sizeof(float));
    uint32_t cells = 0, overflow = 0;
    int status = bh_on_device(device, &t, velocity, ctas, block, &cells, &overflow, out, error);
    if (status == 0) {
        bh_build(&t);
        bh_check(&t, velocity, cells, overflow, out, sc_scratch_alloc(&scratch, 8 * (size_t)n * sizeof(int32_t)),
                 &scratch, check);
    }
    sc_scratch_release(&scratch);
    return status;
}

const sc_workload sc_workload_bh = {
    .name = "bh",
    .description = "Barnes-Hut n-body step: concurrent octree build with locked child slots, bottom-up summary",
    .behaviour = "inter-workgroup: fine-grained locks, fenced publication and ready flags across CTAs (Ren's BH)",
    .run = run_bh,
};
