/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * schema_detect.c -- protocol (version) detection: which of several
 * compiled schemas a packet belongs to. The protocol id is never sent, so
 * the CRC is the witness: only the right protocol id makes it match.
 */
#include "schema_internal.h"

int bitsift_detect(const bitsift_schema *const *schemas, size_t count, const void *packet,
                   size_t size)
{
    if (!schemas || (!packet && size))
        return -1;
    /* First the schemas that can prove it: a CRC seeded by their id. */
    for (size_t i = 0; i < count; i++) {
        const bitsift_schema *s = schemas[i];
        uint32_t stored;
        if (!s || !bitsift_packet_stored_crc(&s->framing, packet, size, &stored))
            continue;
        if (bitsift_packet_crc(&s->framing, packet, size) == stored)
            return (int)i;
    }
    /* Then those without a CRC: the first that decodes it cleanly. */
    for (size_t i = 0; i < count; i++) {
        const bitsift_schema *s = schemas[i];
        if (!s || s->framing.crc)
            continue;
        bitsift_result res;
        if (schema_decode(s, packet, size, SCHEMA_DECODE_NO_PATHS, NULL, &res) == BITSIFT_OK)
            return (int)i;
    }
    return -1;
}
