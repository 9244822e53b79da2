/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * seedgen.c -- writes the seed corpus of the core fuzz targets with
 * libbitsift's own writer, so that every seed is a valid input that
 * reaches deep into the code under test (and a few seeds are broken on
 * purpose, one per failure kind).
 *
 *   fuzz/seedgen CORPUS_DIR      (make fuzz-seeds runs it on corpus/)
 *
 * It writes CORPUS_DIR/fuzz_reader/ and CORPUS_DIR/fuzz_planted/. The
 * schema-driven targets get their seeds from fuzz/make-seeds.sh (the
 * encoder and the example schemas).
 *
 * A fuzz_reader seed is a program and the data it reads (see
 * fuzz_reader.c): the generator writes each value with the writer while
 * appending the matching op code and parameters to the program.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bitsift.h"
#include "reader_ops.h"


struct seed {
    uint8_t program[255];
    size_t program_size;
    uint8_t data[4096];
    bitsift_writer w;
};

static const char *corpus_dir;

static void seed_start(struct seed *s)
{
    s->program_size = 0;
    bitsift_writer_init(&s->w, s->data, sizeof s->data);
}

static void p8(struct seed *s, unsigned v)
{
    if (s->program_size == sizeof s->program) {
        fprintf(stderr, "seedgen: program too long\n");
        exit(1);
    }
    s->program[s->program_size++] = (uint8_t)v;
}

static void ple(struct seed *s, uint64_t v, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        p8(s, (unsigned)(v >> (8 * i)) & 0xff);
}

/* fuzz_i64 encoding: small values in one byte, others raw. */
static void pi64(struct seed *s, int64_t v)
{
    if (v >= -64 && v < 64) {
        p8(s, (unsigned)(v + 64));
    } else {
        p8(s, 0x90);
        ple(s, (uint64_t)v, 8);
    }
}

/* fuzz_float encoding: raw bits. */
static void pfloat(struct seed *s, float f)
{
    uint32_t bits;
    memcpy(&bits, &f, sizeof bits);
    p8(s, 0xc0);
    ple(s, bits, 4);
}

static void make_dir(const char *path)
{
    if (mkdir(path, 0755) != 0 && errno != EEXIST) {
        fprintf(stderr, "seedgen: %s: %s\n", path, strerror(errno));
        exit(1);
    }
}

static void write_file(const char *target, const char *name, const void *head, size_t head_size,
                       const void *body, size_t body_size)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", corpus_dir, target);
    make_dir(path);
    snprintf(path, sizeof path, "%s/%s/%s", corpus_dir, target, name);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(head, 1, head_size, f) != head_size ||
        fwrite(body, 1, body_size, f) != body_size || fclose(f) != 0) {
        fprintf(stderr, "seedgen: %s: %s\n", path, strerror(errno));
        exit(1);
    }
}

static void seed_save(struct seed *s, const char *name)
{
    if (!bitsift_writer_ok(&s->w)) {
        fprintf(stderr, "seedgen: %s: writer failed\n", name);
        exit(1);
    }
    uint8_t head[256];
    head[0] = (uint8_t)s->program_size;
    memcpy(head + 1, s->program, s->program_size);
    write_file("fuzz_reader", name, head, 1 + s->program_size, s->data, bitsift_writer_bytes(&s->w));
}

