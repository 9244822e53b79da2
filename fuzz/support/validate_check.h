/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * validate_check.h -- the differential check of the validation program
 * (lib/schema_validate.c), and the one comparator of decode results, shared
 * by the packet and schema harnesses and by tests/schema/validate_diff: for
 * one input and one set of flags, bitsift_decode with no visitor must fill
 * its result exactly as the op interpreter does (status, type, bits,
 * fields, failure, path), and the program's own decision (valid or not), in
 * both builds of its interpreter, must be the interpreter's.
 */
#ifndef BITSIFT_FUZZ_VALIDATE_CHECK_H
#define BITSIFT_FUZZ_VALIDATE_CHECK_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bitsift_testing.h"

static inline bool validate_check_same_text(const char *a, const char *b)
{
    return strcmp(a ? a : "", b ? b : "") == 0;
}

/* Whether two results say the same, member by member (the failure's
 * strings by content: NULL and "" alike). */
static inline bool validate_check_same_result(const bitsift_result *a, const bitsift_result *b)
{
    return a->status == b->status && a->packet_type == b->packet_type &&
           a->packet_name == b->packet_name && a->bits == b->bits && a->fields == b->fields &&
           a->stopped == b->stopped && a->failure.kind == b->failure.kind &&
           a->failure.bit == b->failure.bit &&
           validate_check_same_text(a->failure.why, b->failure.why) &&
           a->failure.expected == b->failure.expected && a->failure.got == b->failure.got &&
           validate_check_same_text(a->failure.field, b->failure.field) &&
           strcmp(a->path, b->path) == 0;
}

/* The four ways one input was decided. */
struct validate_check {
    bitsift_result interpreted; /* the op interpreter: the reference */
    bitsift_result decoded;     /* bitsift_decode with no visitor */
    bitsift_result program, portable;
    int decision;          /* the program's: 1 valid, 0 refused, -1 no program */
    int portable_decision; /* the same through its portable build */
};

/* Decides the input all four ways; true when they agree. A schema without
 * a program (decision -1) agrees when decode agrees with the interpreter. */
static inline bool validate_check_run(const bitsift_schema *s, const uint8_t *data, size_t size,
                                      unsigned flags, struct validate_check *v)
{
    bitsift__decode_interpreted(s, data, size, flags, &v->interpreted);
    bitsift_decode(s, data, size, flags, NULL, &v->decoded);
    v->decision = bitsift__validate_program(s, data, size, flags, &v->program);
    /* The interpreter's portable build too, which a CPU with BMI2 does not
     * run otherwise. */
    v->portable_decision = bitsift__validate_program_portable(s, data, size, flags, &v->portable);
    const bitsift_result *want = &v->interpreted;
    return validate_check_same_result(want, &v->decoded) &&
           (v->decision < 0 || v->decision == (want->status == BITSIFT_OK)) &&
           (v->decision != 1 || validate_check_same_result(want, &v->program)) &&
           v->portable_decision == v->decision &&
           (v->portable_decision != 1 || validate_check_same_result(want, &v->portable));
}

/* For the harnesses: a disagreement aborts with both results; `decoded`
 * (when not NULL) gets bitsift_decode's result, so that a harness does not
 * decode again for it. */
static inline void fuzz_validate_agrees_result(const bitsift_schema *s, const uint8_t *data,
                                               size_t size, unsigned flags,
                                               bitsift_result *decoded)
{
    struct validate_check v;
    if (!validate_check_run(s, data, size, flags, &v)) {
        const bitsift_result *want = &v.interpreted, *got = &v.decoded;
        fprintf(stderr,
                "validate_check: flags %#x: the validation program says %d (portable build "
                "%d); interpreter %s, %llu bits, %llu fields at '%s'; decode %s, %llu bits, "
                "%llu fields at '%s'\n",
                flags, v.decision, v.portable_decision, bitsift_error_name(want->status),
                (unsigned long long)want->bits, (unsigned long long)want->fields, want->path,
                bitsift_error_name(got->status), (unsigned long long)got->bits,
                (unsigned long long)got->fields, got->path);
        abort();
    }
    if (decoded)
        *decoded = v.decoded;
}

static inline void fuzz_validate_agrees(const bitsift_schema *s, const uint8_t *data, size_t size,
                                        unsigned flags)
{
    fuzz_validate_agrees_result(s, data, size, flags, NULL);
}

#endif /* BITSIFT_FUZZ_VALIDATE_CHECK_H */
