/*
 * schema_mutate.h -- schema-aware changes to a decoded packet: pick one
 * field of a value tree and give it another value (in range, at an edge,
 * just out of range, another enum value, another array length), so that a
 * fuzzer explores the protocol instead of the checksum. Used by
 * fuzz_roundtrip (choices from the input) and by schema_mutator.c (the
 * libFuzzer custom mutator of fuzz_packet_schema, choices from its seed).
 */
#ifndef BITSIFT_FUZZ_SCHEMA_MUTATE_H
#define BITSIFT_FUZZ_SCHEMA_MUTATE_H

#include "bitsift.h"
#include "fuzz_input.h"

/* What a mutation did. */
struct tree_mutation {
    enum {
        MUTATION_NONE,
        MUTATION_VALUE,        /* a leaf got `value`; the encoder must take it */
        MUTATION_OUT_OF_RANGE, /* a leaf got a value outside its field */
        MUTATION_COUNT         /* an array got one element more or less */
    } kind;
    bitsift_node *node;
    bitsift_value value;
    char path[BITSIFT_PATH_MAX];
    /* For MUTATION_OUT_OF_RANGE: the raw wire value that is one step
     * outside the field, where the field sits and its width, so that a
     * mutator can put it on the wire itself (the encoder refuses it). */
    uint64_t raw, bit;
    unsigned width;
};

/* Change one field of tree `t` (decoded with schema `s`), choosing with
 * `choices`. Returns false when the tree has nothing to change. */
bool fuzz_mutate_tree(const bitsift_schema *s, bitsift_tree *t, fuzz_input *choices,
                      struct tree_mutation *m);

/* Are two values equal (bitwise for floats: NaN payloads count)? */
bool fuzz_values_equal(const bitsift_value *a, const bitsift_value *b);

/* Are two trees equal: same shape, names, indices and values? */
bool fuzz_trees_equal(const bitsift_tree *a, const bitsift_tree *b);

#endif /* BITSIFT_FUZZ_SCHEMA_MUTATE_H */
