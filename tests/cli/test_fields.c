/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_fields.c -- the field printer's shortcuts (keys escaped once per
 * field, enum names cached, key, comma and value written in one
 * reservation) print exactly what its plain path prints: every packet type
 * of the example schemas, of tests/schema/constructs.bss and of a schema
 * with long names and many enum values, as random valid packets and with
 * bits flipped (failures close the containers left open), in JSON and as
 * text. The plain path is the printer without a key table.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "bitsift.h"
#include "print/fields.h"

/* Long names (the shortcuts stop at 32 bytes), a 20-value enum (the cache
 * keeps 16 names per field), names at the cache's edges. */
static const char odd_schema[] =
    "protocol odd { id 0x0badcafe; crc on; }\n"
    "enum Many { v00, v01, v02, v03, v04, v05, v06, v07, v08, v09,\n"
    "            v10, v11, v12, v13, v14, v15, v16, v17, v18, v19 }\n"
    "enum Long { a_rather_long_enumeration_value_name_over_32, b }\n"
    "struct Inner { float abcdefghijklmnopqrstuvwxyz_0123; "
    "               float abcdefghijklmnopqrstuvwxyz_01234; Many m; }\n"
    "packet p {\n"
    "    Many many[max 40];\n"
    "    Long which;\n"
    "    Inner a_struct_field_name_that_is_longer_than_32;\n"
    "    Inner list[max 4];\n"
    "    double d;\n"
    "    int(-1000, 1000) abcdefghijklmnopqrstuvwxyz_abcde;\n"
    "    bool abcdefghijklmnopqrstuvwxyz_abcd;\n"
    "}\n";

/* The fields of one packet as the printer writes them. */
static void print_packet(const bitsift_schema *s, struct fields_keys *keys, int json,
                         const uint8_t *packet, size_t size, struct out *o)
{
    struct fields_printer fp;
    bitsift_result res;
    o->len = 0;
    fields_begin(&fp, o, s, keys, json, 2);
    bitsift_visitor v = fields_visitor(&fp);
    bitsift_decode(s, packet, size, 0, &v, &res);
    fields_end(&fp);
    assert_int_equal(o->failed, 0);
}

static unsigned long long packets_compared;

static void compare_schema(bitsift_schema *s, const char *what)
{
    struct fields_keys *keys = fields_keys_create(s);
    assert_non_null(keys);
    bitsift_tree *t = bitsift_tree_create(s);
    assert_non_null(t);
    struct out fast, plain;
    out_init_memory(&fast);
    out_init_memory(&plain);
    static uint8_t packet[1 << 16];
    uint64_t x = 0x9e3779b97f4a7c15u;
    for (unsigned type = 0; type < bitsift_schema_packet_count(s); type++) {
        for (uint64_t seed = 1; seed <= 150; seed++) {
            if (bitsift_tree_random(t, type, seed, (unsigned)(seed * 37 % 101)) != BITSIFT_OK)
                continue;
            size_t size = 0;
            if (bitsift_encode(s, t, packet, sizeof packet, &size, NULL) != BITSIFT_OK)
                continue;
            for (int flip = 0; flip < 3; flip++) {
                if (flip && size) {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    packet[x % size] ^= (uint8_t)(1u << (x >> 32) % 8);
                }
                for (int json = 0; json <= 1; json++) {
                    print_packet(s, keys, json, packet, size, &fast);
                    print_packet(s, NULL, json, packet, size, &plain);
                    if (fast.len != plain.len || memcmp(fast.buf, plain.buf, fast.len) != 0)
                        fail_msg("%s: type %u seed %llu flip %d %s: the shortcuts print\n%.*s\n"
                                 "the plain path\n%.*s",
                                 what, type, (unsigned long long)seed, flip, json ? "json" : "text",
                                 (int)fast.len, fast.buf, (int)plain.len, plain.buf);
                    packets_compared++;
                }
            }
        }
    }
    out_finish(&fast);
    out_finish(&plain);
    bitsift_tree_free(t);
    fields_keys_free(keys);
}

static void shortcuts_print_the_same(void **state)
{
    (void)state;
    static const char *const files[] = {"examples/article.bss", "examples/robocat.bss",
                                        "examples/scenes.bss", "examples/shooter.bss",
                                        "tests/schema/constructs.bss"};
    const char *top = getenv("top_srcdir");
    if (!top)
        top = ".";
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", top, files[i]);
        bitsift_schema_error err;
        bitsift_schema *s = bitsift_schema_load_file(path, &err);
        if (!s)
            fail_msg("cannot load %s", path);
        compare_schema(s, files[i]);
        bitsift_schema_free(s);
    }
    bitsift_schema_error err;
    bitsift_schema *s = bitsift_schema_compile(odd_schema, sizeof odd_schema - 1, "odd.bss", &err);
    if (!s)
        fail_msg("odd schema: %s (line %u)", err.message, err.line);
    compare_schema(s, "odd schema");
    bitsift_schema_free(s);
    assert_true(packets_compared > 5000);
    print_message("# %llu packet printings compared\n", packets_compared);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(shortcuts_print_the_same),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
