/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bitsift/schema.h -- libbitsift's schema API: compile a schema file
 * (man bitsift-schema.5), then decode, validate, build and encode its
 * packets. Built on the bit layer (bitsift/bits.h), which it includes;
 * <bitsift.h> includes both.
 */
#ifndef BITSIFT_SCHEMA_H
#define BITSIFT_SCHEMA_H

#include "bits.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ */
/* Schemas: the protocol described in a file (man bitsift-schema.5)   */
/* ------------------------------------------------------------------ */

/*
 * A schema file describes a protocol once; libbitsift compiles it into an
 * immutable bitsift_schema (a flat op list, no text is parsed per packet)
 * and decodes, validates and encodes its packets from it. A compiled
 * schema is never modified after compilation: any number of threads may
 * decode and encode with one schema at the same time.
 *
 * Everything a hostile schema or packet can make the library do is
 * bounded by the limits below; a schema over a limit is rejected with a
 * diagnostic, a packet or tree over one fails with BITSIFT_E_LIMIT.
 */
#define BITSIFT_SCHEMA_MAX_TEXT  (1u << 20) /* bytes of schema text */
#define BITSIFT_SCHEMA_MAX_NAME  63         /* characters of an identifier */
#define BITSIFT_SCHEMA_MAX_DEPTH 32         /* nesting of structs, arrays, ifs */
#define BITSIFT_SCHEMA_MAX_ARRAY 65536      /* elements of one array */
#define BITSIFT_SCHEMA_MAX_BYTES 65536      /* bytes N, string buffer size */
#define BITSIFT_SCHEMA_MAX_OPS   65536      /* compiled ops (structs are inlined) */
#define BITSIFT_SCHEMA_MAX_TYPES 1024       /* packet types of one protocol */
#define BITSIFT_TREE_MAX_NODES   (1u << 20) /* nodes in one value tree */
#define BITSIFT_PATH_MAX         1024       /* bytes of a field path, NUL included */

typedef struct bitsift_schema bitsift_schema;

/* Why a schema did not load. `message` is compiler-style:
 * "shooter.bss:12:7: unknown type 'vec4'" (or "file: message" when the
 * error has no position, e.g. an unreadable file). Only the first error
 * is reported. */
typedef struct bitsift_schema_error {
    bitsift_error kind; /* BITSIFT_E_SCHEMA, _IO, _NOMEM or _LIMIT */
    unsigned line;      /* 1-based; 0 when not tied to a position */
    unsigned column;    /* 1-based byte column; 0 when not tied to a position */
    char message[512];
} bitsift_schema_error;

/* Compile schema text of `size` bytes (need not be NUL-terminated).
 * `filename` is only used in diagnostics (NULL gives "<string>"). Returns
 * NULL and fills *err (which may be NULL) on failure. */
bitsift_schema *bitsift_schema_compile(const char *text, size_t size, const char *filename,
                                       bitsift_schema_error *err);
/* Read and compile a schema file (at most BITSIFT_SCHEMA_MAX_TEXT bytes). */
bitsift_schema *bitsift_schema_load_file(const char *path, bitsift_schema_error *err);
/* Free a compiled schema; NULL is fine. No decode may still be using it. */
void bitsift_schema_free(bitsift_schema *s);

/* The protocol's name as declared ("shooter"). */
const char *bitsift_schema_name(const bitsift_schema *s);
/* The 32-bit protocol id (declared, or hashed from name and version). */
uint32_t bitsift_schema_protocol_id(const bitsift_schema *s);
/* Whether the protocol was declared with "version N" (then *version, when
 * not NULL, gets N): two versions of one protocol share the name and
 * differ in the id. */
bool bitsift_schema_version(const bitsift_schema *s, uint32_t *version);
/* The framing the packets use (CRC, type field, end check, prefix). */
const bitsift_framing *bitsift_schema_framing(const bitsift_schema *s);

/* Packet types, numbered 0..count-1 in declaration order (the number sent
 * in the packet-type field). */
