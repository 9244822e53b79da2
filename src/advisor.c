/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * advisor.c -- the quantization advisor, errors by type and field, and
 * bandwidth over time for `bitsift stats` (see advisor.h).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "advisor.h"
#include "float_format.h"

enum value_class { VALUE_NONE, VALUE_SIGNED, VALUE_UNSIGNED, VALUE_REAL };

struct observed {
    uint64_t count; /* values seen (array elements count one each) */
    enum value_class cls;
    int64_t imin, imax;
    uint64_t umin, umax;
    double fmin, fmax; /* finite values only */
    uint64_t non_finite;
    int float32; /* the values are floats: printed as the shortest float32 */
};

/* Failures with no schema field: the framing, or the packet as a whole. */
static const char *const framing_names[] = {"prefix", "crc", "type", "end_check", "packet"};
#define FRAMING_SLOTS 5
typedef uint64_t kind_counts[BITSIFT_ERROR_COUNT];

struct schema_advice {
    const bitsift_schema *s;
    unsigned field_count, type_count;
    struct observed *obs;       /* per field id */
    kind_counts *field_errors;  /* per field id */
    kind_counts *framing_errors; /* per (type + 1 for "type not read") x FRAMING_SLOTS */
    kind_counts *type_errors;   /* per type, then "type not read" */
    int *series;                /* per type + 1: index into the series, -1 none yet */
};

struct series {
    int schema, type; /* schema -1: no protocol; type == type_count: not read */
    uint64_t packets[ADVISOR_MAX_BUCKETS], bytes[ADVISOR_MAX_BUCKETS];
};

struct advisor {
    struct schema_advice *sa;
    size_t count;
    kind_counts no_protocol;
    struct series *series[ADVISOR_MAX_SERIES + 1]; /* the last: every other series */
    size_t series_count;
    int no_protocol_series;
    int have_start;
    int64_t start;    /* seconds of the first packet with a time */
    uint64_t width;   /* seconds per bucket */
    uint64_t buckets; /* buckets in use */
};

struct advisor *advisor_create(bitsift_schema *const *schemas, size_t count)
{
    struct advisor *a = calloc(1, sizeof *a);
    if (!a)
        return NULL;
    a->width = 1;
    a->no_protocol_series = -1;
    a->sa = calloc(count ? count : 1, sizeof *a->sa);
    if (!a->sa) {
        free(a);
        return NULL;
    }
    a->count = count;
    for (size_t i = 0; i < count; i++) {
        struct schema_advice *sa = &a->sa[i];
        sa->s = schemas[i];
        sa->field_count = bitsift_schema_field_count(sa->s);
        sa->type_count = bitsift_schema_packet_count(sa->s);
        sa->obs = calloc(sa->field_count + 1, sizeof *sa->obs);
        sa->field_errors = calloc(sa->field_count + 1, sizeof *sa->field_errors);
        sa->framing_errors = calloc((size_t)(sa->type_count + 1) * FRAMING_SLOTS,
                                    sizeof *sa->framing_errors);
        sa->type_errors = calloc(sa->type_count + 1, sizeof *sa->type_errors);
        sa->series = malloc((sa->type_count + 1) * sizeof *sa->series);
        if (!sa->obs || !sa->field_errors || !sa->framing_errors || !sa->type_errors ||
            !sa->series) {
            advisor_free(a);
            return NULL;
        }
        for (unsigned t = 0; t <= sa->type_count; t++)
            sa->series[t] = -1;
    }
    return a;
}

void advisor_free(struct advisor *a)
{
    if (!a)
        return;
    for (size_t i = 0; i < a->count; i++) {
        free(a->sa[i].obs);
        free(a->sa[i].field_errors);
        free(a->sa[i].framing_errors);
        free(a->sa[i].type_errors);
        free(a->sa[i].series);
    }
    free(a->sa);
    for (size_t i = 0; i <= ADVISOR_MAX_SERIES; i++)
        free(a->series[i]);
    free(a);
}

