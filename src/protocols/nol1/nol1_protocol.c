/* nol1_protocol.c — the no-L1 baseline (QuickRelease §3.1): the L1 is disabled for coherent (global)
 * traffic, as on NVIDIA Kepler. Every global load reads from the L2 (no merging of misses:
 * responses return in order, U17), every store writes through to the L2 at once, atomics are
 * performed at the L2. A release waits until every outstanding write is performed; an acquire
 * needs no cache action because nothing is cached above the L2.
 */
#include "protocols/nol1/nol1.h"

#define ROW PROTOCOL_ROW

static const protocol_transition nol1_l1[] = {
    ROW(L1_I, L1_LOAD,         L1_I, L1_READ_AROUND),
    ROW(L1_I, L1_LOAD_STRONG,  L1_I, L1_READ_AROUND),
    ROW(L1_I, L1_STORE,        L1_I, L1_WRITE_THROUGH),
    ROW(L1_I, L1_STORE_STRONG, L1_I, L1_WRITE_THROUGH),
    ROW(L1_I, L1_ATOMIC,       L1_I, L1_SEND_ATOMIC),
};

const sc_protocol protocol_nol1 = {
    .name = "nol1",
    .l1_table = nol1_l1,
    .l1_table_size = sizeof nol1_l1 / sizeof nol1_l1[0],
};
