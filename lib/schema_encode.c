/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * schema_encode.c -- writes a value tree as a packet by walking the
 * compiled op list, the mirror of schema_decode.c: framing, every field
 * through the core writer, checks, then the end check and the CRC.
 *
 * The tree is matched by name, so it may come from a decode, from NDJSON
 * or from a fuzzer. Values are converted only when nothing is lost, and
 * floats that a decode produced are written back to the very raw value
 * they came from (see kept_raw and quantize_exact), which is what makes
 * decode -> encode of a canonical packet give back the same bytes.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "schema_internal.h"

struct encoder {
    const bitsift_schema *s;
    bitsift_writer w;
    uint64_t fields;
    char path[BITSIFT_PATH_MAX];
    size_t path_len;
    int64_t slots[SCHEMA_MAX_SLOTS];
};

static void path_push(struct encoder *e, const char *name, int64_t index, size_t *saved)
{
    *saved = e->path_len;
    char part[BITSIFT_SCHEMA_MAX_NAME + 32];
    int n = name ? snprintf(part, sizeof part, "%s%s", e->path_len ? "." : "", name)
                 : snprintf(part, sizeof part, "[%lld]", (long long)index);
    if (n > 0 && e->path_len + (size_t)n + 1 <= sizeof e->path) {
        memcpy(e->path + e->path_len, part, (size_t)n + 1);
        e->path_len += (size_t)n;
    }
}

static void path_pop(struct encoder *e, size_t saved)
{
    e->path_len = saved;
    e->path[saved] = 0;
}

static bool fail(struct encoder *e, bitsift_error kind, const char *why, uint64_t expected,
                 uint64_t got)
{
    return bitsift_writer_fail(&e->w, kind, why, expected, got);
}

/* Child of a struct node by name; decoded trees hold them in op order, so
 * *hint (the position after the last match) usually finds it at once. */
static const bitsift_node *child(const bitsift_node *parent, const char *name, size_t *hint)
{
    size_t n = bitsift_node_child_count(parent);
    for (size_t k = 0; k < n; k++) {
        size_t i = (*hint + k) % n;
        const bitsift_node *c = bitsift_node_child_at(parent, i);
        const char *cname = bitsift_node_name(c);
        if (cname && strcmp(cname, name) == 0) {
            *hint = i + 1;
            return c;
        }
    }
    return NULL;
}

/* ---- value conversion ------------------------------------------------------- */

static bool as_int(struct encoder *e, const struct schema_op *op, const bitsift_value *v,
                   int64_t *out)
{
    switch (v->kind) {
    case BITSIFT_VALUE_BOOL:
        *out = v->b;
        return true;
    case BITSIFT_VALUE_INT:
    case BITSIFT_VALUE_ENUM:
        if (v->kind == BITSIFT_VALUE_ENUM && op->code == OP_ENUM && v->name &&
            !schema_enum_value(e->s, op->enum_id, v->name, strlen(v->name), out))
            return fail(e, BITSIFT_E_VALUE, "unknown enum name", 0, 0);
        if (v->kind == BITSIFT_VALUE_ENUM && op->code == OP_ENUM && v->name)
            return true;
        *out = v->i;
        return true;
    case BITSIFT_VALUE_UINT:
        if (v->u > INT64_MAX && !(op->code == OP_BITS && op->width == 64))
            return fail(e, BITSIFT_E_VALUE, "value too large", INT64_MAX, v->u);
        *out = (int64_t)v->u;
        return true;
    case BITSIFT_VALUE_FLOAT:
    case BITSIFT_VALUE_DOUBLE: {
        double d = v->kind == BITSIFT_VALUE_FLOAT ? v->f : v->d;
        if (!(d >= -9.2e18 && d <= 9.2e18) || d != floor(d))
            return fail(e, BITSIFT_E_VALUE, "not an integer", 0, 0);
        *out = (int64_t)d;
        return true;
    }
    case BITSIFT_VALUE_STRING:
        if (op->code == OP_ENUM && v->data &&
            schema_enum_value(e->s, op->enum_id, (const char *)v->data, v->size, out))
            return true;
        return fail(e, BITSIFT_E_VALUE,
                    op->code == OP_ENUM ? "unknown enum name" : "a string where a number goes",
                    0, 0);
    default:
        return fail(e, BITSIFT_E_VALUE, "value of the wrong kind", 0, v->kind);
    }
}

