/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * filter.c -- the -Y filter language: lexer, parser, binding to each
 * schema's field ids, and the judgement of a packet from visitor events
 * (see filter.h; the language is documented in bitsift(1), FILTERS).
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
 * Every test is one bit of the packet's state; a test on a field that
 * occurs several times (array elements) is true when any occurrence
 * satisfies it. The expression is then evaluated over those bits.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "filter.h"

#define LITERAL_MAX_STRING 1024

enum op { OP_EXISTS, OP_EQ, OP_NE, OP_LT, OP_LE, OP_GT, OP_GE, OP_CONTAINS };
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
    enum op op;
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
    int type;            /* packet type it concerns, -1: none in this schema */
    int field;           /* field id, -1: none */
    int64_t enum_value;  /* NAME literal against an enum field */
};

struct binding {
    const bitsift_schema *s;
    unsigned field_count, type_count;
    uint64_t *field_tests;      /* per field id: the tests on it */
    uint64_t *type_field_tests; /* per packet type: the field tests of that type */
    uint32_t crc_bit;           /* where the CRC field starts (after a prefix) */
    struct bound tests[FILTER_MAX_TESTS];
};

struct filter {
    struct node nodes[FILTER_MAX_NODES];
    unsigned node_count;
    int root;
    struct test tests[FILTER_MAX_TESTS];
    unsigned test_count;
    struct binding *bindings;
    size_t binding_count;
};

/* ---- lexer ------------------------------------------------------------ */

enum token_kind {
    TOK_END, TOK_LPAREN, TOK_RPAREN, TOK_AND, TOK_OR, TOK_NOT, TOK_OP, TOK_PATH, TOK_NUMBER,
    TOK_STRING, TOK_BAD
};

struct parser {
    const char *text;
    size_t len, pos;
    struct filter *f;
    char *error;
    size_t error_size;
    int failed;
    unsigned depth;
    /* the current token */
    enum token_kind tok;
    size_t tok_start, tok_len;
    enum op tok_op;
};

static void fail(struct parser *p, size_t at, const char *format, ...)
    __attribute__((format(printf, 3, 4)));

