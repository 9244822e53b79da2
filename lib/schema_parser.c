/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * schema_parser.c -- recursive-descent parser of the schema language; it
 * emits ops as it reads (there is no AST). Grammar and meaning are in
 * man/bitsift-schema.5; in short:
 *
 *   protocol NAME { id N; | version N;  crc on|off;  end_check N|"name"|off;  prefix N; }
 *   enum NAME [: int(MIN, MAX)] { A [= N], B, ... }
 *   struct NAME { statements }
 *   packet NAME { statements }
 *
 *   statement := TYPE NAME [array] {constraint} ;
 *              | align ;  | check(N | "name") ;
 *              | if (condition) body [else body]
 *   array     := [N] [sparse(flags|indices|sentinel|relative)] | [max N] | [field [max N]]
 *   constraint:= == VALUE | in { VALUE, ... } | default VALUE
 *
 * A struct type is inlined where it is used: its token range is parsed
 * again at each use, so that every use gets its own ops, field ids and
 * paths. A struct may only refer to its own earlier fields, which makes
 * each struct checkable on its own (unused structs are checked too).
 */
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schema_emit.h"

/* Work allowed for name lookups in one schema: keeps hostile schemas with
 * many references to many fields from taking quadratic time. */
#define LOOKUP_BUDGET 50000000u

struct scalar {
    const struct token *at;
    enum op_code code;
    bitsift_field_type type;
    uint32_t width, steps;
    int64_t min, max;
    float fmin, fmax, res;
    enum base_kind base_kind;
    int64_t base;
    int32_t base_op; /* BASE_SLOT: the op whose value is the base */
    int32_t max_objects;
    int32_t enum_id;
};

struct typespec {
    struct scalar sc;
    struct decl *decl;    /* a struct type */
    unsigned ncomponents; /* vectors and quaternions */
    bitsift_field_type composite;
    struct scalar comp;
    const struct token *comp_first, *comp_last; /* the component type as written */
};

static const struct token *peek(struct compiler *c)
{
    return &c->toks[c->pos < c->ntoks ? c->pos : c->ntoks - 1];
}

static const struct token *next(struct compiler *c)
{
    const struct token *t = peek(c);
    if (t->kind != TOK_EOF)
        c->pos++;
    return t;
}

static bool tok_is(const struct token *t, const char *word)
{
    size_t n = strlen(word);
    return t->kind == TOK_IDENT && t->len == n && memcmp(t->text, word, n) == 0;
}

static bool accept(struct compiler *c, enum token_kind k)
{
    if (peek(c)->kind != k)
        return false;
    next(c);
    return true;
}

static bool accept_word(struct compiler *c, const char *word)
{
    if (!tok_is(peek(c), word))
        return false;
    next(c);
    return true;
}

static const char *describe(const struct token *t, char *buf, size_t size)
{
    if (t->kind == TOK_EOF)
        return "end of file";
    snprintf(buf, size, "'%.*s'", (int)(t->len > 40 ? 40 : t->len), t->text);
    return buf;
}

static bool expect(struct compiler *c, enum token_kind k, const char *what)
{
    if (accept(c, k))
        return true;
    char buf[64];
    return compile_error(c, peek(c), "expected %s, got %s", what, describe(peek(c), buf, sizeof buf));
}

static const struct token *expect_ident(struct compiler *c, const char *what)
{
    const struct token *t = peek(c);
    if (t->kind != TOK_IDENT) {
        char buf[64];
        compile_error(c, t, "expected %s, got %s", what, describe(t, buf, sizeof buf));
        return NULL;
    }
    if (t->len > BITSIFT_SCHEMA_MAX_NAME) {
        compile_error(c, t, "name longer than %d characters", BITSIFT_SCHEMA_MAX_NAME);
        return NULL;
    }
    return next(c);
}

/* A signed 64-bit integer literal: [-] INT. */
static bool parse_signed(struct compiler *c, int64_t *v)
{
    bool neg = accept(c, TOK_MINUS);
    const struct token *t = peek(c);
    if (t->kind != TOK_INT) {
        char buf[64];
        return compile_error(c, t, "expected an integer, got %s", describe(t, buf, sizeof buf));
    }
    next(c);
    if (neg ? t->uval > (uint64_t)INT64_MAX + 1 : t->uval > (uint64_t)INT64_MAX)
        return compile_error(c, t, "integer outside the signed 64-bit range");
    *v = neg ? (int64_t)(0 - t->uval) : (int64_t)t->uval;
    return true;
}

/* An unsigned count literal in [lo, hi]. */
static bool parse_count(struct compiler *c, uint64_t lo, uint64_t hi, const char *what,
                        uint64_t *v)
{
    const struct token *t = peek(c);
    if (t->kind != TOK_INT) {
        char buf[64];
        return compile_error(c, t, "expected %s, got %s", what, describe(t, buf, sizeof buf));
    }
    next(c);
    if (t->uval < lo || t->uval > hi)
        return compile_error(c, t, "%s %llu outside %llu..%llu", what,
                             (unsigned long long)t->uval, (unsigned long long)lo,
                             (unsigned long long)hi);
    *v = t->uval;
    return true;
}

/* A real number literal: [-] INT | FLOAT. */
static bool parse_real(struct compiler *c, double *v)
{
    bool neg = accept(c, TOK_MINUS);
    const struct token *t = peek(c);
    if (t->kind != TOK_INT && t->kind != TOK_FLOAT) {
        char buf[64];
        return compile_error(c, t, "expected a number, got %s", describe(t, buf, sizeof buf));
    }
    next(c);
    *v = neg ? -t->fval : t->fval;
    return true;
}

/* check("name") hashes the name as the 2016 article does; escapes \" and
 * \\ are honoured. */
static bool string_literal(struct compiler *c, const struct token *t, char *buf, size_t size)
{
    size_t n = 0;
    for (size_t i = 1; i + 1 < t->len; i++) {
        char ch = t->text[i];
        if (ch == '\\' && i + 2 < t->len)
            ch = t->text[++i];
        if (n + 1 >= size)
            return compile_error(c, t, "string longer than %zu bytes", size - 1);
        buf[n++] = ch;
    }
    buf[n] = 0;
    return true;
}

/* ---- where fields are written (bitsift_field_source) ----------------- */

static size_t tok_start(const struct compiler *c, const struct token *t)
{
    return (size_t)(t->text - c->text);
}

static size_t tok_end(const struct compiler *c, const struct token *t)
{
    return tok_start(c, t) + t->len;
}

/* The span of tokens [first, last]; empty at `first` when last < first. */
static void tok_span(const struct compiler *c, const struct token *first, const struct token *last,
                     size_t *start, size_t *end)
{
    *start = tok_start(c, first);
    *end = last >= first ? tok_end(c, last) : *start;
}

/* A statement from `first` to `last` (its ';'), with the condition it is
 * under; the type and array spans are the caller's. */
static bitsift_field_source statement_source(const struct compiler *c, const struct token *first,
                                             const struct token *last)
{
    bitsift_field_source src;
    memset(&src, 0, sizeof src);
    src.line = first->line;
    src.column = first->column;
    tok_span(c, first, last, &src.start, &src.end);
    src.type_start = src.type_end = src.start;
    src.array_start = src.array_end = src.start;
    src.body_start = src.body_end = src.start;
    if (c->cond_first)
        tok_span(c, c->cond_first, c->cond_last, &src.cond_start, &src.cond_end);
    else
        src.cond_start = src.cond_end = src.start;
    return src;
}

/* What a declaration's braces hold, first token to last. */
static void decl_body_span(const struct compiler *c, const struct decl *d, size_t *start,
                           size_t *end)
{
    tok_span(c, &c->toks[d->body_first], &c->toks[d->body_end - (d->body_end > d->body_first)],
             start, end);
    if (d->body_end == d->body_first)
        *end = *start;
}

/* Give every field from `first_field` on that has no source yet this one. */
static void set_sources(struct compiler *c, uint32_t first_field, const bitsift_field_source *src)
{
    for (uint32_t f = first_field; f < c->s->field_count; f++)
        if (!c->s->fields[f].has_src) {
            c->s->fields[f].src = *src;
            c->s->fields[f].has_src = true;
        }
}

/* ---- declarations ------------------------------------------------- */

/* Declarations are found through a hash table (open addressing over
 * decl indices + 1), so that a schema with many types compiles in linear
 * time. */
static uint32_t name_hash(const char *text, size_t len)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < len; i++)
        h = (h ^ (unsigned char)text[i]) * 16777619u;
    return h;
}

static struct decl *find_decl(struct compiler *c, const struct token *name)
{
    if (!c->decl_table)
        return NULL;
    for (size_t i = name_hash(name->text, name->len) & (c->decl_table_size - 1);;
         i = (i + 1) & (c->decl_table_size - 1)) {
        uint32_t slot = c->decl_table[i];
        if (slot == 0)
            return NULL;
        struct decl *d = &c->decls[slot - 1];
        if (d->name->len == name->len && memcmp(d->name->text, name->text, name->len) == 0)
            return d;
    }
}

