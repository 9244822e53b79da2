/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_capture.c -- the in-memory capture path the fuzz harness uses:
 * capture_for_each_udp() over capture bytes held in memory (fmemopen, no
 * temporary file), on good, truncated and garbage captures; and
 * capture_each() stopping where its function says and reporting damage
 * after the frames before it; and classic_pcap.c, which reads the plain
 * records of a classic pcap in libpcap's place, against libpcap alone, from
 * memory and from files read in blocks of many sizes.
 */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "io/capture.h"
#include "frame_log.h"

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

/* ---- classic_pcap.c against libpcap ------------------------------------ */

/* How a file is read: in pread blocks of `block` bytes, or through a
 * window mapped `window` bytes at a time; or, `defaults`, as the command
 * reads it (neither is set). */
struct file_mode {
    size_t block, window;
    int defaults;
};

/* Read `data` whole: from memory, or from a temporary file as `mode` says;
 * block 0 is libpcap alone. Returns 0, or -1 when libpcap does not open
 * it. */
static int read_all_as(const uint8_t *data, size_t size, int from_file, struct file_mode mode,
                       const char *filter, struct frame_log *log)
{
    frame_log_init(log);
    capture *c;
    if (from_file) {
        FILE *fp = tmpfile();
        assert_non_null(fp);
        assert_int_equal(fwrite(data, 1, size, fp), size);
        rewind(fp);
        if (capture_open_stream(fp, &c, log->error) != CAPTURE_OPENED) {
            fclose(fp);
            return -1;
        }
    } else if (capture_open_memory(data, size, &c, log->error) != CAPTURE_OPENED) {
        return -1;
    }
    if (!mode.defaults) {
        capture_set_block_size(c, mode.block);
        capture_set_map_window(c, mode.window);
    }
    if (filter)
        assert_int_equal(capture_set_filter(c, filter, log->error), 0);
    log->result = capture_each(c, frame_log_add, log, log->error);
    log->classic = capture_classic_records(c);
    capture_close(c);
    return 0;
}

static int read_all(const uint8_t *data, size_t size, int from_file, size_t block_size,
                    const char *filter, struct frame_log *log)
{
    struct file_mode blocks = {block_size, 0, 0};
    return read_all_as(data, size, from_file, blocks, filter, log);
}

static void assert_same_log(const struct frame_log *got, const struct frame_log *want)
{
    assert_int_equal(got->result, want->result);
    assert_int_equal(got->frames, want->frames);
    assert_int_equal(got->hash, want->hash);
    if (want->result < 0)
        assert_string_equal(got->error, want->error);
}

/* Every reading of `data` hands out libpcap's frames, result and message;
 * returns the records classic_pcap.c read from memory (-1: libpcap does
 * not open the bytes, nor then does any other reading). */
static long same_as_libpcap(const uint8_t *data, size_t size, const char *filter)
{
    struct frame_log want, got;
    if (read_all(data, size, 0, 0, filter, &want) != 0) {
        assert_int_equal(read_all(data, size, 1, 1 << 20, filter, &got), -1);
        return -1;
    }
    assert_int_equal(want.classic, 0);
    assert_int_equal(read_all(data, size, 0, 1 << 20, filter, &got), 0);
    assert_same_log(&got, &want);
    long classic = (long)got.classic;
    /* Blocks that cut records anywhere, down to one header's worth. */
    static const size_t blocks[] = {16, 17, 40, 100, 1000, 4096, 1 << 20};
    for (size_t k = 0; k < sizeof blocks / sizeof blocks[0]; k++) {
        assert_int_equal(read_all(data, size, 1, blocks[k], filter, &got), 0);
        assert_same_log(&got, &want);
        assert_true(got.classic <= (uint64_t)classic);
    }
    /* Mapped windows that cut records anywhere (a window is at least a
     * page, and grows for a record that does not fit): every record the
     * reading from memory took. */
    static const size_t windows[] = {1, 4096, 8192, 1 << 20};
    for (size_t k = 0; k < sizeof windows / sizeof windows[0]; k++) {
        struct file_mode mapped = {1 << 20, windows[k], 0};
        assert_int_equal(read_all_as(data, size, 1, mapped, filter, &got), 0);
        assert_same_log(&got, &want);
        assert_int_equal(got.classic, classic);
    }
    return classic;
}

