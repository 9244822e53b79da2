/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * error_tally.c -- the tally of valid packets and of errors by kind that
 * validate, stats and diagnose keep (bitsift/error_tally.h).
 */
#define BITSIFT_EXPERIMENTAL 1 /* this file implements the experimental API */
#include "bitsift/error_tally.h"

void bitsift_error_tally_valid(bitsift_error_tally *t)
{
    t->packets++;
    t->valid++;
}

void bitsift_error_tally_invalid(bitsift_error_tally *t, bitsift_error kind)
{
    t->packets++;
    t->invalid++;
    if ((unsigned)kind < BITSIFT_ERROR_COUNT)
        t->by_kind[kind]++;
}
