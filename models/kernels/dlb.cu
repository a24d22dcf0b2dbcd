// dlb.cu — dynamic load balancing by work stealing (Ren's DLB, after Cederman & Tsigas's octree
// partitioning): every CTA owns a double-ended task queue in global memory (Arora, Blumofe and
// Plaxton's lock-free deque). A task is an octree node: a range of particle ids, its depth and its
// Morton prefix. The CTA's threads split the node's particles into its eight octants (counting in
// shared memory, then scattering into the other of two id buffers); non-empty octants with more
// than `leaf_limit` particles (and above the depth limit) become new tasks pushed onto the CTA's own
// deque, the others become leaves (a leaf record, and its ids copied to `placed`). A CTA takes
// tasks from the bottom of its own deque; when that is empty it steals from the top of a random
// other CTA's deque. Every queue access is fenced (Ren adds the fences the original lacked):
// a push writes the task, fences, then publishes the new bottom; a pop publishes the lowered
// bottom and fences before reading the top (the deque's store-load order), and one that empties
// the deque resets the bottom to 0 and fences before installing the next (tag, top 0) age, so no
// stealer can pair the new top with an older bottom; a steal reads the top,
// fences, reads the bottom (so a bottom older than the top cannot make an emptied deque look
// full), fences, then reads the task before claiming it with atomicCAS.
// The run ends when `outstanding` (tasks pushed but not yet finished) is zero: children are added
// to it before their parent is retired, so it cannot reach zero early.
// Only thread 0 of a CTA touches the deques; it hands a task to its CTA through shared memory.

#define DLB_TASK_WORDS 4          // begin, count, depth, code
#define DLB_HEADER_WORDS 64       // per CTA: age (tag << 16 | top) at word 0, bottom at word 32
#define DLB_COORD_BITS 10         // coordinates in [0, 1024): octant bit of depth d is 9 - d
#define STATE_OUTSTANDING 0       // word offsets in the global state array (one cache line each)
#define STATE_LEAVES 32
#define STATE_TASKS 64
#define STATE_OVERFLOW 96

struct dlb_task {
    unsigned begin, count, depth, code;
};

// Thread 0: pushes `task` onto the bottom of its own deque (bottom kept in *bottom).
__device__ void deque_push(volatile unsigned *items, volatile unsigned *header, unsigned capacity,
                           unsigned *bottom, dlb_task task, unsigned *state)
{
    if (*bottom >= capacity) {
        atomicExch(&state[STATE_OVERFLOW], 1u);
        return;
    }
    volatile unsigned *slot = items + *bottom * DLB_TASK_WORDS;
    slot[0] = task.begin;
    slot[1] = task.count;
    slot[2] = task.depth;
    slot[3] = task.code;
    __threadfence();
    *bottom += 1;
    header[32] = *bottom;
}

// Thread 0: pops from the bottom of its own deque; returns whether it got a task.
__device__ bool deque_pop(volatile unsigned *items, volatile unsigned *header, unsigned *bottom, dlb_task *task)
{
    if (*bottom == 0)
        return false;
    unsigned b = *bottom - 1;
    header[32] = b;
    __threadfence();
    unsigned age = header[0];
    unsigned top = age & 0xffffu;
    volatile unsigned *slot = items + b * DLB_TASK_WORDS;
    *task = dlb_task{slot[0], slot[1], slot[2], slot[3]};
    if (b > top) {
        *bottom = b;
        return true;
    }
    unsigned fresh = ((age >> 16) + 1) << 16;   // next tag, top 0
    *bottom = 0;
    header[32] = 0;
    __threadfence();   // bottom 0 visible before the new age: else a stealer reading the new top 0
                       // could still see the old bottom (b) and take slot 0 while it is rewritten
    bool won = b == top && atomicCAS((unsigned *)header, age, fresh) == age;
    if (!won)
        atomicExch((unsigned *)header, fresh);
    __threadfence();
    return won;
}

// Thread 0: tries to take the top task of another CTA's deque.
__device__ bool deque_steal(volatile unsigned *items, volatile unsigned *header, dlb_task *task)
{
    unsigned age = header[0];
    __threadfence();
    unsigned bottom = header[32];
    __threadfence();
    unsigned top = age & 0xffffu;
    if (bottom <= top)
        return false;
    volatile unsigned *slot = items + top * DLB_TASK_WORDS;
    *task = dlb_task{slot[0], slot[1], slot[2], slot[3]};
    bool won = atomicCAS((unsigned *)header, age, age + 1) == age;
    __threadfence();
    return won;
}

