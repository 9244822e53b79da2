/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * schema_validate.c -- the validation program's run time: its packet
 * reader (one window per field, no failure record), the leaf fallback
 * through the library's readers, and the interpreter, included twice from
 * schema_validate_run.h (a portable build and, on x86-64, a BMI2 build).
 * The program's layout and why it exists: validate_program.h; how it is
 * built: schema_validate_build.c.
 */
#include <stdlib.h>
#include <string.h>

#include "field_read.h"
#include "relative_tiers.h"
#include "validate_program.h"

/* ---- reading ------------------------------------------------------------- */

/* For the helpers of the interpreter: inlined into each of its builds
 * (see VP_BMI2_BUILD), and compiled for that build's target. */
#if defined(__GNUC__)
#define VP_INLINE inline __attribute__((always_inline))
#else
#define VP_INLINE inline
#endif

/* The packet as the program reads it: the limits of the inline reader
 * (bitsift_reader_init), without the reader's failure record, which a
 * decision does not need. */
struct vp_input {
    const uint8_t *data;
    size_t size;
    uint64_t bit_limit;  /* bits in data */
    uint64_t fast_limit; /* a read ending at or below this loads from data */
    uint64_t tail_start; /* size - 8, modulo 2^64 when size < 8 */
    uint64_t last;       /* the 8 bytes from tail_start, little-endian, with
                            zeros for those before the packet */
};

/*
 * The packet's last 8 bytes are kept in a register-sized value, not in a
 * padded copy: a window read from a copy just written by several smaller
 * stores waits for them to reach the cache (no store forwarding), and a
 * short packet reads its last bytes right away.
 *
 *   size >= 8:  last = data[size-8] .. data[size-1]          (byte 0 lowest)
 *   size <  8:  last = 0 .. 0 (8 - size bytes), data[0] .. data[size-1]
 */
static VP_INLINE void vp_input_init(struct vp_input *in, const void *data, size_t size)
{
    in->data = data;
    in->size = size;
    in->bit_limit = size > (UINT64_MAX >> 3) ? UINT64_MAX & ~7ull : (uint64_t)size << 3;
    in->fast_limit = size >= 8 ? in->bit_limit - 56 : 0;
    in->tail_start = (uint64_t)size - 8;
    if (size >= 8) {
        in->last = bitsift__load_le64(in->data + size - 8);
    } else {
        uint64_t last = 0;
        for (size_t i = size; i-- > 0;)
            last = last << 8 | in->data[i];
        in->last = size ? last << (8 * (8 - size)) : 0;
    }
}

/* The 64 bits at bit `at` straight from the packet: for a read whose 8
 * bytes lie inside it (vp_window otherwise). */
static inline uint64_t vp_near(const struct vp_input *r, uint64_t at)
{
    return bitsift__load_le64(r->data + (at >> 3)) >> (at & 7);
}

/* The 64 bits from `pos` on (at least 57 of them are the stream's), for
 * pos <= bit_limit: from the packet while the 8 bytes lie inside it, else
 * from `last`, shifted by the k = 1..8 bytes the window starts after
 * tail_start (in two steps: a shift by 64 is undefined). */
static inline uint64_t vp_window(const struct vp_input *r, uint64_t pos)
{
    uint64_t byte = pos >> 3;
    if (BITSIFT_LIKELY(byte + 8 <= r->size))
        return vp_near(r, pos);
    uint64_t k = byte - r->tail_start;
    return r->last >> 4 >> (8 * k - 4) >> (pos & 7);
}

/* The low `width` bits, 0 <= width <= 63. */
static inline uint64_t vp_mask(uint64_t v, unsigned width)
{
    return v & (~0ull >> (63 - width) >> 1);
}

/* `width` (0..57) bits at *pos, if they are all there. */
static inline bool vp_take(const struct vp_input *r, uint64_t *pos, unsigned width, uint64_t *raw)
{
    if (BITSIFT_UNLIKELY(*pos + width > r->bit_limit))
        return false;
    *raw = vp_mask(vp_window(r, *pos), width);
    *pos += width;
    return true;
}

