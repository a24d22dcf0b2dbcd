/* mechanism.c — the list of mechanisms (see mechanism.h). */
#include "protocols/mechanism.h"

#include <string.h>

extern const sc_protocol protocol_wt, protocol_nol1, protocol_rfo, protocol_qr;

static const sc_mechanism write_through = {
    "wt", "write-through GPU coherence: L1 invalidated at acquire, writes performed at release",
    "QuickRelease §2.2, GSI §4.2, SAHC", &protocol_wt,
};

static const sc_mechanism no_l1 = {
    "nol1", "no L1 for global data: every access goes to the shared L2", "QuickRelease §3.1", &protocol_nol1,
};

static const sc_mechanism read_for_ownership = {
    "rfo", "read-for-ownership MOESI L1s with a full-map directory at the L2: stores obtain ownership first",
    "QuickRelease §2.4.2, §3.3, U14", &protocol_rfo,
};

static const sc_mechanism quick_release = {
    "qr", "QuickRelease: read-only rL1s, write-combining wL1s ordered by S-FIFOs, release markers, "
    "rL1 invalidations broadcast on writes at the L2, acquire as a plain load",
    "QuickRelease §2-§3", &protocol_qr,
};

static const sc_mechanism *const mechanisms[] = {&write_through, &no_l1, &read_for_ownership, &quick_release};

const sc_mechanism *const *sc_mechanism_list(int *count)
{
    *count = (int)(sizeof mechanisms / sizeof mechanisms[0]);
    return mechanisms;
}

const sc_mechanism *sc_mechanism_find(const char *name)
{
    int count;
    const sc_mechanism *const *list = sc_mechanism_list(&count);
    for (int i = 0; i < count; i++)
        if (!strcmp(list[i]->name, name))
            return list[i];
    return NULL;
}

const sc_protocol *sc_protocol_find(const char *name)
{
    const sc_mechanism *mechanism = sc_mechanism_find(name);
    return mechanism ? mechanism->protocol : NULL;
}
