/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * stats_bandwidth.c -- bytes and packets over time in <bitsift/stats.h>:
 * one series per packet type (and one for packets no schema claimed), in
 * buckets of one second from the first packet's. When the stream outgrows
 * BITSIFT_STATS_MAX_BUCKETS buckets every series halves its resolution
 * (bucket i takes 2i and 2i+1), so memory stays fixed however long the
 * capture; past BITSIFT_STATS_MAX_SERIES series, the types still to come
 * share one more.
 */
#include <stdlib.h>
#include <string.h>

#include "stats_internal.h"

static struct stats_series *series_for(bitsift_stats *st, int schema, int type)
{
    struct stats_schema *s = stats_schema_at(st, schema);
    int *slot;
    if (!s) {
        schema = -1;
        slot = &st->no_protocol_series;
    } else {
        unsigned t = type >= 0 && (unsigned)type < s->type_count ? (unsigned)type : s->type_count;
        slot = &s->series[t];
    }
    if (*slot >= 0)
        return st->series[*slot];
    size_t index = st->series_count < BITSIFT_STATS_MAX_SERIES ? st->series_count
                                                               : BITSIFT_STATS_MAX_SERIES;
    if (!st->series[index]) {
        struct stats_series *series = calloc(1, sizeof *series);
        if (!series)
            return NULL;
        series->schema = index == BITSIFT_STATS_MAX_SERIES ? -2 : schema;
        series->type = type;
        st->series[index] = series;
        st->series_count = index + 1;
    }
    *slot = (int)index;
    return st->series[index];
}

/* Halve the resolution: bucket i takes buckets 2i and 2i+1. */
static void widen(bitsift_stats *st)
{
    for (size_t k = 0; k < st->series_count; k++) {
        struct stats_series *s = st->series[k];
        for (size_t i = 0; i < BITSIFT_STATS_MAX_BUCKETS / 2; i++) {
            s->packets[i] = s->packets[2 * i] + s->packets[2 * i + 1];
            s->bytes[i] = s->bytes[2 * i] + s->bytes[2 * i + 1];
        }
        memset(s->packets + BITSIFT_STATS_MAX_BUCKETS / 2, 0, sizeof s->packets / 2);
        memset(s->bytes + BITSIFT_STATS_MAX_BUCKETS / 2, 0, sizeof s->bytes / 2);
    }
    st->width *= 2;
    st->buckets = (st->buckets + 1) / 2;
}

void bitsift_stats_add_time(bitsift_stats *st, int schema, int packet_type, int64_t sec,
                            uint64_t bytes)
{
    if (!st->have_start) {
        st->start = sec;
        st->have_start = true;
    }
    /* Packets before the first one's second count in the first bucket. */
    uint64_t offset = sec > st->start ? (uint64_t)sec - (uint64_t)st->start : 0;
    while (offset / st->width >= BITSIFT_STATS_MAX_BUCKETS)
        widen(st);
    uint64_t bucket = offset / st->width;
    struct stats_series *s = series_for(st, schema, packet_type);
    if (!s)
        return;
    s->packets[bucket]++;
    s->bytes[bucket] += bytes;
    if (bucket + 1 > st->buckets)
        st->buckets = bucket + 1;
}

void bitsift_stats_bandwidth(const bitsift_stats *st, bitsift_bandwidth *out)
{
    out->has_start = st->have_start;
    out->start = st->start;
    out->bucket_seconds = st->width;
    out->buckets = st->buckets;
    out->series_count = st->series_count;
}

bool bitsift_stats_series(const bitsift_stats *st, size_t index, bitsift_bandwidth_series *out)
{
    if (index >= st->series_count)
        return false;
    const struct stats_series *s = st->series[index];
    out->schema = s->schema;
    out->type = s->type;
    out->packets = s->packets;
    out->bytes = s->bytes;
    return true;
}
