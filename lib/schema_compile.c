/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * schema_compile.c -- the schema object's life: compiling text (lexer ->
 * parser -> back end -> passes -> validation program), loading a file
 * with its size bounded while it is read, and freeing.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schema_emit.h"
#include "schema_passes.h"
#include "validate_program.h"

/* ---- the schema object -------------------------------------------------- */

void bitsift_schema_free(bitsift_schema *s)
{
    if (!s)
        return;
    free(s->ops);
    free(s->fields);
    free(s->packets);
    free(s->enums);
    free(s->enum_values);
    free(s->allowed);
    free(s->expr);
    free(s->leaves);
    schema_validate_free(s->validate);
    for (struct string_block *b = s->blocks, *n; b; b = n) {
        n = b->next;
        free(b);
    }
    free(s);
}

static void set_plain_error(bitsift_schema_error *err, bitsift_error kind, const char *file,
                            const char *what)
{
    if (!err)
        return;
    memset(err, 0, sizeof *err);
    err->kind = kind;
    snprintf(err->message, sizeof err->message, "%s: %s", file, what);
}

bitsift_schema *bitsift_schema_compile(const char *text, size_t size, const char *filename,
                                       bitsift_schema_error *err)
{
    const char *file = filename ? filename : "<string>";
    if (err)
        memset(err, 0, sizeof *err);
    if (size > BITSIFT_SCHEMA_MAX_TEXT) {
        set_plain_error(err, BITSIFT_E_LIMIT, file, "schema larger than 1 MiB");
        return NULL;
    }
    if (!text && size) {
        set_plain_error(err, BITSIFT_E_ARGUMENT, file, "no schema text");
        return NULL;
    }
    struct token *toks = NULL;
    size_t ntoks = 0;
    bitsift_schema_error lex_err = {0};
    if (!schema_lex(text ? text : "", size, &toks, &ntoks, &lex_err)) {
        if (err) {
            *err = lex_err;
            if (!err->kind)
                err->kind = BITSIFT_E_SCHEMA;
            char what[128];
            memcpy(what, lex_err.message, sizeof what - 1);
            what[sizeof what - 1] = 0;
            if (lex_err.line)
                snprintf(err->message, sizeof err->message, "%.300s:%u:%u: %.120s", file,
                         lex_err.line, lex_err.column, what);
            else
                snprintf(err->message, sizeof err->message, "%.300s: %.120s", file, what);
        }
        return NULL;
    }
    bitsift_schema *s = calloc(1, sizeof *s);
    struct compiler c = {.filename = file, .text = text ? text : "", .toks = toks,
                        .ntoks = ntoks, .err = err, .s = s};
    c.owner = -1;
    c.array_op = -1;
    c.parent_field = -1;
    bool ok = s && schema_parse(&c);
    if (!s)
        set_plain_error(err, BITSIFT_E_NOMEM, file, "out of memory");
    if (ok) {
        compile_finish(&c);
        if (!c.failed) {
            schema_prepare_ops(s);
            schema_prepare_visit(s);
            schema_fuse_leaf_runs(s);
            /* Without it (no memory, a shape it leaves alone) the
             * interpreter validates: slower, same answers. */
            s->validate = schema_validate_build(s);
        }
    }
    free(c.decls);
    free(c.decl_table);
    free(c.vis);
    free(toks);
    if (!ok || c.failed) {
        if (err && !err->kind)
            set_plain_error(err, BITSIFT_E_SCHEMA, file, "invalid schema");
        bitsift_schema_free(s);
        return NULL;
    }
    return s;
}

bitsift_schema *bitsift_schema_load_file(const char *path, bitsift_schema_error *err)
{
    if (!path) {
        set_plain_error(err, BITSIFT_E_ARGUMENT, "<null>", "no file name");
        return NULL;
    }
    FILE *f = fopen(path, "rb");
    if (!f) {
        set_plain_error(err, BITSIFT_E_IO, path, strerror(errno));
        return NULL;
    }
    /* Read at most one byte more than allowed, to tell "too large". */
    size_t cap = 65536, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        if (n == cap) {
            if (cap > BITSIFT_SCHEMA_MAX_TEXT)
                break;
            char *bigger = realloc(buf, cap * 2);
            if (!bigger) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = bigger, cap *= 2;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0)
            break;
    }
    bool read_error = ferror(f);
    fclose(f);
    if (!buf) {
        set_plain_error(err, BITSIFT_E_NOMEM, path, "out of memory");
        return NULL;
    }
    if (read_error) {
        free(buf);
        set_plain_error(err, BITSIFT_E_IO, path, "read error");
        return NULL;
    }
    bitsift_schema *s = bitsift_schema_compile(buf, n, path, err);
    free(buf);
    return s;
}
