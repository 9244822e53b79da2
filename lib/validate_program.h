/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * validate_program.h -- the layout of the validation program, shared by
 * its builder (schema_validate_build.c) and its interpreter
 * (schema_validate.c): a second, flat form of a compiled schema, built
 * once per schema, which answers "is this packet valid?" for bitsift_decode with no visitor
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
#ifndef BITSIFT_VALIDATE_PROGRAM_H
#define BITSIFT_VALIDATE_PROGRAM_H

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

/* Build the program of a compiled schema (schema_validate_build.c): NULL
 * without memory or for a shape it leaves to the op interpreter. */
struct validate_program *schema_validate_build(const bitsift_schema *s);
void schema_validate_free(struct validate_program *p);
/* Whether this CPU runs the interpreter's BMI2 build (schema_validate.c). */
bool schema_validate_cpu_has_bmi2(void);
/* The decision through the portable build only (schema_validate.c). */
bool schema_validate_portable(const bitsift_schema *s, const void *packet, size_t size,
                              unsigned flags, bitsift_result *res);

#endif /* BITSIFT_VALIDATE_PROGRAM_H */
