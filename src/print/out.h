/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * out.h -- buffered output with hand-written number formatting.
 *
 * The per-packet loops of decode, dump and validate write through this
 * instead of printf: integers, hex and JSON strings are formatted by hand
 * into one buffer that is flushed with fwrite. Floats: float_format.h.
 */
#ifndef BITSIFT_OUT_H
#define BITSIFT_OUT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "print/float_format.h" /* format_float32/64 */

struct out {
    FILE *fp; /* NULL: a memory buffer */
    char *buf;
    size_t len, cap;
    size_t limit; /* a memory buffer grows to at most this; 0: no limit */
    int failed; /* a write failed (disk full, closed pipe), or a memory
                 * buffer reached its limit or found no memory */
};

/* Every time a buffer could not get memory (a stream's at out_init, a
 * memory buffer's as it grew): text was lost. The commands report it as
 * an error at the end of the run (cli_report_counts). */
extern unsigned long out_memory_failures;

void out_init(struct out *o, FILE *fp);
/* A growing memory buffer instead of a stream: o->buf, o->len hold the text. */
void out_init_memory(struct out *o);
/* The same, growing to at most `limit` bytes: past it o->failed is set and
 * the text stops growing (not counted in out_memory_failures: the caller
 * asked for the limit and deals with it). */
void out_init_memory_limited(struct out *o, size_t limit);
/* Flush and free; returns 0, or -1 when any write failed. */
int out_finish(struct out *o);
void out_flush(struct out *o);

/* The most a caller may ask out_reserve for (a stream's buffer is larger). */
#define OUT_RESERVE_MAX 4096

/* What the inline writers below fall back to when the buffer is full. */
void out_bytes_slow(struct out *o, const void *data, size_t size);
char *out_reserve_slow(struct out *o, size_t size);

/*
 * Room for `size` (<= OUT_RESERVE_MAX) bytes at the end of the text: write
 * up to size bytes at the pointer returned, then out_commit the number
 * written. NULL (and o->failed set) when a memory buffer cannot grow.
 */
static inline char *out_reserve(struct out *o, size_t size)
{
    if (o->cap - o->len >= size && o->buf)
        return o->buf + o->len;
    return out_reserve_slow(o, size);
}

static inline void out_commit(struct out *o, size_t n)
{
    o->len += n;
}

static inline void out_bytes(struct out *o, const void *data, size_t size)
{
    /* size - 1 wraps for size 0, which goes the slow way (data may be
     * NULL then, and memcpy must not see it). */
    if (size - 1 < o->cap - o->len) {
        memcpy(o->buf + o->len, data, size);
        o->len += size;
    } else {
        out_bytes_slow(o, data, size);
    }
}

/* With a literal, the compiler folds strlen away. */
static inline void out_str(struct out *o, const char *s)
{
    out_bytes(o, s, strlen(s));
}

static inline void out_char(struct out *o, char c)
{
    if (o->len < o->cap)
        o->buf[o->len++] = c;
    else
        out_bytes_slow(o, &c, 1);
}

void out_repeat(struct out *o, char c, size_t n);

/* The digit-pair and power-of-ten tables are float_format.h's. */

/* The number of decimal digits of v: bits * log10(2), then one compare. */
static inline unsigned out_decimal_length(uint64_t v)
{
    unsigned bits = 64u - (unsigned)__builtin_clzll(v | 1);
    unsigned n = (bits * 1233) >> 12;             /* 1233 / 4096 ~ log10(2) */
    return n + ((v | 1) >= format_powers_of_ten[n]); /* 0 has one digit */
}

/* The `count` last decimal digits of v at text, two at a time from the end
 * (in 32-bit arithmetic once v fits, which is cheaper). */
static inline void out_put_decimal(char *text, uint64_t v, unsigned count)
{
    while (count >= 2 && v > UINT32_MAX) {
        count -= 2;
        memcpy(text + count, format_digit_pairs + 2 * (v % 100), 2);
        v /= 100;
    }
    uint32_t small = (uint32_t)v;
    while (count >= 2) {
        count -= 2;
        memcpy(text + count, format_digit_pairs + 2 * (small % 100), 2);
        small /= 100;
    }
    if (count)
        text[0] = (char)('0' + small % 10);
}

/* Decimal digits of v at text (room for 20); returns how many. */
static inline size_t format_u64(char *text, uint64_t v)
{
    if (v < 100) {
        /* One or two digits, one move from the pair table (for one digit
         * the byte after it is scratch, inside the room of 20). */
        memcpy(text, format_digit_pairs + 2 * v + (v < 10), 2);
        return 1 + (v >= 10);
    }
    unsigned n = out_decimal_length(v);
    out_put_decimal(text, v, n);
    return n;
}

/* The same with a '-' when negative (room for 21). */
static inline size_t format_i64(char *text, int64_t v)
{
    if (v >= 0)
        return format_u64(text, (uint64_t)v);
    text[0] = '-';
    return 1 + format_u64(text + 1, (uint64_t)0 - (uint64_t)v);
}

static inline void out_u64(struct out *o, uint64_t v)
{
    char *text = out_reserve(o, 20);
    if (text)
        out_commit(o, format_u64(text, v));
}

static inline void out_i64(struct out *o, int64_t v)
{
    char *text = out_reserve(o, 21);
    if (text)
        out_commit(o, format_i64(text, v));
}

/* Zero-padded decimal of at least `width` digits. */
void out_u64_width(struct out *o, uint64_t v, unsigned width);
/* Lower-case hex, `digits` wide (leading zeros), 1..16. */
void out_hex_u64(struct out *o, uint64_t v, unsigned digits);
/* Bytes as lower-case hex pairs, no separator. */
void out_hex_bytes(struct out *o, const uint8_t *data, size_t size);
/* A JSON string literal, quotes included; invalid UTF-8 bytes become
 * \u00XX escapes of the byte so that nothing is lost or rejected. */
void out_json_string(struct out *o, const char *s, size_t size);

/* "2026-11-23T09:00:00.123456789Z" (RFC 3339, UTC, nanoseconds). */
size_t format_time_rfc3339(char *buf, int64_t sec, uint32_t nsec);
/* "09:00:00.123456" (UTC time of day with microseconds, like tcpdump). */
size_t format_time_of_day(char *buf, int64_t sec, uint32_t nsec);

#endif /* BITSIFT_OUT_H */
