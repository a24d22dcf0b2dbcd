/* protocol_tester.h — the random protocol tester (models/kernels/protocol_tester.cu): many warps
 * across CTAs and CUs interpret a seeded random, data-race-free program of loads, stores,
 * atomics, acquires and releases on a small arena of words where the words of different threads,
 * locks, counters and mailboxes share cache lines. Every value a thread reads is checked on the
 * GPU and every final word of the arena on the host, so a protocol that loses a write, serves a
 * stale line or reorders one location's accesses shows up as a mismatch ("word 17 (own word 1
 * of thread 3) = 3, expected 5"). --seed changes the program; timing jitter changes only the
 * interleaving, which must never change the verdict.
 *
 * The broken variants replace acquires by relaxed accesses, making the program racy: a protocol
 * whose L1 keeps stale lines (wt) is then expected to fail the check, which proves the check is
 * not vacuous.
 */
#ifndef SYNCSCOPE_WORKLOADS_PROTOCOL_TESTER_H
#define SYNCSCOPE_WORKLOADS_PROTOCOL_TESTER_H

#include <stdint.h>

#include "workloads/workload.h"

typedef enum sc_tester_variant {
    SC_TESTER_CORRECT = 0,        /* the data-race-free program: must pass everywhere */
    SC_TESTER_UNORDERED_PEEKS,    /* mailbox flags read relaxed, without acquire */
    SC_TESTER_UNORDERED_LOCKS,    /* locks taken by a relaxed CAS, without acquire */
} sc_tester_variant;

/* Families of operations, to leave some out of the program (--without) when bisecting which
 * kind of access a failure needs. */
typedef enum sc_tester_family {
    SC_TESTER_OWN = 1u << 0,          /* ld, st, ld.relaxed, st.relaxed of own words */
    SC_TESTER_LOAD_STORE = 1u << 1,   /* ld, then st to an own word before the loaded value is used */
    SC_TESTER_EXCH = 1u << 2,         /* atom.exch of own words */
    SC_TESTER_LOCKS = 1u << 3,        /* lock-protected read-modify-writes */
    SC_TESTER_COUNTERS = 1u << 4,     /* atom.add, red.add, ld.relaxed of counters */
    SC_TESTER_MAILBOXES = 1u << 5,    /* publications and peeks */
    SC_TESTER_FENCES = 1u << 6,       /* lone fence.acq_rel / fence.sc */
    SC_TESTER_ALL_FAMILIES = (1u << 7) - 1,
} sc_tester_family;

typedef struct sc_tester_options {
    sc_workload_size size;        /* scales CTAs, warps, operations and the arena */
    uint64_t seed;                /* the program */
    sc_tester_variant variant;
    uint32_t without;             /* sc_tester_family bits left out of the program */
} sc_tester_options;

/* What one run did and found. */
typedef struct sc_tester_report {
    uint32_t ctas, threads_per_cta, ops_per_thread, arena_words;
    uint64_t operations;          /* generated operations, every kind */
    uint64_t value_checks;        /* GPU-side checks: loads, lock sections, counters, mailbox data */
    uint64_t peeks, peeks_seen;   /* mailbox peeks, and those that found the message */
    uint64_t lock_sections, lock_spins;
    uint64_t gpu_mismatches;      /* summed over threads */
    uint32_t word_mismatches;     /* final arena words that differ from the host's */
} sc_tester_report;

/* Generates the program, runs it on `device` and checks it. Returns -1 only when the run itself
 * failed (deadlock, watchdog, bad PTX); a wrong value fails `check`. */
int sc_tester_run(sc_device *device, const sc_tester_options *options, sc_tester_report *report,
                  sc_check_result *check, sc_error *error);

const char *sc_tester_variant_name(sc_tester_variant variant);
int sc_tester_variant_parse(const char *text, sc_tester_variant *variant);
/* Parses a comma list of family names (own, ld-st, exch, locks, counters, mailboxes, fences)
 * into sc_tester_family bits; -1 on an unknown name. */
int sc_tester_families_parse(const char *list, uint32_t *families);

#endif
