/* test_noc.c — the NoC reservation model: unloaded latency of the crossbar, the mesh (XY hops)
 * and the ideal network, agreement of noc_unloaded_latency with noc_send on an idle network,
 * serialization on shared ejection and injection ports, the ports' reservation calendars (a
 * message sent later but ready earlier takes the idle time before an earlier reservation, a gap
 * too short is skipped, forgotten intervals and a full calendar raise the floor), per-pair FIFO
 * order across backfilling, and statistics;
 * the traffic classes' bytes and flits, the routers and links of routes and topologies, and the
 * energy model (noc_energy.h) against hand-computed values. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "timing/noc.h"
#include "timing/noc_energy.h"

/* 500 ps cycles, 4 cycles through the network, 3 more per mesh hop, 32 bytes per cycle. */
static noc_config test_config(noc_topology topology)
{
    return (noc_config){
        .topology = topology, .clock = {500}, .latency = 4, .hop_latency = 3,
        .bytes_per_cycle = 32, .rows = 3, .columns = 3,
    };
}

/* Endpoints 0..3 on nodes 0 (row 0, column 0), 8 (2, 2), 4 (1, 1) and 2 (0, 2) of the 3x3 mesh. */
static const unsigned mesh_nodes[] = {0, 8, 4, 2};

static void test_crossbar_unloaded_latency(void **state)
{
    (void)state;
    noc_config config = test_config(NOC_CROSSBAR);
    noc *network = noc_create(&config, 4, NULL);
    assert_int_equal(noc_unloaded_latency(network, 0, 1, 64), (2 + 4) * 500);
    assert_int_equal(noc_unloaded_latency(network, 3, 2, 65), (3 + 4) * 500);   /* ceil(65 / 32) */
    assert_int_equal(noc_send(network, 0, 1, 64, NOC_TRAFFIC_LD, 1000), 1000 + (2 + 4) * 500);
    assert_int_equal(noc_statistics(network)->contention, 0);
    noc_destroy(network);
}

static void test_mesh_latency_counts_xy_hops(void **state)
{
    (void)state;
    noc_config config = test_config(NOC_MESH);
    noc *network = noc_create(&config, 4, mesh_nodes);
    assert_int_equal(noc_unloaded_latency(network, 0, 1, 64), (2 + 4 + 4 * 3) * 500);   /* 2 + 2 hops */
    assert_int_equal(noc_unloaded_latency(network, 1, 0, 64), (2 + 4 + 4 * 3) * 500);
    assert_int_equal(noc_unloaded_latency(network, 0, 3, 64), (2 + 4 + 2 * 3) * 500);   /* same row */
    assert_int_equal(noc_unloaded_latency(network, 2, 3, 32), (1 + 4 + 2 * 3) * 500);   /* 1 + 1 hops */
    assert_int_equal(noc_send(network, 0, 1, 64, NOC_TRAFFIC_LD, 0), noc_unloaded_latency(network, 0, 1, 64));
    assert_int_equal(noc_send(network, 2, 3, 32, NOC_TRAFFIC_LD, 7000), 7000 + noc_unloaded_latency(network, 2, 3, 32));
    noc_destroy(network);

    const unsigned off_grid[] = {0, 9};
    assert_null(noc_create(&config, 2, off_grid));
}

static void test_ideal_network_has_no_latency_or_contention(void **state)
{
    (void)state;
    noc_config config = test_config(NOC_IDEAL);
    noc *network = noc_create(&config, 4, NULL);
    assert_int_equal(noc_unloaded_latency(network, 0, 1, 4096), 0);
    for (unsigned source = 0; source < 3; source++)
        assert_int_equal(noc_send(network, source, 3, 4096, NOC_TRAFFIC_LD, 700), 700);
    assert_int_equal(noc_statistics(network)->contention, 0);
    noc_destroy(network);
}

