/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * classic_pcap.h -- the records of a classic pcap file read in place, for
 * capture.c, which opens every capture through libpcap and then lets this
 * reader hand out the plain records.
 *
 * libpcap reads a record with two fread calls and copies it into its own
 * buffer: about 30 ns a packet, 13 % of `bitsift validate`'s time on the
 * 1 M-packet bench capture. Here a record is parsed where it lies: in the
 * capture's bytes when they are in memory, else in a window mapped onto
 * the file (file_window.h), else (when the file cannot be mapped) in a
 * block filled with pread(2). Only what libpcap would read the same way
 * is handed out:
 *
 *   - the file: a classic pcap (not pcapng, not the "modified" format of
 *     magic a1b2cd34) in this host's byte order, version 2.4;
 *   - a record: whole in the file, and no longer than the snapshot length
 *     and libpcap's usual maximum (262,144 bytes), so that libpcap would
 *     neither cut it nor refuse it.
 *
 * Anything else stops the reader where that record starts, and libpcap
 * reads on from there (classic_pcap_offset): the end of the file, a
 * truncated record, an oversized one, a read error. libpcap thus stays
 * the one judge of damage and the author of its messages.
 *
 *   file header, 24 bytes           record: 16 bytes, then caplen bytes
 *   0  magic  a1b2c3d4 (us)         0  seconds          i32
 *             a1b23c4d (ns)         4  micro/nanosecs   i32
 *   4  version 2 (u16), 4 (u16)     8  caplen           u32
 *   8  thiszone, 12 sigfigs         12 length on wire   u32
 *   16 snaplen, 20 link type        16 data[caplen]
 */
#ifndef BITSIFT_CLASSIC_PCAP_H
#define BITSIFT_CLASSIC_PCAP_H

#include <stddef.h>
#include <stdint.h>

#include "io/capture.h"
#include "io/file_window.h"

#define CLASSIC_PCAP_HEADER 24
#define CLASSIC_PCAP_RECORD 16
/* The largest record handed out: libpcap's maximum snapshot length for
 * all but a few link types bitsift does not read. */
#define CLASSIC_PCAP_MAX_CAPLEN 262144u

struct classic_pcap {
    const uint8_t *data; /* the capture in memory, the window or the block */
    size_t size;         /* bytes at data */
    size_t pos;          /* the next record's offset in data */
    uint64_t base;       /* file offset of data[0] */
    int fd;              /* -1: the capture is in memory */
    uint8_t *block;      /* pread's block (fd mode), block_size bytes */
    size_t block_size;
    int mapped;          /* the file is read through `window`, not pread */
    struct file_window window;
    uint64_t records;     /* records handed out */
    uint64_t lost_record; /* classic_pcap_lost's answer once known, else 0 */
    uint32_t snaplen; /* libpcap's snapshot length for the file */
    int nano;         /* timestamps in nanoseconds (else microseconds) */
};

/* Start after the header of a capture held in memory, or of the regular
 * file open on `fd` (read with pread, so the descriptor's offset is not
 * moved), with a block of `block_size` bytes (at least a record header's
 * worth). `snaplen` is libpcap's for the file. Returns 0, or -1 when the
 * header is not one this reader takes (or no memory for the block): then
 * libpcap reads everything. */
int classic_pcap_open_memory(struct classic_pcap *r, const void *data, size_t size,
                             uint32_t snaplen);
int classic_pcap_open_fd(struct classic_pcap *r, int fd, size_t block_size, uint32_t snaplen);
/* The same file, `file_size` bytes of it, mapped `window` bytes at a time
 * (file_window.h); -1 also when it cannot be mapped. */
int classic_pcap_open_mapped(struct classic_pcap *r, int fd, uint64_t file_size, size_t window,
                             uint32_t snaplen);

/* The next record as a frame (valid until the next call), 1; 0 where
 * libpcap must take over; -1 when the mapped file shrank (or could not be
 * read in) under the reader: the frame handed out last may hold zeros in
 * place of its bytes, and the reading must stop with an error. */
int classic_pcap_next(struct classic_pcap *r, struct capture_frame *frame);

/* When a read of the mapped file faulted (as -1 from classic_pcap_next
 * says, or while the last frame handed out was used): the 1-based number
 * of the first record that may hold zeros; else 0. */
uint64_t classic_pcap_lost(const struct classic_pcap *r);

/* The file's size when it was opened, for a file read through a mapping
 * (what a shrink is measured against); 0 otherwise. */
uint64_t classic_pcap_mapped_size(const struct classic_pcap *r);

/* The file offset of the first record not handed out. */
uint64_t classic_pcap_offset(const struct classic_pcap *r);

void classic_pcap_close(struct classic_pcap *r);

#endif /* BITSIFT_CLASSIC_PCAP_H */
