/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_failure.c -- the error model: sticky failure (after the first
 * failure every read fails, leaves its output alone and keeps the first
 * failure's kind, bit and field), the error enum's stable values and
 * names, bitsift_failure_format, readers over (NULL, 0), and the version.
 */
#include "config.h"

#include "test_util.h"

#include <signal.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

/* Every read primitive once, on a reader that has already failed: each
 * must fail and leave its output untouched. */
static void assert_every_read_fails(bitsift_reader *r)
{
    uint64_t u64 = 0xabad1dea;
    bool b = true;
    uint8_t u8 = 0xa5;
    uint16_t u16 = 0xa5a5;
    uint32_t u32 = 0xa5a5a5a5;
    int64_t i64 = -42;
    float f = 3.5f;
    double d = 2.25;
    int32_t i32 = -7;
    char buf[8] = "canary";
    const uint8_t *view = (const uint8_t *)"x";
    size_t len = 77;

    assert_false(bitsift_read_bits(r, 1, &u64));
    assert_false(bitsift_read_bits(r, 64, &u64));
    assert_false(bitsift_read_bool(r, &b));
    assert_false(bitsift_read_uint8(r, &u8));
    assert_false(bitsift_read_uint16(r, &u16));
    assert_false(bitsift_read_uint32(r, &u32));
    assert_false(bitsift_read_uint64(r, &u64));
    assert_false(bitsift_read_int(r, 0, 100, &i64));
    assert_false(bitsift_read_int(r, 5, 5, &i64)); /* zero bits, still fails */
    assert_false(bitsift_read_float(r, &f));
    assert_false(bitsift_read_double(r, &d));
    assert_false(bitsift_read_align(r));
    assert_false(bitsift_read_compressed_float(r, 0.0f, 1.0f, 0.1f, &f));
    assert_false(bitsift_read_bytes(r, buf, 0));
    assert_false(bitsift_read_bytes(r, buf, 2));
    assert_false(bitsift_read_bytes_view(r, 0, &view));
    assert_false(bitsift_read_string(r, buf, sizeof buf, &len));
    assert_false(bitsift_read_string_view(r, 1, &view, &len));
    assert_false(bitsift_read_check(r, 0));
    assert_false(bitsift_read_int_relative(r, 0, &i32));
    assert_false(bitsift_read_object_index(r, -1, 10, &i32));
    assert_false(bitsift_read_sequence_relative(r, 0, &u16));
    assert_false(bitsift_read_ack_relative(r, 0, &u16));

    assert_int_equal(u64, 0xabad1dea);
    assert_true(b);
    assert_int_equal(u8, 0xa5);
    assert_int_equal(u16, 0xa5a5);
    assert_int_equal(u32, 0xa5a5a5a5);
    assert_int_equal(i64, -42);
    assert_true(f == 3.5f);
    assert_true(d == 2.25);
    assert_int_equal(i32, -7);
    assert_string_equal(buf, "canary");
    assert_memory_equal(view, "x", 1);
    assert_int_equal(len, 77);
    assert_int_equal(bitsift_reader_bits_left(r), 0);
}

/* Fail a reader in each way there is, then check stickiness. */
static void test_sticky_after_each_kind(void **state)
{
    (void)state;
    /* 0x12345678 marker at byte 1, then plenty of zero bytes. */
    static const uint8_t data[16] = {0x03, 0x78, 0x56, 0x34, 0x12};
    for (int how = 0; how < 6; how++) {
        bitsift_reader r;
        uint64_t v;
        int64_t i;
        bitsift_reader_init(&r, data, sizeof data);
        bitsift_error want;
        uint64_t bit;
        switch (how) {
        case 0: /* overflow */
            assert_true(bitsift_read_bits(&r, 64, &v));
            assert_true(bitsift_read_bits(&r, 60, &v));
            assert_false(bitsift_read_bits(&r, 5, &v));
            want = BITSIFT_E_OVERFLOW, bit = 124;
            break;
        case 1: /* range: raw 3 in int(0, 2) */
            assert_false(bitsift_read_int(&r, 0, 2, &i));
            want = BITSIFT_E_RANGE, bit = 0;
            break;
        case 2: /* align: bits 1..7 hold a 1 */
            assert_true(bitsift_read_bits(&r, 1, &v));
            assert_false(bitsift_read_align(&r));
            want = BITSIFT_E_ALIGN, bit = 1;
            break;
        case 3: /* check */
            assert_true(bitsift_read_bits(&r, 8, &v));
            assert_false(bitsift_read_check(&r, 0x12345679));
            want = BITSIFT_E_CHECK, bit = 8;
            break;
        case 4: /* argument */
            assert_true(bitsift_read_bits(&r, 3, &v));
            assert_false(bitsift_read_bits(&r, 0, &v));
            want = BITSIFT_E_ARGUMENT, bit = 3;
            break;
        default: /* string: length 3 in int(0, 7), then "a\0b" */
            bitsift_reader_init(&r, "\x03\x61\x00\x62", 4);
            char buf[8];
            assert_false(bitsift_read_string(&r, buf, 8, NULL));
            want = BITSIFT_E_STRING, bit = 8;
            break;
        }
        assert_reader_failed(&r, want, bit);
        bitsift_reader_name_failure(&r, "first.field");
        bitsift_failure first = *bitsift_reader_failure(&r);
        uint64_t pos = bitsift_reader_bit_pos(&r);

        assert_every_read_fails(&r);
        /* Later failures and names do not overwrite the first. */
        bitsift_reader_name_failure(&r, "second.field");
        assert_false(bitsift_reader_fail(&r, BITSIFT_E_CRC, 999, "later", 1, 2));
        const bitsift_failure *f = bitsift_reader_failure(&r);
        assert_int_equal(f->kind, first.kind);
        assert_int_equal(f->bit, first.bit);
        assert_string_equal(f->field, "first.field");
        assert_ptr_equal(f->why, first.why);
        assert_int_equal(f->expected, first.expected);
        assert_int_equal(f->got, first.got);
        assert_int_equal(bitsift_reader_bit_pos(&r), pos);
    }
}

static void test_writer_sticky(void **state)
{
    (void)state;
    uint8_t buf[4] = {0};
    bitsift_writer w;
    bitsift_writer_init(&w, buf, sizeof buf);
    assert_true(bitsift_write_bits(&w, 3, 7));
    assert_false(bitsift_write_int(&w, 0, 10, 11));
    assert_writer_failed(&w, BITSIFT_E_VALUE);
    assert_int_equal(bitsift_writer_failure(&w)->bit, 3);
    bitsift_writer_name_failure(&w, "x");
    bitsift_writer_name_failure(&w, "y");
    assert_false(bitsift_write_bool(&w, true));
    assert_false(bitsift_write_bits(&w, 1, 0));
    assert_false(bitsift_write_uint8(&w, 1));
    assert_false(bitsift_write_align(&w));
    assert_false(bitsift_write_int(&w, 0, 0, 0)); /* zero bits, still fails */
    assert_false(bitsift_write_bytes(&w, "", 0));
    assert_false(bitsift_write_string(&w, "", 4));
    assert_false(bitsift_write_check(&w, 1));
    assert_false(bitsift_write_int_relative(&w, 0, 1));
    assert_int_equal(bitsift_writer_bit_pos(&w), 3);
    assert_int_equal(buf[0], 7); /* nothing more was stored */
    assert_int_equal(bitsift_writer_failure(&w)->kind, BITSIFT_E_VALUE);
    assert_string_equal(bitsift_writer_failure(&w)->field, "x");
}

/* The enum is part of the ABI and the names are used in JSON output:
 * neither may change. */
static void test_error_values_and_names(void **state)
{
    (void)state;
    static const struct {
        bitsift_error e;
        int value;
        const char *name;
    } table[] = {
        {BITSIFT_OK, 0, "ok"},
        {BITSIFT_E_OVERFLOW, 1, "overflow"},
        {BITSIFT_E_RANGE, 2, "range"},
        {BITSIFT_E_ALIGN, 3, "align"},
        {BITSIFT_E_CHECK, 4, "check"},
        {BITSIFT_E_CRC, 5, "crc"},
        {BITSIFT_E_PROTOCOL, 6, "protocol"},
        {BITSIFT_E_STRING, 7, "string"},
        {BITSIFT_E_TRAILING, 8, "trailing"},
        {BITSIFT_E_VALUE, 9, "value"},
        {BITSIFT_E_ARGUMENT, 10, "argument"},
        {BITSIFT_E_NOMEM, 11, "nomem"},
        {BITSIFT_E_SCHEMA, 12, "schema"},
        {BITSIFT_E_IO, 13, "io"},
        {BITSIFT_E_LIMIT, 14, "limit"},
    };
    assert_int_equal(BITSIFT_ERROR_COUNT, sizeof table / sizeof table[0]);
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
        assert_int_equal((int)table[i].e, table[i].value);
        assert_string_equal(bitsift_error_name(table[i].e), table[i].name);
        const char *text = bitsift_error_string(table[i].e);
        assert_non_null(text);
        assert_true(strlen(text) > 3);
        for (size_t j = 0; j < i; j++)
            assert_string_not_equal(text, bitsift_error_string(table[j].e));
    }
    assert_string_equal(bitsift_error_name((bitsift_error)BITSIFT_ERROR_COUNT), "unknown");
    assert_string_equal(bitsift_error_name((bitsift_error)-1), "unknown");
    assert_non_null(bitsift_error_string((bitsift_error)1000));
}

