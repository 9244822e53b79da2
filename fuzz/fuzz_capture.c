/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fuzz_capture.c -- libFuzzer target: pcap / pcapng bytes through the
 * command's capture path — libpcap reading from memory (fmemopen, no
 * temporary file: src/io/capture.c capture_for_each_udp), the link-layer
 * decapsulation (src/io/decap.c) — and every UDP payload into protocol
 * detection and the decoder, against the schemas in use
 * (packet_schemas.h), as `bitsift decode` does.
 *
 * Checked: no crash, no sanitizer report, no hang; each UDP payload lies
 * inside the capture's frame (ASan sees every byte of it read); frame
 * numbers count up from 1; detection names a schema in the list; and the
 * frames, result and message of the capture read with classic_pcap.c
 * taking the plain records (from memory, and on Linux from a memfd file
 * in 64-byte blocks and mapped a page at a time) are those of libpcap
 * reading it alone.
 */
#define _GNU_SOURCE /* memfd_create */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef __linux__
#include <sys/mman.h>
#include <unistd.h>
#endif

#include "bitsift.h"
#include "io/capture.h"
#include "frame_log.h"
#include "packet_schemas.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(cond)                                                                      \
    do {                                                                                 \
        if (!(cond)) {                                                                   \
            fprintf(stderr, "fuzz_capture: %s:%d: check failed: %s\n", __FILE__, __LINE__, \
                    #cond);                                                              \
            abort();                                                                     \
        }                                                                                \
    } while (0)

struct walk {
    uint64_t last_frame;
    uint64_t packets;
};

static void on_udp(void *ctx, uint64_t frame_number, const struct decap_result *udp)
{
    struct walk *w = ctx;
    CHECK(frame_number > w->last_frame || (frame_number == w->last_frame && w->packets > 0));
    w->last_frame = frame_number;
    w->packets++;
    if (udp->status != DECAP_UDP)
        return;
    unsigned sum = 0;
    for (size_t i = 0; i < udp->payload_size; i++)
        sum += udp->payload[i];
    (void)sum;
    size_t n = fuzz_schema_count();
    int which = bitsift_detect(fuzz_schema_list(), n, udp->payload, udp->payload_size);
    CHECK(which >= -1 && which < (int)n);
    bitsift_result res;
    bitsift_decode(fuzz_schema(which >= 0 ? (size_t)which : 0), udp->payload, udp->payload_size,
                   0, NULL, &res);
    CHECK(res.bits <= (uint64_t)udp->payload_size * 8);
}

/* block_size: classic_pcap.c's pread blocks (0: libpcap reads alone);
 * window: its mapped window on a file (0: none, pread). */
static void read_frames(capture *c, size_t block_size, size_t window, struct frame_log *log)
{
    capture_set_block_size(c, block_size);
    capture_set_map_window(c, window);
    log->result = capture_each(c, frame_log_add, log, log->error);
    capture_close(c);
}

/* The capture read whole from memory; block_size 0: by libpcap alone.
 * Returns 0, or -1 when libpcap does not open it. */
static int read_all(const uint8_t *data, size_t size, size_t block_size, struct frame_log *log)
{
    frame_log_init(log);
    capture *c;
    if (capture_open_memory(data, size, &c, log->error) != CAPTURE_OPENED)
        return -1;
    read_frames(c, block_size, 0, log);
    return 0;
}

/* The same from a file in memory (a memfd), as the command reads a
 * capture file: -2 where there is no such file. */
static int read_file(const uint8_t *data, size_t size, size_t block_size, size_t window,
                     struct frame_log *log)
{
    frame_log_init(log);
#ifdef __linux__
    int fd = memfd_create("fuzz_capture", 0);
    if (fd < 0)
        return -2;
    for (size_t done = 0; done < size;) {
        ssize_t n = write(fd, data + done, size - done);
        if (n <= 0) {
            close(fd);
            return -2;
        }
        done += (size_t)n;
    }
    FILE *fp = lseek(fd, 0, SEEK_SET) == 0 ? fdopen(fd, "rb") : NULL;
    if (!fp) {
        close(fd);
        return -2;
    }
    capture *c;
    if (capture_open_stream(fp, &c, log->error) != CAPTURE_OPENED) {
        fclose(fp);
        return -1;
    }
    read_frames(c, block_size, window, log);
    return 0;
#else
    (void)data, (void)size, (void)block_size, (void)window;
    return -2;
#endif
}

static void check_same(const struct frame_log *got, const struct frame_log *want)
{
    CHECK(got->result == want->result);
    CHECK(got->frames == want->frames);
    CHECK(got->hash == want->hash);
    CHECK(got->result >= 0 || strcmp(got->error, want->error) == 0);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    fuzz_schemas_init(argc, argv);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct walk w = {0};
    long frames = capture_for_each_udp(data, size, on_udp, &w);
    CHECK(frames >= -1);
    if (frames >= 0)
        CHECK(w.last_frame <= (uint64_t)frames);

    struct frame_log classic, libpcap, blocks, mapped;
    int opened = read_all(data, size, 1u << 20, &classic);
    CHECK(read_all(data, size, 0, &libpcap) == opened);
    if (opened == 0)
        check_same(&classic, &libpcap);
    int from_file = read_file(data, size, 64, 0, &blocks);
    if (from_file != -2) {
        CHECK(from_file == opened);
        if (opened == 0)
            check_same(&blocks, &libpcap);
    }
    /* Mapped one page at a time (a window grows for a longer record). */
    from_file = read_file(data, size, 64, 1, &mapped);
    if (from_file != -2) {
        CHECK(from_file == opened);
        if (opened == 0)
            check_same(&mapped, &libpcap);
    }
    return 0;
}
