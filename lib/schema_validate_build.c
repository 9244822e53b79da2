/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * schema_validate_build.c -- builds the validation program
 * (validate_program.h) from a compiled schema's ops, once per schema, and
 * its peephole passes: jump threading, loop steps fused into the last op
 * of an element, runs specialised by shape, an object index fused with
 * the run that selects on it. The builder decides only what the program
 * holds; schema_validate.c runs it.
 */
#include <stdlib.h>
#include <string.h>

#include "relative_tiers.h"
#include "validate_program.h"

/* ---- building the program ------------------------------------------------- */

#define VP_NONE UINT32_MAX

/* At most this many ops (64 bytes each). A schema has at most
 * BITSIFT_SCHEMA_MAX_OPS ops, and the program about as many, but the
 * defaults each case of a switch writes for the other cases' slots could
 * add up to more. */
#define VP_MAX_INSNS (1u << 18)

/* A range check of the open run, before it joins a group. */
struct vp_pending {
    uint32_t off, width;
    uint64_t lo, hi; /* raw values lo..hi pass */
};

struct vp_builder {
    const bitsift_schema *s;
    struct validate_program *p;
    size_t insn_cap, group_cap, store_cap, table_cap, pend_cap, case_cap;
    uint32_t run; /* the run that leaves join, VP_NONE */
    struct vp_pending *pend;
    uint32_t pend_count;
    bool failed; /* out of memory, or a shape left to the interpreter */
    struct vp_insn scratch;
};

/* Room for element `count` of *array (*cap elements of `size` bytes). */
static bool vp_grow(struct vp_builder *b, void **array, size_t *cap, uint32_t count, size_t size)
{
    if (b->failed)
        return false;
    if (count < *cap)
        return true;
    size_t n = *cap ? *cap * 2 : 64;
    void *bigger = count < UINT32_MAX - 1 ? realloc(*array, n * size) : NULL;
    if (!bigger) {
        b->failed = true;
        return false;
    }
    *array = bigger;
    *cap = n;
    return true;
}

/* The op at index i, or a scratch one once the build has failed, so that
 * callers need not check every step. */
static struct vp_insn *vp_at(struct vp_builder *b, uint32_t i)
{
    return !b->failed && i < b->p->insn_count ? &b->p->insns[i] : &b->scratch;
}

static struct vp_group *vp_new_group(struct vp_builder *b, uint32_t off)
{
    struct validate_program *p = b->p;
    if (!vp_grow(b, (void **)&p->groups, &b->group_cap, p->group_count, sizeof *p->groups))
        return NULL;
    struct vp_group *g = &p->groups[p->group_count++];
    memset(g, 0, sizeof *g);
    g->off = off;
    vp_at(b, b->run)->b++;
    return g;
}

/* Turn the open run's checks into groups (see struct vp_group): the
 * upper bounds packed greedily into windows of 57 bits, each lower bound
 * alone. */
static void vp_close_run(struct vp_builder *b)
{
    if (b->run == VP_NONE)
        return;
    vp_at(b, b->run)->a = b->p->group_count;
    struct vp_group *g = NULL;
    for (uint32_t k = 0; k < b->pend_count && !b->failed; k++) {
        const struct vp_pending *c = &b->pend[k];
        uint64_t top = ~0ull >> (64 - c->width);
        if (c->hi < top) {
            if (!g || c->off + c->width - g->off > 57) {
                g = vp_new_group(b, c->off);
                if (!g)
                    break;
            }
            unsigned at = c->off - g->off;
            g->add |= (top - c->hi) << at;
            g->flip |= (top - c->hi) << at;
            g->carries |= 1ull << (at + c->width);
        }
    }
    for (uint32_t k = 0; k < b->pend_count && !b->failed; k++) {
        const struct vp_pending *c = &b->pend[k];
        if (c->lo == 0)
            continue;
        struct vp_group *lower = vp_new_group(b, c->off);
        if (!lower)
            break;
        lower->add = (1ull << c->width) - c->lo;
        lower->carries = 1ull << c->width;
        lower->flip = lower->add ^ lower->carries;
    }
    struct vp_insn *run = vp_at(b, b->run);
    run->code = run->d ? VP_RUN_STORE : run->b ? VP_RUN : VP_SKIP;
    b->pend_count = 0;
    b->run = VP_NONE;
}

/* Append an op (which ends the open run). */
static uint32_t vp_emit(struct vp_builder *b, enum vp_code code, uint32_t fields)
{
    vp_close_run(b);
    struct validate_program *p = b->p;
    if (p->insn_count >= VP_MAX_INSNS)
        b->failed = true; /* a schema that big keeps to the interpreter */
    if (!vp_grow(b, (void **)&p->insns, &b->insn_cap, p->insn_count, sizeof *p->insns))
        return VP_NONE;
    struct vp_insn *in = &p->insns[p->insn_count];
    memset(in, 0, sizeof *in);
    in->code = (uint8_t)code;
    in->fields = fields;
    return p->insn_count++;
}

