/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * decode_test.c -- the schema decoder against packets written by the core
 * serializer (the C a game would have written by hand), failures of
 * damaged packets (kind, path, what was decoded before), trees built by
 * hand, protocol detection, and a storm of mutated packets. TAP output.
 *
 * Schemas come from $top_srcdir/examples.
 */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bitsift.h"

static int test_count, failed_count;

#define CHECK(cond, ...)                                 \
    do {                                                 \
        test_count++;                                    \
        if (cond) {                                      \
            printf("ok %d - ", test_count);              \
        } else {                                         \
            failed_count++;                              \
            printf("not ok %d - ", test_count);          \
        }                                                \
        printf(__VA_ARGS__);                             \
        printf("\n");                                    \
    } while (0)

static bitsift_schema *load_example(const char *name)
{
    const char *top = getenv("top_srcdir");
    char path[4096];
    snprintf(path, sizeof path, "%s/examples/%s.bss", top ? top : ".", name);
    bitsift_schema_error err;
    bitsift_schema *s = bitsift_schema_load_file(path, &err);
    if (!s) {
        printf("Bail out! %s\n", err.message);
        exit(1);
    }
    return s;
}

static const bitsift_value *value_at(bitsift_tree *t, const char *path)
{
    bitsift_node *n = bitsift_tree_find(t, path);
    return n ? bitsift_node_value(n) : NULL;
}

static int64_t int_at(bitsift_tree *t, const char *path)
{
    const bitsift_value *v = value_at(t, path);
    if (!v)
        return INT64_MIN;
    switch (v->kind) {
    case BITSIFT_VALUE_UINT:
        return (int64_t)v->u;
    case BITSIFT_VALUE_BOOL:
        return v->b;
    default:
        return v->i;
    }
}

static float float_at(bitsift_tree *t, const char *path)
{
    const bitsift_value *v = value_at(t, path);
    return v && v->kind == BITSIFT_VALUE_FLOAT ? v->f : NAN;
}

/* ---- packets written by the core serializer ------------------------------------ */

