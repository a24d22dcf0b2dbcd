/* memory_system.h — the value-accurate GPU memory hierarchy below the compute units: per-CU L1
 * controllers (running the protocol's table, protocol.h, and its hooks, protocol_hooks.h),
 * write-combining store buffers, the NoC, banked L2 slices with MSHRs, and the memory side below
 * them: a memory-side L3, the CPU cluster of an APU as a probe target, and DRAM channels. L1
 * and L2 lines carry data; the device's flat global image is the contents of everything below
 * the L2 (the L3 and the CPU cluster keep tags only).
 *
 * The load/store unit of a compute unit hands it one line access at a time (l1_access). Each
 * access belongs to a memory operation (memory_op: one warp instruction's global access, owned
 * by the timing engine and named by a handle). When every line of an operation has completed,
 * the memory system calls the engine back (memory_callbacks) and the engine writes the loaded
 * values into registers.
 *
 * Everything inside talks through messages scheduled on the engine's event queue; components
 * never call each other's internals.
 */
#ifndef SYNCSCOPE_TIMING_MEMORY_SYSTEM_H
#define SYNCSCOPE_TIMING_MEMORY_SYSTEM_H

#include <stdbool.h>
#include <stdint.h>

#include "base/error.h"
#include "exec/memory_request.h"
#include "host/host_api.h"
#include "timing/protocol.h"
#include "stalls/gsi.h"
#include "timing/byte_mask.h"
#include "timing/clock.h"
#include "timing/coalescer.h"
#include "timing/dram.h"
#include "timing/event_queue.h"
#include "timing/noc.h"
#include "timing/noc_energy.h"

#define MEMORY_OP_NONE UINT32_MAX
#define MEMORY_MESSAGE_HEADER_BYTES 8   /* address and command of every NoC message */
#define PROTOCOL_CONFIG_BYTES 64        /* room for a protocol's own configuration (memory_config) */

/* One warp instruction's global memory access in flight. */
typedef struct memory_op {
    exec_memory_request request;  /* lane addresses and data; load results land here */
    uint32_t cu, warp;            /* issuing CU and warp slot */
    uint32_t lines_pending;       /* line accesses not completed yet */
    uint8_t source;               /* gsi_source of the line that completed last */
    uint8_t event;                /* l1_event of its lines */
    uint8_t acquire;              /* completing it is an acquire (ld.acquire, atom.acquire) */
    uint8_t in_use;
    uint8_t fills_stash;          /* a stash load: its data fills the stash (compute_unit.c, stash.c) */
    uint8_t destination_count;
    int32_t destinations[5];      /* registers it writes (scoreboard) */
    uint64_t issued_cycle;
    uint64_t data_stall_cycles;   /* GSI memory-data cycles charged to it while pending */
    uint32_t next_free;
} memory_op;

/* What the memory system tells the engine. */
typedef struct memory_callbacks {
    void *context;
    /* Every line of `op` has completed at `when` (loads: values are in op->request.data). */
    void (*op_done)(void *context, uint32_t op, sc_time when);
    /* A write, reduction or atomic of CU `cu` was performed at the L2 (release bookkeeping). */
    void (*write_performed)(void *context, unsigned cu, sc_time when);
} memory_callbacks;

/* Derived timing parameters (timing_config.c fills them from the system configuration). */
typedef struct memory_config {
    unsigned cu_count, line_bytes;
    sc_clock gpu_clock;
    /* L1 */
    uint64_t l1_bytes;
    unsigned l1_associativity, l1_banks, l1_mshrs, store_buffer_entries;
    unsigned l1_tag_latency, l1_latency;           /* GPU cycles */
    /* L2 */
    uint64_t l2_bytes;
    unsigned l2_associativity, l2_banks, l2_mshrs_per_bank;
    unsigned l2_latency;                           /* GPU cycles from a request's arrival to its response leaving */
    bool l2_write_through;                         /* l2.write_policy: writes go on to memory (unless
                                                      the protocol's build makes the L2 write-back) */
    /* the memory side below the L2 banks (memory_side.c): the L3 and the CPU cluster */
    bool l3_enabled;
    uint64_t l3_bytes;
    unsigned l3_associativity, l3_banks;
    unsigned l3_latency;                           /* GPU cycles from a lookup's start to a hit's data */
    uint64_t cpu_cache_bytes;                      /* the CPU cluster's last-level tags; 0: no CPU cluster */
    unsigned cpu_cache_associativity;
    unsigned cpu_probe_latency;                    /* GPU cycles from a probe's start to the CPU's answer */
    bool cpu_null_directory;                       /* every request reaching memory probes the CPU cluster
                                                      (else only those for lines it holds, dirty for reads) */
    noc_config noc;
    noc_energy_config noc_energy;                  /* its virtual_networks set by whoever picks the mechanism */
    dram_config dram;
    unsigned dram_write_queue_entries;             /* per channel: backlogged writes before writers wait */
    uint64_t jitter;                               /* 0: none; else the perturbation seed */
    /* the selected protocol's own configuration, in its own struct: its load_config hook fills it,
       its build hook reads it (protocol_hooks.h) */
    _Alignas(uint64_t) uint8_t protocol_config[PROTOCOL_CONFIG_BYTES];
} memory_config;

