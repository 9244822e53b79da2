/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * schema_testing.c -- the hooks that tests and fuzz harnesses use to hold
 * the validation program to the op interpreter (bitsift_testing.h):
 * exported with the bitsift__ prefix, never part of the API.
 */
#include "bitsift_testing.h"
#include "validate_program.h"

bitsift_error bitsift__decode_interpreted(const bitsift_schema *s, const void *packet, size_t size,
                                          unsigned flags, bitsift_result *res)
{
    bitsift_result local;
    if (!res)
        res = &local;
    if (!schema_decode_args_ok(s, packet, size, res))
        return res->status;
    return schema_decode(s, packet, size,
                         (flags & ~SCHEMA_DECODE_NO_PATHS) | SCHEMA_DECODE_INTERPRETER, NULL, res);
}

/* The program's decision for the tests, through one build of the
 * interpreter. */
static int vp_decision(const bitsift_schema *s, const void *packet, size_t size, unsigned flags,
                       bitsift_result *res, bool portable)
{
    if (!s || !s->validate)
        return -1;
    if (!packet && size)
        return 0;
    bool valid = portable ? schema_validate_portable(s, packet, size, flags, res)
                          : schema_validate(s, packet, size, flags, res);
    return valid ? 1 : 0;
}

int bitsift__validate_program(const bitsift_schema *s, const void *packet, size_t size,
                              unsigned flags, bitsift_result *res)
{
    return vp_decision(s, packet, size, flags, res, false);
}

int bitsift__validate_program_portable(const bitsift_schema *s, const void *packet, size_t size,
                                       unsigned flags, bitsift_result *res)
{
    return vp_decision(s, packet, size, flags, res, true);
}