static void classic_matches_libpcap_on_test_captures(void **state)
{
    (void)state;
    static const struct {
        const char *name;
        long classic; /* records classic_pcap.c reads from memory */
    } files[] = {
        {"ethernet-vlan.pcap", 7}, {"encoded.pcap", -2}, {"ipv4.pcap", -2},
        {"ipv6.pcap", -2},         {"loop.pcap", -2},    {"mixed.pcap", -2},
        {"null.pcap", -2},         {"problems.pcap", -2}, {"raw.pcap", -2},
        {"sll.pcap", -2},          {"huge-caplen.pcap", -2}, {"truncated-record.pcap", -2},
        {"truncated-header.pcap", -1}, {"bad-version.pcap", -1}, {"unknown-link.pcap", -2},
        {"ethernet.pcapng", 0},    {"sll2.pcapng", 0},   {"bad-block.pcapng", 0},
    };
    for (size_t k = 0; k < sizeof files / sizeof files[0]; k++) {
        size_t size;
        uint8_t *data = slurp(files[k].name, &size);
        long classic = same_as_libpcap(data, size, NULL);
        if (files[k].classic == -2) /* a classic pcap with frames: read here */
            assert_true(classic > 0);
        else
            assert_int_equal(classic, files[k].classic);
        free(data);
    }
}

/* Captures made here, record by record, in the host's byte order unless
 * asked. */
struct built {
    uint8_t bytes[4096];
    size_t size;
    int swap;
};

static void put32(struct built *b, uint32_t v)
{
    if (b->swap)
        v = __builtin_bswap32(v);
    memcpy(b->bytes + b->size, &v, 4);
    b->size += 4;
}

static void put16(struct built *b, uint16_t v)
{
    if (b->swap)
        v = __builtin_bswap16(v);
    memcpy(b->bytes + b->size, &v, 2);
    b->size += 2;
}

static void file_header(struct built *b, uint32_t magic, uint16_t major, uint16_t minor,
                        uint32_t snaplen)
{
    put32(b, magic);
    put16(b, major);
    put16(b, minor);
    put32(b, 0);
    put32(b, 0);
    put32(b, snaplen);
    put32(b, 1); /* Ethernet */
}

/* A record claiming `caplen` bytes, of which `present` follow. */
static void record(struct built *b, uint32_t sec, uint32_t fraction, uint32_t caplen,
                   uint32_t wirelen, uint32_t present)
{
    put32(b, sec);
    put32(b, fraction);
    put32(b, caplen);
    put32(b, wirelen);
    assert_true(b->size + present <= sizeof b->bytes);
    for (uint32_t i = 0; i < present; i++)
        b->bytes[b->size++] = (uint8_t)(i * 7 + caplen);
}

static void classic_matches_libpcap_on_odd_records(void **state)
{
    (void)state;
    static const uint32_t magics[] = {0xa1b2c3d4u, 0xa1b23c4du};
    /* Timestamps at the edges of libpcap's signed 32-bit fields, and the
     * nanosecond scaling of microseconds past 4.29 s. */
    static const uint32_t stamps[][2] = {
        {0, 0},          {1700000000u, 999999u}, {0xffffffffu, 0xffffffffu},
        {0x80000000u, 0x80000000u}, {0x7fffffffu, 5000000u},
    };
    for (size_t m = 0; m < 2; m++) {
        struct built b = {.size = 0};
        file_header(&b, magics[m], 2, 4, 65535);
        for (size_t k = 0; k < sizeof stamps / sizeof stamps[0]; k++)
            record(&b, stamps[k][0], stamps[k][1], (uint32_t)(k * 30), 1500, (uint32_t)(k * 30));
        assert_int_equal(same_as_libpcap(b.bytes, b.size, NULL), 5);
        /* Cut anywhere: the frames before the cut, then libpcap's words. */
        for (size_t n = 24; n < b.size; n++)
            same_as_libpcap(b.bytes, n, NULL);
    }

    /* Longer than the snapshot length: libpcap cuts the record to it and
     * reads on; classic_pcap.c stops there. */
    struct built cut = {.size = 0};
    file_header(&cut, magics[0], 2, 4, 64);
    record(&cut, 1, 2, 64, 64, 64);
    record(&cut, 1, 3, 100, 100, 100);
    record(&cut, 1, 4, 10, 10, 10);
    assert_int_equal(same_as_libpcap(cut.bytes, cut.size, NULL), 1);

    /* Longer than libpcap's maximum (snapshot length 0 means that maximum):
     * libpcap refuses the record, after the frame before it. */
    struct built huge = {.size = 0};
    file_header(&huge, magics[1], 2, 4, 0);
    record(&huge, 1, 2, 20, 20, 20);
    record(&huge, 1, 3, 262145, 262145, 8);
    assert_int_equal(same_as_libpcap(huge.bytes, huge.size, NULL), 1);

    /* Version 2.3 (caplen and len maybe swapped) and a byte-swapped file:
     * libpcap alone, with the same frames. */
    struct built old = {.size = 0};
    file_header(&old, magics[0], 2, 3, 65535);
    record(&old, 1, 2, 30, 20, 30);
    record(&old, 1, 2, 20, 30, 20);
    assert_int_equal(same_as_libpcap(old.bytes, old.size, NULL), 0);
    struct built swapped = {.size = 0, .swap = 1};
    file_header(&swapped, magics[0], 2, 4, 65535);
    record(&swapped, 1, 2, 30, 40, 30);
    assert_int_equal(same_as_libpcap(swapped.bytes, swapped.size, NULL), 0);
}

