/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * float_oracle.c -- the reference float text (see float_oracle.h), the
 * code src/print/out.c held before the exact formatter replaced it.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "float_oracle.h"

static const char hex_digits[] = "0123456789abcdef";

static size_t nonfinite(char *buf, int negative, int is_nan, uint64_t bits, unsigned digits)
{
    size_t n = 0;
    if (is_nan) {
        memcpy(buf, "nan:0x", 6);
        n = 6;
        for (unsigned i = 0; i < digits; i++)
            buf[n + digits - 1 - i] = hex_digits[(bits >> (4 * i)) & 15];
        n += digits;
    } else {
        if (negative)
            buf[n++] = '-';
        memcpy(buf + n, "inf", 3);
        n += 3;
    }
    buf[n] = '\0';
    return n;
}

static size_t as_real(char *buf, size_t n)
{
    if (!strpbrk(buf, ".e")) {
        memcpy(buf + n, ".0", 3);
        n += 2;
    }
    return n;
}

size_t oracle_format_float32(char *buf, float v)
{
    if (!isfinite(v)) {
        uint32_t bits;
        memcpy(&bits, &v, sizeof bits);
        return nonfinite(buf, signbit(v) != 0, isnan(v), bits, 8);
    }
    int n = 0;
    for (int p = 6; p <= 9; p++) {
        n = snprintf(buf, 32, "%.*g", p, (double)v);
        if (strtof(buf, NULL) == v)
            break;
    }
    return as_real(buf, (size_t)n);
}

size_t oracle_format_float64(char *buf, double v)
{
    if (!isfinite(v)) {
        uint64_t bits;
        memcpy(&bits, &v, sizeof bits);
        return nonfinite(buf, signbit(v) != 0, isnan(v), bits, 16);
    }
    int n = 0;
    for (int p = 15; p <= 17; p++) {
        n = snprintf(buf, 40, "%.*g", p, v);
        if (strtod(buf, NULL) == v)
            break;
    }
    return as_real(buf, (size_t)n);
}
