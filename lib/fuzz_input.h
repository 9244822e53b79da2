/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fuzz_input.h -- a cursor over the fuzzer's bytes that hands out
 * parameters (op codes, widths, ranges) for the harnesses. Running out of
 * bytes is not an error: every getter then returns zero, so a harness never
 * needs to check and any input, even empty, is a valid program.
 */
#ifndef BITSIFT_FUZZ_INPUT_H
#define BITSIFT_FUZZ_INPUT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef struct fuzz_input {
    const uint8_t *data;
    size_t size;
    size_t pos;
} fuzz_input;

static inline void fuzz_input_init(fuzz_input *in, const uint8_t *data, size_t size)
{
    in->data = data;
    in->size = size;
    in->pos = 0;
}

static inline size_t fuzz_input_left(const fuzz_input *in)
{
    return in->size - in->pos;
}

static inline uint8_t fuzz_u8(fuzz_input *in)
{
    return in->pos < in->size ? in->data[in->pos++] : 0;
}

/* n bytes little-endian (n <= 8). */
static inline uint64_t fuzz_le(fuzz_input *in, unsigned n)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < n; i++)
        v |= (uint64_t)fuzz_u8(in) << (8 * i);
    return v;
}

static inline uint16_t fuzz_u16(fuzz_input *in)
{
    return (uint16_t)fuzz_le(in, 2);
}

static inline uint32_t fuzz_u32(fuzz_input *in)
{
    return (uint32_t)fuzz_le(in, 4);
}

/*
 * A signed 64-bit parameter in few bytes, because most interesting ranges
 * are small or sit on a type edge:
 *
 *   selector 0x00..0x7f   value = selector - 64           (1 byte)
 *   selector 0x80..0x8f   value = edges[selector & 15]    (1 byte)
 *   selector 0x90..0xff   value = next 8 bytes, LE        (9 bytes)
 */
static inline int64_t fuzz_i64(fuzz_input *in)
{
    static const int64_t edges[16] = {
        INT64_MIN,     INT64_MAX,        0,         -1,        1,       INT32_MIN, INT32_MAX,
        UINT32_MAX,    (int64_t)1 << 32, INT16_MIN, INT16_MAX, 65535,   255,       256,
        INT64_MIN + 1, INT64_MAX - 1,
    };
    uint8_t selector = fuzz_u8(in);
    if (selector < 0x80)
        return (int64_t)selector - 64;
    if (selector < 0x90)
        return edges[selector & 15];
    return (int64_t)fuzz_le(in, 8);
}

/* A float: a small integer, a fraction, or raw IEEE bits (NaN and
 * infinities included), chosen by a selector byte like fuzz_i64. */
static inline float fuzz_float(fuzz_input *in)
{
    uint8_t selector = fuzz_u8(in);
    if (selector < 0x80)
        return (float)((int)selector - 64);
    if (selector < 0xc0)
        return (float)(selector - 0x80) / 64.0f; /* 0 .. 0.98 in 1/64 steps */
    uint32_t bits = fuzz_u32(in);
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

#endif /* BITSIFT_FUZZ_INPUT_H */