static void reader_seeds(void)
{
    struct seed s;

    seed_start(&s);
    for (unsigned n = 1; n <= 64; n += 9) {
        p8(&s, OP_BITS), p8(&s, n);
        bitsift_write_bits(&s.w, n, n == 64 ? ~0ull : (1ull << n) - 1 - n);
    }
    p8(&s, OP_BOOL), bitsift_write_bool(&s.w, true);
    p8(&s, OP_UINT8), bitsift_write_uint8(&s.w, 0xa5);
    p8(&s, OP_UINT16), bitsift_write_uint16(&s.w, 0xbeef);
    p8(&s, OP_UINT32), bitsift_write_uint32(&s.w, 0xdeadbeef);
    p8(&s, OP_UINT64), bitsift_write_uint64(&s.w, 0x0123456789abcdefull);
    seed_save(&s, "bits-and-uints");

    seed_start(&s);
    static const int64_t ranges[][3] = {
        {-100, 100, -7},        {0, 40, 40},     {5, 5, 5},
        {INT32_MIN, INT32_MAX, -1}, {INT64_MIN, INT64_MAX, 42}, {-1, 0, -1},
        {0, 1000000, 999999},
    };
    for (size_t i = 0; i < sizeof ranges / sizeof ranges[0]; i++) {
        p8(&s, OP_INT), pi64(&s, ranges[i][0]), pi64(&s, ranges[i][1]);
        bitsift_write_int(&s.w, ranges[i][0], ranges[i][1], ranges[i][2]);
    }
    seed_save(&s, "ints");

    seed_start(&s);
    p8(&s, OP_BOOL), bitsift_write_bool(&s.w, false);
    p8(&s, OP_FLOAT), bitsift_write_float(&s.w, 3.25f);
    p8(&s, OP_DOUBLE), bitsift_write_double(&s.w, -1.0e300);
    p8(&s, OP_BITS), p8(&s, 3), bitsift_write_bits(&s.w, 3, 5);
    p8(&s, OP_ALIGN), bitsift_write_align(&s.w);
    p8(&s, OP_FLOAT), bitsift_write_uint32(&s.w, 0x7fc12345u); /* a NaN with payload */
    seed_save(&s, "floats-align");

    seed_start(&s);
    static const float cf[][4] = {
        {-10.0f, 10.0f, 0.01f, 3.14159f}, {0.0f, 1.0f, 0.5f, 1.0f}, {0.0f, 1.0f, 2.0f, 0.3f},
        {-1000.0f, 1000.0f, 0.0001f, 999.9f}, {0.0f, 16777215.0f, 1.0f, 16777215.0f},
    };
    for (size_t i = 0; i < sizeof cf / sizeof cf[0]; i++) {
        p8(&s, OP_COMPRESSED_FLOAT), pfloat(&s, cf[i][0]), pfloat(&s, cf[i][1]),
            pfloat(&s, cf[i][2]);
        bitsift_write_compressed_float(&s.w, cf[i][0], cf[i][1], cf[i][2], cf[i][3]);
    }
    seed_save(&s, "compressed-floats");

    seed_start(&s);
    p8(&s, OP_BOOL), bitsift_write_bool(&s.w, true);
    p8(&s, OP_BYTES), ple(&s, 5, 2), bitsift_write_bytes(&s.w, "\x01\x02\x03\x04\x05", 5);
    p8(&s, OP_BITS), p8(&s, 2), bitsift_write_bits(&s.w, 2, 1);
    p8(&s, OP_BYTES_VIEW), ple(&s, 3, 2), bitsift_write_bytes(&s.w, "abc", 3);
    p8(&s, OP_STRING), ple(&s, 32, 2), bitsift_write_string(&s.w, "hello, world", 32);
    p8(&s, OP_BOOL), bitsift_write_bool(&s.w, false);
    p8(&s, OP_STRING_VIEW), ple(&s, 16, 2), bitsift_write_string(&s.w, "caf\xc3\xa9", 16);
    p8(&s, OP_STRING), ple(&s, 1, 2), bitsift_write_string(&s.w, "", 1);
    seed_save(&s, "bytes-strings");

    seed_start(&s);
    p8(&s, OP_BITS), p8(&s, 5), bitsift_write_bits(&s.w, 5, 9);
    p8(&s, OP_CHECK), p8(&s, 0), bitsift_write_check(&s.w, BITSIFT_CHECK_CLASSIC);
    p8(&s, OP_CHECK), p8(&s, 1), bitsift_write_check(&s.w, BITSIFT_CHECK_END_OF_PACKET);
    p8(&s, OP_CHECK), p8(&s, 2), ple(&s, 0xcafef00d, 4), bitsift_write_check(&s.w, 0xcafef00d);
    seed_save(&s, "checks");

    seed_start(&s);
    int32_t previous = 0;
    static const int32_t deltas[] = {1, 4, 20, 200, 3000, 60000, 1000000};
    for (size_t i = 0; i < sizeof deltas / sizeof deltas[0]; i++) {
        p8(&s, OP_INT_RELATIVE), p8(&s, 1); /* previous = the last value read */
        bitsift_write_int_relative(&s.w, previous, previous + deltas[i]);
        previous += deltas[i];
    }
    seed_save(&s, "int-relative");

    seed_start(&s);
    static const int32_t steps[] = {1, 3, 10, 20, 40, 100, 500};
    previous = 0; /* the harness starts its "last value" at 0 */
    for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++) {
        p8(&s, OP_OBJECT_INDEX), p8(&s, 1), pi64(&s, 1023);
        bitsift_write_object_index(&s.w, previous, 1023, previous + steps[i]);
        previous += steps[i];
    }
    seed_save(&s, "object-index");

    seed_start(&s);
    static const uint16_t seq[][2] = {{100, 101}, {65535, 3}, {10, 9000}, {5, 4}};
    for (size_t i = 0; i < sizeof seq / sizeof seq[0]; i++) {
        p8(&s, OP_SEQUENCE_RELATIVE), p8(&s, 0), ple(&s, seq[i][0], 2);
        bitsift_write_sequence_relative(&s.w, seq[i][0], seq[i][1]);
    }
    static const uint16_t acks[][2] = {{100, 90}, {100, 36}, {100, 35}, {3, 65530}};
    for (size_t i = 0; i < sizeof acks / sizeof acks[0]; i++) {
        p8(&s, OP_ACK_RELATIVE), p8(&s, 0), ple(&s, acks[i][0], 2);
        bitsift_write_ack_relative(&s.w, acks[i][0], acks[i][1]);
    }
    seed_save(&s, "sequence-ack");

    /* A framed packet: prefix 2, CRC, 3 types, end check. */
    seed_start(&s);
    bitsift_framing f;
    bitsift_framing_init(&f, 0x11223344);
    f.num_types = 3;
    f.prefix_bytes = 2;
    p8(&s, OP_PACKET_BEGIN), p8(&s, 1 | 2 | (2 << 2)), ple(&s, f.protocol_id, 4), p8(&s, 3);
    bitsift_packet_write_begin(&s.w, &f, "\xaa\xbb", 2);
    p8(&s, OP_INT), pi64(&s, 0), pi64(&s, 63), bitsift_write_int(&s.w, 0, 63, 17);
    p8(&s, OP_PACKET_END);
    size_t packet_size;
    bitsift_packet_write_end(&s.w, &f, &packet_size);
    seed_save(&s, "packet-framing");

    /* Failures, one per kind the primitives report. */
    seed_start(&s);
    p8(&s, OP_INT), pi64(&s, 0), pi64(&s, 4), bitsift_write_bits(&s.w, 3, 7);
    seed_save(&s, "fail-range");
    seed_start(&s);
    p8(&s, OP_BOOL), bitsift_write_bool(&s.w, false);
    p8(&s, OP_ALIGN), bitsift_write_bits(&s.w, 7, 0x40);
    seed_save(&s, "fail-align");
    seed_start(&s);
    p8(&s, OP_CHECK), p8(&s, 0), bitsift_write_uint32(&s.w, 0x12345679);
    seed_save(&s, "fail-check");
    seed_start(&s);
    p8(&s, OP_UINT32), bitsift_write_uint16(&s.w, 1);
    seed_save(&s, "fail-overflow");
    seed_start(&s);
    p8(&s, OP_STRING), ple(&s, 8, 2), bitsift_write_int(&s.w, 0, 7, 3);
    bitsift_write_bytes(&s.w, "a\0b", 3);
    seed_save(&s, "fail-string-nul");
    seed_start(&s);
    p8(&s, OP_STRING_VIEW), ple(&s, 8, 2), bitsift_write_int(&s.w, 0, 7, 2);
    bitsift_write_bytes(&s.w, "\xc3\x28", 2);
    seed_save(&s, "fail-string-utf8");
    seed_start(&s);
    p8(&s, OP_BITS), p8(&s, 0), bitsift_write_uint8(&s.w, 1);
    seed_save(&s, "fail-argument-width");
    seed_start(&s);
    p8(&s, OP_INT), pi64(&s, 5), pi64(&s, 4), bitsift_write_uint8(&s.w, 1);
    seed_save(&s, "fail-argument-range");
    seed_start(&s);
    p8(&s, OP_INT_RELATIVE), p8(&s, 0), pi64(&s, 100), bitsift_write_bits(&s.w, 6, 0);
    bitsift_write_uint32(&s.w, 50);
    seed_save(&s, "fail-int-relative");
    seed_start(&s);
    p8(&s, OP_PACKET_BEGIN), p8(&s, 1 | 2), ple(&s, 7, 4), p8(&s, 1);
    bitsift_write_uint32(&s.w, 0x01020304);
    bitsift_write_check(&s.w, BITSIFT_CHECK_END_OF_PACKET);
    seed_save(&s, "fail-crc");

    /* Serialize code's parts: quaternions, sparse arrays, compressed
     * floats with their steps known, and a failure's path. */
    seed_start(&s);
    static const unsigned s3_bits[] = {9, 2, 31};
    for (int i = 0; i < 3; i++) {
        bitsift_smallest_three q = {{0.5f, -0.5f, 0.5f, -0.5f}, 0, {0}};
        q.q[i] = 0.7f;
        p8(&s, OP_SMALLEST_THREE), p8(&s, s3_bits[i]);
        bitsift_write_smallest_three(&s.w, s3_bits[i], &q);
    }
    seed_save(&s, "smallest-three");
    static const char *const sparse_names[] = {"sparse-flags", "sparse-indices",
                                               "sparse-sentinel", "sparse-relative"};
    static bool slots[1024], none[1024];
    for (int i = 0; i < 1024; i += 7)
        slots[i] = true;
    for (int e = 0; e < 4; e++) {
        uint32_t max = e == 3 ? 1024 : 40;
        bitsift_sparse sp;
        seed_start(&s);
        p8(&s, OP_SPARSE), p8(&s, (unsigned)e), ple(&s, max, 3);
        bitsift_write_sparse_begin(&s.w, &sp, (bitsift_sparse_encoding)e, slots, max);
        while (bitsift_write_sparse_next(&s.w, &sp))
            bitsift_write_bool(&s.w, sp.index % 2 == 0);
        p8(&s, OP_SPARSE), p8(&s, (unsigned)e), ple(&s, max, 3);
        bitsift_write_sparse_begin(&s.w, &sp, (bitsift_sparse_encoding)e, none, max);
        while (bitsift_write_sparse_next(&s.w, &sp))
            bitsift_write_bool(&s.w, false);
        seed_save(&s, sparse_names[e]);
    }
    seed_start(&s);
    p8(&s, OP_COMPRESSED_FLOAT_STEPS), pfloat(&s, -4096.0f), pfloat(&s, 4096.0f),
        ple(&s, 819200, 4), p8(&s, 20);
    bitsift_write_compressed_float_steps(&s.w, -4096.0f, 4096.0f, 819200, 20, 12.5f);
    p8(&s, OP_COMPRESSED_FLOAT_STEPS), pfloat(&s, 0.0f), pfloat(&s, 1.0f), ple(&s, 100, 4),
        p8(&s, 7);
    bitsift_write_compressed_float_steps(&s.w, 0.0f, 1.0f, 100, 7, 0.25f);
    seed_save(&s, "compressed-float-steps");
    seed_start(&s); /* a width that is not the step count's */
    p8(&s, OP_COMPRESSED_FLOAT_STEPS), pfloat(&s, 0.0f), pfloat(&s, 1.0f), ple(&s, 100, 4),
        p8(&s, 6);
    bitsift_write_bits(&s.w, 6, 3);
    seed_save(&s, "fail-compressed-float-steps-width");
    seed_start(&s); /* a quantized value above the step count */
    p8(&s, OP_COMPRESSED_FLOAT_STEPS), pfloat(&s, 0.0f), pfloat(&s, 1.0f), ple(&s, 100, 4),
        p8(&s, 7);
    bitsift_write_bits(&s.w, 7, 127);
    seed_save(&s, "fail-compressed-float-steps-range");
    /* A sparse index not above the previous one, then the path of the
     * failure through 12 parts. */
    seed_start(&s);
    p8(&s, OP_SPARSE), p8(&s, BITSIFT_SPARSE_INDICES), ple(&s, 40, 3);
    bitsift_write_int(&s.w, 0, 40, 2);
    bitsift_write_int(&s.w, 0, 39, 5), bitsift_write_bool(&s.w, true);
    bitsift_write_int(&s.w, 0, 39, 5), bitsift_write_bool(&s.w, true);
    p8(&s, 12);
    for (unsigned i = 0; i < 12; i++) {
        p8(&s, i);
        if (i & 1)
            ple(&s, i * 3, 2);
    }
    seed_save(&s, "fail-sparse-order-path");
    seed_start(&s); /* sentinel: slot 5, then slot 3 */
    p8(&s, OP_SPARSE), p8(&s, BITSIFT_SPARSE_SENTINEL), ple(&s, 40, 3);
    bitsift_write_int(&s.w, 0, 40, 5), bitsift_write_bool(&s.w, true);
    bitsift_write_int(&s.w, 0, 40, 3), bitsift_write_bool(&s.w, true);
    seed_save(&s, "fail-sparse-sentinel-order");
    seed_start(&s); /* relative: a step past the last slot */
    p8(&s, OP_SPARSE), p8(&s, BITSIFT_SPARSE_RELATIVE), ple(&s, 40, 3);
    bitsift_write_int(&s.w, 0, 40, 1);
    bitsift_write_object_index(&s.w, -1, 1024, 900);
    seed_save(&s, "fail-sparse-relative-beyond");
    seed_start(&s); /* flags and indices cut short */
    p8(&s, OP_SPARSE), p8(&s, BITSIFT_SPARSE_FLAGS), ple(&s, 40, 3);
    bitsift_write_bits(&s.w, 12, 0x5a5);
    seed_save(&s, "fail-sparse-flags-short");
    seed_start(&s);
    p8(&s, OP_SPARSE), p8(&s, BITSIFT_SPARSE_INDICES), ple(&s, 40, 3);
    bitsift_write_int(&s.w, 0, 40, 30);
    seed_save(&s, "fail-sparse-indices-short");
    seed_start(&s); /* no slots, and more than a sparse array may have */
    p8(&s, OP_SPARSE), p8(&s, BITSIFT_SPARSE_FLAGS), ple(&s, 0, 3);
    p8(&s, OP_SPARSE), p8(&s, BITSIFT_SPARSE_RELATIVE), ple(&s, 65537, 3);
    bitsift_write_uint32(&s.w, 0);
    seed_save(&s, "fail-sparse-argument");
    seed_start(&s); /* a quaternion component of 1 bit */
    p8(&s, OP_SMALLEST_THREE), p8(&s, 1);
    bitsift_write_uint32(&s.w, 0);
    seed_save(&s, "fail-smallest-three-argument");
    seed_start(&s); /* a path of 40 parts, more than its buffer holds */
    p8(&s, OP_UINT32), p8(&s, 40);
    for (unsigned i = 0; i < 40; i++)
        p8(&s, i % 3 ? 10 : 9), (void)(i % 3 ? 0 : (ple(&s, i, 2), 0));
    bitsift_write_uint16(&s.w, 1);
    seed_save(&s, "fail-path-full");

    /* A record of the serialize macros, twice: valid, then with a player's
     * health out of its range (the failure's path players[9].health). */
    static struct part_snapshot snap;
    for (int k = 0; k < 16; k += 3) {
        snap.present[k] = true;
        snap.players[k].health = 10 * k;
        snap.players[k].position[0] = (float)k - 8.0f;
        snap.players[k].rotation.q[3] = 1.0f;
    }
    snap.scores[2] = 77;
    seed_start(&s);
    p8(&s, OP_SERIALIZE);
    serialize_snapshot(&s.w, BITSIFT_WRITE, &snap);
    seed_save(&s, "serialize-record");
    seed_start(&s);
    p8(&s, OP_SERIALIZE);
    snap.players[9].health = 250;
    bitsift_write_int(&s.w, 0, 16, 6); /* what serialize_snapshot writes, health by hand */
    for (int k = 0; k < 16; k += 3) {
        bitsift_write_int(&s.w, 0, 15, k);
        bitsift_write_bits(&s.w, 8, (uint64_t)snap.players[k].health);
        for (int c = 0; c < 3; c++)
            bitsift_write_compressed_float(&s.w, -64.0f, 64.0f, 0.5f, snap.players[k].position[c]);
        bitsift_write_smallest_three(&s.w, 9, &snap.players[k].rotation);
    }
    seed_save(&s, "fail-serialize-path");
}

/* fuzz_planted: one valid sealed packet with a distinctive magic, so that
 * the fuzzer's comparison tracing has a value to replace. */
static void planted_seeds(void)
{
    uint8_t packet[64];
    bitsift_writer w;
    bitsift_framing f;
    size_t size;
    bitsift_framing_init(&f, 0x504c4e54u);
    bitsift_writer_init(&w, packet, sizeof packet);
    bitsift_packet_write_begin(&w, &f, NULL, 0);
    bitsift_write_uint8(&w, 1);
    bitsift_write_uint32(&w, 0x11223344u);
    bitsift_write_int(&w, 0, 15, 12);
    bitsift_packet_write_end(&w, &f, &size);
    write_file("fuzz_planted", "valid", packet, size, "", 0);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: seedgen CORPUS_DIR\n");
        return 2;
    }
    corpus_dir = argv[1];
    make_dir(corpus_dir);
    reader_seeds();
    planted_seeds();
    return 0;
}
