/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * sparse.c -- the four encodings of a sparse array (the article's scenes
 * a to d) as an iteration that serialize code drives: begin, then next
 * for each element until it returns false. The layouts and the failures
 * are in <bitsift/bits.h>; they are the schema decoder's (read_array in
 * schema_decode.c), message for message.
 */
#include <string.h>

#include "bitsift_internal.h"

#define SPARSE_MAX 65536u

static bool encoding_ok(bitsift_sparse_encoding e)
{
    return e == BITSIFT_SPARSE_FLAGS || e == BITSIFT_SPARSE_INDICES ||
           e == BITSIFT_SPARSE_SENTINEL || e == BITSIFT_SPARSE_RELATIVE;
}

static bool sends_count(bitsift_sparse_encoding e)
{
    return e == BITSIFT_SPARSE_INDICES || e == BITSIFT_SPARSE_RELATIVE;
}

static void start(bitsift_sparse *s, bitsift_sparse_encoding encoding, bool *present,
                  uint32_t max)
{
    s->encoding = encoding;
    s->max = max;
    s->present = present;
    s->count = 0;
    s->done = 0;
    s->index = -1;
    s->next = 0;
}

bool bitsift_read_sparse_begin(bitsift_reader *r, bitsift_sparse *s,
                               bitsift_sparse_encoding encoding, bool *present, uint32_t max)
{
    start(s, encoding, present, max);
    if (!encoding_ok(encoding) || max < 1 || max > SPARSE_MAX || !present)
        return bitsift_reader_fail(r, BITSIFT_E_ARGUMENT, r->bit_pos,
                                   "sparse array needs an encoding, present[] and max 1..65536",
                                   SPARSE_MAX, max);
    memset(present, 0, max * sizeof *present);
    if (sends_count(encoding)) {
        int64_t count;
        if (!bitsift_read_int(r, 0, max, &count))
            return false;
        s->count = (uint32_t)count;
    }
    return bitsift_reader_ok(r);
}

bool bitsift_read_sparse_next(bitsift_reader *r, bitsift_sparse *s)
{
    if (!bitsift_reader_ok(r))
        return false;
    int64_t index;
    uint64_t at = r->bit_pos;
    switch (s->encoding) {
    case BITSIFT_SPARSE_FLAGS:
        while (s->next < s->max) {
            bool here;
            if (!bitsift_read_bool(r, &here))
                return false;
            if (here) {
                s->index = s->next++;
                s->present[s->index] = true;
                s->done++;
                return true;
            }
            s->next++;
        }
        return false;
    case BITSIFT_SPARSE_INDICES:
        if (s->done == s->count)
            return false;
        if (!bitsift_read_int(r, 0, (int64_t)s->max - 1, &index))
            return false;
        break;
    case BITSIFT_SPARSE_SENTINEL:
        if (!bitsift_read_int(r, 0, s->max, &index))
            return false;
        if (index == s->max)
            return false;
        break;
    case BITSIFT_SPARSE_RELATIVE: {
        if (s->done == s->count)
            return false;
        int32_t current;
        if (!bitsift_read_object_index(r, (int32_t)s->index, (int32_t)s->max, &current))
            return false;
        index = current;
        break;
    }
    default:
        return bitsift_reader_fail(r, BITSIFT_E_ARGUMENT, at, "unknown sparse encoding", 3,
                                   (uint64_t)s->encoding);
    }
    if (index <= s->index || index >= s->max)
        return bitsift_reader_fail(r, BITSIFT_E_RANGE, at,
                                   index >= s->max ? "sparse index beyond the array"
                                                   : "sparse index not above the previous one",
                                   (uint64_t)(index >= s->max ? (int64_t)s->max - 1 : s->index + 1),
                                   (uint64_t)index);
    s->index = index;
    s->present[index] = true;
    s->done++;
    return true;
}

bool bitsift_write_sparse_begin(bitsift_writer *w, bitsift_sparse *s,
                                bitsift_sparse_encoding encoding, const bool *present,
                                uint32_t max)
{
    /* The writer only reads present[]: the field is not const so that one
     * struct serves both directions. */
    start(s, encoding, (bool *)(uintptr_t)present, max);
    if (!encoding_ok(encoding) || max < 1 || max > SPARSE_MAX || !present)
        return bitsift__writer_misuse(w, BITSIFT_E_ARGUMENT,
                                      "sparse array needs an encoding, present[] and max 1..65536",
                                      SPARSE_MAX, max);
    for (uint32_t i = 0; i < max; i++)
        s->count += present[i] ? 1u : 0u;
    if (sends_count(encoding))
        return bitsift_write_int(w, 0, max, s->count);
    return bitsift_writer_ok(w);
}

bool bitsift_write_sparse_next(bitsift_writer *w, bitsift_sparse *s)
{
    if (!bitsift_writer_ok(w))
        return false;
    uint32_t slot = (uint32_t)(s->index + 1);
    if (s->encoding == BITSIFT_SPARSE_FLAGS) {
        for (; slot < s->max; slot++) {
            if (!bitsift_write_bool(w, s->present[slot]))
                return false;
            if (s->present[slot])
                break;
        }
    } else {
        while (slot < s->max && !s->present[slot])
            slot++;
    }
    if (slot >= s->max) {
        /* The end: only the sentinel encoding writes one. */
        if (s->encoding == BITSIFT_SPARSE_SENTINEL)
            (void)bitsift_write_int(w, 0, s->max, s->max);
        return false;
    }
    bool ok = true;
    switch (s->encoding) {
    case BITSIFT_SPARSE_INDICES:
        ok = bitsift_write_int(w, 0, (int64_t)s->max - 1, slot);
        break;
    case BITSIFT_SPARSE_SENTINEL:
        ok = bitsift_write_int(w, 0, s->max, slot);
        break;
    case BITSIFT_SPARSE_RELATIVE:
        ok = bitsift_write_object_index(w, (int32_t)s->index, (int32_t)s->max, (int32_t)slot);
        break;
    default:
        break;
    }
    if (!ok)
        return false;
    s->index = slot;
    s->done++;
    return true;
}