static void test_failure_format(void **state)
{
    (void)state;
    char buf[256];
    bitsift_failure f = {BITSIFT_E_RANGE, 17, "x", "raw value above range", 4, 7};
    int n = bitsift_failure_format(&f, buf, sizeof buf);
    assert_string_equal(buf, "range at bit 17 in x: raw value above range (expected <= 4, got 7)");
    assert_int_equal(n, (int)strlen(buf));

    /* snprintf semantics: truncated but the full length returned. */
    char small[10];
    assert_int_equal(bitsift_failure_format(&f, small, sizeof small), n);
    assert_int_equal(strlen(small), sizeof small - 1);
    assert_memory_equal(small, buf, sizeof small - 1);
    assert_int_equal(bitsift_failure_format(&f, NULL, 0), n);

    bitsift_failure ok = {0};
    bitsift_failure_format(&ok, buf, sizeof buf);
    assert_string_equal(buf, "ok");

    bitsift_failure crc = {BITSIFT_E_CRC, 0, "crc", "CRC32 mismatch", 0xcbf43926, 0x1};
    bitsift_failure_format(&crc, buf, sizeof buf);
    assert_string_equal(
        buf, "crc at bit 0 in crc: CRC32 mismatch (expected 0xcbf43926, got 0x00000001)");

    /* Every kind: name, bit and (when set) field appear; no field, no " in ". */
    for (int k = 1; k < BITSIFT_ERROR_COUNT; k++) {
        bitsift_failure g = {(bitsift_error)k, 123456789012ull, NULL, NULL, 3, 9};
        bitsift_failure_format(&g, buf, sizeof buf);
        assert_non_null(strstr(buf, bitsift_error_name((bitsift_error)k)));
        assert_non_null(strstr(buf, "at bit 123456789012: ")); /* no field, no " in " */
        assert_non_null(strstr(buf, bitsift_error_string((bitsift_error)k)));
        g.field = "packet.body[3].x";
        g.why = "because";
        bitsift_failure_format(&g, buf, sizeof buf);
        assert_non_null(strstr(buf, " in packet.body[3].x: because"));
    }
}

