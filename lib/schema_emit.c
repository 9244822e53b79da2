/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * schema_emit.c -- the compiler's back end, what the parser emits into:
 * storage of ops, fields, strings and side tables under the hard limits,
 * diagnostics at a token, slots, and compile_finish, which fills every
 * field's and packet's size once the parser is done. The parser (schema_parser.c) calls into it;
 * schema_compile.c drives lexer, parser, back end and passes.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schema_emit.h"

bool compile_grow(void **array, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return true;
    size_t n = *cap ? *cap : 16;
    while (n < need)
        n *= 2;
    void *bigger = realloc(*array, n * size);
    if (!bigger)
        return false;
    *array = bigger;
    *cap = n;
    return true;
}

bool compile_error(struct compiler *c, const struct token *at, const char *fmt, ...)
{
    if (c->failed)
        return false; /* keep the first error */
    c->failed = true;
    if (!c->err)
        return false;
    char text[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    c->err->kind = BITSIFT_E_SCHEMA;
    c->err->line = at ? at->line : 0;
    c->err->column = at ? at->column : 0;
    if (at)
        snprintf(c->err->message, sizeof c->err->message, "%s:%u:%u: %s", c->filename, at->line,
                 at->column, text);
    else
        snprintf(c->err->message, sizeof c->err->message, "%s: %s", c->filename, text);
    return false;
}

const char *compile_strdup(struct compiler *c, const char *text, size_t len)
{
    bitsift_schema *s = c->s;
    if (c->string_bytes + len + 1 > SCHEMA_MAX_STRINGS) {
        compile_error(c, &c->toks[c->pos < c->ntoks ? c->pos : c->ntoks - 1],
                      "schema too large: names and paths exceed %u bytes", SCHEMA_MAX_STRINGS);
        return NULL;
    }
    struct string_block *b = s->blocks;
    if (!b || b->used + len + 1 > b->size) {
        size_t size = len + 1 > 65536 ? len + 1 : 65536;
        b = malloc(sizeof *b + size);
        if (!b) {
            compile_error(c, NULL, "out of memory");
            return NULL;
        }
        b->next = s->blocks;
        b->used = 0;
        b->size = size;
        s->blocks = b;
    }
    char *out = b->data + b->used;
    memcpy(out, text, len);
    out[len] = 0;
    b->used += len + 1;
    c->string_bytes += len + 1;
    return out;
}

int32_t compile_new_op(struct compiler *c, const struct token *at)
{
    bitsift_schema *s = c->s;
    if (c->failed)
        return -1;
    if (s->op_count >= BITSIFT_SCHEMA_MAX_OPS) {
        compile_error(c, at,
                      "schema too large: more than %d ops (struct types are copied where used)",
                      BITSIFT_SCHEMA_MAX_OPS);
        return -1;
    }
    if (!compile_grow((void **)&s->ops, &c->ops_cap, s->op_count + 1, sizeof *s->ops)) {
        compile_error(c, at, "out of memory");
        return -1;
    }
    struct schema_op *op = &s->ops[s->op_count];
    memset(op, 0, sizeof *op);
    op->field = -1;
    op->slot = -1;
    op->count_slot = -1;
    op->count_for = -1;
    op->count_cap = INT64_MAX;
    op->base_slot = -1;
    op->reset_head = -1;
    op->reset_next = -1;
    op->enum_id = -1;
    return (int32_t)s->op_count++;
}

int32_t compile_new_field(struct compiler *c, int32_t op, const char *name, size_t name_len,
                          bitsift_field_type type)
{
    bitsift_schema *s = c->s;
    if (c->failed)
        return -1;
    if (!compile_grow((void **)&s->fields, &c->fields_cap, s->field_count + 1,
                      sizeof *s->fields)) {
        compile_error(c, NULL, "out of memory");
        return -1;
    }
    /* The path: the enclosing container's path, then ".name". */
    char path[BITSIFT_PATH_MAX];
    size_t n = c->path_len;
    memcpy(path, c->path, n);
    if (name_len && n + name_len + 2 <= sizeof path) {
        if (n)
            path[n++] = '.';
        memcpy(path + n, name, name_len);
        n += name_len;
    }
    const char *spath = compile_strdup(c, path, n);
    const char *sname = compile_strdup(c, name, name_len);
    if (!spath || !sname)
        return -1;
    struct schema_field *f = &s->fields[s->field_count];
    memset(f, 0, sizeof *f);
    f->op = op;
    f->info.type = type;
    f->info.name = sname;
    f->info.path = spath;
    f->info.parent = c->parent_field;
    f->info.packet_type = s->packet_count ? 0 : 0;
    f->info.conditional = c->cond_depth > 0;
    if (s->ops[op].field < 0)
        s->ops[op].field = (int32_t)s->field_count;
    return (int32_t)s->field_count++;
}

bool compile_slot(struct compiler *c, int32_t op, const struct token *at)
{
    bitsift_schema *s = c->s;
    if (s->ops[op].slot >= 0)
        return true;
    if (s->slot_count >= SCHEMA_MAX_SLOTS)
        return compile_error(c, at, "more than %d fields are referred to by others",
                             SCHEMA_MAX_SLOTS);
    s->ops[op].slot = (int32_t)s->slot_count++;
    return true;
}

bool compile_add_allowed(struct compiler *c, int64_t v)
{
    bitsift_schema *s = c->s;
    if (!compile_grow((void **)&s->allowed, &c->allowed_cap, s->allowed_count + 1,
                      sizeof *s->allowed))
        return false;
    s->allowed[s->allowed_count++] = v;
    return true;
}

bool compile_add_expr(struct compiler *c, enum expr_code code, int64_t value)
{
    bitsift_schema *s = c->s;
    /* Each condition is built contiguously from expr_start: bound it, so
     * that its evaluation stack fits SCHEMA_MAX_EXPR. */
    if (s->expr_count - c->expr_start >= SCHEMA_MAX_EXPR)
        return false;
    if (!compile_grow((void **)&s->expr, &c->expr_cap, s->expr_count + 1, sizeof *s->expr))
        return false;
    s->expr[s->expr_count].code = code;
    s->expr[s->expr_count].value = value;
    s->expr_count++;
    return true;
}

/* Bits of the object_index ladder: 1 .. 12, or 6 + the last tier. */
void compile_finish(struct compiler *c)
{
    bitsift_schema *s = c->s;
    /* Field ids grow in op order, parents first: one pass fills depth
     * and packet type. */
    for (uint32_t f = 0; f < s->field_count; f++) {
        struct schema_field *sf = &s->fields[f];
        const struct schema_op *op = &s->ops[sf->op];
        int32_t parent = sf->info.parent;
        if (parent >= 0) {
            sf->info.depth = s->fields[parent].info.depth + 1;
            sf->info.packet_type = s->fields[parent].info.packet_type;
        }
        if (op->code == OP_SMALLEST3 && op->field != (int32_t)f) {
            /* One of the five parts: largest is 2 bits, one component
             * is derived (0 bits), the others `width` bits. */
            bool largest = f == (uint32_t)op->field + 1;
            sf->info.min_bits = largest ? 2 : 0;
            sf->info.max_bits = largest ? 2 : op->width;
            sf->info.width = largest ? 2 : op->width;
            sf->info.max = largest ? 3 : 0;
            continue;
        }
        uint32_t end = op->code == OP_STRUCT || op->code == OP_ARRAY ? op->end : sf->op + 1u;
        schema_size(s, (uint32_t)sf->op, end, &sf->info.min_bits, &sf->info.max_bits);
        if (sf->info.conditional)
            sf->info.min_bits = 0;
        sf->info.min = op->min;
        sf->info.max = op->max;
        sf->info.width = op->width;
        sf->info.fmin = op->fmin, sf->info.fmax = op->fmax, sf->info.resolution = op->res;
        if (op->code == OP_ARRAY || op->code == OP_BYTES || op->code == OP_STRING)
            sf->info.max_count = op->code == OP_ARRAY ? (uint32_t)op->max : op->width;
        if (op->code == OP_ARRAY)
            sf->info.min = 0;
        if (op->code == OP_OBJ_INDEX)
            sf->info.max = op->max_objects;
    }
    const bitsift_framing *fr = &s->framing;
    uint64_t framing = 8ull * fr->prefix_bytes + (fr->crc ? 32 : 0) +
                       bitsift_bits_required(0, (int64_t)fr->num_types - 1);
    for (uint32_t p = 0; p < s->packet_count; p++) {
        struct schema_packet *pk = &s->packets[p];
        schema_size(s, pk->first_op, pk->end_op, &pk->min_bits, &pk->max_bits);
        pk->min_bits = sat_add(pk->min_bits, framing + (fr->end_check ? 32 : 0));
        pk->max_bits = sat_add(pk->max_bits, framing + (fr->end_check ? 39 : 7));
    }
}
