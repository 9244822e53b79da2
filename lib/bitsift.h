/*
 * bitsift.h -- the one public header of libbitsift.
 *
 * libbitsift reads and writes bit-packed game network packets the way the
 * reference bitpacker (Glenn Fiedler's serialize.h / protocol2.h) writes
 * them, hardened for hostile input:
 *
 *   - every read is bounds-checked and the first failure is sticky: once a
 *     read has failed, every later read fails too and returns nothing new;
 *   - integers are read with their range, and a raw value outside it fails;
 *   - alignment padding must be zero, check markers must match, and framed
 *     packets carry a CRC32 seeded with an unsent 32-bit protocol id.
 *
 * The hot read path is inline in this header over a plain struct (like
 * FFmpeg's get_bits.h or zstd's bitstream.h); everything else is a normal
 * function. Every exported symbol starts with bitsift_ / BITSIFT_.
 *
 * Wire format (LSB first): bit k of the stream is bit (k mod 8) of byte
 * k / 8. A field of width n written at bit p puts bit i of its value at
 * stream bit p + i. See man/libbitsift.3 for the full reference.
 */
#ifndef BITSIFT_H
#define BITSIFT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ */
/* Version                                                             */
/* ------------------------------------------------------------------ */

#define BITSIFT_VERSION_MAJOR  0
#define BITSIFT_VERSION_MINOR  1
#define BITSIFT_VERSION_PATCH  0
#define BITSIFT_VERSION_STRING "0.1.0"
/* MAJOR * 10000 + MINOR * 100 + PATCH, comparable with < and >. */
#define BITSIFT_VERSION_NUMBER \
    (BITSIFT_VERSION_MAJOR * 10000 + BITSIFT_VERSION_MINOR * 100 + BITSIFT_VERSION_PATCH)

/* The version of the library actually linked, to compare with the macros. */
unsigned bitsift_version_number(void);
const char *bitsift_version_string(void);

/* ------------------------------------------------------------------ */
/* Errors: one enum, stable values, one string table (errors.c)        */
/* ------------------------------------------------------------------ */

typedef enum bitsift_error {
    BITSIFT_OK = 0,
    BITSIFT_E_OVERFLOW = 1,  /* read past the end / write past the buffer */
    BITSIFT_E_RANGE = 2,     /* decoded value outside what the field allows */
    BITSIFT_E_ALIGN = 3,     /* a non-zero alignment padding bit */
    BITSIFT_E_CHECK = 4,     /* serialization check marker mismatch */
    BITSIFT_E_CRC = 5,       /* CRC32 mismatch (or wrong protocol id) */
    BITSIFT_E_PROTOCOL = 6,  /* no known protocol / packet type accepts it */
    BITSIFT_E_STRING = 7,    /* string with an interior NUL or bad UTF-8 */
    BITSIFT_E_TRAILING = 8,  /* data left after the packet where none is allowed */
    BITSIFT_E_VALUE = 9,     /* writer given a value its field cannot hold */
    BITSIFT_E_ARGUMENT = 10, /* bad parameter: width, min > max, NULL ... */
    BITSIFT_E_NOMEM = 11,    /* allocation failed or a limit was reached */
    BITSIFT_E_SCHEMA = 12,   /* schema text or structure is invalid */
    BITSIFT_E_IO = 13,       /* file could not be read or written */
    BITSIFT_E_LIMIT = 14     /* input exceeds a configured hard limit */
} bitsift_error;

#define BITSIFT_ERROR_COUNT 15

/* Short stable name ("overflow", "range", ...), used in JSON and messages.
 * Unknown values give "unknown". Never returns NULL. */
const char *bitsift_error_name(bitsift_error e);
/* One-line human description ("read past the end of the data", ...). */
const char *bitsift_error_string(bitsift_error e);

/*
 * Where and why a stream failed. `bit` is the stream bit offset of the
 * field that failed (for overflow, where the missing bits start); `field`
 * is a caller-supplied name or path (may be NULL); `expected` and `got`
 * depend on the kind:
 *   overflow  bits needed,              bits left
 *   range     largest raw value allowed, raw value read (see `why`)
 *   align     0,                        the padding bits read
 *   check     marker expected,          marker read
 *   crc       CRC computed,             CRC stored in the packet
 *   string    0,                        offending byte offset in the string
 * `why` is a short static phrase ("raw value above range", ...).
 */
typedef struct bitsift_failure {
    bitsift_error kind;
    uint64_t bit;
    const char *field;
    const char *why;
    uint64_t expected;
    uint64_t got;
} bitsift_failure;

/* Format a failure as "range at bit 17 in x: raw value above range
 * (expected <= 4, got 7)". Returns what snprintf returns. */
int bitsift_failure_format(const bitsift_failure *f, char *buf, size_t size);

/* ------------------------------------------------------------------ */
/* Helpers                                                             */
/* ------------------------------------------------------------------ */

/* Bits needed to send an integer in [min, max]: 0 when min == max, else
 * the significant bits of (max - min) taken as unsigned (0..64). Callers
 * pass min <= max. */
static inline unsigned bitsift_bits_required(int64_t min, int64_t max)
{
    uint64_t span = (uint64_t)max - (uint64_t)min;
    return span ? 64u - (unsigned)__builtin_clzll(span) : 0u;
}

/* Jenkins one-at-a-time without the final avalanche, lower case folded to
 * upper case first: the 2016 article's check marker and protocol id hash.
 * bitsift_hash_name("end of packet") == 0x9908ace2. `seed` is 0 for a
 * fresh hash; pass a previous result to hash several strings in a row. */
uint32_t bitsift_hash_name(const char *name, uint32_t seed);

/* The classic check marker value and the 2016 end-of-packet marker. */
#define BITSIFT_CHECK_CLASSIC       0x12345678u
#define BITSIFT_CHECK_END_OF_PACKET 0x9908ace2u

/* zlib-compatible CRC32 (reflected 0xEDB88320, init and final xor
 * 0xFFFFFFFF): start with crc = 0, feed the result back to continue.
 * bitsift_crc32(0, "123456789", 9) == 0xCBF43926. */
uint32_t bitsift_crc32(uint32_t crc, const void *data, size_t size);
/* Which implementation bitsift_crc32 uses ("isa-l", "libdeflate",
 * "slice-by-8"). */
const char *bitsift_crc32_implementation(void);

/* ------------------------------------------------------------------ */
/* Bit reader                                                          */
/* ------------------------------------------------------------------ */

/*
 * A reader over a caller's buffer. The fields are public only so that the
 * read functions can be inline; use the functions, not the fields.
 *
 * The reader never touches memory outside [data, data + size): loads near
 * the end come from `tail`, a zero-padded copy of the last bytes, so the
 * caller needs no padding after its buffer. The buffer must stay alive and
 * unchanged while the reader is used.
 */
typedef struct bitsift_reader {
    const uint8_t *data;
    size_t size;             /* bytes in data */
    uint64_t bit_pos;        /* next bit to read */
    uint64_t bit_limit;      /* bits that may be read; 0 once failed */
    uint64_t fast_limit;     /* bit_pos + n up to this: 8-byte load from data */
    size_t tail_start;       /* byte offset that tail[0] mirrors */
    uint8_t tail[16];        /* data[tail_start, size) then zeros */
    bitsift_failure failure; /* kind BITSIFT_OK while all is well */
} bitsift_reader;

/* Start reading `size` bytes at `data` (data may be NULL when size is 0). */
void bitsift_reader_init(bitsift_reader *r, const void *data, size_t size);

/* Record a failure (only the first one is kept) and make every later read
 * fail. Returns false so that callers can `return bitsift_reader_fail(...)`. */
