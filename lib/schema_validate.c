/*
 * schema_validate.c -- the validation program: a second, flat form of a
 * compiled schema, built once per schema, and its interpreter, which
 * answers "is this packet valid?" for bitsift_decode with no visitor
 * (`bitsift validate`, protocol detection) several times faster than
 * walking the op list.
 *
 * The op list (schema_internal.h) is made for reporting: every field has a
 * name, a path and an event, structs and arrays are entered and left, and
 * the decoder recurses. Validation needs none of that, only the decision
 * and the number of bits and fields. So the program has
 *   - no structs: their bodies are inlined where they are used;
 *   - runs: consecutive fields whose check is "a raw value of w bits lies
 *     in a range" are one op with one bounds test; their range checks are
 *     packed several to a 64-bit load (struct vp_group), and fields that
 *     cannot fail (bools, bits, floats, int(0, 2^k - 1), smallest-three
 *     components) cost nothing but their bits; the common small runs (one
 *     or two groups, at most one value kept) have a handler per shape,
 *     with no loop;
 *   - the relative encodings (object index, int/sequence/ack relative)
 *     read from one load each, without a loop over their ladder;
 *   - ifs as conditional jumps, the not-taken branch's slot defaults
 *     written as VP_SETs at the head of the other branch; but an if whose
 *     body is one run is one op that reads the run and lets the condition
 *     mask the outcome (VP_COND_RUN), and a chain of such ifs on one enum
 *     value picks its run from a table (VP_SELECT_RUN): a condition on the
 *     data is a branch the CPU guesses wrong half the time;
 *   - arrays as loops whose counters live in a small fixed array indexed
 *     by the loop's nesting level (known when the program is built);
 *   - slots written only by the fields that own one (a field has a slot
 *     only when some later field refers to it);
 *   - a run whose one kept value the next op picks a case by or tests
 *     (VP_RUN_SELECT, VP_RUN_COND), and an object index before such a run
 *     (VP_OBJ_RUN_SELECT), fused into one op: the program is bound by
 *     latency (each element's position waits on the bits before it), and
 *     the fused op takes the value from its load, not through its slot.
 * Dispatch is a computed goto where the compiler has one; on x86-64 the
 * interpreter has a second build for CPUs with BMI2 (schema_validate_run.h).
 *
 * Example: `enum K : int(0, 15) { a, b, c, d, e }  struct E { K kind;
 * float x; if (kind == b) { int(0, 100) hp; } if (kind == c) { bool
 * open; } }` and the packet `{ E items[max 8]; bool f; if (f) { int(0, 9)
 * n; int(0, 9) m; } }` compile to
 *
 *   0  LOOP_INLINE  level 0: int(0, 8) elements; none: -> 4
 *   1  RUN_STORE    36 bits; one group checks kind <= 4; kind -> slot 0
 *   2  SELECT_RUN   slot 0 - 1 picks a case: 7 bits (hp <= 100), 1 bit,
 *                   or nothing
 *   3  LOOP_NEXT    level 0: again -> 1, else -> 4
 *   4  RUN_STORE    1 bit; f -> slot 1
 *   5  COND_RUN     when slot 1 != 0: 8 bits, n <= 9 and m <= 9
 *   6  END
 *
 * and then run as 1 RUN_SELECT_NEXT (ops 1, 2 and the loop step of 3), 4
 * RUN_COND (ops 4 and 5) and 6 END: ops 2, 3 and 5 stay in place for any
 * jump that leads to them.
 *
 * Identical behaviour is the rule: the program accepts exactly the
 * packets the op interpreter accepts, with the same bits and field count.
 * It only decides; when it refuses, schema_decode.c runs the interpreter,
 * which refuses too and names the failure. (A shape the program does not
 * handle is simply not built: the schema then always uses the
 * interpreter.) tests/schema/validate_diff.c, fuzz_packet and fuzz_schema
 * compare the two on every example, on mutated and on random inputs.
 *
 * Every read stays inside the packet exactly as the inline reader's
 * (lib/bitsift.h): a load from data only while it ends at or below
 * fast_limit, otherwise from the reader's zero-padded copy of the last
 * bytes, and never past bit_limit.
 */
