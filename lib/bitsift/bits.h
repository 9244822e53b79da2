/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bitsift/bits.h -- libbitsift's bit layer: version, errors, the bit
 * reader and writer, the serialize macros and packet framing. A program
 * that writes its packet code by hand (or generated code) needs only this
 * header; <bitsift.h> includes it with the schema API (bitsift/schema.h).
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
#ifndef BITSIFT_BITS_H
#define BITSIFT_BITS_H

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

/* Bytes of the field path a reader or writer keeps for its failure, NUL
 * included ("players[12].position.x"): what does not fit is dropped from
 * the outer end, so the innermost parts always remain. */
#define BITSIFT_FAILURE_PATH_MAX 256

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
    /* The failure's field path once serialize code has named where it
     * failed (bitsift_reader_fail_in): path[path_start..], which
     * failure.field then points at. Left uninitialised until used, so that
     * bitsift_reader_init costs no more for it. */
    uint32_t path_start;
    char path[BITSIFT_FAILURE_PATH_MAX];
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

/* Add an outer part to the failure's field path, as serialize functions
 * return from a failed part: `name` (NULL or "" for none) then "[index]"
 * when index >= 0. The first call starts the path from the name already
 * recorded (reduced to its last member: "b->pos.x" gives "x"), so that
 * leaf, element, struct calls give "players[2].position.x". failure.field
 * then points into the reader, valid while the reader is. Does nothing
 * while the reader has not failed. Returns false. */
bool bitsift_reader_fail_in(bitsift_reader *r, const char *name, int64_t index);

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

/* The same with steps and width from bitsift_compressed_float_steps,
 * computed once by the caller (bits must be bits_required(0, steps)):
 * what generated code calls, with no division per value. */
bool bitsift_read_compressed_float_steps(bitsift_reader *r, float min, float max, uint32_t steps,
                                         unsigned bits, float *value);

/* The float of a raw integer 0..steps: raw / steps * (max - min) + min,
 * each step rounded to float32 inside the library. */
float bitsift_compressed_float_value(float min, float max, uint32_t steps, uint32_t raw);

/* And back, for a round trip: the integer 0..steps whose float is exactly
 * `value` when one is (the one nearest the reference's rounding), else the
 * reference's rounding. A float read from integer q gives back q unless
 * other integers read as the same float (possible above 2^24 steps); it
 * gives one of them. What the serialize macros write. */
uint32_t bitsift_compressed_float_quantize(float min, float max, uint32_t steps, float value);

/* bitsift_read_compressed_float_steps with its read and range test inline
 * and only the float arithmetic called (what the serialize macros use):
 * with constant parameters, as generated code passes them, the argument
 * test folds away. The same answers, failures included. */
static inline bool bitsift__read_compressed_float_steps_inline(bitsift_reader *r, float min,
                                                               float max, uint32_t steps,
                                                               unsigned bits, float *value)
{
    if (BITSIFT_UNLIKELY(bits != bitsift_bits_required(0, (int64_t)steps) || !(min <= max)))
        return bitsift_read_compressed_float_steps(r, min, max, steps, bits, value);
    uint64_t at = r->bit_pos, raw;
    if (BITSIFT_UNLIKELY(!bitsift_read_bits(r, bits, &raw)))
        return false;
    if (BITSIFT_UNLIKELY(raw > steps))
        return bitsift_reader_fail(r, BITSIFT_E_RANGE, at, "quantized value above step count",
                                   steps, raw);
    *value = bitsift_compressed_float_value(min, max, steps, (uint32_t)raw);
    return true;
}

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
    uint32_t path_start; /* as bitsift_reader's */
    char path[BITSIFT_FAILURE_PATH_MAX];
} bitsift_writer;

void bitsift_writer_init(bitsift_writer *w, void *data, size_t capacity);
void bitsift_writer_init_measure(bitsift_writer *w);

bool bitsift_writer_fail(bitsift_writer *w, bitsift_error kind, const char *why, uint64_t expected,
                         uint64_t got);
