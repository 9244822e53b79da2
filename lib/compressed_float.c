/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * compressed_float.c -- compressed_float(min, max, res): a float quantized
 * to about `res` inside [min, max], bit-exact with the reference.
 *
 * Every step is one float32 operation rounded to nearest even; the build
 * passes -ffp-contract=off so that no multiply and add are fused, and the
 * `volatile`-free code below stores each intermediate in a float so that
 * no wider precision sneaks in (x87 is not a target; SSE is exact).
 *
 *   delta  = max - min
 *   values = delta / res, clamped to [1, 4294967040] (NaN -> 1)
 *   M      = ceil(values)                    (the step count)
 *   W      = bits_required(0, M)             (wire width, 1..32)
 *   write  Q = floor(clamp((v - min) / delta, 0, 1) * M + 0.5)
 *   read   Q <= M, then v = Q / M * delta + min
 *
 * The reference's Q does not always read back as v even when another
 * integer does (for compressed_float(-1000, 1000, 0.0001), one integer in
 * three read and rounded again comes out different), so a packet read and
 * written again can change. bitsift_compressed_float_quantize gives
 * that other integer (the round trip of the serialize macros, generated
 * code and the schema interpreter); bitsift_write_compressed_float keeps
 * the reference's Q, byte for byte. Above about 2^24 steps several
 * integers can read as one float: no float-only writer gives back every
 * one of them, only a float that still is the value they read.
 */
#include <math.h>

#include "bitsift_internal.h"

/* Largest float32 below 2^32: the step count must fit 32 bits. */
#define MAX_STEPS_FLOAT 4294967040.0f

bool bitsift_compressed_float_steps(float min, float max, float res, uint32_t *steps,
                                    unsigned *bits)
{
    if (!isfinite(min) || !isfinite(max) || !isfinite(res) || !(min <= max) || !(res > 0.0f))
        return false;
    float delta = max - min;
    if (!isfinite(delta))
        return false; /* e.g. -FLT_MAX .. FLT_MAX */
    float values = delta / res;
    if (!(values >= 1.0f))
        values = 1.0f;
    else if (values > MAX_STEPS_FLOAT)
        values = MAX_STEPS_FLOAT;
    uint32_t m = (uint32_t)ceilf(values);
    *steps = m;
    *bits = bitsift_bits_required(0, (int64_t)m);
    return true;
}

/* raw / steps * delta + min, each step a float32 operation; inline here so
 * that the library's own reads do not call through its exported symbol. */
static inline float compressed_float_value(float min, float max, uint32_t steps, uint32_t raw)
{
    float delta = max - min;
    float n = (float)raw / (float)steps;
    float s = n * delta;
    return s + min;
}

uint32_t bitsift__compressed_float_quantize(float min, float max, uint32_t steps, float value)
{
    float delta = max - min;
    float t = value - min;
    float n = t / delta;
    if (!(n >= 0.0f))
        n = 0.0f; /* also NaN */
    else if (!(n <= 1.0f))
        n = 1.0f;
    float s = n * (float)steps;
    float rounded = s + 0.5f;
    float q = floorf(rounded);
    /* The reference can round up to steps + 1 (odd steps in [2^23+1,
     * 2^24-1] at the top of the range) and then refuses its own output;
     * clamp so that we never write what our reader rejects. */
    if (q >= (float)steps)
        return steps;
    return (uint32_t)q;
}

float bitsift_compressed_float_value(float min, float max, uint32_t steps, uint32_t raw)
{
    return compressed_float_value(min, max, steps, raw);
}

/* The value read from an integer only grows with the integer (each float
 * operation is monotonic), so the integers that read as one float are a
 * run, found by galloping away from the reference's Q and then bisecting.
 * The reads of Q and its two neighbours decide most calls; the search
 * takes a few dozen more at most (Q can be hundreds of integers off when
 * there are billions of steps). */

/* The first integer in (below, steps] that reads as `value` or more,
 * steps + 1 when none; the one at `below` reads as less. */
static uint64_t first_reading_at_least(float min, float max, uint32_t steps, uint64_t below,
                                       float value)
{
    uint64_t lo = below, hi = below + 1, stride = 1;
    while (hi <= steps && compressed_float_value(min, max, steps, (uint32_t)hi) < value) {
        lo = hi;
        stride *= 2;
        hi = lo + stride;
    }
    if (hi > steps)
        hi = (uint64_t)steps + 1;
    while (hi - lo > 1) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (compressed_float_value(min, max, steps, (uint32_t)mid) < value)
            lo = mid;
        else
            hi = mid;
    }
    return hi;
}

/* The last integer in [0, above) that reads as `value` or less, -1 when
 * none; the one at `above` reads as more. */
static int64_t last_reading_at_most(float min, float max, uint32_t steps, int64_t above,
                                    float value)
{
    int64_t hi = above, lo = above - 1, stride = 1;
    while (lo >= 0 && compressed_float_value(min, max, steps, (uint32_t)lo) > value) {
        hi = lo;
        stride *= 2;
        lo = hi - stride;
    }
    if (lo < 0)
        lo = -1;
    while (hi - lo > 1) {
        int64_t mid = lo + (hi - lo) / 2;
        if (compressed_float_value(min, max, steps, (uint32_t)mid) > value)
            hi = mid;
        else
            lo = mid;
    }
    return lo;
}