__device__ unsigned octant_of(const unsigned *x, const unsigned *y, const unsigned *z, unsigned id, unsigned depth)
{
    unsigned bit = DLB_COORD_BITS - 1 - depth;
    return ((x[id] >> bit) & 1u) << 2 | ((y[id] >> bit) & 1u) << 1 | ((z[id] >> bit) & 1u);
}

// Expects blockDim.x >= 8. ids0 holds the root's ids; `headers` and `items` are the deques
// (deque of CTA c: headers + c * DLB_HEADER_WORDS, items + c * capacity * DLB_TASK_WORDS); the
// host puts the root task in CTA 0's deque. leaves receives DLB_TASK_WORDS per leaf.
extern "C" __global__ void dlb_partition(const unsigned *x, const unsigned *y, const unsigned *z, unsigned *ids0,
                                         unsigned *ids1, unsigned *placed, unsigned *headers, unsigned *items,
                                         unsigned capacity, unsigned leaf_limit, unsigned max_depth,
                                         unsigned *leaves, unsigned *state)
{
    __shared__ dlb_task current;
    __shared__ int command;   // 1: process current, 0: finished
    __shared__ unsigned counts[8], starts[8], cursors[8];
    unsigned self = blockIdx.x, ctas = gridDim.x, tid = threadIdx.x;
    volatile unsigned *my_header = headers + self * DLB_HEADER_WORDS;
    volatile unsigned *my_items = items + self * capacity * DLB_TASK_WORDS;
    unsigned bottom = 0, random = 0x9e3779b9u * (self + 1);
    if (tid == 0)
        bottom = my_header[32];
    for (;;) {
        if (tid == 0) {
            dlb_task task;
            int got = 0;
            while (!got) {
                if (deque_pop(my_items, my_header, &bottom, &task)) {
                    got = 1;
                } else if (ctas > 1) {
                    random ^= random << 13;
                    random ^= random >> 17;
                    random ^= random << 5;
                    unsigned victim = (self + 1 + random % (ctas - 1)) % ctas;
                    if (deque_steal(items + victim * capacity * DLB_TASK_WORDS, headers + victim * DLB_HEADER_WORDS,
                                    &task))
                        got = 1;
                }
                if (!got && *(volatile unsigned *)&state[STATE_OUTSTANDING] == 0u)
                    got = -1;
            }
            command = got;
            current = task;
        }
        if (tid < 8)
            counts[tid] = 0;
        __syncthreads();
        if (command < 0)
            return;
        dlb_task task = current;
        const unsigned *source = task.depth % 2 ? ids1 : ids0;
        unsigned *target = task.depth % 2 ? ids0 : ids1;
        bool leaf = task.count <= leaf_limit || task.depth >= max_depth;
        if (leaf) {
            for (unsigned i = tid; i < task.count; i += blockDim.x)
                placed[task.begin + i] = source[task.begin + i];
        } else {
            for (unsigned i = tid; i < task.count; i += blockDim.x)
                atomicAdd(&counts[octant_of(x, y, z, source[task.begin + i], task.depth)], 1u);
            __syncthreads();
            if (tid == 0) {
                unsigned start = 0;
                for (int o = 0; o < 8; o++) {
                    starts[o] = start;
                    cursors[o] = start;
                    start += counts[o];
                }
            }
            __syncthreads();
            for (unsigned i = tid; i < task.count; i += blockDim.x) {
                unsigned id = source[task.begin + i];
                target[task.begin + atomicAdd(&cursors[octant_of(x, y, z, id, task.depth)], 1u)] = id;
            }
        }
        __syncthreads();
        if (tid == 0) {
            __threadfence();
            if (leaf) {
                unsigned slot = atomicAdd(&state[STATE_LEAVES], 1u);
                leaves[slot * DLB_TASK_WORDS + 0] = task.begin;
                leaves[slot * DLB_TASK_WORDS + 1] = task.count;
                leaves[slot * DLB_TASK_WORDS + 2] = task.depth;
                leaves[slot * DLB_TASK_WORDS + 3] = task.code;
            } else {
                unsigned children = 0;
                for (int o = 0; o < 8; o++)
                    children += counts[o] > 0;
                atomicAdd(&state[STATE_OUTSTANDING], children);
                for (int o = 0; o < 8; o++)
                    if (counts[o] > 0)
                        deque_push(my_items, my_header, capacity, &bottom,
                                   dlb_task{task.begin + starts[o], counts[o], task.depth + 1, task.code << 3 | o},
                                   state);
            }
            atomicAdd(&state[STATE_TASKS], 1u);
            __threadfence();
            atomicSub(&state[STATE_OUTSTANDING], 1u);
        }
        __syncthreads();
    }
}