bool bitsift_reader_fail(bitsift_reader *r, bitsift_error kind, uint64_t bit, const char *why,
                         uint64_t expected, uint64_t got);

/* Name the field being read if the failure has no name yet (the serialize
 * macros call this with the stringized field expression). */
void bitsift_reader_name_failure(bitsift_reader *r, const char *field);

static inline bool bitsift_reader_ok(const bitsift_reader *r)
{
    return r->failure.kind == BITSIFT_OK;
}
static inline const bitsift_failure *bitsift_reader_failure(const bitsift_reader *r)
{
    return &r->failure;
}
static inline uint64_t bitsift_reader_bit_pos(const bitsift_reader *r)
{
    return r->bit_pos;
}
/* Bits left before the end of the data (0 after a failure). */
static inline uint64_t bitsift_reader_bits_left(const bitsift_reader *r)
{
    return r->bit_limit > r->bit_pos ? r->bit_limit - r->bit_pos : 0;
}

#if defined(__GNUC__) || defined(__clang__)
#define BITSIFT_LIKELY(x)   __builtin_expect(!!(x), 1)
#define BITSIFT_UNLIKELY(x) __builtin_expect(!!(x), 0)
#else
#define BITSIFT_LIKELY(x)   (x)
#define BITSIFT_UNLIKELY(x) (x)
#endif

/*
 * The hot path. A read of n bits at stream bit p loads the 8 bytes from
 * byte p / 8 on, little-endian, and shifts out the p % 8 bits already
 * read, which leaves at least 64 - 7 = 57 bits of the field:
 *
 *        byte p/8   p/8+1          p/8+7
 *       +--------+--------+-...-+--------+
 *       |vvvvvxxx|vvvvvvvv|     |vvvvvvvv|   x: the p % 8 bits before p
 *       +--------+--------+-...-+--------+   v: 64 - p % 8 >= 57 bits
 *        bit 7..0 (LSB first)
 *
 * While p + n <= fast_limit all 8 bytes lie inside the caller's buffer, so
 * the common case is one compare, one load, a shift and a mask. Near the
 * end (and for widths above 57) bitsift__read_bits_slow checks the bits
 * against bit_limit and loads from `tail`, a zero-padded copy of the last
 * bytes, so nothing outside [data, data + size) is ever read. Both limits
 * drop to 0 on the first failure, which keeps failure sticky without a
 * test of its own.
 */
static inline uint64_t bitsift__load_le64(const uint8_t *p)
{
    uint64_t w;
    memcpy(&w, p, sizeof w);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    w = __builtin_bswap64(w);
#endif
    return w;
}

/* The 64 bits from stream bit pos on, for pos < bit_limit: loaded from
 * data while all 8 bytes lie inside it, else from `tail`; at least the
 * low 57 are the stream's. For reads near the end, out of the hot path. */
static inline uint64_t bitsift__reader_window(const bitsift_reader *r, uint64_t pos)
{
    uint64_t byte = pos >> 3;
    const uint8_t *p = byte + 8 <= r->size ? r->data + byte : r->tail + (byte - r->tail_start);
    return bitsift__load_le64(p) >> (pos & 7);
}

bool bitsift__reader_overflow(bitsift_reader *r, unsigned bits);

/* Everything the inline path leaves out: widths 0 and above 57, the last
 * bytes of the buffer, overflow. Out of line to keep the callers small;
 * the value comes back in registers (ok is 0 on failure) so that callers
 * need not keep their result variable in memory. */
typedef struct bitsift__bits_result {
    uint64_t value;
    uint64_t ok;
} bitsift__bits_result;
bitsift__bits_result bitsift__read_bits_slow(bitsift_reader *r, unsigned n);

/* bits(n), 1 <= n <= 64. Fails with overflow when fewer than n bits are
 * left, with argument when n is 0 or above 64. With a constant n the width
 * test folds away. */
static inline bool bitsift_read_bits(bitsift_reader *r, unsigned n, uint64_t *value)
{
    uint64_t at = r->bit_pos;
    if (BITSIFT_LIKELY(n - 1u < 57u && at + n <= r->fast_limit)) {
        *value = (bitsift__load_le64(r->data + (at >> 3)) >> (at & 7)) & (~0ull >> (64 - n));
        r->bit_pos = at + n;
        return true;
    }
    bitsift__bits_result slow = bitsift__read_bits_slow(r, n);
    if (BITSIFT_UNLIKELY(!slow.ok))
        return false; /* a failed read leaves *value untouched */
    *value = slow.value;
    return true;
}

/* The same for 1 <= n <= 57, the name the library's own files use. */
static inline bool bitsift__read_window_bits(bitsift_reader *r, unsigned n, uint64_t *value)
{
    return bitsift_read_bits(r, n, value);
}

static inline bool bitsift_read_bool(bitsift_reader *r, bool *value)
{
    uint64_t v;
    if (!bitsift__read_window_bits(r, 1, &v))
        return false;
    *value = v != 0;
    return true;
}

static inline bool bitsift_read_uint8(bitsift_reader *r, uint8_t *value)
{
    uint64_t v;
    if (!bitsift__read_window_bits(r, 8, &v))
        return false;
    *value = (uint8_t)v;
    return true;
}

static inline bool bitsift_read_uint16(bitsift_reader *r, uint16_t *value)
{
    uint64_t v;
    if (!bitsift__read_window_bits(r, 16, &v))
        return false;
    *value = (uint16_t)v;
    return true;
}

static inline bool bitsift_read_uint32(bitsift_reader *r, uint32_t *value)
{
    uint64_t v;
    if (!bitsift__read_window_bits(r, 32, &v))
        return false;
    *value = (uint32_t)v;
    return true;
}

static inline bool bitsift_read_uint64(bitsift_reader *r, uint64_t *value)
{
    return bitsift_read_bits(r, 64, value);
}

bool bitsift__reader_range(bitsift_reader *r, uint64_t bit, uint64_t span, uint64_t raw);

/*
 * Two tables for bitsift_read_int, indexed by `top`, the index of the
 * highest set bit of span = max - min (the field is top + 1 bits wide):
 *
 *   bitsift__int_steps[top]  top + 1 while the field fits the 57 bits one
 *                            load is sure to hold (top <= 56), else
 *                            BITSIFT__INT_SLOW_STEP, too large a step for
 *                            any read to end within fast_limit, so that one
 *                            compare both bounds the read and sends wide
 *                            fields to the slow path;
 *   bitsift__int_masks[top]  the low top + 1 bits set.
 *
 * One compare and two loads (1 KiB of tables in all) replace a width test,
 * the arithmetic for the end bit and a shift pair for the mask; with a
 * constant range the compiler folds the same values instead.
 */
#define BITSIFT__INT_SLOW_STEP (1ull << 63)
/* Each entry's value, which the tables are built from and a constant top
 * folds to. */
#define BITSIFT__INT_STEP(top) ((top) <= 56 ? (uint64_t)(top) + 1 : BITSIFT__INT_SLOW_STEP)
#define BITSIFT__INT_MASK(top) ((2ull << (top)) - 1) /* top 63: 2 << 63 wraps to 0 */
extern const uint64_t bitsift__int_steps[64];
extern const uint64_t bitsift__int_masks[64];

static inline uint64_t bitsift__int_step(unsigned top)
{
    return __builtin_constant_p(top) ? BITSIFT__INT_STEP(top) : bitsift__int_steps[top];
}
static inline uint64_t bitsift__int_mask(unsigned top)
{
    return __builtin_constant_p(top) ? BITSIFT__INT_MASK(top) : bitsift__int_masks[top];
}

