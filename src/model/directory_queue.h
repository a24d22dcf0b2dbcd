/* directory_queue.h — the full-map directory's transactions as a queue at each L2 bank
 * (protocols/common/directory.c): a bank's slice opens at most directory.mshrs / l2.banks
 * transactions, a request holds one from the moment the bank takes it until its grant leaves
 * (its L2 access, and the memory side's or the owner's answer for a miss or a forward), and a
 * request that finds them all open waits at the head of the bank's queue.
 *
 * The requests in a transaction or waiting for one at some bank are the line requests beyond
 * the L1s in flight GPU-wide, each at the bank its line maps to (line index mod banks), so a
 * bank's count K is their spread over the banks: Poisson with mean lambda, the requests per
 * bank. Its busy transactions are min(K, s) (s per bank), and by Little's law their mean is the
 * bank's request rate times the transaction's hold, rho; the rest, E[max(0, K - s)] = lambda -
 * rho, wait, each for (lambda - rho) / rho holds on average. lambda is the root of
 * E[min(K, s)] = rho (which grows to s as lambda grows: the queue's capacity). So the
 * transactions bound the throughput of the ownership fetches and misses at rho < s per bank,
 * and requests wait well below that mean (32 CUs x 32 MSHRs over 64 banks of 16 transactions:
 * a bank holds at most 16 requests on average, but more than 16 at times). No parameter. */
#ifndef SYNCSCOPE_MODEL_DIRECTORY_QUEUE_H
#define SYNCSCOPE_MODEL_DIRECTORY_QUEUE_H

/* The mean cycles a request waits for a transaction at a bank of `servers` transactions (an
 * integer, at least 1), at throughput `throughput` of which each unit sends `rate_per_throughput`
 * requests to each bank per cycle, each holding its transaction `hold` cycles (`hold_slope`: its
 * derivative in the throughput). INFINITY where the bank cannot carry that rate
 * (rate x hold >= servers). Sets *slope to the wait's derivative in the throughput. */
double directory_queue_wait(double throughput, double rate_per_throughput, double hold, double hold_slope,
                            double servers, double *slope);

#endif
