/* fuzz_ptx.c — libFuzzer harness for the PTX front end: parses arbitrary bytes and frees the
 * module. Seed corpus: tests/fuzz/corpus_ptx. */
#include <stddef.h>
#include <stdint.h>

#include "ptx/ptx_ir.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    sc_error error;
    ptx_module *module = ptx_parse((const char *)data, size, "fuzz.ptx", &error);
    ptx_module_free(module);
    return 0;
}
