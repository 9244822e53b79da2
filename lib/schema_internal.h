/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * schema_internal.h -- the compiled form of a schema, shared by the
 * schema compiler, decoder, encoder, tree and printer. Never installed.
 *
 * A schema compiles to one flat array of ops. Structs are inlined where
 * they are used, so every op knows its own name, path and field id, and
 * the decoder never looks anything up by name. A container op (struct,
 * vector, quaternion, array, if) is followed by its body, and `end` is
 * the index just past the body:
 *
 *   ops[i]        STRUCT position        end = i + 4
 *   ops[i+1]        FLOAT x
 *   ops[i+2]        FLOAT y
 *   ops[i+3]        FLOAT z
 *   ops[i+4]      ...
 *
 * An IF op's body is [i + 1, else_start) when the condition holds and
 * [else_start, end) when it does not. The decoder and encoder walk this
 * list recursively (depth <= BITSIFT_SCHEMA_MAX_DEPTH).
 *
 * Values that later fields refer to (counts, conditions, relative bases)
 * are kept in numbered slots, an int64_t array on the decoder's stack.
 */
#ifndef BITSIFT_SCHEMA_INTERNAL_H
#define BITSIFT_SCHEMA_INTERNAL_H

#include "bitsift_internal.h"
#include "field_types.h"

/* Referenced values per schema (slots live on the decoder's stack). */
#define SCHEMA_MAX_SLOTS 256
/* Items of one condition expression. */
#define SCHEMA_MAX_EXPR 64
/* Values in one `in { ... }` list and names in one enum. */
#define SCHEMA_MAX_LIST 1024

/* The op codes, one per row of the field-type table (field_types.h). */
#define FIELD_OP_CODE(op, ...) op,
enum op_code { SCHEMA_FIELD_TYPES(FIELD_OP_CODE) OP_CODE_COUNT };
#undef FIELD_OP_CODE

/* How an array finds its elements. */
enum array_kind {
    ARRAY_FIXED,    /* max elements, nothing sent */
    ARRAY_COUNTED,  /* count from slot count_slot, <= max */
    ARRAY_INLINE,   /* int(0, max) count, then the elements */
    ARRAY_FLAGS,    /* sparse: a bool per slot 0..max-1 (scene_a) */
    ARRAY_INDICES,  /* sparse: int(0, max) count, int(0, max-1) index each (scene_b) */
    ARRAY_SENTINEL, /* sparse: int(0, max) index each, max ends (scene_c) */
    ARRAY_RELATIVE  /* sparse: int(0, max) count, object_index ladder each (scene_d) */
};

/* Where a relative field takes its base from. */
enum base_kind {
    BASE_CONST,   /* base */
    BASE_SLOT,    /* slots[base_slot] */
    BASE_PREVIOUS /* this field in the previous element; base for the first */
};

/* One item of a condition, in reverse Polish order. */
enum expr_code {
    EXPR_CONST,
    EXPR_SLOT,
    EXPR_NOT,
    EXPR_EQ,
    EXPR_NE,
    EXPR_LT,
    EXPR_LE,
    EXPR_GT,
    EXPR_GE,
    EXPR_AND,
    EXPR_OR
};

struct expr_item {
    enum expr_code code;
    int64_t value; /* EXPR_CONST: the constant; EXPR_SLOT: the slot */
};

