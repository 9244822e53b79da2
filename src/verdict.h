/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * verdict.h -- the judgement every packet-reading command starts with:
 * which schema reads the packet, whether it is valid (and why not), the
 * CRC mismatch that --no-crc decoded past, and whether --display-filter
 * (-Y) selects it. Decodes without a visitor (the validation fast path)
 * and, only when the filter names fields of the packet's type, once more
 * with the filter's visitor. Nothing is allocated.
 */
#ifndef BITSIFT_VERDICT_H
#define BITSIFT_VERDICT_H

#include "cli.h"

struct verdict {
    int schema_index;             /* -1 when no schema claimed the packet */
    const bitsift_schema *schema; /* NULL then */
    unsigned flags;               /* the decode flags the command should use */
    bitsift_result res;           /* the decode (past the CRC with --no-crc) */
    int crc_mismatch;             /* --no-crc decoded past a CRC mismatch */
    uint32_t crc_expected, crc_got;
};

/* Judge one packet. Returns 1 when the command should take it (no -Y, or
 * -Y selects it). */
int verdict_take(struct cli *c, const uint8_t *data, size_t size, struct verdict *v);

/* With --no-crc, a packet whose only fault is its CRC has the CRC
 * mismatch as its failure in `res`; one that fails further on has that
 * failure, and these notes name the mismatch besides:
 *   text " (past a CRC32 mismatch: expected 0x..., got 0x...)" (nothing
 *        when the failure is the CRC's own)
 *   JSON ,"crc_mismatch":{"expected":E,"got":G} */
void verdict_text_note(struct out *o, const struct verdict *v);
void verdict_json_note(struct out *o, const struct verdict *v);

#endif /* BITSIFT_VERDICT_H */
