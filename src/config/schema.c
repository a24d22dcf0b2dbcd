/* schema.c — the configuration keys of a system preset: type, unit, range and meaning.
 *
 * The engine's keys describe a cycle-level CPU-GPU timing model (compute units, private L1s, a
 * shared banked L2, an optional memory-side L3, a coherence directory, the network and DRAM)
 * with enough keys to express the four seed system tables. Latencies are in cycles of the clock
 * the unit names. The keys only a mechanism module reads are declared in its folder and added
 * with sc_schema_add_keys; the schema every reader sees is the union, built at its first read.
 * Mechanism parameters will live under "mechanism", which is reserved and empty.
 */
#include "config/schema.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The keys of every system, whatever its mechanism. */
static const sc_config_key engine_keys[] = {
    {"cpu.clock", SC_KEY_FREQUENCY, "Hz", 1e6, 100 * SC_GHZ, NULL, 0, "CPU core clock"},
    {"cpu.count", SC_KEY_INT, "cores", 0, 256, NULL, 0,
     "CPU cores sharing the coherent memory with the GPU (0 = no CPU model)"},
    {"cpu.l1_associativity", SC_KEY_INT, "ways", 1, 256, NULL, 0, "CPU private L1 data cache ways"},
    {"cpu.l1_banks", SC_KEY_INT, "banks", 1, 256, NULL, 0, "CPU private L1 data cache banks"},
    {"cpu.l1_latency", SC_KEY_INT, "CPU cycles", 1, 10000, NULL, 0, "CPU L1 hit latency"},
    {"cpu.l1_size", SC_KEY_SIZE, "bytes", 1 * SC_KIB, 64 * SC_MIB, NULL, 0,
     "CPU private L1 data cache capacity per core"},
    {"cpu.l2_associativity", SC_KEY_INT, "ways", 1, 256, NULL, 0, "CPU shared L2 ways"},
    {"cpu.l2_banks", SC_KEY_INT, "banks", 1, 256, NULL, 0, "CPU shared L2 banks"},
    {"cpu.l2_latency", SC_KEY_INT, "CPU cycles", 1, 10000, NULL, 0, "CPU shared L2 hit latency"},
    {"cpu.l2_size", SC_KEY_SIZE, "bytes", 0, 1 * SC_GIB, NULL, 0, "CPU shared L2 capacity (0 = no CPU L2)"},
    {"cpu.line_size", SC_KEY_SIZE, "bytes", 16, 1024, NULL, SC_KEY_POWER_OF_TWO, "CPU cache line size"},
    {"cpu.probe_latency", SC_KEY_INT, "GPU cycles", 1, 100000, NULL, 0,
     "a directory's probe of the CPU cluster: from the probe leaving to the CPU's answer (its data if dirty)"},
    {"directory.banks", SC_KEY_INT, "banks", 1, 1024, NULL, 0, "coherence directory banks"},
    {"directory.entries", SC_KEY_INT, "blocks", 0, SC_MAX_SAFE_INTEGER, NULL, 0,
     "blocks the CPU-GPU directory tracks (0 = stateless null directory that broadcasts probes)"},
    {"directory.latency", SC_KEY_INT, "GPU cycles", 0, 100000, NULL, 0, "directory lookup latency"},
    {"directory.mshrs", SC_KEY_INT, "entries", 1, 1 << 20, NULL, 0, "outstanding requests the directory tracks"},
    {"dram.banks_per_channel", SC_KEY_INT, "banks", 1, 256, NULL, 0, "DRAM banks per channel"},
    {"dram.bus_bytes", SC_KEY_SIZE, "bytes", 1, 4096, NULL, 0,
     "bytes a channel transfers per DRAM clock cycle (all edges counted)"},
    {"dram.channels", SC_KEY_INT, "channels", 1, 1024, NULL, 0, "DRAM channels (memory partitions)"},
    {"dram.clock", SC_KEY_FREQUENCY, "Hz", 1e6, 100 * SC_GHZ, NULL, 0, "DRAM command clock"},
    {"dram.latency", SC_KEY_INT, "GPU cycles", 0, 1000000, NULL, 0,
     "minimum unloaded latency of a GPU load served by DRAM"},
    {"dram.latency_max", SC_KEY_INT, "GPU cycles", 0, 1000000, NULL, 0,
     "maximum unloaded DRAM latency (distance-dependent; equal to dram.latency when uniform)"},
    {"dram.request_queue", SC_KEY_INT, "entries", 1, 1 << 16, NULL, 0, "request queue per channel"},
    {"dram.row_size", SC_KEY_SIZE, "bytes", 64, 1 * SC_MIB, NULL, SC_KEY_POWER_OF_TWO, "DRAM row (page) size"},
    {"dram.scheduler", SC_KEY_ENUM, "", 0, 0, "fcfs|frfcfs", 0, "memory controller scheduling policy"},
    {"dram.t_cdlr", SC_KEY_INT, "DRAM cycles", 0, 1000, NULL, 0, "write-to-read turnaround (tCDLR/tWTR)"},
    {"dram.t_cl", SC_KEY_INT, "DRAM cycles", 1, 1000, NULL, 0, "CAS latency (tCL)"},
    {"dram.t_faw", SC_KEY_INT, "DRAM cycles", 0, 1000, NULL, 0,
     "four-activate window (tFAW): at most four ACTs per channel in any window; 0 = not modelled"},
    {"dram.t_ras", SC_KEY_INT, "DRAM cycles", 1, 1000, NULL, 0, "row active time (tRAS)"},
    {"dram.t_rc", SC_KEY_INT, "DRAM cycles", 1, 1000, NULL, 0, "row cycle time (tRC)"},
    {"dram.t_rcd", SC_KEY_INT, "DRAM cycles", 1, 1000, NULL, 0, "row-to-column delay (tRCD)"},
    {"dram.t_refi", SC_KEY_INT, "DRAM cycles", 1, 100000000, NULL, 0,
     "refresh interval (tREFI): an all-bank refresh is due every tREFI (unused when dram.t_rfc is 0)"},
    {"dram.t_rfc", SC_KEY_INT, "DRAM cycles", 0, 100000, NULL, 0,
     "refresh cycle time (tRFC): no bank activates for tRFC after a refresh starts; 0 = no refresh"},
    {"dram.t_rp", SC_KEY_INT, "DRAM cycles", 1, 1000, NULL, 0, "row precharge (tRP)"},
    {"dram.t_rrd", SC_KEY_INT, "DRAM cycles", 0, 1000, NULL, 0, "activate-to-activate, different banks (tRRD)"},
    {"dram.t_rtw", SC_KEY_INT, "DRAM cycles", 0, 1000, NULL, 0, "read-to-write turnaround: RD command to WR command (tRTW)"},
    {"dram.t_wl", SC_KEY_INT, "DRAM cycles", 0, 1000, NULL, 0, "write latency (tWL)"},
    {"dram.t_wr", SC_KEY_INT, "DRAM cycles", 0, 1000, NULL, 0, "write recovery (tWR)"},
    {"dram.type", SC_KEY_ENUM, "", 0, 0, "ddr3|ddr4|gddr3|gddr5|hbm", 0, "DRAM technology"},
    {"dram.write_queue", SC_KEY_INT, "entries", 1, 1 << 16, NULL, 0,
     "memory controller write queue per channel: writes waiting for the request queue before a writer is held back"},
    {"gpu.alu_latency", SC_KEY_INT, "GPU cycles", 1, 1000, NULL, 0, "dependent-issue latency of an ALU instruction"},
    {"gpu.branch_penalty", SC_KEY_INT, "GPU cycles", 0, 1000, NULL, 0,
     "cycles a warp's instruction buffer needs to refill after a taken branch (control stalls)"},
    {"gpu.clock", SC_KEY_FREQUENCY, "Hz", 1e6, 100 * SC_GHZ, NULL, 0, "GPU core clock (GPU cycles are of this clock)"},
    {"gpu.cu_count", SC_KEY_INT, "CUs", 1, 4096, NULL, 0, "compute units (SMs)"},
    {"gpu.issue_width", SC_KEY_INT, "instructions", 1, 16, NULL, 0, "instructions each scheduler may issue per cycle"},
    {"gpu.kernel_launch_latency", SC_KEY_INT, "GPU cycles", 0, 100000000, NULL, 0,
     "cycles from a kernel launch to its first work-group starting"},
    {"gpu.max_ctas_per_cu", SC_KEY_INT, "CTAs", 1, 1024, NULL, 0, "work-groups (CTAs) resident per CU"},
    {"gpu.max_warps_per_cu", SC_KEY_INT, "warps", 1, 1024, NULL, 0, "warps (wavefronts) resident per CU"},
    {"gpu.registers_per_cu", SC_KEY_INT, "32-bit registers", 1, 1 << 24, NULL, 0, "register file per CU"},
    {"gpu.store_wait", SC_KEY_ENUM, "", 0, 0, "none|performed", 0,
     "whether a warp waits for its global stores: none, it goes on once a store is issued (only releases, kernel "
     "end and full buffers wait for stores); performed, an experiment: a warp issues no global access while a "
     "global store of its slot is not yet performed (charged as memory data)"},
    {"gpu.scheduler", SC_KEY_ENUM, "", 0, 0, "gto|lrr", 0,
     "warp scheduling policy: greedy-then-oldest or loose round-robin"},
    {"gpu.schedulers_per_cu", SC_KEY_INT, "schedulers", 1, 64, NULL, 0, "warp schedulers per CU"},
    {"gpu.sfu_latency", SC_KEY_INT, "GPU cycles", 1, 10000, NULL, 0, "dependent-issue latency of a special-function instruction"},
    {"gpu.sfu_width", SC_KEY_INT, "lanes", 1, 1024, NULL, 0,
     "lanes of the special-function unit; a warp occupies it for warp_size/sfu_width cycles"},
    {"gpu.shared_memory_banks", SC_KEY_INT, "banks", 1, 256, NULL, 0, "banks of the shared memory (scratchpad)"},
    {"gpu.shared_memory_latency", SC_KEY_INT, "GPU cycles", 1, 10000, NULL, 0, "shared memory (scratchpad) hit latency"},
    {"gpu.shared_memory_per_cu", SC_KEY_SIZE, "bytes", 0, 1 * SC_GIB, NULL, 0, "shared memory (scratchpad) per CU"},
    {"gpu.simd_units", SC_KEY_INT, "units", 1, 64, NULL, 0, "SIMD execution units per CU"},
    {"gpu.simd_width", SC_KEY_INT, "lanes", 1, 1024, NULL, 0,
     "lanes per SIMD unit; a warp occupies a unit for warp_size/simd_width cycles"},
    {"gpu.warp_size", SC_KEY_INT, "threads", 32, 64, NULL, SC_KEY_POWER_OF_TWO,
     "threads per warp (wavefront): 32 or 64"},
    {"gsi.acquire_atomic_wait", SC_KEY_ENUM, "", 0, 0, "sync|mem_data", 0,
     "GSI: a warp waiting for an atomic with acquire semantics (atom .acquire/.acq_rel) is synchronising (sync, "
     "digest 2.3) or waiting for memory data, charged to the level that served the atomic (mem_data)"},
    {"gsi.dma_wait", SC_KEY_ENUM, "", 0, 0, "pending_dma|mshr_full", 0,
     "GSI: a warp held back by a pending DMA transfer is charged pending_dma (digest 2.2), or mshr_full in the "
     "cycles the DMA engine's line request is refused an L1 MSHR (an experiment: the load/store unit's blocked "
     "reason is then the full MSHR; docs/gsi-reproduction.md)"},
    {"gsi.cycle_order", SC_KEY_STRING, "", 0, 0, NULL, 0,
     "GSI Algorithm 2: stall categories in the order they win a cycle (thesis: no_stall,mem_struct,mem_data,"
     "sync,comp_struct,comp_data,control,idle)"},
    {"gsi.instruction_order", SC_KEY_STRING, "", 0, 0, NULL, 0,
     "GSI Algorithm 1: stall causes of one instruction, strongest first (thesis: idle,control,sync,mem_data,"
     "mem_struct,comp_data,comp_struct,no_stall)"},
    {"l1.associativity", SC_KEY_INT, "ways", 1, 1024, NULL, 0, "GPU L1 data cache ways"},
    {"l1.banks", SC_KEY_INT, "banks", 1, 256, NULL, 0, "GPU L1 data cache banks"},
    {"l1.latency", SC_KEY_INT, "GPU cycles", 1, 10000, NULL, 0, "GPU L1 hit latency (data array)"},
    {"l1.line_size", SC_KEY_SIZE, "bytes", 16, 1024, NULL, SC_KEY_POWER_OF_TWO, "GPU L1 line size"},
    {"l1.mshrs", SC_KEY_INT, "entries", 1, 1 << 16, NULL, 0, "GPU L1 miss status holding registers"},
    {"l1.remote_latency", SC_KEY_INT, "GPU cycles", 1, 1000000, NULL, 0,
     "minimum latency of a load served by another core's L1"},
    {"l1.remote_latency_max", SC_KEY_INT, "GPU cycles", 1, 1000000, NULL, 0,
     "maximum latency of a load served by a remote L1 (distance-dependent)"},
    {"l1.size", SC_KEY_SIZE, "bytes", 0, 1 * SC_GIB, NULL, 0, "GPU L1 data cache capacity per CU (0 = no L1)"},
    {"l1.store_buffer_entries", SC_KEY_INT, "entries", 0, 1 << 16, NULL, 0,
     "write-combining store buffer entries per CU (0 = none)"},
    {"l1.tag_latency", SC_KEY_INT, "GPU cycles", 0, 10000, NULL, 0, "GPU L1 tag lookup latency (miss detection)"},
    {"l2.associativity", SC_KEY_INT, "ways", 1, 1024, NULL, 0, "GPU shared L2 ways"},
    {"l2.banks", SC_KEY_INT, "banks", 1, 4096, NULL, 0, "GPU shared L2 banks (slices)"},
    {"l2.latency", SC_KEY_INT, "GPU cycles", 1, 100000, NULL, 0, "minimum GPU L2 hit latency seen by a CU"},
    {"l2.latency_max", SC_KEY_INT, "GPU cycles", 1, 100000, NULL, 0,
     "maximum GPU L2 hit latency (NUCA distance; equal to l2.latency when uniform)"},
    {"l2.line_size", SC_KEY_SIZE, "bytes", 16, 1024, NULL, SC_KEY_POWER_OF_TWO, "GPU L2 line size"},
    {"l2.mshrs", SC_KEY_INT, "entries", 1, 1 << 20, NULL, 0, "GPU L2 miss status holding registers (all banks)"},
    {"l2.size", SC_KEY_SIZE, "bytes", 1 * SC_KIB, 64 * SC_GIB, NULL, 0, "GPU shared L2 capacity (all banks)"},
    {"l2.tag_latency", SC_KEY_INT, "GPU cycles", 0, 100000, NULL, 0, "GPU L2 tag lookup latency"},
    {"l2.write_policy", SC_KEY_ENUM, "", 0, 0, "write_back|write_through", 0,
     "L2 writes where the L2 is the point of coherence: kept dirty, or written through to memory (an APU "
     "keeping CPU-GPU coherence through its directory); mechanisms with their own write paths ignore it"},
    {"l3.associativity", SC_KEY_INT, "ways", 1, 1024, NULL, 0, "memory-side L3 ways"},
    {"l3.banks", SC_KEY_INT, "banks", 1, 4096, NULL, 0, "memory-side L3 banks"},
    {"l3.enabled", SC_KEY_BOOL, "", 0, 0, NULL, 0, "whether a memory-side L3 shared by CPU and GPU exists"},
    {"l3.latency", SC_KEY_INT, "GPU cycles", 1, 100000, NULL, 0, "memory-side L3 hit latency"},
    {"l3.size", SC_KEY_SIZE, "bytes", 0, 64 * SC_GIB, NULL, 0, "memory-side L3 capacity"},
    {"local_memory.bank_bytes", SC_KEY_INT, "bytes", 1, 64, NULL, SC_KEY_POWER_OF_TWO,
     "width of one scratchpad bank word: bank = (offset / bank_bytes) mod gpu.shared_memory_banks "
     "(local_memory.timing banked)"},
    {"local_memory.dma_blocking", SC_KEY_ENUM, "", 0, 0, "core|warp", 0,
     "what a scratchpad access to a CTA's pending DMA transfer blocks: core = the whole CU until the "
     "transfer completes (GSI thesis §4.5); warp = only the accessing warp (D2MA) (docs/local-memory.md)"},
    {"local_memory.dma_requests_per_cycle", SC_KEY_INT, "requests", 1, 64, NULL, 0,
     "line requests the per-CU DMA engine of a launch's DMA mapping presents to the L1 per GPU cycle "
     "(docs/local-memory.md)"},
    {"local_memory.timing", SC_KEY_ENUM, "", 0, 0, "fixed|banked", 0,
     "shared memory (scratchpad) timing: fixed = every access takes gpu.shared_memory_latency and never "
     "conflicts; banked = a warp's access is serialised by its bank conflicts, one cycle per word of the "
     "most loaded bank (docs/local-memory.md)"},
    {"memory.page_size", SC_KEY_SIZE, "bytes", 4 * SC_KIB, 1 * SC_GIB, NULL, SC_KEY_POWER_OF_TWO,
     "virtual memory page size"},
    {"noc.arbitration_energy", SC_KEY_FLOAT, "pJ/flit", 0, 1e6, NULL, 0,
     "switch arbitration per flit per router crossed (docs/noc-energy.md)"},
    {"noc.buffer_leakage", SC_KEY_FLOAT, "mW/flit slot", 0, 1e6, NULL, 0,
     "leakage of one flit slot of a router's input buffer (docs/noc-energy.md)"},
    {"noc.buffer_read_energy", SC_KEY_FLOAT, "pJ/flit", 0, 1e6, NULL, 0,
     "input-buffer read per flit per router crossed (docs/noc-energy.md)"},
    {"noc.buffer_write_energy", SC_KEY_FLOAT, "pJ/flit", 0, 1e6, NULL, 0,
     "input-buffer write per flit per router crossed (docs/noc-energy.md)"},
    {"noc.bytes_per_cycle", SC_KEY_INT, "bytes/NoC cycle", 1, 1 << 20, NULL, 0, "link width per direction"},
    {"noc.clock", SC_KEY_FREQUENCY, "Hz", 1e6, 100 * SC_GHZ, NULL, 0, "interconnect clock"},
    {"noc.crossbar_energy", SC_KEY_FLOAT, "pJ/flit", 0, 1e6, NULL, 0,
     "crossbar traversal per flit per router crossed (docs/noc-energy.md)"},
    {"noc.latency", SC_KEY_INT, "NoC cycles", 0, 100000, NULL, 0, "unloaded traversal latency, one direction"},
    {"noc.link_energy", SC_KEY_FLOAT, "pJ/flit", 0, 1e6, NULL, 0, "traversal of one link per flit (docs/noc-energy.md)"},
    {"noc.link_leakage", SC_KEY_FLOAT, "mW/link", 0, 1e6, NULL, 0, "leakage of one link (docs/noc-energy.md)"},
    {"noc.mesh_columns", SC_KEY_INT, "nodes", 0, 1024, NULL, 0, "mesh columns (0 unless noc.topology is mesh)"},
    {"noc.mesh_rows", SC_KEY_INT, "nodes", 0, 1024, NULL, 0, "mesh rows (0 unless noc.topology is mesh)"},
    {"noc.router_leakage", SC_KEY_FLOAT, "mW/router", 0, 1e6, NULL, 0,
     "leakage of one router's crossbar and allocators (docs/noc-energy.md)"},
    {"noc.topology", SC_KEY_ENUM, "", 0, 0, "crossbar|mesh|ideal", 0, "interconnect between cores and L2 banks"},
    {"noc.vc_depth", SC_KEY_INT, "flits", 1, 1024, NULL, 0, "flits of one virtual channel's input buffer"},
    {"noc.vcs_per_network", SC_KEY_INT, "VCs", 1, 64, NULL, 0,
     "virtual channels per virtual network at every router input (the networks are the mechanism's)"},
    {"sim.access_latencies", SC_KEY_BOOL, "", 0, 0, NULL, 0,
     "an instrument, off by default: the run's metrics gain the latency distribution of its global loads, stores "
     "and atomics, issue to done (access_latency_*.load|store|atomic; timing/access_latency.h)"},
    {"sim.gsi", SC_KEY_BOOL, "", 0, 0, NULL, 0,
     "the GSI stall inspector, on by default; false skips classifying and charging each CU cycle (cycles, "
     "values and every other metric identical, no stall breakdown stored): to measure GSI's own cost"},
    {"sim.max_cycles", SC_KEY_INT, "GPU cycles", 1, SC_MAX_SAFE_INTEGER, NULL, 0,
     "watchdog: a run exceeding this many cycles stops with an error"},
    {"sim.seed", SC_KEY_INT, "", 0, SC_MAX_SAFE_INTEGER, NULL, 0, "seed of every random choice in a run"},
    {"system.description", SC_KEY_STRING, "", 0, 0, NULL, 0, "one line saying what the system is"},
    {"system.name", SC_KEY_STRING, "", 0, 0, NULL, 0, "short name of the system"},
    {"system.source", SC_KEY_STRING, "", 0, 0, NULL, 0, "where the numbers come from (paper and table)"},
};