struct schema_op {
    uint8_t code;       /* enum op_code */
    uint8_t type;       /* bitsift_field_type reported for it */
    uint8_t array_kind; /* enum array_kind */
    uint8_t base_kind;  /* enum base_kind */
    bool has_default;   /* `default` given (else 0 / false / empty) */
    bool fixed;         /* one allowed value: the encoder may omit it */
    bool element;       /* the element of the array op just before it */
    int32_t field;      /* field id, -1 for IF */
    int32_t slot;       /* slot that keeps the value, -1 when none */
    uint32_t end;       /* containers: index past the body */
    uint32_t else_start;
    int64_t min, max;    /* INT, ENUM; ARRAY: max is the element maximum */
    uint32_t width;      /* BITS, CFLOAT, BYTES, STRING, SMALLEST3 */
    uint32_t steps;      /* CFLOAT */
    float fmin, fmax, res;
    uint32_t check;      /* CHECK */
    int32_t count_slot;  /* ARRAY_COUNTED */
    int32_t count_for;   /* a count field: the array op it counts, -1 */
    int64_t count_cap;   /* a count field: the smallest maximum of its arrays */
    int64_t base;        /* relative: constant base, or first-element base */
    int32_t base_slot;   /* BASE_SLOT, BASE_PREVIOUS (its own slot) */
    int32_t max_objects; /* OBJ_INDEX */
    int32_t reset_head;  /* ARRAY: first BASE_PREVIOUS op to reset, -1 */
    int32_t reset_next;  /* BASE_PREVIOUS op: next one of the same array */
    int32_t enum_id;     /* ENUM */
    uint32_t allowed_first, allowed_count; /* value constraint list */
    uint32_t expr_first, expr_count;       /* IF */
    bitsift_value def;                     /* default when absent */
    const char *name;
    /* A run of fixed-width leaves starting here (see struct schema_leaf):
     * run_ops ops (structs included), run_fields of them leaves, read as
     * leaves[run_first, run_first + run_reads), run_bits bits in all.
     * run_ops is 0 when this op starts none. */
    uint32_t run_ops, run_fields, run_first, run_reads;
    uint64_t run_bits;
    /* Filled by schema_prepare_ops so that decoding computes none of it:
     * the value when absent (schema_default) and as a slot integer, the
     * name's length, for an IF whether a branch holds fields with slots
     * (bit 0 the then branch, bit 1 the else branch), and the condition
     * when it has one of the common shapes. */
    bitsift_value absent;
    int64_t absent_int;
    uint32_t name_len;
    uint8_t branch_slots;
    uint8_t cond_shape; /* enum cond_shape */
    int32_t cond_slot;
    int64_t cond_value;
    /* Filled by schema_prepare_visit (schema_decode.c): what a decode
     * with a visitor does with this op (enum visit_kind). A simple leaf
     * is visit_width bits, raw & visit_mask, accepted when
     * raw - visit_lo <= visit_span; an enum's name is then
     * enum_values[visit_names + raw - visit_lo]. visit_name is the name
     * padded with zeros when it is shorter than 16 bytes. */
    uint8_t visit;       /* enum visit_kind */
    uint8_t visit_width; /* 0..57 */
    bool visit_absent;   /* reported as absent in a skipped branch */
    bool visit_quick;    /* a leaf whose event path takes ".name" from visit_name */
    uint32_t visit_names;
    uint64_t visit_mask, visit_lo, visit_span;
    char visit_name[16];
};

/* What a decode with a visitor does with an op: the simple leaves are
 * read in one step, other leaves on the general path (VISIT_LEAF). */
enum visit_kind {
    VISIT_LEAF,
    VISIT_UINT,   /* bits(1..57): u = raw */
    VISIT_BOOL,   /* b = raw */
    VISIT_INT,    /* int(min, max): i = min + raw */
    VISIT_ENUM,   /* dense enum inside its range: i = min + raw, and its name */
    VISIT_CFLOAT, /* f = the dequantized raw, raw kept */
    VISIT_FLOAT,  /* f = the 32 raw bits */
    VISIT_OBJECT_INDEX,
    VISIT_CHECK,
    VISIT_QUATERNION, /* smallest three */
    VISIT_STRUCT,
    VISIT_ARRAY,
    VISIT_IF
};

/*
 * Per-type facts from the field-type table (field_types.c).
 */
/* The schema keyword of an op code ("int", "compressed_float"). */
const char *field_keyword(enum op_code code);
/* The field type an op of this code reports unless its spelling says
 * otherwise (uint8..uint64 are bits, vectors and quaternions structs). */
bitsift_field_type field_type_of(enum op_code code);
/* The op's type as a schema spells it ("int(0, 40)", "uint8", "enum
 * team"): snprintf's contract. */
