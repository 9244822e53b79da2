/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_util.h -- what every cmocka unit test of libbitsift shares: the
 * cmocka includes in the order it needs, a small deterministic PRNG (so
 * that a failing randomized case can be replayed from its seed), and bit
 * helpers that look at a byte buffer the slow, obvious way, as an oracle
 * independent of the library's reader.
 */
#ifndef BITSIFT_TEST_UTIL_H
#define BITSIFT_TEST_UTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "bitsift.h"

/* splitmix64: tiny, fast, and every seed gives a good stream. */
static inline uint64_t test_rand(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* A value in [0, n), n > 0. */
static inline uint64_t test_below(uint64_t *state, uint64_t n)
{
    return test_rand(state) % n;
}

/* Stream bit k of a buffer: bit k % 8 of byte k / 8 (LSB first). */
static inline unsigned test_bit(const uint8_t *buf, uint64_t k)
{
    return (buf[k >> 3] >> (k & 7)) & 1u;
}

/* The n-bit field at stream bit pos, assembled bit by bit. */
static inline uint64_t test_field(const uint8_t *buf, uint64_t pos, unsigned n)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < n; i++)
        v |= (uint64_t)test_bit(buf, pos + i) << i;
    return v;
}

static inline uint64_t test_mask(unsigned n)
{
    return n >= 64 ? ~0ull : (1ull << n) - 1;
}

/* Assert a reader failed with the given kind at the given bit. */
#define assert_reader_failed(r, kind_, bit_)                        \
    do {                                                            \
        assert_false(bitsift_reader_ok(r));                         \
        assert_int_equal(bitsift_reader_failure(r)->kind, (kind_)); \
        assert_int_equal(bitsift_reader_failure(r)->bit, (bit_));   \
    } while (0)

#define assert_writer_failed(w, kind_)                              \
    do {                                                            \
        assert_false(bitsift_writer_ok(w));                         \
        assert_int_equal(bitsift_writer_failure(w)->kind, (kind_)); \
    } while (0)

#endif /* BITSIFT_TEST_UTIL_H */
