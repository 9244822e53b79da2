/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bench_packets.h -- a set of valid packets of a schema for the schema and
 * end-to-end benchmarks: random trees (bitsift_tree_random) encoded with
 * bitsift_encode, the same set for the same seed in every run.
 */
#ifndef BENCH_PACKETS_H
#define BENCH_PACKETS_H

#include <stddef.h>
#include <stdint.h>

#include "bitsift.h"

struct bench_packets {
    uint8_t *data;   /* all packets back to back */
    size_t *offset;  /* packet i is data[offset[i], offset[i] + size[i]) */
    size_t *size;
    size_t count;
    uint64_t fields; /* leaf fields of all packets (from a validating decode) */
};

/* `count` packets, types in proportion to `type_weights` (one weight per
 * packet type, NULL for all alike). Returns false with a message in err
 * when the schema cannot make them. */
bool bench_packets_make(const bitsift_schema *s, size_t count, uint64_t seed,
                        const unsigned *type_weights, struct bench_packets *out, char *err,
                        size_t err_size);
void bench_packets_free(struct bench_packets *p);

/* Load a schema, printing the compiler's message on failure. */
bitsift_schema *bench_schema_load(const char *path);

/* Weights for the bundled shooter protocol: snapshots dominate a capture
 * of a game session (see bench_packets.c); NULL for other schemas. The
 * array has one entry per packet type and lives as long as the schema. */
const unsigned *bench_shooter_weights(const bitsift_schema *s);

#endif /* BENCH_PACKETS_H */
