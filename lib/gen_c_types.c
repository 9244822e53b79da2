/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gen_c_types.c -- the C types of `bitsift gen c`'s header: one struct
 * per schema struct and per packet type, collected so that each comes
 * after the types it holds, their members (with the size limit), and a C
 * enum (or int64_t constants) per schema enum.
 */
#include <inttypes.h>
#include <string.h>

#include "gen_c_internal.h"

struct c_type *gen_c_find_type(struct cgen *g, const char *name, bool packet)
{
    for (size_t i = 0; i < g->ntypes; i++)
        if (g->types[i].packet == packet && strcmp(g->types[i].name, name) == 0)
            return &g->types[i];
    return NULL;
}

static bool collect_types(struct cgen *g, uint32_t first, uint32_t end, unsigned depth);

/* Add the struct type of ops[i] after the types it uses. */
bool gen_c_add_type(struct cgen *g, const char *name, uint32_t first, uint32_t end, bool packet,
                    unsigned depth)
{
    if (gen_c_find_type(g, name, packet))
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
            if (!gen_c_add_type(g, tn, i + 1, op->end, false, depth))
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
        const bitsift_field_source *src = has_member(op) ? gen_c_field_source(g, op) : NULL;
        size_t note_a = 0, note_b = 0;
        bool note = src && gen_c_trailing_comment(g, src->end, &note_a, &note_b);
        if (src)
            gen_c_leading_comments(g, src->start, 1);
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
            const struct c_type *t = gen_c_find_type(g, field_type_name(g, elem), false);
            fputs("    struct ", out);
            fputs(g->prefix, out);
            fputc('_', out);
            gen_c_put_name(out, t->name);
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
                gen_c_comment_text(out, g->text, note_a, note_b);
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
                const bitsift_field_source *src = gen_c_field_source(g, &root);
                return src ? src->start : SIZE_MAX;
            }
        return SIZE_MAX;
    }
    const bitsift_field_source *src =
        t->first > 0 ? gen_c_field_source(g, &s->ops[t->first - 1]) : NULL;
    return src && src->body_end > src->body_start ? gen_c_declaration_line(g, src->body_start)
                                                  : SIZE_MAX;
}

bool gen_c_emit_types(struct cgen *g)
{
    FILE *out = g->out;
    for (size_t i = 0; i < g->ntypes; i++) {
        struct c_type *t = &g->types[i];
        fputc('\n', out);
        gen_c_leading_comments(g, type_declaration(g, t), 0);
        fprintf(out, "/* %s ", t->packet ? "packet" : "struct");
        gen_c_put_name(out, t->name);
        fputs(" */\nstruct ", out);
        fputs(g->prefix, out);
        fputc('_', out);
        gen_c_put_name(out, t->name);
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

void gen_c_emit_enums(struct cgen *g)
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
            gen_c_leading_comments(g, gen_c_declaration_line(g, en->items_start), 0);
        fputs("/* enum ", out);
        gen_c_put_name(out, en->name);
        fprintf(out, ": int(%" PRId64 ", %" PRId64 ") on the wire; fields of it are int64_t%s */\n",
                en->min, en->max, as_enum ? "" : ", its values int64_t constants");
        if (as_enum) {
            fputs("enum ", out);
            fputs(g->prefix, out);
            fputc('_', out);
            gen_c_put_name(out, en->name);
            fputs(" {\n", out);
        }
        for (uint32_t k = 0; k < en->count; k++) {
            const struct schema_enum_value *v = &s->enum_values[en->first + k];
            fputs(as_enum ? "    " : "#define ", out);
            fputs(g->prefix, out);
            fputc('_', out);
            gen_c_put_name(out, en->name);
            fputc('_', out);
            gen_c_put_name(out, v->name);
            if (as_enum) {
                if (v->value == INT32_MIN)
                    fputs(" = -2147483647 - 1", out);
                else
                    fprintf(out, " = %" PRId64, v->value);
                fputs(k + 1 < en->count ? ",\n" : "\n", out);
            } else {
                fputc(' ', out);
                gen_c_int(out, v->value);
                fputc('\n', out);
            }
        }
        if (as_enum)
            fputs("};\n", out);
    }
}

void gen_c_type_name(struct cgen *g, const struct c_type *t)
{
    fputs("struct ", g->out);
    fputs(g->prefix, g->out);
    fputc('_', g->out);
    gen_c_put_name(g->out, t->name);
}