/*
 * The object index ladder of relative_ints.c read from one window: the
 * position t of the first 1 among the next 6 bits picks the tier, whose
 * delta follows in 0, 2, 3, 4, 5 or 6 bits (each covering its range
 * exactly, so no raw value is refused); no 1 at all picks the last tier,
 * int(126, max_objects + 1) in `last_width` bits. At most 6 + 31 bits.
 *
 *   bit   0 1 ... t   t+1 .. t+width
 *         0 0 ... 1   delta - tier_min
 *
 * The reader checks the same conditions, in another order: refusing is
 * all that matters here.
 */
struct vp_tier {
    uint8_t mask; /* the delta's width, as 2^width - 1 */
    uint8_t min;  /* the tier's first delta */
};
/* From relative_tiers.h. The field takes t + 1 + width bits: 1, 4, 6,
 * 8, 10, 12 (vp_object_index computes it as 2t + 1 + (t != 0); the
 * validate_diff test would catch a ladder that no longer fits that). */
#define VP_TIER(min, max) {(1u << TIER_WIDTH(min, max)) - 1, min},
static const struct vp_tier vp_tiers[RELATIVE_TIER_COUNT] = {OBJECT_INDEX_TIERS(VP_TIER)};
#undef VP_TIER

/* The tier a ladder's window starts with: the position of its first 1, or
 * RELATIVE_TIER_COUNT (the last tier) when the first six bits are 0. */
static inline unsigned vp_ladder_tier(uint64_t window)
{
    return (unsigned)__builtin_ctzll(window | (1u << RELATIVE_TIER_COUNT));
}

static inline bool vp_object_index(const struct vp_input *r, uint64_t *pos, int64_t previous,
                                   int64_t max_objects, unsigned last_width, int64_t *current,
                                   uint64_t *window)
{
    uint64_t w = vp_window(r, *pos);
    unsigned t = vp_ladder_tier(w);
    *window = w;
    int64_t d;
    unsigned len;
    if (BITSIFT_LIKELY(t < RELATIVE_TIER_COUNT)) {
        const struct vp_tier *tier = &vp_tiers[t];
        d = tier->min + (int64_t)(w >> (t + 1) & tier->mask);
        /* t + 1 + width, computed rather than loaded from the table:
         * the next field's position waits on it, and a load is the
         * longer wait (validate on the bench capture: 196 -> 193 ms). */
        len = 2 * t + 1 + (t != 0);
    } else {
        if (max_objects + 1 < OBJECT_INDEX_LAST_MIN)
            return false;
        uint64_t raw = vp_mask(w >> RELATIVE_TIER_COUNT, last_width);
        if (raw > (uint64_t)(max_objects + 1 - OBJECT_INDEX_LAST_MIN))
            return false;
        d = OBJECT_INDEX_LAST_MIN + (int64_t)raw;
        len = RELATIVE_TIER_COUNT + last_width;
    }
    if (BITSIFT_UNLIKELY(*pos + len > r->bit_limit || previous + d > max_objects ||
                         d > max_objects + 1))
        return false;
    *pos += len;
    *current = previous + d;
    return true;
}

/*
 * int_relative (relative_ints.c) the same way: a 1 at bit t < 6 picks the
 * tier, whose delta follows in 0, 3, 5, 9, 13 or 17 bits, this time with a
 * range to check; six 0s are followed by the value itself in 32 bits,
 * which must lie after `previous` (compared as signed 32-bit).
 */
