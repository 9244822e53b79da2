/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * filter_parse.c -- the display filter language read into tests and an
 * expression tree (filter_internal.h); the language is documented in
 * bitsift(1), FILTERS.
 *
 *   expr    := and ( ("||" | "or") and )*
 *   and     := unary ( ("&&" | "and") unary )*
 *   unary   := ("!" | "not") unary | "(" expr ")" | "true" | "false" | test
 *   test    := path [ op value ]
 *   path    := Type { "." name | "[]" }     a field, or the packet type alone
 *            | "error" [ ".kind" | ".field" | ".bit" ]
 *   op      := == != < <= > >= (or eq ne lt le gt ge) | contains
 *   value   := number | "string" | name (an enum value, an error kind, true, false)
 *
 * Nothing here knows a schema: names are bound by filter_bind.c. Every
 * error says what and at which column; bounds (text, tests, terms,
 * nesting) are errors too, never a deep recursion.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "filter_internal.h"

#define LITERAL_MAX_STRING 1024

/* ---- lexer ------------------------------------------------------------ */

enum token_kind {
    TOK_END, TOK_LPAREN, TOK_RPAREN, TOK_AND, TOK_OR, TOK_NOT, TOK_OP, TOK_PATH, TOK_NUMBER,
    TOK_STRING, TOK_BAD
};

struct parser {
    const char *text;
    size_t len, pos;
    bitsift_filter *f;
    bitsift_filter_error *err;
    int failed;
    unsigned depth;
    /* the current token */
    enum token_kind tok;
    size_t tok_start, tok_len;
    enum filter_op tok_op;
};

/* The first error of a parse, at byte `at` of the text; later ones are
 * consequences of it. */
static void fail_with(struct parser *p, bitsift_error kind, size_t at, const char *format,
                      va_list ap)
{
    if (p->failed)
        return;
    p->failed = 1;
    p->err->kind = kind;
    p->err->column = (unsigned)at + 1;
    vsnprintf(p->err->message, sizeof p->err->message, format, ap);
}

/* An expression the language does not accept. */
static void fail(struct parser *p, size_t at, const char *format, ...)
    __attribute__((format(printf, 3, 4)));

static void fail(struct parser *p, size_t at, const char *format, ...)
{
    va_list ap;
    va_start(ap, format);
    fail_with(p, BITSIFT_E_ARGUMENT, at, format, ap);
    va_end(ap);
}

/* An expression over a bound, or an allocation that failed. */
static void fail_kind(struct parser *p, bitsift_error kind, size_t at, const char *format, ...)
    __attribute__((format(printf, 4, 5)));

static void fail_kind(struct parser *p, bitsift_error kind, size_t at, const char *format, ...)
{
    va_list ap;
    va_start(ap, format);
    fail_with(p, kind, at, format, ap);
    va_end(ap);
}

static int is_name_start(int c)
{
    return isalpha(c) || c == '_';
}

static int is_name_char(int c)
{
    return isalnum(c) || c == '_';
}

static const struct {
    const char *word;
    enum token_kind kind;
    enum filter_op op;
} words[] = {
    {"and", TOK_AND, OP_EXISTS}, {"or", TOK_OR, OP_EXISTS},       {"not", TOK_NOT, OP_EXISTS},
    {"eq", TOK_OP, OP_EQ},       {"ne", TOK_OP, OP_NE},           {"lt", TOK_OP, OP_LT},
    {"le", TOK_OP, OP_LE},       {"gt", TOK_OP, OP_GT},           {"ge", TOK_OP, OP_GE},
    {"contains", TOK_OP, OP_CONTAINS},
};

