/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * error_tally.h -- the summary that `bitsift validate`, `bitsift stats`
 * and `bitsift diagnose` print of a tally of packets by error kind (the
 * library's bitsift_error_tally: the counts and the kinds, as text and as
 * JSON members).
 */
#ifndef BITSIFT_SRC_ERROR_TALLY_H
#define BITSIFT_SRC_ERROR_TALLY_H

#ifndef BITSIFT_EXPERIMENTAL
#define BITSIFT_EXPERIMENTAL 1 /* the command uses the library's analysis API */
#endif
#include "bitsift.h"
#include "bitsift/error_tally.h"
#include "print/out.h"

/* "N packets: V valid, I invalid" ("1 packet: ..."). */
void error_tally_text_counts(struct out *o, const bitsift_error_tally *t);

/* Each kind that occurred as "name N" in the order of the error enum,
 * the first after `open`, the others after `sep`, then `close`; nothing at
 * all when no packet was refused. */
void error_tally_text_kinds(struct out *o, const bitsift_error_tally *t, const char *open,
                            const char *sep, const char *close);

/* The JSON members "packets":N,"valid":V,"invalid":I */
void error_tally_json_counts(struct out *o, const bitsift_error_tally *t);

/* The JSON member "errors":{"name":N,...} (an empty object when none). */
void error_tally_json_kinds(struct out *o, const bitsift_error_tally *t);

#endif /* BITSIFT_SRC_ERROR_TALLY_H */