#define VP_REL_WIDTH(min, max) TIER_WIDTH(min, max),
#define VP_REL_MIN(min, max) min,
#define VP_REL_SPAN(min, max) (max) - (min),
static const uint8_t vp_rel_width[RELATIVE_TIER_COUNT] = {INT_RELATIVE_TIERS(VP_REL_WIDTH)};
static const uint32_t vp_rel_min[RELATIVE_TIER_COUNT] = {INT_RELATIVE_TIERS(VP_REL_MIN)};
static const uint32_t vp_rel_span[RELATIVE_TIER_COUNT] = {INT_RELATIVE_TIERS(VP_REL_SPAN)};
#undef VP_REL_WIDTH
#undef VP_REL_MIN
#undef VP_REL_SPAN

static inline bool vp_int_relative(const struct vp_input *r, uint64_t *pos, int64_t previous,
                                   int64_t *current)
{
    uint64_t w = vp_window(r, *pos);
    unsigned t = vp_ladder_tier(w);
    int64_t value;
    unsigned len;
    if (BITSIFT_LIKELY(t < RELATIVE_TIER_COUNT)) {
        unsigned width = vp_rel_width[t];
        uint64_t raw = vp_mask(w >> (t + 1), width);
        if (raw > vp_rel_span[t])
            return false;
        value = previous + vp_rel_min[t] + (int64_t)raw;
        if (value > INT32_MAX)
            return false;
        len = t + 1 + width;
    } else {
        value = (int32_t)(uint32_t)(w >> RELATIVE_TIER_COUNT);
        if (value <= previous)
            return false;
        len = RELATIVE_TIER_COUNT + INT_RELATIVE_ABSOLUTE_BITS;
    }
    if (BITSIFT_UNLIKELY(*pos + len > r->bit_limit))
        return false;
    *pos += len;
    *current = value;
    return true;
}

/* sequence_relative: int_relative over 16-bit sequences that wrap. */
static inline bool vp_sequence_relative(const struct vp_input *r, uint64_t *pos, int64_t sequence1,
                                        int64_t *sequence2)
{
    int64_t value;
    if (!vp_int_relative(r, pos, sequence1, &value))
        return false;
    if (value >= 65536)
        value -= 65536;
    *sequence2 = value;
    return value >= 0 && value <= 65535;
}

/* ack_relative: a bool, then int(sequence - ack, 1, 64) in 6 bits (no
 * raw value refused) or the ack itself in 16 bits. */
static inline bool vp_ack_relative(const struct vp_input *r, uint64_t *pos, int64_t sequence,
                                   int64_t *ack)
{
    uint64_t w = vp_window(r, *pos);
    unsigned len = w & 1 ? 7 : 17;
    if (BITSIFT_UNLIKELY(*pos + len > r->bit_limit))
        return false;
    *ack = w & 1 ? (uint16_t)((uint16_t)sequence - (uint16_t)(1 + vp_mask(w >> 1, 6)))
                 : (int64_t)vp_mask(w >> 1, 16);
    *pos += len;
    return true;
}

/* Align then a 32-bit marker, as bitsift_read_check. */
static inline bool vp_check_marker(const struct vp_input *r, uint64_t *pos, uint32_t marker)
{
    unsigned pad = (unsigned)(-*pos & 7);
    if (BITSIFT_UNLIKELY(*pos + pad + 32 > r->bit_limit))
        return false;
    uint64_t w = vp_window(r, *pos);
    if (BITSIFT_UNLIKELY(vp_mask(w, pad) != 0 || (uint32_t)(w >> pad) != marker))
        return false;
    *pos += pad + 32;
    return true;
}

/* A field the program does not read itself: through the op interpreter's
 * own leaf reader (field_read.h), with the value built and dropped. */
static bool vp_leaf(const bitsift_schema *s, bitsift_reader *r, const struct schema_op *op,
                    int64_t *slots)
{
    bitsift_value v;
    int64_t as_int;
    v.kind = BITSIFT_VALUE_NONE;
    v.data = NULL;
    v.size = 0;
    v.name = NULL;
    v.has_raw = false;
    if (!field_read_leaf(s, r, op, slots, &v, &as_int))
        return false;
    if (op->slot >= 0 && op->code != OP_SMALLEST3)
        slots[op->slot] = as_int;
    return true;
}

