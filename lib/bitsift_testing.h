/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bitsift_testing.h -- hooks for bitsift's own tests and fuzz harnesses,
 * exported from libbitsift with the bitsift__ prefix but not part of its
 * API (not installed). They let a test ask each of the library's two
 * validating paths for its own answer, so that the two can be compared.
 */
#ifndef BITSIFT_TESTING_H
#define BITSIFT_TESTING_H

#include "bitsift.h"

/* bitsift_decode with no visitor through the op interpreter only: the
 * reference that tests and fuzzers compare the program with. */
bitsift_error bitsift__decode_interpreted(const bitsift_schema *s, const void *packet, size_t size,
                                          unsigned flags, bitsift_result *res);
/* The validation program's own decision: 1 valid (res filled), 0
 * refused, -1 when the schema has no program. */
int bitsift__validate_program(const bitsift_schema *s, const void *packet, size_t size,
                              unsigned flags, bitsift_result *res);
/* The same through the interpreter's portable build, which a CPU with
 * BMI2 does not otherwise run: the tests hold both builds to the
 * interpreter. */
int bitsift__validate_program_portable(const bitsift_schema *s, const void *packet, size_t size,
                                       unsigned flags, bitsift_result *res);

#endif /* BITSIFT_TESTING_H */