int field_spelling(const bitsift_schema *s, const struct schema_op *op, char *buf, size_t size);
/* An array kind's one name: "fixed", "counted", "inline", or a sparse
 * encoding as the schema spells it in sparse(...): "flags", "indices",
 * "sentinel", "relative". */
const char *schema_array_kind_name(enum array_kind kind);
/* The smallest and largest bits a leaf op takes (containers: 0, 0). */
void field_size(const struct schema_op *op, uint64_t *min, uint64_t *max);
/* What a decode with a visitor does with an op of this code. */
enum visit_kind field_visit(enum op_code code);
/* The parameters its spelling takes (the table's params column). */
enum field_params field_params_of(enum op_code code);
/* One raw window of a leaf: `width` bits (0..57), accepted when
 * raw - lo <= span (unsigned), value base + raw. */
struct field_window {
    uint32_t width;
    uint64_t lo, span;
    int64_t base;
};
/* The windows a leaf op reads as (its row's `raw`), into out[0..3]: how
 * many, or 0 when it is not read that way (RAW_NONE, wider than 57 bits,
 * an enum that is not dense inside its range, an empty int range).
 * `keeps_value` is whether base + raw is the value a slot keeps (not for
 * floats and quaternions). The value list (allowed_count) is the caller's
 * to check. */
unsigned field_raw_windows(const bitsift_schema *s, const struct schema_op *op,
                           struct field_window out[4], bool *keeps_value);

/* Conditions that schema_eval answers without the expression stack. */
enum cond_shape {
    COND_EXPR,    /* anything else: evaluate the expression */
    COND_NONZERO, /* slot */
    COND_ZERO,    /* !slot */
    COND_EQ,      /* slot == value */
    COND_NE       /* slot != value */
};

/*
 * Leaf runs: a validating decode (no visitor) reads consecutive leaves
 * whose checks are all "a raw value of `width` bits lies in a range"
 * (bits, bool, int, dense enums, compressed floats, floats, smallest
 * three) as one run: one bounds test for the whole run, then per read a
 * load, a shift, a mask and one unsigned compare, with no dispatch per
 * field. A validating decode steps into a struct's body as if the struct
 * were not there (a struct adds no bits and no check), so a run goes on
 * through struct boundaries; it stops at the end of a packet, an array
 * or an if branch, so that a run() over any of these bodies can use it.
 *
 *   ops:    INT a   STRUCT p   CFLOAT x   CFLOAT y   BOOL b   ARRAY ...
 *   leaves: [a]                [x]        [y]        [b]
 *           run at "a": 5 ops, 4 fields, 4 reads
 *
 * A read passes when raw - lo <= span (unsigned); the value kept for
 * later fields is base + raw, stored in `slot` (SCHEMA_MAX_SLOTS, a
 * scratch slot, when nothing refers to it).
 */
struct schema_leaf {
    uint64_t mask; /* the low `width` bits */
    uint64_t lo, span;
    int64_t base;
    uint32_t slot;
    uint32_t width; /* 0..57 */
};

struct validate_program; /* validate_program.h */

struct string_block {
    struct string_block *next;
    size_t used, size;
    char data[];
};

struct schema_enum_value {
    const char *name;
    int64_t value;
};

struct schema_enum {
    const char *name;
    size_t items_start, items_end; /* its values in the schema text */
    uint32_t first, count; /* into enum_values, sorted by value */
    int64_t min, max;      /* the wire range: int(min, max) */
    bool dense;            /* values are first..first + count - 1: O(1) names */
};

/* What bitsift_schema_field_info reports, one per field id. */
struct schema_field {
    bitsift_field_info info;
    int32_t op; /* the op that reads it */
    bitsift_field_source src; /* where it is written (bitsift_schema_field_source) */
    bool has_src;             /* src filled (the parser fills each field once) */
    const char *type_name;    /* a struct-typed field: its struct's name; NULL else */
};

struct schema_packet {
    const char *name;
    uint32_t first_op, end_op; /* the packet's body */
    int32_t field;             /* field id of the root */
    uint64_t min_bits, max_bits;
};

