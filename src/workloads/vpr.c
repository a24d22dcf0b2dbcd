/* vpr.c — driver of the VPR workload (Ren's Table 3.4: VPR's placement as parallel greedy
 * annealing, vpr.cu). A random netlist (nets of 2 to 5 random cells) is placed at random on a
 * side x side grid of slots with a fifth of the slots free; one launch of vpr_place makes every
 * thread attempt `moves` locked swaps. Which swaps win depends on timing, so the check verifies
 * the invariants of a correct run: every lock released, the placement still a one-to-one map of
 * cells to slots (occupant and position agree), some swap accepted, and the total wire length
 * not above the initial placement's.
 */
#include "workloads/workload_support.h"

#define VPR_FREE 0xffffffffu   /* must match vpr.cu */
#define VPR_WINDOW 3

/* The netlist in both directions: pins of each net, nets of each cell. */
typedef struct vpr_netlist {
    uint32_t nets, cells;
    uint32_t *pin_offsets, *pins;      /* nets + 1, then the pins */
    uint32_t *net_offsets, *cell_nets; /* cells + 1, then the nets */
} vpr_netlist;

static void vpr_make_netlist(sc_scratch *scratch, sc_rng *rng, uint32_t cells, uint32_t nets, vpr_netlist *list)
{
    list->nets = nets;
    list->cells = cells;
    list->pin_offsets = sc_scratch_alloc(scratch, (nets + 1) * sizeof(uint32_t));
    list->pins = sc_scratch_alloc(scratch, (size_t)nets * 5 * sizeof(uint32_t));
    uint32_t count = 0;
    for (uint32_t net = 0; net < nets; net++) {
        list->pin_offsets[net] = count;
        uint32_t size = 2 + sc_rng_below(rng, 4);
        for (uint32_t k = 0; k < size; k++) {
            uint32_t cell = sc_rng_below(rng, cells);
            bool repeated = false;
            for (uint32_t q = list->pin_offsets[net]; q < count; q++)
                repeated = repeated || list->pins[q] == cell;
            if (!repeated)
                list->pins[count++] = cell;
        }
    }
    list->pin_offsets[nets] = count;
    list->net_offsets = sc_scratch_alloc(scratch, (cells + 1) * sizeof(uint32_t));
    list->cell_nets = sc_scratch_alloc(scratch, (size_t)count * sizeof(uint32_t));
    for (uint32_t k = 0; k < count; k++)
        list->net_offsets[list->pins[k] + 1]++;
    for (uint32_t c = 0; c < cells; c++)
        list->net_offsets[c + 1] += list->net_offsets[c];
    uint32_t *cursor = sc_scratch_alloc(scratch, cells * sizeof(uint32_t));
    for (uint32_t net = 0; net < nets; net++)
        for (uint32_t k = list->pin_offsets[net]; k < list->pin_offsets[net + 1]; k++) {
            uint32_t cell = list->pins[k];
            list->cell_nets[list->net_offsets[cell] + cursor[cell]++] = net;
        }
}

/* Total half-perimeter wire length of a placement. */
static uint64_t vpr_wire_length(const vpr_netlist *list, const uint32_t *position, uint32_t side)
{
    uint64_t total = 0;
    for (uint32_t net = 0; net < list->nets; net++) {
        uint32_t min_x = UINT32_MAX, min_y = UINT32_MAX, max_x = 0, max_y = 0;
        for (uint32_t k = list->pin_offsets[net]; k < list->pin_offsets[net + 1]; k++) {
            uint32_t x = position[list->pins[k]] % side, y = position[list->pins[k]] / side;
            min_x = x < min_x ? x : min_x;
            max_x = x > max_x ? x : max_x;
            min_y = y < min_y ? y : min_y;
            max_y = y > max_y ? y : max_y;
        }
        total += max_x - min_x + max_y - min_y;
    }
    return total;
}

/* The invariants of a correct run (see the file comment). */
static void vpr_check(const vpr_netlist *list, uint32_t side, const uint32_t *lock, const uint32_t *occupant,
                      const uint32_t *position, uint32_t accepted, uint64_t initial_length, sc_check_result *check)
{
    uint32_t slots = side * side, occupied = 0;
    for (uint32_t s = 0; s < slots; s++) {
        if (lock[s] != 0) {
            sc_check_fail(check, "slot %u is still locked", s);
            return;
        }
        if (occupant[s] != VPR_FREE && (occupant[s] >= list->cells || position[occupant[s]] != s)) {
            sc_check_fail(check, "slot %u holds cell %u, whose position is %u", s, occupant[s],
                          occupant[s] < list->cells ? position[occupant[s]] : VPR_FREE);
            return;
        }
        occupied += occupant[s] != VPR_FREE;
    }
    for (uint32_t c = 0; c < list->cells; c++)
        if (position[c] >= slots || occupant[position[c]] != c) {
            sc_check_fail(check, "cell %u is at slot %u, which holds %u", c, position[c],
                          position[c] < slots ? occupant[position[c]] : VPR_FREE);
            return;
        }
    uint64_t length = vpr_wire_length(list, position, side);
    if (occupied != list->cells)
        sc_check_fail(check, "%u slots occupied, %u cells", occupied, list->cells);
    else if (accepted == 0)
        sc_check_fail(check, "no swap was accepted");
    else if (length > initial_length)
        sc_check_fail(check, "wire length rose from %llu to %llu", (unsigned long long)initial_length,
                      (unsigned long long)length);
    else
        sc_check_pass(check);
}