typedef struct memory_stats {
    uint64_t l1_hits, l1_misses, l1_merges, l1_read_arounds, l1_invalidations, l1_flash_invalidations;
    uint64_t l1_write_throughs, store_buffer_drains;
    uint64_t l2_hits, l2_misses, l2_writebacks, l2_atomics, l2_writes;
    uint64_t l2_write_throughs;        /* writes and atomics the L2 sent on to memory (l2.write_policy) */
    uint64_t mshr_samples, mshr_occupancy_sum, mshr_peak;   /* L1 MSHRs in use, sampled per miss */
    uint64_t l1_load_accesses;        /* line accesses of loads the L1s accepted (hits, misses, merges, read-arounds) */
    uint64_t l1_data_bytes_in, l1_coherence_bytes_in;   /* bytes reaching the CUs: data vs invalidations/forwards */
    uint64_t memory_write_bytes;      /* bytes of writes the L2 level sends to the memory side */
    uint64_t dram_write_requests;     /* writes sent to DRAM (dram_writes counts those performed by the end) */
    uint64_t l2_write_bytes_in;       /* bytes of the CUs' write messages to the L2 (header and line) */
    uint64_t l2_memory_write_waits;   /* bank cycles a request waited for room in memory's write queue
                                         (a write-through, or a dirty victim to write back) */
    uint64_t dram_write_queue_peak;   /* most writes one channel's write queue held */
    /* the memory side (memory_side.c) */
    uint64_t l3_hits, l3_misses;       /* GPU reads reaching memory that the L3 served / that went to DRAM */
    uint64_t l3_writebacks;            /* dirty L3 lines evicted to DRAM (a writable L3 only) */
    uint64_t cpu_probes;               /* GPU requests reaching memory that probed the CPU cluster */
    uint64_t cpu_probe_hits;           /* GPU reads served from a dirty CPU line */
    uint64_t cpu_invalidations;        /* CPU copies dropped by GPU writes reaching memory */
    uint64_t cpu_writebacks;           /* dirty CPU lines evicted by host accesses (host phase, untimed) */
} memory_stats;

typedef struct memory_system memory_system;

/* GPU cycles a read reaching the memory side spends there before an L3 hit answers it or it is
 * sent to DRAM: l3.latency, or the CPU's probe reply if later under a null directory
 * (memory_side.c; timing_config.c takes it out of the DRAM pipeline latency). */
unsigned memory_side_lookup_cycles(const memory_config *config);

memory_system *memory_system_create(const memory_config *config, const sc_protocol *protocol, sc_device *device,
                                    event_queue *events, memory_callbacks callbacks);
void memory_system_destroy(memory_system *memory);

/* ---- memory operations ---- */
uint32_t memory_op_allocate(memory_system *memory);
memory_op *memory_op_get(memory_system *memory, uint32_t op);
void memory_op_free(memory_system *memory, uint32_t op);

/* ---- the load/store unit's side ---- */

typedef enum l1_verdict {
    L1_ACCEPTED = 0,
    L1_REFUSED_MSHR_FULL,
    L1_REFUSED_STORE_BUFFER_FULL,
    L1_FAILED,                  /* a protocol table error: the message is in `error` */
} l1_verdict;

/* Presents one line access of `op` (event: L1_LOAD ... L1_ATOMIC) to CU `cu`'s L1 at `now`.
 * A refused access changes nothing; the unit retries it in a later cycle. */
l1_verdict l1_access(memory_system *memory, unsigned cu, l1_event event, const coalesced_line *line, uint32_t op,
                     sc_time now, sc_error *error);

/* Bank of the L1 a line maps to (for bank-conflict serialisation in the load/store unit). */
unsigned l1_bank_of(const memory_system *memory, uint64_t line_address);

/* The CU's memory-model actions at GPU or system scope (kernel boundaries are system scope), as
 * its protocol does them (protocol_hooks.h). Release: the CU's writes leave (default: every
 * buffered store is sent); the engine then waits for l1_writes_outstanding to reach 0. Acquire:
 * the L1 drops what the protocol says (default: nothing). Store room: the store buffer refused a
 * store for want of room (default: its oldest entry is sent). */
void l1_release(memory_system *memory, unsigned cu, ptx_scope scope, sc_time now);
/* A warp's release (protocol_hooks.h warp_release): whether the warp in slot `warp` may issue its
 * releasing instruction, `begun` after an earlier ask for it, `queued_writer` the slot whose
 * global write waits in the load/store unit (-1: none). */
release_wait l1_warp_release(memory_system *memory, unsigned cu, unsigned warp, ptx_scope scope, bool begun,
                             int queued_writer, sc_time now);
void l1_acquire(memory_system *memory, unsigned cu, ptx_scope scope, sc_time now);
void l1_make_store_room(memory_system *memory, unsigned cu, sc_time now);
bool l1_store_buffer_empty(const memory_system *memory, unsigned cu);
bool l1_mshr_full(const memory_system *memory, unsigned cu);
/* Writes and atomics of the CU not yet performed (sent to the L2, or waiting for ownership). */
uint64_t l1_writes_outstanding(const memory_system *memory, unsigned cu);

