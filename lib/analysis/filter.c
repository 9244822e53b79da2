/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * filter.c -- display filters (bitsift/filter.h): compile (parse, then
 * bind to the schemas) and free, and the judgement of a packet: the
 * decoder's events set one bit per test some field satisfied, then the
 * expression tree is evaluated over those bits and the decode result.
 * Nothing here allocates per packet.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "filter_internal.h"

static void free_tests(bitsift_filter *f)
{
    for (unsigned i = 0; i < f->test_count; i++) {
        free(f->tests[i].type_name);
        free(f->tests[i].path);
        free(f->tests[i].lit.text);
        free(f->tests[i].lit.hex);
    }
}

void bitsift_filter_free(bitsift_filter *f)
{
    if (!f)
        return;
    free_tests(f);
    for (size_t i = 0; i < f->binding_count; i++) {
        free(f->bindings[i].field_tests);
        free(f->bindings[i].type_field_tests);
    }
    free(f->bindings);
    free(f);
}

bitsift_filter *bitsift_filter_compile(const char *text, const bitsift_schema *const *schemas,
                                       size_t count, bitsift_filter_error *err)
{
    bitsift_filter_error unused;
    if (!err)
        err = &unused;
    size_t len = strlen(text);
    if (len > BITSIFT_FILTER_MAX_TEXT) {
        filter_error_set(err, BITSIFT_E_LIMIT, 0, "expression longer than %d bytes",
                         BITSIFT_FILTER_MAX_TEXT);
        return NULL;
    }
    bitsift_filter *f = calloc(1, sizeof *f);
    if (!f) {
        filter_error_set(err, BITSIFT_E_NOMEM, 0, "out of memory");
        return NULL;
    }
    if (filter_parse(f, text, len, err) != 0 || filter_bind(f, schemas, count, err) != 0) {
        bitsift_filter_free(f);
        return NULL;
    }
    return f;
}

/* ---- judgement ---------------------------------------------------------- */

/* -1, 0, 1, or 2 when unordered (NaN). */
static int compare_integer(__int128 a, const struct literal *lit)
{
    if (!lit->is_integer) {
        long double x = (long double)a, y = (long double)lit->d;
        return x < y ? -1 : x > y;
    }
    __int128 b = lit->negative ? -(__int128)lit->magnitude : (__int128)lit->magnitude;
    return a < b ? -1 : a > b;
}

static int compare_double(double a, double b)
{
    if (isnan(a) || isnan(b))
        return 2;
    return a < b ? -1 : a > b;
}

static int compare_bytes(const uint8_t *a, size_t an, const uint8_t *b, size_t bn)
{
    int c = memcmp(a, b, an < bn ? an : bn);
    if (c)
        return c < 0 ? -1 : 1;
    return an < bn ? -1 : an > bn;
}

static int contains(const uint8_t *hay, size_t n, const uint8_t *needle, size_t m)
{
    if (m == 0)
        return 1;
    for (size_t i = 0; i + m <= n; i++)
        if (hay[i] == needle[0] && memcmp(hay + i, needle, m) == 0)
            return 1;
    return 0;
}

static int apply(enum filter_op op, int c)
{
    switch (op) {
    case OP_EQ:
        return c == 0;
    case OP_NE:
        return c != 0;
    case OP_LT:
        return c == -1;
    case OP_LE:
        return c == -1 || c == 0;
    case OP_GT:
        return c == 1;
    case OP_GE:
        return c == 1 || c == 0;
    default:
        return 0;
    }
}

static int value_matches(const struct test *t, const struct bound *b, const bitsift_value *v)
{
    const struct literal *lit = &t->lit;
    switch (v->kind) {
    case BITSIFT_VALUE_BOOL:
        return apply(t->op, compare_integer(v->b, lit));
    case BITSIFT_VALUE_UINT:
        return apply(t->op, compare_integer((__int128)v->u, lit));
    case BITSIFT_VALUE_INT:
        return apply(t->op, compare_integer(v->i, lit));
    case BITSIFT_VALUE_ENUM:
        if (lit->kind == LIT_NAME || lit->kind == LIT_STRING)
            return apply(t->op, v->i < b->enum_value ? -1 : v->i > b->enum_value);
        return apply(t->op, compare_integer(v->i, lit));
    case BITSIFT_VALUE_FLOAT:
        /* The literal rounded to float32, as the field's own values are:
         * a value decode prints as 0.1 equals 0.1. */
        return apply(t->op, compare_double(v->f, lit->f));
    case BITSIFT_VALUE_DOUBLE:
        return apply(t->op, compare_double(v->d, lit->d));
    case BITSIFT_VALUE_STRING:
        if (t->op == OP_CONTAINS)
            return contains(v->data, v->size, (const uint8_t *)lit->text, lit->len);
        return apply(t->op, compare_bytes(v->data, v->size, (const uint8_t *)lit->text, lit->len));
    case BITSIFT_VALUE_BYTES:
        if (!lit->hex)
            return 0;
        if (t->op == OP_CONTAINS)
            return contains(v->data, v->size, lit->hex, lit->hex_len);
        return apply(t->op, compare_bytes(v->data, v->size, lit->hex, lit->hex_len));
    default:
        return 0;
    }
}

