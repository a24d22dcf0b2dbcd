/* test_config.c — configuration: unit parsing, layering, validation messages, canonical hash,
 * the four system presets, and the keys the mechanism modules add to the schema. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config/config.h"
#include "config/schema.h"
#include "config/units.h"
#include "protocols/mechanism.h"

static void write_file(const char *path, const char *text)
{
    FILE *file = fopen(path, "w");
    assert_non_null(file);
    fputs(text, file);
    fclose(file);
}

static void test_size_units(void **state)
{
    (void)state;
    int64_t bytes;
    const char *why;
    assert_int_equal(sc_parse_size("16KiB", &bytes, &why), 0);
    assert_int_equal(bytes, 16384);
    assert_int_equal(sc_parse_size("2MiB", &bytes, &why), 0);
    assert_int_equal(bytes, 2 * 1024 * 1024);
    assert_int_equal(sc_parse_size("64B", &bytes, &why), 0);
    assert_int_equal(bytes, 64);
    assert_int_equal(sc_parse_size("4096", &bytes, &why), 0);
    assert_int_equal(bytes, 4096);
    assert_int_equal(sc_parse_size("1.5 KiB", &bytes, &why), 0);
    assert_int_equal(bytes, 1536);
    const char *const kibibytes[] = {"16KB", "16kB", "16K", "16KiB", "16 KiB"};   /* one meaning, documented */
    for (size_t i = 0; i < sizeof kibibytes / sizeof kibibytes[0]; i++) {
        assert_int_equal(sc_parse_size(kibibytes[i], &bytes, &why), 0);
        assert_int_equal(bytes, 16384);
    }
    assert_int_equal(sc_parse_size("2MB", &bytes, &why), 0);
    assert_int_equal(bytes, 2 * 1024 * 1024);
    assert_int_equal(sc_parse_size("16kb", &bytes, &why), -1);   /* kilobits: no */
    assert_int_equal(sc_parse_size("16 KiBs", &bytes, &why), -1);
    assert_int_equal(sc_parse_size("0.3B", &bytes, &why), -1);
    assert_int_equal(sc_parse_size("-4KiB", &bytes, &why), -1);
    assert_int_equal(sc_parse_size("99999999999TiB", &bytes, &why), -1);
}

static void test_frequency_units(void **state)
{
    (void)state;
    int64_t hertz;
    const char *why;
    assert_int_equal(sc_parse_frequency("1GHz", &hertz, &why), 0);
    assert_int_equal(hertz, 1000000000);
    assert_int_equal(sc_parse_frequency("700MHz", &hertz, &why), 0);
    assert_int_equal(hertz, 700000000);
    assert_int_equal(sc_parse_frequency("1.4GHz", &hertz, &why), 0);
    assert_int_equal(hertz, 1400000000);
    assert_int_equal(sc_parse_frequency("667000000", &hertz, &why), 0);
    assert_int_equal(hertz, 667000000);
    assert_int_equal(sc_parse_frequency("1GB", &hertz, &why), -1);
}

static void test_bool_int_float(void **state)
{
    (void)state;
    bool flag;
    int64_t integer;
    double real;
    const char *why;
    assert_int_equal(sc_parse_bool("yes", &flag, &why), 0);
    assert_true(flag);
    assert_int_equal(sc_parse_bool("off", &flag, &why), 0);
    assert_false(flag);
    assert_int_equal(sc_parse_bool("maybe", &flag, &why), -1);
    assert_int_equal(sc_parse_int("42", &integer, &why), 0);
    assert_int_equal(sc_parse_int("4x", &integer, &why), -1);
    assert_int_equal(sc_parse_float("0.25", &real, &why), 0);
    assert_true(real == 0.25);
    assert_int_equal(sc_parse_float("nan", &real, &why), -1);
}

