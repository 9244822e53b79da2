/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_decap.c -- decap_frame() on hand-built frames of every link type,
 * with VLAN tags, IPv4 options, IPv6 extension headers, fragments, and
 * truncated or lying headers. Every frame is copied into a heap buffer of
 * exactly its captured size, so that ASan catches any read past it.
 */
#include <arpa/inet.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "io/decap.h"

/* A frame under construction. */
struct frame {
    uint8_t b[512];
    size_t n;
};

static void put(struct frame *f, const void *data, size_t size)
{
    assert_true(f->n + size <= sizeof f->b);
    memcpy(f->b + f->n, data, size);
    f->n += size;
}

static void put8(struct frame *f, unsigned v)
{
    uint8_t b = (uint8_t)v;
    put(f, &b, 1);
}

static void put16(struct frame *f, unsigned v)
{
    put8(f, v >> 8);
    put8(f, v);
}

static void put32(struct frame *f, uint32_t v)
{
    put16(f, v >> 16);
    put16(f, v & 0xffff);
}

static const uint8_t game_payload[] = {0xde, 0xad, 0xbe, 0xef, 0x01, 0x02, 0x03};

/* UDP header + payload, ports 40000 -> 27015. */
static void put_udp(struct frame *f, const uint8_t *payload, size_t size)
{
    put16(f, 40000);
    put16(f, 27015);
    put16(f, (unsigned)(8 + size));
    put16(f, 0);
    put(f, payload, size);
}

/* IPv4 header with `options` bytes of options (multiple of 4). */
static void put_ipv4(struct frame *f, unsigned protocol, size_t payload, size_t options,
                     unsigned flags_offset)
{
    put8(f, 0x40 | (unsigned)(5 + options / 4));
    put8(f, 0);
    put16(f, (unsigned)(20 + options + payload));
    put16(f, 0x1234);
    put16(f, flags_offset);
    put8(f, 64);
    put8(f, protocol);
    put16(f, 0);
    put32(f, 0x0a000001); /* 10.0.0.1 */
    put32(f, 0x0a000002); /* 10.0.0.2 */
    for (size_t i = 0; i < options; i++)
        put8(f, 1); /* NOP options */
}

static void put_ipv4_udp(struct frame *f)
{
    put_ipv4(f, 17, 8 + sizeof game_payload, 0, 0);
    put_udp(f, game_payload, sizeof game_payload);
}

static void put_ipv6(struct frame *f, unsigned next, size_t payload)
{
    put32(f, 0x60000000);
    put16(f, (unsigned)payload);
    put8(f, next);
    put8(f, 64);
    uint8_t src[16] = {0x20, 0x01, 0x0d, 0xb8, [15] = 1};
    uint8_t dst[16] = {0x20, 0x01, 0x0d, 0xb8, [15] = 2};
    put(f, src, 16);
    put(f, dst, 16);
}

static void put_ethernet(struct frame *f, unsigned type)
{
    static const uint8_t macs[12] = {2, 0, 0, 0, 0, 1, 2, 0, 0, 0, 0, 2};
    put(f, macs, sizeof macs);
    put16(f, type);
}

/* decap on an exact-size heap copy. */
static enum decap_status run(int link, const struct frame *f, size_t caplen, size_t wirelen,
                             struct decap_result *r, uint8_t **copy)
{
    *copy = malloc(caplen ? caplen : 1);
    assert_non_null(*copy);
    memcpy(*copy, f->b, caplen);
    return decap_frame(link, *copy, caplen, wirelen, r);
}

static void expect_udp(int link, const struct frame *f, int family)
{
    struct decap_result r;
    uint8_t *copy;
    assert_int_equal(run(link, f, f->n, f->n, &r, &copy), DECAP_UDP);
    assert_int_equal(r.payload_size, sizeof game_payload);
    assert_memory_equal(r.payload, game_payload, sizeof game_payload);
    assert_true(r.payload >= copy && r.payload + r.payload_size <= copy + f->n);
    assert_int_equal(r.src.port, 40000);
    assert_int_equal(r.dst.port, 27015);
    assert_int_equal(r.src.family, family);
    char text[64];
    decap_format_address(&r.src, text, sizeof text);
    assert_string_equal(text, family == 4 ? "10.0.0.1:40000" : "[2001:db8::1]:40000");
    decap_format_address(&r.dst, text, sizeof text);
    assert_string_equal(text, family == 4 ? "10.0.0.2:27015" : "[2001:db8::2]:27015");
    free(copy);
}

