// vpr.cu — Ren's VPR: the placement step of VPR (place and route for FPGAs) as parallel greedy
// annealing. Cells sit on the slots of a side x side grid (occupant[slot], position[cell]); every
// thread makes `moves` attempts: pick a random cell a at slot pa, lock pa (atomicCAS on its lock
// word; a busy lock skips the attempt), check that a is still there, pick a random target slot
// within `window` of pa, lock it too, and swap a with the target's occupant b (or move a into it
// when it is free) if that lowers the half-perimeter wire length of the nets of a and b. The cost
// reads the positions of the nets' other cells without locks, as the original's parallel moves do
// (their owners may be moving them). Every lock is taken with a try-lock inside the branch that
// releases it, so no thread waits for another; a lock acquire is followed by a fence, the swap's
// stores by a fence before the releasing atomicExch.

#define VPR_FREE 0xffffffffu

__device__ unsigned next_random(unsigned *state)
{
    unsigned x = *state;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return *state = x;
}

// Half-perimeter wire length of `net` with cell a at slot pa and cell b (or VPR_FREE) at slot pb.
__device__ int net_length(const unsigned *pin_offsets, const unsigned *pins, volatile unsigned *position,
                          unsigned net, unsigned side, unsigned a, unsigned pa, unsigned b, unsigned pb)
{
    int min_x = 1 << 30, min_y = 1 << 30, max_x = -1, max_y = -1;
    for (unsigned k = pin_offsets[net]; k < pin_offsets[net + 1]; k++) {
        unsigned cell = pins[k];
        unsigned slot = cell == a ? pa : cell == b ? pb : position[cell];
        int sx = (int)(slot % side), sy = (int)(slot / side);
        min_x = min(min_x, sx);
        max_x = max(max_x, sx);
        min_y = min(min_y, sy);
        max_y = max(max_y, sy);
    }
    return max_x - min_x + max_y - min_y;
}

// Whether `cell` is a pin of `net`.
__device__ bool on_net(const unsigned *pin_offsets, const unsigned *pins, unsigned net, unsigned cell)
{
    for (unsigned k = pin_offsets[net]; k < pin_offsets[net + 1]; k++)
        if (pins[k] == cell)
            return true;
    return false;
}

// The change of wire length if a (at pa) and b (at pb, or VPR_FREE) trade slots.
__device__ int swap_gain(const unsigned *net_offsets, const unsigned *cell_nets, const unsigned *pin_offsets,
                         const unsigned *pins, volatile unsigned *position, unsigned side, unsigned a, unsigned pa,
                         unsigned b, unsigned pb)
{
    int delta = 0;
    for (unsigned k = net_offsets[a]; k < net_offsets[a + 1]; k++) {
        unsigned net = cell_nets[k];
        delta += net_length(pin_offsets, pins, position, net, side, a, pb, b, pa) -
                 net_length(pin_offsets, pins, position, net, side, a, pa, b, pb);
    }
    if (b != VPR_FREE)
        for (unsigned k = net_offsets[b]; k < net_offsets[b + 1]; k++) {
            unsigned net = cell_nets[k];
            if (!on_net(pin_offsets, pins, net, a))
                delta += net_length(pin_offsets, pins, position, net, side, a, pb, b, pa) -
                         net_length(pin_offsets, pins, position, net, side, a, pa, b, pb);
        }
    return delta;
}

extern "C" __global__ void vpr_place(unsigned *lock, unsigned *occupant_words, unsigned *position_words,
                                     const unsigned *net_offsets, const unsigned *cell_nets,
                                     const unsigned *pin_offsets, const unsigned *pins, unsigned cells, unsigned side,
                                     unsigned moves, unsigned window, unsigned seed, unsigned *accepted)
{
    volatile unsigned *occupant = occupant_words, *position = position_words;
    unsigned random = (blockIdx.x * blockDim.x + threadIdx.x + 1) * 0x9e3779b9u ^ seed;
    for (unsigned m = 0; m < moves; m++) {
        unsigned a = next_random(&random) % cells;
        unsigned pa = position[a];
        unsigned span = 2 * window + 1;
        int tx = (int)(pa % side) + (int)(next_random(&random) % span) - (int)window;
        int ty = (int)(pa / side) + (int)(next_random(&random) % span) - (int)window;
        tx = min(max(tx, 0), (int)side - 1);
        ty = min(max(ty, 0), (int)side - 1);
        unsigned target = (unsigned)ty * side + (unsigned)tx;
        if (target == pa || atomicCAS(&lock[pa], 0u, 1u) != 0u)
            continue;
        __threadfence();
        if (occupant[pa] == a && atomicCAS(&lock[target], 0u, 1u) == 0u) {
            __threadfence();
            unsigned b = occupant[target];
            if (swap_gain(net_offsets, cell_nets, pin_offsets, pins, position, side, a, pa, b, target) < 0) {
                occupant[pa] = b;
                occupant[target] = a;
                position[a] = target;
                if (b != VPR_FREE)
                    position[b] = pa;
                atomicAdd(accepted, 1u);
            }
            __threadfence();
            atomicExch(&lock[target], 0u);
        }
        __threadfence();
        atomicExch(&lock[pa], 0u);
    }
}
