/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * advisor.h -- what `bitsift stats` adds to the bit profile to say what to
 * quantize next, and where the errors and the bandwidth are:
 *
 *   - per field, the values seen in valid packets (minimum, maximum)
 *     beside the declared range and its bits; for integer, enum and
 *     compressed-float fields, the bits a range fitted to those values
 *     would cost, and what that saves per packet and over the capture;
 *   - invalid packets by packet type and error kind, and by failing field;
 *   - bytes and packets per packet type over capture time, in buckets of
 *     one second that widen (2, 4, 8 ... s) to stay at most
 *     ADVISOR_MAX_BUCKETS.
 *
 * Memory is fixed once the schemas are known: a few counters per field
 * and per type, ADVISOR_MAX_BUCKETS per series and at most
 * ADVISOR_MAX_SERIES series, whatever the capture.
 */
#ifndef BITSIFT_ADVISOR_H
#define BITSIFT_ADVISOR_H

#include <stddef.h>
#include <stdint.h>

#include "bitsift.h"
#include "input.h"
#include "out.h"

#define ADVISOR_MAX_BUCKETS 120
#define ADVISOR_MAX_SERIES  256

struct advisor;

/* NULL when out of memory. */
struct advisor *advisor_create(bitsift_schema *const *schemas, size_t count);
void advisor_free(struct advisor *a);

/* One field event of a valid packet of schema `schema` (leaves with a
 * value; others are ignored). */
void advisor_value(struct advisor *a, int schema, const bitsift_event *ev);
/* An invalid packet: its type (when read) and failing field. `schema`
 * is -1 when no schema claimed it. */
void advisor_failure(struct advisor *a, int schema, const bitsift_result *res);
/* Any packet with its type (-1 when not read), for the bandwidth. */
void advisor_packet(struct advisor *a, int schema, int type, const struct input_packet *p);

/* Text: the quantization rows of one packet type (after its bit table),
 * given how many valid packets of that type were profiled. */
void advisor_text_type(const struct advisor *a, struct out *o, int schema, unsigned type,
                       uint64_t packets);
/* Text: errors by type and field; bandwidth per type. */
void advisor_text_errors(const struct advisor *a, struct out *o);
void advisor_text_bandwidth(const struct advisor *a, struct out *o);

/* JSON: members to add to a field's object (",\"observed\":{...}..."),
 * the "errors_by_type" and "bandwidth" members of the summary. */
void advisor_json_field(const struct advisor *a, struct out *o, int schema, unsigned id,
                        uint64_t packets);
void advisor_json_errors(const struct advisor *a, struct out *o);
void advisor_json_bandwidth(const struct advisor *a, struct out *o);

#endif /* BITSIFT_ADVISOR_H */
