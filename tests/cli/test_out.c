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

#include <cmocka.h>

#include "out.h"

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
                fail_msg("float 0x%08x printed as %s reads back as 0x%08x", bits, buf,
                         back_bits);
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
    assert_int_equal(parse_time_rfc3339("2026-11-23T09:00:00.123456789Z", &sec, &nsec), 0);
    assert_int_equal(sec, 1795424400);
    assert_int_equal(nsec, 123456789);
    assert_int_equal(parse_time_rfc3339("2026-11-23T10:00:00.5+01:00", &sec, &nsec), 0);
    assert_int_equal(sec, 1795424400);
    assert_int_equal(nsec, 500000000);
    for (int64_t t = 0; t < 4102444800; t += 86399 * 37) {
        format_time_rfc3339(buf, t, 42);
        assert_int_equal(parse_time_rfc3339(buf, &sec, &nsec), 0);
        assert_int_equal(sec, t);
        assert_int_equal(nsec, 42);
    }
    assert_int_not_equal(parse_time_rfc3339("2026-13-01T00:00:00Z", &sec, &nsec), 0);
    assert_int_not_equal(parse_time_rfc3339("2026-11-23T09:00:00", &sec, &nsec), 0);
    assert_int_not_equal(parse_time_rfc3339("2026-11-23T09:00:00.Z", &sec, &nsec), 0);
    assert_int_not_equal(parse_time_rfc3339("", &sec, &nsec), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(integers_and_hex), cmocka_unit_test(json_strings),
        cmocka_unit_test(float_spellings),  cmocka_unit_test(floats_round_trip),
        cmocka_unit_test(times),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