static bool as_float(struct encoder *e, const bitsift_value *v, double *out, float *f32)
{
    switch (v->kind) {
    case BITSIFT_VALUE_FLOAT:
        *f32 = v->f;
        *out = v->f;
        return true;
    case BITSIFT_VALUE_DOUBLE:
        *out = v->d;
        *f32 = (float)v->d;
        return true;
    case BITSIFT_VALUE_INT:
    case BITSIFT_VALUE_ENUM:
        *out = (double)v->i;
        *f32 = (float)v->i;
        return true;
    case BITSIFT_VALUE_UINT:
        *out = (double)v->u;
        *f32 = (float)v->u;
        return true;
    default:
        return fail(e, BITSIFT_E_VALUE, "value is not a number", 0, v->kind);
    }
}

/* The raw value whose dequantized form is exactly `v` when there is one
 * next to the rounded one (float rounding can land one step off); a
 * smallest-three component (compressed floats have their own search,
 * bitsift_compressed_float_quantize). */
static uint32_t quantize_exact(uint32_t q, uint32_t top, float v, float (*dq)(const void *, uint32_t),
                               const void *ctx)
{
    if (dq(ctx, q) == v)
        return q;
    if (q > 0 && dq(ctx, q - 1) == v)
        return q - 1;
    if (q < top && dq(ctx, q + 1) == v)
        return q + 1;
    return q;
}

static float dq_cfloat(const void *ctx, uint32_t raw)
{
    const struct schema_op *op = ctx;
    return bitsift_compressed_float_value(op->fmin, op->fmax, op->steps, raw);
}

static float dq_s3(const void *ctx, uint32_t raw)
{
    const struct schema_op *op = ctx;
    return schema_s3_dequantize(op->width, raw);
}

/* A decoded value still holding its wire integer: write that integer
 * back (many steps can share one float when there are over 2^24). */
static bool kept_raw(const bitsift_value *v, uint32_t top, float f,
                     float (*dq)(const void *, uint32_t), const void *ctx, uint32_t *raw)
{
    if (!v->has_raw || v->raw > top)
        return false;
    float back = dq(ctx, (uint32_t)v->raw);
    if (memcmp(&back, &f, sizeof f) != 0)
        return false;
    *raw = (uint32_t)v->raw;
    return true;
}

static bool base_of(struct encoder *e, const struct schema_op *op, int64_t lo, int64_t hi,
                    int64_t *base)
{
    int64_t b = op->base_kind == BASE_CONST ? op->base : e->slots[op->base_slot];
    if (b < lo || b > hi)
        return fail(e, BITSIFT_E_VALUE, "relative base out of range", (uint64_t)hi, (uint64_t)b);
    *base = b;
    return true;
}

