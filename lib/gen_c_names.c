/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gen_c_names.c -- how `bitsift gen c` spells what a schema names: the
 * one rule that turns a schema name into a C identifier (gen_c_name),
 * strings and numbers as C literals, the member names of each struct,
 * and the check that no two file-scope names are one.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "gen_c_internal.h"
#include "gen_c_names.h"

/* ---- names ---------------------------------------------------------------- */

/*
 * The one rule for every schema name that reaches the output (a field, a
 * struct, an enum, an enum value, a packet type; alone as a member, or
 * after the prefix at file scope), so that a name is spelled the same
 * everywhere:
 *
 *   - a name the implementation reserves, one beginning with '_' and an
 *     uppercase letter or a second '_' (__attribute__, _Float128), gets
 *     'x' put in front (x__attribute__): a '_' appended would leave it
 *     reserved;
 *   - a name of gen_c_names.h's c_renamed_names (keywords of C and C++,
 *     macros and types of the headers the code includes, macros the
 *     compilers predefine) or of the library's own name space (bitsift_*,
 *     BITSIFT_*) gets '_' appended (int_, EOF_, linux_);
 *   - any other name is kept as written.
 *
 * The prefix (--name, or the protocol's name) is not renamed: it is never
 * a name alone, and bitsift_gen_c refuses one C could not take
 * (gen_c_name_problem). What two names still spell alike is a matter for
 * "member names" and "file-scope names" below.
 */

static int compare_names(const void *key, const void *item)
{
    return strcmp((const char *)key, *(const char *const *)item);
}

static bool listed(const char *name, const char *const *list, size_t n)
{
    return bsearch(name, list, n, sizeof *list, compare_names) != NULL;
}

#define LIST_COUNT(a) (sizeof(a) / sizeof((a)[0]))

static bool in_library_space(const char *name)
{
    return strncmp(name, "bitsift_", 8) == 0 || strncmp(name, "BITSIFT_", 8) == 0;
}

/* Reserved for the implementation everywhere (C11 7.1.3). */
static bool implementation_reserved(const char *name)
{
    return name[0] == '_' && ((name[1] >= 'A' && name[1] <= 'Z') || name[1] == '_');
}

/* A schema name as a C identifier into buf (size > 2), by the rule above.
 * Schema names are identifiers already; any other byte becomes '_', so
 * that no text can escape. Returns the length written. */
size_t gen_c_name(char *buf, size_t size, const char *name)
{
    size_t n = 0;
    if (implementation_reserved(name))
        buf[n++] = 'x';
    for (const unsigned char *p = (const unsigned char *)name; *p && n + 2 < size; p++) {
        bool keep = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
                    (*p >= '0' && *p <= '9' && n > 0) || *p == '_';
        buf[n] = keep ? (char)*p : '_';
        n++;
    }
    buf[n] = '\0';
    if (listed(buf, c_renamed_names, LIST_COUNT(c_renamed_names)) || in_library_space(buf)) {
        buf[n++] = '_';
        buf[n] = '\0';
    }
    return n;
}

void gen_c_put_name(FILE *out, const char *name)
{
    char buf[80];
    gen_c_name(buf, sizeof buf, name);
    fputs(buf, out);
}

/* A string as a C literal: printable ASCII as is except quotes, '\\',
 * '?' (trigraphs) and '*' '/' pairs, everything else as octal. */
void gen_c_string(FILE *out, const char *text)
{
    fputc('"', out);
    for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
        if (*p >= 0x20 && *p < 0x7f && *p != '"' && *p != '\\' && *p != '?' && *p != '*' &&
            *p != '/')
            fputc(*p, out);
        else
            fprintf(out, "\\%03o", *p);
    }
    fputc('"', out);
}

void gen_c_int(FILE *out, int64_t v)
{
    if (v == INT64_MIN)
        fputs("(-INT64_C(9223372036854775807) - 1)", out);
    else
        fprintf(out, "INT64_C(%" PRId64 ")", v);
}

