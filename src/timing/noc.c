/* noc.c — the interconnect as a reservation model (see noc.h).
 *
 * A message of S = ceil(bytes / bytes_per_cycle) NoC cycles sent from s to d, ready at `now`:
 *   injection  starts at the first time t >= now at which s's injection port is idle for S
 *              cycles, and holds it [t, t + S);
 *   traversal  its head reaches d `latency` cycles after injection starts, plus hop_latency per
 *              hop on the mesh (XY routing: the Manhattan distance between the endpoints' nodes);
 *   ejection   starts at the first time >= the head's arrival at which d's ejection port is idle
 *              for S cycles, and holds it that long (cut-through: the tail follows the head);
 *   arrival    is the end of ejection, and never earlier than the arrival of the pair's message
 *              sent before it (per-pair FIFO in send order).
 * Unloaded, a message arrives now + (S + latency + hops * hop_latency) cycles; the ideal network
 * delivers at `now` with no ports at all.
 *
 * Each port keeps a reservation calendar: its busy intervals in time order (touching ones merged).
 * A message takes the earliest idle gap long enough at or after its ready time, so a message
 * sent later but ready earlier (a request sent now after an L2 reply that was sent ahead of its
 * time, at now + l2_latency) uses the idle time before a reservation made earlier; it does not
 * queue behind every reservation made before it. Per-pair order is kept by the arrival rule
 * alone: a message backfilled ahead of its pair's earlier one arrives right after it.
 *
 * Bounded memory: noc_advance tells the network that no message sent from then on is ready
 * before `now`; a port forgets the intervals that end by then. A calendar holds at most
 * NOC_CALENDAR_INTERVALS intervals; when it would hold one more, it forgets its earliest. A
 * forgotten interval raises the port's floor to its end: nothing is placed before the floor, so
 * no reservation can overlap a forgotten one (a late message waits as it would have on a
 * next-free port).
 *
 * A multicast (noc_multicast_*) holds the source's injection port once and each destination's
 * ejection port as a unicast would: the crossbar's switch (or the mesh's routers) replicate it.
 *
 * Time is continuous picoseconds: sends are not aligned to NoC clock edges. Links and routers
 * inside the mesh are not reserved, so contention happens at the endpoints' ports only; the
 * contention statistic sums the time messages wait for their injection and ejection ports.
 * noc_create returns NULL for a zero clock period or port width, or a mesh node off the grid.
 *
 * Each delivered message adds its bytes and flits (ceil(bytes / bytes_per_cycle)) to its traffic
 * class, and its flits times the routers and links of its route (noc.h) to the traversal counts.
 */
#include "timing/noc.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* One busy interval of a port, [start, end). */
typedef struct noc_interval {
    sc_time start, end;
} noc_interval;

/* A port's reservations: busy[0 .. count) in time order, disjoint and not touching; nothing is
 * placed before `floor` (the end of the latest interval it forgot). */
typedef struct noc_calendar {
    sc_time floor;
    unsigned count;
    noc_interval busy[NOC_CALENDAR_INTERVALS];
} noc_calendar;

struct noc {
    noc_config config;
    unsigned endpoint_count;
    unsigned *node_of_endpoint;   /* mesh only */
    noc_calendar *injection, *ejection;   /* per endpoint */
    sc_time horizon;              /* no message sent from now on is ready earlier (noc_advance) */
    sc_time *last_arrival;        /* [source * endpoint_count + destination] */
    noc_stats stats;
    noc_geometry geometry;
};

const char *noc_traffic_class_name(noc_traffic_class traffic)
{
    static const char *const names[NOC_TRAFFIC_CLASS_COUNT] = {"ld", "st", "ato", "req", "inv", "rcl"};
    return (unsigned)traffic < NOC_TRAFFIC_CLASS_COUNT ? names[traffic] : "?";
}

static bool is_valid_config(const noc_config *config, unsigned endpoint_count, const unsigned *node_of_endpoint)
{
    if (!config->clock.period || (config->topology != NOC_IDEAL && !config->bytes_per_cycle))
        return false;
    if (config->topology != NOC_MESH)
        return true;
    if (!node_of_endpoint || !config->columns)
        return false;
    for (unsigned e = 0; e < endpoint_count; e++)
        if (node_of_endpoint[e] >= (uint64_t)config->rows * config->columns)
            return false;
    return true;
}

/* The mesh's routers: each node's inputs are its neighbours' links and its endpoints' injection
 * links. */
static noc_geometry mesh_geometry(const noc_config *config, unsigned endpoint_count)
{
    unsigned rows = config->rows, columns = config->columns;
    unsigned neighbour_links = 2 * (rows * (columns - 1) + columns * (rows - 1));
    return (noc_geometry){.routers = rows * columns, .router_inputs = neighbour_links + endpoint_count,
                          .links = neighbour_links + 2 * endpoint_count};
}

