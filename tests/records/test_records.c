/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_records.c -- libbitsift-tools' record reader (<bitsift/records.h>)
 * through its API alone: what each kind of line becomes (a record, a
 * skipped or summary line, a refusal with its line, field path and
 * message), blank lines passed over, the stop function, the encoder's
 * refusal worded for the record, and numbers read as the field's type
 * says. The command's wording of the same refusals is the golden tests'
 * (tests/cli/TESTLIST, encode-*).
 */
#define _GNU_SOURCE /* fmemopen */
#define BITSIFT_EXPERIMENTAL
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include <bitsift.h>
#include <bitsift/records.h>

static const char schema_text[] = "protocol game { id 0x47414d45; }\n"
                                  "packet hello { int(0, 100) health; uint64 id; float x; }\n"
                                  "packet bye { bool quit; }\n";

struct fixture {
    bitsift_schema *schema;
    bitsift_record_reader *reader;
};

static int set_up(void **state)
{
    static struct fixture f;
    f.schema = bitsift_schema_compile(schema_text, sizeof schema_text - 1, NULL, NULL);
    assert_non_null(f.schema);
    const bitsift_schema *list[] = {f.schema};
    f.reader = bitsift_record_reader_create(list, 1);
    assert_non_null(f.reader);
    *state = &f;
    return 0;
}

static int tear_down(void **state)
{
    struct fixture *f = *state;
    bitsift_record_reader_free(f->reader);
    bitsift_schema_free(f->schema);
    return 0;
}

static FILE *records(const char *text)
{
    FILE *fp = fmemopen((void *)text, strlen(text), "r");
    assert_non_null(fp);
    return fp;
}

static void each_kind_of_line(void **state)
{
    struct fixture *f = *state;
    FILE *fp = records("{\"protocol\":\"game\",\"type\":\"bye\",\"fields\":{\"quit\":true}}\n"
                       "\n"
                       "  \t\r\n"
                       "{\"summary\":{\"packets\":1}}\n"
                       "{\"protocol\":\"game\",\"type\":\"bye\",\"valid\":false}\n"
                       "not json\n"
                       "[1]\n"
                       "{\"protocol\":\"nope\",\"type\":\"bye\"}\n"
                       "{\"protocol\":\"game\",\"type\":\"what\"}\n"
                       "{\"protocol\":\"game\",\"type\":\"hello\",\"fields\":{\"x\":\"ab\"}}\n"
                       "{\"protocol\":\"game\",\"type\":\"bye\",\"src\":\"10.0.0.1:5\",\"time\":7}");
    bitsift_record_reader_start(f->reader, fp, NULL, NULL);
    bitsift_record rec;
    bitsift_record_error err;
    assert_int_equal(bitsift_record_next(f->reader, &rec, &err), BITSIFT_RECORD_OK);
    assert_int_equal(rec.line, 1);
    assert_int_equal(rec.schema, 0);
    assert_int_equal(rec.packet_type, 1);
    assert_non_null(bitsift_tree_find(rec.tree, "quit"));
    assert_null(rec.src);
    assert_int_equal(bitsift_record_next(f->reader, &rec, &err), BITSIFT_RECORD_SUMMARY);
    assert_int_equal(err.line, 4); /* blank lines counted, passed over */
    assert_int_equal(bitsift_record_next(f->reader, &rec, &err), BITSIFT_RECORD_SKIPPED);
    assert_int_equal(bitsift_record_next(f->reader, &rec, &err), BITSIFT_RECORD_MALFORMED);
    assert_int_equal(err.line, 6);
    assert_string_equal(err.message, "not a JSON object: '[' or '{' expected near 'not'");
    assert_int_equal(bitsift_record_next(f->reader, &rec, &err), BITSIFT_RECORD_MALFORMED);
    assert_string_equal(err.message, "not a JSON object: another JSON value");
    assert_int_equal(bitsift_record_next(f->reader, &rec, &err), BITSIFT_RECORD_REFUSED);
    assert_string_equal(err.message, "no schema given with -s matches protocol \"nope\"");
    assert_int_equal(bitsift_record_next(f->reader, &rec, &err), BITSIFT_RECORD_REFUSED);
    assert_string_equal(err.message, "unknown packet \"type\" for this protocol");
    assert_int_equal(bitsift_record_next(f->reader, &rec, &err), BITSIFT_RECORD_REFUSED);
    assert_int_equal(err.line, 10);
    assert_string_equal(err.path, "x");
    assert_string_equal(err.message, "x: not a float");
    /* A last line without a newline; strings only: "time" 7 is no time. */
    assert_int_equal(bitsift_record_next(f->reader, &rec, &err), BITSIFT_RECORD_OK);
    assert_int_equal(rec.line, 11);
    assert_string_equal(rec.src, "10.0.0.1:5");
    assert_null(rec.dst);
    assert_null(rec.time);
    assert_int_equal(bitsift_record_next(f->reader, &rec, &err), BITSIFT_RECORD_END);
    fclose(fp);
}

