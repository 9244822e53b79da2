/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_random_reader.c -- randomized reads: random op sequences over
 * random buffers of every length 0..64 and over valid streams cut at
 * random, with each buffer placed flush against a PROT_NONE guard page
 * (after it, or before it), so that a read outside the buffer crashes even
 * without ASan. Under ASan/UBSan (configure --enable-asan --enable-ubsan)
 * the same runs also check for undefined behaviour.
 *
 * Invariants checked on every op: the position never passes the end of
 * the data; a failure is sticky (kind, bit, why, field, position kept);
 * the failure bit is inside the data; on an uncut valid stream every op
 * succeeds with the written value; on a cut one the only failure is
 * overflow. The fuzz harnesses do this at scale.
 */
#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

enum {
    R_BITS,
    R_BOOL,
    R_UINT8,
    R_UINT16,
    R_UINT32,
    R_UINT64,
    R_INT,
    R_FLOAT,
    R_DOUBLE,
    R_COMPRESSED_FLOAT,
    R_ALIGN,
    R_BYTES,
    R_STRING,
    R_CHECK,
    R_INT_RELATIVE,
    R_OBJECT_INDEX,
    R_SEQUENCE_RELATIVE,
    R_ACK_RELATIVE,
    R_KINDS
};

typedef struct rop {
    int kind;
    unsigned n;
    int64_t min, max;
    float fmin, fmax, fres;
    size_t bufsize;
    int32_t previous, max_objects;
    /* The value written (valid-stream mode). */
    uint64_t u;
    int64_t i;
    float f;
    uint8_t data[24];
    size_t len;
} rop;

static void random_op(rop *o, uint64_t *rng)
{
    memset(o, 0, sizeof *o);
    o->kind = (int)test_below(rng, R_KINDS);
    o->n = 1 + (unsigned)test_below(rng, 64);
    int64_t a = (int64_t)test_rand(rng) >> test_below(rng, 64);
    int64_t b = (int64_t)test_rand(rng) >> test_below(rng, 64);
    o->min = a < b ? a : b;
    o->max = a < b ? b : a;
    o->fmin = (float)((int)test_below(rng, 2000) - 1000);
    o->fmax = o->fmin + (float)test_below(rng, 3000);
    o->fres = (float)(1 + test_below(rng, 1000)) / 997.0f;
    o->bufsize = 1 + test_below(rng, 20);
    o->previous = (int32_t)test_rand(rng) >> test_below(rng, 32);
    o->max_objects = 1 + (int32_t)test_below(rng, 400);

    /* A value that the writer accepts. */
    uint64_t span = (uint64_t)o->max - (uint64_t)o->min;
    o->u = test_rand(rng) & test_mask(o->n);
    o->i = (int64_t)((uint64_t)o->min +
                     (span == UINT64_MAX ? test_rand(rng) : test_below(rng, span + 1)));
    o->f = o->fmin + (o->fmax - o->fmin) * (float)test_below(rng, 1001) / 1000.0f;
    o->len = test_below(rng, o->kind == R_STRING ? o->bufsize : sizeof o->data);
    for (size_t k = 0; k < o->len; k++)
        o->data[k] = (uint8_t)(o->kind == R_STRING ? 'a' + test_below(rng, 26) : test_rand(rng));
    if (o->kind == R_INT_RELATIVE && o->previous == INT32_MAX)
        o->previous--;
    if (o->kind == R_OBJECT_INDEX) {
        o->previous = (int32_t)test_below(rng, (uint64_t)o->max_objects + 1) - 1;
        o->i = o->previous + 1 + (int64_t)test_below(rng, (uint64_t)(o->max_objects - o->previous));
    }
    if (o->kind == R_INT_RELATIVE)
        o->i = (int64_t)o->previous + 1 +
               (int64_t)test_below(rng, (uint64_t)((int64_t)INT32_MAX - o->previous));
}

