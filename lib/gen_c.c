/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gen_c.c -- `bitsift gen c`: a compiled schema written as C that a game
 * compiles into its own code: one header (the types) and one source (the
 * serialize functions), both including only <bitsift/bits.h>.
 *
 *   header   a C enum per schema enum; a struct per schema struct and
 *            per packet type; the packet as a type tag and a union; the
 *            framing; the function prototypes; the visit types
 *   source   one serialize function per struct and packet type, written
 *            once for read, write and measure with libbitsift's serialize
 *            macros (the mode is a constant in each caller, so the
 *            compiler keeps one direction per caller); <name>_read,
 *            <name>_write and <name>_measure for whole packets; and
 *            <name>_visit, the values of a packet field by field
 *
 * This is one more walker of the compiled ops. What a field is comes from
 * the field-type table: the macro is bitsift_serialize_named(..., kind,
 * ...) with the row's keyword as `kind`, its parameters are printed by
 * the row's params column, its C type follows the row's value kind. Only
 * what C needs beyond that is here: member types, loops, conditions.
 *
 * Every name that reaches the output is a schema identifier (letters,
 * digits, '_'), renamed when it is a C or C++ keyword or when it would
 * take a struct member's name twice ("member names"), refused when two
 * would be one name at file scope ("file-scope names"); every string is
 * written as an escaped literal (c_string): nothing in a schema can end a
 * comment or a string and add code of its own. Floats are written as
 * exact hexadecimal literals, and all float arithmetic stays inside
 * libbitsift, so the generated code gives the same bits whatever the
 * compiler's floating-point settings.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "bitsift/gen.h"
#include "gen_c_names.h"
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

static bool refuse(struct cgen *g, bitsift_error e, const char *fmt, ...)
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
static size_t c_name(char *buf, size_t size, const char *name)
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

static void put_name(FILE *out, const char *name)
{
    char buf[80];
    c_name(buf, sizeof buf, name);
    fputs(buf, out);
}

/* A string as a C literal: printable ASCII as is except quotes, '\\',
 * '?' (trigraphs) and '*' '/' pairs, everything else as octal. */
static void c_string(FILE *out, const char *text)
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

static void c_int(FILE *out, int64_t v)
{
    if (v == INT64_MIN)
        fputs("(-INT64_C(9223372036854775807) - 1)", out);
    else
        fprintf(out, "INT64_C(%" PRId64 ")", v);
}

/* A float32 as an exact hexadecimal literal (C99, C++17). */
static void c_float(FILE *out, float f)
{
    fprintf(out, "%af", (double)f);
}

/* ---- comments carried over ------------------------------------------------ */

/*
 * With the schema's text (options->schema_text), the '#' comments right
 * above a declaration or field, and the one after a field on its line,
 * go into the header. They are untrusted text inside a C comment: only
 * printable ASCII is kept (anything else becomes '?'), and a space splits
 * every "*" "/" and "/" "*" pair and every "??" (trigraphs), so that no
 * comment can end the C comment, open a nested one or splice a line.
 */
#define COMMENT_MAX_LINE  160 /* bytes of one comment line kept */
#define COMMENT_MAX_LINES 24  /* lines of one comment block kept */

static void indent(FILE *out, unsigned n);

static void comment_text(FILE *out, const char *t, size_t a, size_t b)
{
    while (a < b && (t[a] == ' ' || t[a] == '\t'))
        a++;
    while (b > a && (t[b - 1] == ' ' || t[b - 1] == '\t' || t[b - 1] == '\r'))
        b--;
    if (b - a > COMMENT_MAX_LINE)
        b = a + COMMENT_MAX_LINE;
    char last = ' ';
    for (size_t k = a; k < b; k++) {
        char c = t[k] >= 0x20 && t[k] < 0x7f ? t[k] : '?';
        if ((last == '*' && c == '/') || (last == '/' && c == '*') || (last == '?' && c == '?'))
            fputc(' ', out);
        fputc(c, out);
        last = c;
    }
}

/* The start of the line that holds offset `at`. */
static size_t line_start(const struct cgen *g, size_t at)
{
    while (at > 0 && g->text[at - 1] != '\n')
        at--;
    return at;
}

/* The '#' comment lines right above the line that holds `at`, when `at`
 * starts its line (blanks aside), each written as its own C comment line. */
static void leading_comments(struct cgen *g, size_t at, unsigned ind)
{
    if (!g->text || at > g->text_size)
        return;
    size_t ls = line_start(g, at);
    for (size_t k = ls; k < at; k++)
        if (g->text[k] != ' ' && g->text[k] != '\t')
            return; /* something else before it on its line */
    size_t first = ls, lines = 0;
    while (first > 0 && lines < COMMENT_MAX_LINES) {
        size_t prev = line_start(g, first - 1), k = prev;
        while (k < first - 1 && (g->text[k] == ' ' || g->text[k] == '\t'))
            k++;
        if (k >= first - 1 || g->text[k] != '#')
            break;
        first = prev;
        lines++;
    }
    if (!lines)
        return;
    indent(g->out, ind);
    fputs(lines == 1 ? "/* " : "/*\n", g->out);
    for (size_t pos = first; pos < ls;) {
        size_t end = pos;
        while (end < ls && g->text[end] != '\n')
            end++;
        size_t k = pos;
        while (k < end && g->text[k] != '#')
            k++;
        if (lines > 1) {
            indent(g->out, ind);
            fputs(" *", g->out);
            if (k + 1 < end)
                fputc(' ', g->out);
        }
        comment_text(g->out, g->text, k + 1, end);
        fputs(lines == 1 ? " */\n" : "\n", g->out);
        pos = end + 1;
    }
    if (lines > 1) {
        indent(g->out, ind);
        fputs(" */\n", g->out);
    }
}

/* The '#' comment after offset `end` on its line (blanks between): its
 * text in [*a, *b). */
static bool trailing_comment(const struct cgen *g, size_t end, size_t *a, size_t *b)
{
    if (!g->text || end > g->text_size)
        return false;
    size_t k = end;
    while (k < g->text_size && (g->text[k] == ' ' || g->text[k] == '\t'))
        k++;
    if (k >= g->text_size || g->text[k] != '#')
        return false;
    *a = k + 1;
    *b = k + 1;
    bool words = false;
    while (*b < g->text_size && g->text[*b] != '\n')
        words |= g->text[(*b)++] > ' ';
    return words; /* not a '#' alone */
}

/* Where a field's statement is written, when known. */
static const bitsift_field_source *field_src(const struct cgen *g, const struct schema_op *op)
{
    if (!g->text || op->field < 0 || (uint32_t)op->field >= g->s->field_count ||
        !g->s->fields[op->field].has_src)
        return NULL;
    const bitsift_field_source *src = &g->s->fields[op->field].src;
    return src->end > src->start && src->end <= g->text_size ? src : NULL;
}

/* The start of the line holding the '{' that opens the body at `body`. */
static size_t declaration_line(const struct cgen *g, size_t body)
{
    if (!g->text || body > g->text_size)
        return SIZE_MAX;
    while (body > 0 && g->text[body - 1] != '{')
        body--;
    return body > 0 ? line_start(g, body - 1) : SIZE_MAX;
}

/* ---- types ---------------------------------------------------------------- */

static const char *field_type_name(const struct cgen *g, const struct schema_op *op)
{
    return op->field >= 0 ? g->s->fields[op->field].type_name : NULL;
}

static bool is_composite(const struct schema_op *op)
{
    return op->code == OP_STRUCT &&
           (op->type == BITSIFT_FIELD_VECTOR || op->type == BITSIFT_FIELD_QUATERNION);
}

/* The C type of a leaf's value, from the row's value kind; NULL for a
 * leaf that keeps none (align, check). `dims` gets an array bound for
 * bytes and strings. */
static const char *leaf_ctype(const struct schema_op *op, uint32_t *dims, uint64_t *bytes)
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

static struct c_type *find_type(struct cgen *g, const char *name, bool packet)
{
    for (size_t i = 0; i < g->ntypes; i++)
        if (g->types[i].packet == packet && strcmp(g->types[i].name, name) == 0)
            return &g->types[i];
    return NULL;
}

static bool collect_types(struct cgen *g, uint32_t first, uint32_t end, unsigned depth);

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

