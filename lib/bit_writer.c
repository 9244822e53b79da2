/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bit_writer.c -- the bit writer and its counting twin, the measurer.
 *
 * Bits are stored as soon as they are produced, LSB first: the first byte
 * a field touches keeps its lower (already written) bits and gets the new
 * ones above them; every further byte is overwritten whole. So the buffer
 * needs no clearing, bits above the write position are always zero, and
 * after every successful call data[0, ceil(bit_pos / 8)) is a valid stream
 * with the final byte zero-padded, exactly as the reference writer's flush
 * would leave it.
 *
 * A value that its field cannot hold is the caller's bug (the reference
 * asserts): it is refused with BITSIFT_E_VALUE, never written truncated,
 * and BITSIFT_DEBUG builds abort.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <stddef.h>
#include <string.h>

#include "bitsift_internal.h"

void bitsift_writer_init(bitsift_writer *w, void *data, size_t capacity)
{
    memset(w, 0, offsetof(bitsift_writer, path)); /* the path buffer is written when used */
    w->data = data;
    w->capacity = data ? capacity : 0;
    w->bit_limit =
        w->capacity > (UINT64_MAX >> 3) ? UINT64_MAX & ~7ull : (uint64_t)w->capacity << 3;
    w->failure.kind = BITSIFT_OK;
}

void bitsift_writer_init_measure(bitsift_writer *w)
{
    memset(w, 0, offsetof(bitsift_writer, path)); /* the path buffer is written when used */
    w->data = NULL;
    w->bit_limit = UINT64_MAX;
    w->failure.kind = BITSIFT_OK;
}

bool bitsift_writer_fail(bitsift_writer *w, bitsift_error kind, const char *why, uint64_t expected,
                         uint64_t got)
{
    if (w->failure.kind == BITSIFT_OK) {
        w->failure.kind = kind;
        w->failure.bit = w->bit_pos;
        w->failure.why = why;
        w->failure.expected = expected;
        w->failure.got = got;
    }
    w->bit_limit = 0;
    return false;
}

void bitsift_writer_name_failure(bitsift_writer *w, const char *field)
{
    if (w->failure.kind != BITSIFT_OK && w->failure.field == NULL)
        w->failure.field = field;
}

bool bitsift__writer_misuse(bitsift_writer *w, bitsift_error kind, const char *why,
                            uint64_t expected, uint64_t got)
{
#ifdef BITSIFT_DEBUG
    fprintf(stderr, "libbitsift: writer misuse at bit %llu: %s\n", (unsigned long long)w->bit_pos,
            why);
    abort();
#endif
    return bitsift_writer_fail(w, kind, why, expected, got);
}

/* Store n bits (1..64, value already below 2^n) at the write position. */
static bool write_raw(bitsift_writer *w, unsigned n, uint64_t value)
{
    if (BITSIFT_UNLIKELY(w->bit_pos + n > w->bit_limit)) {
        if (w->failure.kind != BITSIFT_OK)
            return false;
        return bitsift_writer_fail(w, BITSIFT_E_OVERFLOW, "buffer full", n,
                                   w->bit_limit - w->bit_pos);
    }
    if (w->data) {
        uint8_t *p = w->data + (w->bit_pos >> 3);
        unsigned shift = (unsigned)(w->bit_pos & 7);
        unsigned first = 8 - shift; /* bits that fit in the first byte */
        unsigned keep = (1u << shift) - 1;
        *p = (uint8_t)((*p & keep) | (uint8_t)(value << shift));
        if (n > first) {
            uint64_t rest = value >> first;
            unsigned left = n - first;
            while (1) {
                *++p = (uint8_t)rest;
                if (left <= 8)
                    break;
                rest >>= 8;
                left -= 8;
            }
        }
    }
    w->bit_pos += n;
    return true;
}

static bool writer_ready(bitsift_writer *w)
{
    return w->failure.kind == BITSIFT_OK;
}

bool bitsift_write_bits(bitsift_writer *w, unsigned n, uint64_t value)
{
    if (BITSIFT_UNLIKELY(n == 0 || n > 64))
        return bitsift__writer_misuse(w, BITSIFT_E_ARGUMENT, "bit width must be 1..64", 64, n);
    if (BITSIFT_UNLIKELY(n < 64 && (value >> n) != 0))
        return bitsift__writer_misuse(w, BITSIFT_E_VALUE, "value wider than its field",
                                      (1ull << n) - 1, value);
    return write_raw(w, n, value);
}

bool bitsift_write_bool(bitsift_writer *w, bool value)
{
    return write_raw(w, 1, value ? 1 : 0);
}

bool bitsift_write_uint8(bitsift_writer *w, uint8_t value)
{
    return write_raw(w, 8, value);
}

