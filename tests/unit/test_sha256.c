/* test_sha256.c — base/sha256.c against the FIPS 180-4 example digests: the empty message, one
 * block, a message whose padding needs a second block, and a million bytes fed in uneven pieces. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "base/sha256.h"

static void digest_of(const char *text, char out[SC_SHA256_HEX])
{
    sc_sha256 hash;
    sc_sha256_init(&hash);
    sc_sha256_update(&hash, text, strlen(text));
    sc_sha256_hex(&hash, out);
}

static void short_messages_match_the_standard(void **state)
{
    (void)state;
    char out[SC_SHA256_HEX];
    digest_of("", out);
    assert_string_equal(out, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    digest_of("abc", out);
    assert_string_equal(out, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    digest_of("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", out);
    assert_string_equal(out, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

static void a_million_bytes_in_uneven_pieces(void **state)
{
    (void)state;
    char piece[997], out[SC_SHA256_HEX];
    memset(piece, 'a', sizeof piece);
    sc_sha256 hash;
    sc_sha256_init(&hash);
    size_t left = 1000000;
    for (size_t size = 1; left > 0; size = size % sizeof piece + 1) {
        size_t take = size < left ? size : left;
        sc_sha256_update(&hash, piece, take);
        left -= take;
    }
    sc_sha256_hex(&hash, out);
    assert_string_equal(out, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(short_messages_match_the_standard),
        cmocka_unit_test(a_million_bytes_in_uneven_pieces),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