static void test_article(void)
{
    bitsift_schema *s = load_example("article");
    const bitsift_framing *f = bitsift_schema_framing(s);
    CHECK(f->protocol_id == bitsift_hash_name("article/1", 0),
          "article protocol id is hash_name(\"article/1\")");
    CHECK(bitsift_schema_packet_count(s) == 5 && f->num_types == 5, "article has 5 packet types");
    bitsift_tree *t = bitsift_tree_create(s);
    uint8_t buf[256];
    bitsift_writer w;
    bitsift_result res;
    size_t size = 0;

    /* PacketB: serialize_int(numElements, 0, 32), then bits(32) each. */
    bitsift_writer_init(&w, buf, sizeof buf);
    bitsift_packet_write_begin(&w, f, NULL, 1);
    bitsift_write_int(&w, 0, 32, 3);
    bitsift_write_bits(&w, 32, 0xdeadbeef);
    bitsift_write_bits(&w, 32, 7);
    bitsift_write_bits(&w, 32, 0xffffffff);
    CHECK(bitsift_packet_write_end(&w, f, &size), "core writes PacketB");
    CHECK(bitsift_decode_tree(s, buf, size, BITSIFT_DECODE_STRICT, t, &res) == BITSIFT_OK,
          "PacketB decodes");
    CHECK(res.packet_type == 1 && strcmp(res.packet_name, "PacketB") == 0, "type is PacketB");
    CHECK(int_at(t, "numElements") == 3 && int_at(t, "elements[0]") == 0xdeadbeef &&
              int_at(t, "elements[1]") == 7 && int_at(t, "elements[2]") == 0xffffffff,
          "PacketB values");
    CHECK(res.bits == bitsift_writer_bit_pos(&w) - (bitsift_writer_bit_pos(&w) % 8 ? 0 : 0) &&
              (res.bits + 7) / 8 == size,
          "bits consumed %llu match the %zu bytes written", (unsigned long long)res.bits, size);
    uint8_t again[256];
    size_t size2 = 0;
    CHECK(bitsift_encode(s, t, again, sizeof again, &size2, &res) == BITSIFT_OK &&
              size2 == size && memcmp(buf, again, size) == 0,
          "PacketB decode -> encode gives the same bytes");

    /* RigidBodyCompressed, at rest: position, smallest three, bool. */
    bitsift_writer_init(&w, buf, sizeof buf);
    bitsift_packet_write_begin(&w, f, NULL, 4);
    bitsift_write_compressed_float(&w, -256, 255.99f, 0.01f, 12.5f);
    bitsift_write_compressed_float(&w, -256, 255.99f, 0.01f, -3.25f);
    bitsift_write_compressed_float(&w, -256, 255.99f, 0.01f, 100.0f);
    bitsift_write_bits(&w, 2, 3);   /* w is the largest */
    bitsift_write_bits(&w, 9, 255); /* x, y, z near 0 */
    bitsift_write_bits(&w, 9, 256);
    bitsift_write_bits(&w, 9, 255);
    bitsift_write_bool(&w, true);
    bitsift_packet_write_end(&w, f, &size);
    CHECK(bitsift_decode_tree(s, buf, size, BITSIFT_DECODE_STRICT, t, &res) == BITSIFT_OK,
          "RigidBodyCompressed decodes");
    CHECK(fabsf(float_at(t, "position.x") - 12.5f) < 0.01f &&
              fabsf(float_at(t, "position.y") + 3.25f) < 0.01f &&
              fabsf(float_at(t, "position.z") - 100.0f) < 0.01f,
          "compressed position within resolution");
    CHECK(int_at(t, "orientation.largest") == 3 && float_at(t, "orientation.w") > 0.99f &&
              fabsf(float_at(t, "orientation.x")) < 0.01f,
          "smallest three: w is largest and rebuilt");
    CHECK(int_at(t, "at_rest") == 1 && !bitsift_tree_find(t, "linear_velocity"),
          "at rest: velocities absent from the tree");
    CHECK(bitsift_encode(s, t, again, sizeof again, &size2, &res) == BITSIFT_OK &&
              size2 == size && memcmp(buf, again, size) == 0,
          "RigidBodyCompressed decode -> encode gives the same bytes");

    /* A tree built by hand, like the CLI does from NDJSON: the count
     * field is left out and taken from the array. */
    bitsift_tree_reset(t, 1);
    bitsift_node *arr = bitsift_node_add_array(t, NULL, "elements");
    for (int i = 0; i < 4; i++) {
        bitsift_value v = {.kind = BITSIFT_VALUE_INT};
        v.i = i * 1000;
        bitsift_node_add_value(t, arr, NULL, &v);
    }
    CHECK(bitsift_encode(s, t, buf, sizeof buf, &size, &res) == BITSIFT_OK,
          "hand-built PacketB encodes (count derived)");
    CHECK(bitsift_decode_tree(s, buf, size, 0, t, &res) == BITSIFT_OK &&
              int_at(t, "numElements") == 4 && int_at(t, "elements[3]") == 3000,
          "and decodes back with numElements = 4");

    /* Damage: numElements raw 33 (> 32) with a valid CRC. */
    bitsift_writer_init(&w, buf, sizeof buf);
    bitsift_packet_write_begin(&w, f, NULL, 1);
    bitsift_write_bits(&w, 6, 33);
    bitsift_packet_write_end(&w, f, &size);
    bitsift_decode(s, buf, size, 0, NULL, &res);
    CHECK(res.status == BITSIFT_E_RANGE && strcmp(res.path, "numElements") == 0 &&
              res.failure.bit == 35 && res.failure.expected == 32 && res.failure.got == 33,
          "count 33 fails: range at bit 35 in numElements, expected 32 got 33 (%s at %llu)",
          res.path, (unsigned long long)res.failure.bit);

    /* Damage: flip a payload bit, CRC no longer matches. */
    bitsift_writer_init(&w, buf, sizeof buf);
    bitsift_packet_write_begin(&w, f, NULL, 0);
    for (int i = 0; i < 3; i++)
        bitsift_write_bits(&w, 32, (uint64_t)i);
    bitsift_packet_write_end(&w, f, &size);
    buf[6] ^= 0x10;
    bitsift_decode(s, buf, size, 0, NULL, &res);
    CHECK(res.status == BITSIFT_E_CRC && strcmp(res.path, "crc") == 0 && res.packet_type == -1,
          "flipped bit fails the CRC at path crc");
    /* Truncated, CRC ignored: overflow in z, x and y delivered first. */
    buf[6] ^= 0x10;
    bitsift_decode_tree(s, buf, 10, BITSIFT_DECODE_NO_CRC, t, &res); /* y ends at bit 99 */
    CHECK(res.status == BITSIFT_E_OVERFLOW && strcmp(res.path, "y") == 0,
          "truncated PacketA: overflow in y (got %s %s)", bitsift_error_name(res.status),
          res.path);
    CHECK(bitsift_tree_find(t, "x") && !bitsift_tree_find(t, "y") && res.fields == 1,
          "the field before the failure (x) stays in the tree");
    bitsift_tree_free(t);
    bitsift_schema_free(s);
}

/* ---- the shooter protocol ----------------------------------------------------- */

struct counter {
    int fields, absent, meta;
    uint64_t bits;
    char last_path[BITSIFT_PATH_MAX];
};

static bool count_field(void *ctx, const bitsift_event *ev)
{
    struct counter *c = ctx;
    c->fields++;
    c->bits += ev->bits;
    c->absent += (ev->flags & BITSIFT_EVENT_ABSENT) != 0;
    c->meta += (ev->flags & BITSIFT_EVENT_ARRAY_META) != 0;
    snprintf(c->last_path, sizeof c->last_path, "%s", ev->path);
    return true;
}

