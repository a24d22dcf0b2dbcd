/* fuzz_manifest.c — libFuzzer harness for the workload-manifest loader: parses arbitrary bytes
 * as a manifest (validation included, nothing is run) and frees it. Seed corpus:
 * tests/fuzz/corpus_manifest. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "workloads/manifest.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    memcpy(text, data, size);
    text[size] = '\0';
    sc_error error;
    sc_manifest_free(sc_manifest_parse(text, "fuzz.json", &error));
    free(text);
    return 0;
}
