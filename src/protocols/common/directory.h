/* directory.h — the full-map directory at the L2 banks, a building block of ownership protocols
 * (rfo, and MESI next): it runs the protocol's directory table (sc_protocol.dir_table) on a
 * blocking, full-map directory slice at each bank, whose home is the bank's L2.
 *
 * Its functions are the protocol hooks of such a protocol (protocol_hooks.h): build gives every
 * bank a directory slice (and makes the L2 write-back); check_config needs an L1, at most
 * DIRECTORY_MAX_CUS CUs and a directory set per bank; bank_receive handles a message at the bank
 * (1 handled, 0 a request must wait for a transaction, a directory way or an L2 MSHR, -1 a
 * protocol error); home_data takes the home's data for a request that reached the L2 (a hit, or
 * a fill from the memory side); handle_event runs its home-data events; host_access writes the
 * owners' dirty data to the image and, after a write, forgets the lines; warm_finish forgets
 * every entry. DIRECTORY_HOOKS lists them for a protocol's hooks table, with its own build
 * (one that calls directory_build); directory_counters are the metrics such a protocol reports. */
#ifndef SYNCSCOPE_PROTOCOLS_COMMON_DIRECTORY_H
#define SYNCSCOPE_PROTOCOLS_COMMON_DIRECTORY_H

#include "timing/memory_internal.h"

void directory_build(memory_system *memory);
void directory_destroy_all(memory_system *memory);
int directory_check_config(const memory_config *config, const char *mechanism, sc_error *error);
int directory_receive(memory_system *memory, unsigned bank, uint32_t handle, sc_time now, sc_error *error);
void directory_home_filled(memory_system *memory, unsigned bank, uint32_t handle, const uint8_t *data,
                           gsi_source source, sc_time when);
int directory_handle_event(memory_system *memory, const timing_event *event, sc_error *error);
void directory_host_access(memory_system *memory, uint64_t start, uint64_t end, bool is_write);
void directory_warm_finish(memory_system *memory);

/* The hooks of a protocol whose directory is this block, built by `build_hook`. */
#define DIRECTORY_HOOKS(build_hook)                                                                 \
    {                                                                                               \
        .build = (build_hook), .destroy = directory_destroy_all, .check_config = directory_check_config, \
        .bank_receive = directory_receive, .home_data = directory_home_filled,                      \
        .handle_event = directory_handle_event, .host_access = directory_host_access,               \
        .warm_finish = directory_warm_finish,                                                       \
    }

/* The directory's and the owning L1s' counters (memory_stats), as the protocol's metrics. */
#define DIRECTORY_COUNTER_COUNT 8
extern const protocol_counter directory_counters[DIRECTORY_COUNTER_COUNT];

#endif