static void test_shooter(void)
{
    bitsift_schema *s = load_example("shooter");
    const bitsift_framing *f = bitsift_schema_framing(s);
    bitsift_tree *t = bitsift_tree_create(s);
    uint8_t buf[4096];
    bitsift_writer w;
    bitsift_result res;
    size_t size = 0;
    CHECK(strcmp(bitsift_schema_name(s), "shooter") == 0 &&
              bitsift_schema_packet_index(s, "snapshot") == 3,
          "shooter: name and packet index");

    /* A snapshot as the game's own C would write it. */
    bitsift_writer_init(&w, buf, sizeof buf);
    bitsift_packet_write_begin(&w, f, NULL, 3);
    bitsift_write_uint16(&w, 65530);                   /* baseline */
    bitsift_write_sequence_relative(&w, 65530, 4);     /* sequence wraps */
    bitsift_write_ack_relative(&w, 4, 65535);          /* ack */
    bitsift_write_bits(&w, 32, 0x0f0f0f0f);            /* ack_bits */
    bitsift_write_int(&w, 0, 1000000000, 5000);        /* baseline_tick */
    bitsift_write_int_relative(&w, 5000, 5003);        /* server_tick */
    bitsift_write_check(&w, bitsift_hash_name("snapshot header", 0));
    bitsift_write_int(&w, 0, 16, 0);                   /* no players */
    bitsift_write_check(&w, bitsift_hash_name("players", 0));
    bitsift_write_int(&w, 0, 32, 2);                   /* two entities */
    bitsift_write_object_index(&w, -1, 1023, 7);       /* id 7 */
    bitsift_write_int(&w, 0, 15, 3);                   /* door */
    for (int k = 0; k < 3; k++)
        bitsift_write_compressed_float(&w, -4096, 4096, 0.01f, 10.0f * k);
    bitsift_write_bool(&w, true);                      /* open */
    bitsift_write_compressed_float(&w, 0, 1, 0.01f, 0.5f);
    bitsift_write_object_index(&w, 7, 1023, 300);      /* id 300 */
    bitsift_write_int(&w, 0, 15, 2);                   /* pickup */
    for (int k = 0; k < 3; k++)
        bitsift_write_compressed_float(&w, -4096, 4096, 0.01f, -1.0f);
    bitsift_write_int(&w, 0, 31, 17);                  /* item */
    bitsift_write_bool(&w, false);                     /* available */
    bitsift_write_check(&w, bitsift_hash_name("entities", 0));
    CHECK(bitsift_packet_write_end(&w, f, &size), "core writes a snapshot");
    CHECK(bitsift_decode_tree(s, buf, size, BITSIFT_DECODE_STRICT, t, &res) == BITSIFT_OK,
          "snapshot decodes");
    CHECK(int_at(t, "baseline") == 65530 && int_at(t, "sequence") == 4 &&
              int_at(t, "ack") == 65535 && int_at(t, "server_tick") == 5003,
          "sequence_relative wraps, ack_relative, int_relative");
    CHECK(int_at(t, "entities[0].id") == 7 && int_at(t, "entities[1].id") == 300,
          "entity ids relative to the previous element");
    const bitsift_value *kind = value_at(t, "entities[0].kind");
    CHECK(kind && kind->kind == BITSIFT_VALUE_ENUM && strcmp(kind->name, "door") == 0,
          "enum decodes by name");
    CHECK(int_at(t, "entities[0].open") == 1 && int_at(t, "entities[1].item") == 17 &&
              !bitsift_tree_find(t, "entities[0].item"),
          "conditional groups follow the entity kind");
    uint8_t again[4096];
    size_t size2;
    CHECK(bitsift_encode(s, t, again, sizeof again, &size2, &res) == BITSIFT_OK &&
              size2 == size && memcmp(again, buf, size) == 0,
          "snapshot decode -> encode gives the same bytes");

    /* Bit accounting: leaves + framing + bookkeeping = every bit. */
    struct counter c = {0};
    bitsift_visitor v = {count_field, NULL, NULL, &c};
    bitsift_decode(s, buf, size, 0, &v, &res);
    CHECK(res.status == BITSIFT_OK && c.bits == res.bits && c.meta == 1,
          "visitor bits add up to %llu (got %llu), 1 bookkeeping event (the inline count)",
          (unsigned long long)res.bits, (unsigned long long)c.bits);
    CHECK(c.absent > 0, "absent conditional fields are reported");

    /* Damage: a wrong check marker between sections. */
    uint8_t bad[4096];
    memcpy(bad, buf, size);
    /* The players check starts at byte 19 (after the header check). */
    bitsift_decode(s, buf, size, 0, NULL, &res);
    size_t check_byte = 0;
    {
        /* find the header check marker's bytes */
        uint32_t m = bitsift_hash_name("snapshot header", 0);
        for (size_t i = 0; i + 4 <= size; i++)
            if (bad[i] == (uint8_t)m && bad[i + 1] == (uint8_t)(m >> 8) &&
                bad[i + 2] == (uint8_t)(m >> 16) && bad[i + 3] == (uint8_t)(m >> 24))
                check_byte = i;
    }
    bad[check_byte] ^= 1;
    bitsift_decode(s, bad, size, BITSIFT_DECODE_NO_CRC, NULL, &res);
    CHECK(res.status == BITSIFT_E_CHECK && strcmp(res.path, "check") == 0 &&
              res.failure.expected == bitsift_hash_name("snapshot header", 0),
          "damaged check marker: check failure at path check");

    /* Damage: entity kind 9 has no name. Rewrite with raw bits. */
    bitsift_writer_init(&w, buf, sizeof buf);
    bitsift_packet_write_begin(&w, f, NULL, 3);
    bitsift_write_uint16(&w, 1);
    bitsift_write_sequence_relative(&w, 1, 2);
    bitsift_write_ack_relative(&w, 2, 1);
    bitsift_write_bits(&w, 32, 0);
    bitsift_write_int(&w, 0, 1000000000, 10);
    bitsift_write_int_relative(&w, 10, 11);
    bitsift_write_check(&w, bitsift_hash_name("snapshot header", 0));
    bitsift_write_int(&w, 0, 16, 0);
    bitsift_write_check(&w, bitsift_hash_name("players", 0));
    bitsift_write_int(&w, 0, 32, 1);
    bitsift_write_object_index(&w, -1, 1023, 3);
    bitsift_write_int(&w, 0, 15, 9);
    bitsift_packet_write_end(&w, f, &size);
    memset(&c, 0, sizeof c);
    bitsift_decode(s, buf, size, 0, &v, &res);
    CHECK(res.status == BITSIFT_E_RANGE && strcmp(res.path, "entities[0].kind") == 0,
          "unknown enum value: range in entities[0].kind (got %s %s)",
          bitsift_error_name(res.status), res.path);
    CHECK(strcmp(c.last_path, "entities[0].id") == 0,
          "the visitor saw every field up to the failure (last: %s)", c.last_path);

    /* Disconnect: a default for an absent field. */
    bitsift_writer_init(&w, buf, sizeof buf);
    bitsift_packet_write_begin(&w, f, NULL, 4);
    bitsift_write_int(&w, 0, 5, 0); /* quit */
    bitsift_packet_write_end(&w, f, &size);
    memset(&c, 0, sizeof c);
    CHECK(bitsift_decode(s, buf, size, BITSIFT_DECODE_STRICT, &v, &res) == BITSIFT_OK &&
              c.absent == 2,
          "disconnect(quit): message and permanent absent");

    /* Enum given by name in a hand-built tree. */
    bitsift_tree_reset(t, 4);
    bitsift_value name = {.kind = BITSIFT_VALUE_STRING};
    name.data = (const uint8_t *)"banned";
    name.size = 6;
    bitsift_node_add_value(t, NULL, "reason", &name);
    bitsift_value msg = {.kind = BITSIFT_VALUE_STRING};
    msg.data = (const uint8_t *)"cheating";
    msg.size = 8;
    bitsift_node_add_value(t, NULL, "message", &msg);
    bitsift_value yes = {.kind = BITSIFT_VALUE_BOOL};
    yes.b = true;
    bitsift_node_add_value(t, NULL, "permanent", &yes);
    CHECK(bitsift_encode(s, t, buf, sizeof buf, &size, &res) == BITSIFT_OK &&
              bitsift_decode_tree(s, buf, size, BITSIFT_DECODE_STRICT, t, &res) == BITSIFT_OK &&
              int_at(t, "reason") == 3 && int_at(t, "permanent") == 1,
          "enum set by name encodes");
    /* A missing field is an encode error naming it. */
    bitsift_tree_reset(t, 1);
    CHECK(bitsift_encode(s, t, buf, sizeof buf, &size, &res) == BITSIFT_E_VALUE &&
              strcmp(res.path, "client_salt") == 0,
          "missing field: value error at client_salt (got %s)", res.path);
    /* A value out of range is refused by the encoder. */
    bitsift_tree_random(t, 0, 1, 50);
    bitsift_node *rev = bitsift_tree_find(t, "revision");
    bitsift_value four = {.kind = BITSIFT_VALUE_INT};
    four.i = 4;
    if (rev)
        bitsift_node_set_value(t, rev, &four);
    CHECK(rev && bitsift_encode(s, t, buf, sizeof buf, &size, &res) == BITSIFT_E_VALUE &&
              strcmp(res.path, "revision") == 0,
          "fixed value constraint enforced by the encoder");
    bitsift_tree_free(t);
    bitsift_schema_free(s);
}

