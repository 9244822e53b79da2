/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * frame_log.h -- what capture_each hands out, reduced to a count and one
 * FNV-1a hash of every frame's lengths, timestamp and bytes, so that two
 * readings of a capture (classic_pcap.c's and libpcap's alone) can be
 * compared. Shared by fuzz_capture and tests/cli/test_capture.c.
 */
#ifndef BITSIFT_FRAME_LOG_H
#define BITSIFT_FRAME_LOG_H

#include <stdint.h>
#include <string.h>

#include "io/capture.h"

struct frame_log {
    uint64_t frames, hash;
    uint64_t classic; /* records classic_pcap.c read, where the reader asks */
    int result;       /* capture_each's */
    char error[CAPTURE_ERROR_SIZE];
};

static inline void frame_log_init(struct frame_log *log)
{
    memset(log, 0, sizeof *log);
    log->hash = 0xcbf29ce484222325ull;
}

static inline void frame_log_hash(uint64_t *h, const void *data, size_t size)
{
    const uint8_t *p = data;
    for (size_t i = 0; i < size; i++)
        *h = (*h ^ p[i]) * 0x100000001b3ull;
}

/* A capture_frame_fn: ctx is the struct frame_log. */
static inline int frame_log_add(void *ctx, const struct capture_frame *f)
{
    struct frame_log *log = ctx;
    log->frames++;
    frame_log_hash(&log->hash, &f->caplen, sizeof f->caplen);
    frame_log_hash(&log->hash, &f->wirelen, sizeof f->wirelen);
    frame_log_hash(&log->hash, &f->sec, sizeof f->sec);
    frame_log_hash(&log->hash, &f->nsec, sizeof f->nsec);
    frame_log_hash(&log->hash, f->data, f->caplen);
    return 0;
}

#endif /* BITSIFT_FRAME_LOG_H */
