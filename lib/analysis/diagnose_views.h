/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * diagnose_views.h -- one packet type's view of a schema text, so that
 * `bitsift diagnose` compiles a candidate change at the cost of one
 * packet type rather than of the whole schema (whose compile grows with
 * the square of its fields: over hundreds of failing types, compiling
 * the whole text for every candidate made the search super-quadratic).
 *
 * The view of type u is the text without the declarations of the other
 * packet types, and with a field of the type's width as the first of
 * u's body:
 *
 *     protocol p { ... }           protocol p { ... }
 *     enum E { ... }               enum E { ... }
 *     packet a { ... }       ->    packet b { bits(2) diagnose_type; ... }
 *     packet b { ... }
 *     packet c { ... }
 *
 * A schema of one packet type sends no type, so the view reads a packet
 * of type u bit for bit as the whole schema does: the CRC (the protocol
 * block is the same, so is its id), the type as that first field, the
 * body, its alignments (the same offsets) and the end check. Everything
 * outside the packet declarations (enums, structs, the protocol) stays,
 * so an edit there is made in the view of every type it is measured on.
 */
#ifndef BITSIFT_DIAGNOSE_VIEWS_H
#define BITSIFT_DIAGNOSE_VIEWS_H

#include <stdbool.h>
#include <stddef.h>

#include "bitsift.h"
#include "drift_candidates.h"

struct diagnose_views {
    const char *text;
    size_t size;
    unsigned types;
    size_t *start, *end; /* each packet type's declaration in text */
    size_t *cut;         /* its end and the line ends after it: what the
                            views of other types leave out (without the
                            blank lines, a view's size does not grow with
                            the types) */
    size_t *brace;       /* the offset just past its '{' */
    size_t *removed;     /* bytes of the declarations before type u's */
    unsigned *fields;    /* each type's fields */
    char prefix[96];     /* the type field with its trailing blank */
    size_t prefix_len;
    char **view;         /* built on first use */
    size_t *view_size;
};

/* False when the views cannot be made (memory, or a schema of one type,
 * which needs none): then the whole text is compiled. */
bool diagnose_views_init(struct diagnose_views *v, const bitsift_schema *s, const char *text,
                         size_t size);
void diagnose_views_free(struct diagnose_views *v);

/* The edit [c->start, c->end) falls inside type u's declaration (after
 * its '{'): it changes only packets of that type. */
bool diagnose_views_local(const struct diagnose_views *v, unsigned u,
                          const bitsift_drift_candidate *c);

/* Type u's view with the candidate's edit made (c NULL: none), malloc'd
 * and NUL-terminated. An edit inside another type's declaration cannot be
 * made in this view: *unaffected is set and NULL returned. NULL with
 * *unaffected false when memory ran out. */
char *diagnose_views_edit(struct diagnose_views *v, unsigned u, const bitsift_drift_candidate *c,
                          size_t *out_size, bool *unaffected);

/* The size of that text, without making it. */
size_t diagnose_views_edit_size(struct diagnose_views *v, unsigned u,
                                const bitsift_drift_candidate *c);

#endif /* BITSIFT_DIAGNOSE_VIEWS_H */
