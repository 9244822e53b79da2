/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * encode.h -- `bitsift encode`'s record path for the fuzz harness
 * (fuzz/fuzz_encode.c): NDJSON records from a stream through the same line
 * reader, limits, JSON parsing, value trees and encoder as the command.
 */
#ifndef BITSIFT_ENCODE_H
#define BITSIFT_ENCODE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cli.h"

/* Sees each packet encoded, before it is written. */
typedef void (*encode_packet_fn)(void *ctx, const bitsift_schema *schema, const uint8_t *packet,
                                 size_t size);

/* Takes a message instead of stderr: `line` is the line of the record it
 * is about (counted from 1), 0 for one about the input or output as a
 * whole; `message` is what `bitsift encode` prints after "SOURCE:LINE: ". */
typedef void (*encode_message_fn)(void *ctx, uint64_t line, const char *message);

/* Encode every record of `records` with the schemas loaded in c (c->src,
 * c->dst as the options), writing the packets to `out` one after another
 * (as -o -) or as a pcap (as -w -, which closes `out`), and handing each to
 * `observe` (may be NULL). Messages go to `say`, or to stderr when it is
 * NULL; both callbacks get `ctx`. Returns the exit status `bitsift encode`
 * would give. */
int encode_records_from(struct cli *c, FILE *records, FILE *out, int as_pcap,
                        encode_packet_fn observe, encode_message_fn say, void *ctx);

#endif /* BITSIFT_ENCODE_H */
