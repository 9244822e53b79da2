/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * schema_validate_run.h -- the interpreter of the validation program,
 * included by schema_validate.c once for each build of it: define
 * VP_RUN_NAME (the function's name) and VP_RUN_ATTRIBUTES (its target
 * attributes, or nothing) before each inclusion; both are undefined at
 * the end. Everything it uses (the program's layout, the readers, the
 * fused ops' helpers, VP_THREADED: a computed goto or a switch) is
 * schema_validate.c's, defined above the inclusion, so that each build
 * inlines them for its own target.
 */

/*
 * The framing around the program, as decode_packet reads it (the end
 * check is the program's last op):
 *
 *   | prefix bytes | crc32 LE | int(0, types-1) | program ... | align | end check |
 */
VP_RUN_ATTRIBUTES static bool VP_RUN_NAME(const bitsift_schema *s, const void *packet, size_t size,
                                          unsigned flags, bitsift_result *res)
{
    const struct validate_program *p = s->validate;
    const bitsift_framing *fr = &s->framing;
    struct vp_input in;
    const struct vp_input *const r = &in;
    vp_input_init(&in, packet, size);
    uint64_t pos = 0, fields = 0;
    if (fr->prefix_bytes) {
        if (fr->prefix_bytes > size)
            return false;
        pos = 8ull * fr->prefix_bytes;
    }
    if (fr->crc) {
        uint64_t stored;
        if (!vp_take(r, &pos, 32, &stored))
            return false;
        /* bitsift_packet_crc, with its constant 8-byte head precomputed:
         * the protocol id and the CRC field taken as zero. */
        size_t body = fr->prefix_bytes + 4u;
        if (!(flags & BITSIFT_DECODE_NO_CRC) &&
            bitsift_crc32(p->head_crc, (const uint8_t *)packet + body, size - body) !=
                (uint32_t)stored)
            return false;
    }
    uint64_t type = 0;
    if (fr->num_types > 1 &&
        (!vp_take(r, &pos, p->type_width, &type) || type > fr->num_types - 1))
        return false;
    int64_t slots[SCHEMA_MAX_SLOTS + 1];
    for (uint32_t k = 0; k < s->slot_count; k++)
        slots[k] = 0;
    struct vp_loop loops[VP_MAX_LEVELS];
    const struct vp_insn *const insns = p->insns;
    const struct vp_insn *ip = insns + p->entry[type];
    const uint64_t bit_limit = r->bit_limit;

#ifdef VP_THREADED
    static const void *const labels[VP_CODE_COUNT] = {
        [VP_RUN] = &&L_VP_RUN,
        [VP_RUN_STORE] = &&L_VP_RUN_STORE,
        [VP_SKIP] = &&L_VP_SKIP,
        [VP_RUN_NEXT] = &&L_VP_RUN_NEXT,
        [VP_RUN_STORE_NEXT] = &&L_VP_RUN_STORE_NEXT,
        [VP_SKIP_NEXT] = &&L_VP_SKIP_NEXT,
        [VP_COND_RUN_NEXT] = &&L_VP_COND_RUN_NEXT,
        [VP_SELECT_RUN_NEXT] = &&L_VP_SELECT_RUN_NEXT,
        [VP_SET] = &&L_VP_SET,
        [VP_LEAF] = &&L_VP_LEAF,
        [VP_ALIGN] = &&L_VP_ALIGN,
        [VP_CHECK] = &&L_VP_CHECK,
        [VP_OBJ_INDEX] = &&L_VP_OBJ_INDEX,
        [VP_INT_REL] = &&L_VP_INT_REL,
        [VP_SEQ_REL] = &&L_VP_SEQ_REL,
        [VP_ACK_REL] = &&L_VP_ACK_REL,
        [VP_COND_RUN] = &&L_VP_COND_RUN,
        [VP_IF_EQ] = &&L_VP_IF_EQ,
        [VP_IF_NE] = &&L_VP_IF_NE,
        [VP_IF_EXPR] = &&L_VP_IF_EXPR,
        [VP_SWITCH] = &&L_VP_SWITCH,
        [VP_SELECT_RUN] = &&L_VP_SELECT_RUN,
        [VP_JUMP] = &&L_VP_JUMP,
        [VP_LOOP_FIXED] = &&L_VP_LOOP_FIXED,
        [VP_LOOP_COUNTED] = &&L_VP_LOOP_COUNTED,
        [VP_LOOP_INLINE] = &&L_VP_LOOP_INLINE,
        [VP_LOOP_NEXT] = &&L_VP_LOOP_NEXT,
        [VP_SPARSE_BEGIN] = &&L_VP_SPARSE_BEGIN,
        [VP_FLAGS_STEP] = &&L_VP_FLAGS_STEP,
        [VP_INDICES_STEP] = &&L_VP_INDICES_STEP,
        [VP_SENTINEL_STEP] = &&L_VP_SENTINEL_STEP,
        [VP_RELATIVE_STEP] = &&L_VP_RELATIVE_STEP,
        [VP_FAIL] = &&L_VP_FAIL,
        [VP_END] = &&L_VP_END,
        [VP_RUN_G1] = &&L_VP_RUN_G1,
        [VP_RUN_G2] = &&L_VP_RUN_G2,
        [VP_RUN_G0S1] = &&L_VP_RUN_G0S1,
        [VP_RUN_G1S1] = &&L_VP_RUN_G1S1,
        [VP_RUN_G2S1] = &&L_VP_RUN_G2S1,
        [VP_RUN_G1_NEXT] = &&L_VP_RUN_G1_NEXT,
        [VP_RUN_G2_NEXT] = &&L_VP_RUN_G2_NEXT,
        [VP_RUN_G0S1_NEXT] = &&L_VP_RUN_G0S1_NEXT,
        [VP_RUN_G1S1_NEXT] = &&L_VP_RUN_G1S1_NEXT,
        [VP_RUN_G2S1_NEXT] = &&L_VP_RUN_G2S1_NEXT,
        [VP_COND_RUN_G1] = &&L_VP_COND_RUN_G1,
        [VP_COND_RUN_G1_NEXT] = &&L_VP_COND_RUN_G1_NEXT,
        [VP_RUN_SELECT] = &&L_VP_RUN_SELECT,
        [VP_RUN_SELECT_NEXT] = &&L_VP_RUN_SELECT_NEXT,
        [VP_OBJ_RUN_SELECT] = &&L_VP_OBJ_RUN_SELECT,
        [VP_OBJ_RUN_SELECT_NEXT] = &&L_VP_OBJ_RUN_SELECT_NEXT,
        [VP_RUN_COND] = &&L_VP_RUN_COND,
        [VP_RUN_COND_NEXT] = &&L_VP_RUN_COND_NEXT,
    };
#define VP_CASE(code) L_##code
#define VP_NEXT()     goto *labels[ip->code]
    VP_NEXT();
    {
#else
#define VP_CASE(code) case code
#define VP_NEXT()     continue
    for (;;) {
        switch ((enum vp_code)ip->code) {
#endif
    VP_CASE(VP_RUN) : {
        if (!vp_run_checks(p, r, ip, pos))
            return false;
        pos += ip->bits;
        fields += ip->fields;
        ip++;
        VP_NEXT();
    }
    VP_CASE(VP_RUN_NEXT) : {
        if (!vp_run_checks(p, r, ip, pos))
            return false;
        pos += ip->bits;
        fields += ip->fields;
        ip = insns + (--loops[ip->level].remaining ? ip->again : ip->done);
        VP_NEXT();
    }
    /* The small runs: the same as VP_RUN(_STORE)(_NEXT), one handler per
     * shape. */
#define VP_SMALL_RUN(code, groups, stores)                                                         \
    VP_CASE(code) : {                                                                              \
        if (!vp_small_run(p, r, ip, pos, slots, groups, stores))                                   \
            return false;                                                                          \
        pos += ip->bits;                                                                           \
        fields += ip->fields;                                                                      \
        ip++;                                                                                      \
        VP_NEXT();                                                                                 \
    }                                                                                              \
    VP_CASE(code##_NEXT) : {                                                                       \
        if (!vp_small_run(p, r, ip, pos, slots, groups, stores))                                   \
            return false;                                                                          \
        pos += ip->bits;                                                                           \
        fields += ip->fields;                                                                      \
        ip = insns + (--loops[ip->level].remaining ? ip->again : ip->done);                        \
        VP_NEXT();                                                                                 \
    }
    VP_SMALL_RUN(VP_RUN_G1, 1, 0)
    VP_SMALL_RUN(VP_RUN_G2, 2, 0)
    VP_SMALL_RUN(VP_RUN_G0S1, 0, 1)
    VP_SMALL_RUN(VP_RUN_G1S1, 1, 1)
    VP_SMALL_RUN(VP_RUN_G2S1, 2, 1)
#undef VP_SMALL_RUN
    VP_CASE(VP_SKIP) : {
        if (pos + ip->bits > bit_limit)
            return false;
        pos += ip->bits;
        fields += ip->fields;
        ip++;
        VP_NEXT();
    }
    VP_CASE(VP_SKIP_NEXT) : {
        if (pos + ip->bits > bit_limit)
            return false;
        pos += ip->bits;
        fields += ip->fields;
        ip = insns + (--loops[ip->level].remaining ? ip->again : ip->done);
        VP_NEXT();
    }
    VP_CASE(VP_RUN_STORE) : {
        if (!vp_run_stores(p, r, ip, pos, slots))
            return false;
        pos += ip->bits;
        fields += ip->fields;
        ip++;
        VP_NEXT();
    }
    VP_CASE(VP_RUN_STORE_NEXT) : {
        if (!vp_run_stores(p, r, ip, pos, slots))
            return false;
        pos += ip->bits;
        fields += ip->fields;
        ip = insns + (--loops[ip->level].remaining ? ip->again : ip->done);
        VP_NEXT();
    }
    VP_CASE(VP_SET) : {
        slots[ip->a] = ip->x;
        fields += ip->fields;
        ip++;
        VP_NEXT();
    }
    VP_CASE(VP_LEAF) : {
        bitsift_reader reader;
        bitsift_reader_init(&reader, r->data, r->size);
        reader.bit_pos = pos;
        if (!vp_leaf(s, &reader, &s->ops[ip->a], slots))
            return false;
        pos = reader.bit_pos;
        fields += ip->fields;
        ip++;
        VP_NEXT();
    }
    VP_CASE(VP_ALIGN) : {
        unsigned pad = (unsigned)(-pos & 7);
        uint64_t raw;
        if (!vp_take(r, &pos, pad, &raw) || raw)
            return false;
        fields += ip->fields;
        ip++;
        VP_NEXT();
    }
    VP_CASE(VP_CHECK) : {
        if (!vp_check_marker(r, &pos, (uint32_t)ip->x))
            return false;
        fields += ip->fields;
        ip++;
        VP_NEXT();
    }
    VP_CASE(VP_OBJ_INDEX) : {
        int64_t base = ip->kind ? slots[ip->c] : ip->x, current;
        uint64_t w;
        if (base < INT32_MIN || base > INT32_MAX ||
            !vp_object_index(r, &pos, base, ip->y, ip->d, &current, &w))
            return false;
        slots[ip->a] = current;
        fields += ip->fields;
        ip++;
        VP_NEXT();
    }
    /* The relative fields: a base from a slot or the op, which must lie in
     * [lo, hi], then the value read against it into slots[a]. */
#define VP_RELATIVE(code, lo, hi, read)                                                            \
    VP_CASE(code) : {                                                                              \
        int64_t base = ip->kind ? slots[ip->c] : ip->x, current;                                   \
        if (base < (lo) || base > (hi) || !read(r, &pos, base, &current))                          \
            return false;                                                                          \
        slots[ip->a] = current;                                                                    \
        fields += ip->fields;                                                                      \
        ip++;                                                                                      \
        VP_NEXT();                                                                                 \
    }
    VP_RELATIVE(VP_INT_REL, INT32_MIN, INT32_MAX, vp_int_relative)
    VP_RELATIVE(VP_SEQ_REL, 0, 65535, vp_sequence_relative)
    VP_RELATIVE(VP_ACK_REL, 0, 65535, vp_ack_relative)
#undef VP_RELATIVE
    VP_CASE(VP_COND_RUN) : {
        if (!vp_cond_run(p, r, ip, &pos, &fields, slots[ip->c], -1))
            return false;
        ip++;
        VP_NEXT();
    }
    VP_CASE(VP_COND_RUN_NEXT) : {
        if (!vp_cond_run(p, r, ip, &pos, &fields, slots[ip->c], -1))
            return false;
        ip = insns + (--loops[ip->level].remaining ? ip->again : ip->done);
        VP_NEXT();
    }
    VP_CASE(VP_COND_RUN_G1) : {
        if (!vp_cond_run(p, r, ip, &pos, &fields, slots[ip->c], 1))
            return false;
        ip++;
        VP_NEXT();
    }
    VP_CASE(VP_COND_RUN_G1_NEXT) : {
        if (!vp_cond_run(p, r, ip, &pos, &fields, slots[ip->c], 1))
            return false;
        ip = insns + (--loops[ip->level].remaining ? ip->again : ip->done);
        VP_NEXT();
    }
    VP_CASE(VP_IF_EQ) : {
        ip = slots[ip->a] == ip->x ? ip + 1 : insns + ip->b;
        VP_NEXT();
    }
    VP_CASE(VP_IF_NE) : {
        ip = slots[ip->a] != ip->x ? ip + 1 : insns + ip->b;
        VP_NEXT();
    }
    VP_CASE(VP_IF_EXPR) : {
        ip = schema_eval(s, &s->ops[ip->a], slots) ? ip + 1 : insns + ip->b;
        VP_NEXT();
    }
    VP_CASE(VP_SWITCH) : {
        uint64_t k = (uint64_t)slots[ip->a] - (uint64_t)ip->x;
        ip = insns + (k < ip->d ? p->table[ip->c + k] : ip->b);
        VP_NEXT();
    }
    VP_CASE(VP_SELECT_RUN) : {
        if (!vp_select_case(r, ip, &pos, &fields, slots))
            return false;
        ip++;
        VP_NEXT();
    }
    VP_CASE(VP_SELECT_RUN_NEXT) : {
        if (!vp_select_case(r, ip, &pos, &fields, slots))
            return false;
        ip = insns + (--loops[ip->level].remaining ? ip->again : ip->done);
        VP_NEXT();
    }
    /* The fused ops: `ops` ops read as one, the last of which holds the
     * loop step of the _NEXT form. */
#define VP_FUSED(code, read, ops)                                                                  \
    VP_CASE(code) : {                                                                              \
        if (!read(p, r, ip, &pos, &fields, slots))                                                 \
            return false;                                                                          \
        ip += ops;                                                                                 \
        VP_NEXT();                                                                                 \
    }                                                                                              \
    VP_CASE(code##_NEXT) : {                                                                       \
        if (!read(p, r, ip, &pos, &fields, slots))                                                 \
            return false;                                                                          \
        const struct vp_insn *step = ip + (ops - 1);                                               \
        ip = insns + (--loops[step->level].remaining ? step->again : step->done);                  \
        VP_NEXT();                                                                                 \
    }
    VP_FUSED(VP_RUN_SELECT, vp_run_select, 2)
    VP_FUSED(VP_OBJ_RUN_SELECT, vp_object_run_select, 3)
    VP_FUSED(VP_RUN_COND, vp_run_cond, 2)
#undef VP_FUSED
    VP_CASE(VP_JUMP) : {
        ip = insns + ip->b;
        VP_NEXT();
    }
    VP_CASE(VP_LOOP_FIXED) : {
        loops[ip->level].remaining = ip->x;
        ip++;
        VP_NEXT();
    }
    VP_CASE(VP_LOOP_COUNTED) : {
        int64_t count = slots[ip->c];
        if (count < 0 || count > ip->x)
            return false;
        loops[ip->level].remaining = count;
        ip = count ? ip + 1 : insns + ip->b;
        VP_NEXT();
    }
    VP_CASE(VP_LOOP_INLINE) : {
        uint64_t count;
        if (!vp_take(r, &pos, ip->d, &count) || count > (uint64_t)ip->x)
            return false;
        loops[ip->level].remaining = (int64_t)count;
        ip = count ? ip + 1 : insns + ip->b;
        VP_NEXT();
    }
    VP_CASE(VP_LOOP_NEXT) : {
        ip = insns + (--loops[ip->level].remaining ? ip->b : ip->c);
        VP_NEXT();
    }
    VP_CASE(VP_SPARSE_BEGIN) : {
        struct vp_loop *l = &loops[ip->level];
        l->previous = -1;
        l->remaining = ip->x;
        if (ip->kind == ARRAY_INDICES || ip->kind == ARRAY_RELATIVE) {
            uint64_t count;
            if (!vp_take(r, &pos, ip->d, &count) || count > (uint64_t)ip->x)
                return false;
            l->remaining = (int64_t)count;
        }
        ip++;
        VP_NEXT();
    }
    VP_CASE(VP_FLAGS_STEP) : {
        /* Stays on this op while the flags say "absent". */
        struct vp_loop *l = &loops[ip->level];
        if (l->remaining == 0) {
            ip = insns + ip->b;
            VP_NEXT();
        }
        l->remaining--;
        uint64_t here;
        if (!vp_take(r, &pos, 1, &here))
            return false;
        ip += here;
        VP_NEXT();
    }
    VP_CASE(VP_INDICES_STEP) : {
        struct vp_loop *l = &loops[ip->level];
        if (l->remaining == 0) {
            ip = insns + ip->b;
            VP_NEXT();
        }
        l->remaining--;
        uint64_t index;
        if (!vp_take(r, &pos, ip->d, &index) || index > (uint64_t)ip->x - 1 ||
            (int64_t)index <= l->previous)
            return false;
        l->previous = (int64_t)index;
        ip++;
        VP_NEXT();
    }
    VP_CASE(VP_SENTINEL_STEP) : {
        struct vp_loop *l = &loops[ip->level];
        uint64_t index;
        if (!vp_take(r, &pos, ip->d, &index) || index > (uint64_t)ip->x)
            return false;
        if (index == (uint64_t)ip->x) {
            ip = insns + ip->b;
            VP_NEXT();
        }
        if ((int64_t)index <= l->previous)
            return false;
        l->previous = (int64_t)index;
        ip++;
        VP_NEXT();
    }
    VP_CASE(VP_RELATIVE_STEP) : {
        struct vp_loop *l = &loops[ip->level];
        if (l->remaining == 0) {
            ip = insns + ip->b;
            VP_NEXT();
        }
        l->remaining--;
        int64_t index;
        uint64_t w;
        if (!vp_object_index(r, &pos, l->previous, ip->x, ip->d, &index, &w) || index >= ip->x ||
            index <= l->previous)
            return false;
        l->previous = index;
        ip++;
        VP_NEXT();
    }
    VP_CASE(VP_FAIL) : {
        return false;
    }
    VP_CASE(VP_END) : {
        if (flags & BITSIFT_DECODE_STRICT) {
            /* bit_limit is a whole number of bytes: the padding is there. */
            uint64_t pad, at = pos;
            if (!vp_take(r, &at, (unsigned)(-pos & 7), &pad) || pad || (pos + 7) / 8 < size)
                return false;
        }
        schema_result_init(res);
        res->packet_type = (int)type;
        res->packet_name = s->packets[type].name;
        res->bits = pos;
        res->fields = fields;
        return true;
    }
#ifndef VP_THREADED
    default:
        return false;
        }
    }
#else
    }
#endif
#undef VP_CASE
#undef VP_NEXT
    return false; /* not reached: every op jumps on or returns */
}

#undef VP_RUN_NAME
#undef VP_RUN_ATTRIBUTES