/* A table a module added, and the module. */
typedef struct module_keys {
    const char *owner;
    const sc_config_key_table *table;
} module_keys;

/* The tables modules added, then, from the first read on, the union of all keys. */
static struct schema {
    module_keys *modules;
    size_t module_count;
    sc_config_key *keys;                /* the union, sorted by path; NULL until the first read */
    const sc_config_key **declarations; /* per key of the union: the entry that declares it */
    size_t count;
} schema;

static void schema_abort(const char *what, const char *name)
{
    fprintf(stderr, "syncscope: internal error: configuration schema: %s '%s'\n", what, name);
    abort();
}

void sc_schema_add_keys(const char *owner, const sc_config_key_table *table)
{
    for (size_t i = 0; i < schema.module_count; i++)
        if (schema.modules[i].table == table && !strcmp(schema.modules[i].owner, owner))
            return;
    if (schema.keys)
        schema_abort("keys added after the schema was read, by", owner);
    schema.modules = realloc(schema.modules, (schema.module_count + 1) * sizeof *schema.modules);
    schema.modules[schema.module_count++] = (module_keys){owner, table};
}

static int compare_declarations(const void *a, const void *b)
{
    return strcmp((*(const sc_config_key *const *)a)->path, (*(const sc_config_key *const *)b)->path);
}