/* The index the next op will have, as a jump target: no run goes on
 * across it. */
static uint32_t vp_label(struct vp_builder *b)
{
    vp_close_run(b);
    return b->p->insn_count;
}

static void vp_set(struct vp_builder *b, int32_t slot, int64_t value, uint32_t fields)
{
    struct vp_insn *in = vp_at(b, vp_emit(b, VP_SET, fields));
    in->a = slot >= 0 ? (uint32_t)slot : VP_SCRATCH;
    in->x = value;
}

static bool vp_slot_ok(const bitsift_schema *s, int64_t slot)
{
    return slot >= 0 && slot < (int64_t)s->slot_count && slot < SCHEMA_MAX_SLOTS;
}

/* The run that the next leaf joins (opened when there is none). */
static struct vp_insn *vp_run(struct vp_builder *b)
{
    if (b->run == VP_NONE) {
        uint32_t i = vp_emit(b, VP_RUN, 0);
        struct vp_insn *in = vp_at(b, i);
        in->c = b->p->store_count;
        b->run = b->failed ? VP_NONE : i;
    }
    return vp_at(b, b->run);
}

/* One read of `width` (1..57) bits in the open run: checked unless every
 * raw value passes, kept in `slot` when it has one. */
static void vp_run_read(struct vp_builder *b, unsigned width, uint64_t lo, uint64_t span,
                        int64_t base, int32_t slot)
{
    struct validate_program *p = b->p;
    struct vp_insn *run = vp_run(b);
    uint64_t off = run->bits;
    if (off > UINT32_MAX - 64) {
        b->failed = true;
        return;
    }
    uint64_t top = ~0ull >> (64 - width);
    if (lo > top) {
        vp_emit(b, VP_FAIL, 0); /* no raw value passes */
        return;
    }
    if (lo != 0 || span < top - lo) {
        if (!vp_grow(b, (void **)&b->pend, &b->pend_cap, b->pend_count, sizeof *b->pend))
            return;
        struct vp_pending *c = &b->pend[b->pend_count++];
        c->off = (uint32_t)off;
        c->width = width;
        c->lo = lo;
        c->hi = span >= top - lo ? top : lo + span;
    }
    if (slot >= 0) {
        if (!vp_grow(b, (void **)&p->stores, &b->store_cap, p->store_count, sizeof *p->stores))
            return;
        struct vp_store *st = &p->stores[p->store_count++];
        st->off = (uint32_t)off;
        st->mask = ~0ull >> (64 - width);
        st->base = base;
        st->slot = (uint32_t)slot;
        run->d++;
    }
    run->bits += width;
}

/* A leaf field (not a container): into the open run when its check is a
 * range of raw values, else an op of its own. */
