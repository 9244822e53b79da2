/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * capture.h -- read pcap and pcapng captures through libpcap, as a stream.
 *
 * The only interface to libpcap in the tree (capture.c is the only file that
 * includes <pcap.h>). The format is recognised by libpcap from the file's
 * contents, never from its name. Frames are handed out one at a time, from
 * libpcap's buffer or, for the plain records of a classic pcap, from
 * classic_pcap.c's mapped window (or block), so memory stays bounded
 * whatever the capture's size.
 *
 * capture_open_memory() reads a capture held in memory (fmemopen, no
 * temporary file): the fuzz harness feeds capture bytes through it and
 * capture_for_each_udp() exactly as the command does.
 */
#ifndef BITSIFT_CAPTURE_H
#define BITSIFT_CAPTURE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "io/decap.h"

#define CAPTURE_ERROR_SIZE 512

typedef struct capture capture;

/* One frame as libpcap returned it; `data` is valid until the next call. */
struct capture_frame {
    uint64_t number;  /* 1-based place in the capture, filtered frames counted
                         (the "frame number" of Wireshark and tcpdump -#) */
    const uint8_t *data;
    uint32_t caplen;  /* bytes captured */
    uint32_t wirelen; /* bytes on the wire */
    int64_t sec;      /* timestamp, seconds since the epoch (UTC) */
    uint32_t nsec;    /* and nanoseconds */
};

enum capture_open_result {
    CAPTURE_OPENED = 0,
    CAPTURE_NOT_A_CAPTURE, /* libpcap knows no format with this magic */
    CAPTURE_FAILED         /* a capture, but a broken or unsupported one */
};

/* Open a capture on an open stream. On success the capture owns `fp`
 * (capture_close closes it); on failure the caller still does, and on
 * CAPTURE_NOT_A_CAPTURE libpcap has read only the 4-byte magic number.
 * `error` gets a message on failure. */
enum capture_open_result capture_open_stream(FILE *fp, capture **out,
                                             char error[CAPTURE_ERROR_SIZE]);

/* What a file's first bytes claim to be, from more than a magic number
 * (which a raw packet's first 4 bytes, its CRC, may hold by chance): a
 * classic pcap header (24 bytes: a magic of microseconds, nanoseconds or
 * Kuznetzov's format in either byte order, then version 2.0 to 2.4, or
 * 543.0, as libpcap accepts) or a pcapng section header block (28 bytes
 * or more: the block type, the byte-order magic at offset 8, a length
 * that is a multiple of 4, major version 1). Whether libpcap can read the
 * rest is another matter (capture_open_*). */
enum capture_format { CAPTURE_FORMAT_NONE, CAPTURE_FORMAT_PCAP, CAPTURE_FORMAT_PCAPNG };
enum capture_format capture_header_format(const void *data, size_t size);

/* Open a capture held in memory (`data` must outlive the capture). */
enum capture_open_result capture_open_memory(const void *data, size_t size, capture **out,
                                             char error[CAPTURE_ERROR_SIZE]);

/* For tests and the fuzz harness: the block classic_pcap.c reads a file
 * in (default 128 KiB), or 0 to have libpcap read every record. Before
 * capture_each. */
void capture_set_block_size(capture *c, size_t bytes);
/* For tests: the window classic_pcap.c maps a file in (default 2 MiB,
 * for files larger than one block), or 0 to read it in pread blocks. Once
 * set, a file is mapped whatever its size. Before capture_each. */
void capture_set_map_window(capture *c, size_t bytes);
/* For tests: the records classic_pcap.c has read (libpcap the others). */
uint64_t capture_classic_records(const capture *c);

/* Compile a BPF filter (tcpdump syntax) for this capture's link type and
 * apply it to every later frame. Returns 0, or -1 with a message. The
 * filter runs here, not in libpcap, so that the frames it drops still
 * count in the frame numbers. */
int capture_set_filter(capture *c, const char *expression, char error[CAPTURE_ERROR_SIZE]);

/* Every frame from here on, in order, to `frame_fn` (`frame` is valid
 * during the call only); a non-zero return stops the reading, and the
 * capture can then only be closed. Returns 1 when frame_fn stopped it, 0
 * at the end of the capture, -1 on a damaged capture (message in error,
 * after the frames before the damage). One call into libpcap
 * (pcap_dispatch) reads the whole capture: a pcap_next_ex per frame ran
 * libpcap's read loop, its one-shot callback and our copy once per frame,
 * about 60 instructions of the ~2,900 that `validate` spent on a shooter
 * packet. */
typedef int (*capture_frame_fn)(void *ctx, const struct capture_frame *frame);
int capture_each(capture *c, capture_frame_fn frame_fn, void *ctx, char error[CAPTURE_ERROR_SIZE]);

/* Frames read so far, filtered or not: the number of the last one. */
uint64_t capture_frames_read(const capture *c);

/* The link type as a LINKTYPE_ value (enum decap_link when supported), and
 * its libpcap name ("EN10MB", "LINUX_SLL2", ...). */
int capture_link_type(const capture *c);
const char *capture_link_name(const capture *c);

/* Closes the capture and its stream. NULL is fine. */
void capture_close(capture *c);

/* For the fuzz harness and tests: every frame of a capture in memory
 * through the decapsulation, calling `udp` for each UDP payload with its
 * 1-based frame number. Returns the number of frames read, or -1 when the
 * bytes are not a readable capture. */
typedef void (*capture_udp_fn)(void *ctx, uint64_t frame_number, const struct decap_result *udp);
long capture_for_each_udp(const void *data, size_t size, capture_udp_fn udp, void *ctx);

/* Write a classic pcap of Ethernet frames with microsecond timestamps to
 * an open stream, which the writer then owns (capture_writer_close closes
 * it). The seconds a classic pcap holds are 32 bits, which libpcap reads
 * as signed and other readers as unsigned: CAPTURE_WRITER_FIRST_SECOND to
 * CAPTURE_WRITER_LAST_SECOND (1970-01-01T00:00:00Z to
 * 2038-01-19T03:14:07Z) mean the same to all of them, and
 * capture_writer_write refuses (-1) any other. */
#define CAPTURE_WRITER_FIRST_SECOND 0
#define CAPTURE_WRITER_LAST_SECOND  INT32_MAX
typedef struct capture_writer capture_writer;
capture_writer *capture_writer_open(FILE *fp, char error[CAPTURE_ERROR_SIZE]);
int capture_writer_write(capture_writer *w, int64_t sec, uint32_t nsec, const uint8_t *frame,
                         size_t size);
/* Flush and close; -1 with errno set when a write failed. NULL is fine. */
int capture_writer_close(capture_writer *w);

#endif /* BITSIFT_CAPTURE_H */
