/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bitsift/records.h -- NDJSON records, the lines `bitsift decode -F json`
 * prints, read back into value trees of a schema's packet types and
 * encoded into packets: what `bitsift encode` does with its input, as a
 * library (libbitsift-tools, pkg-config bitsift-tools, libbitsift-tools(3)).
 *
 * A record is untrusted text: a line is read up to
 * BITSIFT_RECORD_MAX_LINE bytes (the rest of a longer one is skipped),
 * parsed by jansson within a memory budget proportional to its size, and
 * its numbers are read as the schema's field types say (a float32 from its
 * text, a uint64 above 2^63 exactly). Every refusal is a value: a status,
 * and a message naming the line and the field path; nothing is printed.
 *
 * libbitsift-tools needs jansson; libbitsift itself needs nothing, and
 * this header is not part of <bitsift.h>.
 */
#ifndef BITSIFT_RECORDS_H
#define BITSIFT_RECORDS_H

#ifndef BITSIFT_EXPERIMENTAL
#error "<bitsift/records.h> is experimental: its API may change between releases; #define BITSIFT_EXPERIMENTAL before including it"
#endif

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "schema.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Bytes of one record's line, newline excluded. */
#define BITSIFT_RECORD_MAX_LINE (64u << 20)
/* Bytes of a message, NUL included. */
#define BITSIFT_RECORD_MESSAGE_MAX (BITSIFT_PATH_MAX + 512)

/* What one call made of the next line; the values are stable. */
typedef enum bitsift_record_status {
    BITSIFT_RECORD_OK = 0,        /* a record: its value tree is built (or its packet encoded) */
    BITSIFT_RECORD_END = 1,       /* no line left in the input */
    BITSIFT_RECORD_STOPPED = 2,   /* the stop function said so before the next line */
    BITSIFT_RECORD_SKIPPED = 3,   /* a record with "valid": false: no complete packet */
    BITSIFT_RECORD_SUMMARY = 4,   /* a `bitsift validate` summary line: not a record */
    BITSIFT_RECORD_TOO_LONG = 5,  /* a line over the limit, or beyond the memory at hand:
                                     skipped to its end, not a record */
    BITSIFT_RECORD_MALFORMED = 6, /* not a JSON object, or over its memory budget */
    BITSIFT_RECORD_REFUSED = 7,   /* a record these schemas cannot encode: no schema or
                                     packet type fits, or a value does not */
    BITSIFT_RECORD_READ_ERROR = 8 /* the input failed (errno says why) */
} bitsift_record_status;

/* Why a line was not a record or a record not a packet. */
typedef struct bitsift_record_error {
    uint64_t line;                /* its line (from 1); 0 when about no line */
    char path[BITSIFT_PATH_MAX];  /* the field path ("players[1].x"), "" when none */
    char message[BITSIFT_RECORD_MESSAGE_MAX]; /* e.g. "players[].x: not a float" */
} bitsift_record_error;

/* A record read: valid until the reader's next call. */
typedef struct bitsift_record {
    uint64_t line;        /* its line in the input (from 1); 0 from bitsift_record_parse */
    size_t schema;        /* the index of its schema among the reader's */
    unsigned packet_type; /* its "type" in that schema */
    bitsift_tree *tree;   /* its "fields" (the reader's tree of that schema) */
    /* The record's "src", "dst" and "time" strings as decode prints them
     * (addresses, an RFC 3339 time); NULL when absent or not strings. */
    const char *src, *dst, *time;
} bitsift_record;

typedef struct bitsift_record_reader bitsift_record_reader;

/*
 * A reader of records for `count` schemas (kept by pointer: they outlive
 * the reader). A record names its schema by "protocol", "protocol_id" and
 * "version": exactly one schema must agree with every key the record has.
 * NULL without memory.
 *
 * jansson's allocation functions are process-wide: the first reader
 * created sets them (json_set_alloc_funcs) to count each record's memory,
 * so a program that also uses jansson creates it before any JSON value of
 * its own exists. Readers are not for use from two threads at once.
 */
bitsift_record_reader *bitsift_record_reader_create(const bitsift_schema *const *schemas,
                                                    size_t count);
void bitsift_record_reader_free(bitsift_record_reader *r); /* NULL is fine */

/* Read records from `input` from now on, its lines counted from 1. `stop`
 * (may be NULL) is asked before each line: nonzero ends the reading with
 * BITSIFT_RECORD_STOPPED. */
void bitsift_record_reader_start(bitsift_record_reader *r, FILE *input, int (*stop)(void *ctx),
                                 void *ctx);

/* The next record of the input, blank lines passed over: its tree in
 * rec (BITSIFT_RECORD_OK), or why there is none in err. */
bitsift_record_status bitsift_record_next(bitsift_record_reader *r, bitsift_record *rec,
                                          bitsift_record_error *err);

/* One record held in memory (`size` bytes of JSON text, no limit on its
 * length but its memory budget), as bitsift_record_next reads a line. */
bitsift_record_status bitsift_record_parse(bitsift_record_reader *r, const char *text,
                                           size_t size, bitsift_record *rec,
                                           bitsift_record_error *err);

/* The packet of the record last read into `packet` (`capacity` bytes),
 * its size in *size: BITSIFT_RECORD_OK, or BITSIFT_RECORD_REFUSED with the
 * encoder's reason worded for the record in err (the field path, the bit,
 * the numbers compared as the field reads them). */
bitsift_record_status bitsift_record_encode(bitsift_record_reader *r, const bitsift_record *rec,
                                            uint8_t *packet, size_t capacity, size_t *size,
                                            bitsift_record_error *err);

/* The "time" of a record, an RFC 3339 time as `bitsift decode` prints it
 * ("2026-11-23T09:00:00.123456789Z": any number of fraction digits, of
 * which nine count; 'Z' or an offset such as "+01:00"), in seconds and
 * nanoseconds since 1970-01-01T00:00:00Z: 0, or -1 when the text is not
 * such a time (*sec and *nsec untouched). */
int bitsift_record_parse_time(const char *text, int64_t *sec, uint32_t *nsec);

#ifdef __cplusplus
}
#endif

#endif /* BITSIFT_RECORDS_H */
