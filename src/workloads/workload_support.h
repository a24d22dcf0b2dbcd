/* workload_support.h — what the built-in workload drivers share: a deterministic random number
 * generator, a scratch arena for host arrays, one-call device uploads and launches, sparse
 * matrices and graphs in CSR form (generated or read from Matrix Market files), and element-wise
 * reference comparisons that fill a check result with the first mismatch.
 */
#ifndef SYNCSCOPE_WORKLOADS_WORKLOAD_SUPPORT_H
#define SYNCSCOPE_WORKLOADS_WORKLOAD_SUPPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "workloads/workload.h"

/* ---- deterministic random numbers (xoshiro256**, seeded through splitmix64) ---- */

typedef struct sc_rng {
    uint64_t state[4];
} sc_rng;

/* Seeds a generator from the run's seed and a per-purpose stream number, so two inputs of one
 * workload never share a sequence. */
void sc_rng_seed(sc_rng *rng, uint64_t seed, uint64_t stream);
uint64_t sc_rng_next(sc_rng *rng);
/* Uniform in [0, bound) (bound > 0). */
uint32_t sc_rng_below(sc_rng *rng, uint32_t bound);
/* Uniform in [low, high). */
float sc_rng_float(sc_rng *rng, float low, float high);

/* The same 32-bit integer mix as the kernels' hash (uts.cu, hashtable.cu). */
uint32_t sc_hash32(uint32_t x);

/* ---- host scratch memory ---- */

/* Every host array a driver allocates comes from its scratch arena and is released in one call.
 * Like Redis's zmalloc, running out of host memory aborts with a message. */
typedef struct sc_scratch {
    void **blocks;
    size_t count, capacity;
} sc_scratch;

void *sc_scratch_alloc(sc_scratch *scratch, size_t bytes);   /* zero-filled */
void sc_scratch_release(sc_scratch *scratch);

/* Uniform random arrays from the scratch arena. */
float *sc_random_floats(sc_scratch *scratch, sc_rng *rng, size_t count, float low, float high);
uint32_t *sc_random_u32s(sc_scratch *scratch, sc_rng *rng, size_t count, uint32_t bound);

/* ---- device memory and launches ---- */

/* Allocates `bytes` of device memory (zero-filled); returns 0 and fills `error` when the image is
 * full. */
uint64_t sc_workload_alloc(sc_device *device, size_t bytes, sc_error *error);
/* Allocates device memory and copies `bytes` of `host` into it; returns 0 on failure. */
uint64_t sc_workload_upload(sc_device *device, const void *host, size_t bytes, sc_error *error);
/* Reads one 32-bit word of device memory. */
int sc_workload_read_u32(sc_device *device, uint64_t address, uint32_t *value, sc_error *error);
/* Writes one 32-bit word of device memory. */
int sc_workload_write_u32(sc_device *device, uint64_t address, uint32_t value, sc_error *error);

/* CTAs needed to give each of `threads` items its own thread at `block` threads per CTA. */
uint32_t sc_blocks_for(uint64_t threads, uint32_t block);
/* Launches a 1-D grid of `grid` CTAs of `block` threads (no dynamic shared memory). */
int sc_launch_1d(sc_device *device, int module, const char *kernel, uint32_t grid, uint32_t block,
                 const sc_kernel_arg *args, int arg_count, sc_error *error);

/* Picks the value for a size class. */
uint32_t sc_size_pick(sc_workload_size size, uint32_t tiny, uint32_t small, uint32_t large, uint32_t huge);

/* ---- sparse matrices and graphs in CSR form ---- */

typedef struct sc_csr {
    uint32_t rows, cols, nnz;
    uint32_t *row_offsets;   /* rows + 1 entries */
    uint32_t *columns;       /* nnz entries, ascending within a row */
    float *values;           /* nnz entries (edge weights for graphs) */
} sc_csr;

/* A random rows x cols matrix with 1..2*mean_per_row-1 distinct entries per row (columns drawn
 * uniformly, values uniform in [low, high)). As a graph: row = source vertex, column = target. */
void sc_csr_random(sc_scratch *scratch, sc_rng *rng, uint32_t rows, uint32_t cols,
                   uint32_t mean_per_row, float low, float high, sc_csr *csr);
/* Reads a Matrix Market coordinate file (real, integer or pattern; general or symmetric). */
int sc_csr_read_mtx(sc_scratch *scratch, const char *path, sc_csr *csr, sc_error *error);

/* Device copies of a CSR structure's three arrays. */
typedef struct sc_device_csr {
    uint64_t row_offsets, columns, values;
} sc_device_csr;

int sc_csr_upload(sc_device *device, const sc_csr *csr, sc_device_csr *out, sc_error *error);

/* ---- reference comparisons ---- */

/* Compares `count` elements of `got` (named `name` in messages) with `expected`. Each fills
 * `check` (pass, or the first mismatch) and returns whether all matched. Floats match when
 * |got - expected| <= tolerance * max(1, |expected|); with the _scaled form, tolerance *
 * max(floor, |expected|) (a chain of products measures its error against the vector's norm). */
bool sc_compare_u32(sc_check_result *check, const char *name, const uint32_t *got,
                    const uint32_t *expected, size_t count);
bool sc_compare_i32(sc_check_result *check, const char *name, const int32_t *got,
                    const int32_t *expected, size_t count);
bool sc_compare_f32(sc_check_result *check, const char *name, const float *got,
                    const float *expected, size_t count, float tolerance);
bool sc_compare_f32_scaled(sc_check_result *check, const char *name, const float *got,
                           const float *expected, size_t count, float tolerance, float floor);

#endif
