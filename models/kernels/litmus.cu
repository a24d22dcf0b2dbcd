// litmus.cu — the classic litmus tests MP, SB, LB, IRIW and CoRR. Each test has up to four
// roles; role r is played by lane 0 of the r-th warp of the grid, so one CTA of 32 * roles
// threads tests CTA scope and `roles` CTAs of 32 threads test GPU scope. Every kernel runs
// `iterations` independent instances; instance i uses the words x = data[i * LITMUS_STRIDE] and
// y = x + LITMUS_Y_OFFSET (on different cache lines) and records its loaded values in
// results[i * 4 + k] (0 or 1).
//   mode LITMUS_RELAXED: volatile loads and stores, no fences;
//   mode LITMUS_FENCED:  the same with a fence.sc (membar) of the test's scope between them;
//   mode LITMUS_ACQREL:  every load ld.acquire and every store st.release at the test's scope;
//   mode LITMUS_CACHED (MP and SB): MP with the consumer's data already cached. The producer
//     writes x with a plain (weak) store and releases y; the consumer reads x with a plain load
//     (so a non-coherent L1 holds the line), spins on y with ld.relaxed at the test's scope
//     (at most LITMUS_SPIN_LIMIT times), then reads x again with a plain load and no acquire.
//     Flag 1 with data 0 is the stale outcome, which the PTX model allows (no acquire);
//     SB in this mode: each thread first reads the other's word with a plain load (so its L1
//     may hold it), then stores its own word (volatile) and reads the other's again with a plain
//     load; both reading 0 is allowed by PTX (no fence) and forbidden by sequential consistency;
//   mode LITMUS_CACHED_ACQUIRE (MP only): the same with the spin an ld.acquire, which makes the
//     stale outcome forbidden: the acquire must drop the cached line.
// With LITMUS_RENDEZVOUS or'ed into the mode, the roles meet before every instance (each adds one
// to a counter after the data, data[iterations * LITMUS_STRIDE], and polls it with atomics until
// every role of this instance has arrived), so their accesses overlap in time instead of the roles
// drifting apart over the instances: what a real GPU needs for its weak outcomes to show.

#define LITMUS_STRIDE 64
#define LITMUS_Y_OFFSET 32
#define LITMUS_RELAXED 0
#define LITMUS_FENCED 1
#define LITMUS_ACQREL 2
#define LITMUS_CACHED 3
#define LITMUS_CACHED_ACQUIRE 4
#define LITMUS_SCOPE_CTA 0
#define LITMUS_SCOPE_GPU 1
#define LITMUS_SPIN_LIMIT 1024
#define LITMUS_RENDEZVOUS 0x100
#define LITMUS_MODE_MASK 0xff
#define WARP_LANES 32

struct litmus_config {
    unsigned mode, scope;
};

__device__ void litmus_store(unsigned *address, litmus_config config)
{
    size_t global = __cvta_generic_to_global(address);
    if (config.mode != LITMUS_ACQREL)
        *(volatile unsigned *)address = 1;
    else if (config.scope == LITMUS_SCOPE_GPU)
        asm volatile("st.release.gpu.global.u32 [%0], 1;" :: "l"(global) : "memory");
    else
        asm volatile("st.release.cta.global.u32 [%0], 1;" :: "l"(global) : "memory");
}

__device__ unsigned litmus_load(const unsigned *address, litmus_config config)
{
    size_t global = __cvta_generic_to_global(address);
    unsigned value;
    if (config.mode != LITMUS_ACQREL)
        value = *(const volatile unsigned *)address;
    else if (config.scope == LITMUS_SCOPE_GPU)
        asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(value) : "l"(global) : "memory");
    else
        asm volatile("ld.acquire.cta.global.u32 %0, [%1];" : "=r"(value) : "l"(global) : "memory");
    return value;
}

// The consumer's poll of the flag in the cached modes: ld.acquire in LITMUS_CACHED_ACQUIRE,
// else ld.relaxed, at the test's scope.
__device__ unsigned litmus_poll(const unsigned *address, litmus_config config)
{
    if (config.mode == LITMUS_CACHED_ACQUIRE)
        return litmus_load(address, {LITMUS_ACQREL, config.scope});
    size_t global = __cvta_generic_to_global(address);
    unsigned value;
    if (config.scope == LITMUS_SCOPE_GPU)
        asm volatile("ld.relaxed.gpu.global.u32 %0, [%1];" : "=r"(value) : "l"(global) : "memory");
    else
        asm volatile("ld.relaxed.cta.global.u32 %0, [%1];" : "=r"(value) : "l"(global) : "memory");
    return value;
}

__device__ void litmus_fence(litmus_config config)
{
    if (config.mode != LITMUS_FENCED)
        return;
    if (config.scope == LITMUS_SCOPE_GPU)
        __threadfence();
    else
        __threadfence_block();
}

// With LITMUS_RENDEZVOUS, waits until all `roles` roles have arrived for instance i.
__device__ void litmus_rendezvous(unsigned *data, unsigned iterations, unsigned mode, unsigned i, unsigned roles)
{
    if (!(mode & LITMUS_RENDEZVOUS))
        return;
    unsigned *counter = data + iterations * LITMUS_STRIDE, target = (i + 1) * roles;
    atomicAdd(counter, 1u);
    for (unsigned spin = 0; spin < 64 * LITMUS_SPIN_LIMIT && atomicAdd(counter, 0u) < target; spin++)
        ;
}

// The role this thread plays, or -1 if it only fills out its warp.
__device__ int litmus_role()
{
    unsigned thread = blockIdx.x * blockDim.x + threadIdx.x;
    return thread % WARP_LANES == 0 ? (int)(thread / WARP_LANES) : -1;
}

