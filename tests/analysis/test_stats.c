/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_stats.c -- <bitsift/stats.h> on packets whose numbers are known by
 * hand: the bit profile per type, field and framing field, the values seen
 * and the fitted ranges, failures by type and place, the bandwidth buckets
 * as they widen, and the arguments out of range.
 */
#define BITSIFT_EXPERIMENTAL
#include "test_util.h"

#include "bitsift/stats.h"

/* Two types, so the packet type costs 1 bit after the 32-bit CRC. */
static const char schema_text[] = "protocol t { id 0x1234; crc on; end_check off; }\n"
                                  "packet small { int(0, 1000) a; uint8 b; }\n"
                                  "packet other { bool flag; }\n";

struct fixture {
    bitsift_schema *schema;
    bitsift_stats *stats;
    uint8_t packet[16];
    size_t size;
};

static int setup(void **state)
{
    static struct fixture f;
    memset(&f, 0, sizeof f);
    f.schema = bitsift_schema_compile(schema_text, sizeof schema_text - 1, NULL, NULL);
    if (!f.schema)
        return -1;
    const bitsift_schema *schemas[] = {f.schema};
    f.stats = bitsift_stats_create(schemas, 1);
    *state = &f;
    return f.stats ? 0 : -1;
}

static int teardown(void **state)
{
    struct fixture *f = *state;
    bitsift_stats_free(f->stats);
    bitsift_schema_free(f->schema);
    return 0;
}

/* Encode a `small` packet into f->packet. */
static void small_packet(struct fixture *f, int64_t a, uint64_t b)
{
    bitsift_tree *t = bitsift_tree_create(f->schema);
    assert_non_null(t);
    assert_true(bitsift_tree_reset(t, 0));
    bitsift_value va = {.kind = BITSIFT_VALUE_INT, .i = a};
    bitsift_value vb = {.kind = BITSIFT_VALUE_UINT, .u = b};
    assert_non_null(bitsift_node_add_value(t, NULL, "a", &va));
    assert_non_null(bitsift_node_add_value(t, NULL, "b", &vb));
    assert_int_equal(bitsift_encode(f->schema, t, f->packet, sizeof f->packet, &f->size, NULL),
                     BITSIFT_OK);
    bitsift_tree_free(t);
}

static void profile_and_fitted_ranges(void **state)
{
    struct fixture *f = *state;
    bitsift_result res;
    small_packet(f, 5, 7);
    assert_true(bitsift_stats_add_packet(f->stats, 0, f->packet, f->size, 0, &res));
    assert_int_equal(res.bits, 32 + 1 + 10 + 8);
    small_packet(f, 9, 3);
    assert_true(bitsift_stats_add_packet(f->stats, 0, f->packet, f->size, 0, &res));
    assert_int_equal(bitsift_stats_valid_bits(f->stats), 2 * 51);

    bitsift_type_stats t;
    assert_true(bitsift_stats_type(f->stats, 0, 0, &t));
    assert_int_equal(t.packets, 2);
    assert_int_equal(t.bits.total, 102);
    assert_int_equal(t.bits.min, 51);
    assert_int_equal(t.bits.max, 51);
    assert_int_equal(t.framing[BITSIFT_STATS_CRC].total, 64);
    assert_int_equal(t.framing[BITSIFT_STATS_TYPE].max, 1);
    assert_int_equal(t.framing[BITSIFT_STATS_PREFIX].max, 0);
    /* The packet itself (depth 0), then its fields. */
    assert_int_equal(t.field_count, 3);
    bitsift_field_info info;
    assert_true(bitsift_schema_field_info(f->schema, t.field_ids[1], &info));
    assert_string_equal(info.path, "a");

    bitsift_field_stats a, b;
    assert_true(bitsift_stats_field(f->stats, 0, t.field_ids[1], &a));
    assert_true(bitsift_stats_field(f->stats, 0, t.field_ids[2], &b));
    assert_int_equal(a.bits.total, 20);
    assert_int_equal(a.observed.count, 2);
    assert_int_equal(a.observed.cls, BITSIFT_OBSERVED_SIGNED);
    assert_int_equal(a.observed.imin, 5);
    assert_int_equal(a.observed.imax, 9);
    /* int(0, 1000) costs 10 bits; 5..9 would cost 3: 7 saved per value. */
    assert_true(a.fitted);
    assert_int_equal(a.declared_bits, 10);
    assert_int_equal(a.fitted_bits, 3);
    assert_int_equal(a.saving_total, 14);
    assert_int_equal(b.observed.cls, BITSIFT_OBSERVED_UNSIGNED);
    assert_int_equal(b.observed.umin, 3);
    assert_int_equal(b.observed.umax, 7);
    assert_true(b.fitted);
    assert_int_equal(b.declared_bits, 8);
    assert_int_equal(b.fitted_bits, 3);
    assert_int_equal(b.saving_total, 10);

    /* The other type was never seen. */
    assert_true(bitsift_stats_type(f->stats, 0, 1, &t));
    assert_int_equal(t.packets, 0);
}

