// uts.cu — Unbalanced Tree Search: every warp repeatedly takes a batch of up to 32 tree nodes
// from a task queue (one node per lane), counts them, and pushes their children. The tree is
// implicit: a node is a 32-bit id, it has UTS_BRANCH children with probability
// branch_permille / 1000 (decided by hashing its id), and its children's ids are hashes too.
//   uts_global:  one global queue behind one spin lock (the GSI thesis's UTS).
//   utsd_local:  a queue per CTA with its own lock; a warp pushes to the global queue only when
//                its CTA's queue is full and pulls from it only when its CTA's queue is empty
//                (the GSI thesis's UTSD).
// Queues are LIFO stacks: a header (lock word, then top index) and an item array. Only lane 0
// of a warp touches a lock, and it does all the work under the lock itself: the critical
// section runs inside the branch that won the lock's compare-and-swap, and winners and losers
// meet again at the loop's test before anyone retries (as in hashtable.cu). The lock is the
// thesis's (GSI §5.1: "atomic instructions with acquire and release semantics"): it is taken by
// an atom.acquire.gpu CAS and given back by an atom.release.gpu exchange, with no fences.
// So two lock leaders in one 64-lane wavefront (lanes 0 and 32, each the lane 0 of a 32-lane
// PTX warp) never wait for each other. The run ends when no node is queued or in flight:
// `outstanding` counts nodes pushed but not yet processed, and children are added to it before
// their parent is retired, so it cannot reach zero early. Expects blockDim.x == 32 *
// UTS_WARPS_PER_CTA.

#define WARP_LANES 32
#define FULL_MASK 0xffffffffu
#define UTS_WARPS_PER_CTA 4
#define UTS_BRANCH 4
#define UTS_MAX_CHILDREN (WARP_LANES * UTS_BRANCH)

// Word offsets in the global state array (counters on their own cache lines).
#define STATE_LOCK 0
#define STATE_TOP 1
#define STATE_OUTSTANDING 32
#define STATE_VISITED 64
#define STATE_CHECKSUM 65
// Words of one per-CTA queue header (one cache line per CTA).
#define LOCAL_HEADER_WORDS 32

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

__device__ unsigned child_count(unsigned node, unsigned branch_permille)
{
    return hash32(node ^ 0x5bd1e995u) % 1000u < branch_permille ? UTS_BRANCH : 0;
}

__device__ unsigned child_id(unsigned node, unsigned index)
{
    return hash32(node + 0x9e3779b9u * (index + 1));
}

struct task_queue {
    unsigned *lock;
    volatile unsigned *top;
    volatile unsigned *items;
    unsigned capacity;
};

// Returns x, but the compiler cannot see that, so it cannot reason about the value. Without it
// nvcc sends lock losers straight back to the compare-and-swap and moves the critical section after
// the loop, where a winner would wait for losers spinning on its lock.
__device__ unsigned opaque(unsigned x)
{
    asm volatile("mov.u32 %0, %1;" : "=r"(x) : "r"(x));
    return x;
}

// Takes the lock if it is free: a compare-and-swap 0 -> 1 with acquire semantics at GPU scope;
// true when it was free.
__device__ bool try_lock(unsigned *lock)
{
    unsigned old;
    asm volatile("atom.acquire.gpu.global.cas.b32 %0, [%1], 0, 1;"
                 : "=r"(old) : "l"(__cvta_generic_to_global(lock)) : "memory");
    return old == 0u;
}

// Gives the lock back: an exchange with 0 with release semantics at GPU scope. Returns the
// word it replaced (1; the callers ignore it).
__device__ unsigned unlock(unsigned *lock)
{
    unsigned old;
    asm volatile("atom.release.gpu.global.exch.b32 %0, [%1], 0;"
                 : "=r"(old) : "l"(__cvta_generic_to_global(lock)) : "memory");
    return old;
}

// Lane 0 only: under the queue's lock, moves up to 32 nodes from the queue into `batch`.
__device__ unsigned pop_locked(task_queue queue, unsigned *batch)
{
    unsigned taken = 0, done = 0;
    do {
        if (try_lock(queue.lock)) {
            unsigned top = *queue.top;
            taken = min(top, (unsigned)WARP_LANES);
            for (unsigned i = 0; i < taken; i++)
                batch[i] = queue.items[top - 1 - i];
            *queue.top = top - taken;
            unlock(queue.lock);
            done = 1;
        }
    } while (!opaque(done));
    return taken;
}

