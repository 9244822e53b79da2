/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_bits.c -- the raw bit layer: bits(1..64) at every alignment for
 * write, read and measure, the fixed-width unsigned primitives and bool,
 * bounds (overflow at every length, writer capacity) and width checks.
 *
 * Every written buffer is checked against test_field(), which assembles
 * fields bit by bit from the wire format's definition, so the writer and
 * the reader are never only checked against each other.
 */
#include "test_util.h"

#include <stdlib.h>

/* Write `offset` filler bits, an n-bit value and a 7-bit sentinel; check
 * the bytes bit by bit, the zero padding, the measure, and read it back. */
static void check_field_at(unsigned offset, unsigned n, uint64_t value, uint64_t *rng)
{
    uint8_t buf[32];
    memset(buf, 0xa5, sizeof buf); /* the writer needs no cleared buffer */
    uint64_t filler = test_rand(rng) & test_mask(offset ? offset : 1);
    bitsift_writer w, m;
    bitsift_writer_init(&w, buf, sizeof buf);
    bitsift_writer_init_measure(&m);
    if (offset) {
        assert_true(bitsift_write_bits(&w, offset, filler));
        assert_true(bitsift_write_bits(&m, offset, filler));
    }
    assert_true(bitsift_write_bits(&w, n, value));
    assert_true(bitsift_write_bits(&m, n, value));
    assert_true(bitsift_write_bits(&w, 7, 0x55));
    uint64_t total = offset + n + 7;
    assert_int_equal(bitsift_writer_bit_pos(&w), total);
    assert_int_equal(bitsift_writer_bit_pos(&m), offset + n);
    assert_int_equal(bitsift_writer_bytes(&w), (total + 7) / 8);

    if (offset)
        assert_int_equal(test_field(buf, 0, offset), filler);
    assert_int_equal(test_field(buf, offset, n), value);
    assert_int_equal(test_field(buf, offset + n, 7), 0x55);
    for (uint64_t k = total; k < (total + 7) / 8 * 8; k++)
        assert_int_equal(test_bit(buf, k), 0); /* final byte zero-padded */

    /* Read from a buffer of exactly the written size. */
    size_t size = bitsift_writer_bytes(&w);
    uint8_t *exact = malloc(size);
    assert_non_null(exact);
    memcpy(exact, buf, size);
    bitsift_reader r;
    uint64_t got;
    bitsift_reader_init(&r, exact, size);
    if (offset) {
        assert_true(bitsift_read_bits(&r, offset, &got));
        assert_int_equal(got, filler);
    }
    assert_true(bitsift_read_bits(&r, n, &got));
    assert_int_equal(got, value);
    assert_true(bitsift_read_bits(&r, 7, &got));
    assert_int_equal(got, 0x55);
    assert_int_equal(bitsift_reader_bit_pos(&r), total);
    assert_true(bitsift_reader_ok(&r));
    free(exact);
}

static void test_bits_every_width_and_alignment(void **state)
{
    (void)state;
    uint64_t rng = 1;
    for (unsigned offset = 0; offset < 64; offset++) {
        for (unsigned n = 1; n <= 64; n++) {
            check_field_at(offset, n, test_mask(n), &rng);    /* all ones */
            check_field_at(offset, n, 1ull << (n - 1), &rng); /* top bit */
            check_field_at(offset, n, 0, &rng);               /* zeros */
            check_field_at(offset, n, test_rand(&rng) & test_mask(n), &rng);
        }
    }
}

/* The worked example of the vectors' README, bit for bit. */
static void test_readme_worked_example(void **state)
{
    (void)state;
    uint8_t buf[16];
    bitsift_writer w;
    bitsift_writer_init(&w, buf, sizeof buf);
    assert_true(bitsift_write_bits(&w, 3, 5));
    assert_true(bitsift_write_bool(&w, true));
    assert_true(bitsift_write_int(&w, -100, 100, -7));
    assert_true(bitsift_write_align(&w));
    assert_true(bitsift_write_bytes(&w, "\xab\xcd", 2));
    assert_true(bitsift_write_int_relative(&w, 100, 104));
    assert_true(bitsift_write_compressed_float(&w, 0.0f, 10.0f, 0.01f, 0.005f));
    assert_int_equal(bitsift_writer_bit_pos(&w), 47);
    static const uint8_t want[] = {0xdd, 0x05, 0xab, 0xcd, 0x2a, 0x00};
    assert_int_equal(bitsift_writer_bytes(&w), sizeof want);
    assert_memory_equal(buf, want, sizeof want);
}

