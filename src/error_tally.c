/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * error_tally.c -- the tally of valid packets and of errors by kind that
 * validate and stats share, and its summary (see error_tally.h).
 */
#include "error_tally.h"

void error_tally_valid(struct error_tally *t)
{
    t->packets++;
    t->valid++;
}

void error_tally_invalid(struct error_tally *t, bitsift_error kind)
{
    t->packets++;
    t->invalid++;
    if ((unsigned)kind < BITSIFT_ERROR_COUNT)
        t->by_kind[kind]++;
}

void error_tally_text_counts(struct out *o, const struct error_tally *t)
{
    out_u64(o, t->packets);
    out_str(o, t->packets == 1 ? " packet: " : " packets: ");
    out_u64(o, t->valid);
    out_str(o, " valid, ");
    out_u64(o, t->invalid);
    out_str(o, " invalid");
}

void error_tally_text_kinds(struct out *o, const struct error_tally *t, const char *open,
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

void error_tally_json_counts(struct out *o, const struct error_tally *t)
{
    out_str(o, "\"packets\":");
    out_u64(o, t->packets);
    out_str(o, ",\"valid\":");
    out_u64(o, t->valid);
    out_str(o, ",\"invalid\":");
    out_u64(o, t->invalid);
}

void error_tally_json_kinds(struct out *o, const struct error_tally *t)
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
