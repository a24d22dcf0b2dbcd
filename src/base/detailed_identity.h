/* detailed_identity.h — the detailed identity of this binary: a SHA-256 (64 hex digits) over every
 * file that can change a detailed or sampled run (the sources outside src/model/ and the
 * mechanisms' model modules src/protocols/M/M_model.[ch], the workloads' PTX, the presets, the
 * build settings), computed at build time (CMakeLists.txt,
 * scripts/detailed_identity.cmake). The store records it with every detailed and sampled run; a
 * run is reused from another database (calibrate and validate --detailed-from) only when its
 * identity is this one. */
#ifndef SYNCSCOPE_BASE_DETAILED_IDENTITY_H
#define SYNCSCOPE_BASE_DETAILED_IDENTITY_H

/* The identity, or NULL when the data files are read from another tree than the one it was
 * computed over (sc_data_dir(): SYNCSCOPE_SOURCE_DIR set elsewhere, an installed copy), whose PTX
 * and presets it does not cover: runs then record none, and none is reused. */
const char *sc_detailed_identity(void);

#endif
