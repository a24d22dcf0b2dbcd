/* manifest.c — loading, validating and running user workload manifests (see manifest.h).
 *
 * The whole manifest is validated when it is loaded, so a mistake anywhere is reported before
 * anything runs, with the manifest's path and the key path of the mistake. */
#include "workloads/manifest.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/files.h"
#include "base/json_keys.h"
#include "base/sha256.h"
#include "exec/alu.h"
#include "exec/memory_request.h"
#include "workloads/workload_support.h"

/* A buffer is device memory the manifest allocates, or (with "symbol") a module's .global or
 * .const variable, which the PTX initialises unless the buffer has an "init". */
typedef struct manifest_buffer {
    const char *name;
    ptx_type type;
    uint64_t count;
    const cJSON *init;
    const char *symbol;        /* module variable name, or NULL for an allocation */
    int symbol_module;         /* index in modules of "module", or -1: whichever module has it */
    uint64_t address;
} manifest_buffer;

/* One PTX module: "ptx": "x.ptx" gives one without a name, "ptx": {"name": "x.ptx", ...} named
 * ones that launches and buffers choose with "module". */
typedef struct manifest_module {
    const char *name;
    char path[4096];
    int handle;                /* device module handle once loaded */
} manifest_module;

enum { MANIFEST_MAX_MODULES = 16 };

struct sc_manifest {
    char *path;
    char *text;                /* the manifest as read: part of its content digest */
    cJSON *root;
    const char *name;
    manifest_module modules[MANIFEST_MAX_MODULES];
    int module_count;
    manifest_buffer *buffers;
    int buffer_count;
    const cJSON *launches;
    const cJSON *expected;
    uint64_t max_threads, max_iterations;   /* resource limits ("limits", else the defaults) */
};

/* Resource limits: a launch of more threads, or loops whose iterations (the product of the
 * max_iterations of nested loops) exceed this, would run for days; a manifest that means it
 * raises them under "limits". */
#define MANIFEST_DEFAULT_MAX_THREADS (UINT64_C(1) << 26)
#define MANIFEST_DEFAULT_MAX_ITERATIONS UINT64_C(1000000)

typedef struct type_name {
    const char *name;
    ptx_type type;
} type_name;

static const type_name buffer_types[] = {
    {"u8", PTX_TYPE_U8}, {"u16", PTX_TYPE_U16}, {"u32", PTX_TYPE_U32}, {"u64", PTX_TYPE_U64},
    {"s8", PTX_TYPE_S8}, {"s16", PTX_TYPE_S16}, {"s32", PTX_TYPE_S32}, {"s64", PTX_TYPE_S64},
    {"i32", PTX_TYPE_S32}, {"i64", PTX_TYPE_S64}, {"f32", PTX_TYPE_F32}, {"f64", PTX_TYPE_F64},
};

static int key_error(const sc_manifest *m, const char *key_path, const char *message, sc_error *error)
{
    return sc_fail(error, "%s: %s: %s", m->path, key_path, message);
}

static const manifest_buffer *find_buffer(const sc_manifest *m, const char *name)
{
    for (int i = 0; i < m->buffer_count; i++)
        if (!strcmp(m->buffers[i].name, name))
            return &m->buffers[i];
    return NULL;
}

static bool is_whole_number(const cJSON *item)
{
    return cJSON_IsNumber(item) && item->valuedouble == floor(item->valuedouble) && fabs(item->valuedouble) < 9.2e18;
}

/* A {"file": ...} initialiser's file must exist and hold exactly the buffer's `bytes`. */
static int check_file_size(const sc_manifest *m, const char *key, const cJSON *file, uint64_t bytes, sc_error *error)
{
    char path[4096];
    if (sc_path_relative_to(m->path, file->valuestring, path, sizeof path, error) < 0)
        return -1;
    struct stat status;
    if (stat(path, &status) != 0)
        return sc_fail(error, "%s: %s: cannot read %s: %s", m->path, key, path, strerror(errno));
    if ((uint64_t)status.st_size != bytes)
        return sc_fail(error, "%s: %s: file %s holds %lld bytes, the buffer needs %llu", m->path, key, path,
                       (long long)status.st_size, (unsigned long long)bytes);
    return 0;
}

/* An initialiser (or expected contents) of a buffer of `bytes` bytes. */
static int validate_init(const sc_manifest *m, const char *key, const cJSON *init, uint64_t bytes, sc_error *error)
{
    if (!init || cJSON_IsNumber(init))
        return 0;
    if (cJSON_IsString(init)) {
        if (!strcmp(init->valuestring, "zero") || !strcmp(init->valuestring, "iota"))
            return 0;
        return key_error(m, key, "must be \"zero\", \"iota\", a number, {\"random\": {...}} or {\"file\": ...}", error);
    }
    const cJSON *random = cJSON_GetObjectItemCaseSensitive(init, "random");
    const cJSON *file = cJSON_GetObjectItemCaseSensitive(init, "file");
    if (cJSON_IsObject(random)) {
        const cJSON *low = cJSON_GetObjectItemCaseSensitive(random, "min");
        const cJSON *high = cJSON_GetObjectItemCaseSensitive(random, "max");
        if ((low && !cJSON_IsNumber(low)) || (high && !cJSON_IsNumber(high)))
            return key_error(m, key, "random min and max must be numbers", error);
        if (low && high && low->valuedouble > high->valuedouble)
            return key_error(m, key, "random min is greater than max", error);
        return 0;
    }
    if (cJSON_IsString(file))
        return check_file_size(m, key, file, bytes, error);
    return key_error(m, key, "must be \"zero\", \"iota\", a number, {\"random\": {...}} or {\"file\": ...}", error);
}

/* The index of the module named `name`, or -1. */
static int find_module(const sc_manifest *m, const char *name)
{
    for (int i = 0; i < m->module_count; i++)
        if (m->modules[i].name && !strcmp(m->modules[i].name, name))
            return i;
    return -1;
}

/* An optional "module": "name" of a buffer or launch: its module index, -1 if absent. */
static int load_module_choice(const sc_manifest *m, const cJSON *object, const char *at, int *module, sc_error *error)
{
    const cJSON *name = cJSON_GetObjectItemCaseSensitive(object, "module");
    *module = -1;
    if (!name)
        return 0;
    char key[700];
    snprintf(key, sizeof key, "%s.module", at);
    if (!cJSON_IsString(name) || (*module = find_module(m, name->valuestring)) < 0)
        return key_error(m, key, "must name a module of \"ptx\" ({\"name\": \"file.ptx\", ...})", error);
    return 0;
}

/* "symbol": "var" (and optionally "module") makes the buffer a module variable. */
static int load_buffer_symbol(const sc_manifest *m, const cJSON *b, manifest_buffer *buffer, sc_error *error)
{
    char at[512], key[600];
    snprintf(at, sizeof at, "buffers.%s", b->string);
    const cJSON *symbol = cJSON_GetObjectItemCaseSensitive(b, "symbol");
    buffer->symbol_module = -1;
    if (!symbol)
        return cJSON_GetObjectItemCaseSensitive(b, "module")
                   ? key_error(m, at, "\"module\" applies only to a buffer with a \"symbol\"", error) : 0;
    snprintf(key, sizeof key, "%s.symbol", at);
    if (!cJSON_IsString(symbol) || !symbol->valuestring[0])
        return key_error(m, key, "must be the name of a .global or .const variable of the PTX", error);
    buffer->symbol = symbol->valuestring;
    return load_module_choice(m, b, at, &buffer->symbol_module, error);
}

