/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * float_text.c -- the texts `bitsift decode` prints for a float or a
 * double, read back exactly: a decimal that strtof / strtod round once to
 * the value printed, or "nan:0x..." with the NaN's bits (its payload is
 * kept).
 */
#include <errno.h>
#include <stdint.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "float_text.h"

static int parse_nan_bits(const char *text, uint64_t *bits)
{
    if (strncmp(text, "nan:0x", 6) != 0)
        return -1;
    char *end;
    errno = 0;
    *bits = strtoull(text + 6, &end, 16);
    return errno || *end || end == text + 6 ? -1 : 0;
}

int parse_float32(const char *text, float *v)
{
    uint64_t bits;
    if (parse_nan_bits(text, &bits) == 0) {
        uint32_t b = (uint32_t)bits;
        if (bits > 0xffffffffu)
            return -1;
        memcpy(v, &b, sizeof b);
        return isnan(*v) ? 0 : -1;
    }
    char *end;
    *v = strtof(text, &end);
    return end == text || *end ? -1 : 0;
}

int parse_float64(const char *text, double *v)
{
    uint64_t bits;
    if (parse_nan_bits(text, &bits) == 0) {
        memcpy(v, &bits, sizeof bits);
        return isnan(*v) ? 0 : -1;
    }
    char *end;
    *v = strtod(text, &end);
    return end == text || *end ? -1 : 0;
}
