/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * schema_passes.h -- the passes run once over a freshly compiled op list
 * (schema_passes.c), in this order, by schema_compile.c.
 */
#ifndef BITSIFT_SCHEMA_PASSES_H
#define BITSIFT_SCHEMA_PASSES_H

#include "schema_internal.h"

/* Fill the per-op fields that make decoding cheaper (no allocation). */
void schema_prepare_ops(bitsift_schema *s);
/* Fill the ops' visit fields (after schema_prepare_ops). */
void schema_prepare_visit(bitsift_schema *s);
/* Find the leaf runs (after compile_finish). Without memory the schema
 * simply has none: they only make decoding faster. */
void schema_fuse_leaf_runs(bitsift_schema *s);

#endif /* BITSIFT_SCHEMA_PASSES_H */
