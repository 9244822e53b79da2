/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bench_reader.c -- section 1 of `make bench`: how many fields per second
 * the library's checked, range-checked reader gets through, against two
 * readers written here without the library.
 *
 * All three read the same 1 MiB of random bytes as a sequence of int(min,
 * max) fields whose widths are random in 1..32 (so the width, and with it
 * any refill branch, is data dependent, as in a real schema). All three
 * take each field as its (min, max) pair from the same table, as a schema
 * gives it, work out its width the same way (bits_required: the
 * significant bits of max - min) and add min to the raw value, so that the
 * only differences are the reader design and its checks; all three must
 * return the same sum of values:
 *
 *   checked     bitsift_read_int(): bounds check on every read, range check,
 *               sticky failure, never a load outside the buffer;
 *   window      the fastest unsafe design: one unaligned 64-bit load at
 *               bit_pos / 8, shift, mask; no checks at all (needs 8 bytes of
 *               padding after the data);
 *   refill      the reference bitpacker's BitReader: a 64-bit scratch
 *               refilled with one 32-bit word whenever it holds fewer bits
 *               than asked, plus the same end and range checks its
 *               ReadStream makes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"
#include "bitsift.h"

#define DATA_BYTES (1u << 20)
#define TABLE_FIELDS 8192 /* a power of two: the table is walked cyclically */

struct field {
    int64_t min;
    int64_t max;
};

/* bits_required(min, max) for min < max, as every reader here computes it. */
static inline unsigned field_width(const struct field *f)
{
    return 64u - (unsigned)__builtin_clzll((uint64_t)f->max - (uint64_t)f->min);
}

static struct field table[TABLE_FIELDS];
static size_t field_count; /* fields that fit in DATA_BYTES */


static __attribute__((noinline)) uint64_t read_checked(const uint8_t *data, size_t size)
{
    bitsift_reader r;
    bitsift_reader_init(&r, data, size);
    uint64_t sum = 0;
    const size_t count = field_count;
    for (size_t i = 0; i < count; i++) {
        const struct field *f = &table[i & (TABLE_FIELDS - 1)];
        int64_t v;
        if (!bitsift_read_int(&r, f->min, f->max, &v)) {
            fprintf(stderr, "bench_reader: checked read failed at field %zu\n", i);
            exit(1);
        }
        sum += (uint64_t)v;
    }
    return sum;
}

static inline uint64_t load_le64(const uint8_t *p)
{
    uint64_t w;
    memcpy(&w, p, sizeof w);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    w = __builtin_bswap64(w);
#endif
    return w;
}

static __attribute__((noinline)) uint64_t read_window(const uint8_t *padded)
{
    uint64_t pos = 0, sum = 0;
    const size_t count = field_count;
    for (size_t i = 0; i < count; i++) {
        const struct field *f = &table[i & (TABLE_FIELDS - 1)];
        unsigned width = field_width(f);
        uint64_t raw = (load_le64(padded + (pos >> 3)) >> (pos & 7)) & (~0ull >> (64 - width));
        pos += width;
        sum += (uint64_t)f->min + raw;
    }
    return sum;
}

/* The reference BitReader and ReadStream::SerializeInteger, in C. */
struct refill_reader {
    const uint32_t *words;
    uint64_t scratch;
    int scratch_bits;
    int total_bits;
    int bits_read;
    int word_index;
};

static inline uint32_t refill_read_bits(struct refill_reader *r, int bits)
{
    if (r->scratch_bits < bits) {
        uint32_t word;
        memcpy(&word, &r->words[r->word_index], sizeof word);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
        word = __builtin_bswap32(word);
#endif
        r->scratch |= (uint64_t)word << r->scratch_bits;
        r->scratch_bits += 32;
        r->word_index++;
    }
    uint32_t out = (uint32_t)(r->scratch & ((1ull << bits) - 1));
    r->scratch >>= bits;
    r->scratch_bits -= bits;
    r->bits_read += bits;
    return out;
}

