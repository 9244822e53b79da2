/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * schema_random.c -- random valid value trees for a schema: the packets
 * that benchmarks decode, that round-trip tests encode and decode again,
 * and that fuzzers start from. The walk mirrors the encoder (same slots,
 * same conditions), so what it builds always encodes.
 *
 * A packet stays within BITSIFT_RANDOM_MAX_BYTES on the wire, and so does
 * the tree's data: the walk counts the most bits of what it has made
 * (`used`) and what it must still make will take at the fewest elements
 * and branches (`reserved`, schema_promise_bits), and picks array lengths and string lengths within the
 * room between them; what would still go over it (a condition that takes
 * a larger branch) stops the walk with BITSIFT_E_LIMIT before its memory
 * is taken. The tree's nodes are held to RANDOM_MAX_NODES the same way. A type whose smallest packet is over the limit is refused
 * before anything is built.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "schema_internal.h"

struct gen {
    const bitsift_schema *s;
    bitsift_tree *t;
    uint64_t state;
    unsigned fill;
    int64_t slots[SCHEMA_MAX_SLOTS];
    /* The values a slot may take because a relative field uses it as its
     * base (sequence and ack relatives need 0..65535, int relatives and
     * object indices a base below INT32_MAX or max_objects): without the
     * limit, a uint32 base makes a tree that the encoder refuses. */
    int64_t base_lo[SCHEMA_MAX_SLOTS], base_hi[SCHEMA_MAX_SLOTS];
    /* Wire bits: the budget, the most that what was made takes, the
     * fewest that what must still be made takes. */
    uint64_t budget, used, reserved;
};

/* Nodes of a random tree at the most: a quarter of what a tree may hold,
 * so that the tree of a packet of many small fields (a million bools fit
 * in 128 KiB) stays within tens of MiB. */
#define RANDOM_MAX_NODES (BITSIFT_TREE_MAX_NODES / 4)

/* The bits ops [first, end) are promised (schema_promise_bits): what
 * the walk charges for them when it makes the fewest it may. */
static uint64_t range_min(const struct gen *g, uint32_t first, uint32_t end)
{
    return schema_promise_bits(g->s, first, end);
}

/* The bits left for a choice: what neither the made nor the promised
 * takes. */
static uint64_t room(const struct gen *g)
{
    uint64_t taken = sat_add(g->used, g->reserved);
    return taken < g->budget ? g->budget - taken : 0;
}

/* Count `bits` more as made; false when that goes over the budget, or
 * the tree over its nodes. */
static bool charge(struct gen *g, uint64_t bits)
{
    g->used = sat_add(g->used, bits);
    return g->used <= g->budget && bitsift_tree_node_count(g->t) < RANDOM_MAX_NODES;
}

/* The most elements of `per_element` bits each (and a node at least)
 * that fit the room. */
static int64_t elements_that_fit(const struct gen *g, uint64_t per_element, int64_t want)
{
    if (want <= 0)
        return want;
    size_t nodes = bitsift_tree_node_count(g->t);
    uint64_t fit = nodes < RANDOM_MAX_NODES ? RANDOM_MAX_NODES - nodes : 0;
    if (per_element && room(g) / per_element < fit)
        fit = room(g) / per_element;
    return fit < (uint64_t)want ? (int64_t)fit : want;
}

/* Per element of an array, the fewest bits it takes with its share of the
 * array's own bits (an index, a sentinel or ladder step); *meta the bits
 * the array takes once (its count or its flags), at the most. */
static uint64_t element_bits(const struct gen *g, const struct schema_op *arr, uint64_t *meta)
{
    uint64_t emin = range_min(g, (uint32_t)(arr - g->s->ops) + 1, arr->end);
    uint64_t count = bitsift_bits_required(0, arr->max), per = 0;
    *meta = 0;
    switch ((enum array_kind)arr->array_kind) {
    case ARRAY_FIXED:
    case ARRAY_COUNTED:
        break;
    case ARRAY_INLINE:
        *meta = count;
        break;
    case ARRAY_FLAGS:
        *meta = (uint64_t)arr->max;
        break;
    case ARRAY_INDICES:
        *meta = count;
        per = bitsift_bits_required(0, arr->max - 1);
        break;
    case ARRAY_SENTINEL:
        *meta = count;
        per = count;
        break;
    case ARRAY_RELATIVE:
        *meta = count;
        per = object_index_max_bits(arr->max);
        break;
    }
    return sat_add(emin, per);
}

