/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bitsift/filter.h -- display filters: select decoded packets by their
 * fields, their type and their failure, with the expression language of
 * `bitsift -Y` (bitsift(1), FILTERS; the API is man bitsift-filter.3).
 *
 * An expression is compiled once against a set of compiled schemas: every
 * path becomes a field id per schema (bitsift_schema_field_info), every
 * enum name its number. A packet is then judged from the decoder's visitor
 * events in a fixed-size state on the caller's stack (one bit per
 * comparison: "some element satisfied it"), with no allocation per packet.
 * A packet whose type has no field the filter names is judged from its
 * decode result alone, so `error.kind == crc` needs no second decode.
 *
 * A compiled filter is never modified after compilation: any number of
 * threads may judge packets with one filter at the same time, each with
 * its own state. It refers to the schemas it was compiled against, which
 * must outlive it.
 */
#ifndef BITSIFT_FILTER_H
#define BITSIFT_FILTER_H

#ifndef BITSIFT_EXPERIMENTAL
#error "<bitsift/filter.h> is experimental: its API may change between releases; #define BITSIFT_EXPERIMENTAL before including it"
#endif

#include <stddef.h>
#include <stdint.h>

#include "schema.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Bounds on one expression: bytes of text, comparisons ("tests"), terms of
 * the expression tree, nesting of parentheses and negations. An expression
 * over one is refused with BITSIFT_E_LIMIT. */
#define BITSIFT_FILTER_MAX_TEXT  4096
#define BITSIFT_FILTER_MAX_TESTS 64
#define BITSIFT_FILTER_MAX_NODES 256
#define BITSIFT_FILTER_MAX_DEPTH 64

typedef struct bitsift_filter bitsift_filter;

/* Why an expression did not compile: what is wrong and where. `message`
 * names no column (bitsift prints "-Y column 12: " before it). */
typedef struct bitsift_filter_error {
    bitsift_error kind; /* BITSIFT_E_ARGUMENT (the expression or a name in
                           it), BITSIFT_E_LIMIT (over a bound above) or
                           BITSIFT_E_NOMEM */
    unsigned column;    /* 1-based byte column in the expression; 0 when the
                           error concerns the whole expression or none */
    char message[512];
} bitsift_filter_error;

/* Compile `text` (NUL-terminated) for packets of these `count` schemas:
 * parse it and bind every path, type and enum name in it to each schema.
 * A packet type or field that no schema has is an error (a typo), not a
 * test that is never true. Returns NULL and fills *err (which may be NULL)
 * on failure. */
bitsift_filter *bitsift_filter_compile(const char *text, const bitsift_schema *const *schemas,
                                       size_t count, bitsift_filter_error *err);
/* Free a compiled filter; NULL is fine. */
void bitsift_filter_free(bitsift_filter *f);

/* What is known of a packet once it is decoded (without its fields). */
typedef struct bitsift_filter_facts {
    int schema;                /* index of its schema in the list the filter
                                  was compiled with, -1 when none claimed it */
    const bitsift_result *res; /* its decode result */
    int crc_mismatch;          /* decoded past a CRC mismatch
                                  (BITSIFT_DECODE_NO_CRC) with res->status
                                  BITSIFT_OK or a later failure: the
                                  filter's error tests see the CRC failure */
} bitsift_filter_facts;

/* Judge one packet in one call: decodes it once more with the filter's
 * visitor when the filter names fields of its type (see
 * bitsift_filter_needs_fields), with `flags` | BITSIFT_DECODE_NO_PATHS |
 * BITSIFT_DECODE_NO_ABSENT, else judges from `facts` alone. `packet` and
 * `size` are what facts->res was decoded from, `flags` the flags of that
 * decode. Returns 1 when the expression selects the packet, else 0.
 * Allocates nothing. */
int bitsift_filter_judge(const bitsift_filter *f, const bitsift_filter_facts *facts,
                         const void *packet, size_t size, unsigned flags);

/* The steps of bitsift_filter_judge, for a caller that feeds the events
 * itself (from a decode of its own, or composed with another visitor). */

/* Whether packets of this schema (index) and type need their fields
 * decoded to be judged: the filter names a field of that type. */
int bitsift_filter_needs_fields(const bitsift_filter *f, int schema, int packet_type);

/* The judgement of one packet in progress: fixed size, on the caller's
 * stack. Its members are the library's. */
typedef struct bitsift_filter_state {
    const bitsift_filter *filter;
    int schema;
    uint64_t hits; /* the comparisons some event satisfied */
} bitsift_filter_state;

void bitsift_filter_begin(bitsift_filter_state *st, const bitsift_filter *f, int schema);
/* The visitor that feeds the state. Decode with BITSIFT_DECODE_NO_ABSENT:
 * a conditional field that was not sent is not there. */
bitsift_visitor bitsift_filter_visitor(bitsift_filter_state *st);
/* The verdict: 1 when the expression selects the packet, else 0. */
int bitsift_filter_end(const bitsift_filter_state *st, const bitsift_filter_facts *facts);

/* A failed packet's field path as `failure.field` matches it and as the
 * command prints it: the decoder's path, else the failing field's name,
 * else "packet". */
const char *bitsift_filter_failure_path(const bitsift_result *res);

#ifdef __cplusplus
}
#endif

#endif /* BITSIFT_FILTER_H */
