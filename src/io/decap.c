/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * decap.c -- peel link, network and transport headers off a captured frame
 * down to the UDP payload (the game packet).
 *
 * Hostile input is the normal case: every load from the frame goes through
 * the checked accessors of byte_cursor.h (the bounds check inside the
 * accessor, a truncation sticky), every length field is checked against
 * the bytes that were captured before anything behind it is used, loops
 * over tags and extension headers always consume bytes, and nothing here
 * allocates. IPv4 and IPv6 fragments are reported as fragments and not
 * reassembled: a game packet split over fragments is rare (games keep
 * datagrams under the MTU) and reassembly would need unbounded state.
 */
#include <arpa/inet.h>
#include <stdbool.h>
#include <string.h>

#include "io/byte_cursor.h"
#include "io/decap.h"

/* The captured bytes still to decode, and how to name a shortage. */
struct span {
    struct byte_cursor c;
    int snapped; /* caplen < wirelen: missing bytes were cut by the snap length */
};

static enum decap_status fail(struct decap_result *out, enum decap_status s, const char *why)
{
    out->status = s;
    out->why = why;
    return s;
}

/* A header is not all there: cut by the snap length, or a frame that is
 * simply too short for what it claims. */
static enum decap_status short_header(struct decap_result *out, const struct span *s,
                                      const char *why)
{
    return fail(out, s->snapped ? DECAP_SNAPPED : DECAP_MALFORMED, why);
}

#define ETHERTYPE_IPV4  0x0800
#define ETHERTYPE_IPV6  0x86dd
#define ETHERTYPE_VLAN  0x8100 /* 802.1Q */
#define ETHERTYPE_QINQ  0x88a8 /* 802.1ad service tag */
#define ETHERTYPE_QINQ1 0x9100 /* pre-standard QinQ */

#define IPPROTO_HOPOPTS_  0
#define IPPROTO_UDP_      17
#define IPPROTO_ROUTING_  43
#define IPPROTO_FRAGMENT_ 44
#define IPPROTO_ESP_      50
#define IPPROTO_AH_       51
#define IPPROTO_NONE_     59
#define IPPROTO_DSTOPTS_  60
#define IPPROTO_MH_       135

/*
 * UDP header (RFC 768):
 *
 *    0      7 8     15 16    23 24    31
 *   +--------+--------+--------+--------+
 *   |   source port   |    dest port    |
 *   +--------+--------+--------+--------+
 *   |     length      |    checksum     |
 *   +--------+--------+--------+--------+
 *
 * `s` spans the IP payload as captured; `ip_payload` is its length as the IP
 * header declares it (already checked to be within the frame on the wire).
 */
static enum decap_status decode_udp(struct span *s, size_t ip_payload, struct decap_result *out)
{
    struct byte_cursor *c = &s->c;
    if (ip_payload < 8)
        return fail(out, DECAP_MALFORMED, "IP payload too short for a UDP header");
    uint16_t src_port = get_be16(c, 0), dst_port = get_be16(c, 2);
    size_t udp_length = get_be16(c, 4);
    if (!cursor_skip(c, 8))
        return short_header(out, s, "UDP header truncated");
    out->src.port = src_port;
    out->dst.port = dst_port;
    if (udp_length < 8)
        return fail(out, DECAP_MALFORMED, "UDP length below 8");
    if (udp_length > ip_payload)
        return fail(out, DECAP_MALFORMED, "UDP length beyond the IP payload");
    size_t payload = udp_length - 8;
    if (!cursor_has(c, 0, payload)) {
        out->payload_expected = payload;
        out->payload_size = c->size;
        return short_header(out, s, "UDP payload truncated");
    }
    out->payload = c->p;
    out->payload_size = payload;
    out->status = DECAP_UDP;
    out->why = NULL;
    return DECAP_UDP;
}

/*
 * IPv4 header (RFC 791):
 *
 *    0       3 4     7 8            15 16   18 19                   31
 *   +---------+-------+---------------+-------+----------------------+
 *   | version |  IHL  |      TOS      |         total length         |
 *   +---------+-------+---------------+-------+----------------------+
 *   |         identification          | flags |   fragment offset    |
 *   +-----------------+---------------+-------+----------------------+
 *   |       TTL       |   protocol    |        header checksum       |
 *   +-----------------+---------------+------------------------------+
 *   |                       source address                           |
 *   |                     destination address                        |
 *   |                 options (IHL > 5), 0..40 bytes                 |
 *   +----------------------------------------------------------------+
 *
 * Frames can be longer than total length (Ethernet pads to 60 bytes): the
 * trailer is ignored.
 */
