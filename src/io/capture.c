/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * capture.c -- pcap / pcapng input through libpcap (the only file that
 * includes <pcap.h>).
 *
 * libpcap recognises the format from the magic number, reads one record at
 * a time into a buffer it bounds by the link type's maximum snap length
 * (and rejects records claiming more), and compiles BPF filters; we add the
 * mapping to our link types and messages that say what went wrong.
 * Timestamps are asked for in nanoseconds; libpcap scales microsecond
 * captures up.
 *
 * A classic pcap in the host's byte order, by far the common case, is
 * opened by libpcap but its plain records are then read by classic_pcap.c,
 * in place (from a window mapped onto the file, src/io/file_window.c), until
 * one is not plain (or the file ends): libpcap reads on from that record.
 * On the 1 M-packet bench capture this took `validate` from 222 to 193 ms
 * of CPU (Intel Xeon VM; libpcap's two fread calls and copy per record
 * cost ~30 ns), and the mapping (no kernel copy) then to 157.
 */
#define _GNU_SOURCE /* fmemopen on older C libraries */
#include <errno.h>
#include <pcap/pcap.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "io/byte_cursor.h"
#include "io/capture.h"
#include "io/classic_pcap.h"

/* The block classic_pcap.c reads a file in, never more than the file:
 * 128 KiB stays in the L2 cache between the kernel's copy and our reads
 * (validate on the bench capture: 193 ms of CPU, against 200 ms with
 * 1 MiB blocks and 196 ms with 256 KiB). */
#define CAPTURE_BLOCK (1u << 17)

/* The window classic_pcap.c maps a file in, when it can (file_window.h):
 * at least 2 MiB at a time, ending on a 2 MiB boundary of the file (a few
 * hundred mmap calls a GB; 1, 4 and 16 MiB measured the same before the
 * boundary), and what it adds to the resident memory (the window's pages,
 * at most 4 MiB) stays the same whatever the file's size. */
#define CAPTURE_MAP_WINDOW (2u << 20)
/* A file that fits in one block is read with one pread instead: mapping
 * costs about 5 us a file (mmap, munmap, the SIGBUS handler set and put
 * back), which is what copying some 80 KB costs. `validate` on a
 * directory of 2,000 captures of 10 packets each: 21.8 ms mapped, 12.0 ms
 * in blocks. */

struct capture {
    pcap_t *pcap;
    int link;    /* LINKTYPE_ value */
    int has_filter;
    struct bpf_program filter;
    const uint8_t *memory; /* capture_open_memory's bytes, else NULL */
    size_t memory_size;
    size_t block_size;  /* classic_pcap's block; 0: libpcap reads everything */
    size_t map_window;  /* classic_pcap's window; 0: pread blocks, no mapping */
    uint64_t map_above; /* files of at most this many bytes are not mapped */
    int classic_tried;  /* capture_each has let classic_pcap read */
    uint64_t frames;    /* frames read, filtered or not (the frame number) */
    uint64_t classic_records; /* records classic_pcap read */
};

static void set_error(char error[CAPTURE_ERROR_SIZE], const char *message)
{
    snprintf(error, CAPTURE_ERROR_SIZE, "%s", message);
}

/* DLT_ values that differ from the LINKTYPE_ value stored in files. */
static int link_type_of(int dlt)
{
    switch (dlt) {
#ifdef DLT_RAW
    case DLT_RAW:
        return DECAP_LINK_RAW;
#endif
#ifdef DLT_LOOP
    case DLT_LOOP:
        return DECAP_LINK_LOOP;
#endif
    default:
        return dlt;
    }
}

enum capture_open_result capture_open_stream(FILE *fp, capture **out,
                                             char error[CAPTURE_ERROR_SIZE])
{
    char pcap_error[PCAP_ERRBUF_SIZE] = "";
    *out = NULL;
    pcap_t *p = pcap_fopen_offline_with_tstamp_precision(fp, PCAP_TSTAMP_PRECISION_NANO,
                                                         pcap_error);
    if (!p) {
        /* libpcap's words for "no reader knows this magic number". */
        if (strstr(pcap_error, "unknown file format")) {
            set_error(error, "not a pcap or pcapng capture");
            return CAPTURE_NOT_A_CAPTURE;
        }
        snprintf(error, CAPTURE_ERROR_SIZE, "bad capture file: %s", pcap_error);
        return CAPTURE_FAILED;
    }
    capture *c = calloc(1, sizeof *c);
    if (!c) {
        pcap_close(p);
        set_error(error, "out of memory");
        return CAPTURE_FAILED;
    }
    c->pcap = p;
    c->link = link_type_of(pcap_datalink(p));
    c->block_size = CAPTURE_BLOCK;
    c->map_window = CAPTURE_MAP_WINDOW;
    c->map_above = CAPTURE_BLOCK;
    *out = c;
    return CAPTURE_OPENED;
}

