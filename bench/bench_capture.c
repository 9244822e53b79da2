/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bench_capture.c -- captures for the end-to-end benchmarks and the runs
 * of the command they time (bench_capture.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <pcap.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench_capture.h"

#define SERVER_PORT 40000
#define CLIENT_PORT 50000

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

bool bench_write_capture(const char *path, const struct bench_packets *p, size_t packets)
{
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    pcap_t *dead = pcap_open_dead(DLT_EN10MB, 65535);
    pcap_dumper_t *d = dead ? pcap_dump_open(dead, tmp) : NULL;
    if (!d) {
        fprintf(stderr, "bench: cannot write %s: %s\n", tmp,
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
        fprintf(stderr, "bench: cannot write %s\n", path);
        unlink(tmp);
        return false;
    }
    return true;
}

/* Where the uninstalled library is, for running the real executable
 * behind a libtool wrapper script ("" when not needed). */
static char child_library_path[4096];

void bench_child_library_path(const char *top_builddir)
{
    snprintf(child_library_path, sizeof child_library_path, "%s/lib/.libs", top_builddir);
}

struct bench_child bench_run_child(char *const argv[])
{
    return bench_run_child_to(argv, NULL);
}

struct bench_child bench_run_child_to(char *const argv[], const char *output)
{
    struct bench_child r = {-1, 0, 0};
    pid_t pid = fork();
    if (pid < 0) {
        perror("bench: fork");
        return r;
    }
    if (pid == 0) {
        if (child_library_path[0])
            setenv("LD_LIBRARY_PATH", child_library_path, 1);
        int null = open("/dev/null", O_RDWR);
        int out = output ? open(output, O_WRONLY | O_CREAT | O_TRUNC, 0644) : null;
        if (null >= 0)
            dup2(null, STDIN_FILENO);
        if (out >= 0)
            dup2(out, STDOUT_FILENO);
        execv(argv[0], argv);
        fprintf(stderr, "bench: cannot run %s: %s\n", argv[0], strerror(errno));
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

