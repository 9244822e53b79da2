/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * schema_emit.h -- the state shared by the schema parser (which reads
 * tokens and emits ops) and the compiler back end (op storage, limits,
 * bit costs, field table). Internal to libbitsift.
 */
#ifndef BITSIFT_SCHEMA_EMIT_H
#define BITSIFT_SCHEMA_EMIT_H

#include "schema_internal.h"
#include "schema_lexer.h"

/* A named struct or enum declaration: where its body's tokens are. */
struct decl {
    const struct token *name;
    size_t body_first, body_end; /* tokens inside the braces */
    bool is_enum;
    bool in_progress; /* being inlined: using it again is recursion */
    bool used;
    int32_t enum_id; /* enums: index in schema->enums */
};

/* A field visible to later references (counts, conditions, bases). */
struct visible {
    const char *name;
    size_t name_len;
    int32_t op;
    int32_t parent; /* index of the enclosing visible (struct), -1 at a root */
};

struct compiler {
    const char *filename;
    const char *text; /* the schema text: token offsets are from here */
    const struct token *toks;
    size_t ntoks;
    size_t pos; /* next token */
    bitsift_schema_error *err;
    bool failed;

    struct decl *decls;
    size_t ndecls;
    uint32_t *decl_table; /* hash of decl names: index + 1, 0 = empty */
    size_t decl_table_size;

    /* The schema being built; arrays grow geometrically. */
    bitsift_schema *s;
    size_t ops_cap, fields_cap, enums_cap, values_cap, allowed_cap, expr_cap, packets_cap;

    struct visible *vis;
    size_t nvis, vis_cap;
    int32_t owner;        /* visible whose children are in scope, -1 at a packet root */
    size_t body_end;      /* token index where the current scope's body ends */
    unsigned depth;       /* nesting of containers */
    unsigned cond_depth;  /* inside an if body */
    int32_t array_op;     /* innermost enclosing array op, -1 */
    bool checking_unused;
    uint32_t expr_start;
    unsigned long lookup_work; /* name lookups so far (bounded) */
    const struct token *stmt_name; /* the field being declared, NULL else */  /* first item of the condition being parsed */ /* compiling a struct nobody uses, to check it */
    int32_t parent_field; /* field id of the enclosing struct/array */
    /* The condition of the innermost `if` of the body being compiled (its
     * first and last token), NULL outside one: for bitsift_field_source. */
    const struct token *cond_first, *cond_last;
    char path[BITSIFT_PATH_MAX]; /* schema path of the enclosing container */
    size_t path_len;
    size_t string_bytes; /* bounded: see SCHEMA_MAX_STRINGS */
};

/* Strings (names, paths) kept by a schema, all together at most this. */
#define SCHEMA_MAX_STRINGS (16u << 20)

/* Report an error at a token ("file:line:col: message"); always false. */
bool compile_error(struct compiler *c, const struct token *at, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Copy a string into the schema's string pool. */
const char *compile_strdup(struct compiler *c, const char *text, size_t len);
/* Append a zeroed op; -1 (and an error) past BITSIFT_SCHEMA_MAX_OPS. */
int32_t compile_new_op(struct compiler *c, const struct token *at);
/* Add a field for op `op` named `name` under the current path. */
int32_t compile_new_field(struct compiler *c, int32_t op, const char *name, size_t name_len,
                          bitsift_field_type type);
/* Give an op a slot so that later fields can use its value. */
bool compile_slot(struct compiler *c, int32_t op, const struct token *at);
/* Append to the schema's side tables; false on allocation failure. */
bool compile_add_allowed(struct compiler *c, int64_t v);
bool compile_add_expr(struct compiler *c, enum expr_code code, int64_t value);
/* Fill in sizes of every field, packets' sizes. */
void compile_finish(struct compiler *c);

/* The parser: compile every declaration of the token list. */
bool schema_parse(struct compiler *c);

/* Grow *array (of *cap elements of `size` bytes) to hold `need`. */
bool compile_grow(void **array, size_t *cap, size_t need, size_t size);

#endif /* BITSIFT_SCHEMA_EMIT_H */
