/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gen_wireshark.c -- `bitsift gen wireshark`: a compiled schema written as
 * a Lua dissector for Wireshark and tshark 4.0 (Lua 5.2).
 *
 * The output is two parts:
 *
 *   local S = { name, framing, ladders, enums, packets }   this schema,
 *   S.ops = { one table per op, in op order }              from this walker
 *   <lib/gen_wireshark.lua>                                the run time, the
 *                                                          same for every schema
 *
 * This walker writes each op's facts (keyword, value kind and range from
 * the field-type table, names, slots, conditions, defaults) as data; the
 * run time decodes the ops as lib/schema_decode.c does. Conditions become
 * Lua functions written here from the op's postfix expression (the run
 * time hands them the slots and its 64-bit helpers). Every
 * string that comes from the schema is written as an escaped literal
 * (lua_string): no schema can close a string and add code.
 *
 * Lua 5.2 numbers are doubles. Values are written as numbers when every
 * value a field can take is exact in a double, else as Wireshark's
 * Int64/UInt64 (built from hex strings at load time): "wide" below.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "bitsift/gen.h"
#include "gen_wireshark_names.h"
#include "schema_internal.h"

/* The run time, lib/gen_wireshark.lua as an array of lines (made at build
 * time by lib/local.mk). */
#include "gen_wireshark_lua.h"

/* Values a double holds exactly, with room for a span between two. */
#define LUA_EXACT 0x8000000000000ll /* 2^51 */

struct gen {
    const bitsift_schema *s;
    FILE *out;
    bool *slot_wide; /* slots that hold an Int64 */
};

/* A string as a Lua literal: printable ASCII as is, everything else
 * (quotes, backslashes, control bytes, non-ASCII) as \ddd. */
static void lua_string(FILE *out, const char *text)
{
    fputc('"', out);
    for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
        if (*p >= 0x20 && *p < 0x7f && *p != '"' && *p != '\\')
            fputc(*p, out);
        else
            fprintf(out, "\\%03u", *p);
    }
    fputc('"', out);
}

/* A signed 64-bit constant: a number when exact, else an Int64. */
static void lua_int(const struct gen *g, int64_t v, bool wide)
{
    if (wide)
        fprintf(g->out, "Int64.fromhex(\"%016" PRIx64 "\")", (uint64_t)v);
    else
        fprintf(g->out, "%" PRId64, v);
}

/* A float32 value, exact (%.17g of a float is its exact double). */
static void lua_float(FILE *out, float f)
{
    fprintf(out, "%.17g", (double)f);
}

static bool value_wide(const struct schema_op *op)
{
    switch (schema_value_kind(op)) {
    case BITSIFT_VALUE_UINT:
        return op->code == OP_BITS && op->width > 32;
    case BITSIFT_VALUE_INT:
    case BITSIFT_VALUE_ENUM:
        return (op->code == OP_INT || op->code == OP_ENUM) &&
               (op->min < -LUA_EXACT || op->max > LUA_EXACT);
    default:
        return false;
    }
}

/* The value kinds, as the run time names them. */
static const char *value_kind_name(bitsift_value_kind k)
{
    switch (k) {
    case BITSIFT_VALUE_BOOL:
        return "bool";
    case BITSIFT_VALUE_UINT:
        return "uint";
    case BITSIFT_VALUE_INT:
        return "int";
    case BITSIFT_VALUE_FLOAT:
        return "float";
    case BITSIFT_VALUE_DOUBLE:
        return "double";
    case BITSIFT_VALUE_BYTES:
        return "bytes";
    case BITSIFT_VALUE_STRING:
        return "string";
    case BITSIFT_VALUE_ENUM:
        return "enum";
    case BITSIFT_VALUE_NONE:
        break;
    }
    return "none";
}

/* A field's filter name under its packet: the path with the "[]" of
 * array elements taken out ("players[].position.x" -> "players.position.x"). */
