/* workload_support.c — the helpers shared by the built-in workload drivers (see
 * workload_support.h): random numbers, scratch memory, device uploads, CSR matrices and graphs,
 * Matrix Market input and reference comparisons.
 */
#include "workloads/workload_support.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/random.h"

/* ---- random numbers ---- */

void sc_rng_seed(sc_rng *rng, uint64_t seed, uint64_t stream)
{
    uint64_t state = seed ^ (stream * 0xd1342543de82ef95ull);
    for (int i = 0; i < 4; i++)
        rng->state[i] = sc_splitmix64(&state);
}

static uint64_t rotate_left(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

uint64_t sc_rng_next(sc_rng *rng)
{
    uint64_t *s = rng->state;
    uint64_t result = rotate_left(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotate_left(s[3], 45);
    return result;
}

uint32_t sc_rng_below(sc_rng *rng, uint32_t bound)
{
    /* Lemire's multiply-shift; the bias is below 2^-32 and irrelevant for test inputs. */
    return (uint32_t)(((sc_rng_next(rng) >> 32) * (uint64_t)bound) >> 32);
}

float sc_rng_float(sc_rng *rng, float low, float high)
{
    float unit = (float)(sc_rng_next(rng) >> 40) / (float)(1u << 24);
    return low + (high - low) * unit;
}

uint32_t sc_hash32(uint32_t x)
{
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

/* ---- scratch memory ---- */

static void *allocate_or_abort(void *old, size_t bytes)
{
    void *block = realloc(old, bytes ? bytes : 1);
    if (!block) {
        fprintf(stderr, "syncscope: out of host memory (%zu bytes)\n", bytes);
        abort();
    }
    return block;
}

void *sc_scratch_alloc(sc_scratch *scratch, size_t bytes)
{
    if (scratch->count == scratch->capacity) {
        scratch->capacity = scratch->capacity ? 2 * scratch->capacity : 16;
        scratch->blocks = allocate_or_abort(scratch->blocks, scratch->capacity * sizeof *scratch->blocks);
    }
    void *block = allocate_or_abort(NULL, bytes);
    memset(block, 0, bytes);
    scratch->blocks[scratch->count++] = block;
    return block;
}

void sc_scratch_release(sc_scratch *scratch)
{
    for (size_t i = 0; i < scratch->count; i++)
        free(scratch->blocks[i]);
    free(scratch->blocks);
    *scratch = (sc_scratch){0};
}

float *sc_random_floats(sc_scratch *scratch, sc_rng *rng, size_t count, float low, float high)
{
    float *values = sc_scratch_alloc(scratch, count * sizeof *values);
    for (size_t i = 0; i < count; i++)
        values[i] = sc_rng_float(rng, low, high);
    return values;
}

uint32_t *sc_random_u32s(sc_scratch *scratch, sc_rng *rng, size_t count, uint32_t bound)
{
    uint32_t *values = sc_scratch_alloc(scratch, count * sizeof *values);
    for (size_t i = 0; i < count; i++)
        values[i] = sc_rng_below(rng, bound);
    return values;
}

/* ---- device memory and launches ---- */

uint64_t sc_workload_alloc(sc_device *device, size_t bytes, sc_error *error)
{
    uint64_t address = sc_device_malloc(device, bytes);
    if (address == 0)
        sc_fail(error, "device memory exhausted allocating %zu bytes", bytes);
    return address;
}

uint64_t sc_workload_upload(sc_device *device, const void *host, size_t bytes, sc_error *error)
{
    uint64_t address = sc_workload_alloc(device, bytes, error);
    if (address == 0 || sc_memcpy_to_device(device, address, host, bytes, error) < 0)
        return 0;
    return address;
}

int sc_workload_read_u32(sc_device *device, uint64_t address, uint32_t *value, sc_error *error)
{
    return sc_memcpy_from_device(device, value, address, sizeof *value, error);
}

int sc_workload_write_u32(sc_device *device, uint64_t address, uint32_t value, sc_error *error)
{
    return sc_memcpy_to_device(device, address, &value, sizeof value, error);
}

uint32_t sc_blocks_for(uint64_t threads, uint32_t block)
{
    return (uint32_t)((threads + block - 1) / block);
}

int sc_launch_1d(sc_device *device, int module, const char *kernel, uint32_t grid, uint32_t block,
                 const sc_kernel_arg *args, int arg_count, sc_error *error)
{
    return sc_launch_kernel(device, module, kernel, (sc_dim3){grid, 1, 1}, (sc_dim3){block, 1, 1},
                            0, args, arg_count, error);
}

uint32_t sc_size_pick(sc_workload_size size, uint32_t tiny, uint32_t small, uint32_t large, uint32_t huge)
{
    switch (size) {
    case SC_SIZE_TINY: return tiny;
    case SC_SIZE_LARGE: return large;
    case SC_SIZE_HUGE: return huge;
    default: return small;
    }
}

/* ---- CSR matrices ---- */

static int compare_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* Sorts `count` column indices and removes duplicates; returns the new count. */
static uint32_t sort_unique(uint32_t *columns, uint32_t count)
{
    qsort(columns, count, sizeof *columns, compare_u32);
    uint32_t kept = 0;
    for (uint32_t i = 0; i < count; i++)
        if (kept == 0 || columns[kept - 1] != columns[i])
            columns[kept++] = columns[i];
    return kept;
}

void sc_csr_random(sc_scratch *scratch, sc_rng *rng, uint32_t rows, uint32_t cols,
                   uint32_t mean_per_row, float low, float high, sc_csr *csr)
{
    uint32_t most_per_row = 2 * mean_per_row - 1 < cols ? 2 * mean_per_row - 1 : cols;
    uint32_t *columns = sc_scratch_alloc(scratch, (size_t)rows * most_per_row * sizeof *columns);
    csr->row_offsets = sc_scratch_alloc(scratch, ((size_t)rows + 1) * sizeof *csr->row_offsets);
    uint32_t nnz = 0;
    for (uint32_t r = 0; r < rows; r++) {
        uint32_t wanted = 1 + sc_rng_below(rng, most_per_row);
        for (uint32_t k = 0; k < wanted; k++)
            columns[nnz + k] = sc_rng_below(rng, cols);
        nnz += sort_unique(columns + nnz, wanted);
        csr->row_offsets[r + 1] = nnz;
    }
    csr->rows = rows;
    csr->cols = cols;
    csr->nnz = nnz;
    csr->columns = columns;
    csr->values = sc_random_floats(scratch, rng, nnz, low, high);
}

/* One entry of a Matrix Market file, kept until the CSR is assembled. */
typedef struct mtx_entry {
    uint32_t row, col;
    float value;
} mtx_entry;

static int compare_entries(const void *a, const void *b)
{
    const mtx_entry *x = a, *y = b;
    if (x->row != y->row)
        return (x->row > y->row) - (x->row < y->row);
    return (x->col > y->col) - (x->col < y->col);
}

/* Reads the banner line; sets *pattern / *symmetric from its qualifiers. */
static int read_mtx_banner(FILE *file, const char *path, bool *pattern, bool *symmetric, sc_error *error)
{
    char line[1024];
    if (!fgets(line, sizeof line, file) || strncmp(line, "%%MatrixMarket matrix coordinate", 32) != 0)
        return sc_fail(error, "%s:1: not a Matrix Market coordinate matrix", path);
    if (strstr(line, "complex"))
        return sc_fail(error, "%s:1: complex matrices are not supported", path);
    *pattern = strstr(line, "pattern") != NULL;
    *symmetric = strstr(line, "symmetric") != NULL || strstr(line, "hermitian") != NULL;
    return 0;
}

/* Reads the next line that is not a comment into `line`; returns 0 at end of file. */
static int next_data_line(FILE *file, char *line, size_t size, unsigned *line_number)
{
    while (fgets(line, (int)size, file)) {
        (*line_number)++;
        if (line[0] != '%' && strspn(line, " \t\r\n") != strlen(line))
            return 1;
    }
    return 0;
}

static int read_mtx_entries(FILE *file, const char *path, sc_scratch *scratch, bool pattern,
                            bool symmetric, sc_csr *csr, mtx_entry **entries_out, size_t *count_out,
                            sc_error *error)
{
    char line[1024];
    unsigned line_number = 1;
    unsigned long rows, cols, declared;
    if (!next_data_line(file, line, sizeof line, &line_number) ||
        sscanf(line, "%lu %lu %lu", &rows, &cols, &declared) != 3 || rows == 0 || cols == 0 ||
        rows > UINT32_MAX / 2 || cols > UINT32_MAX / 2)
        return sc_fail(error, "%s:%u: expected 'rows cols entries'", path, line_number);
    mtx_entry *entries = sc_scratch_alloc(scratch, (symmetric ? 2 : 1) * declared * sizeof *entries);
    size_t count = 0;
    for (unsigned long k = 0; k < declared; k++) {
        unsigned long r, c;
        double value = 1.0;
        if (!next_data_line(file, line, sizeof line, &line_number))
            return sc_fail(error, "%s: ends after %lu of %lu entries", path, k, declared);
        int fields = sscanf(line, "%lu %lu %lf", &r, &c, &value);
        if (fields < (pattern ? 2 : 3) || r == 0 || c == 0 || r > rows || c > cols)
            return sc_fail(error, "%s:%u: bad entry", path, line_number);
        entries[count++] = (mtx_entry){(uint32_t)r - 1, (uint32_t)c - 1, (float)value};
        if (symmetric && r != c)
            entries[count++] = (mtx_entry){(uint32_t)c - 1, (uint32_t)r - 1, (float)value};
    }
    csr->rows = (uint32_t)rows;
    csr->cols = (uint32_t)cols;
    *entries_out = entries;
    *count_out = count;
    return 0;
}

int sc_csr_read_mtx(sc_scratch *scratch, const char *path, sc_csr *csr, sc_error *error)
{
    FILE *file = fopen(path, "r");
    if (!file)
        return sc_fail(error, "%s: %s", path, strerror(errno));
    bool pattern = false, symmetric = false;
    mtx_entry *entries = NULL;
    size_t count = 0;
    int status = read_mtx_banner(file, path, &pattern, &symmetric, error);
    if (status == 0)
        status = read_mtx_entries(file, path, scratch, pattern, symmetric, csr, &entries, &count, error);
    fclose(file);
    if (status < 0)
        return -1;
    if (count > UINT32_MAX)
        return sc_fail(error, "%s: too many entries", path);
    qsort(entries, count, sizeof *entries, compare_entries);
    csr->nnz = (uint32_t)count;
    csr->row_offsets = sc_scratch_alloc(scratch, ((size_t)csr->rows + 1) * sizeof *csr->row_offsets);
    csr->columns = sc_scratch_alloc(scratch, count * sizeof *csr->columns);
    csr->values = sc_scratch_alloc(scratch, count * sizeof *csr->values);
    for (size_t k = 0; k < count; k++) {
        csr->row_offsets[entries[k].row + 1]++;
        csr->columns[k] = entries[k].col;
        csr->values[k] = entries[k].value;
    }
    for (uint32_t r = 0; r < csr->rows; r++)
        csr->row_offsets[r + 1] += csr->row_offsets[r];
    return 0;
}

int sc_csr_upload(sc_device *device, const sc_csr *csr, sc_device_csr *out, sc_error *error)
{
    out->row_offsets = sc_workload_upload(device, csr->row_offsets, ((size_t)csr->rows + 1) * sizeof(uint32_t), error);
    if (out->row_offsets == 0)
        return -1;
    /* An empty matrix still gets one word, so every address is valid. */
    size_t entries = csr->nnz ? csr->nnz : 1;
    out->columns = sc_workload_alloc(device, entries * sizeof(uint32_t), error);
    out->values = sc_workload_alloc(device, entries * sizeof(float), error);
    if (out->columns == 0 || out->values == 0)
        return -1;
    if (sc_memcpy_to_device(device, out->columns, csr->columns, (size_t)csr->nnz * sizeof(uint32_t), error) < 0 ||
        sc_memcpy_to_device(device, out->values, csr->values, (size_t)csr->nnz * sizeof(float), error) < 0)
        return -1;
    return 0;
}

/* ---- reference comparisons ---- */

bool sc_compare_u32(sc_check_result *check, const char *name, const uint32_t *got,
                    const uint32_t *expected, size_t count)
{
    for (size_t i = 0; i < count; i++)
        if (got[i] != expected[i]) {
            sc_check_fail(check, "%s[%zu] = %" PRIu32 ", expected %" PRIu32, name, i, got[i], expected[i]);
            return false;
        }
    sc_check_pass(check);
    return true;
}

bool sc_compare_i32(sc_check_result *check, const char *name, const int32_t *got,
                    const int32_t *expected, size_t count)
{
    for (size_t i = 0; i < count; i++)
        if (got[i] != expected[i]) {
            sc_check_fail(check, "%s[%zu] = %" PRId32 ", expected %" PRId32, name, i, got[i], expected[i]);
            return false;
        }
    sc_check_pass(check);
    return true;
}

bool sc_compare_f32(sc_check_result *check, const char *name, const float *got,
                    const float *expected, size_t count, float tolerance)
{
    return sc_compare_f32_scaled(check, name, got, expected, count, tolerance, 1.0f);
}

bool sc_compare_f32_scaled(sc_check_result *check, const char *name, const float *got,
                           const float *expected, size_t count, float tolerance, float floor)
{
    for (size_t i = 0; i < count; i++) {
        float scale = fabsf(expected[i]) > floor ? fabsf(expected[i]) : floor;
        if (!(fabsf(got[i] - expected[i]) <= tolerance * scale)) {
            sc_check_fail(check, "%s[%zu] = %.9g, expected %.9g", name, i, got[i], expected[i]);
            return false;
        }
    }
    sc_check_pass(check);
    return true;
}