/* ---- the interpreter ------------------------------------------------------ */

/* The carries a range check (struct vp_group, struct vp_case) finds in
 * window w: 0 when every field it checks passes. */
static inline uint64_t vp_failed(uint64_t w, uint64_t add, uint64_t flip, uint64_t carries)
{
    return ((w + add) ^ w ^ flip) & carries;
}

/* The checks of `count` groups of a run at `start`, read straight from the
 * packet: 0 when they all pass. */
static VP_INLINE uint64_t vp_groups_failed(const struct vp_input *r, const struct vp_group *g,
                                           uint32_t count, uint64_t start)
{
    uint64_t bad = 0;
    for (const struct vp_group *ge = g + count; g < ge; g++)
        bad |= vp_failed(vp_near(r, start + g->off), g->add, g->flip, g->carries);
    return bad;
}

/* The value a store keeps from a run at `start`, read straight from the
 * packet. */
static inline int64_t vp_stored(const struct vp_input *r, const struct vp_store *st,
                                uint64_t start)
{
    return (int64_t)((uint64_t)st->base + (vp_near(r, start + st->off) & st->mask));
}

/* A run whose last bit lies past fast_limit: through the padded tail,
 * after one test that it ends inside the packet. Out of line: a packet
 * comes here once at most, for the last run or two. */
static bool vp_run_near_end(const struct validate_program *p, const struct vp_input *r,
                            const struct vp_insn *ip, uint64_t pos, int64_t *slots)
{
    if (pos + ip->bits > r->bit_limit)
        return false;
    uint64_t bad = 0;
    for (const struct vp_group *g = p->groups + ip->a, *ge = g + ip->b; g < ge; g++)
        bad |= vp_failed(vp_window(r, pos + g->off), g->add, g->flip, g->carries);
    if (bad)
        return false;
    for (uint32_t k = 0; k < ip->d; k++) { /* VP_COND_RUN: none, and c is a slot */
        const struct vp_store *st = &p->stores[ip->c + k];
        uint64_t raw = vp_window(r, pos + st->off) & st->mask;
        slots[st->slot] = (int64_t)((uint64_t)st->base + raw);
    }
    return true;
}

/* The checks of a run (groups[a, a + b), b >= 1) at `pos`, with one
 * bounds test: straight from the packet when the whole run ends at or
 * below fast_limit, else through the padded tail. */
static VP_INLINE bool vp_run_checks(const struct validate_program *p, const struct vp_input *r,
                                    const struct vp_insn *ip, uint64_t pos)
{
    if (BITSIFT_UNLIKELY(pos + ip->bits > r->fast_limit))
        return vp_run_near_end(p, r, ip, pos, NULL);
    return !vp_groups_failed(r, ip->groups, ip->b, pos);
}

/* The same for a run with values to keep (stores[c, c + d), d >= 1) and
 * any number of groups. */
static VP_INLINE bool vp_run_stores(const struct validate_program *p, const struct vp_input *r,
                                    const struct vp_insn *ip, uint64_t pos, int64_t *slots)
{
    if (BITSIFT_UNLIKELY(pos + ip->bits > r->fast_limit))
        return vp_run_near_end(p, r, ip, pos, slots);
    if (BITSIFT_UNLIKELY(vp_groups_failed(r, ip->groups, ip->b, pos)))
        return false;
    const struct vp_store *st = ip->stores, *se = st + ip->d;
    do
        slots[st->slot] = vp_stored(r, st, pos);
    while (++st < se);
    return true;
}

/* A run of exactly `groups` groups (1 or 2, or 0 with a store) and
 * `stores` stores (0 or 1), both constants where it is inlined: the
 * loads and checks laid out one after the other. The value is kept
 * before the checks are known, which only matters to a packet that they
 * refuse. */