static void test_schema_sorted_and_described(void **state)
{
    (void)state;
    size_t count;
    const sc_config_key *keys = sc_schema_keys(&count);
    assert_true(count > 50);
    for (size_t i = 0; i < count; i++) {
        if (i > 0)
            assert_true(strcmp(keys[i - 1].path, keys[i].path) < 0);
        assert_non_null(strchr(keys[i].path, '.'));
        assert_true(strlen(keys[i].description) > 0);
        assert_int_equal(sc_schema_find(keys[i].path), (int)i);
        assert_true(keys[i].type != SC_KEY_ENUM || keys[i].choices);
    }
    assert_int_equal(sc_schema_find("l1.sise"), -1);
    assert_string_equal(sc_schema_nearest("l1.sise"), "l1.size");
    assert_null(sc_schema_nearest("completely.unrelated.thing"));
}

static void test_presets_all_validate(void **state)
{
    (void)state;
    sc_error error = {{0}};
    sc_preset_list list;
    assert_int_equal(sc_config_list_presets(&list, &error), 0);
    assert_true(list.count >= 4);
    for (size_t i = 0; i < list.count; i++) {
        sc_config *config = sc_config_load(list.names[i], NULL, NULL, 0, &error);
        if (!config)
            fail_msg("%s: %s", list.names[i], error.message);
        assert_string_equal(sc_config_system(config), list.names[i]);
        assert_string_equal(sc_config_string(config, "system.name"), list.names[i]);
        assert_int_equal(strlen(sc_config_hash(config)), 16);
        sc_config_free(config);
    }
    sc_preset_list_free(&list);
}

static void test_preset_values(void **state)
{
    (void)state;
    sc_error error;
    sc_config *qr = sc_config_load("qr-apu", NULL, NULL, 0, &error);
    assert_non_null(qr);
    assert_int_equal(sc_config_int(qr, "gpu.cu_count"), 8);
    assert_int_equal(sc_config_int(qr, "l1.size"), 16384);
    assert_int_equal(sc_config_int(qr, "l2.size"), 256 * 1024);
    assert_int_equal(sc_config_int(qr, "l3.size"), 4 << 20);
    assert_int_equal(sc_config_int(qr, "gpu.clock"), 1000000000);
    assert_true(sc_config_bool(qr, "l3.enabled"));
    assert_string_equal(sc_config_string(qr, "dram.type"), "ddr3");
    assert_true(sc_config_float(qr, "dram.clock") == 400e6);
    sc_config_free(qr);
    sc_config *gtx = sc_config_load("gtx480", NULL, NULL, 0, &error);
    assert_non_null(gtx);
    assert_int_equal(sc_config_int(gtx, "gpu.clock"), 1400000000);
    assert_int_equal(sc_config_int(gtx, "l1.line_size"), 128);
    assert_string_equal(sc_config_string(gtx, "gpu.scheduler"), "lrr");
    sc_config_free(gtx);
}

static void test_layers_later_wins(void **state)
{
    (void)state;
    sc_error error;
    char path[] = "/tmp/syncscope_override_XXXXXX.json";
    close(mkstemps(path, 5));
    write_file(path, "{\"l1\": {\"size\": \"32KiB\", \"associativity\": 4}, \"gpu\": {\"clock\": \"1.4GHz\"}}");
    const char *sets[] = {"l1.size=64KiB", "gpu.scheduler=gto"};
    sc_config *config = sc_config_load("qr-apu", path, sets, 2, &error);
    if (!config)
        fail_msg("%s", error.message);
    assert_int_equal(sc_config_int(config, "l1.size"), 65536);
    assert_int_equal(sc_config_int(config, "l1.associativity"), 4);
    assert_int_equal(sc_config_int(config, "gpu.clock"), 1400000000);
    assert_string_equal(sc_config_string(config, "gpu.scheduler"), "gto");
    sc_config_free(config);
    unlink(path);
}

