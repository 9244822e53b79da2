/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bench_util.h -- what every benchmark program in bench/ shares: a CPU-time
 * clock, medians, a deterministic random generator, and the one row format
 * of the `make bench` table.
 *
 * The machine the benchmarks run on is shared, so a figure alone drifts:
 * each candidate is measured in rounds interleaved with its baseline (A B A
 * B ...), every figure is the median over the rounds, and the ratio is the
 * median of the per-round ratios, which cancels most of the drift.
 */
#ifndef BENCH_UTIL_H
#define BENCH_UTIL_H

#include <stddef.h>
#include <stdint.h>

/* Repetitions per figure: BENCH_REPS in the environment, default 9. */
unsigned bench_reps(void);

/* CPU time of the calling thread in nanoseconds (time spent descheduled by
 * the other jobs on the machine does not count). */
uint64_t bench_thread_cpu_ns(void);

/* Median of n values (sorts a copy; n <= 64). */
double bench_median(const double *v, size_t n);

/* splitmix64: a fixed seed gives the same data in every run. */
uint64_t bench_random(uint64_t *state);

/* Fill n bytes with random data. */
void bench_random_bytes(uint64_t *state, uint8_t *p, size_t n);

/* Stop the compiler from discarding a result. */
void bench_consume(uint64_t value);

/*
 * One line of the table:
 *   section, what is measured, its median figure and unit,
 *   the baseline's name and median figure (NULL when there is none),
 *   the ratio (candidate / baseline, throughput) and the target for it,
 *   target_op ">=" or "<=" (NULL: no target); without a baseline the
 *   target applies to the figure itself.
 */
void bench_row(const char *section, const char *what, double value, const char *unit,
               const char *baseline, double baseline_value, double ratio, const char *target_op,
               double target);

/* A row for a figure that cannot be measured yet ("n/a (needs ...)"). */
void bench_row_na(const char *section, const char *what, const char *why);

/* The table's header line (printed once by run.sh). */
void bench_header(void);

#endif /* BENCH_UTIL_H */