unsigned bitsift_schema_packet_count(const bitsift_schema *s);
/* Name of packet type `type`, NULL when out of range. */
const char *bitsift_schema_packet_name(const bitsift_schema *s, unsigned type);
/* Index of the packet type called `name`, -1 when there is none. */
int bitsift_schema_packet_index(const bitsift_schema *s, const char *name);
/* Smallest and largest size in bits of a whole packet of that type,
 * framing included (the largest saturates at UINT64_MAX). 0 when out of
 * range. */
uint64_t bitsift_schema_packet_min_bits(const bitsift_schema *s, unsigned type);
uint64_t bitsift_schema_packet_max_bits(const bitsift_schema *s, unsigned type);

/* What a field is on the wire. The framing fields (crc, type, end check,
 * prefix) appear in visitor events with their own types. */
typedef enum bitsift_field_type {
    BITSIFT_FIELD_BITS = 0,
    BITSIFT_FIELD_BOOL = 1,
    BITSIFT_FIELD_UINT8 = 2,
    BITSIFT_FIELD_UINT16 = 3,
    BITSIFT_FIELD_UINT32 = 4,
    BITSIFT_FIELD_UINT64 = 5,
    BITSIFT_FIELD_INT = 6,
    BITSIFT_FIELD_FLOAT = 7,
    BITSIFT_FIELD_DOUBLE = 8,
    BITSIFT_FIELD_COMPRESSED_FLOAT = 9,
    BITSIFT_FIELD_BYTES = 10,
    BITSIFT_FIELD_STRING = 11,
    BITSIFT_FIELD_ALIGN = 12,
    BITSIFT_FIELD_CHECK = 13,
    BITSIFT_FIELD_INT_RELATIVE = 14,
    BITSIFT_FIELD_OBJECT_INDEX = 15,
    BITSIFT_FIELD_SEQUENCE_RELATIVE = 16,
    BITSIFT_FIELD_ACK_RELATIVE = 17,
    BITSIFT_FIELD_ENUM = 18,
    BITSIFT_FIELD_STRUCT = 19,     /* also a packet type's root */
    BITSIFT_FIELD_ARRAY = 20,      /* any kind of array, sparse ones included */
    BITSIFT_FIELD_VECTOR = 21,     /* x, y, z (, w) of one component type */
    BITSIFT_FIELD_QUATERNION = 22, /* x, y, z, w; smallest-three adds `largest` */
    BITSIFT_FIELD_PREFIX = 23,     /* framing: opaque prefix bytes */
    BITSIFT_FIELD_CRC = 24,        /* framing: the CRC32 field */
    BITSIFT_FIELD_PACKET_TYPE = 25,/* framing: the packet type */
    BITSIFT_FIELD_END_CHECK = 26   /* framing: the end-of-packet check */
} bitsift_field_type;
#define BITSIFT_FIELD_TYPE_COUNT 27

/* "bits", "bool", "uint8", ..., "quaternion", "crc"; "unknown" otherwise. */
const char *bitsift_field_type_name(bitsift_field_type t);

/* Which member of a value (bitsift_value, under Values) holds it; here,
 * ahead of the values, so that a field can say its kind. */
typedef enum bitsift_value_kind {
    BITSIFT_VALUE_NONE = 0,   /* structs, arrays, align, absent */
    BITSIFT_VALUE_BOOL = 1,   /* b */
    BITSIFT_VALUE_UINT = 2,   /* u: bits, uintN, sequence/ack, check, crc */
    BITSIFT_VALUE_INT = 3,    /* i: int, int_relative, object_index */
    BITSIFT_VALUE_FLOAT = 4,  /* f: float, compressed float, components */
    BITSIFT_VALUE_DOUBLE = 5, /* d */
    BITSIFT_VALUE_BYTES = 6,  /* data, size */
    BITSIFT_VALUE_STRING = 7, /* data, size: UTF-8 without NUL */
    BITSIFT_VALUE_ENUM = 8    /* i, and name (NULL in a tree built by hand) */
} bitsift_value_kind;