void bitsift_writer_name_failure(bitsift_writer *w, const char *field);
/* bitsift_reader_fail_in for a writer. */
bool bitsift_writer_fail_in(bitsift_writer *w, const char *name, int64_t index);

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
/* compressed_float with precomputed steps and width (see the reader). */
bool bitsift_write_compressed_float_steps(bitsift_writer *w, float min, float max,
                                          uint32_t steps, unsigned bits, float value);
/* The two above write the reference's rounding, byte for byte. The
 * serialize macros write with these two instead, which write
 * bitsift_compressed_float_quantize's integer: what they read is written
 * back as it came. */
bool bitsift__write_compressed_float_exact(bitsift_writer *w, float min, float max, float res,
                                           float value);
bool bitsift__write_compressed_float_steps_exact(bitsift_writer *w, float min, float max,
                                                 uint32_t steps, unsigned bits, float value);
bool bitsift_write_bytes(bitsift_writer *w, const void *src, size_t n);
/* string(bufsize): len <= bufsize - 1, no NUL byte, valid UTF-8. */
bool bitsift_write_string(bitsift_writer *w, const char *text, size_t bufsize);
bool bitsift_write_string_n(bitsift_writer *w, const void *text, size_t len, size_t bufsize);
/* The UTF-8 rule strings are held to: the length (1..4) of the well-formed
 * sequence at s, reading at most n bytes, or 0 when there is none (n is 0,
 * a bad lead byte, a missing continuation, an overlong form, a surrogate,
 * a code point above U+10FFFF, or a sequence cut short by n). */
size_t bitsift_utf8_sequence(const uint8_t *s, size_t n);
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
/* Smallest-three quaternions                                          */
/* ------------------------------------------------------------------ */

/*
 * smallest_three(bits): the index of the largest component in 2 bits,
 * then the three others, each `bits` bits (2..31) spread evenly over
 * [-0.707107, 0.707107]; the largest is rebuilt as
 * sqrt(1 - a^2 - b^2 - c^2):
 *
 *   +---------+-----------+-----------+-----------+
 *   | largest | 1st other | 2nd other | 3rd other |   others in x, y, z, w
 *   | 2 bits  | bits      | bits      | bits      |   order, largest skipped
 *   +---------+-----------+-----------+-----------+
 *
 * q holds x, y, z, w. The reader also keeps what it read (largest and the
 * raw integers, raw[largest] = 0); the writer sends those again while the
 * three sent components still equal what they decode to, so that
 * write(read(p)) gives p back bit for bit even where two raw values
 * decode to the same float. Otherwise it sends q afresh: the largest
 * magnitude as `largest`, q negated when that component is negative (q
 * and -q are the same rotation), each other component quantized. All the
 * float arithmetic is in the library (built with -ffp-contract=off), so
 * no compiler setting of the caller's can change a bit.
 */
typedef struct bitsift_smallest_three {
    float q[4];      /* x, y, z, w */
    uint8_t largest; /* read: the index sent */
    uint32_t raw[4]; /* read: the integers sent */
} bitsift_smallest_three;

/* Fails with argument when bits is not 2..31; any raw values are valid. */
bool bitsift_read_smallest_three(bitsift_reader *r, unsigned bits, bitsift_smallest_three *q);
bool bitsift_write_smallest_three(bitsift_writer *w, unsigned bits,
                                  const bitsift_smallest_three *q);
/* One component: the float of a raw integer, and the nearest raw integer
 * of a float (clamped into range). */
float bitsift_smallest_three_dequantize(unsigned bits, uint32_t raw);
uint32_t bitsift_smallest_three_quantize(unsigned bits, float v);
/* q from what was sent: the largest index (0..3) and the three other
 * components' raw integers in x, y, z, w order (bits 2..31); the same q
 * as bitsift_read_smallest_three gives for those bits. */
void bitsift_smallest_three_from_sent(unsigned bits, unsigned largest, uint32_t a, uint32_t b,
                                      uint32_t c, bitsift_smallest_three *q);

/* bitsift_read_smallest_three with its read inline and only the float
 * arithmetic called (what the serialize macros use): while the 2 + 3 * bits
 * of the field lie inside the fast window they are one load, otherwise
 * the out-of-line read decides, so failures are the same. */
