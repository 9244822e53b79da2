/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fuzz_tree_mutate.c -- libbitsift-fuzz: one schema-aware change to a
 * decoded value tree (bitsift_fuzz_mutate_tree, bitsift/fuzz.h). The field's description (bitsift_field_info: range,
 * width, enum values, maximum count) says which values are interesting:
 *
 *   integers, enums  a random value in range, min, max, min - 1, max + 1,
 *                    another named enum value
 *   uintN, bits N    0, 2^N - 1, random; 2^N is out of range
 *   bool             flipped
 *   floats           0, -0, NaN, infinities, the range's edges and one
 *                    resolution step past them, random bits
 *   strings, bytes   another length (0, the largest, one past it) and
 *                    other bytes (NUL, invalid UTF-8)
 *   arrays           one element more (a copy of one) or one fewer
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bitsift/fuzz.h"
#include "fuzz_input.h"

/* A value that does not fit the field: as a raw wire value of `width`
 * bits, for the caller that wants to put it on the wire. */
static void out_of_range(bitsift_fuzz_mutation *m, uint64_t raw, unsigned width)
{
    m->kind = BITSIFT_FUZZ_MUTATION_OUT_OF_RANGE;
    m->raw = raw;
    m->width = width;
}

static void mutate_integer(const bitsift_schema *s, int id, const bitsift_field_info *info,
                           bitsift_value *v, fuzz_input *in, bitsift_fuzz_mutation *m)
{
    bool is_uint = v->kind == BITSIFT_VALUE_UINT;
    int64_t min = info->min, max = info->max;
    if (is_uint && info->width >= 1 && info->width <= 64 && min == 0 && max == 0) {
        min = 0;
        max = info->width >= 63 ? INT64_MAX : (int64_t)((1ull << info->width) - 1);
    }
    uint64_t span = (uint64_t)max - (uint64_t)min;
    unsigned width = bitsift_bits_required(min, max);
    int64_t x;
    switch (fuzz_u8(in) % 7) {
    case 0:
        x = min;
        break;
    case 1:
        x = max;
        break;
    case 2:
        if (min == INT64_MIN)
            return mutate_integer(s, id, info, v, in, m);
        x = min - 1;
        /* Below min cannot be sent: raw values are unsigned offsets. */
        out_of_range(m, UINT64_MAX, width);
        break;
    case 3:
        x = (int64_t)((uint64_t)max + 1);
        if (width < 64 && span + 1 < (1ull << width))
            out_of_range(m, span + 1, width); /* fits the field's bits */
        else
            out_of_range(m, UINT64_MAX, width);
        break;
    case 4:
        if (info->type == BITSIFT_FIELD_ENUM) {
            /* Another value with a name. */
            for (int tries = 0; tries < 8; tries++) {
                x = (int64_t)((uint64_t)min + fuzz_le(in, 2) % (span + 1));
                if (bitsift_schema_enum_name(s, (unsigned)id, x))
                    break;
            }
        } else {
            x = (int64_t)((uint64_t)min + (span == UINT64_MAX ? fuzz_le(in, 8)
                                                              : fuzz_le(in, 8) % (span + 1)));
        }
        break;
    case 5:
        x = (int64_t)fuzz_le(in, 8); /* anything */
        if (x < min || x > max)
            out_of_range(m, UINT64_MAX, width);
        break;
    default:
        x = is_uint ? (int64_t)(v->u ^ (1ull << (fuzz_u8(in) % 64))) : v->i + 1;
        if (x < min || x > max)
            out_of_range(m, UINT64_MAX, width);
        break;
    }
    if (is_uint)
        v->u = (uint64_t)x;
    else
        v->i = x;
    if (v->kind == BITSIFT_VALUE_ENUM)
        v->name = NULL; /* the encoder takes the number */
}

static void mutate_float(const bitsift_field_info *info, bitsift_value *v, fuzz_input *in,
                         bitsift_fuzz_mutation *m)
{
    bool compressed = info->type == BITSIFT_FIELD_COMPRESSED_FLOAT ||
                      info->resolution > 0.0f;
    double x;
    switch (fuzz_u8(in) % 8) {
    case 0:
        x = 0.0;
        break;
    case 1:
        x = -0.0;
        break;
    case 2:
        x = NAN;
        break;
    case 3:
        x = fuzz_u8(in) & 1 ? INFINITY : -INFINITY;
        break;
    case 4:
        x = compressed ? info->fmin : -1.0e30;
        break;
    case 5:
        x = compressed ? info->fmax : 1.0e30;
        break;
    case 6:
        /* Past the edge: the encoder clamps compressed floats. */
        x = compressed ? (double)info->fmax + info->resolution : 3.0e38;
        break;
    default: {
        uint32_t bits = fuzz_u32(in);
        float f;
        memcpy(&f, &bits, sizeof f);
        x = f;
        break;
    }
    }
    (void)m;
    if (v->kind == BITSIFT_VALUE_DOUBLE)
        v->d = x;
    else
        v->f = (float)x;
}