/*
 * Every field of a compiled schema has a stable id 0..field_count-1 (a
 * struct used in two places has two sets of ids), so that tools can keep
 * per-field tables (bit accounting for `bitsift stats`) without hashing
 * paths. Its schema path is relative to its packet type's root, like an
 * event path, with array elements written "[]": "objects[].position.y".
 */
typedef struct bitsift_field_info {
    bitsift_field_type type;
    const char *name;     /* "y" ("" for array elements) */
    const char *path;     /* "objects[].position.y" */
    unsigned packet_type; /* the packet type the field belongs to */
    unsigned depth;       /* 1 for the packet's own fields */
    int parent;           /* id of the enclosing struct/array, -1 at the top */
    uint64_t min_bits;    /* what the field can cost on the wire */
    uint64_t max_bits;    /* (saturating at UINT64_MAX) */
    int64_t min, max;     /* int, enum, relative and count ranges; 0 else */
    unsigned width;       /* bits N, uintN, compressed float width */
    float fmin, fmax, resolution; /* compressed floats */
    uint32_t max_count;   /* arrays (elements), bytes, strings (buffer) */
    bool conditional;     /* only present when its condition holds */
} bitsift_field_info;

unsigned bitsift_schema_field_count(const bitsift_schema *s);
/* Fill *info for field `id`; false when id is out of range. The strings
 * live as long as the schema. */
bool bitsift_schema_field_info(const bitsift_schema *s, unsigned id, bitsift_field_info *info);
/* The kind of value field `id` holds in events and value trees (INT for an
 * int, FLOAT for a compressed float or a quaternion's component, ...);
 * BITSIFT_VALUE_NONE for structs, arrays, align and an id out of range. */
bitsift_value_kind bitsift_schema_field_value_kind(const bitsift_schema *s, unsigned id);
/* Name of value `value` of the enum field `id`; NULL when the field is not
 * an enum or the value has no name. */
const char *bitsift_schema_enum_name(const bitsift_schema *s, unsigned id, int64_t value);

/*
 * Where field `id` is written in the schema text it was compiled from:
 * byte offsets into that text, each span [start, end). Tools use it to
 * point at a line or to propose an edit and compile it again (`bitsift
 * diagnose`). The fields one statement makes (an array and its element, a
 * vector and its components, smallest_three's parts, the fields of a
 * struct-typed field) share its statement; the fields inlined from a
 * struct are found in the struct's declaration. A span that does not
 * apply is empty (start == end).
 */
typedef struct bitsift_field_source {
    unsigned line, column;         /* the statement's first token, 1-based */
    size_t start, end;             /* the statement, through its ';' (a packet
                                      root: its whole declaration) */
    size_t type_start, type_end;   /* the type as written ("int(0, 200)",
                                      "Team"); a vector's component: the
                                      component type */
    size_t array_start, array_end; /* "[max 32]", "[1024] sparse(flags)" */
    size_t cond_start, cond_end;   /* the condition of the innermost `if` of
                                      the same body, inside its parentheses */
    size_t body_start, body_end;   /* what the braces of its type's
                                      declaration hold, first token to last:
                                      a packet root's or a struct's
                                      statements, an enum's values */
} bitsift_field_source;

/* Fill *src for field `id`; false when id is out of range. */
bool bitsift_schema_field_source(const bitsift_schema *s, unsigned id, bitsift_field_source *src);

/* Print the layout of every packet type, one line per field with its type
 * and its min/max bits, indented by nesting (what `bitsift schema FILE`
 * shows). Returns false on a write error. */
bool bitsift_schema_print(const bitsift_schema *s, FILE *out);

/* ------------------------------------------------------------------ */
/* Values                                                              */
/* ------------------------------------------------------------------ */