static inline bool bitsift__read_smallest_three_inline(bitsift_reader *r, unsigned bits,
                                                       bitsift_smallest_three *q)
{
    uint64_t at = r->bit_pos, total = 2u + 3u * (uint64_t)bits;
    if (BITSIFT_UNLIKELY(bits < 2 || bits > 18 || at + total > r->fast_limit))
        return bitsift_read_smallest_three(r, bits, q);
    uint64_t v = bitsift__load_le64(r->data + (at >> 3)) >> (at & 7);
    uint64_t mask = (1ull << bits) - 1;
    r->bit_pos = at + total;
    bitsift_smallest_three_from_sent(bits, (unsigned)(v & 3u), (uint32_t)((v >> 2) & mask),
                                     (uint32_t)((v >> (2 + bits)) & mask),
                                     (uint32_t)((v >> (2 + 2 * bits)) & mask), q);
    return true;
}

/* ------------------------------------------------------------------ */
/* Sparse arrays                                                       */
/* ------------------------------------------------------------------ */

/*
 * A sparse array is a subset of `max` slots, held by the caller as
 * present[max] (and its elements wherever it likes). The four encodings
 * of the article's scenes, elements in increasing slot order:
 *
 *   FLAGS     for each slot: bool present, then the element if present
 *   INDICES   count int(0, max); per element: int(0, max - 1) slot, element
 *   SENTINEL  per element: int(0, max) slot, element; slot max ends
 *   RELATIVE  count int(0, max); per element: the slot on the object
 *             index ladder relative to the previous slot (-1 first) with
 *             max_objects = max, element
 *
 * A reader fails with range when a slot is not above the previous one
 * ("sparse index not above the previous one", expected previous + 1) or
 * not below max ("sparse index beyond the array", expected max - 1).
 * An iteration: begin, then next until it returns false, serializing the
 * element at `index` after each true; next returns false at the end and
 * on a failure (the stream says which). The reader clears present[] in
 * begin and sets each slot it reads; it leaves absent elements alone.
 * max is 1..65536.
 */
typedef enum bitsift_sparse_encoding {
    BITSIFT_SPARSE_FLAGS = 0,
    BITSIFT_SPARSE_INDICES = 1,
    BITSIFT_SPARSE_SENTINEL = 2,
    BITSIFT_SPARSE_RELATIVE = 3
} bitsift_sparse_encoding;

typedef struct bitsift_sparse {
    bitsift_sparse_encoding encoding;
    uint32_t max;
    bool *present;     /* read: filled; write: only read */
    uint32_t count;    /* elements: sent (INDICES, RELATIVE) or counted */
    uint32_t done;     /* elements so far */
    int64_t index;     /* the current element's slot, -1 before the first */
    uint32_t next;     /* FLAGS: the next slot to look at */
} bitsift_sparse;

bool bitsift_read_sparse_begin(bitsift_reader *r, bitsift_sparse *s,
                               bitsift_sparse_encoding encoding, bool *present, uint32_t max);
bool bitsift_read_sparse_next(bitsift_reader *r, bitsift_sparse *s);
bool bitsift_write_sparse_begin(bitsift_writer *w, bitsift_sparse *s,
                                bitsift_sparse_encoding encoding, const bool *present,
                                uint32_t max);
bool bitsift_write_sparse_next(bitsift_writer *w, bitsift_sparse *s);

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

/* The failure of a part: name it `field` (unless already named), then,
 * when `parent` is not NULL or `index` >= 0, add the part it belongs to
 * ("position" of a vector, "scores[3]" of an array element). */
bool bitsift__serialize_failed(void *stream, int mode, const char *parent, int64_t index,
                               const char *field);
#define BITSIFT__SERIALIZE_FAIL_AT(stream, mode, parent, field) \
    return bitsift__serialize_failed(stream, mode, BITSIFT__PARENT_NAME parent, \
                                     BITSIFT__PARENT_INDEX parent, field)
