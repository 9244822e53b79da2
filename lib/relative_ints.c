/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * relative_ints.c -- the variable-length encodings of a value relative to
 * one both sides already know: int_relative, the object index ladder
 * (scene_d), and the 16-bit sequence / ack encodings built on them.
 * Reader and writer of each sit side by side so that their ladders can be
 * compared at a glance.
 */
#include "bitsift_internal.h"
#include "relative_tiers.h"

/*
 * int_relative(previous, current), d = current - previous >= 1:
 *
 *   1                          d = 1                          1 bit
 *   0 1      int(d, 2, 6)      3 bits                         5 bits
 *   0 0 1    int(d, 7, 23)     5 bits                         8 bits
 *   0 0 0 1  int(d, 24, 280)   9 bits                        13 bits
 *   0 0 0 0 1  int(d, 281, 4377)    13 bits                  18 bits
 *   0 0 0 0 0 1  int(d, 4378, 69914) 17 bits                 23 bits
 *   0 0 0 0 0 0  current as 32 bits (absolute, must be > previous) 38 bits
 */
#define TIER_ROW(min, max) {min, max},
static const struct {
    int32_t min, max;
} int_relative_tiers[] = {INT_RELATIVE_TIERS(TIER_ROW)};

bool bitsift_read_int_relative(bitsift_reader *r, int32_t previous, int32_t *current)
{
    uint64_t start = r->bit_pos;
    for (size_t tier = 0; tier < RELATIVE_TIER_COUNT; tier++) {
        bool here;
        if (!bitsift_read_bool(r, &here))
            return false;
        if (!here)
            continue;
        int64_t d;
        if (!bitsift_read_int(r, int_relative_tiers[tier].min, int_relative_tiers[tier].max, &d))
            return false;
        if (BITSIFT_UNLIKELY((int64_t)previous + d > INT32_MAX))
            return bitsift_reader_fail(r, BITSIFT_E_RANGE, start, "value past the 32-bit range",
                                       INT32_MAX, (uint64_t)((int64_t)previous + d));
        *current = (int32_t)((int64_t)previous + d);
        return true;
    }
    uint64_t at = r->bit_pos;
    uint32_t absolute;
    if (!bitsift_read_uint32(r, &absolute))
        return false;
    if (BITSIFT_UNLIKELY((int32_t)absolute <= previous))
        return bitsift_reader_fail(r, BITSIFT_E_RANGE, at, "value not after previous",
                                   (uint64_t)(uint32_t)previous, absolute);
    *current = (int32_t)absolute;
    return true;
}

bool bitsift_write_int_relative(bitsift_writer *w, int32_t previous, int32_t current)
{
    if (BITSIFT_UNLIKELY(current <= previous))
        return bitsift__writer_misuse(w, BITSIFT_E_VALUE, "int_relative needs current > previous",
                                      (uint64_t)(uint32_t)previous, (uint64_t)(uint32_t)current);
    int64_t d = (int64_t)current - previous;
    for (size_t tier = 0; tier < RELATIVE_TIER_COUNT; tier++) {
        bool here = d <= int_relative_tiers[tier].max;
        if (!bitsift_write_bool(w, here))
            return false;
        if (here)
            return bitsift_write_int(w, int_relative_tiers[tier].min, int_relative_tiers[tier].max,
                                     d);
    }
    return bitsift_write_uint32(w, (uint32_t)current);
}

/*
 * object index (the article's scene_d), d = current - previous >= 1:
 *
 *   1                 d = 1
 *   0 1               int(d, 2, 5)
 *   0 0 1             int(d, 6, 13)
 *   0 0 0 1           int(d, 14, 29)
 *   0 0 0 0 1         int(d, 30, 61)
 *   0 0 0 0 0 1       int(d, 62, 125)
 *   0 0 0 0 0 0       int(d, 126, max_objects + 1)
 */
static const struct {
    int32_t min, max;
} object_index_tiers[] = {OBJECT_INDEX_TIERS(TIER_ROW)};

bool bitsift_read_object_index(bitsift_reader *r, int32_t previous, int32_t max_objects,
                               int32_t *current)
{
    /* Range failures are reported at the op's first bit: the ladder as a
     * whole encodes the index. */
    uint64_t start = r->bit_pos;
    if (BITSIFT_UNLIKELY(max_objects < 1))
        return bitsift_reader_fail(r, BITSIFT_E_ARGUMENT, start,
                                   "object index needs max_objects >= 1", 1,
                                   (uint64_t)(uint32_t)max_objects);
    int64_t d = 0;
    bool found = false;
    for (size_t tier = 0; tier < RELATIVE_TIER_COUNT && !found; tier++) {
        if (!bitsift_read_bool(r, &found))
            return false;
        if (found &&
            !bitsift_read_int(r, object_index_tiers[tier].min, object_index_tiers[tier].max, &d))
            return false;
    }
    if (!found) {
        int64_t last_max = (int64_t)max_objects + 1;
        /* With fewer than 125 objects no writer reaches the last tier. */
        if (BITSIFT_UNLIKELY(last_max < OBJECT_INDEX_LAST_MIN))
            return bitsift_reader_fail(r, BITSIFT_E_RANGE, start,
                                       "object index tier beyond max_objects", (uint64_t)last_max,
                                       OBJECT_INDEX_LAST_MIN);
        if (!bitsift_read_int(r, OBJECT_INDEX_LAST_MIN, last_max, &d))
            return false;
    }
    /* Indices run up to max_objects (the article's end marker); a delta
     * from any tier that lands beyond it is not an index. This also keeps
     * the sum inside 32 bits. */
    if (BITSIFT_UNLIKELY((int64_t)previous + d > max_objects))
        return bitsift_reader_fail(r, BITSIFT_E_RANGE, start, "object index beyond max_objects",
                                   (uint64_t)(uint32_t)max_objects,
                                   (uint64_t)((int64_t)previous + d));
    /* The middle tiers are fixed ranges; a step above max_objects + 1 from
     * one of them is one no writer makes (the writer refuses it); only a
     * previous below -1 gets here. */
    if (BITSIFT_UNLIKELY(d > (int64_t)max_objects + 1))
        return bitsift_reader_fail(r, BITSIFT_E_RANGE, start,
                                   "object index step beyond max_objects + 1",
                                   (uint64_t)max_objects + 1, (uint64_t)d);
    *current = (int32_t)((int64_t)previous + d);
    return true;
}

