/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * schema_size.c -- the smallest and largest number of bits a range of
 * ops can take on the wire: what the compiler records for every field and
 * packet, and what `bitsift schema` prints. Each leaf's size comes from
 * its row of the field-type table (field_types.h); containers add up or
 * multiply their bodies, saturating at UINT64_MAX.
 *
 * The same walk gives what a random packet must keep room for
 * (schema_promise_bits): the fewest elements and branches, but each leaf
 * at its most (its alignment padding, its widest relative step), except a
 * string's characters, whose count the random walk picks within its room.
 */
#include "schema_internal.h"

static void size_of(const bitsift_schema *s, uint32_t first, uint32_t end, bool promise,
                    uint64_t *min, uint64_t *max)
{
    uint64_t lo = 0, hi = 0;
    for (uint32_t i = first; i < end;) {
        const struct schema_op *op = &s->ops[i];
        uint64_t a = 0, b = 0;
        switch ((enum op_code)op->code) {
        default:
            field_size(op, &a, &b);
            if (promise)
                a = op->code == OP_STRING ? a + 7 : b;
            break;
        case OP_STRUCT:
            size_of(s, i + 1, op->end, promise, &a, &b);
            break;
        case OP_IF: {
            uint64_t ta, tb, ea, eb;
            size_of(s, i + 1, op->else_start, promise, &ta, &tb);
            size_of(s, op->else_start, op->end, promise, &ea, &eb);
            a = ta < ea ? ta : ea;
            b = tb > eb ? tb : eb;
            break;
        }
        case OP_ARRAY: {
            uint64_t ea, eb, n = (uint64_t)op->max;
            size_of(s, i + 1, op->end, promise, &ea, &eb);
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

void schema_size(const bitsift_schema *s, uint32_t first, uint32_t end, uint64_t *min,
                 uint64_t *max)
{
    size_of(s, first, end, false, min, max);
}

uint64_t schema_promise_bits(const bitsift_schema *s, uint32_t first, uint32_t end)
{
    uint64_t min, max;
    size_of(s, first, end, true, &min, &max);
    return min;
}
