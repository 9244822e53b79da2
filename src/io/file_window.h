/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * file_window.h -- a read-only window mapped onto a regular file, moved
 * along as the file is read, for classic_pcap.c.
 *
 * Reading a capture with pread(2) makes the kernel copy every byte once
 * more: about 13 ns a packet of `bitsift validate`'s ~170 on the 1 M-packet
 * bench capture. A window maps the file's page-cache pages instead, a few
 * MiB at a time (MAP_POPULATE: the page tables are filled in the mmap
 * call rather than one fault at a time), so memory stays bounded whatever
 * the file's size.
 *
 * A mapped file that shrinks while it is read turns a read of the lost
 * pages into SIGBUS, and so does an I/O error while a page is read in. A
 * command reading a file an attacker can truncate must not die of that.
 * While a window is open, a SIGBUS handler maps zero-filled memory over
 * the window from the faulting page on and records the loss; the read
 * that faulted then sees zeros, and file_window_lost() tells the reader,
 * which stops with an error. A SIGBUS at any other address goes to the
 * handler that was there before (or kills the process as it would have).
 *
 *   file:    0 ........ start ============ start+size ........ file_size
 *   memory:             base[0] ..... base[size-1]
 *                       (start is a multiple of the page size)
 */
#ifndef BITSIFT_FILE_WINDOW_H
#define BITSIFT_FILE_WINDOW_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

struct file_window {
    int fd;
    uint64_t file_size;  /* the size at open: nothing past it is mapped */
    size_t window;       /* bytes mapped at a time (at least) */
    uint64_t align;      /* a window ends on a multiple of this */
    const uint8_t *base; /* the mapping, NULL when none */
    uint64_t start;      /* file offset of base[0] */
    size_t size;         /* bytes of the file at base */
    size_t mapped;       /* bytes mapped (size rounded up to pages) */
};

/* Map windows of at least `window` bytes of the regular file open on `fd`,
 * of which `file_size` bytes are read. Returns 0, or -1 when the file
 * cannot be mapped or another window is open (one at a time: the SIGBUS
 * handler knows one); the caller then reads the file another way. */
int file_window_open(struct file_window *w, int fd, uint64_t file_size, size_t window);

/* The file's bytes [offset, offset + need) in memory, valid until the next
 * call or close; NULL when they are not all in the file (as it was at open)
 * or cannot be mapped. */
const uint8_t *file_window_at(struct file_window *w, uint64_t offset, size_t need);

/* Set by the SIGBUS handler; read it through file_window_lost. */
extern volatile sig_atomic_t file_window_faulted;

/* 1 once a read of the window faulted (the file shrank or could not be
 * read in): bytes read since may be zeros in place of the file's. Inline:
 * the reader asks once a record. */
static inline int file_window_lost(const struct file_window *w)
{
    (void)w;
    return file_window_faulted != 0;
}

void file_window_close(struct file_window *w);

#endif /* BITSIFT_FILE_WINDOW_H */