/* IPv4 addresses are spelled by hand: the same as inet_ntop for octets of
 * every width, and for ports of every width; truncated to the buffer. */
static void address_spellings(void **state)
{
    (void)state;
    uint64_t x = 0x9e3779b97f4a7c15u;
    for (int i = 0; i < 20000; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        struct decap_address a = {.family = 4, .port = (uint16_t)(x >> 40)};
        memcpy(a.ip, &x, 4);
        if (i < 256) {
            memset(a.ip, i, 4); /* 0.0.0.0 .. 255.255.255.255 */
            a.port = (uint16_t)(i * 257);
        }
        char want[64], got[64], ip[INET_ADDRSTRLEN];
        assert_non_null(inet_ntop(AF_INET, a.ip, ip, sizeof ip));
        snprintf(want, sizeof want, "%s:%u", ip, (unsigned)a.port);
        assert_int_equal(decap_format_address(&a, got, sizeof got), strlen(want));
        assert_string_equal(got, want);
        assert_int_equal(decap_format_address(&a, got, 5), 4); /* cut, NUL-terminated */
        assert_memory_equal(got, want, 4);
        assert_int_equal(got[4], '\0');
    }
    struct decap_address none = {.family = 0};
    char text[8];
    assert_int_equal(decap_format_address(&none, text, sizeof text), 1);
    assert_string_equal(text, "-");
}

/* Every shorter capture of a good frame: never UDP, never a crash; SNAPPED
 * when the wire length says the rest existed, MALFORMED otherwise. */
static void expect_every_prefix_rejected(int link, const struct frame *f)
{
    for (size_t len = 0; len < f->n; len++) {
        struct decap_result r;
        uint8_t *copy;
        enum decap_status s = run(link, f, len, f->n, &r, &copy);
        assert_int_not_equal(s, DECAP_UDP);
        assert_int_equal(s, DECAP_SNAPPED);
        assert_non_null(r.why);
        free(copy);
        s = run(link, f, len, len, &r, &copy);
        assert_int_not_equal(s, DECAP_UDP);
        assert_true(s == DECAP_MALFORMED || s == DECAP_NOT_IP);
        free(copy);
    }
}

static void ethernet_ipv4(void **state)
{
    (void)state;
    struct frame f = {.n = 0};
    put_ethernet(&f, 0x0800);
    put_ipv4_udp(&f);
    expect_udp(DECAP_LINK_ETHERNET, &f, 4);
    expect_every_prefix_rejected(DECAP_LINK_ETHERNET, &f);
}

static void ethernet_padding_ignored(void **state)
{
    (void)state;
    struct frame f = {.n = 0};
    put_ethernet(&f, 0x0800);
    put_ipv4_udp(&f);
    while (f.n < 60)
        put8(&f, 0xee); /* Ethernet minimum-size padding, not payload */
    expect_udp(DECAP_LINK_ETHERNET, &f, 4);
}

static void ethernet_qinq(void **state)
{
    (void)state;
    struct frame f = {.n = 0};
    put_ethernet(&f, 0x88a8); /* service tag */
    put16(&f, 100);
    put16(&f, 0x8100); /* customer tag */
    put16(&f, 200);
    put16(&f, 0x86dd);
    put_ipv6(&f, 17, 8 + sizeof game_payload);
    put_udp(&f, game_payload, sizeof game_payload);
    expect_udp(DECAP_LINK_ETHERNET, &f, 6);
    expect_every_prefix_rejected(DECAP_LINK_ETHERNET, &f);
}

static void ethernet_not_ip(void **state)
{
    (void)state;
    struct frame f = {.n = 0};
    put_ethernet(&f, 0x0806); /* ARP */
    for (int i = 0; i < 28; i++)
        put8(&f, 0);
    struct decap_result r;
    assert_int_equal(decap_frame(DECAP_LINK_ETHERNET, f.b, f.n, f.n, &r), DECAP_NOT_IP);
    f.n = 0;
    put_ethernet(&f, 46); /* 802.3 length */
    assert_int_equal(decap_frame(DECAP_LINK_ETHERNET, f.b, f.n, f.n, &r), DECAP_NOT_IP);
}

