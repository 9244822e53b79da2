/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bitsift/fuzz.h -- libbitsift-fuzz, the fuzzing kit: mutators that keep
 * a protocol's packets sealed (CRC32 right, check markers and ranges
 * respected), so that a fuzzer run against YOUR packet reader explores
 * the payload instead of dying on the CRC check. pkg-config name
 * `bitsift-fuzz`; the manual is libbitsift-fuzz(3).
 *
 * A libFuzzer harness for a reader of protocol 0x1234abcd is:
 *
 *   #include <bitsift/fuzz.h>
 *
 *   BITSIFT_FUZZ_MUTATORS(bitsift_fuzz_new_protocol(0x1234abcd, 0, true))
 *
 *   int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
 *   {
 *       my_read_packet(data, size);
 *       return 0;
 *   }
 *
 * or, when the protocol is described by a schema file (man
 * bitsift-schema.5), the schema-aware mutator:
 *
 *   BITSIFT_FUZZ_MUTATORS(bitsift_fuzz_new_schema_file("game.bss", BITSIFT_FUZZ_SCHEMA_AWARE))
 *
 * The macro defines LLVMFuzzerCustomMutator and LLVMFuzzerCustomCrossOver
 * only: LLVMFuzzerInitialize stays the harness's. The context is made on
 * the first mutation; a context that cannot be made (a schema that does
 * not compile) stops the fuzzer with the reason, exit status 2.
 *
 * The environment overrides what the harness names (so one binary serves
 * several protocols): BITSIFT_FUZZ_SCHEMA=FILE, or BITSIFT_FUZZ_PROTOCOL=ID
 * with BITSIFT_FUZZ_PREFIX=N and BITSIFT_FUZZ_CRC=0|1; BITSIFT_FUZZ_MODE=crc
 * turns the schema-aware mutator off.
 *
 * A context is not thread-safe (fuzzers mutate on one thread).
 */
#ifndef BITSIFT_FUZZ_H
#define BITSIFT_FUZZ_H

#include "schema.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct bitsift_fuzz bitsift_fuzz;

/* Flags of the constructors that take schemas. */
#define BITSIFT_FUZZ_SCHEMA_AWARE 1u /* decode, change one field, encode, seal */

/* A protocol given by its framing: the CRC is re-sealed after every
 * mutation (nothing when `crc` is false). `prefix_bytes` opaque bytes
 * come before the CRC field. */
bitsift_fuzz *bitsift_fuzz_new_protocol(uint32_t protocol_id, uint32_t prefix_bytes, bool crc);
bitsift_fuzz *bitsift_fuzz_new_framing(const bitsift_framing *f);

/* Protocols given by schemas (borrowed: they must outlive the context).
 * A packet is sealed for the schema it belongs to (bitsift_detect, else
 * the one that decodes furthest). */
bitsift_fuzz *bitsift_fuzz_new_schemas(const bitsift_schema *const *schemas, size_t count,
                                       unsigned flags);
/* One schema file, compiled and owned by the context; on failure NULL and,
 * when `err` is not NULL, the compiler's diagnostic. */
bitsift_fuzz *bitsift_fuzz_new_schema_file(const char *path, unsigned flags,
                                           bitsift_schema_error *err);
/* From the environment (see above); `fallback` when it names nothing
 * (NULL then means "nothing configured": NULL is returned). The fallback
 * is freed when the environment wins. */
bitsift_fuzz *bitsift_fuzz_from_env(bitsift_fuzz *fallback);
void bitsift_fuzz_free(bitsift_fuzz *fz); /* NULL is fine */

/* The context, or a message on stderr and exit(2) when it is NULL (what
 * BITSIFT_FUZZ_MUTATORS does with its constructor's result). */
bitsift_fuzz *bitsift_fuzz_require(bitsift_fuzz *fz, const char *what);

/* A byte-level mutator in libFuzzer's shape (LLVMFuzzerMutate): mutate
 * data[0..size) in place, up to max_size bytes, return the new size. */
typedef size_t (*bitsift_fuzz_byte_mutator)(uint8_t *data, size_t size, size_t max_size);

/* One mutation of a packet: with a schema-aware context three times in
 * four a field-level change (bitsift_fuzz_mutate_tree) re-encoded; else
 * (or when the packet does not decode) `bytes` (NULL: a built-in bit and
 * byte havoc), then the CRC re-sealed. Returns the new size (<= max_size).
 * `seed` chooses. */
size_t bitsift_fuzz_mutate(bitsift_fuzz *fz, uint8_t *data, size_t size, size_t max_size,
                           unsigned seed, bitsift_fuzz_byte_mutator bytes);

/* The head of one packet and the tail of the other, re-sealed for the
 * first one's protocol. Returns the size written to out. */