static void vp_leaf_op(struct vp_builder *b, uint32_t i)
{
    const bitsift_schema *s = b->s;
    const struct schema_op *op = &s->ops[i];
    if (op->slot >= 0 && !vp_slot_ok(s, op->slot)) {
        b->failed = true;
        return;
    }
    int32_t slot = op->slot;
    bool plain = op->allowed_count == 0;
    if ((op->code == OP_INT || op->code == OP_ENUM) && op->min >= op->max) {
        bool ok = op->min == op->max && schema_allowed(s, op, op->min) &&
                  (op->code == OP_INT || schema_enum_lookup(s, op->enum_id, op->min));
        /* Nothing is read; the value is min, which must be allowed and,
         * for an enum, named: decided now. An empty range holds nothing. */
        if (ok)
            vp_set(b, slot, op->min, 1);
        else
            vp_emit(b, VP_FAIL, 0);
        return;
    }
    /* A leaf whose check is a range of raw values joins the open run (no
     * value list or slot applies to a quaternion; a float keeps no slot). */
    struct field_window w[4];
    bool keeps_value;
    unsigned windows = field_raw_windows(s, op, w, &keeps_value);
    if (windows && (plain || op->code == OP_SMALLEST3)) {
        for (unsigned k = 0; k < windows; k++)
            vp_run_read(b, w[k].width, w[k].lo, w[k].span, w[k].base, keeps_value ? slot : -1);
        vp_run(b)->fields++;
        return;
    }
    switch ((enum op_code)op->code) {
    case OP_ALIGN:
        if (plain) {
            vp_emit(b, VP_ALIGN, 1);
            return;
        }
        break;
    case OP_CHECK:
        if (plain) {
            vp_at(b, vp_emit(b, VP_CHECK, 1))->x = op->check;
            return;
        }
        break;
    case OP_OBJ_INDEX:
    case OP_INT_REL:
    case OP_SEQ_REL:
    case OP_ACK_REL:
        if (plain && (op->code != OP_OBJ_INDEX || op->max_objects >= 1)) {
            static const enum vp_code codes[] = {
                [OP_OBJ_INDEX] = VP_OBJ_INDEX,
                [OP_INT_REL] = VP_INT_REL,
                [OP_SEQ_REL] = VP_SEQ_REL,
                [OP_ACK_REL] = VP_ACK_REL,
            };
            bool from_slot = op->base_kind != BASE_CONST;
            if (from_slot && !vp_slot_ok(s, op->base_slot)) {
                b->failed = true;
                return;
            }
            struct vp_insn *in = vp_at(b, vp_emit(b, codes[op->code], 1));
            in->kind = from_slot;
            in->c = from_slot ? (uint32_t)op->base_slot : 0;
            in->x = op->base;
            in->y = op->max_objects;
            in->a = slot >= 0 ? (uint32_t)slot : VP_SCRATCH;
            in->d =
                op->code == OP_OBJ_INDEX && (int64_t)op->max_objects + 1 >= OBJECT_INDEX_LAST_MIN
                    ? bitsift_bits_required(OBJECT_INDEX_LAST_MIN, (int64_t)op->max_objects + 1)
                    : 0;
            return;
        }
        break;
    default:
        break;
    }
    /* Everything else goes through the library's readers. */
    if ((op->code == OP_INT_REL || op->code == OP_OBJ_INDEX || op->code == OP_SEQ_REL ||
         op->code == OP_ACK_REL) &&
        op->base_kind != BASE_CONST && !vp_slot_ok(s, op->base_slot)) {
        b->failed = true;
        return;
    }
    vp_at(b, vp_emit(b, VP_LEAF, 1))->a = i;
}

static void vp_range(struct vp_builder *b, uint32_t first, uint32_t end, unsigned level);

/* The defaults a skipped branch [first, end) leaves in its slots (as
 * skip_branch: not the previous() bases, which their array resets). */
static void vp_defaults(struct vp_builder *b, uint32_t first, uint32_t end)
{
    const bitsift_schema *s = b->s;
    for (uint32_t i = first; i < end && !b->failed; i++) {
        const struct schema_op *op = &s->ops[i];
        if (op->slot < 0 || op->base_kind == BASE_PREVIOUS)
            continue;
        if (!vp_slot_ok(s, op->slot)) {
            b->failed = true;
            return;
        }
        vp_set(b, op->slot, op->absent_int, 0);
    }
}

static bool vp_has_defaults(const bitsift_schema *s, uint32_t first, uint32_t end)
{
    for (uint32_t i = first; i < end; i++)
        if (s->ops[i].slot >= 0 && s->ops[i].base_kind != BASE_PREVIOUS)
            return true;
    return false;
}

/* Whether ops[i] is an if that can be a case of a switch on `slot`. */
static bool vp_switch_case(const bitsift_schema *s, uint32_t i, uint32_t end, int32_t slot)
{
    if (i >= end)
        return false;
    const struct schema_op *op = &s->ops[i];
    return op->code == OP_IF && op->cond_shape == COND_EQ && op->cond_slot == slot &&
           op->else_start == op->end && op->end <= end;
}

/*
 * `if (x == a) {A} if (x == b) {B} ...`: consecutive ifs without else on
 * the same slot, none of whose bodies can change it, run at most one body
 * each, chosen by the value; as one table jump instead of a compare per
 * if. (Distinct values only: with a repeated value, more than one body
 * runs, which a chain of ifs does.) Each case also writes the defaults of
 * the others' slots, as the ifs it replaces would have.
 */
#define VP_SWITCH_SPAN 64
#define VP_CHAIN_MAX   8

static void vp_if(struct vp_builder *b, uint32_t i, unsigned level);

/* Whether ops[k] is one of the ifs of the chain [i, j) itself. */
static bool vp_is_case_start(const bitsift_schema *s, uint32_t i, uint32_t j, uint32_t k)
{
    for (uint32_t c = i; c < j; c = s->ops[c].end)
        if (c == k)
            return true;
    return false;
}

/* The n VP_COND_RUNs from insns[first] on, each on slots[slot] == its x
 * (lo..hi, distinct): when each checks at most one group, one
 * VP_SELECT_RUN with a table of their runs instead, so that an element
 * pays for one case rather than for all of them. */
