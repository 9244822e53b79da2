/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_crc32.c -- bitsift_crc32 against zlib's crc32() (the definition the
 * wire format names) on random buffers of many sizes and alignments, fed
 * whole and in pieces, whichever implementation the build chose; and that
 * a call leaves no dirty upper vector state behind (x86).
 */
#include "test_util.h"

#include <stdlib.h>
#include <zlib.h>

#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
#include <cpuid.h>
#include <immintrin.h>
#define TEST_XINUSE 1
#endif

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

#if defined(TEST_XINUSE)
/* XGETBV with ECX = 1 (XINUSE) says which register states are not in
 * their initial state; the CPU reports whether it has it in CPUID leaf
 * 0xD, sub-leaf 1, EAX bit 2 (XSAVE enabled by the OS first). */
static int has_xinuse(void)
{
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & bit_OSXSAVE))
        return 0;
    if (__get_cpuid_max(0, NULL) < 0xD)
        return 0;
    __cpuid_count(0xD, 1, a, b, c, d);
    return (a & 4u) != 0;
}

static uint64_t xinuse(void)
{
    uint32_t lo, hi;
    __asm__ volatile(".byte 0x0f, 0x01, 0xd0" : "=a"(lo), "=d"(hi) : "c"(1)); /* xgetbv */
    return (uint64_t)hi << 32 | lo;
}

/* XINUSE bits 2 (YMM upper halves) and 6 (ZMM upper halves of 0..15). */
#define UPPER_STATE ((1u << 2) | (1u << 6))

/* The upper-state bits XINUSE reports right after a VZEROUPPER of our
 * own. A CPU may report a component as in use when it is not; where it
 * does so here, it cannot tell clean from dirty and the test is moot. */
__attribute__((target("avx"))) static uint64_t upper_state_after_zeroupper(void)
{
    _mm256_zeroupper();
    return xinuse() & UPPER_STATE;
}
#endif

/*
 * After bitsift_crc32 the upper halves of the vector registers are clean
 * (XINUSE bits 2, YMM upper halves, and 6, ZMM upper halves of registers
 * 0..15). ISA-L's AVX-512 kernel returns with them dirty, and on Intel
 * cores the caller's next legacy-SSE instruction then pays a state
 * transition: `bitsift validate` ran at half speed on such a CPU.
 * Registers 16..31 (bit 7) cannot slow SSE code and are left out.
 */
static void test_upper_state_clean(void **state)
{
    (void)state;
#if defined(TEST_XINUSE)
    if (!has_xinuse() || !__builtin_cpu_supports("avx") || upper_state_after_zeroupper() != 0)
        skip(); /* no way to ask this CPU */
    static const size_t sizes[] = {16, 64, 140, 1200, 4096};
    static uint8_t buf[4096];
    for (size_t i = 0; i < sizeof buf; i++)
        buf[i] = (uint8_t)(i * 131u);
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        uint32_t crc = bitsift_crc32(0, buf, sizes[i]);
        uint64_t in_use = xinuse();
        assert_int_equal(crc, (uint32_t)crc32(0L, buf, (uInt)sizes[i]));
        if (in_use & UPPER_STATE)
            fail_msg("dirty upper vector state (XINUSE 0x%llx) after a CRC of %zu bytes",
                     (unsigned long long)in_use, sizes[i]);
    }
#else
    skip(); /* not an x86 build */
#endif
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_check_value),
        cmocka_unit_test(test_against_zlib),
        cmocka_unit_test(test_single_bit_flips),
        cmocka_unit_test(test_upper_state_clean),
    };
    return cmocka_run_group_tests_name("crc32", tests, NULL, NULL);
}