/* A reader over (NULL, 0): every read of one bit or more fails with
 * overflow at bit 0; empty reads succeed without touching memory (UBSan
 * checks the "no arithmetic on NULL" part). */
static void test_null_empty_reader(void **state)
{
    (void)state;
    bitsift_reader r;
    const uint8_t *view = (const uint8_t *)"junk";
    size_t len = 5;
    char buf[4] = "abc";
    int64_t v = 0;

    bitsift_reader_init(&r, NULL, 0);
    assert_int_equal(bitsift_reader_bits_left(&r), 0);
    assert_true(bitsift_read_align(&r));
    assert_true(bitsift_read_bytes(&r, NULL, 0));
    assert_true(bitsift_read_bytes(&r, buf, 0));
    assert_string_equal(buf, "abc");
    assert_true(bitsift_read_bytes_view(&r, 0, &view));
    assert_true(bitsift_read_string_view(&r, 1, &view, &len));
    assert_int_equal(len, 0);
    assert_true(bitsift_read_string(&r, buf, 1, &len));
    assert_int_equal(buf[0], '\0');
    assert_true(bitsift_read_int(&r, -3, -3, &v));
    assert_int_equal(v, -3);
    assert_true(bitsift_reader_ok(&r));

    uint64_t u;
    assert_false(bitsift_read_bits(&r, 1, &u));
    assert_reader_failed(&r, BITSIFT_E_OVERFLOW, 0);
    assert_int_equal(bitsift_reader_failure(&r)->expected, 1);
    assert_int_equal(bitsift_reader_failure(&r)->got, 0);

    bitsift_reader_init(&r, NULL, 0);
    assert_false(bitsift_read_bytes_view(&r, 1, &view));
    assert_reader_failed(&r, BITSIFT_E_OVERFLOW, 0);
    bitsift_reader_init(&r, NULL, 0);
    assert_false(bitsift_read_string(&r, buf, 4, &len)); /* needs a 2-bit length */
    assert_reader_failed(&r, BITSIFT_E_OVERFLOW, 0);

    /* A writer over (NULL, 0) fails with overflow, never stores. */
    bitsift_writer w;
    bitsift_writer_init(&w, NULL, 0);
    assert_true(bitsift_write_align(&w));
    assert_true(bitsift_write_bytes(&w, NULL, 0));
    assert_false(bitsift_write_bool(&w, true));
    assert_writer_failed(&w, BITSIFT_E_OVERFLOW);
}

