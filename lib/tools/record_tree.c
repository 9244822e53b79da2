/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * record_tree.c -- a record's "fields" (jansson's tree of the line) into a
 * value tree of its packet type, for bitsift_encode. A value's JSON kind
 * and the field's value kind in the schema decide together what it becomes:
 * hex text for bytes, a float32 read from its own text, an enum's name, a
 * uint64 above 2^63 kept exact (json_numbers.c left such numbers as text).
 * Sparse elements away from their position are {"@index": N, "@value": V}.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "records_internal.h"

static int compare_entries(const void *a, const void *b)
{
    const struct record_path_entry *x = a, *y = b;
    if (x->type != y->type)
        return x->type < y->type ? -1 : 1;
    return strcmp(x->path, y->path);
}

int record_paths_index(const bitsift_schema *s, struct record_paths *p)
{
    unsigned n = bitsift_schema_field_count(s);
    p->entries = calloc(n ? n : 1, sizeof *p->entries);
    if (!p->entries)
        return -1;
    for (unsigned id = 0; id < n; id++) {
        bitsift_field_info info;
        if (!bitsift_schema_field_info(s, id, &info) || !info.path)
            continue;
        p->entries[p->count++] = (struct record_path_entry){info.packet_type, info.path, id};
    }
    qsort(p->entries, p->count, sizeof *p->entries, compare_entries);
    return 0;
}

/* The id of the field at `path` of packet type `type`, -1 when none. */
static int field_id_at(const struct record_paths *p, unsigned type, const char *path)
{
    struct record_path_entry key = {type, path, 0};
    const struct record_path_entry *e =
        bsearch(&key, p->entries, p->count, sizeof *p->entries, compare_entries);
    return e ? (int)e->id : -1;
}

int record_field_info_at(const bitsift_schema *s, const struct record_paths *p, unsigned type,
                         const char *path, bitsift_field_info *info)
{
    int id = field_id_at(p, type, path);
    return id >= 0 && bitsift_schema_field_info(s, (unsigned)id, info) ? 0 : -1;
}

struct build {
    const bitsift_schema *schema;
    const struct record_paths *paths;
    bitsift_tree *tree;
    unsigned type;
    char path[BITSIFT_PATH_MAX];
    bitsift_record_error *err;
    unsigned depth;
};

static int fail_build(struct build *b, const char *what)
{
    if (!b->err->message[0]) {
        snprintf(b->err->message, sizeof b->err->message, "%s: %s",
                 b->path[0] ? b->path : "fields", what);
        memcpy(b->err->path, b->path, sizeof b->path);
    }
    return -1;
}

