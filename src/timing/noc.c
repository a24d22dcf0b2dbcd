/* noc.c — the interconnect as a reservation model (see noc.h).
 *
 * A message of S = ceil(bytes / bytes_per_cycle) NoC cycles sent from s to d at `now`:
 *   injection  starts once s's injection port is free (and not before `now`) and holds it S cycles;
 *   traversal  its head reaches d `latency` cycles after injection starts, plus hop_latency per
 *              hop on the mesh (XY routing: the Manhattan distance between the endpoints' nodes);
 *   ejection   starts once the head is there and d's ejection port is free, and holds it S cycles
 *              (cut-through: the tail follows the head);
 *   arrival    is the end of ejection, and never earlier than the previous arrival of the pair.
 * Unloaded, a message arrives now + (S + latency + hops * hop_latency) cycles; the ideal network
 * delivers at `now` with no ports at all. Ports are next-free reservations claimed in call order,
 * which already keeps a pair's messages in order on the crossbar and the mesh; the per-pair last
 * arrival makes the guarantee explicit and also holds on the ideal network when sends are not
 * made in time order.
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

struct noc {
    noc_config config;
    unsigned endpoint_count;
    unsigned *node_of_endpoint;   /* mesh only */
    sc_time *injection_free, *ejection_free;
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
    network->injection_free = calloc(endpoint_count, sizeof *network->injection_free);
    network->ejection_free = calloc(endpoint_count, sizeof *network->ejection_free);
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
    free(network->injection_free);
    free(network->ejection_free);
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

/* Holds the source's injection port for a message of `bytes`; returns when injection starts. */
static sc_time reserve_injection(noc *network, unsigned source, unsigned bytes, sc_time now)
{
    sc_time injection_start = later(now, network->injection_free[source]);
    network->injection_free[source] = injection_start + serialization_time(network, bytes);
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
    sc_time ejection_start = later(head_arrival, network->ejection_free[destination]);
    network->ejection_free[destination] = ejection_start + occupancy;
    network->stats.contention += ejection_start - head_arrival;
    return ejection_start + occupancy;
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
