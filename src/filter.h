/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * filter.h -- `-Y EXPR`: select packets by their fields, their type and
 * their failure (the language is in bitsift(1), FILTERS).
 *
 * An expression is compiled once against the loaded schemas: every path
 * becomes a field id per schema (bitsift_schema_field_info), every enum
 * name its number. A packet is then judged from the decoder's visitor
 * events in a fixed-size state (one bit per comparison: "some element
 * satisfied it"), with no allocation per packet. A packet whose type has
 * no field the filter names is judged from its decode result alone, so
 * `validate -Y 'error.kind == crc'` keeps the fast path.
 */
#ifndef BITSIFT_FILTER_H
#define BITSIFT_FILTER_H

#include <stddef.h>
#include <stdint.h>

#include "bitsift.h"

/* Bounds on one expression: text, comparisons, nesting. */
#define FILTER_MAX_TEXT  4096
#define FILTER_MAX_TESTS 64
#define FILTER_MAX_NODES 256
#define FILTER_MAX_DEPTH 64

struct filter;

/* Compile `text` for packets of these schemas. NULL on failure, with a
 * message that says what and at which column. */
struct filter *filter_compile(const char *text, const bitsift_schema *const *schemas,
                              size_t count, char *error, size_t error_size);
void filter_free(struct filter *f);

/* What is known of a packet once it is decoded (without fields). */
struct filter_facts {
    int schema;                /* index of its schema, -1 when none claimed it */
    const bitsift_result *res; /* its decode result */
    int crc_mismatch;          /* --no-crc decoded past a CRC mismatch */
};

/* Whether packets of this schema and type need their fields decoded to be
 * judged (a field of that type is named). */
int filter_needs_fields(const struct filter *f, int schema, int packet_type);

/* The state of one packet's judgement: fixed size, on the stack. */
struct filter_state {
    const struct filter *f;
    int schema;
    uint64_t hits; /* comparisons some event satisfied */
};

void filter_begin(struct filter_state *st, const struct filter *f, int schema);
/* The visitor that feeds the state (decode with BITSIFT_DECODE_NO_ABSENT:
 * a conditional field that was not sent is not there). */
bitsift_visitor filter_visitor(struct filter_state *st);
/* The verdict: 1 when the expression selects the packet. */
int filter_end(const struct filter_state *st, const struct filter_facts *facts);

#endif /* BITSIFT_FILTER_H */