static enum decap_status decode_ipv4(struct span *s, struct decap_result *out)
{
    struct byte_cursor *c = &s->c;
    uint8_t version_ihl = get_u8(c, 0);
    size_t total = get_be16(c, 2);
    uint16_t identification = get_be16(c, 4), flags_offset = get_be16(c, 6);
    uint8_t protocol = get_u8(c, 9);
    uint8_t src[4], dst[4];
    get_bytes(c, 12, src, 4);
    get_bytes(c, 16, dst, 4);
    if (c->truncated)
        return short_header(out, s, "IPv4 header truncated");
    if (version_ihl >> 4 != 4)
        return fail(out, DECAP_MALFORMED, "IPv4 version is not 4");
    size_t header = (size_t)(version_ihl & 0x0f) * 4;
    if (header < 20)
        return fail(out, DECAP_MALFORMED, "IPv4 header length below 20");
    if (total < header)
        return fail(out, DECAP_MALFORMED, "IPv4 total length below header length");
    if (!cursor_has(c, 0, header))
        return short_header(out, s, "IPv4 options truncated");
    out->src.family = out->dst.family = 4;
    memcpy(out->src.ip, src, 4);
    memcpy(out->dst.ip, dst, 4);
    int more = (flags_offset & 0x2000) != 0;
    uint32_t offset = (uint32_t)(flags_offset & 0x1fff) * 8;
    if (more || offset) {
        out->fragment_id = identification;
        out->fragment_offset = offset;
        out->more_fragments = more;
        return fail(out, DECAP_FRAGMENT, "IPv4 fragment");
    }
    if (protocol != IPPROTO_UDP_)
        return fail(out, DECAP_NOT_UDP, "IPv4 protocol is not UDP");
    if (total > c->size && !s->snapped)
        return fail(out, DECAP_MALFORMED, "IPv4 total length beyond the frame");
    cursor_skip(c, header); /* there: checked above */
    cursor_limit(c, total - header); /* link-layer padding */
    return decode_udp(s, total - header, out);
}

/*
 * IPv6 header (RFC 8200), then a chain of extension headers:
 *
 *   +---------+---------------+-----------------------------------+
 *   | version | traffic class |            flow label             |
 *   +---------+---------------+-----------------+-----------------+
 *   |         payload length  |   next header   |   hop limit     |
 *   +-------------------------+-----------------+-----------------+
 *   |              source address (16 bytes)                      |
 *   |           destination address (16 bytes)                    |
 *   +-------------------------------------------------------------+
 *
 *   extension: [next header][length][...]   hop-by-hop, routing, destination
 *              options, mobility: (length + 1) * 8 bytes; AH: (length + 2) * 4
 *   fragment:  [next header][reserved][offset:13 res:2 M:1][identification:32]
 */
#define IPV6_MAX_EXTENSIONS 16

static enum decap_status decode_ipv6(struct span *s, struct decap_result *out)
{
    struct byte_cursor *c = &s->c;
    uint8_t version = get_u8(c, 0) >> 4;
    size_t payload = get_be16(c, 4);
    uint8_t next = get_u8(c, 6);
    uint8_t src[16], dst[16];
    get_bytes(c, 8, src, 16);
    get_bytes(c, 24, dst, 16);
    if (c->truncated)
        return short_header(out, s, "IPv6 header truncated");
    if (version != 6)
        return fail(out, DECAP_MALFORMED, "IPv6 version is not 6");
    out->src.family = out->dst.family = 6;
    memcpy(out->src.ip, src, 16);
    memcpy(out->dst.ip, dst, 16);
    if (payload == 0 && next == IPPROTO_HOPOPTS_)
        return fail(out, DECAP_NOT_UDP, "IPv6 jumbogram");
    cursor_skip(c, 40); /* there: the addresses were */
    if (payload > c->size && !s->snapped)
        return fail(out, DECAP_MALFORMED, "IPv6 payload length beyond the frame");
    cursor_limit(c, payload);

