/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * smallest_three.c -- the smallest-three quaternion of the bit layer
 * (layout in <bitsift/bits.h>): the component quantization every walker
 * of a schema shares, and the read and write primitives that serialize
 * code uses. Built with -ffp-contract=off like the rest of the library,
 * so the floats are the same whatever the caller's compiler settings.
 */
#include <math.h>
#include <string.h>

#include "bitsift_internal.h"

/* A component that is not the largest of a unit quaternion lies in
 * [-1/sqrt(2), 1/sqrt(2)]; it is sent as an integer of `bits` bits spread
 * evenly over that range. */
#define S3_LIMIT 0.707107f

float bitsift_smallest_three_dequantize(unsigned bits, uint32_t raw)
{
    float steps = (float)((1u << bits) - 1);
    return (float)raw / steps * (2.0f * S3_LIMIT) - S3_LIMIT;
}

uint32_t bitsift_smallest_three_quantize(unsigned bits, float v)
{
    uint32_t top = (1u << bits) - 1;
    float t = (v + S3_LIMIT) / (2.0f * S3_LIMIT);
    if (!(t >= 0.0f))
        t = 0.0f;
    if (t > 1.0f)
        t = 1.0f;
    uint32_t q = (uint32_t)floorf(t * (float)top + 0.5f);
    return q > top ? top : q;
}

static bool bits_ok(unsigned bits)
{
    return bits >= 2 && bits <= 31;
}

/* The quaternion of a largest index and three raw integers, the rebuilt
 * component last, summed in x, y, z, w order as the schema decoder does. */
static void rebuild(unsigned bits, bitsift_smallest_three *q)
{
    float sum = 0.0f;
    for (unsigned k = 0; k < 4; k++) {
        if (k == q->largest)
            continue;
        q->q[k] = bitsift_smallest_three_dequantize(bits, q->raw[k]);
        sum += q->q[k] * q->q[k];
    }
    q->q[q->largest] = sqrtf(sum < 1.0f ? 1.0f - sum : 0.0f);
    q->raw[q->largest] = 0;
}

bool bitsift_read_smallest_three(bitsift_reader *r, unsigned bits, bitsift_smallest_three *q)
{
    if (!bits_ok(bits))
        return bitsift_reader_fail(r, BITSIFT_E_ARGUMENT, r->bit_pos,
                                   "smallest three needs 2..31 bits per component", 31, bits);
    uint64_t largest, raw[3];
    if (!bitsift_read_bits(r, 2, &largest))
        return false;
    for (int k = 0; k < 3; k++)
        if (!bitsift_read_bits(r, bits, &raw[k]))
            return false;
    bitsift_smallest_three_from_sent(bits, (unsigned)largest, (uint32_t)raw[0], (uint32_t)raw[1],
                                     (uint32_t)raw[2], q);
    return true;
}

void bitsift_smallest_three_from_sent(unsigned bits, unsigned largest, uint32_t a, uint32_t b,
                                      uint32_t c, bitsift_smallest_three *q)
{
    const uint32_t sent[3] = {a, b, c};
    q->largest = (uint8_t)(largest & 3u);
    for (unsigned k = 0, j = 0; k < 4; k++)
        q->raw[k] = k == q->largest ? 0 : sent[j++];
    rebuild(bits, q);
}

/* Whether q still holds exactly what its kept raw integers decode to. */
static bool kept(unsigned bits, const bitsift_smallest_three *q)
{
    if (q->largest > 3)
        return false;
    uint32_t top = (1u << bits) - 1;
    bitsift_smallest_three again = *q;
    for (unsigned k = 0; k < 4; k++)
        if (k != q->largest && q->raw[k] > top)
            return false;
    rebuild(bits, &again);
    return memcmp(again.q, q->q, sizeof q->q) == 0;
}

bool bitsift_write_smallest_three(bitsift_writer *w, unsigned bits,
                                  const bitsift_smallest_three *q)
{
    if (!bits_ok(bits))
        return bitsift__writer_misuse(w, BITSIFT_E_ARGUMENT,
                                      "smallest three needs 2..31 bits per component", 31, bits);
    unsigned largest;
    uint32_t raw[4];
    if (kept(bits, q)) {
        largest = q->largest;
        memcpy(raw, q->raw, sizeof raw);
    } else {
        largest = 0;
        for (unsigned k = 1; k < 4; k++)
            if (fabsf(q->q[k]) > fabsf(q->q[largest]))
                largest = k;
        /* q and -q are the same rotation: send the one whose largest
         * component is positive, the one the reader rebuilds. */
        float sign = q->q[largest] < 0 ? -1.0f : 1.0f;
        for (unsigned k = 0; k < 4; k++)
            raw[k] = bitsift_smallest_three_quantize(bits, sign * q->q[k]);
    }
    if (!bitsift_write_bits(w, 2, largest))
        return false;
    for (unsigned k = 0; k < 4; k++)
        if (k != largest && !bitsift_write_bits(w, bits, raw[k]))
            return false;
    return true;
}
