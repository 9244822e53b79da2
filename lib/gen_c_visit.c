/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gen_c_visit.c -- <name>_visit of `bitsift gen c`: its declarations in
 * the header, the visit function of each struct and packet type and the
 * helpers they use in the source.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "gen_c_internal.h"

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

void gen_c_emit_visit_api(struct cgen *g)
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
        gen_c_put_name(out, g->s->enums[op->enum_id].name);
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
    gen_c_string(out, name ? name : "");
    fprintf(out, ", %s, ", index ? index : "-1");
    gen_c_string(out, type);
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
        gen_c_string(out, name ? name : "");
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
            gen_c_int(out, d->i);
            fputs(";\n", out);
            if (d->kind == BITSIFT_VALUE_ENUM && d->name) {
                /* The default's name when the schema gave one, as the
                 * decoder's absent event has it. */
                indent(out, ind);
                fputs("vs->f.name = ", out);
                gen_c_string(out, d->name);
                fputs(";\n", out);
            }
            break;
        case BITSIFT_VALUE_FLOAT:
            fputs("vs->f.value.f = ", out);
            gen_c_float(out, d->f);
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
    gen_c_string(out, name);
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
        gen_c_put_name(out, field_type_name(g, st));
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
            gen_c_slot_expr(g, op->count_slot, out);
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
            gen_c_condition(g, op);
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
    gen_c_begin_function(g, t);
    fputs("\nstatic bool visit_type_", out);
    gen_c_put_name(out, t->name);
    fputs("(struct visit *vs, const ", out);
    gen_c_type_name(g, t);
    fputs(" *v)\n{\n    (void)vs;\n    (void)v;\n", out);
    visit_body(g, need, t->first, t->end, 1);
    fputs("    return true;\n}\n", out);
}

/* The helpers the visit functions use, then the functions (written to a
 * buffer first, to know which helpers they use). */
bool gen_c_emit_visit_functions(struct cgen *g)
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
        gen_c_put_name(out, en->name);
        fputs("(int64_t value)\n{\n    switch (value) {\n", out);
        for (uint32_t k = 0; k < en->count; k++) {
            const struct schema_enum_value *v = &s->enum_values[en->first + k];
            fputs("    case ", out);
            gen_c_int(out, v->value);
            fputs(":\n        return ", out);
            gen_c_string(out, v->name);
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
        gen_c_put_name(out, s->packets[t].name);
        fputs("(&vs, &packet->as.", out);
        gen_c_put_name(out, s->packets[t].name);
        fputs(");\n", out);
    }
    fputs("    default:\n        return false;\n    }\n}\n", out);
    return true;
}