static VP_INLINE bool vp_small_run(const struct validate_program *p, const struct vp_input *r,
                                   const struct vp_insn *ip, uint64_t pos, int64_t *slots,
                                   unsigned groups, unsigned stores)
{
    if (BITSIFT_UNLIKELY(pos + ip->bits > r->fast_limit))
        return vp_run_near_end(p, r, ip, pos, slots);
    /* Not vp_groups_failed: this indexed loop over a constant count is
     * laid out flat (with it, validation in memory measured 1.5 % slower). */
    uint64_t bad = 0;
    for (unsigned k = 0; k < groups; k++) {
        const struct vp_group *g = &ip->groups[k];
        bad |= vp_failed(vp_near(r, pos + g->off), g->add, g->flip, g->carries);
    }
    if (stores)
        slots[ip->stores->slot] = vp_stored(r, ip->stores, pos);
    return !bad;
}

/* VP_COND_RUN: a condition on data is a branch the CPU guesses wrong
 * half the time, so where the run's loads stay inside the packet either
 * way, the run is checked always and the condition masks the outcome.
 * `value` is slots[ip->c]. */
static VP_INLINE bool vp_cond_run(const struct validate_program *p, const struct vp_input *r,
                                  const struct vp_insn *ip, uint64_t *pos, uint64_t *fields,
                                  int64_t value, int groups)
{
    uint64_t taken = (uint64_t)((value == ip->x) ^ ip->kind);
    uint64_t mask = 0 - taken;
    if (BITSIFT_LIKELY(*pos + ip->bits <= r->fast_limit)) {
        /* `groups`: their number where it is a constant, else -1. */
        uint32_t count = groups < 0 ? ip->b : (uint32_t)groups;
        if (BITSIFT_UNLIKELY(vp_groups_failed(r, ip->groups, count, *pos) & mask))
            return false;
    } else if (taken && !vp_run_near_end(p, r, ip, *pos, NULL)) {
        return false;
    }
    *pos += ip->bits & mask;
    *fields += ip->fields & mask;
    return true;
}

/* The bits of case `pick` (c) of a VP_SELECT_RUN: from the bytes packed
 * in y when the op has them (kind 1: at most 8 cases of at most 255
 * bits), a shift rather than a load on the chain from one element's
 * position to the next. */
static inline uint64_t vp_case_bits(const struct vp_insn *sel, const struct vp_case *c,
                                    uint64_t pick)
{
    return sel->kind ? (uint64_t)sel->y >> (8 * pick) & 0xff : c->bits;
}

/* Case c at `here`: 0 when it lies inside the packet and passes its
 * check, as vp_failed (all ones when it runs past the end). One load
 * straight from the packet while the case ends at or below fast_limit
 * (`need` is at least 1 so that the load stays inside). */
static VP_INLINE uint64_t vp_case_failed(const struct vp_input *r, const struct vp_case *c,
                                         uint64_t here)
{
    uint64_t w, at = here + c->off;
    if (BITSIFT_LIKELY(here + c->need <= r->fast_limit)) {
        w = vp_near(r, at);
    } else {
        if (here + c->bits > r->bit_limit)
            return ~0ull;
        w = vp_window(r, at);
    }
    return vp_failed(w, c->add, c->flip, c->carries);
}

/* VP_SELECT_RUN: the case of slots[c] - x, the last one ("nothing") when
 * there is none, read and checked without a branch on the value. */
static VP_INLINE bool vp_select_case(const struct vp_input *r, const struct vp_insn *ip,
                                     uint64_t *pos, uint64_t *fields, const int64_t *slots)
{
    uint64_t k = (uint64_t)slots[ip->c] - (uint64_t)ip->x, last = ip->d, pick = k < last ? k : last;
    const struct vp_case *c = ip->cases + pick;
    if (BITSIFT_UNLIKELY(vp_case_failed(r, c, *pos)))
        return false;
    *pos += vp_case_bits(ip, c, pick);
    *fields += c->fields;
    return true;
}