uint32_t bitsift_compressed_float_quantize(float min, float max, uint32_t steps, float value)
{
    uint32_t q = bitsift__compressed_float_quantize(min, max, steps, value);
    if (value != value)
        return q;
    /* Most floats fall between the reads of q and a neighbour: the three
     * reads are independent, so they cost about one. */
    float back = compressed_float_value(min, max, steps, q);
    float prev = compressed_float_value(min, max, steps, q > 0 ? q - 1 : q);
    float next = compressed_float_value(min, max, steps, q < steps ? q + 1 : q);
    /* Beyond a neighbour (rare: many steps): search further. */
    if (BITSIFT_UNLIKELY(back < value && q < steps && next < value)) {
        uint64_t up = first_reading_at_least(min, max, steps, q + 1, value);
        if (up <= steps && compressed_float_value(min, max, steps, (uint32_t)up) == value)
            return (uint32_t)up;
        return q;
    }
    if (BITSIFT_UNLIKELY(back > value && q > 0 && prev > value)) {
        int64_t down = last_reading_at_most(min, max, steps, (int64_t)q - 1, value);
        if (down >= 0 && compressed_float_value(min, max, steps, (uint32_t)down) == value)
            return (uint32_t)down;
        return q;
    }
    if (back != value && next == value)
        return q + 1; /* next == back when q == steps */
    if (back != value && prev == value)
        return q - 1;
    return q; /* no integer reads as `value`: the reference's */
}

/* The read once the step count and width are known to be right. */
static bool read_quantized(bitsift_reader *r, float min, float max, uint32_t steps, unsigned bits,
                           float *value)
{
    uint64_t at = r->bit_pos;
    uint64_t raw;
    if (!bitsift__read_window_bits(r, bits, &raw))
        return false;
    if (BITSIFT_UNLIKELY(raw > steps))
        return bitsift_reader_fail(r, BITSIFT_E_RANGE, at, "quantized value above step count",
                                   steps, raw);
    *value = compressed_float_value(min, max, steps, (uint32_t)raw);
    return true;
}

bool bitsift_read_compressed_float(bitsift_reader *r, float min, float max, float res, float *value)
{
    uint32_t steps;
    unsigned bits;
    if (!bitsift_compressed_float_steps(min, max, res, &steps, &bits))
        return bitsift_reader_fail(r, BITSIFT_E_ARGUMENT, r->bit_pos,
                                   "compressed_float needs finite min <= max and res > 0", 0, 0);
    return read_quantized(r, min, max, steps, bits, value);
}

/* The same with the step count and width computed once, by the caller
 * (generated code computes them when it is generated): no division or
 * ceiling per value. bits must be bits_required(0, steps). */
bool bitsift_read_compressed_float_steps(bitsift_reader *r, float min, float max, uint32_t steps,
                                         unsigned bits, float *value)
{
    if (BITSIFT_UNLIKELY(bits != bitsift_bits_required(0, steps) || !(min <= max)))
        return bitsift_reader_fail(r, BITSIFT_E_ARGUMENT, r->bit_pos,
                                   "compressed_float steps and width do not match", steps, bits);
    return read_quantized(r, min, max, steps, bits, value);
}

/* The writers differ only in their rounding: the reference's (byte for
 * byte what the reference bitpacker writes) or the round trip's (the
 * integer a read came from, bitsift_compressed_float_quantize). */
static bool write_quantized(bitsift_writer *w, float min, float max, uint32_t steps, unsigned bits,
                            float value, bool round_trip)
{
    uint32_t q = round_trip ? bitsift_compressed_float_quantize(min, max, steps, value)
                            : bitsift__compressed_float_quantize(min, max, steps, value);
    return bitsift_write_bits(w, bits, q);
}

static bool write_with_res(bitsift_writer *w, float min, float max, float res, float value,
                           bool round_trip)
{
    uint32_t steps;
    unsigned bits;
    if (!bitsift_compressed_float_steps(min, max, res, &steps, &bits))
        return bitsift__writer_misuse(w, BITSIFT_E_ARGUMENT,
                                      "compressed_float needs finite min <= max and res > 0", 0, 0);
    return write_quantized(w, min, max, steps, bits, value, round_trip);
}

static bool write_with_steps(bitsift_writer *w, float min, float max, uint32_t steps,
                             unsigned bits, float value, bool round_trip)
{
    if (BITSIFT_UNLIKELY(bits != bitsift_bits_required(0, steps) || !(min <= max)))
        return bitsift__writer_misuse(w, BITSIFT_E_ARGUMENT,
                                      "compressed_float steps and width do not match", steps,
                                      bits);
    return write_quantized(w, min, max, steps, bits, value, round_trip);
}

bool bitsift_write_compressed_float(bitsift_writer *w, float min, float max, float res, float value)
{
    return write_with_res(w, min, max, res, value, false);
}

bool bitsift_write_compressed_float_steps(bitsift_writer *w, float min, float max,
                                          uint32_t steps, unsigned bits, float value)
{
    return write_with_steps(w, min, max, steps, bits, value, false);
}

/* The serialize macros' writes: the integer a read came from. */
bool bitsift__write_compressed_float_exact(bitsift_writer *w, float min, float max, float res,
                                           float value)
{
    return write_with_res(w, min, max, res, value, true);
}

bool bitsift__write_compressed_float_steps_exact(bitsift_writer *w, float min, float max,
                                                 uint32_t steps, unsigned bits, float value)
{
    return write_with_steps(w, min, max, steps, bits, value, true);
}