/* A parent is (name, index). */
#define BITSIFT__PARENT_NAME(name, index)  (name)
#define BITSIFT__PARENT_INDEX(name, index) ((int64_t)(index))
#define BITSIFT__NO_PARENT                 ((const char *)NULL, -1)
#define BITSIFT__SERIALIZE_FAIL(stream, mode, field) \
    BITSIFT__SERIALIZE_FAIL_AT(stream, mode, BITSIFT__NO_PARENT, field)

/* In READ mode the destination is only stored to, never loaded: it may be
 * uninitialised (loading an indeterminate bool or enum is undefined). */
#define BITSIFT__SERIALIZE_SCALAR(stream, mode, parent, name, value, ctype, read_call, write_call) \
    do {                                                                                           \
        ctype bitsift_v_ = (mode) == BITSIFT_READ ? (ctype)0 : (ctype)(value);                     \
        bool bitsift_ok_ = (mode) == BITSIFT_READ                                                  \
                               ? read_call((bitsift_reader *)(stream), &bitsift_v_)                \
                               : write_call((bitsift_writer *)(stream), bitsift_v_);               \
        if (BITSIFT_UNLIKELY(!bitsift_ok_))                                                        \
            BITSIFT__SERIALIZE_FAIL_AT(stream, mode, parent, name);                                \
        if ((mode) == BITSIFT_READ)                                                                \
            (value) = bitsift_v_;                                                                  \
    } while (0)

/* The same with arguments between the stream and the value. */
#define BITSIFT__SERIALIZE_WITH(stream, mode, parent, name, value, ctype, read_fn, write_fn, ...) \
    do {                                                                                          \
        ctype bitsift_v_ = (mode) == BITSIFT_READ ? (ctype)0 : (ctype)(value);                    \
        bool bitsift_ok_ = (mode) == BITSIFT_READ                                                 \
                               ? read_fn((bitsift_reader *)(stream), __VA_ARGS__, &bitsift_v_)    \
                               : write_fn((bitsift_writer *)(stream), __VA_ARGS__, bitsift_v_);   \
        if (BITSIFT_UNLIKELY(!bitsift_ok_))                                                       \
            BITSIFT__SERIALIZE_FAIL_AT(stream, mode, parent, name);                               \
        if ((mode) == BITSIFT_READ)                                                               \
            (value) = bitsift_v_;                                                                 \
    } while (0)

/*
 * One leaf per field type, named explicitly: bitsift__leaf_<keyword>(stream,
 * mode, parent, name, value, parameters...). The trailing arguments are
 * variadic so that a caller can pass an empty parameter list (see
 * bitsift_serialize_named).
 */
#define bitsift__leaf_bool(stream, mode, parent, name, value, ...) \
    BITSIFT__SERIALIZE_SCALAR(stream, mode, parent, name, value, bool, bitsift_read_bool, \
                              bitsift_write_bool)
#define bitsift__leaf_uint8(stream, mode, parent, name, value, ...) \
    BITSIFT__SERIALIZE_SCALAR(stream, mode, parent, name, value, uint8_t, bitsift_read_uint8, \
                              bitsift_write_uint8)
#define bitsift__leaf_uint16(stream, mode, parent, name, value, ...) \
    BITSIFT__SERIALIZE_SCALAR(stream, mode, parent, name, value, uint16_t, bitsift_read_uint16, \
                              bitsift_write_uint16)
#define bitsift__leaf_uint32(stream, mode, parent, name, value, ...) \
    BITSIFT__SERIALIZE_SCALAR(stream, mode, parent, name, value, uint32_t, bitsift_read_uint32, \
                              bitsift_write_uint32)
#define bitsift__leaf_uint64(stream, mode, parent, name, value, ...) \
    BITSIFT__SERIALIZE_SCALAR(stream, mode, parent, name, value, uint64_t, bitsift_read_uint64, \
                              bitsift_write_uint64)
#define bitsift__leaf_float(stream, mode, parent, name, value, ...) \
    BITSIFT__SERIALIZE_SCALAR(stream, mode, parent, name, value, float, bitsift_read_float, \
                              bitsift_write_float)
#define bitsift__leaf_double(stream, mode, parent, name, value, ...) \
    BITSIFT__SERIALIZE_SCALAR(stream, mode, parent, name, value, double, bitsift_read_double, \
                              bitsift_write_double)