static bool on_event(void *ctx, const bitsift_event *ev)
{
    bitsift_filter_state *st = ctx;
    if (ev->id < 0 || (ev->flags & (BITSIFT_EVENT_ARRAY_META | BITSIFT_EVENT_ABSENT)))
        return true;
    const struct binding *b = &st->filter->bindings[st->schema];
    if ((unsigned)ev->id >= b->field_count)
        return true;
    uint64_t open = b->field_tests[ev->id] & ~st->hits;
    while (open) {
        unsigned i = (unsigned)__builtin_ctzll(open);
        open &= open - 1;
        const struct test *t = &st->filter->tests[i];
        if (t->op == OP_EXISTS || value_matches(t, &b->tests[i], &ev->value))
            st->hits |= (uint64_t)1 << i;
    }
    return true;
}

static void begin(bitsift_filter_state *st, const bitsift_filter *f, int schema)
{
    st->filter = f;
    st->schema = schema;
    st->hits = 0;
}

static bitsift_visitor visitor_of(bitsift_filter_state *st)
{
    bitsift_visitor v = {on_event, on_event, NULL, st};
    return v;
}

static int needs_fields(const bitsift_filter *f, int schema, int packet_type)
{
    if (schema < 0 || (size_t)schema >= f->binding_count || packet_type < 0)
        return 0;
    const struct binding *b = &f->bindings[schema];
    return (unsigned)packet_type < b->type_count && b->type_field_tests[packet_type] != 0;
}

const char *bitsift_filter_failure_path(const bitsift_result *res)
{
    if (res->path[0])
        return res->path;
    if (res->failure.field && res->failure.field[0])
        return res->failure.field;
    return "packet";
}

/* `path` equal to `pattern`, where "[]" in the pattern stands for any index. */
static int path_equal(const char *path, const char *pattern)
{
    while (*pattern) {
        if (pattern[0] == '[' && pattern[1] == ']' && *path == '[') {
            const char *close = strchr(path, ']');
            if (!close)
                return 0;
            path = close + 1;
            pattern += 2;
            continue;
        }
        if (*path != *pattern)
            return 0;
        path++, pattern++;
    }
    return *path == '\0';
}

static int field_test(const struct test *t, const char *path)
{
    if (t->op == OP_CONTAINS)
        return strstr(path, t->lit.text) != NULL;
    int equal = path_equal(path, t->lit.text);
    return t->op == OP_EQ ? equal : !equal;
}

static int test_true(const bitsift_filter_state *st, const bitsift_filter_facts *x, unsigned i)
{
    const struct test *t = &st->filter->tests[i];
    const bitsift_result *res = x->res;
    int failed = res->status != BITSIFT_OK;
    const struct binding *b = x->schema >= 0 ? &st->filter->bindings[x->schema] : NULL;
    switch (t->kind) {
    case TEST_TYPE:
        return b && res->packet_type >= 0 && b->tests[i].type == res->packet_type;
    case TEST_FIELD:
        return (st->hits >> i) & 1;
    case TEST_ERROR:
        return failed || x->crc_mismatch;
    case TEST_ERROR_KIND: {
        int k = t->error_kind;
        return (failed && (t->op == OP_EQ) == ((int)res->failure.kind == k)) ||
               (x->crc_mismatch && (t->op == OP_EQ) == (k == BITSIFT_E_CRC));
    }
    case TEST_ERROR_FIELD:
        return (failed && field_test(t, bitsift_filter_failure_path(res))) ||
               (x->crc_mismatch && field_test(t, "crc"));
    case TEST_ERROR_BIT:
        return (failed && apply(t->op, compare_integer(res->failure.bit, &t->lit))) ||
               (x->crc_mismatch && b && apply(t->op, compare_integer(b->crc_bit, &t->lit)));
    }
    return 0;
}

static int eval(const bitsift_filter_state *st, const bitsift_filter_facts *x, int n)
{
    const struct node *node = &st->filter->nodes[n];
    switch (node->kind) {
    case NODE_TEST:
        return test_true(st, x, (unsigned)node->a);
    case NODE_AND:
        return eval(st, x, node->a) && eval(st, x, node->b);
    case NODE_OR:
        return eval(st, x, node->a) || eval(st, x, node->b);
    case NODE_NOT:
        return !eval(st, x, node->a);
    case NODE_TRUE:
        return 1;
    case NODE_FALSE:
        return 0;
    }
    return 0;
}

/* The public steps (bitsift/filter.h), and the one call per packet that
 * takes them all inside the library. */

void bitsift_filter_begin(bitsift_filter_state *st, const bitsift_filter *f, int schema)
{
    begin(st, f, schema);
}

bitsift_visitor bitsift_filter_visitor(bitsift_filter_state *st)
{
    return visitor_of(st);
}

int bitsift_filter_needs_fields(const bitsift_filter *f, int schema, int packet_type)
{
    return needs_fields(f, schema, packet_type);
}

int bitsift_filter_end(const bitsift_filter_state *st, const bitsift_filter_facts *facts)
{
    return eval(st, facts, st->filter->root);
}

int bitsift_filter_judge(const bitsift_filter *f, const bitsift_filter_facts *facts,
                         const void *packet, size_t size, unsigned flags)
{
    bitsift_filter_state st;
    begin(&st, f, facts->schema);
    if (needs_fields(f, facts->schema, facts->res->packet_type)) {
        bitsift_visitor visitor = visitor_of(&st);
        bitsift_result scratch;
        bitsift_decode(f->bindings[facts->schema].s, packet, size,
                       flags | BITSIFT_DECODE_NO_PATHS | BITSIFT_DECODE_NO_ABSENT, &visitor,
                       &scratch);
    }
    return eval(&st, facts, f->root);
}