#include <stdlib.h>
#include <string.h>

#include "schema_internal.h"

enum vp_code {
    VP_RUN,            /* `bits` bits, checked by groups[a, a + b) (b >= 1) */
    VP_RUN_STORE,      /* the same, any b, then the values stores[c, c + d) */
    VP_SKIP,           /* `bits` bits that need no check */
    VP_RUN_NEXT,       /* VP_RUN, VP_RUN_STORE, VP_SKIP, VP_COND_RUN, */
    VP_RUN_STORE_NEXT, /* VP_SELECT_RUN, then the VP_LOOP_NEXT of loop */
    VP_SKIP_NEXT,      /* `level`: back to `again`, else on to `done` (one */
    VP_COND_RUN_NEXT,  /* dispatch less per array element) */
    VP_SELECT_RUN_NEXT,
    VP_SET,            /* slots[a] = x (a zero-bit field, a default, a reset) */
    VP_LEAF,           /* ops[a] through the library's readers */
    VP_ALIGN,          /* zero padding to the next byte */
    VP_CHECK,          /* align, then the 32-bit marker x */
    VP_OBJ_INDEX,      /* object_index field: see vp_object_index */
    VP_INT_REL,        /* int_relative field: see vp_int_relative */
    VP_SEQ_REL,        /* sequence_relative field */
    VP_ACK_REL,        /* ack_relative field */
    VP_COND_RUN,       /* a VP_RUN (or VP_SKIP) read only when slots[c] == x
                          (kind 0) or != x (kind 1), without a branch */
    VP_IF_EQ,          /* on to the then branch when slots[a] == x, else to b */
    VP_IF_NE,          /* the same for slots[a] != x */
    VP_IF_EXPR,        /* the same for schema_eval(ops[a]) */
    VP_SWITCH,         /* slots[a] - x indexes table[c, c + d), else to b */
    VP_SELECT_RUN,     /* slots[c] - x picks cases[a + k] (k < d), else
                          cases[a + d] (nothing): one run, no branch */
    VP_JUMP,           /* to b */
    VP_LOOP_FIXED,     /* x elements */
    VP_LOOP_COUNTED,   /* slots[c] elements, at most x; none: to b */
    VP_LOOP_INLINE,    /* int(0, x) elements in d bits; none: to b */
    VP_LOOP_NEXT,      /* another element: back to b, else on to c */
    VP_SPARSE_BEGIN,   /* sparse array of kind `kind`: see the step ops */
    VP_FLAGS_STEP,     /* a bool per slot 0..x-1; after the last: to b */
    VP_INDICES_STEP,   /* an int(0, x - 1) index per element */
    VP_SENTINEL_STEP,  /* an int(0, x) index per element, x ends */
    VP_RELATIVE_STEP,  /* an object index per element */
    VP_FAIL,           /* a field no packet can hold */
    VP_END,
    /* VP_RUN and VP_RUN_STORE (and their _NEXT forms) of the common small
     * shapes, g groups and s stores, read with no loop (vp_small_run);
     * set by vp_specialise_runs once the program is complete. */
    VP_RUN_G1,
    VP_RUN_G2,
    VP_RUN_G0S1,
    VP_RUN_G1S1,
    VP_RUN_G2S1,
    VP_RUN_G1_NEXT,
    VP_RUN_G2_NEXT,
    VP_RUN_G0S1_NEXT,
    VP_RUN_G1S1_NEXT,
    VP_RUN_G2S1_NEXT,
    VP_COND_RUN_G1, /* VP_COND_RUN(_NEXT) of one group, the same way */
    VP_COND_RUN_G1_NEXT,
    /* A VP_RUN_STORE of one store whose value picks the case of the
     * VP_SELECT_RUN(_NEXT) right after it: both read as one op, the case
     * picked from the value without a trip through slots (vp_run_select);
     * ip[1] stays for the jumps that lead to it. */
    VP_RUN_SELECT,
    VP_RUN_SELECT_NEXT,
    /* A VP_OBJ_INDEX right before a VP_RUN_SELECT(_NEXT): the three ops
     * (ip, ip[1], ip[2]) read as one, the run's value taken from the
     * window the index was read from (vp_object_run_select). */
    VP_OBJ_RUN_SELECT,
    VP_OBJ_RUN_SELECT_NEXT,
    /* A VP_RUN_STORE of one store whose value is the condition of the
     * VP_COND_RUN(_NEXT) right after it, the same way (vp_run_cond). */
    VP_RUN_COND,
    VP_RUN_COND_NEXT,
    VP_CODE_COUNT
};

