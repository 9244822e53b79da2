/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_reader_window.c -- differential test of the inline bit reader's two
 * paths: the fast path (one 8-byte load straight from the buffer while the
 * read ends at or below fast_limit) and the slow path (tail copy, widths
 * above 57, overflow). Every width 1..64 at every bit position of buffers
 * of 0..40 bytes is read through bitsift_read_bits and bitsift_read_int (with
 * ranges in variables and ranges known at compile time) and
 * compared with a bit-at-a-time reference; reads that would pass the end
 * must fail with overflow and leave the reader failed for good.
 *
 * Each buffer is its own exact-size heap block, so that an AddressSanitizer
 * build (./bootstrap --enable-asan) catches any load outside it.
 *
 * Prints TAP: one test point per buffer size, plus the sticky-failure and
 * argument checks.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bitsift.h"

static unsigned test_number;
static unsigned failures;

static void tap(bool ok, const char *what, size_t size)
{
    printf("%s %u - %s (%zu bytes)\n", ok ? "ok" : "not ok", ++test_number, what, size);
    if (!ok)
        failures++;
}

/* Bit k of the stream is bit k % 8 of byte k / 8 (LSB first). */
static uint64_t reference_bits(const uint8_t *data, uint64_t at, unsigned n)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < n; i++)
        v |= (uint64_t)((data[(at + i) >> 3] >> ((at + i) & 7)) & 1u) << i;
    return v;
}

static uint64_t state = 0x7265616465720001ull;
static uint8_t random_byte(void)
{
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return (uint8_t)(state >> 24);
}

/* Every (position, width) on one buffer through bitsift_read_bits. */
static bool check_bits(const uint8_t *data, size_t size)
{
    uint64_t total = (uint64_t)size * 8;
    for (uint64_t at = 0; at <= total; at++) {
        for (unsigned n = 1; n <= 64; n++) {
            bitsift_reader r;
            bitsift_reader_init(&r, data, size);
            /* Skip to `at` in steps, so the skipping also crosses paths. */
            uint64_t skipped = 0, v;
            while (skipped < at) {
                unsigned step = at - skipped > 13 ? 13 : (unsigned)(at - skipped);
                if (!bitsift_read_bits(&r, step, &v) || v != reference_bits(data, skipped, step))
                    return false;
                skipped += step;
            }
            bool fits = at + n <= total;
            bool ok = bitsift_read_bits(&r, n, &v);
            if (ok != fits)
                return false;
            if (fits) {
                if (v != reference_bits(data, at, n) || bitsift_reader_bit_pos(&r) != at + n)
                    return false;
            } else {
                const bitsift_failure *f = bitsift_reader_failure(&r);
                if (f->kind != BITSIFT_E_OVERFLOW || f->bit != at || f->expected != n ||
                    f->got != total - at)
                    return false;
                /* Sticky: even a 1-bit read at the start-of-buffer path fails. */
                if (bitsift_read_bits(&r, 1, &v) || bitsift_reader_bits_left(&r) != 0)
                    return false;
            }
        }
    }
    return true;
}

/* int(min, max) at every position, with spans of every width, values in
 * and out of range. */
static bool check_int(const uint8_t *data, size_t size)
{
    uint64_t total = (uint64_t)size * 8;
    for (uint64_t at = 0; at <= total; at++) {
        for (unsigned top = 0; top < 64; top++) {
            /* A span whose highest bit is `top`, half the time with a
             * smaller value than the all-ones one so that range fails. */
            uint64_t span = (top == 63 ? ~0ull : (2ull << top) - 1);
            if (top & 1)
                span >>= 1, span |= 1ull << top;
            int64_t min = (int64_t)(0x8000000000000000ull >> (top & 3));
            if ((int64_t)((uint64_t)min + span) < min) /* keep max >= min as signed */
                min = INT64_MIN;
            int64_t max = (int64_t)((uint64_t)min + span);
            unsigned n = top + 1;
            bitsift_reader r;
            bitsift_reader_init(&r, data, size);
            uint64_t v;
            for (uint64_t skipped = 0; skipped < at; skipped++)
                if (!bitsift_read_bits(&r, 1, &v))
                    return false;
            int64_t value = 12345;
            bool ok = bitsift_read_int(&r, min, max, &value);
            const bitsift_failure *f = bitsift_reader_failure(&r);
            if (at + n > total) {
                if (ok || f->kind != BITSIFT_E_OVERFLOW || f->bit != at || value != 12345)
                    return false;
                continue;
            }
            uint64_t raw = reference_bits(data, at, n);
            if (raw > span) {
                if (ok || f->kind != BITSIFT_E_RANGE || f->bit != at || f->got != raw ||
                    f->expected != span)
                    return false;
            } else if (!ok || (uint64_t)value != (uint64_t)min + raw ||
                       bitsift_reader_bit_pos(&r) != at + n) {
                return false;
            }
        }
    }
    return true;
}

