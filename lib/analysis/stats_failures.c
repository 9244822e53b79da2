/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * stats_failures.c -- invalid packets in <bitsift/stats.h>: counted by
 * packet type and error kind, and by the place that failed. The place is
 * the schema field of the failure's path with its indices dropped
 * ("players[3].id" counts for the field "players[].id"), else the framing
 * field it names, else the packet as a whole.
 */
#include <string.h>

#include "stats_internal.h"

static int place_of(const char *path)
{
    for (int i = 0; i < BITSIFT_STATS_PLACES; i++)
        if (strcmp(path, stats_place_names[i]) == 0)
            return i;
    return -1;
}

/* "players[3].id" -> "players[].id" */
static void strip_indices(const char *path, char *out, size_t size)
{
    size_t n = 0;
    for (const char *c = path; *c && n + 1 < size; c++) {
        out[n++] = *c;
        if (*c == '[') {
            while (c[1] && c[1] != ']')
                c++;
        }
    }
    out[n] = '\0';
}

static int field_of_path(const struct stats_schema *s, unsigned type, const char *path)
{
    char want[BITSIFT_PATH_MAX];
    strip_indices(path, want, sizeof want);
    for (unsigned id = 0; id < s->field_count; id++) {
        bitsift_field_info info;
        if (bitsift_schema_field_info(s->schema, id, &info) && info.packet_type == type &&
            strcmp(info.path, want) == 0)
            return (int)id;
    }
    return -1;
}

void bitsift_stats_add_failure(bitsift_stats *st, int schema, const bitsift_result *res)
{
    unsigned kind = (unsigned)res->failure.kind < BITSIFT_ERROR_COUNT ? res->failure.kind : 0;
    struct stats_schema *s = stats_schema_at(st, schema);
    if (!s) {
        st->no_protocol[kind]++;
        return;
    }
    unsigned type = res->packet_type >= 0 && (unsigned)res->packet_type < s->type_count
                        ? (unsigned)res->packet_type
                        : s->type_count;
    s->type_errors[type][kind]++;
    const char *path = res->path[0] ? res->path
                       : res->failure.field && res->failure.field[0] ? res->failure.field
                                                                      : "packet";
    int id = type < s->type_count ? field_of_path(s, type, path) : -1;
    if (id >= 0) {
        s->field_errors[id][kind]++;
        return;
    }
    int place = place_of(path);
    s->place_errors[(size_t)type * BITSIFT_STATS_PLACES +
                    (place >= 0 ? place : BITSIFT_STATS_PACKET)][kind]++;
}

const uint64_t *bitsift_stats_no_protocol_errors(const bitsift_stats *st)
{
    return st->no_protocol;
}