static bool write_rop(bitsift_writer *w, const rop *o)
{
    switch (o->kind) {
    case R_BITS:
        return bitsift_write_bits(w, o->n, o->u);
    case R_BOOL:
        return bitsift_write_bool(w, o->u & 1);
    case R_UINT8:
        return bitsift_write_uint8(w, (uint8_t)o->u);
    case R_UINT16:
        return bitsift_write_uint16(w, (uint16_t)o->u);
    case R_UINT32:
        return bitsift_write_uint32(w, (uint32_t)o->u);
    case R_UINT64:
        return bitsift_write_uint64(w, o->u);
    case R_INT:
        return bitsift_write_int(w, o->min, o->max, o->i);
    case R_FLOAT:
        return bitsift_write_float(w, o->f);
    case R_DOUBLE:
        return bitsift_write_double(w, (double)o->f);
    case R_COMPRESSED_FLOAT:
        return bitsift_write_compressed_float(w, o->fmin, o->fmax, o->fres, o->f);
    case R_ALIGN:
        return bitsift_write_align(w);
    case R_BYTES:
        return bitsift_write_bytes(w, o->data, o->len);
    case R_STRING:
        return bitsift_write_string_n(w, o->data, o->len, o->bufsize);
    case R_CHECK:
        return bitsift_write_check(w, (uint32_t)o->u);
    case R_INT_RELATIVE:
        return bitsift_write_int_relative(w, o->previous, (int32_t)o->i);
    case R_OBJECT_INDEX:
        return bitsift_write_object_index(w, o->previous, o->max_objects, (int32_t)o->i);
    case R_SEQUENCE_RELATIVE:
        return bitsift_write_sequence_relative(w, (uint16_t)o->u,
                                               (uint16_t)((uint16_t)o->u + 1 + o->len));
    case R_ACK_RELATIVE:
        return bitsift_write_ack_relative(w, (uint16_t)o->u, (uint16_t)o->i);
    }
    return false;
}

/* Read one op; when `check` is set, the value must be the written one. */
static bool read_rop(bitsift_reader *r, const rop *o, bool check)
{
    uint64_t u = 0;
    int64_t i = 0;
    float f = 0;
    double d = 0;
    bool b = false;
    uint8_t u8 = 0;
    uint16_t u16 = 0;
    uint32_t u32 = 0;
    int32_t i32 = 0;
    uint8_t buf[32];
    const uint8_t *view;
    size_t len = 0;
    bool ok = false;
    switch (o->kind) {
    case R_BITS:
        ok = bitsift_read_bits(r, o->n, &u);
        if (ok && check)
            assert_int_equal(u, o->u);
        break;
    case R_BOOL:
        ok = bitsift_read_bool(r, &b);
        if (ok && check)
            assert_int_equal(b, o->u & 1);
        break;
    case R_UINT8:
        ok = bitsift_read_uint8(r, &u8);
        if (ok && check)
            assert_int_equal(u8, (uint8_t)o->u);
        break;
    case R_UINT16:
        ok = bitsift_read_uint16(r, &u16);
        if (ok && check)
            assert_int_equal(u16, (uint16_t)o->u);
        break;
    case R_UINT32:
        ok = bitsift_read_uint32(r, &u32);
        if (ok && check)
            assert_int_equal(u32, (uint32_t)o->u);
        break;
    case R_UINT64:
        ok = bitsift_read_uint64(r, &u);
        if (ok && check)
            assert_int_equal(u, o->u);
        break;
    case R_INT:
        ok = bitsift_read_int(r, o->min, o->max, &i);
        if (ok)
            assert_true(i >= o->min && i <= o->max);
        if (ok && check)
            assert_int_equal(i, o->i);
        break;
    case R_FLOAT:
        ok = bitsift_read_float(r, &f);
        if (ok && check)
            assert_memory_equal(&f, &o->f, sizeof f);
        break;
    case R_DOUBLE:
        ok = bitsift_read_double(r, &d);
        if (ok && check)
            assert_true(d == (double)o->f);
        break;
    case R_COMPRESSED_FLOAT:
        ok = bitsift_read_compressed_float(r, o->fmin, o->fmax, o->fres, &f);
        if (ok)
            assert_true(f >= o->fmin && f <= o->fmax);
        break;
    case R_ALIGN:
        ok = bitsift_read_align(r);
        break;
    case R_BYTES:
        ok = (o->u & 1) ? bitsift_read_bytes(r, buf, o->len)
                        : bitsift_read_bytes_view(r, o->len, &view);
        if (ok && check && (o->u & 1))
            assert_memory_equal(buf, o->data, o->len);
        break;
    case R_STRING:
        ok = bitsift_read_string(r, (char *)buf, o->bufsize, &len);
        if (ok) {
            assert_true(len < o->bufsize);
            assert_int_equal(buf[len], 0);
        }
        if (ok && check) {
            assert_int_equal(len, o->len);
            assert_memory_equal(buf, o->data, len);
        }
        break;
    case R_CHECK:
        ok = bitsift_read_check(r, (uint32_t)o->u);
        break;
    case R_INT_RELATIVE:
        ok = bitsift_read_int_relative(r, o->previous, &i32);
        if (ok)
            assert_true(i32 > o->previous);
        if (ok && check)
            assert_int_equal(i32, o->i);
        break;
    case R_OBJECT_INDEX:
        ok = bitsift_read_object_index(r, o->previous, o->max_objects, &i32);
        if (ok)
            assert_true(i32 > o->previous && i32 <= o->max_objects);
        if (ok && check)
            assert_int_equal(i32, o->i);
        break;
    case R_SEQUENCE_RELATIVE:
        ok = bitsift_read_sequence_relative(r, (uint16_t)o->u, &u16);
        if (ok && check)
            assert_int_equal(u16, (uint16_t)((uint16_t)o->u + 1 + o->len));
        break;
    case R_ACK_RELATIVE:
        ok = bitsift_read_ack_relative(r, (uint16_t)o->u, &u16);
        if (ok && check)
            assert_int_equal(u16, (uint16_t)o->i);
        break;
    }
    return ok;
}

