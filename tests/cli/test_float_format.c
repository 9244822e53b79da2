/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_float_format.c -- format_float32/64 (src/print/float_format.c) give
 * exactly the text of the printf loop they replaced (float_oracle.c):
 * special values, every power of two and its neighbours, powers of ten,
 * short decimals and halfway cases, the edges of the common-float path,
 * millions of random bit patterns, and the values every compressed_float
 * of the example schemas can decode to.
 *
 * tests/cli/float-exhaustive (not run by make check: hours) compares all
 * 2^32 float bit patterns, or a range of them.
 */
#include <float.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "bitsift.h"
#include "print/float_format.h"
#include "float_oracle.h"

static unsigned long long compared;

static void same_as_oracle32(uint32_t bits)
{
    float v;
    memcpy(&v, &bits, sizeof v);
    char got[48], want[48];
    memset(got, 'x', sizeof got);
    size_t got_len = format_float32(got, v);
    size_t want_len = oracle_format_float32(want, v);
    if (got_len != want_len || strcmp(got, want) != 0 || got_len != strlen(got))
        fail_msg("float 0x%08x: \"%s\" (%zu), printf loop gives \"%s\" (%zu)", bits, got, got_len,
                 want, want_len);
    compared++;
}

static void same_as_oracle64(uint64_t bits)
{
    double v;
    memcpy(&v, &bits, sizeof v);
    char got[48], want[48];
    memset(got, 'x', sizeof got);
    size_t got_len = format_float64(got, v);
    size_t want_len = oracle_format_float64(want, v);
    if (got_len != want_len || strcmp(got, want) != 0 || got_len != strlen(got))
        fail_msg("double 0x%016llx: \"%s\" (%zu), printf loop gives \"%s\" (%zu)",
                 (unsigned long long)bits, got, got_len, want, want_len);
    compared++;
}

static void check_float(float v)
{
    uint32_t bits;
    memcpy(&bits, &v, sizeof bits);
    same_as_oracle32(bits);
    same_as_oracle32(bits ^ UINT32_C(0x80000000));
}

static void check_double(double v)
{
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    same_as_oracle64(bits);
    same_as_oracle64(bits ^ (UINT64_C(1) << 63));
}

/* xorshift64: reproducible random bits. */
static uint64_t next_random(uint64_t *x)
{
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    return *x;
}

static void special_values(void **state)
{
    (void)state;
    static const uint32_t float_bits[] = {
        0x00000000, 0x80000000, 0x00000001, 0x00000002, 0x007fffff, 0x00800000, 0x00800001,
        0x7f7fffff, 0x7f7ffffe, 0x7f000000, 0x7f800000, 0xff800000, 0x7f800001, 0x7fc00000,
        0xffc00000, 0x7fffffff, 0xffffffff, 0xffc00123, 0x3f800000, 0x3f800001, 0x3f7fffff,
    };
    for (size_t i = 0; i < sizeof float_bits / sizeof float_bits[0]; i++)
        same_as_oracle32(float_bits[i]);
    static const uint64_t double_bits[] = {
        0x0000000000000000, 0x8000000000000000, 0x0000000000000001, 0x000fffffffffffff,
        0x0010000000000000, 0x7fefffffffffffff, 0x7ff0000000000000, 0xfff0000000000000,
        0x7ff0000000000001, 0x7ff8000000000000, 0xfff8000000000000, 0x7fffffffffffffff,
        0x3ff0000000000000, 0x3ff0000000000001, 0x3fefffffffffffff,
    };
    for (size_t i = 0; i < sizeof double_bits / sizeof double_bits[0]; i++)
        same_as_oracle64(double_bits[i]);
    static const float floats[] = {
        0.1f,        0.2f,        0.3f,         1.0f / 3,  2.0f / 3,    1e-5f,       1e-4f,
        9.9999e-5f,  0.5f,        1.5f,         100000.0f, 999999.0f,   1000000.0f,  9999999.0f,
        16777216.0f, 16777215.0f, 123456789.0f, 1e10f,     3.14159265f, 2.71828182f, FLT_EPSILON,
        FLT_MIN,     FLT_MAX,     1e-32f,       1e-33f,    1e38f,       -66.6f,      66.600006f,
        3325.46f,    1744.6802f,  -0.14860994f, 5.300003f,
    };
    for (size_t i = 0; i < sizeof floats / sizeof floats[0]; i++)
        check_float(floats[i]);
    static const double doubles[] = {
        0.1,
        0.2,
        0.3,
        1.0 / 3,
        1e-5,
        1e-4,
        1e15,
        1e16,
        1e17,
        9007199254740992.0,
        9007199254740993.0,
        1e300,
        1e-300,
        DBL_EPSILON,
        DBL_MIN,
        DBL_MAX,
        1e-15,
        1e37,
        1e38,
        123456789012345678.0,
        0.30000000000000004,
        3.141592653589793,
    };
    for (size_t i = 0; i < sizeof doubles / sizeof doubles[0]; i++)
        check_double(doubles[i]);
}