static bool write_smallest_three(struct encoder *e, const struct schema_op *op,
                                 const bitsift_node *n)
{
    if (!n || bitsift_node_kind_of(n) != BITSIFT_NODE_STRUCT)
        return fail(e, BITSIFT_E_VALUE, "a quaternion needs x, y, z and w", 0, 0);
    static const char *const names[] = {"x", "y", "z", "w"};
    float q[4];
    const bitsift_value *qv[4];
    size_t hint = 0;
    for (int k = 0; k < 4; k++) {
        const bitsift_node *c = child(n, names[k], &hint);
        double d;
        if (!c)
            return fail(e, BITSIFT_E_VALUE, "a quaternion needs x, y, z and w", 0, 0);
        qv[k] = bitsift_node_value(c);
        if (!as_float(e, qv[k], &d, &q[k]))
            return false;
    }
    int64_t largest = -1;
    const bitsift_node *l = child(n, "largest", &hint);
    if (l && (!as_int(e, op, bitsift_node_value(l), &largest) || largest < 0 || largest > 3))
        return bitsift_writer_ok(&e->w) ? fail(e, BITSIFT_E_VALUE, "largest must be 0..3", 3,
                                               (uint64_t)largest)
                                        : false;
    if (largest < 0) {
        largest = 0;
        for (int k = 1; k < 4; k++)
            if (fabsf(q[k]) > fabsf(q[largest]))
                largest = k;
    }
    /* q and -q are the same rotation: send the one whose largest is >= 0
     * (a negated component no longer matches its kept raw value). */
    bool negated = q[largest] < 0;
    if (negated)
        for (int k = 0; k < 4; k++)
            q[k] = -q[k];
    if (!bitsift_write_bits(&e->w, 2, (uint64_t)largest))
        return false;
    uint32_t top = (1u << op->width) - 1;
    for (int k = 0; k < 4; k++) {
        if (k == largest)
            continue;
        uint32_t raw;
        if (negated || !kept_raw(qv[k], top, q[k], dq_s3, op, &raw))
            raw = quantize_exact(schema_s3_quantize(op->width, q[k]), top, q[k], dq_s3, op);
        if (!bitsift_write_bits(&e->w, op->width, raw))
            return false;
    }
    e->fields++;
    return true;
}

static bool write_leaf(struct encoder *e, const struct schema_op *op, const bitsift_value *v)
{
    bitsift_writer *w = &e->w;
    int64_t i = 0;
    double d = 0;
    float f = 0;
    switch ((enum op_code)op->code) {
    case OP_BITS:
        if (!as_int(e, op, v, &i))
            return false;
        if (op->width < 64 && (i < 0 || (uint64_t)i > (uint64_t)op->max))
            return fail(e, BITSIFT_E_VALUE, "value does not fit its bits", (uint64_t)op->max,
                        (uint64_t)i);
        if (!bitsift_write_bits(w, op->width, (uint64_t)i))
            return false;
        break;
    case OP_BOOL:
        if (!as_int(e, op, v, &i))
            return false;
        if (i != 0 && i != 1)
            return fail(e, BITSIFT_E_VALUE, "a bool is 0 or 1", 1, (uint64_t)i);
        if (!bitsift_write_bool(w, i != 0))
            return false;
        break;
    case OP_INT:
    case OP_ENUM:
        if (!as_int(e, op, v, &i))
            return false;
        if (i < op->min || i > op->max)
            return fail(e, BITSIFT_E_VALUE, "value outside the field's range",
                        (uint64_t)op->max, (uint64_t)i);
        if (op->code == OP_ENUM && !schema_enum_lookup(e->s, op->enum_id, i))
            return fail(e, BITSIFT_E_VALUE, "value has no name in its enum", 0, (uint64_t)i);
        if (!bitsift_write_int(w, op->min, op->max, i))
            return false;
        break;
    case OP_FLOAT:
        if (!as_float(e, v, &d, &f) || !bitsift_write_float(w, f))
            return false;
        break;
    case OP_DOUBLE:
        if (!as_float(e, v, &d, &f))
            return false;
        if (v->kind == BITSIFT_VALUE_FLOAT)
            d = v->f;
        if (!bitsift_write_double(w, d))
            return false;
        break;
    case OP_CFLOAT: {
        if (!as_float(e, v, &d, &f))
            return false;
        uint32_t q;
        if (!kept_raw(v, op->steps, f, dq_cfloat, op, &q))
            q = bitsift_compressed_float_quantize(op->fmin, op->fmax, op->steps, f);
        if (!bitsift_write_bits(w, op->width, q))
            return false;
        break;
    }
    case OP_BYTES:
        if ((v->kind != BITSIFT_VALUE_BYTES && v->kind != BITSIFT_VALUE_STRING) ||
            v->size != op->width)
            return fail(e, BITSIFT_E_VALUE, "bytes of the wrong length", op->width,
                        v->kind == BITSIFT_VALUE_BYTES || v->kind == BITSIFT_VALUE_STRING
                            ? v->size
                            : 0);
        if (!bitsift_write_bytes(w, v->data, v->size))
            return false;
        break;
    case OP_STRING:
        if (v->kind != BITSIFT_VALUE_STRING && v->kind != BITSIFT_VALUE_BYTES)
            return fail(e, BITSIFT_E_VALUE, "a string field needs a string", 0, v->kind);
        if (v->size >= op->width)
            return fail(e, BITSIFT_E_VALUE, "string longer than its buffer allows",
                        op->width - 1, v->size);
        if (!bitsift_write_string_n(w, v->data, v->size, op->width))
            return false;
        break;
    case OP_INT_REL:
    case OP_OBJ_INDEX: {
        int64_t base = 0;
        if (!as_int(e, op, v, &i) || !base_of(e, op, INT32_MIN, INT32_MAX, &base))
            return false;
        if (i <= base || i > INT32_MAX)
            return fail(e, BITSIFT_E_VALUE, "relative value must be above its base",
                        (uint64_t)base + 1, (uint64_t)i);
        if (op->code == OP_INT_REL ? !bitsift_write_int_relative(w, (int32_t)base, (int32_t)i)
                                   : !bitsift_write_object_index(w, (int32_t)base,
                                                                 op->max_objects, (int32_t)i))
            return false;
        break;
    }
    case OP_SEQ_REL:
    case OP_ACK_REL: {
        int64_t base = 0;
        if (!as_int(e, op, v, &i) || !base_of(e, op, 0, 65535, &base))
            return false;
        if (i < 0 || i > 65535)
            return fail(e, BITSIFT_E_VALUE, "sequence outside 0..65535", 65535, (uint64_t)i);
        if (op->code == OP_SEQ_REL
                ? !bitsift_write_sequence_relative(w, (uint16_t)base, (uint16_t)i)
                : !bitsift_write_ack_relative(w, (uint16_t)base, (uint16_t)i))
            return false;
        break;
    }
    default:
        return fail(e, BITSIFT_E_ARGUMENT, "bad op", 0, op->code);
    }
    if (op->allowed_count && !schema_allowed(e->s, op, i))
        return fail(e, BITSIFT_E_VALUE, "value not allowed by the schema",
                    (uint64_t)e->s->allowed[op->allowed_first], (uint64_t)i);
    if (op->slot >= 0)
        e->slots[op->slot] = i;
    e->fields++;
    return true;
}