static int run_vpr(sc_device *device, const sc_workload_params *params, sc_check_result *check, sc_error *error)
{
    uint32_t side = sc_size_pick(params->size, 16, 64, 128, 256);
    uint32_t ctas = sc_size_pick(params->size, 4, 16, 32, 64);
    uint32_t block = sc_size_pick(params->size, 64, 128, 128, 128);
    uint32_t moves = sc_size_pick(params->size, 4, 8, 16, 16);
    uint32_t slots = side * side, cells = slots - slots / 5;
    sc_scratch scratch = {0};
    sc_rng rng;
    sc_rng_seed(&rng, params->seed, 38);
    vpr_netlist list;
    vpr_make_netlist(&scratch, &rng, cells, cells, &list);
    uint32_t *occupant = sc_scratch_alloc(&scratch, slots * sizeof(uint32_t));
    uint32_t *position = sc_scratch_alloc(&scratch, cells * sizeof(uint32_t));
    uint32_t *lock = sc_scratch_alloc(&scratch, slots * sizeof(uint32_t));
    for (uint32_t s = 0; s < slots; s++)
        occupant[s] = VPR_FREE;
    for (uint32_t c = 0; c < cells; c++) {   /* a random one-to-one placement */
        uint32_t s = sc_rng_below(&rng, slots);
        while (occupant[s] != VPR_FREE)
            s = (s + 1) % slots;
        occupant[s] = c;
        position[c] = s;
    }
    uint64_t initial_length = vpr_wire_length(&list, position, side);
    uint32_t pins = list.pin_offsets[list.nets], accepted = 0;
    int module = sc_device_load_builtin_ptx(device, "vpr", error);
    uint64_t lock_dev = sc_workload_alloc(device, slots * sizeof(uint32_t), error);
    uint64_t occupant_dev = sc_workload_upload(device, occupant, slots * sizeof(uint32_t), error);
    uint64_t position_dev = sc_workload_upload(device, position, cells * sizeof(uint32_t), error);
    uint64_t net_offsets = sc_workload_upload(device, list.net_offsets, (cells + 1) * sizeof(uint32_t), error);
    uint64_t cell_nets = sc_workload_upload(device, list.cell_nets, pins * sizeof(uint32_t), error);
    uint64_t pin_offsets = sc_workload_upload(device, list.pin_offsets, (list.nets + 1) * sizeof(uint32_t), error);
    uint64_t pins_dev = sc_workload_upload(device, list.pins, pins * sizeof(uint32_t), error);
    uint64_t accepted_dev = sc_workload_alloc(device, sizeof(uint32_t), error);
    int status = -1;
    if (module >= 0 && lock_dev && occupant_dev && position_dev && net_offsets && cell_nets && pin_offsets && pins_dev &&
        accepted_dev) {
        sc_kernel_arg args[] = {sc_arg_ptr(lock_dev),    sc_arg_ptr(occupant_dev), sc_arg_ptr(position_dev),
                                sc_arg_ptr(net_offsets), sc_arg_ptr(cell_nets),    sc_arg_ptr(pin_offsets),
                                sc_arg_ptr(pins_dev),    sc_arg_u32(cells),        sc_arg_u32(side),
                                sc_arg_u32(moves),       sc_arg_u32(VPR_WINDOW),   sc_arg_u32((uint32_t)params->seed),
                                sc_arg_ptr(accepted_dev)};
        if (sc_launch_1d(device, module, "vpr_place", ctas, block, args, 13, error) == 0 &&
            sc_memcpy_from_device(device, lock, lock_dev, slots * sizeof(uint32_t), error) == 0 &&
            sc_memcpy_from_device(device, occupant, occupant_dev, slots * sizeof(uint32_t), error) == 0 &&
            sc_memcpy_from_device(device, position, position_dev, cells * sizeof(uint32_t), error) == 0 &&
            sc_workload_read_u32(device, accepted_dev, &accepted, error) == 0)
            status = 0;
    }
    if (status == 0)
        vpr_check(&list, side, lock, occupant, position, accepted, initial_length, check);
    sc_scratch_release(&scratch);
    return status;
}

const sc_workload sc_workload_vpr = {
    .name = "vpr",
    .description = "VPR placement as parallel greedy annealing: random swaps under two try-locked slots",
    .behaviour = "inter-workgroup: fine-grained try-locks, racy reads of other cells' positions (Ren's VPR)",
    .run = run_vpr,
};
