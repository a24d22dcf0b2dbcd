/* workload_ref.h — a workload as commands name it: a built-in workload of the suite (its name)
 * or a user's manifest (a path ending in .json). Both run on a device, and both are identified
 * in the store the same way: by the name runs store as their workload and by the parameters
 * text runs store with it. A manifest's parameters carry its content digest (manifest.h:
 * sc_manifest_digest), so what the fast layer stores for it (profiles, calibrations) is never
 * served to a changed kernel or input. */
#ifndef SYNCSCOPE_WORKLOADS_WORKLOAD_REF_H
#define SYNCSCOPE_WORKLOADS_WORKLOAD_REF_H

#include <stdbool.h>
#include <stdint.h>

#include "base/error.h"
#include "base/sha256.h"
#include "host/host_api.h"
#include "workloads/workload.h"

/* Room for sc_workload_params_text's text. */
#define SC_WORKLOAD_PARAMS_BYTES 160

typedef struct sc_workload_ref {
    const sc_workload *builtin;   /* NULL: a manifest */
    char path[4096];              /* the manifest's path; "" for a built-in workload */
    char name[128];               /* what runs store as their workload */
    char digest[SC_SHA256_HEX];   /* the manifest's content digest; "" for a built-in workload */
} sc_workload_ref;

/* Whether `text` names a manifest rather than a built-in workload: it ends in ".json". */
bool sc_workload_is_manifest_name(const char *text);

/* A built-in workload's name, or a manifest's path (relative to the directory of `anchor_file`
 * unless absolute; NULL anchor: the current directory), which is loaded, checked and digested.
 * Unknown names fail in one line naming them. */
int sc_workload_ref_resolve(const char *text, const char *anchor_file, sc_workload_ref *ref, sc_error *error);

/* The workload parameters runs store: {"size": "small", "seed": 1} for a built-in workload
 * (`manifest_digest` NULL), {"size": "manifest", "seed": 1, "digest": "..."} for a manifest
 * (`size` unused). */
void sc_workload_params_format(const char *manifest_digest, const char *size, uint64_t seed,
                               char out[SC_WORKLOAD_PARAMS_BYTES]);

/* The same for a resolved workload. */
void sc_workload_params_text(const sc_workload_ref *ref, const char *size, uint64_t seed,
                             char out[SC_WORKLOAD_PARAMS_BYTES]);

/* The content digests of the manifests among `refs` as a JSON array (malloc'd), or NULL when all
 * are built-in: what a calibration fitted on them, or used for them, is keyed by (store.h). */
char *sc_workload_refs_manifests(const sc_workload_ref *refs, int count);

/* Runs the workload on `device` (a manifest is loaded again from its path) and fills `check`;
 * -1 only when the run itself failed (workload.h). */
int sc_workload_ref_run(const sc_workload_ref *ref, sc_device *device, const sc_workload_params *params,
                        sc_check_result *check, sc_error *error);

#endif
