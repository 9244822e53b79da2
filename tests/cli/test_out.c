/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_out.c -- the command's hand-written formats: integers, hex, JSON
 * strings, shortest round-trip floats (every float's bits come back), and
 * RFC 3339 times both ways.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BITSIFT_EXPERIMENTAL /* <bitsift/records.h>: bitsift_record_parse_time */
#include <bitsift/records.h>
#include <cmocka.h>

#include "float_text.h"
#include "print/out.h"

/* Run `fn` against an out writing to a memory stream; return the text. */
static char *capture_text(void (*fn)(struct out *))
{
    char *text = NULL;
    size_t size = 0;
    FILE *fp = open_memstream(&text, &size);
    assert_non_null(fp);
    struct out o;
    out_init(&o, fp);
    fn(&o);
    assert_int_equal(out_finish(&o), 0);
    fclose(fp);
    return text;
}

static void write_numbers(struct out *o)
{
    out_u64(o, 0);
    out_char(o, ' ');
    out_u64(o, UINT64_MAX);
    out_char(o, ' ');
    out_i64(o, INT64_MIN);
    out_char(o, ' ');
    out_i64(o, -42);
    out_char(o, ' ');
    out_u64_width(o, 7, 3);
    out_char(o, ' ');
    out_hex_u64(o, 0x9908ace2, 8);
    out_char(o, ' ');
    static const uint8_t bytes[] = {0x00, 0x0f, 0xf0, 0xff};
    out_hex_bytes(o, bytes, sizeof bytes);
}

static void integers_and_hex(void **state)
{
    (void)state;
    char *text = capture_text(write_numbers);
    assert_string_equal(text, "0 18446744073709551615 -9223372036854775808 -42 007 9908ace2 "
                              "000ff0ff");
    free(text);
}

static void write_strings(struct out *o)
{
    out_json_string(o, "a\"b\\c\n\x01", 7);
    out_char(o, ' ');
    out_json_string(o, "caf\xc3\xa9", 5); /* valid UTF-8 kept */
    out_char(o, ' ');
    out_json_string(o, "\xff\xc3", 2); /* invalid bytes escaped */
    out_char(o, ' ');
    out_json_string(o, "\xed\xa0\x80", 3); /* a surrogate is invalid UTF-8 */
}

static void json_strings(void **state)
{
    (void)state;
    char *text = capture_text(write_strings);
    assert_string_equal(text, "\"a\\\"b\\\\c\\n\\u0001\" \"caf\xc3\xa9\" \"\\u00ff\\u00c3\" "
                              "\"\\u00ed\\u00a0\\u0080\"");
    free(text);
}

/* A plain reference for JSON strings: byte by byte, no buffer tricks. */
static size_t reference_json(char *w, const unsigned char *s, size_t size)
{
    size_t n = 0;
    w[n++] = '"';
    for (size_t i = 0; i < size;) {
        unsigned c = s[i];
        size_t seq = 0;
        if (c >= 0x20 && c != '"' && c != '\\' && c < 0x80)
            seq = 1;
        else if (c >= 0xc2 && c <= 0xdf && i + 1 < size && (s[i + 1] & 0xc0) == 0x80)
            seq = 2; /* only 2-byte sequences are generated below */
        if (seq) {
            memcpy(w + n, s + i, seq);
            n += seq;
            i += seq;
            continue;
        }
        const char *e = c == '"'    ? "\\\""
                        : c == '\\' ? "\\\\"
                        : c == '\n' ? "\\n"
                        : c == '\t' ? "\\t"
                        : c == '\r' ? "\\r"
                                    : NULL;
        if (e) {
            memcpy(w + n, e, 2);
            n += 2;
        } else {
            n += (size_t)sprintf(w + n, "\\u00%02x", c);
        }
        i++;
    }
    w[n++] = '"';
    return n;
}

/* Short strings are written in place, long ones in runs: both agree with
 * the reference, and a stream buffer that fills up many times loses
 * nothing (the same text as a memory buffer). */
static void long_output(void **state)
{
    (void)state;
    static const unsigned char pieces[][3] = {
        {'a', 0, 0},  {'Z', 0, 0},     {'"', 0, 0},  {'\\', 0, 0}, {'\n', 0, 0}, {0x01, 0, 0},
        {0x7f, 0, 0}, {0xc3, 0xa9, 0}, {0xff, 0, 0}, {0xc3, 0, 0}, {' ', 0, 0}};
    uint64_t x = 0x2545f4914f6cdd1du;
    char *text = NULL;
    size_t text_size = 0;
    FILE *fp = open_memstream(&text, &text_size);
    assert_non_null(fp);
    struct out stream, memory;
    out_init(&stream, fp);
    out_init_memory(&memory);
    unsigned char *s = malloc(4000);
    char *want = malloc(6 * 4000 + 2);
    assert_non_null(s);
    assert_non_null(want);
    for (int round = 0; round < 3000; round++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        size_t size = 0, target = round % 2 ? x % 300 : x % 3000;
        while (size < target) {
            const unsigned char *p = pieces[(x >> (size % 40)) % 11];
            x = x * 6364136223846793005u + 1442695040888963407u;
            size_t len = p[1] ? 2 : 1;
            if (p[0] == 0xc3 && !p[1] && size + 1 < target) /* a lone lead byte */
                len = 1;
            memcpy(s + size, p, len);
            size += len;
        }
        size_t want_len = reference_json(want, s, size);
        struct out one;
        out_init_memory(&one);
        out_json_string(&one, (const char *)s, size);
        assert_int_equal(one.len, want_len);
        assert_memory_equal(one.buf, want, want_len);
        out_finish(&one);
        out_json_string(&stream, (const char *)s, size);
        out_json_string(&memory, (const char *)s, size);
        out_u64(&stream, x);
        out_u64(&memory, x);
        out_u64_width(&stream, x % 1000, 9);
        out_u64_width(&memory, x % 1000, 9);
        out_i64(&stream, -(int64_t)(x % 100000));
        out_i64(&memory, -(int64_t)(x % 100000));
    }
    assert_int_equal(out_finish(&stream), 0);
    fclose(fp);
    assert_true(memory.len > 1000000); /* the 256 KiB stream buffer filled several times */
    assert_int_equal(text_size, memory.len);
    assert_memory_equal(text, memory.buf, memory.len);
    out_finish(&memory);
    free(text);
    free(s);
    free(want);
}

static void float_spellings(void **state)
{
    (void)state;
    char buf[48];
    format_float32(buf, 0.1f);
    assert_string_equal(buf, "0.1");
    format_float32(buf, 1.0f);
    assert_string_equal(buf, "1.0");
    format_float32(buf, -0.0f);
    assert_string_equal(buf, "-0.0");
    format_float64(buf, 0.1);
    assert_string_equal(buf, "0.1");
    format_float64(buf, 1e300);
    assert_string_equal(buf, "1e+300");
    format_float32(buf, INFINITY);
    assert_string_equal(buf, "inf");
    assert_true(format_is_nonfinite(buf));
    format_float64(buf, -INFINITY);
    assert_string_equal(buf, "-inf");
    uint32_t nan_bits = 0xffc00123u;
    float nan_value;
    memcpy(&nan_value, &nan_bits, 4);
    format_float32(buf, nan_value);
    assert_string_equal(buf, "nan:0xffc00123");
    float back;
    assert_int_equal(parse_float32(buf, &back), 0);
    assert_memory_equal(&back, &nan_bits, 4);
    assert_int_not_equal(parse_float32("nan:0x3f800000", &back), 0); /* not a NaN */
    assert_int_not_equal(parse_float32("1.5x", &back), 0);
}

/* Every 2^32 / 65537-th float bit pattern, plus neighbours: back to the same bits. */
static void floats_round_trip(void **state)
{
    (void)state;
    char buf[48];
    for (uint64_t i = 0; i <= 0xffffffffu; i += 65537) {
        for (uint32_t d = 0; d < 3; d++) {
            uint32_t bits = (uint32_t)i + d, back_bits;
            float v, back;
            memcpy(&v, &bits, 4);
            format_float32(buf, v);
            assert_int_equal(parse_float32(buf, &back), 0);
            memcpy(&back_bits, &back, 4);
            if (back_bits != bits)
                fail_msg("float 0x%08x printed as %s reads back as 0x%08x", bits, buf, back_bits);
            assert_true(strlen(buf) <= 16);
        }
    }
    uint64_t x = 0x9e3779b97f4a7c15u;
    for (int i = 0; i < 200000; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        double v, back;
        memcpy(&v, &x, 8);
        format_float64(buf, v);
        assert_int_equal(parse_float64(buf, &back), 0);
        if (memcmp(&v, &back, 8) != 0)
            fail_msg("double 0x%016llx printed as %s", (unsigned long long)x, buf);
    }
}

static void times(void **state)
{
    (void)state;
    char buf[48];
    format_time_rfc3339(buf, 0, 0);
    assert_string_equal(buf, "1970-01-01T00:00:00.000000000Z");
    format_time_rfc3339(buf, 1795424400, 123456789); /* 2026-11-23 */
    assert_string_equal(buf, "2026-11-23T09:00:00.123456789Z");
    format_time_of_day(buf, 1795424400 + 3723, 123456789);
    assert_string_equal(buf, "10:02:03.123456");
    format_time_rfc3339(buf, 951782400, 0); /* leap day 2000 */
    assert_string_equal(buf, "2000-02-29T00:00:00.000000000Z");
    int64_t sec;
    uint32_t nsec;
    assert_int_equal(bitsift_record_parse_time("2026-11-23T09:00:00.123456789Z", &sec, &nsec), 0);
    assert_int_equal(sec, 1795424400);
    assert_int_equal(nsec, 123456789);
    assert_int_equal(bitsift_record_parse_time("2026-11-23T10:00:00.5+01:00", &sec, &nsec), 0);
    assert_int_equal(sec, 1795424400);
    assert_int_equal(nsec, 500000000);
    for (int64_t t = 0; t < 4102444800; t += 86399 * 37) {
        format_time_rfc3339(buf, t, 42);
        assert_int_equal(bitsift_record_parse_time(buf, &sec, &nsec), 0);
        assert_int_equal(sec, t);
        assert_int_equal(nsec, 42);
    }
    assert_int_not_equal(bitsift_record_parse_time("2026-13-01T00:00:00Z", &sec, &nsec), 0);
    assert_int_not_equal(bitsift_record_parse_time("2026-11-23T09:00:00", &sec, &nsec), 0);
    assert_int_not_equal(bitsift_record_parse_time("2026-11-23T09:00:00.Z", &sec, &nsec), 0);
    assert_int_not_equal(bitsift_record_parse_time("", &sec, &nsec), 0);
}

/* Timestamps a capture can hold (a pcapng if_tsoffset of INT64_MIN, say)
 * format without overflow: the time of day exactly, the date saturated at
 * the ends of what RFC 3339 can write. */
static void extreme_times(void **state)
{
    (void)state;
    char buf[48];
    format_time_rfc3339(buf, INT64_MIN, 0);
    assert_string_equal(buf, "0000-01-01T00:00:00.000000000Z");
    format_time_rfc3339(buf, INT64_MAX, 999999999);
    assert_string_equal(buf, "9999-12-31T23:59:59.999999999Z");
    format_time_rfc3339(buf, -62167219201, 5); /* the second before 0000-01-01 */
    assert_string_equal(buf, "0000-01-01T00:00:00.000000000Z");
    format_time_rfc3339(buf, -62167219200, 5); /* 0000-01-01 itself */
    assert_string_equal(buf, "0000-01-01T00:00:00.000000005Z");
    format_time_rfc3339(buf, 253402300800, 0); /* 10000-01-01 */
    assert_string_equal(buf, "9999-12-31T23:59:59.999999999Z");
    format_time_rfc3339(buf, -1, 0);
    assert_string_equal(buf, "1969-12-31T23:59:59.000000000Z");
    format_time_of_day(buf, INT64_MIN, 0);
    assert_string_equal(buf, "08:29:52.000000");
    format_time_of_day(buf, INT64_MAX, 999999999);
    assert_string_equal(buf, "15:30:07.999999");
    format_time_of_day(buf, -1, 0);
    assert_string_equal(buf, "23:59:59.000000");
}

/* Dates that do not exist and offsets beyond 23:59 are refused. */
static void invalid_dates(void **state)
{
    (void)state;
    int64_t sec;
    uint32_t nsec;
    static const char *const bad[] = {
        "2026-02-31T00:00:00Z", "2026-02-29T00:00:00Z", "2100-02-29T00:00:00Z",
        "2026-04-31T00:00:00Z", "2026-00-10T00:00:00Z", "2026-01-00T00:00:00Z",
        "2026-01-01T00:00:00+99:99", "2026-01-01T00:00:00+24:00", "2026-01-01T00:00:00-00:60",
        "2026-01-01T24:00:00Z", "2026-01-01T00:60:00Z",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        if (bitsift_record_parse_time(bad[i], &sec, &nsec) == 0)
            fail_msg("%s accepted", bad[i]);
    static const char *const good[] = {
        "2024-02-29T00:00:00Z", "2000-02-29T00:00:00Z", "2026-12-31T23:59:60Z",
        "2026-01-01T00:00:00+23:59", "2026-01-01T00:00:00-23:59", "0000-01-01T00:00:00Z",
        "9999-12-31T23:59:59.999999999Z",
    };
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++)
        if (bitsift_record_parse_time(good[i], &sec, &nsec) != 0)
            fail_msg("%s refused", good[i]);
    assert_int_equal(bitsift_record_parse_time("9999-12-31T23:59:59Z", &sec, &nsec), 0);
    assert_int_equal(sec, 253402300799);
    assert_int_equal(bitsift_record_parse_time("0000-01-01T00:00:00Z", &sec, &nsec), 0);
    assert_int_equal(sec, -62167219200);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(integers_and_hex),
        cmocka_unit_test(json_strings),
        cmocka_unit_test(float_spellings),
        cmocka_unit_test(floats_round_trip),
        cmocka_unit_test(times),
        cmocka_unit_test(extreme_times),
        cmocka_unit_test(invalid_dates),
        cmocka_unit_test(long_output),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
