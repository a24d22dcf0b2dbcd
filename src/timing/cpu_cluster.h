/* cpu_cluster.h — the CPU cluster of an APU as the GPU's memory side sees it: the tags of the
 * cluster's last-level cache, each line clean or dirty, at line granularity.
 *
 * The array is the shared CPU L2 (cpu.l2_size, cpu.l2_associativity); the private L1s are folded
 * into it, as if the L2 were inclusive of them. A cluster without an L2 (cpu.l2_size 0) is its
 * cores' L1s taken as one array (cpu.count x cpu.l1_size, cpu.l1_associativity). Values are not
 * kept here: the device's global image already holds every byte the host wrote, so the cluster
 * only decides who must be asked for a line and what that costs.
 *
 * Mechanism, step by step:
 *   1. A host write between kernels (a copy to the device, a memset) leaves every line it touches
 *      dirty in the cluster, as a CPU store into write-back caches would (LRU replacement; a
 *      dirty victim is written back to memory, which the caller counts).
 *   2. A host read leaves the lines clean in the cluster if it did not hold them.
 *   3. A GPU read that reaches memory probes the cluster: a dirty line supplies the data and
 *      stays dirty, the cluster remaining its owner (MOESI's M -> O, as in the AMD CPUs whose
 *      protocol the QR paper's APU follows): memory is not written, and every later read that
 *      reaches memory is served by the cluster again until a GPU write or a host-phase eviction
 *      ends the ownership. Otherwise memory answers.
 *   4. A GPU write that reaches memory probes the cluster and drops its copy, clean or dirty
 *      (the write is the newer data: a CPU copy of the same bytes is a race RC leaves undefined).
 */
#ifndef SYNCSCOPE_TIMING_CPU_CLUSTER_H
#define SYNCSCOPE_TIMING_CPU_CLUSTER_H

#include <stdbool.h>
#include <stdint.h>

typedef struct cpu_cluster cpu_cluster;

/* NULL when the geometry is impossible (see cache_array_create). */
cpu_cluster *cpu_cluster_create(uint64_t size_bytes, unsigned associativity, unsigned line_bytes);
void cpu_cluster_destroy(cpu_cluster *cluster);

/* Steps 1 and 2: the host writes / reads the line. Both return whether a dirty victim was
 * written back to memory to make room. */
bool cpu_cluster_host_write(cpu_cluster *cluster, uint64_t line_address);
bool cpu_cluster_host_read(cpu_cluster *cluster, uint64_t line_address);

/* Step 3: whether the cluster holds the line dirty (it supplies the data and keeps owning it). */
bool cpu_cluster_probe_read(cpu_cluster *cluster, uint64_t line_address);
/* Step 4: returns whether the cluster held a copy (now dropped). */
bool cpu_cluster_probe_write(cpu_cluster *cluster, uint64_t line_address);

#endif