static noc_geometry geometry_of(const noc_config *config, unsigned endpoint_count)
{
    switch (config->topology) {
    case NOC_CROSSBAR:
        return (noc_geometry){.routers = 2, .router_inputs = endpoint_count, .links = 2 * endpoint_count};
    case NOC_MESH:
        return mesh_geometry(config, endpoint_count);
    default:
        return (noc_geometry){0};
    }
}

noc *noc_create(const noc_config *config, unsigned endpoint_count, const unsigned *node_of_endpoint)
{
    if (!is_valid_config(config, endpoint_count, node_of_endpoint))
        return NULL;
    noc *network = calloc(1, sizeof *network);
    network->config = *config;
    network->endpoint_count = endpoint_count;
    if (config->topology == NOC_MESH) {
        network->node_of_endpoint = calloc(endpoint_count, sizeof *network->node_of_endpoint);
        memcpy(network->node_of_endpoint, node_of_endpoint, endpoint_count * sizeof *node_of_endpoint);
    }
    network->injection = calloc(endpoint_count, sizeof *network->injection);
    network->ejection = calloc(endpoint_count, sizeof *network->ejection);
    network->last_arrival = calloc((size_t)endpoint_count * endpoint_count, sizeof *network->last_arrival);
    network->stats.bytes_out = calloc(endpoint_count, sizeof *network->stats.bytes_out);
    network->stats.bytes_in = calloc(endpoint_count, sizeof *network->stats.bytes_in);
    network->geometry = geometry_of(config, endpoint_count);
    return network;
}

void noc_destroy(noc *network)
{
    if (!network)
        return;
    free(network->node_of_endpoint);
    free(network->injection);
    free(network->ejection);
    free(network->last_arrival);
    free(network->stats.bytes_out);
    free(network->stats.bytes_in);
    free(network);
}

static sc_time later(sc_time a, sc_time b) { return a > b ? a : b; }

static unsigned distance(unsigned a, unsigned b) { return a > b ? a - b : b - a; }

static unsigned mesh_hops(const noc *network, unsigned source, unsigned destination)
{
    unsigned columns = network->config.columns;
    unsigned from = network->node_of_endpoint[source], to = network->node_of_endpoint[destination];
    return distance(from / columns, to / columns) + distance(from % columns, to % columns);
}

/* Time from the start of injection until the head reaches the destination's ejection port. */
static sc_time traversal_time(const noc *network, unsigned source, unsigned destination)
{
    uint64_t cycles = network->config.latency;
    if (network->config.topology == NOC_MESH)
        cycles += (uint64_t)network->config.hop_latency * mesh_hops(network, source, destination);
    return sc_clock_span(network->config.clock, cycles);
}

/* Time a message of `bytes` holds a port. */
static sc_time serialization_time(const noc *network, unsigned bytes)
{
    uint64_t per_cycle = network->config.bytes_per_cycle;
    return sc_clock_span(network->config.clock, (bytes + per_cycle - 1) / per_cycle);
}

sc_time noc_unloaded_latency(const noc *network, unsigned source, unsigned destination, unsigned bytes)
{
    if (network->config.topology == NOC_IDEAL)
        return 0;
    return serialization_time(network, bytes) + traversal_time(network, source, destination);
}

/* Forgets the calendar's first `k` intervals, raising its floor to the last one's end. */
static void forget_earliest(noc_calendar *calendar, unsigned k)
{
    if (!k)
        return;
    calendar->floor = later(calendar->floor, calendar->busy[k - 1].end);
    calendar->count -= k;
    memmove(calendar->busy, calendar->busy + k, calendar->count * sizeof *calendar->busy);
}

/* The index of the first interval ending after `t` (intervals are disjoint, so their ends
 * increase with their index). */
static unsigned first_ending_after(const noc_calendar *calendar, sc_time t)
{
    unsigned low = 0, high = calendar->count;
    while (low < high) {
        unsigned middle = low + (high - low) / 2;
        if (calendar->busy[middle].end <= t)
            low = middle + 1;
        else
            high = middle;
    }
    return low;
}

/* Reserves the earliest `length` of idle time at or after `ready` (and the floor) on the port;
 * returns its start. */