static void test_unknown_key_names_path(void **state)
{
    (void)state;
    sc_error error;
    const char *sets[] = {"l1.sise=4KiB"};
    assert_null(sc_config_load("qr-apu", NULL, sets, 1, &error));
    assert_non_null(strstr(error.message, "unknown key 'l1.sise'"));
    assert_non_null(strstr(error.message, "did you mean 'l1.size'"));

    char path[] = "/tmp/syncscope_override_XXXXXX.json";
    close(mkstemps(path, 5));
    write_file(path, "{\"dram\": {\"chanels\": 8}}");
    assert_null(sc_config_load("gsi", path, NULL, 0, &error));
    assert_non_null(strstr(error.message, path));
    assert_non_null(strstr(error.message, "'dram.chanels'"));
    assert_non_null(strstr(error.message, "'dram.channels'"));
    write_file(path, "{\"mechanism\": {\"quantum\": 200}}");
    assert_null(sc_config_load("gsi", path, NULL, 0, &error));
    assert_non_null(strstr(error.message, "mechanism.quantum"));
    assert_null(strchr(error.message, '\n'));
    unlink(path);
}

static void expect_bad_set(const char *setting, const char *fragment)
{
    sc_error error;
    const char *sets[] = {setting};
    assert_null(sc_config_load("qr-apu", NULL, sets, 1, &error));
    if (!strstr(error.message, fragment))
        fail_msg("'%s' gave '%s', expected '%s'", setting, error.message, fragment);
    assert_null(strchr(error.message, '\n'));
}

static void test_bad_values(void **state)
{
    (void)state;
    expect_bad_set("l1.size=16QiB", "l1.size = '16QiB': not a size");
    expect_bad_set("l1.associativity=0", "l1.associativity = '0' is out of range 1..1024");
    expect_bad_set("l1.size=2GiB", "out of range 0B..1GiB");
    expect_bad_set("gpu.scheduler=rr", "gpu.scheduler = 'rr' is not one of gto|lrr");
    expect_bad_set("gpu.warp_size=48", "must be a power of two");
    expect_bad_set("l3.enabled=perhaps", "not a boolean");
    expect_bad_set("gpu.clock=fast", "not a frequency");
    expect_bad_set("l2.latency_max=1", "l2.latency_max = 1 is below l2.latency = 45");
    expect_bad_set("novalue", "expected key.path=value");
}

/* The keys a mechanism module declares (added by sc_mechanism_add_config_keys in main) are in
 * the schema with their owners, required of a preset and validated like the engine's keys. */
static void test_module_keys_in_schema(void **state)
{
    (void)state;
    size_t count_before, count_after;
    sc_schema_keys(&count_before);
    sc_mechanism_add_config_keys();
    const sc_config_key *keys = sc_schema_keys(&count_after);
    assert_int_equal(count_after, count_before);

    char owners[64];
    int wl1 = sc_schema_find("l1.write_cache_size");
    assert_true(wl1 >= 0);
    assert_string_equal(keys[wl1].path, "l1.write_cache_size");
    assert_int_equal(keys[wl1].type, SC_KEY_SIZE);
    sc_schema_key_owners(wl1, owners, sizeof owners);
    assert_string_equal(owners, "qr");
    sc_schema_key_owners(sc_schema_find("directory.full_map_size"), owners, sizeof owners);
    assert_string_equal(owners, "rfo,mesi");
    sc_schema_key_owners(sc_schema_find("l1.size"), owners, sizeof owners);
    assert_string_equal(owners, "");
    assert_string_equal(sc_schema_nearest("l1.write_cache_sise"), "l1.write_cache_size");

    sc_error error;
    sc_config *config = sc_config_load("gsi", NULL, NULL, 0, &error);
    assert_non_null(config);
    assert_int_equal(sc_config_int(config, "l1.write_cache_size"), 4096);
    char *json = sc_config_canonical_json(config);
    assert_non_null(strstr(json, "\"full_map_associativity\":"));
    free(json);
    sc_config_free(config);
    expect_bad_set("l1.write_cache_size=0", "l1.write_cache_size = '0' is out of range 1B..1GiB (bytes)");
    expect_bad_set("directory.full_map_associativity=2000",
                   "directory.full_map_associativity = '2000' is out of range 1..1024 (ways)");
    expect_bad_set("l1.write_cache_sise=4KiB", "unknown key 'l1.write_cache_sise' (did you mean 'l1.write_cache_size'?)");

    config = sc_config_load("gsi", NULL, NULL, 0, &error);
    char *preset = sc_config_json(config, true);
    sc_config_free(config);
    char *key = strstr(preset, "\"full_map_associativity\"");
    assert_non_null(key);
    memmove(key, strchr(key, '\n') + 1, strlen(strchr(key, '\n') + 1) + 1); /* the key's line, gone */
    char path[] = "/tmp/syncscope_system_XXXXXX.json";
    close(mkstemps(path, 5));
    write_file(path, preset);
    free(preset);
    assert_null(sc_config_load(path, NULL, NULL, 0, &error));
    assert_non_null(strstr(error.message, "missing key 'directory.full_map_associativity'"));
    unlink(path);
}