/* A float32 as an exact hexadecimal literal (C99, C++17). */
void gen_c_float(FILE *out, float f)
{
    fprintf(out, "%af", (double)f);
}

/* ---- member names ------------------------------------------------------------ */

/*
 * The members of one C struct must differ, but a schema may have a field
 * `xs_count` beside an inline array `xs` (whose count is `xs_count` too),
 * or `class_` beside `class` (a C++ keyword, renamed `class_`). The
 * schema's names win, in this order: names kept as written, then renamed
 * keywords, then the generated `_count` and `_present` members; a name
 * already taken gets '_' appended until it is free. Names depend only on
 * the body's ops, so every use of a struct gets the same ones.
 */
struct name_set {
    char **names;
    size_t n;
};

static bool name_taken(const struct name_set *set, const char *name)
{
    for (size_t k = 0; k < set->n; k++)
        if (strcmp(set->names[k], name) == 0)
            return true;
    return false;
}

/* `want`, or `want` with the fewest '_' appended that is free; NULL when
 * out of memory. The set keeps the pointer, the caller owns the copy. */
static char *claim_name(struct name_set *set, const char *want, const char *suffix)
{
    size_t len = strlen(want) + strlen(suffix);
    char *name = malloc(len + set->n + 2);
    if (!name)
        return NULL;
    sprintf(name, "%s%s", want, suffix);
    while (name_taken(set, name)) {
        name[len++] = '_';
        name[len] = '\0';
    }
    set->names[set->n++] = name;
    return strdup(name);
}

/* Name the members of the body [first, end) (an if's branches flattened). */
static bool name_members(struct cgen *g, uint32_t first, uint32_t end)
{
    const struct schema_op *ops = g->s->ops;
    struct name_set set = {calloc(3 * (size_t)(end - first) + 1, sizeof(char *)), 0};
    bool ok = set.names != NULL;
    for (int pass = 0; pass < 3; pass++) {
        for (uint32_t i = first; i < end; i++) {
            const struct schema_op *op = &ops[i];
            if (g->stop && g->stop()) /* naming grows with the square of the members */
                ok = ok && refuse(g, BITSIFT_E_LIMIT, "interrupted");
            if (op->code == OP_IF || !has_member(op))
                continue;
            char buf[80];
            gen_c_name(buf, sizeof buf, op->name);
            bool renamed = strcmp(buf, op->name) != 0;
            char **slot = NULL;
            const char *suffix = "";
            if (pass == (renamed ? 1 : 0)) {
                slot = &g->cname[i];
            } else if (pass == 2 && op->code == OP_ARRAY && op->array_kind == ARRAY_INLINE) {
                slot = &g->count_name[i], suffix = "_count";
            } else if (pass == 2 && op->code == OP_ARRAY && op->array_kind >= ARRAY_FLAGS) {
                slot = &g->present_name[i], suffix = "_present";
            }
            if (slot && ok) {
                free(*slot);
                *slot = claim_name(&set, pass == 2 ? g->cname[i] : buf, suffix);
                ok = *slot != NULL;
            }
            if (op->code == OP_ARRAY || op->code == OP_STRUCT)
                i = op->end - 1;
        }
    }
    for (size_t k = 0; k < set.n; k++)
        free(set.names[k]);
    free(set.names);
    return ok ? true : refuse(g, BITSIFT_E_NOMEM, "out of memory");
}

/* Every struct body of the schema: the packet types' and the structs'. */
bool gen_c_name_members(struct cgen *g)
{
    const bitsift_schema *s = g->s;
    for (size_t t = 0; t < g->ntypes; t++)
        if (!name_members(g, g->types[t].first, g->types[t].end))
            return false;
    for (uint32_t i = 0; i < s->op_count; i++)
        if (s->ops[i].code == OP_STRUCT && !is_composite(&s->ops[i]) &&
            !name_members(g, i + 1, s->ops[i].end))
            return false;
    return true;
}

