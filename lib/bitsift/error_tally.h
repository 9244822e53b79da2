/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bitsift/error_tally.h -- how many packets were checked, how many were
 * valid, and how many failed with each error kind (man bitsift-diagnose.3).
 * The counting only: a program prints the tally as it likes.
 */
#ifndef BITSIFT_ERROR_TALLY_H
#define BITSIFT_ERROR_TALLY_H

#ifndef BITSIFT_EXPERIMENTAL
#error "<bitsift/error_tally.h> is experimental: its API may change between releases; #define BITSIFT_EXPERIMENTAL before including it"
#endif

#include <stdint.h>

#include "bits.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Zero-initialise it ({0} or memset) before the first packet. */
typedef struct bitsift_error_tally {
    uint64_t packets, valid, invalid;
    uint64_t by_kind[BITSIFT_ERROR_COUNT]; /* invalid packets by bitsift_error */
} bitsift_error_tally;

/* One more packet, valid or refused with `kind` (a kind outside the enum
 * is counted as invalid, under no kind). Inline: validate counts every
 * packet, and a call into the shared library per packet is measurable on
 * its fast path. */
static inline void bitsift_error_tally_valid(bitsift_error_tally *t)
{
    t->packets++;
    t->valid++;
}

static inline void bitsift_error_tally_invalid(bitsift_error_tally *t, bitsift_error kind)
{
    t->packets++;
    t->invalid++;
    if ((unsigned)kind < BITSIFT_ERROR_COUNT)
        t->by_kind[kind]++;
}

#ifdef __cplusplus
}
#endif

#endif /* BITSIFT_ERROR_TALLY_H */
