/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bitsift/gen.h -- code generators: a compiled schema written out as code
 * for another tool. <bitsift.h> includes it.
 *
 *   bitsift_gen_wireshark   a Lua dissector for Wireshark and tshark (4.0,
 *                           Lua 5.2) that decodes the schema's packets
 *                           exactly as bitsift_decode does
 *   bitsift_gen_c           C types and serialize functions over
 *                           <bitsift/bits.h>, wire-identical to the schema
 *   bitsift_gen_fuzz        the same and a libFuzzer harness for its reader
 *
 * Every generator takes the same options and writes to a stdio stream; the
 * caller owns the stream (bitsift gen writes a temporary file and renames
 * it on success). Nothing in a schema, hostile or not, can put code of its
 * own into the output: names and strings are written as escaped literals.
 */
#ifndef BITSIFT_GEN_H
#define BITSIFT_GEN_H

#include <stdio.h>

#include "schema.h"

#ifdef __cplusplus
extern "C" {
#endif

#define BITSIFT_GEN_MAX_PORTS 64

typedef struct bitsift_gen_options {
    /* The name the generated code goes by (Wireshark: the protocol's
     * filter name, "shooter" in shooter.snapshot.players.health; C: the
     * prefix of its names and files); NULL for the schema's own name. An
     * identifier: letters, digits, '_'; for C, starting with a letter and
     * not libbitsift's (bitsift, bitsift_*, BITSIFT_*). A generator refuses
     * any other with BITSIFT_E_ARGUMENT and says why in `error`. */
    const char *name;
    /* UDP ports to register on (Wireshark: the default of its "UDP ports"
     * preference). */
    const uint16_t *ports;
    size_t port_count;
    /* C: the largest C struct (an estimate of its sizeof) a schema may
     * make; 0 for the default, 16 MiB. */
    uint64_t max_struct_bytes;
    /* Where a generator that refuses a schema says why ("snapshot.entities:
     * the C struct would take ..."); NULL for nowhere. */
    char *error;
    size_t error_size;
    /* fuzz: the schema file the harness's schema-aware mutator loads at
     * run time; NULL for CRC re-sealing only. */
    const char *schema_path;
    /* C: the text the schema was compiled from, whose '#' comments above
     * and after a declaration or field are carried into the header (as
     * comment text only); NULL for none. */
    const char *schema_text;
    size_t schema_text_size;
    /* Called by the generators' long loops: once it returns non-zero (e.g.
     * a signal handler's flag was set) they stop with BITSIFT_E_LIMIT,
     * error "interrupted"; NULL for never. A function rather than a
     * pointer to a sig_atomic_t, so that this header (included by
     * generated code) needs no <signal.h> and its names. */
    int (*stop)(void);
} bitsift_gen_options;

/* Write a Wireshark Lua dissector for every packet type of `s` to `out`.
 * `options` may be NULL. Returns BITSIFT_OK, BITSIFT_E_ARGUMENT (a bad
 * name, too many ports) or BITSIFT_E_IO (a write failed). */
bitsift_error bitsift_gen_wireshark(const bitsift_schema *s, const bitsift_gen_options *options,
                                    FILE *out);

/* Write C for `s`: the types to `header` (to be saved as NAME.h, NAME the
 * options' name or the schema's), the serialize functions to `source`
 * (NAME.c, which includes "NAME.h"). Both need only <bitsift/bits.h>
 * and compile warning-free as C99 and C++17 (-Wall -Wextra -pedantic).
 * Besides the serialize functions, NAME_visit reports a packet's values
 * field by field as bitsift_decode's visitor would. Returns BITSIFT_OK,
 * BITSIFT_E_ARGUMENT (a bad name), BITSIFT_E_LIMIT (a struct above
 * max_struct_bytes), BITSIFT_E_SCHEMA (a construct it does not support
 * yet, or schema names that would be one C name at file scope),
 * BITSIFT_E_NOMEM or BITSIFT_E_IO; options->error says which field or
 * names. */
bitsift_error bitsift_gen_c(const bitsift_schema *s, const bitsift_gen_options *options,
                            FILE *header, FILE *source);

/* bitsift_gen_c, and a libFuzzer harness for its reader to `harness`
 * (fuzz_NAME.c): reads every input, and a packet that reads must write
 * back, read again and write the same bytes; the kit's mutators
 * (<bitsift/fuzz.h>) keep inputs sealed, schema-aware when
 * options->schema_path is set. */
bitsift_error bitsift_gen_fuzz(const bitsift_schema *s, const bitsift_gen_options *options,
                               FILE *header, FILE *source, FILE *harness);

#ifdef __cplusplus
}
#endif

#endif /* BITSIFT_GEN_H */