static int load_buffers(sc_manifest *m, sc_error *error)
{
    const cJSON *buffers = cJSON_GetObjectItemCaseSensitive(m->root, "buffers");
    if (!cJSON_IsObject(buffers))
        return key_error(m, "buffers", "missing or not an object of named buffers", error);
    m->buffer_count = cJSON_GetArraySize(buffers);
    m->buffers = calloc((size_t)m->buffer_count + 1, sizeof *m->buffers);
    int i = 0;
    for (const cJSON *b = buffers->child; b; b = b->next, i++) {
        char key[512];
        manifest_buffer *buffer = &m->buffers[i];
        buffer->name = b->string;
        snprintf(key, sizeof key, "buffers.%s", b->string);
        if (!cJSON_IsObject(b))
            return key_error(m, key, "must be an object with type, count and init", error);
        const cJSON *type = cJSON_GetObjectItemCaseSensitive(b, "type");
        const cJSON *count = cJSON_GetObjectItemCaseSensitive(b, "count");
        for (size_t t = 0; cJSON_IsString(type) && t < sizeof buffer_types / sizeof buffer_types[0]; t++)
            if (!strcmp(type->valuestring, buffer_types[t].name))
                buffer->type = buffer_types[t].type;
        snprintf(key, sizeof key, "buffers.%s.type", b->string);
        if (buffer->type == PTX_TYPE_NONE)
            return key_error(m, key, "must be one of u8 u16 u32 u64 s8 s16 s32 s64 f32 f64", error);
        snprintf(key, sizeof key, "buffers.%s.count", b->string);
        if (!is_whole_number(count) || count->valuedouble < 1 || count->valuedouble > 1e10)
            return key_error(m, key, "must be a positive integer", error);
        buffer->count = (uint64_t)count->valuedouble;
        buffer->init = cJSON_GetObjectItemCaseSensitive(b, "init");
        if (load_buffer_symbol(m, b, buffer, error) < 0)
            return -1;
        snprintf(key, sizeof key, "buffers.%s.init", b->string);
        if (validate_init(m, key, buffer->init, buffer->count * ptx_type_size(buffer->type), error) < 0)
            return -1;
    }
    return 0;
}

static int validate_dim3(const sc_manifest *m, const char *key, const cJSON *dims, sc_error *error)
{
    if (cJSON_IsNumber(dims))
        return is_whole_number(dims) && dims->valuedouble >= 1 ? 0 : key_error(m, key, "must be >= 1", error);
    if (!cJSON_IsArray(dims) || cJSON_GetArraySize(dims) < 1 || cJSON_GetArraySize(dims) > 3)
        return key_error(m, key, "must be a number or an array of 1 to 3 numbers", error);
    int i = 0;
    for (const cJSON *d = dims->child; d; d = d->next, i++)
        if (!is_whole_number(d) || d->valuedouble < 1 || d->valuedouble > 2147483647.0) {
            char element[600];
            snprintf(element, sizeof element, "%s[%d]", key, i);
            return key_error(m, element, "must be a positive integer", error);
        }
    return 0;
}

static uint64_t buffer_bytes(const manifest_buffer *buffer)
{
    return buffer->count * ptx_type_size(buffer->type);
}

/* {"buffer": "name", "offset": bytes}: the buffer's address plus an offset inside it. */
static int validate_offset_argument(const sc_manifest *m, const char *key, const cJSON *arg, sc_error *error)
{
    const cJSON *name = cJSON_GetObjectItemCaseSensitive(arg, "buffer");
    const cJSON *offset = cJSON_GetObjectItemCaseSensitive(arg, "offset");
    char field[800];
    snprintf(field, sizeof field, "%s.buffer", key);
    const manifest_buffer *buffer = cJSON_IsString(name) ? find_buffer(m, name->valuestring) : NULL;
    if (!buffer)
        return key_error(m, field, "must name a buffer", error);
    snprintf(field, sizeof field, "%s.offset", key);
    if (!is_whole_number(offset) || offset->valuedouble < 0 || offset->valuedouble > (double)buffer_bytes(buffer))
        return sc_fail(error, "%s: %s: must be a whole number of bytes from 0 to %llu (the size of %s)", m->path,
                       field, (unsigned long long)buffer_bytes(buffer), buffer->name);
    for (const cJSON *item = arg->child; item; item = item->next)
        if (strcmp(item->string, "buffer") && strcmp(item->string, "offset"))
            return key_error(m, key, "takes only \"buffer\" and \"offset\"", error);
    return 0;
}

static int validate_argument(const sc_manifest *m, const char *key, const cJSON *arg, sc_error *error)
{
    if (cJSON_IsString(arg))
        return find_buffer(m, arg->valuestring) ? 0 : key_error(m, key, "names no buffer", error);
    if (cJSON_IsObject(arg) && cJSON_GetObjectItemCaseSensitive(arg, "buffer"))
        return validate_offset_argument(m, key, arg, error);
    if (cJSON_IsNumber(arg) || cJSON_IsBool(arg))
        return 0;
    if (cJSON_IsObject(arg) && arg->child && !arg->child->next && cJSON_IsNumber(arg->child) &&
        (!strcmp(arg->child->string, "u64") || !strcmp(arg->child->string, "f32") ||
         !strcmp(arg->child->string, "f64") || !strcmp(arg->child->string, "u32")))
        return 0;
    return key_error(m, key, "must be a buffer name, {\"buffer\": name, \"offset\": bytes}, a number, or "
                     "{\"u32\"|\"u64\"|\"f32\"|\"f64\": number}", error);
}

/* A device-to-device copy or a memset between launches:
 *   {"copy": {"from": "a", "to": "b", "bytes": N, "from_offset": 0, "to_offset": 0}}
 *   {"memset": {"buffer": "a", "value": 0, "bytes": N, "offset": 0}}
 * "bytes" defaults to the rest of the source (copy) or of the buffer (memset) from its offset. */
typedef struct host_step {
    bool is_copy;
    const manifest_buffer *from, *to;   /* memset: `to` only */
    uint64_t from_offset, to_offset, bytes;
    int value;
} host_step;

/* An optional whole number of bytes `name` in `object` at most `limit`; `fallback` if absent. */
static int step_bytes(const sc_manifest *m, const char *at, const cJSON *object, const char *name, uint64_t limit,
                      uint64_t fallback, uint64_t *value, sc_error *error)
{
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(object, name);
    *value = fallback;
    if (!item)
        return 0;
    if (!is_whole_number(item) || item->valuedouble < 0 || item->valuedouble > (double)limit)
        return sc_fail(error, "%s: %s.%s: must be a whole number of bytes from 0 to %llu", m->path, at, name,
                       (unsigned long long)limit);
    *value = (uint64_t)item->valuedouble;
    return 0;
}

static int step_buffer(const sc_manifest *m, const char *at, const cJSON *object, const char *name,
                       const manifest_buffer **buffer, sc_error *error)
{
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(object, name);
    *buffer = cJSON_IsString(item) ? find_buffer(m, item->valuestring) : NULL;
    if (*buffer)
        return 0;
    char key[800];
    snprintf(key, sizeof key, "%s.%s", at, name);
    return key_error(m, key, "must name a buffer", error);
}

static int check_step_keys(const sc_manifest *m, const char *at, const cJSON *object, const char *const *keys,
                           sc_error *error)
{
    for (const cJSON *item = object->child; item; item = item->next) {
        bool known = false;
        for (const char *const *k = keys; *k; k++)
            known = known || !strcmp(item->string, *k);
        if (!known) {
            char key[800];
            snprintf(key, sizeof key, "%s.%s", at, item->string);
            return key_error(m, key, "unknown key", error);
        }
    }
    return 0;
}