/* A capture of several MiB, records of 1..1500 bytes: windows of one or
 * two pages and the 2 MiB default all end inside records, many times. */
static void classic_matches_libpcap_across_windows(void **state)
{
    (void)state;
    enum { SIZE = 5 << 20 };
    uint8_t *data = malloc(SIZE);
    assert_non_null(data);
    struct built b = {.size = 0};
    file_header(&b, 0xa1b2c3d4u, 2, 4, 65535);
    memcpy(data, b.bytes, b.size);
    size_t size = b.size;
    uint64_t x = 88172645463325252ull; /* xorshift64 */
    for (uint32_t k = 0;; k++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        uint32_t caplen = 1 + (uint32_t)(x % 1500);
        b.size = 0;
        record(&b, k, k % 1000000, caplen, caplen + 7, caplen);
        if (size + b.size > SIZE)
            break;
        memcpy(data + size, b.bytes, b.size);
        size += b.size;
    }
    long records = same_as_libpcap(data, size, NULL);
    assert_true(records > 6000);
    struct frame_log want, mapped;
    assert_int_equal(read_all(data, size, 0, 0, NULL, &want), 0);
    assert_int_equal(read_all_as(data, size, 1, (struct file_mode){1 << 20, 2 << 20, 0}, NULL,
                                 &mapped),
                     0);
    assert_same_log(&mapped, &want);
    assert_int_equal(mapped.classic, (uint64_t)records);

    /* And as the command reads a file: the defaults, which map a file
     * larger than one block. */
    struct frame_log plain;
    assert_int_equal(read_all_as(data, size, 1, (struct file_mode){0, 0, 1}, NULL, &plain), 0);
    assert_same_log(&plain, &want);
    assert_int_equal(plain.classic, (uint64_t)records);
    free(data);
}

static void classic_applies_the_filter(void **state)
{
    (void)state;
    size_t size;
    uint8_t *data = slurp("ethernet-vlan.pcap", &size);
    struct frame_log all, udp;
    assert_int_equal(read_all(data, size, 0, 1 << 20, NULL, &all), 0);
    assert_int_equal(read_all(data, size, 0, 1 << 20, "udp", &udp), 0);
    assert_true(udp.frames > 0 && udp.frames < all.frames);
    assert_int_equal(same_as_libpcap(data, size, "udp"), 7);
    assert_int_equal(same_as_libpcap(data, size, "tcp"), 7);
    free(data);
}

/* ---- a mapped capture that shrinks while it is read -------------------- */

/* A temporary classic pcap of RECORDS records of 16 + 1000 bytes: record
 * k (1-based) starts at byte 24 + 1016 (k - 1), so records 1..4 lie in
 * the first 4 KiB page and the 5th's header crosses into the second. */
enum { PAYLOAD = 1000, RECORDS = 12 };

static FILE *thousand_byte_records(void)
{
    FILE *fp = tmpfile();
    assert_non_null(fp);
    struct built b = {.size = 0};
    file_header(&b, 0xa1b2c3d4u, 2, 4, 65535);
    assert_int_equal(fwrite(b.bytes, 1, b.size, fp), b.size);
    for (uint32_t k = 0; k < RECORDS; k++) {
        b.size = 0;
        record(&b, k + 1, 0, PAYLOAD, PAYLOAD, PAYLOAD);
        assert_int_equal(fwrite(b.bytes, 1, b.size, fp), b.size);
    }
    assert_int_equal(fflush(fp), 0);
    rewind(fp);
    return fp;
}

/* A frame_log that cuts its file to its first 4 KiB page when frame `at`
 * is handed out, before reading the frame's bytes, and stops after frame
 * `stop`. */
struct shrinking {
    struct frame_log log;
    int fd;
    uint64_t at, stop;
};

static int shrink_at(void *ctx, const struct capture_frame *f)
{
    struct shrinking *s = ctx;
    if (s->log.frames + 1 == s->at)
        assert_int_equal(ftruncate(s->fd, 4096), 0);
    frame_log_add(&s->log, f);
    return s->log.frames == s->stop;
}

