/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * schema_passes.c -- the passes that run once over a freshly compiled op
 * list, before any packet is read: per-op aids that spare the decoder
 * work (defaults, condition shapes, the visitor's one-step leaves) and
 * the leaf runs that the validating decode reads with one bounds test.
 * None of them changes what a packet decodes to; each only precomputes.
 */
#include <stdlib.h>
#include <string.h>

#include "schema_passes.h"

/* ---- precomputed decoding aids ------------------------------------------- */

/* Whether skipping ops [first, end) must set slots to their defaults. */
static bool range_sets_slots(const bitsift_schema *s, uint32_t first, uint32_t end)
{
    for (uint32_t i = first; i < end && i < s->op_count; i++)
        if (s->ops[i].slot >= 0 && s->ops[i].base_kind != BASE_PREVIOUS)
            return true;
    return false;
}

void schema_prepare_ops(bitsift_schema *s)
{
    for (uint32_t i = 0; i < s->op_count; i++) {
        struct schema_op *op = &s->ops[i];
        op->absent = schema_default(op);
        op->absent_int = schema_value_int(&op->absent);
        op->name_len = op->name ? (uint32_t)strlen(op->name) : 0;
        op->cond_shape = COND_EXPR;
        if (op->code != OP_IF)
            continue;
        op->branch_slots = (uint8_t)((range_sets_slots(s, i + 1, op->else_start) ? 1 : 0) |
                                     (range_sets_slots(s, op->else_start, op->end) ? 2 : 0));
        const struct expr_item *x = &s->expr[op->expr_first];
        if (op->expr_count == 1 && x[0].code == EXPR_SLOT) {
            op->cond_shape = COND_NONZERO;
        } else if (op->expr_count == 2 && x[0].code == EXPR_SLOT && x[1].code == EXPR_NOT) {
            op->cond_shape = COND_ZERO;
        } else if (op->expr_count == 3 && x[0].code == EXPR_SLOT && x[1].code == EXPR_CONST &&
                   (x[2].code == EXPR_EQ || x[2].code == EXPR_NE)) {
            op->cond_shape = x[2].code == EXPR_EQ ? COND_EQ : COND_NE;
            op->cond_value = x[1].value;
        }
        if (op->cond_shape != COND_EXPR)
            op->cond_slot = (int32_t)x[0].value;
    }
}

/* ---- leaf runs ------------------------------------------------------------ */

/* One read of a leaf run: accepted raw values lo .. lo + span. */
static struct schema_leaf leaf_read(uint32_t width, uint64_t lo, uint64_t span, int64_t base,
                                    int32_t slot)
{
    struct schema_leaf l;
    l.mask = width ? ~0ull >> (64 - width) : 0;
    l.lo = lo;
    l.span = span;
    l.base = base;
    l.slot = slot >= 0 ? (uint32_t)slot : SCHEMA_MAX_SLOTS;
    l.width = width;
    return l;
}

/* The reads that check a leaf op exactly as the decoder's read_leaf_value
 * does, into out[0..3]: its raw windows (field_raw_windows); 0 when the op
 * cannot join a run (containers, aligned and relative fields, value lists,
 * non-dense enums, widths above 57 bits, floats whose value a later field
 * uses). */
static uint32_t leaf_reads(const bitsift_schema *s, const struct schema_op *op,
                           struct schema_leaf out[4])
{
    struct field_window w[4];
    bool keeps_value;
    if (op->allowed_count)
        return 0;
    unsigned n = field_raw_windows(s, op, w, &keeps_value);
    if (op->slot >= 0 && (!keeps_value || n != 1))
        return 0;
    for (unsigned k = 0; k < n; k++)
        out[k] = leaf_read(w[k].width, w[k].lo, w[k].span, w[k].base, op->slot);
    return n;
}

void schema_fuse_leaf_runs(bitsift_schema *s)
{
    uint32_t n = s->op_count;
    /* limit[i]: the end of the innermost packet, array or if branch
     * holding op i; reads[i]: op i's reads. Nested structs set no limit:
     * validation reads through them. */
    uint32_t *limit = malloc(((size_t)n + 1) * sizeof *limit);
    uint32_t *reads = malloc(((size_t)n + 1) * sizeof *reads);
    bool *nested = malloc(((size_t)n + 1) * sizeof *nested); /* a struct inside a packet */
    struct schema_leaf *leaves = malloc(((size_t)n * 4 + 1) * sizeof *leaves);
    uint32_t stack[2 * BITSIFT_SCHEMA_MAX_DEPTH + 8];
    unsigned sp = 0;
    bool ok = limit && reads && nested && leaves;
    uint32_t count = 0;
    for (uint32_t i = 0; ok && i < n; i++) {
        const struct schema_op *op = &s->ops[i];
        while (sp && i >= stack[sp - 1])
            sp--;
        limit[i] = sp ? stack[sp - 1] : n;
        reads[i] = leaf_reads(s, op, leaves + count);
        nested[i] = op->code == OP_STRUCT && sp > 0;
        count += reads[i];
        if (op->code == OP_STRUCT || op->code == OP_ARRAY || op->code == OP_IF) {
            if (sp + 2 > sizeof stack / sizeof stack[0] || op->end > limit[i] ||
                op->else_start > op->end) {
                ok = false; /* not a shape the decoder runs: no runs at all */
                break;
            }
            if (op->code != OP_STRUCT || sp == 0)
                stack[sp++] = op->end;
            if (op->code == OP_IF)
                stack[sp++] = op->else_start > i ? op->else_start : op->end;
        }
    }
    if (ok) {
        /* Backwards, each run is this op's reads plus the run after it. */
        uint32_t first = count;
        for (uint32_t i = n; i-- > 0;) {
            struct schema_op *op = &s->ops[i];
            first -= reads[i];
            op->run_ops = op->run_fields = op->run_reads = 0;
            op->run_bits = 0;
            op->run_first = first;
            if (!reads[i] && !nested[i])
                continue;
            uint64_t bits = 0;
            for (uint32_t k = 0; k < reads[i]; k++)
                bits += leaves[first + k].width;
            op->run_ops = 1;
            op->run_fields = reads[i] ? 1 : 0;
            op->run_reads = reads[i];
            op->run_bits = bits;
            if (i + 1 < limit[i]) {
                const struct schema_op *next = op + 1;
                op->run_ops += next->run_ops;
                op->run_fields += next->run_fields;
                op->run_reads += next->run_reads;
                op->run_bits += next->run_bits;
            }
        }
        s->leaves = leaves;
        s->leaf_count = count;
        leaves = NULL;
    }
    free(limit);
    free(reads);
    free(nested);
    free(leaves);
}

/* ---- leaves the visitor reads in one step --------------------------------- */

void schema_prepare_visit(bitsift_schema *s)
{
    for (uint32_t i = 0; i < s->op_count; i++) {
        struct schema_op *op = &s->ops[i];
        unsigned width = 0;
        uint64_t lo = 0, span = UINT64_MAX;
        enum visit_kind kind = field_visit((enum op_code)op->code);
        struct field_window w[4];
        bool keeps_value;
        unsigned windows = field_raw_windows(s, op, w, &keeps_value);
        if (windows == 1) {
            /* A leaf read in one step. */
            width = w[0].width;
            lo = w[0].lo;
            span = w[0].span;
            if (kind == VISIT_ENUM)
                op->visit_names = s->enums[op->enum_id].first;
        } else if (kind < VISIT_OBJECT_INDEX) {
            kind = VISIT_LEAF; /* not one window: the general path */
        }
        /* A value list is checked on the general path. */
        if (op->allowed_count && kind < VISIT_STRUCT)
            kind = VISIT_LEAF;
        op->visit = (uint8_t)kind;
        op->visit_width = (uint8_t)width;
        op->visit_mask = width ? ~0ull >> (64 - width) : 0;
        op->visit_lo = lo;
        op->visit_span = span;
        /* Reported as absent when its branch is skipped (containers are
         * passed over whole; alignment, checks and quaternions are not
         * values). */
        op->visit_absent = kind < VISIT_STRUCT && op->code != OP_ALIGN && op->code != OP_CHECK &&
                           op->code != OP_SMALLEST3;
        /* The name with zeros after it, so that a path takes it in one
         * 16-byte move (names of 16 bytes or more are copied exactly). */
        memset(op->visit_name, 0, sizeof op->visit_name);
        if (op->name && op->name_len < sizeof op->visit_name)
            memcpy(op->visit_name, op->name, op->name_len);
        op->visit_quick = op->name && op->name_len < sizeof op->visit_name && !op->element;
    }
}
