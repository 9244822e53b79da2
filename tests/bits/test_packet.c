/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_packet.c -- packet framing (protocol2): the layout and CRC of a
 * written packet computed independently with zlib, packet types, prefix
 * bytes, and rejection: a wrong protocol id and every single flipped bit
 * fail with kind crc at the CRC field, every truncation fails, a bad end
 * check fails with kind check.
 */
#include "test_util.h"

#include <stdlib.h>
#include <zlib.h>

/* A payload touching most primitives, written/read in one place. */
static bool payload(void *stream, int mode, uint32_t *a, int64_t *b, char *text)
{
    if (mode == BITSIFT_READ) {
        bitsift_reader *r = stream;
        uint64_t v;
        if (!bitsift_read_bits(r, 23, &v) || !bitsift_read_int(r, -1000, 1000, b) ||
            !bitsift_read_string(r, text, 16, NULL))
            return false;
        *a = (uint32_t)v;
        return true;
    }
    bitsift_writer *w = stream;
    return bitsift_write_bits(w, 23, *a) && bitsift_write_int(w, -1000, 1000, *b) &&
           bitsift_write_string(w, text, 16);
}

static size_t write_packet(const bitsift_framing *f, uint32_t type, const void *prefix,
                           uint8_t *buf, size_t capacity)
{
    bitsift_writer w;
    size_t size = 0;
    uint32_t a = 0x7abcde;
    int64_t b = -999;
    char text[16] = "framed";
    bitsift_writer_init(&w, buf, capacity);
    assert_true(bitsift_packet_write_begin(&w, f, prefix, type));
    assert_true(payload(&w, BITSIFT_WRITE, &a, &b, text));
    assert_true(bitsift_packet_write_end(&w, f, &size));
    assert_int_equal(size, bitsift_writer_bytes(&w));
    return size;
}

static bool read_packet(const bitsift_framing *f, const uint8_t *buf, size_t size, uint32_t *type,
                        bitsift_reader *r)
{
    uint32_t a = 0;
    int64_t b = 0;
    char text[16];
    bitsift_reader_init(r, buf, size);
    if (!bitsift_packet_read_begin(r, f, type) || !payload(r, BITSIFT_READ, &a, &b, text) ||
        !bitsift_packet_read_end(r, f))
        return false;
    assert_int_equal(a, 0x7abcde);
    assert_int_equal(b, -999);
    assert_string_equal(text, "framed");
    return true;
}

static uint32_t le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* zlib over (protocol id LE, packet from the CRC field with it zeroed). */
static uint32_t zlib_packet_crc(uint32_t protocol_id, const uint8_t *p, size_t size)
{
    uint8_t *copy = malloc(size + 4);
    copy[0] = (uint8_t)protocol_id;
    copy[1] = (uint8_t)(protocol_id >> 8);
    copy[2] = (uint8_t)(protocol_id >> 16);
    copy[3] = (uint8_t)(protocol_id >> 24);
    memcpy(copy + 4, p, size);
    memset(copy + 4, 0, 4);
    uint32_t crc = (uint32_t)crc32(0L, copy, (uInt)(size + 4));
    free(copy);
    return crc;
}

static void test_layout_and_types(void **state)
{
    (void)state;
    const uint32_t type_counts[] = {1, 2, 3, 7, 256, 1000};
    for (size_t t = 0; t < sizeof type_counts / sizeof type_counts[0]; t++) {
        bitsift_framing f;
        bitsift_framing_init(&f, 0x12345678);
        f.num_types = type_counts[t];
        for (uint32_t type = 0; type < f.num_types; type += 1 + f.num_types / 5) {
            uint8_t buf[128];
            size_t size = write_packet(&f, type, NULL, buf, sizeof buf);
            unsigned type_bits = f.num_types > 1 ? bitsift_bits_required(0, f.num_types - 1) : 0;
            if (type_bits)
                assert_int_equal(test_field(buf, 32, type_bits), type);
            /* Ends with the aligned end-of-packet marker. */
            assert_int_equal(le32(buf + size - 4), BITSIFT_CHECK_END_OF_PACKET);
            assert_int_equal(le32(buf), zlib_packet_crc(0x12345678, buf, size));
            assert_int_equal(bitsift_packet_crc(&f, buf, size), le32(buf));

            bitsift_reader r;
            uint32_t got = UINT32_MAX;
            assert_true(read_packet(&f, buf, size, &got, &r));
            assert_int_equal(got, type);
            assert_int_equal(bitsift_reader_bit_pos(&r), 8 * size);
        }
        /* A type outside num_types cannot be written. */
        uint8_t buf[64];
        bitsift_writer w;
        bitsift_writer_init(&w, buf, sizeof buf);
        assert_false(bitsift_packet_write_begin(&w, &f, NULL, f.num_types));
        assert_writer_failed(&w, BITSIFT_E_VALUE);
    }
    /* num_types 0 is an argument error on both sides. */
    bitsift_framing f;
    bitsift_framing_init(&f, 1);
    f.num_types = 0;
    uint8_t buf[64] = {0};
    bitsift_writer w;
    bitsift_writer_init(&w, buf, sizeof buf);
    assert_false(bitsift_packet_write_begin(&w, &f, NULL, 0));
    assert_writer_failed(&w, BITSIFT_E_ARGUMENT);
    bitsift_reader r;
    uint32_t type;
    bitsift_reader_init(&r, buf, sizeof buf);
    assert_false(bitsift_packet_read_begin(&r, &f, &type));
    assert_reader_failed(&r, BITSIFT_E_ARGUMENT, 0);
}

