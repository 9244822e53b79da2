/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bench_util.c -- clock, medians, random data and the table row format
 * shared by the benchmark programs (see bench_util.h).
 */
#include "bench_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

unsigned bench_reps(void)
{
    const char *s = getenv("BENCH_REPS");
    long n = s ? strtol(s, NULL, 10) : 9;
    if (n < 1)
        n = 1;
    if (n > 64)
        n = 64;
    return (unsigned)n;
}

uint64_t bench_thread_cpu_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double bench_median(const double *v, size_t n)
{
    double copy[64];
    if (n == 0)
        return 0;
    if (n > 64)
        n = 64;
    memcpy(copy, v, n * sizeof *v);
    qsort(copy, n, sizeof *copy, compare_doubles);
    return n % 2 ? copy[n / 2] : (copy[n / 2 - 1] + copy[n / 2]) / 2;
}

uint64_t bench_random(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

void bench_random_bytes(uint64_t *state, uint8_t *p, size_t n)
{
    while (n >= 8) {
        uint64_t v = bench_random(state);
        memcpy(p, &v, 8);
        p += 8;
        n -= 8;
    }
    if (n) {
        uint64_t v = bench_random(state);
        memcpy(p, &v, n);
    }
}

volatile uint64_t bench_sink;

void bench_consume(uint64_t value)
{
    bench_sink ^= value;
}

/* "612.3 M/s" style: rates get an SI prefix, other units are printed as
 * they are. */
static void format_figure(char *buf, size_t size, double v, const char *unit)
{
    size_t len = strlen(unit);
    if (len >= 2 && strcmp(unit + len - 2, "/s") == 0) {
        const char *prefix = "";
        if (v >= 1e9) {
            v /= 1e9;
            prefix = "G";
        } else if (v >= 1e6) {
            v /= 1e6;
            prefix = "M";
        } else if (v >= 1e3) {
            v /= 1e3;
            prefix = "k";
        }
        snprintf(buf, size, "%.1f %s%s", v, prefix, unit);
    } else {
        snprintf(buf, size, "%.2f %s", v, unit);
    }
}

#define ROW_FORMAT "%-2s %-34s %-17s %-30s %-17s %-7s %s\n"

void bench_header(void)
{
    printf(ROW_FORMAT, "", "benchmark", "bitsift", "baseline (same run)", "baseline", "ratio",
           "target");
    printf(ROW_FORMAT, "--", "---------", "-------", "-------------------", "--------", "-----",
           "------");
}

void bench_row(const char *section, const char *what, double value, const char *unit,
               const char *baseline, double baseline_value, double ratio, const char *target_op,
               double target)
{
    char fig[32], base_fig[32] = "", ratio_text[16] = "", target_text[32] = "";
    format_figure(fig, sizeof fig, value, unit);
    if (baseline) {
        format_figure(base_fig, sizeof base_fig, baseline_value, unit);
        snprintf(ratio_text, sizeof ratio_text, "%.2fx", ratio);
    }
    if (target_op) {
        /* With no baseline the target applies to the figure itself. */
        double checked = baseline ? ratio : value;
        int ok = target_op[0] == '>' ? checked >= target : checked <= target;
        snprintf(target_text, sizeof target_text, "%s %.2f %s", target_op, target,
                 ok ? "ok" : "MISSED");
    }
    printf(ROW_FORMAT, section, what, fig, baseline ? baseline : "", base_fig, ratio_text,
           target_text);
    fflush(stdout);
}

void bench_row_na(const char *section, const char *what, const char *why)
{
    printf(ROW_FORMAT, section, what, why, "", "", "", "");
    fflush(stdout);
}
