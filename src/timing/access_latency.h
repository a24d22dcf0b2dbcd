/* access_latency.h — an instrument of the timing engine (sim.access_latencies, off by default):
 * the latency of every global load, store and atomic a warp issues, from its issue to the cycle
 * its operation is done for the warp (compute_unit.c's cu_op_done: a load's data arrived, an
 * atomic's answer, a store performed as far as its L1 can tell, l1_controller.c), kept per kind
 * so that a run can report each kind's distribution. An SC core holds a warp's next access for
 * exactly this time, so it splits the issue filter's hold (the SC stall's resolve latency, Ren
 * Fig 3.9) by the kind of access the warp waited for. */
#ifndef SYNCSCOPE_TIMING_ACCESS_LATENCY_H
#define SYNCSCOPE_TIMING_ACCESS_LATENCY_H

#include <stddef.h>
#include <stdint.h>

typedef enum access_latency_kind {
    ACCESS_LATENCY_LOAD,
    ACCESS_LATENCY_STORE,
    ACCESS_LATENCY_ATOMIC,   /* atom and red */
    ACCESS_LATENCY_KINDS
} access_latency_kind;

typedef struct access_latencies {
    double *cycles[ACCESS_LATENCY_KINDS];   /* every access's latency, in GPU cycles */
    size_t count[ACCESS_LATENCY_KINDS], capacity[ACCESS_LATENCY_KINDS];
} access_latencies;

/* One kind's distribution; all zero when it has no access. */
typedef struct access_latency_summary {
    size_t count;
    double mean, p10, p50, p90, p99, max;
} access_latency_summary;

void access_latencies_add(access_latencies *latencies, access_latency_kind kind, uint64_t cycles);

/* Sorts the kind's latencies (kept sorted: more may be added after) and summarises them. */
access_latency_summary access_latencies_summary(access_latencies *latencies, access_latency_kind kind);

const char *access_latency_kind_name(access_latency_kind kind);

void access_latencies_free(access_latencies *latencies);

#endif