/* ---- file-scope names ----------------------------------------------------- */

/*
 * Everything the output declares at file scope is made of the prefix and
 * schema names joined by '_': `gen_Team_red` is enum Team's value red, but
 * also enum Team_red's value... nothing, or enum Team's `red` and enum
 * `Team_red`... A schema whose names collide so is refused with both
 * names: renaming them silently would make the API guess work. So is one
 * whose names spell a name of the headers the code includes or of the
 * library (prefix SIZE and enum MAX: SIZE_MAX).
 *
 * Tags and other names collide as well: C keeps them apart, but C++ does
 * not for a typedef (`struct gen_visitor` beside the typedef gen_visitor),
 * and a function beside a struct of its name hides the struct's
 * constructor (g++ -Wshadow). Every name the generator declares of its own
 * is listed here beside the schema's: what it adds is checked as what a
 * schema adds (tests/gen-c/own-names.sh finds them in its output).
 */
struct global_name {
    char c[272];    /* the C name */
    char what[208]; /* what in the schema it is for */
};

struct globals {
    struct global_name *list;
    size_t n, cap;
    bool failed;
};

/* One name, spelled `c`, for `what_kind what_name`. */
static void global_push(struct globals *gl, const char *c, const char *what_kind,
                        const char *what_name)
{
    if (gl->failed)
        return;
    if (gl->n == gl->cap) {
        size_t cap = gl->cap ? 2 * gl->cap : 64;
        struct global_name *grown = realloc(gl->list, cap * sizeof *grown);
        if (!grown) {
            gl->failed = true;
            return;
        }
        gl->list = grown;
        gl->cap = cap;
    }
    struct global_name *n = &gl->list[gl->n++];
    snprintf(n->c, sizeof n->c, "%s", c);
    snprintf(n->what, sizeof n->what, "%s %s", what_kind, what_name);
}

/* prefix_a[_b] (no prefix_ when raw: the source's static names). */
static void global_add(struct cgen *g, struct globals *gl, bool raw, const char *what_kind,
                       const char *what_name, const char *a, const char *b)
{
    char pb[80], pc[80] = "", c[272];
    gen_c_name(pb, sizeof pb, a);
    if (b)
        gen_c_name(pc, sizeof pc, b);
    snprintf(c, sizeof c, "%s%s%s%s%s", raw ? "" : g->prefix, raw ? "" : "_", pb, b ? "_" : "", pc);
    global_push(gl, c, what_kind, what_name);
}

static int global_order(const void *a, const void *b)
{
    return strcmp(((const struct global_name *)a)->c, ((const struct global_name *)b)->c);
}

/* The generator's own file-scope names, after the prefix unless raw. */
struct own_name {
    const char *name;
    bool raw;
};
static const struct own_name own_names[] = {
    {"packet", false},        {"field", false},
    {"kind", false},          {"read", false},
    {"write", false},         {"measure", false},
    {"visit", false},         {"framing", false},
    {"visitor", false},       {"FIELD_ABSENT", false},
    {"FIELD_DERIVED", false}, {"KIND_NONE", false},
    {"KIND_BOOL", false},     {"KIND_UINT", false},
    {"KIND_INT", false},      {"KIND_FLOAT", false},
    {"KIND_DOUBLE", false},   {"KIND_BYTES", false},
    {"KIND_STRING", false},   {"KIND_ENUM", false},
    {"visit", true},          {"serialize_packet", true},
    {"visit_leaf", true},     {"visit_path", true},
    {"visit_path_end", true}, {"visit_text_size", true},
};

