/* model_mechanism.c — the mechanisms that have an analytical model, and their free parameters'
 * names (model.h). A new mechanism's model adds one line here. */
#include "model/model.h"

#include <string.h>

extern const model_mechanism model_wt, model_nol1, model_rfo, model_qr;

static const model_mechanism *const models[] = {&model_wt, &model_nol1, &model_rfo, &model_qr};

const model_mechanism *model_mechanism_find(const char *name)
{
    for (size_t i = 0; i < sizeof models / sizeof models[0]; i++)
        if (!strcmp(models[i]->name, name))
            return models[i];
    return NULL;
}

static const char *const parameter_names[MODEL_PARAMETER_COUNT] = {
    "latency_exposure", "dependence_exposure", "barrier_cycles", "dram_efficiency", "issue_spread", "launch_overhead",
};

const char *model_parameter_name(model_parameter parameter)
{
    return parameter_names[parameter];
}