/* ---- introspection and stopping --------------------------------------------------- */

static bool stop_after_three(void *ctx, const bitsift_event *ev)
{
    (void)ev;
    return ++*(int *)ctx < 3;
}

static void test_introspection(void)
{
    bitsift_schema *s = load_example("article");
    int a = bitsift_schema_packet_index(s, "PacketA");
    /* crc 32 + type 3 + 3 x 32 + end check 32, plus up to 7 bits of align */
    CHECK(a == 0 && bitsift_schema_packet_min_bits(s, 0) == 163 &&
              bitsift_schema_packet_max_bits(s, 0) == 170,
          "PacketA costs 163..170 bits");
    unsigned count = bitsift_schema_field_count(s);
    bool found = false;
    for (unsigned id = 0; id < count; id++) {
        bitsift_field_info info;
        if (!bitsift_schema_field_info(s, id, &info))
            break;
        if (strcmp(info.path, "orientation.w") == 0 && info.packet_type == 4 &&
            info.depth == 2 && info.max_bits == 9)
            found = true;
    }
    CHECK(found, "field info: RigidBodyCompressed orientation.w, depth 2, up to 9 bits");
    CHECK(strcmp(bitsift_field_type_name(BITSIFT_FIELD_OBJECT_INDEX), "object_index") == 0 &&
              strcmp(bitsift_field_type_name((bitsift_field_type)99), "unknown") == 0,
          "field type names");
    bitsift_tree *t = bitsift_tree_create(s);
    uint8_t buf[256];
    size_t size;
    bitsift_result res;
    bitsift_tree_random(t, 0, 9, 50);
    bitsift_encode(s, t, buf, sizeof buf, &size, &res);
    int seen = 0;
    bitsift_visitor v = {stop_after_three, NULL, NULL, &seen};
    CHECK(bitsift_decode(s, buf, size, 0, &v, &res) == BITSIFT_OK && res.stopped && seen == 3,
          "a visitor returning false stops the decode (status ok, stopped)");
    bitsift_tree_free(t);
    bitsift_schema_free(s);

    bitsift_schema *sh = load_example("shooter");
    for (unsigned id = 0; id < bitsift_schema_field_count(sh); id++) {
        bitsift_field_info info;
        bitsift_schema_field_info(sh, id, &info);
        if (strcmp(info.path, "entities[].kind") == 0) {
            CHECK(strcmp(bitsift_schema_enum_name(sh, id, 3), "door") == 0 &&
                      bitsift_schema_enum_name(sh, id, 9) == NULL,
                  "enum names by field id");
            break;
        }
    }
    bitsift_schema_free(sh);

    /* A smallest-three element of an array: its parts are the element's
     * ("q[].largest"), with one dot, as every other path spells them. */
    static const char text[] = "protocol p { id 1; }\n"
                               "packet a { smallest_three(9) q[4]; smallest_three(9) r; }\n";
    bitsift_schema_error err;
    bitsift_schema *q = bitsift_schema_compile(text, sizeof text - 1, "s3.bss", &err);
    bool element_part = false, plain_part = false, no_empty_step = q != NULL;
    for (unsigned id = 0; q && id < bitsift_schema_field_count(q); id++) {
        bitsift_field_info info;
        bitsift_schema_field_info(q, id, &info);
        element_part |= strcmp(info.path, "q[].largest") == 0;
        plain_part |= strcmp(info.path, "r.w") == 0;
        if (strstr(info.path, "..") || info.path[0] == '.')
            no_empty_step = false;
    }
    CHECK(element_part && plain_part && no_empty_step,
          "smallest-three parts: q[].largest and r.w, no path with an empty step");
    bitsift_schema_free(q);
}

