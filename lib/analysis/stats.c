/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * stats.c -- the statistics context of <bitsift/stats.h>, the bit profile
 * and the values seen.
 *
 * Bits are counted from the decoder's visitor events by schema field id
 * (no path is ever built or hashed): a field inside an array adds up over
 * its elements, a struct or array counts everything inside it (its leave
 * event carries the total), and array bookkeeping (counts, indices) is
 * inside its array's total. A packet's bits per field gather in `current`
 * and fold into the per-field least / most / total only when the packet
 * turns out valid. The visitor is this file's own, so a profiled packet
 * costs its caller one call whatever its fields.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats_internal.h"

const char *const stats_place_names[BITSIFT_STATS_PLACES] = {"prefix", "crc", "type",
                                                             "end_check", "packet"};

bitsift_stats *bitsift_stats_create(const bitsift_schema *const *schemas, size_t count)
{
    bitsift_stats *st = calloc(1, sizeof *st);
    if (!st)
        return NULL;
    st->width = 1;
    st->no_protocol_series = -1;
    st->per_schema = calloc(count ? count : 1, sizeof *st->per_schema);
    if (!st->per_schema) {
        free(st);
        return NULL;
    }
    st->count = count;
    for (size_t i = 0; i < count; i++) {
        struct stats_schema *s = &st->per_schema[i];
        s->schema = schemas[i];
        s->field_count = bitsift_schema_field_count(s->schema);
        s->type_count = bitsift_schema_packet_count(s->schema);
        s->field_bits = calloc(s->field_count + 1, sizeof *s->field_bits);
        s->current = calloc(s->field_count + 1, sizeof *s->current);
        s->types = calloc(s->type_count + 1, sizeof *s->types);
        s->observed = calloc(s->field_count + 1, sizeof *s->observed);
        s->field_errors = calloc(s->field_count + 1, sizeof *s->field_errors);
        s->place_errors = calloc((size_t)(s->type_count + 1) * BITSIFT_STATS_PLACES,
                                 sizeof *s->place_errors);
        s->type_errors = calloc(s->type_count + 1, sizeof *s->type_errors);
        s->series = malloc((s->type_count + 1) * sizeof *s->series);
        if (!s->field_bits || !s->current || !s->types || !s->observed || !s->field_errors ||
            !s->place_errors || !s->type_errors || !s->series) {
            bitsift_stats_free(st);
            return NULL;
        }
        for (unsigned t = 0; t <= s->type_count; t++)
            s->series[t] = -1;
        for (unsigned id = 0; id < s->field_count; id++) {
            bitsift_field_info info;
            if (!bitsift_schema_field_info(s->schema, id, &info) ||
                info.packet_type >= s->type_count)
                continue;
            struct stats_type *t = &s->types[info.packet_type];
            unsigned *ids = realloc(t->ids, (t->id_count + 1) * sizeof *ids);
            if (!ids) {
                bitsift_stats_free(st);
                return NULL;
            }
            t->ids = ids;
            t->ids[t->id_count++] = id;
        }
    }
    return st;
}

void bitsift_stats_free(bitsift_stats *st)
{
    if (!st)
        return;
    for (size_t i = 0; i < st->count; i++) {
        struct stats_schema *s = &st->per_schema[i];
        for (unsigned t = 0; s->types && t < s->type_count; t++)
            free(s->types[t].ids);
        free(s->types);
        free(s->field_bits);
        free(s->current);
        free(s->observed);
        free(s->field_errors);
        free(s->place_errors);
        free(s->type_errors);
        free(s->series);
    }
    free(st->per_schema);
    for (size_t i = 0; i <= BITSIFT_STATS_MAX_SERIES; i++)
        free(st->series[i]);
    free(st);
}

size_t bitsift_stats_schema_count(const bitsift_stats *st)
{
    return st->count;
}

const bitsift_schema *bitsift_stats_schema(const bitsift_stats *st, int schema)
{
    const struct stats_schema *s = stats_schema_at(st, schema);
    return s ? s->schema : NULL;
}

const char *bitsift_stats_place_name(bitsift_stats_place place)
{
    return (unsigned)place < BITSIFT_STATS_PLACES ? stats_place_names[place] : NULL;
}