/* Insert decls[index]; the table is kept at most half full. */
static bool index_decl(struct compiler *c, size_t index)
{
    if (2 * (index + 1) > c->decl_table_size) {
        size_t size = c->decl_table_size ? c->decl_table_size * 2 : 64;
        uint32_t *table = calloc(size, sizeof *table);
        if (!table)
            return false;
        free(c->decl_table);
        c->decl_table = table;
        c->decl_table_size = size;
        for (size_t k = 0; k < index; k++) {
            size_t i = name_hash(c->decls[k].name->text, c->decls[k].name->len) & (size - 1);
            while (table[i])
                i = (i + 1) & (size - 1);
            table[i] = (uint32_t)k + 1;
        }
    }
    size_t i = name_hash(c->decls[index].name->text, c->decls[index].name->len) &
               (c->decl_table_size - 1);
    while (c->decl_table[i])
        i = (i + 1) & (c->decl_table_size - 1);
    c->decl_table[i] = (uint32_t)index + 1;
    return true;
}

static bool is_builtin(const struct token *t)
{
    static const char *const words[] = {
        "bits",          "bool",           "uint8",  "uint16",   "uint32",
        "uint64",        "int",            "float",  "double",   "compressed_float",
        "bytes",         "string",         "align",  "check",    "int_relative",
        "object_index",  "sequence_relative", "ack_relative", "vector2", "vector3",
        "vector4",       "quaternion",     "smallest_three", "if", "else",
        "struct",        "packet",         "enum",   "protocol", "previous",
    };
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (tok_is(t, words[i]))
            return true;
    return false;
}

/* Find the token index of the '}' matching the '{' at c->pos - 1. */
static bool skip_braces(struct compiler *c, size_t *end)
{
    unsigned long depth = 1;
    while (peek(c)->kind != TOK_EOF) {
        const struct token *t = next(c);
        if (t->kind == TOK_LBRACE)
            depth++;
        else if (t->kind == TOK_RBRACE && --depth == 0) {
            *end = c->pos - 1;
            return true;
        }
    }
    return compile_error(c, peek(c), "missing '}' before end of file");
}

/* ---- enums -------------------------------------------------------- */

static bool parse_wire_range(struct compiler *c, int64_t *min, int64_t *max)
{
    const struct token *t = peek(c);
    if (accept_word(c, "int")) {
        if (!expect(c, TOK_LPAREN, "'('") || !parse_signed(c, min) ||
            !expect(c, TOK_COMMA, "','") || !parse_signed(c, max) || !expect(c, TOK_RPAREN, "')'"))
            return false;
        if (*min > *max)
            return compile_error(c, t, "int range has min %lld > max %lld", (long long)*min,
                                 (long long)*max);
        return true;
    }
    static const struct {
        const char *name;
        unsigned bits;
    } widths[] = {{"uint8", 8}, {"uint16", 16}, {"uint32", 32}};
    for (size_t i = 0; i < 3; i++)
        if (accept_word(c, widths[i].name)) {
            *min = 0;
            *max = (int64_t)((1ull << widths[i].bits) - 1);
            return true;
        }
    char buf[64];
    return compile_error(c, t, "expected int(MIN, MAX), uint8, uint16 or uint32, got %s",
                         describe(t, buf, sizeof buf));
}

static int compare_enum_values(const void *a, const void *b)
{
    const struct schema_enum_value *x = a, *y = b;
    return x->value < y->value ? -1 : x->value > y->value;
}

/* enum NAME [: RANGE] { A [= N], ... } -- values count up from the
 * previous one (0 first), like C. */
static bool compile_enum(struct compiler *c, struct decl *d)
{
    bitsift_schema *s = c->s;
    if (!compile_grow((void **)&s->enums, &c->enums_cap, s->enum_count + 1, sizeof *s->enums))
        return compile_error(c, d->name, "out of memory");
    struct schema_enum *e = &s->enums[s->enum_count];
    d->enum_id = (int32_t)s->enum_count++;
    e->name = compile_strdup(c, d->name->text, d->name->len);
    e->first = s->enum_value_count;
    e->count = 0;
    int64_t wire_min = 0, wire_max = 0;
    bool explicit_range = false;
    c->pos = d->body_first;
    int64_t value = -1;
    const struct token *brace = NULL;
    /* The optional range sits between the name and the brace. */
    if (accept(c, TOK_COLON)) {
        if (!parse_wire_range(c, &wire_min, &wire_max))
            return false;
        explicit_range = true;
    }
    brace = peek(c);
    if (!expect(c, TOK_LBRACE, "'{'"))
        return false;
    const struct token *first_item = peek(c), *last_item = brace;
    while (!accept(c, TOK_RBRACE)) {
        const struct token *name = expect_ident(c, "an enum value name");
        if (!name)
            return false;
        if (accept(c, TOK_ASSIGN)) {
            if (!parse_signed(c, &value))
                return false;
            last_item = &c->toks[c->pos - 1];
        } else {
            last_item = name;
            if (value == INT64_MAX)
                return compile_error(c, name, "enum value overflows");
            value++;
        }
        for (uint32_t i = e->first; i < s->enum_value_count; i++) {
            if (strlen(s->enum_values[i].name) == name->len &&
                memcmp(s->enum_values[i].name, name->text, name->len) == 0)
                return compile_error(c, name, "duplicate enum value name '%.*s'",
                                     (int)name->len, name->text);
            if (s->enum_values[i].value == value)
                return compile_error(c, name, "enum value %lld of '%.*s' already used by '%s'",
                                     (long long)value, (int)name->len, name->text,
                                     s->enum_values[i].name);
        }
        if (e->count >= SCHEMA_MAX_LIST)
            return compile_error(c, name, "more than %d enum values", SCHEMA_MAX_LIST);
        if (!compile_grow((void **)&s->enum_values, &c->values_cap, s->enum_value_count + 1,
                          sizeof *s->enum_values))
            return compile_error(c, name, "out of memory");
        s->enum_values[s->enum_value_count].name = compile_strdup(c, name->text, name->len);
        s->enum_values[s->enum_value_count].value = value;
        if (explicit_range && (value < wire_min || value > wire_max))
            return compile_error(c, name, "enum value %lld outside the enum's range %lld..%lld",
                                 (long long)value, (long long)wire_min, (long long)wire_max);
        s->enum_value_count++;
        e->count++;
        if (!accept(c, TOK_COMMA)) {
            if (!expect(c, TOK_RBRACE, "',' or '}'"))
                return false;
            break;
        }
    }
    if (e->count == 0)
        return compile_error(c, brace, "enum '%s' has no values", e->name);
    tok_span(c, first_item, last_item, &s->enums[d->enum_id].items_start,
             &s->enums[d->enum_id].items_end);
    qsort(s->enum_values + e->first, e->count, sizeof *s->enum_values, compare_enum_values);
    if (!explicit_range) {
        wire_min = s->enum_values[e->first].value;
        wire_max = s->enum_values[e->first + e->count - 1].value;
    }
    const struct schema_enum_value *sorted = s->enum_values + e->first;
    e->dense = (uint64_t)sorted[e->count - 1].value - (uint64_t)sorted[0].value == e->count - 1;
    s->enums[d->enum_id].min = wire_min;
    s->enums[d->enum_id].max = wire_max;
    return !c->failed;
}

/* ---- references ----------------------------------------------------- */

static bool push_visible(struct compiler *c, const struct token *name, int32_t op, int32_t parent)
{
    if (!compile_grow((void **)&c->vis, &c->vis_cap, c->nvis + 1, sizeof *c->vis))
        return compile_error(c, name, "out of memory");
    c->vis[c->nvis].name = name ? name->text : "";
    c->vis[c->nvis].name_len = name ? name->len : 0;
    c->vis[c->nvis].op = op;
    c->vis[c->nvis].parent = parent;
    c->nvis++;
    return true;
}

static int32_t find_visible(struct compiler *c, int32_t parent, const struct token *name)
{
    for (size_t i = c->nvis; i-- > 0;) {
        if (++c->lookup_work > LOOKUP_BUDGET)
            return -2;
        if (c->vis[i].parent == parent && c->vis[i].name_len == name->len &&
            memcmp(c->vis[i].name, name->text, name->len) == 0)
            return (int32_t)i;
    }
    return -1;
}

/* Is `name` declared as a field later in the current body? Used to say
 * "used before it is declared" instead of "unknown field". */
static bool declared_later(struct compiler *c, const struct token *name, size_t from)
{
    for (size_t i = from; i + 1 < c->body_end && i + 1 < c->ntoks; i++) {
        const struct token *t = &c->toks[i];
        enum token_kind after = c->toks[i + 1].kind;
        if (t->len == name->len && memcmp(t->text, name->text, name->len) == 0 &&
            t->kind == TOK_IDENT && (i == 0 || c->toks[i - 1].kind != TOK_DOT) &&
            (after == TOK_SEMI || after == TOK_LBRACKET || after == TOK_EQ ||
             tok_is(&c->toks[i + 1], "in") || tok_is(&c->toks[i + 1], "default")) &&
            i > 0 && (c->toks[i - 1].kind == TOK_IDENT || c->toks[i - 1].kind == TOK_RPAREN))
            return true;
    }
    return false;
}