static void next(struct parser *p)
{
    const char *t = p->text;
    while (p->pos < p->len && isspace((unsigned char)t[p->pos]))
        p->pos++;
    p->tok_start = p->pos;
    p->tok_len = 0;
    if (p->pos >= p->len) {
        p->tok = TOK_END;
        return;
    }
    unsigned char c = (unsigned char)t[p->pos];
    unsigned char c1 = p->pos + 1 < p->len ? (unsigned char)t[p->pos + 1] : 0;
    size_t two = 0;
    p->tok = TOK_BAD;
    if (c == '(') {
        p->tok = TOK_LPAREN, p->tok_len = 1;
    } else if (c == ')') {
        p->tok = TOK_RPAREN, p->tok_len = 1;
    } else if (c == '&' && c1 == '&') {
        p->tok = TOK_AND, two = 1;
    } else if (c == '|' && c1 == '|') {
        p->tok = TOK_OR, two = 1;
    } else if (c == '=' && c1 == '=') {
        p->tok = TOK_OP, p->tok_op = OP_EQ, two = 1;
    } else if (c == '!' && c1 == '=') {
        p->tok = TOK_OP, p->tok_op = OP_NE, two = 1;
    } else if (c == '<' && c1 == '=') {
        p->tok = TOK_OP, p->tok_op = OP_LE, two = 1;
    } else if (c == '>' && c1 == '=') {
        p->tok = TOK_OP, p->tok_op = OP_GE, two = 1;
    } else if (c == '<') {
        p->tok = TOK_OP, p->tok_op = OP_LT, p->tok_len = 1;
    } else if (c == '>') {
        p->tok = TOK_OP, p->tok_op = OP_GT, p->tok_len = 1;
    } else if (c == '!') {
        p->tok = TOK_NOT, p->tok_len = 1;
    } else if (c == '"') {
        size_t i = p->pos + 1;
        while (i < p->len && t[i] != '"') {
            if (t[i] == '\\' && i + 1 < p->len)
                i++;
            i++;
        }
        if (i >= p->len) {
            fail(p, p->pos, "string without its closing quote");
            p->tok = TOK_BAD;
            return;
        }
        p->tok = TOK_STRING;
        p->tok_len = i + 1 - p->pos;
    } else if (isdigit(c) || ((c == '-' || c == '+' || c == '.') && (isdigit(c1) || c1 == '.'))) {
        size_t i = p->pos + 1;
        while (i < p->len && (isalnum((unsigned char)t[i]) || t[i] == '.' ||
                              ((t[i] == '-' || t[i] == '+') && (t[i - 1] == 'e' || t[i - 1] == 'E'))))
            i++;
        p->tok = TOK_NUMBER;
        p->tok_len = i - p->pos;
    } else if (is_name_start(c)) {
        /* A path: names joined by '.', each optionally followed by "[]". */
        size_t i = p->pos;
        for (;;) {
            while (i < p->len && is_name_char((unsigned char)t[i]))
                i++;
            while (i + 1 < p->len && t[i] == '[' && t[i + 1] == ']')
                i += 2;
            if (i < p->len && t[i] == '[') {
                fail(p, i, "only \"[]\" (any element) may follow a name, not an index");
                p->tok = TOK_BAD;
                return;
            }
            if (i + 1 < p->len && t[i] == '.' && is_name_start((unsigned char)t[i + 1])) {
                i++;
                continue;
            }
            break;
        }
        p->tok = TOK_PATH;
        p->tok_len = i - p->pos;
        for (size_t w = 0; w < sizeof words / sizeof words[0]; w++)
            if (strlen(words[w].word) == p->tok_len &&
                memcmp(words[w].word, t + p->pos, p->tok_len) == 0) {
                p->tok = words[w].kind;
                p->tok_op = words[w].op;
            }
    }
    if (two)
        p->tok_len = 2;
    if (p->tok == TOK_BAD) {
        if (isprint(c))
            fail(p, p->pos, "unexpected '%c'", c);
        else
            fail(p, p->pos, "unexpected byte 0x%02x", c);
        return;
    }
    p->pos += p->tok_len;
}

static int token_is(const struct parser *p, const char *word)
{
    return p->tok == TOK_PATH && strlen(word) == p->tok_len &&
           memcmp(p->text + p->tok_start, word, p->tok_len) == 0;
}

/* ---- literals --------------------------------------------------------- */