/* Whether an earlier module than `module` added the same table. */
static bool table_added_before(size_t module)
{
    for (size_t i = 0; i < module; i++)
        if (schema.modules[i].table == schema.modules[module].table)
            return true;
    return false;
}

/* The union of the engine's keys and each added table, sorted by path; built at the first read. */
static const struct schema *union_schema(void)
{
    if (schema.keys)
        return &schema;
    size_t capacity = sizeof engine_keys / sizeof engine_keys[0];
    for (size_t i = 0; i < schema.module_count; i++)
        capacity += schema.modules[i].table->count;
    schema.declarations = malloc(capacity * sizeof *schema.declarations);
    for (size_t i = 0; i < sizeof engine_keys / sizeof engine_keys[0]; i++)
        schema.declarations[schema.count++] = &engine_keys[i];
    for (size_t i = 0; i < schema.module_count; i++) {
        const sc_config_key_table *table = schema.modules[i].table;
        for (size_t k = 0; !table_added_before(i) && k < table->count; k++)
            schema.declarations[schema.count++] = &table->keys[k];
    }
    qsort(schema.declarations, schema.count, sizeof *schema.declarations, compare_declarations);
    schema.keys = malloc(schema.count * sizeof *schema.keys);
    for (size_t i = 0; i < schema.count; i++) {
        if (i > 0 && !strcmp(schema.declarations[i - 1]->path, schema.declarations[i]->path))
            schema_abort("key declared twice:", schema.declarations[i]->path);
        schema.keys[i] = *schema.declarations[i];
    }
    return &schema;
}

