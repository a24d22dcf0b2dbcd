/* hashtable.c — driver of the hash table workload: concurrent upserts of random (key, value)
 * pairs (keys repeat) into a chained hash table with one spin lock per bucket. The check walks
 * every chain read back from the device: each key sits in the bucket it hashes to, appears once,
 * and carries the sum of its values; and the table holds exactly the distinct keys.
 */
#include "workloads/workload_support.h"

#define HASH_BLOCK 128
#define HASH_CTAS 8
#define HASH_EMPTY 0xffffffffu   /* must match hashtable.cu */

/* The table as read back from the device. */
typedef struct host_table {
    uint32_t bucket_count, node_count;
    uint32_t *heads, *next, *node_keys, *node_values;
} host_table;

/* Device addresses of the table's arrays, in hashtable_upsert's parameter order. */
typedef struct device_table {
    uint64_t locks, heads, next, node_keys, node_values, node_count;
} device_table;

static int device_table_create(sc_device *device, uint32_t bucket_count, uint32_t pool, device_table *t,
                               sc_error *error)
{
    size_t bucket_bytes = bucket_count * sizeof(uint32_t), pool_bytes = pool * sizeof(uint32_t);
    t->locks = sc_workload_alloc(device, bucket_bytes, error);
    t->heads = sc_workload_alloc(device, bucket_bytes, error);
    t->next = sc_workload_alloc(device, pool_bytes, error);
    t->node_keys = sc_workload_alloc(device, pool_bytes, error);
    t->node_values = sc_workload_alloc(device, pool_bytes, error);
    t->node_count = sc_workload_alloc(device, sizeof(uint32_t), error);
    if (!t->locks || !t->heads || !t->next || !t->node_keys || !t->node_values || !t->node_count)
        return -1;
    return sc_memset_device(device, t->heads, 0xff, bucket_bytes, error);   /* every chain empty */
}

static int read_table(sc_device *device, const device_table *t, uint32_t pool, host_table *table, sc_error *error)
{
    if (sc_workload_read_u32(device, t->node_count, &table->node_count, error) < 0)
        return -1;
    if (table->node_count > pool)
        return sc_fail(error, "hashtable: %u nodes used, but the pool has %u", table->node_count, pool);
    if (sc_memcpy_from_device(device, table->heads, t->heads, table->bucket_count * sizeof(uint32_t), error) < 0 ||
        sc_memcpy_from_device(device, table->next, t->next, pool * sizeof(uint32_t), error) < 0 ||
        sc_memcpy_from_device(device, table->node_keys, t->node_keys, pool * sizeof(uint32_t), error) < 0)
        return -1;
    return sc_memcpy_from_device(device, table->node_values, t->node_values, pool * sizeof(uint32_t), error);
}

static int hashtable_on_device(sc_device *device, const uint32_t *keys, const uint32_t *values, uint32_t n,
                               host_table *table, sc_error *error)
{
    int module = sc_device_load_builtin_ptx(device, "hashtable", error);
    if (module < 0)
        return -1;
    device_table t;
    uint64_t keys_dev = sc_workload_upload(device, keys, n * sizeof *keys, error);
    uint64_t values_dev = sc_workload_upload(device, values, n * sizeof *values, error);
    if (keys_dev == 0 || values_dev == 0 || device_table_create(device, table->bucket_count, n, &t, error) < 0)
        return -1;
    sc_kernel_arg args[] = {sc_arg_ptr(keys_dev), sc_arg_ptr(values_dev), sc_arg_u32(n), sc_arg_ptr(t.locks),
                            sc_arg_ptr(t.heads), sc_arg_ptr(t.next), sc_arg_ptr(t.node_keys),
                            sc_arg_ptr(t.node_values), sc_arg_ptr(t.node_count), sc_arg_u32(table->bucket_count)};
    if (sc_launch_1d(device, module, "hashtable_upsert", HASH_CTAS, HASH_BLOCK, args, 10, error) < 0)
        return -1;
    return read_table(device, &t, n, table, error);
}

/* Walks every chain against the expected per-key sums (key_range entries; 0 = key absent). */
static void check_table(const host_table *table, const uint32_t *expected_sum, const uint32_t *expected_present,
                        uint32_t key_range, uint32_t distinct, uint8_t *seen, sc_check_result *check)
{
    uint32_t found = 0;
    for (uint32_t b = 0; b < table->bucket_count; b++)
        for (uint32_t node = table->heads[b]; node != HASH_EMPTY; node = table->next[node]) {
            uint32_t key = table->node_keys[node];
            if (node >= table->node_count || found >= distinct) {
                sc_check_fail(check, "bucket %u: chain is corrupt at node %u", b, node);
                return;
            }
            if (key >= key_range || !expected_present[key] || seen[key] || sc_hash32(key) % table->bucket_count != b) {
                sc_check_fail(check, "bucket %u: unexpected, misplaced or repeated key %u", b, key);
                return;
            }
            if (table->node_values[node] != expected_sum[key]) {
                sc_check_fail(check, "key %u: value %u, expected %u", key, table->node_values[node], expected_sum[key]);
                return;
            }
            seen[key] = 1;
            found++;
        }
    if (found != distinct)
        sc_check_fail(check, "table holds %u keys, expected %u", found, distinct);
    else
        sc_check_pass(check);
}

static int run_hashtable(sc_device *device, const sc_workload_params *params, sc_check_result *check,
                         sc_error *error)
{
    uint32_t n = sc_size_pick(params->size, 1024, 16384, 262144, 262144);
    uint32_t key_range = n / 2;   /* about one key in four repeats */
    sc_scratch scratch = {0};
    sc_rng rng;
    sc_rng_seed(&rng, params->seed, 14);
    uint32_t *keys = sc_random_u32s(&scratch, &rng, n, key_range);
    uint32_t *values = sc_random_u32s(&scratch, &rng, n, 100);
    host_table table = {.bucket_count = sc_size_pick(params->size, 16, 1024, 16384, 16384)};
    table.heads = sc_scratch_alloc(&scratch, table.bucket_count * sizeof(uint32_t));
    table.next = sc_scratch_alloc(&scratch, n * sizeof(uint32_t));
    table.node_keys = sc_scratch_alloc(&scratch, n * sizeof(uint32_t));
    table.node_values = sc_scratch_alloc(&scratch, n * sizeof(uint32_t));
    int status = hashtable_on_device(device, keys, values, n, &table, error);
    if (status == 0) {
        uint32_t *sum = sc_scratch_alloc(&scratch, key_range * sizeof *sum);
        uint32_t *present = sc_scratch_alloc(&scratch, key_range * sizeof *present);
        uint32_t distinct = 0;
        for (uint32_t i = 0; i < n; i++) {
            distinct += !present[keys[i]];
            present[keys[i]] = 1;
            sum[keys[i]] += values[i];
        }
        check_table(&table, sum, present, key_range, distinct, sc_scratch_alloc(&scratch, key_range), check);
    }
    sc_scratch_release(&scratch);
    return status;
}

const sc_workload sc_workload_hashtable = {
    .name = "hashtable",
    .description = "concurrent upserts into a chained hash table with one spin lock per bucket",
    .behaviour = "fine-grained locks: atomicCAS acquire, fenced critical section, atomicExch release",
    .run = run_hashtable,
};
