/* test_manifest_contents.c — a manifest buffer's initial contents when one process runs the same
 * manifest again (manifest.c keeps contents that depend only on the initialiser): a random buffer
 * holds at the second run what the first made and what the "expected" check (which makes them
 * afresh) wants, and a buffer initialised from a file follows the file when it changes between
 * runs. The kernel (tests/data/manifests/blur/blur.ptx) leaves buffer a as it found it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "base/files.h"
#include "workloads/manifest.h"

/* Parses `text` as a manifest in directory `dir`, runs it on a fresh device and returns whether
 * its check passed (failing the test on an error). */
static bool run_manifest_text(const char *dir, const char *text)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/test.json", dir);
    sc_error error = {{0}};
    sc_manifest *manifest = sc_manifest_parse(text, path, &error);
    if (!manifest)
        fail_msg("manifest: %s", error.message);
    sc_device *device = sc_device_create(32, &error);
    sc_check_result check = {0};
    if (!device || sc_manifest_run(manifest, device, &check, &error) < 0)
        fail_msg("run: %s", error.message);
    sc_device_destroy(device);
    sc_manifest_free(manifest);
    return check.passed;
}

static void write_words(const char *dir, const char *name, uint32_t first, unsigned count)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *out = fopen(path, "wb");
    assert_non_null(out);
    for (unsigned i = 0; i < count; i++) {
        uint32_t word = first + i;
        assert_int_equal(fwrite(&word, sizeof word, 1, out), 1);
    }
    fclose(out);
}

static void test_random_contents_kept(void **state)
{
    (void)state;
    char text[2048];
    snprintf(text, sizeof text,
             "{\"name\": \"kept\", \"ptx\": \"%s/tests/data/manifests/blur/blur.ptx\","
             " \"buffers\": {\"a\": {\"type\": \"u32\", \"count\": 4096, \"init\": {\"random\": {\"seed\": 7, \"max\": 99}}},"
             "              \"b\": {\"type\": \"u32\", \"count\": 4096, \"init\": \"zero\"}},"
             " \"launches\": [{\"kernel\": \"blur3\", \"grid\": [16, 1, 1], \"block\": [256, 1, 1], \"args\": [\"a\", \"b\", 4096]}],"
             " \"expected\": {\"a\": {\"random\": {\"seed\": 7, \"max\": 99}}}}",
             sc_data_dir());
    assert_true(run_manifest_text(".", text));
    assert_true(run_manifest_text(".", text));   /* the kept contents */
}

static void test_file_contents_follow_the_file(void **state)
{
    (void)state;
    char dir[] = "/tmp/syncscope-manifest-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char text[2048];
    snprintf(text, sizeof text,
             "{\"name\": \"file\", \"ptx\": \"%s/tests/data/manifests/blur/blur.ptx\","
             " \"buffers\": {\"a\": {\"type\": \"u32\", \"count\": 1024, \"init\": {\"file\": \"in.bin\"}},"
             "              \"b\": {\"type\": \"u32\", \"count\": 1024, \"init\": \"zero\"}},"
             " \"launches\": [{\"kernel\": \"blur3\", \"grid\": [4, 1, 1], \"block\": [256, 1, 1], \"args\": [\"a\", \"b\", 1024]}],"
             " \"expected\": {\"a\": {\"file\": \"want.bin\"}}}",
             sc_data_dir());
    write_words(dir, "in.bin", 1, 1024);
    write_words(dir, "want.bin", 1, 1024);
    assert_true(run_manifest_text(dir, text));
    write_words(dir, "in.bin", 5000, 1024);
    write_words(dir, "want.bin", 5000, 1024);
    assert_true(run_manifest_text(dir, text));
    char path[4200];
    for (const char *const *name = (const char *const[]){"in.bin", "want.bin", NULL}; *name; name++) {
        snprintf(path, sizeof path, "%s/%s", dir, *name);
        unlink(path);
    }
    rmdir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_contents_kept),
        cmocka_unit_test(test_file_contents_follow_the_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