/* The ops a reference, a condition or a value constraint may name. A
 * check's value is an integer too, but it has no name to be named by. */
static bool op_is_integer(const struct schema_op *op)
{
    return value_kind_is_integer(schema_value_kind(op));
}

/* field { . field } naming an earlier integer field; returns its op, or -1
 * after an error. `first` is the already-read first name. stmt_start is
 * where the current statement starts, for the "later field" check. */
static int32_t parse_ref(struct compiler *c, const struct token *first, size_t stmt_start)
{
    int32_t parent = c->owner;
    const struct token *name = first;
    for (;;) {
        int32_t v = find_visible(c, parent, name);
        if (v == -2) {
            compile_error(c, name, "schema too complex: too many field references");
            return -1;
        }
        if (v < 0) {
            if (parent == c->owner && c->stmt_name && c->stmt_name->len == name->len &&
                memcmp(c->stmt_name->text, name->text, name->len) == 0)
                compile_error(c, name, "field '%.*s' refers to itself", (int)name->len,
                              name->text);
            else if (parent == c->owner && declared_later(c, name, stmt_start))
                compile_error(c, name, "field '%.*s' is used before it is declared",
                              (int)name->len, name->text);
            else
                compile_error(c, name, "unknown field '%.*s'", (int)name->len, name->text);
            return -1;
        }
        const struct schema_op *op = &c->s->ops[c->vis[v].op];
        if (!accept(c, TOK_DOT)) {
            if (op->code == OP_ARRAY) {
                compile_error(c, name, "'%.*s' is an array, not a value", (int)name->len,
                              name->text);
                return -1;
            }
            if (!op_is_integer(op)) {
                compile_error(c, name, "field '%.*s' is not an integer and cannot be used here",
                              (int)name->len, name->text);
                return -1;
            }
            return c->vis[v].op;
        }
        if (op->code == OP_ARRAY) {
            compile_error(c, name,
                          "'%.*s' is an array: the fields of its elements are out of reach here",
                          (int)name->len, name->text);
            return -1;
        }
        if (op->code != OP_STRUCT) {
            compile_error(c, name, "'%.*s' has no fields to select", (int)name->len, name->text);
            return -1;
        }
        parent = v;
        name = expect_ident(c, "a field name");
        if (!name)
            return -1;
    }
}

/* ---- conditions ----------------------------------------------------- */

static bool parse_or(struct compiler *c, size_t stmt_start);

static bool add_expr(struct compiler *c, const struct token *at, enum expr_code code, int64_t v)
{
    if (!compile_add_expr(c, code, v))
        return compile_error(c, at, "condition too complex (more than %d terms)",
                             SCHEMA_MAX_EXPR);
    return true;
}

/* primary := ( or ) | ! primary | [-]INT | true | false | ref | ENUM_NAME
 * *enum_id is set when the primary is a reference to an enum field; an
 * identifier that is no field is looked up in enum_ctx's names. */
static bool parse_primary(struct compiler *c, size_t stmt_start, int32_t enum_ctx,
                          int32_t *enum_id)
{
    const struct token *t = peek(c);
    *enum_id = -1;
    if (++c->depth > BITSIFT_SCHEMA_MAX_DEPTH * 2)
        return compile_error(c, t, "condition nested too deeply");
    bool ok;
    if (accept(c, TOK_LPAREN)) {
        ok = parse_or(c, stmt_start) && expect(c, TOK_RPAREN, "')'");
    } else if (accept(c, TOK_NOT)) {
        int32_t ignored;
        ok = parse_primary(c, stmt_start, -1, &ignored) && add_expr(c, t, EXPR_NOT, 0);
    } else if (t->kind == TOK_INT || t->kind == TOK_MINUS) {
        int64_t v;
        ok = parse_signed(c, &v) && add_expr(c, t, EXPR_CONST, v);
    } else if (accept_word(c, "true") || accept_word(c, "false")) {
        ok = add_expr(c, t, EXPR_CONST, tok_is(t, "true"));
    } else if (t->kind == TOK_IDENT) {
        next(c);
        int64_t ev;
        bool is_field = find_visible(c, c->owner, t) >= 0;
        if (enum_ctx >= 0 && !is_field && schema_enum_value(c->s, enum_ctx, t->text, t->len, &ev)) {
            ok = add_expr(c, t, EXPR_CONST, ev);
        } else if (enum_ctx >= 0 && !is_field && peek(c)->kind != TOK_DOT) {
            ok = compile_error(c, t, "'%.*s' is neither a field nor a value of enum '%s'",
                               (int)(t->len > 64 ? 64 : t->len), t->text,
                               c->s->enums[enum_ctx].name);
        } else {
            int32_t op = parse_ref(c, t, stmt_start);
            ok = op >= 0 && compile_slot(c, op, t) &&
                 add_expr(c, t, EXPR_SLOT, c->s->ops[op].slot);
            if (ok && c->s->ops[op].code == OP_ENUM)
                *enum_id = c->s->ops[op].enum_id;
        }
    } else {
        char buf[64];
        ok = compile_error(c, t, "expected a condition, got %s", describe(t, buf, sizeof buf));
    }
    c->depth--;
    return ok;
}

static bool parse_compare(struct compiler *c, size_t stmt_start)
{
    int32_t enum_id, ignored;
    if (!parse_primary(c, stmt_start, -1, &enum_id))
        return false;
    static const struct {
        enum token_kind tok;
        enum expr_code code;
    } ops[] = {{TOK_EQ, EXPR_EQ}, {TOK_NE, EXPR_NE}, {TOK_LT, EXPR_LT},
               {TOK_LE, EXPR_LE}, {TOK_GT, EXPR_GT}, {TOK_GE, EXPR_GE}};
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
        const struct token *t = peek(c);
        if (accept(c, ops[i].tok))
            return parse_primary(c, stmt_start, enum_id, &ignored) &&
                   add_expr(c, t, ops[i].code, 0);
    }
    return true;
}

static bool parse_and(struct compiler *c, size_t stmt_start)
{
    if (!parse_compare(c, stmt_start))
        return false;
    for (;;) {
        const struct token *t = peek(c);
        if (!accept(c, TOK_AND))
            return true;
        if (!parse_compare(c, stmt_start) || !add_expr(c, t, EXPR_AND, 0))
            return false;
    }
}

static bool parse_or(struct compiler *c, size_t stmt_start)
{
    if (!parse_and(c, stmt_start))
        return false;
    for (;;) {
        const struct token *t = peek(c);
        if (!accept(c, TOK_OR))
            return true;
        if (!parse_and(c, stmt_start) || !add_expr(c, t, EXPR_OR, 0))
            return false;
    }
}

/* ---- types ---------------------------------------------------------- */

/* base := [-]INT | previous([-]INT) | ref */
static bool parse_base(struct compiler *c, struct scalar *sc, size_t stmt_start)
{
    const struct token *t = peek(c);
    if (t->kind == TOK_INT || t->kind == TOK_MINUS) {
        sc->base_kind = BASE_CONST;
        return parse_signed(c, &sc->base);
    }
    if (accept_word(c, "previous")) {
        if (c->array_op < 0 && !c->checking_unused)
            return compile_error(c, t, "previous(...) needs an enclosing array");
        sc->base_kind = BASE_PREVIOUS;
        return expect(c, TOK_LPAREN, "'('") && parse_signed(c, &sc->base) &&
               expect(c, TOK_RPAREN, "')'");
    }
    const struct token *name = expect_ident(c, "a base value or field");
    if (!name)
        return false;
    int32_t op = parse_ref(c, name, stmt_start);
    if (op < 0)
        return false;
    sc->base_kind = BASE_SLOT;
    sc->base_op = op;
    return true;
}

static bool parse_scalar(struct compiler *c, struct scalar *sc, size_t stmt_start);

/* Length of a real literal as written: its token, with the number after
 * a leading '-' (the two are separate tokens). */
static int param_text_len(const struct token *t)
{
    if (t->kind == TOK_MINUS && t[1].kind != TOK_EOF)
        return (int)(t[1].text + t[1].len - t->text);
    return (int)t->len;
}

/*
 * compressed_float(min, max, res): the three parameters are float32 values
 * (the literals are rounded to float once). The step count delta / res is
 * clamped to [1, 4294967040], the largest float32 below 2^32, exactly as
 * the reference bitpacker and bitsift_compressed_float_steps() do, so any
 * resolution is accepted; what cannot work is refused with the limit it
 * breaks. Values are quoted as written, so that two resolutions that
 * differ only past the sixth digit never look the same in a message.
 */