static void test_fixed_width_primitives(void **state)
{
    (void)state;
    uint64_t rng = 2;
    for (unsigned offset = 0; offset < 8; offset++) {
        for (int round = 0; round < 64; round++) {
            uint8_t buf[32];
            bool b = test_rand(&rng) & 1;
            uint8_t u8 = (uint8_t)test_rand(&rng);
            uint16_t u16 = (uint16_t)test_rand(&rng);
            uint32_t u32 = (uint32_t)test_rand(&rng);
            uint64_t u64 = test_rand(&rng);
            if (round == 0) {
                b = true;
                u8 = UINT8_MAX;
                u16 = UINT16_MAX;
                u32 = UINT32_MAX;
                u64 = UINT64_MAX;
            }
            bitsift_writer w, m;
            bitsift_writer_init(&w, buf, sizeof buf);
            bitsift_writer_init_measure(&m);
            for (bitsift_writer *x = &w; x; x = x == &w ? &m : NULL) {
                if (offset)
                    assert_true(bitsift_write_bits(x, offset, 0));
                assert_true(bitsift_write_bool(x, b));
                assert_true(bitsift_write_uint8(x, u8));
                assert_true(bitsift_write_uint16(x, u16));
                assert_true(bitsift_write_uint32(x, u32));
                assert_true(bitsift_write_uint64(x, u64));
            }
            uint64_t total = offset + 1 + 8 + 16 + 32 + 64;
            assert_int_equal(bitsift_writer_bit_pos(&w), total);
            assert_int_equal(bitsift_writer_bit_pos(&m), total);
            assert_int_equal(test_field(buf, offset, 1), b);
            assert_int_equal(test_field(buf, offset + 1, 8), u8);
            assert_int_equal(test_field(buf, offset + 9, 16), u16);
            assert_int_equal(test_field(buf, offset + 25, 32), u32);
            assert_int_equal(test_field(buf, offset + 57, 64), u64);

            bitsift_reader r;
            bool rb;
            uint8_t r8;
            uint16_t r16;
            uint32_t r32;
            uint64_t r64;
            bitsift_reader_init(&r, buf, bitsift_writer_bytes(&w));
            if (offset)
                assert_true(bitsift_read_bits(&r, offset, &r64));
            assert_true(bitsift_read_bool(&r, &rb));
            assert_true(bitsift_read_uint8(&r, &r8));
            assert_true(bitsift_read_uint16(&r, &r16));
            assert_true(bitsift_read_uint32(&r, &r32));
            assert_true(bitsift_read_uint64(&r, &r64));
            assert_int_equal(rb, b);
            assert_int_equal(r8, u8);
            assert_int_equal(r16, u16);
            assert_int_equal(r32, u32);
            assert_int_equal(r64, u64);
        }
    }
}

/* For every buffer size 0..17 bytes, start offset and width: a read
 * succeeds exactly when the bits are there, and otherwise fails with
 * overflow at its first bit, saying how many bits it needed and had. */
static void test_read_overflow_every_length(void **state)
{
    (void)state;
    uint64_t rng = 3;
    for (size_t size = 0; size <= 17; size++) {
        uint8_t *buf = size ? malloc(size) : NULL;
        for (size_t i = 0; i < size; i++)
            buf[i] = (uint8_t)test_rand(&rng);
        for (unsigned offset = 0; offset <= 8 * size && offset < 70; offset++) {
            for (unsigned n = 1; n <= 64; n++) {
                bitsift_reader r;
                uint64_t v = 0xdeadbeef;
                bitsift_reader_init(&r, buf, size);
                if (offset) {
                    unsigned left = offset;
                    while (left) {
                        unsigned step = left > 64 ? 64 : left;
                        assert_true(bitsift_read_bits(&r, step, &v));
                        left -= step;
                    }
                }
                v = 0xdeadbeef;
                bool fits = offset + n <= 8 * size;
                assert_int_equal(bitsift_read_bits(&r, n, &v), fits);
                if (fits) {
                    assert_int_equal(v, test_field(buf, offset, n));
                } else {
                    assert_int_equal(v, 0xdeadbeef); /* untouched */
                    assert_reader_failed(&r, BITSIFT_E_OVERFLOW, offset);
                    assert_int_equal(bitsift_reader_failure(&r)->expected, n);
                    assert_int_equal(bitsift_reader_failure(&r)->got, 8 * size - offset);
                }
            }
        }
        free(buf);
    }
}

