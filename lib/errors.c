/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * errors.c -- the one table of error names and descriptions, and the
 * formatting of a failure ("range at bit 17 in x: ...").
 */
#include <inttypes.h>
#include <stdio.h>

#include "bitsift.h"

static const struct {
    const char *name;
    const char *description;
} error_table[BITSIFT_ERROR_COUNT] = {
    [BITSIFT_OK] = {"ok", "no error"},
    [BITSIFT_E_OVERFLOW] = {"overflow", "read past the end of the data"},
    [BITSIFT_E_RANGE] = {"range", "value outside the range the field allows"},
    [BITSIFT_E_ALIGN] = {"align", "non-zero alignment padding"},
    [BITSIFT_E_CHECK] = {"check", "serialization check marker mismatch"},
    [BITSIFT_E_CRC] = {"crc", "CRC32 mismatch (damaged packet or another protocol id)"},
    [BITSIFT_E_PROTOCOL] = {"protocol", "no known protocol accepts the packet"},
    [BITSIFT_E_STRING] = {"string", "string holds a NUL byte or invalid UTF-8"},
    [BITSIFT_E_TRAILING] = {"trailing", "unexpected data after the end of the packet"},
    [BITSIFT_E_VALUE] = {"value", "value cannot be written in its field"},
    [BITSIFT_E_ARGUMENT] = {"argument", "invalid argument"},
    [BITSIFT_E_NOMEM] = {"nomem", "out of memory"},
    [BITSIFT_E_SCHEMA] = {"schema", "invalid schema"},
    [BITSIFT_E_IO] = {"io", "input/output error"},
    [BITSIFT_E_LIMIT] = {"limit", "input exceeds a hard limit"},
};

const char *bitsift_error_name(bitsift_error e)
{
    if ((unsigned)e >= BITSIFT_ERROR_COUNT)
        return "unknown";
    return error_table[e].name;
}

const char *bitsift_error_string(bitsift_error e)
{
    if ((unsigned)e >= BITSIFT_ERROR_COUNT)
        return "unknown error";
    return error_table[e].description;
}

/* The expected/got pair reads differently per kind; see bitsift_failure. */
int bitsift_failure_format(const bitsift_failure *f, char *buf, size_t size)
{
    const char *why = f->why ? f->why : bitsift_error_string(f->kind);
    const char *in = f->field ? " in " : "";
    const char *field = f->field ? f->field : "";
    const char *name = bitsift_error_name(f->kind);

    switch (f->kind) {
    case BITSIFT_OK:
        return snprintf(buf, size, "ok");
    case BITSIFT_E_OVERFLOW:
        return snprintf(buf, size,
                        "%s at bit %" PRIu64 "%s%s: %s (needed %" PRIu64 " bits, %" PRIu64 " left)",
                        name, f->bit, in, field, why, f->expected, f->got);
    case BITSIFT_E_RANGE:
        return snprintf(buf, size,
                        "%s at bit %" PRIu64 "%s%s: %s (expected <= %" PRIu64 ", got %" PRIu64 ")",
                        name, f->bit, in, field, why, f->expected, f->got);
    case BITSIFT_E_CHECK:
    case BITSIFT_E_CRC:
        return snprintf(buf, size,
                        "%s at bit %" PRIu64 "%s%s: %s (expected 0x%08" PRIx64 ", got 0x%08" PRIx64
                        ")",
                        name, f->bit, in, field, why, f->expected, f->got);
    case BITSIFT_E_ALIGN:
        return snprintf(buf, size, "%s at bit %" PRIu64 "%s%s: %s (expected 0, got 0x%" PRIx64 ")",
                        name, f->bit, in, field, why, f->got);
    default:
        return snprintf(buf, size,
                        "%s at bit %" PRIu64 "%s%s: %s (expected %" PRIu64 ", got %" PRIu64 ")",
                        name, f->bit, in, field, why, f->expected, f->got);
    }
}