/* A type field that passes the CRC but is out of range: range, named. */
static void test_type_out_of_range(void **state)
{
    (void)state;
    bitsift_framing f;
    bitsift_framing_init(&f, 99);
    f.num_types = 5; /* 3 bits: raw 5..7 invalid */
    uint8_t buf[64];
    size_t size = write_packet(&f, 4, NULL, buf, sizeof buf);
    buf[4] = (uint8_t)((buf[4] & ~7u) | 6u);
    uint32_t crc = bitsift_packet_crc(&f, buf, size);
    for (int i = 0; i < 4; i++)
        buf[i] = (uint8_t)(crc >> (8 * i));
    bitsift_reader r;
    uint32_t type = 77;
    bitsift_reader_init(&r, buf, size);
    assert_false(bitsift_packet_read_begin(&r, &f, &type));
    assert_reader_failed(&r, BITSIFT_E_RANGE, 32);
    assert_string_equal(bitsift_reader_failure(&r)->field, "type");
    assert_int_equal(type, 77);
}

static void test_wrong_protocol_id(void **state)
{
    (void)state;
    uint64_t rng = 30;
    for (int i = 0; i < 200; i++) {
        bitsift_framing f, other;
        bitsift_framing_init(&f, (uint32_t)test_rand(&rng));
        other = f;
        other.protocol_id ^= 1u << test_below(&rng, 32);
        if (i == 0)
            f.protocol_id = 0, other.protocol_id = 0x12345678;
        uint8_t buf[64];
        size_t size = write_packet(&f, 0, NULL, buf, sizeof buf);
        bitsift_reader r;
        uint32_t type;
        assert_false(read_packet(&other, buf, size, &type, &r));
        assert_reader_failed(&r, BITSIFT_E_CRC, 0);
        assert_string_equal(bitsift_reader_failure(&r)->field, "crc");
        assert_int_equal(bitsift_reader_failure(&r)->expected,
                         bitsift_packet_crc(&other, buf, size));
        assert_int_equal(bitsift_reader_failure(&r)->got, le32(buf));
        assert_true(read_packet(&f, buf, size, &type, &r));
    }
}

static void test_every_bit_flip(void **state)
{
    (void)state;
    bitsift_framing f;
    bitsift_framing_init(&f, 0xe6185ca6);
    f.num_types = 7;
    uint8_t buf[64];
    size_t size = write_packet(&f, 3, NULL, buf, sizeof buf);
    for (size_t k = 0; k < 8 * size; k++) {
        uint8_t *copy = malloc(size);
        memcpy(copy, buf, size);
        copy[k / 8] ^= (uint8_t)(1u << (k % 8));
        bitsift_reader r;
        uint32_t type = 1234;
        assert_false(read_packet(&f, copy, size, &type, &r));
        assert_reader_failed(&r, BITSIFT_E_CRC, 0);
        assert_int_equal(type, 1234);
        free(copy);
    }
}

/* Every truncation fails: overflow while the CRC field is incomplete,
 * crc after that (the CRC covers the whole packet). */
static void test_every_truncation(void **state)
{
    (void)state;
    bitsift_framing f;
    bitsift_framing_init(&f, 7);
    uint8_t buf[64];
    size_t size = write_packet(&f, 0, NULL, buf, sizeof buf);
    for (size_t n = 0; n < size; n++) {
        uint8_t *copy = n ? malloc(n) : NULL;
        if (n)
            memcpy(copy, buf, n);
        bitsift_reader r;
        uint32_t type;
        assert_false(read_packet(&f, copy, n, &type, &r));
        if (n < 4)
            assert_reader_failed(&r, BITSIFT_E_OVERFLOW, 0);
        else
            assert_reader_failed(&r, BITSIFT_E_CRC, 0);
        if (n < 4)
            assert_int_equal(bitsift_packet_crc(&f, copy, n), 0);
        free(copy);
    }
}

