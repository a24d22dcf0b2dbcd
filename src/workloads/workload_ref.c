/* workload_ref.c — built-in and manifest workloads behind one name (workload_ref.h). */
#include "workloads/workload_ref.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <string.h>

#include "base/files.h"
#include "workloads/manifest.h"

bool sc_workload_is_manifest_name(const char *text)
{
    size_t length = strlen(text);
    return length > 5 && strcmp(text + length - 5, ".json") == 0;
}

int sc_workload_ref_resolve(const char *text, const char *anchor_file, sc_workload_ref *ref, sc_error *error)
{
    *ref = (sc_workload_ref){0};
    ref->builtin = sc_workload_find(text);
    if (ref->builtin) {
        snprintf(ref->name, sizeof ref->name, "%s", ref->builtin->name);
        return 0;
    }
    if (!sc_workload_is_manifest_name(text))
        return sc_fail_input(error, "unknown workload '%s' (a built-in workload, see syncscope list workloads, or "
                             "a manifest file NAME.json)", text);
    if (anchor_file) {
        if (sc_path_relative_to(anchor_file, text, ref->path, sizeof ref->path, error) < 0)
            return -1;
    } else if (snprintf(ref->path, sizeof ref->path, "%s", text) >= (int)sizeof ref->path) {
        return sc_fail_input(error, "manifest path too long: %s", text);
    }
    sc_manifest *manifest = sc_manifest_load(ref->path, error);
    if (!manifest)
        return -1;
    snprintf(ref->name, sizeof ref->name, "%s", sc_manifest_name(manifest));
    int status = sc_manifest_digest(manifest, ref->digest, error);
    sc_manifest_free(manifest);
    return status;
}

void sc_workload_params_format(const char *manifest_digest, const char *size, uint64_t seed,
                               char out[SC_WORKLOAD_PARAMS_BYTES])
{
    if (!manifest_digest)
        snprintf(out, SC_WORKLOAD_PARAMS_BYTES, "{\"size\": \"%s\", \"seed\": %llu}", size, (unsigned long long)seed);
    else
        snprintf(out, SC_WORKLOAD_PARAMS_BYTES, "{\"size\": \"manifest\", \"seed\": %llu, \"digest\": \"%s\"}",
                 (unsigned long long)seed, manifest_digest);
}

void sc_workload_params_text(const sc_workload_ref *ref, const char *size, uint64_t seed,
                             char out[SC_WORKLOAD_PARAMS_BYTES])
{
    sc_workload_params_format(ref->builtin ? NULL : ref->digest, size, seed, out);
}

char *sc_workload_refs_manifests(const sc_workload_ref *refs, int count)
{
    cJSON *digests = cJSON_CreateArray();
    for (int i = 0; i < count; i++) {
        bool seen = refs[i].builtin != NULL;
        for (int j = 0; j < i && !seen; j++)
            seen = !refs[j].builtin && !strcmp(refs[j].digest, refs[i].digest);
        if (!seen)
            cJSON_AddItemToArray(digests, cJSON_CreateString(refs[i].digest));
    }
    char *text = cJSON_GetArraySize(digests) ? cJSON_PrintUnformatted(digests) : NULL;
    cJSON_Delete(digests);
    return text;
}

int sc_workload_ref_run(const sc_workload_ref *ref, sc_device *device, const sc_workload_params *params,
                        sc_check_result *check, sc_error *error)
{
    if (ref->builtin)
        return ref->builtin->run(device, params, check, error);
    sc_manifest *manifest = sc_manifest_load(ref->path, error);
    if (!manifest)
        return -1;
    int status = sc_manifest_run(manifest, device, check, error);
    sc_manifest_free(manifest);
    return status;
}