static void test_shared_ports_serialize_messages(void **state)
{
    (void)state;
    noc_config config = test_config(NOC_CROSSBAR);
    noc *network = noc_create(&config, 4, NULL);
    /* Two sources into endpoint 2: the second ejects after the first, one serialization later. */
    assert_int_equal(noc_send(network, 0, 2, 64, NOC_TRAFFIC_LD, 0), 3000);
    assert_int_equal(noc_send(network, 1, 2, 64, NOC_TRAFFIC_LD, 0), 4000);
    assert_int_equal(noc_statistics(network)->contention, 1000);
    /* Endpoint 0 injecting again: waits for its own port (busy to 1000), not for endpoint 2's. */
    assert_int_equal(noc_send(network, 0, 3, 64, NOC_TRAFFIC_LD, 0), 4000);
    assert_int_equal(noc_statistics(network)->contention, 2000);
    /* Once the ports are free again, latency is back to unloaded. */
    assert_int_equal(noc_send(network, 1, 2, 64, NOC_TRAFFIC_LD, 10000), 10000 + noc_unloaded_latency(network, 1, 2, 64));
    noc_destroy(network);
}

static void test_pair_keeps_fifo_order(void **state)
{
    (void)state;
    noc_config config = test_config(NOC_CROSSBAR);
    noc *network = noc_create(&config, 4, NULL);
    sc_time large = noc_send(network, 0, 1, 320, NOC_TRAFFIC_LD, 0);     /* 10 cycles of serialization */
    sc_time small = noc_send(network, 0, 1, 32, NOC_TRAFFIC_LD, 0);      /* would take 5 cycles alone */
    assert_int_equal(large, (10 + 4) * 500);
    assert_true(small > large);
    noc_destroy(network);

    /* Sends made out of time order on the ideal network still arrive in send order. */
    config = test_config(NOC_IDEAL);
    network = noc_create(&config, 4, NULL);
    assert_int_equal(noc_send(network, 2, 1, 64, NOC_TRAFFIC_LD, 1000), 1000);
    assert_int_equal(noc_send(network, 2, 1, 64, NOC_TRAFFIC_LD, 500), 1000);
    assert_int_equal(noc_send(network, 3, 1, 64, NOC_TRAFFIC_LD, 500), 500);   /* another pair is not held */
    noc_destroy(network);
}

/* Reservations made ahead of their time (an L2 answer sent at now + l2_latency) leave the idle
 * time before them to messages sent later but ready earlier, on both ports. */
static void test_later_message_backfills_idle_port_time(void **state)
{
    (void)state;
    noc_config config = test_config(NOC_CROSSBAR);
    noc *network = noc_create(&config, 4, NULL);
    /* Ready at 10000: injection [10000, 11000), ejection at 2 [12000, 13000). */
    assert_int_equal(noc_send(network, 0, 2, 64, NOC_TRAFFIC_LD, 10000), 13000);
    /* Into the same ejection port, ready at 0: ejects [2000, 3000), before the earlier reservation. */
    assert_int_equal(noc_send(network, 1, 2, 64, NOC_TRAFFIC_LD, 0), 3000);
    /* Out of the same injection port, ready at 0: injects [0, 1000). */
    assert_int_equal(noc_send(network, 0, 3, 64, NOC_TRAFFIC_LD, 0), 3000);
    assert_int_equal(noc_statistics(network)->contention, 0);
    /* A gap that fits exactly: head at 11000, ejects [11000, 12000) up to the reservation at 12000. */
    assert_int_equal(noc_send(network, 3, 2, 64, NOC_TRAFFIC_LD, 9000), 12000);
    /* A gap too short: head at 10500 would eject into [11000, 13000); it waits for 13000. */
    assert_int_equal(noc_send(network, 1, 2, 64, NOC_TRAFFIC_LD, 8500), 14000);
    assert_int_equal(noc_statistics(network)->contention, 2500);
    noc_destroy(network);
}

/* A message backfilled ahead of its pair's earlier one still arrives after it. */
static void test_pair_order_holds_across_backfilling(void **state)
{
    (void)state;
    noc_config config = test_config(NOC_CROSSBAR);
    noc *network = noc_create(&config, 4, NULL);
    assert_int_equal(noc_send(network, 0, 1, 64, NOC_TRAFFIC_LD, 10000), 13000);
    assert_int_equal(noc_send(network, 0, 1, 32, NOC_TRAFFIC_INV, 0), 13000);   /* alone: 2500 */
    /* Another pair is not held: it ejects after the backfilled one's [2000, 2500). */
    assert_int_equal(noc_send(network, 3, 1, 32, NOC_TRAFFIC_INV, 0), 3000);
    noc_destroy(network);
}