static sc_time reserve(noc_calendar *calendar, sc_time horizon, sc_time ready, sc_time length)
{
    if (calendar->count && calendar->busy[0].end <= horizon)
        forget_earliest(calendar, first_ending_after(calendar, horizon));
    sc_time start = later(ready, calendar->floor);
    if (!length)
        return start;
    /* Most messages are ready after every reservation: no search. */
    unsigned i = calendar->count && start < calendar->busy[calendar->count - 1].end
                     ? first_ending_after(calendar, start)
                     : calendar->count;
    while (i < calendar->count && calendar->busy[i].start < start + length)
        start = later(start, calendar->busy[i++].end);
    /* [start, start + length) fits before busy[i]; it touches busy[i - 1] when that ends at start. */
    bool joins_previous = i > 0 && calendar->busy[i - 1].end == start;
    bool joins_next = i < calendar->count && calendar->busy[i].start == start + length;
    if (joins_previous && joins_next) {
        calendar->busy[i - 1].end = calendar->busy[i].end;
        calendar->count--;
        memmove(calendar->busy + i, calendar->busy + i + 1, (calendar->count - i) * sizeof *calendar->busy);
    } else if (joins_previous) {
        calendar->busy[i - 1].end = start + length;
    } else if (joins_next) {
        calendar->busy[i].start = start;
    } else {
        if (calendar->count == NOC_CALENDAR_INTERVALS) {
            forget_earliest(calendar, 1);
            if (i == 0)   /* the earliest was after the new one: nothing may precede the floor */
                return reserve(calendar, horizon, ready, length);
            i--;
        }
        memmove(calendar->busy + i + 1, calendar->busy + i, (calendar->count - i) * sizeof *calendar->busy);
        calendar->busy[i] = (noc_interval){start, start + length};
        calendar->count++;
    }
    return start;
}

/* Holds the source's injection port for a message of `bytes`; returns when injection starts. */
static sc_time reserve_injection(noc *network, unsigned source, unsigned bytes, sc_time now)
{
    sc_time injection_start = reserve(&network->injection[source], network->horizon, now,
                                      serialization_time(network, bytes));
    network->stats.contention += injection_start - now;
    return injection_start;
}

/* Holds the destination's ejection port for the message injected at `injection_start`; returns
 * when its tail leaves the ejection port. */
static sc_time reserve_ejection(noc *network, unsigned source, unsigned destination, unsigned bytes,
                                sc_time injection_start)
{
    sc_time occupancy = serialization_time(network, bytes);
    sc_time head_arrival = injection_start + traversal_time(network, source, destination);
    sc_time ejection_start = reserve(&network->ejection[destination], network->horizon, head_arrival, occupancy);
    network->stats.contention += ejection_start - head_arrival;
    return ejection_start + occupancy;
}

void noc_advance(noc *network, sc_time now)
{
    network->horizon = later(network->horizon, now);
}

/* The routers a message between the endpoints crosses (noc.h); it crosses one link more. */
static unsigned routers_on_route(const noc *network, unsigned source, unsigned destination)
{
    switch (network->config.topology) {
    case NOC_CROSSBAR:
        return 1;
    case NOC_MESH:
        return mesh_hops(network, source, destination) + 1;
    default:
        return 0;
    }
}

/* Counts the message's bytes and flits in its class, and its flits' traversals. */
static void count_traffic(noc *network, unsigned source, unsigned destination, unsigned bytes,
                          noc_traffic_class traffic)
{
    uint64_t flits = network->config.bytes_per_cycle
                         ? (bytes + network->config.bytes_per_cycle - 1) / network->config.bytes_per_cycle
                         : 0;
    network->stats.class_bytes[traffic] += bytes;
    network->stats.class_flits[traffic] += flits;
    unsigned routers = routers_on_route(network, source, destination);
    network->stats.router_flits += flits * routers;
    network->stats.link_flits += routers ? flits * (routers + 1) : 0;
}

/* Keeps the pair's order and counts the delivered message. */
static sc_time delivered(noc *network, unsigned source, unsigned destination, unsigned bytes,
                         noc_traffic_class traffic, sc_time arrival)
{
    sc_time *pair_last = &network->last_arrival[(size_t)source * network->endpoint_count + destination];
    arrival = later(arrival, *pair_last);
    *pair_last = arrival;
    network->stats.messages++;
    network->stats.bytes += bytes;
    network->stats.bytes_out[source] += bytes;
    network->stats.bytes_in[destination] += bytes;
    count_traffic(network, source, destination, bytes, traffic);
    return arrival;
}

sc_time noc_send(noc *network, unsigned source, unsigned destination, unsigned bytes, noc_traffic_class traffic,
                 sc_time now)
{
    return noc_multicast_deliver(network, source, destination, bytes, traffic,
                                 noc_multicast_inject(network, source, bytes, now));
}

sc_time noc_multicast_inject(noc *network, unsigned source, unsigned bytes, sc_time now)
{
    return network->config.topology == NOC_IDEAL ? now : reserve_injection(network, source, bytes, now);
}

sc_time noc_multicast_deliver(noc *network, unsigned source, unsigned destination, unsigned bytes,
                              noc_traffic_class traffic, sc_time injection_start)
{
    sc_time arrival = network->config.topology == NOC_IDEAL
                          ? injection_start
                          : reserve_ejection(network, source, destination, bytes, injection_start);
    return delivered(network, source, destination, bytes, traffic, arrival);
}

const noc_stats *noc_statistics(const noc *network)
{
    return &network->stats;
}

const noc_geometry *noc_geometry_of(const noc *network)
{
    return &network->geometry;
}
