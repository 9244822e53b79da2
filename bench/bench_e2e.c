/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bench_e2e.c -- section 4 of `make bench`: the `bitsift` command end to
 * end on a capture of 1,000,000 UDP packets of the bundled snapshot
 * protocol, against a bare libpcap loop (bench/pcap_loop) over the same
 * file, and the peak memory of `bitsift validate` on 1 M and 4 M packets.
 *
 *   bench_e2e TOP_BUILDDIR TOP_SRCDIR
 *
 * The captures (bench/shooter-1m.pcap, bench/shooter-4m.pcap in the build
 * directory; about 0.2 and 0.8 GB) are generated on first use, and again
 * whenever the schema, this program or the library is newer: 16384
 * distinct valid packets (bench_packets.c) behind Ethernet/IPv4/UDP
 * headers, cycled. Before the rounds, the 1 M-packet capture's pages are
 * settled in the page cache (settle_page_cache). Each command runs as a
 * child process with its output to /dev/null; its time is the CPU time
 * (user + system) wait4 reports, which the other jobs on a shared machine
 * disturb less than wall time, and its peak memory is ru_maxrss.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench_capture.h"
#include "bench_packets.h"
#include "bench_util.h"

#define DISTINCT_PACKETS 16384

/*
 * Put the capture's pages in the page cache as reading a recorded capture
 * from disk leaves them: written back, dropped, and read once in order, so
 * that readahead holds them in large folios. How the pages sit moves the
 * end-to-end ratios (libpcap copies the file in 4 KiB reads, bitsift maps
 * it): on a file just written in small pieces the bare loop measured 12.5
 * M packets/s, on the same file read back 14.5-15.2 M. Every run starts
 * from this state, whatever happened to the file before. Best effort: a
 * failure only leaves the cache as it was.
 */
static void settle_page_cache(const char *path)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return;
    (void)fdatasync(fd);
#ifdef POSIX_FADV_DONTNEED
    (void)posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
#endif
    static char buffer[1 << 20];
    while (read(fd, buffer, sizeof buffer) > 0)
        ;
    close(fd);
}

static double mtime_of(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return -1;
    return (double)st.st_mtim.tv_sec + st.st_mtim.tv_nsec * 1e-9;
}

/* Whether `path` must be (re)generated: missing, or older than one of the
 * inputs it is made from. */
static bool stale(const char *path, const char *const *inputs, size_t n)
{
    double t = mtime_of(path);
    if (t < 0)
        return true;
    for (size_t i = 0; i < n; i++)
        if (mtime_of(inputs[i]) > t)
            return true;
    return false;
}

