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
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bitsift.h"
#include "packet_schemas.h"
#include "bitsift/fuzz.h"
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

/* Is the field of this value one whose range the encoder must enforce? */
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
 * compressed float, a quaternion component)? */
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

/* Fill trees[which] from the "RAND" header; returns the bytes it used, or
 * 0 when there is nothing to check. */
static size_t random_tree(const uint8_t *data, size_t size, size_t *which)
{
    fuzz_input in;
    fuzz_input_init(&in, data + 4, size - 4);
    *which = fuzz_u8(&in) % fuzz_schema_count();
    const bitsift_schema *s = fuzz_schema(*which);
    unsigned types = bitsift_schema_packet_count(s);
    if (types == 0)
        return 0;
    unsigned type = fuzz_u8(&in) % types;
    unsigned fill = fuzz_u8(&in) % 101;
    uint64_t seed = fuzz_le(&in, 8);
    if (!trees[*which]) {
        trees[*which] = bitsift_tree_create(s);
        checks[*which] = bitsift_tree_create(s);
    }
    CHECK(trees[*which] && checks[*which], "tree allocation");
    CHECK(bitsift_tree_random(trees[*which], type, seed, fill) == BITSIFT_OK,
          "a random tree of a valid packet type");
    return RANDOM_HEADER;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (fuzz_schema_count() == 0)
        return 0;
    size_t which, used;
    bitsift_result res;
    if (size >= RANDOM_HEADER && memcmp(data, RANDOM_TAG, 4) == 0) {
        used = random_tree(data, size, &which);
        if (used == 0)
            return 0;
    } else {
        which = fuzz_schema_for_packet(data, size);
        const bitsift_schema *s = fuzz_schema(which);
        if (!trees[which]) {
            trees[which] = bitsift_tree_create(s);
            checks[which] = bitsift_tree_create(s);
        }
        CHECK(trees[which] && checks[which], "tree allocation");
        if (bitsift_decode_tree(s, data, size, BITSIFT_DECODE_NO_CRC, trees[which], &res) !=
            BITSIFT_OK)
            return 0;
        used = (size_t)((res.bits + 7) / 8);
    }
    const bitsift_schema *s = fuzz_schema(which);
    bitsift_tree *t = trees[which], *check = checks[which];
    bool generated = used == RANDOM_HEADER && size >= RANDOM_HEADER &&
                     memcmp(data, RANDOM_TAG, 4) == 0;

    /* 1. decode -> encode -> decode -> encode. */
    size_t p_size, again_size;
    bitsift_result enc, dec;
    CHECK(bitsift_encode(s, t, packet, sizeof packet, &p_size, &enc) == BITSIFT_OK,
          "a decoded tree must encode");
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

    /* 2. Field changes chosen by the unused bytes. */
    for (int i = 0; i < MUTATIONS && used < size; i++) {
        bitsift_fuzz_mutation m;
        size_t took;
        if (!bitsift_fuzz_mutate_tree(s, t, data + used, size - used, &took, &m))
            break;
        used += took;
        bitsift_error e = bitsift_encode(s, t, packet, sizeof packet, &p_size, &enc);
        if (m.kind == BITSIFT_FUZZ_MUTATION_OUT_OF_RANGE && ranged_field(s, m.node))
            CHECK(e != BITSIFT_OK, "a value outside its field must be refused");
        if (e != BITSIFT_OK) {
            CHECK(enc.status == e && enc.failure.kind == e, "encode result");
            /* Undo by decoding the last good packet again. */
            if (bitsift_decode_tree(s, again, again_size, 0, t, &res) != BITSIFT_OK)
                break;
            continue;
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
        CHECK(bitsift_encode(s, check, again, sizeof again, &again_size, &enc) == BITSIFT_OK,
              "re-encode after a change");
        CHECK(again_size == p_size && memcmp(again, packet, p_size) == 0,
              "encode -> decode -> encode gives the same bytes");
        /* Go on from the decoded form (the changed tree may hold nodes the
         * encoder ignored). */
        CHECK(bitsift_decode_tree(s, again, again_size, 0, t, &res) == BITSIFT_OK, "reload");
    }
    return 0;
}
