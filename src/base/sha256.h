/* sha256.h — SHA-256 (FIPS 180-4), streaming: the content digest that keys what the fast layer
 * stores for a user's manifest workload (its manifest, PTX and input files), so a changed byte
 * anywhere gives a different key. */
#ifndef SYNCSCOPE_BASE_SHA256_H
#define SYNCSCOPE_BASE_SHA256_H

#include <stddef.h>
#include <stdint.h>

/* 64 hex digits and a NUL. */
#define SC_SHA256_HEX 65

typedef struct sc_sha256 {
    uint32_t state[8];
    uint64_t length;              /* bytes hashed so far */
    uint8_t block[64];
    size_t used;                  /* bytes waiting in block */
} sc_sha256;

void sc_sha256_init(sc_sha256 *hash);
void sc_sha256_update(sc_sha256 *hash, const void *data, size_t size);
/* Finishes the digest and writes it as lower-case hex. */
void sc_sha256_hex(sc_sha256 *hash, char out[SC_SHA256_HEX]);

#endif
