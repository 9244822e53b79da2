/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bench_capture.h -- what the end-to-end benchmarks share: writing a set
 * of packets as a pcap capture (Ethernet/IPv4/UDP, cycled to any length),
 * and running the bitsift command as a child whose CPU time and peak
 * memory are measured.
 */
#ifndef BENCH_CAPTURE_H
#define BENCH_CAPTURE_H

#include <stdbool.h>
#include <stddef.h>

#include "bench_packets.h"

/* `packets` frames cycling through p's packets, one every 1/60 s, written
 * beside `path` and renamed into place. False (with a message) on error. */
bool bench_write_capture(const char *path, const struct bench_packets *p, size_t packets);

struct bench_child {
    int status; /* exit status, -1 when it did not exit normally */
    double cpu_seconds;
    double max_rss_mib;
};

/* Children run with LD_LIBRARY_PATH=TOP_BUILDDIR/lib/.libs: for the real
 * program behind a libtool wrapper script. */
void bench_child_library_path(const char *top_builddir);

/* Run argv[0] with stdout (and stdin) on /dev/null; stderr stays. */
struct bench_child bench_run_child(char *const argv[]);
/* The same with stdout into the file `output` (NULL: /dev/null). */
struct bench_child bench_run_child_to(char *const argv[], const char *output);

#endif /* BENCH_CAPTURE_H */