/* int(min, max) over the full signed 64-bit range: reads (value - min) in
 * bits_required(min, max) bits and fails with range when the raw value is
 * above max - min. min == max reads nothing and returns min. Fails with
 * argument when min > max. */
static inline bool bitsift_read_int(bitsift_reader *r, int64_t min, int64_t max, int64_t *value)
{
    uint64_t raw = 0;
    if (BITSIFT_LIKELY(min < max)) {
        /* span is taken after min < max is tested, so that the compiler
         * can subtract in place rather than keep a copy of max for the
         * compare. */
        uint64_t span = (uint64_t)max - (uint64_t)min;
        unsigned top = 63u ^ (unsigned)__builtin_clzll(span);
        uint64_t at = r->bit_pos, end = at + bitsift__int_step(top);
        if (BITSIFT_LIKELY(end <= r->fast_limit)) {
            raw = (bitsift__load_le64(r->data + (at >> 3)) >> (at & 7)) & bitsift__int_mask(top);
            r->bit_pos = end;
        } else {
            bitsift__bits_result slow = bitsift__read_bits_slow(r, top + 1);
            if (!slow.ok)
                return false;
            raw = slow.value;
        }
        if (BITSIFT_UNLIKELY(raw > span)) {
            (void)bitsift__reader_range(r, at, span, raw);
            return false;
        }
    } else if (BITSIFT_UNLIKELY(min > max)) {
        (void)bitsift_reader_fail(r, BITSIFT_E_ARGUMENT, r->bit_pos, "int range has min > max", 0,
                                  0);
        return false;
    } else if (BITSIFT_UNLIKELY(!bitsift_reader_ok(r))) {
        return false; /* min == max reads nothing, but a failed stream stays failed */
    }
    *value = (int64_t)((uint64_t)min + raw);
    return true;
}

static inline bool bitsift_read_float(bitsift_reader *r, float *value)
{
    uint64_t v;
    if (!bitsift__read_window_bits(r, 32, &v))
        return false;
    uint32_t u = (uint32_t)v;
    memcpy(value, &u, sizeof u);
    return true;
}

static inline bool bitsift_read_double(bitsift_reader *r, double *value)
{
    uint64_t v;
    if (!bitsift_read_bits(r, 64, &v))
        return false;
    memcpy(value, &v, sizeof v);
    return true;
}

/* align: skip to the next byte boundary; fails with overflow when the
 * padding bits are not all there and with align when one of them is 1. */
bool bitsift_read_align(bitsift_reader *r);

/* compressed_float(min, max, res), bit-exact with the reference (float32
 * arithmetic, no FMA). Fails with range when the raw value is above the
 * step count, with argument when the parameters are not finite or
 * min > max or res <= 0. */
bool bitsift_read_compressed_float(bitsift_reader *r, float min, float max, float res,
                                   float *value);

/* bytes(n): align, then n bytes copied to dst (which may be NULL when n is
 * 0). bitsift_read_bytes_view returns a pointer into the caller's buffer
 * instead of copying. */
bool bitsift_read_bytes(bitsift_reader *r, void *dst, size_t n);
bool bitsift_read_bytes_view(bitsift_reader *r, size_t n, const uint8_t **view);

/* string(bufsize): int(len, 0, bufsize - 1), then bytes(len); the result
 * is NUL-terminated in buf (bufsize bytes). Fails with string when the
 * text holds a NUL byte or is not valid UTF-8 (as the reference reader),
 * with argument when bufsize is 0. *len may be NULL. */
bool bitsift_read_string(bitsift_reader *r, char *buf, size_t bufsize, size_t *len);
/* The same without copying: *view points into the reader's buffer and is
 * not NUL-terminated. */
bool bitsift_read_string_view(bitsift_reader *r, size_t bufsize, const uint8_t **view, size_t *len);

/* check(value): align, then 32 bits that must equal `value`. */
bool bitsift_read_check(bitsift_reader *r, uint32_t value);

/* int_relative(previous, current): the one-to-six-flag ladder of
 * DESIGN.md; the last tier sends current as 32 bits and fails with range
 * unless current > previous (compared as signed 32-bit, as the reference). */
bool bitsift_read_int_relative(bitsift_reader *r, int32_t previous, int32_t *current);

/* object index (the article's scene_d ladder): +1, then [2,5], [6,13],
 * [14,29], [30,61], [62,125], else int(d, 126, max_objects + 1).
 * *current = previous + d, which must not exceed max_objects (indices run
 * 0..max_objects, max_objects being the article's end marker): a larger
 * one fails with range. max_objects must be at least 1. */
bool bitsift_read_object_index(bitsift_reader *r, int32_t previous, int32_t max_objects,
                               int32_t *current);

/* sequence_relative(s1, s2) over 16-bit sequence numbers (wrapping).
 * Fails with range when the decoded value is not a 16-bit sequence. */
bool bitsift_read_sequence_relative(bitsift_reader *r, uint16_t sequence1, uint16_t *sequence2);

/* ack_relative(sequence, ack): a bool "in range", then int(sequence - ack,
 * 1, 64) or ack as 16 bits. */
bool bitsift_read_ack_relative(bitsift_reader *r, uint16_t sequence, uint16_t *ack);

/* ------------------------------------------------------------------ */
/* Bit writer (and measurer)                                           */
/* ------------------------------------------------------------------ */

/*
 * A writer into a caller's buffer of `capacity` bytes. Bytes are stored as
 * soon as bits reach them, the last partial byte zero-padded, so the buffer
 * needs no clearing and holds a valid stream after every successful call.
 * A writer made by bitsift_writer_init_measure stores nothing and only
 * counts bits (the article's MeasureStream).
 *
 * Writing a value its field cannot hold (out of range, too wide) is a
 * programming error: it fails with BITSIFT_E_VALUE and writes nothing; in
 * builds with BITSIFT_DEBUG defined (configure --enable-debug) it also
 * aborts with a message, like assert().
 */
typedef struct bitsift_writer {
    uint8_t *data;   /* NULL when measuring */
    size_t capacity; /* bytes */
    uint64_t bit_pos;
    uint64_t bit_limit; /* 8 * capacity, UINT64_MAX when measuring */
    bitsift_failure failure;
} bitsift_writer;

void bitsift_writer_init(bitsift_writer *w, void *data, size_t capacity);
void bitsift_writer_init_measure(bitsift_writer *w);

bool bitsift_writer_fail(bitsift_writer *w, bitsift_error kind, const char *why, uint64_t expected,
                         uint64_t got);
void bitsift_writer_name_failure(bitsift_writer *w, const char *field);

static inline bool bitsift_writer_ok(const bitsift_writer *w)
{
    return w->failure.kind == BITSIFT_OK;
}
static inline const bitsift_failure *bitsift_writer_failure(const bitsift_writer *w)
{
    return &w->failure;
}
static inline uint64_t bitsift_writer_bit_pos(const bitsift_writer *w)
{
    return w->bit_pos;
}
/* Bytes written so far, the last partial byte included: ceil(bits / 8). */
static inline size_t bitsift_writer_bytes(const bitsift_writer *w)
{
    return (size_t)((w->bit_pos + 7) >> 3);
}