struct bitsift_schema {
    char *name;
    bitsift_framing framing;
    bool has_version; /* declared with "version N" (the id hashes name/N) */
    uint32_t version;
    struct schema_op *ops;
    uint32_t op_count;
    struct schema_field *fields;
    uint32_t field_count;
    struct schema_packet *packets;
    uint32_t packet_count;
    struct schema_enum *enums;
    uint32_t enum_count;
    struct schema_enum_value *enum_values;
    uint32_t enum_value_count;
    int64_t *allowed;
    uint32_t allowed_count;
    struct expr_item *expr;
    uint32_t expr_count;
    uint32_t slot_count;
    struct schema_leaf *leaves; /* reads of the leaf runs, NULL when none */
    uint32_t leaf_count;
    /* The validation program (validate_program.h), NULL when none. */
    struct validate_program *validate;
    /* Every string above (names, paths) lives in these blocks. */
    struct string_block *blocks;
};

/* Name of an enum value, NULL when it has none. */
const char *schema_enum_lookup(const bitsift_schema *s, int32_t enum_id, int64_t value);
/* Value of an enum name; false when the enum has no such name. */
bool schema_enum_value(const bitsift_schema *s, int32_t enum_id, const char *name, size_t len,
                       int64_t *value);
/* Evaluate the condition of an IF op over the slots. */
bool schema_eval(const bitsift_schema *s, const struct schema_op *op, const int64_t *slots);
/* Whether `v` is one of the op's allowed values (true when unconstrained). */
bool schema_allowed(const bitsift_schema *s, const struct schema_op *op, int64_t v);

/* smallest-three quaternions: each sent component is an integer of
 * `bits` bits over [-1/sqrt(2), +1/sqrt(2)]. */
float schema_s3_dequantize(uint32_t bits, uint32_t raw);
uint32_t schema_s3_quantize(uint32_t bits, float v);

/* A decode with internal flags: the tree builder needs no paths; tests
 * and fuzzers force the op interpreter to compare it with the validation
 * program. bitsift_decode clears both. */
#define SCHEMA_DECODE_NO_PATHS    0x100u
#define SCHEMA_DECODE_INTERPRETER 0x200u
bitsift_error schema_decode(const bitsift_schema *s, const void *packet, size_t size,
                            unsigned flags, const bitsift_visitor *v, bitsift_result *res);

/*
 * The validation program (validate_program.h): schema_validate fills
 * `res` and returns true when the packet is valid, and returns false
 * (res undefined) otherwise: the caller then runs the op interpreter,
 * which reaches the same decision and names the failure.
 */
bool schema_validate(const bitsift_schema *s, const void *packet, size_t size, unsigned flags,
                     bitsift_result *res);

/* Smallest and largest bits of ops [first, end), saturating
 * (schema_size.c). */
void schema_size(const bitsift_schema *s, uint32_t first, uint32_t end, uint64_t *min,
                 uint64_t *max);
/* The bits a random packet keeps for ops [first, end): the fewest
 * elements and branches, each leaf at its most but a string's characters
 * (schema_size.c). */
uint64_t schema_promise_bits(const bitsift_schema *s, uint32_t first, uint32_t end);

static inline uint64_t sat_add(uint64_t a, uint64_t b)
{
    return a + b < a ? UINT64_MAX : a + b;
}

static inline uint64_t sat_mul(uint64_t a, uint64_t b)
{
    if (a && b > UINT64_MAX / a)
        return UINT64_MAX;
    return a * b;
}

/* Entering an array: the fields based on the previous element start from
 * their first base again. */
static inline void schema_reset_bases(const bitsift_schema *s, const struct schema_op *array,
                                      int64_t *slots)
{
    for (int32_t i = array->reset_head; i >= 0; i = s->ops[i].reset_next)
        slots[s->ops[i].slot] = s->ops[i].base;
}

/* The fields of ops [first, end), a branch not taken, keep their defaults
 * in their slots (absent_int, from schema_prepare_ops), so that later
 * conditions and counts see them; previous() bases keep their own. */
