/* endpoint.h — the ends of the on-chip network: every message (memory_internal.h) goes from a
 * source endpoint to a destination endpoint, each named by a kind and an index within its kind.
 *
 * Kinds today:
 *   ENDPOINT_CU        a compute unit's L1 controller (index: the CU);
 *   ENDPOINT_L2_BANK   an L2 bank, where the requests for its lines are served (index: the bank);
 *                      memory_home_of (memory_internal.h) names the one a request goes to.
 * Every message is between a CU and an L2 bank, or from a CU's L1 to itself (a hit's data, which
 * does not cross the network). Further kinds (a directory apart from the L2, a memory controller,
 * a CPU core, a DMA engine, another GPU's home) are each one more kind here, with its NoC ports
 * after those of the kinds before it in endpoint_port, and a place to arrive in memory_send.
 *
 * NoC ports: the network (noc.h) numbers its endpoints' ports 0 .. cu_count + l2_banks - 1:
 * the CUs first (port = CU), then the L2 banks (port = cu_count + bank). endpoint_port is that
 * numbering, for the memory system's sends and for whoever reads the per-port statistics.
 */
#ifndef SYNCSCOPE_TIMING_ENDPOINT_H
#define SYNCSCOPE_TIMING_ENDPOINT_H

#include <stdint.h>

typedef enum endpoint_kind { ENDPOINT_CU = 0, ENDPOINT_L2_BANK } endpoint_kind;

typedef struct endpoint {
    uint16_t kind;     /* endpoint_kind */
    uint16_t index;    /* within the kind */
} endpoint;

static inline endpoint endpoint_cu(unsigned cu) { return (endpoint){ENDPOINT_CU, (uint16_t)cu}; }
static inline endpoint endpoint_l2_bank(unsigned bank) { return (endpoint){ENDPOINT_L2_BANK, (uint16_t)bank}; }

/* The NoC port of an endpoint in a system of `cu_count` CUs. */
static inline unsigned endpoint_port(endpoint e, unsigned cu_count)
{
    return e.kind == ENDPOINT_CU ? e.index : cu_count + e.index;
}

#endif
