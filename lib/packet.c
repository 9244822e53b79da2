/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * packet.c -- packet framing as the 2016 article's protocol2 writes it:
 * prefix bytes, CRC32 over an unsent protocol id, packet type, payload,
 * end-of-packet check.
 *
 *   byte 0          prefix_bytes      prefix_bytes + 4
 *   +---------------+-----------------+--------------------------------------+
 *   | prefix (opaque)| crc32, LE       | type | payload ... | pad | end check  |
 *   +---------------+-----------------+--------------------------------------+
 *                    <------------- covered by the CRC ---------------------->
 *
 *   crc32 = CRC32(protocol_id as 4 LE bytes || packet[prefix_bytes..] with
 *                 the 4 CRC bytes taken as zero)
 *
 * The reader checks the CRC before it reads anything else, so that a
 * damaged packet or one of another protocol never reaches the payload
 * reader.
 */
#include <string.h>

#include "bitsift_internal.h"

void bitsift_framing_init(bitsift_framing *f, uint32_t protocol_id)
{
    memset(f, 0, sizeof *f);
    f->protocol_id = protocol_id;
    f->num_types = 1;
    f->crc = true;
    f->end_check = true;
    f->end_check_value = BITSIFT_CHECK_END_OF_PACKET;
    f->prefix_bytes = 0;
}

static void store_le32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

uint32_t bitsift_packet_crc(const bitsift_framing *f, const void *packet, size_t size)
{
    /* Too short to hold a CRC field: there is nothing to compare with, and
     * hostile callers must not make us read before or past the buffer. */
    if (size < (size_t)f->prefix_bytes + 4)
        return 0;
    const uint8_t *p = (const uint8_t *)packet + f->prefix_bytes;
    size_t n = size - f->prefix_bytes;
    /* protocol id then the zeroed CRC field: one 8-byte prefix. */
    uint8_t head[8] = {0};
    store_le32(head, f->protocol_id);
    uint32_t crc = bitsift_crc32(0, head, sizeof head);
    return bitsift_crc32(crc, p + 4, n - 4);
}

bool bitsift_packet_stored_crc(const bitsift_framing *f, const void *packet, size_t size,
                               uint32_t *stored)
{
    if (!f->crc || size < (size_t)f->prefix_bytes + 4)
        return false;
    const uint8_t *p = (const uint8_t *)packet + f->prefix_bytes;
    *stored = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
    return true;
}

bool bitsift_packet_write_begin(bitsift_writer *w, const bitsift_framing *f, const void *prefix,
                                uint32_t type)
{
    if (BITSIFT_UNLIKELY(f->num_types == 0))
        return bitsift__writer_misuse(w, BITSIFT_E_ARGUMENT, "framing needs num_types >= 1", 1, 0);
    if (BITSIFT_UNLIKELY(type >= f->num_types))
        return bitsift__writer_misuse(w, BITSIFT_E_VALUE, "packet type outside num_types",
                                      f->num_types - 1, type);
    if (BITSIFT_UNLIKELY(bitsift_writer_bit_pos(w) != 0))
        return bitsift__writer_misuse(w, BITSIFT_E_ARGUMENT, "a packet starts at bit 0", 0,
                                      bitsift_writer_bit_pos(w));
    for (uint32_t i = 0; i < f->prefix_bytes; i++)
        if (!bitsift_write_uint8(w, prefix ? ((const uint8_t *)prefix)[i] : 0))
            return false;
    if (f->crc && !bitsift_write_uint32(w, 0))
        return false;
    if (f->num_types > 1 && !bitsift_write_int(w, 0, (int64_t)f->num_types - 1, type))
        return false;
    return true;
}

bool bitsift_packet_write_end(bitsift_writer *w, const bitsift_framing *f, size_t *size)
{
    if (f->end_check && !bitsift_write_check(w, f->end_check_value))
        return false;
    if (!bitsift_write_align(w))
        return false;
    size_t bytes = bitsift_writer_bytes(w);
    if (f->crc && w->data) {
        uint8_t *crc_field = w->data + f->prefix_bytes;
        store_le32(crc_field, bitsift_packet_crc(f, w->data, bytes));
    }
    if (size)
        *size = bytes;
    return true;
}

bool bitsift_packet_read_begin(bitsift_reader *r, const bitsift_framing *f, uint32_t *type)
{
    if (BITSIFT_UNLIKELY(f->num_types == 0))
        return bitsift_reader_fail(r, BITSIFT_E_ARGUMENT, 0, "framing needs num_types >= 1", 1, 0);
    /* The prefix is one field: a short one fails where it starts, as the
     * schema decoder reports it. */
    const uint8_t *prefix;
    if (f->prefix_bytes && !bitsift_read_bytes_view(r, f->prefix_bytes, &prefix))
        return false;
    if (f->crc) {
        uint64_t at = bitsift_reader_bit_pos(r);
        uint32_t stored;
        if (!bitsift_read_uint32(r, &stored))
            return false;
        /* at is byte aligned here: prefix_bytes whole bytes were read. */
        if (at != (uint64_t)f->prefix_bytes * 8)
            return bitsift_reader_fail(r, BITSIFT_E_ARGUMENT, at, "a packet starts at bit 0", 0,
                                       at);
        uint32_t computed = bitsift_packet_crc(f, r->data, r->size);
        if (BITSIFT_UNLIKELY(computed != stored)) {
            bitsift_reader_fail(r, BITSIFT_E_CRC, at, "CRC32 mismatch", computed, stored);
            bitsift_reader_name_failure(r, "crc");
            return false;
        }
    }
    int64_t t = 0;
    if (f->num_types > 1) {
        if (!bitsift_read_int(r, 0, (int64_t)f->num_types - 1, &t)) {
            bitsift_reader_name_failure(r, "type");
            return false;
        }
    }
    *type = (uint32_t)t;
    return true;
}

bool bitsift_packet_read_end(bitsift_reader *r, const bitsift_framing *f)
{
    if (f->end_check && !bitsift_read_check(r, f->end_check_value)) {
        bitsift_reader_name_failure(r, "end of packet");
        return false;
    }
    return bitsift_reader_ok(r);
}