/* capture_each over thousand_byte_records() read through a 1 MiB mapped
 * window, cut at frame `at` (0: never), stopped after frame `stop` (0:
 * never). */
static int read_shrinking(uint64_t at, uint64_t stop, struct shrinking *s)
{
    FILE *fp = thousand_byte_records();
    memset(s, 0, sizeof *s);
    frame_log_init(&s->log);
    s->fd = fileno(fp);
    s->at = at;
    s->stop = stop;
    capture *c;
    assert_int_equal(capture_open_stream(fp, &c, s->log.error), CAPTURE_OPENED);
    capture_set_map_window(c, 1 << 20);
    s->log.result = capture_each(c, shrink_at, s, s->log.error);
    s->log.classic = capture_classic_records(c);
    capture_close(c);
    return s->log.result;
}

/* A capture still being written (tcpdump -w): records appended while
 * frame 2 is handed out. The mapped reader stops at the size the file had
 * when it was opened, and libpcap reads the new records from there. */
struct growing {
    struct frame_log log;
    int fd;
};

static int grow_at_2(void *ctx, const struct capture_frame *f)
{
    struct growing *g = ctx;
    frame_log_add(&g->log, f);
    if (g->log.frames == 2) {
        struct built b = {.size = 0};
        for (uint32_t k = 0; k < 3; k++)
            record(&b, 100 + k, 0, 900, 900, 900);
        assert_int_equal(pwrite(g->fd, b.bytes, b.size, 24 + RECORDS * (16 + PAYLOAD)),
                         (ssize_t)b.size);
    }
    return 0;
}

static void mapped_capture_that_grows(void **state)
{
    (void)state;
    FILE *fp = thousand_byte_records();
    struct growing g;
    frame_log_init(&g.log);
    g.fd = fileno(fp);
    capture *c;
    assert_int_equal(capture_open_stream(fp, &c, g.log.error), CAPTURE_OPENED);
    capture_set_map_window(c, 1 << 20);
    assert_int_equal(capture_each(c, grow_at_2, &g, g.log.error), 0);
    assert_int_equal(capture_classic_records(c), RECORDS);
    capture_close(c);
    assert_int_equal(g.log.frames, RECORDS + 3);
}

static void mapped_capture_that_shrinks(void **state)
{
    (void)state;
    struct sigaction before, after;
    assert_int_equal(sigaction(SIGBUS, NULL, &before), 0);

    struct shrinking whole, s;
    assert_int_equal(read_shrinking(0, 0, &whole), 0);
    assert_int_equal(whole.log.frames, RECORDS);
    assert_int_equal(whole.log.classic, RECORDS);

    /* Cut while frame 2 is handed out: frames 1-4 are in the page that is
     * left, and reading frame 5's header faults. The frames handed out
     * are the file's: the same as those of a reading that stops at 4. */
    assert_int_equal(read_shrinking(2, 0, &s), -1);
    assert_int_equal(s.log.frames, 4);
    assert_non_null(strstr(s.log.error, "shrank from 12216 to 4096 bytes"));
    assert_non_null(strstr(s.log.error, "stopped at frame 5"));
    struct shrinking first4;
    assert_int_equal(read_shrinking(0, 4, &first4), 1);
    assert_int_equal(s.log.hash, first4.log.hash);

    /* Cut while frame 5 is handed out, before its bytes are read: they
     * read as zeros, and the reading stops after it. */
    assert_int_equal(read_shrinking(5, 0, &s), -1);
    assert_int_equal(s.log.frames, 5);
    assert_non_null(strstr(s.log.error, "stopped at frame 5"));
    struct shrinking first5;
    assert_int_equal(read_shrinking(0, 5, &first5), 1);
    assert_int_not_equal(s.log.hash, first5.log.hash);

    /* The handler that was there before is back. */
    assert_int_equal(sigaction(SIGBUS, NULL, &after), 0);
    assert_ptr_equal((void *)after.sa_sigaction, (void *)before.sa_sigaction);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(good_capture),
        cmocka_unit_test(pcapng_and_cooked),
        cmocka_unit_test(every_truncation),
        cmocka_unit_test(not_a_capture),
        cmocka_unit_test(each_stops_and_reports_damage),
        cmocka_unit_test(classic_matches_libpcap_on_test_captures),
        cmocka_unit_test(classic_matches_libpcap_on_odd_records),
        cmocka_unit_test(classic_matches_libpcap_across_windows),
        cmocka_unit_test(classic_applies_the_filter),
        cmocka_unit_test(mapped_capture_that_shrinks),
        cmocka_unit_test(mapped_capture_that_grows),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