/* ---- containers --------------------------------------------------------------- */

static bool run(struct encoder *e, uint32_t first, uint32_t end, const bitsift_node *parent);

static bool write_struct(struct encoder *e, const struct schema_op *op, const bitsift_node *n)
{
    if (!n || bitsift_node_kind_of(n) != BITSIFT_NODE_STRUCT)
        return fail(e, BITSIFT_E_VALUE, "expected a struct", BITSIFT_NODE_STRUCT,
                    n ? bitsift_node_kind_of(n) : 0);
    return run(e, (uint32_t)(op - e->s->ops) + 1, op->end, n);
}

static bool write_element(struct encoder *e, const struct schema_op *arr, const bitsift_node *n)
{
    const struct schema_op *elem = arr + 1;
    if (elem->code == OP_STRUCT)
        return write_struct(e, elem, n);
    if (elem->code == OP_SMALLEST3)
        return write_smallest_three(e, elem, n);
    if (bitsift_node_kind_of(n) != BITSIFT_NODE_VALUE)
        return fail(e, BITSIFT_E_VALUE, "expected a value", 0, 0);
    return write_leaf(e, elem, bitsift_node_value(n));
}

static bool write_array(struct encoder *e, const struct schema_op *op, const bitsift_node *n)
{
    bitsift_writer *w = &e->w;
    if (!n || bitsift_node_kind_of(n) != BITSIFT_NODE_ARRAY)
        return fail(e, BITSIFT_E_VALUE, "expected an array", 0, 0);
    int64_t count = (int64_t)bitsift_node_child_count(n), max = op->max;
    schema_reset_bases(e->s, op, e->slots);
    if (count > max)
        return fail(e, BITSIFT_E_VALUE, "more elements than the array's maximum", (uint64_t)max,
                    (uint64_t)count);
    bool sparse = op->array_kind >= ARRAY_FLAGS;
    if (sparse) {
        int64_t previous = -1;
        for (int64_t k = 0; k < count; k++) {
            int64_t index = bitsift_node_index(bitsift_node_child_at(n, (size_t)k));
            if (index <= previous || index >= max)
                return fail(e, BITSIFT_E_VALUE,
                            "sparse element indices must increase and stay below the maximum",
                            (uint64_t)max, (uint64_t)index);
            previous = index;
        }
    }
    switch ((enum array_kind)op->array_kind) {
    case ARRAY_FIXED:
        if (count != max)
            return fail(e, BITSIFT_E_VALUE, "fixed array needs exactly its size in elements",
                        (uint64_t)max, (uint64_t)count);
        break;
    case ARRAY_COUNTED:
        if (count != e->slots[op->count_slot])
            return fail(e, BITSIFT_E_VALUE, "array length differs from its count field",
                        (uint64_t)e->slots[op->count_slot], (uint64_t)count);
        break;
    case ARRAY_INLINE:
    case ARRAY_INDICES:
    case ARRAY_RELATIVE:
        if (!bitsift_write_int(w, 0, max, count))
            return false;
        break;
    default:
        break;
    }
    size_t k = 0;
    int64_t previous = -1;
    if (op->array_kind == ARRAY_FLAGS) {
        for (int64_t slot = 0; slot < max; slot++) {
            const bitsift_node *c = k < (size_t)count ? bitsift_node_child_at(n, k) : NULL;
            bool here = c && bitsift_node_index(c) == slot;
            if (!bitsift_write_bool(w, here))
                return false;
            if (here) {
                size_t saved;
                path_push(e, NULL, slot, &saved);
                if (!write_element(e, op, c))
                    return false;
                path_pop(e, saved);
                k++;
            }
        }
        return true;
    }
    for (k = 0; k < (size_t)count; k++) {
        const bitsift_node *c = bitsift_node_child_at(n, k);
        int64_t index = sparse ? bitsift_node_index(c) : (int64_t)k;
        size_t saved;
        path_push(e, NULL, index, &saved);
        switch ((enum array_kind)op->array_kind) {
        case ARRAY_INDICES:
            if (!bitsift_write_int(w, 0, max - 1, index))
                return false;
            break;
        case ARRAY_SENTINEL:
            if (!bitsift_write_int(w, 0, max, index))
                return false;
            break;
        case ARRAY_RELATIVE:
            if (!bitsift_write_object_index(w, (int32_t)previous, (int32_t)max, (int32_t)index))
                return false;
            break;
        default:
            break;
        }
        if (!write_element(e, op, c))
            return false;
        path_pop(e, saved);
        previous = index;
    }
    if (op->array_kind == ARRAY_SENTINEL && !bitsift_write_int(w, 0, max, max))
        return false;
    return true;
}

