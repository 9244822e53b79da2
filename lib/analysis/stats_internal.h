/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * stats_internal.h -- the state behind <bitsift/stats.h>, shared by the
 * files that fill it: stats.c (the context, the bit profile and the values
 * seen), stats_failures.c (invalid packets by type and place) and
 * stats_bandwidth.c (bytes and packets over time).
 */
#ifndef BITSIFT_STATS_INTERNAL_H
#define BITSIFT_STATS_INTERNAL_H

#ifndef BITSIFT_EXPERIMENTAL
#define BITSIFT_EXPERIMENTAL
#endif
#include "bitsift.h"
#include "bitsift/stats.h"

typedef uint64_t stats_kind_counts[BITSIFT_ERROR_COUNT];

/* "prefix", "crc", "type", "end_check", "packet": the names the decoder
 * gives the framing fields, then the packet as a whole. */
extern const char *const stats_place_names[BITSIFT_STATS_PLACES];

struct stats_type {
    uint64_t packets;
    bitsift_bits_summary bits;
    bitsift_bits_summary framing[BITSIFT_STATS_FRAMING_FIELDS];
    unsigned *ids; /* the schema field ids of this packet type */
    size_t id_count;
};

struct stats_schema {
    const bitsift_schema *schema;
    unsigned field_count, type_count;
    /* The bit profile. */
    bitsift_bits_summary *field_bits; /* per field id */
    uint64_t *current;                /* bits of each field id in the packet being decoded */
    uint64_t current_framing[BITSIFT_STATS_FRAMING_FIELDS];
    struct stats_type *types;         /* per type, then "type not read" */
    bitsift_observed *observed;       /* per field id */
    /* Failures. */
    stats_kind_counts *field_errors; /* per field id */
    stats_kind_counts *place_errors; /* per (type + 1 for "type not read") x BITSIFT_STATS_PLACES */
    stats_kind_counts *type_errors;  /* per type, then "type not read" */
    /* Bandwidth: per type + 1, the index of its series; -1 none yet. */
    int *series;
};

struct stats_series {
    int schema, type; /* schema -1: no protocol; -2: every other series */
    uint64_t packets[BITSIFT_STATS_MAX_BUCKETS], bytes[BITSIFT_STATS_MAX_BUCKETS];
};

struct bitsift_stats {
    struct stats_schema *per_schema;
    size_t count;
    struct stats_schema *active; /* the schema of the packet being profiled */
    uint64_t valid_bits;
    stats_kind_counts no_protocol;
    struct stats_series *series[BITSIFT_STATS_MAX_SERIES + 1]; /* the last: every other series */
    size_t series_count;
    int no_protocol_series;
    bool have_start;
    int64_t start;    /* seconds of the first packet with a time */
    uint64_t width;   /* seconds per bucket */
    uint64_t buckets; /* buckets in use */
};

/* The schema of index `schema`, NULL when none (-1 or out of range). */
static inline struct stats_schema *stats_schema_at(const bitsift_stats *st, int schema)
{
    return schema >= 0 && (size_t)schema < st->count ? &st->per_schema[schema] : NULL;
}

#endif /* BITSIFT_STATS_INTERNAL_H */
