/* load_misses.h — how a group's read instructions miss the L1 together, and what that costs at
 * the CU's NoC port in (issue 23 item 4, session 27; docs/calibration.md).
 *
 * A read instruction's lines do not miss the L1 independently: a point load of kmeans asks for
 * 32 lines that miss all at once or not at all. The profile counts, at the configured L1, the
 * loads with a line missing and their missing lines (profile.h: l1_missing_loads,
 * l1_missing_load_lines); the model groups a mechanism's lines beyond the L1 into missing reads
 * the same way, and a missing read's J answers that the L2 hits, which reach the CU's port
 * together, leave it one message apart: the j-th (j - 1) message cycles after the first,
 * (J - 1) / 2 on average, which each line holds its MSHR for beyond its trip. The profile also counts the busiest CU's missing
 * lines (busiest_cu_l1_missing_lines): the CU whose CTAs miss more than the mean (kmeans at 7 CUs:
 * 3 CTAs' points in an 8 KiB L1 against 2) sends more lines per instruction through its MSHRs and
 * its port than the GPU's mean. No fitted parameter: the lines come from the profile, the message
 * cycles from noc.bytes_per_cycle and the line and header sizes. */
#ifndef SYNCSCOPE_MODEL_LOAD_MISSES_H
#define SYNCSCOPE_MODEL_LOAD_MISSES_H

#include "model/profile.h"

/* P(at least one of k independent lines, each missing with probability m, misses). */
double load_misses_any_of(double miss_ratio, double lines_per_instruction);

/* Sets the group terms load_misses reads from a profile group: its reads with a line beyond the
 * configured L1 (weak loads it misses, strong loads and atomics), their lines, and the busiest
 * CU's missing lines per instruction against the GPU's. */
void load_misses_prepare(const model_kernel_profile *k, model_group_terms *terms);

/* Of `reads` read instructions of `lines` line requests, those with a line beyond the L1 when
 * `beyond` lines are: the profile's missing reads scaled to `beyond` where it misses no more
 * lines than the profiled L1, and beyond that its missing reads plus the other reads, whose other
 * lines miss independently; without profiled misses every line misses independently. */
double load_misses_reads(const model_group_terms *terms, double reads, double lines, double beyond);

/* The mean cycles a missing read's line waits at the CU's port for the answers of its own read
 * ahead of it: (J - 1) / 2 messages of `message_cycles` for the J of its lines that reach the port
 * together, its `l2_hit_share` of lines per missing read that the L2 answers at one latency (the
 * memory side's answers come at its channels' pace: spmv on qr-apu at a 64 KiB L2, whose misses
 * all come from DRAM, would be up to 20% too slow with all its lines). */
double load_misses_port_wait(double lines_per_missing_read, double l2_hit_share, double message_cycles);

/* The missing lines per instruction of the CUs holding fewer CTAs against the GPU's mean, when
 * `busiest_cus` of the CUs are the busiest (group terms: busiest_miss_share); 1 when unknown. */
double load_misses_fewer_share(const model_kernel_profile *k, double busiest_cus);

/* A CU's share of the lines beyond the L1 against the GPU's mean, when `profiled_share` is its
 * share of the configured L1's `l1_missing_lines` (the busiest or a fewer-CTA CU) among the
 * group's read `lines`, and the mechanism sends `beyond_lines` beyond the L1. Every CU runs the
 * same code, so its lines per instruction are the mean's: it misses profiled_share times the
 * mean's misses and hits the rest, and the mechanism sends beyond the L1 the same share of every
 * CU's hits (nol1: all of them, so every CU's share is 1; kmeans at 7 CUs on qr-apu: the busiest
 * CU misses an 8 KiB L1 2.29 times as often as the mean, but under nol1 has no L1 to miss). */
double load_misses_beyond_share(double profiled_share, double l1_missing_lines, double lines, double beyond_lines);

#endif
