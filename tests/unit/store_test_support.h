/* store_test_support.h — what the store's unit tests (test_store.c, test_run_reuse.c) share: a
 * scratch directory for their databases with SYNTHETIC runs over every preset (the group's setup
 * and teardown), counting rows, inserting a synthetic run, and a file's bytes before and after.
 * Include after cmocka.h. */
#ifndef SYNCSCOPE_TESTS_STORE_TEST_SUPPORT_H
#define SYNCSCOPE_TESTS_STORE_TEST_SUPPORT_H

#include <stdio.h>
#include <stdlib.h>

#include "base/files.h"
#include "store/store.h"
#include "store/synthetic.h"

static sc_synthetic_set synthetic;
static char directory[] = "/tmp/syncscope_store_test_XXXXXX";

static inline int setup(void **state)
{
    (void)state;
    sc_error error;
    if (!mkdtemp(directory) || sc_synthetic_init(&synthetic, 4, &error))
        return -1;
    return 0;
}

static inline int teardown(void **state)
{
    (void)state;
    sc_synthetic_free(&synthetic);
    char command[256];
    snprintf(command, sizeof command, "rm -rf %s", directory);
    return system(command);
}

static inline void path_in_directory(char *out, size_t size, const char *name)
{
    snprintf(out, size, "%s/%s", directory, name);
}

static inline int64_t count_rows(sc_store *store, const char *sql)
{
    sc_error error;
    int64_t count = -1;
    if (sc_store_query(store, sql, NULL, 0, sc_store_row_int64, &count, &error))
        fail_msg("%s", error.message);
    return count;
}

static inline int64_t insert_synthetic(sc_store *store, long index)
{
    sc_synthetic_run run;
    sc_error error;
    sc_synthetic_run_fill(&synthetic, index, &run);
    int64_t id = sc_store_insert_run(store, &run.record, &error);
    if (id < 0)
        fail_msg("%s", error.message);
    return id;
}

static inline char *file_bytes(const char *path, size_t *size)
{
    sc_error error;
    char *bytes = sc_read_file(path, size, &error);
    assert_non_null(bytes);
    return bytes;
}

static inline void assert_file_unchanged(const char *path, const char *before, size_t before_size)
{
    size_t after_size;
    char *after = file_bytes(path, &after_size);
    assert_int_equal(after_size, before_size);
    assert_memory_equal(after, before, before_size);
    free(after);
}

#endif
