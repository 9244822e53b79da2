/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * packet_report.h -- the pieces of output every subcommand words the same way:
 * the JSON keys that say where a packet came from, and a decoding failure
 * as text ("reason (expected ..., got ...)") and as a JSON object.
 */
#ifndef BITSIFT_PACKET_REPORT_H
#define BITSIFT_PACKET_REPORT_H

#include "bitsift.h"
#include "io/input.h"
#include "print/out.h"

/* "index":N,"source":"...","time":"...","src":"...","dst":"...","length":L
 * (time, src and dst only for packets from a capture). No braces. */
void report_json_origin(struct out *o, const struct input_packet *p);

/* "10.0.0.1:40000" or "[2001:db8::1]:40000" (decap_format_address), from
 * a cache of the endpoints met last: a capture has few, and each packet
 * prints two. */
void report_address(struct out *o, const struct decap_address *a);

/* The reason of a failure: "raw value above range (expected <= 4, got 7)". */
void report_reason(struct out *o, const bitsift_failure *f);

/* {"kind":"range","field":"a.b","bit":B,"message":"...","expected":E,"got":G} */
void report_json_error(struct out *o, const bitsift_result *res);

/*
 * Which protocol a packet was read with. Two schemas may share a name (two
 * versions of one protocol), never an id, so every output names the id,
 * and the version when the schema declares one:
 *   text  "arena [0x67fd3ec9]", "arena/2 [0x1a2b3c4d]" (name/version is
 *         what the id is hashed from)
 *   JSON  "protocol":"arena","protocol_id":"0x1a2b3c4d","version":2 (no
 *         comma before or after)
 */
void report_text_protocol(struct out *o, const bitsift_schema *schema);
void report_json_protocol_id(struct out *o, const bitsift_schema *schema);

/* A comma, report_json_protocol_id, then ,"type":"Name" when the type is
 * known. */
void report_json_protocol(struct out *o, const bitsift_schema *schema, const bitsift_result *res);

/* "field.path @bit B: reason" (the field is "packet" when the failure has no path). */
void report_text_failure(struct out *o, const bitsift_result *res);

/* The failure of a packet no schema claimed (several -s, no CRC fits). */
void report_no_protocol(bitsift_result *res);

#endif /* BITSIFT_PACKET_REPORT_H */
