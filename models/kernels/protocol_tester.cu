// protocol_tester.cu — a random coherence-protocol tester in the spirit of gem5 Ruby's random
// tester, but data-race-free so that every value is checkable. Each thread interprets its own
// host-generated, seeded sequence of operations on one small arena of words in which the host
// has scattered, at random, words of every role, so that words of different threads, CTAs and
// CUs share cache lines (false sharing):
//   own words      read and written by one thread only: plain and relaxed .gpu loads and
//                  stores, a load followed by a store before the loaded value is checked (so
//                  the store meets the load's miss in flight), and atom.exch; every value read
//                  must be that thread's last store, which the host put in the op;
//   guarded pairs  two words behind one spin lock, read, compared and incremented together in
//                  a critical section (three lock flavours: atom.cas.acquire + st.release,
//                  relaxed atomics + fence.acq_rel, atom.cas.acquire + atom.exch.release);
//   counters       atom.add / red.add / ld.relaxed only: each thread checks that the values it
//                  observes never go back (per-location coherence);
//   mailboxes      data words written once with plain stores before a release of the flag
//                  (st.release or fence.sc + st.relaxed); readers poll the flag a few times
//                  with ld.acquire (or ld.relaxed + fence.acq_rel) and, once it is set, check
//                  the data with plain loads.
// Nothing ever waits on another thread while holding a lock, and mailbox polls are bounded, so
// the kernel cannot deadlock under stack-based SIMT reconvergence at any warp width. Every
// mismatch is counted and the first one recorded in the thread's result record.
//
// TESTER_PEEK_UNORDERED and TESTER_LOCK_UNORDERED are deliberately broken variants (a relaxed
// flag read, a relaxed lock CAS, with no acquire): the driver uses them only to prove that the
// checks catch a protocol's stale data.

#define TESTER_STORE 0
#define TESTER_STORE_RELAXED 1
#define TESTER_LOAD 2
#define TESTER_LOAD_RELAXED 3
#define TESTER_LOAD_STORE 4
#define TESTER_LOAD_STORE_RELAXED 5
#define TESTER_EXCH 6
#define TESTER_LOCK_ACQREL 7
#define TESTER_LOCK_FENCED 8
#define TESTER_LOCK_EXCH 9
#define TESTER_LOCK_UNORDERED 10
#define TESTER_COUNTER_ADD 11
#define TESTER_COUNTER_RED 12
#define TESTER_COUNTER_READ 13
#define TESTER_PUBLISH 14
#define TESTER_PUBLISH_FENCED 15
#define TESTER_PEEK 16
#define TESTER_PEEK_FENCED 17
#define TESTER_PEEK_UNORDERED 18
#define TESTER_FENCE_ACQREL 19
#define TESTER_FENCE_SC 20

#define TESTER_KIND_BITS 8          // op.x = kind | index << TESTER_KIND_BITS, op.y = value (op.z, op.w: own_access)
#define TESTER_MAX_COUNTERS 8
#define TESTER_LOCK_WORDS 3         // lock, guarded a, guarded b
#define TESTER_BOX_WORDS 3          // flag, data 0, data 1
#define TESTER_PEEK_POLLS 4
#define TESTER_RESULT_WORDS 8       // mismatches, first bad op + 1, got, expected, peeks seen, spins

// ---- the exact PTX accesses (inline asm, so the compiler neither drops nor reorders them) ----

