/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bitsift/diagnose.h -- which change of a schema explains the packets
 * that fail it: the search behind `bitsift diagnose` (man
 * bitsift-diagnose.3).
 *
 * Packets are added one at a time and checked against the schema; the
 * failing ones are grouped by packet type (plus "type not read" and "CRC
 * mismatch") and sampled with bounded memory, as are the valid ones. Then
 * each group is searched: every candidate change of the schema text (a
 * drift: a range, an insertion, a removal, ... see bitsift_drift_family),
 * and every other schema given as a whole, is compiled and ranked by the
 * sampled failing packets it makes valid, the valid ones it breaks, the
 * packets it reads exactly to their end, then the size of the change.
 * The library returns values only: the caller prints them.
 *
 * The work of a search is bounded by a count, not a time (the same
 * packets give the same report on every machine), and a stop callback
 * ends it early with what was measured until then.
 */
#ifndef BITSIFT_DIAGNOSE_H
#define BITSIFT_DIAGNOSE_H

#ifndef BITSIFT_EXPERIMENTAL
#error "<bitsift/diagnose.h> is experimental: its API may change between releases; #define BITSIFT_EXPERIMENTAL before including it"
#endif

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "error_tally.h"
#include "schema.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Packets kept per failing group and of the valid ones: a group smaller
 * than this is measured exactly, a larger one on a uniform sample. */
#define BITSIFT_DIAGNOSE_SAMPLE 2048
/* Candidates are measured in rounds (successive halving): every one on a
 * few sampled packets, the best of them (with those tied with the last,
 * up to 4 times as many) on more, the best of those on every sampled
 * packet. At most this many candidates are tried per group. */
#define BITSIFT_DIAGNOSE_MAX_CANDIDATES 20000
/* The default work of a whole run, as bytes of schema text compiled (each
 * candidate is compiled in the view of each packet type it is measured
 * on: the text without the other types' declarations), a compile of F
 * fields counting F * F / 64 bytes more (the compiler's name lookups): a
 * count, not a time, so that the result does not depend on the machine.
 * Each group with failures may use an equal share of what is left when
 * its turn comes (what a group does not use goes to those after it);
 * beyond its share, insertions of the most bits are left out first, then
 * changes late in the text, and a later round that does not fit is not
 * made (the ranking is then that of the round before). */
#define BITSIFT_DIAGNOSE_WORK_BYTES (256ull << 20)
/* Sampled packets take at most this many bytes in all; a packet larger
 * than BITSIFT_DIAGNOSE_PACKET_MAX is counted, not sampled. */
#define BITSIFT_DIAGNOSE_SAMPLE_BYTES (256u << 20)
#define BITSIFT_DIAGNOSE_PACKET_MAX   65536

/* ------------------------------------------------------------------ */
/* Candidate changes (drifts): edits of the schema text                */
/* ------------------------------------------------------------------ */

/* The families of change tried; bitsift(1), DIAGNOSE, lists their bounds. */
typedef enum bitsift_drift_family {
    BITSIFT_DRIFT_RANGE = 0,     /* an integer field's range or width */
    BITSIFT_DRIFT_INSERT = 1,    /* a field of 1..32 bits inserted */
    BITSIFT_DRIFT_REMOVE = 2,    /* a field removed */
    BITSIFT_DRIFT_BOUND = 3,     /* an array bound off by one */
    BITSIFT_DRIFT_CONDITION = 4, /* a condition off by one */
    BITSIFT_DRIFT_ENUM = 5,      /* an enum grown */
    BITSIFT_DRIFT_CFLOAT = 6,    /* a compressed float's step count */
    BITSIFT_DRIFT_SCHEMA = 7     /* another schema, as a whole */
} bitsift_drift_family;

#define BITSIFT_DRIFT_FAMILY_COUNT 8

/* "range", "insert", "remove", "bound", "condition", "enum", "cfloat",
 * "schema"; "unknown" for any other value. */
const char *bitsift_drift_family_name(bitsift_drift_family f);

/* One candidate: bytes [start, end) of the schema text replaced by
 * `text`, so that what is shown as a diff is exactly the schema that was
 * compiled and measured (BITSIFT_DRIFT_SCHEMA: no edit, `schema` says
 * which other schema). */
typedef struct bitsift_drift_candidate {
    bitsift_drift_family family;
    size_t start, end;
    char *text; /* malloc'd, NUL-terminated; NULL for BITSIFT_DRIFT_SCHEMA */
    /* The size of the change, compared in this order (smaller is a
     * smaller change): wire bits added or removed per occurrence, then
     * values, steps or counts moved. */
    unsigned delta_bits, detail;
    int new_bits;   /* the field's new width, the bits inserted; -1 else */
    int field;      /* the field it changes, or that an insertion precedes; -1 */
    size_t schema;  /* BITSIFT_DRIFT_SCHEMA: index among the other schemas */
    char what[192]; /* for people: "players[].yaw: 8 -> 9 bits" */
} bitsift_drift_candidate;

typedef struct bitsift_drift_list {
    bitsift_drift_candidate *items;
    size_t count, cap;
} bitsift_drift_list;

/* Append to `list` (zero-initialised before its first use) every
 * candidate change for packet type `type` of `s`, compiled from
 * text[0, size). Duplicate edits are made once. Whether a candidate
 * compiles is not checked. BITSIFT_OK, or BITSIFT_E_NOMEM. */
bitsift_error bitsift_drift_candidates(const bitsift_schema *s, const char *text, size_t size,
                                       unsigned type, bitsift_drift_list *list);
/* Free the candidates' texts and the list; it is empty again after. */
void bitsift_drift_list_free(bitsift_drift_list *list);

/* The text with the candidate's edit made: malloc'd (free() it),
 * NUL-terminated, *out_size bytes. NULL when memory ran out. */
char *bitsift_drift_apply(const char *text, size_t size, const bitsift_drift_candidate *c,
                          size_t *out_size);

/* ------------------------------------------------------------------ */
/* The diagnosis                                                       */
/* ------------------------------------------------------------------ */

typedef struct bitsift_diagnosis bitsift_diagnosis;

typedef struct bitsift_diagnose_options {
    /* bitsift_decode flags the packets, and the candidates, read with. */
    unsigned decode_flags;
    /* Other schemas, each a candidate as a whole (a version the packets
     * may have been written with); `other_labels` names them in the
     * candidates' `what` (NULL: none). They must outlive the diagnosis. */
    bitsift_schema *const *others;
    const char *const *other_labels;
    size_t other_count;
    /* The work of the whole run (BITSIFT_DIAGNOSE_WORK_BYTES); 0 for
     * that default. */
    uint64_t work_budget;
    /* Called between candidates: once it returns non-zero (e.g. a signal
     * handler's flag was set) the search stops; what was measured until
     * then is ranked, the rest reported as not tried, and every later
     * search tries nothing. NULL for never. */
    int (*stop)(void *stop_ctx);
    void *stop_ctx;
} bitsift_diagnose_options;

/* The failing packets of one group: a packet type, or all those whose
 * type could not be read, or all those whose CRC does not match. */
typedef struct bitsift_diagnose_group {
    int packet_type;           /* -1 for the last two groups */
    bool crc_mismatch;         /* the last group: the CRC does not match */
    bitsift_error_tally tally; /* its packets, all invalid, by error kind */
} bitsift_diagnose_group;

/* What the diagnosis has seen and done so far. */
typedef struct bitsift_diagnose_counts {
    uint64_t packets, valid; /* added, and of them valid */
    uint64_t not_sampled;    /* over BITSIFT_DIAGNOSE_PACKET_MAX or the sample bytes */
    uint64_t work_used;      /* of work_budget, by the searches so far */
    uint64_t work_budget;
    size_t group_count; /* packet types + 2 */
    bool stopped;       /* the stop callback stopped a search */
} bitsift_diagnose_counts;

/* One ranked candidate. */
typedef struct bitsift_diagnose_ranked {
    bitsift_drift_candidate change; /* its text owned by the report */
    uint64_t explained;             /* sampled failing packets it makes valid */
    uint64_t broken;                /* sampled valid packets it makes fail */
    uint64_t exact;                 /* sampled packets, failing or valid, that it
                                       accepts and reads exactly to their end (the
                                       bits after it zero) */
    size_t rank;                    /* 1 + the candidates strictly better */
    bool tied;                      /* another candidate has the same rank */
} bitsift_diagnose_ranked;

/* The search of one group. */
typedef struct bitsift_diagnose_report {
    bitsift_diagnose_ranked *ranked; /* best first; those explaining nothing left out */
    size_t count;
    size_t tried;       /* candidates made */
    size_t not_tried;   /* candidates over the budget (or after a stop), left out */
    bool rounds_cut;    /* a later round did not fit the budget (or a stop) */
    bool stopped;       /* the search was stopped (options.stop) */
    size_t compiled;    /* of those tried, those the compiler accepted */
    size_t finalists;   /* measured in the last round made */
    size_t measured[3]; /* candidates measured in each round */
    /* What the candidates were measured on: every sampled packet, unless
     * a round was cut. */
    uint64_t failing_measured, valid_measured;
} bitsift_diagnose_report;

/* A diagnosis of packets against `schema`, compiled from text[0, size)
 * (the text candidates edit) whose name in diagnostics is `path`. The
 * schema, the text and the options' schemas and labels must outlive the
 * diagnosis. `options` may be NULL. NULL when memory ran out. */
bitsift_diagnosis *bitsift_diagnose_create(const bitsift_schema *schema, const char *text,
                                           size_t size, const char *path,
                                           const bitsift_diagnose_options *options);
/* Accepts NULL. */
void bitsift_diagnose_free(bitsift_diagnosis *d);

/* Check one packet and keep it in the samples: every packet is added
 * before the first search. BITSIFT_OK (valid or not), BITSIFT_E_ARGUMENT
 * (a search has begun) or BITSIFT_E_NOMEM. */
bitsift_error bitsift_diagnose_add(bitsift_diagnosis *d, const void *packet, size_t size);

void bitsift_diagnose_get_counts(const bitsift_diagnosis *d, bitsift_diagnose_counts *counts);
/* Group g (0 .. group_count - 1: the packet types in order, then "type
 * not read", then "CRC mismatch"). False when there is no such group. */
bool bitsift_diagnose_get_group(const bitsift_diagnosis *d, size_t g,
                                bitsift_diagnose_group *group);

/* Search group g: rank every candidate on its sampled packets. Each
 * group with failures is searched once, in order, for the budget's
 * shares to be as said above (a group without failures ranks nothing).
 * BITSIFT_OK (*report filled: free it with
 * bitsift_diagnose_report_free), BITSIFT_E_ARGUMENT (no group g) or
 * BITSIFT_E_NOMEM. */
bitsift_error bitsift_diagnose_run(bitsift_diagnosis *d, size_t g, bitsift_diagnose_report *report);
void bitsift_diagnose_report_free(bitsift_diagnose_report *report);

#ifdef __cplusplus
}
#endif

#endif /* BITSIFT_DIAGNOSE_H */