/* Guarded memory: [PROT_NONE][page][PROT_NONE]. */
typedef struct guarded {
    uint8_t *base;
    size_t page;
} guarded;

static void guarded_map(guarded *g)
{
    g->page = (size_t)sysconf(_SC_PAGESIZE);
    g->base = mmap(NULL, 3 * g->page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    assert_true(g->base != MAP_FAILED);
    assert_int_equal(mprotect(g->base, g->page, PROT_NONE), 0);
    assert_int_equal(mprotect(g->base + 2 * g->page, g->page, PROT_NONE), 0);
}

/* Copy len bytes flush against the guard after (at_end) or before. */
static const uint8_t *guarded_place(guarded *g, const uint8_t *src, size_t len, bool at_end)
{
    uint8_t *p = at_end ? g->base + 2 * g->page - len : g->base + g->page;
    if (len)
        memcpy(p, src, len);
    return p;
}

/* Run ops over data; check the invariants; return whether all succeeded. */
static bool run_ops(const uint8_t *data, size_t size, const rop *ops, size_t n_ops, bool check,
                    bitsift_reader *r)
{
    bitsift_reader_init(r, size ? data : NULL, size);
    bool all_ok = true;
    bitsift_failure first = {0};
    uint64_t failed_at = 0;
    for (size_t k = 0; k < n_ops; k++) {
        bool was_ok = bitsift_reader_ok(r);
        bool ok = read_rop(r, &ops[k], check && all_ok);
        assert_true(bitsift_reader_bit_pos(r) <= 8 * (uint64_t)size);
        if (!was_ok) {
            /* Sticky: nothing moves, nothing changes. */
            assert_false(ok);
            assert_int_equal(bitsift_reader_bit_pos(r), failed_at);
            const bitsift_failure *now = bitsift_reader_failure(r);
            assert_int_equal(now->kind, first.kind);
            assert_int_equal(now->bit, first.bit);
            assert_ptr_equal(now->why, first.why);
            assert_ptr_equal(now->field, first.field);
            assert_int_equal(now->expected, first.expected);
            assert_int_equal(now->got, first.got);
        } else if (!ok) {
            assert_false(bitsift_reader_ok(r));
            assert_true(bitsift_reader_failure(r)->bit <= 8 * (uint64_t)size);
            assert_int_equal(bitsift_reader_bits_left(r), 0);
            bitsift_reader_name_failure(r, "op");
            first = *bitsift_reader_failure(r);
            failed_at = bitsift_reader_bit_pos(r);
            all_ok = false;
        }
        assert_int_equal(ok, bitsift_reader_ok(r));
    }
    return all_ok;
}

static void test_random_buffers(void **state)
{
    (void)state;
    guarded g;
    guarded_map(&g);
    uint64_t rng = 50;
    for (int iteration = 0; iteration < 30000; iteration++) {
        size_t size = (size_t)(iteration % 65);
        uint8_t bytes[64];
        /* Mostly random bytes, sometimes zeros or ones (they pass the
         * align and the ladders differently). */
        int fill = (int)test_below(&rng, 4);
        for (size_t k = 0; k < size; k++)
            bytes[k] = fill == 0 ? 0 : fill == 1 ? 0xff : (uint8_t)test_rand(&rng);
        rop ops[24];
        size_t n_ops = 1 + test_below(&rng, 24);
        for (size_t k = 0; k < n_ops; k++)
            random_op(&ops[k], &rng);
        const uint8_t *data = guarded_place(&g, bytes, size, iteration & 1);
        bitsift_reader r;
        run_ops(data, size, ops, n_ops, false, &r);

        /* The packet reader over the same bytes. */
        bitsift_framing f;
        uint32_t type;
        bitsift_framing_init(&f, (uint32_t)test_rand(&rng));
        f.num_types = 1 + (uint32_t)test_below(&rng, 9);
        f.prefix_bytes = (uint32_t)test_below(&rng, 3);
        bitsift_reader_init(&r, size ? data : NULL, size);
        if (!bitsift_packet_read_begin(&r, &f, &type)) {
            bitsift_error kind = bitsift_reader_failure(&r)->kind;
            assert_true(kind == BITSIFT_E_OVERFLOW || kind == BITSIFT_E_CRC ||
                        kind == BITSIFT_E_RANGE);
        }
        if (size < f.prefix_bytes + 4u)
            assert_int_equal(bitsift_packet_crc(&f, data, size), 0);
    }
    munmap(g.base, 3 * g.page);
}

static void test_random_valid_streams(void **state)
{
    (void)state;
    guarded g;
    guarded_map(&g);
    uint64_t rng = 51;
    int cut_failures = 0;
    for (int iteration = 0; iteration < 20000; iteration++) {
        rop ops[16];
        size_t n_ops = 1 + test_below(&rng, 16);
        uint8_t bytes[512];
        bitsift_writer w;
        bitsift_writer_init(&w, bytes, sizeof bytes);
        for (size_t k = 0; k < n_ops; k++) {
            random_op(&ops[k], &rng);
            assert_true(write_rop(&w, &ops[k]));
        }
        size_t size = bitsift_writer_bytes(&w);
        bitsift_reader r;

        /* Whole: every op reads back its value and ends where it should. */
        const uint8_t *data = guarded_place(&g, bytes, size, iteration & 1);
        assert_true(run_ops(data, size, ops, n_ops, true, &r));
        assert_int_equal(bitsift_reader_bit_pos(&r), bitsift_writer_bit_pos(&w));

        /* Cut: the only possible failure is overflow. */
        if (size) {
            size_t cut = test_below(&rng, size);
            data = guarded_place(&g, bytes, cut, iteration & 2);
            if (!run_ops(data, cut, ops, n_ops, true, &r)) {
                assert_int_equal(bitsift_reader_failure(&r)->kind, BITSIFT_E_OVERFLOW);
                cut_failures++;
            } else {
                /* Only zero-width ops lived in the lost bytes. */
                assert_int_equal(bitsift_reader_bit_pos(&r), bitsift_writer_bit_pos(&w));
                assert_true(bitsift_writer_bit_pos(&w) <= 8 * (uint64_t)cut);
            }
        }
    }
    assert_true(cut_failures > 1000);
    munmap(g.base, 3 * g.page);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_buffers),
        cmocka_unit_test(test_random_valid_streams),
    };
    return cmocka_run_group_tests_name("random reader", tests, NULL, NULL);
}
