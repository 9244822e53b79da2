/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bench_gen_c.c -- the row of `make bench` for `bitsift gen c`: the reader
 * generated from examples/shooter.bss (bench/gen_c/shooter.c, made at
 * build time) against the validation program, in memory, on the same
 * packets in the same run, both checking the CRC; the generated reader
 * also stores every field into its structs.
 *
 *   bench_gen_c SCHEMA          (SCHEMA: examples/shooter.bss)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_packets.h"
#include "bench_util.h"
#include "shooter.h"

#define PACKETS 4096

enum { VALIDATE, GENERATED, PATHS };

static struct shooter_packet decoded; /* large: not on the stack */

/* Read every packet `passes` times one way; packets per second of thread
 * CPU time, or -1 when a packet fails. */
static double run(int path, const bitsift_schema *s, const struct bench_packets *p,
                  unsigned passes)
{
    bitsift_result res;
    uint64_t t0 = bench_thread_cpu_ns();
    for (unsigned pass = 0; pass < passes; pass++) {
        for (size_t i = 0; i < p->count; i++) {
            const uint8_t *packet = p->data + p->offset[i];
            bool ok;
            if (path == VALIDATE) {
                ok = bitsift_decode(s, packet, p->size[i], 0, NULL, &res) == BITSIFT_OK;
            } else {
                bitsift_reader r;
                bitsift_reader_init(&r, packet, p->size[i]);
                ok = shooter_read(&r, &decoded);
            }
            if (!ok) {
                fprintf(stderr, "bench_gen_c: packet %zu fails (%s)\n", i,
                        path == VALIDATE ? "validate" : "generated reader");
                return -1;
            }
        }
    }
    uint64_t t1 = bench_thread_cpu_ns();
    return (double)p->count * passes / ((double)(t1 - t0 + 1) * 1e-9);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: bench_gen_c SCHEMA\n");
        return 2;
    }
    bitsift_schema *s = bench_schema_load(argv[1]);
    if (!s)
        return 1;
    if (bitsift_schema_protocol_id(s) != shooter_framing.protocol_id) {
        fprintf(stderr, "bench_gen_c: %s is not the schema the reader was generated from\n",
                argv[1]);
        return 1;
    }
    struct bench_packets p;
    char err[256];
    if (!bench_packets_make(s, PACKETS, 0x736e6170ull, bench_shooter_weights(s), &p, err,
                            sizeof err)) {
        fprintf(stderr, "bench_gen_c: %s\n", err);
        return 1;
    }
    unsigned reps = bench_reps(), passes = 4;
    double rate[PATHS][64], ratio[64];
    for (unsigned round = 0; round < reps; round++) {
        for (int k = 0; k < PATHS; k++)
            if ((rate[k][round] = run(k, s, &p, passes)) < 0)
                return 1;
        ratio[round] = rate[GENERATED][round] / rate[VALIDATE][round];
    }
    bench_row("3", "gen c reader (CRC, into structs)", bench_median(rate[GENERATED], reps),
              "packets/s", "validate (no visitor)", bench_median(rate[VALIDATE], reps),
              bench_median(ratio, reps), NULL, 0);
    bench_packets_free(&p);
    bitsift_schema_free(s);
    return 0;
}