/* What noc_advance lets a port forget, and what a full calendar forgets, is never double-booked:
 * a message ready before it waits for the floor. */
static void test_forgotten_reservations_raise_the_floor(void **state)
{
    (void)state;
    noc_config config = test_config(NOC_CROSSBAR);
    noc *network = noc_create(&config, 4, NULL);
    assert_int_equal(noc_send(network, 0, 2, 64, NOC_TRAFFIC_LD, 0), 3000);     /* ejects [2000, 3000) */
    noc_advance(network, 5000);
    assert_int_equal(noc_send(network, 1, 2, 64, NOC_TRAFFIC_LD, 0), 4000);     /* ejects from the floor, 3000 */
    assert_int_equal(noc_send(network, 1, 2, 64, NOC_TRAFFIC_LD, 6000), 9000);  /* unloaded again */
    noc_destroy(network);

    /* NOC_CALENDAR_INTERVALS disjoint injections of one cycle at 2000, 4000, ...: the calendar
     * is full. One more ready at 0 would be the earliest; the calendar forgets [2000, 2500)
     * instead, and the message injects at 2500. */
    network = noc_create(&config, 4, NULL);
    for (unsigned k = 1; k <= NOC_CALENDAR_INTERVALS; k++)
        noc_send(network, 0, 1, 32, NOC_TRAFFIC_LD, (sc_time)k * 2000);
    assert_int_equal(noc_send(network, 0, 3, 32, NOC_TRAFFIC_LD, 0), 2500 + 500 + 2000);
    /* Room is still found in the gaps after the floor. */
    assert_int_equal(noc_send(network, 0, 3, 32, NOC_TRAFFIC_LD, 0), 3000 + 500 + 2000);
    noc_destroy(network);
}

static void test_statistics_count_bytes_per_endpoint(void **state)
{
    (void)state;
    noc_config config = test_config(NOC_MESH);
    noc *network = noc_create(&config, 4, mesh_nodes);
    noc_send(network, 0, 1, 64, NOC_TRAFFIC_LD, 0);
    noc_send(network, 0, 2, 16, NOC_TRAFFIC_LD, 0);
    noc_send(network, 3, 1, 128, NOC_TRAFFIC_LD, 0);
    const noc_stats *stats = noc_statistics(network);
    assert_int_equal(stats->messages, 3);
    assert_int_equal(stats->bytes, 64 + 16 + 128);
    assert_int_equal(stats->bytes_out[0], 80);
    assert_int_equal(stats->bytes_out[1], 0);
    assert_int_equal(stats->bytes_out[3], 128);
    assert_int_equal(stats->bytes_in[1], 192);
    assert_int_equal(stats->bytes_in[2], 16);
    assert_int_equal(stats->bytes_in[0], 0);
    noc_destroy(network);
}