static uint8_t text_buf[BITSIFT_SCHEMA_MAX_BYTES + 1];

static void mutate_bytes(const bitsift_field_info *info, bitsift_value *v, fuzz_input *in,
                         bitsift_fuzz_mutation *m)
{
    size_t max = info->max_count;
    bool string = v->kind == BITSIFT_VALUE_STRING;
    /* A string of buffer size N holds N - 1 bytes; bytes(N) exactly N. */
    size_t largest = string ? (max ? max - 1 : 0) : max;
    size_t len;
    switch (fuzz_u8(in) % 4) {
    case 0:
        len = 0;
        break;
    case 1:
        len = largest;
        break;
    case 2:
        len = largest + 1; /* one too many */
        break;
    default:
        len = largest ? fuzz_u16(in) % (largest + 1) : 0;
        break;
    }
    if (len > sizeof text_buf)
        len = sizeof text_buf;
    uint8_t fill = fuzz_u8(in);
    for (size_t i = 0; i < len; i++)
        text_buf[i] = (uint8_t)('a' + (i + fill) % 26);
    if (len && fill >= 0xf0)
        text_buf[fill % len] = fill & 1 ? 0x00 : 0xc3; /* NUL or a broken UTF-8 lead */
    if (string ? len > largest : len != max)
        m->kind = BITSIFT_FUZZ_MUTATION_OUT_OF_RANGE, m->width = 0;
    v->data = text_buf;
    v->size = len;
}

/* Copy node `src` (and its subtree) as a new child of `parent`. */
static bitsift_node *clone_node(bitsift_tree *t, bitsift_node *parent, const char *name,
                                const bitsift_node *src, unsigned depth)
{
    if (depth > BITSIFT_SCHEMA_MAX_DEPTH + 4)
        return NULL;
    bitsift_node *n;
    switch (bitsift_node_kind_of(src)) {
    case BITSIFT_NODE_STRUCT:
        n = bitsift_node_add_struct(t, parent, name);
        break;
    case BITSIFT_NODE_ARRAY:
        n = bitsift_node_add_array(t, parent, name);
        break;
    default:
        return bitsift_node_add_value(t, parent, name, bitsift_node_value(src));
    }
    if (!n)
        return NULL;
    size_t count = bitsift_node_child_count(src);
    for (size_t i = 0; i < count; i++) {
        const bitsift_node *child = bitsift_node_child_at(src, i);
        bitsift_node *c = clone_node(t, n, bitsift_node_name(child), child, depth + 1);
        if (!c)
            return NULL;
        if (bitsift_node_index(child) >= 0)
            bitsift_node_set_index(c, bitsift_node_index(child));
    }
    return n;
}

/* One element more (a copy of one of them) or one fewer. Only arrays
 * that are named children of a struct can be rebuilt. */
static bool mutate_count(bitsift_tree *t, bitsift_node *array, fuzz_input *in,
                         bitsift_fuzz_mutation *m)
{
    bitsift_node *parent = bitsift_node_parent(array);
    const char *name = bitsift_node_name(array);
    size_t count = bitsift_node_child_count(array);
    if (!name || (parent && bitsift_node_kind_of(parent) != BITSIFT_NODE_STRUCT))
        return false;
    m->kind = BITSIFT_FUZZ_MUTATION_COUNT;
    if (count > 0 && fuzz_u8(in) & 1) {
        bitsift_node *src = bitsift_node_child_at(array, fuzz_u16(in) % count);
        bitsift_node *copy = clone_node(t, array, NULL, src, 0);
        if (copy && bitsift_node_index(src) >= 0)
            bitsift_node_set_index(copy, bitsift_node_index(src) + 1);
        m->node = array;
        return copy != NULL;
    }
    if (count == 0)
        return false;
    /* Rebuild without one element: the new array replaces the old one in
     * its parent; the old nodes stay in the tree's arena until reset. */
    size_t drop = fuzz_u16(in) % count;
    bitsift_node *rebuilt = bitsift_node_add_array(t, parent, name);
    if (!rebuilt)
        return false;
    for (size_t i = 0; i < count; i++) {
        if (i == drop)
            continue;
        const bitsift_node *child = bitsift_node_child_at(array, i);
        bitsift_node *c = clone_node(t, rebuilt, NULL, child, 0);
        if (!c)
            return false;
        if (bitsift_node_index(child) >= 0)
            bitsift_node_set_index(c, bitsift_node_index(child));
    }
    m->node = rebuilt;
    return true;
}