static void vp_select_run(struct vp_builder *b, uint32_t first, uint32_t n, int64_t lo, int64_t hi,
                          int32_t slot)
{
    struct validate_program *p = b->p;
    for (uint32_t k = 0; k < n; k++)
        if (p->insns[first + k].b > 1)
            return;
    uint32_t size = (uint32_t)((uint64_t)hi - (uint64_t)lo + 1), base = p->case_count;
    for (uint32_t k = 0; k <= size; k++) {
        if (!vp_grow(b, (void **)&p->cases, &b->case_cap, p->case_count, sizeof *p->cases))
            return;
        struct vp_case *c = &p->cases[p->case_count++];
        memset(c, 0, sizeof *c);
        c->need = 1;
    }
    for (uint32_t k = 0; k < n; k++) {
        const struct vp_insn *in = &p->insns[first + k];
        struct vp_case *c = &p->cases[base + ((uint64_t)in->x - (uint64_t)lo)];
        c->bits = in->bits;
        c->need = in->bits ? in->bits : 1;
        c->fields = in->fields;
        if (in->b) {
            const struct vp_group *g = &p->groups[in->a];
            c->off = g->off;
            c->add = g->add;
            c->flip = g->flip;
            c->carries = g->carries;
        }
    }
    struct vp_insn *in = &p->insns[first];
    memset(in, 0, sizeof *in);
    in->code = VP_SELECT_RUN;
    in->a = base;
    in->c = (uint32_t)slot;
    in->d = size;
    in->x = lo;
    /* The cases' sizes packed a byte each (vp_case_bits) when they fit. */
    uint64_t packed = 0;
    bool fits = size < 8;
    for (uint32_t k = 0; fits && k <= size; k++) {
        fits = p->cases[base + k].bits <= 0xff;
        packed |= p->cases[base + k].bits << (8 * k);
    }
    if (fits) {
        in->kind = 1;
        in->y = (int64_t)packed;
    }
    p->insn_count = first + 1;
}

static uint32_t vp_try_switch(struct vp_builder *b, uint32_t i, uint32_t end, unsigned level)
{
    const bitsift_schema *s = b->s;
    const struct schema_op *op = &s->ops[i];
    int32_t slot = op->cond_slot;
    uint32_t n = 0, j = i;
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    while (vp_switch_case(s, j, end, slot)) {
        int64_t v = s->ops[j].cond_value;
        for (uint32_t k = i; k < j; k = s->ops[k].end)
            if (s->ops[k].cond_value == v)
                return i;
        lo = v < lo ? v : lo;
        hi = v > hi ? v : hi;
        n++;
        j = s->ops[j].end;
    }
    if (n < 2 || (uint64_t)hi - (uint64_t)lo >= VP_SWITCH_SPAN || !vp_slot_ok(s, slot))
        return i;
    struct validate_program *p = b->p;
    /* Cases that are one run each are cheaper as VP_COND_RUNs, one after
     * the other, than as a jump the CPU mispredicts: try that first. */
    vp_label(b);
    uint32_t insns = p->insn_count, groups = p->group_count, stores = p->store_count,
             tables = p->table_count, cases = p->case_count;
    bool all_cond = n <= VP_CHAIN_MAX;
    /* Only bodies without ifs or arrays can be one run: checking that
     * first keeps nested chains from being compiled twice per level (which
     * would take 2^depth times as long). */
    for (uint32_t k = i; k < j && all_cond; k++)
        all_cond = k == i || (s->ops[k].code != OP_IF && s->ops[k].code != OP_ARRAY) ||
                   vp_is_case_start(s, i, j, k);
    for (uint32_t k = i; k < j && all_cond && !b->failed; k = s->ops[k].end) {
        uint32_t at = vp_label(b);
        vp_if(b, k, level);
        all_cond = vp_label(b) == at + 1 && p->insns[at].code == VP_COND_RUN;
    }
    if (!b->failed && all_cond)
        vp_select_run(b, insns, n, lo, hi, slot);
    if (b->failed || all_cond)
        return j;
    /* Undo the attempt (everything it added is at the ends). */
    p->insn_count = insns, p->group_count = groups, p->store_count = stores;
    p->table_count = tables, p->case_count = cases;
    uint32_t size = (uint32_t)((uint64_t)hi - (uint64_t)lo + 1), table = p->table_count;
    for (uint32_t k = 0; k < size; k++) {
        if (!vp_grow(b, (void **)&p->table, &b->table_cap, p->table_count, sizeof *p->table))
            return j;
        p->table[p->table_count++] = VP_NONE;
    }
    uint32_t sw = vp_emit(b, VP_SWITCH, 0);
    struct vp_insn *in = vp_at(b, sw);
    in->a = (uint32_t)slot;
    in->x = lo;
    in->c = table;
    in->d = size;
    uint32_t jumps[VP_SWITCH_SPAN], njumps = 0;
    /*   SWITCH -> case a: others' defaults, body, JUMP done
     *             case b: ...
     *             none:   every case's defaults
     *   done:                                                  */
    for (uint32_t k = i; k < j && !b->failed; k = s->ops[k].end) {
        const struct schema_op *c = &s->ops[k];
        p->table[table + ((uint64_t)c->cond_value - (uint64_t)lo)] = vp_label(b);
        for (uint32_t o = i; o < j; o = s->ops[o].end)
            if (o != k)
                vp_defaults(b, o + 1, s->ops[o].end);
        vp_range(b, k + 1, c->end, level);
        jumps[njumps++] = vp_emit(b, VP_JUMP, 0);
    }
    uint32_t none = vp_label(b);
    for (uint32_t k = i; k < j; k = s->ops[k].end)
        vp_defaults(b, k + 1, s->ops[k].end);
    uint32_t done = vp_label(b);
    for (uint32_t k = 0; k < njumps; k++)
        vp_at(b, jumps[k])->b = done;
    vp_at(b, sw)->b = none;
    if (!b->failed)
        for (uint32_t k = 0; k < size; k++)
            if (p->table[table + k] == VP_NONE)
                p->table[table + k] = none;
    return j;
}