/* Reads and checks a copy or memset step (`item` has "copy" or "memset"); `at` names the item. */
static int parse_host_step(const sc_manifest *m, const char *item_at, const cJSON *item, host_step *step,
                           sc_error *error)
{
    const cJSON *copy = cJSON_GetObjectItemCaseSensitive(item, "copy");
    const cJSON *body = copy ? copy : cJSON_GetObjectItemCaseSensitive(item, "memset");
    char at[700];
    snprintf(at, sizeof at, "%s.%s", item_at, copy ? "copy" : "memset");
    *step = (host_step){.is_copy = copy != NULL};
    if (item->child->next)
        return key_error(m, item_at, "a copy or memset step holds only its \"copy\" or \"memset\" object", error);
    if (!cJSON_IsObject(body))
        return key_error(m, at, copy ? "must be {\"from\", \"to\", \"bytes\", \"from_offset\", \"to_offset\"}"
                                     : "must be {\"buffer\", \"value\", \"bytes\", \"offset\"}", error);
    if (copy) {
        static const char *const keys[] = {"from", "to", "bytes", "from_offset", "to_offset", NULL};
        if (check_step_keys(m, at, body, keys, error) < 0 || step_buffer(m, at, body, "from", &step->from, error) < 0 ||
            step_buffer(m, at, body, "to", &step->to, error) < 0 ||
            step_bytes(m, at, body, "from_offset", buffer_bytes(step->from), 0, &step->from_offset, error) < 0 ||
            step_bytes(m, at, body, "to_offset", buffer_bytes(step->to), 0, &step->to_offset, error) < 0 ||
            step_bytes(m, at, body, "bytes", buffer_bytes(step->from) - step->from_offset,
                       buffer_bytes(step->from) - step->from_offset, &step->bytes, error) < 0)
            return -1;
        if (step->bytes > buffer_bytes(step->to) - step->to_offset)
            return sc_fail(error, "%s: %s.bytes: %llu bytes from %s do not fit in %s at offset %llu (%llu bytes)",
                           m->path, at, (unsigned long long)step->bytes, step->from->name, step->to->name,
                           (unsigned long long)step->to_offset, (unsigned long long)buffer_bytes(step->to));
        return 0;
    }
    static const char *const keys[] = {"buffer", "value", "bytes", "offset", NULL};
    const cJSON *value = cJSON_GetObjectItemCaseSensitive(body, "value");
    if (check_step_keys(m, at, body, keys, error) < 0 || step_buffer(m, at, body, "buffer", &step->to, error) < 0 ||
        step_bytes(m, at, body, "offset", buffer_bytes(step->to), 0, &step->to_offset, error) < 0 ||
        step_bytes(m, at, body, "bytes", buffer_bytes(step->to) - step->to_offset,
                   buffer_bytes(step->to) - step->to_offset, &step->bytes, error) < 0)
        return -1;
    if (value && (!is_whole_number(value) || value->valuedouble < 0 || value->valuedouble > 255)) {
        char key[800];
        snprintf(key, sizeof key, "%s.value", at);
        return key_error(m, key, "must be a byte value from 0 to 255", error);
    }
    step->value = value ? (int)value->valuedouble : 0;
    return 0;
}

static bool is_host_step(const cJSON *item)
{
    return cJSON_GetObjectItemCaseSensitive(item, "copy") || cJSON_GetObjectItemCaseSensitive(item, "memset");
}

/* The product of a grid or block's dimensions (after validate_dim3). */
static double dim3_product(const cJSON *dims)
{
    if (cJSON_IsNumber(dims))
        return dims->valuedouble;
    double product = 1;
    for (const cJSON *d = dims->child; d; d = d->next)
        product *= d->valuedouble;
    return product;
}

/* A launch's local-memory mapping (docs/local-memory.md), through the DMA engine or the stash:
 *   "dma": {"buffer": "data", "bytes_per_cta": N, "offset": 0, "shared_offset": 0}
 *   "stash": {the same fields}
 * CTA c (linear id) finds the buffer's bytes [offset + c * N, + N) in its dynamic shared memory
 * (the launch's "shared_bytes") at shared_offset, and what it writes there reaches them (DMA: in
 * when it starts, back when it finishes; stash: each word at its first access, stores through the
 * mechanism's store path). Whole 4-byte words; every CTA's chunk inside the buffer; one of the two
 * per launch. */
static int parse_dma(const sc_manifest *m, const char *at, const cJSON *item, sc_dma_mapping *dma, sc_error *error)
{
    const cJSON *dma_body = cJSON_GetObjectItemCaseSensitive(item, "dma");
    const cJSON *stash_body = cJSON_GetObjectItemCaseSensitive(item, "stash");
    const cJSON *body = dma_body ? dma_body : stash_body;
    const char *name = dma_body ? "dma" : "stash";
    *dma = (sc_dma_mapping){0};
    if (!body)
        return 0;
    char key[700];
    if (dma_body && stash_body) {
        snprintf(key, sizeof key, "%s.stash", at);
        return key_error(m, key, "a launch maps its chunks by \"dma\" or by \"stash\", not both", error);
    }
    snprintf(key, sizeof key, "%s.%s", at, name);
    if (!cJSON_IsObject(body))
        return key_error(m, key, "must be {\"buffer\": name, \"bytes_per_cta\": N, \"offset\": 0, \"shared_offset\": 0}",
                         error);
    static const char *const keys[] = {"buffer", "bytes_per_cta", "offset", "shared_offset", NULL};
    const manifest_buffer *buffer;
    uint64_t offset, bytes, shared_offset;
    if (check_step_keys(m, key, body, keys, error) < 0 || step_buffer(m, key, body, "buffer", &buffer, error) < 0 ||
        step_bytes(m, key, body, "offset", buffer_bytes(buffer), 0, &offset, error) < 0 ||
        step_bytes(m, key, body, "bytes_per_cta", buffer_bytes(buffer), 0, &bytes, error) < 0 ||
        step_bytes(m, key, body, "shared_offset", 1048576, 0, &shared_offset, error) < 0)
        return -1;
    if (bytes == 0 || bytes % 4 || offset % 4 || shared_offset % 4)
        return key_error(m, key, "bytes_per_cta must be a positive multiple of 4, offset and shared_offset multiples of 4",
                         error);
    double ctas = dim3_product(cJSON_GetObjectItemCaseSensitive(item, "grid"));
    if ((double)offset + ctas * (double)bytes > (double)buffer_bytes(buffer))
        return sc_fail(error, "%s: %s: %.0f CTAs x %llu bytes from offset %llu run past the end of buffer %s (%llu bytes)",
                       m->path, key, ctas, (unsigned long long)bytes, (unsigned long long)offset, buffer->name,
                       (unsigned long long)buffer_bytes(buffer));
    const cJSON *shared = cJSON_GetObjectItemCaseSensitive(item, "shared_bytes");
    uint64_t shared_bytes = shared ? (uint64_t)shared->valuedouble : 0;
    if (shared_offset + bytes > shared_bytes)
        return sc_fail(error, "%s: %s: %llu bytes at shared_offset %llu do not fit the launch's shared_bytes (%llu)",
                       m->path, key, (unsigned long long)bytes, (unsigned long long)shared_offset,
                       (unsigned long long)shared_bytes);
    *dma = (sc_dma_mapping){.global = buffer->address + offset, .bytes_per_cta = bytes,
                            .shared_offset = (uint32_t)shared_offset,
                            .kind = stash_body ? SC_MAPPING_STASH : SC_MAPPING_DMA};
    return 0;
}

