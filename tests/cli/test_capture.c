/*
 * test_capture.c -- the in-memory capture path the fuzz harness uses:
 * capture_for_each_udp() over capture bytes held in memory (fmemopen, no
 * temporary file), on good, truncated and garbage captures; and
 * capture_each() stopping where its function says and reporting damage
 * after the frames before it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "capture.h"

static uint8_t *slurp(const char *name, size_t *size)
{
    char path[4096];
    const char *top = getenv("top_srcdir");
    snprintf(path, sizeof path, "%s/tests/cli/data/%s", top ? top : ".", name);
    FILE *fp = fopen(path, "rb");
    assert_non_null(fp);
    uint8_t *data = malloc(1 << 20);
    assert_non_null(data);
    *size = fread(data, 1, 1 << 20, fp);
    fclose(fp);
    return data;
}

struct seen {
    uint64_t frames[16];
    size_t sizes[16];
    size_t count;
};

static void on_udp(void *ctx, uint64_t frame, const struct decap_result *r)
{
    struct seen *s = ctx;
    if (s->count < 16) {
        s->frames[s->count] = frame;
        s->sizes[s->count] = r->payload_size;
    }
    s->count++;
}

static void good_capture(void **state)
{
    (void)state;
    size_t size;
    uint8_t *data = slurp("ethernet-vlan.pcap", &size);
    struct seen s = {.count = 0};
    /* 7 frames: 5 UDP datagrams, an ARP and a TCP frame. */
    assert_int_equal(capture_for_each_udp(data, size, on_udp, &s), 7);
    assert_int_equal(s.count, 5);
    const uint64_t frames[] = {1, 2, 5, 6, 7};
    const size_t sizes[] = {31, 59, 10, 30, 27};
    for (size_t i = 0; i < 5; i++) {
        assert_int_equal(s.frames[i], frames[i]);
        assert_int_equal(s.sizes[i], sizes[i]);
    }
    free(data);
}

static void pcapng_and_cooked(void **state)
{
    (void)state;
    size_t size;
    uint8_t *data = slurp("sll2.pcapng", &size);
    struct seen s = {.count = 0};
    assert_int_equal(capture_for_each_udp(data, size, on_udp, &s), 6);
    assert_int_equal(s.count, 5);
    free(data);
}

static void every_truncation(void **state)
{
    (void)state;
    size_t size;
    uint8_t *data = slurp("ethernet.pcapng", &size);
    for (size_t n = 0; n < size; n++) {
        uint8_t *copy = malloc(n ? n : 1); /* exact size: ASan sees overreads */
        memcpy(copy, data, n);
        struct seen s = {.count = 0};
        long frames = capture_for_each_udp(copy, n, on_udp, &s);
        assert_true(frames >= -1 && frames <= 5);
        assert_true(s.count <= 5);
        free(copy);
    }
    free(data);
}

static void not_a_capture(void **state)
{
    (void)state;
    struct seen s = {.count = 0};
    static const uint8_t garbage[64] = {1, 2, 3, 4, 5};
    assert_int_equal(capture_for_each_udp(garbage, sizeof garbage, on_udp, &s), -1);
    assert_int_equal(capture_for_each_udp(garbage, 0, on_udp, &s), -1);
    assert_int_equal(s.count, 0);
}

struct counted {
    unsigned frames, stop_at;
    uint32_t caplens[16];
};

static int count_frame(void *ctx, const struct capture_frame *frame)
{
    struct counted *c = ctx;
    if (c->frames < 16)
        c->caplens[c->frames] = frame->caplen;
    c->frames++;
    return c->frames == c->stop_at;
}

/* capture_each over a capture in memory: its result, and the frames seen. */
static int each_frame(const uint8_t *data, size_t size, struct counted *c, char *error)
{
    capture *cap;
    assert_int_equal(capture_open_memory(data, size, &cap, error), CAPTURE_OPENED);
    int r = capture_each(cap, count_frame, c, error);
    capture_close(cap);
    return r;
}

static void each_stops_and_reports_damage(void **state)
{
    (void)state;
    size_t size;
    uint8_t *data = slurp("ethernet-vlan.pcap", &size);
    char error[CAPTURE_ERROR_SIZE];
    struct counted all = {.stop_at = 0};
    assert_int_equal(each_frame(data, size, &all, error), 0);
    assert_int_equal(all.frames, 7);
    /* Stopped at each frame in turn: no frame after it is handed out. */
    for (unsigned k = 1; k <= 7; k++) {
        struct counted c = {.stop_at = k};
        assert_int_equal(each_frame(data, size, &c, error), 1);
        assert_int_equal(c.frames, k);
        assert_memory_equal(c.caplens, all.caplens, k * sizeof c.caplens[0]);
    }
    /* A record cut short: the frames before it, then the damage. The
     * last record of a classic pcap starts after 24 + the others. */
    size_t last = 24;
    for (unsigned k = 0; k + 1 < all.frames; k++)
        last += 16 + all.caplens[k];
    struct counted cut = {.stop_at = 0};
    assert_int_equal(each_frame(data, last + 16 + all.caplens[6] - 1, &cut, error), -1);
    assert_int_equal(cut.frames, 6);
    assert_non_null(strstr(error, "damaged capture: "));
    free(data);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(good_capture),
        cmocka_unit_test(pcapng_and_cooked),
        cmocka_unit_test(every_truncation),
        cmocka_unit_test(not_a_capture),
        cmocka_unit_test(each_stops_and_reports_damage),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
