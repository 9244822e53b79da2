/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * drift_candidates.h -- the schema changes `bitsift diagnose` tries when
 * packets of a type fail: each is one edit of the schema text (bytes
 * [start, end) replaced by `text`), so that what is shown as a diff is
 * exactly the schema that was compiled and measured. The families and
 * their bounds are listed in bitsift(1), DIAGNOSE.
 */
#ifndef BITSIFT_DRIFT_CANDIDATES_H
#define BITSIFT_DRIFT_CANDIDATES_H

#include <stdbool.h>
#include <stddef.h>

#include "bitsift.h"

enum drift_family {
    DRIFT_RANGE,     /* an integer field's range or width */
    DRIFT_INSERT,    /* a field of 1..32 bits inserted */
    DRIFT_REMOVE,    /* a field removed */
    DRIFT_BOUND,     /* an array bound off by one */
    DRIFT_CONDITION, /* a condition off by one */
    DRIFT_ENUM,      /* an enum grown */
    DRIFT_CFLOAT,    /* a compressed float's step count */
    DRIFT_SCHEMA,    /* another schema given with -s */
    DRIFT_FAMILY_COUNT
};

/* "range", "insert", "remove", "bound", "condition", "enum", "cfloat", "schema". */
const char *drift_family_name(enum drift_family f);

struct drift_candidate {
    enum drift_family family;
    size_t start, end; /* the edit: text[start, end) becomes `text` */
    char *text;
    /* The size of the change, compared in this order (smaller is a
     * smaller change): wire bits added or removed per occurrence, then
     * values, steps or counts moved. */
    unsigned delta_bits, detail;
    int new_bits;  /* the field's new width, the bits inserted; -1 else */
    int field;     /* the field it changes, or that an insertion precedes; -1 */
    size_t schema; /* DRIFT_SCHEMA: index of the other schema */
    char what[192]; /* for people: "players[].yaw: 8 -> 9 bits" */
};

struct drift_list {
    struct drift_candidate *items;
    size_t count, cap;
};

/* Append every candidate for packet type `type` of schema `s`, compiled
 * from text[0, size). Duplicate edits are made once. False when memory ran
 * out. */
bool drift_candidates(const bitsift_schema *s, const char *text, size_t size, unsigned type,
                      struct drift_list *list);
/* Append a DRIFT_SCHEMA candidate for other schema number `index`. */
bool drift_add_schema(struct drift_list *list, size_t index, const char *label);
void drift_list_free(struct drift_list *list);

/* The text with the candidate's edit made: malloc'd, NUL-terminated,
 * *out_size bytes. NULL when memory ran out. */
char *drift_apply(const char *text, size_t size, const struct drift_candidate *c,
                  size_t *out_size);

/* Where a field of `bits` bits inserted at text offset `pos` goes, as
 * drift_candidates places it: the edit is written to *c (text malloc'd).
 * `name` is the new field's name. False when memory ran out. */
bool drift_insertion(const char *text, size_t size, size_t pos, bool before, const char *type,
                     const char *name, struct drift_candidate *c);

/* The shortest decimal spelling of a float that reads back as the same
 * float ("0.01", "-4096"). */
void drift_format_float(char *buf, size_t size, float v);

#endif /* BITSIFT_DRIFT_CANDIDATES_H */
