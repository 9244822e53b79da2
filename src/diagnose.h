/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * diagnose.h -- the search behind `bitsift diagnose`: packets are checked
 * against a schema as they come, failing ones grouped by packet type and
 * sampled with bounded memory; then for each group every candidate change
 * (drift_candidates.h) is compiled and ranked by the packets it explains.
 * No capture or output format here: cmd_diagnose.c does those, and the
 * planted-drift test drives this directly.
 */
#ifndef BITSIFT_DIAGNOSE_H
#define BITSIFT_DIAGNOSE_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bitsift.h"
#include "diagnose_views.h"
#include "drift_candidates.h"
#include "error_tally.h"

/* Packets kept per failing group and of the valid ones: a group smaller
 * than this is measured exactly, a larger one on a uniform sample. */
#define DIAGNOSE_SAMPLE 2048
/* Candidates are measured in rounds (successive halving): every one on a
 * few sampled packets, the best of them (with those tied with the last,
 * up to 4 times as many) on more, the best of those on every sampled
 * packet. See diagnose_rounds in diagnose.c. */
/* Candidates tried per group at the most. */
#define DIAGNOSE_MAX_CANDIDATES 20000
/* The work of a whole run, as bytes of schema text compiled (each
 * candidate is compiled in the view of each packet type it is measured
 * on, diagnose_views.h), a compile of F fields counting F * F / 64 bytes
 * more (the compiler's name lookups): a count, not a time, so that the output does not
 * depend on the machine. Each group with failures may use an equal share
 * of what is left when its turn comes (what a group does not use goes to
 * those after it); beyond its share, insertions of the most bits are left
 * out first, then changes late in the text, and a later round that does
 * not fit is not made (the ranking is then that of the round before). */
#define DIAGNOSE_WORK_BYTES (256ull << 20)
/* Sampled packets take at most this many bytes in all; a packet larger
 * than DIAGNOSE_PACKET_MAX is counted, not sampled. */
#define DIAGNOSE_SAMPLE_BYTES (256u << 20)
#define DIAGNOSE_PACKET_MAX 65536

/* A uniform sample of at most `cap` packets (reservoir sampling). */
struct diagnose_sample {
    struct diagnose_packet {
        uint8_t *data;
        size_t size;
    } *items;
    size_t count, cap;
    uint64_t seen;
};

/* The failing packets of one packet type (or all those whose CRC or type
 * could not be read). */
struct diagnose_group {
    int packet_type;      /* -1 for the groups below */
    bool crc;             /* packets whose CRC does not match */
    struct error_tally tally; /* its packets, all invalid, by error kind */
    struct diagnose_sample sample;
};

struct diagnosis {
    const bitsift_schema *schema; /* the schema the packets are checked with */
    const char *text;             /* its text, which candidates edit */
    size_t size;
    const char *path;
    bitsift_schema *const *others; /* other schemas (-s), candidates as a whole */
    const char *const *other_paths;
    size_t other_count;
    unsigned flags; /* bitsift_decode flags */
    uint64_t packets, valid, not_sampled;
    struct diagnose_sample valid_sample;
    /* packet types, then "type unknown", then "CRC" */
    struct diagnose_group *groups;
    size_t group_count;
    size_t bytes; /* held by the samples */
    uint64_t rng;
    /* Made by the first diagnosis_run: */
    bool searching;
    bool have_views;            /* else every candidate compiles the whole text */
    struct diagnose_views views;
    int *valid_type;            /* per valid sampled packet: its type */
    bool *valid_exact;          /* and whether the schema reads it exactly */
    unsigned *seen;             /* per type: the last measure that met it */
    unsigned seen_mark;
    uint64_t work_budget, work_used; /* bytes compiled; a budget of 0 before the
                                        first run is DIAGNOSE_WORK_BYTES */
    size_t groups_left;         /* groups with failures not searched yet */
    /* Polled between candidates: non-zero stops the search (a signal);
     * what was measured until then is ranked, the rest not tried. */
    const volatile sig_atomic_t *stop;
    bool stopped;
};

/* One ranked candidate. */
struct diagnose_ranked {
    struct drift_candidate c; /* text owned by the report */
    uint64_t explained;       /* sampled failing packets it makes valid */
    uint64_t broken;          /* sampled valid packets it makes fail */
    uint64_t exact;           /* sampled packets, failing or valid, that it
                                 accepts and reads exactly to their end (the
                                 bits after it zero) */
    size_t rank;              /* 1 + the candidates strictly better */
    bool tied;                /* another candidate has the same rank */
};

struct diagnose_report {
    struct diagnose_ranked *ranked; /* best first; those explaining nothing left out */
    size_t count;
    size_t tried;     /* candidates made */
    size_t not_tried; /* candidates over the budget (or after a stop), left out */
    bool rounds_cut;  /* a later round did not fit the budget */
    bool stopped;     /* the search was stopped (diagnosis.stop) */
    size_t compiled;  /* of them, those the compiler accepted */
    size_t finalists; /* measured on every sampled packet */
    size_t measured[3]; /* candidates measured in each round */
    uint64_t failing_measured, valid_measured;
};

/* False when memory runs out. */
bool diagnosis_init(struct diagnosis *d, const bitsift_schema *schema, const char *text,
                    size_t size, const char *path);
void diagnosis_free(struct diagnosis *d);
/* Check one packet and keep it in the samples. False when memory runs out. */
bool diagnosis_add(struct diagnosis *d, const uint8_t *data, size_t size);
/* Search group `g`. False when memory runs out. */
bool diagnosis_run(struct diagnosis *d, size_t g, struct diagnose_report *report);
void diagnose_report_free(struct diagnose_report *report);

#endif /* BITSIFT_DIAGNOSE_H */