/*
 * The headers capture_header_format knows, in file order (either byte
 * order; a big-endian file holds the magic as read here, a little-endian
 * one holds it byte-swapped):
 *
 *   classic pcap                        pcapng section header block
 *   0  magic          4                 0  block type 0a0d0d0a   4
 *   4  version major  2  (2, or 543)    4  block length          4  (>= 28, 4 | it)
 *   6  version minor  2  (<= 4, or 0)   8  byte-order magic      4  1a2b3c4d
 *   8  ... 16 more bytes (24)           12 version major         2  (1)
 *                                       14 ... 14 more bytes (28)
 */
static uint16_t swap16(uint16_t v)
{
    return (uint16_t)(v << 8 | v >> 8);
}

static uint32_t swap32(uint32_t v)
{
    return v << 24 | (v & 0xff00u) << 8 | (v >> 8 & 0xff00u) | v >> 24;
}

enum capture_format capture_header_format(const void *data, size_t size)
{
    static const uint32_t classic_magics[] = {0xa1b2c3d4u, 0xa1b23c4du, 0xa1b2cd34u};
    struct byte_cursor c = byte_cursor_make(data, size);
    uint32_t magic = get_be32(&c, 0);
    for (size_t i = 0; i < sizeof classic_magics / sizeof classic_magics[0]; i++) {
        if (magic != classic_magics[i] && magic != swap32(classic_magics[i]))
            continue;
        int swapped = magic != classic_magics[i];
        uint16_t major = get_be16(&c, 4), minor = get_be16(&c, 6);
        if (swapped) {
            major = swap16(major);
            minor = swap16(minor);
        }
        cursor_has(&c, 0, 24);
        if (!c.truncated && ((major == 2 && minor <= 4) || (major == 543 && minor == 0)))
            return CAPTURE_FORMAT_PCAP;
        return CAPTURE_FORMAT_NONE;
    }
    if (magic != 0x0a0d0d0au)
        return CAPTURE_FORMAT_NONE;
    uint32_t order = get_be32(&c, 8);
    if (order != 0x1a2b3c4du && order != swap32(0x1a2b3c4du))
        return CAPTURE_FORMAT_NONE;
    int swapped = order != 0x1a2b3c4du;
    uint32_t length = get_be32(&c, 4);
    uint16_t major = get_be16(&c, 12);
    if (swapped) {
        length = swap32(length);
        major = swap16(major);
    }
    cursor_has(&c, 0, 28);
    if (c.truncated || length < 28 || length % 4 != 0 || major != 1)
        return CAPTURE_FORMAT_NONE;
    return CAPTURE_FORMAT_PCAPNG;
}

enum capture_open_result capture_open_memory(const void *data, size_t size, capture **out,
                                             char error[CAPTURE_ERROR_SIZE])
{
    *out = NULL;
    if (size == 0) {
        set_error(error, "empty file");
        return CAPTURE_FAILED;
    }
    /* fmemopen does not write through a read-only mode: the cast is safe. */
    FILE *fp = fmemopen((void *)data, size, "rb");
    if (!fp) {
        snprintf(error, CAPTURE_ERROR_SIZE, "cannot open memory stream: %s", strerror(errno));
        return CAPTURE_FAILED;
    }
    enum capture_open_result r = capture_open_stream(fp, out, error);
    if (r != CAPTURE_OPENED) {
        fclose(fp);
        return r;
    }
    (*out)->memory = data;
    (*out)->memory_size = size;
    return r;
}

void capture_set_block_size(capture *c, size_t bytes)
{
    c->block_size = bytes;
}

void capture_set_map_window(capture *c, size_t bytes)
{
    c->map_window = bytes;
    c->map_above = 0;
}

uint64_t capture_classic_records(const capture *c)
{
    return c->classic_records;
}

int capture_set_filter(capture *c, const char *expression, char error[CAPTURE_ERROR_SIZE])
{
    if (c->has_filter) {
        pcap_freecode(&c->filter);
        c->has_filter = 0;
    }
    if (pcap_compile(c->pcap, &c->filter, expression, 1, PCAP_NETMASK_UNKNOWN) != 0) {
        snprintf(error, CAPTURE_ERROR_SIZE, "bad filter \"%s\": %s", expression,
                 pcap_geterr(c->pcap));
        return -1;
    }
    /* Not pcap_setfilter: libpcap would drop frames before we count them,
     * and a filtered frame would lose its place in the capture. */
    c->has_filter = 1;
    return 0;
}

/* What pcap_dispatch hands each frame to: the caller's function and
 * whether it asked to stop. */