struct vp_group;
struct vp_store;
struct vp_case;

struct vp_insn {
    uint8_t code;   /* enum vp_code */
    uint8_t level;  /* loops: which counter */
    uint8_t kind;   /* VP_SPARSE_BEGIN: enum array_kind; relative fields: 1
                       when the base is slots[c], 0 when it is x;
                       VP_SELECT_RUN: 1 when y holds its cases' bits */
    uint8_t unused;
    uint32_t fields; /* fields counted when the op succeeds */
    uint32_t a, b, c, d;
    uint64_t bits;
    int64_t x;
    union {
        int64_t y;
        const struct vp_store *stores; /* runs: &program->stores[c] */
    };
    uint32_t again, done; /* the *_NEXT ops' loop step: back to again, or on */
    /* Runs and VP_COND_RUN: &program->groups[a]; VP_SELECT_RUN:
     * &program->cases[a]. Set with `stores` once the arrays no longer
     * move; 64 bytes in all, so that an index becomes an offset by a
     * shift. */
    union {
        const struct vp_group *groups;
        const struct vp_case *cases;
    };
};

/*
 * The range checks of a run, several fields per 64-bit load. A field of w
 * bits whose raw values 0..hi are allowed passes when raw + (2^w - 1 - hi)
 * does not carry out of its w bits. Fields side by side in one window
 * get their constants side by side, and one addition checks them all: a
 * carry leaves a field only when that field fails, so a carry reaches a
 * field above only in a packet that is refused anyway.
 *
 *   window (LSB right): ...|  hp: 7  | team: 2 |      x: 20      |
 *   add:                ...| 127-100 |  3 - 2  | 2^20 - 1 - steps |
 *   carries:            the bit just above each checked field
 *
 * The carries into the bits of t + add are (t + add) ^ t ^ add. A field
 * that must also be at least lo (an enum whose first name is above its
 * minimum) gets a group of its own with add = 2^w - lo, whose carry is
 * required instead: `flip` is add with that carry bit flipped.
 */
struct vp_group {
    uint64_t add, flip, carries;
    uint32_t off; /* bits from the run's start to the window */
};

/* One value of a run that a later field uses: slots[slot] = base + raw,
 * raw being the `mask` bits at `off`. */
struct vp_store {
    uint32_t off, slot;
    int64_t base;
    uint64_t mask;
};

/* One case of VP_SELECT_RUN: a run of `bits` bits with at most one group
 * of checks (none: add = flip = carries = 0). `need` is what the fast
 * path's bounds test adds to the position: the bits, at least 1, so that
 * the one 8-byte load stays inside the packet. */
struct vp_case {
    uint64_t bits, need;
    uint64_t add, flip, carries;
    uint32_t off, fields;
};

/* Per nesting level of arrays: elements left, the last sparse index. */
struct vp_loop {
    int64_t remaining, previous;
};
#define VP_MAX_LEVELS (BITSIFT_SCHEMA_MAX_DEPTH + 2)

/* The scratch slot: where values nobody reads would go. */
#define VP_SCRATCH SCHEMA_MAX_SLOTS