/* Validates a list of launches; `iterations` is how often the loops around it repeat it at most. */
static int validate_launches(const sc_manifest *m, const char *key, const cJSON *launches, int depth,
                             double iterations, sc_error *error)
{
    if (!cJSON_IsArray(launches) || cJSON_GetArraySize(launches) == 0)
        return key_error(m, key, "must be a non-empty array of launches", error);
    if (depth > 8)
        return key_error(m, key, "loops nested too deeply", error);
    int i = 0;
    for (const cJSON *item = launches->child; item; item = item->next, i++) {
        char at[600], field[700];
        snprintf(at, sizeof at, "%s[%d]", key, i);
        const cJSON *flag = cJSON_GetObjectItemCaseSensitive(item, "repeat_until_zero");
        if (flag) {
            const cJSON *limit = cJSON_GetObjectItemCaseSensitive(item, "max_iterations");
            snprintf(field, sizeof field, "%s.repeat_until_zero", at);
            if (!cJSON_IsString(flag) || !find_buffer(m, flag->valuestring))
                return key_error(m, field, "must name a buffer", error);
            snprintf(field, sizeof field, "%s.max_iterations", at);
            if (!is_whole_number(limit) || limit->valuedouble < 1)
                return key_error(m, field, "must be a positive integer", error);
            if (iterations * limit->valuedouble > (double)m->max_iterations)
                return sc_fail(error, "%s: %s: %.0f iterations (with the loops around it) exceed the limit of %llu "
                               "(raise \"limits\": {\"iterations\": N} if it is meant)", m->path, field,
                               iterations * limit->valuedouble, (unsigned long long)m->max_iterations);
            snprintf(field, sizeof field, "%s.launches", at);
            if (validate_launches(m, field, cJSON_GetObjectItemCaseSensitive(item, "launches"), depth + 1,
                                  iterations * limit->valuedouble, error) < 0)
                return -1;
            continue;
        }
        if (is_host_step(item)) {
            host_step step;
            if (parse_host_step(m, at, item, &step, error) < 0)
                return -1;
            continue;
        }
        const cJSON *kernel = cJSON_GetObjectItemCaseSensitive(item, "kernel");
        snprintf(field, sizeof field, "%s.kernel", at);
        if (!cJSON_IsString(kernel))
            return key_error(m, field, "missing kernel name (or a \"copy\", \"memset\" or \"repeat_until_zero\" step)",
                             error);
        int module;
        if (load_module_choice(m, item, at, &module, error) < 0)
            return -1;
        snprintf(field, sizeof field, "%s.grid", at);
        if (validate_dim3(m, field, cJSON_GetObjectItemCaseSensitive(item, "grid"), error) < 0)
            return -1;
        snprintf(field, sizeof field, "%s.block", at);
        if (validate_dim3(m, field, cJSON_GetObjectItemCaseSensitive(item, "block"), error) < 0)
            return -1;
        double threads = dim3_product(cJSON_GetObjectItemCaseSensitive(item, "grid")) *
                         dim3_product(cJSON_GetObjectItemCaseSensitive(item, "block"));
        if (threads > (double)m->max_threads)
            return sc_fail(error, "%s: %s: grid x block is %.0f threads, more than the limit of %llu per launch "
                           "(raise \"limits\": {\"threads\": N} if it is meant)", m->path, at, threads,
                           (unsigned long long)m->max_threads);
        const cJSON *shared = cJSON_GetObjectItemCaseSensitive(item, "shared_bytes");
        snprintf(field, sizeof field, "%s.shared_bytes", at);
        if (shared && (!is_whole_number(shared) || shared->valuedouble < 0 || shared->valuedouble > 1048576))
            return key_error(m, field, "must be an integer from 0 to 1048576", error);
        sc_dma_mapping dma;
        if (parse_dma(m, at, item, &dma, error) < 0)
            return -1;
        const cJSON *args = cJSON_GetObjectItemCaseSensitive(item, "args");
        snprintf(field, sizeof field, "%s.args", at);
        if (args && !cJSON_IsArray(args))
            return key_error(m, field, "must be an array", error);
        int a = 0;
        for (const cJSON *arg = args ? args->child : NULL; arg; arg = arg->next, a++) {
            snprintf(field, sizeof field, "%s.args[%d]", at, a);
            if (validate_argument(m, field, arg, error) < 0)
                return -1;
        }
    }
    return 0;
}

static int validate_names(const sc_manifest *m, const char *key, const cJSON *list, sc_error *error)
{
    if (!list)
        return 0;
    int i = 0;
    for (const cJSON *item = list->child; item; item = item->next, i++) {
        char at[300];
        const char *name;
        if (cJSON_IsArray(list)) {  /* "outputs": ["out", ...] */
            snprintf(at, sizeof at, "%s[%d]", key, i);
            name = cJSON_IsString(item) ? item->valuestring : "";
        } else {                    /* "expected": {"out": ...} */
            snprintf(at, sizeof at, "%s.%s", key, item->string);
            name = item->string;
        }
        if (!find_buffer(m, name))
            return key_error(m, at, "names no buffer", error);
    }
    return 0;
}

/* "ptx": "file.ptx", or {"name": "file.ptx", ...} for several modules. */
static int load_modules(sc_manifest *m, const cJSON *ptx, sc_error *error)
{
    if (cJSON_IsString(ptx)) {
        m->module_count = 1;
        return sc_path_relative_to(m->path, ptx->valuestring, m->modules[0].path, sizeof m->modules[0].path, error);
    }
    if (!cJSON_IsObject(ptx) || !ptx->child)
        return key_error(m, "ptx", "missing: the path of the PTX file, or {\"name\": \"file.ptx\", ...} for several "
                         "modules", error);
    for (const cJSON *item = ptx->child; item; item = item->next) {
        char key[300];
        snprintf(key, sizeof key, "ptx.%s", item->string);
        if (m->module_count == MANIFEST_MAX_MODULES)
            return key_error(m, key, "too many modules (at most 16)", error);
        if (!cJSON_IsString(item))
            return key_error(m, key, "must be the path of a PTX file", error);
        manifest_module *module = &m->modules[m->module_count++];
        module->name = item->string;
        if (sc_path_relative_to(m->path, item->valuestring, module->path, sizeof module->path, error) < 0)
            return -1;
    }
    return 0;
}

/* "limits": {"threads": N, "iterations": N}, each optional; the defaults otherwise. */
static int load_limits(sc_manifest *m, sc_error *error)
{
    m->max_threads = MANIFEST_DEFAULT_MAX_THREADS;
    m->max_iterations = MANIFEST_DEFAULT_MAX_ITERATIONS;
    const cJSON *limits = cJSON_GetObjectItemCaseSensitive(m->root, "limits");
    if (!limits)
        return 0;
    if (!cJSON_IsObject(limits))
        return key_error(m, "limits", "must be an object {\"threads\": N, \"iterations\": N}", error);
    for (const cJSON *item = limits->child; item; item = item->next) {
        char key[300];
        snprintf(key, sizeof key, "limits.%s", item->string);
        uint64_t *limit = !strcmp(item->string, "threads")      ? &m->max_threads
                          : !strcmp(item->string, "iterations") ? &m->max_iterations
                                                                : NULL;
        if (!limit)
            return key_error(m, key, "unknown limit (threads, iterations)", error);
        if (!is_whole_number(item) || item->valuedouble < 1)
            return key_error(m, key, "must be a positive integer", error);
        *limit = (uint64_t)item->valuedouble;
    }
    return 0;
}