struct capture_loop {
    capture *c;
    pcap_t *pcap;
    capture_frame_fn frame_fn;
    void *ctx;
    int stopped;
};

static void capture_loop_frame(u_char *user, const struct pcap_pkthdr *header, const u_char *data)
{
    struct capture_loop *loop = (struct capture_loop *)user;
    capture *c = loop->c;
    c->frames++;
    if (c->has_filter && !pcap_offline_filter(&c->filter, header, data))
        return;
    struct capture_frame frame = {
        .number = c->frames,
        .data = data,
        .caplen = header->caplen,
        .wirelen = header->len,
        .sec = (int64_t)header->ts.tv_sec,
        /* tv_usec holds nanoseconds with PCAP_TSTAMP_PRECISION_NANO. */
        .nsec = (uint32_t)header->ts.tv_usec,
    };
    if (loop->frame_fn(loop->ctx, &frame)) {
        loop->stopped = 1;
        pcap_breakloop(loop->pcap); /* before libpcap reads another frame */
    }
}

/* Open classic_pcap.c on this capture when it takes it: a classic pcap
 * in host order, of which libpcap has read just the file header from the
 * start of a stream that is in memory or a regular file. */
static int classic_open(capture *c, struct classic_pcap *r)
{
    pcap_t *p = c->pcap;
    FILE *fp = pcap_file(p);
    if (!c->block_size || !fp || pcap_is_swapped(p) || pcap_major_version(p) != 2 ||
        pcap_minor_version(p) != 4 || pcap_snapshot(p) <= 0 || ftello(fp) != CLASSIC_PCAP_HEADER)
        return -1;
    uint32_t snaplen = (uint32_t)pcap_snapshot(p);
    if (c->memory)
        return classic_pcap_open_memory(r, c->memory, c->memory_size, snaplen);
    struct stat st;
    int fd = fileno(fp);
    if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size < 0)
        return -1;
    if (c->map_window && (uint64_t)st.st_size > c->map_above &&
        classic_pcap_open_mapped(r, fd, (uint64_t)st.st_size, c->map_window, snaplen) == 0)
        return 0;
    size_t block = c->block_size;
    if ((uint64_t)st.st_size < block)
        block = st.st_size > CLASSIC_PCAP_RECORD ? (size_t)st.st_size : CLASSIC_PCAP_RECORD;
    return classic_pcap_open_fd(r, fd, block, snaplen);
}

/* The frames classic_pcap.c takes, then libpcap's stream put where it
 * stopped. Returns 1 when frame_fn stopped the reading, 0 to go on with
 * libpcap, -1 when the stream cannot be put there or the mapped file
 * shrank (or failed to be read) under the reader. */
static int classic_each(capture *c, capture_frame_fn frame_fn, void *ctx,
                        char error[CAPTURE_ERROR_SIZE])
{
    struct classic_pcap r;
    if (classic_open(c, &r) != 0)
        return 0;
    struct capture_frame frame;
    int stopped = 0;
    while (classic_pcap_next(&r, &frame) > 0) {
        c->classic_records++;
        frame.number = ++c->frames;
        if (c->has_filter) {
            struct pcap_pkthdr header = {.caplen = frame.caplen, .len = frame.wirelen};
            if (!pcap_offline_filter(&c->filter, &header, frame.data))
                continue;
        }
        if (frame_fn(ctx, &frame)) {
            stopped = 1;
            break;
        }
    }
    uint64_t offset = classic_pcap_offset(&r);
    uint64_t lost = classic_pcap_lost(&r);
    uint64_t size_at_open = classic_pcap_mapped_size(&r);
    classic_pcap_close(&r);
    if (lost) {
        struct stat st;
        if (fstat(fileno(pcap_file(c->pcap)), &st) == 0 && st.st_size >= 0 &&
            (uint64_t)st.st_size < size_at_open)
            snprintf(error, CAPTURE_ERROR_SIZE,
                     "the capture file shrank from %llu to %llu bytes while it was read: what "
                     "lay past byte %llu was read as zeros, and the reading stopped at frame %llu",
                     (unsigned long long)size_at_open, (unsigned long long)st.st_size,
                     (unsigned long long)st.st_size, (unsigned long long)lost);
        else
            snprintf(error, CAPTURE_ERROR_SIZE,
                     "a page of the capture file could not be read (I/O error): frame %llu may "
                     "have been read as zeros, and the reading stopped there",
                     (unsigned long long)lost);
        return -1;
    }
    if (stopped)
        return 1;
    if (offset > INT64_MAX || fseeko(pcap_file(c->pcap), (off_t)offset, SEEK_SET) != 0) {
        snprintf(error, CAPTURE_ERROR_SIZE, "damaged capture: cannot seek to offset %llu: %s",
                 (unsigned long long)offset, strerror(errno));
        return -1;
    }
    return 0;
}

