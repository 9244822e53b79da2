/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * decap.h -- find the UDP payload in a captured link-layer frame.
 *
 * Pure functions over a byte buffer: no libpcap, no allocation, no I/O, so
 * that they can be unit-tested on hand-built frames and fuzzed directly.
 * Every header length is checked against the captured bytes before use.
 */
#ifndef BITSIFT_DECAP_H
#define BITSIFT_DECAP_H

#include <stddef.h>
#include <stdint.h>

/* Link types, by their LINKTYPE_ numbers in the pcap/pcapng file formats
 * (stable across systems, unlike some DLT_ values). */
enum decap_link {
    DECAP_LINK_NULL = 0,        /* BSD loopback, AF in host byte order */
    DECAP_LINK_ETHERNET = 1,    /* Ethernet II, 802.1Q / 802.1ad tags */
    DECAP_LINK_RAW = 101,       /* raw IPv4 or IPv6 (version nibble) */
    DECAP_LINK_LOOP = 108,      /* OpenBSD loopback, AF in network order */
    DECAP_LINK_LINUX_SLL = 113, /* Linux cooked capture v1 */
    DECAP_LINK_IPV4 = 228,      /* raw IPv4 */
    DECAP_LINK_IPV6 = 229,      /* raw IPv6 */
    DECAP_LINK_LINUX_SLL2 = 276 /* Linux cooked capture v2 */
};

/* What a frame turned out to be. Only DECAP_UDP carries a payload. */
enum decap_status {
    DECAP_UDP = 0,       /* a complete UDP datagram: payload is the packet */
    DECAP_NOT_IP,        /* ARP, LLDP, another network protocol: skipped */
    DECAP_NOT_UDP,       /* IP carrying TCP, ICMP, ...: skipped */
    DECAP_FRAGMENT,      /* an IPv4 or IPv6 fragment: reported, not reassembled */
    DECAP_SNAPPED,       /* the UDP datagram was cut by the snap length */
    DECAP_MALFORMED,     /* a header is truncated or inconsistent */
    DECAP_UNKNOWN_LINK   /* a link type we do not decode */
};

/* An address as it appeared in the IP header. */
struct decap_address {
    int family;     /* 4 or 6; 0 when absent */
    uint8_t ip[16]; /* IPv4 uses the first 4 bytes */
    uint16_t port;  /* host byte order */
};

struct decap_result {
    enum decap_status status;
    const uint8_t *payload; /* into the frame; valid for DECAP_UDP */
    size_t payload_size;
    struct decap_address src, dst;
    /* For DECAP_FRAGMENT: IP identification and offset in bytes. */
    uint32_t fragment_id;
    uint32_t fragment_offset;
    int more_fragments;
    /* For DECAP_SNAPPED: bytes of the UDP payload expected and captured. */
    size_t payload_expected;
    /* Why a frame is not UDP or is malformed: a short static phrase. */
    const char *why;
};

/* Decode one frame of link type `link` (enum decap_link). `caplen` bytes
 * were captured of a frame of `wirelen` bytes on the wire; a header that
 * claims more than was captured is DECAP_SNAPPED when caplen < wirelen
 * and DECAP_MALFORMED otherwise. Never reads outside frame[0, caplen). */
enum decap_status decap_frame(int link, const uint8_t *frame, size_t caplen, size_t wirelen,
                              struct decap_result *out);

/* decap_frame without its shortcut for the common Ethernet / IPv4 / UDP
 * frame: the reference the tests hold the shortcut to. */
enum decap_status decap_frame_general(int link, const uint8_t *frame, size_t caplen, size_t wirelen,
                                      struct decap_result *out);

/* Short name of a status ("udp", "not-ip", ...), for counters and JSON. */
const char *decap_status_name(enum decap_status s);

/* Whether decap_frame understands this LINKTYPE_ value. */
int decap_link_supported(int link);

/* "10.0.0.1:27015" or "[2001:db8::1]:27015" into buf (at least 64 bytes).
 * Returns the length written. */
size_t decap_format_address(const struct decap_address *a, char *buf, size_t size);

#endif /* BITSIFT_DECAP_H */
