/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * diagnose_views.c -- one packet type's view of a schema text (see
 * diagnose_views.h). A view costs one copy of the text when first used;
 * an edit is mapped into it by the bytes removed before its place.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diagnose_views.h"

void diagnose_views_free(struct diagnose_views *v)
{
    for (unsigned u = 0; v->view && u < v->types; u++)
        free(v->view[u]);
    free(v->view);
    free(v->view_size);
    free(v->start);
    free(v->end);
    free(v->cut);
    free(v->brace);
    free(v->removed);
    free(v->fields);
    memset(v, 0, sizeof *v);
}

/* The offset past the first '{' at or after pos, comments skipped (a
 * packet's name and its brace can only have blanks and comments
 * between). */
static size_t past_brace(const char *text, size_t size, size_t pos)
{
    while (pos < size && text[pos] != '{') {
        if (text[pos] == '#' || (text[pos] == '/' && pos + 1 < size && text[pos + 1] == '/'))
            while (pos < size && text[pos] != '\n')
                pos++;
        else
            pos++;
    }
    return pos < size ? pos + 1 : size;
}

/* A name the text does not hold anywhere. */
static bool name_absent(const char *text, size_t size, const char *name)
{
    size_t n = strlen(name);
    for (size_t i = 0; i + n <= size; i++)
        if (memcmp(text + i, name, n) == 0)
            return false;
    return true;
}

bool diagnose_views_init(struct diagnose_views *v, const bitsift_schema *s, const char *text,
                         size_t size)
{
    memset(v, 0, sizeof *v);
    unsigned types = bitsift_schema_packet_count(s);
    if (types < 2)
        return false;
    v->text = text;
    v->size = size;
    v->types = types;
    v->start = calloc(types, sizeof *v->start);
    v->end = calloc(types, sizeof *v->end);
    v->cut = calloc(types, sizeof *v->cut);
    v->brace = calloc(types, sizeof *v->brace);
    v->removed = calloc(types + 1, sizeof *v->removed);
    v->view = calloc(types, sizeof *v->view);
    v->view_size = calloc(types, sizeof *v->view_size);
    v->fields = calloc(types, sizeof *v->fields);
    if (!v->fields || !v->cut || !v->start || !v->end || !v->brace || !v->removed || !v->view || !v->view_size) {
        diagnose_views_free(v);
        return false;
    }
    /* The packet roots: each type's declaration, in the order of the
     * types (the order of the text). */
    unsigned found = 0;
    for (unsigned id = 0, count = bitsift_schema_field_count(s); id < count; id++) {
        bitsift_field_info info;
        bitsift_field_source src;
        if (!bitsift_schema_field_info(s, id, &info) || info.packet_type >= types)
            continue;
        v->fields[info.packet_type]++;
        if (info.parent >= 0 || !bitsift_schema_field_source(s, id, &src))
            continue;
        unsigned u = info.packet_type;
        v->start[u] = src.start;
        v->end[u] = src.end;
        v->brace[u] = past_brace(text, size, src.start);
        found++;
    }
    bool ordered = found == types;
    for (unsigned u = 0; ordered && u < types; u++) {
        ordered = v->start[u] < v->brace[u] && v->brace[u] <= v->end[u] && v->end[u] <= size &&
                  (u == 0 || v->end[u - 1] <= v->start[u]);
        size_t cut = v->end[u], limit = u + 1 < types ? v->start[u + 1] : size;
        while (cut < limit && (text[cut] == '\n' || text[cut] == '\r'))
            cut++;
        v->cut[u] = cut;
        v->removed[u + 1] = v->removed[u] + (cut - v->start[u]);
    }
    char name[64];
    snprintf(name, sizeof name, "diagnose_type");
    for (unsigned k = 1; !name_absent(text, size, name) && k < 1000; k++)
        snprintf(name, sizeof name, "diagnose_type%u", k);
    if (!ordered || !name_absent(text, size, name)) {
        diagnose_views_free(v);
        return false;
    }
    v->prefix_len = (size_t)snprintf(v->prefix, sizeof v->prefix, " bits(%u) %s; ",
                                     bitsift_bits_required(0, (int64_t)types - 1), name);
    return true;
}