/* Every power of two, with the neighbours on both sides of each. */
static void powers_of_two(void **state)
{
    (void)state;
    for (uint32_t biased = 0; biased < 0xff; biased++) {
        uint32_t base = biased << 23;
        for (int64_t delta = -4; delta <= 4; delta++) {
            int64_t bits = (int64_t)base + delta;
            if (bits >= 0 && bits < 0x7f800000) {
                same_as_oracle32((uint32_t)bits);
                same_as_oracle32((uint32_t)bits | UINT32_C(0x80000000));
            }
        }
    }
    for (uint64_t biased = 0; biased < 0x7ff; biased++) {
        uint64_t base = biased << 52;
        for (int64_t delta = -3; delta <= 3; delta++) {
            int64_t bits = (int64_t)base + delta;
            if (bits >= 0 && (uint64_t)bits < UINT64_C(0x7ff0000000000000))
                same_as_oracle64((uint64_t)bits);
        }
    }
}

/* The bits of the float32 and the float64 nearest 10^x. */
static uint32_t float32_bits_of_1e(int x)
{
    char text[32];
    snprintf(text, sizeof text, "1e%d", x);
    float v = strtof(text, NULL);
    uint32_t bits;
    memcpy(&bits, &v, sizeof bits);
    return bits;
}

static uint64_t float64_bits_of_1e(int x)
{
    char text[32];
    snprintf(text, sizeof text, "1e%d", x);
    double v = strtod(text, NULL);
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    return bits;
}

/* Powers of ten and short decimals: where rounding lands on ties, where
 * %g switches between fixed and exponent form, and where the shortest
 * text is found early. */
static void decimals(void **state)
{
    (void)state;
    for (int x = -45; x <= 38; x++) {
        uint32_t bits = float32_bits_of_1e(x);
        for (int delta = -2; delta <= 2; delta++)
            if (bits + (uint32_t)delta < 0x7f800000u)
                same_as_oracle32(bits + (uint32_t)delta);
    }
    for (int x = -320; x <= 308; x++) {
        uint64_t bits = float64_bits_of_1e(x);
        for (int delta = -2; delta <= 2; delta++)
            same_as_oracle64(bits + (uint64_t)(int64_t)delta);
    }
    uint64_t x = 0x2545f4914f6cdd1du;
    for (int i = 0; i < 300000; i++) {
        /* n / 10^s for n of 1..9 digits: values a user types */
        uint64_t r = next_random(&x);
        unsigned n_digits = 1 + (unsigned)(r % 9);
        uint64_t n = (r >> 8) % 1000000000u;
        while (n_digits < 9 && n >= 10) {
            n /= 10;
            n_digits++;
        }
        int s = (int)((r >> 48) % 30) - 12;
        char text[48];
        snprintf(text, sizeof text, "%llue%d", (unsigned long long)n, -s);
        check_float(strtof(text, NULL));
        check_double(strtod(text, NULL));
        /* odd multiples of half a unit of 6..9 digits: ties before the
         * round trip decides */
        snprintf(text, sizeof text, "%llu5e%d", (unsigned long long)n, -s);
        check_float(strtof(text, NULL));
        check_double(strtod(text, NULL));
    }
}

/* The edges of the common-float path (2^-29 <= |v| < 2^22): around each
 * power of ten, where a binade's table row switches to one digit fewer of
 * scale and where 9 digits of 9s round up into the next decade; and runs
 * of consecutive floats at the top binades, whose few fraction bits give
 * exact ties between two decimals of the same length. */
static void common_path_edges(void **state)
{
    (void)state;
    for (int x = -10; x <= 8; x++) {
        uint32_t bits = float32_bits_of_1e(x);
        for (int delta = -300; delta <= 300; delta++) {
            same_as_oracle32(bits + (uint32_t)delta);
            same_as_oracle32((bits + (uint32_t)delta) | UINT32_C(0x80000000));
        }
    }
    /* 2^19, 2^20, 2^21: fraction steps of 1/16, 1/8, 1/4; 2^-29, the
     * first row, and 2^22, past the last */
    static const uint32_t starts[] = {0x49000000, 0x49800000, 0x4a000000, 0x4a7e0000,
                                      0x31000000, 0x4a800000};
    for (size_t i = 0; i < sizeof starts / sizeof starts[0]; i++)
        for (uint32_t j = 0; j < 65536; j++)
            same_as_oracle32(starts[i] + j);
}