static bool parse_compressed(struct compiler *c, struct scalar *sc)
{
    double min, max, res;
    const struct token *at[3];
    double *param[3] = {&min, &max, &res};
    if (!expect(c, TOK_LPAREN, "'('"))
        return false;
    for (int k = 0; k < 3; k++) {
        if (k && !expect(c, TOK_COMMA, "','"))
            return false;
        at[k] = peek(c);
        if (!parse_real(c, param[k]))
            return false;
    }
    if (!expect(c, TOK_RPAREN, "')'"))
        return false;
    sc->fmin = (float)min, sc->fmax = (float)max, sc->res = (float)res;
    if (!isfinite(sc->fmin) || !isfinite(sc->fmax))
        return compile_error(c, sc->at,
                             "compressed_float bound %.*s is not a finite float32 (the largest is "
                             "%.9g)",
                             param_text_len(at[isfinite(sc->fmin) ? 1 : 0]),
                             at[isfinite(sc->fmin) ? 1 : 0]->text, (double)FLT_MAX);
    if (!(sc->fmin <= sc->fmax))
        return compile_error(c, sc->at, "compressed_float has min %.*s above max %.*s",
                             param_text_len(at[0]), at[0]->text, param_text_len(at[1]),
                             at[1]->text);
    if (!(sc->res > 0))
        return compile_error(c, sc->at,
                             "compressed_float resolution %.*s is %.9g as a float32: it must be "
                             "at least %.9g",
                             param_text_len(at[2]), at[2]->text, (double)sc->res,
                             (double)FLT_TRUE_MIN);
    if (!isfinite(sc->fmax - sc->fmin))
        return compile_error(c, sc->at,
                             "compressed_float range %.*s .. %.*s: max - min overflows a float32 "
                             "(the largest is %.9g)",
                             param_text_len(at[0]), at[0]->text, param_text_len(at[1]),
                             at[1]->text, (double)FLT_MAX);
    unsigned bits;
    if (!bitsift_compressed_float_steps(sc->fmin, sc->fmax, sc->res, &sc->steps, &bits))
        return compile_error(c, sc->at, "compressed_float parameters are not usable");
    sc->width = bits;
    sc->code = OP_CFLOAT;
    sc->type = BITSIFT_FIELD_COMPRESSED_FLOAT;
    return true;
}

/* The built-in scalar types. Returns false without an error when the
 * token is not one (so that the caller can try a declared type). */
static bool parse_scalar(struct compiler *c, struct scalar *sc, size_t stmt_start)
{
    const struct token *t = peek(c);
    memset(sc, 0, sizeof *sc);
    sc->at = t;
    sc->enum_id = -1;
    sc->base_op = -1;
    static const struct {
        const char *name;
        unsigned bits;
        bitsift_field_type type;
    } fixed[] = {{"uint8", 8, BITSIFT_FIELD_UINT8},
                 {"uint16", 16, BITSIFT_FIELD_UINT16},
                 {"uint32", 32, BITSIFT_FIELD_UINT32},
                 {"uint64", 64, BITSIFT_FIELD_UINT64}};
    for (size_t i = 0; i < 4; i++)
        if (accept_word(c, fixed[i].name)) {
            sc->code = OP_BITS, sc->type = fixed[i].type, sc->width = fixed[i].bits;
            return true;
        }
    uint64_t n;
    if (accept_word(c, "bits")) {
        sc->code = OP_BITS, sc->type = BITSIFT_FIELD_BITS;
        if (!expect(c, TOK_LPAREN, "'('") || !parse_count(c, 1, 64, "bit count", &n) ||
            !expect(c, TOK_RPAREN, "')'"))
            return false;
        sc->width = (uint32_t)n;
        return true;
    }
    if (accept_word(c, "bool")) {
        sc->code = OP_BOOL, sc->type = BITSIFT_FIELD_BOOL, sc->width = 1;
        return true;
    }
    if (accept_word(c, "float")) {
        sc->code = OP_FLOAT, sc->type = BITSIFT_FIELD_FLOAT, sc->width = 32;
        return true;
    }
    if (accept_word(c, "double")) {
        sc->code = OP_DOUBLE, sc->type = BITSIFT_FIELD_DOUBLE, sc->width = 64;
        return true;
    }
    if (accept_word(c, "int")) {
        sc->code = OP_INT, sc->type = BITSIFT_FIELD_INT;
        if (!expect(c, TOK_LPAREN, "'('") || !parse_signed(c, &sc->min) ||
            !expect(c, TOK_COMMA, "','") || !parse_signed(c, &sc->max) ||
            !expect(c, TOK_RPAREN, "')'"))
            return false;
        if (sc->min > sc->max)
            return compile_error(c, t, "int range has min %lld > max %lld", (long long)sc->min,
                                 (long long)sc->max);
        sc->width = bitsift_bits_required(sc->min, sc->max);
        return true;
    }
    if (accept_word(c, "compressed_float"))
        return parse_compressed(c, sc);
    if (accept_word(c, "bytes") || accept_word(c, "string")) {
        bool is_string = tok_is(t, "string");
        sc->code = is_string ? OP_STRING : OP_BYTES;
        sc->type = is_string ? BITSIFT_FIELD_STRING : BITSIFT_FIELD_BYTES;
        if (!expect(c, TOK_LPAREN, "'('") ||
            !parse_count(c, is_string ? 1 : 0, BITSIFT_SCHEMA_MAX_BYTES,
                         is_string ? "string buffer size" : "byte count", &n) ||
            !expect(c, TOK_RPAREN, "')'"))
            return false;
        sc->width = (uint32_t)n;
        return true;
    }
    if (accept_word(c, "int_relative") || accept_word(c, "sequence_relative") ||
        accept_word(c, "ack_relative")) {
        sc->code = tok_is(t, "int_relative")        ? OP_INT_REL
                   : tok_is(t, "sequence_relative") ? OP_SEQ_REL
                                                    : OP_ACK_REL;
        sc->type = sc->code == OP_INT_REL   ? BITSIFT_FIELD_INT_RELATIVE
                   : sc->code == OP_SEQ_REL ? BITSIFT_FIELD_SEQUENCE_RELATIVE
                                            : BITSIFT_FIELD_ACK_RELATIVE;
        if (!expect(c, TOK_LPAREN, "'('") || !parse_base(c, sc, stmt_start) ||
            !expect(c, TOK_RPAREN, "')'"))
            return false;
        if (sc->code == OP_INT_REL && sc->base_kind == BASE_CONST &&
            (sc->base < INT32_MIN || sc->base > INT32_MAX))
            return compile_error(c, t, "int_relative base outside 32 bits");
        if (sc->code != OP_INT_REL && sc->base_kind == BASE_CONST &&
            (sc->base < 0 || sc->base > 65535))
            return compile_error(c, t, "sequence base outside 0..65535");
        return true;
    }
    if (accept_word(c, "object_index")) {
        sc->code = OP_OBJ_INDEX, sc->type = BITSIFT_FIELD_OBJECT_INDEX;
        if (!expect(c, TOK_LPAREN, "'('") || !parse_base(c, sc, stmt_start) ||
            !expect(c, TOK_COMMA, "','") ||
            !parse_count(c, 1, INT32_MAX - 1, "max_objects", &n) || !expect(c, TOK_RPAREN, "')'"))
            return false;
        sc->max_objects = (int32_t)n;
        if (sc->base_kind == BASE_CONST && (sc->base < INT32_MIN || sc->base > INT32_MAX))
            return compile_error(c, t, "object_index base outside 32 bits");
        return true;
    }
    return false;
}

static bool parse_type(struct compiler *c, struct typespec *ts, size_t stmt_start)
{
    memset(ts, 0, sizeof *ts);
    const struct token *t = peek(c);
    if (parse_scalar(c, &ts->sc, stmt_start))
        return true;
    if (c->failed)
        return false;
    ts->sc.at = t;
    if (accept_word(c, "vector2") || accept_word(c, "vector3") || accept_word(c, "vector4") ||
        accept_word(c, "quaternion")) {
        ts->composite = tok_is(t, "quaternion") ? BITSIFT_FIELD_QUATERNION : BITSIFT_FIELD_VECTOR;
        ts->ncomponents = tok_is(t, "vector2") ? 2 : tok_is(t, "vector3") ? 3 : 4;
        ts->sc.code = OP_STRUCT;
        ts->sc.type = ts->composite;
        if (!expect(c, TOK_LPAREN, "'('"))
            return false;
        const struct token *ct = peek(c);
        ts->comp_first = ct;
        if (!parse_scalar(c, &ts->comp, stmt_start)) {
            char buf[64];
            return c->failed || compile_error(c, ct, "expected a scalar component type, got %s",
                                              describe(ct, buf, sizeof buf));
        }
        if (ts->comp.code == OP_BYTES || ts->comp.code == OP_STRING ||
            ts->comp.base_kind != BASE_CONST || ts->comp.code == OP_INT_REL ||
            ts->comp.code == OP_OBJ_INDEX || ts->comp.code == OP_SEQ_REL ||
            ts->comp.code == OP_ACK_REL)
            return compile_error(c, ct, "vector components must be numbers");
        ts->comp_last = &c->toks[c->pos - 1];
        return expect(c, TOK_RPAREN, "')'");
    }
    if (accept_word(c, "smallest_three")) {
        uint64_t n;
        ts->sc.code = OP_SMALLEST3;
        ts->sc.type = BITSIFT_FIELD_QUATERNION;
        if (!expect(c, TOK_LPAREN, "'('") ||
            !parse_count(c, 2, 31, "bits per component", &n) || !expect(c, TOK_RPAREN, "')'"))
            return false;
        ts->sc.width = (uint32_t)n;
        return true;
    }
    if (t->kind == TOK_IDENT) {
        struct decl *d = find_decl(c, t);
        if (!d) {
            return compile_error(c, t, "unknown type '%.*s'", (int)(t->len > 64 ? 64 : t->len),
                                 t->text);
        }
        next(c);
        if (d->enum_id == -2)
            return compile_error(c, t, "'%.*s' is a packet, not a type", (int)t->len, t->text);
        if (d->is_enum) {
            ts->sc.code = OP_ENUM;
            ts->sc.type = BITSIFT_FIELD_ENUM;
            ts->sc.enum_id = d->enum_id;
            ts->sc.min = c->s->enums[d->enum_id].min;
            ts->sc.max = c->s->enums[d->enum_id].max;
            ts->sc.width = bitsift_bits_required(ts->sc.min, ts->sc.max);
            return true;
        }
        ts->decl = d;
        ts->sc.code = OP_STRUCT;
        ts->sc.type = BITSIFT_FIELD_STRUCT;
        return true;
    }
    char buf[64];
    return compile_error(c, t, "expected a type, got %s", describe(t, buf, sizeof buf));
}

