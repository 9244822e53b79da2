/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * filter_internal.h -- a compiled display filter as its three parts see
 * it: the parser (filter_parse.c) fills the tests and the expression tree
 * from the text, the binder (filter_bind.c) ties every test to each
 * schema's field ids, and the judge (filter.c) evaluates them per packet.
 *
 * Every test is one bit of a packet's state; a test on a field that occurs
 * several times (array elements) is true when any occurrence satisfies
 * it. The expression tree is then evaluated over those bits.
 */
#ifndef BITSIFT_ANALYSIS_FILTER_INTERNAL_H
#define BITSIFT_ANALYSIS_FILTER_INTERNAL_H

#include <stdarg.h>
#include <stdio.h>

#ifndef BITSIFT_EXPERIMENTAL
#define BITSIFT_EXPERIMENTAL /* the library implements its experimental API */
#endif
#include "bitsift/filter.h"

enum filter_op { OP_EXISTS, OP_EQ, OP_NE, OP_LT, OP_LE, OP_GT, OP_GE, OP_CONTAINS };
enum test_kind { TEST_TYPE, TEST_FIELD, TEST_ERROR, TEST_ERROR_KIND, TEST_ERROR_FIELD, TEST_ERROR_BIT };
enum literal_kind { LIT_NONE, LIT_NUMBER, LIT_STRING, LIT_NAME, LIT_BOOL };
enum node_kind { NODE_TEST, NODE_AND, NODE_OR, NODE_NOT, NODE_TRUE, NODE_FALSE };

struct literal {
    enum literal_kind kind;
    int is_integer;     /* NUMBER: written without '.' or exponent */
    int negative;       /* NUMBER: integer below zero */
    uint64_t magnitude; /* NUMBER, integer: |value| */
    double d;           /* NUMBER: the value; BOOL: 0 or 1 */
    float f;            /* NUMBER: rounded to float32, for float fields */
    char *text;         /* STRING, NAME: bytes (NUL-terminated copy) */
    size_t len;
    uint8_t *hex;       /* STRING as hex digits (for bytes fields), or NULL */
    size_t hex_len;
};

struct test {
    enum test_kind kind;
    enum filter_op op;
    struct literal lit;
    char *type_name; /* TEST_TYPE, TEST_FIELD */
    char *path;      /* TEST_FIELD: the path after the type, as written */
    unsigned column; /* 1-based, for messages */
    int error_kind;  /* TEST_ERROR_KIND */
};

struct node {
    enum node_kind kind;
    int a, b; /* children, or the test index */
};

/* A test bound to one schema. */
struct bound {
    int type;           /* packet type it concerns, -1: none in this schema */
    int field;          /* field id, -1: none */
    int64_t enum_value; /* NAME literal against an enum field */
};

struct binding {
    const bitsift_schema *s;
    unsigned field_count, type_count;
    uint64_t *field_tests;      /* per field id: the tests on it */
    uint64_t *type_field_tests; /* per packet type: the field tests of that type */
    uint32_t crc_bit;           /* where the CRC field starts (after a prefix) */
    struct bound tests[BITSIFT_FILTER_MAX_TESTS];
};

struct bitsift_filter {
    struct node nodes[BITSIFT_FILTER_MAX_NODES];
    unsigned node_count;
    int root;
    struct test tests[BITSIFT_FILTER_MAX_TESTS];
    unsigned test_count;
    struct binding *bindings;
    size_t binding_count;
};

/* Parse `text` (`len` bytes) into f's tests and tree (f->root). 0, or -1
 * with *err filled. What it allocated is f's, freed with it. */
int filter_parse(bitsift_filter *f, const char *text, size_t len, bitsift_filter_error *err);

/* Bind f's tests to each of `count` schemas (f->bindings). 0, or -1 with
 * *err filled. */
int filter_bind(bitsift_filter *f, const bitsift_schema *const *schemas, size_t count,
                bitsift_filter_error *err);

/* Fill *err: its kind, column (0: none) and message. */
static inline void filter_error_set(bitsift_filter_error *err, bitsift_error kind,
                                    unsigned column, const char *format, ...)
    __attribute__((format(printf, 4, 5)));

static inline void filter_error_set(bitsift_filter_error *err, bitsift_error kind,
                                    unsigned column, const char *format, ...)
{
    err->kind = kind;
    err->column = column;
    va_list ap;
    va_start(ap, format);
    vsnprintf(err->message, sizeof err->message, format, ap);
    va_end(ap);
}

#endif /* BITSIFT_ANALYSIS_FILTER_INTERNAL_H */
