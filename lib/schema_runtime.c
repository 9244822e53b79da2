/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * schema_runtime.c -- the small helpers every walker of a compiled schema
 * shares at run time (decoder, validation program, encoder, random
 * packets, tree): enum names and values, conditions, value lists, default
 * values, smallest-three quantization, and a fresh result. Nothing here
 * knows about compiling.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "schema_internal.h"

/* ---- run-time helpers ---------------------------------------------------- */

const char *schema_enum_lookup(const bitsift_schema *s, int32_t enum_id, int64_t value)
{
    const struct schema_enum *e = &s->enums[enum_id];
    const struct schema_enum_value *v = s->enum_values + e->first;
    if (e->dense) {
        uint64_t k = (uint64_t)value - (uint64_t)v[0].value;
        return k < e->count ? v[k].name : NULL;
    }
    uint32_t lo = 0, hi = e->count;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (v[mid].value < value)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < e->count && v[lo].value == value ? v[lo].name : NULL;
}

bool schema_enum_value(const bitsift_schema *s, int32_t enum_id, const char *name, size_t len,
                       int64_t *value)
{
    const struct schema_enum *e = &s->enums[enum_id];
    for (uint32_t i = 0; i < e->count; i++) {
        const struct schema_enum_value *v = &s->enum_values[e->first + i];
        if (strlen(v->name) == len && memcmp(v->name, name, len) == 0) {
            *value = v->value;
            return true;
        }
    }
    return false;
}

bool schema_eval(const bitsift_schema *s, const struct schema_op *op, const int64_t *slots)
{
    switch ((enum cond_shape)op->cond_shape) {
    case COND_NONZERO:
        return slots[op->cond_slot] != 0;
    case COND_ZERO:
        return slots[op->cond_slot] == 0;
    case COND_EQ:
        return slots[op->cond_slot] == op->cond_value;
    case COND_NE:
        return slots[op->cond_slot] != op->cond_value;
    case COND_EXPR:
        break;
    }
    /* The common shapes ("field", "!field", "field == or != constant")
     * were decided above, from cond_shape (schema_prepare_ops); the rest
     * run on the stack. */
    int64_t stack[SCHEMA_MAX_EXPR];
    unsigned sp = 0;
    for (uint32_t i = 0; i < op->expr_count; i++) {
        const struct expr_item *e = &s->expr[op->expr_first + i];
        int64_t a, b;
        switch (e->code) {
        case EXPR_CONST:
            stack[sp++] = e->value;
            continue;
        case EXPR_SLOT:
            stack[sp++] = slots[e->value];
            continue;
        case EXPR_NOT:
            stack[sp - 1] = !stack[sp - 1];
            continue;
        default:
            break;
        }
        b = stack[--sp];
        a = stack[sp - 1];
        int64_t r = 0;
        switch (e->code) {
        case EXPR_EQ:
            r = a == b;
            break;
        case EXPR_NE:
            r = a != b;
            break;
        case EXPR_LT:
            r = a < b;
            break;
        case EXPR_LE:
            r = a <= b;
            break;
        case EXPR_GT:
            r = a > b;
            break;
        case EXPR_GE:
            r = a >= b;
            break;
        case EXPR_AND:
            r = a && b;
            break;
        case EXPR_OR:
            r = a || b;
            break;
        default:
            break;
        }
        stack[sp - 1] = r;
    }
    return sp && stack[sp - 1] != 0;
}

bool schema_allowed(const bitsift_schema *s, const struct schema_op *op, int64_t v)
{
    if (!op->allowed_count)
        return true;
    for (uint32_t i = 0; i < op->allowed_count; i++)
        if (s->allowed[op->allowed_first + i] == v)
            return true;
    return false;
}

/* smallest three: the bit layer's quantization (smallest_three.c). */
float schema_s3_dequantize(uint32_t bits, uint32_t raw)
{
    return bitsift_smallest_three_dequantize(bits, raw);
}

uint32_t schema_s3_quantize(uint32_t bits, float v)
{
    return bitsift_smallest_three_quantize(bits, v);
}

bitsift_value schema_default(const struct schema_op *op)
{
    if (op->has_default)
        return op->def;
    bitsift_value v;
    memset(&v, 0, sizeof v);
    v.kind = schema_value_kind(op);
    return v;
}

int64_t schema_value_int(const bitsift_value *v)
{
    switch (v->kind) {
    case BITSIFT_VALUE_BOOL:
        return v->b;
    case BITSIFT_VALUE_UINT:
        return (int64_t)v->u;
    case BITSIFT_VALUE_INT:
    case BITSIFT_VALUE_ENUM:
        return v->i;
    default:
        return 0;
    }
}

void schema_result_init(bitsift_result *res)
{
    res->status = BITSIFT_OK;
    res->packet_type = -1;
    res->packet_name = NULL;
    res->bits = 0;
    res->fields = 0;
    res->stopped = false;
    memset(&res->failure, 0, sizeof res->failure);
    res->path[0] = 0;
}

#ifdef BITSIFT_PLANT_DISAGREEMENT
void schema_plant(enum schema_plant_path path, bitsift_result *res)
{
    static int planted = -1;
    if (planted < 0) {
        static const char *const names[] = {"", "visitor", "tree", "program", "interpreter"};
        const char *want = getenv("BITSIFT_PLANTED_PATH");
        planted = 0;
        for (int i = 1; want && i < 5; i++)
            if (strcmp(want, names[i]) == 0)
                planted = i;
    }
    if ((int)path == planted && res->status == BITSIFT_OK && res->bits % 3 == 1)
        res->bits++;
}
#endif
