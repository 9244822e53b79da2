/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bitsift_internal.h -- declarations shared between libbitsift's source
 * files and never installed. Nothing here is part of the public API.
 */
#ifndef BITSIFT_INTERNAL_H
#define BITSIFT_INTERNAL_H

#include "bitsift.h"

/* Length of the longest valid UTF-8 prefix of [s, s + n); equals n when
 * the whole range is valid (no overlongs, no surrogates, <= U+10FFFF). */
size_t bitsift__utf8_valid_prefix(const uint8_t *s, size_t n);

/* Writer misuse: record BITSIFT_E_VALUE (or the given kind) and, in
 * BITSIFT_DEBUG builds, abort like assert(). */
bool bitsift__writer_misuse(bitsift_writer *w, bitsift_error kind, const char *why,
                            uint64_t expected, uint64_t got);

/* Quantize a value for compressed_float; the caller has checked the
 * parameters with bitsift_compressed_float_steps. Never above steps. */
uint32_t bitsift__compressed_float_quantize(float min, float max, uint32_t steps, float value);
/* And back: bitsift_compressed_float_value in <bitsift/bits.h>. */

#endif /* BITSIFT_INTERNAL_H */