/* ---- values ------------------------------------------------------------ */

void advisor_value(struct advisor *a, int schema, const bitsift_event *ev)
{
    if (schema < 0 || (size_t)schema >= a->count || ev->id < 0 ||
        (ev->flags & (BITSIFT_EVENT_ABSENT | BITSIFT_EVENT_ARRAY_META | BITSIFT_EVENT_FRAMING)))
        return;
    struct schema_advice *sa = &a->sa[schema];
    if ((unsigned)ev->id >= sa->field_count)
        return;
    struct observed *o = &sa->obs[ev->id];
    const bitsift_value *v = &ev->value;
    switch (v->kind) {
    case BITSIFT_VALUE_INT:
    case BITSIFT_VALUE_ENUM:
        if (!o->count || v->i < o->imin)
            o->imin = v->i;
        if (!o->count || v->i > o->imax)
            o->imax = v->i;
        o->cls = VALUE_SIGNED;
        break;
    case BITSIFT_VALUE_UINT:
    case BITSIFT_VALUE_BOOL: {
        uint64_t u = v->kind == BITSIFT_VALUE_BOOL ? v->b : v->u;
        if (!o->count || u < o->umin)
            o->umin = u;
        if (!o->count || u > o->umax)
            o->umax = u;
        o->cls = VALUE_UNSIGNED;
        break;
    }
    case BITSIFT_VALUE_FLOAT:
    case BITSIFT_VALUE_DOUBLE: {
        double d = v->kind == BITSIFT_VALUE_FLOAT ? v->f : v->d;
        o->cls = VALUE_REAL;
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

static unsigned bits_unsigned(uint64_t lo, uint64_t hi)
{
    return hi == lo ? 0 : 64u - (unsigned)__builtin_clzll(hi - lo);
}

/* The bits the field costs as declared and fitted to what was seen; 0
 * when it is not a field a range can be fitted to. */
static int fitted_bits(const bitsift_field_info *info, const struct observed *o,
                       unsigned *declared, unsigned *fitted)
{
    if (!o->count)
        return 0;
    switch (info->type) {
    case BITSIFT_FIELD_INT:
    case BITSIFT_FIELD_ENUM:
        *declared = bitsift_bits_required(info->min, info->max);
        *fitted = bits_unsigned((uint64_t)o->imin, (uint64_t)o->imax);
        return 1;
    case BITSIFT_FIELD_BITS:
    case BITSIFT_FIELD_UINT8:
    case BITSIFT_FIELD_UINT16:
    case BITSIFT_FIELD_UINT32:
    case BITSIFT_FIELD_UINT64:
        if (o->cls != VALUE_UNSIGNED)
            return 0;
        *declared = (unsigned)info->max_bits;
        *fitted = bits_unsigned(o->umin, o->umax);
        return 1;
    case BITSIFT_FIELD_COMPRESSED_FLOAT: {
        uint32_t steps;
        unsigned bits;
        if (o->non_finite == o->count ||
            !bitsift_compressed_float_steps((float)o->fmin, (float)o->fmax, info->resolution,
                                            &steps, &bits))
            return 0;
        *declared = info->width;
        *fitted = bits;
        return 1;
    }
    default:
        return 0;
    }
}

/* ---- errors -------------------------------------------------------------- */

static int framing_slot(const char *path)
{
    for (int i = 0; i < FRAMING_SLOTS; i++)
        if (strcmp(path, framing_names[i]) == 0)
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

static int field_of_path(const struct schema_advice *sa, unsigned type, const char *path)
{
    char want[BITSIFT_PATH_MAX];
    strip_indices(path, want, sizeof want);
    for (unsigned id = 0; id < sa->field_count; id++) {
        bitsift_field_info info;
        if (bitsift_schema_field_info(sa->s, id, &info) && info.packet_type == type &&
            strcmp(info.path, want) == 0)
            return (int)id;
    }
    return -1;
}

void advisor_failure(struct advisor *a, int schema, const bitsift_result *res)
{
    unsigned kind = (unsigned)res->failure.kind < BITSIFT_ERROR_COUNT ? res->failure.kind : 0;
    if (schema < 0 || (size_t)schema >= a->count) {
        a->no_protocol[kind]++;
        return;
    }
    struct schema_advice *sa = &a->sa[schema];
    unsigned type = res->packet_type >= 0 && (unsigned)res->packet_type < sa->type_count
                        ? (unsigned)res->packet_type
                        : sa->type_count;
    sa->type_errors[type][kind]++;
    const char *path = res->path[0] ? res->path
                       : res->failure.field && res->failure.field[0] ? res->failure.field
                                                                      : "packet";
    int id = type < sa->type_count ? field_of_path(sa, type, path) : -1;
    if (id >= 0) {
        sa->field_errors[id][kind]++;
        return;
    }
    int slot = framing_slot(path);
    sa->framing_errors[(size_t)type * FRAMING_SLOTS + (slot >= 0 ? slot : FRAMING_SLOTS - 1)][kind]++;
}

/* ---- bandwidth ----------------------------------------------------------- */

static struct series *series_for(struct advisor *a, int schema, int type)
{
    int *slot;
    if (schema < 0 || (size_t)schema >= a->count) {
        slot = &a->no_protocol_series;
    } else {
        struct schema_advice *sa = &a->sa[schema];
        unsigned t = type >= 0 && (unsigned)type < sa->type_count ? (unsigned)type : sa->type_count;
        slot = &sa->series[t];
    }
    if (*slot >= 0)
        return a->series[*slot];
    size_t index = a->series_count < ADVISOR_MAX_SERIES ? a->series_count : ADVISOR_MAX_SERIES;
    if (!a->series[index]) {
        struct series *s = calloc(1, sizeof *s);
        if (!s)
            return NULL;
        s->schema = index == ADVISOR_MAX_SERIES ? -2 : schema; /* -2: the others together */
        s->type = type;
        a->series[index] = s;
        a->series_count = index + 1;
    }
    *slot = (int)index;
    return a->series[index];
}

/* Halve the resolution: bucket i takes buckets 2i and 2i+1. */
static void widen(struct advisor *a)
{
    for (size_t k = 0; k < a->series_count; k++) {
        struct series *s = a->series[k];
        for (size_t i = 0; i < ADVISOR_MAX_BUCKETS / 2; i++) {
            s->packets[i] = s->packets[2 * i] + s->packets[2 * i + 1];
            s->bytes[i] = s->bytes[2 * i] + s->bytes[2 * i + 1];
        }
        memset(s->packets + ADVISOR_MAX_BUCKETS / 2, 0, sizeof s->packets / 2);
        memset(s->bytes + ADVISOR_MAX_BUCKETS / 2, 0, sizeof s->bytes / 2);
    }
    a->width *= 2;
    a->buckets = (a->buckets + 1) / 2;
}

void advisor_packet(struct advisor *a, int schema, int type, const struct input_packet *p)
{
    if (!p->from_capture)
        return; /* a packet file has no time */
    if (!a->have_start) {
        a->start = p->sec;
        a->have_start = 1;
    }
    /* Packets before the first one's second count in the first bucket. */
    uint64_t offset = p->sec > a->start ? (uint64_t)p->sec - (uint64_t)a->start : 0;
    while (offset / a->width >= ADVISOR_MAX_BUCKETS)
        widen(a);
    uint64_t bucket = offset / a->width;
    struct series *s = series_for(a, schema, type);
    if (!s)
        return;
    s->packets[bucket]++;
    s->bytes[bucket] += p->size;
    if (bucket + 1 > a->buckets)
        a->buckets = bucket + 1;
}

/* ---- output ---------------------------------------------------------------- */

static void out_printf(struct out *o, const char *format, ...) __attribute__((format(printf, 2, 3)));

#include <stdarg.h>
static void out_printf(struct out *o, const char *format, ...)
{
    char text[512];
    va_list ap;
    va_start(ap, format);
    int n = vsnprintf(text, sizeof text, format, ap);
    va_end(ap);
    if (n > 0)
        out_bytes(o, text, (size_t)n < sizeof text ? (size_t)n : sizeof text - 1);
}

static void real_text(char *buf, const struct observed *o, double d)
{
    buf[o->float32 ? format_float32(buf, (float)d) : format_float64(buf, d)] = '\0';
}

static void observed_text(char *buf, size_t size, const struct observed *o)
{
    switch (o->cls) {
    case VALUE_SIGNED:
        snprintf(buf, size, "%lld..%lld", (long long)o->imin, (long long)o->imax);
        break;
    case VALUE_UNSIGNED:
        snprintf(buf, size, "%llu..%llu", (unsigned long long)o->umin,
                 (unsigned long long)o->umax);
        break;
    case VALUE_REAL:
        if (o->non_finite == o->count) {
            snprintf(buf, size, "(not finite)");
        } else {
            char lo[40], hi[40];
            real_text(lo, o, o->fmin);
            real_text(hi, o, o->fmax);
            snprintf(buf, size, "%s..%s%s", lo, hi, o->non_finite ? " +nan/inf" : "");
        }
        break;
    default:
        snprintf(buf, size, "-");
    }
}

static void declared_text(char *buf, size_t size, const bitsift_field_info *info)
{
    switch (info->type) {
    case BITSIFT_FIELD_INT:
    case BITSIFT_FIELD_ENUM:
        snprintf(buf, size, "%lld..%lld", (long long)info->min, (long long)info->max);
        break;
    case BITSIFT_FIELD_COMPRESSED_FLOAT: {
        char lo[40], hi[40], res[40];
        lo[format_float32(lo, info->fmin)] = '\0';
        hi[format_float32(hi, info->fmax)] = '\0';
        res[format_float32(res, info->resolution)] = '\0';
        snprintf(buf, size, "%s..%s by %s", lo, hi, res);
        break;
    }
    default:
        snprintf(buf, size, "%s", bitsift_field_type_name(info->type));
    }
}

void advisor_text_type(const struct advisor *a, struct out *o, int schema, unsigned type,
                       uint64_t packets)
{
    if (schema < 0 || (size_t)schema >= a->count || !packets)
        return;
    const struct schema_advice *sa = &a->sa[schema];
    int header = 0;
    for (unsigned id = 0; id < sa->field_count; id++) {
        bitsift_field_info info;
        const struct observed *ob = &sa->obs[id];
        if (!bitsift_schema_field_info(sa->s, id, &info) || info.packet_type != type ||
            !ob->count || info.type == BITSIFT_FIELD_BOOL || info.type == BITSIFT_FIELD_CHECK)
            continue;
        if (!header) {
            out_printf(o, "  %-28s %-24s %-24s %4s %6s %12s %10s\n", "values seen", "observed",
                       "declared", "bits", "fitted", "saves/packet", "in capture");
            header = 1;
        }
        char seen[192], declared[192];
        observed_text(seen, sizeof seen, ob);
        declared_text(declared, sizeof declared, &info);
        unsigned bits, fitted;
        if (fitted_bits(&info, ob, &bits, &fitted)) {
            uint64_t save = bits > fitted ? bits - fitted : 0;
            out_printf(o, "  %-28s %-24s %-24s %4u %6u %12.1f %10llu\n", info.path, seen,
                       declared, bits, fitted, (double)(save * ob->count) / (double)packets,
                       (unsigned long long)(save * ob->count));
        } else {
            out_printf(o, "  %-28s %-24s %-24s\n", info.path, seen, declared);
        }
    }
}

static void json_double(struct out *o, double d)
{
    char number[48];
    out_bytes(o, number, format_float64(number, d));
}

void advisor_json_field(const struct advisor *a, struct out *o, int schema, unsigned id,
                        uint64_t packets)
{
    if (schema < 0 || (size_t)schema >= a->count)
        return;
    const struct schema_advice *sa = &a->sa[schema];
    bitsift_field_info info;
    if (id >= sa->field_count || !bitsift_schema_field_info(sa->s, id, &info))
        return;
    const struct observed *ob = &sa->obs[id];
    if (ob->count && ob->cls != VALUE_NONE) {
        out_str(o, ",\"observed\":{\"count\":");
        out_u64(o, ob->count);
        if (ob->cls == VALUE_SIGNED) {
            out_str(o, ",\"min\":");
            out_i64(o, ob->imin);
            out_str(o, ",\"max\":");
            out_i64(o, ob->imax);
        } else if (ob->cls == VALUE_UNSIGNED) {
            out_str(o, ",\"min\":");
            out_u64(o, ob->umin);
            out_str(o, ",\"max\":");
            out_u64(o, ob->umax);
        } else if (ob->non_finite < ob->count) {
            char text[48];
            out_str(o, ",\"min\":");
            real_text(text, ob, ob->fmin);
            out_str(o, text);
            out_str(o, ",\"max\":");
            real_text(text, ob, ob->fmax);
            out_str(o, text);
        }
        if (ob->cls == VALUE_REAL) {
            out_str(o, ",\"non_finite\":");
            out_u64(o, ob->non_finite);
        }
        out_char(o, '}');
    }
    if (info.type == BITSIFT_FIELD_INT || info.type == BITSIFT_FIELD_ENUM) {
        out_str(o, ",\"declared\":{\"min\":");
        out_i64(o, info.min);
        out_str(o, ",\"max\":");
        out_i64(o, info.max);
        out_str(o, ",\"bits\":");
        out_u64(o, bitsift_bits_required(info.min, info.max));
        out_char(o, '}');
    } else if (info.type == BITSIFT_FIELD_COMPRESSED_FLOAT) {
        char text[48];
        out_str(o, ",\"declared\":{\"min\":");
        out_bytes(o, text, format_float32(text, info.fmin));
        out_str(o, ",\"max\":");
        out_bytes(o, text, format_float32(text, info.fmax));
        out_str(o, ",\"resolution\":");
        out_bytes(o, text, format_float32(text, info.resolution));
        out_str(o, ",\"bits\":");
        out_u64(o, info.width);
        out_char(o, '}');
    }
    unsigned bits, fitted;
    if (packets && fitted_bits(&info, ob, &bits, &fitted)) {
        uint64_t save = bits > fitted ? bits - fitted : 0;
        out_str(o, ",\"fitted\":{\"bits\":");
        out_u64(o, fitted);
        out_str(o, ",\"saving_per_packet\":");
        json_double(o, (double)(save * ob->count) / (double)packets);
        out_str(o, ",\"saving_total\":");
        out_u64(o, save * ob->count);
        out_char(o, '}');
    }
}

static int any_count(const kind_counts k)
{
    for (unsigned i = 0; i < BITSIFT_ERROR_COUNT; i++)
        if (k[i])
            return 1;
    return 0;
}

static void kinds_text(struct out *o, const kind_counts k)
{
    for (unsigned i = 0; i < BITSIFT_ERROR_COUNT; i++)
        if (k[i])
            out_printf(o, " %s %llu", bitsift_error_name((bitsift_error)i), (unsigned long long)k[i]);
}

static void kinds_json(struct out *o, const kind_counts k)
{
    out_char(o, '{');
    const char *sep = "";
    for (unsigned i = 0; i < BITSIFT_ERROR_COUNT; i++)
        if (k[i]) {
            out_printf(o, "%s\"%s\":%llu", sep, bitsift_error_name((bitsift_error)i),
                       (unsigned long long)k[i]);
            sep = ",";
        }
    out_char(o, '}');
}

static const char *type_name(const struct schema_advice *sa, unsigned type)
{
    return type < sa->type_count ? bitsift_schema_packet_name(sa->s, type) : "(type not read)";
}

void advisor_text_errors(const struct advisor *a, struct out *o)
{
    int header = 0;
    for (size_t i = 0; i < a->count; i++) {
        const struct schema_advice *sa = &a->sa[i];
        for (unsigned t = 0; t <= sa->type_count; t++) {
            if (!any_count(sa->type_errors[t]))
                continue;
            if (!header)
                out_str(o, "\nerrors by packet type and field:\n");
            header = 1;
            out_printf(o, "  %s %s:", bitsift_schema_name(sa->s), type_name(sa, t));
            kinds_text(o, sa->type_errors[t]);
            out_char(o, '\n');
            for (int k = 0; k < FRAMING_SLOTS; k++) {
                const uint64_t *counts = sa->framing_errors[(size_t)t * FRAMING_SLOTS + k];
                if (any_count(counts)) {
                    out_printf(o, "    %s:", framing_names[k]);
                    kinds_text(o, counts);
                    out_char(o, '\n');
                }
            }
            for (unsigned id = 0; t < sa->type_count && id < sa->field_count; id++) {
                bitsift_field_info info;
                if (!any_count(sa->field_errors[id]) ||
                    !bitsift_schema_field_info(sa->s, id, &info) || info.packet_type != t)
                    continue;
                out_printf(o, "    %s:", info.path);
                kinds_text(o, sa->field_errors[id]);
                out_char(o, '\n');
            }
        }
    }
    if (any_count(a->no_protocol)) {
        if (!header)
            out_str(o, "\nerrors by packet type and field:\n");
        out_str(o, "  (no protocol):");
        kinds_text(o, a->no_protocol);
        out_char(o, '\n');
    }
}

void advisor_json_errors(const struct advisor *a, struct out *o)
{
    out_str(o, "\"errors_by_type\":[");
    const char *sep = "";
    for (size_t i = 0; i < a->count; i++) {
        const struct schema_advice *sa = &a->sa[i];
        for (unsigned t = 0; t <= sa->type_count; t++) {
            if (!any_count(sa->type_errors[t]))
                continue;
            out_str(o, sep);
            sep = ",";
            const char *name = bitsift_schema_name(sa->s);
            out_str(o, "{\"protocol\":");
            out_json_string(o, name, strlen(name));
            if (t < sa->type_count) {
                name = bitsift_schema_packet_name(sa->s, t);
                out_str(o, ",\"type\":");
                out_json_string(o, name, strlen(name));
            } else {
                out_str(o, ",\"type\":null");
            }
            out_str(o, ",\"errors\":");
            kinds_json(o, sa->type_errors[t]);
            out_str(o, ",\"fields\":[");
            const char *fsep = "";
            for (int k = 0; k < FRAMING_SLOTS; k++) {
                const uint64_t *counts = sa->framing_errors[(size_t)t * FRAMING_SLOTS + k];
                if (!any_count(counts))
                    continue;
                out_printf(o, "%s{\"field\":\"%s\",\"errors\":", fsep, framing_names[k]);
                kinds_json(o, counts);
                out_char(o, '}');
                fsep = ",";
            }
            for (unsigned id = 0; t < sa->type_count && id < sa->field_count; id++) {
                bitsift_field_info info;
                if (!any_count(sa->field_errors[id]) ||
                    !bitsift_schema_field_info(sa->s, id, &info) || info.packet_type != t)
                    continue;
                out_str(o, fsep);
                fsep = ",";
                out_str(o, "{\"field\":");
                out_json_string(o, info.path, strlen(info.path));
                out_str(o, ",\"errors\":");
                kinds_json(o, sa->field_errors[id]);
                out_char(o, '}');
            }
            out_str(o, "]}");
        }
    }
    if (any_count(a->no_protocol)) {
        out_str(o, sep);
        out_str(o, "{\"protocol\":null,\"type\":null,\"errors\":");
        kinds_json(o, a->no_protocol);
        out_str(o, ",\"fields\":[]}");
    }
    out_char(o, ']');
}

static void series_label(const struct advisor *a, const struct series *s, char *buf, size_t size)
{
    if (s->schema == -2)
        snprintf(buf, size, "(other types)");
    else if (s->schema < 0)
        snprintf(buf, size, "(no protocol)");
    else
        snprintf(buf, size, "%s %s", bitsift_schema_name(a->sa[s->schema].s),
                 type_name(&a->sa[s->schema], (unsigned)(s->type >= 0 ? s->type
                                                         : (int)a->sa[s->schema].type_count)));
}

void advisor_text_bandwidth(const struct advisor *a, struct out *o)
{
    if (!a->have_start || !a->series_count)
        return;
    char time[64];
    format_time_rfc3339(time, a->start, 0);
    /* In doubles: 120 buckets of a width that spans the whole int64 range
     * of seconds overflow 64 bits. */
    double span = (double)a->buckets * (double)a->width;
    out_printf(o, "\nbandwidth over %.0f s from %s (buckets of %llu s):\n", span, time,
               (unsigned long long)a->width);
    out_printf(o, "  %-32s %12s %14s %10s\n", "packet type", "mean B/s", "peak B/s", "peak at");
    for (size_t k = 0; k < a->series_count; k++) {
        const struct series *s = a->series[k];
        uint64_t total = 0, peak = 0, at = 0;
        for (uint64_t b = 0; b < a->buckets; b++) {
            total += s->bytes[b];
            if (s->bytes[b] > peak)
                peak = s->bytes[b], at = b;
        }
        char label[160];
        series_label(a, s, label, sizeof label);
        out_printf(o, "  %-32s %12.1f %14.1f %8.0f s\n", label, (double)total / span,
                   (double)peak / (double)a->width, (double)at * (double)a->width);
    }
}

void advisor_json_bandwidth(const struct advisor *a, struct out *o)
{
    out_str(o, "\"bandwidth\":{");
    if (a->have_start) {
        char time[64];
        out_str(o, "\"start\":\"");
        out_bytes(o, time, format_time_rfc3339(time, a->start, 0));
        out_str(o, "\",");
    }
    out_str(o, "\"bucket_seconds\":");
    out_u64(o, a->width);
    out_str(o, ",\"buckets\":");
    out_u64(o, a->buckets);
    out_str(o, ",\"types\":[");
    for (size_t k = 0; k < a->series_count; k++) {
        const struct series *s = a->series[k];
        if (k)
            out_char(o, ',');
        out_char(o, '{');
        if (s->schema >= 0) {
            const struct schema_advice *sa = &a->sa[s->schema];
            const char *name = bitsift_schema_name(sa->s);
            out_str(o, "\"protocol\":");
            out_json_string(o, name, strlen(name));
            if (s->type >= 0 && (unsigned)s->type < sa->type_count) {
                name = bitsift_schema_packet_name(sa->s, (unsigned)s->type);
                out_str(o, ",\"type\":");
                out_json_string(o, name, strlen(name));
            } else {
                out_str(o, ",\"type\":null");
            }
        } else {
            out_str(o, s->schema == -2 ? "\"protocol\":null,\"type\":null,\"other\":true"
                                       : "\"protocol\":null,\"type\":null");
        }
        out_str(o, ",\"packets\":[");
        for (uint64_t b = 0; b < a->buckets; b++) {
            if (b)
                out_char(o, ',');
            out_u64(o, s->packets[b]);
        }
        out_str(o, "],\"bytes\":[");
        for (uint64_t b = 0; b < a->buckets; b++) {
            if (b)
                out_char(o, ',');
            out_u64(o, s->bytes[b]);
        }
        out_str(o, "]}");
    }
    out_str(o, "]}");
}
