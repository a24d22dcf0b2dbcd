/* protocol_hooks.h — the points where the shared memory system hands control to a protocol
 * module (src/protocols/NAME/): loading the configuration it owns, building its own units, the
 * memory-model actions of a CU, what a CU's warps may issue and what they do (exit, barriers),
 * kernel boundaries, what happens before an L1 access, where a request goes and what happens at
 * an L2 bank, the events it schedules, and host accesses.
 *
 * The engine never asks which mechanism runs: where a mechanism's behaviour differs, it calls the
 * hook, and a NULL hook does the default named beside it. A module's hooks work on the memory
 * system through memory_internal.h (the components' API: messages, L1 controllers, L2 banks, the
 * memory side) and may call the engine's defaults to compose with them (l2_process,
 * l1_send_buffered_stores).
 */
#ifndef SYNCSCOPE_TIMING_PROTOCOL_HOOKS_H
#define SYNCSCOPE_TIMING_PROTOCOL_HOOKS_H

#include <stddef.h>
#include <stdint.h>

#include "config/config.h"
#include "timing/cache_array.h"
#include "timing/endpoint.h"
#include "timing/memory_system.h"

struct l1_context;

typedef struct protocol_hooks {
    /* ---- building ---- */
    /* After the shared structures of a new memory system exist: creates the module's own units
     * (directory slices, write-cache levels, S-FIFOs) and sets the shared components' policies
     * (memory_system.l2_writes_through, l3_writable). destroy frees what build made. Default: none. */
    void (*build)(memory_system *memory);
    void (*destroy)(memory_system *memory);
    /* Reads, derives and checks the configuration keys the module owns (its mechanism.* keys or
     * its own section), and what it needs of the engine's (`memory` holds them already), for the
     * mechanism `mechanism`: called only when that mechanism is the one selected, before build.
     * The result goes into memory->protocol_config, which the module casts to its own struct (at
     * most PROTOCOL_CONFIG_BYTES: it static-asserts that) and its build hook reads. A bad value
     * fails with one line in `error` naming its key. Default: the module owns no keys. */
    int (*load_config)(const sc_config *config, const char *mechanism, memory_config *memory, sc_error *error);

    /* ---- a CU's memory-model actions ---- */
    /* An acquire of the CU (ld.acquire or atom.acquire completing, a fence, kernel start through
     * the default kernel_begin) at GPU or system scope (kernel boundaries are system scope; CTA
     * scope needs nothing: the CTA's warps share the L1). Default: nothing (the L1 holds nothing
     * an acquire must drop). */
    void (*acquire)(memory_system *memory, unsigned cu, ptx_scope scope, sc_time now);
    /* A release of the CU at GPU or system scope (st.release, atom/red with release semantics, a
     * fence, kernel end through the default kernel_end) begins or is still waiting (it may be
     * called again each cycle it waits): the CU's writes must be on their way. The engine then
     * waits until l1_writes_outstanding is 0 (at kernel end: until the L1 is drained, l1_drained).
     * Default: every buffered store is sent (l1_send_buffered_stores). */
    void (*release)(memory_system *memory, unsigned cu, ptx_scope scope, sc_time now);
    /* The release of the warp in slot `warp` of CU `cu` at GPU or system scope (its next
     * instruction releases), asked on each of the warp's checks until the instruction issues:
     * `begun` is false the first time for that instruction; `queued_writer` is the slot of the
     * warp whose global write waits in the CU's load/store unit (not yet at the L1), or -1. The
     * answer (protocol.h release_wait) says whether the warp may issue, and whether, while it
     * waits, the other warps' global writes are held back. Default: done once nothing the CU wrote
     * is queued, buffered or in flight (l1_store_buffer_empty, l1_writes_outstanding 0);
     * otherwise the release hook runs and the answer is RELEASE_WAITS_HOLDING. */
    release_wait (*warp_release)(memory_system *memory, unsigned cu, unsigned warp, ptx_scope scope, bool begun,
                                 int queued_writer, sc_time now);
    /* The store buffer refused a store for want of room. Default: send its oldest entry. */
    void (*store_buffer_full)(memory_system *memory, unsigned cu, sc_time now);
    /* A write of the CU left for the L2 (a store buffer entry, a write-through). Default: it counts
     * as outstanding until the L2 acknowledges it (MSG_WRITE_ACK). */
    void (*write_sent)(memory_system *memory, unsigned cu);
    /* A request of the CU (a read for a miss or a read-around, a write, an atomic, or one of the
     * protocol's own requests) is about to leave for its home at `now`: the protocol may stamp it
     * (its protocol word and bits, e.g. the CU's logical time). Default: nothing. */
    void (*l1_request)(memory_system *memory, unsigned cu, uint32_t handle, sc_time now);
    /* An answer that completes an operation without a row of the L1's table reached the CU (a
     * write's MSG_WRITE_ACK, an atomic's MSG_ATOMIC_DONE, a read-around's MSG_DATA), before the
     * operation completes: the protocol may take what it carries (a logical time) and run rows of
     * its own on the line (l1_run_event). -1 with `error` set on a protocol error. Default: nothing. */
    int (*l1_answer)(memory_system *memory, uint32_t handle, sc_time now, sc_error *error);

    /* ---- a CU's warps (compute_unit.c) ---- */
    /* Whether the warp in slot `warp` of CU `cu` may issue its next instruction, whose memory
     * traits are `traits` (protocol.h), while `global_in_flight` of the slot's global loads, stores
     * and atomics are not yet done. Asked as one of the warp's own predicates, again whenever the
     * warp's own state changes (an issue, one of its accesses completing, a barrier opening, a
     * register becoming ready), so the answer must depend on the arguments alone. A refusal names
     * the GSI stall it causes (issue_verdict: a SYNC or a MEM_STRUCT sub-category; the unit's own
     * structural stall, if any, names a MEM_STRUCT cycle first); the verdict may also waive the
     * instruction's acquire and release. An SC core refuses global and shared/local accesses
     * while global_in_flight > 0 and waives every acquire and release, so its fences are no-ops.
     * Default: none, every instruction may issue (memory_filters_issue is false, the engine never
     * asks). */
    issue_verdict (*issue_filter)(memory_system *memory, unsigned cu, unsigned warp, const issue_traits *traits,
                                  unsigned global_in_flight);
    /* The warp in slot `warp` of CU `cu` executed its last instruction at `now` (its loads may
     * still be in flight; the slot frees when its CTA's loads are done). Default: nothing. */
    void (*warp_exit)(memory_system *memory, unsigned cu, unsigned warp, sc_time now);
    /* The warp in slot `warp` of CU `cu` arrived at a CTA barrier (bar.sync) at `now`; it waits
     * there until its CTA's warps have arrived. Default: nothing. */
    void (*barrier)(memory_system *memory, unsigned cu, unsigned warp, sc_time now);
    /* The CTA in slot `cta` of CU `cu` completed a barrier (its last warp arrived, or exited while
     * the others waited): its warps go on once the answer is RELEASE_DONE, and wait meanwhile (GSI
     * sync/release), asked on each of their checks: `begun` is false the first time for that
     * barrier; `write_queued` says whether a global write of one of the CTA's warps waits in the
     * CU's load/store unit (not yet at the L1). RELEASE_WAITS_HOLDING holds nothing back here: it
     * reads as RELEASE_WAITS. Default: RELEASE_DONE (the barrier orders the CTA only, or each warp
     * released before it arrived: memory_barriers_release). */
    release_wait (*cta_barrier_release)(memory_system *memory, unsigned cu, unsigned cta, bool begun,
                                        bool write_queued, sc_time now);

    /* ---- kernel boundaries (timing_engine.c) ---- */
    /* A kernel launch begins at `now`, before its first CTA is placed. Default: an acquire of
     * every CU at system scope (the acquire hook). */
    void (*kernel_begin)(memory_system *memory, sc_time now);
    /* Every CTA of the kernel has finished at `now`: the CUs' writes must be on their way. The
     * engine then runs events until every L1 is drained (l1_drained) and ends the kernel (the host
     * may read memory next). Default: a release of every CU at system scope (the release hook). */
    void (*kernel_end)(memory_system *memory, sc_time now);
    /* Whether the CU's L1 has nothing in flight that the end of a kernel waits for. Default: no
     * write is outstanding (l1_writes_outstanding is 0). */
    bool (*l1_drained)(const memory_system *memory, unsigned cu);

    /* ---- the L1 ---- */
    /* Before an access's row is looked up: may refuse it (the unit retries later), make room in
     * the module's structures, run a row of its own on the line first (l1_run_event: a copy whose
     * lease is over expires), or turn `*event` into one of the module's own (a load a write cache
     * serves). Default: accepted, the event unchanged. */
    l1_verdict (*l1_before_access)(memory_system *memory, unsigned cu, const coalesced_line *line, uint32_t op,
                                   l1_event *event, sc_time now, sc_error *error);
    /* Whether the module's guard `guard` of a row holds for the line of `context` (its state, its
     * MSHR, its protocol words). Default: every guard holds (a module without guards has none). */
    bool (*l1_guard)(memory_system *memory, const struct l1_context *context, unsigned guard);
    /* Carries out an action of the module's own in an L1 row (one the engine's controller does not
     * implement). Default: none (a module without own actions has none in its table). */
    int (*l1_action)(memory_system *memory, struct l1_context *context, l1_action action, sc_time now,
                     sc_error *error);
    /* A message of the module's own type reached the CU (the engine frees it afterwards); -1 with
     * `error` set on a protocol error. Default: an error (the engine knows every other type). */
    int (*l1_message)(memory_system *memory, uint32_t handle, sc_time now, sc_error *error);

    /* ---- homes ---- */
    /* The home of a line for a request of `requester` (memory_home_of): the endpoint the request
     * is sent to, where bank_receive takes it. Default: the L2 bank memory_bank_of, whose array
     * caches the line (l2_process, l2_home_* and fills work on that bank: a module that names
     * another bank serves the request there with its own bank_receive). */
    endpoint (*home_of)(memory_system *memory, endpoint requester, uint64_t line_address);

    /* ---- the L2 banks ---- */
    /* The message at the head of a bank: 1 when handled, 0 when it must wait and be offered again
     * next cycle, -1 on a protocol error. Default: l2_process (the bank's array serves reads,
     * writes and atomics). */
    int (*bank_receive)(memory_system *memory, unsigned bank, uint32_t handle, sc_time now, sc_error *error);
    /* An atomic was performed on a line of the bank; returns the earliest time its answer may
     * leave (0: at once). Default: 0. */
    sc_time (*atomic_performed)(memory_system *memory, unsigned bank, uint32_t handle, sc_time when);
    /* A request of the module's own message types that the bank's array served (an L2 hit, or
     * its fill arrived): `data` is the line. Default: none (only the module sends such requests). */
    void (*home_data)(memory_system *memory, unsigned bank, uint32_t handle, const uint8_t *data, gsi_source source,
                      sc_time when);
    /* A fill from the memory side reached the bank: the module may lay newer bytes it holds below
     * the L2 over `data`. Default: none. */
    void (*fill_data)(memory_system *memory, uint64_t line_address, uint8_t *data);
    /* Whether request `handle`, which waited for that fill, must go back to the head of the bank's
     * queue (with every later waiter) instead of being served from the fill. Default: false. */
    bool (*fill_must_retake)(memory_system *memory, unsigned bank, uint32_t handle);
    /* A valid line of the bank (`line`, its bank-local address and protocol word) is about to leave
     * the array for another line at `now`: the module may keep what it must remember of it (a
     * lease that has not expired). Default: nothing. */
    void (*l2_replaced)(memory_system *memory, unsigned bank, const cache_line *line, sc_time now);

    /* ---- events the module scheduled (kind MEMORY_EVENT_PROTOCOL; target and argument are its) ---- */
    int (*handle_event)(memory_system *memory, const timing_event *event, sc_error *error);

    /* ---- between kernels ---- */
    /* A host access to [start, end): the L1 side (the L2s were written back or dropped already).
     * Default: a write drops every L1 copy. */
    void (*host_access)(memory_system *memory, uint64_t start, uint64_t end, bool is_write);
    /* Functional warming has dropped every L1 copy (memory_warm_finish). Default: none. */
    void (*warm_finish)(memory_system *memory);
} protocol_hooks;

/* A mechanism's own metric: the uint64_t field at `offset` of the protocol's statistics (the
 * struct its build hook points memory_system.protocol_stats at), or with `mean_of` its ratio to
 * the field at `mean_of` (0 when that is 0). The stats registry of a run is the engine's metrics
 * plus its protocol's counters, in order. */
typedef struct protocol_counter {
    const char *name;          /* the metric's name, e.g. "dir_lookups" */
    const char *unit;          /* NULL: a count */
    size_t offset;             /* offsetof(the protocol's stats struct, field) */
    size_t mean_of;            /* PROTOCOL_COUNTER_TOTAL, or the offset of the divisor */
} protocol_counter;

#define PROTOCOL_COUNTER_TOTAL SIZE_MAX

static inline double protocol_counter_value(const protocol_counter *counter, const void *stats)
{
    const char *base = (const char *)stats;
    double value = (double)*(const uint64_t *)(base + counter->offset);
    if (counter->mean_of == PROTOCOL_COUNTER_TOTAL)
        return value;
    double divisor = (double)*(const uint64_t *)(base + counter->mean_of);
    return divisor > 0 ? value / divisor : 0.0;
}

#endif