static unsigned e2e_reps(void)
{
    const char *s = getenv("BENCH_E2E_REPS");
    long n = s ? strtol(s, NULL, 10) : 5;
    return n < 1 ? 1 : n > 64 ? 64 : (unsigned)n;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: bench_e2e TOP_BUILDDIR TOP_SRCDIR\n");
        return 2;
    }
    char bitsift[4096], loop[4096], schema[4096], cap1[4096], cap4[4096], lib[4096], self[4096];
    snprintf(bitsift, sizeof bitsift, "%s/src/bitsift", argv[1]);
    snprintf(loop, sizeof loop, "%s/bench/pcap_loop", argv[1]);
    snprintf(schema, sizeof schema, "%s/examples/shooter.bss", argv[2]);
    snprintf(cap1, sizeof cap1, "%s/bench/shooter-1m.pcap", argv[1]);
    snprintf(cap4, sizeof cap4, "%s/bench/shooter-4m.pcap", argv[1]);
    snprintf(lib, sizeof lib, "%s/lib/.libs/libbitsift.so", argv[1]);
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    self[n > 0 ? n : 0] = '\0';

    if (access(bitsift, X_OK) != 0 || access(schema, R_OK) != 0) {
        const char *why = access(bitsift, X_OK) != 0 ? "n/a (needs src/bitsift)"
                                                      : "n/a (needs examples/shooter.bss)";
        bench_row_na("4", "validate, 1 M packets", why);
        bench_row_na("4", "decode --format json, 1 M packets", why);
        bench_row_na("4", "validate peak RSS, 4 M packets", why);
        return 0;
    }

    /* In a build tree src/bitsift is a libtool wrapper script whose shell
     * costs about 0.1 s of CPU per run, which the bare loop does not pay:
     * run the real program behind it instead. */
    char real[4096];
    snprintf(real, sizeof real, "%s/src/.libs/bitsift", argv[1]);
    if (access(real, X_OK) == 0) {
        snprintf(bitsift, sizeof bitsift, "%s", real);
        bench_child_library_path(argv[1]);
    }

    const char *inputs[] = {schema, self, lib};
    if (stale(cap1, inputs, 3) || stale(cap4, inputs, 3)) {
        bitsift_schema *s = bench_schema_load(schema);
        struct bench_packets p;
        char err[256];
        if (!s || !bench_packets_make(s, DISTINCT_PACKETS, 0x63617074ull, bench_shooter_weights(s),
                                      &p, err, sizeof err)) {
            if (s)
                fprintf(stderr, "bench_e2e: %s\n", err);
            return 1;
        }
        fprintf(stderr, "bench_e2e: generating %s and %s\n", cap1, cap4);
        if (!bench_write_capture(cap1, &p, 1000000) || !bench_write_capture(cap4, &p, 4000000))
            return 1;
        bench_packets_free(&p);
        bitsift_schema_free(s);
    }

    settle_page_cache(cap1);

    char *loop_argv[] = {loop, cap1, NULL};
    char *validate_argv[] = {bitsift, "validate", "-q", "-s", schema, cap1, NULL};
    char *decode_argv[] = {bitsift, "decode", "-s", schema, "--format", "json", cap1, NULL};
    char *validate4_argv[] = {bitsift, "validate", "-q", "-s", schema, cap4, NULL};

    unsigned reps = e2e_reps();
    double base[64], validate[64], decode[64], r_validate[64], r_decode[64], rss1[64];
    for (unsigned round = 0; round < reps; round++) {
        struct bench_child a = bench_run_child(loop_argv), b = bench_run_child(validate_argv),
                           c = bench_run_child(decode_argv);
        if (a.status != 0 || b.status != 0 || c.status != 0) {
            fprintf(stderr,
                    "bench_e2e: a run failed (pcap_loop %d, validate %d, decode %d);"
                    " run them by hand on %s\n",
                    a.status, b.status, c.status, cap1);
            return 1;
        }
        base[round] = 1e6 / a.cpu_seconds;
        validate[round] = 1e6 / b.cpu_seconds;
        decode[round] = 1e6 / c.cpu_seconds;
        r_validate[round] = validate[round] / base[round];
        r_decode[round] = decode[round] / base[round];
        rss1[round] = b.max_rss_mib;
    }
    /* Peak memory on 4 M packets: twice is enough, it does not vary. */
    double rss4[2];
    for (int i = 0; i < 2; i++) {
        struct bench_child d = bench_run_child(validate4_argv);
        if (d.status != 0) {
            fprintf(stderr, "bench_e2e: validate of %s exited with %d\n", cap4, d.status);
            return 1;
        }
        rss4[i] = d.max_rss_mib;
    }
    double b = bench_median(base, reps);
    bench_row("4", "validate, 1 M packets", bench_median(validate, reps), "packets/s",
              "bare libpcap pcap_next_ex loop", b, bench_median(r_validate, reps), ">=", 0.5);
    bench_row("4", "decode --format json, 1 M packets", bench_median(decode, reps), "packets/s",
              "bare libpcap pcap_next_ex loop", b, bench_median(r_decode, reps), ">=", 0.15);
    double m1 = bench_median(rss1, reps), m4 = rss4[0] > rss4[1] ? rss4[0] : rss4[1];
    bench_row("4", "validate peak RSS, 4 M packets", m4, "MiB", "validate, 1 M packets", m1,
              m4 / m1, "<=", 1.10);
    bench_row("4", "validate peak RSS, 4 M packets", m4, "MiB", NULL, 0, 0, "<=", 16.0);
    return 0;
}