/* Uniform random bit patterns (mostly extreme magnitudes), then random
 * significands over the magnitudes packets hold (1e-12 .. 1e12). */
static void random_patterns(void **state)
{
    (void)state;
    uint64_t x = 0x9e3779b97f4a7c15u;
    for (int i = 0; i < 1000000; i++)
        same_as_oracle32((uint32_t)next_random(&x));
    for (int i = 0; i < 2000000; i++) {
        uint32_t r = (uint32_t)next_random(&x);
        uint32_t biased = 87 + (r >> 24) % 81; /* 2^-40 .. 2^40 */
        same_as_oracle32((r & UINT32_C(0x807fffff)) | biased << 23);
    }
    for (int i = 0; i < 300000; i++)
        same_as_oracle64(next_random(&x));
    for (int i = 0; i < 700000; i++) {
        uint64_t r = next_random(&x);
        uint64_t biased = 983 + (r >> 52) % 81;
        same_as_oracle64((r & UINT64_C(0x800fffffffffffff)) | biased << 52);
    }
    /* floats widened to doubles: few significant bits */
    for (int i = 0; i < 300000; i++) {
        uint32_t r = (uint32_t)next_random(&x);
        uint32_t biased = 87 + (r >> 24) % 81;
        uint32_t bits = (r & UINT32_C(0x807fffff)) | biased << 23;
        float f;
        memcpy(&f, &bits, sizeof f);
        check_double((double)f);
    }
    print_message("# %llu values compared so far\n", compared);
}

/* The value a compressed_float field decodes raw to, through the library. */
static float dequantize(float min, float max, float res, unsigned width, uint64_t raw)
{
    uint8_t data[16] = {0};
    for (unsigned i = 0; i < 8; i++)
        data[i] = (uint8_t)(raw >> (8 * i)); /* LSB-first bits: little-endian bytes */
    bitsift_reader r;
    bitsift_reader_init(&r, data, sizeof data);
    float v = NAN;
    assert_true(bitsift_read_compressed_float(&r, min, max, res, &v));
    assert_int_equal(bitsift_reader_bit_pos(&r), width);
    return v;
}

static void example_compressed_floats(void **state)
{
    (void)state;
    static const char *const schemas[] = {"article.bss", "robocat.bss", "scenes.bss",
                                          "shooter.bss"};
    const char *top = getenv("top_srcdir");
    if (!top)
        top = ".";
    unsigned fields = 0;
    uint64_t x = 0x853c49e6748fea9bu;
    for (size_t s = 0; s < sizeof schemas / sizeof schemas[0]; s++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/examples/%s", top, schemas[s]);
        bitsift_schema_error err;
        bitsift_schema *schema = bitsift_schema_load_file(path, &err);
        if (!schema)
            fail_msg("cannot load %s", path);
        for (unsigned id = 0; id < bitsift_schema_field_count(schema); id++) {
            bitsift_field_info info;
            assert_true(bitsift_schema_field_info(schema, id, &info));
            if (info.type != BITSIFT_FIELD_COMPRESSED_FLOAT)
                continue;
            uint32_t steps;
            unsigned width;
            assert_true(bitsift_compressed_float_steps(info.fmin, info.fmax, info.resolution,
                                                       &steps, &width));
            assert_int_equal(width, info.width);
            fields++;
            /* every step of a small field, the ends and 100000 random ones of a large one */
            uint64_t count = steps < 200000 ? (uint64_t)steps + 1 : 100000;
            for (uint64_t i = 0; i < count; i++) {
                uint64_t raw = steps < 200000 ? i : next_random(&x) % ((uint64_t)steps + 1);
                if (i < 2)
                    raw = i ? steps : 0;
                check_float(dequantize(info.fmin, info.fmax, info.resolution, width, raw));
            }
        }
        bitsift_schema_free(schema);
    }
    assert_true(fields >= 10); /* the examples have that many; a parse change shows here */
    print_message("# %u compressed_float fields; %llu values compared in all\n", fields, compared);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(special_values),
        cmocka_unit_test(powers_of_two),
        cmocka_unit_test(decimals),
        cmocka_unit_test(common_path_edges),
        cmocka_unit_test(random_patterns),
        cmocka_unit_test(example_compressed_floats),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