/* splitmix64: small, seedable, good enough for test data. */
static uint64_t next(struct gen *g)
{
    uint64_t z = (g->state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* Uniform in [lo, hi] over the full int64 range. */
static int64_t between(struct gen *g, int64_t lo, int64_t hi)
{
    uint64_t span = (uint64_t)hi - (uint64_t)lo;
    uint64_t r = next(g);
    if (span != UINT64_MAX)
        r %= span + 1;
    return (int64_t)((uint64_t)lo + r);
}

static bool chance(struct gen *g, unsigned percent)
{
    return next(g) % 100 < percent;
}

static float unit(struct gen *g)
{
    return (float)(next(g) >> 40) / (float)(1u << 24);
}

static int64_t pick_int(struct gen *g, const struct schema_op *op, int64_t lo, int64_t hi)
{
    if (op->allowed_count)
        return g->s->allowed[op->allowed_first + next(g) % op->allowed_count];
    if (op->code == OP_ENUM) {
        const struct schema_enum *e = &g->s->enums[op->enum_id];
        return g->s->enum_values[e->first + next(g) % e->count].value;
    }
    if (op->count_cap < hi)
        hi = op->count_cap < lo ? lo : op->count_cap;
    if (op->slot >= 0) {
        /* a base of relative fields: inside what they accept, when the
         * two ranges meet (otherwise the relative field gives up) */
        int64_t blo = g->base_lo[op->slot], bhi = g->base_hi[op->slot];
        if (blo <= hi && bhi >= lo) {
            lo = blo > lo ? blo : lo;
            hi = bhi < hi ? bhi : hi;
        }
    }
    /* Small values are the interesting ones for counts; a count is kept
     * to the elements that fit the packet's room. */
    if (op->count_for >= 0 || op->count_cap != INT64_MAX) {
        int64_t top = lo + (int64_t)((double)(hi - lo) * g->fill / 100.0);
        if (op->count_for >= 0 && top > lo && lo >= 0) {
            uint64_t meta;
            uint64_t per = element_bits(g, &g->s->ops[op->count_for], &meta);
            top = elements_that_fit(g, per, top);
            if (top < lo)
                top = lo;
        }
        return between(g, lo, top < lo ? lo : top);
    }
    return between(g, lo, hi);
}

/* A relative value above `base`, spread over the ladder's tiers. */
static int64_t above(struct gen *g, int64_t base, int64_t limit)
{
    static const int64_t tiers[] = {1, 6, 23, 280, 4377, 69914, 1000000};
    int64_t d = between(g, 1, tiers[next(g) % 7]);
    if (base + d > limit)
        d = limit - base;
    return base + (d < 1 ? 1 : d);
}

static bool gen_run(struct gen *g, uint32_t first, uint32_t end, bitsift_node *parent);

static bool add_value(struct gen *g, bitsift_node *parent, const char *name,
                      const bitsift_value *v)
{
    return bitsift_node_add_value(g->t, parent, name, v) != NULL;
}

static bool gen_smallest_three(struct gen *g, bitsift_node *parent, const char *name)
{
    bitsift_node *q = bitsift_node_add_struct(g->t, parent, name);
    if (!q)
        return false;
    float c[4], sum = 0;
    for (int k = 0; k < 4; k++) {
        c[k] = unit(g) * 2.0f - 1.0f;
        sum += c[k] * c[k];
    }
    float norm = sqrtf(sum > 1e-6f ? sum : 1.0f);
    static const char *const names[] = {"x", "y", "z", "w"};
    for (int k = 0; k < 4; k++) {
        bitsift_value v = {.kind = BITSIFT_VALUE_FLOAT};
        v.f = c[k] / norm;
        if (!add_value(g, q, names[k], &v))
            return false;
    }
    return true;
}

static bool gen_leaf(struct gen *g, const struct schema_op *op, bitsift_node *parent,
                     const char *name)
{
    bitsift_value v;
    memset(&v, 0, sizeof v);
    v.kind = schema_value_kind(op);
    int64_t i = 0;
    char text[64];
    uint8_t bytes[BITSIFT_SCHEMA_MAX_BYTES > 256 ? 256 : BITSIFT_SCHEMA_MAX_BYTES];
    switch ((enum op_code)op->code) {
    case OP_BITS:
        if (op->width == 64 && !op->allowed_count && op->count_cap == INT64_MAX) {
            v.u = next(g);
            i = (int64_t)v.u;
        } else {
            i = pick_int(g, op, 0, op->width == 64 ? INT64_MAX : op->max);
            v.u = (uint64_t)i;
        }
        break;
    case OP_BOOL:
        i = op->allowed_count ? pick_int(g, op, 0, 1) : chance(g, g->fill ? g->fill : 1);
        v.b = i != 0;
        break;
    case OP_INT:
    case OP_ENUM:
        v.i = i = pick_int(g, op, op->min, op->max);
        if (op->code == OP_ENUM)
            v.name = schema_enum_lookup(g->s, op->enum_id, i);
        break;
    case OP_FLOAT:
        v.f = (unit(g) - 0.5f) * 2000.0f;
        break;
    case OP_DOUBLE:
        v.d = ((double)next(g) / 18446744073709551616.0 - 0.5) * 1e6;
        break;
    case OP_CFLOAT:
        v.f = op->fmin + unit(g) * (op->fmax - op->fmin);
        if (v.f > op->fmax)
            v.f = op->fmax;
        break;
    case OP_BYTES: {
        /* Its memory is taken only when it fits. */
        if (!charge(g, 8ull * op->width + 7))
            return false;
        /* Long byte fields repeat a short random pattern. */
        for (size_t k = 0; k < sizeof bytes; k++)
            bytes[k] = (uint8_t)next(g);
        bitsift_node *n = bitsift_node_add_value(g->t, parent, name, NULL);
        if (!n)
            return false;
        v.size = op->width;
        uint8_t *big = NULL;
        if (op->width > sizeof bytes) {
            big = malloc(op->width);
            if (!big)
                return false;
            for (size_t k = 0; k < op->width; k++)
                big[k] = bytes[k % sizeof bytes];
        }
        v.data = big ? big : bytes;
        bool ok = bitsift_node_set_value(g->t, n, &v);
        free(big);
        return ok;
    }
    case OP_STRING: {
        size_t max = op->width - 1 < sizeof text - 1 ? op->width - 1 : sizeof text - 1;
        size_t len = (size_t)between(g, 0, (int64_t)max);
        uint64_t length_bits = bitsift_bits_required(0, (int64_t)op->width - 1) + 7;
        if (!charge(g, length_bits))
            return false;
        len = (size_t)elements_that_fit(g, 8, (int64_t)len);
        if (!charge(g, 8ull * len))
            return false;
        for (size_t k = 0; k < len; k++)
            text[k] = (char)('a' + next(g) % 26);
        v.data = (const uint8_t *)text;
        v.size = len;
        break;
    }
    case OP_INT_REL:
    case OP_OBJ_INDEX: {
        int64_t base = op->base_kind == BASE_CONST ? op->base : g->slots[op->base_slot];
        if (base >= INT32_MAX)
            return false;
        int64_t limit = INT32_MAX;
        if (op->code == OP_OBJ_INDEX) {
            /* Indices stay at or below max_objects (the writer refuses
             * more): each step takes at most 1/16 of the room left, so
             * a chain of a few hundred indices still fits. */
            int64_t room = (int64_t)op->max_objects - base;
            if (room < 1)
                return false;
            limit = base + (room >= 32 ? room / 16 : 1);
        }
        v.i = i = above(g, base, limit);
        break;
    }
    case OP_SEQ_REL: {
        int64_t base = op->base_kind == BASE_CONST ? op->base : g->slots[op->base_slot];
        if (base < 0 || base > 65535)
            return false;
        do
            i = between(g, 0, 65535);
        while (i == base);
        if (chance(g, 50))
            i = (base + between(g, 1, 300)) & 0xffff;
        if (i == base)
            i = (base + 1) & 0xffff;
        v.u = (uint64_t)i;
        break;
    }
    case OP_ACK_REL: {
        int64_t base = op->base_kind == BASE_CONST ? op->base : g->slots[op->base_slot];
        if (base < 0 || base > 65535)
            return false;
        i = chance(g, 70) ? (base - between(g, 1, 64)) & 0xffff : between(g, 0, 65535);
        v.u = (uint64_t)i;
        break;
    }
    case OP_SMALLEST3: {
        uint64_t min, max;
        field_size(op, &min, &max);
        return charge(g, max) && gen_smallest_three(g, parent, name);
    }
    default:
        return true;
    }
    if (op->code != OP_STRING) {
        uint64_t min, max;
        field_size(op, &min, &max);
        if (!charge(g, max))
            return false;
    }
    if (op->slot >= 0)
        g->slots[op->slot] = i;
    return add_value(g, parent, name, &v);
}

static bool gen_element(struct gen *g, const struct schema_op *arr, bitsift_node *array,
                        int64_t index)
{
    const struct schema_op *elem = arr + 1;
    bitsift_node *n;
    if (elem->code == OP_STRUCT) {
        n = bitsift_node_add_struct(g->t, array, NULL);
        if (!n || !gen_run(g, (uint32_t)(elem - g->s->ops) + 1, elem->end, n))
            return false;
    } else {
        size_t before = bitsift_node_child_count(array);
        if (!gen_leaf(g, elem, array, NULL))
            return false;
        n = bitsift_node_child_at(array, before);
    }
    bitsift_node_set_index(n, index);
    return true;
}

static bool gen_array(struct gen *g, const struct schema_op *op, bitsift_node *parent)
{
    bitsift_node *a = bitsift_node_add_array(g->t, parent, op->name);
    if (!a)
        return false;
    schema_reset_bases(g->s, op, g->slots);
    int64_t max = op->max;
    int64_t count;
    uint64_t meta, per = element_bits(g, op, &meta);
    if (!charge(g, meta))
        return false;
    if (schema_array_count_known(op, g->slots, &count)) {
        /* its size, or the count field generated before it */
    } else if (op->array_kind == ARRAY_INLINE) {
        int64_t top = (int64_t)((double)max * g->fill / 100.0);
        count = between(g, 0, elements_that_fit(g, per, top));
    } else {
        /* Sparse: each slot present with probability fill/4 %, while the
         * room holds one more. */
        uint64_t emin = range_min(g, (uint32_t)(op - g->s->ops) + 1, op->end);
        for (int64_t i = 0; i < max; i++)
            if (chance(g, g->fill / 4 + 1) && room(g) >= per &&
                (!charge(g, per - emin) || !gen_element(g, op, a, i)))
                return false;
        return true;
    }
    if (count < 0 || count > max)
        return false;
    /* The elements not made yet are promised their fewest bits. */
    uint64_t emin = range_min(g, (uint32_t)(op - g->s->ops) + 1, op->end);
    uint64_t promised = sat_mul((uint64_t)count, emin);
    if (promised > g->budget)
        return false;
    g->reserved += promised;
    for (int64_t i = 0; i < count; i++) {
        g->reserved -= emin;
        promised -= emin;
        if (!charge(g, per - emin) || !gen_element(g, op, a, i)) {
            g->reserved -= promised;
            return false;
        }
    }
    return true;
}

static bool gen_run(struct gen *g, uint32_t first, uint32_t end, bitsift_node *parent);

/* The branch of the IF op at `i` that its condition takes. */
static bool gen_if(struct gen *g, uint32_t i, bitsift_node *parent)
{
    uint32_t first, end;
    schema_take_branch(g->s, i, g->slots, &first, &end);
    return gen_run(g, first, end, parent);
}

static bool gen_op(struct gen *g, uint32_t i, bitsift_node *parent);

/* Ops [first, end) into parent. Each op's fewest bits are promised
 * (reserved) until its turn, so that an early choice leaves room for
 * what follows it. */
static bool gen_run(struct gen *g, uint32_t first, uint32_t end, bitsift_node *parent)
{
    const struct schema_op *ops = g->s->ops;
    uint64_t promised = range_min(g, first, end);
    if (promised > g->budget)
        return false;
    g->reserved += promised;
    bool ok = true;
    for (uint32_t i = first; i < end && ok;) {
        const struct schema_op *op = &ops[i];
        uint32_t next = op->code == OP_IF || op->code == OP_STRUCT || op->code == OP_ARRAY
                            ? op->end
                            : i + 1;
        uint64_t op_min = range_min(g, i, next);
        g->reserved -= op_min;
        promised -= op_min;
        ok = gen_op(g, i, parent);
        i = next;
    }
    g->reserved -= promised;
    return ok;
}

/* The op at i into parent. */
static bool gen_op(struct gen *g, uint32_t i, bitsift_node *parent)
{
    const struct schema_op *op = &g->s->ops[i];
    switch ((enum op_code)op->code) {
    case OP_IF:
        return gen_if(g, i, parent);
    case OP_ALIGN:
        return charge(g, 7);
    case OP_CHECK:
        return charge(g, 39);
    case OP_STRUCT: {
        bitsift_node *n = bitsift_node_add_struct(g->t, parent, op->name);
        return n && gen_run(g, i + 1, op->end, n);
    }
    case OP_ARRAY:
        return gen_array(g, op, parent);
    default:
        return gen_leaf(g, op, parent, op->name);
    }
}

/* Limit the slots that relative fields of the packet use as their base
 * (see struct gen). */
static void limit_bases(struct gen *g, const struct schema_packet *p)
{
    for (unsigned k = 0; k < SCHEMA_MAX_SLOTS; k++) {
        g->base_lo[k] = INT64_MIN;
        g->base_hi[k] = INT64_MAX;
    }
    for (uint32_t i = p->first_op; i < p->end_op; i++) {
        const struct schema_op *op = &g->s->ops[i];
        if (op->base_kind != BASE_SLOT || op->base_slot < 0)
            continue;
        int64_t lo, hi;
        switch ((enum op_code)op->code) {
        case OP_SEQ_REL:
        case OP_ACK_REL:
            lo = 0;
            hi = 65535;
            break;
        case OP_INT_REL:
            lo = INT32_MIN;
            hi = INT32_MAX - 1;
            break;
        case OP_OBJ_INDEX:
            lo = INT32_MIN;
            hi = (int64_t)op->max_objects - 1;
            break;
        default:
            continue;
        }
        int64_t *blo = &g->base_lo[op->base_slot], *bhi = &g->base_hi[op->base_slot];
        *blo = lo > *blo ? lo : *blo;
        *bhi = hi < *bhi ? hi : *bhi;
    }
}

bitsift_error bitsift_tree_random(bitsift_tree *t, unsigned packet_type, uint64_t seed,
                                  unsigned fill)
{
    if (!t || !bitsift_tree_reset(t, packet_type))
        return BITSIFT_E_ARGUMENT;
    struct gen g;
    g.t = t;
    g.state = seed;
    g.fill = fill > 100 ? 100 : fill;
    g.s = schema_tree_schema(t);
    memset(g.slots, 0, sizeof g.slots);
    const struct schema_packet *p = &g.s->packets[packet_type];
    /* The framing's bits at the most, then the body within the rest. */
    const bitsift_framing *fr = &g.s->framing;
    g.budget = 8ull * BITSIFT_RANDOM_MAX_BYTES;
    g.used = 8ull * fr->prefix_bytes + (fr->crc ? 32 : 0) +
             bitsift_bits_required(0, (int64_t)fr->num_types - 1) + (fr->end_check ? 39 : 7);
    g.reserved = 0;
    if (p->min_bits > g.budget)
        return BITSIFT_E_LIMIT;
    limit_bases(&g, p);
    if (!gen_run(&g, p->first_op + 1, p->end_op, bitsift_tree_root(t)))
        return BITSIFT_E_LIMIT;
    return BITSIFT_OK;
}
