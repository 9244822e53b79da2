/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fuzz_roundtrip.c -- libFuzzer target: differential checks between the
 * schema decoder and encoder, aborting on any mismatch.
 *
 * The input is a packet for one of the schemas in use (packet_schemas.h;
 * the one whose CRC it carries, else the one it decodes furthest with;
 * the CRC is not checked, so that every mutation counts), optionally
 * followed by bytes the decode did not use, which choose field changes:
 *
 *   +--------------------------------------+-----------------------------+
 *   | packet (decoded, CRC ignored)        | choices of field changes    |
 *   +--------------------------------------+-----------------------------+
 *
 * 1. decode of the input gives tree T; encode(T) must succeed (every
 *    decoded value is encodable) giving P; decode(P) must give T again
 *    (values taken from the input -> encode -> decode: same values), and
 *    encode of that must give P byte for byte (decode of a canonical
 *    packet -> encode: same bytes). P is canonical by construction: the
 *    input need not be (trailing bits, long ladder tiers).
 * 2. Up to MUTATIONS field changes, one at a time (bitsift_fuzz_mutate_tree, the kit's): a
 *    value out of its field's range or length must be refused by the
 *    encoder; whatever the encoder accepts must decode, with the changed
 *    field reading back as written (floats, which the encoder may clamp
 *    or quantize, are only required to decode), and encode again to the
 *    same bytes.
 *
 * Inputs that start with the tag "RAND" skip the decode of step 1: the
 * tree comes from the library's random packet generator instead, with
 * every parameter taken from the input, so that values the decoder never
 * produced from the bundled seeds (other array lengths, optional parts,
 * enum values, sparse indices) go through encode -> decode:
 *
 *   +------+--------+-------------+------+-----------+------------------+
 *   | RAND | schema | packet type | fill | seed      | choices (step 2) |
 *   | 4 B  | 1 B    | 1 B         | 1 B  | 8 B (LE)  | rest             |
 *   +------+--------+-------------+------+-----------+------------------+
 *
 * The schema and packet type are taken modulo their counts and the fill
 * (how full arrays and optional parts are) modulo 101. The generated tree
 * must encode; the rest of step 1 and step 2 are as for a packet.
 *
 * Every check on every input is about twenty decodes and encodes. Under a
 * fuzzing engine an input gets the checks of one stage (check_choice.h: a
 * hash of its bytes picks it among the rest of step 1 and the field
 * changes its choice bytes can hold): the decode of the input and the
 * first encode always, then either the rest of step 1, or field change k
 * with all its checks, changes 1 .. k-1 before it made with only the
 * checks that cost nothing more (the encoder refuses a value outside its
 * field, what it accepts decodes), and none after it. The tree each
 * change starts from is the one the replay program (every stage, every
 * change: make check, make coverage) has there, so a finding replays.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bitsift.h"
#include "packet_schemas.h"
#include "bitsift/fuzz.h"
#include "check_choice.h"
#include "fuzz_input.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MUTATIONS  4
#define MAX_PACKET (1u << 16)
#define RANDOM_TAG "RAND"
#define RANDOM_HEADER (4 + 1 + 1 + 1 + 8)

#define CHECK(cond, what)                                                                   \
    do {                                                                                    \
        if (!(cond)) {                                                                      \
            fprintf(stderr, "fuzz_roundtrip: %s:%d: %s: check failed: %s\n", __FILE__, __LINE__, \
                    what, #cond);                                                           \
            abort();                                                                        \
        }                                                                                   \
    } while (0)

static uint8_t packet[MAX_PACKET], again[MAX_PACKET];
static bitsift_tree *trees[64], *checks[64];

/* Is the field of this value one whose range the encoder must enforce?
 * By field type, not value kind: the range is a parameter of the type
 * (bits(n), int(min, max), an enum, a length), which other types of the
 * same kinds lack. */
static bool ranged_field(const bitsift_schema *s, const bitsift_node *n)
{
    bitsift_field_info info;
    int id = bitsift_node_field_id(n);
    if (id < 0 || !bitsift_schema_field_info(s, (unsigned)id, &info))
        return false;
    switch (info.type) {
    case BITSIFT_FIELD_INT:
    case BITSIFT_FIELD_ENUM:
    case BITSIFT_FIELD_BITS:
    case BITSIFT_FIELD_UINT8:
    case BITSIFT_FIELD_UINT16:
    case BITSIFT_FIELD_UINT32:
    case BITSIFT_FIELD_BYTES:
    case BITSIFT_FIELD_STRING:
        return !info.conditional;
    default:
        return false;
    }
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    fuzz_schemas_init(argc, argv);
    return 0;
}

/* Is the field of this value a plain float or double, not quantized (a
 * compressed float, a quaternion component)? By field type, not value
 * kind: a quantized float's value is a FLOAT too. */
static bool exact_float(const bitsift_schema *s, const bitsift_node *n)
{
    bitsift_field_info info;
    int id = bitsift_node_field_id(n);
    if (id < 0 || !bitsift_schema_field_info(s, (unsigned)id, &info) ||
        (info.type != BITSIFT_FIELD_FLOAT && info.type != BITSIFT_FIELD_DOUBLE))
        return false;
    const bitsift_node *parent = bitsift_node_parent(n);
    int parent_id = parent ? bitsift_node_field_id(parent) : -1;
    return !(parent_id >= 0 && bitsift_schema_field_info(s, (unsigned)parent_id, &info) &&
             info.type == BITSIFT_FIELD_QUATERNION);
}

/*
 * Does the decoded tree hold the generated values? Every value of the
 * generated tree is found at its path in the decoded one, equal to it, and
 * the decoded tree holds no other values but the `largest` index of
 * smallest-three quaternions (which the encoder derives). Floats are only
 * required to be equal for plain float/double fields: compressed floats
 * and smallest-three quaternions are quantized by the encoder (that the
 * quantized value is a fixed point is checked by re-encoding to the same
 * bytes).
 */
static bool same_values(const bitsift_schema *s, const bitsift_tree *gen,
                        const bitsift_tree *dec)
{
    if (bitsift_tree_packet_type(gen) != bitsift_tree_packet_type(dec))
        return false;
    size_t gen_values = 0, dec_values = 0;
    char path[1024];
    for (size_t i = 0; i < bitsift_tree_node_count(gen); i++) {
        const bitsift_node *x = bitsift_tree_node(gen, i);
        if (bitsift_node_kind_of(x) != BITSIFT_NODE_VALUE)
            continue;
        gen_values++;
        if (bitsift_node_path(x, path, sizeof path) >= sizeof path)
            return false;
        const bitsift_node *y = bitsift_tree_find(dec, path);
        if (!y || bitsift_node_kind_of(y) != BITSIFT_NODE_VALUE)
            return false;
        const bitsift_value *vx = bitsift_node_value(x), *vy = bitsift_node_value(y);
        if (vx->kind != vy->kind)
            return false;
        bool is_float = vx->kind == BITSIFT_VALUE_FLOAT || vx->kind == BITSIFT_VALUE_DOUBLE;
        if ((!is_float || exact_float(s, y)) && !bitsift_fuzz_values_equal(vx, vy))
            return false;
    }
    for (size_t i = 0; i < bitsift_tree_node_count(dec); i++) {
        const bitsift_node *y = bitsift_tree_node(dec, i);
        const char *name = bitsift_node_name(y);
        if (bitsift_node_kind_of(y) == BITSIFT_NODE_VALUE && !(name && !strcmp(name, "largest")))
            dec_values++;
    }
    return gen_values == dec_values;
}

/* The schema of a "RAND" input; returns the bytes its header takes, or 0
 * when there is nothing to check. */
static size_t random_schema(const uint8_t *data, size_t size, size_t *which)
{
    fuzz_input in;
    fuzz_input_init(&in, data + 4, size - 4);
    *which = fuzz_u8(&in) % fuzz_schema_count();
    return bitsift_schema_packet_count(fuzz_schema(*which)) ? RANDOM_HEADER : 0;
}

/* Fill t with the random tree of schema s that the "RAND" header asks for. */
static void random_tree(const bitsift_schema *s, bitsift_tree *t, const uint8_t *data,
                        size_t size)
{
    fuzz_input in;
    fuzz_input_init(&in, data + 5, size - 5);
    unsigned type = fuzz_u8(&in) % bitsift_schema_packet_count(s);
    unsigned fill = fuzz_u8(&in) % 101;
    uint64_t seed = fuzz_le(&in, 8);
    CHECK(bitsift_tree_random(t, type, seed, fill) == BITSIFT_OK,
          "a random tree of a valid packet type");
}

/*
 * Step 2's field change, on t, whose last good encoding is again[0..
 * *again_size). `full`: every check (decode, the value read back, the
 * same bytes encoded again); else only those that cost nothing more.
 * Either way t ends as the replay program has it: the decode of the new
 * packet, or of the last good one when the encoder refused the change.
 * *took gets the choice bytes it took; false when nothing more can change.
 */
static bool field_change(const bitsift_schema *s, bitsift_tree *t, bitsift_tree *check,
                         const uint8_t *choices, size_t size, size_t *took, size_t *again_size,
                         bool full)
{
    bitsift_fuzz_mutation m;
    bitsift_result enc, dec, res;
    size_t p_size;
    *took = 0;
    if (!bitsift_fuzz_mutate_tree(s, t, choices, size, took, &m))
        return false;
    bitsift_error e = bitsift_encode(s, t, packet, sizeof packet, &p_size, &enc);
    if (m.kind == BITSIFT_FUZZ_MUTATION_OUT_OF_RANGE && ranged_field(s, m.node))
        CHECK(e != BITSIFT_OK, "a value outside its field must be refused");
    if (e != BITSIFT_OK) {
        CHECK(enc.status == e && enc.failure.kind == e, "encode result");
        /* Undo by decoding the last good packet again. */
        return bitsift_decode_tree(s, again, *again_size, 0, t, &res) == BITSIFT_OK;
    }
    if (!full) {
        CHECK(bitsift_decode_tree(s, packet, p_size, 0, t, &res) == BITSIFT_OK,
              "what the encoder writes the decoder must read");
        memcpy(again, packet, p_size);
        *again_size = p_size;
        return true;
    }
    CHECK(bitsift_decode_tree(s, packet, p_size, 0, check, &dec) == BITSIFT_OK,
          "what the encoder writes the decoder must read");
    if (m.kind == BITSIFT_FUZZ_MUTATION_VALUE) {
        bitsift_node *n = bitsift_tree_find(check, m.path);
        const bitsift_value *v = n ? bitsift_node_value(n) : NULL;
        /* A conditional field may vanish when its condition changed
         * with it; floats may be clamped or quantized. */
        if (v && v->kind != BITSIFT_VALUE_FLOAT && v->kind != BITSIFT_VALUE_DOUBLE &&
            bitsift_node_kind_of(n) == BITSIFT_NODE_VALUE) {
            bitsift_value want = m.value;
            if (want.kind == BITSIFT_VALUE_ENUM || v->kind == BITSIFT_VALUE_ENUM)
                CHECK(want.i == v->i, "an enum reads back as written");
            else if (want.kind == v->kind)
                CHECK(bitsift_fuzz_values_equal(&want, v), "a value reads back as written");
        }
    }
    CHECK(bitsift_encode(s, check, again, sizeof again, again_size, &enc) == BITSIFT_OK,
          "re-encode after a change");
    CHECK(*again_size == p_size && memcmp(again, packet, p_size) == 0,
          "encode -> decode -> encode gives the same bytes");
    /* Go on from the decoded form (the changed tree may hold nodes the
     * encoder ignored). */
    CHECK(bitsift_decode_tree(s, again, *again_size, 0, t, &res) == BITSIFT_OK, "reload");
    return true;
}

/*
 * The end of a run: the trees are emptied down to the memory they keep
 * between packets, so that a run ends with no more memory allocated than
 * it started with. libFuzzer runs every input that ends with more a
 * second time, to look for a leak: with the trees left as the largest
 * packet so far made them, that was a third of this harness's time.
 */
static void empty_trees(bitsift_tree *t, bitsift_tree *check)
{
    bitsift_tree_reset(t, 0);
    bitsift_tree_reset(check, 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (fuzz_schema_count() == 0)
        return 0;
    size_t which, used = 0;
    bitsift_result res;
    bool generated = size >= RANDOM_HEADER && memcmp(data, RANDOM_TAG, 4) == 0;
    if (generated) {
        if (random_schema(data, size, &which) == 0)
            return 0;
    } else {
        which = fuzz_schema_for_packet(data, size);
    }
    const bitsift_schema *s = fuzz_schema(which);
    if (!trees[which]) {
        trees[which] = bitsift_tree_create(s);
        checks[which] = bitsift_tree_create(s);
    }
    bitsift_tree *t = trees[which], *check = checks[which];
    CHECK(t && check, "tree allocation");
    if (generated) {
        random_tree(s, t, data, size);
        used = RANDOM_HEADER;
    } else {
        if (bitsift_decode_tree(s, data, size, BITSIFT_DECODE_NO_CRC, t, &res) != BITSIFT_OK) {
            empty_trees(t, check);
            return 0;
        }
        used = (size_t)((res.bits + 7) / 8);
    }

    /* Which stage gets its checks: 0 the rest of step 1, k the k-th field
     * change (each takes at least one choice byte). */
    size_t stages = 1 + (size - used < MUTATIONS ? size - used : MUTATIONS);
    size_t stage = (size_t)(fuzz_input_hash(data, size) % stages);

    /* 1. decode -> encode -> decode -> encode. */
    size_t p_size, again_size;
    bitsift_result enc, dec;
    CHECK(bitsift_encode(s, t, packet, sizeof packet, &p_size, &enc) == BITSIFT_OK,
          "a decoded tree must encode");
    if (FUZZ_EVERY_CHECK || stage == 0) {
        CHECK(bitsift_decode_tree(s, packet, p_size, 0, check, &dec) == BITSIFT_OK,
              "the encoder's packet must decode, CRC included");
        if (generated)
            CHECK(same_values(s, t, check), "decode(encode(random T)) == T");
        else
            CHECK(bitsift_fuzz_trees_equal(t, check), "decode(encode(T)) == T");
        CHECK(bitsift_encode(s, check, again, sizeof again, &again_size, &enc) == BITSIFT_OK,
              "re-encode");
        CHECK(again_size == p_size && memcmp(again, packet, p_size) == 0,
              "decode -> encode of a canonical packet gives the same bytes");
    } else {
        memcpy(again, packet, p_size);
        again_size = p_size;
    }

    /* 2. Field changes chosen by the unused bytes, up to the one whose
     * checks this input gets. */
    size_t last = FUZZ_EVERY_CHECK ? MUTATIONS : stage;
    for (size_t k = 1; k <= last && used < size; k++) {
        size_t took;
        bool go_on = field_change(s, t, check, data + used, size - used, &took, &again_size,
                                  FUZZ_EVERY_CHECK || k == stage);
        used += took;
        if (!go_on)
            break;
    }
    empty_trees(t, check);
    return 0;
}