const sc_config_key *sc_schema_keys(size_t *count)
{
    *count = union_schema()->count;
    return schema.keys;
}

const sc_config_key *sc_schema_key(int index)
{
    return &union_schema()->keys[index];
}

static bool table_declares(const sc_config_key_table *table, const sc_config_key *declaration)
{
    for (size_t k = 0; k < table->count; k++)
        if (&table->keys[k] == declaration)
            return true;
    return false;
}

void sc_schema_key_owners(int index, char *out, size_t size)
{
    const sc_config_key *declaration = union_schema()->declarations[index];
    size_t used = 0;
    out[0] = '\0';
    for (size_t i = 0; i < schema.module_count && used < size; i++)
        if (table_declares(schema.modules[i].table, declaration))
            used += (size_t)snprintf(out + used, size - used, "%s%s", used ? "," : "", schema.modules[i].owner);
}

static int compare_path_to_key(const void *path, const void *key)
{
    return strcmp(path, ((const sc_config_key *)key)->path);
}

int sc_schema_find(const char *path)
{
    const struct schema *all = union_schema();
    const sc_config_key *found = bsearch(path, all->keys, all->count, sizeof all->keys[0], compare_path_to_key);
    return found ? (int)(found - all->keys) : -1;
}

/* Levenshtein distance between two short strings (key paths are well under 64 characters). */
static size_t edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 63 || lb > 63)
        return (size_t)-1;
    size_t row[64];
    for (size_t j = 0; j <= lb; j++)
        row[j] = j;
    for (size_t i = 1; i <= la; i++) {
        size_t diagonal = row[0];
        row[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            size_t above = row[j];
            size_t substitute = diagonal + (a[i - 1] != b[j - 1]);
            size_t best = above + 1 < row[j - 1] + 1 ? above + 1 : row[j - 1] + 1;
            row[j] = substitute < best ? substitute : best;
            diagonal = above;
        }
    }
    return row[lb];
}