/* An if: its condition as a conditional jump over the then branch. */
static void vp_if(struct vp_builder *b, uint32_t i, unsigned level)
{
    const bitsift_schema *s = b->s;
    const struct schema_op *op = &s->ops[i];
    uint32_t jump;
    switch ((enum cond_shape)op->cond_shape) {
    case COND_NONZERO:
    case COND_ZERO:
    case COND_EQ:
    case COND_NE:
        if (!vp_slot_ok(s, op->cond_slot)) {
            b->failed = true;
            return;
        }
        jump = vp_emit(
            b, op->cond_shape == COND_ZERO || op->cond_shape == COND_EQ ? VP_IF_EQ : VP_IF_NE, 0);
        vp_at(b, jump)->a = (uint32_t)op->cond_slot;
        vp_at(b, jump)->x =
            op->cond_shape == COND_EQ || op->cond_shape == COND_NE ? op->cond_value : 0;
        break;
    default:
        for (uint32_t k = 0; k < op->expr_count; k++) {
            const struct expr_item *x = &s->expr[op->expr_first + k];
            if (x->code == EXPR_SLOT && !vp_slot_ok(s, x->value)) {
                b->failed = true;
                return;
            }
        }
        jump = vp_emit(b, VP_IF_EXPR, 0);
        vp_at(b, jump)->a = i;
        break;
    }
    vp_defaults(b, op->else_start, op->end);
    vp_range(b, i + 1, op->else_start, level);
    bool has_else = op->else_start < op->end || vp_has_defaults(s, i + 1, op->else_start);
    uint32_t over = has_else ? vp_emit(b, VP_JUMP, 0) : VP_NONE;
    vp_at(b, jump)->b = vp_label(b);
    /* `if (flag) { a run }`: one op, no branch (VP_COND_RUN). */
    const struct vp_insn *body = vp_at(b, jump + 1);
    if (!has_else && !b->failed && b->p->insn_count == jump + 2 &&
        (body->code == VP_RUN || body->code == VP_SKIP) && vp_at(b, jump)->code != VP_IF_EXPR) {
        struct vp_insn *in = vp_at(b, jump);
        struct vp_insn run = *body;
        run.kind = in->code == VP_IF_NE;
        run.c = in->a;
        run.x = in->x;
        run.code = VP_COND_RUN;
        *in = run;
        b->p->insn_count--;
        return;
    }
    if (has_else) {
        vp_defaults(b, i + 1, op->else_start);
        vp_range(b, op->else_start, op->end, level);
        vp_at(b, over)->b = vp_label(b);
    }
}