bool bitsift_write_object_index(bitsift_writer *w, int32_t previous, int32_t max_objects,
                                int32_t current)
{
    if (BITSIFT_UNLIKELY(max_objects < 1))
        return bitsift__writer_misuse(w, BITSIFT_E_ARGUMENT, "object index needs max_objects >= 1",
                                      1, (uint64_t)(uint32_t)max_objects);
    int64_t d = (int64_t)current - previous;
    if (BITSIFT_UNLIKELY(d < 1 || d > (int64_t)max_objects + 1))
        return bitsift__writer_misuse(w, BITSIFT_E_VALUE,
                                      "object index step outside 1..max_objects + 1",
                                      (uint64_t)max_objects + 1, (uint64_t)d);
    /* What the reader refuses is never written. */
    if (BITSIFT_UNLIKELY(current > max_objects))
        return bitsift__writer_misuse(w, BITSIFT_E_VALUE, "object index beyond max_objects",
                                      (uint64_t)(uint32_t)max_objects, (uint64_t)(uint32_t)current);
    for (size_t tier = 0; tier < RELATIVE_TIER_COUNT; tier++) {
        bool here = d <= object_index_tiers[tier].max;
        if (!bitsift_write_bool(w, here))
            return false;
        if (here)
            return bitsift_write_int(w, object_index_tiers[tier].min, object_index_tiers[tier].max,
                                     d);
    }
    return bitsift_write_int(w, OBJECT_INDEX_LAST_MIN, (int64_t)max_objects + 1, d);
}

/*
 * sequence_relative(s1, s2): int_relative(s1, s2 + (s1 > s2 ? 65536 : 0)),
 * so that a sequence that wrapped past 65535 still counts as "after".
 */
bool bitsift_read_sequence_relative(bitsift_reader *r, uint16_t sequence1, uint16_t *sequence2)
{
    int32_t value;
    uint64_t at = r->bit_pos;
    if (!bitsift_read_int_relative(r, sequence1, &value))
        return false;
    if (value >= 65536)
        value -= 65536;
    /* The writer never sends more than s1 + 65535: anything beyond is not
     * a 16-bit sequence (the reference would silently truncate it). */
    if (BITSIFT_UNLIKELY(value < 0 || value > 65535))
        return bitsift_reader_fail(r, BITSIFT_E_RANGE, at, "not a 16-bit sequence", 65535,
                                   (uint64_t)(uint32_t)value);
    *sequence2 = (uint16_t)value;
    return true;
}

bool bitsift_write_sequence_relative(bitsift_writer *w, uint16_t sequence1, uint16_t sequence2)
{
    if (BITSIFT_UNLIKELY(sequence1 == sequence2))
        return bitsift__writer_misuse(w, BITSIFT_E_VALUE,
                                      "sequence_relative needs sequence2 != sequence1", sequence1,
                                      sequence2);
    int32_t b = (int32_t)sequence2 + (sequence1 > sequence2 ? 65536 : 0);
    return bitsift_write_int_relative(w, sequence1, b);
}

/*
 * ack_relative(sequence, ack): bool in_range (1 <= sequence - ack <= 64,
 * modulo 2^16), then int(sequence - ack, 1, 64), else ack as 16 bits.
 */
bool bitsift_read_ack_relative(bitsift_reader *r, uint16_t sequence, uint16_t *ack)
{
    bool in_range;
    if (!bitsift_read_bool(r, &in_range))
        return false;
    if (in_range) {
        int64_t delta;
        if (!bitsift_read_int(r, 1, 64, &delta))
            return false;
        *ack = (uint16_t)(sequence - (uint16_t)delta);
        return true;
    }
    return bitsift_read_uint16(r, ack);
}

bool bitsift_write_ack_relative(bitsift_writer *w, uint16_t sequence, uint16_t ack)
{
    uint16_t delta = (uint16_t)(sequence - ack);
    bool in_range = delta >= 1 && delta <= 64;
    if (!bitsift_write_bool(w, in_range))
        return false;
    if (in_range)
        return bitsift_write_int(w, 1, 64, delta);
    return bitsift_write_uint16(w, ack);
}
