/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_cfloat_round_trip.c -- compressed_float written back from what
 * was read: bitsift_compressed_float_quantize (what the serialize macros,
 * generated code and the schema interpreter write) against
 * bitsift_compressed_float_value, over step counts from 2 to 2^32 - 1
 * (log-spaced, the edges around 2^24, odd counts in [2^23 + 1, 2^24 - 1]
 * where the reference can round past the top, 4294967040), for raw values
 * at both ends, in the middle and at random, and exhaustively for a few
 * counts:
 *
 *   - the integer written reads back as the very float that was read;
 *   - it is the integer that was read whenever no other integer reads as
 *     the same float (above about 2^24 steps several can: then any of
 *     them is right, and none of the others can be told apart);
 *   - it is the reference writer's integer (clamped to the step count)
 *     whenever that one reads back as the value, for any float;
 *   - the serialize macros write it and read it back.
 */
#include "test_util.h"

#include <math.h>
#include <stdio.h>

static uint32_t bits_of(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

/* The reference writer's integer with our clamp (DESIGN.md's formula;
 * volatile: one float32 rounding per step, nothing fused or widened). */
static uint32_t reference_quantize(float min, float max, uint32_t steps, float value)
{
    volatile float delta = max - min;
    volatile float t = value - min;
    volatile float n = t / delta;
    if (!(n >= 0.0f))
        n = 0.0f;
    else if (!(n <= 1.0f))
        n = 1.0f;
    volatile float s = n * (float)steps;
    volatile float sum = s + 0.5f;
    float q = floorf(sum);
    return q >= (float)steps ? steps : (uint32_t)q;
}

static float value_of(float min, float max, uint32_t steps, uint32_t raw)
{
    return bitsift_compressed_float_value(min, max, steps, raw);
}

/* No other integer reads as raw's float (the values only grow with the
 * integer, so the neighbours say it). */
static bool alone(float min, float max, uint32_t steps, uint32_t raw)
{
    uint32_t v = bits_of(value_of(min, max, steps, raw));
    return (raw == 0 || bits_of(value_of(min, max, steps, raw - 1)) != v) &&
           (raw == steps || bits_of(value_of(min, max, steps, raw + 1)) != v);
}

struct tally {
    uint64_t raws, alone, shared, rounded_elsewhere;
};

/* One raw integer read, then written back. */
static void check_raw(float min, float max, uint32_t steps, uint32_t raw, struct tally *t)
{
    float v = value_of(min, max, steps, raw);
    uint32_t q = bitsift_compressed_float_quantize(min, max, steps, v);
    bool ok = q <= steps && bits_of(value_of(min, max, steps, q)) == bits_of(v);
    bool single = alone(min, max, steps, raw);
    if (single && q != raw)
        ok = false;
    if (!ok)
        fail_msg("compressed_float(%a, %a) steps %u: raw %u reads %a (%.9g), written back as "
                 "%u (reads %a)%s",
                 (double)min, (double)max, steps, raw, (double)v, (double)v, q,
                 (double)value_of(min, max, steps, q <= steps ? q : steps),
                 single ? "; no other integer reads as that float" : "");
    uint32_t ref = reference_quantize(min, max, steps, v);
    if (bits_of(value_of(min, max, steps, ref)) == bits_of(v))
        assert_int_equal(q, ref); /* the reference's own answer when it is exact */
    else
        t->rounded_elsewhere++;
    t->raws++;
    if (single)
        t->alone++;
    else
        t->shared++;
}

/* Any float (not one read): the reference's integer unless that one does
 * not read back as the value and q does. */
static void check_any(float min, float max, uint32_t steps, float v)
{
    uint32_t q = bitsift_compressed_float_quantize(min, max, steps, v);
    uint32_t ref = reference_quantize(min, max, steps, v);
    assert_true(q <= steps);
    if (q != ref) {
        assert_int_not_equal(bits_of(value_of(min, max, steps, ref)), bits_of(v));
        assert_int_equal(bits_of(value_of(min, max, steps, q)), bits_of(v));
    }
}

/* A serialize function of one compressed_float_steps field, as generated
 * code writes them. */
struct one_field {
    float min, max, v;
    uint32_t steps;
    unsigned bits;
};

static bool serialize_one(void *stream, int mode, struct one_field *f)
{
    bitsift_serialize_named(stream, mode, "v", compressed_float_steps, f->v,
                            (f->min, f->max, f->steps, f->bits));
    return true;
}

/* The serialize macros write the integer read and read it back. */
static void check_macros(float min, float max, uint32_t steps, uint32_t raw)
{
    struct one_field f = {min, max, 0.0f, steps, bitsift_bits_required(0, steps)};
    uint8_t in[8] = {0}, out[8] = {0};
    bitsift_writer w;
    bitsift_writer_init(&w, in, sizeof in);
    assert_true(bitsift_write_bits(&w, f.bits, raw));
    bitsift_reader r;
    bitsift_reader_init(&r, in, sizeof in);
    assert_true(serialize_one(&r, BITSIFT_READ, &f));
    assert_int_equal(bits_of(f.v), bits_of(value_of(min, max, steps, raw)));
    bitsift_writer_init(&w, out, sizeof out);
    assert_true(serialize_one(&w, BITSIFT_WRITE, &f));
    uint64_t back = test_field(out, 0, f.bits);
    assert_int_equal(back, bitsift_compressed_float_quantize(min, max, steps, f.v));
    if (alone(min, max, steps, raw))
        assert_int_equal(back, raw);
}

/* Step counts: every quarter power of two from 2 to 2^32 - 1 and the
 * edges. */
static size_t step_counts(uint32_t *out, size_t cap)
{
    size_t n = 0;
    for (int k = 4; k <= 128 && n < cap; k++) {
        double m = floor(pow(2.0, k / 4.0));
        out[n++] = m >= 4294967295.0 ? 4294967295u : (uint32_t)m;
    }
    static const uint32_t edges[] = {
        2,         3,         (1u << 23) - 1, (1u << 23),     (1u << 23) + 1, (1u << 23) + 3,
        12582911,  16777211,  (1u << 24) - 3, (1u << 24) - 1, (1u << 24),     (1u << 24) + 1,
        (1u << 24) + 2,       (1u << 24) + 3, 20000000,       (1u << 25) + 1, 1000000007,
        4294967039u, 4294967040u, 4294967041u, 4294967295u,
    };
    for (size_t i = 0; i < sizeof edges / sizeof edges[0] && n < cap; i++)
        out[n++] = edges[i];
    return n;
}

static void test_round_trip_across_step_counts(void **state)
{
    (void)state;
    static const float ranges[][2] = {
        {0.0f, 1.0f},     {-1000.0f, 1000.0f}, {-3904.0f, 100.0f}, {40.5f, 40.97f},
        {-1.0f, 1.0f},    {1e-3f, 7e6f},       {-256.0f, 255.0f},
    };
    uint32_t counts[200];
    size_t ncounts = step_counts(counts, 200);
    uint64_t rng = 34;
    struct tally t = {0};
    for (size_t c = 0; c < ncounts; c++) {
        uint32_t steps = counts[c];
        for (size_t g = 0; g < sizeof ranges / sizeof ranges[0] + 1; g++) {
            /* and [0, steps] itself, where every integer is a float */
            float min = g < sizeof ranges / sizeof ranges[0] ? ranges[g][0] : 0.0f;
            float max = g < sizeof ranges / sizeof ranges[0] ? ranges[g][1] : (float)steps;
            uint32_t mid = steps / 2;
            const uint32_t fixed[] = {0, 1, mid - 1, mid, mid + 1, steps - 1, steps};
            for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++) {
                check_raw(min, max, steps, fixed[i], &t);
                check_macros(min, max, steps, fixed[i]);
            }
            for (int i = 0; i < 48; i++) {
                uint32_t raw = (uint32_t)test_below(&rng, (uint64_t)steps + 1);
                check_raw(min, max, steps, raw, &t);
                if (i < 4)
                    check_macros(min, max, steps, raw);
                /* a float near it that no read gave */
                float v = value_of(min, max, steps, raw);
                check_any(min, max, steps, nextafterf(v, INFINITY));
                check_any(min, max, steps, min + (max - min) * (float)test_below(&rng, 1u << 24) /
                                                    16777216.0f);
            }
            check_any(min, max, steps, min - 1.0f);
            check_any(min, max, steps, max + 1.0f);
            check_any(min, max, steps, NAN);
            check_any(min, max, steps, INFINITY);
        }
    }
    /* Both kinds were met, and the reference's rounding missed often. */
    assert_true(t.alone > 10000 && t.shared > 1000 && t.rounded_elsewhere > 1000);
    printf("# %llu raw values over %zu step counts: %llu read as no other integer does, %llu "
           "share their float; the reference's rounding did not give back %llu\n",
           (unsigned long long)t.raws, ncounts, (unsigned long long)t.alone,
           (unsigned long long)t.shared, (unsigned long long)t.rounded_elsewhere);
}

/* Every raw integer of a few step counts, the field among them
 * (compressed_float(-1000, 1000, 0.0001): 20000000 steps) by stride. */
static void test_round_trip_exhaustive(void **state)
{
    (void)state;
    static const struct {
        float min, max;
        uint32_t steps, stride;
    } cases[] = {
        {0.0f, 1.0f, (1u << 23) + 1, 7},    {-1.0f, 1.0f, (1u << 24) - 1, 13},
        {-1000.0f, 1000.0f, 20000000, 17}, {-3904.0f, 100.0f, 4294967040u, 40009},
        {0.0f, 10.0f, 1000, 1},            {-256.0f, 255.0f, 51100, 1},
    };
    struct tally t = {0};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        for (uint64_t raw = 0; raw <= cases[i].steps; raw += cases[i].stride)
            check_raw(cases[i].min, cases[i].max, cases[i].steps, (uint32_t)raw, &t);
    assert_true(t.shared > 0 && t.rounded_elsewhere > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip_across_step_counts),
        cmocka_unit_test(test_round_trip_exhaustive),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