// Lane 0 only: under the queue's lock, appends the `total` staged children if they fit.
__device__ bool push_locked(task_queue queue, const unsigned *staged, unsigned total)
{
    unsigned fits = 0, done = 0;
    do {
        if (try_lock(queue.lock)) {
            unsigned top = *queue.top;
            fits = top + total <= queue.capacity;
            if (fits) {
                for (unsigned i = 0; i < total; i++)
                    queue.items[top + i] = staged[i];
                *queue.top = top + total;
            }
            unlock(queue.lock);
            done = 1;
        }
    } while (!opaque(done));
    return fits != 0;
}

// Lane 0 moves up to 32 nodes from the queue into the warp's batch; every lane gets the count.
__device__ unsigned pop_batch(task_queue queue, unsigned *batch, unsigned lane)
{
    unsigned taken = 0;
    if (lane == 0 && *queue.top > 0)
        taken = pop_locked(queue, batch);
    __syncwarp();
    return __shfl_sync(FULL_MASK, taken, 0);
}

// Stages every lane's children in `staged` (in lane order), then lane 0 pushes them to
// `preferred`, or to `fallback` when `preferred` is full.
__device__ void push_children(task_queue preferred, task_queue fallback, unsigned node,
                              unsigned count, unsigned lane, unsigned *staged,
                              unsigned *outstanding)
{
    unsigned end = count;   // inclusive prefix sum of the lanes' child counts
    for (unsigned d = 1; d < WARP_LANES; d *= 2) {
        unsigned below = __shfl_up_sync(FULL_MASK, end, d);
        if (lane >= d)
            end += below;
    }
    unsigned total = __shfl_sync(FULL_MASK, end, WARP_LANES - 1);
    if (total == 0)
        return;
    for (unsigned c = 0; c < count; c++)
        staged[end - count + c] = child_id(node, c);
    __syncwarp();
    if (lane == 0) {
        atomicAdd(outstanding, total);
        if (!push_locked(preferred, staged, total))
            push_locked(fallback, staged, total);
    }
    __syncwarp();
}

// The worker loop shared by both kernels: take from `own` first, then from `shared`.
__device__ void uts_worker(task_queue own, task_queue shared, unsigned *state,
                           unsigned branch_permille)
{
    __shared__ unsigned batches[UTS_WARPS_PER_CTA][WARP_LANES];
    __shared__ unsigned children[UTS_WARPS_PER_CTA][UTS_MAX_CHILDREN];
    unsigned lane = threadIdx.x % WARP_LANES;
    unsigned *batch = batches[threadIdx.x / WARP_LANES];
    unsigned *staged = children[threadIdx.x / WARP_LANES];
    volatile unsigned *outstanding = &state[STATE_OUTSTANDING];
    for (;;) {
        unsigned taken = pop_batch(own, batch, lane);
        if (taken == 0 && own.lock != shared.lock)
            taken = pop_batch(shared, batch, lane);
        if (taken == 0) {
            if (*outstanding == 0)
                return;
            continue;
        }
        unsigned node = lane < taken ? batch[lane] : 0;
        unsigned count = lane < taken ? child_count(node, branch_permille) : 0;
        if (lane < taken) {
            atomicAdd(&state[STATE_VISITED], 1u);
            atomicAdd(&state[STATE_CHECKSUM], node);
        }
        push_children(own, shared, node, count, lane, staged, &state[STATE_OUTSTANDING]);
        if (lane == 0)
            atomicSub(&state[STATE_OUTSTANDING], taken);
    }
}

__device__ task_queue global_queue(unsigned *state, unsigned *items, unsigned capacity)
{
    task_queue queue = {&state[STATE_LOCK], &state[STATE_TOP], items, capacity};
    return queue;
}

extern "C" __global__ void uts_global(unsigned *state, unsigned *items, unsigned capacity,
                                      unsigned branch_permille)
{
    task_queue queue = global_queue(state, items, capacity);
    uts_worker(queue, queue, state, branch_permille);
}

extern "C" __global__ void utsd_local(unsigned *state, unsigned *items, unsigned capacity,
                                      unsigned branch_permille, unsigned *local_headers,
                                      unsigned *local_items, unsigned local_capacity)
{
    unsigned *header = local_headers + blockIdx.x * LOCAL_HEADER_WORDS;
    task_queue local = {&header[0], &header[1], local_items + blockIdx.x * local_capacity,
                        local_capacity};
    uts_worker(local, global_queue(state, items, capacity), state, branch_permille);
}