/* An array: a loop over its element, inlined. */
static void vp_array(struct vp_builder *b, uint32_t i, unsigned level)
{
    const bitsift_schema *s = b->s;
    const struct schema_op *op = &s->ops[i];
    /* The element is a struct or a leaf right after the array op. */
    if (level + 1 >= VP_MAX_LEVELS || op->end < i + 2 || op->max < 1 || op->max > INT32_MAX) {
        b->failed = true;
        return;
    }
    const struct schema_op *elem = op + 1;
    uint32_t body = i + 1, body_end = i + 2;
    if (elem->code == OP_STRUCT) {
        body = i + 2, body_end = elem->end;
        if (elem->end != op->end) {
            b->failed = true;
            return;
        }
    } else if (elem->code == OP_ARRAY || elem->code == OP_IF || op->end != i + 2) {
        b->failed = true;
        return;
    }
    /* previous() bases start again with every array. */
    for (int32_t k = op->reset_head, guard = 0; k >= 0 && !b->failed;
         k = s->ops[k].reset_next, guard++) {
        if ((uint32_t)k >= s->op_count || guard > (int32_t)s->op_count ||
            !vp_slot_ok(s, s->ops[k].slot)) {
            b->failed = true;
            return;
        }
        vp_set(b, s->ops[k].slot, s->ops[k].base, 0);
    }
    unsigned count_width = bitsift_bits_required(0, op->max);
    uint32_t begin, top, step = VP_NONE;
    switch ((enum array_kind)op->array_kind) {
    case ARRAY_FIXED:
    case ARRAY_COUNTED:
    case ARRAY_INLINE:
        if (op->array_kind == ARRAY_FIXED) {
            begin = vp_emit(b, VP_LOOP_FIXED, 0);
        } else if (op->array_kind == ARRAY_COUNTED) {
            if (!vp_slot_ok(s, op->count_slot)) {
                b->failed = true;
                return;
            }
            begin = vp_emit(b, VP_LOOP_COUNTED, 0);
            vp_at(b, begin)->c = (uint32_t)op->count_slot;
        } else {
            begin = vp_emit(b, VP_LOOP_INLINE, 0);
            vp_at(b, begin)->d = count_width;
        }
        vp_at(b, begin)->level = (uint8_t)level;
        vp_at(b, begin)->x = op->max;
        top = vp_label(b);
        vp_range(b, body, body_end, level + 1);
        step = vp_emit(b, VP_LOOP_NEXT, 0);
        vp_at(b, step)->level = (uint8_t)level;
        vp_at(b, step)->b = top;
        vp_at(b, begin)->b = vp_label(b);
        vp_at(b, step)->c = vp_at(b, begin)->b;
        return;
    case ARRAY_FLAGS:
    case ARRAY_INDICES:
    case ARRAY_SENTINEL:
    case ARRAY_RELATIVE: {
        static const enum vp_code steps[] = {
            [ARRAY_FLAGS] = VP_FLAGS_STEP,
            [ARRAY_INDICES] = VP_INDICES_STEP,
            [ARRAY_SENTINEL] = VP_SENTINEL_STEP,
            [ARRAY_RELATIVE] = VP_RELATIVE_STEP,
        };
        begin = vp_emit(b, VP_SPARSE_BEGIN, 0);
        vp_at(b, begin)->level = (uint8_t)level;
        vp_at(b, begin)->kind = op->array_kind;
        vp_at(b, begin)->x = op->max;
        vp_at(b, begin)->d = count_width;
        top = vp_label(b);
        step = vp_emit(b, steps[op->array_kind], 0);
        struct vp_insn *in = vp_at(b, step);
        in->level = (uint8_t)level;
        in->x = op->max;
        in->d = op->array_kind == ARRAY_INDICES    ? bitsift_bits_required(0, op->max - 1)
                : op->array_kind == ARRAY_SENTINEL ? count_width
                : op->max + 1 >= OBJECT_INDEX_LAST_MIN
                    ? bitsift_bits_required(OBJECT_INDEX_LAST_MIN, op->max + 1)
                    : 0;
        vp_range(b, body, body_end, level + 1);
        vp_at(b, vp_emit(b, VP_JUMP, 0))->b = top;
        vp_at(b, step)->b = vp_label(b);
        return;
    }
    default:
        b->failed = true;
        return;
    }
}

/* Ops [first, end): structs read through, everything else emitted. */
static void vp_range(struct vp_builder *b, uint32_t first, uint32_t end, unsigned level)
{
    const bitsift_schema *s = b->s;
    for (uint32_t i = first; i < end && !b->failed;) {
        const struct schema_op *op = &s->ops[i];
        bool container = op->code == OP_STRUCT || op->code == OP_ARRAY || op->code == OP_IF;
        if (container &&
            (op->end <= i || op->end > end ||
             (op->code == OP_IF && (op->else_start <= i || op->else_start > op->end)))) {
            b->failed = true; /* not a shape the interpreter walks either */
            return;
        }
        switch (op->code) {
        case OP_STRUCT:
            i++; /* its body follows; a struct adds nothing to check */
            break;
        case OP_ARRAY:
            vp_array(b, i, level);
            i = op->end;
            break;
        case OP_IF: {
            uint32_t next = op->cond_shape == COND_EQ ? vp_try_switch(b, i, end, level) : i;
            if (next == i) {
                vp_if(b, i, level);
                next = op->end;
            }
            i = next;
            break;
        }
        default:
            vp_leaf_op(b, i);
            i++;
            break;
        }
    }
}