// One instance of MP in the cached modes: r[0] is the flag seen, r[1] the data read after it;
// r[2] is the warm-up read of x (kept so the load stays, not part of the outcome). The data can
// only be stale if the warm-up read beats the producer's write; once the consumer has waited for
// a flag the producer runs ahead, so in practice only the first instance races.
__device__ void litmus_mp_cached(int role, unsigned *x, unsigned *y, unsigned *r, litmus_config config)
{
    litmus_config release = {LITMUS_ACQREL, config.scope};
    if (role == 0) {
        *x = 1;
        litmus_store(y, release);
    } else if (role == 1) {
        unsigned warm = *x, flag = 0;
        for (unsigned spin = 0; spin < LITMUS_SPIN_LIMIT && !flag; spin++)
            flag = litmus_poll(y, config);
        r[0] = flag;
        r[1] = *x;
        r[2] = warm;
    }
}

// Message passing: does seeing the flag y imply seeing the data x?
extern "C" __global__ void litmus_mp(unsigned *data, unsigned *results, unsigned iterations,
                                     unsigned mode, unsigned scope)
{
    litmus_config config = {mode & LITMUS_MODE_MASK, scope};
    int role = litmus_role();
    for (unsigned i = 0; i < iterations; i++) {
        unsigned *x = data + i * LITMUS_STRIDE, *y = x + LITMUS_Y_OFFSET, *r = results + i * 4;
        if (role >= 0)
            litmus_rendezvous(data, iterations, mode, i, 2);
        if (config.mode == LITMUS_CACHED || config.mode == LITMUS_CACHED_ACQUIRE) {
            litmus_mp_cached(role, x, y, r, config);
        } else if (role == 0) {
            litmus_store(x, config);
            litmus_fence(config);
            litmus_store(y, config);
        } else if (role == 1) {
            r[0] = litmus_load(y, config);
            litmus_fence(config);
            r[1] = litmus_load(x, config);
        }
    }
}

// Store buffering: can both threads miss the other's store?
extern "C" __global__ void litmus_sb(unsigned *data, unsigned *results, unsigned iterations,
                                     unsigned mode, unsigned scope)
{
    litmus_config config = {mode & LITMUS_MODE_MASK, scope};
    int role = litmus_role();
    for (unsigned i = 0; i < iterations; i++) {
        unsigned *x = data + i * LITMUS_STRIDE, *y = x + LITMUS_Y_OFFSET, *r = results + i * 4;
        if (role == 0 || role == 1)
            litmus_rendezvous(data, iterations, mode, i, 2);
        if (config.mode == LITMUS_CACHED && (role == 0 || role == 1)) {
            unsigned *own = role == 0 ? x : y, *other = role == 0 ? y : x;
            unsigned warm = *other;
            litmus_store(own, config);
            asm volatile("" ::: "memory");   // the compiler must read *other again
            r[role] = *other;
            r[2 + role] = warm;
        } else if (role == 0 || role == 1) {
            litmus_store(role == 0 ? x : y, config);
            litmus_fence(config);
            r[role] = litmus_load(role == 0 ? y : x, config);
        }
    }
}

// Load buffering: can both threads read the store that comes after the other's load?
extern "C" __global__ void litmus_lb(unsigned *data, unsigned *results, unsigned iterations,
                                     unsigned mode, unsigned scope)
{
    litmus_config config = {mode & LITMUS_MODE_MASK, scope};
    int role = litmus_role();
    for (unsigned i = 0; i < iterations; i++) {
        unsigned *x = data + i * LITMUS_STRIDE, *y = x + LITMUS_Y_OFFSET, *r = results + i * 4;
        if (role == 0 || role == 1) {
            litmus_rendezvous(data, iterations, mode, i, 2);
            r[role] = litmus_load(role == 0 ? x : y, config);
            litmus_fence(config);
            litmus_store(role == 0 ? y : x, config);
        }
    }
}

// Independent reads of independent writes: can two readers see the writes in opposite orders?
extern "C" __global__ void litmus_iriw(unsigned *data, unsigned *results, unsigned iterations,
                                       unsigned mode, unsigned scope)
{
    litmus_config config = {mode & LITMUS_MODE_MASK, scope};
    int role = litmus_role();
    for (unsigned i = 0; i < iterations; i++) {
        unsigned *x = data + i * LITMUS_STRIDE, *y = x + LITMUS_Y_OFFSET, *r = results + i * 4;
        if (role >= 0 && role < 4)
            litmus_rendezvous(data, iterations, mode, i, 4);
        if (role == 0 || role == 1) {
            litmus_store(role == 0 ? x : y, config);
        } else if (role == 2 || role == 3) {
            unsigned *first = role == 2 ? x : y, *second = role == 2 ? y : x;
            unsigned *out = r + 2 * (role - 2);
            out[0] = litmus_load(first, config);
            litmus_fence(config);
            out[1] = litmus_load(second, config);
        }
    }
}

// Coherence of read-read: can a later read of x see an older value than an earlier one?
extern "C" __global__ void litmus_corr(unsigned *data, unsigned *results, unsigned iterations,
                                       unsigned mode, unsigned scope)
{
    litmus_config config = {mode & LITMUS_MODE_MASK, scope};
    int role = litmus_role();
    for (unsigned i = 0; i < iterations; i++) {
        unsigned *x = data + i * LITMUS_STRIDE, *r = results + i * 4;
        if (role == 0 || role == 1)
            litmus_rendezvous(data, iterations, mode, i, 2);
        if (role == 0) {
            litmus_store(x, config);
        } else if (role == 1) {
            r[0] = litmus_load(x, config);
            litmus_fence(config);
            r[1] = litmus_load(x, config);
        }
    }
}