static void ipv4_options_and_protocols(void **state)
{
    (void)state;
    struct frame f = {.n = 0};
    put_ipv4(&f, 17, 8 + sizeof game_payload, 12, 0);
    put_udp(&f, game_payload, sizeof game_payload);
    expect_udp(DECAP_LINK_RAW, &f, 4);
    expect_udp(DECAP_LINK_IPV4, &f, 4);
    expect_every_prefix_rejected(DECAP_LINK_IPV4, &f);

    struct frame tcp = {.n = 0};
    put_ipv4(&tcp, 6, 20, 0, 0);
    for (int i = 0; i < 20; i++)
        put8(&tcp, 0);
    struct decap_result r;
    assert_int_equal(decap_frame(DECAP_LINK_RAW, tcp.b, tcp.n, tcp.n, &r), DECAP_NOT_UDP);
}

static void ipv4_fragments_reported(void **state)
{
    (void)state;
    struct decap_result r;
    struct frame first = {.n = 0};
    put_ipv4(&first, 17, 8 + sizeof game_payload, 0, 0x2000); /* MF, offset 0 */
    put_udp(&first, game_payload, sizeof game_payload);
    assert_int_equal(decap_frame(DECAP_LINK_RAW, first.b, first.n, first.n, &r),
                     DECAP_FRAGMENT);
    assert_int_equal(r.fragment_id, 0x1234);
    assert_int_equal(r.fragment_offset, 0);
    assert_true(r.more_fragments);

    struct frame last = {.n = 0};
    put_ipv4(&last, 17, 16, 0, 0x0003); /* offset 24 bytes, last */
    for (int i = 0; i < 16; i++)
        put8(&last, 0xaa);
    assert_int_equal(decap_frame(DECAP_LINK_RAW, last.b, last.n, last.n, &r), DECAP_FRAGMENT);
    assert_int_equal(r.fragment_offset, 24);
    assert_false(r.more_fragments);
}

static void ipv4_lying_lengths(void **state)
{
    (void)state;
    struct decap_result r;
    struct frame f = {.n = 0};
    put_ipv4_udp(&f);
    uint8_t saved[4];
    memcpy(saved, f.b, 4);

    f.b[0] = 0x44; /* IHL 4 < 5 */
    assert_int_equal(decap_frame(DECAP_LINK_RAW, f.b, f.n, f.n, &r), DECAP_MALFORMED);
    f.b[0] = 0x4f; /* IHL 15 = 60 bytes, beyond the total length */
    assert_int_equal(decap_frame(DECAP_LINK_RAW, f.b, f.n, f.n, &r), DECAP_MALFORMED);
    memcpy(f.b, saved, 4);
    f.b[2] = 0xff; /* total length far beyond the frame */
    assert_int_equal(decap_frame(DECAP_LINK_RAW, f.b, f.n, f.n, &r), DECAP_MALFORMED);
    /* ...but when the snap length cut the frame, the UDP datagram inside
     * the captured bytes is complete: it is what UDP's own length says. */
    assert_int_equal(decap_frame(DECAP_LINK_RAW, f.b, f.n, 0xffff, &r), DECAP_UDP);
    assert_int_equal(r.payload_size, sizeof game_payload);
    /* One byte of the datagram missing, cut by the snap length. */
    assert_int_equal(decap_frame(DECAP_LINK_RAW, f.b, f.n - 1, 0xffff, &r), DECAP_SNAPPED);
    assert_int_equal(r.payload_expected, sizeof game_payload);
    assert_int_equal(r.payload_size, sizeof game_payload - 1);
    memcpy(f.b, saved, 4);

    /* UDP length larger than the IP payload, and below 8. */
    f.b[20 + 4] = 0x01;
    assert_int_equal(decap_frame(DECAP_LINK_RAW, f.b, f.n, f.n, &r), DECAP_MALFORMED);
    f.b[20 + 4] = 0;
    f.b[20 + 5] = 7;
    assert_int_equal(decap_frame(DECAP_LINK_RAW, f.b, f.n, f.n, &r), DECAP_MALFORMED);
    f.b[20 + 5] = (uint8_t)(8 + sizeof game_payload);
    assert_int_equal(decap_frame(DECAP_LINK_RAW, f.b, f.n, f.n, &r), DECAP_UDP);
    /* A UDP length shorter than the IP payload: the datagram is what UDP says. */
    f.b[20 + 5] = 10;
    assert_int_equal(decap_frame(DECAP_LINK_RAW, f.b, f.n, f.n, &r), DECAP_UDP);
    assert_int_equal(r.payload_size, 2);
}

