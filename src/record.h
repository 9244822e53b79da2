/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * record.h -- the pieces of output every subcommand words the same way:
 * the JSON keys that say where a packet came from, and a decoding failure
 * as text ("reason (expected ..., got ...)") and as a JSON object.
 */
#ifndef BITSIFT_RECORD_H
#define BITSIFT_RECORD_H

#include "bitsift.h"
#include "input.h"
#include "out.h"

/* "index":N,"source":"...","time":"...","src":"...","dst":"...","length":L
 * (time, src and dst only for packets from a capture). No braces. */
void record_json_origin(struct out *o, const struct input_packet *p);

/* "10.0.0.1:40000" or "[2001:db8::1]:40000" (decap_format_address), from
 * a cache of the endpoints met last: a capture has few, and each packet
 * prints two. */
void record_address(struct out *o, const struct decap_address *a);

/* The reason of a failure: "raw value above range (expected <= 4, got 7)". */
void record_reason(struct out *o, const bitsift_failure *f);

/* {"kind":"range","field":"a.b","bit":B,"message":"...","expected":E,"got":G} */
void record_json_error(struct out *o, const bitsift_result *res);

/*
 * Which protocol a packet was read with. Two schemas may share a name (two
 * versions of one protocol), never an id, so every output names the id,
 * and the version when the schema declares one:
 *   text  "arena [0x67fd3ec9]", "arena/2 [0x1a2b3c4d]" (name/version is
 *         what the id is hashed from)
 *   JSON  "protocol":"arena","protocol_id":"0x1a2b3c4d","version":2 (no
 *         comma before or after)
 */
void record_text_protocol(struct out *o, const bitsift_schema *schema);
void record_json_protocol_id(struct out *o, const bitsift_schema *schema);

/* A comma, record_json_protocol_id, then ,"type":"Name" when the type is
 * known. */
void record_json_protocol(struct out *o, const bitsift_schema *schema, const bitsift_result *res);

/* "field.path @bit B: reason" (the field is "packet" when the failure has no path). */
void record_text_failure(struct out *o, const bitsift_result *res);

/* The failure of a packet no schema claimed (several -s, no CRC fits). */
void record_no_protocol(bitsift_result *res);

#endif /* BITSIFT_RECORD_H */
