/*
 * out.h -- buffered output with hand-written number formatting.
 *
 * The per-packet loops of decode, dump and validate write through this
 * instead of printf: integers, hex and JSON strings are formatted by hand
 * into one buffer that is flushed with fwrite. Floats print as the shortest
 * decimal (within a digit) that reads back to the same bits.
 */
#ifndef BITSIFT_OUT_H
#define BITSIFT_OUT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct out {
    FILE *fp; /* NULL: a memory buffer */
    char *buf;
    size_t len, cap;
    int failed; /* a write failed (disk full, closed pipe) */
};

void out_init(struct out *o, FILE *fp);
/* A growing memory buffer instead of a stream: o->buf, o->len hold the text. */
void out_init_memory(struct out *o);
/* Flush and free; returns 0, or -1 when any write failed. */
int out_finish(struct out *o);
void out_flush(struct out *o);

void out_bytes(struct out *o, const void *data, size_t size);
void out_str(struct out *o, const char *s);
void out_char(struct out *o, char c);
void out_repeat(struct out *o, char c, size_t n);
void out_u64(struct out *o, uint64_t v);
void out_i64(struct out *o, int64_t v);
/* Zero-padded decimal of at least `width` digits. */
void out_u64_width(struct out *o, uint64_t v, unsigned width);
/* Lower-case hex, `digits` wide (leading zeros), 1..16. */
void out_hex_u64(struct out *o, uint64_t v, unsigned digits);
/* Bytes as lower-case hex pairs, no separator. */
void out_hex_bytes(struct out *o, const uint8_t *data, size_t size);
/* A JSON string literal, quotes included; invalid UTF-8 bytes become
 * \u00XX escapes of the byte so that nothing is lost or rejected. */
void out_json_string(struct out *o, const char *s, size_t size);

/* Shortest round-trip text of a float / double. Finite values always have
 * a '.' or an exponent (so JSON readers take them as reals, and -0.0 keeps
 * its sign). Non-finite values give "inf", "-inf" and "nan:0x<bits>" (the
 * raw IEEE bits, so that NaN payloads survive); the JSON writer quotes
 * those. Return the length written into buf (at least 32 bytes). */
size_t format_float32(char *buf, float v);
size_t format_float64(char *buf, double v);
/* Whether format_float* gave a non-finite spelling that must be quoted in JSON. */
int format_is_nonfinite(const char *text);

/* Parse what format_float32/64 print (and any JSON number or the quoted
 * spellings): 0 on success. */
int parse_float32(const char *text, float *v);
int parse_float64(const char *text, double *v);

/* "2026-11-23T09:00:00.123456789Z" (RFC 3339, UTC, nanoseconds). */
size_t format_time_rfc3339(char *buf, int64_t sec, uint32_t nsec);
/* "09:00:00.123456" (UTC time of day with microseconds, like tcpdump). */
size_t format_time_of_day(char *buf, int64_t sec, uint32_t nsec);
/* Parse an RFC 3339 time as printed above (with any number of fraction
 * digits up to 9, 'Z' or an offset). 0 on success. */
int parse_time_rfc3339(const char *text, int64_t *sec, uint32_t *nsec);

#endif /* BITSIFT_OUT_H */