/* Where a jump really leads: through chains of jumps. */
static uint32_t vp_final(const struct validate_program *p, uint32_t i)
{
    for (unsigned n = 0; n < 64 && i < p->insn_count && p->insns[i].code == VP_JUMP; n++)
        i = p->insns[i].b;
    return i;
}

/* Jumps straight to where they lead, and a jump to an op that does not
 * fall through (another element, the end) replaced by a copy of it: the
 * last case of an element's switch then loops by itself. */
static void vp_thread_jumps(struct validate_program *p)
{
    for (uint32_t i = 0; i < p->insn_count; i++) {
        struct vp_insn *in = &p->insns[i];
        switch (in->code) {
        case VP_JUMP: {
            uint32_t to = vp_final(p, in->b);
            if (to < p->insn_count && (p->insns[to].code == VP_LOOP_NEXT ||
                                       p->insns[to].code == VP_END || p->insns[to].code == VP_FAIL))
                *in = p->insns[to];
            else
                in->b = to;
            break;
        }
        case VP_SWITCH:
            for (uint32_t k = 0; k < in->d; k++)
                p->table[in->c + k] = vp_final(p, p->table[in->c + k]);
            /* fall through */
        case VP_IF_EQ:
        case VP_IF_NE:
        case VP_IF_EXPR:
        case VP_LOOP_COUNTED:
        case VP_LOOP_INLINE:
        case VP_FLAGS_STEP:
        case VP_INDICES_STEP:
        case VP_SENTINEL_STEP:
        case VP_RELATIVE_STEP:
            in->b = vp_final(p, in->b);
            break;
        case VP_LOOP_NEXT:
            in->b = vp_final(p, in->b);
            in->c = vp_final(p, in->c);
            break;
        default:
            break;
        }
    }
}

/* A run right before the LOOP_NEXT of its element takes the loop step
 * over (the LOOP_NEXT stays for the jumps that reach it). */
static void vp_fuse_loop_steps(struct validate_program *p)
{
    for (uint32_t i = 0; i + 1 < p->insn_count; i++) {
        struct vp_insn *run = &p->insns[i];
        const struct vp_insn *next = run + 1;
        if (next->code != VP_LOOP_NEXT)
            continue;
        switch (run->code) {
        case VP_RUN:
            run->code = VP_RUN_NEXT;
            break;
        case VP_RUN_STORE:
            run->code = VP_RUN_STORE_NEXT;
            break;
        case VP_SKIP:
            run->code = VP_SKIP_NEXT;
            break;
        case VP_COND_RUN:
            run->code = VP_COND_RUN_NEXT;
            break;
        case VP_SELECT_RUN:
            run->code = VP_SELECT_RUN_NEXT;
            break;
        default:
            continue;
        }
        run->level = next->level;
        run->again = next->b;
        run->done = next->c;
    }
}

/* Once the arrays no longer move: each run's pointers to its groups and
 * stores (cases for VP_SELECT_RUN), and the runs of the common small
 * shapes given their own codes: read with no loop (vp_small_run, and
 * vp_cond_run for a VP_COND_RUN of one group). */
static void vp_specialise_runs(struct validate_program *p)
{
    static const uint8_t small[2][2][3] = {
        /* [next][stores][groups] */
        {{VP_CODE_COUNT, VP_RUN_G1, VP_RUN_G2}, {VP_RUN_G0S1, VP_RUN_G1S1, VP_RUN_G2S1}},
        {{VP_CODE_COUNT, VP_RUN_G1_NEXT, VP_RUN_G2_NEXT},
         {VP_RUN_G0S1_NEXT, VP_RUN_G1S1_NEXT, VP_RUN_G2S1_NEXT}},
    };
    for (uint32_t i = 0; i < p->insn_count; i++) {
        struct vp_insn *in = &p->insns[i];
        bool next;
        switch (in->code) {
        case VP_COND_RUN:
        case VP_COND_RUN_NEXT:
            in->groups = p->groups + in->a;
            if (in->b == 1)
                in->code = in->code == VP_COND_RUN ? VP_COND_RUN_G1 : VP_COND_RUN_G1_NEXT;
            continue;
        case VP_SELECT_RUN:
        case VP_SELECT_RUN_NEXT:
            in->cases = p->cases + in->a;
            continue;
        case VP_RUN:
        case VP_RUN_STORE:
            next = false;
            break;
        case VP_RUN_NEXT:
        case VP_RUN_STORE_NEXT:
            next = true;
            break;
        default:
            continue;
        }
        in->groups = p->groups + in->a;
        if (in->code == VP_RUN_STORE || in->code == VP_RUN_STORE_NEXT)
            in->stores = p->stores + in->c;
        /* A run whose one value the next op is about: see VP_RUN_SELECT
         * and VP_RUN_COND (ip[1] is still unchanged here). */
        const struct vp_insn *sel = in + 1;
        if (in->code == VP_RUN_STORE && in->d == 1 && i + 1 < p->insn_count &&
            sel->c == in->stores->slot) {
            if (sel->code == VP_SELECT_RUN || sel->code == VP_SELECT_RUN_NEXT) {
                in->code = sel->code == VP_SELECT_RUN ? VP_RUN_SELECT : VP_RUN_SELECT_NEXT;
                continue;
            }
            if (sel->code == VP_COND_RUN || sel->code == VP_COND_RUN_NEXT) {
                in->code = sel->code == VP_COND_RUN ? VP_RUN_COND : VP_RUN_COND_NEXT;
                continue;
            }
        }
        if (in->b <= 2 && in->d <= 1 && small[next][in->d][in->b] != VP_CODE_COUNT)
            in->code = small[next][in->d][in->b];
    }
}