/* ---- the values seen ------------------------------------------------------ */

static void observe(struct stats_schema *s, const bitsift_event *ev)
{
    if (ev->id < 0 || (ev->flags & (BITSIFT_EVENT_ABSENT | BITSIFT_EVENT_FRAMING)) ||
        (unsigned)ev->id >= s->field_count)
        return;
    bitsift_observed *o = &s->observed[ev->id];
    const bitsift_value *v = &ev->value;
    switch (v->kind) {
    case BITSIFT_VALUE_INT:
    case BITSIFT_VALUE_ENUM:
        if (!o->count || v->i < o->imin)
            o->imin = v->i;
        if (!o->count || v->i > o->imax)
            o->imax = v->i;
        o->cls = BITSIFT_OBSERVED_SIGNED;
        break;
    case BITSIFT_VALUE_UINT:
    case BITSIFT_VALUE_BOOL: {
        uint64_t u = v->kind == BITSIFT_VALUE_BOOL ? v->b : v->u;
        if (!o->count || u < o->umin)
            o->umin = u;
        if (!o->count || u > o->umax)
            o->umax = u;
        o->cls = BITSIFT_OBSERVED_UNSIGNED;
        break;
    }
    case BITSIFT_VALUE_FLOAT:
    case BITSIFT_VALUE_DOUBLE: {
        double d = v->kind == BITSIFT_VALUE_FLOAT ? v->f : v->d;
        o->cls = BITSIFT_OBSERVED_REAL;
        o->float32 = v->kind == BITSIFT_VALUE_FLOAT;
        if (!isfinite(d)) {
            o->non_finite++;
            break;
        }
        if (o->count == o->non_finite || d < o->fmin)
            o->fmin = d;
        if (o->count == o->non_finite || d > o->fmax)
            o->fmax = d;
        break;
    }
    default:
        return;
    }
    o->count++;
}

/* The bits the field costs as declared and fitted to what was seen; false
 * when it is not a field a range can be fitted to. By field type, not value
 * kind: what is fitted is the type's range parameter (int_relative and
 * sequence numbers have none, a plain float no resolution). */
static bool fit_range(const bitsift_field_info *info, const bitsift_observed *o,
                      unsigned *declared, unsigned *fitted)
{
    if (!o->count)
        return false;
    switch (info->type) {
    case BITSIFT_FIELD_INT:
    case BITSIFT_FIELD_ENUM:
        *declared = bitsift_bits_required(info->min, info->max);
        *fitted = bitsift_bits_required(o->imin, o->imax);
        return true;
    case BITSIFT_FIELD_BITS:
    case BITSIFT_FIELD_UINT8:
    case BITSIFT_FIELD_UINT16:
    case BITSIFT_FIELD_UINT32:
    case BITSIFT_FIELD_UINT64:
        if (o->cls != BITSIFT_OBSERVED_UNSIGNED)
            return false;
        *declared = (unsigned)info->max_bits;
        /* umin <= umax: the unsigned span is the same taken as signed. */
        *fitted = bitsift_bits_required((int64_t)o->umin, (int64_t)o->umax);
        return true;
    case BITSIFT_FIELD_COMPRESSED_FLOAT: {
        uint32_t steps;
        unsigned bits;
        if (o->non_finite == o->count ||
            !bitsift_compressed_float_steps((float)o->fmin, (float)o->fmax, info->resolution,
                                            &steps, &bits))
            return false;
        *declared = info->width;
        *fitted = bits;
        return true;
    }
    default:
        return false;
    }
}

/* ---- the bit profile ------------------------------------------------------ */

static int framing_field(const char *name)
{
    for (int i = 0; i < BITSIFT_STATS_FRAMING_FIELDS; i++)
        if (strcmp(name, stats_place_names[i]) == 0)
            return i;
    return -1;
}

static bool on_field(void *ctx, const bitsift_event *ev)
{
    /* Array counts and indices are inside the array's total (leave). */
    if (ev->flags & BITSIFT_EVENT_ARRAY_META)
        return true;
    struct stats_schema *s = ((bitsift_stats *)ctx)->active;
    if (ev->id >= 0 && (unsigned)ev->id < s->field_count) {
        s->current[ev->id] += ev->bits;
    } else if (ev->flags & BITSIFT_EVENT_FRAMING) {
        int slot = framing_field(ev->name);
        if (slot >= 0)
            s->current_framing[slot] += ev->bits;
    }
    observe(s, ev);
    return true;
}

