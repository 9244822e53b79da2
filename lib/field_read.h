/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * field_read.h -- one leaf field read through the library's readers,
 * checked exactly as the schema says: the op interpreter (schema_decode.c)
 * and the validation program's fallback for leaves it does not read
 * itself (schema_validate.c) both read leaves here, so that the two cannot
 * disagree on what a field accepts. Containers and the smallest-three
 * quaternion's parts are the decoder's own.
 */
#ifndef BITSIFT_FIELD_READ_H
#define BITSIFT_FIELD_READ_H

#include "schema_internal.h"

/* The base of a relative field: a constant, or a value read before. */
static inline bool field_base(bitsift_reader *r, const struct schema_op *op, const int64_t *slots,
                              int64_t lo, int64_t hi, int64_t *base)
{
    int64_t b = op->base_kind == BASE_CONST ? op->base : slots[op->base_slot];
    if (BITSIFT_UNLIKELY(b < lo || b > hi))
        return bitsift_reader_fail(r, BITSIFT_E_RANGE, r->bit_pos, "relative base out of range",
                                   (uint64_t)hi, (uint64_t)b);
    *base = b;
    return true;
}

/* The name of an enum value, NULL when it has none: O(1) for the usual
 * dense enum. */
static inline const char *field_enum_name(const bitsift_schema *s, int32_t enum_id, int64_t value)
{
    const struct schema_enum *e = &s->enums[enum_id];
    if (BITSIFT_LIKELY(e->dense)) {
        const struct schema_enum_value *v = s->enum_values + e->first;
        uint64_t k = (uint64_t)value - (uint64_t)v[0].value;
        return k < e->count ? v[k].name : NULL;
    }
    return schema_enum_lookup(s, enum_id, value);
}

/*
 * Read the leaf `op` into *v (its kind, and u, b, i, d, f, data, size or
 * name as the kind has them; a compressed float's raw value in v->raw,
 * its value left to the caller, who may not need it) and its integer
 * value for slots into *as_int (0 for floats, bytes, strings). Checks the
 * range, the enum name, the step count and the value list; on failure the
 * reader holds the reason, at the bit where the field starts. v->kind,
 * data, size, name and has_raw must be cleared by the caller.
 */
static inline bool field_read_leaf(const bitsift_schema *s, bitsift_reader *r,
                                   const struct schema_op *op, const int64_t *slots,
                                   bitsift_value *v, int64_t *as_int)
{
    uint64_t at = r->bit_pos;
    int64_t base = 0;
    *as_int = 0;
    switch ((enum op_code)op->code) {
    case OP_BITS:
        if (!bitsift_read_bits(r, op->width, &v->u))
            return false;
        v->kind = BITSIFT_VALUE_UINT;
        *as_int = (int64_t)v->u;
        break;
    case OP_BOOL:
        if (!bitsift_read_bool(r, &v->b))
            return false;
        v->kind = BITSIFT_VALUE_BOOL;
        *as_int = v->b;
        break;
    case OP_INT:
        if (!bitsift_read_int(r, op->min, op->max, &v->i))
            return false;
        v->kind = BITSIFT_VALUE_INT;
        *as_int = v->i;
        break;
    case OP_ENUM:
        if (!bitsift_read_int(r, op->min, op->max, &v->i))
            return false;
        v->kind = BITSIFT_VALUE_ENUM;
        v->name = field_enum_name(s, op->enum_id, v->i);
        if (!v->name)
            return bitsift_reader_fail(r, BITSIFT_E_RANGE, at, "value has no name in its enum",
                                       (uint64_t)op->max - (uint64_t)op->min,
                                       (uint64_t)v->i - (uint64_t)op->min);
        *as_int = v->i;
        break;
    case OP_FLOAT:
        if (!bitsift_read_float(r, &v->f))
            return false;
        v->kind = BITSIFT_VALUE_FLOAT;
        break;
    case OP_DOUBLE:
        if (!bitsift_read_double(r, &v->d))
            return false;
        v->kind = BITSIFT_VALUE_DOUBLE;
        break;
    case OP_CFLOAT:
        if (!bitsift_read_bits(r, op->width, &v->raw))
            return false;
        if (v->raw > op->steps)
            return bitsift_reader_fail(r, BITSIFT_E_RANGE, at,
                                       "compressed float above its step count", op->steps, v->raw);
        v->kind = BITSIFT_VALUE_FLOAT;
        v->has_raw = true;
        break;
    case OP_BYTES:
        if (!bitsift_read_bytes_view(r, op->width, &v->data))
            return false;
        v->kind = BITSIFT_VALUE_BYTES;
        v->size = op->width;
        break;
    case OP_STRING:
        if (!bitsift_read_string_view(r, op->width, &v->data, &v->size))
            return false;
        v->kind = BITSIFT_VALUE_STRING;
        break;
    case OP_ALIGN:
        if (!bitsift_read_align(r))
            return false;
        break;
    case OP_CHECK:
        if (!bitsift_read_check(r, op->check))
            return false;
        v->kind = BITSIFT_VALUE_UINT;
        v->u = op->check;
        break;
    case OP_INT_REL:
    case OP_OBJ_INDEX: {
        int32_t cur;
        if (!field_base(r, op, slots, INT32_MIN, INT32_MAX, &base))
            return false;
        if (op->code == OP_INT_REL
                ? !bitsift_read_int_relative(r, (int32_t)base, &cur)
                : !bitsift_read_object_index(r, (int32_t)base, op->max_objects, &cur))
            return false;
        v->kind = BITSIFT_VALUE_INT;
        v->i = *as_int = cur;
        break;
    }
    case OP_SEQ_REL:
    case OP_ACK_REL: {
        uint16_t cur;
        if (!field_base(r, op, slots, 0, 65535, &base))
            return false;
        if (op->code == OP_SEQ_REL ? !bitsift_read_sequence_relative(r, (uint16_t)base, &cur)
                                   : !bitsift_read_ack_relative(r, (uint16_t)base, &cur))
            return false;
        v->kind = BITSIFT_VALUE_UINT;
        v->u = cur;
        *as_int = cur;
        break;
    }
    case OP_SMALLEST3:
        /* The largest component's index and three raw components: any
         * raw values make a quaternion, and it keeps no slot. */
        if (!bitsift_read_bits(r, 2, &v->raw))
            return false;
        for (int k = 0; k < 3; k++)
            if (!bitsift_read_bits(r, op->width, &v->raw))
                return false;
        return true;
    default:
        return bitsift_reader_fail(r, BITSIFT_E_SCHEMA, at, "bad op", 0, op->code);
    }
    if (op->allowed_count && !schema_allowed(s, op, *as_int))
        return bitsift_reader_fail(r, BITSIFT_E_RANGE, at, "value not allowed by the schema",
                                   (uint64_t)s->allowed[op->allowed_first], (uint64_t)*as_int);
    return true;
}

#endif /* BITSIFT_FIELD_READ_H */
