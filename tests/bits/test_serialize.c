/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_serialize.c -- one serialize function per type serving read, write
 * and measure, written with the article's short macro names
 * (BITSIFT_SHORT_NAMES), on the article's PacketA, PacketB, PacketC and
 * RigidBody (whose velocity is only sent when it is not at rest).
 *
 * Checks: write, measure and read agree; values round-trip; the first
 * failing field returns at once and is named in the failure; reading into
 * an uninitialised struct is fine (the macros never load a destination in
 * READ mode -- UBSan's bool check catches a load of garbage bools).
 */
#define BITSIFT_SHORT_NAMES
#include "test_util.h"

#include <math.h>
#include <stdlib.h>

#define MAX_ELEMENTS 32

struct packet_a {
    uint64_t x, y, z;
};

static inline bool serialize_packet_a(void *stream, const int mode, struct packet_a *p)
{
    serialize_bits(stream, p->x, 32);
    serialize_bits(stream, p->y, 32);
    serialize_bits(stream, p->z, 32);
    return true;
}
BITSIFT_SERIALIZE_FUNCTIONS(packet_a, struct packet_a, serialize_packet_a)

struct packet_b {
    int64_t num_elements;
    int64_t elements[MAX_ELEMENTS];
};

static inline bool serialize_packet_b(void *stream, const int mode, struct packet_b *p)
{
    serialize_int(stream, p->num_elements, 0, MAX_ELEMENTS);
    for (int64_t i = 0; i < p->num_elements; i++)
        serialize_int(stream, p->elements[i], INT32_MIN, INT32_MAX);
    return true;
}
BITSIFT_SERIALIZE_FUNCTIONS(packet_b, struct packet_b, serialize_packet_b)

struct vector3 {
    float x, y, z;
};

static inline bool serialize_vector3(void *stream, const int mode, struct vector3 *v)
{
    serialize_float(stream, v->x);
    serialize_float(stream, v->y);
    serialize_float(stream, v->z);
    return true;
}

struct packet_c {
    struct vector3 position, velocity;
    char name[24];
    uint8_t blob[5];
};

static inline bool serialize_packet_c(void *stream, const int mode, struct packet_c *p)
{
    serialize_object(stream, serialize_vector3, &p->position);
    serialize_object(stream, serialize_vector3, &p->velocity);
    serialize_string(stream, p->name, sizeof p->name);
    serialize_bytes(stream, p->blob, sizeof p->blob);
    serialize_check(stream, BITSIFT_CHECK_CLASSIC);
    return true;
}
BITSIFT_SERIALIZE_FUNCTIONS(packet_c, struct packet_c, serialize_packet_c)

struct rigid_body {
    bool at_rest;
    float position[3];
    float orientation[4];
    float linear_velocity[3];
    float angular_velocity[3];
    int32_t object_index;
    uint16_t sequence, ack;
};

static inline bool serialize_rigid_body(void *stream, const int mode, struct rigid_body *b)
{
    serialize_bool(stream, b->at_rest);
    for (int i = 0; i < 3; i++)
        serialize_compressed_float(stream, b->position[i], -256.0f, 255.0f, 0.01f);
    for (int i = 0; i < 4; i++)
        serialize_compressed_float(stream, b->orientation[i], -1.0f, 1.0f, 0.001f);
    if (!b->at_rest) {
        for (int i = 0; i < 3; i++)
            serialize_compressed_float(stream, b->linear_velocity[i], -32.0f, 32.0f, 0.001f);
        for (int i = 0; i < 3; i++)
            serialize_compressed_float(stream, b->angular_velocity[i], -8.0f, 8.0f, 0.01f);
    } else if (mode == BITSIFT_READ) {
        /* At rest: nothing was sent, the velocity is zero. */
        for (int i = 0; i < 3; i++)
            b->linear_velocity[i] = b->angular_velocity[i] = 0.0f;
    }
    int32_t previous = -1;
    serialize_object_index(stream, previous, b->object_index, 1000);
    serialize_sequence_relative(stream, (uint16_t)1000, b->sequence);
    serialize_ack_relative(stream, b->sequence, b->ack);
    serialize_align(stream);
    serialize_check(stream, bitsift_hash_name("rigid body", 0));
    return true;
}
BITSIFT_SERIALIZE_FUNCTIONS(rigid_body, struct rigid_body, serialize_rigid_body)

/* ------------------------------------------------------------------ */

static void test_packet_a(void **state)
{
    (void)state;
    struct packet_a sent = {0xdeadbeef, 0, 0xffffffff}, got;
    uint8_t buf[16];
    bitsift_writer w;
    bitsift_writer_init(&w, buf, sizeof buf);
    assert_true(packet_a_write(&w, &sent));
    assert_int_equal(bitsift_writer_bit_pos(&w), 96);
    assert_int_equal(packet_a_measure(&sent), 96);
    assert_int_equal(test_field(buf, 32, 32), 0);
    assert_int_equal(test_field(buf, 64, 32), 0xffffffff);

    bitsift_reader r;
    memset(&got, 0x55, sizeof got);
    bitsift_reader_init(&r, buf, 12);
    assert_true(packet_a_read(&r, &got));
    assert_memory_equal(&got, &sent, sizeof got);

    /* Truncated: fails on z, names it, y already read, z untouched. */
    memset(&got, 0x55, sizeof got);
    bitsift_reader_init(&r, buf, 11);
    assert_false(packet_a_read(&r, &got));
    assert_reader_failed(&r, BITSIFT_E_OVERFLOW, 64);
    assert_string_equal(bitsift_reader_failure(&r)->field, "p->z");
    assert_int_equal(got.y, 0);
    assert_int_equal(got.z, 0x5555555555555555ull);

    /* A value wider than its field: the writer names it too. */
    sent.y = 1ull << 32;
    bitsift_writer_init(&w, buf, sizeof buf);
    assert_false(packet_a_write(&w, &sent));
    assert_writer_failed(&w, BITSIFT_E_VALUE);
    assert_string_equal(bitsift_writer_failure(&w)->field, "p->y");
    assert_int_equal(packet_a_measure(&sent), 0); /* measure reports failure as 0 */
}

static void test_packet_b(void **state)
{
    (void)state;
    uint64_t rng = 40;
    for (int round = 0; round < 200; round++) {
        struct packet_b sent, got;
        memset(&sent, 0, sizeof sent);
        sent.num_elements = (int64_t)test_below(&rng, MAX_ELEMENTS + 1);
        for (int64_t i = 0; i < sent.num_elements; i++)
            sent.elements[i] = (int32_t)test_rand(&rng);
        uint8_t buf[256];
        bitsift_writer w;
        bitsift_writer_init(&w, buf, sizeof buf);
        assert_true(packet_b_write(&w, &sent));
        uint64_t bits = 6 + 32 * (uint64_t)sent.num_elements;
        assert_int_equal(bitsift_writer_bit_pos(&w), bits);
        assert_int_equal(packet_b_measure(&sent), bits);

        bitsift_reader r;
        memset(&got, 0xa5, sizeof got);
        bitsift_reader_init(&r, buf, bitsift_writer_bytes(&w));
        assert_true(packet_b_read(&r, &got));
        assert_int_equal(got.num_elements, sent.num_elements);
        assert_memory_equal(got.elements, sent.elements,
                            (size_t)sent.num_elements * sizeof sent.elements[0]);
    }
    /* num_elements above MAX_ELEMENTS on the wire: range, named. */
    uint8_t buf[8] = {33};
    bitsift_reader r;
    struct packet_b got;
    bitsift_reader_init(&r, buf, sizeof buf);
    assert_false(packet_b_read(&r, &got));
    assert_reader_failed(&r, BITSIFT_E_RANGE, 0);
    assert_string_equal(bitsift_reader_failure(&r)->field, "p->num_elements");
}

static void test_packet_c(void **state)
{
    (void)state;
    struct packet_c sent = {
        {1.5f, -0.0f, NAN}, {INFINITY, 1e-40f, -3.25f}, "na\xc3\xafve", {1, 2, 3, 4, 5}};
    uint32_t nan_payload = 0x7fc0beef;
    memcpy(&sent.position.z, &nan_payload, sizeof nan_payload);
    uint8_t buf[128];
    bitsift_writer w;
    bitsift_writer_init(&w, buf, sizeof buf);
    assert_true(packet_c_write(&w, &sent));
    assert_int_equal(bitsift_writer_bit_pos(&w), packet_c_measure(&sent));
    /* 6 floats, length in 5 bits, align, 6 bytes, 5 bytes, check. */
    assert_int_equal(packet_c_measure(&sent), 192 + 5 + 3 + 48 + 40 + 32);

    struct packet_c got;
    memset(&got, 0x55, sizeof got);
    bitsift_reader r;
    bitsift_reader_init(&r, buf, bitsift_writer_bytes(&w));
    assert_true(packet_c_read(&r, &got));
    assert_memory_equal(&got.position, &sent.position, sizeof got.position);
    assert_memory_equal(&got.velocity, &sent.velocity, sizeof got.velocity);
    assert_string_equal(got.name, sent.name);
    assert_memory_equal(got.blob, sent.blob, sizeof got.blob);

    /* A damaged check marker is reported as the "check" field. */
    buf[bitsift_writer_bytes(&w) - 1] ^= 0x10;
    bitsift_reader_init(&r, buf, bitsift_writer_bytes(&w));
    assert_false(packet_c_read(&r, &got));
    assert_reader_failed(&r, BITSIFT_E_CHECK, 8 * bitsift_writer_bytes(&w) - 32);
    assert_string_equal(bitsift_reader_failure(&r)->field, "check");
}

static void test_rigid_body(void **state)
{
    (void)state;
    struct rigid_body moving = {false,
                                {12.5f, -3.25f, 100.0f},
                                {0.0f, 0.6f, 0.0f, 0.8f},
                                {1.5f, 0.0f, -9.81f},
                                {0.1f, 0.2f, -0.3f},
                                999,
                                2,
                                65500};
    struct rigid_body resting = moving;
    resting.at_rest = true;
    uint64_t moving_bits = rigid_body_measure(&moving);
    uint64_t resting_bits = rigid_body_measure(&resting);
    unsigned velocity_bits = 0, bits;
    uint32_t steps;
    assert_true(bitsift_compressed_float_steps(-32.0f, 32.0f, 0.001f, &steps, &bits));
    velocity_bits += 3 * bits;
    assert_true(bitsift_compressed_float_steps(-8.0f, 8.0f, 0.01f, &steps, &bits));
    velocity_bits += 3 * bits;
    assert_true(moving_bits > resting_bits);
    /* The align before the check can absorb part of the difference. */
    assert_true(moving_bits - resting_bits <= velocity_bits + 7);
    assert_true(moving_bits - resting_bits + 7 >= velocity_bits);

    const struct rigid_body *bodies[2] = {&moving, &resting};
    for (int i = 0; i < 2; i++) {
        uint8_t buf[64];
        bitsift_writer w;
        bitsift_writer_init(&w, buf, sizeof buf);
        assert_true(rigid_body_write(&w, bodies[i]));
        assert_int_equal(bitsift_writer_bit_pos(&w), i ? resting_bits : moving_bits);

        /* Read into uninitialised memory: garbage bools must not be loaded. */
        struct rigid_body *got = malloc(sizeof *got);
        memset(got, 0x55, sizeof *got);
        bitsift_reader r;
        bitsift_reader_init(&r, buf, bitsift_writer_bytes(&w));
        assert_true(rigid_body_read(&r, got));
        assert_int_equal(got->at_rest, bodies[i]->at_rest);
        assert_int_equal(got->object_index, 999);
        assert_int_equal(got->sequence, 2);
        assert_int_equal(got->ack, 65500);
        for (int k = 0; k < 3; k++) {
            assert_true(fabsf(got->position[k] - bodies[i]->position[k]) <= 0.01f);
            if (bodies[i]->at_rest) {
                assert_true(got->linear_velocity[k] == 0.0f);
            } else {
                assert_true(fabsf(got->linear_velocity[k] - bodies[i]->linear_velocity[k]) <=
                            0.001f);
                assert_true(fabsf(got->angular_velocity[k] - bodies[i]->angular_velocity[k]) <=
                            0.01f);
            }
        }
        /* Every truncation fails and never reads on. */
        for (size_t n = 0; n < bitsift_writer_bytes(&w); n++) {
            uint8_t *copy = n ? malloc(n) : NULL;
            if (n)
                memcpy(copy, buf, n);
            bitsift_reader_init(&r, copy, n);
            assert_false(rigid_body_read(&r, got));
            assert_int_equal(bitsift_reader_failure(&r)->kind, BITSIFT_E_OVERFLOW);
            assert_non_null(bitsift_reader_failure(&r)->field);
            free(copy);
        }
        free(got);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_packet_a),
        cmocka_unit_test(test_packet_b),
        cmocka_unit_test(test_packet_c),
        cmocka_unit_test(test_rigid_body),
    };
    return cmocka_run_group_tests_name("serialize", tests, NULL, NULL);
}