struct validate_program {
    struct vp_insn *insns;
    struct vp_group *groups;
    struct vp_store *stores;
    uint32_t *table; /* VP_SWITCH targets */
    struct vp_case *cases;
    uint32_t case_count;
    uint32_t *entry; /* first insn of each packet type */
    uint32_t insn_count, group_count, store_count, table_count;
    unsigned type_width; /* bits of the packet type field */
    uint32_t head_crc;   /* CRC32 of the protocol id and a zero CRC field */
    bool bmi2;           /* run by the interpreter's BMI2 build */
};

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
/* The field takes t + 1 + width bits: 1, 4, 6, 8, 10, 12. */
static const struct vp_tier vp_tiers[6] = {
    {0, 1}, {3, 2}, {7, 6}, {15, 14}, {31, 30}, {63, 62},
};

static inline bool vp_object_index(const struct vp_input *r, uint64_t *pos, int64_t previous,
                                   int64_t max_objects, unsigned last_width, int64_t *current,
                                   uint64_t *window)
{
    uint64_t w = vp_window(r, *pos);
    *window = w;
    unsigned t = (unsigned)__builtin_ctzll(w | 64);
    int64_t d;
    unsigned len;
    if (BITSIFT_LIKELY(t < 6)) {
        const struct vp_tier *tier = &vp_tiers[t];
        d = tier->min + (int64_t)(w >> (t + 1) & tier->mask);
        /* t + 1 + width, computed rather than loaded from the table:
         * the next field's position waits on it, and a load is the
         * longer wait (validate on the bench capture: 196 -> 193 ms). */
        len = 2 * t + 1 + (t != 0);
    } else {
        if (max_objects + 1 < 126)
            return false;
        uint64_t raw = vp_mask(w >> 6, last_width);
        if (raw > (uint64_t)(max_objects + 1 - 126))
            return false;
        d = 126 + (int64_t)raw;
        len = 6 + last_width;
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
static const uint8_t vp_rel_width[6] = {0, 3, 5, 9, 13, 17};
static const uint32_t vp_rel_min[6] = {1, 2, 7, 24, 281, 4378};
static const uint32_t vp_rel_span[6] = {0, 4, 16, 256, 4096, 65536};

static inline bool vp_int_relative(const struct vp_input *r, uint64_t *pos, int64_t previous,
                                   int64_t *current)
{
    uint64_t w = vp_window(r, *pos);
    unsigned t = (unsigned)__builtin_ctzll(w | 64);
    int64_t value;
    unsigned len;
    if (BITSIFT_LIKELY(t < 6)) {
        unsigned width = vp_rel_width[t];
        uint64_t raw = vp_mask(w >> (t + 1), width);
        if (raw > vp_rel_span[t])
            return false;
        value = previous + vp_rel_min[t] + (int64_t)raw;
        if (value > INT32_MAX)
            return false;
        len = t + 1 + width;
    } else {
        value = (int32_t)(uint32_t)(w >> 6);
        if (value <= previous)
            return false;
        len = 6 + 32;
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

static bool vp_base(const struct schema_op *op, const int64_t *slots, int64_t lo, int64_t hi,
                    int64_t *base)
{
    int64_t b = op->base_kind == BASE_CONST ? op->base : slots[op->base_slot];
    *base = b;
    return b >= lo && b <= hi;
}

/* A field the program does not read itself: exactly what the op
 * interpreter's read_leaf_value checks and keeps, through the same
 * library readers, with no value built. */
static bool vp_leaf(const bitsift_schema *s, bitsift_reader *r, const struct schema_op *op,
                    int64_t *slots)
{
    int64_t as_int = 0, i = 0, base = 0;
    uint64_t u = 0;
    const uint8_t *view;
    size_t len;
    bool flag;
    switch ((enum op_code)op->code) {
    case OP_BITS:
        if (!bitsift_read_bits(r, op->width, &u))
            return false;
        as_int = (int64_t)u;
        break;
    case OP_BOOL:
        if (!bitsift_read_bool(r, &flag))
            return false;
        as_int = flag;
        break;
    case OP_INT:
        if (!bitsift_read_int(r, op->min, op->max, &i))
            return false;
        as_int = i;
        break;
    case OP_ENUM:
        if (!bitsift_read_int(r, op->min, op->max, &i) || !schema_enum_lookup(s, op->enum_id, i))
            return false;
        as_int = i;
        break;
    case OP_FLOAT:
        if (!bitsift_read_bits(r, 32, &u))
            return false;
        break;
    case OP_DOUBLE:
        if (!bitsift_read_bits(r, 64, &u))
            return false;
        break;
    case OP_CFLOAT:
        if (!bitsift_read_bits(r, op->width, &u) || u > op->steps)
            return false;
        break;
    case OP_BYTES:
        if (!bitsift_read_bytes_view(r, op->width, &view))
            return false;
        break;
    case OP_STRING:
        if (!bitsift_read_string_view(r, op->width, &view, &len))
            return false;
        break;
    case OP_ALIGN:
        if (!bitsift_read_align(r))
            return false;
        break;
    case OP_CHECK:
        if (!bitsift_read_check(r, op->check))
            return false;
        break;
    case OP_INT_REL: {
        int32_t cur;
        if (!vp_base(op, slots, INT32_MIN, INT32_MAX, &base) ||
            !bitsift_read_int_relative(r, (int32_t)base, &cur))
            return false;
        as_int = cur;
        break;
    }
    case OP_OBJ_INDEX: {
        int32_t cur;
        if (!vp_base(op, slots, INT32_MIN, INT32_MAX, &base) ||
            !bitsift_read_object_index(r, (int32_t)base, op->max_objects, &cur))
            return false;
        as_int = cur;
        break;
    }
    case OP_SEQ_REL:
    case OP_ACK_REL: {
        uint16_t cur;
        if (!vp_base(op, slots, 0, 65535, &base))
            return false;
        if (op->code == OP_SEQ_REL ? !bitsift_read_sequence_relative(r, (uint16_t)base, &cur)
                                   : !bitsift_read_ack_relative(r, (uint16_t)base, &cur))
            return false;
        as_int = cur;
        break;
    }
    case OP_SMALLEST3:
        /* Any raw values make a quaternion; it keeps no slot. */
        if (!bitsift_read_bits(r, 2, &u))
            return false;
        for (int k = 0; k < 3; k++)
            if (!bitsift_read_bits(r, op->width, &u))
                return false;
        return true;
    default:
        return false;
    }
    if (op->allowed_count && !schema_allowed(s, op, as_int))
        return false;
    if (op->slot >= 0)
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

#define VP_RUN_NAME vp_run_portable
#define VP_RUN_ATTRIBUTES
#include "schema_validate_run.h"

#ifdef VP_BMI2_BUILD
#define VP_RUN_NAME vp_run_bmi2
#define VP_RUN_ATTRIBUTES __attribute__((target("bmi,bmi2")))
#include "schema_validate_run.h"
#endif

static bool vp_cpu_has_bmi2(void)
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
    if (s->validate->bmi2)
        return vp_run_bmi2(s, packet, size, flags, res);
#endif
    return vp_run_portable(s, packet, size, flags, res);
}

bitsift_error bitsift__decode_interpreted(const bitsift_schema *s, const void *packet, size_t size,
                                          unsigned flags, bitsift_result *res)
{
    bitsift_result local;
    if (!res)
        res = &local;
    if (!s || (!packet && size)) {
        schema_result_init(res);
        res->status = res->failure.kind = BITSIFT_E_ARGUMENT;
        res->failure.why = "no schema or no packet";
        return res->status;
    }
    return schema_decode(s, packet, size, (flags & ~SCHEMA_DECODE_NO_PATHS) | SCHEMA_DECODE_INTERPRETER,
                         NULL, res);
}

/* The program's decision for the tests, through one build of the
 * interpreter. */
static int vp_decision(const bitsift_schema *s, const void *packet, size_t size, unsigned flags,
                       bitsift_result *res, bool portable)
{
    if (!s || !s->validate)
        return -1;
    if (!packet && size)
        return 0;
    bool valid = portable ? vp_run_portable(s, packet, size, flags, res)
                          : schema_validate(s, packet, size, flags, res);
    return valid ? 1 : 0;
}

int bitsift__validate_program(const bitsift_schema *s, const void *packet, size_t size,
                              unsigned flags, bitsift_result *res)
{
    return vp_decision(s, packet, size, flags, res, false);
}

int bitsift__validate_program_portable(const bitsift_schema *s, const void *packet, size_t size,
                                       unsigned flags, bitsift_result *res)
{
    return vp_decision(s, packet, size, flags, res, true);
}

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
    bool failed;  /* out of memory, or a shape left to the interpreter */
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
    /* Kinds whose slot stays 0 (read_leaf_value keeps 0 for them). */
    int32_t slot = op->slot;
    bool plain = op->allowed_count == 0;
    switch ((enum op_code)op->code) {
    case OP_BITS:
        if (plain && op->width >= 1 && op->width <= 57) {
            vp_run_read(b, op->width, 0, UINT64_MAX, 0, slot);
            vp_run(b)->fields++;
            return;
        }
        break;
    case OP_BOOL:
        if (plain) {
            vp_run_read(b, 1, 0, UINT64_MAX, 0, slot);
            vp_run(b)->fields++;
            return;
        }
        break;
    case OP_INT:
    case OP_ENUM: {
        if (op->min > op->max) {
            vp_emit(b, VP_FAIL, 0);
            return;
        }
        if (op->min == op->max) {
            /* Nothing is read; the value is min, which must be allowed
             * and, for an enum, named: decided now. */
            bool ok = schema_allowed(s, op, op->min) &&
                      (op->code == OP_INT || schema_enum_lookup(s, op->enum_id, op->min));
            if (ok)
                vp_set(b, slot, op->min, 1);
            else
                vp_emit(b, VP_FAIL, 0);
            return;
        }
        unsigned width = bitsift_bits_required(op->min, op->max);
        uint64_t lo = 0, span = (uint64_t)op->max - (uint64_t)op->min;
        if (!plain || width > 57)
            break;
        /* A dense enum: the raw values with a name are one range. */
        if (op->code == OP_ENUM && !schema_enum_raw_range(s, op, &lo, &span))
            break;
        vp_run_read(b, width, lo, span, op->min, slot);
        vp_run(b)->fields++;
        return;
    }
    case OP_CFLOAT:
        if (plain && op->width >= 1 && op->width <= 57) {
            vp_run_read(b, op->width, 0, op->steps, 0, -1);
            vp_run(b)->fields++;
            return;
        }
        break;
    case OP_FLOAT:
        if (plain) {
            vp_run_read(b, 32, 0, UINT64_MAX, 0, -1);
            vp_run(b)->fields++;
            return;
        }
        break;
    case OP_SMALLEST3:
        /* No value list or slot applies to a quaternion. */
        if (op->width >= 1 && op->width <= 57) {
            vp_run_read(b, 2, 0, UINT64_MAX, 0, -1);
            for (int k = 0; k < 3; k++)
                vp_run_read(b, op->width, 0, UINT64_MAX, 0, -1);
            vp_run(b)->fields++;
            return;
        }
        break;
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
            in->d = op->code == OP_OBJ_INDEX && (int64_t)op->max_objects + 1 >= 126
                        ? bitsift_bits_required(126, (int64_t)op->max_objects + 1)
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
static void vp_select_run(struct vp_builder *b, uint32_t first, uint32_t n, int64_t lo,
                          int64_t hi, int32_t slot)
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
        jump = vp_emit(b, op->cond_shape == COND_ZERO || op->cond_shape == COND_EQ ? VP_IF_EQ
                                                                                  : VP_IF_NE,
                       0);
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
                : op->max + 1 >= 126               ? bitsift_bits_required(126, op->max + 1)
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
        if (container && (op->end <= i || op->end > end ||
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
    b.p->bmi2 = vp_cpu_has_bmi2();
    return b.p;
}
