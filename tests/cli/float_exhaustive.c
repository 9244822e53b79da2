/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * float_exhaustive.c -- compare format_float32 with the printf loop it
 * replaced (float_oracle.c) on every float32 bit pattern of a range:
 *
 *   tests/cli/float-exhaustive [FIRST [LAST [STEP]]]   (hex bit patterns,
 *                                   default 0 .. ffffffff; STEP: every
 *                                   STEP-th pattern, default 1)
 *
 * Not part of make check: all 2^32 patterns take hours (the oracle costs a
 * microsecond or two each). Run ranges in parallel to use several cores.
 * Prints progress on stderr, the mismatches (up to 20) and a summary on
 * stdout; exits 1 when any pattern differs.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "print/float_format.h"
#include "float_oracle.h"

static uint64_t parse_bits(const char *text)
{
    char *end;
    unsigned long long v = strtoull(text, &end, 16);
    if (end == text || *end || v > 0xffffffffu) {
        fprintf(stderr, "float-exhaustive: bad bit pattern \"%s\"\n", text);
        exit(2);
    }
    return v;
}

int main(int argc, char **argv)
{
    uint64_t first = argc > 1 ? parse_bits(argv[1]) : 0;
    uint64_t last = argc > 2 ? parse_bits(argv[2]) : 0xffffffffu;
    uint64_t step = argc > 3 ? parse_bits(argv[3]) : 1;
    if (step == 0)
        step = 1;
    uint64_t mismatches = 0, compared = 0;
    for (uint64_t b = first; b <= last; b += step) {
        uint32_t bits = (uint32_t)b;
        float v;
        memcpy(&v, &bits, sizeof v);
        char got[48], want[48];
        size_t got_len = format_float32(got, v);
        size_t want_len = oracle_format_float32(want, v);
        if (got_len != want_len || strcmp(got, want) != 0) {
            if (mismatches++ < 20)
                printf("0x%08x: \"%s\", printf loop \"%s\"\n", bits, got, want);
        }
        compared++;
        if ((bits & 0xffffff) < step && bits > first)
            fprintf(stderr, "float-exhaustive: at 0x%08x, %llu mismatches so far\n", bits,
                    (unsigned long long)mismatches);
    }
    printf("float-exhaustive: 0x%08llx..0x%08llx: %llu patterns compared, %llu mismatches\n",
           (unsigned long long)first, (unsigned long long)last, (unsigned long long)compared,
           (unsigned long long)mismatches);
    return mismatches ? 1 : 0;
}
