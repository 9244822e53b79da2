/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * diagnose_testing.c -- the hooks that the diagnosis tests use
 * (diagnose_testing.h): exported with the bitsift__ prefix, never part of
 * the API.
 */
#include <stdlib.h>

#include "diagnose_testing.h"
#include "diagnose_views.h"
#include "drift_candidates.h"

struct bitsift__diagnose_views {
    struct diagnose_views views;
};

bool bitsift__drift_insertion(const char *text, size_t size, size_t pos, bool before,
                              const char *type, const char *name, bitsift_drift_candidate *c)
{
    return drift_insertion(text, size, pos, before, type, name, c);
}

void bitsift__drift_format_float(char *buf, size_t size, float v)
{
    drift_format_float(buf, size, v);
}

bitsift__diagnose_views *bitsift__diagnose_views_create(const bitsift_schema *s, const char *text,
                                                        size_t size)
{
    bitsift__diagnose_views *v = malloc(sizeof *v);
    if (v && diagnose_views_init(&v->views, s, text, size))
        return v;
    free(v);
    return NULL;
}

void bitsift__diagnose_views_free(bitsift__diagnose_views *v)
{
    if (!v)
        return;
    diagnose_views_free(&v->views);
    free(v);
}

bool bitsift__diagnose_views_local(const bitsift__diagnose_views *v, unsigned u,
                                   const bitsift_drift_candidate *c)
{
    return diagnose_views_local(&v->views, u, c);
}

char *bitsift__diagnose_views_edit(bitsift__diagnose_views *v, unsigned u,
                                   const bitsift_drift_candidate *c, size_t *out_size,
                                   bool *unaffected)
{
    return diagnose_views_edit(&v->views, u, c, out_size, unaffected);
}
