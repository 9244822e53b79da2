/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * field_types.h -- the one table of field types. Every walker of a
 * compiled schema (sizes, the passes, the decoder, the validation program,
 * the encoder, random packets, the printer, code generators) takes its
 * per-type facts from this list instead of restating them; what a walker
 * still does per type is only what must differ between walkers.
 *
 * One row per op code, that is, per encoding on the wire:
 *
 *   op        the op code; enum op_code is made from this column
 *   keyword   the schema's spelling, and the stem of the library's
 *             primitives: bitsift_read_<keyword>, bitsift_write_<keyword>
 *             and bitsift_serialize_<keyword> (the int_relative ladder
 *             and friends included); uint8..uint64 are fixed-width
 *             spellings of `bits`, vectors and plain quaternions structs
 *   params    the parameters its spelling takes (enum field_params):
 *             `bits(n)`, `int(min, max)`, ... as schema_print and the
 *             generators print them
 *   field     the bitsift_field_type reported for it
 *   value     the bitsift_value_kind of its value (NONE: no value)
 *   min, max  its size on the wire in bits, from the op's parameters
 *             (containers: 0, their bodies are added by schema_size)
 *   raw       how it is checked when read as one raw window (enum
 *             field_raw): what lets the leaf runs, the visitor's one-step
 *             leaves and the validation program read it without a call
 *   visit     what a decode with a visitor does with it (enum visit_kind)
 *
 * Adding a field type: see docs/internals.md, "Adding a field type".
 */
#ifndef BITSIFT_FIELD_TYPES_H
#define BITSIFT_FIELD_TYPES_H

#include "relative_tiers.h"

/* The size formulas read `op` (a const struct schema_op *). */
#define FIELD_RANGE_BITS(op) ((uint64_t)bitsift_bits_required((op)->min, (op)->max))
#define FIELD_STRING_MIN(op) ((uint64_t)bitsift_bits_required(0, (int64_t)(op)->width - 1))
#define FIELD_STRING_MAX(op) (FIELD_STRING_MIN(op) + 7 + 8ull * ((op)->width - 1))