static int hex_value(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    c = tolower(c);
    return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* A quoted string's bytes, escapes \\ \" \n \t \xHH. */
static int literal_string(struct parser *p, struct literal *lit)
{
    const char *t = p->text + p->tok_start + 1;
    size_t n = p->tok_len - 2;
    char *out = malloc(n + 1);
    if (!out) {
        fail_kind(p, BITSIFT_E_NOMEM, p->tok_start, "out of memory");
        return -1;
    }
    size_t len = 0;
    for (size_t i = 0; i < n; i++) {
        char c = t[i];
        if (c == '\\') {
            char e = t[++i];
            if (e == 'n')
                c = '\n';
            else if (e == 't')
                c = '\t';
            else if (e == '\\' || e == '"')
                c = e;
            else if (e == 'x' && i + 2 < n + 1 && hex_value((unsigned char)t[i + 1]) >= 0 &&
                     hex_value((unsigned char)t[i + 2]) >= 0) {
                c = (char)(hex_value((unsigned char)t[i + 1]) * 16 + hex_value((unsigned char)t[i + 2]));
                i += 2;
            } else {
                free(out);
                fail(p, p->tok_start + 1 + i, "unknown escape (\\\\ \\\" \\n \\t \\xHH)");
                return -1;
            }
        }
        out[len++] = c;
    }
    out[len] = '\0';
    if (len > LITERAL_MAX_STRING) {
        free(out);
        fail_kind(p, BITSIFT_E_LIMIT, p->tok_start, "string longer than %d bytes", LITERAL_MAX_STRING);
        return -1;
    }
    lit->kind = LIT_STRING;
    lit->text = out;
    lit->len = len;
    /* The same text as hex digits, for bytes fields ("deadbeef", as decode
     * prints them; ':' between bytes allowed). */
    uint8_t *hex = malloc(len / 2 + 1);
    size_t hex_len = 0;
    int ok = hex != NULL;
    for (size_t i = 0; ok && i < len;) {
        if (out[i] == ':' && i > 0) {
            i++;
            continue;
        }
        if (i + 1 >= len || hex_value((unsigned char)out[i]) < 0 ||
            hex_value((unsigned char)out[i + 1]) < 0) {
            ok = 0;
            break;
        }
        hex[hex_len++] = (uint8_t)(hex_value((unsigned char)out[i]) * 16 +
                                   hex_value((unsigned char)out[i + 1]));
        i += 2;
    }
    if (ok) {
        lit->hex = hex;
        lit->hex_len = hex_len;
    } else {
        free(hex);
    }
    return 0;
}

static int literal_number(struct parser *p, struct literal *lit)
{
    char text[128];
    if (p->tok_len >= sizeof text) {
        fail_kind(p, BITSIFT_E_LIMIT, p->tok_start, "number too long");
        return -1;
    }
    memcpy(text, p->text + p->tok_start, p->tok_len);
    text[p->tok_len] = '\0';
    lit->kind = LIT_NUMBER;
    const char *digits = text + (text[0] == '-' || text[0] == '+');
    int hex = digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X');
    int integer = hex || !strpbrk(digits, ".eE");
    char *end;
    errno = 0;
    if (integer && !hex) {
        /* Beyond 64 bits a decimal integer is compared as a real number. */
        unsigned long long m = strtoull(digits, &end, 10);
        integer = !(errno == ERANGE && !*end);
        (void)m;
        errno = 0;
    }
    if (integer) {
        unsigned long long m = strtoull(digits, &end, hex ? 16 : 10);
        if (*end || errno || end == digits || (hex && !digits[2])) {
            fail(p, p->tok_start, "not a number: %s", text);
            return -1;
        }
        lit->is_integer = 1;
        lit->negative = text[0] == '-' && m != 0;
        lit->magnitude = m;
        if (lit->negative && m > (uint64_t)1 << 63) {
            fail(p, p->tok_start, "below the smallest 64-bit integer: %s", text);
            return -1;
        }
        lit->d = lit->negative ? -(double)m : (double)m;
    } else {
        double d = strtod(text, &end);
        if (*end || end == text || isnan(d) || (errno == ERANGE && isinf(d))) {
            fail(p, p->tok_start, "not a number: %s", text);
            return -1;
        }
        lit->d = d;
    }
    lit->f = (float)lit->d;
    return 0;
}

/* ---- parser ----------------------------------------------------------- */

static int add_node(struct parser *p, enum node_kind kind, int a, int b)
{
    bitsift_filter *f = p->f;
    if (f->node_count == BITSIFT_FILTER_MAX_NODES) {
        fail_kind(p, BITSIFT_E_LIMIT, p->tok_start, "expression too long (at most %d terms)", BITSIFT_FILTER_MAX_NODES);
        return -1;
    }
    f->nodes[f->node_count] = (struct node){kind, a, b};
    return (int)f->node_count++;
}

static char *copy_text(const char *s, size_t n)
{
    char *c = malloc(n + 1);
    if (c) {
        memcpy(c, s, n);
        c[n] = '\0';
    }
    return c;
}

static int parse_or(struct parser *p);

static int parse_test(struct parser *p)
{
    bitsift_filter *f = p->f;
    if (f->test_count == BITSIFT_FILTER_MAX_TESTS) {
        fail_kind(p, BITSIFT_E_LIMIT, p->tok_start, "too many tests (at most %d)", BITSIFT_FILTER_MAX_TESTS);
        return -1;
    }
    struct test *t = &f->tests[f->test_count++]; /* counted now: freed with the filter */
    memset(t, 0, sizeof *t);
    t->column = (unsigned)p->tok_start + 1;
    const char *path = p->text + p->tok_start;
    size_t len = p->tok_len, at = p->tok_start;
    const char *dot = memchr(path, '.', len);
    size_t head = dot ? (size_t)(dot - path) : len;
    if (head == 5 && memcmp(path, "error", 5) == 0) {
        const char *rest = dot ? dot + 1 : "";
        size_t rest_len = dot ? len - head - 1 : 0;
        if (!dot)
            t->kind = TEST_ERROR;
        else if (rest_len == 4 && memcmp(rest, "kind", 4) == 0)
            t->kind = TEST_ERROR_KIND;
        else if (rest_len == 5 && memcmp(rest, "field", 5) == 0)
            t->kind = TEST_ERROR_FIELD;
        else if (rest_len == 3 && memcmp(rest, "bit", 3) == 0)
            t->kind = TEST_ERROR_BIT;
        else {
            fail(p, at, "error has kind, field and bit, not \"%.*s\"", (int)rest_len, rest);
            return -1;
        }
    } else {
        t->kind = dot ? TEST_FIELD : TEST_TYPE;
        t->type_name = copy_text(path, head);
        t->path = dot ? copy_text(dot + 1, len - head - 1) : NULL;
        if (!t->type_name || (dot && !t->path)) {
            fail_kind(p, BITSIFT_E_NOMEM, at, "out of memory");
            return -1;
        }
        if (memchr(path, '[', head)) {
            fail(p, at, "a path starts with the packet type, which is no array");
            return -1;
        }
    }
    next(p);
    if (p->failed)
        return -1;
    if (p->tok == TOK_OP) {
        t->op = p->tok_op;
        size_t op_at = p->tok_start;
        next(p);
        if (p->failed)
            return -1;
        if (p->tok == TOK_NUMBER) {
            if (literal_number(p, &t->lit) != 0)
                return -1;
        } else if (p->tok == TOK_STRING) {
            if (literal_string(p, &t->lit) != 0)
                return -1;
        } else if (p->tok == TOK_PATH && (token_is(p, "true") || token_is(p, "false"))) {
            t->lit.kind = LIT_BOOL;
            t->lit.d = token_is(p, "true");
            t->lit.is_integer = 1;
            t->lit.magnitude = (uint64_t)t->lit.d;
            t->lit.f = (float)t->lit.d;
        } else if (p->tok == TOK_PATH && !memchr(p->text + p->tok_start, '.', p->tok_len) &&
                   !memchr(p->text + p->tok_start, '[', p->tok_len)) {
            t->lit.kind = LIT_NAME;
            t->lit.text = copy_text(p->text + p->tok_start, p->tok_len);
            t->lit.len = p->tok_len;
            if (!t->lit.text) {
                fail_kind(p, BITSIFT_E_NOMEM, p->tok_start, "out of memory");
                return -1;
            }
        } else {
            fail(p, p->tok_start, "a value (number, \"string\" or name) after the operator");
            return -1;
        }
        if (t->kind == TEST_TYPE) {
            fail(p, op_at, "a packet type alone is a test; compare one of its fields");
            return -1;
        }
        if (t->kind == TEST_ERROR) {
            fail(p, op_at, "compare error.kind, error.field or error.bit; error alone is a test");
            return -1;
        }
        next(p);
        if (p->failed)
            return -1;
    }
    /* What each error test accepts. */
    if (t->kind == TEST_ERROR_KIND) {
        if (t->op != OP_EQ && t->op != OP_NE) {
            fail(p, at, "error.kind takes == or != and a kind (range, crc, ...)");
            return -1;
        }
        const char *name = t->lit.text;
        t->error_kind = -1;
        for (unsigned k = 1; name && k < BITSIFT_ERROR_COUNT; k++)
            if (strcmp(name, bitsift_error_name((bitsift_error)k)) == 0)
                t->error_kind = (int)k;
        if (t->error_kind < 0) {
            fail(p, at, "no error kind \"%s\" (overflow, range, align, check, crc, protocol, "
                        "string, trailing, limit)", name ? name : "");
            return -1;
        }
    } else if (t->kind == TEST_ERROR_FIELD) {
        if (t->op == OP_EXISTS || t->lit.kind != LIT_STRING ||
            (t->op != OP_EQ && t->op != OP_NE && t->op != OP_CONTAINS)) {
            fail(p, at, "error.field takes ==, != or contains and a \"quoted path\"");
            return -1;
        }
    } else if (t->kind == TEST_ERROR_BIT) {
        if (t->op == OP_EXISTS || t->op == OP_CONTAINS || t->lit.kind != LIT_NUMBER) {
            fail(p, at, "error.bit takes a comparison with a number");
            return -1;
        }
    }
    return add_node(p, NODE_TEST, (int)(f->test_count - 1), 0);
}

static int parse_unary(struct parser *p)
{
    if (++p->depth > BITSIFT_FILTER_MAX_DEPTH) {
        fail_kind(p, BITSIFT_E_LIMIT, p->tok_start, "nested deeper than %d", BITSIFT_FILTER_MAX_DEPTH);
        return -1;
    }
    int n = -1;
    if (p->tok == TOK_NOT) {
        next(p);
        int a = p->failed ? -1 : parse_unary(p);
        n = a < 0 ? -1 : add_node(p, NODE_NOT, a, 0);
    } else if (p->tok == TOK_LPAREN) {
        size_t open = p->tok_start;
        next(p);
        int a = p->failed ? -1 : parse_or(p);
        if (a >= 0 && p->tok != TOK_RPAREN)
            fail(p, p->tok_start, "')' expected to close the '(' of column %zu", open + 1);
        else if (a >= 0) {
            next(p);
            n = p->failed ? -1 : a;
        }
    } else if (token_is(p, "true") || token_is(p, "false")) {
        n = add_node(p, token_is(p, "true") ? NODE_TRUE : NODE_FALSE, 0, 0);
        next(p);
        if (p->failed)
            n = -1;
    } else if (p->tok == TOK_PATH) {
        n = parse_test(p);
    } else if (!p->failed) {
        fail(p, p->tok_start, p->tok == TOK_END ? "a test expected at the end"
                                                : "a test (packet type, field or error) expected");
    }
    p->depth--;
    return n;
}

static int parse_binary(struct parser *p, enum token_kind op, enum node_kind kind,
                        int (*operand)(struct parser *))
{
    int a = operand(p);
    while (a >= 0 && p->tok == op) {
        next(p);
        int b = p->failed ? -1 : operand(p);
        a = b < 0 ? -1 : add_node(p, kind, a, b);
    }
    return a;
}

static int parse_and(struct parser *p)
{
    return parse_binary(p, TOK_AND, NODE_AND, parse_unary);
}

static int parse_or(struct parser *p)
{
    if (++p->depth > BITSIFT_FILTER_MAX_DEPTH) {
        fail_kind(p, BITSIFT_E_LIMIT, p->tok_start, "nested deeper than %d", BITSIFT_FILTER_MAX_DEPTH);
        return -1;
    }
    int n = parse_binary(p, TOK_OR, NODE_OR, parse_and);
    p->depth--;
    return n;
}

int filter_parse(bitsift_filter *f, const char *text, size_t len, bitsift_filter_error *err)
{
    struct parser p = {.text = text, .len = len, .f = f, .err = err};
    next(&p);
    f->root = p.failed ? -1 : parse_or(&p);
    if (f->root >= 0 && p.tok != TOK_END)
        fail(&p, p.tok_start, p.tok == TOK_RPAREN ? "')' without its '('"
                                                   : "&&, || or the end expected");
    if (p.failed || f->root < 0) {
        if (!p.failed)
            filter_error_set(err, BITSIFT_E_ARGUMENT, 0, "empty expression");
        return -1;
    }
    return 0;
}