/* VP_RUN_SELECT: the run at ip (one store), then the case of ip[1] that
 * its value picks. The case's position waits on the value, so the value
 * goes from the load straight to the pick, and the slot is written on the
 * side for later ops. vp_run_then_case does all of it but reading the
 * value: for a run starting at `start` that ends at or below fast_limit. */
static VP_INLINE bool vp_run_then_case(const struct vp_input *r, const struct vp_insn *ip,
                                       uint64_t start, uint64_t raw, uint64_t *pos,
                                       uint64_t *fields, int64_t *slots)
{
    const struct vp_insn *sel = ip + 1;
    uint64_t here = start + ip->bits, bad = vp_groups_failed(r, ip->groups, ip->b, start);
    const struct vp_store *st = ip->stores;
    uint64_t value = (uint64_t)st->base + raw;
    slots[st->slot] = (int64_t)value;
    uint64_t k = value - (uint64_t)sel->x, last = sel->d, pick = k < last ? k : last;
    const struct vp_case *c = sel->cases + pick;
    if (BITSIFT_UNLIKELY(bad | vp_case_failed(r, c, here)))
        return false;
    *pos = here + vp_case_bits(sel, c, pick);
    *fields += ip->fields + c->fields;
    return true;
}

static VP_INLINE bool vp_run_select(const struct validate_program *p, const struct vp_input *r,
                                    const struct vp_insn *ip, uint64_t *pos, uint64_t *fields,
                                    int64_t *slots)
{
    uint64_t start = *pos;
    if (BITSIFT_UNLIKELY(start + ip->bits > r->fast_limit)) {
        if (!vp_run_near_end(p, r, ip, start, slots))
            return false;
        *pos = start + ip->bits;
        *fields += ip->fields;
        return vp_select_case(r, ip + 1, pos, fields, slots);
    }
    const struct vp_store *st = ip->stores;
    uint64_t raw = vp_near(r, start + st->off) & st->mask;
    return vp_run_then_case(r, ip, start, raw, pos, fields, slots);
}

/* VP_RUN_COND: the run at ip (one store), then the VP_COND_RUN of ip[1]
 * on its value, which goes from the load straight to the condition. */
static VP_INLINE bool vp_run_cond(const struct validate_program *p, const struct vp_input *r,
                                  const struct vp_insn *ip, uint64_t *pos, uint64_t *fields,
                                  int64_t *slots)
{
    uint64_t start = *pos, here = start + ip->bits;
    if (BITSIFT_UNLIKELY(here > r->fast_limit)) {
        if (!vp_run_near_end(p, r, ip, start, slots))
            return false;
        *pos = here;
        *fields += ip->fields;
        return vp_cond_run(p, r, ip + 1, pos, fields, slots[ip->stores->slot], -1);
    }
    uint64_t bad = vp_groups_failed(r, ip->groups, ip->b, start);
    int64_t value = vp_stored(r, ip->stores, start);
    slots[ip->stores->slot] = value;
    if (BITSIFT_UNLIKELY(bad))
        return false;
    *pos = here;
    *fields += ip->fields;
    return vp_cond_run(p, r, ip + 1, pos, fields, value, -1);
}

/* VP_OBJ_RUN_SELECT: the object index at ip, then the VP_RUN_SELECT at
 * ip[1]. An entity's kind usually follows its index, and the window the
 * index came from holds it too: one load less on the chain from one
 * element's position to the next. `b` is where the value's last bit lies
 * from the run's start (its offset plus width): the window has 57 bits. */
