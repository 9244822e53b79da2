/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gen_c_cfloat.c -- compressed floats read and written back through the
 * code `bitsift gen c --name gen` wrote for one packet type of many
 * compressed_float fields (tests/gen-c/cfloat.sh writes the schema and
 * fields.h, one CF(name, min, max, steps, bits) line a field, taken from
 * the generated code itself).
 *
 * Packets are built integer by integer (both ends, the middle and random
 * raw values of every field), read by gen_read and written by gen_write:
 * each field must come back as the integer it was whenever no other
 * integer reads as the same float, and as one that reads as that float
 * otherwise (above about 2^24 steps several can); a packet of lone
 * integers must come back byte for byte (write(read(p)) == p), and a
 * packet written once must be a fixed point. TAP.
 *
 *   gen_c_cfloat [DIR]
 *
 * With DIR, each packet built is written to DIR/in-NNN.bin and what
 * gen_write made of it to DIR/gen-NNN.bin.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bitsift.h>

#include "gen.h"

struct field {
    const char *name;
    float min, max;
    uint32_t steps;
    unsigned bits;
};

static const struct field fields[] = {
#define CF(name, min, max, steps, bits) {#name, min, max, steps, bits},
#include "fields.h"
#undef CF
};
#define NFIELDS (sizeof fields / sizeof fields[0])

