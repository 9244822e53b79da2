/*
 * validate_check.h -- the differential check of the validation program
 * (lib/schema_validate.c) shared by the packet and schema harnesses: for
 * one input and one set of flags, bitsift_decode with no visitor must fill
 * its result exactly as the op interpreter does (status, type, bits,
 * fields, failure, path), and the program's own decision (valid or not),
 * in both builds of its interpreter, must be the interpreter's. A
 * difference aborts with both results.
 */
#ifndef BITSIFT_FUZZ_VALIDATE_CHECK_H
#define BITSIFT_FUZZ_VALIDATE_CHECK_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bitsift_testing.h"

static inline bool fuzz_same_text(const char *a, const char *b)
{
    return strcmp(a ? a : "", b ? b : "") == 0;
}

static inline bool fuzz_same_result(const bitsift_result *a, const bitsift_result *b)
{
    return a->status == b->status && a->packet_type == b->packet_type &&
           a->packet_name == b->packet_name && a->bits == b->bits && a->fields == b->fields &&
           a->stopped == b->stopped && a->failure.kind == b->failure.kind &&
           a->failure.bit == b->failure.bit && fuzz_same_text(a->failure.why, b->failure.why) &&
           a->failure.expected == b->failure.expected && a->failure.got == b->failure.got &&
           fuzz_same_text(a->failure.field, b->failure.field) && strcmp(a->path, b->path) == 0;
}

static inline void fuzz_validate_agrees(const bitsift_schema *s, const uint8_t *data, size_t size,
                                        unsigned flags)
{
    bitsift_result want, got, prog, portable;
    bitsift__decode_interpreted(s, data, size, flags, &want);
    bitsift_decode(s, data, size, flags, NULL, &got);
    int decision = bitsift__validate_program(s, data, size, flags, &prog);
    /* The interpreter's portable build too, which a CPU with BMI2 does not
     * run otherwise. */
    int portable_decision = bitsift__validate_program_portable(s, data, size, flags, &portable);
    bool ok = fuzz_same_result(&want, &got) &&
              (decision < 0 || decision == (want.status == BITSIFT_OK)) &&
              (decision != 1 || fuzz_same_result(&want, &prog)) &&
              portable_decision == decision &&
              (portable_decision != 1 || fuzz_same_result(&want, &portable));
    if (!ok) {
        fprintf(stderr,
                "validate_check: flags %#x: the validation program says %d (portable build "
                "%d); interpreter %s, %llu bits, %llu fields at '%s'; decode %s, %llu bits, "
                "%llu fields at '%s'\n",
                flags, decision, portable_decision, bitsift_error_name(want.status),
                (unsigned long long)want.bits,
                (unsigned long long)want.fields, want.path, bitsift_error_name(got.status),
                (unsigned long long)got.bits, (unsigned long long)got.fields, got.path);
        abort();
    }
}

#endif /* BITSIFT_FUZZ_VALIDATE_CHECK_H */