static int parse_manifest(sc_manifest *m, const char *text, sc_error *error)
{
    const char *where = NULL;
    m->root = cJSON_ParseWithOpts(text, &where, true);  /* true: nothing may follow the object */
    if (!m->root) {
        int line = 1;
        for (const char *c = text; where && c < where && *c; c++)
            line += *c == '\n';
        return sc_fail(error, "%s:%d: malformed JSON", m->path, line);
    }
    if (!cJSON_IsObject(m->root))
        return sc_fail(error, "%s: the manifest must be a JSON object", m->path);
    char duplicate[512];
    if (sc_json_duplicate_key(m->root, duplicate, sizeof duplicate))
        return key_error(m, duplicate, "duplicate key (each key may be given once)", error);
    const cJSON *name = cJSON_GetObjectItemCaseSensitive(m->root, "name");
    const cJSON *ptx = cJSON_GetObjectItemCaseSensitive(m->root, "ptx");
    if (name && !cJSON_IsString(name))
        return key_error(m, "name", "must be a string", error);
    m->name = name ? name->valuestring : "manifest";
    if (load_modules(m, ptx, error) < 0 || load_buffers(m, error) < 0)
        return -1;
    if (load_limits(m, error) < 0)
        return -1;
    m->launches = cJSON_GetObjectItemCaseSensitive(m->root, "launches");
    if (validate_launches(m, "launches", m->launches, 0, 1.0, error) < 0)
        return -1;
    const cJSON *outputs = cJSON_GetObjectItemCaseSensitive(m->root, "outputs");
    if (outputs && !cJSON_IsArray(outputs))
        return key_error(m, "outputs", "must be an array of buffer names", error);
    m->expected = cJSON_GetObjectItemCaseSensitive(m->root, "expected");
    if (m->expected && !cJSON_IsObject(m->expected))
        return key_error(m, "expected", "must be an object of buffer name -> contents", error);
    if (validate_names(m, "outputs", outputs, error) < 0 || validate_names(m, "expected", m->expected, error) < 0)
        return -1;
    for (const cJSON *e = m->expected ? m->expected->child : NULL; e; e = e->next) {
        char at[300];
        snprintf(at, sizeof at, "expected.%s", e->string);
        const manifest_buffer *buffer = find_buffer(m, e->string);
        if (validate_init(m, at, e, buffer->count * ptx_type_size(buffer->type), error) < 0)
            return -1;
    }
    return 0;
}

sc_manifest *sc_manifest_parse(const char *text, const char *path, sc_error *error)
{
    sc_manifest *m = calloc(1, sizeof *m);
    m->path = strdup(path);
    m->text = strdup(text);
    if (parse_manifest(m, text, error) < 0) {
        sc_manifest_free(m);
        return NULL;
    }
    return m;
}

sc_manifest *sc_manifest_load(const char *path, sc_error *error)
{
    char *text = sc_read_file(path, NULL, error);
    if (!text)
        return NULL;
    sc_manifest *m = sc_manifest_parse(text, path, error);
    free(text);
    return m;
}

void sc_manifest_free(sc_manifest *manifest)
{
    if (!manifest)
        return;
    cJSON_Delete(manifest->root);
    free(manifest->buffers);
    free(manifest->path);
    free(manifest->text);
    free(manifest);
}

const char *sc_manifest_name(const sc_manifest *manifest)
{
    return manifest->name;
}

/* One part of the digest: its kind, its length and its bytes, so no two lists of parts hash alike. */
static void digest_part(sc_sha256 *hash, const char *kind, const void *bytes, size_t size)
{
    uint64_t length = size;
    sc_sha256_update(hash, kind, strlen(kind) + 1);
    sc_sha256_update(hash, &length, sizeof length);
    sc_sha256_update(hash, bytes, size);
}

static int digest_file(const sc_manifest *m, sc_sha256 *hash, const char *kind, const char *path, sc_error *error)
{
    size_t size;
    char *bytes = sc_read_file(path, &size, error);
    if (!bytes)
        return sc_fail_prefix(error, "%s", m->path);
    digest_part(hash, kind, bytes, size);
    free(bytes);
    return 0;
}

/* The {"file": ...} of an initialiser or expected contents, if it has one. */
static int digest_init_file(const sc_manifest *m, sc_sha256 *hash, const cJSON *init, sc_error *error)
{
    const cJSON *file = cJSON_IsObject(init) ? cJSON_GetObjectItemCaseSensitive(init, "file") : NULL;
    if (!cJSON_IsString(file))
        return 0;
    char path[4096];
    if (sc_path_relative_to(m->path, file->valuestring, path, sizeof path, error) < 0)
        return -1;
    return digest_file(m, hash, "input", path, error);
}

int sc_manifest_digest(const sc_manifest *m, char digest[SC_SHA256_HEX], sc_error *error)
{
    sc_sha256 hash;
    sc_sha256_init(&hash);
    digest_part(&hash, "manifest", m->text, strlen(m->text));
    for (int i = 0; i < m->module_count; i++)
        if (digest_file(m, &hash, "ptx", m->modules[i].path, error) < 0)
            return -1;
    for (int i = 0; i < m->buffer_count; i++)
        if (digest_init_file(m, &hash, m->buffers[i].init, error) < 0)
            return -1;
    for (const cJSON *e = m->expected ? m->expected->child : NULL; e; e = e->next)
        if (digest_init_file(m, &hash, e, error) < 0)
            return -1;
    sc_sha256_hex(&hash, digest);
    return 0;
}

/* An initialiser as its elements need it, decoded once per buffer (not once per element). */
typedef struct element_init {
    enum { INIT_ZERO, INIT_FILE, INIT_IOTA, INIT_NUMBER, INIT_RANDOM } kind;
    double number, low, high;   /* INIT_NUMBER's value; INIT_RANDOM's bounds */
} element_init;

static element_init decode_init(const cJSON *init, const uint8_t *file_bytes)
{
    if (!init || (cJSON_IsString(init) && !strcmp(init->valuestring, "zero")))
        return (element_init){.kind = INIT_ZERO};
    if (file_bytes)
        return (element_init){.kind = INIT_FILE};
    if (cJSON_IsString(init))
        return (element_init){.kind = INIT_IOTA};
    if (cJSON_IsNumber(init))
        return (element_init){.kind = INIT_NUMBER, .number = init->valuedouble};
    const cJSON *spec = cJSON_GetObjectItemCaseSensitive(init, "random");
    const cJSON *low = cJSON_GetObjectItemCaseSensitive(spec, "min"), *high = cJSON_GetObjectItemCaseSensitive(spec, "max");
    return (element_init){.kind = INIT_RANDOM, .low = low ? low->valuedouble : 0.0, .high = high ? high->valuedouble : 1.0};
}

/* Element `i` of an initialiser, as bits of `type`. `file_bytes` holds a {"file"} init's data. */
static uint64_t init_element(const element_init *init, ptx_type type, uint64_t i, const uint8_t *file_bytes,
                             sc_rng *random)
{
    unsigned size = ptx_type_size(type);
    double value = 0.0;
    switch (init->kind) {
    case INIT_ZERO:
        return 0;
    case INIT_FILE:
        return exec_load_bytes(file_bytes + i * size, size);
    case INIT_IOTA:
        value = (double)i;
        break;
    case INIT_NUMBER:
        value = init->number;
        break;
    case INIT_RANDOM:
        if (ptx_type_is_float(type))
            value = sc_rng_float(random, (float)init->low, (float)init->high);
        else
            value = init->low + (double)(sc_rng_next(random) % ((uint64_t)(init->high - init->low) + 1));
        break;
    }
    if (type == PTX_TYPE_F32)
        return alu_from_f32((float)value);
    if (type == PTX_TYPE_F64)
        return alu_from_f64(value);
    return (uint64_t)(int64_t)value & alu_width_mask(size);
}