int capture_each(capture *c, capture_frame_fn frame_fn, void *ctx, char error[CAPTURE_ERROR_SIZE])
{
    if (!c->classic_tried) {
        c->classic_tried = 1;
        int r = classic_each(c, frame_fn, ctx, error);
        if (r != 0)
            return r;
    }
    struct capture_loop loop = {c, c->pcap, frame_fn, ctx, 0};
    for (;;) {
        /* -1: until the end of the file, a stop or an error; on a file
         * libpcap stops at INT_MAX frames, hence the loop. */
        int r = pcap_dispatch(c->pcap, -1, capture_loop_frame, (u_char *)&loop);
        if (loop.stopped)
            return 1;
        if (r == 0) /* the end of the file */
            return 0;
        if (r < 0) {
            snprintf(error, CAPTURE_ERROR_SIZE, "damaged capture: %s", pcap_geterr(c->pcap));
            return -1;
        }
    }
}

uint64_t capture_frames_read(const capture *c)
{
    return c->frames;
}

int capture_link_type(const capture *c)
{
    return c->link;
}

const char *capture_link_name(const capture *c)
{
    const char *name = pcap_datalink_val_to_name(pcap_datalink(c->pcap));
    return name ? name : "unknown";
}

void capture_close(capture *c)
{
    if (!c)
        return;
    if (c->has_filter)
        pcap_freecode(&c->filter);
    pcap_close(c->pcap); /* closes the stream too */
    free(c);
}

struct for_each_udp {
    int link;
    uint64_t frames;
    capture_udp_fn udp;
    void *ctx;
};

static int for_each_udp_frame(void *ctx, const struct capture_frame *frame)
{
    struct for_each_udp *each = ctx;
    each->frames = frame->number;
    struct decap_result r;
    if (decap_frame(each->link, frame->data, frame->caplen, frame->wirelen, &r) == DECAP_UDP)
        each->udp(each->ctx, frame->number, &r);
    return 0;
}

long capture_for_each_udp(const void *data, size_t size, capture_udp_fn udp, void *ctx)
{
    char error[CAPTURE_ERROR_SIZE];
    capture *c;
    if (capture_open_memory(data, size, &c, error) != CAPTURE_OPENED)
        return -1;
    struct for_each_udp each = {c->link, 0, udp, ctx};
    capture_each(c, for_each_udp_frame, &each, error);
    capture_close(c);
    return (long)each.frames;
}

/* ------------------------------------------------------------------ */
/* Writing: a classic pcap (microsecond timestamps, Ethernet), as       */
/* tcpdump -w writes it.                                                */
/* ------------------------------------------------------------------ */

struct capture_writer {
    pcap_t *dead;
    pcap_dumper_t *dumper;
};

capture_writer *capture_writer_open(FILE *fp, char error[CAPTURE_ERROR_SIZE])
{
    capture_writer *w = calloc(1, sizeof *w);
    if (!w) {
        set_error(error, "out of memory");
        return NULL;
    }
    w->dead = pcap_open_dead_with_tstamp_precision(DLT_EN10MB, 262144,
                                                   PCAP_TSTAMP_PRECISION_MICRO);
    if (!w->dead) {
        set_error(error, "cannot create a pcap writer");
        free(w);
        return NULL;
    }
    w->dumper = pcap_dump_fopen(w->dead, fp);
    if (!w->dumper) {
        snprintf(error, CAPTURE_ERROR_SIZE, "%s", pcap_geterr(w->dead));
        pcap_close(w->dead);
        free(w);
        return NULL;
    }
    return w;
}

int capture_writer_write(capture_writer *w, int64_t sec, uint32_t nsec, const uint8_t *frame,
                         size_t size)
{
    if (sec < CAPTURE_WRITER_FIRST_SECOND || sec > CAPTURE_WRITER_LAST_SECOND)
        return -1;
    struct pcap_pkthdr header;
    memset(&header, 0, sizeof header);
    header.ts.tv_sec = (time_t)sec;
    header.ts.tv_usec = (suseconds_t)(nsec / 1000);
    header.caplen = header.len = (bpf_u_int32)size;
    pcap_dump((u_char *)w->dumper, &header, frame);
    return 0;
}

int capture_writer_close(capture_writer *w)
{
    if (!w)
        return 0;
    errno = 0;
    int failed = pcap_dump_flush(w->dumper) != 0;
    FILE *fp = pcap_dump_file(w->dumper);
    if (fp && ferror(fp))
        failed = 1;
    int saved = errno ? errno : EIO; /* the first failure's reason */
    pcap_dump_close(w->dumper);
    pcap_close(w->dead);
    free(w);
    errno = saved;
    return failed ? -1 : 0;
}