/* A leaf with no node: a fixed value, or a count its array implies. */
static bool implied_value(struct encoder *e, const struct schema_op *op,
                          const bitsift_node *parent, bitsift_value *v)
{
    memset(v, 0, sizeof *v);
    if (op->fixed) {
        v->kind = BITSIFT_VALUE_INT;
        v->i = e->s->allowed[op->allowed_first];
        return true;
    }
    if (op->count_for >= 0) {
        size_t hint = 0;
        const bitsift_node *arr = child(parent, e->s->ops[op->count_for].name, &hint);
        if (arr && bitsift_node_kind_of(arr) == BITSIFT_NODE_ARRAY) {
            v->kind = BITSIFT_VALUE_INT;
            v->i = (int64_t)bitsift_node_child_count(arr);
            return true;
        }
    }
    return false;
}

/* The branch of the IF op at `i` that its condition takes. */
static bool write_if(struct encoder *e, uint32_t i, const bitsift_node *parent)
{
    uint32_t first, end;
    schema_take_branch(e->s, i, e->slots, &first, &end);
    return run(e, first, end, parent);
}

static bool run(struct encoder *e, uint32_t first, uint32_t end, const bitsift_node *parent)
{
    const struct schema_op *ops = e->s->ops;
    size_t hint = 0;
    for (uint32_t i = first; i < end;) {
        const struct schema_op *op = &ops[i];
        if (op->code == OP_IF) {
            if (!write_if(e, i, parent))
                return false;
            i = op->end;
            continue;
        }
        if (op->code == OP_ALIGN || op->code == OP_CHECK) {
            if (op->code == OP_ALIGN ? !bitsift_write_align(&e->w)
                                     : !bitsift_write_check(&e->w, op->check))
                return false;
            i++;
            continue;
        }
        const bitsift_node *n = child(parent, op->name, &hint);
        size_t saved;
        path_push(e, op->name, 0, &saved);
        bool ok;
        if (op->code == OP_STRUCT) {
            ok = n ? write_struct(e, op, n) : fail(e, BITSIFT_E_VALUE, "missing field", 0, 0);
        } else if (op->code == OP_ARRAY) {
            ok = n ? write_array(e, op, n) : fail(e, BITSIFT_E_VALUE, "missing field", 0, 0);
        } else if (op->code == OP_SMALLEST3) {
            ok = write_smallest_three(e, op, n);
        } else {
            bitsift_value v;
            if (n && bitsift_node_kind_of(n) != BITSIFT_NODE_VALUE)
                ok = fail(e, BITSIFT_E_VALUE, "expected a value", 0, 0);
            else if (n)
                ok = write_leaf(e, op, bitsift_node_value(n));
            else if (implied_value(e, op, parent, &v))
                ok = write_leaf(e, op, &v);
            else
                ok = fail(e, BITSIFT_E_VALUE, "missing field", 0, 0);
        }
        if (!ok)
            return false;
        path_pop(e, saved);
        i = (op->code == OP_STRUCT || op->code == OP_ARRAY) ? op->end : i + 1;
    }
    return true;
}