static void lua_abbrev(const struct gen *g, int32_t field)
{
    const struct schema_field *f = &g->s->fields[field];
    const struct schema_packet *p = &g->s->packets[f->info.packet_type];
    char buf[BITSIFT_PATH_MAX + 2 * BITSIFT_SCHEMA_MAX_NAME + 8];
    size_t n = (size_t)snprintf(buf, sizeof buf, "%s.", p->name);
    for (const char *c = f->info.path; *c && n + 1 < sizeof buf; c++) {
        if (c[0] == '[' && c[1] == ']') {
            c++;
            continue;
        }
        /* An element's smallest-three parts come as "d[]..x". */
        if (*c == '.' && n && buf[n - 1] == '.')
            continue;
        buf[n++] = *c;
    }
    buf[n] = 0;
    lua_string(g->out, buf);
}

/* slot = value pairs, for the slots of ops [first, end) that a branch
 * not taken sets to their defaults (schema_skip_defaults). */
static void lua_skip_list(const struct gen *g, const char *key, uint32_t first, uint32_t end)
{
    bool any = false;
    for (uint32_t i = first; i < end; i++) {
        const struct schema_op *op = &g->s->ops[i];
        if (op->slot < 0 || op->base_kind == BASE_PREVIOUS)
            continue;
        fprintf(g->out, "%s%d, ", any ? "" : key, op->slot + 1);
        lua_int(g, op->absent_int, g->slot_wide[op->slot]);
        fputs(", ", g->out);
        any = true;
    }
    if (any)
        fputs("}, ", g->out);
}

/*
 * An if's condition as a Lua expression over the slots `s`, built from
 * the postfix items: each item is a boolean or an integer, converted
 * where the other is needed, as C converts them (a comparison gives 0 or
 * 1, && and || and ! test against 0). In wide mode every integer is an
 * Int64.
 */
struct cond_item {
    char *text;
    bool is_bool;
};

static char *cat(const char *a, const char *b, const char *c, const char *d, const char *e)
{
    size_t n = strlen(a) + strlen(b) + strlen(c) + strlen(d) + strlen(e) + 1;
    char *r = malloc(n);
    if (r)
        snprintf(r, n, "%s%s%s%s%s", a, b, c, d, e);
    return r;
}

static char *as_bool(struct cond_item *x, bool wide)
{
    if (x->is_bool)
        return x->text;
    char *r = cat("(", x->text, wide ? " ~= ZERO64" : " ~= 0", ")", "");
    free(x->text);
    return r;
}

static char *as_int(struct cond_item *x, bool wide)
{
    if (!x->is_bool)
        return x->text;
    char *r = cat("(", x->text, wide ? " and ONE64 or ZERO64" : " and 1 or 0", ")", "");
    free(x->text);
    return r;
}