static void failures_by_type_and_place(void **state)
{
    struct fixture *f = *state;
    bitsift_result res;
    small_packet(f, 1, 2);
    /* Cut short: the read of b runs past the end. */
    assert_false(bitsift_stats_add_packet(f->stats, 0, f->packet, 6, 0, &res));
    assert_int_equal(res.status, BITSIFT_E_CRC);
    bitsift_decode(f->schema, f->packet, 6, BITSIFT_DECODE_NO_CRC, NULL, &res);
    assert_int_equal(res.status, BITSIFT_E_OVERFLOW);
    bitsift_stats_add_failure(f->stats, 0, &res);
    /* A flipped CRC bit fails at the framing field "crc", type not read. */
    f->packet[0] ^= 1;
    bitsift_decode(f->schema, f->packet, f->size, 0, NULL, &res);
    assert_int_equal(res.status, BITSIFT_E_CRC);
    bitsift_stats_add_failure(f->stats, 0, &res);
    bitsift_stats_add_failure(f->stats, -1, &res);

    bitsift_type_stats t;
    bitsift_field_stats b;
    assert_true(bitsift_stats_type(f->stats, 0, 0, &t));
    assert_int_equal(t.errors[BITSIFT_E_OVERFLOW], 1);
    assert_int_equal(t.packets, 0); /* no valid packet profiled here */
    assert_true(bitsift_stats_field(f->stats, 0, t.field_ids[2], &b));
    assert_int_equal(b.errors[BITSIFT_E_OVERFLOW], 1);
    unsigned not_read = bitsift_schema_packet_count(f->schema);
    assert_true(bitsift_stats_type(f->stats, 0, not_read, &t));
    assert_int_equal(t.errors[BITSIFT_E_CRC], 1);
    assert_int_equal(t.place_errors[BITSIFT_STATS_CRC][BITSIFT_E_CRC], 1);
    assert_int_equal(t.field_count, 0);
    assert_int_equal(bitsift_stats_no_protocol_errors(f->stats)[BITSIFT_E_CRC], 1);
    assert_false(bitsift_stats_type(f->stats, 0, not_read + 1, &t));
}

static void bandwidth_widens(void **state)
{
    struct fixture *f = *state;
    bitsift_bandwidth bw;
    bitsift_stats_bandwidth(f->stats, &bw);
    assert_false(bw.has_start);
    bitsift_stats_add_time(f->stats, 0, 0, 1000, 10);
    bitsift_stats_add_time(f->stats, 0, 0, 999, 20); /* before the first: bucket 0 */
    bitsift_stats_add_time(f->stats, -1, -1, 1119, 5);
    bitsift_stats_bandwidth(f->stats, &bw);
    assert_true(bw.has_start);
    assert_int_equal(bw.start, 1000);
    assert_int_equal(bw.bucket_seconds, 1);
    assert_int_equal(bw.buckets, 120);
    assert_int_equal(bw.series_count, 2);
    /* Second 1120 is bucket 120: every series halves its resolution. */
    bitsift_stats_add_time(f->stats, 0, 0, 1120, 1);
    bitsift_stats_bandwidth(f->stats, &bw);
    assert_int_equal(bw.bucket_seconds, 2);
    assert_int_equal(bw.buckets, 61);
    bitsift_bandwidth_series s;
    assert_true(bitsift_stats_series(f->stats, 0, &s));
    assert_int_equal(s.schema, 0);
    assert_int_equal(s.packets[0], 2);
    assert_int_equal(s.bytes[0], 30);
    assert_int_equal(s.bytes[60], 1);
    assert_true(bitsift_stats_series(f->stats, 1, &s));
    assert_int_equal(s.schema, -1);
    assert_int_equal(s.bytes[59], 5);
    assert_false(bitsift_stats_series(f->stats, 2, &s));
}

static void arguments_out_of_range(void **state)
{
    struct fixture *f = *state;
    bitsift_result res;
    bitsift_field_stats fs;
    bitsift_type_stats ts;
    assert_false(bitsift_stats_add_packet(f->stats, 1, f->packet, f->size, 0, &res));
    assert_int_equal(res.status, BITSIFT_E_ARGUMENT);
    assert_false(bitsift_stats_field(f->stats, 0, 1000, &fs));
    assert_false(bitsift_stats_field(f->stats, -1, 0, &fs));
    assert_false(bitsift_stats_type(f->stats, 2, 0, &ts));
    assert_null(bitsift_stats_schema(f->stats, 1));
    assert_ptr_equal(bitsift_stats_schema(f->stats, 0), f->schema);
    assert_int_equal(bitsift_stats_schema_count(f->stats), 1);
    assert_string_equal(bitsift_stats_place_name(BITSIFT_STATS_END_CHECK), "end_check");
    assert_string_equal(bitsift_stats_place_name(BITSIFT_STATS_PACKET), "packet");
    assert_null(bitsift_stats_place_name((bitsift_stats_place)BITSIFT_STATS_PLACES));
    bitsift_stats_free(NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(profile_and_fitted_ranges, setup, teardown),
        cmocka_unit_test_setup_teardown(failures_by_type_and_place, setup, teardown),
        cmocka_unit_test_setup_teardown(bandwidth_widens, setup, teardown),
        cmocka_unit_test_setup_teardown(arguments_out_of_range, setup, teardown),
    };
    return cmocka_run_group_tests_name("stats", tests, NULL, NULL);
}