size_t bitsift_fuzz_crossover(bitsift_fuzz *fz, const uint8_t *data1, size_t size1,
                              const uint8_t *data2, size_t size2, uint8_t *out,
                              size_t max_out_size, unsigned seed);

/* Which of the context's protocols a packet is for (0 with one), and
 * store the CRC of that protocol (or of protocol `which`) into it. */
unsigned bitsift_fuzz_protocol_of(const bitsift_fuzz *fz, const uint8_t *data, size_t size);
void bitsift_fuzz_seal(const bitsift_fuzz *fz, uint8_t *data, size_t size);
void bitsift_fuzz_seal_as(const bitsift_fuzz *fz, unsigned which, uint8_t *data, size_t size);

/* ------------------------------------------------------------------ */
/* Field-level changes to a decoded tree                              */
/* ------------------------------------------------------------------ */

typedef enum bitsift_fuzz_mutation_kind {
    BITSIFT_FUZZ_MUTATION_NONE = 0,
    BITSIFT_FUZZ_MUTATION_VALUE = 1,        /* a leaf got `value`; the encoder takes it */
    BITSIFT_FUZZ_MUTATION_OUT_OF_RANGE = 2, /* a leaf got a value outside its field */
    BITSIFT_FUZZ_MUTATION_COUNT = 3         /* an array got one element more or less */
} bitsift_fuzz_mutation_kind;

typedef struct bitsift_fuzz_mutation {
    bitsift_fuzz_mutation_kind kind;
    bitsift_node *node;
    bitsift_value value;
    char path[BITSIFT_PATH_MAX];
    /* For OUT_OF_RANGE: the raw wire value one step outside the field,
     * where the field sits and its width (0: cannot be put on the wire),
     * so that a mutator can write it itself (the encoder refuses it). */
    uint64_t raw, bit;
    unsigned width;
} bitsift_fuzz_mutation;

/*
 * Change one field of tree `t` (decoded with `s`): integers and enums to
 * a value in range, min, max, min - 1, max + 1 or another named value;
 * floats to 0, -0, NaN, infinities, the edges and one step past them;
 * strings and bytes to another length or content; booleans flipped;
 * arrays one element more or fewer. The choices are read from
 * choices[0..size) (running out reads zeros); *used (when not NULL)
 * gets how many were read. Returns false when nothing could change.
 * The values of bytes and strings point into a buffer of the library,
 * valid until the next call.
 */
bool bitsift_fuzz_mutate_tree(const bitsift_schema *s, bitsift_tree *t, const uint8_t *choices,
                              size_t size, size_t *used, bitsift_fuzz_mutation *m);

/* Equal values (floats bitwise: NaN payloads count) and equal trees
 * (shape, names, indices, values): the oracles of a round-trip harness. */
bool bitsift_fuzz_values_equal(const bitsift_value *a, const bitsift_value *b);
bool bitsift_fuzz_trees_equal(const bitsift_tree *a, const bitsift_tree *b);

/* ------------------------------------------------------------------ */
/* The libFuzzer glue                                                 */
/* ------------------------------------------------------------------ */

/* Defines LLVMFuzzerCustomMutator and LLVMFuzzerCustomCrossOver over the
 * context `make_context` returns (evaluated once, on first use, after the
 * environment had its say: bitsift_fuzz_from_env). */
#define BITSIFT_FUZZ_MUTATORS(make_context)                                                  \
    size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);                    \
    size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size,              \
                                   unsigned int seed);                                       \
    size_t LLVMFuzzerCustomCrossOver(const uint8_t *data1, size_t size1,                     \
                                     const uint8_t *data2, size_t size2, uint8_t *out,       \
                                     size_t max_out_size, unsigned int seed);                \
    static bitsift_fuzz *bitsift_fuzz_context_(void)                                         \
    {                                                                                        \
        static bitsift_fuzz *context;                                                        \
        if (!context)                                                                        \
            context = bitsift_fuzz_require(bitsift_fuzz_from_env(make_context), #make_context); \
        return context;                                                                      \
    }                                                                                        \
    size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size,              \
                                   unsigned int seed)                                        \
    {                                                                                        \
        return bitsift_fuzz_mutate(bitsift_fuzz_context_(), data, size, max_size, seed,      \
                                   LLVMFuzzerMutate);                                        \
    }                                                                                        \
    size_t LLVMFuzzerCustomCrossOver(const uint8_t *data1, size_t size1,                     \
                                     const uint8_t *data2, size_t size2, uint8_t *out,       \
                                     size_t max_out_size, unsigned int seed)                 \
    {                                                                                        \
        return bitsift_fuzz_crossover(bitsift_fuzz_context_(), data1, size1, data2, size2,   \
                                      out, max_out_size, seed);                              \
    }                                                                                        \
    typedef int bitsift_fuzz_mutators_defined_ /* so that the line ends with ';' */

#ifdef __cplusplus
}
#endif

#endif /* BITSIFT_FUZZ_H */