/* An object index right before a VP_RUN_SELECT(_NEXT) whose value lies
 * within the run's first 45 bits: one op of the three (the index takes at
 * most 12 bits in its short tiers, the window 57). */
static void vp_fuse_object_runs(struct validate_program *p)
{
    for (uint32_t i = 0; i + 2 < p->insn_count; i++) {
        struct vp_insn *in = &p->insns[i];
        const struct vp_insn *run = in + 1;
        if (in->code != VP_OBJ_INDEX ||
            (run->code != VP_RUN_SELECT && run->code != VP_RUN_SELECT_NEXT))
            continue;
        const struct vp_store *st = run->stores;
        unsigned width = (unsigned)__builtin_popcountll(st->mask);
        if (st->off + width > 45)
            continue;
        in->b = st->off + width;
        in->code = run->code == VP_RUN_SELECT ? VP_OBJ_RUN_SELECT : VP_OBJ_RUN_SELECT_NEXT;
    }
}

void schema_validate_free(struct validate_program *p)
{
    if (!p)
        return;
    free(p->insns);
    free(p->groups);
    free(p->stores);
    free(p->table);
    free(p->cases);
    free(p->entry);
    free(p);
}

struct validate_program *schema_validate_build(const bitsift_schema *s)
{
    const bitsift_framing *fr = &s->framing;
    if (s->packet_count == 0 || fr->num_types != s->packet_count ||
        s->slot_count > SCHEMA_MAX_SLOTS)
        return NULL;
    struct vp_builder b;
    memset(&b, 0, sizeof b);
    b.s = s;
    b.run = VP_NONE;
    b.p = calloc(1, sizeof *b.p);
    if (!b.p)
        return NULL;
    b.p->type_width = bitsift_bits_required(0, (int64_t)fr->num_types - 1);
    b.p->entry = calloc(s->packet_count, sizeof *b.p->entry);
    b.failed = !b.p->entry;
    /* Never NULL: runs index them even when they have no group or store. */
    vp_grow(&b, (void **)&b.p->groups, &b.group_cap, 0, sizeof *b.p->groups);
    vp_grow(&b, (void **)&b.p->stores, &b.store_cap, 0, sizeof *b.p->stores);
    for (uint32_t t = 0; t < s->packet_count && !b.failed; t++) {
        const struct schema_packet *pk = &s->packets[t];
        const struct schema_op *root = pk->first_op < s->op_count ? &s->ops[pk->first_op] : NULL;
        if (!root || root->code != OP_STRUCT || root->end <= pk->first_op ||
            root->end > s->op_count) {
            b.failed = true;
            break;
        }
        b.p->entry[t] = vp_label(&b);
        vp_range(&b, pk->first_op + 1, root->end, 0);
        if (fr->end_check) /* part of the framing: not a field */
            vp_at(&b, vp_emit(&b, VP_CHECK, 0))->x = fr->end_check_value;
        vp_emit(&b, VP_END, 0);
    }
    free(b.pend);
    if (b.failed) {
        schema_validate_free(b.p);
        return NULL;
    }
    vp_thread_jumps(b.p);
    vp_fuse_loop_steps(b.p);
    vp_specialise_runs(b.p);
    vp_fuse_object_runs(b.p);
    /* bitsift_packet_crc starts every packet's CRC with the same 8 bytes. */
    uint8_t head[8] = {0};
    for (int k = 0; k < 4; k++)
        head[k] = (uint8_t)(fr->protocol_id >> (8 * k));
    b.p->head_crc = bitsift_crc32(0, head, sizeof head);
    b.p->bmi2 = schema_validate_cpu_has_bmi2();
    return b.p;
}