bool bitsift_write_uint16(bitsift_writer *w, uint16_t value)
{
    return write_raw(w, 16, value);
}

bool bitsift_write_uint32(bitsift_writer *w, uint32_t value)
{
    return write_raw(w, 32, value);
}

bool bitsift_write_uint64(bitsift_writer *w, uint64_t value)
{
    return write_raw(w, 64, value);
}

bool bitsift_write_int(bitsift_writer *w, int64_t min, int64_t max, int64_t value)
{
    if (BITSIFT_UNLIKELY(min > max))
        return bitsift__writer_misuse(w, BITSIFT_E_ARGUMENT, "int range has min > max", 0, 0);
    if (BITSIFT_UNLIKELY(value < min || value > max))
        return bitsift__writer_misuse(w, BITSIFT_E_VALUE, "int value outside its range",
                                      (uint64_t)max - (uint64_t)min,
                                      (uint64_t)value - (uint64_t)min);
    unsigned bits = bitsift_bits_required(min, max);
    if (bits == 0)
        return writer_ready(w);
    return write_raw(w, bits, (uint64_t)value - (uint64_t)min);
}

bool bitsift_write_float(bitsift_writer *w, float value)
{
    uint32_t u;
    memcpy(&u, &value, sizeof u);
    return write_raw(w, 32, u);
}

bool bitsift_write_double(bitsift_writer *w, double value)
{
    uint64_t u;
    memcpy(&u, &value, sizeof u);
    return write_raw(w, 64, u);
}

bool bitsift_write_align(bitsift_writer *w)
{
    unsigned pad = (unsigned)(-w->bit_pos & 7);
    if (pad == 0)
        return writer_ready(w);
    return write_raw(w, pad, 0);
}

bool bitsift_write_bytes(bitsift_writer *w, const void *src, size_t n)
{
    if (!bitsift_write_align(w))
        return false;
    uint64_t room = (w->bit_limit - w->bit_pos) >> 3;
    if (BITSIFT_UNLIKELY(n > room))
        return bitsift_writer_fail(w, BITSIFT_E_OVERFLOW, "buffer full",
                                   n > (UINT64_MAX >> 3) ? UINT64_MAX : (uint64_t)n << 3,
                                   w->bit_limit - w->bit_pos);
    if (w->data && n)
        memcpy(w->data + (w->bit_pos >> 3), src, n);
    w->bit_pos += (uint64_t)n << 3;
    return true;
}

bool bitsift_write_string_n(bitsift_writer *w, const void *text, size_t len, size_t bufsize)
{
    if (BITSIFT_UNLIKELY(bufsize == 0))
        return bitsift__writer_misuse(w, BITSIFT_E_ARGUMENT,
                                      "string buffer size must be at least 1", 1, 0);
    if (BITSIFT_UNLIKELY(len > bufsize - 1))
        return bitsift__writer_misuse(w, BITSIFT_E_VALUE, "string longer than bufsize - 1",
                                      bufsize - 1, len);
    /* `got` says where the problem is, as the reader's failure does: the
     * NUL's offset, or the length of the valid UTF-8 prefix. */
    const uint8_t *nul = len ? memchr(text, 0, len) : NULL;
    if (BITSIFT_UNLIKELY(nul != NULL))
        return bitsift__writer_misuse(w, BITSIFT_E_STRING, "NUL byte inside string", 0,
                                      (uint64_t)(nul - (const uint8_t *)text));
    size_t valid = bitsift__utf8_valid_prefix(text, len);
    if (BITSIFT_UNLIKELY(valid != len))
        return bitsift__writer_misuse(w, BITSIFT_E_STRING, "invalid UTF-8 in string", 0, valid);
    int64_t max = bufsize - 1 > INT64_MAX ? INT64_MAX : (int64_t)(bufsize - 1);
    if (!bitsift_write_int(w, 0, max, (int64_t)len))
        return false;
    return bitsift_write_bytes(w, text, len);
}

bool bitsift_write_string(bitsift_writer *w, const char *text, size_t bufsize)
{
    /* strnlen: never scan past what the field could hold. */
    if (BITSIFT_UNLIKELY(bufsize == 0))
        return bitsift_write_string_n(w, text, 0, 0); /* reports the bad bufsize */
    size_t len = strnlen(text, bufsize);
    if (BITSIFT_UNLIKELY(len >= bufsize))
        return bitsift__writer_misuse(w, BITSIFT_E_VALUE, "string longer than bufsize - 1",
                                      bufsize - 1, len);
    return bitsift_write_string_n(w, text, len, bufsize);
}

bool bitsift_write_check(bitsift_writer *w, uint32_t value)
{
    if (!bitsift_write_align(w))
        return false;
    return write_raw(w, 32, value);
}