static bool has_member(const struct schema_op *op)
{
    uint32_t dims;
    uint64_t bytes;
    return op->code == OP_ARRAY || op->code == OP_STRUCT || leaf_ctype(op, &dims, &bytes);
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
            c_name(buf, sizeof buf, op->name);
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
static bool name_all_members(struct cgen *g)
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

/* Add the struct type of ops[i] after the types it uses. */
static bool add_type(struct cgen *g, const char *name, uint32_t first, uint32_t end, bool packet,
                     unsigned depth)
{
    if (find_type(g, name, packet))
        return true;
    if (depth > GEN_C_MAX_DEPTH)
        return refuse(g, BITSIFT_E_LIMIT, "struct '%s' nests too deep", name);
    if (!collect_types(g, first, end, depth + 1))
        return false;
    struct c_type *t = &g->types[g->ntypes++];
    t->name = name;
    t->first = first;
    t->end = end;
    t->packet = packet;
    t->bytes = 0;
    return true;
}

static bool collect_types(struct cgen *g, uint32_t first, uint32_t end, unsigned depth)
{
    const struct schema_op *ops = g->s->ops;
    for (uint32_t i = first; i < end; i++) {
        const struct schema_op *op = &ops[i];
        if (op->code == OP_STRUCT && !is_composite(op)) {
            const char *tn = field_type_name(g, op);
            if (!tn)
                return refuse(g, BITSIFT_E_SCHEMA, "field '%s': struct without a type name",
                              op->name);
            if (!add_type(g, tn, i + 1, op->end, false, depth))
                return false;
            i = op->end - 1;
        }
    }
    return true;
}

/* The C member(s) of the ops [first, end), flattened through ifs. */
static bool members(struct cgen *g, uint32_t first, uint32_t end, const char *where,
                    uint64_t *bytes)
{
    const struct schema_op *ops = g->s->ops;
    FILE *out = g->out;
    for (uint32_t i = first; i < end; i++) {
        const struct schema_op *op = &ops[i];
        if (op->code == OP_IF)
            continue; /* both branches' fields are members; a comment says when */
        uint64_t count = 1, size = 0;
        const struct schema_op *elem = op;
        bool array = op->code == OP_ARRAY;
        const bitsift_field_source *src = has_member(op) ? field_src(g, op) : NULL;
        size_t note_a = 0, note_b = 0;
        bool note = src && trailing_comment(g, src->end, &note_a, &note_b);
        if (src)
            leading_comments(g, src->start, 1);
        if (array) {
            elem = &ops[i + 1];
            count = (uint64_t)op->max;
            if (op->array_kind == ARRAY_INLINE) {
                fprintf(out, "    int64_t %s;\n", g->count_name[i]);
                size += 8;
            } else if (op->array_kind >= ARRAY_FLAGS) {
                fprintf(out, "    bool %s[%" PRIu64 "];\n", g->present_name[i], count);
                size += count;
            }
        }
        char spelling[96] = "";
        uint32_t dims = 0, comps = 0;
        const char *ctype;
        uint64_t one = 0;
        if (elem->code == OP_STRUCT && !is_composite(elem)) {
            const struct c_type *t = find_type(g, field_type_name(g, elem), false);
            fputs("    struct ", out);
            fputs(g->prefix, out);
            fputc('_', out);
            put_name(out, t->name);
            fputc(' ', out);
            one = t->bytes;
            ctype = "";
            snprintf(spelling, sizeof spelling, "%s", "");
        } else {
            const struct schema_op *leaf = elem;
            if (is_composite(elem)) {
                leaf = &ops[(elem - ops) + 1];
                comps = elem->end - (uint32_t)(elem - ops) - 1;
            }
            ctype = leaf_ctype(leaf, &dims, &one);
            if (!ctype)
                goto next; /* align, check: nothing to keep */
            field_spelling(g->s, leaf, spelling, sizeof spelling);
            fprintf(out, "    %s ", ctype);
            if (comps)
                one *= comps;
            if (dims)
                one = dims;
        }
        fputs(g->cname[i] ? g->cname[i] : "empty_", out);
        if (array)
            fprintf(out, "[%" PRIu64 "]", count);
        if (comps)
            fprintf(out, "[%u]", comps);
        if (dims)
            fprintf(out, "[%u]", dims);
        fputc(';', out);
        if (spelling[0] || note) {
            /* The spelling is made of keywords, numbers and identifiers;
             * written as a C string's contents anyway, so that no text
             * could end the comment. */
            fputs(" /* ", out);
            for (const char *p = spelling; *p; p++)
                fputc(*p == '*' || *p == '/' ? '_' : *p, out);
            if (comps)
                fprintf(out, " x %u", comps);
            if (note) {
                fputs(spelling[0] ? ": " : "", out);
                comment_text(out, g->text, note_a, note_b);
            }
            fputs(" */", out);
        }
        fputc('\n', out);
        size = sat_add(size, sat_mul(one, count));
        *bytes = sat_add(*bytes, size);
        if (*bytes > g->max_bytes)
            return refuse(g, BITSIFT_E_LIMIT,
                          "%s.%s: the C struct would take %" PRIu64
                          " bytes or more, above the limit of %" PRIu64 " bytes",
                          where, op->name, *bytes, g->max_bytes);
    next:
        if (array || op->code == OP_STRUCT)
            i = op->end - 1;
    }
    return true;
}

/* Where a struct's or packet's declaration starts in the schema text
 * (SIZE_MAX when unknown). */
static size_t type_declaration(const struct cgen *g, const struct c_type *t)
{
    const bitsift_schema *s = g->s;
    if (t->packet) {
        for (uint32_t p = 0; p < s->packet_count; p++)
            if (strcmp(s->packets[p].name, t->name) == 0 && s->packets[p].field >= 0) {
                const struct schema_op root = {.field = s->packets[p].field};
                const bitsift_field_source *src = field_src(g, &root);
                return src ? src->start : SIZE_MAX;
            }
        return SIZE_MAX;
    }
    const bitsift_field_source *src = t->first > 0 ? field_src(g, &s->ops[t->first - 1]) : NULL;
    return src && src->body_end > src->body_start ? declaration_line(g, src->body_start)
                                                  : SIZE_MAX;
}

static bool emit_types(struct cgen *g)
{
    FILE *out = g->out;
    for (size_t i = 0; i < g->ntypes; i++) {
        struct c_type *t = &g->types[i];
        fputc('\n', out);
        leading_comments(g, type_declaration(g, t), 0);
        fprintf(out, "/* %s ", t->packet ? "packet" : "struct");
        put_name(out, t->name);
        fputs(" */\nstruct ", out);
        fputs(g->prefix, out);
        fputc('_', out);
        put_name(out, t->name);
        fputs(" {\n", out);
        uint64_t bytes = 0;
        if (t->first == t->end) {
            fputs("    char empty_; /* no fields: C needs a member */\n", out);
            bytes = 1;
        }
        if (!members(g, t->first, t->end, t->name, &bytes))
            return false;
        fputs("};\n", out);
        t->bytes = bytes;
    }
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
 * schema adds (tests/gen-c-own-names.sh finds them in its output).
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
    c_name(pb, sizeof pb, a);
    if (b)
        c_name(pc, sizeof pc, b);
    snprintf(c, sizeof c, "%s%s%s%s%s", raw ? "" : g->prefix, raw ? "" : "_", pb, b ? "_" : "", pc);
    global_push(gl, c, what_kind, what_name);
}

static int global_order(const void *a, const void *b)
{
    return strcmp(((const struct global_name *)a)->c, ((const struct global_name *)b)->c);
}

/* Whether enum `en` is a C enum (else #define'd int64_t constants): its
 * constants are ints (C99), so an enum with a value outside int's range,
 * or with no value (C has no empty enum), cannot be one. */
static bool enum_is_c_enum(const bitsift_schema *s, const struct schema_enum *en)
{
    bool as_enum = en->count > 0;
    for (uint32_t k = 0; k < en->count; k++) {
        int64_t v = s->enum_values[en->first + k].value;
        if (v < INT32_MIN || v > INT32_MAX)
            as_enum = false;
    }
    return as_enum;
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

static bool check_global_names(struct cgen *g)
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

static void emit_enums(struct cgen *g)
{
    const bitsift_schema *s = g->s;
    FILE *out = g->out;
    for (uint32_t e = 0; e < s->enum_count; e++) {
        const struct schema_enum *en = &s->enums[e];
        /* A C enum names the values, when it can (enum_is_c_enum); else
         * int64_t constants. Fields keep int64_t either way: any value
         * read fits before it is checked. */
        bool as_enum = enum_is_c_enum(s, en);
        fputc('\n', out);
        if (en->items_end > en->items_start)
            leading_comments(g, declaration_line(g, en->items_start), 0);
        fputs("/* enum ", out);
        put_name(out, en->name);
        fprintf(out, ": int(%" PRId64 ", %" PRId64 ") on the wire; fields of it are int64_t%s */\n",
                en->min, en->max, as_enum ? "" : ", its values int64_t constants");
        if (as_enum) {
            fputs("enum ", out);
            fputs(g->prefix, out);
            fputc('_', out);
            put_name(out, en->name);
            fputs(" {\n", out);
        }
        for (uint32_t k = 0; k < en->count; k++) {
            const struct schema_enum_value *v = &s->enum_values[en->first + k];
            fputs(as_enum ? "    " : "#define ", out);
            fputs(g->prefix, out);
            fputc('_', out);
            put_name(out, en->name);
            fputc('_', out);
            put_name(out, v->name);
            if (as_enum) {
                if (v->value == INT32_MIN)
                    fputs(" = -2147483647 - 1", out);
                else
                    fprintf(out, " = %" PRId64, v->value);
                fputs(k + 1 < en->count ? ",\n" : "\n", out);
            } else {
                fputc(' ', out);
                c_int(out, v->value);
                fputc('\n', out);
            }
        }
        if (as_enum)
            fputs("};\n", out);
    }
}

/* ---- serialize functions ---------------------------------------------------- */

static void indent(FILE *out, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        fputs("    ", out);
}

/* Member paths of the ops a body can refer to (not inside arrays). */
static void assign_members(struct cgen *g, uint32_t first, uint32_t end, const char *prefix)
{
    const struct schema_op *ops = g->s->ops;
    for (uint32_t i = first; i < end; i++) {
        const struct schema_op *op = &ops[i];
        if (op->slot >= 0 && (uint32_t)op->slot < SCHEMA_MAX_SLOTS)
            g->slot_op[op->slot] = (int32_t)i;
        if (op->code == OP_IF)
            continue;
        size_t n = strlen(prefix) + 80 + (g->cname[i] ? strlen(g->cname[i]) : 0);
        char *m = malloc(n);
        if (m) {
            memcpy(m, prefix, strlen(prefix));
            if (g->cname[i])
                strcpy(m + strlen(prefix), g->cname[i]);
            else
                c_name(m + strlen(prefix), 80, op->name);
        }
        free(g->member[i]);
        g->member[i] = m;
        if (op->code == OP_STRUCT && !is_composite(op) && m) {
            char *p = malloc(strlen(m) + 2);
            if (p) {
                sprintf(p, "%s.", m);
                assign_members(g, i + 1, op->end, p);
                free(p);
            }
            i = op->end - 1;
        } else if (op->code == OP_ARRAY || op->code == OP_STRUCT) {
            i = op->end - 1;
        }
    }
}

/* The value an op keeps, as an int64_t C expression. */
static bool slot_expr(struct cgen *g, int64_t slot, FILE *out)
{
    if (slot < 0 || slot >= SCHEMA_MAX_SLOTS || g->slot_op[slot] < 0 ||
        !g->member[g->slot_op[slot]])
        return refuse(g, BITSIFT_E_SCHEMA, "a reference the C generator cannot follow");
    fprintf(out, "((int64_t)v->%s)", g->member[g->slot_op[slot]]);
    return true;
}

/* An if's condition from its postfix expression. */
static bool condition(struct cgen *g, const struct schema_op *op)
{
    const bitsift_schema *s = g->s;
    char *stack[SCHEMA_MAX_EXPR];
    size_t sizes[SCHEMA_MAX_EXPR];
    unsigned n = 0;
    bool ok = true;
    for (uint32_t k = 0; k < op->expr_count && ok; k++) {
        const struct expr_item *x = &s->expr[op->expr_first + k];
        char *text = NULL;
        size_t size = 0;
        FILE *f = open_memstream(&text, &size);
        if (!f) {
            ok = refuse(g, BITSIFT_E_NOMEM, "out of memory");
            break;
        }
        static const char *const ops2[] = {[EXPR_EQ] = "==", [EXPR_NE] = "!=", [EXPR_LT] = "<",
                                           [EXPR_LE] = "<=", [EXPR_GT] = ">", [EXPR_GE] = ">=",
                                           [EXPR_AND] = "&&", [EXPR_OR] = "||"};
        switch (x->code) {
        case EXPR_CONST:
            c_int(f, x->value);
            break;
        case EXPR_SLOT:
            ok = slot_expr(g, x->value, f);
            break;
        case EXPR_NOT:
            if (n < 1) {
                ok = false;
                break;
            }
            fprintf(f, "(int64_t)!(%s)", stack[n - 1]);
            free(stack[--n]);
            break;
        default:
            if (n < 2) {
                ok = false;
                break;
            }
            fprintf(f, "(int64_t)(%s %s %s)", stack[n - 2], ops2[x->code], stack[n - 1]);
            free(stack[--n]);
            free(stack[--n]);
            break;
        }
        fclose(f);
        if (!ok || n == SCHEMA_MAX_EXPR) {
            free(text);
            ok = false;
            break;
        }
        stack[n] = text;
        sizes[n++] = size;
    }
    if (ok && n == 1)
        fprintf(g->out, "%s", stack[0]);
    else
        ok = refuse(g, BITSIFT_E_SCHEMA, "field '%s': a condition the C generator cannot write",
                    op->name ? op->name : "if");
    while (n)
        free(stack[--n]);
    (void)sizes;
    return ok;
}

/* The serialize macro kind of a leaf: the row's keyword; a compressed
 * float takes its precomputed form. */
static const char *kind_name(const struct schema_op *op)
{
    return field_params_of((enum op_code)op->code) == PARAMS_CFLOAT
               ? "compressed_float_steps"
               : field_keyword((enum op_code)op->code);
}

static bool takes_base(const struct schema_op *op)
{
    return op->code == OP_INT_REL || op->code == OP_OBJ_INDEX || op->code == OP_SEQ_REL ||
           op->code == OP_ACK_REL;
}

/* A relative field's base as an int64_t expression. For previous(init):
 * `prev_cond` says whether there is a previous element and `prev_value`
 * is this field in it. */
static bool base_expr(struct cgen *g, const struct schema_op *op, const char *prev_cond,
                      const char *prev_value)
{
    FILE *out = g->out;
    switch ((enum base_kind)op->base_kind) {
    case BASE_CONST:
        c_int(out, op->base);
        return true;
    case BASE_SLOT:
        return slot_expr(g, op->base_slot, out);
    case BASE_PREVIOUS:
        if (prev_cond && prev_value) {
            fprintf(out, "(%s ? (int64_t)%s : ", prev_cond, prev_value);
            c_int(out, op->base);
            fputc(')', out);
        } else {
            c_int(out, op->base);
        }
        return true;
    }
    return false;
}

/* The parameters of a leaf, from the row's params column; a relative
 * field's base is the local `base`. */
static void leaf_params(struct cgen *g, const struct schema_op *op)
{
    FILE *out = g->out;
    fputc('(', out);
    switch (field_params_of((enum op_code)op->code)) {
    case PARAMS_WIDTH:
        fprintf(out, "%uu", op->width);
        break;
    case PARAMS_RANGE:
    case PARAMS_ENUM:
        c_int(out, op->min);
        fputs(", ", out);
        c_int(out, op->max);
        break;
    case PARAMS_CFLOAT:
        /* The step count and width as the schema compiled them: the
         * reader does no division per value (kind_name adds "_steps"). */
        c_float(out, op->fmin);
        fputs(", ", out);
        c_float(out, op->fmax);
        fprintf(out, ", %" PRIu32 "u, %uu", op->steps, op->width);
        break;
    case PARAMS_MAX_OBJECTS:
        fprintf(out, "(int32_t)base, %" PRId32, op->max_objects);
        break;
    case PARAMS_CHECK:
        break;
    case PARAMS_NONE:
        if (takes_base(op))
            fputs(op->code == OP_SEQ_REL || op->code == OP_ACK_REL ? "(uint16_t)base"
                                                                    : "(int32_t)base",
                  out);
        break;
    }
    fputc(')', out);
}

/* " || bitsift__serialize_failed_in(stream, mode, "array", index)": an
 * element's refusal adds its index to the path. */
static void element_suffix(struct cgen *g, const char *array, const char *index)
{
    if (!array)
        return;
    fputs(" || bitsift__serialize_failed_in(stream, mode, ", g->out);
    c_string(g->out, array);
    fprintf(g->out, ", %s)", index);
}

/* A leaf at lvalue `lv`; an element of `array` at `index` when array is
 * not NULL. prev_cond, prev_value: see base_expr. */
static bool emit_leaf(struct cgen *g, const struct schema_op *op, const char *lv, const char *array,
                      const char *index, const char *prev_cond, const char *prev_value,
                      unsigned ind)
{
    FILE *out = g->out;
    const bitsift_schema *s = g->s;
    bool checked = op->code == OP_ENUM || op->allowed_count;
    bool based = takes_base(op);
    const char *name = array ? "" : op->name;
    if (op->code == OP_CHECK || op->code == OP_ALIGN) {
        indent(out, ind);
        fputs("bitsift_serialize_named(stream, mode, ", out);
        c_string(out, name);
        if (op->code == OP_CHECK)
            fprintf(out, ", check, 0x%08" PRIx32 "u, ());\n", op->check);
        else
            fputs(", align, 0, ());\n", out);
        return true;
    }
    if (checked || based) {
        indent(out, ind);
        fputs("{\n", out);
        ind++;
    }
    if (checked || (based && op->base_kind != BASE_CONST)) {
        indent(out, ind);
        fputs("const uint64_t at = bitsift_serialize_bit(stream, mode);\n", out);
    }
    if (based) {
        bool u16 = op->code == OP_SEQ_REL || op->code == OP_ACK_REL;
        indent(out, ind);
        fputs("const int64_t base = ", out);
        if (!base_expr(g, op, prev_cond, prev_value))
            return false;
        fputs(";\n", out);
        if (op->base_kind != BASE_CONST) {
            /* The decoder refuses a base its field cannot be relative to. */
            indent(out, ind);
            fprintf(out, "if (base < %s || base > %s)\n", u16 ? "0" : "INT32_MIN",
                    u16 ? "65535" : "INT32_MAX");
            indent(out, ind + 1);
            fputs("return bitsift_serialize_refuse(stream, mode, ", out);
            c_string(out, name);
            fprintf(out, ", at, \"relative base out of range\", %s, (uint64_t)base)",
                    u16 ? "65535u" : "(uint64_t)INT32_MAX");
            element_suffix(g, array, index);
            fputs(";\n", out);
        }
    }
    indent(out, ind);
    if (array) {
        fputs("bitsift_serialize_element(stream, mode, ", out);
        c_string(out, array);
        fprintf(out, ", %s, %s, %s, ", index, lv, kind_name(op));
    } else {
        fputs("bitsift_serialize_named(stream, mode, ", out);
        c_string(out, name);
        fprintf(out, ", %s, %s, ", kind_name(op), lv);
    }
    leaf_params(g, op);
    fputs(");\n", out);
    if (op->code == OP_ENUM) {
        const struct schema_enum *en = &s->enums[op->enum_id];
        indent(out, ind);
        fputs("if (!(", out);
        if (en->dense) {
            fprintf(out, "%s >= ", lv);
            c_int(out, s->enum_values[en->first].value);
            fprintf(out, " && %s <= ", lv);
            c_int(out, s->enum_values[en->first + en->count - 1].value);
        } else {
            for (uint32_t k = 0; k < en->count; k++) {
                fprintf(out, "%s%s == ", k ? " || " : "", lv);
                c_int(out, s->enum_values[en->first + k].value);
            }
        }
        if (!en->count)
            fputs("0", out);
        fputs("))\n", out);
        indent(out, ind + 1);
        fputs("return bitsift_serialize_refuse(stream, mode, ", out);
        c_string(out, name);
        fprintf(out,
                ", at, \"value has no name in its enum\", %" PRIu64
                "u, (uint64_t)%s - %" PRIu64 "u)",
                (uint64_t)op->max - (uint64_t)op->min, lv, (uint64_t)op->min);
        element_suffix(g, array, index);
        fputs(";\n", out);
    }
    if (op->allowed_count) {
        indent(out, ind);
        fputs("if (!(", out);
        for (uint32_t k = 0; k < op->allowed_count; k++) {
            fprintf(out, "%s(int64_t)%s == ", k ? " || " : "", lv);
            c_int(out, s->allowed[op->allowed_first + k]);
        }
        fputs("))\n", out);
        indent(out, ind + 1);
        fputs("return bitsift_serialize_refuse(stream, mode, ", out);
        c_string(out, name);
        fprintf(out, ", at, \"value not allowed by the schema\", %" PRIu64 "u, (uint64_t)%s)",
                (uint64_t)s->allowed[op->allowed_first], lv);
        element_suffix(g, array, index);
        fputs(";\n", out);
    }
    if (checked || based) {
        ind--;
        indent(out, ind);
        fputs("}\n", out);
    }
    return true;
}

static bool emit_body(struct cgen *g, uint32_t first, uint32_t end, bool has_prev, unsigned ind);

/* In READ mode, the fields of a branch not taken take their defaults,
 * as the decoder's slots do, so that later conditions, counts and bases
 * see the same values; a field sent relative to the previous element
 * keeps that element's value (the decoder's slot keeps the last value
 * sent), which the next element's base then is. */
static void emit_defaults(struct cgen *g, uint32_t first, uint32_t end, bool has_prev,
                          unsigned ind)
{
    const struct schema_op *ops = g->s->ops;
    bool any = false;
    for (uint32_t i = first; i < end; i++) {
        const struct schema_op *op = &ops[i];
        if (op->code == OP_ARRAY || (op->code == OP_STRUCT && is_composite(op))) {
            i = op->end - 1;
            continue;
        }
        if (op->slot < 0 || !g->member[i] || op->code == OP_IF || op->code == OP_STRUCT)
            continue;
        uint32_t dims;
        uint64_t bytes;
        const char *ctype = leaf_ctype(op, &dims, &bytes);
        if (!ctype || dims)
            continue;
        if (!any) {
            indent(g->out, ind);
            fputs("if (mode == BITSIFT_READ) {\n", g->out);
            any = true;
        }
        indent(g->out, ind + 1);
        fprintf(g->out, "v->%s = ", g->member[i]);
        if (op->base_kind == BASE_PREVIOUS && has_prev)
            fprintf(g->out, "prev ? prev->%s : ", g->member[i]);
        fprintf(g->out, "(%s)", ctype);
        c_int(g->out, op->base_kind == BASE_PREVIOUS ? op->base : op->absent_int);
        fputs(";\n", g->out);
    }
    if (any) {
        indent(g->out, ind);
        fputs("}\n", g->out);
    }
}

static bool emit_struct_call(struct cgen *g, const struct schema_op *op, const char *lv,
                             const char *prev_lv, const char *array, const char *index,
                             unsigned ind)
{
    FILE *out = g->out;
    indent(out, ind);
    fputs("bitsift_serialize_in(stream, mode, ", out);
    c_string(out, array ? array : op->name);
    fprintf(out, ", %s, ", array ? index : "-1");
    fputs(g->prefix, out);
    fputs("_serialize_", out);
    put_name(out, field_type_name(g, op));
    fprintf(out, "(stream, mode, &%s, %s));\n", lv, prev_lv);
    return true;
}

static bool emit_array(struct cgen *g, uint32_t i, unsigned ind)
{
    const struct schema_op *ops = g->s->ops, *op = &ops[i], *elem = &ops[i + 1];
    FILE *out = g->out;
    const char *m = g->member[i];
    unsigned k = ++g->loop;
    if (!m)
        return refuse(g, BITSIFT_E_NOMEM, "out of memory");
    if (is_composite(elem)) {
        const struct schema_op *comp = elem + 1;
        if (comp->code == OP_ENUM || comp->allowed_count || takes_base(comp))
            return refuse(g, BITSIFT_E_SCHEMA,
                          "field '%s': vectors of enums or constrained components are not "
                          "supported by gen c yet",
                          op->name);
    }
    indent(out, ind);
    fputs("{\n", out);
    ind++;
    bool sparse = op->array_kind >= ARRAY_FLAGS;
    static const char *const encodings[] = {
        [ARRAY_FLAGS] = "BITSIFT_SPARSE_FLAGS", [ARRAY_INDICES] = "BITSIFT_SPARSE_INDICES",
        [ARRAY_SENTINEL] = "BITSIFT_SPARSE_SENTINEL", [ARRAY_RELATIVE] = "BITSIFT_SPARSE_RELATIVE"};
    if (sparse) {
        indent(out, ind);
        fprintf(out, "bitsift_sparse it%u;\n", k);
        indent(out, ind);
        fprintf(out, "int64_t p%u = -1; /* the previous element */\n", k);
        indent(out, ind);
        fprintf(out, "bitsift_serialize_sparse_begin(stream, mode, it%u, ", k);
        c_string(out, op->name);
        fprintf(out, ", %s, v->%s, %" PRId64 ");\n", encodings[op->array_kind],
                g->present_name[i], op->max);
        indent(out, ind);
        fprintf(out, "while (bitsift_serialize_sparse_next(stream, mode, it%u)) {\n", k);
        indent(out, ind + 1);
        fprintf(out, "const int64_t k%u = it%u.index;\n", k, k);
    } else {
        indent(out, ind);
        fprintf(out, "int64_t n%u;\n", k);
        if (op->array_kind == ARRAY_FIXED) {
            indent(out, ind);
            fprintf(out, "n%u = %" PRId64 ";\n", k, op->max);
        } else if (op->array_kind == ARRAY_COUNTED) {
            indent(out, ind);
            fprintf(out, "n%u = ", k);
            if (!slot_expr(g, op->count_slot, out))
                return false;
            fputs(";\n", out);
            indent(out, ind);
            fprintf(out, "if (n%u < 0 || n%u > %" PRId64 ")\n", k, k, op->max);
            indent(out, ind + 1);
            fputs("return bitsift_serialize_refuse(stream, mode, ", out);
            c_string(out, op->name);
            fprintf(out,
                    ", bitsift_serialize_bit(stream, mode), \"count above the array's "
                    "maximum\", %" PRId64 "u, (uint64_t)n%u);\n",
                    op->max, k);
        } else {
            indent(out, ind);
            fputs("bitsift_serialize_named(stream, mode, ", out);
            c_string(out, op->name);
            fprintf(out, ", int, v->%s, (0, %" PRId64 "));\n", g->count_name[i], op->max);
            indent(out, ind);
            fprintf(out, "n%u = v->%s;\n", k, g->count_name[i]);
        }
        indent(out, ind);
        fprintf(out, "for (int64_t k%u = 0; k%u < n%u; k%u++) {\n", k, k, k, k);
        indent(out, ind + 1);
        fprintf(out, "const int64_t p%u = k%u - 1; /* the previous element */\n", k, k);
        indent(out, ind + 1);
        fprintf(out, "(void)p%u;\n", k);
    }
    char lv[256], prev_lv[320], prev_cond[32], prev_value[300], index[16];
    snprintf(lv, sizeof lv, "v->%s[k%u]", m, k);
    snprintf(index, sizeof index, "k%u", k);
    bool ok;
    if (is_composite(elem)) {
        const struct schema_op *comp = elem + 1;
        indent(out, ind + 1);
        fputs("bitsift_serialize_vector_element(stream, mode, ", out);
        c_string(out, op->name);
        fprintf(out, ", k%u, %u, %s, %s, ", k, elem->end - (uint32_t)(elem - ops) - 1, lv,
                kind_name(comp));
        leaf_params(g, comp);
        fputs(");\n", out);
        ok = true;
    } else if (elem->code == OP_STRUCT) {
        snprintf(prev_lv, sizeof prev_lv, "p%u >= 0 ? &v->%s[p%u] : NULL", k, m, k);
        ok = emit_struct_call(g, elem, lv, prev_lv, op->name, index, ind + 1);
    } else {
        snprintf(prev_cond, sizeof prev_cond, "p%u >= 0", k);
        snprintf(prev_value, sizeof prev_value, "v->%s[p%u]", m, k);
        ok = emit_leaf(g, elem, lv, op->name, index, prev_cond, prev_value, ind + 1);
    }
    if (!ok)
        return false;
    if (sparse) {
        indent(out, ind + 1);
        fprintf(out, "p%u = k%u;\n", k, k);
        indent(out, ind + 1);
        fprintf(out, "(void)p%u;\n", k);
    }
    indent(out, ind);
    fputs("}\n", out);
    if (sparse) {
        indent(out, ind);
        fprintf(out, "bitsift_serialize_sparse_end(stream, mode, it%u, ", k);
        c_string(out, op->name);
        fputs(");\n", out);
    }
    ind--;
    indent(out, ind);
    fputs("}\n", out);
    g->loop--;
    return true;
}

static bool emit_body(struct cgen *g, uint32_t first, uint32_t end, bool has_prev, unsigned ind)
{
    const struct schema_op *ops = g->s->ops;
    FILE *out = g->out;
    for (uint32_t i = first; i < end;) {
        const struct schema_op *op = &ops[i];
        if (op->code == OP_IF) {
            indent(out, ind);
            fputs("if (", out);
            if (!condition(g, op))
                return false;
            fputs(") {\n", out);
            if (!emit_body(g, i + 1, op->else_start, has_prev, ind + 1))
                return false;
            emit_defaults(g, op->else_start, op->end, has_prev, ind + 1);
            indent(out, ind);
            fputs("} else {\n", out);
            emit_defaults(g, i + 1, op->else_start, has_prev, ind + 1);
            if (!emit_body(g, op->else_start, op->end, has_prev, ind + 1))
                return false;
            indent(out, ind);
            fputs("}\n", out);
            i = op->end;
            continue;
        }
        const char *m = g->member[i];
        if (!m)
            return refuse(g, BITSIFT_E_NOMEM, "out of memory");
        char lv[300], prev_value[300], prev_lv[340];
        snprintf(lv, sizeof lv, "v->%s", m);
        snprintf(prev_value, sizeof prev_value, "prev->%s", m);
        if (op->code == OP_ARRAY) {
            if (!emit_array(g, i, ind))
                return false;
        } else if (op->code == OP_STRUCT && is_composite(op)) {
            const struct schema_op *comp = &ops[i + 1];
            if (comp->code == OP_ENUM || comp->allowed_count || takes_base(comp))
                return refuse(g, BITSIFT_E_SCHEMA,
                              "field '%s': vectors of enums or constrained components are not "
                              "supported by gen c yet",
                              op->name);
            indent(out, ind);
            fputs("bitsift_serialize_vector(stream, mode, ", out);
            c_string(out, op->name);
            fprintf(out, ", %u, %s, %s, ", op->end - i - 1, lv,
                    kind_name(comp));
            leaf_params(g, comp);
            fputs(");\n", out);
        } else if (op->code == OP_STRUCT) {
            snprintf(prev_lv, sizeof prev_lv, "%s%s%s", has_prev ? "prev ? &prev->" : "NULL",
                     has_prev ? m : "", has_prev ? " : NULL" : "");
            if (!emit_struct_call(g, op, lv, prev_lv, NULL, NULL, ind))
                return false;
        } else if (!emit_leaf(g, op, lv, NULL, NULL, has_prev ? "prev" : NULL,
                              has_prev ? prev_value : NULL, ind)) {
            return false;
        }
        i = op->code == OP_ARRAY || op->code == OP_STRUCT ? op->end : i + 1;
    }
    return true;
}

static void type_name(struct cgen *g, const struct c_type *t)
{
    fputs("struct ", g->out);
    fputs(g->prefix, g->out);
    fputc('_', g->out);
    put_name(g->out, t->name);
}

static void function_head(struct cgen *g, const struct c_type *t, bool definition)
{
    FILE *out = g->out;
    fputs("bool ", out);
    fputs(g->prefix, out);
    fputs("_serialize_", out);
    put_name(out, t->name);
    fprintf(out, "(void *stream, %sint mode, ", definition ? "const " : "");
    type_name(g, t);
    fputs(" *v", out);
    if (!t->packet) {
        fputs(", const ", out);
        type_name(g, t);
        fputs(" *prev", out);
    }
    fputc(')', out);
}

static bool emit_function(struct cgen *g, const struct c_type *t)
{
    FILE *out = g->out;
    for (uint32_t i = 0; i < g->s->op_count; i++) {
        free(g->member[i]);
        g->member[i] = NULL;
    }
    for (uint32_t i = 0; i < SCHEMA_MAX_SLOTS; i++)
        g->slot_op[i] = -1;
    assign_members(g, t->first, t->end, "");
    fprintf(out, "\n/* %s ", t->packet ? "packet" : "struct");
    put_name(out, t->name);
    fputs(": read, write or measure, by mode */\n", out);
    function_head(g, t, true);
    fputs("\n{\n", out);
    if (!t->packet)
        fputs("    (void)prev;\n", out);
    /* A type without fields uses none of its parameters. */
    fputs("    (void)stream;\n    (void)mode;\n    (void)v;\n", out);
    g->loop = 0;
    if (!emit_body(g, t->first, t->end, !t->packet, 1))
        return false;
    fputs("    return true;\n}\n", out);
    return true;
}

/* Why `name` cannot be the prefix of the generated names and files
 * (NAME.h, NAME_read, NAME_GENERATED_H), or NULL when it can: a C
 * identifier that starts with a letter (a name beginning with '_' is
 * reserved at file scope), is not a path, and leaves the library's name
 * space (bitsift_*, BITSIFT_*) to the library. */
static const char *gen_c_name_problem(const char *name)
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

static void emit_header(struct cgen *g)
{
    const bitsift_schema *s = g->s;
    FILE *out = g->out;
    const char *p = g->prefix;
    fputs("/* ", out);
    fputs(p, out);
    fputs(".h -- generated by `bitsift gen c` from protocol ", out);
    put_name(out, s->name);
    fputs(". Do not edit: change the\n * schema and generate again. Needs only <bitsift/bits.h> "
          "(libbitsift). */\n",
          out);
    if (g->text) {
        /* The comments above the protocol's declaration: the first line of
         * the text that is not a comment. */
        size_t at = 0;
        while (at < g->text_size) {
            size_t k = at;
            while (k < g->text_size && (g->text[k] == ' ' || g->text[k] == '\t'))
                k++;
            if (k >= g->text_size || g->text[k] != '#')
                break;
            while (k < g->text_size && g->text[k] != '\n')
                k++;
            at = k + 1;
        }
        if (at > 0 && at <= g->text_size)
            leading_comments(g, at, 0);
    }
    fputs("#ifndef ", out);
    for (const char *c = p; *c; c++)
        fputc(*c >= 'a' && *c <= 'z' ? *c - 'a' + 'A' : *c, out);
    fputs("_GENERATED_H\n#define ", out);
    for (const char *c = p; *c; c++)
        fputc(*c >= 'a' && *c <= 'z' ? *c - 'a' + 'A' : *c, out);
    fputs("_GENERATED_H\n\n#include <bitsift/bits.h>\n\n#ifdef __cplusplus\nextern \"C\" {\n"
          "#endif\n",
          out);
    emit_enums(g);
}

static void emit_visit_api(struct cgen *g);

static void emit_packet_api(struct cgen *g)
{
    const bitsift_schema *s = g->s;
    FILE *out = g->out;
    fputs("\n/* The packet types, numbered as on the wire. */\n", out);
    for (uint32_t t = 0; t < s->packet_count; t++) {
        fputs("#define ", out);
        fputs(g->prefix, out);
        fputs("_TYPE_", out);
        put_name(out, s->packets[t].name);
        fprintf(out, " %uu\n", t);
    }
    fputs("\n/* A packet of any type: `type` says which member of `as` holds it. */\nstruct ", out);
    fputs(g->prefix, out);
    fputs("_packet {\n    uint32_t type;\n    union {\n", out);
    for (uint32_t t = 0; t < s->packet_count; t++) {
        const struct c_type *ct = find_type(g, s->packets[t].name, true);
        fputs("        ", out);
        type_name(g, ct);
        fputc(' ', out);
        put_name(out, s->packets[t].name);
        fputs(";\n", out);
    }
    fputs("    } as;\n};\n\n/* CRC, type and end check of the protocol. */\nextern const "
          "bitsift_framing ",
          out);
    fputs(g->prefix, out);
    fputs("_framing;\n\n/* One function per struct and packet type serves all three "
          "directions:\n * BITSIFT_READ (stream is a bitsift_reader *), BITSIFT_WRITE and "
          "BITSIFT_MEASURE\n * (a bitsift_writer *). `prev` is the previous element of the "
          "enclosing\n * array (NULL for none), for fields sent relative to it. */\n",
          out);
    for (size_t i = 0; i < g->ntypes; i++) {
        function_head(g, &g->types[i], false);
        fputs(";\n", out);
    }
    const char *p = g->prefix;
    fputs("\n/* Read a framed packet (prefix, CRC, type, fields, end check). On failure\n"
          " * the reader's failure names the kind, bit and field path. */\nbool ",
          out);
    fputs(p, out);
    fputs("_read(bitsift_reader *r, struct ", out);
    fputs(p, out);
    fputs("_packet *packet);\n/* Write a sealed packet into the writer's buffer; *size gets its "
          "bytes. */\nbool ",
          out);
    fputs(p, out);
    fputs("_write(bitsift_writer *w, const struct ", out);
    fputs(p, out);
    fputs("_packet *packet, size_t *size);\n/* The packet's size in bits (whole bytes), 0 when "
          "it cannot be written. */\nuint64_t ",
          out);
    fputs(p, out);
    fputs("_measure(const struct ", out);
    fputs(p, out);
    fputs("_packet *packet);\n", out);
    emit_visit_api(g);
    fputs("\n#ifdef __cplusplus\n}\n#endif\n\n#endif\n", out);
}

static void emit_packet_functions(struct cgen *g)
{
    const bitsift_schema *s = g->s;
    const bitsift_framing *f = &s->framing;
    FILE *out = g->out;
    const char *p = g->prefix;
    fputs("\nconst bitsift_framing ", out);
    fputs(p, out);
    fprintf(out, "_framing = {0x%08" PRIx32 "u, %" PRIu32 "u, %s, %s, 0x%08" PRIx32 "u, %" PRIu32
                 "u};\n",
            f->protocol_id, f->num_types, f->crc ? "true" : "false",
            f->end_check ? "true" : "false", f->end_check_value, f->prefix_bytes);
    fputs("\nstatic bool serialize_packet(void *stream, const int mode, struct ", out);
    fputs(p, out);
    fputs("_packet *packet)\n{\n    switch (packet->type) {\n", out);
    for (uint32_t t = 0; t < s->packet_count; t++) {
        fprintf(out, "    case %uu:\n        return ", t);
        fputs(p, out);
        fputs("_serialize_", out);
        put_name(out, s->packets[t].name);
        fputs("(stream, mode, &packet->as.", out);
        put_name(out, s->packets[t].name);
        fputs(");\n", out);
    }
    fputs("    default:\n        return false;\n    }\n}\n\nbool ", out);
    fputs(p, out);
    fputs("_read(bitsift_reader *r, struct ", out);
    fputs(p, out);
    fputs("_packet *packet)\n{\n    uint32_t type;\n    if (!bitsift_packet_read_begin(r, &", out);
    fputs(p, out);
    fputs("_framing, &type)) {\n        /* Named as bitsift decode names the framing fields. */\n"
          "        const uint64_t bit = bitsift_reader_failure(r)->bit;\n"
          "        bitsift_reader_name_failure(r, ",
          out);
    if (f->prefix_bytes)
        fprintf(out, "bit < %" PRIu64 "u ? \"\" : ", (uint64_t)8 * f->prefix_bytes);
    if (f->crc)
        fprintf(out, "bit < %" PRIu64 "u ? \"crc\" : ", (uint64_t)8 * f->prefix_bytes + 32);
    fputs("\"type\");\n", out);
    if (!f->crc && !f->prefix_bytes)
        fputs("        (void)bit;\n", out);
    fputs("        return false;\n    }\n    packet->type = type;\n"
          "    if (!serialize_packet(r, BITSIFT_READ, packet))\n        return false;\n"
          "    if (!bitsift_packet_read_end(r, &",
          out);
    fputs(p, out);
    fputs("_framing)) {\n        r->failure.field = \"end_check\";\n"
          "        return false;\n    }\n    return true;\n}\n\nbool ",
          out);
    fputs(p, out);
    fputs("_write(bitsift_writer *w, const struct ", out);
    fputs(p, out);
    fputs("_packet *packet, size_t *size)\n{\n    if (packet->type >= ", out);
    fputs(p, out);
    fputs("_framing.num_types)\n        return bitsift_writer_fail(w, BITSIFT_E_VALUE, \"unknown "
          "packet type\", ",
          out);
    fputs(p, out);
    fputs("_framing.num_types - 1, packet->type);\n    return bitsift_packet_write_begin(w, &", out);
    fputs(p, out);
    fputs("_framing, NULL, packet->type) &&\n           serialize_packet(w, BITSIFT_WRITE, "
          "(struct ",
          out);
    fputs(p, out);
    fputs("_packet *)packet) &&\n           bitsift_packet_write_end(w, &", out);
    fputs(p, out);
    fputs("_framing, size);\n}\n\nuint64_t ", out);
    fputs(p, out);
    fputs("_measure(const struct ", out);
    fputs(p, out);
    fputs("_packet *packet)\n{\n    bitsift_writer m;\n    bitsift_writer_init_measure(&m);\n"
          "    if (packet->type >= ",
          out);
    fputs(p, out);
    fputs("_framing.num_types)\n        return 0;\n    return bitsift_packet_write_begin(&m, &",
          out);
    fputs(p, out);
    fputs("_framing, NULL, packet->type) &&\n                   serialize_packet(&m, "
          "BITSIFT_MEASURE, (struct ",
          out);
    fputs(p, out);
    fputs("_packet *)packet) &&\n                   bitsift_packet_write_end(&m, &", out);
    fputs(p, out);
    fputs("_framing, NULL)\n               ? m.bit_pos\n               : 0;\n}\n", out);
}

/* ---- visit functions -------------------------------------------------------- */

/*
 * <name>_visit(packet, fn, ctx) reports every field of a packet, in wire
 * order, as bitsift_decode's visitor sees it: the same paths
 * ("players[3].health"), the same type names and value kinds, an array's
 * element count before its elements, the fields of a branch not taken as
 * absent with their defaults, a smallest-three quaternion's largest
 * index and its four components (the rebuilt one flagged derived). The
 * values are copied out of the struct as they are: no arithmetic, so
 * what a game logs is what it read or is about to write.
 */

/* Written into the source before the visit functions, as far as they
 * need it (an unused static function would warn). */
struct visit_needs {
    bool leaf, path, text;
    bool *enum_names; /* per schema enum */
};

/* <name>_KIND_*, numbered as bitsift_value_kind. */
static const char *const visit_kinds[] = {"NONE",   "BOOL",  "UINT",   "INT", "FLOAT",
                                          "DOUBLE", "BYTES", "STRING", "ENUM"};

static void emit_visit_api(struct cgen *g)
{
    FILE *out = g->out;
    const char *p = g->prefix;
    fputs("\n/* What ", out);
    fputs(p, out);
    fputs("_visit reports for each field: `kind` says which member of\n"
          " * `value` holds it (numbered as bitsift_value_kind of <bitsift/schema.h>). */\nenum ",
          out);
    fputs(p, out);
    fputs("_kind {\n", out);
    for (size_t k = 0; k < sizeof visit_kinds / sizeof visit_kinds[0]; k++) {
        fputs("    ", out);
        fputs(p, out);
        fprintf(out, "_KIND_%s = %zu%s\n", visit_kinds[k], k,
                k + 1 < sizeof visit_kinds / sizeof visit_kinds[0] ? "," : "");
    }
    fputs("};\n#define ", out);
    fputs(p, out);
    fputs("_FIELD_ABSENT 0x1u  /* a branch not taken: the value is the default */\n#define ", out);
    fputs(p, out);
    fputs("_FIELD_DERIVED 0x2u /* not sent: smallest-three's largest component */\n\n"
          "/* One field; everything it points to lives during the call only. */\nstruct ",
          out);
    fputs(p, out);
    fputs("_field {\n"
          "    const char *path; /* \"players[3].health\", as bitsift decode names it */\n"
          "    const char *type; /* \"int\", \"compressed_float\", \"enum\", \"array\", ... */\n"
          "    int kind;         /* ",
          out);
    fputs(p, out);
    fputs("_KIND_*; NONE for an array's count, an align */\n"
          "    unsigned flags;   /* ",
          out);
    fputs(p, out);
    fputs("_FIELD_* */\n"
          "    union {\n        bool b;\n        uint64_t u;\n        int64_t i; /* INT, ENUM */\n"
          "        float f;\n        double d;\n    } value;\n"
          "    const void *data; /* BYTES, STRING (without its NUL) */\n    size_t size;\n"
          "    const char *name; /* ENUM: the value's name */\n"
          "    int64_t count;    /* an array: its elements (sparse: those present) */\n};\n\n"
          "/* Return false to stop the visit. */\ntypedef bool (*",
          out);
    fputs(p, out);
    fputs("_visitor)(void *ctx, const struct ", out);
    fputs(p, out);
    fputs("_field *field);\n\n/* Call fn for every field of the packet, in wire order, as "
          "bitsift_decode's\n * visitor would for the packet's bytes (framing aside). False "
          "when fn stopped\n * it or the type is unknown. Counts above an array's maximum are "
          "taken as\n * the maximum. */\nbool ",
          out);
    fputs(p, out);
    fputs("_visit(const struct ", out);
    fputs(p, out);
    fputs("_packet *packet, ", out);
    fputs(p, out);
    fputs("_visitor fn, void *ctx);\n", out);
}

/* The value of leaf `op` at lvalue `lv` into vs->f (kind, type aside). */
static void visit_value(struct cgen *g, struct visit_needs *need, const struct schema_op *op,
                        const char *lv, unsigned ind)
{
    FILE *out = g->out;
    indent(out, ind);
    switch (schema_value_kind(op)) {
    case BITSIFT_VALUE_BOOL:
        fprintf(out, "vs->f.value.b = %s;\n", lv);
        break;
    case BITSIFT_VALUE_UINT:
        if (op->code == OP_CHECK)
            fprintf(out, "vs->f.value.u = 0x%08" PRIx32 "u;\n", op->check);
        else
            fprintf(out, "vs->f.value.u = %s;\n", lv);
        break;
    case BITSIFT_VALUE_INT:
        fprintf(out, "vs->f.value.i = %s;\n", lv);
        break;
    case BITSIFT_VALUE_ENUM:
        fprintf(out, "vs->f.value.i = %s;\n", lv);
        indent(out, ind);
        fputs("vs->f.name = enum_name_", out);
        put_name(out, g->s->enums[op->enum_id].name);
        fprintf(out, "(%s);\n", lv);
        need->enum_names[op->enum_id] = true;
        break;
    case BITSIFT_VALUE_FLOAT:
        fprintf(out, "vs->f.value.f = %s;\n", lv);
        break;
    case BITSIFT_VALUE_DOUBLE:
        fprintf(out, "vs->f.value.d = %s;\n", lv);
        break;
    case BITSIFT_VALUE_BYTES:
        fprintf(out, "vs->f.data = %s;\n", lv);
        indent(out, ind);
        fprintf(out, "vs->f.size = %uu;\n", op->width);
        break;
    case BITSIFT_VALUE_STRING:
        fprintf(out, "vs->f.data = %s;\n", lv);
        indent(out, ind);
        fprintf(out, "vs->f.size = visit_text_size(%s, %uu);\n", lv, op->width);
        need->text = true;
        break;
    default:
        fputs("vs->f.value.u = 0;\n", out);
        break;
    }
}

/* "if (!visit_leaf(vs, NAME, INDEX, TYPE, KIND, FLAGS))\n return false;" */
static void visit_call(struct cgen *g, struct visit_needs *need, const char *name,
                       const char *index, const char *type, int kind, const char *flags,
                       unsigned ind)
{
    FILE *out = g->out;
    indent(out, ind);
    fputs("if (!visit_leaf(vs, ", out);
    c_string(out, name ? name : "");
    fprintf(out, ", %s, ", index ? index : "-1");
    c_string(out, type);
    fputs(", ", out);
    fputs(g->prefix, out);
    fprintf(out, "_KIND_%s, %s))\n", visit_kinds[kind], flags);
    indent(out, ind + 1);
    fputs("return false;\n", out);
    need->leaf = true;
}

static const char *op_type_name(const struct schema_op *op)
{
    return bitsift_field_type_name((bitsift_field_type)op->type);
}

/* A leaf that is not a container: a smallest-three's parts, or one
 * value. `name` NULL with `index` for an array element. */
static void visit_leaf_op(struct cgen *g, struct visit_needs *need, const struct schema_op *op,
                          const char *lv, const char *name, const char *index, unsigned ind)
{
    FILE *out = g->out;
    if (op->code == OP_SMALLEST3) {
        static const char *const comp[4] = {"x", "y", "z", "w"};
        indent(out, ind);
        fputs("{\n", out);
        indent(out, ind + 1);
        fputs("const size_t at = visit_path(vs, ", out);
        c_string(out, name ? name : "");
        fprintf(out, ", %s);\n", index ? index : "-1");
        indent(out, ind + 1);
        fprintf(out, "vs->f.value.u = %s.largest;\n", lv);
        visit_call(g, need, "largest", NULL, "bits", BITSIFT_VALUE_UINT, "0u", ind + 1);
        for (int k = 0; k < 4; k++) {
            indent(out, ind + 1);
            fprintf(out, "vs->f.value.f = %s.q[%d];\n", lv, k);
            char flags[512];
            snprintf(flags, sizeof flags, "%s.largest == %du ? %s_FIELD_DERIVED : 0u", lv, k,
                     g->prefix);
            visit_call(g, need, comp[k], NULL, "float", BITSIFT_VALUE_FLOAT, flags, ind + 1);
        }
        indent(out, ind + 1);
        fputs("visit_path_end(vs, at);\n", out);
        indent(out, ind);
        fputs("}\n", out);
        need->path = true;
        return;
    }
    visit_value(g, need, op, lv, ind);
    visit_call(g, need, name, index, op_type_name(op), (int)schema_value_kind(op), "0u", ind);
}

/* The leaves of a branch not taken, as the decoder reports them: absent,
 * with their defaults (containers and nested ifs are passed over). */
static void visit_absent(struct cgen *g, struct visit_needs *need, uint32_t first, uint32_t end,
                         unsigned ind)
{
    const struct schema_op *ops = g->s->ops;
    FILE *out = g->out;
    for (uint32_t i = first; i < end;) {
        const struct schema_op *op = &ops[i];
        if (op->visit >= VISIT_STRUCT) {
            i = op->end > i ? op->end : i + 1;
            continue;
        }
        i++;
        if (!op->visit_absent)
            continue;
        const bitsift_value *d = &op->absent;
        indent(out, ind);
        switch (d->kind) {
        case BITSIFT_VALUE_BOOL:
            fprintf(out, "vs->f.value.b = %s;\n", d->b ? "true" : "false");
            break;
        case BITSIFT_VALUE_UINT:
            fprintf(out, "vs->f.value.u = UINT64_C(%" PRIu64 ");\n", d->u);
            break;
        case BITSIFT_VALUE_INT:
        case BITSIFT_VALUE_ENUM:
            fputs("vs->f.value.i = ", out);
            c_int(out, d->i);
            fputs(";\n", out);
            if (d->kind == BITSIFT_VALUE_ENUM && d->name) {
                /* The default's name when the schema gave one, as the
                 * decoder's absent event has it. */
                indent(out, ind);
                fputs("vs->f.name = ", out);
                c_string(out, d->name);
                fputs(";\n", out);
            }
            break;
        case BITSIFT_VALUE_FLOAT:
            fputs("vs->f.value.f = ", out);
            c_float(out, d->f);
            fputs(";\n", out);
            break;
        case BITSIFT_VALUE_DOUBLE:
            fprintf(out, "vs->f.value.d = %a;\n", d->d);
            break;
        default:
            /* Bytes and strings take no default: no data, size 0, as
             * visit_leaf leaves them. */
            fputs("vs->f.value.u = 0;\n", out);
            break;
        }
        char flags[96];
        snprintf(flags, sizeof flags, "%s_FIELD_ABSENT", g->prefix);
        visit_call(g, need, op->name, NULL, op_type_name(op), (int)d->kind, flags, ind);
    }
}

/* The visit functions' writers return nothing: what they could refuse
 * (conditions, references) the serialize functions, written first,
 * refused already, and refuse() keeps the status anyway. */
static void visit_body(struct cgen *g, struct visit_needs *need, uint32_t first, uint32_t end,
                       unsigned ind);

/* A struct field (or array element) named `name`, the struct op at
 * `at_op`, held in `lv`: its path part pushed with `index` ("-1" for a
 * field), its members visited (a composite's components one by one, a
 * named type through its visit function), the path popped. */
static void visit_struct_field(struct cgen *g, struct visit_needs *need, const char *name,
                               uint32_t at_op, const char *lv, const char *index, unsigned ind)
{
    const struct schema_op *ops = g->s->ops, *st = &ops[at_op];
    FILE *out = g->out;
    indent(out, ind);
    fputs("const size_t at = visit_path(vs, ", out);
    c_string(out, name);
    fprintf(out, ", %s);\n", index);
    need->path = true;
    if (is_composite(st)) {
        for (uint32_t c = at_op + 1; c < st->end; c++) {
            char clv[320];
            snprintf(clv, sizeof clv, "%s[%u]", lv, c - at_op - 1);
            visit_leaf_op(g, need, &ops[c], clv, ops[c].name, NULL, ind);
        }
    } else {
        indent(out, ind);
        fputs("if (!visit_type_", out);
        put_name(out, field_type_name(g, st));
        fprintf(out, "(vs, &%s))\n", lv);
        indent(out, ind + 1);
        fputs("return false;\n", out);
    }
    indent(out, ind);
    fputs("visit_path_end(vs, at);\n", out);
}

static void visit_array(struct cgen *g, struct visit_needs *need, uint32_t i, unsigned ind)
{
    const struct schema_op *ops = g->s->ops, *op = &ops[i], *elem = &ops[i + 1];
    FILE *out = g->out;
    const char *m = g->member[i];
    unsigned k = ++g->loop;
    bool sparse = op->array_kind >= ARRAY_FLAGS;
    indent(out, ind);
    fputs("{\n", out);
    ind++;
    indent(out, ind);
    fprintf(out, "int64_t n%u = ", k);
    if (sparse) {
        fputs("0;\n", out);
        indent(out, ind);
        fprintf(out, "for (int64_t k%u = 0; k%u < %" PRId64 "; k%u++)\n", k, k, op->max, k);
        indent(out, ind + 1);
        fprintf(out, "n%u += v->%s[k%u];\n", k, g->present_name[i], k);
    } else if (op->array_kind == ARRAY_FIXED) {
        fprintf(out, "%" PRId64 ";\n", op->max);
    } else {
        if (op->array_kind == ARRAY_COUNTED)
            slot_expr(g, op->count_slot, out);
        else
            fprintf(out, "v->%s", g->count_name[i]);
        fputs(";\n", out);
        indent(out, ind);
        fprintf(out, "if (n%u < 0 || n%u > %" PRId64 ")\n", k, k, op->max);
        indent(out, ind + 1);
        fprintf(out, "n%u = n%u < 0 ? 0 : %" PRId64 ";\n", k, k, op->max);
    }
    indent(out, ind);
    fprintf(out, "vs->f.count = n%u;\n", k);
    visit_call(g, need, op->name, NULL, "array", BITSIFT_VALUE_NONE, "0u", ind);
    indent(out, ind);
    if (sparse) {
        fprintf(out, "for (int64_t k%u = 0; k%u < %" PRId64 "; k%u++) {\n", k, k, op->max, k);
        indent(out, ind + 1);
        fprintf(out, "if (!v->%s[k%u])\n", g->present_name[i], k);
        indent(out, ind + 2);
        fputs("continue;\n", out);
    } else {
        fprintf(out, "for (int64_t k%u = 0; k%u < n%u; k%u++) {\n", k, k, k, k);
    }
    char lv[300], index[16];
    snprintf(lv, sizeof lv, "v->%s[k%u]", m, k);
    snprintf(index, sizeof index, "k%u", k);
    if (elem->code == OP_STRUCT) {
        visit_struct_field(g, need, op->name, i + 1, lv, index, ind + 1);
    } else {
        visit_leaf_op(g, need, elem, lv, op->name, index, ind + 1);
    }
    indent(out, ind);
    fputs("}\n", out);
    ind--;
    indent(out, ind);
    fputs("}\n", out);
    g->loop--;
}

static void visit_body(struct cgen *g, struct visit_needs *need, uint32_t first, uint32_t end,
                       unsigned ind)
{
    const struct schema_op *ops = g->s->ops;
    FILE *out = g->out;
    for (uint32_t i = first; i < end;) {
        const struct schema_op *op = &ops[i];
        if (op->code == OP_IF) {
            indent(out, ind);
            fputs("if (", out);
            condition(g, op);
            fputs(") {\n", out);
            visit_absent(g, need, op->else_start, op->end, ind + 1);
            visit_body(g, need, i + 1, op->else_start, ind + 1);
            indent(out, ind);
            fputs("} else {\n", out);
            visit_absent(g, need, i + 1, op->else_start, ind + 1);
            visit_body(g, need, op->else_start, op->end, ind + 1);
            indent(out, ind);
            fputs("}\n", out);
            i = op->end;
            continue;
        }
        char lv[300];
        snprintf(lv, sizeof lv, "v->%s", g->member[i] ? g->member[i] : "");
        if (op->code == OP_ARRAY) {
            visit_array(g, need, i, ind);
        } else if (op->code == OP_STRUCT) {
            indent(out, ind);
            fputs("{\n", out);
            visit_struct_field(g, need, op->name, i, lv, "-1", ind + 1);
            indent(out, ind);
            fputs("}\n", out);
        } else {
            visit_leaf_op(g, need, op, lv, op->name, NULL, ind);
        }
        i = op->code == OP_ARRAY || op->code == OP_STRUCT ? op->end : i + 1;
    }
}

static void visit_function(struct cgen *g, struct visit_needs *need, const struct c_type *t)
{
    FILE *out = g->out;
    for (uint32_t i = 0; i < g->s->op_count; i++) {
        free(g->member[i]);
        g->member[i] = NULL;
    }
    for (uint32_t i = 0; i < SCHEMA_MAX_SLOTS; i++)
        g->slot_op[i] = -1;
    assign_members(g, t->first, t->end, "");
    fputs("\nstatic bool visit_type_", out);
    put_name(out, t->name);
    fputs("(struct visit *vs, const ", out);
    type_name(g, t);
    fputs(" *v)\n{\n    (void)vs;\n    (void)v;\n", out);
    g->loop = 0;
    visit_body(g, need, t->first, t->end, 1);
    fputs("    return true;\n}\n", out);
}

/* The helpers the visit functions use, then the functions (written to a
 * buffer first, to know which helpers they use). */
static bool emit_visit_functions(struct cgen *g)
{
    const bitsift_schema *s = g->s;
    FILE *source = g->out;
    struct visit_needs need;
    memset(&need, 0, sizeof need);
    need.enum_names = calloc((size_t)s->enum_count + 1, sizeof *need.enum_names);
    char *text = NULL;
    size_t size = 0;
    FILE *body = need.enum_names ? open_memstream(&text, &size) : NULL;
    if (!body) {
        free(need.enum_names);
        return refuse(g, BITSIFT_E_NOMEM, "out of memory");
    }
    g->out = body;
    for (size_t i = 0; i < g->ntypes; i++)
        visit_function(g, &need, &g->types[i]);
    fclose(body);
    g->out = source;
    if (g->status != BITSIFT_OK) {
        free(text);
        free(need.enum_names);
        return false;
    }
    const char *p = g->prefix;
    FILE *out = source;
    fputs("\n/* ---- ", out);
    fputs(p, out);
    fputs("_visit: the values of a packet, field by field ---- */\n\n"
          "struct visit {\n    ",
          out);
    fputs(p, out);
    fputs("_visitor fn;\n    void *ctx;\n    struct ", out);
    fputs(p, out);
    fputs("_field f;\n    size_t len;\n    char path[1024]; /* as bitsift decode's paths (BITSIFT_PATH_MAX) */\n};\n", out);
    if (need.leaf || need.path)
        fputs("\n/* Add \".name\" (\"name\" first) and \"[index]\" when index >= 0 to the path;\n"
              " * the path's length before, for visit_path_end. A path that would not\n"
              " * fit stops growing. */\n"
              "static size_t visit_path(struct visit *vs, const char *name, int64_t index)\n{\n"
              "    const size_t before = vs->len, room = sizeof vs->path - 1;\n"
              "    size_t n = before;\n"
              "    if (*name && n && n < room)\n        vs->path[n++] = '.';\n"
              "    while (*name && n < room)\n        vs->path[n++] = *name++;\n"
              "    if (index >= 0) {\n        char digits[24];\n        size_t d = 0;\n"
              "        uint64_t u = (uint64_t)index;\n"
              "        do {\n            digits[d++] = (char)('0' + u % 10u);\n"
              "            u /= 10u;\n        } while (u);\n"
              "        if (n + d + 2 <= room) {\n            vs->path[n++] = '[';\n"
              "            while (d)\n                vs->path[n++] = digits[--d];\n"
              "            vs->path[n++] = ']';\n        }\n    }\n"
              "    vs->path[n] = '\\0';\n    vs->len = n;\n    return before;\n}\n\n"
              "static void visit_path_end(struct visit *vs, size_t len)\n{\n"
              "    vs->len = len;\n    vs->path[len] = '\\0';\n}\n",
              out);
    if (need.leaf)
        fputs("\n/* Report the value in vs->f as `name` (`index` for an element), then\n"
              " * clear what the next field may not set. */\n"
              "static bool visit_leaf(struct visit *vs, const char *name, int64_t index,\n"
              "                       const char *type, int kind, unsigned flags)\n{\n"
              "    const size_t at = visit_path(vs, name, index);\n"
              "    vs->f.path = vs->path;\n    vs->f.type = type;\n    vs->f.kind = kind;\n"
              "    vs->f.flags = flags;\n    const bool go = vs->fn(vs->ctx, &vs->f);\n"
              "    visit_path_end(vs, at);\n    vs->f.data = NULL;\n    vs->f.size = 0;\n"
              "    vs->f.name = NULL;\n    vs->f.count = 0;\n    return go;\n}\n",
              out);
    if (need.text)
        fputs("\n/* A string member's length: up to its NUL, at most its buffer. */\n"
              "static size_t visit_text_size(const char *text, size_t bufsize)\n{\n"
              "    size_t n = 0;\n    while (n < bufsize && text[n])\n        n++;\n"
              "    return n;\n}\n",
              out);
    for (uint32_t e = 0; e < s->enum_count; e++) {
        if (!need.enum_names[e])
            continue;
        const struct schema_enum *en = &s->enums[e];
        fputs("\nstatic const char *enum_name_", out);
        put_name(out, en->name);
        fputs("(int64_t value)\n{\n    switch (value) {\n", out);
        for (uint32_t k = 0; k < en->count; k++) {
            const struct schema_enum_value *v = &s->enum_values[en->first + k];
            fputs("    case ", out);
            c_int(out, v->value);
            fputs(":\n        return ", out);
            c_string(out, v->name);
            fputs(";\n", out);
        }
        fputs("    default:\n        return NULL;\n    }\n}\n", out);
    }
    fwrite(text, 1, size, out);
    free(text);
    free(need.enum_names);
    fputs("\nbool ", out);
    fputs(p, out);
    fputs("_visit(const struct ", out);
    fputs(p, out);
    fputs("_packet *packet, ", out);
    fputs(p, out);
    fputs("_visitor fn, void *ctx)\n{\n    struct visit vs;\n    vs.fn = fn;\n"
          "    vs.ctx = ctx;\n    vs.len = 0;\n    vs.path[0] = '\\0';\n"
          "    vs.f.path = vs.path;\n    vs.f.type = \"\";\n    vs.f.kind = 0;\n"
          "    vs.f.flags = 0;\n    vs.f.value.u = 0;\n    vs.f.data = NULL;\n"
          "    vs.f.size = 0;\n    vs.f.name = NULL;\n    vs.f.count = 0;\n"
          "    switch (packet->type) {\n",
          out);
    for (uint32_t t = 0; t < s->packet_count; t++) {
        fprintf(out, "    case %uu:\n        return visit_type_", t);
        put_name(out, s->packets[t].name);
        fputs("(&vs, &packet->as.", out);
        put_name(out, s->packets[t].name);
        fputs(");\n", out);
    }
    fputs("    default:\n        return false;\n    }\n}\n", out);
    return true;
}

bitsift_error bitsift_gen_c(const bitsift_schema *s, const bitsift_gen_options *options,
                            FILE *header, FILE *source)
{
    if (!s || !header || !source)
        return BITSIFT_E_ARGUMENT;
    struct cgen g;
    memset(&g, 0, sizeof g);
    g.s = s;
    g.prefix = options && options->name ? options->name : s->name;
    g.max_bytes = options && options->max_struct_bytes ? options->max_struct_bytes
                                                       : GEN_C_DEFAULT_MAX_BYTES;
    g.error = options ? options->error : NULL;
    g.text = options ? options->schema_text : NULL;
    g.text_size = g.text ? options->schema_text_size : 0;
    g.error_size = options ? options->error_size : 0;
    g.stop = options ? options->stop : NULL;
    if (g.error && g.error_size)
        g.error[0] = '\0';
    const char *problem = gen_c_name_problem(g.prefix);
    if (problem) {
        refuse(&g, BITSIFT_E_ARGUMENT, "the name '%s' %s", g.prefix ? g.prefix : "", problem);
        return g.status;
    }
    g.types = calloc((size_t)s->field_count + s->packet_count + 1, sizeof *g.types);
    g.member = calloc((size_t)s->op_count + 1, sizeof *g.member);
    g.slot_op = calloc(SCHEMA_MAX_SLOTS, sizeof *g.slot_op);
    /* The three name tables in one block. */
    g.cname = calloc(3 * ((size_t)s->op_count + 1), sizeof *g.cname);
    g.count_name = g.cname ? g.cname + s->op_count + 1 : NULL;
    g.present_name = g.cname ? g.count_name + s->op_count + 1 : NULL;
    if (!g.types || !g.member || !g.slot_op || !g.cname) {
        refuse(&g, BITSIFT_E_NOMEM, "out of memory");
        goto done;
    }
    for (uint32_t t = 0; t < s->packet_count; t++) {
        /* A packet's ops are its root struct and the root's body. */
        uint32_t first = s->packets[t].first_op, end = s->packets[t].end_op;
        if (first < end && s->ops[first].code == OP_STRUCT && s->ops[first].end == end)
            first++;
        if (!add_type(&g, s->packets[t].name, first, end, true, 0))
            goto done;
    }
    if (!name_all_members(&g) || !check_global_names(&g))
        goto done;
    g.out = header;
    emit_header(&g);
    if (!emit_types(&g))
        goto done;
    emit_packet_api(&g);
    g.out = source;
    fputs("/* ", source);
    fputs(g.prefix, source);
    fputs(".c -- generated by `bitsift gen c`; do not edit. */\n#include \"", source);
    fputs(g.prefix, source);
    fputs(".h\"\n", source);
    for (size_t i = 0; i < g.ntypes; i++)
        if (!emit_function(&g, &g.types[i]))
            goto done;
    emit_packet_functions(&g);
    if (!emit_visit_functions(&g))
        goto done;
    if (ferror(header) || ferror(source))
        refuse(&g, BITSIFT_E_IO, "write error");
done:
    if (g.member)
        for (uint32_t i = 0; i < s->op_count; i++)
            free(g.member[i]);
    if (g.cname)
        for (uint32_t i = 0; i < 3 * (s->op_count + 1); i++)
            free(g.cname[i]);
    free(g.cname);
    free(g.member);
    free(g.slot_op);
    free(g.types);
    return g.status;
}

/* ---- the fuzz harness ------------------------------------------------------- */

bitsift_error bitsift_gen_fuzz(const bitsift_schema *s, const bitsift_gen_options *options,
                               FILE *header, FILE *source, FILE *harness)
{
    if (!harness)
        return BITSIFT_E_ARGUMENT;
    bitsift_error e = bitsift_gen_c(s, options, header, source);
    if (e != BITSIFT_OK)
        return e;
    const char *p = options && options->name ? options->name : s->name;
    const char *schema = options ? options->schema_path : NULL;
    FILE *out = harness;
    fputs("/* fuzz_", out);
    fputs(p, out);
    fputs(".c -- generated by `bitsift gen fuzz`; do not edit. A libFuzzer harness\n"
          " * for the reader `bitsift gen c` wrote (",
          out);
    fputs(p, out);
    fputs(".c): every input is read; a packet\n"
          " * that reads must write back, and what it writes must read again and\n"
          " * write the same bytes (a failed check aborts, which libFuzzer reports).\n"
          " * The mutators of libbitsift-fuzz keep inputs sealed (the CRC right and,\n"
          " * with the schema, fields in range): bitsift_fuzz.h, BITSIFT_FUZZ_SCHEMA.\n"
          " *\n"
          " *   clang -g -O1 -fsanitize=fuzzer,address fuzz_",
          out);
    fputs(p, out);
    fputs(".c ", out);
    fputs(p, out);
    fputs(".c \\\n *       $(pkg-config --cflags --libs bitsift-fuzz libbitsift) -o fuzz_", out);
    fputs(p, out);
    fputs("\n *   bitsift seeds -s SCHEMA -o corpus && ./fuzz_", out);
    fputs(p, out);
    fputs(" corpus\n */\n#include <stdlib.h>\n#include <string.h>\n\n#include <bitsift/fuzz.h>\n\n"
          "#include \"",
          out);
    fputs(p, out);
    fputs(".h\"\n\n", out);
    if (schema) {
        fputs("/* The schema-aware mutator, over the schema the code was made from (the\n"
              " * environment's BITSIFT_FUZZ_SCHEMA wins). */\nBITSIFT_FUZZ_MUTATORS("
              "bitsift_fuzz_new_schema_file(",
              out);
        c_string(out, schema);
        fputs(", BITSIFT_FUZZ_SCHEMA_AWARE, NULL));\n", out);
    } else {
        fputs("/* CRC re-sealing for the protocol's framing. */\nBITSIFT_FUZZ_MUTATORS("
              "bitsift_fuzz_new_framing(&",
              out);
        fputs(p, out);
        fputs("_framing));\n", out);
    }
    fputs("\nstatic struct ", out);
    fputs(p, out);
    fputs("_packet first, second;\nstatic uint8_t written[1 << 17], again[1 << 17];\n\n"
          "int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);\n"
          "int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)\n{\n"
          "    bitsift_reader r;\n    bitsift_reader_init(&r, data, size);\n    if (!",
          out);
    fputs(p, out);
    fputs("_read(&r, &first))\n        return 0; /* refused: fine, as long as nothing broke */\n"
          "    bitsift_writer w;\n    size_t n = 0, m = 0;\n"
          "    bitsift_writer_init(&w, written, sizeof written);\n    if (!",
          out);
    fputs(p, out);
    fputs("_write(&w, &first, &n))\n        abort(); /* what reads must write */\n"
          "    bitsift_reader_init(&r, written, n);\n    if (!",
          out);
    fputs(p, out);
    fputs("_read(&r, &second))\n        abort(); /* what is written must read */\n"
          "    bitsift_writer_init(&w, again, sizeof again);\n    if (!",
          out);
    fputs(p, out);
    fputs("_write(&w, &second, &m) || m != n || memcmp(written, again, n) != 0)\n"
          "        abort(); /* and write the same bytes again */\n    return 0;\n}\n",
          out);
    return ferror(out) ? BITSIFT_E_IO : BITSIFT_OK;
}
