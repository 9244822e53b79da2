/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * verdict.c -- pick the schema, decode, note the CRC mismatch --no-crc
 * decoded past, and apply -Y (see verdict.h).
 */
#include <string.h>

#define BITSIFT_EXPERIMENTAL /* -Y: <bitsift/filter.h> */
#include "bitsift/filter.h"

#include "print/packet_report.h"
#include "verdict.h"

/* The CRC field of a framed packet, when it does not match its bytes. */
static int crc_mismatch(const bitsift_schema *s, const uint8_t *data, size_t size,
                        uint32_t *expected, uint32_t *got)
{
    const bitsift_framing *fr = bitsift_schema_framing(s);
    if (!bitsift_packet_stored_crc(fr, data, size, got))
        return 0;
    *expected = bitsift_packet_crc(fr, data, size);
    return *expected != *got;
}

/* A packet valid but for its CRC fails with the CRC mismatch; its fields
 * were read past it, so its type and bit count stay those of the whole
 * packet. */
static void crc_failure(struct verdict *v)
{
    bitsift_result *res = &v->res;
    res->status = BITSIFT_E_CRC;
    memset(&res->failure, 0, sizeof res->failure);
    res->failure.kind = BITSIFT_E_CRC;
    res->failure.bit = 8u * bitsift_schema_framing(v->schema)->prefix_bytes;
    res->failure.why = "CRC32 mismatch";
    res->failure.expected = v->crc_expected;
    res->failure.got = v->crc_got;
    strcpy(res->path, "crc");
    res->failure.field = res->path;
}

int verdict_take(struct cli *c, const uint8_t *data, size_t size, struct verdict *v)
{
    v->schema_index = cli_pick_schema(c, data, size);
    v->schema = v->schema_index >= 0 ? c->schemas[v->schema_index] : NULL;
    v->flags = (c->strict ? BITSIFT_DECODE_STRICT : 0) | (c->no_crc ? BITSIFT_DECODE_NO_CRC : 0);
    v->crc_mismatch = 0;
    if (!v->schema) {
        report_no_protocol(&v->res);
    } else {
        bitsift_decode(v->schema, data, size, v->flags, NULL, &v->res);
        if (c->no_crc)
            v->crc_mismatch = crc_mismatch(v->schema, data, size, &v->crc_expected, &v->crc_got);
        if (v->crc_mismatch && v->res.status == BITSIFT_OK)
            crc_failure(v);
    }
    if (!c->display) /* no -Y: every packet */
        return 1;
    /* One call: the second decode, with the filter's visitor, happens in
     * the library and only when the filter names fields of this type. */
    bitsift_filter_facts facts = {v->schema_index, &v->res, v->crc_mismatch};
    return bitsift_filter_judge(c->display, &facts, data, size, v->flags);
}

void verdict_text_note(struct out *o, const struct verdict *v)
{
    if (!v->crc_mismatch || v->res.failure.kind == BITSIFT_E_CRC)
        return;
    out_str(o, " (past a CRC32 mismatch: expected 0x");
    out_hex_u64(o, v->crc_expected, 8);
    out_str(o, ", got 0x");
    out_hex_u64(o, v->crc_got, 8);
    out_char(o, ')');
}

void verdict_json_note(struct out *o, const struct verdict *v)
{
    if (!v->crc_mismatch)
        return;
    out_str(o, ",\"crc_mismatch\":{\"expected\":");
    out_u64(o, v->crc_expected);
    out_str(o, ",\"got\":");
    out_u64(o, v->crc_got);
    out_char(o, '}');
}