static void encode_and_refusal(void **state)
{
    struct fixture *f = *state;
    const char *good = "{\"protocol\":\"game\",\"type\":\"hello\",\"fields\":"
                       "{\"health\":42,\"id\":18446744073709551615,\"x\":0.1}}";
    const char *bad = "{\"protocol\":\"game\",\"type\":\"hello\",\"fields\":"
                      "{\"health\":140,\"id\":1,\"x\":0}}";
    bitsift_record rec;
    bitsift_record_error err;
    uint8_t packet[64];
    size_t size = 0;
    assert_int_equal(bitsift_record_parse(f->reader, good, strlen(good), &rec, &err),
                     BITSIFT_RECORD_OK);
    assert_int_equal(rec.line, 0);
    assert_int_equal(bitsift_record_encode(f->reader, &rec, packet, sizeof packet, &size, &err),
                     BITSIFT_RECORD_OK);
    /* The numbers as the fields read them: a uint64 above 2^63 exact, the
     * float32 nearest 0.1 (not the double's). */
    bitsift_tree *back = bitsift_tree_create(f->schema);
    bitsift_result res;
    assert_int_equal(bitsift_decode_tree(f->schema, packet, size, 0, back, &res), BITSIFT_OK);
    assert_true(bitsift_node_value(bitsift_tree_find(back, "id"))->u == UINT64_MAX);
    assert_true(bitsift_node_value(bitsift_tree_find(back, "x"))->f == 0.1f);
    bitsift_tree_free(back);
    assert_int_equal(bitsift_record_parse(f->reader, bad, strlen(bad), &rec, &err),
                     BITSIFT_RECORD_OK);
    assert_int_equal(bitsift_record_encode(f->reader, &rec, packet, sizeof packet, &size, &err),
                     BITSIFT_RECORD_REFUSED);
    assert_string_equal(err.path, "health");
    /* bit 33: after the CRC (32) and the packet type (1 bit of 2 types) */
    assert_string_equal(err.message, "cannot encode health (bit 33): value outside the field's "
                                     "range (range 0..100, got 140)");
}

static int stop_now(void *ctx)
{
    return ++*(int *)ctx > 1; /* one line, then stop */
}

static void stop_before_a_line(void **state)
{
    struct fixture *f = *state;
    FILE *fp = records("{\"protocol\":\"game\",\"type\":\"bye\",\"fields\":{\"quit\":false}}\n"
                       "{\"protocol\":\"game\",\"type\":\"bye\",\"fields\":{\"quit\":true}}\n");
    int calls = 0;
    bitsift_record_reader_start(f->reader, fp, stop_now, &calls);
    bitsift_record rec;
    bitsift_record_error err;
    assert_int_equal(bitsift_record_next(f->reader, &rec, &err), BITSIFT_RECORD_OK);
    assert_int_equal(bitsift_record_next(f->reader, &rec, &err), BITSIFT_RECORD_STOPPED);
    fclose(fp);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(each_kind_of_line),
        cmocka_unit_test(encode_and_refusal),
        cmocka_unit_test(stop_before_a_line),
    };
    return cmocka_run_group_tests(tests, set_up, tear_down);
}
