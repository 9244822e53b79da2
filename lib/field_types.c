/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * field_types.c -- the per-type facts of the field-type table
 * (field_types.h) as functions: keyword, field type and its public name,
 * value kind, size on the wire, spelling (and an array kind's name),
 * the visitor's handling, and the raw windows that the leaf runs, the
 * visitor's one-step leaves and the validation program read a leaf as.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schema_internal.h"

#define KEYWORD_ROW(op, keyword, ...) [op] = #keyword,
static const char *const keywords[OP_CODE_COUNT] = {SCHEMA_FIELD_TYPES(KEYWORD_ROW)};
#undef KEYWORD_ROW

const char *field_keyword(enum op_code code)
{
    return (unsigned)code < OP_CODE_COUNT ? keywords[code] : "unknown";
}

const char *bitsift_field_type_name(bitsift_field_type t)
{
    static const char *const names[] = {
        [BITSIFT_FIELD_BITS] = "bits",
        [BITSIFT_FIELD_BOOL] = "bool",
        [BITSIFT_FIELD_UINT8] = "uint8",
        [BITSIFT_FIELD_UINT16] = "uint16",
        [BITSIFT_FIELD_UINT32] = "uint32",
        [BITSIFT_FIELD_UINT64] = "uint64",
        [BITSIFT_FIELD_INT] = "int",
        [BITSIFT_FIELD_FLOAT] = "float",
        [BITSIFT_FIELD_DOUBLE] = "double",
        [BITSIFT_FIELD_COMPRESSED_FLOAT] = "compressed_float",
        [BITSIFT_FIELD_BYTES] = "bytes",
        [BITSIFT_FIELD_STRING] = "string",
        [BITSIFT_FIELD_ALIGN] = "align",
        [BITSIFT_FIELD_CHECK] = "check",
        [BITSIFT_FIELD_INT_RELATIVE] = "int_relative",
        [BITSIFT_FIELD_OBJECT_INDEX] = "object_index",
        [BITSIFT_FIELD_SEQUENCE_RELATIVE] = "sequence_relative",
        [BITSIFT_FIELD_ACK_RELATIVE] = "ack_relative",
        [BITSIFT_FIELD_ENUM] = "enum",
        [BITSIFT_FIELD_STRUCT] = "struct",
        [BITSIFT_FIELD_ARRAY] = "array",
        [BITSIFT_FIELD_VECTOR] = "vector",
        [BITSIFT_FIELD_QUATERNION] = "quaternion",
        [BITSIFT_FIELD_PREFIX] = "prefix",
        [BITSIFT_FIELD_CRC] = "crc",
        [BITSIFT_FIELD_PACKET_TYPE] = "type",
        [BITSIFT_FIELD_END_CHECK] = "end_check",
    };
    /* New types go at the end of the enum (their numbers are ABI): one
     * added without a name here fails to compile. */
    _Static_assert(sizeof names / sizeof names[0] == BITSIFT_FIELD_TYPE_COUNT,
                   "a name for every bitsift_field_type");
    if ((unsigned)t >= BITSIFT_FIELD_TYPE_COUNT || !names[t])
        return "unknown";
    return names[t];
}

bitsift_field_type field_type_of(enum op_code code)
{
#define FIELD_ROW(op, keyword, params, field, ...) [op] = BITSIFT_FIELD_##field,
    static const uint8_t types[OP_CODE_COUNT] = {SCHEMA_FIELD_TYPES(FIELD_ROW)};
#undef FIELD_ROW
    return (unsigned)code < OP_CODE_COUNT ? (bitsift_field_type)types[code] : BITSIFT_FIELD_STRUCT;
}

enum field_params field_params_of(enum op_code code)
{
#define PARAMS_ROW(op, keyword, params, ...) [op] = params,
    static const uint8_t params[OP_CODE_COUNT] = {SCHEMA_FIELD_TYPES(PARAMS_ROW)};
#undef PARAMS_ROW
    return (unsigned)code < OP_CODE_COUNT ? (enum field_params)params[code] : PARAMS_NONE;
}

/* The shortest decimal that reads back as exactly this float32: %g's six
 * digits showed 0.1000001 as 0.1, and a generator must spell the very
 * parameters the schema compiled. */
static const char *exact_float(float f, char text[32])
{
    for (int digits = 1; digits < 9; digits++) {
        snprintf(text, 32, "%.*g", digits, (double)f);
        if (strtof(text, NULL) != f)
            continue;
        /* 100 at one digit is "1e+02": print the integer digits instead. */
        const char *e = strstr(text, "e+");
        if (e && atoi(e + 2) < 9)
            snprintf(text, 32, "%.*g", atoi(e + 2) + 1, (double)f);
        return text;
    }
    snprintf(text, 32, "%.9g", (double)f);
    return text;
}

int field_spelling(const bitsift_schema *s, const struct schema_op *op, char *buf, size_t size)
{
    const char *keyword = field_keyword((enum op_code)op->code);
    /* uint8..uint64, vectors and quaternions are spelled by their field
     * type; so is every type without parameters. */
    if (op->type != field_type_of((enum op_code)op->code) || op->code == OP_STRUCT)
        return snprintf(buf, size, "%s", bitsift_field_type_name((bitsift_field_type)op->type));
    switch (field_params_of((enum op_code)op->code)) {
    case PARAMS_WIDTH:
        return snprintf(buf, size, "%s(%u)", keyword, op->width);
    case PARAMS_RANGE:
        return snprintf(buf, size, "%s(%" PRId64 ", %" PRId64 ")", keyword, op->min, op->max);
    case PARAMS_CFLOAT: {
        char min[32], max[32], res[32];
        return snprintf(buf, size, "%s(%s, %s, %s)", keyword, exact_float(op->fmin, min),
                        exact_float(op->fmax, max), exact_float(op->res, res));
    }
    case PARAMS_CHECK:
        return snprintf(buf, size, "%s(0x%08x)", keyword, op->check);
    case PARAMS_MAX_OBJECTS:
        return snprintf(buf, size, "%s(%d)", keyword, op->max_objects);
    case PARAMS_ENUM:
        return snprintf(buf, size, "%s %s", keyword, s->enums[op->enum_id].name);
    case PARAMS_NONE:
        break;
    }
    return snprintf(buf, size, "%s", bitsift_field_type_name((bitsift_field_type)op->type));
}

const char *schema_array_kind_name(enum array_kind kind)
{
    static const char *const names[] = {
        [ARRAY_FIXED] = "fixed",      [ARRAY_COUNTED] = "counted", [ARRAY_INLINE] = "inline",
        [ARRAY_FLAGS] = "flags",      [ARRAY_INDICES] = "indices", [ARRAY_SENTINEL] = "sentinel",
        [ARRAY_RELATIVE] = "relative"};
    return (unsigned)kind < sizeof names / sizeof names[0] ? names[kind] : "fixed";
}

bitsift_value_kind schema_value_kind(const struct schema_op *op)
{
#define VALUE_ROW(op, keyword, params, field, value, ...) [op] = BITSIFT_VALUE_##value,
    static const uint8_t kinds[OP_CODE_COUNT] = {SCHEMA_FIELD_TYPES(VALUE_ROW)};
#undef VALUE_ROW
    return op->code < OP_CODE_COUNT ? (bitsift_value_kind)kinds[op->code] : BITSIFT_VALUE_NONE;
}

enum visit_kind field_visit(enum op_code code)
{
#define VISIT_ROW(op, keyword, params, field, value, min, max, raw, visit) [op] = visit,
    static const uint8_t visits[OP_CODE_COUNT] = {SCHEMA_FIELD_TYPES(VISIT_ROW)};
#undef VISIT_ROW
    return (unsigned)code < OP_CODE_COUNT ? (enum visit_kind)visits[code] : VISIT_LEAF;
}

void field_size(const struct schema_op *op, uint64_t *min, uint64_t *max)
{
    switch ((enum op_code)op->code) {
#define SIZE_ROW(code, keyword, params, field, value, lo, hi, raw, visit) \
    case code:                                                            \
        *min = (lo);                                                      \
        *max = (hi);                                                      \
        return;
        SCHEMA_FIELD_TYPES(SIZE_ROW)
#undef SIZE_ROW
    case OP_CODE_COUNT:
        break;
    }
    *min = *max = 0;
}

static enum field_raw raw_of(enum op_code code)
{
#define RAW_ROW(op, keyword, params, field, value, min, max, raw, visit) [op] = raw,
    static const uint8_t raws[OP_CODE_COUNT] = {SCHEMA_FIELD_TYPES(RAW_ROW)};
#undef RAW_ROW
    return (unsigned)code < OP_CODE_COUNT ? (enum field_raw)raws[code] : RAW_NONE;
}

/* One 64-bit load holds any 57 bits whatever their first bit's offset. */
#define FIELD_WINDOW_MAX 57

static struct field_window window(uint64_t width, uint64_t lo, uint64_t span, int64_t base)
{
    struct field_window w = {(uint32_t)width, lo, span, base};
    return w;
}

/* For an enum field whose enum is dense and lies inside the field's
 * int(min, max): the raw values with a name are lo..lo + span
 * (raw = value - min). False for any other enum field. */
static bool enum_raw_range(const bitsift_schema *s, const struct schema_op *op, uint64_t *lo,
                           uint64_t *span)
{
    const struct schema_enum *e = &s->enums[op->enum_id];
    if (!e->dense || !e->count)
        return false;
    int64_t first = s->enum_values[e->first].value;
    int64_t last = s->enum_values[e->first + e->count - 1].value;
    if (first < op->min || last > op->max)
        return false;
    *lo = (uint64_t)first - (uint64_t)op->min;
    *span = (uint64_t)last - (uint64_t)first;
    return true;
}

unsigned field_raw_windows(const bitsift_schema *s, const struct schema_op *op,
                           struct field_window out[4], bool *keeps_value)
{
    uint64_t width, unused;
    field_size(op, &width, &unused);
    *keeps_value = value_kind_is_integer(schema_value_kind(op));
    switch (raw_of((enum op_code)op->code)) {
    case RAW_ANY:
        if (width < 1 || width > FIELD_WINDOW_MAX)
            return 0;
        out[0] = window(width, 0, UINT64_MAX, 0);
        return 1;
    case RAW_RANGE:
    case RAW_ENUM: {
        if (op->min > op->max || width > FIELD_WINDOW_MAX)
            return 0;
        uint64_t lo = 0, span = (uint64_t)op->max - (uint64_t)op->min;
        if (op->code == OP_ENUM && !enum_raw_range(s, op, &lo, &span))
            return 0;
        out[0] = window(width, lo, span, op->min);
        return 1;
    }
    case RAW_STEPS:
        if (width > FIELD_WINDOW_MAX)
            return 0;
        out[0] = window(width, 0, op->steps, 0);
        return 1;
    case RAW_QUAT:
        /* Any raw values make a quaternion. */
        if (op->width < 1 || op->width > FIELD_WINDOW_MAX)
            return 0;
        out[0] = window(2, 0, UINT64_MAX, 0);
        for (int k = 1; k < 4; k++)
            out[k] = window(op->width, 0, UINT64_MAX, 0);
        return 4;
    case RAW_NONE:
        break;
    }
    return 0;
}