/* Fills `bytes` (count elements of `type`) from an initialiser. */
static int fill_elements(const sc_manifest *m, const cJSON *init, ptx_type type, uint64_t count, uint8_t *bytes,
                         const char *key, sc_error *error)
{
    unsigned size = ptx_type_size(type);
    uint8_t *file_bytes = NULL;
    const cJSON *file = cJSON_IsObject(init) ? cJSON_GetObjectItemCaseSensitive(init, "file") : NULL;
    if (file) {
        char path[4096];
        size_t length;
        if (sc_path_relative_to(m->path, file->valuestring, path, sizeof path, error) < 0)
            return -1;
        file_bytes = (uint8_t *)sc_read_file(path, &length, error);
        if (!file_bytes)
            return sc_fail_prefix(error, "%s: %s", m->path, key);
        if (length != count * size) {
            free(file_bytes);
            return sc_fail(error, "%s: %s: file %s holds %zu bytes, the buffer needs %llu", m->path, key, path, length,
                           (unsigned long long)(count * size));
        }
    }
    const cJSON *spec = cJSON_IsObject(init) ? cJSON_GetObjectItemCaseSensitive(init, "random") : NULL;
    const cJSON *seed = spec ? cJSON_GetObjectItemCaseSensitive(spec, "seed") : NULL;
    sc_rng random;
    sc_rng_seed(&random, cJSON_IsNumber(seed) ? (uint64_t)seed->valuedouble : 1, 0);
    element_init decoded = decode_init(init, file_bytes);
    for (uint64_t i = 0; i < count; i++)
        exec_store_bytes(bytes + i * size, size, init_element(&decoded, type, i, file_bytes, &random));
    free(file_bytes);
    return 0;
}

/* Finds `name` with `find` in module `only` (when >= 0) or in whichever module has it: the
 * module index and the item's index, or -1 with an error "KEY: FILE has no WHAT 'name'" (or "no
 * module has a WHAT", or "both A and B have a WHAT" when the choice is ambiguous). */
typedef int (*module_lookup)(const ptx_module *module, const char *name);

static int find_in_modules(const sc_manifest *m, sc_device *device, int only, module_lookup find, const char *name,
                           const char *key, const char *what, int *chosen, int *index, sc_error *error)
{
    *chosen = -1;
    for (int i = 0; i < m->module_count; i++) {
        int found = only >= 0 && i != only ? -1 : find(sc_device_module(device, m->modules[i].handle), name);
        if (found < 0)
            continue;
        if (*chosen >= 0)
            return sc_fail(error, "%s: %s: both %s and %s have a %s '%s' (choose one with \"module\")", m->path, key,
                           m->modules[*chosen].path, m->modules[i].path, what, name);
        *chosen = i;
        *index = found;
    }
    if (*chosen >= 0)
        return 0;
    if (only >= 0 || m->module_count == 1)
        return sc_fail(error, "%s: %s: %s has no %s '%s'", m->path, key, m->modules[only >= 0 ? only : 0].path, what,
                       name);
    return sc_fail(error, "%s: %s: no module has a %s '%s'", m->path, key, what, name);
}

static int find_kernel(const ptx_module *module, const char *name)
{
    int function = ptx_find_function(module, name);
    return function >= 0 && module->functions[function].is_entry ? function : -1;
}

/* A "symbol" buffer's address: the variable of its module (or of the one module that has it),
 * which must hold at least the buffer's bytes. */
static int place_symbol_buffer(const sc_manifest *m, sc_device *device, manifest_buffer *buffer, sc_error *error)
{
    char key[300];
    snprintf(key, sizeof key, "buffers.%s.symbol", buffer->name);
    int chosen, index;
    if (find_in_modules(m, device, buffer->symbol_module, ptx_find_variable, buffer->symbol, key,
                        ".global or .const variable", &chosen, &index, error) < 0)
        return -1;
    const ptx_module *module = sc_device_module(device, m->modules[chosen].handle);
    const ptx_symbol *symbol = &module->symbols[index];
    uint64_t bytes = buffer->count * ptx_type_size(buffer->type);
    if (bytes > symbol->size)
        return sc_fail(error, "%s: buffers.%s: %llu bytes, but variable %s of %s holds %llu", m->path, buffer->name,
                       (unsigned long long)bytes, symbol->name, m->modules[chosen].path,
                       (unsigned long long)symbol->size);
    buffer->address = sc_device_symbol_address(device, m->modules[chosen].handle, symbol->name);
    return 0;
}

/* ---- a buffer's initial contents, made once per process ----
 * Unless its initialiser is a file (which may change between runs), a buffer's initial contents
 * depend only on its initialiser, type and count: they are made at its first run and kept for the
 * process, and each later run copies them (a sampled calibration runs one manifest dozens of
 * times, and blur_large's 8M random elements took 12% of each run). Shared by the threads that
 * take runs in parallel (sc_parallel_run), up to INIT_CACHE_BYTES in all; larger buffers are
 * made for each run. */
#define INIT_CACHE_BYTES (UINT64_C(1) << 30)

typedef struct kept_contents {
    struct kept_contents *next;
    char *key;                 /* type, count and the initialiser's JSON */
    uint8_t *bytes;
} kept_contents;

static pthread_mutex_t kept_lock = PTHREAD_MUTEX_INITIALIZER;
static kept_contents *kept_list;
static uint64_t kept_bytes;

/* The kept contents of `key`, made with fill_elements (which cannot fail without a file) the first
 * time; NULL if they would exceed INIT_CACHE_BYTES or memory runs out. */
static const uint8_t *kept_contents_of(const sc_manifest *m, const manifest_buffer *buffer, const char *key,
                                       uint64_t bytes)
{
    pthread_mutex_lock(&kept_lock);
    kept_contents *kept = kept_list;
    while (kept && strcmp(kept->key, key))
        kept = kept->next;
    if (!kept && kept_bytes + bytes <= INIT_CACHE_BYTES && (kept = calloc(1, sizeof *kept))) {
        kept->key = strdup(key);
        kept->bytes = malloc(bytes);
        if (kept->key && kept->bytes) {
            sc_error unused = {{0}};
            fill_elements(m, buffer->init, buffer->type, buffer->count, kept->bytes, "", &unused);
            kept->next = kept_list;
            kept_list = kept;
            kept_bytes += bytes;
        } else {   /* out of memory: the caller makes them for this run */
            free(kept->key);
            free(kept->bytes);
            free(kept);
            kept = NULL;
        }
    }
    pthread_mutex_unlock(&kept_lock);
    return kept ? kept->bytes : NULL;
}

/* Copies the buffer's initial contents to the device: the kept ones where they can be kept, else
 * made for this run. */
static int initialise_buffer(const sc_manifest *m, sc_device *device, const manifest_buffer *buffer, sc_error *error)
{
    uint64_t bytes = buffer_bytes(buffer);
    bool from_file = cJSON_IsObject(buffer->init) && cJSON_GetObjectItemCaseSensitive(buffer->init, "file");
    char *init_json = from_file || !buffer->init ? NULL : cJSON_PrintUnformatted(buffer->init);
    char *key = NULL;
    const uint8_t *kept = NULL;
    if (!from_file) {
        size_t length = strlen(init_json ? init_json : "null") + 64;
        key = malloc(length);
        snprintf(key, length, "%d %llu %s", (int)buffer->type, (unsigned long long)buffer->count,
                 init_json ? init_json : "null");
        kept = kept_contents_of(m, buffer, key, bytes);
    }
    free(init_json);
    free(key);
    if (kept)
        return sc_memcpy_to_device(device, buffer->address, kept, bytes, error);
    uint8_t *contents = malloc(bytes);
    char at[300];
    snprintf(at, sizeof at, "buffers.%s.init", buffer->name);
    int status = fill_elements(m, buffer->init, buffer->type, buffer->count, contents, at, error);
    if (status == 0)
        status = sc_memcpy_to_device(device, buffer->address, contents, bytes, error);
    free(contents);
    return status;
}