typedef struct bitsift_value {
    bitsift_value_kind kind;
    union {
        bool b;
        uint64_t u;
        int64_t i;
        float f;
        double d;
    };
    const uint8_t *data; /* BYTES, STRING: not NUL-terminated in events */
    size_t size;
    const char *name; /* ENUM: the value's name */
    /* Quantized fields (compressed floats, smallest-three components):
     * the integer on the wire. The encoder writes it back when has_raw is
     * set and it still decodes to exactly this value, so that decode ->
     * encode keeps every bit even where floats cannot tell steps apart. */
    uint64_t raw;
    bool has_raw;
} bitsift_value;

/* ------------------------------------------------------------------ */
/* Decoding                                                            */
/* ------------------------------------------------------------------ */

/* Flags for the decode functions. */
#define BITSIFT_DECODE_NO_CRC 0x1u /* skip the CRC comparison (field still read) */
#define BITSIFT_DECODE_STRICT 0x2u /* reject bytes or non-zero bits after the end */
/* Events carry no path (ev->path is "", path_len 0): for visitors that
 * never read it, which saves building it for every field. The result
 * still names the field of a failure. */
#define BITSIFT_DECODE_NO_PATHS 0x4u
/* No events for conditional fields that were not sent (the events flagged
 * BITSIFT_EVENT_ABSENT): for visitors that skip them anyway. Every other
 * event, and the result, stay the same. */
#define BITSIFT_DECODE_NO_ABSENT 0x8u

/* Flags of an event. */
#define BITSIFT_EVENT_ABSENT  0x1u /* conditional field not sent: value is its default, 0 bits */
#define BITSIFT_EVENT_DERIVED 0x2u /* computed, not sent (smallest-three's largest component) */
#define BITSIFT_EVENT_FRAMING 0x4u /* prefix, crc, type, end check */
/* Array bookkeeping: an inline count, a presence bit (sparse flags), an
 * element index or the sentinel. Such an event has type ARRAY and the
 * array's id; its path names the array (count, sentinel) or the element
 * (presence bit, index). Leaf events plus these account for every bit. */
#define BITSIFT_EVENT_ARRAY_META 0x8u

/*
 * One field as the decoder meets it. Everything it points to is valid
 * only during the callback. For the framing fields, id is -1 and the
 * names are "prefix", "crc", "type" and "end_check".
 */
typedef struct bitsift_event {
    const char *name;    /* "y"; for an array element, the array's name */
    const char *path;    /* "objects[3].position.y" (sparse arrays use the
                            element's index, not its position); "" with
                            BITSIFT_DECODE_NO_PATHS */
    size_t path_len;
    int id;              /* schema field id (bitsift_schema_field_info) */
    bitsift_field_type type;
    unsigned depth;      /* 1 for the packet's own fields */
    int64_t index;       /* element index in its array, -1 when not an element */
    uint64_t bit;        /* offset of the field's first bit in the packet */
    uint64_t bits;       /* bits it took; for enter 0, for leave the total */
    uint64_t count;      /* arrays: elements (known at enter for most kinds,
                            always at leave); structs: 0 */
    unsigned flags;      /* BITSIFT_EVENT_* */
    bitsift_value value; /* kind NONE for enter/leave and align */
} bitsift_event;

/*
 * Callbacks of a decode; any may be NULL. Each returns true to go on and
 * false to stop the decode there (the result is then BITSIFT_OK with
 * `stopped` set). `field` sees every leaf, framing fields included, so
 * summing its `bits` over a packet gives the packet's bits: that is the
 * bit accounting of `bitsift stats` (aggregate by `id`). `enter`/`leave`
 * bracket structs, vectors, quaternions and arrays; array elements that
 * are structs get their own enter/leave with `index` set.
 */
typedef struct bitsift_visitor {
    bool (*field)(void *ctx, const bitsift_event *ev);
    bool (*enter)(void *ctx, const bitsift_event *ev);
    bool (*leave)(void *ctx, const bitsift_event *ev);
    void *ctx;
} bitsift_visitor;

