/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bench_packets.c -- builds the packet set the schema and end-to-end
 * benchmarks decode: random valid trees of the schema's packet types
 * (bitsift_tree_random, fill 50), encoded by the library's encoder and
 * checked by its decoder, so the benchmarks never time a failing packet.
 */
#include "bench_packets.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"

bitsift_schema *bench_schema_load(const char *path)
{
    bitsift_schema_error err;
    bitsift_schema *s = bitsift_schema_load_file(path, &err);
    if (!s)
        fprintf(stderr, "bench: %s\n", err.message);
    return s;
}

/* A capture of a game session is mostly server snapshots and client
 * inputs; connection and chat packets are rare. Types not named here get
 * weight 1. */
const unsigned *bench_shooter_weights(const bitsift_schema *s)
{
    static unsigned weights[BITSIFT_SCHEMA_MAX_TYPES];
    static const struct {
        const char *prefix;
        unsigned weight;
    } common[] = {{"snapshot", 60}, {"Snapshot", 60}, {"input", 30}, {"Input", 30}};
    if (strcmp(bitsift_schema_name(s), "shooter") != 0)
        return NULL;
    unsigned n = bitsift_schema_packet_count(s);
    for (unsigned t = 0; t < n && t < BITSIFT_SCHEMA_MAX_TYPES; t++) {
        const char *name = bitsift_schema_packet_name(s, t);
        weights[t] = 1;
        for (size_t k = 0; k < sizeof common / sizeof common[0]; k++)
            if (strncmp(name, common[k].prefix, strlen(common[k].prefix)) == 0)
                weights[t] = common[k].weight;
    }
    return weights;
}

static unsigned pick_type(uint64_t *state, const unsigned *weights, unsigned types)
{
    if (!weights)
        return (unsigned)(bench_random(state) % types);
    uint64_t total = 0;
    for (unsigned t = 0; t < types; t++)
        total += weights[t];
    uint64_t x = bench_random(state) % total;
    for (unsigned t = 0; t < types; t++) {
        if (x < weights[t])
            return t;
        x -= weights[t];
    }
    return types - 1;
}

bool bench_packets_make(const bitsift_schema *s, size_t count, uint64_t seed,
                        const unsigned *type_weights, struct bench_packets *out, char *err,
                        size_t err_size)
{
    enum { MAX_PACKET = 65536 };
    memset(out, 0, sizeof *out);
    unsigned types = bitsift_schema_packet_count(s);
    bitsift_tree *tree = bitsift_tree_create(s);
    uint8_t *buf = malloc(MAX_PACKET);
    size_t capacity = count * 256, used = 0;
    out->data = malloc(capacity);
    out->offset = calloc(count, sizeof *out->offset);
    out->size = calloc(count, sizeof *out->size);
    if (!types || !tree || !buf || !out->data || !out->offset || !out->size) {
        snprintf(err, err_size, "no packet types or out of memory");
        goto fail;
    }
    uint64_t state = seed, refused = 0;
    for (size_t i = 0; i < count; i++) {
        unsigned type = pick_type(&state, type_weights, types);
        bitsift_result res;
        size_t size = 0;
        /* A random tree the encoder refuses (a value generated outside a
         * rule the writer enforces) is replaced by the next one; too many
         * refusals mean the generator and the writer disagree. */
        unsigned attempt = 0;
        for (;; attempt++) {
            if (bitsift_tree_random(tree, type, bench_random(&state), 50) != BITSIFT_OK) {
                snprintf(err, err_size, "cannot make a random %s packet",
                         bitsift_schema_packet_name(s, type));
                goto fail;
            }
            if (bitsift_encode(s, tree, buf, MAX_PACKET, &size, &res) == BITSIFT_OK)
                break;
            refused++;
            if (attempt == 100) {
                snprintf(err, err_size, "cannot encode a random %s packet: %s at %s",
                         bitsift_schema_packet_name(s, type), bitsift_error_name(res.status),
                         res.path);
                goto fail;
            }
        }
        if (bitsift_decode(s, buf, size, 0, NULL, &res) != BITSIFT_OK) {
            snprintf(err, err_size, "a random %s packet does not decode: %s at %s",
                     bitsift_schema_packet_name(s, type), bitsift_error_name(res.status),
                     res.path);
            goto fail;
        }
        out->fields += res.fields;
        if (used + size > capacity) {
            capacity = (used + size) * 2;
            uint8_t *grown = realloc(out->data, capacity);
            if (!grown) {
                snprintf(err, err_size, "out of memory");
                goto fail;
            }
            out->data = grown;
        }
        memcpy(out->data + used, buf, size);
        out->offset[i] = used;
        out->size[i] = size;
        used += size;
        out->count = i + 1;
    }
    if (refused)
        fprintf(stderr, "bench: note: the encoder refused %llu of %llu random trees\n",
                (unsigned long long)refused, (unsigned long long)(refused + count));
    free(buf);
    bitsift_tree_free(tree);
    return true;
fail:
    free(buf);
    bitsift_tree_free(tree);
    bench_packets_free(out);
    return false;
}

void bench_packets_free(struct bench_packets *p)
{
    free(p->data);
    free(p->offset);
    free(p->size);
    memset(p, 0, sizeof *p);
}
