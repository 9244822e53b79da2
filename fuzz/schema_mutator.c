/*
 * schema_mutator.c -- libFuzzer custom mutator that mutates packets the
 * way the schema describes them (fuzz_packet_schema): decode the packet,
 * change one field (schema_mutate.c: in range, at an edge, just out of
 * range, another enum value, another array length), encode it again with
 * correct checks, end check and CRC. So the fuzzer explores the protocol,
 * not the checksum or the check markers.
 *
 * A value the encoder refuses (outside its field) is put on the wire by
 * hand where the field was read, in its width, and the CRC re-sealed: the
 * decoder must then reject it cleanly. One mutation in four, or when the
 * packet does not decode, is a plain libFuzzer mutation plus a re-seal
 * (as crc_mutator.c), so that malformed packets are explored too.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "packet_schemas.h"
#include "reseal.h"
#include "schema_mutate.h"

size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed);

#define MAX_PACKET (1u << 16)

static bitsift_tree *trees[64];
static uint8_t encoded[MAX_PACKET];

static size_t byte_level(uint8_t *data, size_t size, size_t max_size, unsigned hint)
{
    size = LLVMFuzzerMutate(data, size, max_size);
    fuzz_reseal(data, size, hint);
    return size;
}

/* Store `width` bits of `value` at stream bit `bit` (LSB first). */
static void put_bits(uint8_t *data, size_t size, uint64_t bit, unsigned width, uint64_t value)
{
    for (unsigned i = 0; i < width && (bit + i) / 8 < size; i++) {
        uint8_t mask = (uint8_t)(1u << ((bit + i) & 7));
        if ((value >> i) & 1)
            data[(bit + i) / 8] |= mask;
        else
            data[(bit + i) / 8] &= (uint8_t)~mask;
    }
}

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed)
{
    unsigned which = fuzz_schema_for_packet(data, size);
    if (seed % 4 == 0 || which >= sizeof trees / sizeof trees[0])
        return byte_level(data, size, max_size, which);
    const bitsift_schema *s = fuzz_schema(which);
    if (!trees[which])
        trees[which] = bitsift_tree_create(s);
    bitsift_tree *t = trees[which];
    bitsift_result res;
    if (!t || bitsift_decode_tree(s, data, size, BITSIFT_DECODE_NO_CRC, t, &res) != BITSIFT_OK)
        return byte_level(data, size, max_size, which);

    /* Choices from the seed: a few xorshift bytes. */
    uint8_t bytes[32];
    uint32_t x = seed | 1u;
    for (size_t i = 0; i < sizeof bytes; i++) {
        x ^= x << 13, x ^= x >> 17, x ^= x << 5;
        bytes[i] = (uint8_t)x;
    }
    fuzz_input choices;
    fuzz_input_init(&choices, bytes, sizeof bytes);
    struct tree_mutation m;
    if (!fuzz_mutate_tree(s, t, &choices, &m))
        return byte_level(data, size, max_size, which);

    size_t out_size;
    bitsift_result enc;
    if (bitsift_encode(s, t, encoded, sizeof encoded, &out_size, &enc) == BITSIFT_OK &&
        out_size <= max_size) {
        memcpy(data, encoded, out_size);
        return out_size;
    }
    if (m.kind == MUTATION_OUT_OF_RANGE && m.width > 0 && m.width < 64 &&
        m.raw < (1ull << m.width)) {
        /* Just out of range, on the wire. */
        put_bits(data, size, m.bit, m.width, m.raw);
        fuzz_reseal(data, size, which);
        return size;
    }
    return byte_level(data, size, max_size, which);
}