#define bitsift__leaf_bits(stream, mode, parent, name, value, ...) \
    BITSIFT__SERIALIZE_WITH(stream, mode, parent, name, value, uint64_t, bitsift_read_bits, \
                            bitsift_write_bits, __VA_ARGS__)
#define bitsift__leaf_int(stream, mode, parent, name, value, ...) \
    BITSIFT__SERIALIZE_WITH(stream, mode, parent, name, value, int64_t, bitsift_read_int, \
                            bitsift_write_int, __VA_ARGS__)
#define bitsift__leaf_compressed_float(stream, mode, parent, name, value, ...)             \
    BITSIFT__SERIALIZE_WITH(stream, mode, parent, name, value, float,                      \
                            bitsift_read_compressed_float,                                 \
                            bitsift__write_compressed_float_exact, __VA_ARGS__)
/* compressed_float_steps(min, max, steps, bits): compressed_float with
 * its step count and width precomputed (bitsift_compressed_float_steps). */
#define bitsift__leaf_compressed_float_steps(stream, mode, parent, name, value, ...)       \
    BITSIFT__SERIALIZE_WITH(stream, mode, parent, name, value, float,                      \
                            bitsift__read_compressed_float_steps_inline,                   \
                            bitsift__write_compressed_float_steps_exact, __VA_ARGS__)
#define bitsift__leaf_int_relative(stream, mode, parent, name, value, ...)                         \
    BITSIFT__SERIALIZE_WITH(stream, mode, parent, name, value, int32_t, bitsift_read_int_relative, \
                            bitsift_write_int_relative, __VA_ARGS__)
#define bitsift__leaf_object_index(stream, mode, parent, name, value, ...)                         \
    BITSIFT__SERIALIZE_WITH(stream, mode, parent, name, value, int32_t, bitsift_read_object_index, \
                            bitsift_write_object_index, __VA_ARGS__)
#define bitsift__leaf_sequence_relative(stream, mode, parent, name, value, ...)        \
    BITSIFT__SERIALIZE_WITH(stream, mode, parent, name, value, uint16_t,               \
                            bitsift_read_sequence_relative, bitsift_write_sequence_relative, \
                            __VA_ARGS__)
#define bitsift__leaf_ack_relative(stream, mode, parent, name, value, ...)                         \
    BITSIFT__SERIALIZE_WITH(stream, mode, parent, name, value, uint16_t, bitsift_read_ack_relative, \
                            bitsift_write_ack_relative, __VA_ARGS__)
#define bitsift__leaf_smallest_three(stream, mode, parent, name, value, ...)                      \
    do {                                                                                          \
        if (!((mode) == BITSIFT_READ                                                              \
                  ? bitsift__read_smallest_three_inline((bitsift_reader *)(stream), __VA_ARGS__, &(value)) \
                  : bitsift_write_smallest_three((bitsift_writer *)(stream), __VA_ARGS__,         \
                                                 &(value))))                                      \
            BITSIFT__SERIALIZE_FAIL_AT(stream, mode, parent, name);                               \
    } while (0)
#define bitsift__leaf_string(stream, mode, parent, name, value, ...)                              \
    do {                                                                                          \
        if (!((mode) == BITSIFT_READ                                                              \
                  ? bitsift_read_string((bitsift_reader *)(stream), (value), __VA_ARGS__, NULL)   \
                  : bitsift_write_string((bitsift_writer *)(stream), (value), __VA_ARGS__)))      \
            BITSIFT__SERIALIZE_FAIL_AT(stream, mode, parent, name);                               \
    } while (0)
#define bitsift__leaf_bytes(stream, mode, parent, name, value, ...)                               \
    do {                                                                                          \
        if (!((mode) == BITSIFT_READ                                                              \
                  ? bitsift_read_bytes((bitsift_reader *)(stream), (value), __VA_ARGS__)          \
                  : bitsift_write_bytes((bitsift_writer *)(stream), (value), __VA_ARGS__)))       \
            BITSIFT__SERIALIZE_FAIL_AT(stream, mode, parent, name);                               \
    } while (0)

