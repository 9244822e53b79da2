/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bench_crc.c -- section 2 of `make bench`: the library's CRC32 against
 * zlib's crc32() on a small packet (64 B), a full-MTU packet (1200 B) and a
 * large buffer (1 MiB). Each call checksums a different slice of a 4 MiB
 * random pool (as a capture would), and both implementations must agree.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"
#include "bitsift.h"

#ifdef BENCH_HAVE_ZLIB
#include <zlib.h>
#endif

#define POOL_BYTES (4u << 20)

typedef uint32_t crc_fn(const uint8_t *p, size_t n);

static uint32_t crc_bitsift(const uint8_t *p, size_t n)
{
    return bitsift_crc32(0, p, n);
}

#ifdef BENCH_HAVE_ZLIB
static uint32_t crc_zlib(const uint8_t *p, size_t n)
{
    return (uint32_t)crc32(0, p, (uInt)n);
}
#endif

/* Bytes per second over `bytes` bytes in calls of `size` bytes. */
static __attribute__((noinline)) double measure(crc_fn *fn, const uint8_t *pool, size_t size,
                                                size_t bytes, uint64_t *check)
{
    size_t calls = bytes / size, slots = (POOL_BYTES - size) / size + 1;
    uint64_t acc = 0, t0 = bench_thread_cpu_ns();
    for (size_t i = 0; i < calls; i++)
        acc += fn(pool + (i % slots) * size, size);
    uint64_t t1 = bench_thread_cpu_ns();
    *check = acc;
    return (double)calls * size / ((double)(t1 - t0 + 1) * 1e-9);
}

int main(void)
{
    static const size_t sizes[] = {64, 1200, 1u << 20};
    static const double targets[] = {5.0, 3.0, 0};
    static const char *names[] = {"crc32 64 B", "crc32 1200 B", "crc32 1 MiB"};
    char what[64];

    if (bitsift_crc32(0, "123456789", 9) != 0xCBF43926u) {
        fprintf(stderr, "bench_crc: bitsift_crc32 fails its check value\n");
        return 1;
    }
#ifndef BENCH_HAVE_ZLIB
    for (size_t s = 0; s < 3; s++)
        bench_row_na("2", names[s], "n/a (needs zlib)");
    return 0;
#else
    uint8_t *pool = malloc(POOL_BYTES);
    if (!pool)
        return 1;
    uint64_t seed = 0x637263; /* "crc" */
    bench_random_bytes(&seed, pool, POOL_BYTES);

    unsigned reps = bench_reps();
    for (size_t s = 0; s < 3; s++) {
        double ours[64], zlib[64], ratio[64];
        /* ~64 MiB per measurement: a few ms with either implementation. */
        size_t bytes = 64u << 20;
        for (unsigned round = 0; round < reps; round++) {
            uint64_t a, b;
            ours[round] = measure(crc_bitsift, pool, sizes[s], bytes, &a);
            zlib[round] = measure(crc_zlib, pool, sizes[s], bytes, &b);
            if (a != b) {
                fprintf(stderr, "bench_crc: bitsift and zlib disagree on %zu B\n", sizes[s]);
                return 1;
            }
            ratio[round] = ours[round] / zlib[round];
        }
        snprintf(what, sizeof what, "%s (%s)", names[s], bitsift_crc32_implementation());
        bench_row("2", what, bench_median(ours, reps), "B/s", "zlib crc32()",
                  bench_median(zlib, reps), bench_median(ratio, reps), targets[s] ? ">=" : NULL,
                  targets[s]);
    }
    free(pool);
    return 0;
#endif
}
