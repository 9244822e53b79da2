/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bench_schema.c -- section 3 of `make bench`: the schema decoder in
 * memory on packets of the bundled snapshot protocol (examples/
 * shooter.bss), in packets/s and ns per field, three ways:
 *
 *   validate  bitsift_decode with no visitor (what `bitsift validate` runs);
 *   visitor   bitsift_decode with a field callback (what `decode` and
 *             `stats` build on), against validate;
 *   tree      bitsift_decode_tree into one reused tree, against validate.
 *
 *   bench_schema SCHEMA
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_packets.h"
#include "bench_util.h"

#define PACKETS 4096

struct counter {
    uint64_t fields, bits;
};

static bool count_field(void *ctx, const bitsift_event *ev)
{
    struct counter *c = ctx;
    c->fields++;
    c->bits += ev->bits;
    return true;
}

enum { VALIDATE, VISITOR, TREE, PATHS };

/* Decode every packet `passes` times one way; returns packets per second
 * of thread CPU time, or -1 when a packet fails. */
static double run(int path, const bitsift_schema *s, const struct bench_packets *p,
                  unsigned passes, bitsift_tree *tree, uint64_t *fields)
{
    struct counter counter = {0, 0};
    bitsift_visitor visitor = {count_field, NULL, NULL, &counter};
    bitsift_result res;
    uint64_t total = 0;
    uint64_t t0 = bench_thread_cpu_ns();
    for (unsigned pass = 0; pass < passes; pass++) {
        for (size_t i = 0; i < p->count; i++) {
            const uint8_t *packet = p->data + p->offset[i];
            bitsift_error e = path == VALIDATE
                                  ? bitsift_decode(s, packet, p->size[i], 0, NULL, &res)
                              : path == VISITOR
                                  ? bitsift_decode(s, packet, p->size[i], 0, &visitor, &res)
                                  : bitsift_decode_tree(s, packet, p->size[i], 0, tree, &res);
            if (e != BITSIFT_OK) {
                fprintf(stderr, "bench_schema: packet %zu fails: %s at %s\n", i,
                        bitsift_error_name(e), res.path);
                return -1;
            }
            total += res.fields;
        }
    }
    uint64_t t1 = bench_thread_cpu_ns();
    *fields = total;
    return (double)p->count * passes / ((double)(t1 - t0 + 1) * 1e-9);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: bench_schema SCHEMA\n");
        return 2;
    }
    bitsift_schema *s = bench_schema_load(argv[1]);
    if (!s)
        return 1;
    struct bench_packets p;
    char err[256];
    if (!bench_packets_make(s, PACKETS, 0x736e6170ull, bench_shooter_weights(s), &p, err,
                            sizeof err)) {
        fprintf(stderr, "bench_schema: %s\n", err);
        return 1;
    }
    bitsift_tree *tree = bitsift_tree_create(s);
    if (!tree)
        return 1;

    unsigned reps = bench_reps(), passes = 4;
    double rate[PATHS][64], ratio[PATHS][64];
    for (unsigned round = 0; round < reps; round++) {
        for (int k = 0; k < PATHS; k++) {
            uint64_t fields;
            rate[k][round] = run(k, s, &p, passes, tree, &fields);
            if (rate[k][round] < 0)
                return 1;
            if (fields != p.fields * passes) {
                fprintf(stderr, "bench_schema: path %d decoded %llu fields, expected %llu\n", k,
                        (unsigned long long)fields, (unsigned long long)(p.fields * passes));
                return 1;
            }
        }
        for (int k = 0; k < PATHS; k++)
            ratio[k][round] = rate[k][round] / rate[VALIDATE][round];
    }

    size_t bytes = 0;
    for (size_t i = 0; i < p.count; i++)
        bytes += p.size[i];
    double fields_per_packet = (double)p.fields / (double)p.count;
    char what[64];
    snprintf(what, sizeof what, "%s: %.0f fields, %.0f B/packet", bitsift_schema_name(s),
             fields_per_packet, (double)bytes / (double)p.count);
    bench_row_na("3", what, "");
    static const char *names[PATHS] = {"decode validate (no visitor)", "decode visitor (callback)",
                                       "decode tree (reused tree)"};
    for (int k = 0; k < PATHS; k++) {
        double median = bench_median(rate[k], reps);
        if (k == VALIDATE)
            bench_row("3", names[k], median, "packets/s", NULL, 0, 0, NULL, 0);
        else
            bench_row("3", names[k], median, "packets/s", "validate (no visitor)",
                      bench_median(rate[VALIDATE], reps), bench_median(ratio[k], reps), NULL, 0);
        snprintf(what, sizeof what, "  %s", k == VALIDATE ? "validate" : k == VISITOR ? "visitor" : "tree");
        bench_row("3", what, 1e9 / (median * fields_per_packet), "ns/field", NULL, 0, 0, NULL, 0);
    }
    bitsift_tree_free(tree);
    bench_packets_free(&p);
    bitsift_schema_free(s);
    return 0;
}
