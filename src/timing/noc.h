/* noc.h — the interconnect between compute units and L2 banks (and, later, CPUs and
 * memory-side caches), as a reservation model: sending a message computes its arrival time.
 *
 * Every endpoint has an injection port and an ejection port moving `bytes_per_cycle` per NoC
 * cycle; a message occupies its source's injection port and its destination's ejection port
 * for ceil(bytes / bytes_per_cycle) cycles, and traverses the network in `latency` NoC cycles
 * (crossbar), plus `hop_latency` per hop of XY routing (mesh: endpoints are placed on the
 * rows x columns grid by the caller), or in zero time (ideal: no latency, no contention).
 * A port is a reservation calendar: a message takes the earliest idle time at or after it is
 * ready, whatever was reserved before it (a message sent ahead of its time, as an L2 bank's
 * answer sent at now + l2_latency, leaves the idle time before it to messages sent later).
 * Messages between the same pair of endpoints arrive in the order they were sent (per-pair
 * FIFO), which protocols rely on (a write and a later read of the same line from one CU reach
 * the L2 bank in order; qr's release marker arrives behind the writes before it; an L2's data
 * answer and a later invalidation of the line reach the L1 in that order). Endpoints are ports
 * numbered from 0; the memory system's numbering of its CUs and L2 banks is endpoint_port
 * (endpoint.h).
 *
 * Every message names its traffic class (noc_traffic_class; the memory system says which), and
 * the statistics count bytes and flits per class, and the flits' router and link traversals that
 * the energy model (noc_energy.h) charges. A flit is what a port moves in one NoC cycle
 * (bytes_per_cycle bytes). Routes, for energy: on the crossbar (one switch per direction, as
 * Ren's Table 3.3 has it) a message crosses 1 router and 2 links (its source's injection link
 * and its destination's ejection link); on the mesh it crosses hops + 1 routers and hops + 2
 * links; the ideal network has no routers or links. A multicast's copies are counted as the
 * unicasts they are delivered as (Garnet, whose traffic Ren's energy numbers come from, sends a
 * multicast as one packet per destination). Without a port width (the ideal network) a message
 * has no flits.
 */
#ifndef SYNCSCOPE_TIMING_NOC_H
#define SYNCSCOPE_TIMING_NOC_H

#include <stdint.h>

#include "timing/clock.h"

typedef enum noc_topology { NOC_CROSSBAR = 0, NOC_MESH, NOC_IDEAL } noc_topology;

/* What a message is for, in the classes of Ren's Fig 3.12 (docs/noc-energy.md says which
 * message of which mechanism is in which): a load's request and data, a store's, an atomic's,
 * control requests without data tied to no single access, invalidations and their
 * acknowledgements, and recalls, forwards and write-backs of owned lines. */
typedef enum noc_traffic_class {
    NOC_TRAFFIC_LD = 0,
    NOC_TRAFFIC_ST,
    NOC_TRAFFIC_ATO,
    NOC_TRAFFIC_REQ,
    NOC_TRAFFIC_INV,
    NOC_TRAFFIC_RCL,
    NOC_TRAFFIC_CLASS_COUNT
} noc_traffic_class;

/* "ld", "st", "ato", "req", "inv", "rcl" (metric names: noc_bytes.ld). */
const char *noc_traffic_class_name(noc_traffic_class traffic);

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
    uint64_t class_bytes[NOC_TRAFFIC_CLASS_COUNT];   /* per noc_traffic_class */
    uint64_t class_flits[NOC_TRAFFIC_CLASS_COUNT];
    uint64_t router_flits;            /* flits x routers each crossed */
    uint64_t link_flits;              /* flits x links each crossed */
} noc_stats;

/* What the network is built of, for its static energy: routers, their input ports taken
 * together (each with its virtual networks' buffers), and unidirectional links. The crossbar:
 * 2 routers (one per direction), one input port and two links (injection, ejection) per
 * endpoint. The mesh: a router per node, whose inputs are its neighbours' links and its
 * endpoints' injection links; the links between neighbours in both directions plus two per
 * endpoint. The ideal network: nothing. */
typedef struct noc_geometry {
    unsigned routers, router_inputs, links;
} noc_geometry;

typedef struct noc noc;

/* The most busy intervals a port's calendar holds (noc.c: past that it forgets its earliest). */
#define NOC_CALENDAR_INTERVALS 64

/* `node_of_endpoint[e]` places endpoint e on the mesh grid (row * columns + column); ignored
 * for the crossbar and ideal topologies. */
noc *noc_create(const noc_config *config, unsigned endpoint_count, const unsigned *node_of_endpoint);
void noc_destroy(noc *network);

/* Sends `bytes` of class `traffic` from `source` to `destination` at `now`; returns the arrival time. */
sc_time noc_send(noc *network, unsigned source, unsigned destination, unsigned bytes, noc_traffic_class traffic,
                 sc_time now);

/* No message sent from now on is ready before `now`: the ports may forget what ends by then
 * (the memory system calls it with each event's time). Bounds the calendars; a message sent
 * ready earlier than the latest `now` still gets a port, no earlier than what was forgotten. */
void noc_advance(noc *network, sc_time now);

/* A multicast (a broadcast invalidation): the network replicates one injection for every
 * destination. noc_multicast_inject holds `source`'s injection port once, from `now` or when it
 * is free, and returns when injection starts; noc_multicast_deliver then carries the copy to one
 * destination as noc_send would from that start (ejection port, pair order) and returns its
 * arrival. */
sc_time noc_multicast_inject(noc *network, unsigned source, unsigned bytes, sc_time now);
sc_time noc_multicast_deliver(noc *network, unsigned source, unsigned destination, unsigned bytes,
                              noc_traffic_class traffic, sc_time injection_start);

/* Unloaded one-way latency between two endpoints for a message of `bytes` bytes. */
sc_time noc_unloaded_latency(const noc *network, unsigned source, unsigned destination, unsigned bytes);

const noc_stats *noc_statistics(const noc *network);
const noc_geometry *noc_geometry_of(const noc *network);

#endif