static int allocate_buffers(sc_manifest *m, sc_device *device, sc_error *error)
{
    for (int i = 0; i < m->buffer_count; i++) {
        manifest_buffer *buffer = &m->buffers[i];
        uint64_t bytes = buffer_bytes(buffer);
        if (buffer->symbol) {
            if (place_symbol_buffer(m, device, buffer, error) < 0)
                return -1;
            if (!buffer->init)
                continue;   /* keeps the PTX's initial value */
        } else {
            buffer->address = sc_device_malloc(device, bytes);
        }
        if (!buffer->address)
            return sc_fail(error, "%s: buffers.%s: cannot allocate %llu bytes", m->path, buffer->name,
                           (unsigned long long)bytes);
        if (initialise_buffer(m, device, buffer, error) < 0)
            return -1;
    }
    return 0;
}

static sc_dim3 dim3_of(const cJSON *dims)
{
    if (cJSON_IsNumber(dims))
        return (sc_dim3){(uint32_t)dims->valuedouble, 1, 1};
    uint32_t values[3] = {1, 1, 1};
    int i = 0;
    for (const cJSON *d = dims->child; d && i < 3; d = d->next)
        values[i++] = (uint32_t)d->valuedouble;
    return (sc_dim3){values[0], values[1], values[2]};
}

/* The bits of one argument; a plain number passed to an .f32/.f64 parameter is converted. */
static sc_kernel_arg argument_bits(const sc_manifest *m, const cJSON *arg, ptx_type param_type)
{
    if (cJSON_IsString(arg))
        return sc_arg_u64(find_buffer(m, arg->valuestring)->address);
    if (cJSON_IsBool(arg))
        return sc_arg_u32(cJSON_IsTrue(arg));
    if (cJSON_IsObject(arg) && cJSON_GetObjectItemCaseSensitive(arg, "buffer"))
        return sc_arg_u64(find_buffer(m, cJSON_GetObjectItemCaseSensitive(arg, "buffer")->valuestring)->address +
                          (uint64_t)cJSON_GetObjectItemCaseSensitive(arg, "offset")->valuedouble);
    if (cJSON_IsObject(arg)) {
        if (!strcmp(arg->child->string, "f32"))
            return sc_arg_f32((float)arg->child->valuedouble);
        if (!strcmp(arg->child->string, "f64"))
            return sc_arg_f64(arg->child->valuedouble);
        return sc_arg_u64((uint64_t)(int64_t)arg->child->valuedouble);
    }
    if (param_type == PTX_TYPE_F32)
        return sc_arg_f32((float)arg->valuedouble);
    if (param_type == PTX_TYPE_F64)
        return sc_arg_f64(arg->valuedouble);
    return sc_arg_u64((uint64_t)(int64_t)arg->valuedouble);
}

/* Whether a number given for an integer parameter (or as {"u32"|"u64": n}) fits it exactly:
 * whole, and within the type's range (64-bit types: within 2^53, where doubles stay exact). */
static const char *integer_argument_problem(double value, ptx_type type)
{
    if (value != floor(value))
        return "is not a whole number";
    unsigned bits = 8 * ptx_type_size(type);
    bool is_signed = ptx_type_is_signed(type);
    double low = is_signed ? -ldexp(1.0, bits < 64 ? (int)bits - 1 : 53) : 0.0;
    double high = bits < 64 ? ldexp(1.0, is_signed ? (int)bits - 1 : (int)bits) - 1 : ldexp(1.0, 53);
    return value < low || value > high ? "is out of range" : NULL;
}

/* The module and function a launch runs: its "module", else the one module that has a kernel of
 * that name. */
static int resolve_kernel(const sc_manifest *m, sc_device *device, const cJSON *item, const char *at, int *chosen,
                          int *function, sc_error *error)
{
    int only;
    load_module_choice(m, item, at, &only, error);  /* validated when loaded */
    char key[700];
    snprintf(key, sizeof key, "%s.kernel", at);
    return find_in_modules(m, device, only, find_kernel, cJSON_GetObjectItemCaseSensitive(item, "kernel")->valuestring,
                           key, "kernel", chosen, function, error);
}

/* Before anything runs: every launch names a kernel of the PTX, with as many arguments as it
 * takes, and every number fits the parameter it is passed to. */
static int check_launches(const sc_manifest *m, sc_device *device, const cJSON *launches, const char *key,
                          sc_error *error)
{
    int i = 0;
    for (const cJSON *item = launches->child; item; item = item->next, i++) {
        char at[600], field[700];
        snprintf(at, sizeof at, "%s[%d]", key, i);
        if (cJSON_GetObjectItemCaseSensitive(item, "repeat_until_zero")) {
            snprintf(field, sizeof field, "%s.launches", at);
            if (check_launches(m, device, cJSON_GetObjectItemCaseSensitive(item, "launches"), field, error) < 0)
                return -1;
            continue;
        }
        if (is_host_step(item))
            continue;
        const char *kernel_name = cJSON_GetObjectItemCaseSensitive(item, "kernel")->valuestring;
        int chosen, function;
        const ptx_module *module;
        if (resolve_kernel(m, device, item, at, &chosen, &function, error) < 0)
            return -1;
        module = sc_device_module(device, m->modules[chosen].handle);
        if (ptx_check_kernel(module, function, error) < 0)
            return sc_fail_prefix(error, "%s: %s.kernel", m->path, at);
        const ptx_function *kernel = &module->functions[function];
        const cJSON *args = cJSON_GetObjectItemCaseSensitive(item, "args");
        int count = args ? cJSON_GetArraySize(args) : 0;
        if (count != kernel->param_count)
            return sc_fail(error, "%s: %s.args: kernel %s takes %d arguments, %d given", m->path, at, kernel_name,
                           kernel->param_count, count);
        int a = 0;
        for (const cJSON *arg = args ? args->child : NULL; arg; arg = arg->next, a++) {
            ptx_type type = (ptx_type)module->symbols[kernel->params[a]].element_type;
            if (cJSON_IsObject(arg) && cJSON_GetObjectItemCaseSensitive(arg, "buffer"))
                continue;   /* {"buffer": name, "offset": bytes} */
            const cJSON *number = cJSON_IsNumber(arg) ? arg : cJSON_IsObject(arg) ? arg->child : NULL;
            if (cJSON_IsObject(arg) && !strcmp(arg->child->string, "u32"))
                type = PTX_TYPE_U32;
            else if (cJSON_IsObject(arg) && !strcmp(arg->child->string, "u64"))
                type = PTX_TYPE_U64;
            else if (cJSON_IsObject(arg))
                continue;   /* {"f32"|"f64": x} */
            if (!number || ptx_type_is_float(type))
                continue;
            const char *problem = integer_argument_problem(number->valuedouble, type);
            if (problem)
                return sc_fail(error, "%s: %s.args[%d]: %.17g %s for .%s parameter %d of %s", m->path, at, a,
                               number->valuedouble, problem, ptx_type_name(type), a, kernel_name);
        }
    }
    return 0;
}