/* A decoded tree owns its byte strings and strings: the packet may go
 * as soon as bitsift_decode_tree returns. */
static void test_tree_owns_bytes(void)
{
    static const char text[] = "protocol owned { id 3; }\n"
                               "packet t { bytes(4) b; string(8) s; uint8 after; }\n";
    bitsift_schema_error err;
    bitsift_schema *s = bitsift_schema_compile(text, strlen(text), "owned", &err);
    bitsift_tree *t = s ? bitsift_tree_create(s) : NULL;
    CHECK(t != NULL, "schema of a byte string and a string compiles");
    if (!t) {
        bitsift_schema_free(s);
        return;
    }
    bitsift_value b = {.kind = BITSIFT_VALUE_BYTES, .data = (const uint8_t *)"\x01\x02\x03\x04", .size = 4};
    bitsift_value str = {.kind = BITSIFT_VALUE_STRING, .data = (const uint8_t *)"hello", .size = 5};
    bitsift_value u = {.kind = BITSIFT_VALUE_UINT, .u = 7};
    uint8_t packet[64];
    size_t size = 0;
    bitsift_result res;
    bool built = bitsift_tree_reset(t, 0) && bitsift_node_add_value(t, NULL, "b", &b) &&
                 bitsift_node_add_value(t, NULL, "s", &str) &&
                 bitsift_node_add_value(t, NULL, "after", &u) &&
                 bitsift_encode(s, t, packet, sizeof packet, &size, &res) == BITSIFT_OK;
    uint8_t *copy = malloc(size ? size : 1);
    bool decoded = built && copy && (memcpy(copy, packet, size),
                                     bitsift_decode_tree(s, copy, size, 0, t, &res) == BITSIFT_OK);
    if (copy)
        memset(copy, 0xee, size);
    free(copy);
    const bitsift_value *vb = decoded ? bitsift_node_value(bitsift_tree_find(t, "b")) : NULL;
    const bitsift_value *vs = decoded ? bitsift_node_value(bitsift_tree_find(t, "s")) : NULL;
    CHECK(vb && vb->kind == BITSIFT_VALUE_BYTES && vb->size == 4 &&
              memcmp(vb->data, "\x01\x02\x03\x04", 4) == 0,
          "a decoded byte string outlives the packet");
    CHECK(vs && vs->kind == BITSIFT_VALUE_STRING && vs->size == 5 &&
              memcmp(vs->data, "hello", 5) == 0,
          "a decoded string outlives the packet");
    bitsift_tree_free(t);
    bitsift_schema_free(s);
}

