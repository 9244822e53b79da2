/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * hello_packet.c -- the smallest complete use of libbitsift: one serialize
 * function, written once, writes a framed packet (CRC32 over an unsent
 * protocol id, end-of-packet check) and reads it back, then a damaged copy
 * is refused. `make` builds it as examples/hello-packet: run
 * ./examples/hello-packet. Built against an installed libbitsift, see
 * LINKING in libbitsift(3) (pkg-config, and an rpath or LD_LIBRARY_PATH
 * for a prefix the loader does not search).
 */
#include <stdio.h>

#include "bitsift.h"

#define PROTOCOL_ID 0x62697473u /* "bits" */

/* The article's RigidBody: an object at rest sends no velocity. */
struct rigid_body {
    bool at_rest;
    float position[3];
    int64_t health;
    float linear_velocity[3];
};

static inline bool serialize_rigid_body(void *stream, const int mode, struct rigid_body *b)
{
    bitsift_serialize_bool(stream, mode, b->at_rest);
    for (int i = 0; i < 3; i++)
        bitsift_serialize_compressed_float(stream, mode, b->position[i], -256.0f, 255.0f, 0.01f);
    bitsift_serialize_int(stream, mode, b->health, 0, 100);
    if (!b->at_rest)
        for (int i = 0; i < 3; i++)
            bitsift_serialize_compressed_float(stream, mode, b->linear_velocity[i], -32.0f, 32.0f,
                                               0.001f);
    bitsift_serialize_check(stream, mode, BITSIFT_CHECK_CLASSIC);
    return true;
}
BITSIFT_SERIALIZE_FUNCTIONS(rigid_body, struct rigid_body, serialize_rigid_body)

static void print_body(const char *label, const struct rigid_body *b)
{
    printf("%s: at_rest=%s position=(%.2f, %.2f, %.2f) health=%lld", label,
           b->at_rest ? "true" : "false", b->position[0], b->position[1], b->position[2],
           (long long)b->health);
    if (!b->at_rest)
        printf(" velocity=(%.3f, %.3f, %.3f)", b->linear_velocity[0], b->linear_velocity[1],
               b->linear_velocity[2]);
    printf("\n");
}

int main(void)
{
    bitsift_framing framing;
    bitsift_framing_init(&framing, PROTOCOL_ID);

    struct rigid_body sent = {false, {12.5f, -3.25f, 100.0f}, 87, {1.5f, 0.0f, -9.81f}};
    uint8_t packet[64];
    bitsift_writer w;
    size_t size;
    bitsift_writer_init(&w, packet, sizeof packet);
    if (!bitsift_packet_write_begin(&w, &framing, NULL, 0) || !rigid_body_write(&w, &sent) ||
        !bitsift_packet_write_end(&w, &framing, &size)) {
        fprintf(stderr, "hello-packet: write failed: %s\n",
                bitsift_error_string(bitsift_writer_failure(&w)->kind));
        return 1;
    }
    print_body("sent    ", &sent);
    printf("packet   %zu bytes (payload %llu bits):", size,
           (unsigned long long)rigid_body_measure(&sent));
    for (size_t i = 0; i < size; i++)
        printf(" %02x", packet[i]);
    printf("\n");

    struct rigid_body got = {0};
    bitsift_reader r;
    uint32_t type;
    bitsift_reader_init(&r, packet, size);
    if (!bitsift_packet_read_begin(&r, &framing, &type) || !rigid_body_read(&r, &got) ||
        !bitsift_packet_read_end(&r, &framing)) {
        char why[256];
        bitsift_failure_format(bitsift_reader_failure(&r), why, sizeof why);
        fprintf(stderr, "hello-packet: read failed: %s\n", why);
        return 1;
    }
    print_body("received", &got);

    /* One flipped bit anywhere fails the CRC before the payload is read. */
    packet[size / 2] ^= 0x10;
    bitsift_reader_init(&r, packet, size);
    if (bitsift_packet_read_begin(&r, &framing, &type)) {
        fprintf(stderr, "hello-packet: damaged packet was accepted\n");
        return 1;
    }
    char why[256];
    bitsift_failure_format(bitsift_reader_failure(&r), why, sizeof why);
    printf("damaged  refused: %s\n", why);
    return 0;
}
