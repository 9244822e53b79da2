/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bit_reader.c -- the out-of-line half of the bit reader: setup, failure
 * recording, and the primitives that are too large to inline (align,
 * bytes, strings, checks). The per-field fast path lives in bitsift.h.
 *
 * Failure is sticky: the first failure is recorded and bit_limit drops to
 * 0, so every later read of one bit or more fails on its bounds check
 * without a separate test; zero-bit reads test the failure kind.
 */
#include <stddef.h>
#include <string.h>

#include "bitsift_internal.h"

void bitsift_reader_init(bitsift_reader *r, const void *data, size_t size)
{
    memset(r, 0, offsetof(bitsift_reader, path)); /* the path buffer is written when used */
    r->data = data;
    r->size = size;
    r->bit_pos = 0;
    /* No real buffer holds 2^59 bytes; clamping the bit count at 2^62
     * keeps every end bit the inline reads compute (bit_pos plus at most
     * BITSIFT__INT_SLOW_STEP = 2^63) from wrapping. */
    r->bit_limit = size > (1ull << 59) ? 1ull << 62 : (uint64_t)size << 3;
    /* A read ending at or below fast_limit starts in a byte with 8
     * readable bytes in data (byte <= size - 8); the other reads load from
     * tail, a zero-padded copy of the last (up to) 8 bytes. */
    r->fast_limit = size >= 8 ? r->bit_limit - 56 : 0;
    r->tail_start = size >= 8 ? size - 8 : 0;
    if (size)
        memcpy(r->tail, r->data + r->tail_start, size - r->tail_start);
    r->failure.kind = BITSIFT_OK;
}

/* The tables bitsift_read_int indexes by the top bit of its span (see
 * bitsift.h). */
#define EIGHT(f, b)   f(b), f(b + 1), f(b + 2), f(b + 3), f(b + 4), f(b + 5), f(b + 6), f(b + 7)
#define SIXTY_FOUR(f)                                                                 \
    EIGHT(f, 0), EIGHT(f, 8), EIGHT(f, 16), EIGHT(f, 24), EIGHT(f, 32), EIGHT(f, 40), \
        EIGHT(f, 48), EIGHT(f, 56)
const uint64_t bitsift__int_steps[64] = {SIXTY_FOUR(BITSIFT__INT_STEP)};
const uint64_t bitsift__int_masks[64] = {SIXTY_FOUR(BITSIFT__INT_MASK)};

bool bitsift_reader_fail(bitsift_reader *r, bitsift_error kind, uint64_t bit, const char *why,
                         uint64_t expected, uint64_t got)
{
    if (r->failure.kind == BITSIFT_OK) {
        r->failure.kind = kind;
        r->failure.bit = bit;
        r->failure.why = why;
        r->failure.expected = expected;
        r->failure.got = got;
    }
    r->bit_limit = 0;
    r->fast_limit = 0;
    return false;
}

void bitsift_reader_name_failure(bitsift_reader *r, const char *field)
{
    if (r->failure.kind != BITSIFT_OK && r->failure.field == NULL)
        r->failure.field = field;
}

bool bitsift__reader_overflow(bitsift_reader *r, unsigned bits)
{
    if (r->failure.kind != BITSIFT_OK)
        return false; /* already failed: keep the first failure */
    return bitsift_reader_fail(r, BITSIFT_E_OVERFLOW, r->bit_pos, "not enough data", bits,
                               bitsift_reader_bits_left(r));
}

/* The rest of bitsift_read_bits: a width outside 1..57, or a read that
 * ends past fast_limit (near the end of the data, or after a failure). */
bitsift__bits_result bitsift__read_bits_slow(bitsift_reader *r, unsigned n)
{
    bitsift__bits_result result = {0, 0};
    if (BITSIFT_UNLIKELY(n == 0 || n > 64)) {
        bitsift_reader_fail(r, BITSIFT_E_ARGUMENT, r->bit_pos, "bit width must be 1..64", 64, n);
        return result;
    }
    /* All n bits must be there before any is taken, as the reference
     * checks (a wide read does not consume its low half and then fail). */
    if (BITSIFT_UNLIKELY(r->bit_pos + n > r->bit_limit)) {
        bitsift__reader_overflow(r, n);
        return result;
    }
    uint64_t at = r->bit_pos;
    if (n <= 57) {
        result.value = bitsift__reader_window(r, at) & (~0ull >> (64 - n));
    } else {
        /* Wider than one window: low 32 bits first, then the rest. */
        uint64_t lo = bitsift__reader_window(r, at) & 0xffffffffull;
        uint64_t hi = bitsift__reader_window(r, at + 32) & (~0ull >> (64 - (n - 32)));
        result.value = lo | (hi << 32);
    }
    r->bit_pos = at + n;
    result.ok = 1;
    return result;
}