__device__ unsigned ld_weak(const unsigned *p)
{
    unsigned v;
    asm volatile("ld.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    return v;
}

__device__ void st_weak(unsigned *p, unsigned v)
{
    asm volatile("st.global.u32 [%0], %1;" :: "l"(p), "r"(v) : "memory");
}

__device__ unsigned ld_relaxed(const unsigned *p)
{
    unsigned v;
    asm volatile("ld.relaxed.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    return v;
}

__device__ void st_relaxed(unsigned *p, unsigned v)
{
    asm volatile("st.relaxed.gpu.global.u32 [%0], %1;" :: "l"(p), "r"(v) : "memory");
}

__device__ unsigned ld_acquire(const unsigned *p)
{
    unsigned v;
    asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    return v;
}

__device__ void st_release(unsigned *p, unsigned v)
{
    asm volatile("st.release.gpu.global.u32 [%0], %1;" :: "l"(p), "r"(v) : "memory");
}

__device__ unsigned cas_acquire(unsigned *p)
{
    unsigned old;
    asm volatile("atom.acquire.gpu.global.cas.b32 %0, [%1], 0, 1;" : "=r"(old) : "l"(p) : "memory");
    return old;
}

__device__ unsigned cas_relaxed(unsigned *p)
{
    unsigned old;
    asm volatile("atom.relaxed.gpu.global.cas.b32 %0, [%1], 0, 1;" : "=r"(old) : "l"(p) : "memory");
    return old;
}

__device__ unsigned exch_relaxed(unsigned *p, unsigned v)
{
    unsigned old;
    asm volatile("atom.relaxed.gpu.global.exch.b32 %0, [%1], %2;" : "=r"(old) : "l"(p), "r"(v) : "memory");
    return old;
}

__device__ unsigned exch_release(unsigned *p)
{
    unsigned old;
    asm volatile("atom.release.gpu.global.exch.b32 %0, [%1], 0;" : "=r"(old) : "l"(p) : "memory");
    return old;
}

__device__ unsigned add_relaxed(unsigned *p, unsigned v)
{
    unsigned old;
    asm volatile("atom.relaxed.gpu.global.add.u32 %0, [%1], %2;" : "=r"(old) : "l"(p), "r"(v) : "memory");
    return old;
}

__device__ void red_relaxed(unsigned *p, unsigned v)
{
    asm volatile("red.relaxed.gpu.global.add.u32 [%0], %1;" :: "l"(p), "r"(v) : "memory");
}

__device__ void fence_acq_rel()
{
    asm volatile("fence.acq_rel.gpu;" ::: "memory");
}

__device__ void fence_sc()
{
    asm volatile("fence.sc.gpu;" ::: "memory");
}

// Returns x, but the compiler cannot see that, so it cannot reason about the value.
__device__ unsigned opaque(unsigned x)
{
    asm volatile("mov.u32 %0, %1;" : "=r"(x) : "r"(x));
    return x;
}

// ---- the checks ----

struct tester_state {
    unsigned mismatches, first_op, got, expected, peeks_seen, spins;
};

__device__ void expect(tester_state &s, bool ok, unsigned op, unsigned got, unsigned expected)
{
    if (ok)
        return;
    if (s.mismatches++ == 0) {
        s.first_op = op + 1;
        s.got = got;
        s.expected = expected;
    }
}

// ---- the operations ----

__device__ bool lock_try(unsigned *lock, unsigned kind)
{
    if (kind == TESTER_LOCK_FENCED) {
        if (cas_relaxed(lock) != 0u)
            return false;
        fence_acq_rel();
        return true;
    }
    return (kind == TESTER_LOCK_UNORDERED ? cas_relaxed(lock) : cas_acquire(lock)) == 0u;
}

__device__ void unlock(unsigned *lock, unsigned kind)
{
    if (kind == TESTER_LOCK_FENCED) {
        fence_acq_rel();
        (void)exch_relaxed(lock, 0u);
    } else if (kind == TESTER_LOCK_EXCH) {
        (void)exch_release(lock);
    } else {
        st_release(lock, 0u);
    }
}

// The critical section runs inside the branch that won the lock, and winners and losers meet
// again at the loop's test (kept opaque, as in hashtable.cu) before anyone retries, so lanes of
// one warp contending for one lock cannot deadlock under stack-based reconvergence.
__device__ void locked_add(unsigned *arena, const unsigned *words, unsigned kind, unsigned delta, unsigned op,
                           tester_state &s)
{
    unsigned *lock = arena + words[0], *a = arena + words[1], *b = arena + words[2];
    unsigned done = 0;
    do {
        if (lock_try(lock, kind)) {
            unsigned va = ld_weak(a), vb = ld_weak(b);
            expect(s, va == vb, op, va, vb);
            st_weak(a, va + delta);
            st_weak(b, vb + delta);
            unlock(lock, kind);
            done = 1;
        } else {
            s.spins++;
        }
    } while (!opaque(done));
}

// Counter values only grow, so none this thread observes may be below one it saw before.
// seen[c] is the largest value of counter c this thread has observed (or implied by its own add).
__device__ void counter_op(unsigned *counter, unsigned kind, unsigned *seen, unsigned delta, unsigned op,
                           tester_state &s)
{
    unsigned before = *seen;
    if (kind == TESTER_COUNTER_RED) {
        red_relaxed(counter, delta);
        *seen = before + delta;
        return;
    }
    unsigned got = kind == TESTER_COUNTER_ADD ? add_relaxed(counter, delta) : ld_relaxed(counter);
    expect(s, got >= before, op, got, before);
    *seen = kind == TESTER_COUNTER_ADD ? got + delta : got;
}

__device__ void publish(unsigned *arena, const unsigned *words, unsigned kind, unsigned base)
{
    st_weak(arena + words[1], base);
    st_weak(arena + words[2], base + 1u);
    if (kind == TESTER_PUBLISH) {
        st_release(arena + words[0], 1u);
    } else {
        fence_sc();
        st_relaxed(arena + words[0], 1u);
    }
}

__device__ unsigned read_flag(const unsigned *flag, unsigned kind)
{
    return kind == TESTER_PEEK ? ld_acquire(flag) : ld_relaxed(flag);
}

// Polls the flag a bounded number of times; once it is set, the data must be the published one.
__device__ void peek(unsigned *arena, const unsigned *words, unsigned kind, unsigned base, unsigned op,
                     tester_state &s)
{
    unsigned flag = read_flag(arena + words[0], kind);
    for (unsigned poll = 1; flag == 0u && poll < TESTER_PEEK_POLLS; poll++)
        flag = read_flag(arena + words[0], kind);
    expect(s, flag <= 1u, op, flag, 1u);
    if (flag != 1u)
        return;
    if (kind == TESTER_PEEK_FENCED)
        fence_acq_rel();
    unsigned d0 = ld_weak(arena + words[1]), d1 = ld_weak(arena + words[2]);
    expect(s, d0 == base, op, d0, base);
    expect(s, d1 == base + 1u, op, d1, base + 1u);
    s.peeks_seen++;
}

// op.x's index is own word a, op.y the value stored to a or expected from it; the load-store
// kinds then store op.w to own word op.z (maybe a itself) before checking the loaded value, and
// atom.exch swaps op.w into a, expecting op.y back.
__device__ void own_access(unsigned *arena, unsigned kind, unsigned a, uint4 op, unsigned i, tester_state &s)
{
    if (kind == TESTER_STORE) {
        st_weak(arena + a, op.y);
        return;
    }
    if (kind == TESTER_STORE_RELAXED) {
        st_relaxed(arena + a, op.y);
        return;
    }
    unsigned got;
    if (kind == TESTER_EXCH)
        got = exch_relaxed(arena + a, op.w);
    else
        got = kind == TESTER_LOAD_RELAXED ? ld_relaxed(arena + a) : ld_weak(arena + a);
    if (kind == TESTER_LOAD_STORE)
        st_weak(arena + op.z, op.w);
    else if (kind == TESTER_LOAD_STORE_RELAXED)
        st_relaxed(arena + op.z, op.w);
    got = opaque(got);   // not before the store: the load stays in flight while the store issues
    expect(s, got == op.y, i, got, op.y);
}

struct tester_layout {
    unsigned *arena;
    const unsigned *lock_words, *box_words, *counter_words;
};

__device__ void run_op(const tester_layout &l, uint4 op, unsigned i, unsigned *seen, tester_state &s)
{
    unsigned kind = op.x & ((1u << TESTER_KIND_BITS) - 1u), index = op.x >> TESTER_KIND_BITS;
    if (kind <= TESTER_EXCH)
        own_access(l.arena, kind, index, op, i, s);
    else if (kind <= TESTER_LOCK_UNORDERED)
        locked_add(l.arena, l.lock_words + index * TESTER_LOCK_WORDS, kind, op.y, i, s);
    else if (kind <= TESTER_COUNTER_READ)
        counter_op(l.arena + l.counter_words[index], kind, seen + index, op.y, i, s);
    else if (kind <= TESTER_PUBLISH_FENCED)
        publish(l.arena, l.box_words + index * TESTER_BOX_WORDS, kind, op.y);
    else if (kind <= TESTER_PEEK_UNORDERED)
        peek(l.arena, l.box_words + index * TESTER_BOX_WORDS, kind, op.y, i, s);
    else if (kind == TESTER_FENCE_ACQREL)
        fence_acq_rel();
    else
        fence_sc();
}

// ops holds ops_per_thread operations per thread, operation-major: op i of thread t is
// ops[i * threads + t]. results receives TESTER_RESULT_WORDS words per thread.
extern "C" __global__ void protocol_tester(const uint4 *ops, unsigned ops_per_thread, unsigned *arena,
                                           const unsigned *lock_words, const unsigned *box_words,
                                           const unsigned *counter_words, unsigned *results)
{
    unsigned threads = gridDim.x * blockDim.x, thread = blockIdx.x * blockDim.x + threadIdx.x;
    tester_layout layout = {arena, lock_words, box_words, counter_words};
    tester_state s = {};
    unsigned seen[TESTER_MAX_COUNTERS] = {};
    for (unsigned i = 0; i < ops_per_thread; i++)
        run_op(layout, ops[(size_t)i * threads + thread], i, seen, s);
    unsigned *r = results + (size_t)thread * TESTER_RESULT_WORDS;
    r[0] = s.mismatches;
    r[1] = s.first_op;
    r[2] = s.got;
    r[3] = s.expected;
    r[4] = s.peeks_seen;
    r[5] = s.spins;
}