/* An enum is int(min, max) on the wire; its names are the caller's to
 * check (bitsift_serialize_refuse). */
#define bitsift__leaf_enum(stream, mode, parent, name, value, ...) \
    bitsift__leaf_int(stream, mode, parent, name, value, __VA_ARGS__)
/* check(value) and align take no destination: `value` is the marker. */
#define bitsift__leaf_check(stream, mode, parent, name, value, ...)                          \
    do {                                                                                     \
        if (!((mode) == BITSIFT_READ ? bitsift_read_check((bitsift_reader *)(stream), value) \
                                     : bitsift_write_check((bitsift_writer *)(stream), value))) \
            BITSIFT__SERIALIZE_FAIL_AT(stream, mode, parent, name);                          \
    } while (0)
#define bitsift__leaf_align(stream, mode, parent, name, value, ...)                          \
    do {                                                                                     \
        (void)(value);                                                                       \
        if (!((mode) == BITSIFT_READ ? bitsift_read_align((bitsift_reader *)(stream))        \
                                     : bitsift_write_align((bitsift_writer *)(stream))))     \
            BITSIFT__SERIALIZE_FAIL_AT(stream, mode, parent, name);                          \
    } while (0)

/* The stream's bit position, for a check that refuses a field after
 * reading it (bitsift_serialize_refuse). */
static inline uint64_t bitsift_serialize_bit(const void *stream, int mode)
{
    return mode == BITSIFT_READ ? ((const bitsift_reader *)stream)->bit_pos
                                : ((const bitsift_writer *)stream)->bit_pos;
}

/* Refuse a value that read or would be written correctly but that the
 * protocol does not allow (an enum value with no name, a value outside a
 * list): a reader fails with range at bit `at` (where the field starts),
 * a writer with value; the failure is named `name`. Returns false. */
bool bitsift_serialize_refuse(void *stream, int mode, const char *name, uint64_t at,
                              const char *why, uint64_t expected, uint64_t got);