/* ---- emission --------------------------------------------------------- */

static bool compile_statements(struct compiler *c, bool until_brace);

static void path_push(struct compiler *c, const char *text, size_t len, bool dot, size_t *saved)
{
    *saved = c->path_len;
    /* An array element pushes no name ("" after "q[]"): no dot either. */
    dot = dot && len && c->path_len;
    size_t need = len + (dot ? 1 : 0);
    if (c->path_len + need + 1 > sizeof c->path)
        return; /* truncated paths are still unique enough for people */
    if (dot)
        c->path[c->path_len++] = '.';
    memcpy(c->path + c->path_len, text, len);
    c->path_len += len;
    c->path[c->path_len] = 0;
}

static void path_pop(struct compiler *c, size_t saved)
{
    c->path_len = saved;
    c->path[saved] = 0;
}

static int32_t emit_scalar(struct compiler *c, const struct scalar *sc, const char *name,
                           size_t name_len, const char *op_name)
{
    int32_t i = compile_new_op(c, sc->at);
    if (i < 0)
        return -1;
    struct schema_op *op = &c->s->ops[i];
    op->code = (uint8_t)sc->code;
    op->type = (uint8_t)sc->type;
    op->width = sc->width;
    op->steps = sc->steps;
    op->min = sc->min, op->max = sc->max;
    op->fmin = sc->fmin, op->fmax = sc->fmax, op->res = sc->res;
    op->base_kind = (uint8_t)sc->base_kind;
    op->base = sc->base;
    op->max_objects = sc->max_objects;
    op->enum_id = sc->enum_id;
    op->name = op_name;
    if (sc->code == OP_BITS) {
        op->min = 0;
        op->max = sc->width == 64 ? -1 : (int64_t)((1ull << sc->width) - 1);
    } else if (sc->code == OP_BOOL) {
        op->min = 0, op->max = 1;
    }
    if (sc->base_kind == BASE_SLOT) {
        if (!compile_slot(c, sc->base_op, sc->at))
            return -1;
        c->s->ops[i].base_slot = c->s->ops[sc->base_op].slot;
    } else if (sc->base_kind == BASE_PREVIOUS && c->array_op >= 0) {
        /* Its own value is the next element's base: keep it in a slot,
         * reset when the enclosing array starts. */
        if (!compile_slot(c, i, sc->at))
            return -1;
        op = &c->s->ops[i];
        op->base_slot = op->slot;
        op->reset_next = c->s->ops[c->array_op].reset_head;
        c->s->ops[c->array_op].reset_head = i;
    }
    if (compile_new_field(c, i, name, name_len, sc->type) < 0)
        return -1;
    return i;
}

/* Emit one value of type ts named `name` (element ops get the array's
 * name for events, and "" as their field name). */
static int32_t emit_value(struct compiler *c, const struct typespec *ts, const struct token *name,
                          bool element, const char *op_name)
{
    const char *fname = element ? "" : name->text;
    size_t flen = element ? 0 : name->len;
    if (ts->sc.code == OP_SMALLEST3) {
        int32_t i = emit_scalar(c, &ts->sc, fname, flen, op_name);
        if (i < 0)
            return -1;
        c->s->ops[i].element = element;
        /* Its five parts get consecutive field ids. */
        size_t saved;
        path_push(c, fname, flen, true, &saved);
        int32_t parent = c->parent_field;
        c->parent_field = c->s->ops[i].field;
        static const char *const parts[] = {"largest", "x", "y", "z", "w"};
        for (int k = 0; k < 5; k++)
            if (compile_new_field(c, i, parts[k], strlen(parts[k]),
                                  k ? BITSIFT_FIELD_FLOAT : BITSIFT_FIELD_BITS) < 0)
                return -1;
        c->parent_field = parent;
        path_pop(c, saved);
        return i;
    }
    if (ts->sc.code != OP_STRUCT) {
        int32_t i = emit_scalar(c, &ts->sc, fname, flen, op_name);
        if (i >= 0)
            c->s->ops[i].element = element;
        if (i >= 0 && !element && !push_visible(c, name, i, c->owner))
            return -1;
        return i;
    }
    if (++c->depth > BITSIFT_SCHEMA_MAX_DEPTH) {
        compile_error(c, name, "nesting deeper than %d levels", BITSIFT_SCHEMA_MAX_DEPTH);
        return -1;
    }
    int32_t i = compile_new_op(c, name);
    if (i < 0)
        return -1;
    c->s->ops[i].code = OP_STRUCT;
    c->s->ops[i].type = (uint8_t)ts->sc.type;
    c->s->ops[i].name = op_name;
    c->s->ops[i].element = element;
    int32_t field = compile_new_field(c, i, fname, flen, ts->sc.type);
    if (field < 0)
        return -1;
    /* The body sees only its own fields. */
    if (!push_visible(c, name, i, element ? -3 : c->owner))
        return -1;
    int32_t self = (int32_t)c->nvis - 1;
    size_t saved_path;
    path_push(c, fname, flen, !element, &saved_path);
    int32_t saved_owner = c->owner, saved_parent = c->parent_field;
    c->owner = self;
    c->parent_field = field;
    if (ts->decl) {
        struct decl *d = ts->decl;
        if (d->in_progress) {
            compile_error(c, ts->sc.at, "recursive type '%.*s'", (int)d->name->len,
                          d->name->text);
            return -1;
        }
        d->in_progress = true;
        d->used = true;
        size_t saved_pos = c->pos, saved_end = c->body_end;
        unsigned saved_cond = c->cond_depth;
        const struct token *saved_cond_first = c->cond_first, *saved_cond_last = c->cond_last;
        c->pos = d->body_first;
        c->body_end = d->body_end;
        c->cond_depth = 0;
        c->cond_first = c->cond_last = NULL;
        bool ok = compile_statements(c, false);
        c->pos = saved_pos, c->body_end = saved_end, c->cond_depth = saved_cond;
        c->cond_first = saved_cond_first, c->cond_last = saved_cond_last;
        d->in_progress = false;
        if (!ok)
            return -1;
    } else {
        static const char *const comps[] = {"x", "y", "z", "w"};
        for (unsigned k = 0; k < ts->ncomponents; k++) {
            struct scalar comp = ts->comp;
            const char *cname = compile_strdup(c, comps[k], 1);
            if (emit_scalar(c, &comp, comps[k], 1, cname) < 0)
                return -1;
            struct token part = {.kind = TOK_IDENT, .text = cname, .len = 1};
            if (!push_visible(c, &part, (int32_t)c->s->op_count - 1, self))
                return -1;
        }
    }
    c->owner = saved_owner;
    c->parent_field = saved_parent;
    path_pop(c, saved_path);
    c->s->ops[i].end = c->s->op_count;
    c->depth--;
    return i;
}

struct arrayspec {
    const struct token *at;
    enum array_kind kind;
    uint64_t max;
    int32_t count_op;
};