bool gen_c_check_file_scope_names(struct cgen *g)
{
    const bitsift_schema *s = g->s;
    struct globals gl = {NULL, 0, 0, false};
    for (size_t t = 0; t < g->ntypes; t++) {
        const char *kind = g->types[t].packet ? "packet" : "struct";
        global_add(g, &gl, false, kind, g->types[t].name, g->types[t].name, NULL);
        global_add(g, &gl, false, kind, g->types[t].name, "serialize", g->types[t].name);
        global_add(g, &gl, true, kind, g->types[t].name, "visit_type", g->types[t].name);
    }
    for (uint32_t t = 0; t < s->packet_count; t++)
        global_add(g, &gl, false, "packet", s->packets[t].name, "TYPE", s->packets[t].name);
    for (uint32_t e = 0; e < s->enum_count; e++) {
        const struct schema_enum *en = &s->enums[e];
        bool as_enum = enum_is_c_enum(s, en);
        if (as_enum)
            global_add(g, &gl, false, "enum", en->name, en->name, NULL);
        global_add(g, &gl, true, "enum", en->name, "enum_name", en->name);
        for (uint32_t k = 0; k < en->count; k++) {
            char what[200];
            snprintf(what, sizeof what, "%s's value %s", en->name,
                     s->enum_values[en->first + k].name);
            global_add(g, &gl, false, "enum", what, en->name, s->enum_values[en->first + k].name);
        }
    }
    for (size_t k = 0; k < LIST_COUNT(own_names); k++)
        global_add(g, &gl, own_names[k].raw, "the generator's own", own_names[k].name,
                   own_names[k].name, NULL);
    /* The include guard: the prefix in uppercase. */
    char guard[BITSIFT_SCHEMA_MAX_NAME + 16];
    size_t len = 0;
    for (const char *c = g->prefix; *c && len < BITSIFT_SCHEMA_MAX_NAME; c++)
        guard[len++] = *c >= 'a' && *c <= 'z' ? (char)(*c - 'a' + 'A') : *c;
    snprintf(guard + len, sizeof guard - len, "_GENERATED_H");
    global_push(&gl, guard, "the generator's own", "include guard");
    if (gl.failed) {
        free(gl.list);
        return refuse(g, BITSIFT_E_NOMEM, "out of memory");
    }
    qsort(gl.list, gl.n, sizeof *gl.list, global_order);
    bool ok = true;
    for (size_t k = 0; k < gl.n && ok; k++) {
        const struct global_name *x = &gl.list[k];
        if (k + 1 < gl.n && strcmp(gl.list[k + 1].c, x->c) == 0)
            ok = refuse(g, BITSIFT_E_SCHEMA,
                        "%s and %s are both %s in the generated C: rename one of them", x->what,
                        gl.list[k + 1].what, x->c);
        if (ok && (listed(x->c, c_renamed_names, LIST_COUNT(c_renamed_names)) ||
                   listed(x->c, c_file_scope_names, LIST_COUNT(c_file_scope_names)) ||
                   in_library_space(x->c)))
            ok = refuse(g, BITSIFT_E_SCHEMA,
                        "%s is %s in the generated C, a name of the C headers or of "
                        "libbitsift: rename it",
                        x->what, x->c);
    }
    free(gl.list);
    return ok;
}

/* Why `name` cannot be the prefix of the generated names and files
 * (NAME.h, NAME_read, NAME_GENERATED_H), or NULL when it can: a C
 * identifier that starts with a letter (a name beginning with '_' is
 * reserved at file scope), is not a path, and leaves the library's name
 * space (bitsift_*, BITSIFT_*) to the library. */
const char *gen_c_name_problem(const char *name)
{
    if (!name || !*name)
        return "is empty";
    if (strlen(name) > BITSIFT_SCHEMA_MAX_NAME)
        return "is longer than 63 characters";
    for (const char *p = name; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
              *p == '_'))
            return "is not a C identifier (letters, digits and '_'; no '/', no '.')";
    if (name[0] == '_')
        return "begins with '_' (C reserves such names at file scope)";
    if (name[0] >= '0' && name[0] <= '9')
        return "begins with a digit";
    if (strcmp(name, "bitsift") == 0 || strcmp(name, "BITSIFT") == 0 || in_library_space(name))
        return "would put the generated names among libbitsift's own (bitsift_*, BITSIFT_*)";
    return NULL;
}
