/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * input.h -- every input the command reads, as one stream of packets.
 *
 * An input is a capture (pcap or pcapng, recognised by libpcap from its
 * contents), a raw packet file (any other file: one file, one packet), a
 * directory (every file below it, recursively, in byte order of the names;
 * names starting with '.' are skipped, and so are files that are not
 * regular: a FIFO or a device found in a directory could block the run for
 * ever), or "-" for standard input (a capture or one raw packet). A FIFO or
 * device named as an input is read (it may block, as with cat). Problems
 * with an input are reported through a callback and the run goes on with
 * the next frame or input.
 */
#ifndef BITSIFT_INPUT_H
#define BITSIFT_INPUT_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "io/decap.h"
#include "io/frame_select.h"

/* The largest raw packet file read (a UDP datagram is at most 64 KiB; a
 * fuzzer's crash file can be bigger, this is the hard limit). */
#define INPUT_RAW_PACKET_LIMIT (16u << 20)

struct input_packet {
    const char *source; /* the input file's path, or "<stdin>" */
    uint64_t index;     /* 1-based frame number in a capture; 1 in a packet file */
    int from_capture;   /* the fields below are only set for captures */
    int64_t sec;        /* capture timestamp (UTC) */
    uint32_t nsec;
    const struct decap_address *src, *dst;
    const uint8_t *data; /* the packet: a UDP payload or a file's bytes */
    size_t size;
};

struct input_handler {
    void *ctx;
    /* An input file or capture starts / ends (for one JUnit test case each). */
    void (*begin)(void *ctx, const char *source, int is_capture);
    void (*end)(void *ctx, const char *source);
    /* A packet; return non-zero to stop the whole run (-c reached). */
    int (*packet)(void *ctx, const struct input_packet *packet);
    /* Something could not be read: `index` is the frame number, 0 when
     * the problem is with the input as a whole. */
    void (*problem)(void *ctx, const char *source, uint64_t index, const char *message);
    void *problem_ctx; /* passed to `problem` instead of ctx when set */
};

struct input_options {
    const char *filter; /* BPF expression for captures, or NULL */
    /* All optional. Called with ctx: before a read that may block (a
     * FIFO, device or standard input), so that what was produced is out
     * first; and for a file skipped in a directory. */
    void (*before_blocking)(void *ctx);
    void (*note)(void *ctx, const char *source, const char *message);
    void *ctx;
    /* Non-zero (set by a signal handler) stops the run at the next frame
     * or file; a read it interrupted reports nothing. */
    const volatile sig_atomic_t *stop;
    /* --frame: the frame numbers read from each input, or NULL for all */
    const struct frame_select *frames;
};

struct input_counts {
    uint64_t inputs;    /* files and captures opened */
    uint64_t frames;    /* capture frames read (after the filter) */
    uint64_t packets;   /* packets handed to the handler */
    uint64_t not_ip;    /* frames skipped: not IPv4 / IPv6 */
    uint64_t not_udp;   /* frames skipped: IP but not UDP */
    uint64_t fragments; /* IP fragments reported, not decoded */
    uint64_t snapped;   /* UDP payloads cut by the snap length */
    uint64_t malformed; /* frames with broken headers */
    uint64_t errors;    /* inputs or parts of inputs that could not be read */
};

/* Read every input in order. Returns 1 when the handler asked to stop, else 0. */
int input_run(char *const *paths, size_t count, const struct input_options *options,
              const struct input_handler *handler, struct input_counts *counts);

#endif /* BITSIFT_INPUT_H */
