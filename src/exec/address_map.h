/* address_map.h — the simulated device's address spaces and how generic addresses map onto them.
 *
 * Global (and .const) memory is one flat image starting at SC_GLOBAL_BASE; a global address is
 * also its generic address, so cvta to/from .global is the identity. Shared and local memory are
 * per-CTA / per-thread; their generic addresses are the space offset plus a window base, which is
 * how a generic ld/st (no space qualifier) finds its space.
 */
#ifndef SYNCSCOPE_EXEC_ADDRESS_MAP_H
#define SYNCSCOPE_EXEC_ADDRESS_MAP_H

#include <stdint.h>

#define SC_GLOBAL_BASE        0x0000000010000000ull
#define SC_SHARED_WINDOW_BASE 0x00007e0000000000ull
#define SC_LOCAL_WINDOW_BASE  0x00007f0000000000ull
#define SC_WINDOW_SIZE        0x0000010000000000ull

static inline int sc_generic_is_shared(uint64_t address)
{
    return address - SC_SHARED_WINDOW_BASE < SC_WINDOW_SIZE;
}

static inline int sc_generic_is_local(uint64_t address)
{
    return address - SC_LOCAL_WINDOW_BASE < SC_WINDOW_SIZE;
}

#endif
