/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * float_oracle.h -- the float formatting bitsift had before float_format.c:
 * snprintf "%.{p}g" for rising p until strtof/strtod reads the value back,
 * then ".0" when the text has neither '.' nor exponent. Kept unchanged as
 * the reference that the tests compare format_float32/64 with.
 */
#ifndef BITSIFT_FLOAT_ORACLE_H
#define BITSIFT_FLOAT_ORACLE_H

#include <stddef.h>

/* buf: at least 48 bytes. */
size_t oracle_format_float32(char *buf, float v);
size_t oracle_format_float64(char *buf, double v);

#endif /* BITSIFT_FLOAT_ORACLE_H */
