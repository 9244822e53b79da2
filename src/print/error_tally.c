/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * error_tally.c -- the summary of a tally of packets by error kind that
 * validate, stats and diagnose print (see error_tally.h).
 */
#include "print/error_tally.h"

void error_tally_text_counts(struct out *o, const bitsift_error_tally *t)
{
    out_u64(o, t->packets);
    out_str(o, t->packets == 1 ? " packet: " : " packets: ");
    out_u64(o, t->valid);
    out_str(o, " valid, ");
    out_u64(o, t->invalid);
    out_str(o, " invalid");
}

void error_tally_text_kinds(struct out *o, const bitsift_error_tally *t, const char *open,
                            const char *sep, const char *close)
{
    int any = 0;
    for (unsigned k = 0; k < BITSIFT_ERROR_COUNT; k++) {
        if (!t->by_kind[k])
            continue;
        out_str(o, any ? sep : open);
        out_str(o, bitsift_error_name((bitsift_error)k));
        out_char(o, ' ');
        out_u64(o, t->by_kind[k]);
        any = 1;
    }
    if (any)
        out_str(o, close);
}

void error_tally_json_counts(struct out *o, const bitsift_error_tally *t)
{
    out_str(o, "\"packets\":");
    out_u64(o, t->packets);
    out_str(o, ",\"valid\":");
    out_u64(o, t->valid);
    out_str(o, ",\"invalid\":");
    out_u64(o, t->invalid);
}

void error_tally_json_kinds(struct out *o, const bitsift_error_tally *t)
{
    out_str(o, "\"errors\":{");
    const char *sep = "";
    for (unsigned k = 0; k < BITSIFT_ERROR_COUNT; k++) {
        if (!t->by_kind[k])
            continue;
        out_str(o, sep);
        out_char(o, '"');
        out_str(o, bitsift_error_name((bitsift_error)k));
        out_str(o, "\":");
        out_u64(o, t->by_kind[k]);
        sep = ",";
    }
    out_char(o, '}');
}
