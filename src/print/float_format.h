/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * float_format.h -- the text bitsift prints for a float or a double.
 *
 * The text is the shortest of printf's "%.6g", "%.7g", "%.8g", "%.9g"
 * ("%.15g" to "%.17g" for doubles) that reads back to the same value, with
 * ".0" appended when it has neither a '.' nor an exponent, so that JSON
 * readers take it as a real and -0.0 keeps its sign. It is computed with
 * exact integer arithmetic, without printf or strtof (except for extreme
 * magnitudes), and is byte for byte what that printf loop gives.
 */
#ifndef BITSIFT_FLOAT_FORMAT_H
#define BITSIFT_FLOAT_FORMAT_H

#include <stddef.h>
#include <stdint.h>

/* Room format_float32/64 need, terminating NUL included. */
#define FORMAT_FLOAT_SIZE 32

/* Write the text of v and a NUL into buf (FORMAT_FLOAT_SIZE bytes);
 * return its length. Non-finite values give "inf", "-inf" and
 * "nan:0x<bits>" (the raw IEEE bits in hex, 8 or 16 digits, so that NaN
 * payloads survive); the JSON writer quotes those. */
/* 10^0 .. 10^19, and "00" "01" .. "99": shared with out.h's integer
 * writers. */
extern const uint64_t format_powers_of_ten[20];
extern const char format_digit_pairs[201];

size_t format_float32(char *buf, float v);
size_t format_float64(char *buf, double v);

/* Whether format_float* gave a non-finite spelling that must be quoted in JSON. */
int format_is_nonfinite(const char *text);

#endif /* BITSIFT_FLOAT_FORMAT_H */