/* [N] [sparse(kind)] | [max N] | [field [max N]] */
static bool parse_array(struct compiler *c, struct arrayspec *as, const struct token *name,
                        size_t stmt_start)
{
    as->at = peek(c);
    as->count_op = -1;
    next(c); /* '[' */
    const struct token *t = peek(c);
    if (t->kind == TOK_INT) {
        if (!parse_count(c, 1, BITSIFT_SCHEMA_MAX_ARRAY, "array size", &as->max) ||
            !expect(c, TOK_RBRACKET, "']'"))
            return false;
        as->kind = ARRAY_FIXED;
        if (accept_word(c, "sparse")) {
            if (!expect(c, TOK_LPAREN, "'('"))
                return false;
            const struct token *k = peek(c);
            bool found = false;
            for (int encoding = ARRAY_FLAGS; encoding <= ARRAY_RELATIVE && !found; encoding++)
                if (accept_word(c, schema_array_kind_name((enum array_kind)encoding)))
                    as->kind = (enum array_kind)encoding, found = true;
            if (!found)
                return compile_error(c, k, "expected flags, indices, sentinel or relative");
            if (!expect(c, TOK_RPAREN, "')'"))
                return false;
        }
        return true;
    }
    if (accept_word(c, "max")) {
        as->kind = ARRAY_INLINE;
        return parse_count(c, 1, BITSIFT_SCHEMA_MAX_ARRAY, "array maximum", &as->max) &&
               expect(c, TOK_RBRACKET, "']'");
    }
    if (t->kind == TOK_RBRACKET)
        return compile_error(c, t, "array '%.*s' has no maximum", (int)name->len, name->text);
    const struct token *ref = expect_ident(c, "an array size, 'max N' or a count field");
    if (!ref)
        return false;
    as->count_op = parse_ref(c, ref, stmt_start);
    if (as->count_op < 0)
        return false;
    as->kind = ARRAY_COUNTED;
    const struct schema_op *cop = &c->s->ops[as->count_op];
    uint64_t field_max = cop->max < 0 ? UINT64_MAX : (uint64_t)cop->max;
    if (cop->code == OP_INT_REL || cop->code == OP_OBJ_INDEX)
        field_max = INT32_MAX;
    if (cop->code == OP_SEQ_REL || cop->code == OP_ACK_REL)
        field_max = 65535;
    if (accept_word(c, "max")) {
        if (!parse_count(c, 1, BITSIFT_SCHEMA_MAX_ARRAY, "array maximum", &as->max))
            return false;
        if (field_max < as->max)
            as->max = field_max;
    } else {
        if (field_max > BITSIFT_SCHEMA_MAX_ARRAY)
            return compile_error(c, ref,
                                 "array '%.*s' has no maximum: count field '%.*s' can reach %llu "
                                 "(limit %u); add 'max N'",
                                 (int)name->len, name->text, (int)ref->len, ref->text,
                                 (unsigned long long)field_max, BITSIFT_SCHEMA_MAX_ARRAY);
        as->max = field_max;
    }
    if (as->max == 0)
        return compile_error(c, ref, "array '%.*s' can never hold an element", (int)name->len,
                             name->text);
    return compile_slot(c, as->count_op, ref) && expect(c, TOK_RBRACKET, "']'");
}

/* Bits one more element costs at the least, array overhead included. */
static uint64_t element_min_bits(const struct schema_op *arr, uint64_t elem_min)
{
    switch ((enum array_kind)arr->array_kind) {
    case ARRAY_FLAGS:
    case ARRAY_RELATIVE:
        return elem_min + 1;
    case ARRAY_INDICES:
        return elem_min + bitsift_bits_required(0, arr->max - 1);
    case ARRAY_SENTINEL:
        return elem_min + bitsift_bits_required(0, arr->max);
    default:
        return elem_min;
    }
}

/* A constant for the op, as its value kind (the table's value column)
 * reads it; a range, a width and an enum's names check it further. */
static bool parse_value(struct compiler *c, const struct schema_op *op, bitsift_value *v,
                        bool integer_only)
{
    const struct token *t = peek(c);
    bitsift_value_kind kind = schema_value_kind(op);
    memset(v, 0, sizeof *v);
    if (kind == BITSIFT_VALUE_ENUM && t->kind == TOK_IDENT) {
        next(c);
        if (!schema_enum_value(c->s, op->enum_id, t->text, t->len, &v->i))
            return compile_error(c, t, "'%.*s' is not a value of enum '%s'",
                                 (int)(t->len > 64 ? 64 : t->len), t->text,
                                 c->s->enums[op->enum_id].name);
        v->kind = BITSIFT_VALUE_ENUM;
        v->name = schema_enum_lookup(c->s, op->enum_id, v->i);
        return true;
    }
    if (kind == BITSIFT_VALUE_BOOL && (tok_is(t, "true") || tok_is(t, "false"))) {
        next(c);
        v->kind = BITSIFT_VALUE_BOOL;
        v->b = tok_is(t, "true");
        v->i = v->b;
        return true;
    }
    if (kind == BITSIFT_VALUE_FLOAT || kind == BITSIFT_VALUE_DOUBLE) {
        if (integer_only)
            return compile_error(c, t, "value constraints need an integer field");
        double d;
        if (!parse_real(c, &d))
            return false;
        v->kind = kind;
        if (kind == BITSIFT_VALUE_DOUBLE)
            v->d = d;
        else
            v->f = (float)d;
        return true;
    }
    if (!value_kind_is_integer(kind))
        return compile_error(c, t, "this field type takes no value here");
    int64_t i;
    if (op->code == OP_BITS && t->kind == TOK_INT) {
        next(c);
        i = (int64_t)t->uval;
        if (op->width < 64 && t->uval > (uint64_t)op->max)
            return compile_error(c, t, "value %llu does not fit in %u bits",
                                 (unsigned long long)t->uval, op->width);
    } else {
        if (!parse_signed(c, &i))
            return false;
        if ((op->code == OP_INT || op->code == OP_ENUM) && (i < op->min || i > op->max))
            return compile_error(c, t, "value %lld outside the field's range %lld..%lld",
                                 (long long)i, (long long)op->min, (long long)op->max);
        if (kind == BITSIFT_VALUE_BOOL && (i < 0 || i > 1))
            return compile_error(c, t, "value %lld is not a bool", (long long)i);
        if (op->code == OP_BITS && i < 0)
            return compile_error(c, t, "value %lld is negative", (long long)i);
    }
    v->i = i;
    v->kind = kind;
    if (kind == BITSIFT_VALUE_BOOL)
        v->b = i != 0;
    else if (kind == BITSIFT_VALUE_UINT)
        v->u = (uint64_t)i;
    else if (kind == BITSIFT_VALUE_ENUM && !(v->name = schema_enum_lookup(c->s, op->enum_id, i)))
        return compile_error(c, t, "%lld is not a value of enum '%s'", (long long)i,
                             c->s->enums[op->enum_id].name);
    return true;
}

/* After the name (and array): == V | in { V, ... } | default V */
static bool parse_constraints(struct compiler *c, int32_t opi)
{
    for (;;) {
        const struct token *t = peek(c);
        struct schema_op *op = &c->s->ops[opi];
        if (accept(c, TOK_EQ) || accept_word(c, "in")) {
            if (!op_is_integer(op))
                return compile_error(c, t, "value constraints need an integer field");
            if (op->allowed_count)
                return compile_error(c, t, "field already has a value constraint");
            op->allowed_first = c->s->allowed_count;
            bool list = t->kind == TOK_IDENT;
            if (list && !expect(c, TOK_LBRACE, "'{'"))
                return false;
            do {
                bitsift_value v;
                const struct token *vt = peek(c);
                if (!parse_value(c, &c->s->ops[opi], &v, true))
                    return false;
                op = &c->s->ops[opi];
                if (op->allowed_count >= SCHEMA_MAX_LIST)
                    return compile_error(c, vt, "more than %d allowed values", SCHEMA_MAX_LIST);
                for (uint32_t k = 0; k < op->allowed_count; k++)
                    if (c->s->allowed[op->allowed_first + k] == v.i)
                        return compile_error(c, vt, "duplicate allowed value");
                if (!compile_add_allowed(c, v.i))
                    return compile_error(c, vt, "out of memory");
                op = &c->s->ops[opi];
                op->allowed_count++;
            } while (list && accept(c, TOK_COMMA));
            if (list && !expect(c, TOK_RBRACE, "'}'"))
                return false;
            op->fixed = op->allowed_count == 1;
            continue;
        }
        if (accept_word(c, "default")) {
            if (c->cond_depth == 0)
                return compile_error(c, t, "'default' only applies to a field inside an 'if'");
            bitsift_value_kind kind = schema_value_kind(op);
            if (kind == BITSIFT_VALUE_NONE || kind == BITSIFT_VALUE_BYTES ||
                kind == BITSIFT_VALUE_STRING)
                return compile_error(c, t, "this field type takes no default");
            if (!parse_value(c, op, &c->s->ops[opi].def, false))
                return false;
            c->s->ops[opi].has_default = true;
            continue;
        }
        return true;
    }
}