/* A value tree holds BITSIFT_TREE_MAX_NODES nodes and refuses the next. */
static void test_tree_node_limit(void)
{
    static const char text[] = "protocol many { id 3; }\npacket t { uint8 a[max 4]; }\n";
    bitsift_schema_error err;
    bitsift_schema *s = bitsift_schema_compile(text, strlen(text), "many", &err);
    bitsift_tree *t = s ? bitsift_tree_create(s) : NULL;
    bitsift_node *a = t && bitsift_tree_reset(t, 0) ? bitsift_node_add_array(t, NULL, "a") : NULL;
    bitsift_value v = {.kind = BITSIFT_VALUE_UINT, .u = 1};
    size_t added = 0;
    while (a && bitsift_node_add_value(t, a, NULL, &v))
        added++;
    /* The root and the array, then the elements. */
    CHECK(a && added + 2 == BITSIFT_TREE_MAX_NODES &&
              bitsift_tree_node_count(t) == BITSIFT_TREE_MAX_NODES &&
              bitsift_node_add_value(t, NULL, "b", &v) == NULL,
          "a tree holds %u nodes and refuses one more (%zu elements added)",
          (unsigned)BITSIFT_TREE_MAX_NODES, added);
    bitsift_tree_free(t);
    bitsift_schema_free(s);
}

/* ---- detection ---------------------------------------------------------------- */

static void test_detect(void)
{
    bitsift_schema *list[3] = {load_example("article"), load_example("shooter"),
                               load_example("scenes")};
    uint8_t buf[65536];
    for (int k = 0; k < 3; k++) {
        bitsift_tree *t = bitsift_tree_create(list[k]);
        size_t size = 0;
        bitsift_result res;
        bitsift_tree_random(t, 0, 42, 50);
        bitsift_encode(list[k], t, buf, sizeof buf, &size, &res);
        CHECK(bitsift_detect((const bitsift_schema *const *)list, 3, buf, size) == k,
              "a %s packet is detected as %s", bitsift_schema_name(list[k]),
              bitsift_schema_name(list[k]));
        buf[size - 1] ^= 0x80;
        CHECK(bitsift_detect((const bitsift_schema *const *)list, 3, buf, size) == -1,
              "a damaged %s packet matches no protocol", bitsift_schema_name(list[k]));
        bitsift_tree_free(t);
    }
    for (int k = 0; k < 3; k++)
        bitsift_schema_free(list[k]);
}

/* ---- hostile packets ------------------------------------------------------------- */

