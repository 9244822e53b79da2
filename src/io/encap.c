/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * encap.c -- build Ethernet II + IPv4/IPv6 + UDP frames around a packet.
 *
 *   +---------------------+----------------------+-------------+---------+
 *   | Ethernet II (14)    | IPv4 (20) / IPv6 (40)| UDP (8)     | payload |
 *   | 02:00:00:00:00:02 <-| no options, TTL 64,  | checksum    |         |
 *   | 02:00:00:00:00:01   | DF, checksum         | computed    |         |
 *   +---------------------+----------------------+-------------+---------+
 *
 * The MAC addresses are locally administered placeholders; the IP
 * addresses and ports are the packet's. Checksums are filled in so that
 * tshark and tcpdump show the frames as clean.
 */
#include <arpa/inet.h>
#include <stdlib.h>
#include <string.h>

#include "io/encap.h"

int encap_parse_address(const char *text, struct decap_address *a)
{
    char host[64];
    const char *port_text;
    memset(a, 0, sizeof *a);
    if (text[0] == '[') {
        const char *end = strchr(text, ']');
        if (!end || end[1] != ':' || (size_t)(end - text - 1) >= sizeof host)
            return -1;
        memcpy(host, text + 1, (size_t)(end - text - 1));
        host[end - text - 1] = '\0';
        port_text = end + 2;
        if (inet_pton(AF_INET6, host, a->ip) != 1)
            return -1;
        a->family = 6;
    } else {
        const char *colon = strrchr(text, ':');
        if (!colon || (size_t)(colon - text) >= sizeof host)
            return -1;
        memcpy(host, text, (size_t)(colon - text));
        host[colon - text] = '\0';
        port_text = colon + 1;
        if (inet_pton(AF_INET, host, a->ip) != 1)
            return -1;
        a->family = 4;
    }
    char *end;
    if (!port_text[0])
        return -1;
    unsigned long port = strtoul(port_text, &end, 10);
    if (*end || port > 65535)
        return -1;
    a->port = (uint16_t)port;
    return 0;
}

static void put16(uint8_t *p, unsigned v)
{
    p[0] = (uint8_t)(v >> 8);
    p[1] = (uint8_t)v;
}

/* One's complement sum of 16-bit big-endian words (RFC 1071). */
static uint32_t sum16(uint32_t sum, const uint8_t *p, size_t n)
{
    for (size_t i = 0; i + 1 < n; i += 2)
        sum += (uint32_t)(p[i] << 8 | p[i + 1]);
    if (n & 1)
        sum += (uint32_t)(p[n - 1] << 8);
    return sum;
}

static uint16_t fold(uint32_t sum)
{
    while (sum >> 16)
        sum = (sum & 0xffff) + (sum >> 16);
    return (uint16_t)~sum;
}

size_t encap_udp_frame(uint8_t *frame, const struct decap_address *src,
                       const struct decap_address *dst, uint16_t ip_id, const uint8_t *payload,
                       size_t size)
{
    if (src->family != dst->family || (src->family != 4 && src->family != 6))
        return 0;
    if (size > ENCAP_MAX_PAYLOAD)
        return 0;
    static const uint8_t macs[12] = {2, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 1};
    memcpy(frame, macs, 12);
    put16(frame + 12, src->family == 4 ? 0x0800 : 0x86dd);
    uint8_t *ip = frame + 14;
    size_t udp_length = 8 + size;
    uint8_t *udp;
    uint32_t pseudo;
    if (src->family == 4) {
        memset(ip, 0, 20);
        ip[0] = 0x45;
        put16(ip + 2, (unsigned)(20 + udp_length));
        put16(ip + 4, ip_id);
        put16(ip + 6, 0x4000); /* don't fragment */
        ip[8] = 64;
        ip[9] = 17;
        memcpy(ip + 12, src->ip, 4);
        memcpy(ip + 16, dst->ip, 4);
        put16(ip + 10, fold(sum16(0, ip, 20)));
        udp = ip + 20;
        pseudo = sum16(0, ip + 12, 8) + 17 + (uint32_t)udp_length;
    } else {
        memset(ip, 0, 40);
        ip[0] = 0x60;
        put16(ip + 4, (unsigned)udp_length);
        ip[6] = 17;
        ip[7] = 64;
        memcpy(ip + 8, src->ip, 16);
        memcpy(ip + 24, dst->ip, 16);
        udp = ip + 40;
        pseudo = sum16(0, ip + 8, 32) + 17 + (uint32_t)udp_length;
    }
    put16(udp, src->port);
    put16(udp + 2, dst->port);
    put16(udp + 4, (unsigned)udp_length);
    put16(udp + 6, 0);
    if (size)
        memcpy(udp + 8, payload, size);
    uint16_t check = fold(sum16(pseudo, udp, udp_length));
    put16(udp + 6, check ? check : 0xffff); /* 0 means "no checksum" in UDP */
    return (size_t)(udp + udp_length - frame);
}
