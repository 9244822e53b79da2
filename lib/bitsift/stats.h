/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bitsift/stats.h -- the statistics of a stream of packets under one or
 * more schemas: what `bitsift stats` prints, as values a program can read.
 *
 *   - the bit profile: per packet type, its packets and the bits they took
 *     (total, least, most); per schema field and framing field, the bits
 *     it took in one packet of its type (total over the packets, least,
 *     most);
 *   - the values seen in valid packets per field (least, most) and, for
 *     integer, enum, bits/uintN and compressed-float fields, the bits a
 *     range fitted to them would cost beside the declared bits;
 *   - invalid packets by packet type and error kind, and by the place
 *     that failed (a schema field, a framing field or the packet);
 *   - bytes and packets per packet type over time, in at most
 *     BITSIFT_STATS_MAX_BUCKETS buckets of one second that widen (2, 4,
 *     8 ... s) as the stream goes on.
 *
 * Memory is fixed once the schemas are known (a few counters per field and
 * per type, BITSIFT_STATS_MAX_BUCKETS per series, at most
 * BITSIFT_STATS_MAX_SERIES + 1 series); nothing is allocated per packet
 * except a series' buckets the first time its packet type is met.
 * `schema` arguments are indices into the array given to
 * bitsift_stats_create; -1 (or any index out of it) is "no schema claimed
 * the packet".
 */
#ifndef BITSIFT_STATS_H
#define BITSIFT_STATS_H

#ifndef BITSIFT_EXPERIMENTAL
#error "<bitsift/stats.h> is experimental: its API may change between releases; #define BITSIFT_EXPERIMENTAL before including it"
#endif

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "schema.h"

