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

bool bitsift_write_compressed_float(bitsift_writer *w, float min, float max, float res, float value)
{
    uint32_t steps;
    unsigned bits;
    if (!bitsift_compressed_float_steps(min, max, res, &steps, &bits))
        return bitsift__writer_misuse(w, BITSIFT_E_ARGUMENT,
                                      "compressed_float needs finite min <= max and res > 0", 0, 0);
    return bitsift_write_bits(w, bits, bitsift__compressed_float_quantize(min, max, steps, value));
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

bool bitsift_write_compressed_float_steps(bitsift_writer *w, float min, float max,
                                          uint32_t steps, unsigned bits, float value)
{
    if (BITSIFT_UNLIKELY(bits != bitsift_bits_required(0, steps) || !(min <= max)))
        return bitsift__writer_misuse(w, BITSIFT_E_ARGUMENT,
                                      "compressed_float steps and width do not match", steps,
                                      bits);
    return bitsift_write_bits(w, bits, bitsift__compressed_float_quantize(min, max, steps, value));
}