/* Writer misuse (a value its field cannot hold) returns an error in
 * normal builds and aborts like assert() in --enable-debug builds. The
 * misuse runs in a child process so that the abort can be observed. */
static void test_writer_misuse_by_build(void **state)
{
    (void)state;
    fflush(NULL);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        uint8_t buf[8];
        bitsift_writer w;
        bitsift_writer_init(&w, buf, sizeof buf);
        bool refused = !bitsift_write_int(&w, 0, 10, 11) &&
                       bitsift_writer_failure(&w)->kind == BITSIFT_E_VALUE &&
                       bitsift_writer_bit_pos(&w) == 0;
        _exit(refused ? 0 : 1);
    }
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
#ifdef BITSIFT_DEBUG
    assert_true(WIFSIGNALED(status));
    assert_int_equal(WTERMSIG(status), SIGABRT);
#else
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
#endif
}

static void test_version(void **state)
{
    (void)state;
    char expect[32];
    snprintf(expect, sizeof expect, "%d.%d.%d", BITSIFT_VERSION_MAJOR, BITSIFT_VERSION_MINOR,
             BITSIFT_VERSION_PATCH);
    assert_string_equal(BITSIFT_VERSION_STRING, expect);
    assert_string_equal(bitsift_version_string(), BITSIFT_VERSION_STRING);
    assert_int_equal(bitsift_version_number(), BITSIFT_VERSION_NUMBER);
    assert_int_equal(BITSIFT_VERSION_NUMBER, BITSIFT_VERSION_MAJOR * 10000 +
                                                 BITSIFT_VERSION_MINOR * 100 +
                                                 BITSIFT_VERSION_PATCH);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sticky_after_each_kind),
        cmocka_unit_test(test_writer_sticky),
        cmocka_unit_test(test_error_values_and_names),
        cmocka_unit_test(test_failure_format),
        cmocka_unit_test(test_null_empty_reader),
        cmocka_unit_test(test_writer_misuse_by_build),
        cmocka_unit_test(test_version),
    };
    return cmocka_run_group_tests_name("failure", tests, NULL, NULL);
}
