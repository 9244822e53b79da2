/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * advisor.h -- how `bitsift stats` prints, after the bit profile, what the
 * library's statistics (<bitsift/stats.h>) say about what to quantize
 * next, and where the errors and the bandwidth are:
 *
 *   - per field, the values seen in valid packets (minimum, maximum)
 *     beside the declared range and its bits; for integer, enum and
 *     compressed-float fields, the bits a range fitted to those values
 *     would cost, and what that saves per packet and over the capture;
 *   - invalid packets by packet type and error kind, and by failing field;
 *   - bytes and packets per packet type over capture time.
 *
 * Text for people and JSON members for `-F json`; the numbers are the
 * library's, only their formatting is here.
 */
#ifndef BITSIFT_ADVISOR_H
#define BITSIFT_ADVISOR_H

#include <stdint.h>

#ifndef BITSIFT_EXPERIMENTAL
#define BITSIFT_EXPERIMENTAL
#endif
#include "bitsift.h"
#include "bitsift/stats.h"
#include "print/out.h"

/* Text: the quantization rows of one packet type (after its bit table),
 * given how many valid packets of that type were profiled. */
void advisor_text_type(const bitsift_stats *st, struct out *o, int schema, unsigned type,
                       uint64_t packets);
/* Text: errors by type and field; bandwidth per type. */
void advisor_text_errors(const bitsift_stats *st, struct out *o);
void advisor_text_bandwidth(const bitsift_stats *st, struct out *o);

/* JSON: members to add to a field's object (",\"observed\":{...}..."),
 * the "errors_by_type" and "bandwidth" members of the summary. */
void advisor_json_field(const bitsift_stats *st, struct out *o, int schema, unsigned id,
                        uint64_t packets);
void advisor_json_errors(const bitsift_stats *st, struct out *o);
void advisor_json_bandwidth(const bitsift_stats *st, struct out *o);

#endif /* BITSIFT_ADVISOR_H */
