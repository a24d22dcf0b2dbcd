/* mesi_model.c — where MESI directory coherence (mesi_protocol.c) serves each line request: the
 * ownership protocols' model (common/ownership_model.c) with MESI's choices: a read of another
 * CU's modified line writes the owner's data home and leaves both copies shared (M -> S), so
 * only the first read after a write is forwarded and later ones read the home; the memory-side
 * L3 is not writable (the engine's default), so the L2's dirty victims go to DRAM. */
#include "protocols/common/ownership_model.h"
#include "protocols/mesi/mesi.h"

static void serve_mesi(const model_kernel_profile *k, const model_point *p, model_demand *out)
{
    ownership_serve(k, p, (ownership_choices){.l3_takes_writes = false, .read_writes_home = true}, out);
}

static void evaluate_mesi(const model_profile *profile, const model_point *point, const model_params *params,
                          model_prediction *out)
{
    model_core_evaluate(profile, point, params, serve_mesi, out);
}

const model_mechanism model_mesi = {.name = "mesi", .evaluate = evaluate_mesi, .load_point = ownership_load_point};