static bool lua_condition(const struct gen *g, const struct schema_op *op)
{
    const struct expr_item *x = &g->s->expr[op->expr_first];
    bool wide = false;
    for (uint32_t i = 0; i < op->expr_count; i++)
        if ((x[i].code == EXPR_SLOT && g->slot_wide[x[i].value]) ||
            (x[i].code == EXPR_CONST && (x[i].value < -LUA_EXACT || x[i].value > LUA_EXACT)))
            wide = true;
    struct cond_item stack[SCHEMA_MAX_EXPR];
    unsigned sp = 0;
    bool ok = true;
    for (uint32_t i = 0; i < op->expr_count && ok; i++) {
        char buf[64];
        switch (x[i].code) {
        case EXPR_CONST:
            if (wide)
                snprintf(buf, sizeof buf, "Int64.fromhex(\"%016" PRIx64 "\")",
                         (uint64_t)x[i].value);
            else
                snprintf(buf, sizeof buf, "%" PRId64, x[i].value);
            stack[sp].text = cat(buf, "", "", "", "");
            stack[sp++].is_bool = false;
            continue;
        case EXPR_SLOT:
            snprintf(buf, sizeof buf, wide ? "I(s[%" PRId64 "])" : "s[%" PRId64 "]",
                     x[i].value + 1);
            stack[sp].text = cat(buf, "", "", "", "");
            stack[sp++].is_bool = false;
            continue;
        case EXPR_NOT: {
            char *b = as_bool(&stack[sp - 1], wide);
            stack[sp - 1].text = b ? cat("(not ", b, ")", "", "") : NULL;
            stack[sp - 1].is_bool = true;
            free(b);
            ok = stack[sp - 1].text != NULL;
            continue;
        }
        default:
            break;
        }
        struct cond_item *a = &stack[sp - 2], *b = &stack[sp - 1];
        bool logical = x[i].code == EXPR_AND || x[i].code == EXPR_OR;
        char *ta = logical ? as_bool(a, wide) : as_int(a, wide);
        char *tb = logical ? as_bool(b, wide) : as_int(b, wide);
        const char *mid = "";
        bool swap = false;
        switch (x[i].code) {
        case EXPR_EQ:
            mid = " == ";
            break;
        case EXPR_NE:
            mid = " ~= ";
            break;
        case EXPR_LT:
            mid = " < ";
            break;
        case EXPR_LE:
            mid = " <= ";
            break;
        case EXPR_GT: /* a > b as b < a: Int64 has __lt and __le only */
            mid = " < ";
            swap = true;
            break;
        case EXPR_GE:
            mid = " <= ";
            swap = true;
            break;
        case EXPR_AND:
            mid = " and ";
            break;
        case EXPR_OR:
            mid = " or ";
            break;
        default:
            break;
        }
        char *r = ta && tb ? cat("(", swap ? tb : ta, mid, swap ? ta : tb, ")") : NULL;
        free(ta);
        free(tb);
        sp--;
        stack[sp - 1].text = r;
        stack[sp - 1].is_bool = true;
        ok = r != NULL;
    }
    if (ok && sp == 1) {
        char *r = as_bool(&stack[0], wide);
        if (r)
            fprintf(g->out, "cond = function(s, I, ZERO64, ONE64) return %s end, ", r);
        else
            ok = false;
        free(r);
        sp = 0;
    } else if (ok) {
        fputs("cond = function() return false end, ", g->out);
    }
    while (sp)
        free(stack[--sp].text);
    return ok;
}

/* The integer range of a leaf that holds an integer: what its ProtoField
 * is made from. */
static void int_range(const struct schema_op *op, int64_t *lo, int64_t *hi)
{
    switch ((enum op_code)op->code) {
    case OP_BITS:
        *lo = 0;
        *hi = op->width >= 63 ? INT64_MAX : (int64_t)((1ull << op->width) - 1);
        return;
    case OP_BOOL:
        *lo = 0, *hi = 1;
        return;
    case OP_CHECK:
        *lo = 0, *hi = UINT32_MAX;
        return;
    case OP_SEQ_REL:
    case OP_ACK_REL:
        *lo = 0, *hi = UINT16_MAX;
        return;
    case OP_INT_REL:
    case OP_OBJ_INDEX:
        *lo = INT32_MIN, *hi = INT32_MAX;
        return;
    default:
        *lo = op->min, *hi = op->max;
        return;
    }
}