static void test_traffic_classes_count_bytes_flits_and_traversals(void **state)
{
    (void)state;
    noc_config config = test_config(NOC_CROSSBAR);
    noc *network = noc_create(&config, 4, NULL);
    noc_send(network, 0, 2, 64, NOC_TRAFFIC_LD, 0);     /* 2 flits of 32 bytes */
    noc_send(network, 2, 0, 136, NOC_TRAFFIC_LD, 0);    /* 5 flits: the last one partly used */
    noc_send(network, 1, 3, 160, NOC_TRAFFIC_ST, 0);    /* 5 flits */
    noc_send(network, 3, 1, 8, NOC_TRAFFIC_INV, 0);     /* 1 flit */
    const noc_stats *stats = noc_statistics(network);
    assert_int_equal(stats->class_bytes[NOC_TRAFFIC_LD], 200);
    assert_int_equal(stats->class_flits[NOC_TRAFFIC_LD], 7);
    assert_int_equal(stats->class_bytes[NOC_TRAFFIC_ST], 160);
    assert_int_equal(stats->class_flits[NOC_TRAFFIC_ST], 5);
    assert_int_equal(stats->class_flits[NOC_TRAFFIC_INV], 1);
    assert_int_equal(stats->class_bytes[NOC_TRAFFIC_RCL], 0);
    /* The crossbar: one router and two links per message. */
    assert_int_equal(stats->router_flits, 13);
    assert_int_equal(stats->link_flits, 26);
    assert_string_equal(noc_traffic_class_name(NOC_TRAFFIC_ATO), "ato");
    assert_string_equal(noc_traffic_class_name(NOC_TRAFFIC_RCL), "rcl");
    noc_destroy(network);

    /* The mesh: node 0 to node 8 of the 3x3 grid is 4 hops, 5 routers and 6 links; a multicast
     * counts each delivered copy. */
    config = test_config(NOC_MESH);
    network = noc_create(&config, 4, mesh_nodes);
    noc_send(network, 0, 1, 64, NOC_TRAFFIC_RCL, 0);
    sc_time start = noc_multicast_inject(network, 2, 32, 0);   /* node 4 to nodes 0 and 2: 2 hops each */
    noc_multicast_deliver(network, 2, 0, 32, NOC_TRAFFIC_INV, start);
    noc_multicast_deliver(network, 2, 3, 32, NOC_TRAFFIC_INV, start);
    stats = noc_statistics(network);
    assert_int_equal(stats->class_flits[NOC_TRAFFIC_RCL], 2);
    assert_int_equal(stats->class_flits[NOC_TRAFFIC_INV], 2);
    assert_int_equal(stats->router_flits, 2 * 5 + 2 * 3);
    assert_int_equal(stats->link_flits, 2 * 6 + 2 * 4);
    noc_destroy(network);

    /* The ideal network has no routers or links to cross. */
    config = test_config(NOC_IDEAL);
    network = noc_create(&config, 4, NULL);
    noc_send(network, 0, 1, 64, NOC_TRAFFIC_LD, 0);
    assert_int_equal(noc_statistics(network)->class_flits[NOC_TRAFFIC_LD], 2);
    assert_int_equal(noc_statistics(network)->router_flits, 0);
    assert_int_equal(noc_statistics(network)->link_flits, 0);
    noc_destroy(network);
}

static void test_geometry_of_each_topology(void **state)
{
    (void)state;
    noc_config config = test_config(NOC_CROSSBAR);
    noc *network = noc_create(&config, 4, NULL);
    const noc_geometry *g = noc_geometry_of(network);
    assert_int_equal(g->routers, 2);         /* one switch per direction */
    assert_int_equal(g->router_inputs, 4);   /* each endpoint feeds one */
    assert_int_equal(g->links, 8);           /* an injection and an ejection link per endpoint */
    noc_destroy(network);

    /* 3x3 mesh: 12 neighbour pairs, 24 directed links between routers, plus the endpoints'. */
    config = test_config(NOC_MESH);
    network = noc_create(&config, 4, mesh_nodes);
    g = noc_geometry_of(network);
    assert_int_equal(g->routers, 9);
    assert_int_equal(g->router_inputs, 24 + 4);
    assert_int_equal(g->links, 24 + 8);
    noc_destroy(network);

    config = test_config(NOC_IDEAL);
    network = noc_create(&config, 4, NULL);
    g = noc_geometry_of(network);
    assert_int_equal(g->routers + g->router_inputs + g->links, 0);
    noc_destroy(network);
}

/* Round numbers: 1 + 2 + 3 + 4 = 10 pJ per flit per router, 5 pJ per flit per link; 0.5 mW per
 * buffer slot, 10 mW per router, 0.25 mW per link; 8-flit VCs, one per virtual network. */
static noc_energy_config round_energy_config(unsigned virtual_networks)
{
    return (noc_energy_config){
        .buffer_write = 1, .buffer_read = 2, .crossbar = 3, .arbitration = 4, .link = 5,
        .buffer_leakage = 0.5, .router_leakage = 10, .link_leakage = 0.25,
        .virtual_networks = virtual_networks, .vcs_per_network = 1, .vc_depth = 8,
    };
}

