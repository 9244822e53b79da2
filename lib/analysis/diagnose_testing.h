/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * diagnose_testing.h -- hooks for bitsift's own diagnosis tests, exported
 * from libbitsift with the bitsift__ prefix but not part of its API (not
 * installed): a test plants a change where and as the candidates would
 * write it, and holds a packet type's view of a schema (diagnose_views.h)
 * to the whole schema.
 */
#ifndef BITSIFT_DIAGNOSE_TESTING_H
#define BITSIFT_DIAGNOSE_TESTING_H

#include <stdbool.h>
#include <stddef.h>

#ifndef BITSIFT_EXPERIMENTAL
#define BITSIFT_EXPERIMENTAL 1 /* the hooks take the experimental API's types */
#endif
#include "bitsift/diagnose.h"

/* drift_insertion and drift_format_float (drift_candidates.h). */
bool bitsift__drift_insertion(const char *text, size_t size, size_t pos, bool before,
                              const char *type, const char *name, bitsift_drift_candidate *c);
void bitsift__drift_format_float(char *buf, size_t size, float v);

/* The views of a schema's packet types (diagnose_views.h): NULL when they
 * cannot be made (memory, or a schema of one type). */
typedef struct bitsift__diagnose_views bitsift__diagnose_views;
bitsift__diagnose_views *bitsift__diagnose_views_create(const bitsift_schema *s, const char *text,
                                                        size_t size);
void bitsift__diagnose_views_free(bitsift__diagnose_views *v);
bool bitsift__diagnose_views_local(const bitsift__diagnose_views *v, unsigned u,
                                   const bitsift_drift_candidate *c);
char *bitsift__diagnose_views_edit(bitsift__diagnose_views *v, unsigned u,
                                   const bitsift_drift_candidate *c, size_t *out_size,
                                   bool *unaffected);

#endif /* BITSIFT_DIAGNOSE_TESTING_H */
