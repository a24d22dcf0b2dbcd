/* noc_energy.c — the interconnect's energy (see noc_energy.h). Leakage in mW over ps is
 * 1e-3 W x 1e-12 s = 1e-15 J, i.e. 1e-3 pJ per mW x ps. */
#include "timing/noc_energy.h"

static double leakage_pj(double milliwatts, sc_time elapsed)
{
    return milliwatts * (double)elapsed * 1e-3;
}

noc_energy noc_energy_of(const noc_energy_config *config, const noc_geometry *geometry, const noc_stats *stats,
                         sc_time elapsed)
{
    double per_router_flit = config->buffer_write + config->buffer_read + config->crossbar + config->arbitration;
    double buffer_slots = (double)geometry->router_inputs * config->virtual_networks * config->vcs_per_network *
                          config->vc_depth;
    return (noc_energy){
        .router_dynamic = per_router_flit * (double)stats->router_flits,
        .link_dynamic = config->link * (double)stats->link_flits,
        .router_static = leakage_pj(buffer_slots * config->buffer_leakage +
                                        (double)geometry->routers * config->router_leakage,
                                    elapsed),
        .link_static = leakage_pj((double)geometry->links * config->link_leakage, elapsed),
    };
}

double noc_energy_total(const noc_energy *energy)
{
    return energy->router_dynamic + energy->router_static + energy->link_dynamic + energy->link_static;
}