    for (int n = 0; n < IPV6_MAX_EXTENSIONS; n++) {
        size_t length;
        switch (next) {
        case IPPROTO_UDP_:
            return decode_udp(s, payload, out);
        case IPPROTO_HOPOPTS_:
        case IPPROTO_ROUTING_:
        case IPPROTO_DSTOPTS_:
        case IPPROTO_MH_:
        case IPPROTO_AH_: {
            if (payload < 2)
                return fail(out, DECAP_MALFORMED, "IPv6 extension header beyond the payload");
            size_t units = get_u8(c, 1);
            if (c->truncated)
                return short_header(out, s, "IPv6 extension header truncated");
            length = next == IPPROTO_AH_ ? (units + 2) * 4 : (units + 1) * 8;
            break;
        }
        case IPPROTO_FRAGMENT_: {
            if (payload < 8)
                return fail(out, DECAP_MALFORMED, "IPv6 fragment header beyond the payload");
            uint16_t offset_flags = get_be16(c, 2);
            uint32_t identification = get_be32(c, 4);
            if (c->truncated)
                return short_header(out, s, "IPv6 fragment header truncated");
            out->fragment_offset = (uint32_t)(offset_flags & 0xfff8);
            out->more_fragments = offset_flags & 1;
            out->fragment_id = identification;
            if (out->fragment_offset || out->more_fragments)
                return fail(out, DECAP_FRAGMENT, "IPv6 fragment");
            length = 8; /* an atomic fragment (RFC 6946): carry on */
            break;
        }
        case IPPROTO_ESP_:
            return fail(out, DECAP_NOT_UDP, "IPv6 ESP (encrypted)");
        case IPPROTO_NONE_:
            return fail(out, DECAP_NOT_UDP, "IPv6 no next header");
        default:
            return fail(out, DECAP_NOT_UDP, "IPv6 next header is not UDP");
        }
        if (length > payload)
            return fail(out, DECAP_MALFORMED, "IPv6 extension header beyond the payload");
        uint8_t following = get_u8(c, 0);
        if (!cursor_skip(c, length))
            return short_header(out, s, "IPv6 extension header truncated");
        next = following;
        payload -= length;
    }
    return fail(out, DECAP_MALFORMED, "too many IPv6 extension headers");
}

/* Dispatch on an Ethernet type (also used by the cooked captures). */
static enum decap_status decode_ethertype(struct span *s, uint16_t type, struct decap_result *out)
{
    switch (type) {
    case ETHERTYPE_IPV4:
        return decode_ipv4(s, out);
    case ETHERTYPE_IPV6:
        return decode_ipv6(s, out);
    default:
        return fail(out, DECAP_NOT_IP, "not IPv4 or IPv6");
    }
}

/* Version nibble of a raw IP packet. */
static enum decap_status decode_raw_ip(struct span *s, struct decap_result *out)
{
    uint8_t version = get_u8(&s->c, 0) >> 4;
    if (s->c.truncated)
        return short_header(out, s, "empty raw IP frame");
    switch (version) {
    case 4:
        return decode_ipv4(s, out);
    case 6:
        return decode_ipv6(s, out);
    default:
        return fail(out, DECAP_NOT_IP, "raw frame is not IPv4 or IPv6");
    }
}

/*
 * Ethernet II, with any number of 802.1Q / 802.1ad tags (each tag is 4 bytes
 * and is consumed, so the loop ends):
 *
 *   +-----------+-----------+------+-----+------+-----+------+---------
 *   | dst (6)   | src (6)   | TPID | TCI | TPID | TCI | type | payload
 *   +-----------+-----------+------+-----+------+-----+------+---------
 *                            0x8100/0x88a8/0x9100 (optional, repeated)
 *
 * A type below 1536 is an 802.3 length (LLC): not IP.
 */
/* Step over the 802.1Q / 802.1ad tags in front of *type; false when one is
 * cut short (the failure is in out). Each tag consumes 4 bytes, so the loop
 * ends. */
static bool skip_vlan_tags(struct span *s, uint16_t *type, struct decap_result *out)
{
    while (*type == ETHERTYPE_VLAN || *type == ETHERTYPE_QINQ || *type == ETHERTYPE_QINQ1) {
        uint16_t inner = get_be16(&s->c, 2);
        if (!cursor_skip(&s->c, 4)) {
            short_header(out, s, "802.1Q tag truncated");
            return false;
        }
        *type = inner;
    }
    return true;
}

static enum decap_status decode_ethernet(struct span *s, struct decap_result *out)
{
    uint16_t type = get_be16(&s->c, 12);
    if (!cursor_skip(&s->c, 14))
        return short_header(out, s, "Ethernet header truncated");
    if (!skip_vlan_tags(s, &type, out))
        return out->status;
    if (type < 1536)
        return fail(out, DECAP_NOT_IP, "802.3 LLC frame");
    return decode_ethertype(s, type, out);
}

/*
 * Linux cooked capture v1 (LINKTYPE_LINUX_SLL), 16 bytes:
 *
 *   +-------------+------------+-------------+----------------+----------+
 *   | packet type | ARPHRD (2) | addr length | address (8)    | protocol |
 *   |     (2)     |            |     (2)     | (zero padded)  |   (2)    |
 *   +-------------+------------+-------------+----------------+----------+
 *
 * The protocol is an Ethernet type for the link types we care about; VLAN
 * tags left in by some drivers follow it like on Ethernet.
 */