/* The outcome of a decode or an encode. */
typedef struct bitsift_result {
    bitsift_error status;    /* == failure.kind */
    int packet_type;         /* -1 until the type is known */
    const char *packet_name; /* NULL until the type is known */
    uint64_t bits;           /* bits consumed / written (at a failure: where it stopped) */
    uint64_t fields;         /* leaf fields decoded or encoded before the end or failure */
    bool stopped;            /* a visitor callback returned false */
    bitsift_failure failure; /* failure.field points at `path` */
    char path[BITSIFT_PATH_MAX]; /* field path of the failure, "" when none */
} bitsift_result;

/*
 * Decode one framed packet, calling the visitor for each field as it is
 * read. No memory is allocated. With a NULL visitor it only validates (the
 * fastest path). Every field read before a failure has been delivered, so
 * a dump of a bad packet shows how far it got. Returns res->status.
 */
bitsift_error bitsift_decode(const bitsift_schema *s, const void *packet, size_t size,
                             unsigned flags, const bitsift_visitor *v, bitsift_result *res);

/* Pick which schema a packet belongs to: the index of the first schema
 * with CRC framing whose protocol id makes the packet's CRC valid; when
 * none matches, the first schema without CRC framing that decodes the
 * packet without error; else -1. */
int bitsift_detect(const bitsift_schema *const *schemas, size_t count, const void *packet,
                   size_t size);

/* ------------------------------------------------------------------ */
/* Value trees                                                         */
/* ------------------------------------------------------------------ */

/*
 * A tree of values: the decoded form of one packet, or what the encoder
 * writes. All nodes, names and byte strings live in the tree's arena and
 * go with one bitsift_tree_free; a tree can be reused for many packets
 * (decoding into it resets it and keeps the memory). A tree is not
 * thread-safe; use one per thread.
 *
 * Node kinds: STRUCT (named children: packet roots, structs, vectors,
 * quaternions), ARRAY (children are elements; an element of a sparse array
 * carries its index) and VALUE (a bitsift_value). Absent conditional
 * fields are not in a decoded tree. The tree mirrors JSON: a caller
 * building one from NDJSON maps objects to STRUCT, arrays to ARRAY and
 * scalars to VALUE; a sparse array can be a JSON array of elements each
 * with its index set by bitsift_node_set_index.
 */
typedef struct bitsift_tree bitsift_tree;
typedef struct bitsift_node bitsift_node;

typedef enum bitsift_node_kind {
    BITSIFT_NODE_STRUCT = 0,
    BITSIFT_NODE_ARRAY = 1,
    BITSIFT_NODE_VALUE = 2
} bitsift_node_kind;

/* An empty tree for packets of schema `s` (which must outlive it). */
bitsift_tree *bitsift_tree_create(const bitsift_schema *s);
void bitsift_tree_free(bitsift_tree *t);
/* Drop every node and start a packet of type `packet_type` with an empty
 * root STRUCT. False when the type is out of range. */
bool bitsift_tree_reset(bitsift_tree *t, unsigned packet_type);
int bitsift_tree_packet_type(const bitsift_tree *t); /* -1 when empty */
bitsift_node *bitsift_tree_root(const bitsift_tree *t); /* NULL when empty */

/* All nodes in creation order (depth-first for a decoded tree): lets a
 * fuzzer pick a random node. */
size_t bitsift_tree_node_count(const bitsift_tree *t);
bitsift_node *bitsift_tree_node(const bitsift_tree *t, size_t i);

/* Find a node by path relative to the root: "objects[3].position.y"
 * ([n] is the element's index in a sparse array, else its position).
 * NULL when there is none. */
bitsift_node *bitsift_tree_find(const bitsift_tree *t, const char *path);
/* Write a node's path into buf (as bitsift_tree_find reads it). Returns
 * the length it needs, like snprintf. */
size_t bitsift_node_path(const bitsift_node *n, char *buf, size_t size);

/*
 * Decode a packet into the tree (which is reset first). On failure the
 * tree holds every field decoded before it. Returns res->status.
 */
bitsift_error bitsift_decode_tree(const bitsift_schema *s, const void *packet, size_t size,
                                  unsigned flags, bitsift_tree *t, bitsift_result *res);

