/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * float_text.h -- the texts `bitsift decode` prints for a float or a
 * double, read back (float_text.c): by the record reader, and by the
 * command's unit test of its float formats (tests/cli/test_out.c).
 */
#ifndef BITSIFT_FLOAT_TEXT_H
#define BITSIFT_FLOAT_TEXT_H

/* Parse what `bitsift decode` prints for a float or a double (and any JSON
 * number or the quoted spellings, "nan:0x7fc00001"): 0 on success. */
int parse_float32(const char *text, float *v);
int parse_float64(const char *text, double *v);

#endif /* BITSIFT_FLOAT_TEXT_H */
