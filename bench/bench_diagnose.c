/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bench_diagnose.c -- `make bench` section 5: `bitsift diagnose` on a
 * capture of 1 M packets with a planted drift, start to finish (reading,
 * sampling, the candidate search, the report), in CPU seconds.
 *
 *   bench_diagnose TOP_BUILDDIR TOP_SRCDIR
 *
 * The drift: the writer of examples/shooter.bss raised the armor cap of a
 * player from int(0, 100) (7 bits) to int(0, 250) (8 bits). bench/shooter-drift-1m.pcap (in the build
 * directory, about 0.2 GB) is written on first use with that schema by
 * the encoder: 16384 distinct packets (bench_packets.c), cycled. The
 * result is checked too: the planted change must rank first.
 *
 * The second row: diagnose when 256 packet types fail (8 fields each,
 * about 20 packets per type), the input made on first use by
 * tests/diagnose/make-many-types.sh in bench/many-types-256; the search
 * must stay within 10 s of CPU (it grew with the cube of the types when
 * each candidate compiled the whole schema: 518 s).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench_capture.h"
#include "bench_packets.h"
#include "bench_util.h"

#define ROW "diagnose, 1 M packets, planted drift"
#define PLANT_FROM "int(0, 100) armor"
#define PLANT_TO "int(0, 250) armor"

static char *read_text(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    char *buf = f ? malloc(BITSIFT_SCHEMA_MAX_TEXT + 1) : NULL;
    size_t n = buf ? fread(buf, 1, BITSIFT_SCHEMA_MAX_TEXT, f) : 0;
    if (f)
        fclose(f);
    if (buf)
        buf[n] = 0;
    *size = n;
    return buf;
}

/* The capture, written when missing or older than the schema or this
 * program. */
static bool make_capture(const char *schema_path, const char *self, const char *cap)
{
    struct stat c, s, p;
    if (stat(cap, &c) == 0 && stat(schema_path, &s) == 0 && stat(self, &p) == 0 &&
        c.st_mtime >= s.st_mtime && c.st_mtime >= p.st_mtime)
        return true;
    size_t size;
    char *text = read_text(schema_path, &size);
    char *at = text ? strstr(text, PLANT_FROM) : NULL;
    if (!at) {
        fprintf(stderr, "bench_diagnose: %s has no '%s' to drift\n", schema_path, PLANT_FROM);
        free(text);
        return false;
    }
    size_t n = size - strlen(PLANT_FROM) + strlen(PLANT_TO);
    char *drifted = malloc(n + 1);
    if (!drifted)
        return false;
    size_t head = (size_t)(at - text);
    memcpy(drifted, text, head);
    memcpy(drifted + head, PLANT_TO, strlen(PLANT_TO));
    memcpy(drifted + head + strlen(PLANT_TO), at + strlen(PLANT_FROM),
           size - head - strlen(PLANT_FROM));
    drifted[n] = 0;
    bitsift_schema_error err;
    bitsift_schema *s2 = bitsift_schema_compile(drifted, n, "drifted shooter.bss", &err);
    free(text);
    free(drifted);
    if (!s2) {
        fprintf(stderr, "bench_diagnose: %s\n", err.message);
        return false;
    }
    struct bench_packets packets;
    char why[256];
    bool ok = bench_packets_make(s2, 16384, 0x6472696674ull, bench_shooter_weights(s2), &packets,
                                 why, sizeof why);
    if (!ok)
        fprintf(stderr, "bench_diagnose: %s\n", why);
    fprintf(stderr, "bench_diagnose: generating %s\n", cap);
    ok = ok && bench_write_capture(cap, &packets, 1000000);
    if (ok)
        bench_packets_free(&packets);
    bitsift_schema_free(s2);
    return ok;
}

#define MANY_ROW "diagnose, 256 failing types"