static bool compile_field(struct compiler *c, size_t stmt_start)
{
    struct typespec ts;
    uint32_t first_field = c->s->field_count;
    if (!parse_type(c, &ts, stmt_start))
        return false;
    const struct token *type_last = &c->toks[c->pos - 1];
    const struct token *array_first = NULL, *array_last = NULL;
    const struct token *name = expect_ident(c, "a field name");
    if (!name)
        return false;
    c->stmt_name = name;
    if (is_builtin(name))
        return compile_error(c, name, "'%.*s' is a reserved word", (int)name->len, name->text);
    if (find_visible(c, c->owner, name) >= 0)
        return compile_error(c, name, "duplicate field '%.*s'", (int)name->len, name->text);
    const char *op_name = compile_strdup(c, name->text, name->len);
    if (!op_name)
        return false;
    int32_t opi;
    if (peek(c)->kind == TOK_LBRACKET) {
        struct arrayspec as;
        array_first = peek(c);
        if (!parse_array(c, &as, name, stmt_start))
            return false;
        array_last = &c->toks[c->pos - 1];
        if (++c->depth > BITSIFT_SCHEMA_MAX_DEPTH)
            return compile_error(c, name, "nesting deeper than %d levels",
                                 BITSIFT_SCHEMA_MAX_DEPTH);
        opi = compile_new_op(c, name);
        if (opi < 0)
            return false;
        struct schema_op *op = &c->s->ops[opi];
        op->code = OP_ARRAY;
        op->type = BITSIFT_FIELD_ARRAY;
        op->array_kind = (uint8_t)as.kind;
        op->max = (int64_t)as.max;
        op->reset_head = -1;
        op->name = op_name;
        if (as.count_op >= 0) {
            op->count_slot = c->s->ops[as.count_op].slot;
            if (c->s->ops[as.count_op].count_cap > (int64_t)as.max)
                c->s->ops[as.count_op].count_cap = (int64_t)as.max;
            /* A count field right beside its array can be derived by the
             * encoder from the array's length. */
            bool sibling = false;
            for (size_t v = c->nvis; v-- > 0;)
                if (c->vis[v].op == as.count_op) {
                    sibling = c->vis[v].parent == c->owner;
                    break;
                }
            if (sibling && c->s->ops[as.count_op].count_for < 0)
                c->s->ops[as.count_op].count_for = opi;
        }
        int32_t field = compile_new_field(c, opi, name->text, name->len, BITSIFT_FIELD_ARRAY);
        if (field < 0 || !push_visible(c, name, opi, c->owner))
            return false;
        size_t saved;
        path_push(c, name->text, name->len, true, &saved);
        path_push(c, "[]", 2, false, &(size_t){0});
        int32_t saved_parent = c->parent_field, saved_array = c->array_op;
        c->parent_field = field;
        c->array_op = opi;
        int32_t elem = emit_value(c, &ts, name, true, op_name);
        c->parent_field = saved_parent;
        c->array_op = saved_array;
        path_pop(c, saved);
        if (elem < 0)
            return false;
        op = &c->s->ops[opi];
        op->end = c->s->op_count;
        c->depth--;
        uint64_t emin, emax;
        schema_size(c->s, (uint32_t)opi + 1, op->end, &emin, &emax);
        if (element_min_bits(op, emin) == 0)
            return compile_error(c, name,
                                 "array '%.*s' could loop without consuming bits: its elements "
                                 "can take 0 bits",
                                 (int)name->len, name->text);
        if (as.kind == ARRAY_RELATIVE && as.max > INT32_MAX - 1)
            return compile_error(c, as.at, "relative array too large");
    } else {
        opi = emit_value(c, &ts, name, false, op_name);
        if (opi < 0)
            return false;
    }
    if (!parse_constraints(c, opi) || !expect(c, TOK_SEMI, "';'"))
        return false;
    bitsift_field_source src = statement_source(c, &c->toks[stmt_start], &c->toks[c->pos - 1]);
    tok_span(c, &c->toks[stmt_start], type_last, &src.type_start, &src.type_end);
    if (array_first)
        tok_span(c, array_first, array_last, &src.array_start, &src.array_end);
    for (uint32_t f = first_field; f < c->s->field_count; f++) {
        struct schema_field *field = &c->s->fields[f];
        if (field->has_src)
            continue; /* a statement of the struct's declaration */
        field->src = src;
        field->has_src = true;
        const struct schema_op *op = &c->s->ops[field->op];
        if (ts.ncomponents && op->code != OP_STRUCT && op->code != OP_ARRAY)
            tok_span(c, ts.comp_first, ts.comp_last, &field->src.type_start,
                     &field->src.type_end);
        if (ts.decl && op->code == OP_STRUCT) {
            decl_body_span(c, ts.decl, &field->src.body_start, &field->src.body_end);
            field->type_name = compile_strdup(c, ts.decl->name->text, ts.decl->name->len);
        }
        if (op->code == OP_ENUM) {
            field->src.body_start = c->s->enums[op->enum_id].items_start;
            field->src.body_end = c->s->enums[op->enum_id].items_end;
        }
    }
    return true;
}

/* align; and check(...);: the statement from `first` to its ';' is also
 * their type. Always true. */
static bool keyword_source(struct compiler *c, const struct token *first, uint32_t field)
{
    bitsift_field_source src = statement_source(c, first, &c->toks[c->pos - 1]);
    tok_span(c, first, &c->toks[c->pos - 2], &src.type_start, &src.type_end);
    set_sources(c, field, &src);
    return true;
}

static bool compile_statement(struct compiler *c)
{
    const struct token *t = peek(c);
    c->stmt_name = NULL;
    size_t stmt_start = c->pos;
    if (accept_word(c, "align")) {
        int32_t i = compile_new_op(c, t);
        if (i < 0)
            return false;
        c->s->ops[i].code = OP_ALIGN;
        c->s->ops[i].type = BITSIFT_FIELD_ALIGN;
        c->s->ops[i].name = "align";
        return compile_new_field(c, i, "align", 5, BITSIFT_FIELD_ALIGN) >= 0 &&
               expect(c, TOK_SEMI, "';'") && keyword_source(c, t, (uint32_t)c->s->field_count - 1);
    }
    if (accept_word(c, "check")) {
        uint32_t value;
        if (!expect(c, TOK_LPAREN, "'('"))
            return false;
        const struct token *v = peek(c);
        if (v->kind == TOK_STRING) {
            char buf[256];
            next(c);
            if (!string_literal(c, v, buf, sizeof buf))
                return false;
            value = bitsift_hash_name(buf, 0);
        } else {
            uint64_t n;
            if (!parse_count(c, 0, UINT32_MAX, "check value", &n))
                return false;
            value = (uint32_t)n;
        }
        if (!expect(c, TOK_RPAREN, "')'"))
            return false;
        int32_t i = compile_new_op(c, t);
        if (i < 0)
            return false;
        c->s->ops[i].code = OP_CHECK;
        c->s->ops[i].type = BITSIFT_FIELD_CHECK;
        c->s->ops[i].check = value;
        c->s->ops[i].name = "check";
        return compile_new_field(c, i, "check", 5, BITSIFT_FIELD_CHECK) >= 0 &&
               expect(c, TOK_SEMI, "';'") && keyword_source(c, t, (uint32_t)c->s->field_count - 1);
    }
    if (accept_word(c, "if")) {
        if (++c->depth > BITSIFT_SCHEMA_MAX_DEPTH)
            return compile_error(c, t, "nesting deeper than %d levels", BITSIFT_SCHEMA_MAX_DEPTH);
        int32_t i = compile_new_op(c, t);
        if (i < 0)
            return false;
        c->s->ops[i].code = OP_IF;
        c->s->ops[i].field = -1;
        c->s->ops[i].expr_first = c->s->expr_count;
        uint32_t expr_start = c->s->expr_count;
        c->expr_start = expr_start;
        if (!expect(c, TOK_LPAREN, "'('"))
            return false;
        const struct token *cond_first = peek(c);
        if (!parse_or(c, stmt_start))
            return false;
        const struct token *cond_last = &c->toks[c->pos - 1];
        if (!expect(c, TOK_RPAREN, "')'"))
            return false;
        c->s->ops[i].expr_count = c->s->expr_count - expr_start;
        const struct token *saved_first = c->cond_first, *saved_last = c->cond_last;
        c->cond_first = cond_first, c->cond_last = cond_last;
        c->cond_depth++;
        bool ok = accept(c, TOK_LBRACE) ? compile_statements(c, true) : compile_statement(c);
        if (!ok)
            return false;
        c->s->ops[i].else_start = c->s->op_count;
        if (accept_word(c, "else")) {
            ok = accept(c, TOK_LBRACE) ? compile_statements(c, true) : compile_statement(c);
            if (!ok)
                return false;
        }
        c->cond_depth--;
        c->cond_first = saved_first, c->cond_last = saved_last;
        c->s->ops[i].end = c->s->op_count;
        c->depth--;
        return true;
    }
    if (t->kind == TOK_SEMI)
        return compile_error(c, t, "empty statement");
    return compile_field(c, stmt_start);
}

/* Statements up to '}' (until_brace) or to c->body_end. */
static bool compile_statements(struct compiler *c, bool until_brace)
{
    for (;;) {
        if (until_brace) {
            if (accept(c, TOK_RBRACE))
                return true;
            if (peek(c)->kind == TOK_EOF)
                return compile_error(c, peek(c), "missing '}' before end of file");
        } else if (c->pos >= c->body_end) {
            return true;
        }
        if (!compile_statement(c))
            return false;
    }
}

/* ---- top level -------------------------------------------------------- */

