/* noc_energy.h — the interconnect's energy: link and router, dynamic and static, per flit and
 * per hop in the manner of ORION 2.0 as gem5's Garnet applies it (Ren's Fig 3.11 methodology).
 *
 * Dynamic energy is charged per flit per hop: every router a flit crosses costs a buffer write,
 * a buffer read, a crossbar traversal and a switch arbitration; every link it crosses costs a
 * link traversal (noc.h says which routers and links a message's route has). Static energy is
 * leakage power times the simulated time: every flit slot of every input buffer (router inputs x
 * virtual networks x virtual channels per network x flits per virtual channel) leaks, every
 * router leaks for its crossbar and allocators, every link for its repeaters. A mechanism with
 * more virtual networks (MESI's five against two) thus pays more static energy for the same
 * traffic. The per-component values are configuration keys (noc.*_energy, noc.*_leakage);
 * docs/noc-energy.md gives the ORION 2.0 values of every preset and how they were obtained.
 */
#ifndef SYNCSCOPE_TIMING_NOC_ENERGY_H
#define SYNCSCOPE_TIMING_NOC_ENERGY_H

#include "timing/noc.h"

typedef struct noc_energy_config {
    /* dynamic, pJ per flit */
    double buffer_write, buffer_read, crossbar, arbitration;   /* per router crossed */
    double link;                                               /* per link crossed */
    /* static, mW */
    double buffer_leakage;       /* per flit slot of an input buffer */
    double router_leakage;       /* per router: crossbar and allocators */
    double link_leakage;         /* per link */
    unsigned virtual_networks;   /* the mechanism's (sc_mechanism.virtual_networks) */
    unsigned vcs_per_network, vc_depth;   /* virtual channels per network, flits per virtual channel */
} noc_energy_config;

/* Energy in pJ. */
typedef struct noc_energy {
    double router_dynamic, router_static, link_dynamic, link_static;
} noc_energy;

/* The energy of the traffic in `stats` on a network of `geometry` over `elapsed` ps. */
noc_energy noc_energy_of(const noc_energy_config *config, const noc_geometry *geometry, const noc_stats *stats,
                         sc_time elapsed);

double noc_energy_total(const noc_energy *energy);

#endif
