/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gen_c_internal.h -- what the parts of `bitsift gen c` share: the
 * generator's state (struct cgen), the C facts of a schema op that every
 * part asks (its C type, whether it keeps a member), and each part's
 * entry points. The parts, each calling only those listed before it:
 *
 *   gen_c_names.c      the one spelling of schema names, strings and
 *                      numbers in C; member names; file-scope names
 *   gen_c_comments.c   the schema's '#' comments carried into the header
 *   gen_c_types.c      the C types: which, in what order, their
 *                      declarations and the enums
 *   gen_c_body.c       what every generated function opens with: the
 *                      member paths of its type, references, conditions
 *   gen_c_serialize.c  the serialize functions and the packet functions
 *   gen_c_visit.c      the visit functions
 *   gen_c.c            bitsift_gen_c: checks, the header's and the
 *                      source's order, clean-up
 *   gen_fuzz.c         bitsift_gen_fuzz: bitsift_gen_c and a harness
 */
#ifndef BITSIFT_GEN_C_INTERNAL_H
#define BITSIFT_GEN_C_INTERNAL_H

#include <stdarg.h>
#include <stdio.h>

#include "bitsift/gen.h"
#include "schema_internal.h"

#define GEN_C_DEFAULT_MAX_BYTES (16u << 20)
#define GEN_C_MAX_DEPTH         (BITSIFT_SCHEMA_MAX_DEPTH + 2)

/* One C struct type: a schema struct (by name) or a packet type. */
struct c_type {
    const char *name;  /* the schema's name */
    uint32_t first, end; /* the ops of the instance it is generated from */
    bool packet;
    uint64_t bytes; /* an estimate of sizeof, for the size limit */
};

struct cgen {
    const bitsift_schema *s;
    const char *prefix;
    FILE *out;
    uint64_t max_bytes;
    char *error;
    size_t error_size;
    bitsift_error status;
    int (*stop)(void); /* options->stop */
    struct c_type *types;
    size_t ntypes;
    /* Per body being written: each op's member path ("pos", "sub.x"),
     * and the op that keeps each slot. */
    char **member;
    int32_t *slot_op;
    /* Per op, its C member's name in the struct of its body ("member names"):
     * the field's own, an inline array's count, a sparse array's presence
     * flags. NULL for an op that keeps no member. */
    char **cname, **count_name, **present_name;
    unsigned loop; /* loop variables in use: k1, k2, ... */
    const char *text; /* the schema's text, for its comments; NULL for none */
    size_t text_size;
};

/*
 * What every part needs of the others' facts, inline here so that no part
 * calls a later one: the member names need a leaf's C type, and the types
 * need the names' spelling (a call cycle between the two files otherwise).
 */

/* Keep the first refusal: its status and its message in options->error.
 * Returns false, for `return refuse(...)`. */
static inline bool refuse(struct cgen *g, bitsift_error e, const char *fmt, ...)
{
    if (g->status == BITSIFT_OK) {
        g->status = e;
        if (g->error && g->error_size) {
            va_list ap;
            va_start(ap, fmt);
            vsnprintf(g->error, g->error_size, fmt, ap);
            va_end(ap);
        }
    }
    return false;
}

/* Four spaces per level, as the generated code is indented. */
static inline void indent(FILE *out, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        fputs("    ", out);
}

/* A struct field's type name (its struct's name); NULL for other ops. */
static inline const char *field_type_name(const struct cgen *g, const struct schema_op *op)
{
    return op->field >= 0 ? g->s->fields[op->field].type_name : NULL;
}

/* A vector or quaternion: a struct op whose components are one C array. */
static inline bool is_composite(const struct schema_op *op)
{
    return op->code == OP_STRUCT &&
           (op->type == BITSIFT_FIELD_VECTOR || op->type == BITSIFT_FIELD_QUATERNION);
}

/* The C type of a leaf's value, from the row's value kind; NULL for a
 * leaf that keeps none (align, check). `dims` gets an array bound for
 * bytes and strings. */