static bool compile_protocol(struct compiler *c, const struct token *kw, bool *have)
{
    bitsift_schema *s = c->s;
    if (*have)
        return compile_error(c, kw, "duplicate protocol declaration");
    *have = true;
    const struct token *name = expect_ident(c, "the protocol name");
    if (!name || !expect(c, TOK_LBRACE, "'{'"))
        return false;
    s->name = (char *)compile_strdup(c, name->text, name->len);
    bool have_id = false, have_version = false;
    uint64_t version = 0;
    while (!accept(c, TOK_RBRACE)) {
        const struct token *key = peek(c);
        uint64_t n;
        if (accept_word(c, "id")) {
            if (have_id || have_version)
                return compile_error(c, key, "protocol id given twice");
            if (!parse_count(c, 0, UINT32_MAX, "protocol id", &n))
                return false;
            s->framing.protocol_id = (uint32_t)n;
            have_id = true;
        } else if (accept_word(c, "version")) {
            if (have_id || have_version)
                return compile_error(c, key, "protocol id given twice");
            if (!parse_count(c, 0, UINT32_MAX, "protocol version", &version))
                return false;
            have_version = true;
        } else if (accept_word(c, "crc")) {
            if (accept_word(c, "on"))
                s->framing.crc = true;
            else if (accept_word(c, "off"))
                s->framing.crc = false;
            else
                return compile_error(c, peek(c), "expected 'on' or 'off'");
        } else if (accept_word(c, "end_check")) {
            const struct token *v = peek(c);
            if (accept_word(c, "off")) {
                s->framing.end_check = false;
            } else if (v->kind == TOK_STRING) {
                char buf[256];
                next(c);
                if (!string_literal(c, v, buf, sizeof buf))
                    return false;
                s->framing.end_check = true;
                s->framing.end_check_value = bitsift_hash_name(buf, 0);
            } else {
                if (!parse_count(c, 0, UINT32_MAX, "end check value", &n))
                    return false;
                s->framing.end_check = true;
                s->framing.end_check_value = (uint32_t)n;
            }
        } else if (accept_word(c, "prefix")) {
            if (!parse_count(c, 0, 1024, "prefix byte count", &n))
                return false;
            s->framing.prefix_bytes = (uint32_t)n;
        } else {
            char buf[64];
            return compile_error(c, key,
                                 "expected id, version, crc, end_check or prefix, got %s",
                                 describe(key, buf, sizeof buf));
        }
        if (!expect(c, TOK_SEMI, "';'"))
            return false;
    }
    if (!have_id && !have_version)
        return compile_error(c, name, "protocol '%s' needs an id or a version", s->name);
    if (have_version) {
        /* id = hash_name("NAME/VERSION"), documented in bitsift-schema(5). */
        char text[BITSIFT_SCHEMA_MAX_NAME + 24];
        snprintf(text, sizeof text, "%s/%llu", s->name, (unsigned long long)version);
        s->framing.protocol_id = bitsift_hash_name(text, 0);
        s->has_version = true;
        s->version = (uint32_t)version;
    }
    return true;
}

static bool compile_packet(struct compiler *c, struct decl *d, unsigned index)
{
    bitsift_schema *s = c->s;
    struct schema_packet *p = &s->packets[index];
    p->name = compile_strdup(c, d->name->text, d->name->len);
    c->pos = d->body_first;
    c->body_end = d->body_end;
    c->depth = 0;
    c->cond_depth = 0;
    c->cond_first = c->cond_last = NULL;
    c->array_op = -1;
    c->path_len = 0;
    c->path[0] = 0;
    /* The root is a struct op holding the whole body. */
    int32_t root = compile_new_op(c, d->name);
    if (root < 0)
        return false;
    s->ops[root].code = OP_STRUCT;
    s->ops[root].type = BITSIFT_FIELD_STRUCT;
    s->ops[root].name = p->name;
    c->parent_field = -1;
    p->field = compile_new_field(c, root, "", 0, BITSIFT_FIELD_STRUCT);
    if (p->field < 0 || !push_visible(c, NULL, root, -4))
        return false;
    s->fields[p->field].info.packet_type = index;
    {
        const struct token *keyword = d->name - 1; /* `packet` */
        bitsift_field_source src = statement_source(c, keyword, &c->toks[d->body_end]);
        decl_body_span(c, d, &src.body_start, &src.body_end);
        set_sources(c, (uint32_t)p->field, &src);
    }
    c->owner = (int32_t)c->nvis - 1;
    c->parent_field = p->field;
    if (!compile_statements(c, false))
        return false;
    s->ops[root].end = s->op_count;
    p->first_op = (uint32_t)root;
    p->end_op = s->op_count;
    return true;
}

bool schema_parse(struct compiler *c)
{
    bitsift_schema *s = c->s;
    bool have_protocol = false;
    size_t packets = 0;
    bitsift_framing_init(&s->framing, 0);

    /* Pass 1: the protocol block, and where every declaration is. */
    while (peek(c)->kind != TOK_EOF) {
        const struct token *kw = next(c);
        if (tok_is(kw, "protocol")) {
            if (!compile_protocol(c, kw, &have_protocol))
                return false;
            continue;
        }
        if (!tok_is(kw, "struct") && !tok_is(kw, "packet") && !tok_is(kw, "enum")) {
            char buf[64];
            return compile_error(c, kw, "expected protocol, enum, struct or packet, got %s",
                                 describe(kw, buf, sizeof buf));
        }
        const struct token *name = expect_ident(c, "a name");
        if (!name)
            return false;
        if (is_builtin(name))
            return compile_error(c, name, "'%.*s' is a reserved word", (int)name->len,
                                 name->text);
        const struct decl *earlier = find_decl(c, name);
        if (earlier)
            return compile_error(c, name, "duplicate declaration of '%.*s' (first at %u:%u)",
                                 (int)name->len, name->text, earlier->name->line,
                                 earlier->name->column);
        struct decl d = {.name = name, .is_enum = tok_is(kw, "enum"), .enum_id = -1};
        if (d.is_enum) {
            /* body_first: the token after the name ([: range] { ... }). */
            d.body_first = c->pos;
            d.body_end = c->pos;
            while (peek(c)->kind != TOK_LBRACE && peek(c)->kind != TOK_EOF)
                next(c);
        }
        if (!expect(c, TOK_LBRACE, "'{'"))
            return false;
        if (!d.is_enum)
            d.body_first = c->pos;
        size_t end = 0;
        if (!skip_braces(c, &end))
            return false;
        if (!d.is_enum)
            d.body_end = end;
        /* packets are kept apart from types: mark them with used = true
         * and in_progress = false, and count them. */
        if (tok_is(kw, "packet")) {
            packets++;
            if (packets > BITSIFT_SCHEMA_MAX_TYPES)
                return compile_error(c, name, "more than %d packet types",
                                     BITSIFT_SCHEMA_MAX_TYPES);
        }
        size_t cap = c->ndecls;
        if ((c->ndecls & (c->ndecls - 1)) == 0 || c->ndecls == 0) {
            size_t want = c->ndecls ? c->ndecls * 2 : 8;
            struct decl *bigger = realloc(c->decls, want * sizeof *bigger);
            if (!bigger)
                return compile_error(c, name, "out of memory");
            c->decls = bigger;
        }
        (void)cap;
        c->decls[c->ndecls] = d;
        /* Remember packet-ness in the name token's kind of use. */
        c->decls[c->ndecls].used = tok_is(kw, "packet");
        c->decls[c->ndecls].in_progress = false;
        if (!index_decl(c, c->ndecls))
            return compile_error(c, name, "out of memory");
        c->ndecls++;
        /* A packet is a decl too but must not be usable as a type: keep
         * them distinguishable by a flag in is_enum's sibling. */
        if (tok_is(kw, "packet"))
            c->decls[c->ndecls - 1].enum_id = -2;
    }
    if (!have_protocol)
        return compile_error(c, peek(c), "missing 'protocol NAME { ... }' declaration");
    if (packets == 0)
        return compile_error(c, peek(c), "no packet types declared");

    /* Pass 2: enums. */
    for (size_t i = 0; i < c->ndecls; i++)
        if (c->decls[i].is_enum && !compile_enum(c, &c->decls[i]))
            return false;

    /* Pass 3: packets, in order (their index is the type sent). */
    s->packets = calloc(packets, sizeof *s->packets);
    if (!s->packets)
        return compile_error(c, peek(c), "out of memory");
    s->packet_count = (uint32_t)packets;
    s->framing.num_types = (uint32_t)packets;
    unsigned index = 0;
    for (size_t i = 0; i < c->ndecls; i++) {
        if (c->decls[i].enum_id != -2)
            continue;
        bool ok = compile_packet(c, &c->decls[i], index++);
        if (!ok)
            return false;
    }
    /* Pass 4: structs nothing uses still get checked, then dropped. */
    for (size_t i = 0; i < c->ndecls; i++) {
        struct decl *d = &c->decls[i];
        if (d->is_enum || d->enum_id == -2 || d->used)
            continue;
        uint32_t ops = s->op_count, fields = s->field_count;
        size_t nvis = c->nvis;
        struct typespec ts = {.decl = d};
        ts.sc.code = OP_STRUCT;
        ts.sc.type = BITSIFT_FIELD_STRUCT;
        ts.sc.at = d->name;
        c->owner = -5;
        c->depth = 0;
        c->path_len = 0;
        c->path[0] = 0;
        c->parent_field = -1;
        c->array_op = -1;
        c->checking_unused = true;
        if (emit_value(c, &ts, d->name, false, "") < 0)
            return false;
        c->checking_unused = false;
        s->op_count = ops, s->field_count = fields;
        c->nvis = nvis;
    }
    return !c->failed;
}