bool diagnose_views_local(const struct diagnose_views *v, unsigned u,
                          const bitsift_drift_candidate *c)
{
    return u < v->types && c->family != BITSIFT_DRIFT_SCHEMA && c->start >= v->brace[u] &&
           c->end <= v->end[u];
}

/* Where offset p of the text is in type u's view (p outside every other
 * type's declaration); an edit at the brace's end goes after the type
 * field. */
static size_t view_offset(const struct diagnose_views *v, unsigned u, size_t p)
{
    /* Declarations wholly before p: binary search on their ends. */
    unsigned lo = 0, hi = v->types;
    while (lo < hi) {
        unsigned mid = lo + (hi - lo) / 2;
        if (v->cut[mid] <= p)
            lo = mid + 1;
        else
            hi = mid;
    }
    size_t removed = v->removed[lo];
    if (u < lo)
        removed -= v->cut[u] - v->start[u]; /* u's own is kept */
    return p - removed + (p >= v->brace[u] ? v->prefix_len : 0);
}

/* Is [a, b) inside (or touching the inside of) a declaration other than u's? */
static bool in_other(const struct diagnose_views *v, unsigned u, size_t a, size_t b)
{
    unsigned lo = 0, hi = v->types;
    while (lo < hi) {
        unsigned mid = lo + (hi - lo) / 2;
        if (v->end[mid] <= a)
            lo = mid + 1;
        else
            hi = mid;
    }
    /* The first declaration ending after a: does the edit start in it? */
    (void)b;
    return lo < v->types && lo != u && a >= v->start[lo];
}

static size_t base_size(const struct diagnose_views *v, unsigned u)
{
    return v->size - v->removed[v->types] + (v->cut[u] - v->start[u]) + v->prefix_len;
}

/* Type u's view, made once. */
static const char *view_of(struct diagnose_views *v, unsigned u)
{
    if (v->view[u])
        return v->view[u];
    size_t n = base_size(v, u);
    char *out = malloc(n + 1);
    if (!out)
        return NULL;
    size_t at = 0, from = 0;
    for (unsigned w = 0; w < v->types; w++) {
        if (w == u) {
            memcpy(out + at, v->text + from, v->brace[u] - from);
            at += v->brace[u] - from;
            memcpy(out + at, v->prefix, v->prefix_len);
            at += v->prefix_len;
            from = v->brace[u];
            continue;
        }
        memcpy(out + at, v->text + from, v->start[w] - from);
        at += v->start[w] - from;
        from = v->cut[w];
    }
    memcpy(out + at, v->text + from, v->size - from);
    at += v->size - from;
    out[at] = 0;
    v->view[u] = out;
    v->view_size[u] = at;
    return out;
}

size_t diagnose_views_edit_size(struct diagnose_views *v, unsigned u,
                                const bitsift_drift_candidate *c)
{
    size_t n = base_size(v, u);
    if (c && c->family != BITSIFT_DRIFT_SCHEMA)
        n = n - (c->end - c->start) + (c->text ? strlen(c->text) : 0);
    return n;
}

char *diagnose_views_edit(struct diagnose_views *v, unsigned u, const bitsift_drift_candidate *c,
                          size_t *out_size, bool *unaffected)
{
    *unaffected = false;
    if (c && in_other(v, u, c->start, c->end)) {
        *unaffected = true;
        return NULL;
    }
    const char *base = view_of(v, u);
    if (!base)
        return NULL;
    size_t size = v->view_size[u];
    if (!c) {
        char *copy = malloc(size + 1);
        if (copy)
            memcpy(copy, base, size + 1);
        *out_size = size;
        return copy;
    }
    bitsift_drift_candidate mapped = *c;
    mapped.start = view_offset(v, u, c->start);
    mapped.end = mapped.start + (c->end - c->start);
    return bitsift_drift_apply(base, size, &mapped, out_size);
}