static void test_energy_is_per_flit_per_hop_and_leakage_over_time(void **state)
{
    (void)state;
    noc_geometry crossbar = {.routers = 2, .router_inputs = 4, .links = 8};
    noc_stats stats = {.router_flits = 8, .link_flits = 16};
    noc_energy_config two = round_energy_config(2);
    noc_energy e = noc_energy_of(&two, &crossbar, &stats, 1000000);   /* 1 us */
    assert_float_equal(e.router_dynamic, 8 * 10.0, 1e-9);
    assert_float_equal(e.link_dynamic, 16 * 5.0, 1e-9);
    /* 4 inputs x 2 networks x 1 VC x 8 flits x 0.5 mW + 2 routers x 10 mW = 52 mW, for 1 us: 52 nJ */
    assert_float_equal(e.router_static, 52000.0, 1e-6);
    assert_float_equal(e.link_static, 8 * 0.25 * 1000.0, 1e-6);
    assert_float_equal(noc_energy_total(&e), 80 + 80 + 52000 + 2000, 1e-6);

    /* Five virtual networks (MESI) buffer 2.5 times the flits: 4 x 5 x 8 x 0.5 + 20 = 100 mW. */
    noc_energy_config five = round_energy_config(5);
    noc_energy m = noc_energy_of(&five, &crossbar, &stats, 1000000);
    assert_float_equal(m.router_static, 100000.0, 1e-6);
    assert_float_equal(m.router_dynamic, e.router_dynamic, 1e-9);

    /* No time, no traffic: no energy. */
    noc_stats idle = {0};
    noc_energy none = noc_energy_of(&five, &crossbar, &idle, 0);
    assert_float_equal(noc_energy_total(&none), 0.0, 0.0);
}

/* rcc-gpu's ORION 2.0 values (models/systems/rcc-gpu.json, docs/noc-energy.md): one 136-byte data
 * message (5 flits) across the crossbar costs 5 x (16.8833 + 36.4663 + 380.34865 + 5.43045) pJ in
 * the router and 5 x 2 x 8.1345 pJ on its links. */
static void test_energy_of_one_message_on_rcc_gpu(void **state)
{
    (void)state;
    noc_config config = test_config(NOC_CROSSBAR);
    noc *network = noc_create(&config, 24, NULL);
    noc_send(network, 0, 16, 136, NOC_TRAFFIC_LD, 0);
    noc_energy_config rcc = {
        .buffer_write = 16.8833, .buffer_read = 36.4663, .crossbar = 380.34865, .arbitration = 5.43045,
        .link = 8.1345, .buffer_leakage = 0.542137, .router_leakage = 37.05455, .link_leakage = 0,
        .virtual_networks = 2, .vcs_per_network = 1, .vc_depth = 8,
    };
    noc_energy e = noc_energy_of(&rcc, noc_geometry_of(network), noc_statistics(network), 0);
    assert_float_equal(e.router_dynamic, 2195.6435, 1e-6);
    assert_float_equal(e.link_dynamic, 81.345, 1e-9);
    /* 24 inputs x 2 x 8 slots x 0.542137 mW + 2 x 37.05455 mW = 282.289708 mW; for 1 ms, 282.289708 uJ */
    e = noc_energy_of(&rcc, noc_geometry_of(network), noc_statistics(network), 1000000000);
    assert_float_equal(e.router_static, 282289708.0, 1.0);
    noc_destroy(network);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_crossbar_unloaded_latency),
        cmocka_unit_test(test_mesh_latency_counts_xy_hops),
        cmocka_unit_test(test_ideal_network_has_no_latency_or_contention),
        cmocka_unit_test(test_shared_ports_serialize_messages),
        cmocka_unit_test(test_pair_keeps_fifo_order),
        cmocka_unit_test(test_later_message_backfills_idle_port_time),
        cmocka_unit_test(test_pair_order_holds_across_backfilling),
        cmocka_unit_test(test_forgotten_reservations_raise_the_floor),
        cmocka_unit_test(test_statistics_count_bytes_per_endpoint),
        cmocka_unit_test(test_traffic_classes_count_bytes_flits_and_traversals),
        cmocka_unit_test(test_geometry_of_each_topology),
        cmocka_unit_test(test_energy_is_per_flit_per_hop_and_leakage_over_time),
        cmocka_unit_test(test_energy_of_one_message_on_rcc_gpu),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