const char *sc_schema_nearest(const char *path)
{
    const char *nearest = NULL;
    size_t best = strlen(path) / 3 + 2; /* a suggestion farther than this is noise */
    const struct schema *all = union_schema();
    for (size_t i = 0; i < all->count; i++) {
        size_t distance = edit_distance(path, all->keys[i].path);
        if (distance < best) {
            best = distance;
            nearest = all->keys[i].path;
        }
    }
    return nearest;
}

const char *sc_key_type_name(sc_key_type type)
{
    switch (type) {
    case SC_KEY_INT: return "int";
    case SC_KEY_SIZE: return "size";
    case SC_KEY_FREQUENCY: return "frequency";
    case SC_KEY_FLOAT: return "float";
    case SC_KEY_BOOL: return "bool";
    case SC_KEY_ENUM: return "enum";
    case SC_KEY_STRING: return "string";
    }
    return "?";
}

/* Writes a numeric bound the way users write values of that type ("16KiB", "1.4GHz"). */
void sc_format_quantity(sc_key_type type, double value, char *out, size_t size)
{
    static const char *const size_units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    static const char *const frequency_units[] = {"Hz", "kHz", "MHz", "GHz"};
    const char *const *units = type == SC_KEY_SIZE ? size_units : frequency_units;
    int unit_count = type == SC_KEY_SIZE ? 5 : 4;
    double step = type == SC_KEY_SIZE ? 1024 : 1000;
    if (type != SC_KEY_SIZE && type != SC_KEY_FREQUENCY) {
        snprintf(out, size, "%.17g", value);
        return;
    }
    int unit = 0;
    while (unit + 1 < unit_count && value >= step && fmod(value, step) == 0) {
        value /= step;
        unit++;
    }
    snprintf(out, size, "%.17g%s", value, units[unit]);
}

int sc_choice_allowed(const char *choices, const char *word)
{
    size_t length = strlen(word);
    for (const char *start = choices; *start;) {
        const char *bar = strchr(start, '|');
        size_t choice_length = bar ? (size_t)(bar - start) : strlen(start);
        if (choice_length == length && !strncmp(start, word, length))
            return 1;
        if (!bar)
            break;
        start = bar + 1;
    }
    return 0;
}