static __attribute__((noinline)) uint64_t read_refill(const uint8_t *data, size_t size)
{
    struct refill_reader r = {(const uint32_t *)(const void *)data, 0, 0, (int)(size * 8), 0, 0};
    uint64_t sum = 0;
    const size_t count = field_count;
    for (size_t i = 0; i < count; i++) {
        const struct field *f = &table[i & (TABLE_FIELDS - 1)];
        int bits = (int)field_width(f);
        if (r.bits_read + bits > r.total_bits) { /* WouldReadPastEnd */
            fprintf(stderr, "bench_reader: refill read past end at field %zu\n", i);
            exit(1);
        }
        uint32_t raw = refill_read_bits(&r, bits);
        if ((uint64_t)raw > (uint64_t)(f->max - f->min)) {
            fprintf(stderr, "bench_reader: refill range failure at field %zu\n", i);
            exit(1);
        }
        sum += (uint64_t)f->min + raw;
    }
    return sum;
}

enum { CHECKED, WINDOW, REFILL, READERS };

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "--header") == 0)
        bench_header();
    uint64_t seed = 0x62697473696674ull; /* "bitsift" */
    /* 8 bytes of padding for the unchecked window reader only; the checked
     * reader is given exactly DATA_BYTES. */
    uint8_t *data = malloc(DATA_BYTES + 8);
    if (!data)
        return 1;
    bench_random_bytes(&seed, data, DATA_BYTES);
    memset(data + DATA_BYTES, 0, 8);

    uint64_t total_bits = 0;
    for (size_t i = 0; i < TABLE_FIELDS; i++) {
        unsigned w = 1 + (unsigned)(bench_random(&seed) % 32);
        int64_t min = (int64_t)(int32_t)(uint32_t)bench_random(&seed);
        table[i] = (struct field){min, min + (int64_t)((1ull << w) - 1)};
    }
    while (total_bits + field_width(&table[field_count & (TABLE_FIELDS - 1)]) <= DATA_BYTES * 8ull)
        total_bits += field_width(&table[field_count++ & (TABLE_FIELDS - 1)]);

    unsigned reps = bench_reps();
    /* Each round reads the buffer `passes` times per reader (~15 ms). */
    const unsigned passes = 8;
    double rate[READERS][64], ratio_window[64], ratio_refill[64];
    uint64_t sums[READERS];
    for (unsigned round = 0; round < reps; round++) {
        for (int k = 0; k < READERS; k++) {
            uint64_t t0 = bench_thread_cpu_ns(), sum = 0;
            for (unsigned p = 0; p < passes; p++)
                sum = k == CHECKED  ? read_checked(data, DATA_BYTES)
                      : k == WINDOW ? read_window(data)
                                    : read_refill(data, DATA_BYTES);
            uint64_t t1 = bench_thread_cpu_ns();
            sums[k] = sum;
            rate[k][round] = (double)field_count * passes / ((double)(t1 - t0 + 1) * 1e-9);
        }
        if (sums[CHECKED] != sums[WINDOW] || sums[CHECKED] != sums[REFILL]) {
            fprintf(stderr, "bench_reader: readers disagree (%llx %llx %llx)\n",
                    (unsigned long long)sums[CHECKED], (unsigned long long)sums[WINDOW],
                    (unsigned long long)sums[REFILL]);
            return 1;
        }
        bench_consume(sums[CHECKED]);
        ratio_window[round] = rate[CHECKED][round] / rate[WINDOW][round];
        ratio_refill[round] = rate[CHECKED][round] / rate[REFILL][round];
    }
    double checked = bench_median(rate[CHECKED], reps);
    bench_row("1", "reader int(min,max), 1..32 bits", checked, "fields/s",
              "unchecked 64-bit window", bench_median(rate[WINDOW], reps),
              bench_median(ratio_window, reps), ">=", 0.8);
    bench_row("1", "reader int(min,max), 1..32 bits", checked, "fields/s",
              "32-bit word refill (reference)", bench_median(rate[REFILL], reps),
              bench_median(ratio_refill, reps), ">=", 3.0);
    free(data);
    return 0;
}
