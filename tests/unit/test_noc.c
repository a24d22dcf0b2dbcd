/* test_noc.c — the NoC reservation model: unloaded latency of the crossbar, the mesh (XY hops)
 * and the ideal network, agreement of noc_unloaded_latency with noc_send on an idle network,
 * serialization on shared ejection and injection ports, per-pair FIFO order, and statistics. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "timing/noc.h"

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
    assert_int_equal(noc_send(network, 0, 1, 64, 1000), 1000 + (2 + 4) * 500);
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
    assert_int_equal(noc_send(network, 0, 1, 64, 0), noc_unloaded_latency(network, 0, 1, 64));
    assert_int_equal(noc_send(network, 2, 3, 32, 7000), 7000 + noc_unloaded_latency(network, 2, 3, 32));
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
        assert_int_equal(noc_send(network, source, 3, 4096, 700), 700);
    assert_int_equal(noc_statistics(network)->contention, 0);
    noc_destroy(network);
}

static void test_shared_ports_serialize_messages(void **state)
{
    (void)state;
    noc_config config = test_config(NOC_CROSSBAR);
    noc *network = noc_create(&config, 4, NULL);
    /* Two sources into endpoint 2: the second ejects after the first, one serialization later. */
    assert_int_equal(noc_send(network, 0, 2, 64, 0), 3000);
    assert_int_equal(noc_send(network, 1, 2, 64, 0), 4000);
    assert_int_equal(noc_statistics(network)->contention, 1000);
    /* Endpoint 0 injecting again: waits for its own port (busy to 1000), not for endpoint 2's. */
    assert_int_equal(noc_send(network, 0, 3, 64, 0), 4000);
    assert_int_equal(noc_statistics(network)->contention, 2000);
    /* Once the ports are free again, latency is back to unloaded. */
    assert_int_equal(noc_send(network, 1, 2, 64, 10000), 10000 + noc_unloaded_latency(network, 1, 2, 64));
    noc_destroy(network);
}

static void test_pair_keeps_fifo_order(void **state)
{
    (void)state;
    noc_config config = test_config(NOC_CROSSBAR);
    noc *network = noc_create(&config, 4, NULL);
    sc_time large = noc_send(network, 0, 1, 320, 0);     /* 10 cycles of serialization */
    sc_time small = noc_send(network, 0, 1, 32, 0);      /* would take 5 cycles alone */
    assert_int_equal(large, (10 + 4) * 500);
    assert_true(small > large);
    noc_destroy(network);

    /* Sends made out of time order on the ideal network still arrive in send order. */
    config = test_config(NOC_IDEAL);
    network = noc_create(&config, 4, NULL);
    assert_int_equal(noc_send(network, 2, 1, 64, 1000), 1000);
    assert_int_equal(noc_send(network, 2, 1, 64, 500), 1000);
    assert_int_equal(noc_send(network, 3, 1, 64, 500), 500);   /* another pair is not held */
    noc_destroy(network);
}

static void test_statistics_count_bytes_per_endpoint(void **state)
{
    (void)state;
    noc_config config = test_config(NOC_MESH);
    noc *network = noc_create(&config, 4, mesh_nodes);
    noc_send(network, 0, 1, 64, 0);
    noc_send(network, 0, 2, 16, 0);
    noc_send(network, 3, 1, 128, 0);
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_crossbar_unloaded_latency),
        cmocka_unit_test(test_mesh_latency_counts_xy_hops),
        cmocka_unit_test(test_ideal_network_has_no_latency_or_contention),
        cmocka_unit_test(test_shared_ports_serialize_messages),
        cmocka_unit_test(test_pair_keeps_fifo_order),
        cmocka_unit_test(test_statistics_count_bytes_per_endpoint),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