static void test_malformed_json_names_line(void **state)
{
    (void)state;
    sc_error error;
    char path[] = "/tmp/syncscope_override_XXXXXX.json";
    close(mkstemps(path, 5));
    write_file(path, "{\n  \"l1\": {\n    \"size\": 4096,,\n  }\n}\n");
    assert_null(sc_config_load("qr-apu", path, NULL, 0, &error));
    assert_non_null(strstr(error.message, path));
    assert_non_null(strstr(error.message, ":3:"));
    assert_non_null(strstr(error.message, "malformed JSON"));
    write_file(path, "{\"l1\": {\"size\": true}}");
    assert_null(sc_config_load("qr-apu", path, NULL, 0, &error));
    assert_non_null(strstr(error.message, "l1.size expects a size value"));
    unlink(path);
}

static void test_unknown_preset_lists_available(void **state)
{
    (void)state;
    sc_error error;
    assert_null(sc_config_load("qr-apuu", NULL, NULL, 0, &error));
    assert_non_null(strstr(error.message, "unknown system preset 'qr-apuu'"));
    assert_non_null(strstr(error.message, "gsi"));
    assert_non_null(strstr(error.message, "gtx480"));
    assert_non_null(strstr(error.message, "qr-apu"));
    assert_non_null(strstr(error.message, "rcc-gpu"));
    assert_non_null(strstr(error.message, "sahc-apu"));
}

static void test_incomplete_preset_file(void **state)
{
    (void)state;
    sc_error error;
    char path[] = "/tmp/syncscope_system_XXXXXX.json";
    close(mkstemps(path, 5));
    write_file(path, "{\"gpu\": {\"cu_count\": 4}}");
    assert_null(sc_config_load(path, NULL, NULL, 0, &error));
    assert_non_null(strstr(error.message, "missing key 'cpu.clock'"));
    unlink(path);
}

/* The same values written in another order and other spellings must hash the same; any one
 * changed value must change the hash. */
