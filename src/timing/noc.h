/* noc.h — the interconnect between compute units and L2 banks (and, later, CPUs and
 * memory-side caches), as a reservation model: sending a message computes its arrival time.
 *
 * Every endpoint has an injection port and an ejection port moving `bytes_per_cycle` per NoC
 * cycle; a message occupies its source's injection port and its destination's ejection port
 * for ceil(bytes / bytes_per_cycle) cycles, and traverses the network in `latency` NoC cycles
 * (crossbar), plus `hop_latency` per hop of XY routing (mesh: endpoints are placed on the
 * rows x columns grid by the caller), or in zero time (ideal: no latency, no contention).
 * Messages between the same pair of endpoints arrive in the order they were sent (per-pair
 * FIFO), which protocols rely on (a write and a later read of the same line from one CU reach
 * the L2 bank in order). Endpoints are ports numbered from 0; the memory system's numbering of
 * its CUs and L2 banks is endpoint_port (endpoint.h).
 */
#ifndef SYNCSCOPE_TIMING_NOC_H
#define SYNCSCOPE_TIMING_NOC_H

#include <stdint.h>

#include "timing/clock.h"

typedef enum noc_topology { NOC_CROSSBAR = 0, NOC_MESH, NOC_IDEAL } noc_topology;

typedef struct noc_config {
    noc_topology topology;
    sc_clock clock;
    unsigned latency;           /* NoC cycles, one direction, before hops */
    unsigned hop_latency;       /* mesh: NoC cycles per hop */
    unsigned bytes_per_cycle;
    unsigned rows, columns;     /* mesh grid */
} noc_config;

typedef struct noc_stats {
    uint64_t messages, bytes;
    uint64_t *bytes_out, *bytes_in;   /* per endpoint */
    sc_time contention;               /* ps messages waited for a busy port, summed */
} noc_stats;

typedef struct noc noc;

/* `node_of_endpoint[e]` places endpoint e on the mesh grid (row * columns + column); ignored
 * for the crossbar and ideal topologies. */
noc *noc_create(const noc_config *config, unsigned endpoint_count, const unsigned *node_of_endpoint);
void noc_destroy(noc *network);

/* Sends `bytes` from `source` to `destination` at `now`; returns the arrival time. */
sc_time noc_send(noc *network, unsigned source, unsigned destination, unsigned bytes, sc_time now);

/* A multicast (a broadcast invalidation): the network replicates one injection for every
 * destination. noc_multicast_inject holds `source`'s injection port once, from `now` or when it
 * is free, and returns when injection starts; noc_multicast_deliver then carries the copy to one
 * destination as noc_send would from that start (ejection port, pair order) and returns its
 * arrival. */
sc_time noc_multicast_inject(noc *network, unsigned source, unsigned bytes, sc_time now);
sc_time noc_multicast_deliver(noc *network, unsigned source, unsigned destination, unsigned bytes,
                              sc_time injection_start);

/* Unloaded one-way latency between two endpoints for a message of `bytes` bytes. */
sc_time noc_unloaded_latency(const noc *network, unsigned source, unsigned destination, unsigned bytes);

const noc_stats *noc_statistics(const noc *network);

#endif
