/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * relative_tiers.h -- the ladders of the relative encodings, defined once:
 * the library's reader and writer (relative_ints.c), the validation
 * program's one-window readers (schema_validate.c) and the bit sizes of
 * the field-type table (field_types.h) are all made from these lists.
 *
 * A ladder sends a delta d >= 1 as a run of 0s ended by a 1 at tier t,
 * then int(d, min_t, max_t); six 0s mean the last tier:
 *
 *   bit   0 1 ... t   t+1 .. t+width_t
 *         0 0 ... 1   d - min_t
 *
 *   tier          0   1      2      3        4          5
 *   int_relative  1   2..6   7..23  24..280  281..4377  4378..69914
 *                 then the value itself in 32 bits
 *   object index  1   2..5   6..13  14..29   30..61     62..125
 *                 then int(d, 126, max_objects + 1)
 */
#ifndef BITSIFT_RELATIVE_TIERS_H
#define BITSIFT_RELATIVE_TIERS_H

#include "bitsift_internal.h"

/* X(min, max) for each tier, in the order they are sent. */
#define INT_RELATIVE_TIERS(X) X(1, 1) X(2, 6) X(7, 23) X(24, 280) X(281, 4377) X(4378, 69914)
#define OBJECT_INDEX_TIERS(X) X(1, 1) X(2, 5) X(6, 13) X(14, 29) X(30, 61) X(62, 125)

/* Both ladders have six tiers before their last one. */
#define RELATIVE_TIER_COUNT 6
/* int_relative's last tier: the value as 32 bits. */
#define INT_RELATIVE_ABSOLUTE_BITS 32
/* The object index's last tier: int(d, 126, max_objects + 1). */
#define OBJECT_INDEX_LAST_MIN 126

/* bitsift_bits_required(min, max) as a constant expression, for tables. */
#define TIER_WIDTH(min, max) \
    ((max) == (min) ? 0 : 64 - __builtin_clzll((unsigned long long)((max) - (min))))

/* Sizes in bits: the first tier is one bit; the longest int_relative is
 * six 0s and 32 bits; the longest object index six 0s and its last tier
 * (or tier 5, 12 bits, when max_objects is too small to reach it). */
#define INT_RELATIVE_MIN_BITS       1u
#define INT_RELATIVE_MAX_BITS       (RELATIVE_TIER_COUNT + INT_RELATIVE_ABSOLUTE_BITS)
#define OBJECT_INDEX_MIN_BITS       1u
#define OBJECT_INDEX_SHORT_MAX_BITS (RELATIVE_TIER_COUNT + TIER_WIDTH(62, 125))
static inline unsigned object_index_max_bits(int64_t max_objects)
{
    if (max_objects + 1 < OBJECT_INDEX_LAST_MIN)
        return OBJECT_INDEX_SHORT_MAX_BITS;
    return RELATIVE_TIER_COUNT + bitsift_bits_required(OBJECT_INDEX_LAST_MIN, max_objects + 1);
}
/* ack_relative: a bool, then int(sequence - ack, 1, 64) or the ack as 16
 * bits. */
#define ACK_RELATIVE_MIN_BITS (1u + TIER_WIDTH(1, 64))
#define ACK_RELATIVE_MAX_BITS (1u + 16u)

#endif /* BITSIFT_RELATIVE_TIERS_H */