bool bitsift__reader_range(bitsift_reader *r, uint64_t bit, uint64_t span, uint64_t raw)
{
    return bitsift_reader_fail(r, BITSIFT_E_RANGE, bit, "raw value above range", span, raw);
}

/*
 * align: the padding up to the next byte boundary must be present (else
 * overflow, as the reference checks presence first) and all zero (else
 * align).
 */
bool bitsift_read_align(bitsift_reader *r)
{
    unsigned pad = (unsigned)(-r->bit_pos & 7);
    if (pad == 0)
        return bitsift_reader_ok(r);
    uint64_t at = r->bit_pos;
    uint64_t bits;
    if (!bitsift__read_window_bits(r, pad, &bits))
        return false;
    if (BITSIFT_UNLIKELY(bits != 0))
        return bitsift_reader_fail(r, BITSIFT_E_ALIGN, at, "non-zero padding bit", 0, bits);
    return true;
}

bool bitsift_read_bytes_view(bitsift_reader *r, size_t n, const uint8_t **view)
{
    if (!bitsift_read_align(r))
        return false;
    uint64_t byte = r->bit_pos >> 3;
    if (BITSIFT_UNLIKELY(n > (r->bit_limit >> 3) - byte || n > (UINT64_MAX >> 3))) {
        if (r->failure.kind != BITSIFT_OK)
            return false;
        return bitsift_reader_fail(r, BITSIFT_E_OVERFLOW, r->bit_pos, "not enough data",
                                   n > (UINT64_MAX >> 3) ? UINT64_MAX : (uint64_t)n << 3,
                                   bitsift_reader_bits_left(r));
    }
    /* n == 0 may come with data == NULL (a reader over (NULL, 0)): no
     * pointer arithmetic on NULL, even + 0. */
    *view = n ? r->data + byte : r->data ? r->data + byte : NULL;
    r->bit_pos += (uint64_t)n << 3;
    return true;
}

bool bitsift_read_bytes(bitsift_reader *r, void *dst, size_t n)
{
    const uint8_t *view;
    if (!bitsift_read_bytes_view(r, n, &view))
        return false;
    if (n)
        memcpy(dst, view, n);
    return true;
}

bool bitsift_read_string_view(bitsift_reader *r, size_t bufsize, const uint8_t **view, size_t *len)
{
    if (BITSIFT_UNLIKELY(bufsize == 0))
        return bitsift_reader_fail(r, BITSIFT_E_ARGUMENT, r->bit_pos,
                                   "string buffer size must be at least 1", 1, 0);
    int64_t length;
    if (!bitsift_read_int(r, 0, (int64_t)(bufsize - 1 > INT64_MAX ? INT64_MAX : bufsize - 1),
                          &length))
        return false;
    uint64_t at = r->bit_pos;
    if (!bitsift_read_bytes_view(r, (size_t)length, view))
        return false;
    /* The string starts after the alignment: report offsets from there. */
    at = r->bit_pos - ((uint64_t)length << 3);
    if (length) { /* *view may be NULL when the string is empty */
        const void *nul = memchr(*view, 0, (size_t)length);
        if (BITSIFT_UNLIKELY(nul != NULL))
            return bitsift_reader_fail(r, BITSIFT_E_STRING, at, "NUL byte inside string", 0,
                                       (uint64_t)((const uint8_t *)nul - *view));
        size_t valid = bitsift__utf8_valid_prefix(*view, (size_t)length);
        if (BITSIFT_UNLIKELY(valid != (size_t)length))
            return bitsift_reader_fail(r, BITSIFT_E_STRING, at, "invalid UTF-8 in string", 0,
                                       valid);
    }
    if (len)
        *len = (size_t)length;
    return true;
}

bool bitsift_read_string(bitsift_reader *r, char *buf, size_t bufsize, size_t *len)
{
    const uint8_t *view;
    size_t n;
    if (!bitsift_read_string_view(r, bufsize, &view, &n))
        return false;
    if (n) /* view may be NULL when n is 0 */
        memcpy(buf, view, n);
    buf[n] = '\0';
    if (len)
        *len = n;
    return true;
}

bool bitsift_read_check(bitsift_reader *r, uint32_t value)
{
    if (!bitsift_read_align(r))
        return false;
    uint64_t at = r->bit_pos;
    uint32_t got;
    if (!bitsift_read_uint32(r, &got))
        return false;
    if (BITSIFT_UNLIKELY(got != value))
        return bitsift_reader_fail(r, BITSIFT_E_CHECK, at, "check marker mismatch", value, got);
    return true;
}