static bool lua_op(const struct gen *g, uint32_t i)
{
    const bitsift_schema *s = g->s;
    const struct schema_op *op = &s->ops[i];
    FILE *out = g->out;
    bitsift_value_kind kind = schema_value_kind(op);
    bool wide = value_wide(op);
    fprintf(out, "o[%u] = {k = ", i + 1);
    lua_string(out, field_keyword((enum op_code)op->code));
    fprintf(out, ", v = \"%s\", name = ", value_kind_name(kind));
    lua_string(out, op->name ? op->name : "");
    if (op->field >= 0 && s->fields[op->field].info.path[0]) {
        fputs(", abbrev = ", out);
        lua_abbrev(g, op->field);
    }
    if (op->element)
        fputs(", element = true", out);
    if (op->slot >= 0)
        fprintf(out, ", slot = %d", op->slot + 1);
    if (!wide)
        fprintf(out, ", w = %u", op->width);
    if (kind == BITSIFT_VALUE_UINT || kind == BITSIFT_VALUE_INT || kind == BITSIFT_VALUE_ENUM ||
        kind == BITSIFT_VALUE_BOOL) {
        int64_t lo, hi;
        int_range(op, &lo, &hi);
        if (wide) {
            fputs(", wide = true", out);
            if (op->code == OP_INT || op->code == OP_ENUM) {
                fprintf(out, ", w = %u, min64 = ", bitsift_bits_required(op->min, op->max));
                lua_int(g, op->min, true);
                fprintf(out, ", minu64 = UInt64.fromhex(\"%016" PRIx64 "\")", (uint64_t)op->min);
                fprintf(out, ", span64 = UInt64.fromhex(\"%016" PRIx64 "\")",
                        (uint64_t)op->max - (uint64_t)op->min);
            }
            if (op->code == OP_BITS)
                fprintf(out, ", w = %u", op->width);
            fputs(", lo = 0, hi = 0", out);
        } else {
            fprintf(out, ", lo = %" PRId64 ", hi = %" PRId64, lo, hi);
        }
    }
    switch ((enum op_code)op->code) {
    case OP_CFLOAT:
        fprintf(out, ", steps = %" PRIu32 ", fsteps = ", op->steps);
        lua_float(out, (float)op->steps);
        fputs(", delta = ", out);
        lua_float(out, op->fmax - op->fmin);
        fputs(", fmin = ", out);
        lua_float(out, op->fmin);
        break;
    case OP_CHECK:
        fprintf(out, ", check = %" PRIu32, op->check);
        break;
    case OP_ENUM:
        fprintf(out, ", enum = %d", op->enum_id + 1);
        break;
    case OP_OBJ_INDEX:
        fprintf(out, ", max_objects = %d", op->max_objects);
        /* fall through */
    case OP_INT_REL:
    case OP_SEQ_REL:
    case OP_ACK_REL:
        if (op->base_kind == BASE_CONST)
            fprintf(out, ", base = %" PRId64, op->base);
        else
            fprintf(out, ", base_slot = %d", op->base_slot + 1);
        break;
    case OP_SMALLEST3:
        /* The parts are the next five field ids: largest, x, y, z, w. */
        fputs(", parts = {", out);
        for (int k = 1; k <= 5; k++) {
            fputs("{abbrev = ", out);
            lua_abbrev(g, op->field + k);
            fputs("}, ", out);
        }
        fputs("}", out);
        break;
    case OP_STRUCT:
        fprintf(out, ", [\"end\"] = %u", op->end + 1);
        break;
    case OP_ARRAY:
        fprintf(out, ", [\"end\"] = %u, kind = \"%s\", max = %" PRId64, op->end + 1,
                schema_array_kind_name((enum array_kind)op->array_kind), op->max);
        if (op->array_kind == ARRAY_COUNTED)
            fprintf(out, ", count_slot = %d", op->count_slot + 1);
        if (op->reset_head >= 0) {
            fputs(", resets = {", out);
            for (int32_t r = op->reset_head; r >= 0; r = s->ops[r].reset_next) {
                fprintf(out, "%d, ", s->ops[r].slot + 1);
                lua_int(g, s->ops[r].base, g->slot_wide[s->ops[r].slot]);
                fputs(", ", out);
            }
            fputs("}", out);
        }
        break;
    case OP_IF:
        fprintf(out, ", [\"end\"] = %u, else_start = %u, ", op->end + 1, op->else_start + 1);
        lua_skip_list(g, "skip_then = {", i + 1, op->else_start);
        lua_skip_list(g, "skip_else = {", op->else_start, op->end);
        if (!lua_condition(g, op))
            return false;
        break;
    default:
        break;
    }
    if (op->allowed_count) {
        fputs(", allowed = {", out);
        for (uint32_t k = 0; k < op->allowed_count; k++) {
            int64_t v = s->allowed[op->allowed_first + k];
            lua_int(g, v, v < -LUA_EXACT || v > LUA_EXACT);
            fputs(", ", out);
        }
        fputs("}", out);
    }
    fputs("}\n", out);
    return true;
}