static void ipv6_extension_headers(void **state)
{
    (void)state;
    struct frame f = {.n = 0};
    size_t ext = 8 + 16 + 8; /* hop-by-hop (8), routing (16), atomic fragment (8) */
    put_ipv6(&f, 0, ext + 8 + sizeof game_payload);
    put8(&f, 43); /* hop-by-hop -> routing */
    put8(&f, 0);
    for (int i = 0; i < 6; i++)
        put8(&f, 0);
    put8(&f, 44); /* routing -> fragment, length 1 = 16 bytes */
    put8(&f, 1);
    for (int i = 0; i < 14; i++)
        put8(&f, 0);
    put8(&f, 17); /* atomic fragment -> UDP */
    put8(&f, 0);
    put16(&f, 0);
    put32(&f, 99);
    put_udp(&f, game_payload, sizeof game_payload);
    expect_udp(DECAP_LINK_RAW, &f, 6);
    expect_udp(DECAP_LINK_IPV6, &f, 6);
    expect_every_prefix_rejected(DECAP_LINK_IPV6, &f);
}

static void ipv6_fragment_and_hostile_chain(void **state)
{
    (void)state;
    struct decap_result r;
    struct frame f = {.n = 0};
    put_ipv6(&f, 44, 8 + 8 + sizeof game_payload);
    put8(&f, 17);
    put8(&f, 0);
    put16(&f, 0x0001); /* offset 0, more fragments */
    put32(&f, 0xabcdef01);
    put_udp(&f, game_payload, sizeof game_payload);
    assert_int_equal(decap_frame(DECAP_LINK_IPV6, f.b, f.n, f.n, &r), DECAP_FRAGMENT);
    assert_int_equal(r.fragment_id, 0xabcdef01);
    assert_true(r.more_fragments);

    /* An extension header claiming more than the payload. */
    struct frame g = {.n = 0};
    put_ipv6(&g, 60, 8);
    put8(&g, 17);
    put8(&g, 200);
    for (int i = 0; i < 6; i++)
        put8(&g, 0);
    assert_int_equal(decap_frame(DECAP_LINK_IPV6, g.b, g.n, g.n, &r), DECAP_MALFORMED);

    /* A chain of destination-options headers pointing at each other must end. */
    struct frame h = {.n = 0};
    put_ipv6(&h, 60, 40 * 8);
    for (int i = 0; i < 40; i++) {
        put8(&h, 60);
        put8(&h, 0);
        for (int k = 0; k < 6; k++)
            put8(&h, 0);
    }
    assert_int_equal(decap_frame(DECAP_LINK_IPV6, h.b, h.n, h.n, &r), DECAP_MALFORMED);

    /* ESP and "no next header" are not UDP. */
    struct frame e = {.n = 0};
    put_ipv6(&e, 50, 0);
    assert_int_equal(decap_frame(DECAP_LINK_IPV6, e.b, e.n, e.n, &r), DECAP_NOT_UDP);
}

static void linux_cooked_v1_and_v2(void **state)
{
    (void)state;
    struct frame v1 = {.n = 0};
    put16(&v1, 0);  /* packet type: to us */
    put16(&v1, 1);  /* ARPHRD_ETHER */
    put16(&v1, 6);  /* address length */
    for (int i = 0; i < 8; i++)
        put8(&v1, i < 6 ? 0x02 : 0);
    put16(&v1, 0x0800);
    put_ipv4_udp(&v1);
    expect_udp(DECAP_LINK_LINUX_SLL, &v1, 4);
    expect_every_prefix_rejected(DECAP_LINK_LINUX_SLL, &v1);

    struct frame v2 = {.n = 0};
    put16(&v2, 0x86dd); /* protocol */
    put16(&v2, 0);      /* reserved */
    put32(&v2, 1);      /* interface index */
    put16(&v2, 772);    /* ARPHRD_LOOPBACK */
    put8(&v2, 0);       /* packet type */
    put8(&v2, 6);       /* address length */
    for (int i = 0; i < 8; i++)
        put8(&v2, 0);
    put_ipv6(&v2, 17, 8 + sizeof game_payload);
    put_udp(&v2, game_payload, sizeof game_payload);
    expect_udp(DECAP_LINK_LINUX_SLL2, &v2, 6);
    expect_every_prefix_rejected(DECAP_LINK_LINUX_SLL2, &v2);

    struct decap_result r;
    v2.b[0] = 0x08; /* ARP */
    v2.b[1] = 0x06;
    assert_int_equal(decap_frame(DECAP_LINK_LINUX_SLL2, v2.b, v2.n, v2.n, &r), DECAP_NOT_IP);
}