static uint64_t rng = 88172645463325252ull;
static uint64_t xorshift(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static bool ignore(void *ctx, const bitsift_event *ev)
{
    (void)ev;
    ++*(int *)ctx;
    return true;
}

static void test_mutations(const char *example)
{
    bitsift_schema *s = load_example(example);
    bitsift_tree *t = bitsift_tree_create(s), *d = bitsift_tree_create(s);
    static uint8_t buf[1 << 16], copy[1 << 16];
    int runs = 0, consistent = 0, fails = 0;
    for (int n = 0; n < 400; n++) {
        size_t size = 0;
        bitsift_result res, r2;
        unsigned type = (unsigned)(xorshift() % bitsift_schema_packet_count(s));
        bitsift_tree_random(t, type, xorshift(), (unsigned)(xorshift() % 101));
        if (bitsift_encode(s, t, buf, sizeof buf, &size, &res) != BITSIFT_OK)
            continue;
        for (int m = 0; m < 8; m++) {
            memcpy(copy, buf, size);
            size_t len = size;
            switch (xorshift() % 3) {
            case 0:
                copy[xorshift() % len] ^= (uint8_t)(1u << (xorshift() % 8));
                break;
            case 1:
                len = (size_t)(xorshift() % len);
                break;
            default:
                copy[xorshift() % len] = (uint8_t)xorshift();
            }
            int events = 0;
            bitsift_visitor v = {ignore, ignore, ignore, &events};
            /* Without the CRC, the damage reaches the field decoders. */
            bitsift_error e1 = bitsift_decode(s, copy, len, BITSIFT_DECODE_NO_CRC, NULL, &res);
            bitsift_error e2 = bitsift_decode(s, copy, len, BITSIFT_DECODE_NO_CRC, &v, &r2);
            bitsift_error e3 = bitsift_decode_tree(s, copy, len, BITSIFT_DECODE_NO_CRC, d, &r2);
            runs++;
            consistent += e1 == e2 && e2 == e3 && res.bits == r2.bits;
            fails += e1 != BITSIFT_OK;
            if (e1 != BITSIFT_OK && !res.path[0])
                consistent--; /* every failure names where */
        }
    }
    CHECK(runs > 1000 && consistent == runs,
          "%s: %d mutated packets decode the same with and without visitor/tree, every failure "
          "has a path (%d failed)",
          example, runs, fails);
    bitsift_tree_free(t);
    bitsift_tree_free(d);
    bitsift_schema_free(s);
}

/* Schema texts damaged at random: every one either compiles or is refused
 * with a "file:line:column: message" (or "file: message") diagnostic, and
 * whatever compiles decodes random bytes without harm. */
static void test_schema_mutations(const char *example)
{
    const char *top = getenv("top_srcdir");
    char path[4096];
    snprintf(path, sizeof path, "%s/examples/%s.bss", top ? top : ".", example);
    FILE *f = fopen(path, "rb");
    static char text[1 << 16], copy[1 << 16];
    size_t size = f ? fread(text, 1, sizeof text, f) : 0;
    if (f)
        fclose(f);
    int compiled = 0, refused = 0, bad = 0;
    static const char *const splices[] = {"{", "}", "[", "]", "(", ")", ";", "if", "max",
                                          "previous(", "int(0,", "bits(64)", "\xff", "0",
                                          "99999999999999999999", "-", ".", "struct x {"};
    for (int n = 0; n < 1500; n++) {
        memcpy(copy, text, size);
        size_t len = size;
        for (int m = 0; m < 1 + (int)(xorshift() % 4); m++) {
            size_t at = len ? (size_t)(xorshift() % len) : 0;
            switch (xorshift() % 4) {
            case 0:
                copy[at] = (char)xorshift();
                break;
            case 1:
                len = at;
                break;
            case 2: {
                size_t cut = (size_t)(xorshift() % 40);
                if (at + cut < len) {
                    memmove(copy + at, copy + at + cut, len - at - cut);
                    len -= cut;
                }
                break;
            }
            default: {
                const char *sp = splices[xorshift() % (sizeof splices / sizeof splices[0])];
                size_t k = strlen(sp);
                if (len + k < sizeof copy) {
                    memmove(copy + at + k, copy + at, len - at);
                    memcpy(copy + at, sp, k);
                    len += k;
                }
            }
            }
        }
        bitsift_schema_error err;
        bitsift_schema *s = bitsift_schema_compile(copy, len, "m.bss", &err);
        if (!s) {
            refused++;
            unsigned line, col;
            char rest[8];
            bool positioned = sscanf(err.message, "m.bss:%u:%u:%1s", &line, &col, rest) == 3 &&
                              line >= 1 && col >= 1 && err.line == line && err.column == col;
            bool plain = strncmp(err.message, "m.bss: ", 7) == 0 && err.line == 0;
            if (!(positioned || plain) || err.kind == BITSIFT_OK) {
                if (bad++ < 3)
                    printf("# bad diagnostic: %s\n", err.message);
            }
            continue;
        }
        compiled++;
        uint8_t junk[512];
        for (size_t k = 0; k < sizeof junk; k++)
            junk[k] = (uint8_t)xorshift();
        bitsift_result res;
        bitsift_tree *t = bitsift_tree_create(s);
        bitsift_decode(s, junk, (size_t)(xorshift() % sizeof junk), BITSIFT_DECODE_NO_CRC, NULL,
                       &res);
        bitsift_decode_tree(s, junk, sizeof junk, BITSIFT_DECODE_NO_CRC, t, &res);
        bitsift_tree_free(t);
        bitsift_schema_free(s);
    }
    CHECK(bad == 0 && refused > 0,
          "%s: 1500 damaged schemas: %d compile, %d refused, all with a positioned diagnostic",
          example, compiled, refused);
}

/* One compiled schema shared by several threads, each decoding the same
 * packets into its own tree: every thread must see the same results. */
struct worker {
    const bitsift_schema *s;
    const uint8_t *packets;
    const size_t *sizes;
    int count;
    uint64_t checksum;
};

static void *decode_worker(void *arg)
{
    struct worker *w = arg;
    bitsift_tree *t = bitsift_tree_create(w->s);
    for (int round = 0; round < 20; round++)
        for (int i = 0; i < w->count; i++) {
            bitsift_result res;
            bitsift_decode_tree(w->s, w->packets + i * 4096, w->sizes[i], 0, t, &res);
            w->checksum = w->checksum * 31 + res.bits + bitsift_tree_node_count(t);
        }
    bitsift_tree_free(t);
    return NULL;
}

static void test_threads(void)
{
    bitsift_schema *s = load_example("shooter");
    enum { PACKETS = 64, THREADS = 4 };
    static uint8_t packets[PACKETS * 4096];
    size_t sizes[PACKETS];
    bitsift_tree *t = bitsift_tree_create(s);
    for (int i = 0; i < PACKETS; i++) {
        bitsift_result res;
        bitsift_tree_random(t, (unsigned)i % 5, (uint64_t)i, 60);
        bitsift_encode(s, t, packets + i * 4096, 4096, &sizes[i], &res);
    }
    bitsift_tree_free(t);
    struct worker w[THREADS];
    pthread_t th[THREADS];
    for (int k = 0; k < THREADS; k++) {
        w[k] = (struct worker){s, packets, sizes, PACKETS, 0};
        pthread_create(&th[k], NULL, decode_worker, &w[k]);
    }
    for (int k = 0; k < THREADS; k++)
        pthread_join(th[k], NULL);
    bool same = true;
    for (int k = 1; k < THREADS; k++)
        same &= w[k].checksum == w[0].checksum;
    CHECK(same && w[0].checksum != 0, "4 threads decoding with one schema agree");
    bitsift_schema_free(s);
}

/* Random trees of a schema whose relative fields take their base from
 * fields wider than the relative encodings accept (a uint32 base of a
 * sequence_relative, a full int32 base of an int_relative): every tree
 * the generator makes must encode and decode back. */
static void test_random_bases(void)
{
    static const char text[] = "protocol bases { id 0x1234; crc on; }\n"
                               "packet p {\n"
                               "    uint32 b;\n"
                               "    sequence_relative(b) s;\n"
                               "    uint32 c;\n"
                               "    ack_relative(c) a;\n"
                               "    int(-2147483648, 2147483647) d;\n"
                               "    int_relative(d) r;\n"
                               "    uint32 e;\n"
                               "    object_index(e, 1000) o;\n"
                               "}\n";
    bitsift_schema_error err;
    bitsift_schema *s = bitsift_schema_compile(text, sizeof text - 1, "bases", &err);
    CHECK(s != NULL, "relative bases schema compiles (%s)", s ? "" : err.message);
    if (!s)
        return;
    bitsift_tree *t = bitsift_tree_create(s), *d = bitsift_tree_create(s);
    static uint8_t buf[256];
    int made = 0, encoded = 0, decoded = 0;
    for (unsigned seed = 0; seed < 500; seed++) {
        size_t size = 0;
        bitsift_result res;
        if (bitsift_tree_random(t, 0, seed, seed % 101) != BITSIFT_OK)
            continue;
        made++;
        if (bitsift_encode(s, t, buf, sizeof buf, &size, &res) != BITSIFT_OK)
            continue;
        encoded++;
        decoded += bitsift_decode_tree(s, buf, size, 0, d, &res) == BITSIFT_OK &&
                   int_at(d, "s") == int_at(t, "s") && int_at(d, "r") == int_at(t, "r") &&
                   int_at(d, "o") == int_at(t, "o");
    }
    CHECK(made == 500 && encoded == made && decoded == made,
          "random trees with wide relative bases: %d made, %d encoded, %d decoded of 500", made,
          encoded, decoded);
    bitsift_tree_free(t);
    bitsift_tree_free(d);
    bitsift_schema_free(s);
}

int main(void)
{
    test_random_bases();
    test_article();
    test_shooter();
    test_detect();
    test_introspection();
    test_tree_owns_bytes();
    test_tree_node_limit();
    test_threads();
    test_mutations("shooter");
    test_mutations("scenes");
    test_mutations("article");
    test_schema_mutations("shooter");
    test_schema_mutations("scenes");
    printf("1..%d\n", test_count);
    return 0;
}