static void fail(struct parser *p, size_t at, const char *format, ...)
{
    if (p->failed)
        return;
    p->failed = 1;
    int n = snprintf(p->error, p->error_size, "-Y column %zu: ", at + 1);
    if (n < 0 || (size_t)n >= p->error_size)
        return;
    va_list ap;
    va_start(ap, format);
    vsnprintf(p->error + n, p->error_size - (size_t)n, format, ap);
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
    enum op op;
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
        fail(p, p->tok_start, "out of memory");
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
        fail(p, p->tok_start, "string longer than %d bytes", LITERAL_MAX_STRING);
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
        fail(p, p->tok_start, "number too long");
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
    struct filter *f = p->f;
    if (f->node_count == FILTER_MAX_NODES) {
        fail(p, p->tok_start, "expression too long (at most %d terms)", FILTER_MAX_NODES);
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
    struct filter *f = p->f;
    if (f->test_count == FILTER_MAX_TESTS) {
        fail(p, p->tok_start, "too many tests (at most %d)", FILTER_MAX_TESTS);
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
            fail(p, at, "out of memory");
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
                fail(p, p->tok_start, "out of memory");
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
    if (++p->depth > FILTER_MAX_DEPTH) {
        fail(p, p->tok_start, "nested deeper than %d", FILTER_MAX_DEPTH);
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
    if (++p->depth > FILTER_MAX_DEPTH) {
        fail(p, p->tok_start, "nested deeper than %d", FILTER_MAX_DEPTH);
        return -1;
    }
    int n = parse_binary(p, TOK_OR, NODE_OR, parse_and);
    p->depth--;
    return n;
}

/* ---- binding to the schemas ------------------------------------------- */

/* A path with the "[]" of array elements taken out, as Wireshark names
 * fields ("players[].position.x" -> "players.position.x"). */
static void strip_elements(const char *path, char *out, size_t size)
{
    size_t n = 0;
    for (const char *c = path; *c && n + 1 < size; c++) {
        if (c[0] == '[' && c[1] == ']') {
            c++;
            continue;
        }
        if (*c == '.' && (n == 0 || out[n - 1] == '.'))
            continue;
        out[n++] = *c;
    }
    out[n] = '\0';
}

static int is_container(bitsift_field_type t)
{
    return t == BITSIFT_FIELD_STRUCT || t == BITSIFT_FIELD_ARRAY || t == BITSIFT_FIELD_VECTOR ||
           t == BITSIFT_FIELD_QUATERNION;
}

static int find_type(const bitsift_schema *s, const char *name)
{
    int exact = bitsift_schema_packet_index(s, name);
    if (exact >= 0)
        return exact;
    for (unsigned t = 0; t < bitsift_schema_packet_count(s); t++)
        if (strcasecmp(bitsift_schema_packet_name(s, t), name) == 0)
            return (int)t;
    return -1;
}

/* The field `path` names in packet type `type`: the exact path first,
 * else the path with "[]" left out, preferring a field with a value (an
 * array of numbers is named like its elements). -1 none, -2 ambiguous. */
static int find_field(const bitsift_schema *s, unsigned type, const char *path)
{
    char want[BITSIFT_PATH_MAX], have[BITSIFT_PATH_MAX];
    unsigned count = bitsift_schema_field_count(s);
    bitsift_field_info info;
    /* An exact match, unless it is an array named without its "[]": the
     * elements of an array of numbers are then meant. */
    for (unsigned id = 0; id < count; id++)
        if (bitsift_schema_field_info(s, id, &info) && info.packet_type == type && info.depth &&
            strcmp(info.path, path) == 0 && info.type != BITSIFT_FIELD_ARRAY)
            return (int)id;
    strip_elements(path, want, sizeof want);
    int best = -1, best_value = -1, ties = 0;
    for (unsigned id = 0; id < count; id++) {
        if (!bitsift_schema_field_info(s, id, &info) || info.packet_type != type || !info.depth)
            continue;
        strip_elements(info.path, have, sizeof have);
        if (strcmp(have, want) != 0)
            continue;
        int value = !is_container(info.type);
        if (value > best_value) {
            best = (int)id, best_value = value, ties = 0;
        } else if (value == best_value && value) {
            ties++;
        }
    }
    return ties ? -2 : best;
}

/* The enum value called `name` in field `id`: its number, or -1 when none. */
static int enum_value(const bitsift_schema *s, unsigned id, const bitsift_field_info *info,
                      const char *name, int64_t *value)
{
    if (info->max - info->min > 65535)
        return -1;
    for (int64_t v = info->min; v <= info->max; v++) {
        const char *n = bitsift_schema_enum_name(s, id, v);
        if (n && strcmp(n, name) == 0) {
            *value = v;
            return 0;
        }
    }
    return -1;
}

/* Whether the test's value suits a field of this type. NULL when it does,
 * else why not. */
static const char *check_value(const struct test *t, const bitsift_field_info *info)
{
    if (t->op == OP_EXISTS)
        return NULL;
    if (is_container(info->type))
        return "is a struct or array: compare one of its fields";
    enum literal_kind k = t->lit.kind;
    switch (info->type) {
    case BITSIFT_FIELD_STRING:
        return k == LIT_STRING ? NULL : "is a string: compare it with a \"quoted string\"";
    case BITSIFT_FIELD_BYTES:
        if (k != LIT_STRING || !t->lit.hex)
            return "is bytes: compare it with \"hex digits\" (as decode prints them)";
        return NULL;
    case BITSIFT_FIELD_ENUM:
        if (t->op == OP_CONTAINS)
            return "is an enum: contains is for strings and bytes";
        return k == LIT_NAME || k == LIT_NUMBER || k == LIT_STRING
                   ? NULL
                   : "is an enum: compare it with one of its names or a number";
    default:
        if (t->op == OP_CONTAINS)
            return "is a number: contains is for strings and bytes";
        if (info->type == BITSIFT_FIELD_BOOL)
            return k == LIT_BOOL || k == LIT_NUMBER ? NULL : "is a bool: compare it with true or false";
        return k == LIT_NUMBER || k == LIT_BOOL ? NULL : "is a number: compare it with a number";
    }
}

static int bind_schema(struct filter *f, struct binding *b, char *error, size_t error_size,
                       int *found)
{
    const bitsift_schema *s = b->s;
    b->field_count = bitsift_schema_field_count(s);
    b->type_count = bitsift_schema_packet_count(s);
    b->field_tests = calloc(b->field_count + 1, sizeof *b->field_tests);
    b->type_field_tests = calloc(b->type_count + 1, sizeof *b->type_field_tests);
    if (!b->field_tests || !b->type_field_tests) {
        snprintf(error, error_size, "out of memory");
        return -1;
    }
    b->crc_bit = 8u * bitsift_schema_framing(s)->prefix_bytes;
    for (unsigned i = 0; i < f->test_count; i++) {
        struct test *t = &f->tests[i];
        struct bound *bd = &b->tests[i];
        bd->type = -1;
        bd->field = -1;
        if (t->kind != TEST_TYPE && t->kind != TEST_FIELD)
            continue;
        bd->type = find_type(s, t->type_name);
        if (bd->type < 0 || t->kind == TEST_TYPE) {
            found[i] |= bd->type >= 0;
            continue;
        }
        int id = find_field(s, (unsigned)bd->type, t->path);
        if (id == -2) {
            snprintf(error, error_size, "-Y column %u: %s.%s names several fields of %s; write "
                     "its path with \"[]\" as stats prints it", t->column, t->type_name, t->path,
                     bitsift_schema_name(s));
            return -1;
        }
        if (id < 0)
            continue;
        bitsift_field_info info;
        bitsift_schema_field_info(s, (unsigned)id, &info);
        const char *why = check_value(t, &info);
        if (why) {
            snprintf(error, error_size, "-Y column %u: %s.%s (%s) %s", t->column, t->type_name,
                     t->path, bitsift_field_type_name(info.type), why);
            return -1;
        }
        if (info.type == BITSIFT_FIELD_ENUM &&
            (t->lit.kind == LIT_NAME || t->lit.kind == LIT_STRING) &&
            enum_value(s, (unsigned)id, &info, t->lit.text, &bd->enum_value) != 0) {
            snprintf(error, error_size, "-Y column %u: %s.%s has no value named \"%s\"",
                     t->column, t->type_name, t->path, t->lit.text);
            return -1;
        }
        if (info.type != BITSIFT_FIELD_ENUM && t->lit.kind == LIT_NAME) {
            snprintf(error, error_size,
                     "-Y column %u: %s.%s is not an enum: \"%s\" names no value of it (quote "
                     "strings)", t->column, t->type_name, t->path, t->lit.text);
            return -1;
        }
        bd->field = id;
        b->field_tests[id] |= (uint64_t)1 << i;
        b->type_field_tests[bd->type] |= (uint64_t)1 << i;
        found[i] = 1;
    }
    return 0;
}

static void free_tests(struct filter *f)
{
    for (unsigned i = 0; i < f->test_count; i++) {
        free(f->tests[i].type_name);
        free(f->tests[i].path);
        free(f->tests[i].lit.text);
        free(f->tests[i].lit.hex);
    }
}

void filter_free(struct filter *f)
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

struct filter *filter_compile(const char *text, const bitsift_schema *const *schemas,
                              size_t count, char *error, size_t error_size)
{
    size_t len = strlen(text);
    if (len > FILTER_MAX_TEXT) {
        snprintf(error, error_size, "-Y: expression longer than %d bytes", FILTER_MAX_TEXT);
        return NULL;
    }
    struct filter *f = calloc(1, sizeof *f);
    if (!f) {
        snprintf(error, error_size, "out of memory");
        return NULL;
    }
    struct parser p = {.text = text, .len = len, .f = f, .error = error, .error_size = error_size};
    next(&p);
    f->root = p.failed ? -1 : parse_or(&p);
    if (f->root >= 0 && p.tok != TOK_END)
        fail(&p, p.tok_start, p.tok == TOK_RPAREN ? "')' without its '('"
                                                   : "&&, || or the end expected");
    if (p.failed || f->root < 0) {
        if (!p.failed)
            snprintf(error, error_size, "-Y: empty expression");
        filter_free(f);
        return NULL;
    }
    f->bindings = calloc(count ? count : 1, sizeof *f->bindings);
    if (!f->bindings) {
        snprintf(error, error_size, "out of memory");
        filter_free(f);
        return NULL;
    }
    int found[FILTER_MAX_TESTS] = {0};
    for (size_t i = 0; i < count; i++) {
        f->bindings[i].s = schemas[i];
        f->binding_count = i + 1;
        if (bind_schema(f, &f->bindings[i], error, error_size, found) != 0) {
            filter_free(f);
            return NULL;
        }
    }
    /* A name that no schema knows is a typo, not a test that is never true. */
    for (unsigned i = 0; i < f->test_count; i++) {
        const struct test *t = &f->tests[i];
        if ((t->kind == TEST_TYPE || t->kind == TEST_FIELD) && !found[i]) {
            int type_known = 0;
            for (size_t k = 0; k < count; k++)
                type_known |= find_type(schemas[k], t->type_name) >= 0;
            if (!type_known)
                snprintf(error, error_size, "-Y column %u: no packet type \"%s\" in the "
                         "schema%s (a path starts with the packet type)", t->column,
                         t->type_name, count == 1 ? "" : "s");
            else
                snprintf(error, error_size, "-Y column %u: packet type %s has no field \"%s\" "
                         "(bitsift stats lists the fields)", t->column, t->type_name, t->path);
            filter_free(f);
            return NULL;
        }
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

static int apply(enum op op, int c)
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
    struct filter_state *st = ctx;
    if (ev->id < 0 || (ev->flags & (BITSIFT_EVENT_ARRAY_META | BITSIFT_EVENT_ABSENT)))
        return true;
    const struct binding *b = &st->f->bindings[st->schema];
    if ((unsigned)ev->id >= b->field_count)
        return true;
    uint64_t open = b->field_tests[ev->id] & ~st->hits;
    while (open) {
        unsigned i = (unsigned)__builtin_ctzll(open);
        open &= open - 1;
        const struct test *t = &st->f->tests[i];
        if (t->op == OP_EXISTS || value_matches(t, &b->tests[i], &ev->value))
            st->hits |= (uint64_t)1 << i;
    }
    return true;
}

void filter_begin(struct filter_state *st, const struct filter *f, int schema)
{
    st->f = f;
    st->schema = schema;
    st->hits = 0;
}

bitsift_visitor filter_visitor(struct filter_state *st)
{
    bitsift_visitor v = {on_event, on_event, NULL, st};
    return v;
}

int filter_needs_fields(const struct filter *f, int schema, int packet_type)
{
    if (schema < 0 || (size_t)schema >= f->binding_count || packet_type < 0)
        return 0;
    const struct binding *b = &f->bindings[schema];
    return (unsigned)packet_type < b->type_count && b->type_field_tests[packet_type] != 0;
}

/* A failure's field path as the outputs name it. */
static const char *failure_path(const bitsift_result *res)
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

static int test_true(const struct filter_state *st, const struct filter_facts *x, unsigned i)
{
    const struct test *t = &st->f->tests[i];
    const bitsift_result *res = x->res;
    int failed = res->status != BITSIFT_OK;
    const struct binding *b = x->schema >= 0 ? &st->f->bindings[x->schema] : NULL;
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
        return (failed && field_test(t, failure_path(res))) ||
               (x->crc_mismatch && field_test(t, "crc"));
    case TEST_ERROR_BIT:
        return (failed && apply(t->op, compare_integer(res->failure.bit, &t->lit))) ||
               (x->crc_mismatch && b && apply(t->op, compare_integer(b->crc_bit, &t->lit)));
    }
    return 0;
}

static int eval(const struct filter_state *st, const struct filter_facts *x, int n)
{
    const struct node *node = &st->f->nodes[n];
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

int filter_end(const struct filter_state *st, const struct filter_facts *facts)
{
    return eval(st, facts, st->f->root);
}