static inline void schema_skip_defaults(const bitsift_schema *s, uint32_t first, uint32_t end,
                                        int64_t *slots)
{
    for (uint32_t i = first; i < end; i++) {
        const struct schema_op *op = &s->ops[i];
        if (op->slot >= 0 && op->base_kind != BASE_PREVIOUS)
            slots[op->slot] = op->absent_int;
    }
}

/* The element count of an array that does not send one: its size (fixed)
 * or the value of its count field (counted). False for the other kinds,
 * which send a count or their elements' indices. */
static inline bool schema_array_count_known(const struct schema_op *array, const int64_t *slots,
                                            int64_t *count)
{
    if (array->array_kind == ARRAY_FIXED)
        *count = array->max;
    else if (array->array_kind == ARRAY_COUNTED)
        *count = slots[array->count_slot];
    else
        return false;
    return true;
}

/* The IF op at `i`: the ops of the branch its condition takes, the other
 * branch's defaults written to the slots. */
static inline void schema_take_branch(const bitsift_schema *s, uint32_t i, int64_t *slots,
                                      uint32_t *first, uint32_t *end)
{
    const struct schema_op *op = &s->ops[i];
    bool taken = schema_eval(s, op, slots);
    *first = taken ? i + 1 : op->else_start;
    *end = taken ? op->else_start : op->end;
    if (taken)
        schema_skip_defaults(s, op->else_start, op->end, slots);
    else
        schema_skip_defaults(s, i + 1, op->else_start, slots);
}

/* The kind of value a leaf op holds (the table's value column). */
bitsift_value_kind schema_value_kind(const struct schema_op *op);
/* Whether values of this kind are integers: what a slot keeps, and what
 * a reference, a value constraint or a condition takes. */
static inline bool value_kind_is_integer(bitsift_value_kind kind)
{
    return kind == BITSIFT_VALUE_UINT || kind == BITSIFT_VALUE_BOOL || kind == BITSIFT_VALUE_INT ||
           kind == BITSIFT_VALUE_ENUM;
}
/* The value of an absent conditional field: its default, else zero. */
bitsift_value schema_default(const struct schema_op *op);
/* A value as a slot integer (bool, enum, uint as their integer). */
int64_t schema_value_int(const bitsift_value *v);

/* The schema a tree was created for. */
const bitsift_schema *schema_tree_schema(const bitsift_tree *t);

/* Start a result: no type yet, status OK. */
void schema_result_init(bitsift_result *res);
/* Whether a decode was given a schema and a packet; when not, `res` says
 * so (BITSIFT_E_ARGUMENT). Inline: every packet passes here. */
static inline bool schema_decode_args_ok(const bitsift_schema *s, const void *packet, size_t size,
                                         bitsift_result *res)
{
    if (BITSIFT_LIKELY(s && (packet || !size)))
        return true;
    schema_result_init(res);
    res->status = res->failure.kind = BITSIFT_E_ARGUMENT;
    res->failure.why = "no schema or no packet";
    return false;
}

/*
 * The planted disagreement: a build with -DBITSIFT_PLANT_DISAGREEMENT
 * makes one of the four decoding paths -- the visitor, the tree, the
 * validation program, the op interpreter, named by the environment
 * variable BITSIFT_PLANTED_PATH (visitor, tree, program, interpreter) --
 * report one bit more for the valid packets of 1 mod 3 bits, so that fuzz/tests/planted-disagreement.test can show that
 * the differential harnesses catch a disagreement between them. Nothing
 * of it exists in a normal build.
 */
enum schema_plant_path { PLANT_VISITOR = 1, PLANT_TREE, PLANT_PROGRAM, PLANT_INTERPRETER };
#ifdef BITSIFT_PLANT_DISAGREEMENT
void schema_plant(enum schema_plant_path path, bitsift_result *res);
#define SCHEMA_PLANT(path, res) schema_plant(path, res)
#else
#define SCHEMA_PLANT(path, res) ((void)0)
#endif

#endif /* BITSIFT_SCHEMA_INTERNAL_H */