/* Good CRC, wrong end marker: check failure at the marker, named. */
static void test_end_check(void **state)
{
    (void)state;
    bitsift_framing writer_framing, reader_framing;
    bitsift_framing_init(&writer_framing, 5);
    writer_framing.end_check_value = bitsift_hash_name("end of packeT!", 0);
    reader_framing = writer_framing;
    reader_framing.end_check_value = BITSIFT_CHECK_END_OF_PACKET;
    uint8_t buf[64];
    size_t size = write_packet(&writer_framing, 0, NULL, buf, sizeof buf);
    bitsift_reader r;
    uint32_t type;
    assert_false(read_packet(&reader_framing, buf, size, &type, &r));
    assert_reader_failed(&r, BITSIFT_E_CHECK, 8 * size - 32);
    assert_string_equal(bitsift_reader_failure(&r)->field, "end of packet");

    /* Without an end check the packet is shorter and still reads. */
    bitsift_framing none;
    bitsift_framing_init(&none, 5);
    none.end_check = false;
    size_t shorter = write_packet(&none, 0, NULL, buf, sizeof buf);
    assert_true(shorter < size);
    assert_true(read_packet(&none, buf, shorter, &type, &r));
}

/* Prefix bytes are outside the CRC; the CRC field follows them. */
static void test_prefix_bytes(void **state)
{
    (void)state;
    bitsift_framing f;
    bitsift_framing_init(&f, 0xabcdef01);
    f.prefix_bytes = 3;
    uint8_t buf[64];
    size_t size = write_packet(&f, 0, "\x01\x02\x03", buf, sizeof buf);
    assert_memory_equal(buf, "\x01\x02\x03", 3);
    assert_int_equal(le32(buf + 3), zlib_packet_crc(0xabcdef01, buf + 3, size - 3));
    bitsift_reader r;
    uint32_t type;
    buf[1] ^= 0xff; /* not covered */
    assert_true(read_packet(&f, buf, size, &type, &r));
    buf[3] ^= 0x01; /* the CRC field itself */
    assert_false(read_packet(&f, buf, size, &type, &r));
    assert_reader_failed(&r, BITSIFT_E_CRC, 24);
    /* Too short for the prefix and CRC: no CRC to compute. */
    assert_int_equal(bitsift_packet_crc(&f, buf, 6), 0);
}

/* The stored CRC is the 4 bytes after the prefix, little-endian; there is
 * none without a CRC field or in fewer than prefix + 4 bytes. */
static void test_stored_crc(void **state)
{
    (void)state;
    for (uint32_t prefix = 0; prefix < 4; prefix++) {
        bitsift_framing f;
        bitsift_framing_init(&f, 0x9e3779b9 + prefix);
        f.prefix_bytes = prefix;
        uint8_t buf[64];
        size_t size = write_packet(&f, 0, "\xa1\xb2\xc3", buf, sizeof buf);
        uint32_t stored = 0;
        assert_true(bitsift_packet_stored_crc(&f, buf, size, &stored));
        assert_int_equal(stored, le32(buf + prefix));
        assert_int_equal(stored, bitsift_packet_crc(&f, buf, size));
        buf[prefix + 2] ^= 0x40;
        assert_true(bitsift_packet_stored_crc(&f, buf, size, &stored));
        assert_int_equal(stored, le32(buf + prefix));
        assert_int_not_equal(stored, bitsift_packet_crc(&f, buf, size));
        stored = 0x5a5a5a5a;
        for (size_t cut = 0; cut < prefix + 4; cut++) {
            assert_false(bitsift_packet_stored_crc(&f, buf, cut, &stored));
            assert_int_equal(stored, 0x5a5a5a5a);
        }
        assert_true(bitsift_packet_stored_crc(&f, buf, prefix + 4, &stored));
        f.crc = false;
        stored = 0x5a5a5a5a;
        assert_false(bitsift_packet_stored_crc(&f, buf, size, &stored));
        assert_int_equal(stored, 0x5a5a5a5a);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_layout_and_types),  cmocka_unit_test(test_type_out_of_range),
        cmocka_unit_test(test_wrong_protocol_id), cmocka_unit_test(test_every_bit_flip),
        cmocka_unit_test(test_every_truncation),  cmocka_unit_test(test_end_check),
        cmocka_unit_test(test_prefix_bytes),      cmocka_unit_test(test_stored_crc),
    };
    return cmocka_run_group_tests_name("packet", tests, NULL, NULL);
}