static void test_canonical_hash(void **state)
{
    (void)state;
    sc_error error;
    char reordered[] = "/tmp/syncscope_override_XXXXXX.json";
    close(mkstemps(reordered, 5));
    write_file(reordered, "{\"gpu\": {\"clock\": 1000000000, \"cu_count\": 8}, \"l1\": {\"line_size\": 64, \"size\": 16384}}");
    sc_config *base = sc_config_load("qr-apu", NULL, NULL, 0, &error);
    sc_config *same = sc_config_load("qr-apu", reordered, NULL, 0, &error);
    assert_non_null(base);
    assert_non_null(same);
    assert_string_equal(sc_config_hash(base), sc_config_hash(same));
    char *base_json = sc_config_canonical_json(base), *same_json = sc_config_canonical_json(same);
    assert_string_equal(base_json, same_json);
    assert_non_null(strstr(base_json, "\"l1\":{\"associativity\":8,"));
    assert_non_null(strstr(base_json, "\"mechanism\":{}"));
    free(same_json);

    size_t count;
    const sc_config_key *keys = sc_schema_keys(&count);
    for (size_t i = 0; i < count; i++) {
        sc_config *changed = sc_config_copy(base);
        char value[64];
        switch (keys[i].type) {
        case SC_KEY_BOOL:
            snprintf(value, sizeof value, "%s", sc_config_bool(base, keys[i].path) ? "false" : "true");
            break;
        case SC_KEY_STRING:
            snprintf(value, sizeof value, "%s!", sc_config_string(base, keys[i].path));
            break;
        case SC_KEY_ENUM: {
            const char *current = sc_config_string(base, keys[i].path);
            const char *bar = strchr(keys[i].choices, '|');
            if (!strncmp(keys[i].choices, current, strlen(current)))
                snprintf(value, sizeof value, "%.*s", (int)strcspn(bar + 1, "|"), bar + 1);
            else
                snprintf(value, sizeof value, "%.*s", (int)(bar - keys[i].choices), keys[i].choices);
            break;
        }
        case SC_KEY_FLOAT: {
            double current = sc_config_float(base, keys[i].path);
            snprintf(value, sizeof value, "%.17g", current + 1 <= keys[i].max ? current + 1 : current - 1);
            break;
        }
        default: {
            int64_t current = sc_config_int(base, keys[i].path);
            int64_t next = (keys[i].flags & SC_KEY_POWER_OF_TWO) ? current * 2 : current + 1;
            if (next > keys[i].max)
                next = (keys[i].flags & SC_KEY_POWER_OF_TWO) ? current / 2 : current - 1;
            snprintf(value, sizeof value, "%lld", (long long)next);
        }
        }
        if (sc_config_set(changed, keys[i].path, value, &error))
            fail_msg("%s=%s: %s", keys[i].path, value, error.message);
        if (!strcmp(sc_config_hash(changed), sc_config_hash(base)))
            fail_msg("changing %s did not change the hash", keys[i].path);
        sc_config_free(changed);
    }
    free(base_json);
    sc_config_free(base);
    sc_config_free(same);
    unlink(reordered);
}

static void test_indented_json_parses_back(void **state)
{
    (void)state;
    sc_error error;
    sc_config *config = sc_config_load("sahc-apu", NULL, NULL, 0, &error);
    assert_non_null(config);
    char *text = sc_config_json(config, true);
    char path[] = "/tmp/syncscope_system_XXXXXX.json";
    close(mkstemps(path, 5));
    write_file(path, text);
    sc_config *again = sc_config_load(path, NULL, NULL, 0, &error);
    if (!again)
        fail_msg("%s", error.message);
    assert_string_equal(sc_config_hash(again), sc_config_hash(config));
    free(text);
    sc_config_free(again);
    sc_config_free(config);
    unlink(path);
}

int main(void)
{
    sc_mechanism_add_config_keys();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_size_units),
        cmocka_unit_test(test_frequency_units),
        cmocka_unit_test(test_bool_int_float),
        cmocka_unit_test(test_schema_sorted_and_described),
        cmocka_unit_test(test_presets_all_validate),
        cmocka_unit_test(test_preset_values),
        cmocka_unit_test(test_layers_later_wins),
        cmocka_unit_test(test_unknown_key_names_path),
        cmocka_unit_test(test_bad_values),
        cmocka_unit_test(test_module_keys_in_schema),
        cmocka_unit_test(test_malformed_json_names_line),
        cmocka_unit_test(test_unknown_preset_lists_available),
        cmocka_unit_test(test_incomplete_preset_file),
        cmocka_unit_test(test_canonical_hash),
        cmocka_unit_test(test_indented_json_parses_back),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
