/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * filter_bind.c -- a parsed display filter tied to each schema it will
 * judge packets of: every test's packet type and field become ids, every
 * enum name its number, and every comparison is checked against the
 * field's type (a string compared with a number is an error here, not a
 * test that is never true).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "filter_internal.h"

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

static int bind_schema(bitsift_filter *f, struct binding *b, bitsift_filter_error *err, int *found)
{
    const bitsift_schema *s = b->s;
    b->field_count = bitsift_schema_field_count(s);
    b->type_count = bitsift_schema_packet_count(s);
    b->field_tests = calloc(b->field_count + 1, sizeof *b->field_tests);
    b->type_field_tests = calloc(b->type_count + 1, sizeof *b->type_field_tests);
    if (!b->field_tests || !b->type_field_tests) {
        filter_error_set(err, BITSIFT_E_NOMEM, 0, "out of memory");
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
            filter_error_set(err, BITSIFT_E_ARGUMENT, t->column,
                             "%s.%s names several fields of %s; write its path with \"[]\" as "
                             "stats prints it",
                             t->type_name, t->path, bitsift_schema_name(s));
            return -1;
        }
        if (id < 0)
            continue;
        bitsift_field_info info;
        bitsift_schema_field_info(s, (unsigned)id, &info);
        const char *why = check_value(t, &info);
        if (why) {
            filter_error_set(err, BITSIFT_E_ARGUMENT, t->column, "%s.%s (%s) %s", t->type_name,
                             t->path, bitsift_field_type_name(info.type), why);
            return -1;
        }
        if (info.type == BITSIFT_FIELD_ENUM &&
            (t->lit.kind == LIT_NAME || t->lit.kind == LIT_STRING) &&
            enum_value(s, (unsigned)id, &info, t->lit.text, &bd->enum_value) != 0) {
            filter_error_set(err, BITSIFT_E_ARGUMENT, t->column, "%s.%s has no value named \"%s\"",
                             t->type_name, t->path, t->lit.text);
            return -1;
        }
        if (info.type != BITSIFT_FIELD_ENUM && t->lit.kind == LIT_NAME) {
            filter_error_set(err, BITSIFT_E_ARGUMENT, t->column,
                             "%s.%s is not an enum: \"%s\" names no value of it (quote strings)",
                             t->type_name, t->path, t->lit.text);
            return -1;
        }
        bd->field = id;
        b->field_tests[id] |= (uint64_t)1 << i;
        b->type_field_tests[bd->type] |= (uint64_t)1 << i;
        found[i] = 1;
    }
    return 0;
}

int filter_bind(bitsift_filter *f, const bitsift_schema *const *schemas, size_t count,
                bitsift_filter_error *err)
{
    f->bindings = calloc(count ? count : 1, sizeof *f->bindings);
    if (!f->bindings) {
        filter_error_set(err, BITSIFT_E_NOMEM, 0, "out of memory");
        return -1;
    }
    int found[BITSIFT_FILTER_MAX_TESTS] = {0};
    for (size_t i = 0; i < count; i++) {
        f->bindings[i].s = schemas[i];
        f->binding_count = i + 1;
        if (bind_schema(f, &f->bindings[i], err, found) != 0)
            return -1;
    }
    /* A name that no schema knows is a typo, not a test that is never true. */
    for (unsigned i = 0; i < f->test_count; i++) {
        const struct test *t = &f->tests[i];
        if ((t->kind == TEST_TYPE || t->kind == TEST_FIELD) && !found[i]) {
            int type_known = 0;
            for (size_t k = 0; k < count; k++)
                type_known |= find_type(schemas[k], t->type_name) >= 0;
            if (!type_known)
                filter_error_set(err, BITSIFT_E_ARGUMENT, t->column,
                                 "no packet type \"%s\" in the schema%s (a path starts with the "
                                 "packet type)",
                                 t->type_name, count == 1 ? "" : "s");
            else
                filter_error_set(err, BITSIFT_E_ARGUMENT, t->column,
                                 "packet type %s has no field \"%s\" (bitsift stats lists the "
                                 "fields)",
                                 t->type_name, t->path);
            return -1;
        }
    }
    return 0;
}
