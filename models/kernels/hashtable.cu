// hashtable.cu — concurrent upsert into a chained hash table guarded by one spin lock per
// bucket: for each (key, value) pair, lock the key's bucket, add the value to the key's node if
// the chain has one, else take a fresh node from a pool and link it at the chain's head, then
// unlock. Lanes of one warp may contend for one bucket, so the lock loop is written the
// pre-Volta way (see upsert) to stay deadlock-free under stack-based reconvergence.

#define HASH_EMPTY 0xffffffffu

// The same integer mix as sc_hash32 in workload_support.c.
__device__ unsigned hash32(unsigned x)
{
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

struct hash_table {
    unsigned *locks;       // one per bucket, 0 = free
    unsigned *heads;       // first node of each bucket's chain, or HASH_EMPTY
    unsigned *next;        // per node: the next node of its chain
    unsigned *node_keys;
    unsigned *node_values;
    unsigned *node_count;  // nodes taken from the pool so far
    unsigned bucket_count;
};

// Runs with the bucket's lock held.
__device__ void upsert_locked(hash_table table, unsigned bucket, unsigned key, unsigned value)
{
    unsigned node = table.heads[bucket];
    while (node != HASH_EMPTY && table.node_keys[node] != key)
        node = table.next[node];
    if (node != HASH_EMPTY) {
        table.node_values[node] += value;
        return;
    }
    node = atomicAdd(table.node_count, 1u);
    table.node_keys[node] = key;
    table.node_values[node] = value;
    table.next[node] = table.heads[bucket];
    table.heads[bucket] = node;
}

// Returns x, but the compiler cannot see that, so it cannot reason about the value.
__device__ unsigned opaque(unsigned x)
{
    asm volatile("mov.u32 %0, %1;" : "=r"(x) : "r"(x));
    return x;
}

// The critical section runs inside the branch that won the lock, and winners and losers meet
// again at the loop's test before anyone retries. The test goes through opaque() because
// otherwise nvcc sends the losers straight back to the atomicCAS and moves the critical section
// after the loop; then the reconvergence point of the lock test is the critical section itself,
// and a winner waits there for losers that spin on its lock forever.
__device__ void upsert(hash_table table, unsigned key, unsigned value)
{
    unsigned bucket = hash32(key) % table.bucket_count;
    unsigned done = 0;
    do {
        if (atomicCAS(&table.locks[bucket], 0u, 1u) == 0u) {
            __threadfence();
            upsert_locked(table, bucket, key, value);
            __threadfence();
            atomicExch(&table.locks[bucket], 0u);
            done = 1;
        }
    } while (!opaque(done));
}

extern "C" __global__ void hashtable_upsert(const unsigned *keys, const unsigned *values,
                                            unsigned n, unsigned *locks, unsigned *heads,
                                            unsigned *next, unsigned *node_keys,
                                            unsigned *node_values, unsigned *node_count,
                                            unsigned bucket_count)
{
    hash_table table = {locks, heads, next, node_keys, node_values, node_count, bucket_count};
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        upsert(table, keys[i], values[i]);
}