/* bits(n), 1 <= n <= 64: value must be below 2^n. */
bool bitsift_write_bits(bitsift_writer *w, unsigned n, uint64_t value);
bool bitsift_write_bool(bitsift_writer *w, bool value);
bool bitsift_write_uint8(bitsift_writer *w, uint8_t value);
bool bitsift_write_uint16(bitsift_writer *w, uint16_t value);
bool bitsift_write_uint32(bitsift_writer *w, uint32_t value);
bool bitsift_write_uint64(bitsift_writer *w, uint64_t value);
/* int(min, max): min <= value <= max, any signed 64-bit bounds. */
bool bitsift_write_int(bitsift_writer *w, int64_t min, int64_t max, int64_t value);
bool bitsift_write_float(bitsift_writer *w, float value);
bool bitsift_write_double(bitsift_writer *w, double value);
bool bitsift_write_align(bitsift_writer *w);
/* compressed_float: the value is clamped into [min, max] (NaN becomes min)
 * and never written above the step count, so the reader always accepts it
 * (unlike the reference writer at the top of some ranges). */
bool bitsift_write_compressed_float(bitsift_writer *w, float min, float max, float res,
                                    float value);
bool bitsift_write_bytes(bitsift_writer *w, const void *src, size_t n);
/* string(bufsize): len <= bufsize - 1, no NUL byte, valid UTF-8. */
bool bitsift_write_string(bitsift_writer *w, const char *text, size_t bufsize);
bool bitsift_write_string_n(bitsift_writer *w, const void *text, size_t len, size_t bufsize);
bool bitsift_write_check(bitsift_writer *w, uint32_t value);
/* int_relative: previous < current (signed 32-bit). */
bool bitsift_write_int_relative(bitsift_writer *w, int32_t previous, int32_t current);
/* object index: previous < current <= max_objects and
 * current - previous <= max_objects + 1. */
bool bitsift_write_object_index(bitsift_writer *w, int32_t previous, int32_t max_objects,
                                int32_t current);
/* sequence_relative: sequence2 != sequence1. */
bool bitsift_write_sequence_relative(bitsift_writer *w, uint16_t sequence1, uint16_t sequence2);
bool bitsift_write_ack_relative(bitsift_writer *w, uint16_t sequence, uint16_t ack);

/* ------------------------------------------------------------------ */
/* Compressed float parameters                                         */
/* ------------------------------------------------------------------ */

/* The step count M and wire width of compressed_float(min, max, res), as
 * both sides compute them. Returns false (and leaves the outputs alone)
 * when the parameters are unusable: not finite, min > max, res <= 0. */
bool bitsift_compressed_float_steps(float min, float max, float res, uint32_t *steps,
                                    unsigned *bits);

/* ------------------------------------------------------------------ */
/* One definition for both directions                                  */
/* ------------------------------------------------------------------ */

/*
 * A serialize function is written once, as a static inline function taking
 * a stream pointer and a constant mode, and the bitsift_serialize_* macros
 * read or write each field and return false from the function on the first
 * failure. Wrappers call it with a literal mode, so the compiler keeps only
 * one direction in each: no per-field cost from the choice.
 *
 *     static inline bool serialize_rigid_body(void *stream, const int mode,
 *                                             struct rigid_body *b)
 *     {
 *         bitsift_serialize_bool(stream, mode, b->at_rest);
 *         bitsift_serialize_int(stream, mode, b->x, -100, 100);
 *         if (!b->at_rest)
 *             bitsift_serialize_float(stream, mode, b->vx);
 *         return true;
 *     }
 *     BITSIFT_SERIALIZE_FUNCTIONS(rigid_body, struct rigid_body,
 *                                 serialize_rigid_body)
 *
 * defines rigid_body_read(bitsift_reader *, struct rigid_body *),
 * rigid_body_write(bitsift_writer *, const struct rigid_body *) and
 * rigid_body_measure(const struct rigid_body *) returning the bit count.
 * In READ mode `stream` is a bitsift_reader, otherwise a bitsift_writer
 * (WRITE or MEASURE). On failure the field expression ("b->x") is recorded
 * as the failure's field name unless one was already set.
 *
 * Defining BITSIFT_SHORT_NAMES before including this header adds the
 * article's spelling, serialize_int(stream, v, min, max) and friends, which
 * use the variable `mode` of the enclosing function.
 */
enum { BITSIFT_READ = 0, BITSIFT_WRITE = 1, BITSIFT_MEASURE = 2 };

#define BITSIFT__SERIALIZE_FAIL(stream, mode, field)                        \
    do {                                                                    \
        if ((mode) == BITSIFT_READ)                                         \
            bitsift_reader_name_failure((bitsift_reader *)(stream), field); \
        else                                                                \
            bitsift_writer_name_failure((bitsift_writer *)(stream), field); \
        return false;                                                       \
    } while (0)

/* In READ mode the destination is only stored to, never loaded: it may be
 * uninitialised (loading an indeterminate bool or enum is undefined). */