static uint64_t rng_next(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static uint32_t bits_of(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

static float value_of(const struct field *f, uint32_t raw)
{
    return bitsift_compressed_float_value(f->min, f->max, f->steps, raw);
}

static bool alone(const struct field *f, uint32_t raw)
{
    uint32_t v = bits_of(value_of(f, raw));
    return (raw == 0 || bits_of(value_of(f, raw - 1)) != v) &&
           (raw == f->steps || bits_of(value_of(f, raw + 1)) != v);
}

/* The struct member of field k, by the generated names. */
static float *member(struct gen_packet *p, size_t k)
{
    size_t i = 0;
#define CF(name, min, max, steps, bits) \
    if (i++ == k)                       \
        return &p->as.p.name;
#include "fields.h"
#undef CF
    return NULL;
}

/* A sealed packet with the given integers, built without generated code. */
static size_t build(const uint32_t *raws, uint8_t *buf, size_t cap)
{
    bitsift_writer w;
    size_t size = 0;
    bitsift_writer_init(&w, buf, cap);
    if (!bitsift_packet_write_begin(&w, &gen_framing, NULL, gen_TYPE_p))
        return 0;
    for (size_t k = 0; k < NFIELDS; k++)
        if (!bitsift_write_bits(&w, fields[k].bits, raws[k]))
            return 0;
    return bitsift_packet_write_end(&w, &gen_framing, &size) ? size : 0;
}

/* The integers of a packet, read without generated code. */
static bool integers(const uint8_t *buf, size_t size, uint32_t *raws)
{
    bitsift_reader r;
    uint32_t type;
    bitsift_reader_init(&r, buf, size);
    if (!bitsift_packet_read_begin(&r, &gen_framing, &type))
        return false;
    for (size_t k = 0; k < NFIELDS; k++) {
        uint64_t raw;
        if (!bitsift_read_bits(&r, fields[k].bits, &raw))
            return false;
        raws[k] = (uint32_t)raw;
    }
    return bitsift_packet_read_end(&r, &gen_framing);
}

/* write(read(p)) into out; its size, 0 on failure. */
static size_t through_generated(const uint8_t *p, size_t n, uint8_t *out, size_t cap,
                                struct gen_packet *packet)
{
    bitsift_reader r;
    bitsift_writer w;
    size_t size = 0;
    bitsift_reader_init(&r, p, n);
    if (!gen_read(&r, packet))
        return 0;
    bitsift_writer_init(&w, out, cap);
    return gen_write(&w, packet, &size) ? size : 0;
}

/* DIR/WHAT-NNN.bin holds the packet (for the comparison with bitsift
 * decode | bitsift encode). */
static bool save(const char *dir, const char *what, int j, const uint8_t *buf, size_t n)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s-%03d.bin", dir, what, j);
    FILE *f = fopen(path, "wb");
    if (!f)
        return false;
    bool ok = fwrite(buf, 1, n, f) == n;
    return fclose(f) == 0 && ok;
}

/* The nearest integer to raw that no other integer reads like, within
 * 4096 (near the ends of a range of 2^32 steps there can be none); raw
 * itself when there is none. */
static uint32_t lone_near(const struct field *f, uint32_t raw)
{
    for (uint32_t d = 0; d < 4096; d++) {
        if (raw >= d && alone(f, raw - d))
            return raw - d;
        if ((uint64_t)raw + d <= f->steps && alone(f, raw + d))
            return raw + d;
    }
    return raw;
}

int main(int argc, char **argv)
{
    const char *dump = argc > 1 ? argv[1] : NULL;
    enum { PACKETS = 60, FIXED = 9, CAP = NFIELDS * 4 + 16 };
    static uint8_t p[CAP], back[CAP], again[CAP];
    static uint32_t raws[NFIELDS], got[NFIELDS];
    static struct gen_packet packet;
    uint64_t rng = 34, singles = 0, shared = 0, exact_packets = 0;
    int failures = 0;

    /* The step counts the schema covers: both ends, the edges around
     * 2^24 and odd counts in [2^23 + 1, 2^24 - 1]. */
    bool two = false, below = false, at = false, above = false, odd = false, top = false;
    for (size_t k = 0; k < NFIELDS; k++) {
        uint32_t s = fields[k].steps;
        two |= s == 2;
        below |= s == (1u << 24) - 1;
        at |= s == 1u << 24;
        above |= s > 1u << 24 && s < 1u << 25;
        odd |= s > 1u << 23 && s < 1u << 24 && s % 2 == 1;
        top |= s == 4294967040u;
    }
    printf("1..4\n");
    if (two && below && at && above && odd && top)
        printf("ok 1 - %zu fields cover 2, 2^24 - 1, 2^24, above 2^24, odd counts in "
               "[2^23 + 1, 2^24 - 1] and 4294967040 steps\n",
               NFIELDS);
    else
        printf("not ok 1 - step counts not covered: 2 %d, 2^24-1 %d, 2^24 %d, above %d, odd %d, "
               "4294967040 %d\n",
               two, below, at, above, odd, top);

    /* Every field's integer read and written back. */
    for (int j = 0; j < PACKETS; j++) {
        for (size_t k = 0; k < NFIELDS; k++) {
            uint32_t s = fields[k].steps, mid = s / 2;
            const uint32_t fixed[FIXED] = {0, 1, 2, mid - 1, mid, mid + 1, s - 2, s - 1, s};
            raws[k] = j < FIXED ? fixed[j] : (uint32_t)(rng_next(&rng) % ((uint64_t)s + 1));
            if (raws[k] > s)
                raws[k] = s;
            if (alone(&fields[k], raws[k]))
                singles++;
            else
                shared++;
        }
        size_t n = build(raws, p, sizeof p);
        size_t m = n ? through_generated(p, n, back, sizeof back, &packet) : 0;
        if (!m || !integers(back, m, got)) {
            printf("# packet %d: not read or not written (built %zu bytes)\n", j, n);
            failures++;
            continue;
        }
        for (size_t k = 0; k < NFIELDS; k++) {
            const struct field *f = &fields[k];
            float read = *member(&packet, k), v = value_of(f, raws[k]);
            if (bits_of(read) != bits_of(v) || bits_of(value_of(f, got[k])) != bits_of(v) ||
                (alone(f, raws[k]) && got[k] != raws[k])) {
                printf("# packet %d: %s (steps %u): raw %u read as %.9g, written back as %u "
                       "(reads %.9g)%s\n",
                       j, f->name, f->steps, raws[k], (double)read, got[k],
                       (double)value_of(f, got[k]),
                       alone(f, raws[k]) ? "; no other integer reads as that float" : "");
                failures++;
            }
        }
        if (dump && (!save(dump, "in", j, p, n) || !save(dump, "gen", j, back, m))) {
            printf("# cannot write into %s\n", dump);
            failures++;
        }
        size_t a = through_generated(back, m, again, sizeof again, &packet);
        if (a != m || memcmp(back, again, m) != 0) {
            printf("# packet %d: a packet written once changes when read and written again\n",
                   j);
            failures++;
        }
        /* The same packet with each integer moved to a lone one nearby
         * (or, where there is none, to the one gen_write chose): it must
         * come back byte for byte. */
        for (size_t k = 0; k < NFIELDS; k++) {
            raws[k] = lone_near(&fields[k], raws[k]);
            if (!alone(&fields[k], raws[k]))
                raws[k] = got[k];
        }
        n = build(raws, p, sizeof p);
        m = n ? through_generated(p, n, back, sizeof back, &packet) : 0;
        if (!m || m != n || memcmp(p, back, n) != 0) {
            printf("# packet %d of lone integers: write(read(p)) != p\n", j);
            failures++;
        } else {
            exact_packets++;
        }
    }
    if (failures || exact_packets < PACKETS / 2 || shared == 0)
        printf("not ok 2 - %d failures; %d packets, %llu integers alone in their float, %llu "
               "shared; %llu packets of lone integers came back byte for byte\n",
               failures, PACKETS, (unsigned long long)singles, (unsigned long long)shared,
               (unsigned long long)exact_packets);
    else
        printf("ok 2 - %d packets through gen_read and gen_write: %llu integers alone in their "
               "float came back as they were, %llu shared with a neighbour came back as one "
               "that reads the same, every packet written once is a fixed point\n",
               PACKETS, (unsigned long long)singles, (unsigned long long)shared);
    printf("%s 3 - write(read(p)) == p for %llu packets of integers that no other reads like\n",
           exact_packets >= PACKETS / 2 && !failures ? "ok" : "not ok",
           (unsigned long long)exact_packets);
    return failures || exact_packets < PACKETS / 2 || shared == 0 ||
                   !(two && below && at && above && odd && top)
               ? 1
               : 0;
}