/* ---- the protocol's name ---------------------------------------------------- */

/*
 * The name is the protocol's filter name ("shooter" in
 * shooter.snapshot.players.health), which Wireshark's Lua lowercases (and
 * uppercases for the short name); tshark refuses to load a dissector whose
 * name it refuses, and gen refuses that name first (wireshark_name_problem):
 *
 *   - not an identifier (letters, digits, '_'; not starting with a digit):
 *     what a schema name is, and a subset of Wireshark's filter names;
 *   - shorter than two characters;
 *   - a display filter keyword (Wireshark 4.0's list): "and", "contains"...;
 *   - a name Wireshark has taken: a protocol's filter or short name, a
 *     preference module (gen_wireshark_names.h, from Wireshark 4.0.17;
 *     a newer one may know more).
 */

static const char *const display_filter_keywords[] = {
    "all", "and", "any", "bitwise_and", "contains", "eq",  "ge", "gt",
    "in",  "le",  "lt",  "matches",     "ne",       "not", "or"};

static int compare_name(const void *key, const void *item)
{
    return strcmp((const char *)key, *(const char *const *)item);
}

static const char *wireshark_name_problem(const char *name)
{
    if (!name || !*name)
        return "is empty";
    size_t n = strlen(name);
    if (n > BITSIFT_SCHEMA_MAX_NAME)
        return "is longer than 63 characters";
    char lower[BITSIFT_SCHEMA_MAX_NAME + 1];
    for (size_t k = 0; k < n; k++) {
        char c = name[k];
        bool letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
        if (!letter && !(k > 0 && c >= '0' && c <= '9'))
            return "is not an identifier (letters, digits and '_', not starting with a digit)";
        lower[k] = c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
    }
    lower[n] = '\0';
    if (n < 2)
        return "is shorter than two characters, which Wireshark refuses for a protocol";
    size_t keywords = sizeof display_filter_keywords / sizeof display_filter_keywords[0];
    if (bsearch(lower, display_filter_keywords, keywords, sizeof(const char *), compare_name))
        return "is a display filter keyword, which Wireshark refuses as a protocol's name";
    size_t builtins = sizeof wireshark_builtin_names / sizeof wireshark_builtin_names[0];
    if (bsearch(lower, wireshark_builtin_names, builtins, sizeof(const char *), compare_name))
        return "is taken by a protocol or preference module built into Wireshark "
               "(" WIRESHARK_NAMES_VERSION "), which would refuse to load the dissector";
    return NULL;
}

