/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * out.c -- buffered output and the number, string and time formats the
 * command prints (see out.h for why no printf here).
 */
#include <stdlib.h>
#include <string.h>

#include "bitsift/bits.h" /* bitsift_utf8_sequence */
#include "print/out.h"

/* A stream's buffer: written with one fwrite when full, so that decoding a
 * capture makes one write(2) per few hundred packets. */
#define OUT_BUFFER (256 * 1024)

unsigned long out_memory_failures;

void out_init(struct out *o, FILE *fp)
{
    o->fp = fp;
    o->buf = malloc(OUT_BUFFER);
    o->cap = o->buf ? OUT_BUFFER : 0;
    o->len = 0;
    o->limit = 0;
    o->failed = o->buf == NULL;
    if (!o->buf)
        out_memory_failures++;
}

/* Hand the buffered text to the stream (no fflush). */
static void out_drain(struct out *o)
{
    if (o->len && fwrite(o->buf, 1, o->len, o->fp) != o->len)
        o->failed = 1;
    o->len = 0;
}

void out_flush(struct out *o)
{
    if (!o->fp)
        return;
    out_drain(o);
    if (fflush(o->fp) != 0)
        o->failed = 1;
}

int out_finish(struct out *o)
{
    out_flush(o);
    free(o->buf);
    o->buf = NULL;
    o->cap = 0;
    if (o->fp && ferror(o->fp))
        o->failed = 1;
    return o->failed ? -1 : 0;
}

/* A memory buffer (fp NULL) grows, up to its limit if it has one. */
static int out_grow(struct out *o, size_t size)
{
    size_t limit = o->limit ? o->limit : SIZE_MAX;
    if (size > limit - o->len) {
        o->failed = 1;
        return -1;
    }
    size_t cap = o->cap ? o->cap : 256;
    while (cap - o->len < size)
        cap = cap > limit / 2 ? limit : cap * 2;
    char *b = realloc(o->buf, cap);
    if (!b) {
        if (!o->failed && !o->limit)
            out_memory_failures++; /* a limited buffer's caller copes */
        o->failed = 1;
        return -1;
    }
    o->buf = b;
    o->cap = cap;
    return 0;
}

void out_init_memory(struct out *o)
{
    o->fp = NULL;
    o->buf = NULL;
    o->cap = o->len = 0;
    o->limit = 0;
    o->failed = 0;
}

void out_init_memory_limited(struct out *o, size_t limit)
{
    out_init_memory(o);
    o->limit = limit;
}

void out_bytes_slow(struct out *o, const void *data, size_t size)
{
    if (size == 0)
        return; /* data may be NULL then (an empty string or field) */
    if (!o->fp) {
        if (o->cap - o->len < size && out_grow(o, size) != 0)
            return;
        memcpy(o->buf + o->len, data, size);
        o->len += size;
        return;
    }
    if (o->cap - o->len < size) {
        out_drain(o);
        if (size > o->cap) {
            if (fwrite(data, 1, size, o->fp) != size)
                o->failed = 1;
            return;
        }
    }
    memcpy(o->buf + o->len, data, size);
    o->len += size;
}

char *out_reserve_slow(struct out *o, size_t size)
{
    if (o->fp) {
        out_drain(o);
        return o->cap >= size ? o->buf : NULL; /* cap is OUT_BUFFER or 0 */
    }
    if (out_grow(o, size) != 0)
        return NULL;
    return o->buf + o->len;
}

void out_repeat(struct out *o, char c, size_t n)
{
    char chunk[64];
    memset(chunk, c, sizeof chunk);
    while (n) {
        size_t k = n < sizeof chunk ? n : sizeof chunk;
        out_bytes(o, chunk, k);
        n -= k;
    }
}

void out_u64_width(struct out *o, uint64_t v, unsigned width)
{
    unsigned n = out_decimal_length(v);
    if (width > 20)
        width = 20;
    if (n < width)
        n = width; /* the leading digits come out as zeros */
    char *text = out_reserve(o, 20);
    if (!text)
        return;
    out_put_decimal(text, v, n);
    out_commit(o, n);
}

static const char hex_digits[] = "0123456789abcdef";

void out_hex_u64(struct out *o, uint64_t v, unsigned digits)
{
    char text[16];
    if (digits < 1)
        digits = 1;
    if (digits > 16)
        digits = 16;
    for (unsigned i = 0; i < digits; i++)
        text[digits - 1 - i] = hex_digits[(v >> (4 * i)) & 15];
    out_bytes(o, text, digits);
}

void out_hex_bytes(struct out *o, const uint8_t *data, size_t size)
{
    char chunk[128];
    while (size) {
        size_t k = size < sizeof chunk / 2 ? size : sizeof chunk / 2;
        for (size_t i = 0; i < k; i++) {
            chunk[2 * i] = hex_digits[data[i] >> 4];
            chunk[2 * i + 1] = hex_digits[data[i] & 15];
        }
        out_bytes(o, chunk, 2 * k);
        data += k;
        size -= k;
    }
}

/* Bytes that go into a JSON string as they are without a closer look:
 * ASCII from the space up (DEL included) other than the quote and the backslash. */
static const unsigned char json_plain[256] = {
    [0x20] = 1,
    [0x21] = 1,
    [0x23 ... 0x5b] = 1,
    [0x5d ... 0x7f] = 1,
};

