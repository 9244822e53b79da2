/*
 * schema_size.c -- the smallest and largest number of bits a range of
 * ops can take on the wire: what the compiler records for every field and
 * packet, and what `bitsift schema` prints. Each leaf's size comes from
 * its row of the field-type table (field_types.h); containers add up or
 * multiply their bodies, saturating at UINT64_MAX.
 */
#include "schema_internal.h"

static uint64_t object_index_max_bits(int64_t max_objects)
{
    if (max_objects + 1 < 126)
        return 12;
    return 6 + bitsift_bits_required(126, max_objects + 1);
}

void schema_size(const bitsift_schema *s, uint32_t first, uint32_t end, uint64_t *min,
                  uint64_t *max)
{
    uint64_t lo = 0, hi = 0;
    for (uint32_t i = first; i < end;) {
        const struct schema_op *op = &s->ops[i];
        uint64_t a = 0, b = 0;
        switch ((enum op_code)op->code) {
        case OP_BITS:
        case OP_INT:
        case OP_ENUM:
        case OP_CFLOAT:
            a = b = op->code == OP_BITS || op->code == OP_CFLOAT
                        ? op->width
                        : bitsift_bits_required(op->min, op->max);
            break;
        case OP_BOOL:
            a = b = 1;
            break;
        case OP_FLOAT:
            a = b = 32;
            break;
        case OP_DOUBLE:
            a = b = 64;
            break;
        case OP_BYTES:
            a = 8ull * op->width, b = a + 7;
            break;
        case OP_STRING:
            a = bitsift_bits_required(0, (int64_t)op->width - 1);
            b = a + 7 + 8ull * (op->width - 1);
            break;
        case OP_ALIGN:
            a = 0, b = 7;
            break;
        case OP_CHECK:
            a = 32, b = 39;
            break;
        case OP_INT_REL:
        case OP_SEQ_REL:
            a = 1, b = 38;
            break;
        case OP_ACK_REL:
            a = 7, b = 17;
            break;
        case OP_OBJ_INDEX:
            a = 1, b = object_index_max_bits(op->max_objects);
            break;
        case OP_SMALLEST3:
            a = b = 2 + 3ull * op->width;
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

