/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * encap.h -- wrap a packet in Ethernet / IPv4 or IPv6 / UDP headers, the
 * inverse of decap.h, for `bitsift encode -w`. Pure functions: no I/O.
 */
#ifndef BITSIFT_ENCAP_H
#define BITSIFT_ENCAP_H

#include <stddef.h>
#include <stdint.h>

#include "io/decap.h"

/* Ethernet (14) + IPv6 (40) + UDP (8). */
#define ENCAP_MAX_HEADERS 62
/* The largest UDP payload an IPv4 datagram can carry. */
#define ENCAP_MAX_PAYLOAD 65507

/* Parse "10.0.0.1:27015" or "[2001:db8::1]:27015". 0 on success. */
int encap_parse_address(const char *text, struct decap_address *a);

/* Write the frame (headers then payload) into `frame`, which has room for
 * ENCAP_MAX_HEADERS + size bytes. `ip_id` is the IPv4 identification.
 * Returns the frame length, or 0 when the addresses are not of one family
 * or the payload is too large for a UDP datagram. */
size_t encap_udp_frame(uint8_t *frame, const struct decap_address *src,
                       const struct decap_address *dst, uint16_t ip_id, const uint8_t *payload,
                       size_t size);

#endif /* BITSIFT_ENCAP_H */