/* The article's macros: the field expression names a failure ("b->x"). */
#define bitsift_serialize_bool(stream, mode, value) \
    bitsift__leaf_bool(stream, mode, BITSIFT__NO_PARENT, #value, value, 0)
#define bitsift_serialize_uint8(stream, mode, value) \
    bitsift__leaf_uint8(stream, mode, BITSIFT__NO_PARENT, #value, value, 0)
#define bitsift_serialize_uint16(stream, mode, value) \
    bitsift__leaf_uint16(stream, mode, BITSIFT__NO_PARENT, #value, value, 0)
#define bitsift_serialize_uint32(stream, mode, value) \
    bitsift__leaf_uint32(stream, mode, BITSIFT__NO_PARENT, #value, value, 0)
#define bitsift_serialize_uint64(stream, mode, value) \
    bitsift__leaf_uint64(stream, mode, BITSIFT__NO_PARENT, #value, value, 0)
#define bitsift_serialize_float(stream, mode, value) \
    bitsift__leaf_float(stream, mode, BITSIFT__NO_PARENT, #value, value, 0)
#define bitsift_serialize_double(stream, mode, value) \
    bitsift__leaf_double(stream, mode, BITSIFT__NO_PARENT, #value, value, 0)
#define bitsift_serialize_bits(stream, mode, value, n) \
    bitsift__leaf_bits(stream, mode, BITSIFT__NO_PARENT, #value, value, n)
#define bitsift_serialize_int(stream, mode, value, min, max) \
    bitsift__leaf_int(stream, mode, BITSIFT__NO_PARENT, #value, value, min, max)
#define bitsift_serialize_compressed_float(stream, mode, value, min, max, res) \
    bitsift__leaf_compressed_float(stream, mode, BITSIFT__NO_PARENT, #value, value, min, max, res)
#define bitsift_serialize_int_relative(stream, mode, previous, current) \
    bitsift__leaf_int_relative(stream, mode, BITSIFT__NO_PARENT, #current, current, previous)
#define bitsift_serialize_object_index(stream, mode, previous, current, max_objects)         \
    bitsift__leaf_object_index(stream, mode, BITSIFT__NO_PARENT, #current, current, previous, \
                               max_objects)
#define bitsift_serialize_sequence_relative(stream, mode, sequence1, sequence2)          \
    bitsift__leaf_sequence_relative(stream, mode, BITSIFT__NO_PARENT, #sequence2, sequence2, \
                                    sequence1)
#define bitsift_serialize_ack_relative(stream, mode, sequence, ack) \
    bitsift__leaf_ack_relative(stream, mode, BITSIFT__NO_PARENT, #ack, ack, sequence)
/* A bitsift_smallest_three `value` of `bits` bits per sent component. */
#define bitsift_serialize_smallest_three(stream, mode, value, bits) \
    bitsift__leaf_smallest_three(stream, mode, BITSIFT__NO_PARENT, #value, value, bits)

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
#define bitsift_serialize_bytes(stream, mode, data, n) \
    bitsift__leaf_bytes(stream, mode, BITSIFT__NO_PARENT, #data, data, n)

/* string(bufsize) into/from the char array `buf` of bufsize bytes. */
#define bitsift_serialize_string(stream, mode, buf, bufsize) \
    bitsift__leaf_string(stream, mode, BITSIFT__NO_PARENT, #buf, buf, bufsize)

/* A sub-object serialized by another serialize function. */
#define bitsift_serialize_object(stream, mode, fn, object) \
    do {                                                   \
        if (!fn(stream, mode, object))                     \
            return false;                                  \
    } while (0)

/*
 * Field paths. The article's macros name a failure by the field's
 * expression; code that wants the path of the field with its array
 * indices ("players[2].position.x") names its parts instead:
 *
 *   bitsift_serialize_named(stream, mode, "health", int, p->health, (0, 200));
 *   bitsift_serialize_named(stream, mode, "alive", bool, p->alive, ());
 *
 * reads or writes a leaf of the field type `kind` (a keyword of the
 * schema language: bits, bool, uint8..uint64, int, float, double,
 * compressed_float, string, bytes, int_relative, object_index,
 * sequence_relative, ack_relative, smallest_three) with its parameters in
 * parentheses, in the order of the bitsift_read_<kind> function, and
 * names a failure "health". A call that serializes a part (a struct, an
 * array element) adds the outer parts as the failure returns through it:
 *
 *   bitsift_serialize_in(stream, mode, "players", k,
 *                        serialize_player(stream, mode, &s->players[k]));
 *
 * evaluates the call and, when it fails, adds "players[k]" (index -1:
 * only the name; name NULL: only the index) in front of the path and
 * returns false. The path is kept in the reader or writer
 * (BITSIFT_FAILURE_PATH_MAX bytes) and failure.field points at it.
 */
#define BITSIFT__UNPAREN(...) __VA_ARGS__
#define bitsift_serialize_named(stream, mode, name, kind, value, params) \
    bitsift__leaf_##kind(stream, mode, BITSIFT__NO_PARENT, name, value, BITSIFT__UNPAREN params)

bool bitsift__serialize_failed_in(void *stream, int mode, const char *name, int64_t index);
#define bitsift_serialize_in(stream, mode, name, index, call)                            \
    do {                                                                                 \
        if (BITSIFT_UNLIKELY(!(call)))                                                   \
            return bitsift__serialize_failed_in(stream, mode, name, (int64_t)(index));   \
    } while (0)

/* Vectors: `n` (2..4) components x, y, z, w of one field type, held as
 * an array, a failure named "name.x" ... "name.w":
 *
 *   bitsift_serialize_vector(stream, mode, "position", 3, p->position,
 *                            compressed_float, (-4096.0f, 4096.0f, 0.01f));
 */
#define BITSIFT__COMPONENT_NAME(k) ((k) == 0 ? "x" : (k) == 1 ? "y" : (k) == 2 ? "z" : "w")
#define bitsift_serialize_vector(stream, mode, name, n, vec, kind, params)                  \
    do {                                                                                    \
        for (int bitsift_k_ = 0; bitsift_k_ < (n); bitsift_k_++)                            \
            bitsift__leaf_##kind(stream, mode, (name, -1), BITSIFT__COMPONENT_NAME(bitsift_k_),   \
                                 (vec)[bitsift_k_], BITSIFT__UNPAREN params);               \
    } while (0)

/* A vector that is element `index` of the array `name`: failures named
 * "name[index].x" ... */
#define bitsift_serialize_vector_element(stream, mode, name, index, n, vec, kind, params)   \
    do {                                                                                    \
        for (int bitsift_k_ = 0; bitsift_k_ < (n); bitsift_k_++)                            \
            bitsift__leaf_##kind(stream, mode, (name, index),                               \
                                 BITSIFT__COMPONENT_NAME(bitsift_k_), (vec)[bitsift_k_],    \
                                 BITSIFT__UNPAREN params);                                  \
    } while (0)

/* An element of an array of leaves, a failure named "name[index]":
 *
 *   for (int k = 0; k < s->score_count; k++)
 *       bitsift_serialize_element(stream, mode, "scores", k, s->scores[k], int, (0, 999));
 */
#define bitsift_serialize_element(stream, mode, name, index, value, kind, params) \
    bitsift__leaf_##kind(stream, mode, (name, index), "", value, BITSIFT__UNPAREN params)

/* Sparse arrays: begin, then a loop over next, then end; `it` is a
 * bitsift_sparse variable, `name` names a failure of the array's own
 * bits (count, flags, indices):
 *
 *   bitsift_sparse it;
 *   bitsift_serialize_sparse_begin(stream, mode, it, "objects",
 *                                  BITSIFT_SPARSE_RELATIVE, s->present, 1024);
 *   while (bitsift_serialize_sparse_next(stream, mode, it))
 *       bitsift_serialize_in(stream, mode, "objects", it.index,
 *                            serialize_object(stream, mode, &s->objects[it.index]));
 *   bitsift_serialize_sparse_end(stream, mode, it, "objects");
 */
#define bitsift_serialize_sparse_begin(stream, mode, it, name, encoding, present, max)          \
    do {                                                                                        \
        if (!((mode) == BITSIFT_READ                                                            \
                  ? bitsift_read_sparse_begin((bitsift_reader *)(stream), &(it), encoding,      \
                                              (present), (max))                                 \
                  : bitsift_write_sparse_begin((bitsift_writer *)(stream), &(it), encoding,     \
                                               (present), (max))))                              \
            BITSIFT__SERIALIZE_FAIL(stream, mode, name);                                        \
    } while (0)
#define bitsift_serialize_sparse_next(stream, mode, it)                    \
    ((mode) == BITSIFT_READ                                                \
         ? bitsift_read_sparse_next((bitsift_reader *)(stream), &(it))     \
         : bitsift_write_sparse_next((bitsift_writer *)(stream), &(it)))
/* A failure in next is named as the schema decoder names it: after the
 * last slot visited ("objects[4]" when slot 4's flag or element came
 * last), the array alone before the first. */
#define BITSIFT__SPARSE_FAILED_SLOT(it) \
    ((it).encoding == BITSIFT_SPARSE_FLAGS ? (int64_t)(it).next - 1 : (it).index)
#define bitsift_serialize_sparse_end(stream, mode, it, name)                                 \
    do {                                                                                     \
        if (!((mode) == BITSIFT_READ ? bitsift_reader_ok((bitsift_reader *)(stream))         \
                                     : bitsift_writer_ok((bitsift_writer *)(stream))))       \
            return bitsift__serialize_failed(stream, mode, name,                             \
                                             BITSIFT__SPARSE_FAILED_SLOT(it), "");           \
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
/* The CRC a framed packet carries in its CRC field, into *stored. False
 * (and *stored untouched) when the framing has no CRC or size is below
 * prefix_bytes + 4. A packet passes the CRC check when this value equals
 * bitsift_packet_crc(). */
bool bitsift_packet_stored_crc(const bitsift_framing *f, const void *packet, size_t size,
                               uint32_t *stored);

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


#ifdef __cplusplus
}
#endif

#endif /* BITSIFT_BITS_H */