static void bsd_loopback(void **state)
{
    (void)state;
    /* NULL: host byte order, either way round; AF_INET6 in its BSD values. */
    const uint8_t inet_le[4] = {2, 0, 0, 0}, inet_be[4] = {0, 0, 0, 2};
    const uint32_t inet6[] = {24, 28, 30, 10};
    struct frame f = {.n = 0};
    put(&f, inet_le, 4);
    put_ipv4_udp(&f);
    expect_udp(DECAP_LINK_NULL, &f, 4);
    expect_every_prefix_rejected(DECAP_LINK_NULL, &f);
    memcpy(f.b, inet_be, 4);
    expect_udp(DECAP_LINK_NULL, &f, 4);
    expect_udp(DECAP_LINK_LOOP, &f, 4);
    for (size_t i = 0; i < sizeof inet6 / sizeof inet6[0]; i++) {
        struct frame g = {.n = 0};
        put32(&g, inet6[i]); /* network order: LOOP */
        put_ipv6(&g, 17, 8 + sizeof game_payload);
        put_udp(&g, game_payload, sizeof game_payload);
        expect_udp(DECAP_LINK_LOOP, &g, 6);
        expect_udp(DECAP_LINK_NULL, &g, 6); /* big-endian NULL is recognised too */
    }
    struct decap_result r;
    memcpy(f.b, (const uint8_t[4]){7, 0, 0, 0}, 4);
    assert_int_equal(decap_frame(DECAP_LINK_NULL, f.b, f.n, f.n, &r), DECAP_NOT_IP);
}

/* The same result, field by field (padding bytes aside). */
static void assert_same_result(const struct decap_result *a, const struct decap_result *b)
{
    assert_int_equal(a->status, b->status);
    assert_ptr_equal(a->payload, b->payload);
    assert_int_equal(a->payload_size, b->payload_size);
    const struct decap_address *x[2] = {&a->src, &a->dst}, *y[2] = {&b->src, &b->dst};
    for (int k = 0; k < 2; k++) {
        assert_int_equal(x[k]->family, y[k]->family);
        assert_memory_equal(x[k]->ip, y[k]->ip, sizeof x[k]->ip);
        assert_int_equal(x[k]->port, y[k]->port);
    }
    assert_int_equal(a->fragment_id, b->fragment_id);
    assert_int_equal(a->fragment_offset, b->fragment_offset);
    assert_int_equal(a->more_fragments, b->more_fragments);
    assert_int_equal(a->payload_expected, b->payload_expected);
    assert_ptr_equal(a->why, b->why);
}

/* The shortcut against the general path on frame f captured to every
 * length from `from` to its end, snapped or not. Returns how many of those
 * frames were UDP. */
static unsigned against_general_at_lengths(const struct frame *f, size_t from)
{
    unsigned udp = 0;
    for (size_t caplen = from; caplen <= f->n; caplen++) {
        for (size_t extra = 0; extra <= 1; extra++) {
            struct decap_result fast, general;
            uint8_t *copy;
            enum decap_status s = run(DECAP_LINK_ETHERNET, f, caplen, caplen + extra, &fast, &copy);
            assert_int_equal(
                decap_frame_general(DECAP_LINK_ETHERNET, copy, caplen, caplen + extra, &general), s);
            assert_same_result(&fast, &general);
            udp += s == DECAP_UDP;
            free(copy);
        }
    }
    return udp;
}

/* decap_frame's shortcut for Ethernet / IPv4 / UDP against the general
 * path, on that frame with every header byte and length field set to
 * values on either side of what the shortcut accepts, at every captured
 * length, snapped or not. Returns how many of the frames were UDP. */
