/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * randcap.c -- a capture of random packets of a schema, valid and
 * damaged, for the comparison of the generated Wireshark dissector with
 * bitsift decode (tests/wireshark/compare.sh):
 *
 *   randcap OUT.pcap SEED COUNT SCHEMA PORT [SCHEMA PORT]...
 *
 * COUNT packets of each schema, sent to its PORT, the schemas taking turns.
 * Packet k of a schema is a random value tree of type k mod types
 * (bitsift_tree_random,
 * fill 0, 50 or 100), encoded; then, by k mod 5: kept as it is; one bit
 * flipped and the CRC made right again (a failure deep in the packet, or a
 * different valid packet); cut short at a random length and resealed (a
 * truncation that the CRC does not catch first); one bit flipped and not
 * resealed (a CRC failure); a few random bytes appended and resealed
 * (data after the end). Each packet is a UDP datagram in a raw-IPv4
 * capture (link type 101). Packets that do not fit a datagram, and random
 * trees the encoder refuses (a schema no packet satisfies), are left out.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bitsift.h"

#define MAX_DATAGRAM 65507

static uint64_t rng;

static uint64_t next(void)
{
    rng ^= rng >> 12;
    rng ^= rng << 25;
    rng ^= rng >> 27;
    return rng * 0x2545F4914F6CDD1Dull;
}

static void put16be(uint8_t *p, unsigned v)
{
    p[0] = (uint8_t)(v >> 8);
    p[1] = (uint8_t)v;
}

static void put32le(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static void reseal(const bitsift_framing *fr, uint8_t *p, size_t size)
{
    if (fr->crc && size >= fr->prefix_bytes + 4u)
        put32le(p + fr->prefix_bytes, bitsift_packet_crc(fr, p, size));
}

static int write_record(FILE *f, unsigned k, unsigned port, const uint8_t *payload, size_t size)
{
    uint8_t hdr[16 + 28];
    size_t ip_len = 28 + size;
    put32le(hdr, 1700000000u + k / 1000);
    put32le(hdr + 4, (k % 1000) * 1000);
    put32le(hdr + 8, (uint32_t)ip_len);
    put32le(hdr + 12, (uint32_t)ip_len);
    uint8_t *ip = hdr + 16;
    memset(ip, 0, 28);
    ip[0] = 0x45;
    put16be(ip + 2, (unsigned)ip_len);
    put16be(ip + 4, k & 0xffff);
    ip[6] = 0x40; /* don't fragment */
    ip[8] = 64;
    ip[9] = 17;
    ip[12] = 10, ip[15] = 1;
    ip[16] = 10, ip[19] = 2;
    uint32_t sum = 0;
    for (int i = 0; i < 20; i += 2)
        sum += (uint32_t)(ip[i] << 8 | ip[i + 1]);
    while (sum >> 16)
        sum = (sum & 0xffff) + (sum >> 16);
    put16be(ip + 10, ~sum & 0xffff);
    put16be(ip + 20, 40000);
    put16be(ip + 22, port);
    put16be(ip + 24, (unsigned)(8 + size));
    return fwrite(hdr, 1, sizeof hdr, f) == sizeof hdr && fwrite(payload, 1, size, f) == size;
}

#define MAX_SCHEMAS 64

struct source {
    bitsift_schema *s;
    bitsift_tree *t;
    unsigned port;
};

/* Packet k of source `src`, encoded and damaged as above, into buf. */
static size_t make_packet(const struct source *src, uint64_t seed, unsigned k, uint8_t *buf,
                          size_t cap)
{
    const bitsift_framing *fr = bitsift_schema_framing(src->s);
    unsigned types = bitsift_schema_packet_count(src->s);
    size_t size = 0;
    bitsift_result res;
    if (bitsift_tree_random(src->t, k % types, seed * 100003 + k, (k / types) % 3 * 50) !=
            BITSIFT_OK ||
        bitsift_encode(src->s, src->t, buf, cap, &size, &res) != BITSIFT_OK)
        return SIZE_MAX;
    switch (k % 5) {
    case 1:
        if (size)
            buf[next() % size] ^= (uint8_t)(1u << (next() % 8));
        reseal(fr, buf, size);
        break;
    case 2:
        size = size ? next() % size : 0;
        reseal(fr, buf, size);
        break;
    case 3:
        if (size)
            buf[next() % size] ^= (uint8_t)(1u << (next() % 8));
        break;
    case 4:
        for (unsigned n = 1 + next() % 4; n && size < cap; n--)
            buf[size++] = (uint8_t)next();
        reseal(fr, buf, size);
        break;
    default:
        break;
    }
    return size;
}

int main(int argc, char **argv)
{
    if (argc < 6 || (argc - 4) % 2 || (argc - 4) / 2 > MAX_SCHEMAS) {
        fprintf(stderr, "usage: randcap OUT.pcap SEED COUNT SCHEMA PORT [SCHEMA PORT]...\n");
        return 2;
    }
    uint64_t seed = strtoull(argv[2], NULL, 0);
    unsigned count = (unsigned)strtoul(argv[3], NULL, 0);
    struct source src[MAX_SCHEMAS];
    size_t nsrc = 0;
    for (int a = 4; a < argc; a += 2) {
        bitsift_schema_error err;
        src[nsrc].s = bitsift_schema_load_file(argv[a], &err);
        if (!src[nsrc].s) {
            fprintf(stderr, "randcap: %s\n", err.message);
            return 2;
        }
        src[nsrc].t = bitsift_tree_create(src[nsrc].s);
        src[nsrc].port = (unsigned)strtoul(argv[a + 1], NULL, 0);
        if (!src[nsrc].t)
            return 2;
        nsrc++;
    }
    rng = seed * 0x9E3779B97F4A7C15ull + 1;
    static uint8_t buf[1 << 20];
    FILE *f = fopen(argv[1], "wb");
    if (!f)
        return 2;
    uint8_t gh[24] = {0xd4, 0xc3, 0xb2, 0xa1, 2, 0, 4, 0};
    put32le(gh + 16, 262144);
    put32le(gh + 20, 101);
    int ok = fwrite(gh, 1, sizeof gh, f) == sizeof gh;
    unsigned written = 0, frame = 0;
    for (unsigned k = 0; k < count && ok; k++) {
        for (size_t i = 0; i < nsrc && ok; i++) {
            size_t size = make_packet(&src[i], seed + i, k, buf, sizeof buf);
            if (size > MAX_DATAGRAM)
                continue;
            ok = write_record(f, frame++, src[i].port, buf, size);
            written++;
        }
    }
    if (fclose(f) != 0 || !ok) {
        fprintf(stderr, "randcap: cannot write %s\n", argv[1]);
        return 2;
    }
    for (size_t i = 0; i < nsrc; i++) {
        bitsift_tree_free(src[i].t);
        bitsift_schema_free(src[i].s);
    }
    return written ? 0 : 1;
}