static void lua_header(const struct gen *g, const char *name, const bitsift_gen_options *o)
{
    const bitsift_schema *s = g->s;
    const bitsift_framing *fr = &s->framing;
    FILE *out = g->out;
    fprintf(out, "-- A Wireshark dissector (Wireshark/tshark 4.0 or later, Lua 5.2) for the\n"
                 "-- protocol %s (id 0x%08" PRIx32 "), generated by `bitsift gen wireshark` from\n"
                 "-- its schema: regenerate it rather than edit it. Copy it to Wireshark's\n"
                 "-- personal Lua plugins folder (~/.local/lib/wireshark/plugins/), or run\n"
                 "-- tshark -X lua_script:THIS_FILE. See bitsift-gen(1).\n\n",
            name, fr->protocol_id);
    fputs("local S = {name = ", out);
    lua_string(out, name);
    char title[BITSIFT_SCHEMA_MAX_NAME * 2 + 64];
    snprintf(title, sizeof title, "%s (bitsift protocol 0x%08" PRIx32 ")", s->name,
             fr->protocol_id);
    fputs(", title = ", out);
    lua_string(out, title);
    fprintf(out, ",\n  protocol_id = 0x%08" PRIx32 ", crc = %s, prefix = %" PRIu32 ", end_check = ",
            fr->protocol_id, fr->crc ? "true" : "false", fr->prefix_bytes);
    if (fr->end_check)
        fprintf(out, "0x%08" PRIx32, fr->end_check_value);
    else
        fputs("false", out);
    fputs(",\n  ports = \"", out);
    for (size_t k = 0; k < o->port_count; k++)
        fprintf(out, "%s%u", k ? "," : "", o->ports[k]);
    fprintf(out, "\", slot_count = %" PRIu32 ",\n", s->slot_count);
    /* The ladders of relative_tiers.h and the smallest-three range of
     * schema_runtime.c, from the library itself. */
#define TIER_ROW(min, max) "{" #min ", " #max "}, "
    fputs("  int_relative_tiers = {" INT_RELATIVE_TIERS(TIER_ROW) "},\n", out);
    fputs("  object_index_tiers = {" OBJECT_INDEX_TIERS(TIER_ROW) "},\n", out);
#undef TIER_ROW
    fprintf(out, "  object_index_last_min = %d, s3_limit = ", OBJECT_INDEX_LAST_MIN);
    lua_float(out, -schema_s3_dequantize(1, 0));
    fputs(",\n  enums = {\n", out);
    for (uint32_t e = 0; e < s->enum_count; e++) {
        const struct schema_enum *en = &s->enums[e];
        bool wide = en->min < -LUA_EXACT || en->max > LUA_EXACT;
        fputs("    {", out);
        for (uint32_t k = 0; k < en->count; k++) {
            const struct schema_enum_value *v = &s->enum_values[en->first + k];
            if (wide)
                fprintf(out, "[\"%" PRId64 "\"] = ", v->value);
            else
                fprintf(out, "[%" PRId64 "] = ", v->value);
            lua_string(out, v->name);
            fputs(", ", out);
        }
        fputs("},\n", out);
    }
    fputs("  },\n  packets = {\n", out);
    for (uint32_t t = 0; t < s->packet_count; t++) {
        const struct schema_packet *p = &s->packets[t];
        fputs("    {name = ", out);
        lua_string(out, p->name);
        fprintf(out, ", first = %u, [\"end\"] = %u},\n", p->first_op + 2,
                s->ops[p->first_op].end + 1);
    }
    fputs("  },\n}\nS.ops = {}\nlocal o = S.ops\n", out);
}

bitsift_error bitsift_gen_wireshark(const bitsift_schema *s, const bitsift_gen_options *options,
                                    FILE *out)
{
    bitsift_gen_options none = {NULL, NULL, 0, 0, NULL, 0, NULL, NULL, 0, NULL};
    const bitsift_gen_options *o = options ? options : &none;
    if (!s || !out || (o->port_count && !o->ports) || o->port_count > BITSIFT_GEN_MAX_PORTS)
        return BITSIFT_E_ARGUMENT;
    const char *name = o->name ? o->name : s->name;
    const char *problem = wireshark_name_problem(name);
    if (problem) {
        if (o->error && o->error_size)
            snprintf(o->error, o->error_size, "the name '%s' %s", name ? name : "", problem);
        return BITSIFT_E_ARGUMENT;
    }
    struct gen g = {s, out, calloc(s->slot_count + 1, sizeof(bool))};
    if (!g.slot_wide)
        return BITSIFT_E_NOMEM;
    for (uint32_t i = 0; i < s->op_count; i++)
        if (s->ops[i].slot >= 0 && value_wide(&s->ops[i]))
            g.slot_wide[s->ops[i].slot] = true;
    lua_header(&g, name, o);
    bool ok = true;
    for (uint32_t i = 0; i < s->op_count && ok; i++)
        ok = lua_op(&g, i);
    fputs("\n", out);
    for (size_t k = 0; k < sizeof wireshark_runtime / sizeof wireshark_runtime[0]; k++)
        fputs(wireshark_runtime[k], out);
    free(g.slot_wide);
    if (!ok)
        return BITSIFT_E_NOMEM;
    return ferror(out) ? BITSIFT_E_IO : BITSIFT_OK;
}