#define BITSIFT__SERIALIZE_SCALAR(stream, mode, value, ctype, read_call, write_call) \
    do {                                                                             \
        ctype bitsift_v_ = (mode) == BITSIFT_READ ? (ctype)0 : (ctype)(value);       \
        bool bitsift_ok_ = (mode) == BITSIFT_READ                                    \
                               ? read_call((bitsift_reader *)(stream), &bitsift_v_)  \
                               : write_call((bitsift_writer *)(stream), bitsift_v_); \
        if (BITSIFT_UNLIKELY(!bitsift_ok_))                                          \
            BITSIFT__SERIALIZE_FAIL(stream, mode, #value);                           \
        if ((mode) == BITSIFT_READ)                                                  \
            (value) = bitsift_v_;                                                    \
    } while (0)

#define bitsift_serialize_bool(stream, mode, value) \
    BITSIFT__SERIALIZE_SCALAR(stream, mode, value, bool, bitsift_read_bool, bitsift_write_bool)
#define bitsift_serialize_uint8(stream, mode, value) \
    BITSIFT__SERIALIZE_SCALAR(stream, mode, value, uint8_t, bitsift_read_uint8, bitsift_write_uint8)
#define bitsift_serialize_uint16(stream, mode, value)                             \
    BITSIFT__SERIALIZE_SCALAR(stream, mode, value, uint16_t, bitsift_read_uint16, \
                              bitsift_write_uint16)
#define bitsift_serialize_uint32(stream, mode, value)                             \
    BITSIFT__SERIALIZE_SCALAR(stream, mode, value, uint32_t, bitsift_read_uint32, \
                              bitsift_write_uint32)
#define bitsift_serialize_uint64(stream, mode, value)                             \
    BITSIFT__SERIALIZE_SCALAR(stream, mode, value, uint64_t, bitsift_read_uint64, \
                              bitsift_write_uint64)
#define bitsift_serialize_float(stream, mode, value) \
    BITSIFT__SERIALIZE_SCALAR(stream, mode, value, float, bitsift_read_float, bitsift_write_float)
#define bitsift_serialize_double(stream, mode, value)                           \
    BITSIFT__SERIALIZE_SCALAR(stream, mode, value, double, bitsift_read_double, \
                              bitsift_write_double)

/* Expands `call` once with the reader, once with the writer; `args` are the
 * arguments between the stream and the value. */
#define BITSIFT__SERIALIZE_WITH(stream, mode, value, ctype, read_fn, write_fn, ...)             \
    do {                                                                                        \
        ctype bitsift_v_ = (mode) == BITSIFT_READ ? (ctype)0 : (ctype)(value);                  \
        bool bitsift_ok_ = (mode) == BITSIFT_READ                                               \
                               ? read_fn((bitsift_reader *)(stream), __VA_ARGS__, &bitsift_v_)  \
                               : write_fn((bitsift_writer *)(stream), __VA_ARGS__, bitsift_v_); \
        if (BITSIFT_UNLIKELY(!bitsift_ok_))                                                     \
            BITSIFT__SERIALIZE_FAIL(stream, mode, #value);                                      \
        if ((mode) == BITSIFT_READ)                                                             \
            (value) = bitsift_v_;                                                               \
    } while (0)

#define bitsift_serialize_bits(stream, mode, value, n) \
    BITSIFT__SERIALIZE_WITH(stream, mode, value, uint64_t, bitsift_read_bits, bitsift_write_bits, n)
#define bitsift_serialize_int(stream, mode, value, min, max)                                   \
    BITSIFT__SERIALIZE_WITH(stream, mode, value, int64_t, bitsift_read_int, bitsift_write_int, \
                            min, max)
#define bitsift_serialize_compressed_float(stream, mode, value, min, max, res)         \
    BITSIFT__SERIALIZE_WITH(stream, mode, value, float, bitsift_read_compressed_float, \
                            bitsift_write_compressed_float, min, max, res)
#define bitsift_serialize_int_relative(stream, mode, previous, current)                \
    BITSIFT__SERIALIZE_WITH(stream, mode, current, int32_t, bitsift_read_int_relative, \
                            bitsift_write_int_relative, previous)
#define bitsift_serialize_object_index(stream, mode, previous, current, max_objects)   \
    BITSIFT__SERIALIZE_WITH(stream, mode, current, int32_t, bitsift_read_object_index, \
                            bitsift_write_object_index, previous, max_objects)
#define bitsift_serialize_sequence_relative(stream, mode, sequence1, sequence2)                \
    BITSIFT__SERIALIZE_WITH(stream, mode, sequence2, uint16_t, bitsift_read_sequence_relative, \
                            bitsift_write_sequence_relative, sequence1)
#define bitsift_serialize_ack_relative(stream, mode, sequence, ack)                 \
    BITSIFT__SERIALIZE_WITH(stream, mode, ack, uint16_t, bitsift_read_ack_relative, \
                            bitsift_write_ack_relative, sequence)

#define bitsift_serialize_align(stream, mode)                                            \
    do {                                                                                 \
        if (!((mode) == BITSIFT_READ ? bitsift_read_align((bitsift_reader *)(stream))    \
                                     : bitsift_write_align((bitsift_writer *)(stream)))) \
            BITSIFT__SERIALIZE_FAIL(stream, mode, "align");                              \
    } while (0)

#define bitsift_serialize_check(stream, mode, value)                                              \
    do {                                                                                          \
        if (!((mode) == BITSIFT_READ ? bitsift_read_check((bitsift_reader *)(stream), (value))    \
                                     : bitsift_write_check((bitsift_writer *)(stream), (value)))) \
            BITSIFT__SERIALIZE_FAIL(stream, mode, "check");                                       \
    } while (0)

/* bytes(n) into/from the array `data` (at least n bytes). */
#define bitsift_serialize_bytes(stream, mode, data, n)                             \
    do {                                                                           \
        if (!((mode) == BITSIFT_READ                                               \
                  ? bitsift_read_bytes((bitsift_reader *)(stream), (data), (n))    \
                  : bitsift_write_bytes((bitsift_writer *)(stream), (data), (n)))) \
            BITSIFT__SERIALIZE_FAIL(stream, mode, #data);                          \
    } while (0)

/* string(bufsize) into/from the char array `buf` of bufsize bytes. */
#define bitsift_serialize_string(stream, mode, buf, bufsize)                                \
    do {                                                                                    \
        if (!((mode) == BITSIFT_READ                                                        \
                  ? bitsift_read_string((bitsift_reader *)(stream), (buf), (bufsize), NULL) \
                  : bitsift_write_string((bitsift_writer *)(stream), (buf), (bufsize))))    \
            BITSIFT__SERIALIZE_FAIL(stream, mode, #buf);                                    \
    } while (0)

/* A sub-object serialized by another serialize function. */
#define bitsift_serialize_object(stream, mode, fn, object) \
    do {                                                   \
        if (!fn(stream, mode, object))                     \
            return false;                                  \
    } while (0)

#define BITSIFT_SERIALIZE_FUNCTIONS(prefix, type, fn)                        \
    static inline bool prefix##_read(bitsift_reader *r, type *object)        \
    {                                                                        \
        return fn(r, BITSIFT_READ, object);                                  \
    }                                                                        \
    static inline bool prefix##_write(bitsift_writer *w, const type *object) \
    {                                                                        \
        return fn(w, BITSIFT_WRITE, (type *)object);                         \
    }                                                                        \
    static inline uint64_t prefix##_measure(const type *object)              \
    {                                                                        \
        bitsift_writer m;                                                    \
        bitsift_writer_init_measure(&m);                                     \
        return fn(&m, BITSIFT_MEASURE, (type *)object) ? m.bit_pos : 0;      \
    }

#ifdef BITSIFT_SHORT_NAMES
#define serialize_bits(stream, value, n)       bitsift_serialize_bits(stream, mode, value, n)
#define serialize_bool(stream, value)          bitsift_serialize_bool(stream, mode, value)
#define serialize_int(stream, value, min, max) bitsift_serialize_int(stream, mode, value, min, max)
#define serialize_uint8(stream, value)         bitsift_serialize_uint8(stream, mode, value)
#define serialize_uint16(stream, value)        bitsift_serialize_uint16(stream, mode, value)
#define serialize_uint32(stream, value)        bitsift_serialize_uint32(stream, mode, value)
#define serialize_uint64(stream, value)        bitsift_serialize_uint64(stream, mode, value)
#define serialize_float(stream, value)         bitsift_serialize_float(stream, mode, value)
#define serialize_double(stream, value)        bitsift_serialize_double(stream, mode, value)
#define serialize_compressed_float(stream, value, min, max, res) \
    bitsift_serialize_compressed_float(stream, mode, value, min, max, res)
#define serialize_bytes(stream, data, n)       bitsift_serialize_bytes(stream, mode, data, n)
#define serialize_string(stream, buf, bufsize) bitsift_serialize_string(stream, mode, buf, bufsize)
#define serialize_align(stream)                bitsift_serialize_align(stream, mode)
#define serialize_check(stream, value)         bitsift_serialize_check(stream, mode, value)
#define serialize_int_relative(stream, previous, current) \
    bitsift_serialize_int_relative(stream, mode, previous, current)
#define serialize_object_index(stream, previous, current, max_objects) \
    bitsift_serialize_object_index(stream, mode, previous, current, max_objects)
#define serialize_sequence_relative(stream, s1, s2) \
    bitsift_serialize_sequence_relative(stream, mode, s1, s2)
#define serialize_ack_relative(stream, sequence, ack) \
    bitsift_serialize_ack_relative(stream, mode, sequence, ack)
#define serialize_object(stream, fn, object) bitsift_serialize_object(stream, mode, fn, object)
#endif

/* ------------------------------------------------------------------ */
/* Packet framing (protocol2)                                          */
/* ------------------------------------------------------------------ */

/*
 * A framed packet, as the 2016 article's protocol2 writes it:
 *
 *   +--------------+-------------+-----------------+---------+-------+-----------+
 *   | prefix bytes | crc32 (LE)  | type            | payload | align | end check |
 *   | 0..n bytes   | 4 bytes     | int(0, types-1) | ...     | 0..7  | 32 bits   |
 *   +--------------+-------------+-----------------+---------+-------+-----------+
 *     not covered    present when  present when               present when
 *     by the CRC     `crc` is set  types > 1                  `end_check` set
 *
 * The CRC is zlib's CRC32 over the protocol id as 4 little-endian bytes
 * followed by the packet from the CRC field on, with the CRC field taken as
 * zero. The protocol id is never sent: a packet of another protocol (or
 * version) fails the CRC exactly like a damaged one.
 */
typedef struct bitsift_framing {
    uint32_t protocol_id;
    uint32_t num_types;       /* packet types; the type is sent when > 1 */
    bool crc;                 /* CRC32 field present and checked */
    bool end_check;           /* end-of-packet check present */
    uint32_t end_check_value; /* usually BITSIFT_CHECK_END_OF_PACKET */
    uint32_t prefix_bytes;    /* opaque bytes before the CRC (not checked) */
} bitsift_framing;

/* protocol2's defaults: CRC on, one type, end check 0x9908ace2, no prefix. */
void bitsift_framing_init(bitsift_framing *f, uint32_t protocol_id);

/* The CRC a framed packet must carry (the CRC field itself is ignored).
 * Returns 0 when size is below prefix_bytes + 4 (no CRC field). */
uint32_t bitsift_packet_crc(const bitsift_framing *f, const void *packet, size_t size);

/* Begin a packet: prefix bytes (copied from `prefix`, or zeros when it is
 * NULL), the CRC placeholder and the type. */
bool bitsift_packet_write_begin(bitsift_writer *w, const bitsift_framing *f, const void *prefix,
                                uint32_t type);
/* End it: the end check, then the CRC stored into its field. *size gets
 * the packet's length in bytes. */
bool bitsift_packet_write_end(bitsift_writer *w, const bitsift_framing *f, size_t *size);

/* Begin reading: skip the prefix, verify the CRC (before anything else is
 * read: a mismatch fails with crc at the CRC field), read the type (range
 * checked). */
bool bitsift_packet_read_begin(bitsift_reader *r, const bitsift_framing *f, uint32_t *type);
/* End reading: the end check when the framing has one. */
bool bitsift_packet_read_end(bitsift_reader *r, const bitsift_framing *f);


/* ------------------------------------------------------------------ */
/* Schemas: the protocol described in a file (man bitsift-schema.5)   */
/* ------------------------------------------------------------------ */

/*
 * A schema file describes a protocol once; libbitsift compiles it into an
 * immutable bitsift_schema (a flat op list, no text is parsed per packet)
 * and decodes, validates and encodes its packets from it. A compiled
 * schema is never modified after compilation: any number of threads may
 * decode and encode with one schema at the same time.
 *
 * Everything a hostile schema or packet can make the library do is
 * bounded by the limits below; a schema over a limit is rejected with a
 * diagnostic, a packet or tree over one fails with BITSIFT_E_LIMIT.
 */
#define BITSIFT_SCHEMA_MAX_TEXT  (1u << 20) /* bytes of schema text */
#define BITSIFT_SCHEMA_MAX_NAME  63         /* characters of an identifier */
#define BITSIFT_SCHEMA_MAX_DEPTH 32         /* nesting of structs, arrays, ifs */
#define BITSIFT_SCHEMA_MAX_ARRAY 65536      /* elements of one array */
#define BITSIFT_SCHEMA_MAX_BYTES 65536      /* bytes N, string buffer size */
#define BITSIFT_SCHEMA_MAX_OPS   65536      /* compiled ops (structs are inlined) */
#define BITSIFT_SCHEMA_MAX_TYPES 1024       /* packet types of one protocol */
#define BITSIFT_TREE_MAX_NODES   (1u << 20) /* nodes in one value tree */
#define BITSIFT_PATH_MAX         1024       /* bytes of a field path, NUL included */

typedef struct bitsift_schema bitsift_schema;

/* Why a schema did not load. `message` is compiler-style:
 * "shooter.bss:12:7: unknown type 'vec4'" (or "file: message" when the
 * error has no position, e.g. an unreadable file). Only the first error
 * is reported. */
typedef struct bitsift_schema_error {
    bitsift_error kind; /* BITSIFT_E_SCHEMA, _IO, _NOMEM or _LIMIT */
    unsigned line;      /* 1-based; 0 when not tied to a position */
    unsigned column;    /* 1-based byte column; 0 when not tied to a position */
    char message[512];
} bitsift_schema_error;

/* Compile schema text of `size` bytes (need not be NUL-terminated).
 * `filename` is only used in diagnostics (NULL gives "<string>"). Returns
 * NULL and fills *err (which may be NULL) on failure. */
bitsift_schema *bitsift_schema_compile(const char *text, size_t size, const char *filename,
                                       bitsift_schema_error *err);
/* Read and compile a schema file (at most BITSIFT_SCHEMA_MAX_TEXT bytes). */
bitsift_schema *bitsift_schema_load_file(const char *path, bitsift_schema_error *err);
/* Free a compiled schema; NULL is fine. No decode may still be using it. */
void bitsift_schema_free(bitsift_schema *s);

/* The protocol's name as declared ("shooter"). */
const char *bitsift_schema_name(const bitsift_schema *s);
/* The 32-bit protocol id (declared, or hashed from name and version). */
uint32_t bitsift_schema_protocol_id(const bitsift_schema *s);
/* The framing the packets use (CRC, type field, end check, prefix). */
const bitsift_framing *bitsift_schema_framing(const bitsift_schema *s);

/* Packet types, numbered 0..count-1 in declaration order (the number sent
 * in the packet-type field). */
unsigned bitsift_schema_packet_count(const bitsift_schema *s);
/* Name of packet type `type`, NULL when out of range. */
const char *bitsift_schema_packet_name(const bitsift_schema *s, unsigned type);
/* Index of the packet type called `name`, -1 when there is none. */
int bitsift_schema_packet_index(const bitsift_schema *s, const char *name);
/* Smallest and largest size in bits of a whole packet of that type,
 * framing included (the largest saturates at UINT64_MAX). 0 when out of
 * range. */
uint64_t bitsift_schema_packet_min_bits(const bitsift_schema *s, unsigned type);
uint64_t bitsift_schema_packet_max_bits(const bitsift_schema *s, unsigned type);

/* What a field is on the wire. The framing fields (crc, type, end check,
 * prefix) appear in visitor events with their own types. */
typedef enum bitsift_field_type {
    BITSIFT_FIELD_BITS = 0,
    BITSIFT_FIELD_BOOL = 1,
    BITSIFT_FIELD_UINT8 = 2,
    BITSIFT_FIELD_UINT16 = 3,
    BITSIFT_FIELD_UINT32 = 4,
    BITSIFT_FIELD_UINT64 = 5,
    BITSIFT_FIELD_INT = 6,
    BITSIFT_FIELD_FLOAT = 7,
    BITSIFT_FIELD_DOUBLE = 8,
    BITSIFT_FIELD_COMPRESSED_FLOAT = 9,
    BITSIFT_FIELD_BYTES = 10,
    BITSIFT_FIELD_STRING = 11,
    BITSIFT_FIELD_ALIGN = 12,
    BITSIFT_FIELD_CHECK = 13,
    BITSIFT_FIELD_INT_RELATIVE = 14,
    BITSIFT_FIELD_OBJECT_INDEX = 15,
    BITSIFT_FIELD_SEQUENCE_RELATIVE = 16,
    BITSIFT_FIELD_ACK_RELATIVE = 17,
    BITSIFT_FIELD_ENUM = 18,
    BITSIFT_FIELD_STRUCT = 19,     /* also a packet type's root */
    BITSIFT_FIELD_ARRAY = 20,      /* any kind of array, sparse ones included */
    BITSIFT_FIELD_VECTOR = 21,     /* x, y, z (, w) of one component type */
    BITSIFT_FIELD_QUATERNION = 22, /* x, y, z, w; smallest-three adds `largest` */
    BITSIFT_FIELD_PREFIX = 23,     /* framing: opaque prefix bytes */
    BITSIFT_FIELD_CRC = 24,        /* framing: the CRC32 field */
    BITSIFT_FIELD_PACKET_TYPE = 25,/* framing: the packet type */
    BITSIFT_FIELD_END_CHECK = 26   /* framing: the end-of-packet check */
} bitsift_field_type;
#define BITSIFT_FIELD_TYPE_COUNT 27

/* "bits", "bool", "uint8", ..., "quaternion", "crc"; "unknown" otherwise. */
const char *bitsift_field_type_name(bitsift_field_type t);

/*
 * Every field of a compiled schema has a stable id 0..field_count-1 (a
 * struct used in two places has two sets of ids), so that tools can keep
 * per-field tables (bit accounting for `bitsift stats`) without hashing
 * paths. Its schema path is relative to its packet type's root, like an
 * event path, with array elements written "[]": "objects[].position.y".
 */
typedef struct bitsift_field_info {
    bitsift_field_type type;
    const char *name;     /* "y" ("" for array elements) */
    const char *path;     /* "objects[].position.y" */
    unsigned packet_type; /* the packet type the field belongs to */
    unsigned depth;       /* 1 for the packet's own fields */
    int parent;           /* id of the enclosing struct/array, -1 at the top */
    uint64_t min_bits;    /* what the field can cost on the wire */
    uint64_t max_bits;    /* (saturating at UINT64_MAX) */
    int64_t min, max;     /* int, enum, relative and count ranges; 0 else */
    unsigned width;       /* bits N, uintN, compressed float width */
    float fmin, fmax, resolution; /* compressed floats */
    uint32_t max_count;   /* arrays (elements), bytes, strings (buffer) */
    bool conditional;     /* only present when its condition holds */
} bitsift_field_info;

unsigned bitsift_schema_field_count(const bitsift_schema *s);
/* Fill *info for field `id`; false when id is out of range. The strings
 * live as long as the schema. */
bool bitsift_schema_field_info(const bitsift_schema *s, unsigned id, bitsift_field_info *info);
/* Name of value `value` of the enum field `id`; NULL when the field is not
 * an enum or the value has no name. */
const char *bitsift_schema_enum_name(const bitsift_schema *s, unsigned id, int64_t value);

/* Print the layout of every packet type, one line per field with its type
 * and its min/max bits, indented by nesting (what `bitsift schema FILE`
 * shows). Returns false on a write error. */
bool bitsift_schema_print(const bitsift_schema *s, FILE *out);

/* ------------------------------------------------------------------ */
/* Values                                                              */
/* ------------------------------------------------------------------ */

typedef enum bitsift_value_kind {
    BITSIFT_VALUE_NONE = 0,   /* structs, arrays, align, absent */
    BITSIFT_VALUE_BOOL = 1,   /* b */
    BITSIFT_VALUE_UINT = 2,   /* u: bits, uintN, sequence/ack, check, crc */
    BITSIFT_VALUE_INT = 3,    /* i: int, int_relative, object_index */
    BITSIFT_VALUE_FLOAT = 4,  /* f: float, compressed float, components */
    BITSIFT_VALUE_DOUBLE = 5, /* d */
    BITSIFT_VALUE_BYTES = 6,  /* data, size */
    BITSIFT_VALUE_STRING = 7, /* data, size: UTF-8 without NUL */
    BITSIFT_VALUE_ENUM = 8    /* i, and name (NULL in a tree built by hand) */
} bitsift_value_kind;

typedef struct bitsift_value {
    bitsift_value_kind kind;
    union {
        bool b;
        uint64_t u;
        int64_t i;
        float f;
        double d;
    };
    const uint8_t *data; /* BYTES, STRING: not NUL-terminated in events */
    size_t size;
    const char *name; /* ENUM: the value's name */
    /* Quantized fields (compressed floats, smallest-three components):
     * the integer on the wire. The encoder writes it back when has_raw is
     * set and it still decodes to exactly this value, so that decode ->
     * encode keeps every bit even where floats cannot tell steps apart. */
    uint64_t raw;
    bool has_raw;
} bitsift_value;

/* ------------------------------------------------------------------ */
/* Decoding                                                            */
/* ------------------------------------------------------------------ */

/* Flags for the decode functions. */
#define BITSIFT_DECODE_NO_CRC 0x1u /* skip the CRC comparison (field still read) */
#define BITSIFT_DECODE_STRICT 0x2u /* reject bytes or non-zero bits after the end */
/* Events carry no path (ev->path is "", path_len 0): for visitors that
 * never read it, which saves building it for every field. The result
 * still names the field of a failure. */
#define BITSIFT_DECODE_NO_PATHS 0x4u
/* No events for conditional fields that were not sent (the events flagged
 * BITSIFT_EVENT_ABSENT): for visitors that skip them anyway. Every other
 * event, and the result, stay the same. */
#define BITSIFT_DECODE_NO_ABSENT 0x8u

/* Flags of an event. */
#define BITSIFT_EVENT_ABSENT  0x1u /* conditional field not sent: value is its default, 0 bits */
#define BITSIFT_EVENT_DERIVED 0x2u /* computed, not sent (smallest-three's largest component) */
#define BITSIFT_EVENT_FRAMING 0x4u /* prefix, crc, type, end check */
/* Array bookkeeping: an inline count, a presence bit (sparse flags), an
 * element index or the sentinel. Such an event has type ARRAY and the
 * array's id; its path names the array (count, sentinel) or the element
 * (presence bit, index). Leaf events plus these account for every bit. */
#define BITSIFT_EVENT_ARRAY_META 0x8u

/*
 * One field as the decoder meets it. Everything it points to is valid
 * only during the callback. For the framing fields, id is -1 and the
 * names are "prefix", "crc", "type" and "end_check".
 */
typedef struct bitsift_event {
    const char *name;    /* "y"; for an array element, the array's name */
    const char *path;    /* "objects[3].position.y" (sparse arrays use the
                            element's index, not its position); "" with
                            BITSIFT_DECODE_NO_PATHS */
    size_t path_len;
    int id;              /* schema field id (bitsift_schema_field_info) */
    bitsift_field_type type;
    unsigned depth;      /* 1 for the packet's own fields */
    int64_t index;       /* element index in its array, -1 when not an element */
    uint64_t bit;        /* offset of the field's first bit in the packet */
    uint64_t bits;       /* bits it took; for enter 0, for leave the total */
    uint64_t count;      /* arrays: elements (known at enter for most kinds,
                            always at leave); structs: 0 */
    unsigned flags;      /* BITSIFT_EVENT_* */
    bitsift_value value; /* kind NONE for enter/leave and align */
} bitsift_event;

/*
 * Callbacks of a decode; any may be NULL. Each returns true to go on and
 * false to stop the decode there (the result is then BITSIFT_OK with
 * `stopped` set). `field` sees every leaf, framing fields included, so
 * summing its `bits` over a packet gives the packet's bits: that is the
 * bit accounting of `bitsift stats` (aggregate by `id`). `enter`/`leave`
 * bracket structs, vectors, quaternions and arrays; array elements that
 * are structs get their own enter/leave with `index` set.
 */
typedef struct bitsift_visitor {
    bool (*field)(void *ctx, const bitsift_event *ev);
    bool (*enter)(void *ctx, const bitsift_event *ev);
    bool (*leave)(void *ctx, const bitsift_event *ev);
    void *ctx;
} bitsift_visitor;

/* The outcome of a decode or an encode. */
typedef struct bitsift_result {
    bitsift_error status;    /* == failure.kind */
    int packet_type;         /* -1 until the type is known */
    const char *packet_name; /* NULL until the type is known */
    uint64_t bits;           /* bits consumed / written (at a failure: where it stopped) */
    uint64_t fields;         /* leaf fields decoded or encoded before the end or failure */
    bool stopped;            /* a visitor callback returned false */
    bitsift_failure failure; /* failure.field points at `path` */
    char path[BITSIFT_PATH_MAX]; /* field path of the failure, "" when none */
} bitsift_result;

/*
 * Decode one framed packet, calling the visitor for each field as it is
 * read. No memory is allocated. With a NULL visitor it only validates (the
 * fastest path). Every field read before a failure has been delivered, so
 * a dump of a bad packet shows how far it got. Returns res->status.
 */
bitsift_error bitsift_decode(const bitsift_schema *s, const void *packet, size_t size,
                             unsigned flags, const bitsift_visitor *v, bitsift_result *res);

/* Pick which schema a packet belongs to: the index of the first schema
 * with CRC framing whose protocol id makes the packet's CRC valid; when
 * none matches, the first schema without CRC framing that decodes the
 * packet without error; else -1. */
int bitsift_detect(const bitsift_schema *const *schemas, size_t count, const void *packet,
                   size_t size);

/* ------------------------------------------------------------------ */
/* Value trees                                                         */
/* ------------------------------------------------------------------ */

/*
 * A tree of values: the decoded form of one packet, or what the encoder
 * writes. All nodes, names and byte strings live in the tree's arena and
 * go with one bitsift_tree_free; a tree can be reused for many packets
 * (decoding into it resets it and keeps the memory). A tree is not
 * thread-safe; use one per thread.
 *
 * Node kinds: STRUCT (named children: packet roots, structs, vectors,
 * quaternions), ARRAY (children are elements; an element of a sparse array
 * carries its index) and VALUE (a bitsift_value). Absent conditional
 * fields are not in a decoded tree. The tree mirrors JSON: a caller
 * building one from NDJSON maps objects to STRUCT, arrays to ARRAY and
 * scalars to VALUE; a sparse array can be a JSON array of elements each
 * with its index set by bitsift_node_set_index.
 */
typedef struct bitsift_tree bitsift_tree;
typedef struct bitsift_node bitsift_node;

typedef enum bitsift_node_kind {
    BITSIFT_NODE_STRUCT = 0,
    BITSIFT_NODE_ARRAY = 1,
    BITSIFT_NODE_VALUE = 2
} bitsift_node_kind;

/* An empty tree for packets of schema `s` (which must outlive it). */
bitsift_tree *bitsift_tree_create(const bitsift_schema *s);
void bitsift_tree_free(bitsift_tree *t);
/* Drop every node and start a packet of type `packet_type` with an empty
 * root STRUCT. False when the type is out of range. */
bool bitsift_tree_reset(bitsift_tree *t, unsigned packet_type);
int bitsift_tree_packet_type(const bitsift_tree *t); /* -1 when empty */
bitsift_node *bitsift_tree_root(const bitsift_tree *t); /* NULL when empty */

/* All nodes in creation order (depth-first for a decoded tree): lets a
 * fuzzer pick a random node. */
size_t bitsift_tree_node_count(const bitsift_tree *t);
bitsift_node *bitsift_tree_node(const bitsift_tree *t, size_t i);

/* Find a node by path relative to the root: "objects[3].position.y"
 * ([n] is the element's index in a sparse array, else its position).
 * NULL when there is none. */
bitsift_node *bitsift_tree_find(const bitsift_tree *t, const char *path);
/* Write a node's path into buf (as bitsift_tree_find reads it). Returns
 * the length it needs, like snprintf. */
size_t bitsift_node_path(const bitsift_node *n, char *buf, size_t size);

/*
 * Decode a packet into the tree (which is reset first). On failure the
 * tree holds every field decoded before it. Returns res->status.
 */
bitsift_error bitsift_decode_tree(const bitsift_schema *s, const void *packet, size_t size,
                                  unsigned flags, bitsift_tree *t, bitsift_result *res);

bitsift_node_kind bitsift_node_kind_of(const bitsift_node *n);
const char *bitsift_node_name(const bitsift_node *n); /* NULL for array elements */
bitsift_node *bitsift_node_parent(const bitsift_node *n);
size_t bitsift_node_child_count(const bitsift_node *n);
bitsift_node *bitsift_node_child_at(const bitsift_node *n, size_t i);
/* Child of a STRUCT by name, NULL when absent. */
bitsift_node *bitsift_node_child(const bitsift_node *n, const char *name);
/* Element index (sparse arrays) or position; -1 when not an element. */
int64_t bitsift_node_index(const bitsift_node *n);
/* The value of a VALUE node (kind NONE for others). */
const bitsift_value *bitsift_node_value(const bitsift_node *n);
/* Where a decoded node came from: schema field id (-1 when built by
 * hand), first bit and bit count in the packet. */
int bitsift_node_field_id(const bitsift_node *n);
uint64_t bitsift_node_bit(const bitsift_node *n);
uint64_t bitsift_node_bits(const bitsift_node *n);

/* Build a tree: add a child to `parent` (NULL means the root). A STRUCT
 * parent needs a name (an existing child of that name is replaced); an
 * ARRAY parent appends an element and ignores the name. Names and byte
 * strings are copied. NULL on a limit or allocation failure. */
bitsift_node *bitsift_node_add_struct(bitsift_tree *t, bitsift_node *parent, const char *name);
bitsift_node *bitsift_node_add_array(bitsift_tree *t, bitsift_node *parent, const char *name);
bitsift_node *bitsift_node_add_value(bitsift_tree *t, bitsift_node *parent, const char *name,
                                     const bitsift_value *v);
/* Replace a VALUE node's value (bytes and strings are copied). */
bool bitsift_node_set_value(bitsift_tree *t, bitsift_node *n, const bitsift_value *v);
/* Set the index of an element of a sparse array. */
void bitsift_node_set_index(bitsift_node *n, int64_t index);

/*
 * Fill the tree (reset first) with a random valid packet of type
 * `packet_type`: every value inside its range, constraint and enum,
 * conditions and counts consistent, arrays of random length, so that
 * bitsift_encode accepts it. The same seed gives the same tree. For
 * benchmarks, round-trip tests and fuzz seeds. `fill` in 0..100 biases
 * array lengths and optional parts (0: as empty as allowed, 100: full).
 */
bitsift_error bitsift_tree_random(bitsift_tree *t, unsigned packet_type, uint64_t seed,
                                  unsigned fill);

/* ------------------------------------------------------------------ */
/* Encoding                                                            */
/* ------------------------------------------------------------------ */

/*
 * Encode the tree's packet into out (capacity bytes): framing, every field,
 * checks, end check and CRC. *size gets the packet's length. Returns
 * res->status (res may be NULL); on failure res names the field path.
 *
 * How the tree is read: struct children are matched by name (order does
 * not matter, unknown names are ignored); a field the schema fixes (check,
 * align, a field with a fixed value) needs no node; a conditional field is
 * written only when its condition holds on the values written before it;
 * a count field may be left out and is then taken from its array's
 * length; numbers convert between kinds when the value fits exactly
 * (an enum also takes its name as a STRING). Encoding the tree of a
 * decoded canonical packet gives back the same bytes.
 */
bitsift_error bitsift_encode(const bitsift_schema *s, const bitsift_tree *t, void *out,
                             size_t capacity, size_t *size, bitsift_result *res);

#ifdef __cplusplus
}
#endif

#endif /* BITSIFT_H */