static inline const char *leaf_ctype(const struct schema_op *op, uint32_t *dims, uint64_t *bytes)
{
    *dims = 0;
    if (op->code == OP_SMALLEST3) {
        *bytes = sizeof(bitsift_smallest_three);
        return "bitsift_smallest_three";
    }
    switch (schema_value_kind(op)) {
    case BITSIFT_VALUE_BOOL:
        *bytes = 1;
        return "bool";
    case BITSIFT_VALUE_UINT:
        *bytes = 8;
        return op->code == OP_CHECK ? NULL : "uint64_t";
    case BITSIFT_VALUE_INT:
    case BITSIFT_VALUE_ENUM:
        *bytes = 8;
        return "int64_t";
    case BITSIFT_VALUE_FLOAT:
        *bytes = 4;
        return "float";
    case BITSIFT_VALUE_DOUBLE:
        *bytes = 8;
        return "double";
    case BITSIFT_VALUE_BYTES:
        *dims = op->width ? op->width : 1; /* C has no empty arrays */
        *bytes = *dims;
        return "uint8_t";
    case BITSIFT_VALUE_STRING:
        *dims = op->width;
        *bytes = op->width;
        return "char";
    default:
        *bytes = 0;
        return NULL;
    }
}

/* Whether an op keeps a member in its struct (align and check do not). */
static inline bool has_member(const struct schema_op *op)
{
    uint32_t dims;
    uint64_t bytes;
    return op->code == OP_ARRAY || op->code == OP_STRUCT || leaf_ctype(op, &dims, &bytes);
}

/* Whether enum `en` is a C enum (else #define'd int64_t constants): its
 * constants are ints (C99), so an enum with a value outside int's range,
 * or with no value (C has no empty enum), cannot be one. */
static inline bool enum_is_c_enum(const bitsift_schema *s, const struct schema_enum *en)
{
    bool as_enum = en->count > 0;
    for (uint32_t k = 0; k < en->count; k++) {
        int64_t v = s->enum_values[en->first + k].value;
        if (v < INT32_MIN || v > INT32_MAX)
            as_enum = false;
    }
    return as_enum;
}

/* ---- gen_c_names.c ---- */

/* A schema name as a C identifier into buf (size > 2), by the one rule;
 * returns the length written. */
size_t gen_c_name(char *buf, size_t size, const char *name);
void gen_c_put_name(FILE *out, const char *name);
/* A string as an escaped C literal; an int64_t and a float32 as exact C
 * literals. */
void gen_c_string(FILE *out, const char *text);
void gen_c_int(FILE *out, int64_t v);
void gen_c_float(FILE *out, float f);
/* Why `name` cannot be the generated names' prefix, or NULL when it can. */
const char *gen_c_name_problem(const char *name);
/* The C member names of every struct body (g->cname, count_name,
 * present_name); false, refused, when out of memory or interrupted. */
bool gen_c_name_members(struct cgen *g);
/* Refuses a schema two of whose file-scope names would be one. */
bool gen_c_check_file_scope_names(struct cgen *g);

/* ---- gen_c_comments.c ---- */

void gen_c_comment_text(FILE *out, const char *t, size_t a, size_t b);
void gen_c_leading_comments(struct cgen *g, size_t at, unsigned ind);
bool gen_c_trailing_comment(const struct cgen *g, size_t end, size_t *a, size_t *b);
const bitsift_field_source *gen_c_field_source(const struct cgen *g, const struct schema_op *op);
size_t gen_c_declaration_line(const struct cgen *g, size_t body);

/* ---- gen_c_types.c ---- */

struct c_type *gen_c_find_type(struct cgen *g, const char *name, bool packet);
bool gen_c_add_type(struct cgen *g, const char *name, uint32_t first, uint32_t end, bool packet,
                    unsigned depth);
bool gen_c_emit_types(struct cgen *g);
void gen_c_emit_enums(struct cgen *g);
/* "struct <prefix>_<name>" */
void gen_c_type_name(struct cgen *g, const struct c_type *t);

/* ---- gen_c_body.c ---- */

void gen_c_begin_function(struct cgen *g, const struct c_type *t);
bool gen_c_slot_expr(struct cgen *g, int64_t slot, FILE *out);
bool gen_c_condition(struct cgen *g, const struct schema_op *op);

/* ---- gen_c_serialize.c ---- */

void gen_c_function_head(struct cgen *g, const struct c_type *t, bool definition);
bool gen_c_emit_function(struct cgen *g, const struct c_type *t);
void gen_c_emit_packet_functions(struct cgen *g);

/* ---- gen_c_visit.c ---- */

void gen_c_emit_visit_api(struct cgen *g);
bool gen_c_emit_visit_functions(struct cgen *g);

#endif /* BITSIFT_GEN_C_INTERNAL_H */