static bool mutate_tree(const bitsift_schema *s, bitsift_tree *t, fuzz_input *choices,
                      bitsift_fuzz_mutation *m)
{
    memset(m, 0, sizeof *m);
    size_t n = bitsift_tree_node_count(t);
    if (n < 2)
        return false;
    /* A few tries to land on a node that can change. */
    for (int tries = 0; tries < 4; tries++) {
        bitsift_node *node = bitsift_tree_node(t, 1 + fuzz_u16(choices) % (n - 1));
        if (!node)
            return false;
        if (bitsift_node_kind_of(node) == BITSIFT_NODE_ARRAY) {
            if (mutate_count(t, node, choices, m)) {
                bitsift_node_path(m->node, m->path, sizeof m->path);
                return true;
            }
            continue;
        }
        if (bitsift_node_kind_of(node) != BITSIFT_NODE_VALUE)
            continue;
        int id = bitsift_node_field_id(node);
        bitsift_field_info info;
        if (id < 0 || !bitsift_schema_field_info(s, (unsigned)id, &info))
            continue;
        bitsift_value v = *bitsift_node_value(node);
        m->kind = BITSIFT_FUZZ_MUTATION_VALUE;
        m->bit = bitsift_node_bit(node);
        m->width = (unsigned)bitsift_node_bits(node);
        switch (v.kind) {
        case BITSIFT_VALUE_BOOL:
            v.b = !v.b;
            break;
        case BITSIFT_VALUE_UINT:
        case BITSIFT_VALUE_INT:
        case BITSIFT_VALUE_ENUM:
            mutate_integer(s, id, &info, &v, choices, m);
            break;
        case BITSIFT_VALUE_FLOAT:
        case BITSIFT_VALUE_DOUBLE:
            mutate_float(&info, &v, choices, m);
            break;
        case BITSIFT_VALUE_BYTES:
        case BITSIFT_VALUE_STRING:
            mutate_bytes(&info, &v, choices, m);
            break;
        default:
            continue;
        }
        /* The raw value is placed where the field was read, in its width. */
        if (m->kind == BITSIFT_FUZZ_MUTATION_OUT_OF_RANGE && m->width != (unsigned)bitsift_node_bits(node))
            m->width = 0;
        m->bit = bitsift_node_bit(node);
        if (!bitsift_node_set_value(t, node, &v))
            return false;
        m->node = node;
        m->value = *bitsift_node_value(node);
        bitsift_node_path(node, m->path, sizeof m->path);
        return true;
    }
    return false;
}

bool bitsift_fuzz_values_equal(const bitsift_value *a, const bitsift_value *b)
{
    if (a->kind != b->kind)
        return false;
    switch (a->kind) {
    case BITSIFT_VALUE_BOOL:
        return a->b == b->b;
    case BITSIFT_VALUE_UINT:
        return a->u == b->u;
    case BITSIFT_VALUE_INT:
    case BITSIFT_VALUE_ENUM:
        return a->i == b->i;
    case BITSIFT_VALUE_FLOAT:
        return memcmp(&a->f, &b->f, sizeof a->f) == 0;
    case BITSIFT_VALUE_DOUBLE:
        return memcmp(&a->d, &b->d, sizeof a->d) == 0;
    case BITSIFT_VALUE_BYTES:
    case BITSIFT_VALUE_STRING:
        return a->size == b->size && (a->size == 0 || memcmp(a->data, b->data, a->size) == 0);
    default:
        return true;
    }
}

bool bitsift_fuzz_trees_equal(const bitsift_tree *a, const bitsift_tree *b)
{
    size_t n = bitsift_tree_node_count(a);
    if (n != bitsift_tree_node_count(b) ||
        bitsift_tree_packet_type(a) != bitsift_tree_packet_type(b))
        return false;
    for (size_t i = 0; i < n; i++) {
        const bitsift_node *x = bitsift_tree_node(a, i), *y = bitsift_tree_node(b, i);
        const char *nx = bitsift_node_name(x), *ny = bitsift_node_name(y);
        if (bitsift_node_kind_of(x) != bitsift_node_kind_of(y) || (!nx) != (!ny) ||
            (nx && strcmp(nx, ny) != 0) || bitsift_node_index(x) != bitsift_node_index(y) ||
            bitsift_node_child_count(x) != bitsift_node_child_count(y))
            return false;
        if (bitsift_node_kind_of(x) == BITSIFT_NODE_VALUE &&
            !bitsift_fuzz_values_equal(bitsift_node_value(x), bitsift_node_value(y)))
            return false;
    }
    return true;
}

bool bitsift_fuzz_mutate_tree(const bitsift_schema *s, bitsift_tree *t, const uint8_t *choices,
                              size_t size, size_t *used, bitsift_fuzz_mutation *m)
{
    fuzz_input in;
    fuzz_input_init(&in, choices, choices ? size : 0);
    bool changed = mutate_tree(s, t, &in, m);
    if (used)
        *used = in.pos;
    return changed;
}
