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
#include <pcap.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench_packets.h"
#include "bench_util.h"

#define DISTINCT_PACKETS 16384
#define SERVER_PORT      40000
#define CLIENT_PORT      50000

/* The frame in front of every payload:
 *
 *   0      6      12   14                          34         42
 *   +------+------+----+---------------------------+----------+---------
 *   | dst  | src  |0800| IPv4, 20 bytes, no options | UDP, 8 B | payload
 *   +------+------+----+---------------------------+----------+---------
 */
enum { ETH_LEN = 14, IP_LEN = 20, UDP_LEN = 8, HEADERS = ETH_LEN + IP_LEN + UDP_LEN };

static void put16(uint8_t *p, unsigned v)
{
    p[0] = (uint8_t)(v >> 8);
    p[1] = (uint8_t)v;
}

static void make_headers(uint8_t *f, size_t payload)
{
    static const uint8_t dst[6] = {0x02, 0, 0, 0, 0, 0x01}, src[6] = {0x02, 0, 0, 0, 0, 0x02};
    memcpy(f, dst, 6);
    memcpy(f + 6, src, 6);
    put16(f + 12, 0x0800);
    uint8_t *ip = f + ETH_LEN;
    memset(ip, 0, IP_LEN);
    ip[0] = 0x45;
    put16(ip + 2, (unsigned)(IP_LEN + UDP_LEN + payload));
    ip[8] = 64;
    ip[9] = 17; /* UDP */
    static const uint8_t client[4] = {10, 0, 0, 2}, server[4] = {10, 0, 0, 1};
    memcpy(ip + 12, server, 4);
    memcpy(ip + 16, client, 4);
    uint32_t sum = 0;
    for (int i = 0; i < IP_LEN; i += 2)
        sum += (uint32_t)ip[i] << 8 | ip[i + 1];
    while (sum >> 16)
        sum = (sum & 0xffff) + (sum >> 16);
    put16(ip + 10, ~sum & 0xffff);
    uint8_t *udp = ip + IP_LEN;
    put16(udp, SERVER_PORT);
    put16(udp + 2, CLIENT_PORT);
    put16(udp + 4, (unsigned)(UDP_LEN + payload));
    put16(udp + 6, 0); /* no checksum (allowed over IPv4) */
}

static bool write_capture(const char *path, const struct bench_packets *p, size_t packets)
{
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    pcap_t *dead = pcap_open_dead(DLT_EN10MB, 65535);
    pcap_dumper_t *d = dead ? pcap_dump_open(dead, tmp) : NULL;
    if (!d) {
        fprintf(stderr, "bench_e2e: cannot write %s: %s\n", tmp,
                dead ? pcap_geterr(dead) : "pcap_open_dead failed");
        if (dead)
            pcap_close(dead);
        return false;
    }
    uint8_t frame[HEADERS + 65536];
    for (size_t i = 0; i < packets; i++) {
        size_t k = i % p->count, size = p->size[k];
        make_headers(frame, size);
        memcpy(frame + HEADERS, p->data + p->offset[k], size);
        /* A 60 Hz game: one packet every 1/60 s. */
        struct pcap_pkthdr h;
        h.ts.tv_sec = (time_t)(1700000000 + i / 60);
        h.ts.tv_usec = (suseconds_t)(i % 60 * 16666);
        h.caplen = h.len = (bpf_u_int32)(HEADERS + size);
        pcap_dump((u_char *)d, &h, frame);
    }
    bool ok = pcap_dump_flush(d) == 0;
    pcap_dump_close(d);
    pcap_close(dead);
    if (!ok || rename(tmp, path) != 0) {
        fprintf(stderr, "bench_e2e: cannot write %s\n", path);
        unlink(tmp);
        return false;
    }
    return true;
}

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

struct child_run {
    int status; /* exit status, -1 when it did not exit normally */
    double cpu_seconds;
    double max_rss_mib;
};

/* Where the uninstalled library is, for running the real executable
 * behind a libtool wrapper script ("" when not needed). */
static char child_library_path[4096];

/* Run argv[0] with stdout (and stdin) on /dev/null; stderr stays. */
static struct child_run run_child(char *const argv[])
{
    struct child_run r = {-1, 0, 0};
    pid_t pid = fork();
    if (pid < 0) {
        perror("bench_e2e: fork");
        return r;
    }
    if (pid == 0) {
        if (child_library_path[0])
            setenv("LD_LIBRARY_PATH", child_library_path, 1);
        int null = open("/dev/null", O_RDWR);
        if (null >= 0) {
            dup2(null, STDIN_FILENO);
            dup2(null, STDOUT_FILENO);
        }
        execv(argv[0], argv);
        fprintf(stderr, "bench_e2e: cannot run %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    int status;
    struct rusage ru;
    if (wait4(pid, &status, 0, &ru) != pid)
        return r;
    r.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r.cpu_seconds = (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec * 1e-6 +
                    (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec * 1e-6;
    r.max_rss_mib = (double)ru.ru_maxrss / 1024.0; /* kilobytes on Linux */
    return r;
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
        snprintf(child_library_path, sizeof child_library_path, "%s/lib/.libs", argv[1]);
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
        if (!write_capture(cap1, &p, 1000000) || !write_capture(cap4, &p, 4000000))
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
        struct child_run a = run_child(loop_argv), b = run_child(validate_argv),
                         c = run_child(decode_argv);
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
        struct child_run d = run_child(validate4_argv);
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