bitsift_node_kind bitsift_node_kind_of(const bitsift_node *n);
const char *bitsift_node_name(const bitsift_node *n); /* NULL for array elements */
bitsift_node *bitsift_node_parent(const bitsift_node *n);
size_t bitsift_node_child_count(const bitsift_node *n);
bitsift_node *bitsift_node_child_at(const bitsift_node *n, size_t i);
/* Child of a STRUCT by name, NULL when absent. */
bitsift_node *bitsift_node_child(const bitsift_node *n, const char *name);
/* Element index (sparse arrays) or position; -1 when not an element. */
int64_t bitsift_node_index(const bitsift_node *n);
/* The value of a VALUE node (kind NONE for others). */
const bitsift_value *bitsift_node_value(const bitsift_node *n);
/* Where a decoded node came from: schema field id (-1 when built by
 * hand), first bit and bit count in the packet. */
int bitsift_node_field_id(const bitsift_node *n);
uint64_t bitsift_node_bit(const bitsift_node *n);
uint64_t bitsift_node_bits(const bitsift_node *n);

/* Build a tree: add a child to `parent` (NULL means the root). A STRUCT
 * parent needs a name (an existing child of that name is replaced); an
 * ARRAY parent appends an element and ignores the name. Names and byte
 * strings are copied. NULL on a limit or allocation failure. */
bitsift_node *bitsift_node_add_struct(bitsift_tree *t, bitsift_node *parent, const char *name);
bitsift_node *bitsift_node_add_array(bitsift_tree *t, bitsift_node *parent, const char *name);
bitsift_node *bitsift_node_add_value(bitsift_tree *t, bitsift_node *parent, const char *name,
                                     const bitsift_value *v);
/* Replace a VALUE node's value (bytes and strings are copied). */
bool bitsift_node_set_value(bitsift_tree *t, bitsift_node *n, const bitsift_value *v);
/* Set the index of an element of a sparse array. */
void bitsift_node_set_index(bitsift_node *n, int64_t index);

/*
 * Fill the tree (reset first) with a random valid packet of type
 * `packet_type`: every value inside its range, constraint and enum,
 * conditions and counts consistent, arrays of random length, so that
 * bitsift_encode accepts it. The same seed gives the same tree. For
 * benchmarks, round-trip tests and fuzz seeds. `fill` in 0..100 biases
 * array lengths and optional parts (0: as empty as allowed, 100: full).
 * The packet stays within BITSIFT_RANDOM_MAX_BYTES and the tree within a
 * quarter of BITSIFT_TREE_MAX_NODES (array and string lengths are picked
 * to fit), so the tree's memory is bounded too;
 * BITSIFT_E_LIMIT when the type's smallest packet is larger (checked
 * before anything is built) or when the values picked lead to a part that
 * does not fit (a condition taking a larger branch): try again emptier.
 */
#define BITSIFT_RANDOM_MAX_BYTES (1u << 20)
bitsift_error bitsift_tree_random(bitsift_tree *t, unsigned packet_type, uint64_t seed,
                                  unsigned fill);

/* ------------------------------------------------------------------ */
/* Encoding                                                            */
/* ------------------------------------------------------------------ */

/*
 * Encode the tree's packet into out (capacity bytes): framing, every field,
 * checks, end check and CRC. *size gets the packet's length. Returns
 * res->status (res may be NULL); on failure res names the field path.
 *
 * How the tree is read: struct children are matched by name (order does
 * not matter, unknown names are ignored); a field the schema fixes (check,
 * align, a field with a fixed value) needs no node; a conditional field is
 * written only when its condition holds on the values written before it;
 * a count field may be left out and is then taken from its array's
 * length; numbers convert between kinds when the value fits exactly
 * (an enum also takes its name as a STRING). Encoding the tree of a
 * decoded canonical packet gives back the same bytes.
 */
bitsift_error bitsift_encode(const bitsift_schema *s, const bitsift_tree *t, void *out,
                             size_t capacity, size_t *size, bitsift_result *res);

#ifdef __cplusplus
}
#endif

#endif /* BITSIFT_SCHEMA_H */