/* The escape of a byte that JSON cannot take as it is, at w; its length. */
static size_t json_escape(char *w, unsigned char c)
{
    switch (c) {
    case '"':
        memcpy(w, "\\\"", 2);
        return 2;
    case '\\':
        memcpy(w, "\\\\", 2);
        return 2;
    case '\n':
        memcpy(w, "\\n", 2);
        return 2;
    case '\t':
        memcpy(w, "\\t", 2);
        return 2;
    case '\r':
        memcpy(w, "\\r", 2);
        return 2;
    default: {
        char esc[6] = {'\\', 'u', '0', '0', hex_digits[c >> 4], hex_digits[c & 15]};
        memcpy(w, esc, sizeof esc);
        return sizeof esc;
    }
    }
}

/* Strings up to this long are written straight into the buffer (room for
 * every byte escaped); longer ones go in runs. */
#define JSON_SHORT_STRING 256

void out_json_string(struct out *o, const char *text, size_t size)
{
    const unsigned char *s = (const unsigned char *)text;
    if (size <= JSON_SHORT_STRING) {
        char *start = out_reserve(o, 6 * size + 2);
        if (!start)
            return;
        char *w = start;
        *w++ = '"';
        for (size_t i = 0; i < size;) {
            unsigned char c = s[i];
            if (json_plain[c]) {
                *w++ = (char)c;
                i++;
                continue;
            }
            size_t n = c >= 0x80 ? bitsift_utf8_sequence(s + i, size - i) : 0;
            if (n) {
                memcpy(w, s + i, n);
                w += n;
                i += n;
            } else {
                w += json_escape(w, c);
                i++;
            }
        }
        *w++ = '"';
        out_commit(o, (size_t)(w - start));
        return;
    }
    out_char(o, '"');
    size_t run = 0; /* bytes that need no escape, written in one go */
    for (size_t i = 0; i < size;) {
        unsigned char c = s[i];
        if (json_plain[c]) {
            i++;
            run++;
            continue;
        }
        size_t n = c >= 0x80 ? bitsift_utf8_sequence(s + i, size - i) : 0;
        if (n) {
            i += n;
            run += n;
            continue;
        }
        out_bytes(o, s + i - run, run);
        run = 0;
        char esc[6];
        out_bytes(o, esc, json_escape(esc, c));
        i++;
    }
    out_bytes(o, s + size - run, run);
    out_char(o, '"');
}

/* Days since 1970-01-01 to a civil date (H. Hinnant's algorithm), valid
 * over the whole int64 range that a capture timestamp can hold. */
static void civil_from_days(int64_t z, int64_t *y, unsigned *m, unsigned *d)
{
    z += 719468;
    int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    unsigned doe = (unsigned)(z - era * 146097);
    unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    int64_t year = (int64_t)yoe + era * 400;
    unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    unsigned mp = (5 * doy + 2) / 153;
    *d = doy - (153 * mp + 2) / 5 + 1;
    *m = mp < 10 ? mp + 3 : mp - 9;
    *y = year + (*m <= 2);
}

static size_t put_digits(char *buf, uint64_t v, unsigned width)
{
    for (unsigned i = 0; i < width; i++) {
        buf[width - 1 - i] = (char)('0' + v % 10);
        v /= 10;
    }
    return width;
}

/* Split sec into whole days since the epoch (rounded down) and the second
 * of that day, for every int64 (days * 86400 would overflow near
 * INT64_MIN: it is never formed). */
static void split_days(int64_t sec, int64_t *days, int64_t *second_of_day)
{
    int64_t rest = sec % 86400;
    *days = sec / 86400 - (rest < 0);
    *second_of_day = rest < 0 ? rest + 86400 : rest;
}

/* The seconds RFC 3339 can write: 0000-01-01T00:00:00Z to 9999-12-31T23:59:59Z. */
#define RFC3339_FIRST_SECOND (-62167219200LL)
#define RFC3339_LAST_SECOND  253402300799LL

size_t format_time_rfc3339(char *buf, int64_t sec, uint32_t nsec)
{
    nsec %= 1000000000u;
    /* Outside the four-digit years, saturate the whole time, not just
     * the year: a reader then sees the end of the range, not a date that
     * looks real. */
    if (sec < RFC3339_FIRST_SECOND) {
        sec = RFC3339_FIRST_SECOND;
        nsec = 0;
    } else if (sec > RFC3339_LAST_SECOND) {
        sec = RFC3339_LAST_SECOND;
        nsec = 999999999;
    }
    int64_t days, rest;
    split_days(sec, &days, &rest);
    int64_t year;
    unsigned month, day;
    civil_from_days(days, &year, &month, &day);
    size_t n = 0;
    n += put_digits(buf + n, (uint64_t)year, 4);
    buf[n++] = '-';
    n += put_digits(buf + n, month, 2);
    buf[n++] = '-';
    n += put_digits(buf + n, day, 2);
    buf[n++] = 'T';
    n += put_digits(buf + n, (uint64_t)rest / 3600, 2);
    buf[n++] = ':';
    n += put_digits(buf + n, (uint64_t)rest / 60 % 60, 2);
    buf[n++] = ':';
    n += put_digits(buf + n, (uint64_t)rest % 60, 2);
    buf[n++] = '.';
    n += put_digits(buf + n, nsec, 9);
    buf[n++] = 'Z';
    buf[n] = '\0';
    return n;
}

size_t format_time_of_day(char *buf, int64_t sec, uint32_t nsec)
{
    int64_t days, rest;
    split_days(sec, &days, &rest);
    size_t n = 0;
    n += put_digits(buf + n, (uint64_t)rest / 3600, 2);
    buf[n++] = ':';
    n += put_digits(buf + n, (uint64_t)rest / 60 % 60, 2);
    buf[n++] = ':';
    n += put_digits(buf + n, (uint64_t)rest % 60, 2);
    buf[n++] = '.';
    n += put_digits(buf + n, nsec % 1000000000u / 1000, 6);
    buf[n] = '\0';
    return n;
}
