/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gen_c_serialize.c -- the serialize functions of `bitsift gen c`'s
 * source: one per struct and packet type, written once for read, write
 * and measure with libbitsift's serialize macros (the mode is a constant
 * in each caller, so the compiler keeps one direction per caller), and
 * <name>_read, <name>_write and <name>_measure for whole framed packets.
 *
 * Each leaf is bitsift_serialize_named(..., kind, ...) with the field-type
 * table's keyword as `kind`, its parameters printed by the row's params
 * column; only what C needs beyond that is here: loops, conditions,
 * defaults of a branch not taken, enum and allowed-value checks.
 */
#include <inttypes.h>
#include <stdlib.h>

#include "gen_c_internal.h"

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
        gen_c_int(out, op->base);
        return true;
    case BASE_SLOT:
        return gen_c_slot_expr(g, op->base_slot, out);
    case BASE_PREVIOUS:
        if (prev_cond && prev_value) {
            fprintf(out, "(%s ? (int64_t)%s : ", prev_cond, prev_value);
            gen_c_int(out, op->base);
            fputc(')', out);
        } else {
            gen_c_int(out, op->base);
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
        gen_c_int(out, op->min);
        fputs(", ", out);
        gen_c_int(out, op->max);
        break;
    case PARAMS_CFLOAT:
        /* The step count and width as the schema compiled them: the
         * reader does no division per value (kind_name adds "_steps"). */
        gen_c_float(out, op->fmin);
        fputs(", ", out);
        gen_c_float(out, op->fmax);
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
    gen_c_string(g->out, array);
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
        gen_c_string(out, name);
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
            gen_c_string(out, name);
            fprintf(out, ", at, \"relative base out of range\", %s, (uint64_t)base)",
                    u16 ? "65535u" : "(uint64_t)INT32_MAX");
            element_suffix(g, array, index);
            fputs(";\n", out);
        }
    }
    indent(out, ind);
    if (array) {
        fputs("bitsift_serialize_element(stream, mode, ", out);
        gen_c_string(out, array);
        fprintf(out, ", %s, %s, %s, ", index, lv, kind_name(op));
    } else {
        fputs("bitsift_serialize_named(stream, mode, ", out);
        gen_c_string(out, name);
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
            gen_c_int(out, s->enum_values[en->first].value);
            fprintf(out, " && %s <= ", lv);
            gen_c_int(out, s->enum_values[en->first + en->count - 1].value);
        } else {
            for (uint32_t k = 0; k < en->count; k++) {
                fprintf(out, "%s%s == ", k ? " || " : "", lv);
                gen_c_int(out, s->enum_values[en->first + k].value);
            }
        }
        if (!en->count)
            fputs("0", out);
        fputs("))\n", out);
        indent(out, ind + 1);
        fputs("return bitsift_serialize_refuse(stream, mode, ", out);
        gen_c_string(out, name);
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
            gen_c_int(out, s->allowed[op->allowed_first + k]);
        }
        fputs("))\n", out);
        indent(out, ind + 1);
        fputs("return bitsift_serialize_refuse(stream, mode, ", out);
        gen_c_string(out, name);
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
        gen_c_int(g->out, op->base_kind == BASE_PREVIOUS ? op->base : op->absent_int);
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
    gen_c_string(out, array ? array : op->name);
    fprintf(out, ", %s, ", array ? index : "-1");
    fputs(g->prefix, out);
    fputs("_serialize_", out);
    gen_c_put_name(out, field_type_name(g, op));
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
    if (sparse) {
        indent(out, ind);
        fprintf(out, "bitsift_sparse it%u;\n", k);
        indent(out, ind);
        fprintf(out, "int64_t p%u = -1; /* the previous element */\n", k);
        indent(out, ind);
        fprintf(out, "bitsift_serialize_sparse_begin(stream, mode, it%u, ", k);
        gen_c_string(out, op->name);
        /* The encoding's constant is its schema keyword in capitals:
         * sparse(flags) is BITSIFT_SPARSE_FLAGS (ASCII; toupper would
         * follow the locale). */
        fputs(", BITSIFT_SPARSE_", out);
        for (const char *p = schema_array_kind_name((enum array_kind)op->array_kind); *p; p++)
            fputc(*p - 'a' + 'A', out);
        fprintf(out, ", v->%s, %" PRId64 ");\n", g->present_name[i], op->max);
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
            if (!gen_c_slot_expr(g, op->count_slot, out))
                return false;
            fputs(";\n", out);
            indent(out, ind);
            fprintf(out, "if (n%u < 0 || n%u > %" PRId64 ")\n", k, k, op->max);
            indent(out, ind + 1);
            fputs("return bitsift_serialize_refuse(stream, mode, ", out);
            gen_c_string(out, op->name);
            fprintf(out,
                    ", bitsift_serialize_bit(stream, mode), \"count above the array's "
                    "maximum\", %" PRId64 "u, (uint64_t)n%u);\n",
                    op->max, k);
        } else {
            indent(out, ind);
            fputs("bitsift_serialize_named(stream, mode, ", out);
            gen_c_string(out, op->name);
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
        gen_c_string(out, op->name);
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
        gen_c_string(out, op->name);
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
            if (!gen_c_condition(g, op))
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
            gen_c_string(out, op->name);
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

void gen_c_function_head(struct cgen *g, const struct c_type *t, bool definition)
{
    FILE *out = g->out;
    fputs("bool ", out);
    fputs(g->prefix, out);
    fputs("_serialize_", out);
    gen_c_put_name(out, t->name);
    fprintf(out, "(void *stream, %sint mode, ", definition ? "const " : "");
    gen_c_type_name(g, t);
    fputs(" *v", out);
    if (!t->packet) {
        fputs(", const ", out);
        gen_c_type_name(g, t);
        fputs(" *prev", out);
    }
    fputc(')', out);
}

bool gen_c_emit_function(struct cgen *g, const struct c_type *t)
{
    FILE *out = g->out;
    gen_c_begin_function(g, t);
    fprintf(out, "\n/* %s ", t->packet ? "packet" : "struct");
    gen_c_put_name(out, t->name);
    fputs(": read, write or measure, by mode */\n", out);
    gen_c_function_head(g, t, true);
    fputs("\n{\n", out);
    if (!t->packet)
        fputs("    (void)prev;\n", out);
    /* A type without fields uses none of its parameters. */
    fputs("    (void)stream;\n    (void)mode;\n    (void)v;\n", out);
    if (!emit_body(g, t->first, t->end, !t->packet, 1))
        return false;
    fputs("    return true;\n}\n", out);
    return true;
}

void gen_c_emit_packet_functions(struct cgen *g)
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
        gen_c_put_name(out, s->packets[t].name);
        fputs("(stream, mode, &packet->as.", out);
        gen_c_put_name(out, s->packets[t].name);
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