static enum decap_status decode_cooked(struct span *s, uint16_t type, struct decap_result *out)
{
    if (!skip_vlan_tags(s, &type, out))
        return out->status;
    return decode_ethertype(s, type, out);
}

static enum decap_status decode_sll(struct span *s, struct decap_result *out)
{
    uint16_t type = get_be16(&s->c, 14);
    if (!cursor_skip(&s->c, 16))
        return short_header(out, s, "Linux cooked header truncated");
    return decode_cooked(s, type, out);
}

/*
 * Linux cooked capture v2 (LINKTYPE_LINUX_SLL2), 20 bytes:
 *
 *   +----------+----------+-----------+--------+--------+--------+-------------+
 *   | protocol | reserved | interface | ARPHRD | packet | addr   | address (8) |
 *   |   (2)    |   (2)    | index (4) |  (2)   | type(1)| len (1)|             |
 *   +----------+----------+-----------+--------+--------+--------+-------------+
 */
static enum decap_status decode_sll2(struct span *s, struct decap_result *out)
{
    uint16_t type = get_be16(&s->c, 0);
    if (!cursor_skip(&s->c, 20))
        return short_header(out, s, "Linux cooked v2 header truncated");
    return decode_cooked(s, type, out);
}

/*
 * BSD loopback: a 4-byte address family, in the byte order of the machine
 * that wrote the capture (NULL) or in network byte order (LOOP). AF_INET is
 * 2 everywhere; AF_INET6 is 24 (NetBSD, OpenBSD), 28 (FreeBSD), 30 (macOS)
 * or 10 (Linux).
 */
static enum decap_status decode_loopback(struct span *s, int network_order,
                                         struct decap_result *out)
{
    uint32_t family = network_order ? get_be32(&s->c, 0) : get_le32(&s->c, 0);
    if (!network_order && family > 0xffff)
        family = get_be32(&s->c, 0); /* written on a big-endian machine */
    if (!cursor_skip(&s->c, 4))
        return short_header(out, s, "loopback header truncated");
    switch (family) {
    case 2:
        return decode_ipv4(s, out);
    case 10:
    case 24:
    case 28:
    case 30:
        return decode_ipv6(s, out);
    default:
        return fail(out, DECAP_NOT_IP, "loopback family is not IPv4 or IPv6");
    }
}

/*
 * The frame nearly every game capture holds, Ethernet II + IPv4 without
 * options + UDP, recognised at fixed offsets with one test per header:
 *
 *   Ethernet   0 destination, 6 source, 12 type = 0x0800
 *   IPv4      14 0x45 (version 4, 20-byte header), 15 TOS, 16 total length,
 *             18 identification, 20 flags and fragment offset, 22 TTL,
 *             23 protocol = 17, 24 checksum, 26 source, 30 destination
 *   UDP       34 source port, 36 destination port, 38 length, 40 checksum
 *   payload   42
 *
 * Taken only when decode_ethernet, decode_ipv4 and decode_udp would all
 * pass and yield this very result: no VLAN tag, version 4 with a 20-byte
 * header, not a fragment (MF and the offset clear; DF and the reserved bit
 * may be set), protocol UDP, the IP total length within the captured bytes
 * and the UDP length between 8 and the IP payload. Anything else (and any
 * snapped frame whose IP packet is not all there) takes the general path,
 * which says what is wrong.
 */
static bool decap_common_frame(const uint8_t *f, size_t caplen, struct decap_result *out)
{
    /* One bounds check for the 42 bytes of headers: the compiler drops the
     * accessors' own checks below, which it can prove redundant. */
    struct byte_cursor c = byte_cursor_make(f, caplen);
    if (!cursor_has(&c, 0, 42) || get_be32(&c, 12) >> 8 != 0x080045u ||
        (get_be32(&c, 20) & 0x3fff00ffu) != 17)
        return false;
    size_t total = get_be16(&c, 16), udp_length = get_be16(&c, 38);
    if (total > caplen - 14 || udp_length < 8 || udp_length + 20 > total)
        return false;
    /* Every field as decap_frame_general leaves it, without a memset of
     * the whole result (rep stos, slow to start). */
    out->status = DECAP_UDP;
    out->payload = f + 42;
    out->payload_size = udp_length - 8;
    for (int k = 0; k < 2; k++) {
        struct decap_address *a = k ? &out->dst : &out->src;
        a->family = 4;
        memset(a->ip, 0, sizeof a->ip);
        get_bytes(&c, 26 + 4 * (size_t)k, a->ip, 4);
        a->port = get_be16(&c, 34 + 2 * (size_t)k);
    }
    out->fragment_id = 0;
    out->fragment_offset = 0;
    out->more_fragments = 0;
    out->payload_expected = 0;
    out->why = NULL;
    return true;
}