/*
 * The same with ranges known at compile time, for which bitsift_read_int
 * folds its width and mask instead of looking them up: ranges on both
 * sides of the 57-bit window's edge, the widest, and two (a power of two
 * wide) whose range check fails for about half the values, each at every
 * position and compared with the reference.
 */
static bool check_int_constant_at(const uint8_t *data, size_t size, uint64_t at, int64_t min,
                                  int64_t max, int64_t got, bool ok)
{
    uint64_t total = (uint64_t)size * 8, span = (uint64_t)max - (uint64_t)min;
    unsigned n = 64u - (unsigned)__builtin_clzll(span);
    if (at + n > total)
        return !ok && got == 12345;
    uint64_t raw = reference_bits(data, at, n);
    return raw > span ? !ok && got == 12345 : ok && (uint64_t)got == (uint64_t)min + raw;
}

#define CHECK_CONSTANT_INT(min, max)                                       \
    do {                                                                   \
        bitsift_reader r;                                                  \
        bitsift_reader_init(&r, data, size);                               \
        uint64_t v;                                                        \
        for (uint64_t skipped = 0; skipped < at; skipped++)                \
            if (!bitsift_read_bits(&r, 1, &v))                             \
                return false;                                              \
        int64_t got = 12345;                                               \
        bool ok = bitsift_read_int(&r, (min), (max), &got);                \
        if (!check_int_constant_at(data, size, at, (min), (max), got, ok)) \
            return false;                                                  \
    } while (0)

static bool check_int_constant(const uint8_t *data, size_t size)
{
    for (uint64_t at = 0; at <= (uint64_t)size * 8; at++) {
        CHECK_CONSTANT_INT(0, 1);                      /* top 0 */
        CHECK_CONSTANT_INT(-1000, 1000);               /* top 10 */
        CHECK_CONSTANT_INT(5, 5 + (INT64_C(1) << 20)); /* top 20, half fail range */
        CHECK_CONSTANT_INT(0, (INT64_C(1) << 57) - 1); /* top 56: 57 bits, fast */
        CHECK_CONSTANT_INT(0, (INT64_C(1) << 58) - 1); /* top 57: slow path */
        CHECK_CONSTANT_INT(7, 7 + (INT64_C(1) << 60)); /* top 60, half fail range */
        CHECK_CONSTANT_INT(INT64_MIN, INT64_MAX);      /* top 63 */
    }
    return true;
}

int main(void)
{
    const size_t max_size = 40;
    printf("1..%zu\n", 3 * (max_size + 1) + 2);
    for (size_t size = 0; size <= max_size; size++) {
        uint8_t *data = malloc(size ? size : 1);
        if (!data)
            return 1;
        for (size_t i = 0; i < size; i++)
            data[i] = random_byte();
        tap(check_bits(size ? data : NULL, size), "bits(1..64) at every position", size);
        tap(check_int(size ? data : NULL, size), "int(min, max) at every position", size);
        tap(check_int_constant(size ? data : NULL, size),
            "int(min, max) with constant ranges at every position", size);
        free(data);
    }

    /* A failed reader fails every later read, on either path, and a
     * zero-bit int keeps failing too. */
    {
        uint8_t data[64];
        for (size_t i = 0; i < sizeof data; i++)
            data[i] = random_byte();
        bitsift_reader r;
        bitsift_reader_init(&r, data, sizeof data);
        int64_t value;
        uint64_t v;
        bool ok = bitsift_read_int(&r, 0, 3, &value) && !bitsift_read_int(&r, 5, 4, &value) &&
                  bitsift_reader_failure(&r)->kind == BITSIFT_E_ARGUMENT &&
                  !bitsift_read_bits(&r, 1, &v) && !bitsift_read_int(&r, 0, 1, &value) &&
                  !bitsift_read_int(&r, 7, 7, &value) &&
                  bitsift_reader_failure(&r)->kind == BITSIFT_E_ARGUMENT &&
                  bitsift_reader_failure(&r)->bit == 2;
        tap(ok, "failure is sticky on the fast path", sizeof data);
    }
    {
        uint8_t data[16] = {0};
        bitsift_reader r;
        bitsift_reader_init(&r, data, sizeof data);
        uint64_t v;
        bool ok =
            !bitsift_read_bits(&r, 0, &v) && bitsift_reader_failure(&r)->kind == BITSIFT_E_ARGUMENT;
        bitsift_reader_init(&r, data, sizeof data);
        ok = ok && !bitsift_read_bits(&r, 65, &v) &&
             bitsift_reader_failure(&r)->kind == BITSIFT_E_ARGUMENT;
        tap(ok, "widths 0 and 65 fail with argument", sizeof data);
    }
    return failures ? 1 : 0;
}
