/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fuzz_filter.c -- libFuzzer target: display filters (bitsift/filter.h,
 * the language of `bitsift -Y`). An input is an expression, a NUL, a byte
 * that chooses the packet's schema, and the packet:
 *
 *   +------------------+----+--------+----------------+
 *   | expression text  | 00 | choice | packet bytes   |
 *   +------------------+----+--------+----------------+
 *   (no NUL: all of it is the expression, and no packet is judged)
 *
 * The expression is compiled against the schemas in use (packet_schemas.h:
 * the bundled examples, or the user's) and one of the harness's own that
 * has every value kind a filter compares (the examples have no bytes,
 * double or negative integer). `choice` modulo (schemas + 1) names the
 * packet's schema; the last value is "no schema claimed it".
 *
 * Checked on every input, besides "no crash, no sanitizer report":
 *   - every text compiles or is refused with a non-empty message, a kind,
 *     and a column inside the text (0: none);
 *   - the packet, decoded with its CRC checked and past it (as --no-crc),
 *     is judged the same by bitsift_filter_judge and by the steps (begin,
 *     visitor, end) fed by a decode of the harness's;
 *   - a packet whose type needs no fields (bitsift_filter_needs_fields) is
 *     judged the same with its fields decoded;
 *   - "!(expression)", when it compiles, judges every packet the other way.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BITSIFT_EXPERIMENTAL
#include "bitsift.h"
#include "bitsift/filter.h"
#include "packet_schemas.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(cond)                                                                     \
    do {                                                                                \
        if (!(cond)) {                                                                  \
            fprintf(stderr, "fuzz_filter: %s:%d: check failed: %s\n", __FILE__, __LINE__, \
                    #cond);                                                             \
            abort();                                                                    \
        }                                                                               \
    } while (0)

/* Every value kind a filter compares: bool, uint (up to 64 bits), negative
 * int, enum, float, double, string, bytes; arrays of structs and of
 * numbers; a conditional field. */
static const char kinds_schema[] =
    "protocol filter_kinds { id 0x46494c54; crc on; end_check \"end of packet\"; }\n"
    "enum Team { Red, Blue, Spectator }\n"
    "struct Player { int(0, 63) id; Team team; bool alive; if (alive) { int(0, 100) health; }"
    " string(16) name; }\n"
    "packet Hello { uint16 client_version; bytes(4) token; double precise; uint64 big; }\n"
    "packet Snapshot { float gravity; Player players[max 8]; int(-1000, 1000) scores[4]; }\n";

#define MAX_SCHEMAS 64
static const bitsift_schema *schemas[MAX_SCHEMAS + 1];
static size_t schema_count;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    fuzz_schemas_init(argc, argv);
    for (size_t i = 0; i < fuzz_schema_count() && schema_count < MAX_SCHEMAS; i++)
        schemas[schema_count++] = fuzz_schema(i);
    bitsift_schema_error err;
    bitsift_schema *kinds = bitsift_schema_compile(kinds_schema, sizeof kinds_schema - 1,
                                                   "filter_kinds", &err);
    if (!kinds) {
        fprintf(stderr, "fuzz_filter: %s\n", err.message);
        exit(2);
    }
    schemas[schema_count++] = kinds; /* kept for the run */
    return 0;
}

/* The CRC field of a framed packet, when it does not match its bytes (as
 * bitsift's --no-crc notes it). */
static int crc_mismatch(const bitsift_schema *s, const uint8_t *data, size_t size)
{
    const bitsift_framing *fr = bitsift_schema_framing(s);
    uint32_t got;
    if (!bitsift_packet_stored_crc(fr, data, size, &got))
        return 0;
    return bitsift_packet_crc(fr, data, size) != got;
}

/* Judge one decoded packet every way; returns the verdict. */
static int judge(const bitsift_filter *f, const bitsift_filter_facts *facts, const uint8_t *data,
                 size_t size, unsigned flags)
{
    int verdict = bitsift_filter_judge(f, facts, data, size, flags);
    CHECK(verdict == 0 || verdict == 1);
    bitsift_filter_state st;
    bitsift_filter_begin(&st, f, facts->schema);
    if (facts->schema >= 0) {
        /* Fields decoded whether the filter needs them or not. */
        bitsift_visitor v = bitsift_filter_visitor(&st);
        bitsift_result scratch;
        bitsift_decode(schemas[facts->schema], data, size, flags | BITSIFT_DECODE_NO_ABSENT, &v,
                       &scratch);
    }
    int by_steps = bitsift_filter_end(&st, facts);
    CHECK(by_steps == verdict);
    /* Fields are needed only of a packet whose type is known. */
    CHECK(!bitsift_filter_needs_fields(f, facts->schema, facts->res->packet_type) ||
          facts->res->packet_type >= 0);
    return verdict;
}

/* The packet against schema `index` (-1: none), with the CRC checked and
 * past it; the verdicts of f and of its negation `not` (or NULL). */
static void judge_packet(const bitsift_filter *f, const bitsift_filter *not, int index,
                         const uint8_t *data, size_t size)
{
    bitsift_result res;
    if (index < 0) {
        memset(&res, 0, sizeof res);
        res.status = BITSIFT_E_PROTOCOL;
        res.packet_type = -1;
        res.failure.kind = BITSIFT_E_PROTOCOL;
        bitsift_filter_facts facts = {-1, &res, 0};
        int verdict = judge(f, &facts, data, size, 0);
        CHECK(!not || judge(not, &facts, data, size, 0) == !verdict);
        return;
    }
    const bitsift_schema *s = schemas[index];
    for (int past_crc = 0; past_crc < 2; past_crc++) {
        unsigned flags = past_crc ? BITSIFT_DECODE_NO_CRC : 0;
        bitsift_decode(s, data, size, flags, NULL, &res);
        bitsift_filter_facts facts = {index, &res, past_crc && crc_mismatch(s, data, size)};
        if (facts.crc_mismatch && res.status == BITSIFT_OK) {
            /* As bitsift reports it: the CRC is the packet's failure. */
            res.status = BITSIFT_E_CRC;
            memset(&res.failure, 0, sizeof res.failure);
            res.failure.kind = BITSIFT_E_CRC;
            res.failure.bit = 8u * bitsift_schema_framing(s)->prefix_bytes;
            strcpy(res.path, "crc");
            res.failure.field = res.path;
        }
        int verdict = judge(f, &facts, data, size, flags);
        CHECK(!not || judge(not, &facts, data, size, flags) == !verdict);
    }
}

static bitsift_filter *compile(const char *text, size_t len)
{
    bitsift_filter_error err;
    memset(&err, 0x55, sizeof err);
    bitsift_filter *f = bitsift_filter_compile(text, schemas, schema_count, &err);
    if (!f) {
        CHECK(memchr(err.message, '\0', sizeof err.message) != NULL);
        CHECK(err.message[0] != '\0');
        CHECK(err.kind == BITSIFT_E_ARGUMENT || err.kind == BITSIFT_E_LIMIT ||
              err.kind == BITSIFT_E_NOMEM);
        CHECK(err.column <= len + 1);
    }
    return f;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!schema_count)
        LLVMFuzzerInitialize(NULL, NULL);
    const uint8_t *nul = memchr(data, '\0', size);
    size_t len = nul ? (size_t)(nul - data) : size;
    if (len > BITSIFT_FILTER_MAX_TEXT + 16)
        return 0; /* refused by length alone: nothing to learn from more */
    char text[BITSIFT_FILTER_MAX_TEXT + 32];
    memcpy(text, data, len);
    text[len] = '\0';
    bitsift_filter *f = compile(text, len);
    if (!f || !nul || size - len < 2) {
        bitsift_filter_free(f);
        return 0;
    }
    char negated[sizeof text + 4];
    snprintf(negated, sizeof negated, "!(%s)", text);
    /* Its error, if any, is the expression's, checked above: none wanted. */
    bitsift_filter *not = bitsift_filter_compile(negated, schemas, schema_count, NULL);
    size_t choice = data[len + 1] % (schema_count + 1);
    int index = choice == schema_count ? -1 : (int)choice;
    judge_packet(f, not, index, data + len + 2, size - len - 2);
    bitsift_filter_free(not);
    bitsift_filter_free(f);
    return 0;
}