static void test_width_argument_checks(void **state)
{
    (void)state;
    uint8_t buf[16] = {0};
    bitsift_reader r;
    uint64_t v;
    bitsift_reader_init(&r, buf, sizeof buf);
    assert_false(bitsift_read_bits(&r, 0, &v));
    assert_reader_failed(&r, BITSIFT_E_ARGUMENT, 0);
    bitsift_reader_init(&r, buf, sizeof buf);
    assert_false(bitsift_read_bits(&r, 65, &v));
    assert_reader_failed(&r, BITSIFT_E_ARGUMENT, 0);

    bitsift_writer w;
    bitsift_writer_init(&w, buf, sizeof buf);
    assert_false(bitsift_write_bits(&w, 0, 0));
    assert_writer_failed(&w, BITSIFT_E_ARGUMENT);
    bitsift_writer_init(&w, buf, sizeof buf);
    assert_false(bitsift_write_bits(&w, 65, 0));
    assert_writer_failed(&w, BITSIFT_E_ARGUMENT);

    /* A value wider than its field is refused whole, never truncated. */
    for (unsigned n = 1; n < 64; n++) {
        memset(buf, 0, sizeof buf);
        bitsift_writer_init(&w, buf, sizeof buf);
        assert_false(bitsift_write_bits(&w, n, 1ull << n));
        assert_writer_failed(&w, BITSIFT_E_VALUE);
        assert_int_equal(bitsift_writer_bit_pos(&w), 0);
        assert_int_equal(bitsift_writer_failure(&w)->expected, test_mask(n));
        assert_int_equal(bitsift_writer_failure(&w)->got, 1ull << n);
        for (size_t i = 0; i < sizeof buf; i++)
            assert_int_equal(buf[i], 0);
    }
}

/* A writer never stores past its capacity: fill buffers of every capacity
 * inside a larger canary-filled one and look at the canaries. */
static void test_writer_capacity(void **state)
{
    (void)state;
    for (size_t capacity = 0; capacity <= 12; capacity++) {
        for (unsigned n = 1; n <= 64; n++) {
            uint8_t buf[32];
            memset(buf, 0xcc, sizeof buf);
            bitsift_writer w;
            bitsift_writer_init(&w, buf, capacity);
            uint64_t written = 0;
            while (bitsift_write_bits(&w, n, test_mask(n)))
                written += n;
            assert_writer_failed(&w, BITSIFT_E_OVERFLOW);
            assert_true(written <= 8 * capacity);
            assert_true(written + n > 8 * capacity);
            assert_int_equal(bitsift_writer_failure(&w)->expected, n);
            assert_int_equal(bitsift_writer_failure(&w)->got, 8 * capacity - written);
            for (size_t i = capacity; i < sizeof buf; i++)
                assert_int_equal(buf[i], 0xcc);
            /* Sticky: even a write that would fit now fails. */
            assert_false(bitsift_write_bool(&w, true));
            assert_false(bitsift_write_align(&w));
        }
    }
}

static void test_bits_required(void **state)
{
    (void)state;
    assert_int_equal(bitsift_bits_required(0, 0), 0);
    assert_int_equal(bitsift_bits_required(INT64_MIN, INT64_MIN), 0);
    assert_int_equal(bitsift_bits_required(INT64_MIN, INT64_MAX), 64);
    assert_int_equal(bitsift_bits_required(-1, INT64_MAX), 64);
    assert_int_equal(bitsift_bits_required(0, INT64_MAX), 63);
    assert_int_equal(bitsift_bits_required(-100, 100), 8);
    assert_int_equal(bitsift_bits_required(0, 40), 6);
    for (unsigned k = 1; k < 63; k++) {
        assert_int_equal(bitsift_bits_required(0, (int64_t)(1ull << k) - 1), k);
        assert_int_equal(bitsift_bits_required(0, (int64_t)(1ull << k)), k + 1);
        assert_int_equal(bitsift_bits_required(-7, (int64_t)(1ull << k) - 7 + 1), k + 1);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bits_every_width_and_alignment),
        cmocka_unit_test(test_readme_worked_example),
        cmocka_unit_test(test_fixed_width_primitives),
        cmocka_unit_test(test_read_overflow_every_length),
        cmocka_unit_test(test_width_argument_checks),
        cmocka_unit_test(test_writer_capacity),
        cmocka_unit_test(test_bits_required),
    };
    return cmocka_run_group_tests_name("bits", tests, NULL, NULL);
}