#ifdef __cplusplus
extern "C" {
#endif

#define BITSIFT_STATS_MAX_BUCKETS 120
#define BITSIFT_STATS_MAX_SERIES  256

typedef struct bitsift_stats bitsift_stats;

/* The framing fields of the bit profile, then the place of a failure that
 * is neither a schema field nor a framing field. */
typedef enum bitsift_stats_place {
    BITSIFT_STATS_PREFIX = 0,
    BITSIFT_STATS_CRC = 1,
    BITSIFT_STATS_TYPE = 2,
    BITSIFT_STATS_END_CHECK = 3,
    BITSIFT_STATS_PACKET = 4
} bitsift_stats_place;
#define BITSIFT_STATS_FRAMING_FIELDS 4 /* PREFIX .. END_CHECK */
#define BITSIFT_STATS_PLACES 5         /* ... and PACKET */

/* "prefix", "crc", "type", "end_check", "packet"; NULL out of range. */
const char *bitsift_stats_place_name(bitsift_stats_place place);

/* NULL when out of memory. The schemas must outlive the statistics. */
bitsift_stats *bitsift_stats_create(const bitsift_schema *const *schemas, size_t count);
void bitsift_stats_free(bitsift_stats *st); /* NULL is fine */
/* The schemas given to bitsift_stats_create, by index; NULL out of range. */
size_t bitsift_stats_schema_count(const bitsift_stats *st);
const bitsift_schema *bitsift_stats_schema(const bitsift_stats *st, int schema);

/* ---- adding packets ------------------------------------------------------ */

/*
 * Profile one packet of schema `schema`: decode it with `flags`
 * (BITSIFT_DECODE_NO_PATHS is added) and add its bits per field and per
 * framing field, and its leaf values to the values seen. Returns true when
 * the packet decoded and was counted in its type's profile; false with the
 * failure in `res` (values read before the failure are among those seen:
 * a caller that wants only valid packets' values decodes without a visitor
 * first, as bitsift_decode's fast path, and profiles only valid ones).
 */
bool bitsift_stats_add_packet(bitsift_stats *st, int schema, const void *packet, size_t size,
                              unsigned flags, bitsift_result *res);

/* One invalid packet, from the result of its decode: counted by its type
 * (when read) and error kind, and by the field or framing place that
 * failed. */
void bitsift_stats_add_failure(bitsift_stats *st, int schema, const bitsift_result *res);

/* One packet of any validity that arrived at `sec` (seconds since the
 * epoch) and took `bytes`, with its packet type (-1 when not read), for
 * the bandwidth over time. Packets without a time (from a packet file)
 * are simply not added. Packets before the first one's second count in
 * the first bucket. */
void bitsift_stats_add_time(bitsift_stats *st, int schema, int packet_type, int64_t sec,
                            uint64_t bytes);

/* ---- reading them -------------------------------------------------------- */

/* Bits one field (or packet) took in a packet: summed over the packets of
 * its type, and the least and most in one of them. */
typedef struct bitsift_bits_summary {
    uint64_t total, min, max;
} bitsift_bits_summary;

typedef struct bitsift_type_stats {
    uint64_t packets; /* valid packets profiled */
    bitsift_bits_summary bits;
    bitsift_bits_summary framing[BITSIFT_STATS_FRAMING_FIELDS];
    const unsigned *field_ids; /* the schema field ids of this type, in order */
    size_t field_count;
    /* Invalid packets of this type by error kind (BITSIFT_ERROR_COUNT
     * counters), and those that failed at each place of bitsift_stats_place
     * (field failures are in bitsift_field_stats.errors). */
    const uint64_t *errors;
    const uint64_t *place_errors[BITSIFT_STATS_PLACES];
} bitsift_type_stats;

/* Per packet type; `type` == bitsift_schema_packet_count is "type not
 * read" (errors only: no packets, no fields). Pointers stay valid until
 * the next add or the free. False when out of range. */
bool bitsift_stats_type(const bitsift_stats *st, int schema, unsigned type,
                        bitsift_type_stats *out);

typedef enum bitsift_observed_class {
    BITSIFT_OBSERVED_NONE = 0,     /* nothing seen, or not a number */
    BITSIFT_OBSERVED_SIGNED = 1,   /* imin, imax: int, enum */
    BITSIFT_OBSERVED_UNSIGNED = 2, /* umin, umax: bool, bits, uintN, ... */
    BITSIFT_OBSERVED_REAL = 3      /* fmin, fmax: floats, finite values only */
} bitsift_observed_class;

typedef struct bitsift_observed {
    uint64_t count; /* values seen (array elements count one each) */
    bitsift_observed_class cls;
    int64_t imin, imax;
    uint64_t umin, umax;
    double fmin, fmax;   /* finite values only */
    uint64_t non_finite; /* NaN and infinities, REAL only */
    bool float32;        /* REAL values that are float32 (not double) */
} bitsift_observed;

typedef struct bitsift_field_stats {
    bitsift_bits_summary bits; /* per packet of the field's type */
    bitsift_observed observed;
    /* A range fitted to the values seen: `fitted` is set for int, enum,
     * bits/uintN (unsigned values) and compressed-float fields with values
     * seen; the field costs `declared_bits` as declared and `fitted_bits`
     * fitted, and the fit would save `saving_total` bits over all packets
     * (0 when it would not be smaller). */
    bool fitted;
    unsigned declared_bits, fitted_bits;
    uint64_t saving_total;
    const uint64_t *errors; /* packets that failed at this field, by kind */
} bitsift_field_stats;

/* Per schema field id (bitsift_schema_field_info). False when out of
 * range. */
bool bitsift_stats_field(const bitsift_stats *st, int schema, unsigned id,
                         bitsift_field_stats *out);

/* Bits in all valid packets profiled (the base of a field's share). */
uint64_t bitsift_stats_valid_bits(const bitsift_stats *st);

/* Packets no schema claimed, by error kind (BITSIFT_ERROR_COUNT). */
const uint64_t *bitsift_stats_no_protocol_errors(const bitsift_stats *st);

typedef struct bitsift_bandwidth {
    bool has_start;          /* some packet had a time */
    int64_t start;           /* its second: bucket 0 starts there */
    uint64_t bucket_seconds; /* 1, 2, 4 ... */
    uint64_t buckets;        /* buckets in use, at most BITSIFT_STATS_MAX_BUCKETS */
    size_t series_count;     /* in the order their first packet came */
} bitsift_bandwidth;

void bitsift_stats_bandwidth(const bitsift_stats *st, bitsift_bandwidth *out);

typedef struct bitsift_bandwidth_series {
    /* The schema index; -1 for packets no schema claimed; -2 for every
     * packet type met after BITSIFT_STATS_MAX_SERIES series, together. */
    int schema;
    int type; /* as given to bitsift_stats_add_time: -1 or out of range when not read */
    const uint64_t *packets, *bytes; /* `buckets` entries each */
} bitsift_bandwidth_series;

/* False when `index` >= series_count. */
bool bitsift_stats_series(const bitsift_stats *st, size_t index, bitsift_bandwidth_series *out);

#ifdef __cplusplus
}
#endif

#endif /* BITSIFT_STATS_H */