static bool on_leave(void *ctx, const bitsift_event *ev)
{
    struct stats_schema *s = ((bitsift_stats *)ctx)->active;
    /* Containers: the leave event carries the total. */
    if (ev->id >= 0 && (unsigned)ev->id < s->field_count)
        s->current[ev->id] += ev->bits;
    return true;
}

static void fold(bitsift_bits_summary *f, uint64_t bits, uint64_t packets_before)
{
    f->total += bits;
    if (packets_before == 0 || bits < f->min)
        f->min = bits;
    if (packets_before == 0 || bits > f->max)
        f->max = bits;
}

bool bitsift_stats_add_packet(bitsift_stats *st, int schema, const void *packet, size_t size,
                              unsigned flags, bitsift_result *res)
{
    struct stats_schema *s = stats_schema_at(st, schema);
    if (!s) {
        memset(res, 0, sizeof *res);
        res->status = res->failure.kind = BITSIFT_E_ARGUMENT;
        res->packet_type = -1;
        return false;
    }
    st->active = s;
    bitsift_visitor v = {on_field, NULL, on_leave, st};
    bitsift_decode(s->schema, packet, size, flags | BITSIFT_DECODE_NO_PATHS, &v, res);
    int type = res->packet_type;
    bool valid = res->status == BITSIFT_OK && type >= 0 && (unsigned)type < s->type_count;
    if (valid) {
        st->valid_bits += res->bits;
        struct stats_type *t = &s->types[type];
        for (size_t i = 0; i < t->id_count; i++)
            fold(&s->field_bits[t->ids[i]], s->current[t->ids[i]], t->packets);
        for (int k = 0; k < BITSIFT_STATS_FRAMING_FIELDS; k++)
            fold(&t->framing[k], s->current_framing[k], t->packets);
        fold(&t->bits, res->bits, t->packets);
        t->packets++;
    }
    /* Reset what this packet touched (every id of any type may have been
     * reached before a failure, so clear them all: field counts are small). */
    memset(s->current, 0, s->field_count * sizeof *s->current);
    memset(s->current_framing, 0, sizeof s->current_framing);
    return valid;
}

/* ---- reading ---------------------------------------------------------------- */

bool bitsift_stats_type(const bitsift_stats *st, int schema, unsigned type,
                        bitsift_type_stats *out)
{
    const struct stats_schema *s = stats_schema_at(st, schema);
    if (!s || type > s->type_count)
        return false;
    const struct stats_type *t = &s->types[type];
    memset(out, 0, sizeof *out);
    out->packets = t->packets;
    out->bits = t->bits;
    memcpy(out->framing, t->framing, sizeof out->framing);
    out->field_ids = t->ids;
    out->field_count = t->id_count;
    out->errors = s->type_errors[type];
    for (int k = 0; k < BITSIFT_STATS_PLACES; k++)
        out->place_errors[k] = s->place_errors[(size_t)type * BITSIFT_STATS_PLACES + k];
    return true;
}

bool bitsift_stats_field(const bitsift_stats *st, int schema, unsigned id,
                         bitsift_field_stats *out)
{
    const struct stats_schema *s = stats_schema_at(st, schema);
    bitsift_field_info info;
    if (!s || id >= s->field_count || !bitsift_schema_field_info(s->schema, id, &info))
        return false;
    memset(out, 0, sizeof *out);
    out->bits = s->field_bits[id];
    out->observed = s->observed[id];
    out->errors = s->field_errors[id];
    out->fitted = fit_range(&info, &out->observed, &out->declared_bits, &out->fitted_bits);
    if (out->fitted && out->declared_bits > out->fitted_bits)
        out->saving_total = (uint64_t)(out->declared_bits - out->fitted_bits) * out->observed.count;
    return true;
}

uint64_t bitsift_stats_valid_bits(const bitsift_stats *st)
{
    return st->valid_bits;
}