static int launch_one(sc_manifest *m, sc_device *device, const cJSON *item, const char *key, sc_error *error)
{
    int chosen, function;
    if (resolve_kernel(m, device, item, key, &chosen, &function, error) < 0)
        return -1;
    const ptx_module *module = sc_device_module(device, m->modules[chosen].handle);
    const ptx_function *kernel = &module->functions[function];
    const cJSON *args = cJSON_GetObjectItemCaseSensitive(item, "args");
    int count = args ? cJSON_GetArraySize(args) : 0;
    sc_kernel_arg *bits = calloc((size_t)count + 1, sizeof *bits);
    int i = 0;
    for (const cJSON *arg = args ? args->child : NULL; arg; arg = arg->next, i++)
        bits[i] = argument_bits(m, arg, (ptx_type)module->symbols[kernel->params[i]].element_type);
    const cJSON *shared = cJSON_GetObjectItemCaseSensitive(item, "shared_bytes");
    sc_dma_mapping dma;
    int status = parse_dma(m, key, item, &dma, error);
    if (status == 0)
        status = sc_launch_kernel_mapped(device, m->modules[chosen].handle, kernel->name,
                                         dim3_of(cJSON_GetObjectItemCaseSensitive(item, "grid")),
                                         dim3_of(cJSON_GetObjectItemCaseSensitive(item, "block")),
                                         shared ? (uint32_t)shared->valuedouble : 0, &dma, bits, count, error);
    free(bits);
    return status < 0 ? sc_fail_prefix(error, "%s: %s", m->path, key) : 0;
}

static bool buffer_is_zero(sc_device *device, const manifest_buffer *buffer)
{
    uint64_t bytes = buffer->count * ptx_type_size(buffer->type);
    sc_error ignored;
    uint8_t *contents = malloc(bytes);
    bool zero = sc_memcpy_from_device(device, contents, buffer->address, bytes, &ignored) == 0;
    for (uint64_t i = 0; zero && i < bytes; i++)
        zero = contents[i] == 0;
    free(contents);
    return zero;
}

static int run_host_step(const sc_manifest *m, sc_device *device, const cJSON *item, const char *at, sc_error *error)
{
    host_step step;
    if (parse_host_step(m, at, item, &step, error) < 0)
        return -1;
    int status = step.is_copy ? sc_memcpy_device_to_device(device, step.to->address + step.to_offset,
                                                           step.from->address + step.from_offset, step.bytes, error)
                              : sc_memset_device(device, step.to->address + step.to_offset, step.value, step.bytes,
                                                 error);
    return status < 0 ? sc_fail_prefix(error, "%s: %s", m->path, at) : 0;
}

static int run_launches(sc_manifest *m, sc_device *device, const cJSON *launches, const char *key, sc_error *error)
{
    int i = 0;
    for (const cJSON *item = launches->child; item; item = item->next, i++) {
        char at[600];
        snprintf(at, sizeof at, "%s[%d]", key, i);
        const cJSON *flag_name = cJSON_GetObjectItemCaseSensitive(item, "repeat_until_zero");
        if (is_host_step(item)) {
            if (run_host_step(m, device, item, at, error) < 0)
                return -1;
            continue;
        }
        if (!flag_name) {
            if (launch_one(m, device, item, at, error) < 0)
                return -1;
            continue;
        }
        const manifest_buffer *flag = find_buffer(m, flag_name->valuestring);
        uint64_t limit = (uint64_t)cJSON_GetObjectItemCaseSensitive(item, "max_iterations")->valuedouble;
        char body[700];
        snprintf(body, sizeof body, "%s.launches", at);
        bool settled = false;
        for (uint64_t iteration = 0; iteration < limit && !settled; iteration++) {
            if (sc_memset_device(device, flag->address, 0, flag->count * ptx_type_size(flag->type), error) < 0 ||
                run_launches(m, device, cJSON_GetObjectItemCaseSensitive(item, "launches"), body, error) < 0)
                return -1;
            settled = buffer_is_zero(device, flag);
        }
        if (!settled)
            return sc_fail(error, "%s: %s.max_iterations: buffer %s still not zero after %llu iterations", m->path, at,
                           flag->name, (unsigned long long)limit);
    }
    return 0;
}

/* Integers must be equal; floats may differ by a relative 1e-5 (different but valid roundings). */
static bool values_match(ptx_type type, uint64_t got, uint64_t want)
{
    if (!ptx_type_is_float(type))
        return got == want;
    double a = type == PTX_TYPE_F32 ? alu_as_f32(got) : alu_as_f64(got);
    double b = type == PTX_TYPE_F32 ? alu_as_f32(want) : alu_as_f64(want);
    return a == b || fabs(a - b) <= 1e-5 * fmax(fabs(a), fabs(b));
}

static void compare_expected(sc_manifest *m, sc_device *device, sc_check_result *check, sc_error *error)
{
    sc_check_pass(check);
    if (!m->expected) {
        snprintf(check->detail, sizeof check->detail, "no reference in the manifest");
        return;
    }
    for (const cJSON *e = m->expected->child; e && check->passed; e = e->next) {
        const manifest_buffer *buffer = find_buffer(m, e->string);
        unsigned size = ptx_type_size(buffer->type);
        uint8_t *actual = malloc(buffer->count * size), *wanted = malloc(buffer->count * size);
        char key[300];
        snprintf(key, sizeof key, "expected.%s", e->string);
        if (sc_memcpy_from_device(device, actual, buffer->address, buffer->count * size, error) < 0 ||
            fill_elements(m, e, buffer->type, buffer->count, wanted, key, error) < 0)
            sc_check_fail(check, "%s", error->message);
        for (uint64_t i = 0; check->passed && i < buffer->count; i++) {
            uint64_t got = exec_load_bytes(actual + i * size, size), want = exec_load_bytes(wanted + i * size, size);
            if (!values_match(buffer->type, got, want))
                sc_check_fail(check, "%s[%llu] = 0x%llx, expected 0x%llx", buffer->name, (unsigned long long)i,
                              (unsigned long long)got, (unsigned long long)want);
        }
        free(actual);
        free(wanted);
    }
}

int sc_manifest_run(sc_manifest *m, sc_device *device, sc_check_result *check, sc_error *error)
{
    for (int i = 0; i < m->module_count; i++)
        if ((m->modules[i].handle = sc_device_load_ptx(device, m->modules[i].path, error)) < 0)
            return -1;
    if (check_launches(m, device, m->launches, "launches", error) < 0 || allocate_buffers(m, device, error) < 0 ||
        run_launches(m, device, m->launches, "launches", error) < 0)
        return -1;
    compare_expected(m, device, check, error);
    return 0;
}

int sc_manifest_dump(const sc_manifest *m, sc_device *device, const char *name, const char *path, sc_error *error)
{
    const manifest_buffer *buffer = find_buffer(m, name);
    if (!buffer)
        return sc_fail(error, "--dump: %s has no buffer named '%s'", m->path, name);
    uint64_t bytes = buffer->count * ptx_type_size(buffer->type);
    uint8_t *contents = malloc(bytes);
    int status = sc_memcpy_from_device(device, contents, buffer->address, bytes, error);
    FILE *out = status == 0 ? fopen(path, "wb") : NULL;
    if (status == 0 && !out)
        status = sc_fail(error, "--dump: cannot write %s", path);
    if (out && fwrite(contents, 1, bytes, out) != bytes)
        status = sc_fail(error, "--dump: short write to %s", path);
    if (out && fclose(out) != 0)
        status = sc_fail(error, "--dump: cannot write %s", path);
    free(contents);
    return status;
}
