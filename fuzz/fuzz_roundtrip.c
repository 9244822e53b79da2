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
 *   | packet (decoded, CRC ignored)        | choices for fuzz_mutate_tree|
 *   +--------------------------------------+-----------------------------+
 *
 * 1. decode of the input gives tree T; encode(T) must succeed (every
 *    decoded value is encodable) giving P; decode(P) must give T again
 *    (values taken from the input -> encode -> decode: same values), and
 *    encode of that must give P byte for byte (decode of a canonical
 *    packet -> encode: same bytes). P is canonical by construction: the
 *    input need not be (trailing bits, long ladder tiers).
 * 2. Up to MUTATIONS field changes, one at a time (schema_mutate.c): a
 *    value out of its field's range or length must be refused by the
 *    encoder; whatever the encoder accepts must decode, with the changed
 *    field reading back as written (floats, which the encoder may clamp
 *    or quantize, are only required to decode), and encode again to the
 *    same bytes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bitsift.h"
#include "packet_schemas.h"
#include "schema_mutate.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MUTATIONS  4
#define MAX_PACKET (1u << 16)

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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (fuzz_schema_count() == 0)
        return 0;
    size_t which = fuzz_schema_for_packet(data, size);
    const bitsift_schema *s = fuzz_schema(which);
    if (!trees[which]) {
        trees[which] = bitsift_tree_create(s);
        checks[which] = bitsift_tree_create(s);
    }
    bitsift_tree *t = trees[which], *check = checks[which];
    CHECK(t && check, "tree allocation");

    bitsift_result res;
    if (bitsift_decode_tree(s, data, size, BITSIFT_DECODE_NO_CRC, t, &res) != BITSIFT_OK)
        return 0;
    size_t used = (size_t)((res.bits + 7) / 8);

    /* 1. decode -> encode -> decode -> encode. */
    size_t p_size, again_size;
    bitsift_result enc, dec;
    CHECK(bitsift_encode(s, t, packet, sizeof packet, &p_size, &enc) == BITSIFT_OK,
          "a decoded tree must encode");
    CHECK(bitsift_decode_tree(s, packet, p_size, 0, check, &dec) == BITSIFT_OK,
          "the encoder's packet must decode, CRC included");
    CHECK(fuzz_trees_equal(t, check), "decode(encode(T)) == T");
    CHECK(bitsift_encode(s, check, again, sizeof again, &again_size, &enc) == BITSIFT_OK,
          "re-encode");
    CHECK(again_size == p_size && memcmp(again, packet, p_size) == 0,
          "decode -> encode of a canonical packet gives the same bytes");

    /* 2. Field changes chosen by the unused bytes. */
    fuzz_input choices;
    fuzz_input_init(&choices, data + used, size - used);
    for (int i = 0; i < MUTATIONS && fuzz_input_left(&choices) > 0; i++) {
        struct tree_mutation m;
        if (!fuzz_mutate_tree(s, t, &choices, &m))
            break;
        bitsift_error e = bitsift_encode(s, t, packet, sizeof packet, &p_size, &enc);
        if (m.kind == MUTATION_OUT_OF_RANGE && ranged_field(s, m.node))
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
        if (m.kind == MUTATION_VALUE) {
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
                    CHECK(fuzz_values_equal(&want, v), "a value reads back as written");
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