static int hex_value(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* A string value (a string field, an enum name, hex bytes, or a number
 * protected as text), read as the value kind of field `id` (-1: none). */
static int string_value(struct build *b, int id, const char *text, size_t size, bitsift_value *v,
                        uint8_t **scratch)
{
    memset(v, 0, sizeof *v);
    bitsift_field_info info = {0};
    bitsift_value_kind kind = BITSIFT_VALUE_NONE;
    if (id >= 0 && bitsift_schema_field_info(b->schema, (unsigned)id, &info))
        kind = bitsift_schema_field_value_kind(b->schema, (unsigned)id);
    switch (kind) {
    case BITSIFT_VALUE_BYTES: {
        if (size % 2)
            return fail_build(b, "bytes must be an even number of hex digits");
        uint8_t *bytes = malloc(size / 2 + 1);
        if (!bytes)
            return fail_build(b, "out of memory");
        for (size_t i = 0; i < size / 2; i++) {
            int hi = hex_value(text[2 * i]), lo = hex_value(text[2 * i + 1]);
            if (hi < 0 || lo < 0) {
                free(bytes);
                return fail_build(b, "bytes must be hex digits");
            }
            bytes[i] = (uint8_t)(hi << 4 | lo);
        }
        *scratch = bytes;
        v->kind = BITSIFT_VALUE_BYTES;
        v->data = bytes;
        v->size = size / 2;
        return 0;
    }
    case BITSIFT_VALUE_FLOAT:
        v->kind = BITSIFT_VALUE_FLOAT;
        if (parse_float32(text, &v->f) == 0)
            return 0;
        if (strcmp(text, "inf") == 0 || strcmp(text, "-inf") == 0) {
            v->f = text[0] == '-' ? -__builtin_inff() : __builtin_inff();
            return 0;
        }
        return fail_build(b, "not a float");
    case BITSIFT_VALUE_DOUBLE:
        v->kind = BITSIFT_VALUE_DOUBLE;
        if (parse_float64(text, &v->d) == 0)
            return 0;
        if (strcmp(text, "inf") == 0 || strcmp(text, "-inf") == 0) {
            v->d = text[0] == '-' ? -__builtin_inf() : __builtin_inf();
            return 0;
        }
        return fail_build(b, "not a double");
    case BITSIFT_VALUE_STRING:
    case BITSIFT_VALUE_ENUM:
        v->kind = BITSIFT_VALUE_STRING;
        v->data = (const uint8_t *)text;
        v->size = size;
        return 0;
    case BITSIFT_VALUE_BOOL:
    case BITSIFT_VALUE_UINT:
    case BITSIFT_VALUE_INT:
        /* A real (1e5, 3.0) is not an integer: through a double it would
         * round above 2^53, and decode never prints an integer that way.
         * A check's value is the schema's: the encoder reads none. */
        if (info.type != BITSIFT_FIELD_CHECK && strpbrk(text, ".eE")) {
            char what[96];
            snprintf(what, sizeof what, "an integer field takes an integer, not %.40s", text);
            return fail_build(b, what);
        }
        break;
    case BITSIFT_VALUE_NONE:
        break;
    }
    /* Integers beyond int64 (protected), or a field the schema does not
     * know (the encoder ignores it): numbers if they parse, else text. */
    char *end;
    errno = 0;
    if (text[0] != '-' && text[0]) {
        unsigned long long u = strtoull(text, &end, 10);
        if (!errno && !*end) {
            v->kind = BITSIFT_VALUE_UINT;
            v->u = u;
            return 0;
        }
    }
    double d = strtod(text, &end);
    if (text[0] && !*end) {
        v->kind = BITSIFT_VALUE_DOUBLE;
        v->d = d;
        return 0;
    }
    v->kind = BITSIFT_VALUE_STRING;
    v->data = (const uint8_t *)text;
    v->size = size;
    return 0;
}

static int build_node(struct build *b, bitsift_node *parent, const char *name, json_t *j);

/* Append ".name" or "[]" to the path; returns the old length to restore. */
static size_t push_path(struct build *b, const char *name)
{
    size_t old = strlen(b->path);
    if (name)
        snprintf(b->path + old, sizeof b->path - old, "%s%s", old ? "." : "", name);
    else
        snprintf(b->path + old, sizeof b->path - old, "[]");
    return old;
}

static int build_struct_members(struct build *b, bitsift_node *node, json_t *j)
{
    const char *key;
    json_t *member;
    json_object_foreach(j, key, member)
    {
        if (key[0] == '@')
            continue; /* @index of a sparse element */
        size_t old = push_path(b, key);
        int r = build_node(b, node, key, member);
        b->path[old] = '\0';
        if (r)
            return r;
    }
    return 0;
}

static int build_node(struct build *b, bitsift_node *parent, const char *name, json_t *j)
{
    if (++b->depth > BITSIFT_SCHEMA_MAX_DEPTH * 4) {
        b->depth--;
        return fail_build(b, "nested too deep");
    }
    int r = 0;
    if (json_is_object(j)) {
        bitsift_node *n = bitsift_node_add_struct(b->tree, parent, name);
        if (!n)
            r = fail_build(b, "value tree limit reached");
        else
            r = build_struct_members(b, n, j);
    } else if (json_is_array(j)) {
        bitsift_node *n = bitsift_node_add_array(b->tree, parent, name);
        if (!n) {
            r = fail_build(b, "value tree limit reached");
        } else {
            size_t old = push_path(b, NULL);
            size_t i;
            json_t *element;
            json_array_foreach(j, i, element)
            {
                /* {"@index": N, ...}: a sparse element away from its position. */
                json_t *at = json_is_object(element) ? json_object_get(element, "@index") : NULL;
                json_t *value = at ? json_object_get(element, "@value") : NULL;
                size_t before = bitsift_node_child_count(n);
                if (at && value)
                    r = build_node(b, n, NULL, value);
                else
                    r = build_node(b, n, NULL, element);
                if (r)
                    break;
                if (at) {
                    if (!json_is_integer(at)) {
                        r = fail_build(b, "@index must be an integer");
                        break;
                    }
                    if (bitsift_node_child_count(n) > before)
                        bitsift_node_set_index(bitsift_node_child_at(n, before),
                                               json_integer_value(at));
                }
            }
            b->path[old] = '\0';
        }
    } else {
        bitsift_value v;
        memset(&v, 0, sizeof v);
        uint8_t *scratch = NULL;
        int id = field_id_at(b->paths, b->type, b->path);
        if (json_is_boolean(j)) {
            v.kind = BITSIFT_VALUE_BOOL;
            v.b = json_is_true(j);
        } else if (json_is_integer(j)) {
            v.kind = BITSIFT_VALUE_INT;
            v.i = json_integer_value(j);
        } else if (json_is_string(j)) {
            r = string_value(b, id, json_string_value(j), json_string_length(j), &v, &scratch);
        } else if (json_is_null(j)) {
            r = fail_build(b, "null is not a value");
        } else {
            r = fail_build(b, "unexpected JSON value");
        }
        if (!r && !bitsift_node_add_value(b->tree, parent, name, &v))
            r = fail_build(b, "value tree limit reached");
        free(scratch);
    }
    b->depth--;
    return r;
}

int record_tree_build(const bitsift_schema *s, const struct record_paths *paths,
                      bitsift_tree *tree, unsigned type, json_t *fields,
                      bitsift_record_error *err)
{
    struct build b;
    memset(&b, 0, sizeof b);
    b.schema = s;
    b.paths = paths;
    b.tree = tree;
    b.type = type;
    b.err = err;
    err->message[0] = '\0';
    return build_struct_members(&b, bitsift_tree_root(tree), fields);
}
