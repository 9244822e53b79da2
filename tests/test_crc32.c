/*
 * test_crc32.c -- bitsift_crc32 against zlib's crc32() (the definition the
 * wire format names) on random buffers of many sizes and alignments, fed
 * whole and in pieces, whichever implementation the build chose.
 */
#include "test_util.h"

#include <stdlib.h>
#include <zlib.h>

static void test_check_value(void **state)
{
    (void)state;
    assert_int_equal(bitsift_crc32(0, "123456789", 9), 0xCBF43926u);
    assert_int_equal(bitsift_crc32(0, "", 0), 0);
    assert_int_equal(bitsift_crc32(0x12345678, NULL, 0), 0x12345678); /* empty: unchanged */
    assert_non_null(bitsift_crc32_implementation());
}

static void test_against_zlib(void **state)
{
    (void)state;
    enum { MAX = 4096 + 64 };
    uint64_t rng = 20;
    uint8_t *block = malloc(MAX + 16);
    assert_non_null(block);
    for (size_t i = 0; i < MAX + 16; i++)
        block[i] = (uint8_t)test_rand(&rng);
    /* Every size up to 2 KiB, then packet-ish and larger ones, at every
     * alignment 0..15. */
    for (size_t size = 0; size <= MAX; size += size < 2048 ? 1 : 61) {
        for (size_t align = 0; align < 16; align += size < 2048 ? 5 : 1) {
            const uint8_t *p = block + align;
            uint32_t want = (uint32_t)crc32(0L, p, (uInt)size);
            assert_int_equal(bitsift_crc32(0, p, size), want);
            /* Continued in two pieces at a random cut. */
            size_t cut = size ? (size_t)test_below(&rng, size + 1) : 0;
            uint32_t part = bitsift_crc32(0, p, cut);
            assert_int_equal(bitsift_crc32(part, p + cut, size - cut), want);
            /* And from a non-zero start value, as zlib continues. */
            uint32_t seed = (uint32_t)test_rand(&rng);
            assert_int_equal(bitsift_crc32(seed, p, size), (uint32_t)crc32(seed, p, (uInt)size));
        }
    }
    free(block);
}

/* A single flipped bit anywhere always changes the CRC. */
static void test_single_bit_flips(void **state)
{
    (void)state;
    uint8_t buf[1500];
    uint64_t rng = 21;
    for (size_t i = 0; i < sizeof buf; i++)
        buf[i] = (uint8_t)test_rand(&rng);
    uint32_t base = bitsift_crc32(0, buf, sizeof buf);
    for (size_t k = 0; k < 8 * sizeof buf; k += 7) {
        buf[k / 8] ^= (uint8_t)(1u << (k % 8));
        assert_int_not_equal(bitsift_crc32(0, buf, sizeof buf), base);
        buf[k / 8] ^= (uint8_t)(1u << (k % 8));
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_check_value),
        cmocka_unit_test(test_against_zlib),
        cmocka_unit_test(test_single_bit_flips),
    };
    return cmocka_run_group_tests_name("crc32", tests, NULL, NULL);
}