/* clang-format off */
#define SCHEMA_FIELD_TYPES(X)                                                                                                                                                         \
/*  op            keyword            params              field              value   min                     max                                       raw        visit */             \
  X(OP_BITS,      bits,              PARAMS_WIDTH,       BITS,              UINT,   (op)->width,            (op)->width,                              RAW_ANY,   VISIT_UINT)          \
  X(OP_BOOL,      bool,              PARAMS_NONE,        BOOL,              BOOL,   1,                      1,                                        RAW_ANY,   VISIT_BOOL)          \
  X(OP_INT,       int,               PARAMS_RANGE,       INT,               INT,    FIELD_RANGE_BITS(op),   FIELD_RANGE_BITS(op),                     RAW_RANGE, VISIT_INT)           \
  X(OP_FLOAT,     float,             PARAMS_NONE,        FLOAT,             FLOAT,  32,                     32,                                       RAW_ANY,   VISIT_FLOAT)         \
  X(OP_DOUBLE,    double,            PARAMS_NONE,        DOUBLE,            DOUBLE, 64,                     64,                                       RAW_NONE,  VISIT_LEAF)          \
  X(OP_CFLOAT,    compressed_float,  PARAMS_CFLOAT,      COMPRESSED_FLOAT,  FLOAT,  (op)->width,            (op)->width,                              RAW_STEPS, VISIT_CFLOAT)        \
  X(OP_BYTES,     bytes,             PARAMS_WIDTH,       BYTES,             BYTES,  8ull * (op)->width,     8ull * (op)->width + 7,                   RAW_NONE,  VISIT_LEAF)          \
  X(OP_STRING,    string,            PARAMS_WIDTH,       STRING,            STRING, FIELD_STRING_MIN(op),   FIELD_STRING_MAX(op),                     RAW_NONE,  VISIT_LEAF)          \
  X(OP_ALIGN,     align,             PARAMS_NONE,        ALIGN,             NONE,   0,                      7,                                        RAW_NONE,  VISIT_LEAF)          \
  X(OP_CHECK,     check,             PARAMS_CHECK,       CHECK,             UINT,   32,                     39,                                       RAW_NONE,  VISIT_CHECK)         \
  X(OP_INT_REL,   int_relative,      PARAMS_NONE,        INT_RELATIVE,      INT,    INT_RELATIVE_MIN_BITS,  INT_RELATIVE_MAX_BITS,                    RAW_NONE,  VISIT_LEAF)          \
  X(OP_OBJ_INDEX, object_index,      PARAMS_MAX_OBJECTS, OBJECT_INDEX,      INT,    OBJECT_INDEX_MIN_BITS,  object_index_max_bits((op)->max_objects), RAW_NONE,  VISIT_OBJECT_INDEX)  \
  X(OP_SEQ_REL,   sequence_relative, PARAMS_NONE,        SEQUENCE_RELATIVE, UINT,   INT_RELATIVE_MIN_BITS,  INT_RELATIVE_MAX_BITS,                    RAW_NONE,  VISIT_LEAF)          \
  X(OP_ACK_REL,   ack_relative,      PARAMS_NONE,        ACK_RELATIVE,      UINT,   ACK_RELATIVE_MIN_BITS,  ACK_RELATIVE_MAX_BITS,                    RAW_NONE,  VISIT_LEAF)          \
  X(OP_ENUM,      enum,              PARAMS_ENUM,        ENUM,              ENUM,   FIELD_RANGE_BITS(op),   FIELD_RANGE_BITS(op),                     RAW_ENUM,  VISIT_ENUM)          \
  X(OP_SMALLEST3, smallest_three,    PARAMS_WIDTH,       QUATERNION,        NONE,   2 + 3ull * (op)->width, 2 + 3ull * (op)->width,                   RAW_QUAT,  VISIT_QUATERNION)    \
  X(OP_STRUCT,    struct,            PARAMS_NONE,        STRUCT,            NONE,   0,                      0,                                        RAW_NONE,  VISIT_STRUCT)        \
  X(OP_ARRAY,     array,             PARAMS_NONE,        ARRAY,             NONE,   0,                      0,                                        RAW_NONE,  VISIT_ARRAY)         \
  X(OP_IF,        if,                PARAMS_NONE,        STRUCT,            NONE,   0,                      0,                                        RAW_NONE,  VISIT_IF)
/* clang-format on */

/*
 * How a leaf reads as raw windows of at most 57 bits (one unaligned
 * 64-bit load), value = base + raw, accepted when raw - lo <= span:
 *   RAW_NONE   not that way: through the library's reader
 *   RAW_ANY    one window of `min` bits; every raw value passes
 *   RAW_RANGE  int(min, max): bits_required bits, raw <= max - min
 *   RAW_ENUM   the same, for a dense enum lying inside its range: the raw
 *              values that have a name are one range
 *   RAW_STEPS  compressed float: `width` bits, raw <= steps
 *   RAW_QUAT   smallest three: 2 bits, then three components of `width`
 */
enum field_raw { RAW_NONE, RAW_ANY, RAW_RANGE, RAW_ENUM, RAW_STEPS, RAW_QUAT };

/* The parameters of a type's spelling in a schema. */
enum field_params {
    PARAMS_NONE,        /* bool, float, int_relative(base): the base is a reference */
    PARAMS_WIDTH,       /* bits(width), bytes(width), string(width), smallest_three */
    PARAMS_RANGE,       /* int(min, max) */
    PARAMS_CFLOAT,      /* compressed_float(min, max, resolution) */
    PARAMS_CHECK,       /* check(value) */
    PARAMS_MAX_OBJECTS, /* object_index(base, max_objects) */
    PARAMS_ENUM         /* the enum's name */
};

#endif /* BITSIFT_FIELD_TYPES_H */