/* The compute units' points of the protocol (protocol_hooks.h). Whether the protocol filters
 * issue at all (the engine asks once and skips the filter otherwise); whether the warp in slot
 * `warp` of CU `cu` may issue its next instruction, whose traits are `traits`, with
 * `global_in_flight` of its global accesses not yet done; the warp has exited; the warp has
 * arrived at a CTA barrier. */
bool memory_filters_issue(const memory_system *memory);
/* Whether the protocol makes a CTA barrier a release at GPU scope (its build sets the policy):
 * the engine decodes bar as releasing, so a warp's prior writes are performed, as its protocol's
 * warp_release says, before it arrives at the barrier. Default: false (bar orders the CTA only). */
bool memory_barriers_release(const memory_system *memory);
/* Whether the protocol's L1s are write-back: a line written there stays newer than the home until
 * the L1 evicts it (or a protocol message takes it), so the L1s' lines are dirty capacity whose
 * write-backs come after the stores (set by the protocol's build). Default: false (the L1s write
 * through, or hold no data). */
bool memory_l1s_write_back(const memory_system *memory);
issue_verdict l1_issue_filter(memory_system *memory, unsigned cu, unsigned warp, const issue_traits *traits,
                              unsigned global_in_flight);
void l1_warp_exit(memory_system *memory, unsigned cu, unsigned warp, sc_time now);
void l1_barrier(memory_system *memory, unsigned cu, unsigned warp, sc_time now);
/* The CTA in slot `cta` of CU `cu` completed a barrier: whether its warps may go on (protocol_hooks.h
 * cta_barrier_release). */
release_wait l1_cta_barrier_release(memory_system *memory, unsigned cu, unsigned cta, bool begun, bool write_queued,
                                    sc_time now);

/* Kernel boundaries, as the protocol does them (default: an acquire, or a release, of every CU at
 * system scope); a kernel ends once every L1 is drained (default: no write outstanding). */
void memory_kernel_begin(memory_system *memory, sc_time now);
void memory_kernel_end(memory_system *memory, sc_time now);
bool l1_drained(const memory_system *memory, unsigned cu);

/* ---- the engine's side ---- */

/* Event kinds the memory system schedules; the engine passes them back to memory_handle_event. */
enum {
    MEMORY_EVENT_FIRST = 100,
    MEMORY_EVENT_AT_L2 = MEMORY_EVENT_FIRST,  /* a message arrives at an L2 bank */
    MEMORY_EVENT_AT_CU,                       /* a message arrives at a CU */
    MEMORY_EVENT_BANK,                        /* an L2 bank may process its next message */
    MEMORY_EVENT_DRAM,                        /* DRAM has work due */
    MEMORY_EVENT_BACKING_DATA,                /* the memory side answers an L2 fill (L3 hit, CPU probe) */
    MEMORY_EVENT_BACKING_MISS,                /* the memory side sends an L2 fill's read to DRAM */
    MEMORY_EVENT_PROTOCOL,                    /* the protocol's own event (its handle_event hook) */
    MEMORY_EVENT_LAST = MEMORY_EVENT_PROTOCOL,
};

int memory_handle_event(memory_system *memory, const timing_event *event, sc_error *error);

/* Host accesses between kernels: write dirty L2 data back before the host reads; drop every
 * GPU-side cached copy (L1, L2, L3) after the host writes. The CPU cluster, if any, then holds
 * the lines: dirty after a write, at least clean after a read (memory_side.c). */
void memory_host_access(memory_system *memory, uint64_t address, size_t bytes, bool is_write);

/* Functional warming (sampled runs), between kernels only, after a host-read write-back: the
 * image holds every value. memory_warm_line makes the L2 hold a line a fast-forwarded access
 * touched, most recently used, dirty if the access `wrote` it (as a write-back L2 would after a
 * store or atomic, so its later eviction costs the DRAM write the full run pays); the line
 * passes through the memory side as its fill would, and a dirty victim's write-back as well
 * (memory_side.c, untimed). Line data is stale until memory_warm_finish copies the image's bytes into every
 * L2 line and drops every L1 copy (and, under a directory protocol, every directory entry), which
 * must come before any other access or host copy. */
void memory_warm_line(memory_system *memory, uint64_t address, bool wrote);
void memory_warm_finish(memory_system *memory);

/* The in-flight operation issued earliest (for watchdog messages), or NULL. */
memory_op *memory_oldest_op(memory_system *memory);

const memory_stats *memory_statistics(const memory_system *memory);
/* The protocol's own statistics (its counters read them), or NULL. */
const void *memory_protocol_statistics(const memory_system *memory);
const noc_stats *memory_noc_statistics(const memory_system *memory);
/* The NoC's energy (noc_energy.h) for its traffic so far over `elapsed` ps of simulated time. */
noc_energy memory_noc_energy(const memory_system *memory, sc_time elapsed);
const dram_stats *memory_dram_statistics(const memory_system *memory);

#endif