static unsigned shortcut_against_general(const struct frame *base)
{
    static const uint8_t values[] = {0x00, 0x01, 0x07, 0x08, 0x11, 0x14, 0x1c, 0x1d,
                                     0x20, 0x3f, 0x40, 0x44, 0x45, 0x46, 0x80, 0xff};
    unsigned udp = 0;
    struct frame f;
    for (size_t at = 0; at <= 42; at++) {
        for (size_t v = 0; v <= sizeof values; v++) {
            f = *base;
            if (at < 42 && v < sizeof values)
                f.b[at] = values[v];
            else if (at < 42)
                f.b[at] ^= 0x20; /* only a flag changed */
            udp += against_general_at_lengths(&f, 0);
        }
    }
    return udp;
}

static void ethernet_ipv4_shortcut(void **state)
{
    (void)state;
    struct frame f = {.n = 0};
    put_ethernet(&f, 0x0800);
    put_ipv4_udp(&f);
    assert_true(shortcut_against_general(&f) > 0);
    /* Lengths around the edges: IP total length and UDP length each from
     * 0 to past the frame, with padding behind the datagram. */
    while (f.n < 64)
        put8(&f, 0xee);
    unsigned udp = 0;
    for (unsigned total = 0; total <= 70; total++) {
        for (unsigned length = 0; length <= 60; length += 1) {
            struct frame g = f;
            g.b[16] = (uint8_t)(total >> 8), g.b[17] = (uint8_t)total;
            g.b[38] = (uint8_t)(length >> 8), g.b[39] = (uint8_t)length;
            udp += against_general_at_lengths(&g, 40);
        }
    }
    assert_true(udp > 1000);
    /* A DF flag, the reserved bit and a VLAN tag keep the same results. */
    f.b[20] = 0xc0;
    assert_true(shortcut_against_general(&f) > 0);
    struct frame tagged = {.n = 0};
    put_ethernet(&tagged, 0x8100);
    put16(&tagged, 7);
    put16(&tagged, 0x0800);
    put_ipv4_udp(&tagged);
    assert_true(shortcut_against_general(&tagged) > 0);
}

static void unknown_link_and_garbage(void **state)
{
    (void)state;
    struct decap_result r;
    uint8_t junk[64] = {0};
    assert_int_equal(decap_frame(147, junk, 0, 0, &r), DECAP_UNKNOWN_LINK);
    assert_false(decap_link_supported(147));
    assert_true(decap_link_supported(DECAP_LINK_LINUX_SLL2));
    /* Deterministic garbage through every link type: any status, no crash. */
    const int links[] = {0, 1, 101, 108, 113, 228, 229, 276};
    uint32_t x = 12345;
    for (int round = 0; round < 20000; round++) {
        size_t n = (size_t)(round % 65);
        uint8_t *b = malloc(n ? n : 1);
        for (size_t i = 0; i < n; i++) {
            x = x * 1103515245u + 12345u;
            b[i] = (uint8_t)(x >> 16);
        }
        if (n > 0 && round % 3 == 0)
            b[0] = round % 2 ? 0x45 : 0x60; /* look like IP more often */
        enum decap_status s = decap_frame(links[round % 8], b, n, n + (size_t)(round % 2), &r);
        if (s == DECAP_UDP)
            assert_true(r.payload >= b && r.payload + r.payload_size <= b + n);
        free(b);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(ethernet_ipv4),
        cmocka_unit_test(ethernet_ipv4_shortcut),
        cmocka_unit_test(ethernet_padding_ignored),
        cmocka_unit_test(ethernet_qinq),
        cmocka_unit_test(ethernet_not_ip),
        cmocka_unit_test(ipv4_options_and_protocols),
        cmocka_unit_test(ipv4_fragments_reported),
        cmocka_unit_test(ipv4_lying_lengths),
        cmocka_unit_test(ipv6_extension_headers),
        cmocka_unit_test(ipv6_fragment_and_hostile_chain),
        cmocka_unit_test(linux_cooked_v1_and_v2),
        cmocka_unit_test(bsd_loopback),
        cmocka_unit_test(unknown_link_and_garbage),
        cmocka_unit_test(address_spellings),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