static VP_INLINE bool vp_object_run_select(const struct validate_program *p,
                                           const struct vp_input *r, const struct vp_insn *ip,
                                           uint64_t *pos, uint64_t *fields, int64_t *slots)
{
    int64_t base = ip->kind ? slots[ip->c] : ip->x, current;
    uint64_t w, start = *pos;
    if (base < INT32_MIN || base > INT32_MAX ||
        !vp_object_index(r, pos, base, ip->y, ip->d, &current, &w))
        return false;
    slots[ip->a] = current;
    *fields += ip->fields;
    const struct vp_insn *run = ip + 1;
    uint64_t len = *pos - start;
    if (BITSIFT_UNLIKELY(len + ip->b > 57 || *pos + run->bits > r->fast_limit))
        return vp_run_select(p, r, run, pos, fields, slots);
    const struct vp_store *st = run->stores;
    uint64_t raw = w >> (len + st->off) & st->mask;
    return vp_run_then_case(r, run, *pos, raw, pos, fields, slots);
}

/*
 * Dispatch is a computed goto where the compiler has it (one indirect jump
 * per op, each with its own prediction), a switch in a loop elsewhere.
 */
#if defined(__GNUC__) && !defined(BITSIFT_VALIDATE_SWITCH)
#define VP_THREADED 1
#endif

/*
 * The interpreter comes in two builds where the compiler can target one
 * function at x86-64's BMI2 (and the rest of the library is built
 * without it): the portable one, and one for BMI2 that the program uses
 * when the CPU has it (vp_cpu_has_bmi2, asked once per schema). Every
 * window read shifts by a count known only at run time (`>> (at & 7)`,
 * the mask of a width): SHR by CL costs two or three micro-ops on Intel
 * cores and SHRX one, and the program retires about four instructions a
 * cycle, so micro-ops are what it waits on as much as latency. `validate`
 * on the bench capture, A/B medians of 11: 153.6 -> 148.4 ms of CPU on the
 * Xeon. validate_diff and the fuzz harnesses run both builds
 * (bitsift__validate_program_portable).
 */
#if defined(__GNUC__) && defined(__x86_64__) && !defined(__BMI2__)
#define VP_BMI2_BUILD 1
#endif

/* Each build starts on a cache line of its own. Where it lands otherwise
 * depends on the code placed before it, and that moved the program's
 * speed: with the builder moved out of this file the BMI2 build started
 * 48 bytes into a line, and validate took 4.8 % more per field in memory
 * (A/B medians of 9 rounds); aligned, the two placements measure the
 * same (1.000, 7 rounds). */
#if defined(__GNUC__)
#define VP_RUN_ALIGN __attribute__((aligned(64)))
#else
#define VP_RUN_ALIGN
#endif

#define VP_RUN_NAME vp_run_portable
#define VP_RUN_ATTRIBUTES VP_RUN_ALIGN
#include "schema_validate_run.h"

#ifdef VP_BMI2_BUILD
#define VP_RUN_NAME vp_run_bmi2
#define VP_RUN_ATTRIBUTES VP_RUN_ALIGN __attribute__((target("bmi,bmi2")))
#include "schema_validate_run.h"
#endif

bool schema_validate_cpu_has_bmi2(void)
{
#ifdef VP_BMI2_BUILD
    __builtin_cpu_init();
    return __builtin_cpu_supports("bmi") && __builtin_cpu_supports("bmi2");
#else
    return false;
#endif
}

bool schema_validate(const bitsift_schema *s, const void *packet, size_t size, unsigned flags,
                     bitsift_result *res)
{
#ifdef VP_BMI2_BUILD
    if (s->validate->bmi2) {
        bool valid = vp_run_bmi2(s, packet, size, flags, res);
        if (valid)
            SCHEMA_PLANT(PLANT_PROGRAM, res);
        return valid;
    }
#endif
    bool valid = vp_run_portable(s, packet, size, flags, res);
    if (valid)
        SCHEMA_PLANT(PLANT_PROGRAM, res);
    return valid;
}

bool schema_validate_portable(const bitsift_schema *s, const void *packet, size_t size,
                              unsigned flags, bitsift_result *res)
{
    bool valid = vp_run_portable(s, packet, size, flags, res);
    if (valid)
        SCHEMA_PLANT(PLANT_PROGRAM, res);
    return valid;
}
