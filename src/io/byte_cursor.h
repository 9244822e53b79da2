/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * byte_cursor.h -- checked loads from captured bytes, in the manner of
 * tcpdump's GET_ macros: the bounds check is inside the accessor, so a
 * header decoder never reads packet memory directly and never writes a
 * size test of its own before a load.
 *
 * A load that would reach past the captured bytes returns 0 and sets the
 * cursor's `truncated` flag, which stays set (like the bit reader's sticky
 * failure). A decoder reads a header's fields, then asks once whether they
 * were all there, and reports the truncation in its own words. Offsets are
 * from the cursor's position; multi-byte loads are unaligned.
 */
#ifndef BITSIFT_BYTE_CURSOR_H
#define BITSIFT_BYTE_CURSOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct byte_cursor {
    const uint8_t *p;
    size_t size;    /* captured bytes from p on */
    bool truncated; /* a load or a skip reached past them (sticky) */
};

static inline struct byte_cursor byte_cursor_make(const uint8_t *p, size_t size)
{
    struct byte_cursor c = {p, p ? size : 0, false};
    return c;
}

/* Whether the n bytes at offset were captured; if not, the cursor is
 * marked truncated. */
static inline bool cursor_has(struct byte_cursor *c, size_t offset, size_t n)
{
    if (n <= c->size && offset <= c->size - n)
        return true;
    c->truncated = true;
    return false;
}

static inline uint8_t get_u8(struct byte_cursor *c, size_t offset)
{
    return cursor_has(c, offset, 1) ? c->p[offset] : 0;
}

static inline uint16_t get_be16(struct byte_cursor *c, size_t offset)
{
    if (!cursor_has(c, offset, 2))
        return 0;
    const uint8_t *q = c->p + offset;
    return (uint16_t)(q[0] << 8 | q[1]);
}

static inline uint32_t get_be32(struct byte_cursor *c, size_t offset)
{
    if (!cursor_has(c, offset, 4))
        return 0;
    const uint8_t *q = c->p + offset;
    return (uint32_t)q[0] << 24 | (uint32_t)q[1] << 16 | (uint32_t)q[2] << 8 | q[3];
}

static inline uint32_t get_le32(struct byte_cursor *c, size_t offset)
{
    if (!cursor_has(c, offset, 4))
        return 0;
    const uint8_t *q = c->p + offset;
    return (uint32_t)q[3] << 24 | (uint32_t)q[2] << 16 | (uint32_t)q[1] << 8 | q[0];
}

/* n bytes into dst, or zeros when they were not all captured. */
static inline void get_bytes(struct byte_cursor *c, size_t offset, void *dst, size_t n)
{
    if (cursor_has(c, offset, n))
        memcpy(dst, c->p + offset, n);
    else
        memset(dst, 0, n);
}

/* Step over n bytes; false (and truncated) when fewer are left, the cursor
 * then unmoved. */
static inline bool cursor_skip(struct byte_cursor *c, size_t n)
{
    if (!cursor_has(c, 0, n))
        return false;
    c->p += n;
    c->size -= n;
    return true;
}

/* Forget what lies past the first n bytes (a trailer, link-layer padding). */
static inline void cursor_limit(struct byte_cursor *c, size_t n)
{
    if (c->size > n)
        c->size = n;
}

#endif /* BITSIFT_BYTE_CURSOR_H */
