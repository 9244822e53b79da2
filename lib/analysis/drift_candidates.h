/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * drift_candidates.h -- libbitsift's own uses of the candidate changes
 * (drift_candidates.c; the public part is in bitsift/diagnose.h): the
 * search adds the other schemas to a list, and the tests place a field
 * and spell a float as the candidates do (diagnose_testing.h).
 */
#ifndef BITSIFT_DRIFT_CANDIDATES_H
#define BITSIFT_DRIFT_CANDIDATES_H

#include <stdbool.h>
#include <stddef.h>

#ifndef BITSIFT_EXPERIMENTAL
#define BITSIFT_EXPERIMENTAL 1 /* libbitsift implements the experimental API */
#endif
#include "bitsift/diagnose.h"

/* Append a BITSIFT_DRIFT_SCHEMA candidate for other schema number
 * `index`, named `label`. False when memory ran out. */
bool drift_add_schema(bitsift_drift_list *list, size_t index, const char *label);

/* Where a field of type `type` inserted at text offset `pos` goes, as
 * bitsift_drift_candidates places it: the edit is written to *c (text
 * malloc'd). `name` is the new field's name. False when memory ran out. */
bool drift_insertion(const char *text, size_t size, size_t pos, bool before, const char *type,
                     const char *name, bitsift_drift_candidate *c);

/* The shortest decimal spelling of a float that reads back as the same
 * float ("0.01", "-4096"). */
void drift_format_float(char *buf, size_t size, float v);

#endif /* BITSIFT_DRIFT_CANDIDATES_H */