/* The row of many failing types. */
static int many_types(const char *bitsift, const char *builddir, const char *srcdir)
{
    char dir[3000], script[4096], schema[4096], packets[4096], out[4096], cmd[16384];
    snprintf(dir, sizeof dir, "%s/bench/many-types-256", builddir);
    snprintf(script, sizeof script, "%s/tests/diagnose/make-many-types.sh", srcdir);
    snprintf(schema, sizeof schema, "%s/schema.bss", dir);
    snprintf(packets, sizeof packets, "%s/packets", dir);
    snprintf(out, sizeof out, "%s/diagnose.txt", dir);
    if (access(script, R_OK) != 0) {
        bench_row_na("5", MANY_ROW, "n/a (needs tests/diagnose/make-many-types.sh)");
        return 0;
    }
    if (access(schema, R_OK) != 0) {
        fprintf(stderr, "bench_diagnose: generating %s\n", dir);
        snprintf(cmd, sizeof cmd, "rm -rf '%s' && sh '%s' 256 '%s' '%s/src/bitsift'", dir, script,
                 dir, builddir);
        if (system(cmd) != 0) {
            fprintf(stderr, "bench_diagnose: %s failed\n", script);
            return 1;
        }
    }
    char *args[] = {(char *)bitsift, "diagnose", "-s", schema, packets, NULL};
    double cpu[3];
    for (int round = 0; round < 3; round++) {
        struct bench_child r = bench_run_child_to(args, out);
        if (r.status != 1) {
            fprintf(stderr, "bench_diagnose: diagnose of many types exited with %d\n", r.status);
            return 1;
        }
        cpu[round] = r.cpu_seconds;
    }
    bench_row("5", MANY_ROW, bench_median(cpu, 3), "s CPU", NULL, 0, 0, "<=", 10.0);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: bench_diagnose TOP_BUILDDIR TOP_SRCDIR\n");
        return 2;
    }
    char bitsift[4096], schema[4096], cap[4096], out[4096], self[4096];
    snprintf(bitsift, sizeof bitsift, "%s/src/bitsift", argv[1]);
    snprintf(schema, sizeof schema, "%s/examples/shooter.bss", argv[2]);
    snprintf(cap, sizeof cap, "%s/bench/shooter-drift-1m.pcap", argv[1]);
    snprintf(out, sizeof out, "%s/bench/diagnose-1m.json", argv[1]);
    ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
    self[len > 0 ? len : 0] = '\0';
    if (access(bitsift, X_OK) != 0 || access(schema, R_OK) != 0) {
        bench_row_na("5", ROW, "n/a (needs src/bitsift and examples/shooter.bss)");
        return 0;
    }
    char real[4096];
    snprintf(real, sizeof real, "%s/src/.libs/bitsift", argv[1]);
    if (access(real, X_OK) == 0) {
        snprintf(bitsift, sizeof bitsift, "%s", real);
        bench_child_library_path(argv[1]);
    }
    if (!make_capture(schema, self, cap))
        return 1;
    /* A run takes seconds: three rounds give a median. */
    char *args[] = {bitsift, "diagnose", "-F", "json", "-s", schema, cap, NULL};
    double cpu[3], rss = 0;
    for (int round = 0; round < 3; round++) {
        struct bench_child r = bench_run_child_to(args, out);
        /* 1: packets failed, which is the point. */
        if (r.status != 1) {
            fprintf(stderr, "bench_diagnose: diagnose exited with %d\n", r.status);
            return 1;
        }
        cpu[round] = r.cpu_seconds;
        rss = r.max_rss_mib > rss ? r.max_rss_mib : rss;
    }
    size_t size;
    char *json = read_text(out, &size);
    const char *first = json ? strstr(json, "{\"rank\":1,") : NULL;
    const char *want = "{\"rank\":1,\"tied\":false,\"family\":\"range\"";
    bool found = first && strncmp(first, want, strlen(want)) == 0 &&
                 strstr(first, "players[].armor: 7 -> 8 bits") != NULL;
    free(json);
    if (!found) {
        fprintf(stderr, "bench_diagnose: the planted drift did not rank first alone; see %s\n",
                out);
        return 1;
    }
    bench_row("5", ROW, bench_median(cpu, 3), "s CPU", NULL, 0, 0, "<=", 60.0);
    bench_row("5", "diagnose peak RSS, 1 M packets", rss, "MiB", NULL, 0, 0, "<=", 512.0);
    return many_types(bitsift, argv[1], argv[2]);
}