enum decap_status decap_frame(int link, const uint8_t *frame, size_t caplen, size_t wirelen,
                              struct decap_result *out)
{
    if (link == DECAP_LINK_ETHERNET && frame && decap_common_frame(frame, caplen, out))
        return DECAP_UDP;
    return decap_frame_general(link, frame, caplen, wirelen, out);
}

enum decap_status decap_frame_general(int link, const uint8_t *frame, size_t caplen, size_t wirelen,
                                      struct decap_result *out)
{
    memset(out, 0, sizeof *out);
    struct span s = {byte_cursor_make(frame, caplen), caplen < wirelen};
    switch (link) {
    case DECAP_LINK_ETHERNET:
        return decode_ethernet(&s, out);
    case DECAP_LINK_LINUX_SLL:
        return decode_sll(&s, out);
    case DECAP_LINK_LINUX_SLL2:
        return decode_sll2(&s, out);
    case DECAP_LINK_RAW:
        return decode_raw_ip(&s, out);
    case DECAP_LINK_IPV4:
        return decode_ipv4(&s, out);
    case DECAP_LINK_IPV6:
        return decode_ipv6(&s, out);
    case DECAP_LINK_NULL:
        return decode_loopback(&s, 0, out);
    case DECAP_LINK_LOOP:
        return decode_loopback(&s, 1, out);
    default:
        return fail(out, DECAP_UNKNOWN_LINK, "unsupported link type");
    }
}

int decap_link_supported(int link)
{
    switch (link) {
    case DECAP_LINK_ETHERNET:
    case DECAP_LINK_LINUX_SLL:
    case DECAP_LINK_LINUX_SLL2:
    case DECAP_LINK_RAW:
    case DECAP_LINK_IPV4:
    case DECAP_LINK_IPV6:
    case DECAP_LINK_NULL:
    case DECAP_LINK_LOOP:
        return 1;
    default:
        return 0;
    }
}

const char *decap_status_name(enum decap_status s)
{
    switch (s) {
    case DECAP_UDP:
        return "udp";
    case DECAP_NOT_IP:
        return "not-ip";
    case DECAP_NOT_UDP:
        return "not-udp";
    case DECAP_FRAGMENT:
        return "fragment";
    case DECAP_SNAPPED:
        return "snapped";
    case DECAP_MALFORMED:
        return "malformed";
    case DECAP_UNKNOWN_LINK:
        return "unknown-link";
    }
    return "unknown";
}

/* Formats by hand: this runs once per printed packet, and inet_ntop goes
 * through sprintf (IPv6 still takes it: its rules for zeros are long). */
static size_t format_ipv4(char *text, const uint8_t ip[4])
{
    size_t n = 0;
    for (int i = 0; i < 4; i++) {
        unsigned octet = ip[i];
        if (i)
            text[n++] = '.';
        if (octet >= 100)
            text[n++] = (char)('0' + octet / 100);
        if (octet >= 10)
            text[n++] = (char)('0' + octet / 10 % 10);
        text[n++] = (char)('0' + octet % 10);
    }
    return n;
}

size_t decap_format_address(const struct decap_address *a, char *buf, size_t size)
{
    char text[INET6_ADDRSTRLEN + 16];
    size_t n = 0;
    if (a->family == 4) {
        n = format_ipv4(text, a->ip);
    } else if (a->family == 6) {
        text[n++] = '[';
        if (!inet_ntop(AF_INET6, a->ip, text + n, INET6_ADDRSTRLEN))
            return 0 < size ? (buf[0] = '\0', 0) : 0;
        n += strlen(text + n);
        text[n++] = ']';
    } else {
        text[n++] = '-';
    }
    if (a->family == 4 || a->family == 6) {
        text[n++] = ':';
        char digits[6];
        size_t d = 0;
        unsigned port = a->port;
        do {
            digits[d++] = (char)('0' + port % 10);
            port /= 10;
        } while (port);
        while (d)
            text[n++] = digits[--d];
    }
    if (size == 0)
        return 0;
    if (n >= size)
        n = size - 1;
    memcpy(buf, text, n);
    buf[n] = '\0';
    return n;
}
