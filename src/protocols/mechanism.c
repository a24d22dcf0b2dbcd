/* mechanism.c — the list of mechanisms (see mechanism.h). A new mechanism adds its folder's name
 * to MECHANISMS below, nothing else. */
#include "protocols/mechanism.h"

#include <stdio.h>
#include <string.h>

/* The registry, in the order `syncscope list mechanisms` prints it. */
#define MECHANISMS(entry) entry(wt) entry(nol1) entry(rfo) entry(qr) entry(mesi) entry(tc_strong) entry(tc_weak) entry(rcc) \
    entry(rcc_wo) entry(denovo)

#define DECLARE_ENTRY(name) extern const sc_mechanism mechanism_##name;
#define ENTRY_ADDRESS(name) &mechanism_##name,

MECHANISMS(DECLARE_ENTRY)

static const sc_mechanism *const mechanisms[] = {MECHANISMS(ENTRY_ADDRESS)};

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

void sc_mechanism_add_config_keys(void)
{
    for (size_t i = 0; i < sizeof mechanisms / sizeof mechanisms[0]; i++) {
        if (mechanisms[i]->config_keys)
            sc_schema_add_keys(mechanisms[i]->name, mechanisms[i]->config_keys);
        if (mechanisms[i]->block_config_keys)
            sc_schema_add_keys(mechanisms[i]->name, mechanisms[i]->block_config_keys);
    }
}

const char *sc_memory_model_name(sc_memory_model model)
{
    return model == SC_MODEL_SEQUENTIAL ? "sc" : "ptx";
}

const sc_mechanism *sc_mechanism_default(void) { return mechanisms[0]; }

unsigned sc_mechanism_virtual_networks(const sc_mechanism *mechanism)
{
    return mechanism->virtual_networks ? mechanism->virtual_networks : 2;
}

void sc_mechanism_names(char *buffer, size_t size)
{
    size_t used = 0;
    buffer[0] = '\0';
    for (size_t i = 0; i < sizeof mechanisms / sizeof mechanisms[0] && used < size; i++)
        used += (size_t)snprintf(buffer + used, size - used, "%s%s", i ? "," : "", mechanisms[i]->name);
}

const sc_protocol *sc_protocol_find(const char *name)
{
    const sc_mechanism *mechanism = sc_mechanism_find(name);
    return mechanism ? mechanism->protocol : NULL;
}

const model_mechanism *model_mechanism_find(const char *name)
{
    const sc_mechanism *mechanism = sc_mechanism_find(name);
    return mechanism ? mechanism->model : NULL;
}
