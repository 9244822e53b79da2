/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * error_tally.h -- how many packets were checked, how many were valid, and
 * how many failed with each error kind: the tally `bitsift validate` and
 * `bitsift stats` both keep, and the summary both print of it (the counts
 * and the kinds, as text and as JSON members).
 */
#ifndef BITSIFT_ERROR_TALLY_H
#define BITSIFT_ERROR_TALLY_H

#include <stdint.h>

#include "bitsift.h"
#include "out.h"

struct error_tally {
    uint64_t packets, valid, invalid;
    uint64_t by_kind[BITSIFT_ERROR_COUNT]; /* invalid packets by bitsift_error */
};

/* One more packet, valid or refused with `kind`. */
void error_tally_valid(struct error_tally *t);
void error_tally_invalid(struct error_tally *t, bitsift_error kind);

/* "N packets: V valid, I invalid" ("1 packet: ..."). */
void error_tally_text_counts(struct out *o, const struct error_tally *t);

/* Each kind that occurred as "name N" in the order of the error enum,
 * the first after `open`, the others after `sep`, then `close`; nothing at
 * all when no packet was refused. */
void error_tally_text_kinds(struct out *o, const struct error_tally *t, const char *open,
                            const char *sep, const char *close);

/* The JSON members "packets":N,"valid":V,"invalid":I */
void error_tally_json_counts(struct out *o, const struct error_tally *t);

/* The JSON member "errors":{"name":N,...} (an empty object when none). */
void error_tally_json_kinds(struct out *o, const struct error_tally *t);

#endif /* BITSIFT_ERROR_TALLY_H */
