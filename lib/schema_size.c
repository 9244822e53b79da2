/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * schema_size.c -- the smallest and largest number of bits a range of
 * ops can take on the wire: what the compiler records for every field and
 * packet, and what `bitsift schema` prints. Each leaf's size comes from
 * its row of the field-type table (field_types.h); containers add up or
 * multiply their bodies, saturating at UINT64_MAX.
 */
#include "schema_internal.h"

void schema_size(const bitsift_schema *s, uint32_t first, uint32_t end, uint64_t *min,
                 uint64_t *max)
{
    uint64_t lo = 0, hi = 0;
    for (uint32_t i = first; i < end;) {
        const struct schema_op *op = &s->ops[i];
        uint64_t a = 0, b = 0;
        switch ((enum op_code)op->code) {
        default:
            field_size(op, &a, &b);
            break;
        case OP_STRUCT:
            schema_size(s, i + 1, op->end, &a, &b);
            break;
        case OP_IF: {
            uint64_t ta, tb, ea, eb;
            schema_size(s, i + 1, op->else_start, &ta, &tb);
            schema_size(s, op->else_start, op->end, &ea, &eb);
            a = ta < ea ? ta : ea;
            b = tb > eb ? tb : eb;
            break;
        }
        case OP_ARRAY: {
            uint64_t ea, eb, n = (uint64_t)op->max;
            schema_size(s, i + 1, op->end, &ea, &eb);
            uint64_t count = bitsift_bits_required(0, op->max);
            switch ((enum array_kind)op->array_kind) {
            case ARRAY_FIXED:
                a = sat_mul(n, ea), b = sat_mul(n, eb);
                break;
            case ARRAY_COUNTED:
                a = 0, b = sat_mul(n, eb);
                break;
            case ARRAY_INLINE:
                a = count, b = sat_add(count, sat_mul(n, eb));
                break;
            case ARRAY_FLAGS:
                a = n, b = sat_add(n, sat_mul(n, eb));
                break;
            case ARRAY_INDICES:
                a = count;
                b = sat_add(count, sat_mul(n, sat_add(eb, bitsift_bits_required(0, op->max - 1))));
                break;
            case ARRAY_SENTINEL:
                a = count;
                b = sat_add(count, sat_mul(n, sat_add(eb, count)));
                break;
            case ARRAY_RELATIVE:
                a = count;
                b = sat_add(count, sat_mul(n, sat_add(eb, object_index_max_bits(op->max))));
                break;
            }
            break;
        }
        }
        lo = sat_add(lo, a);
        hi = sat_add(hi, b);
        i = (op->code == OP_STRUCT || op->code == OP_ARRAY || op->code == OP_IF) ? op->end : i + 1;
    }
    *min = lo;
    *max = hi;
}