bitsift_error bitsift_encode(const bitsift_schema *s, const bitsift_tree *t, void *out,
                             size_t capacity, size_t *size, bitsift_result *res)
{
    bitsift_result local;
    if (!res)
        res = &local;
    schema_result_init(res);
    if (size)
        *size = 0;
    if (!s || !t || (!out && capacity) || bitsift_tree_packet_type(t) < 0) {
        res->status = res->failure.kind = BITSIFT_E_ARGUMENT;
        res->failure.why = "no schema, no output buffer or an empty tree";
        return res->status;
    }
    struct encoder e;
    e.s = s;
    e.fields = 0;
    e.path[0] = 0;
    e.path_len = 0;
    memset(e.slots, 0, sizeof(e.slots[0]) * s->slot_count);
    bitsift_writer_init(&e.w, out, capacity);
    unsigned type = (unsigned)bitsift_tree_packet_type(t);
    res->packet_type = (int)type;
    res->packet_name = s->packets[type].name;
    const struct schema_packet *p = &s->packets[type];
    size_t bytes = 0;
    bool ok = bitsift_packet_write_begin(&e.w, &s->framing, NULL, type) &&
              run(&e, p->first_op + 1, p->end_op, bitsift_tree_root(t)) &&
              bitsift_packet_write_end(&e.w, &s->framing, &bytes);
    res->fields = e.fields;
    res->bits = e.w.bit_pos;
    if (ok) {
        if (size)
            *size = bytes;
        return BITSIFT_OK;
    }
    res->failure = e.w.failure;
    if (res->failure.kind == BITSIFT_OK)
        res->failure.kind = BITSIFT_E_VALUE;
    res->failure.bit = e.w.bit_pos;
    res->status = res->failure.kind;
    snprintf(res->path, sizeof res->path, "%s", e.path);
    res->failure.field = res->path;
    return res->status;
}
