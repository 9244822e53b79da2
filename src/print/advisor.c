/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * advisor.c -- how `bitsift stats` prints what the library's statistics
 * (<bitsift/stats.h>) hold beyond the bit profile: the values seen against
 * the declared ranges and what a fitted range would save, errors by packet
 * type and field, and the bandwidth per packet type over time (see
 * advisor.h).
 */
#include <stdio.h>
#include <string.h>

#include "print/advisor.h"
#include "print/float_format.h"

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

static void real_text(char *buf, const bitsift_observed *o, double d)
{
    buf[o->float32 ? format_float32(buf, (float)d) : format_float64(buf, d)] = '\0';
}

static void observed_text(char *buf, size_t size, const bitsift_observed *o)
{
    switch (o->cls) {
    case BITSIFT_OBSERVED_SIGNED:
        snprintf(buf, size, "%lld..%lld", (long long)o->imin, (long long)o->imax);
        break;
    case BITSIFT_OBSERVED_UNSIGNED:
        snprintf(buf, size, "%llu..%llu", (unsigned long long)o->umin,
                 (unsigned long long)o->umax);
        break;
    case BITSIFT_OBSERVED_REAL:
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

void advisor_text_type(const bitsift_stats *st, struct out *o, int schema, unsigned type,
                       uint64_t packets)
{
    const bitsift_schema *s = bitsift_stats_schema(st, schema);
    if (!s || !packets)
        return;
    unsigned field_count = bitsift_schema_field_count(s);
    int header = 0;
    for (unsigned id = 0; id < field_count; id++) {
        bitsift_field_info info;
        bitsift_field_stats fs;
        const bitsift_observed *ob = &fs.observed;
        if (!bitsift_schema_field_info(s, id, &info) || !bitsift_stats_field(st, schema, id, &fs) ||
            info.packet_type != type || !ob->count || info.type == BITSIFT_FIELD_BOOL ||
            info.type == BITSIFT_FIELD_CHECK)
            continue;
        if (!header) {
            out_printf(o, "  %-28s %-24s %-24s %4s %6s %12s %10s\n", "values seen", "observed",
                       "declared", "bits", "fitted", "saves/packet", "in capture");
            header = 1;
        }
        char seen[192], declared[192];
        observed_text(seen, sizeof seen, ob);
        declared_text(declared, sizeof declared, &info);
        if (fs.fitted) {
            out_printf(o, "  %-28s %-24s %-24s %4u %6u %12.1f %10llu\n", info.path, seen,
                       declared, fs.declared_bits, fs.fitted_bits,
                       (double)fs.saving_total / (double)packets,
                       (unsigned long long)fs.saving_total);
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

void advisor_json_field(const bitsift_stats *st, struct out *o, int schema, unsigned id,
                        uint64_t packets)
{
    const bitsift_schema *s = bitsift_stats_schema(st, schema);
    bitsift_field_info info;
    bitsift_field_stats fs;
    if (!s || !bitsift_stats_field(st, schema, id, &fs) || !bitsift_schema_field_info(s, id, &info))
        return;
    const bitsift_observed *ob = &fs.observed;
    if (ob->count && ob->cls != BITSIFT_OBSERVED_NONE) {
        out_str(o, ",\"observed\":{\"count\":");
        out_u64(o, ob->count);
        if (ob->cls == BITSIFT_OBSERVED_SIGNED) {
            out_str(o, ",\"min\":");
            out_i64(o, ob->imin);
            out_str(o, ",\"max\":");
            out_i64(o, ob->imax);
        } else if (ob->cls == BITSIFT_OBSERVED_UNSIGNED) {
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
        if (ob->cls == BITSIFT_OBSERVED_REAL) {
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
    if (packets && fs.fitted) {
        out_str(o, ",\"fitted\":{\"bits\":");
        out_u64(o, fs.fitted_bits);
        out_str(o, ",\"saving_per_packet\":");
        json_double(o, (double)fs.saving_total / (double)packets);
        out_str(o, ",\"saving_total\":");
        out_u64(o, fs.saving_total);
        out_char(o, '}');
    }
}

static int any_count(const uint64_t *k)
{
    for (unsigned i = 0; i < BITSIFT_ERROR_COUNT; i++)
        if (k[i])
            return 1;
    return 0;
}

static void kinds_text(struct out *o, const uint64_t *k)
{
    for (unsigned i = 0; i < BITSIFT_ERROR_COUNT; i++)
        if (k[i])
            out_printf(o, " %s %llu", bitsift_error_name((bitsift_error)i), (unsigned long long)k[i]);
}

static void kinds_json(struct out *o, const uint64_t *k)
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

static const char *type_name(const bitsift_schema *s, unsigned type)
{
    return type < bitsift_schema_packet_count(s) ? bitsift_schema_packet_name(s, type)
                                                 : "(type not read)";
}

void advisor_text_errors(const bitsift_stats *st, struct out *o)
{
    int header = 0;
    for (size_t i = 0; i < bitsift_stats_schema_count(st); i++) {
        const bitsift_schema *s = bitsift_stats_schema(st, (int)i);
        unsigned type_count = bitsift_schema_packet_count(s);
        unsigned field_count = bitsift_schema_field_count(s);
        for (unsigned t = 0; t <= type_count; t++) {
            bitsift_type_stats ts;
            if (!bitsift_stats_type(st, (int)i, t, &ts) || !any_count(ts.errors))
                continue;
            if (!header)
                out_str(o, "\nerrors by packet type and field:\n");
            header = 1;
            out_printf(o, "  %s %s:", bitsift_schema_name(s), type_name(s, t));
            kinds_text(o, ts.errors);
            out_char(o, '\n');
            for (int k = 0; k < BITSIFT_STATS_PLACES; k++) {
                if (any_count(ts.place_errors[k])) {
                    out_printf(o, "    %s:", bitsift_stats_place_name((bitsift_stats_place)k));
                    kinds_text(o, ts.place_errors[k]);
                    out_char(o, '\n');
                }
            }
            for (unsigned id = 0; t < type_count && id < field_count; id++) {
                bitsift_field_info info;
                bitsift_field_stats fs;
                if (!bitsift_stats_field(st, (int)i, id, &fs) || !any_count(fs.errors) ||
                    !bitsift_schema_field_info(s, id, &info) || info.packet_type != t)
                    continue;
                out_printf(o, "    %s:", info.path);
                kinds_text(o, fs.errors);
                out_char(o, '\n');
            }
        }
    }
    const uint64_t *no_protocol = bitsift_stats_no_protocol_errors(st);
    if (any_count(no_protocol)) {
        if (!header)
            out_str(o, "\nerrors by packet type and field:\n");
        out_str(o, "  (no protocol):");
        kinds_text(o, no_protocol);
        out_char(o, '\n');
    }
}

void advisor_json_errors(const bitsift_stats *st, struct out *o)
{
    out_str(o, "\"errors_by_type\":[");
    const char *sep = "";
    for (size_t i = 0; i < bitsift_stats_schema_count(st); i++) {
        const bitsift_schema *s = bitsift_stats_schema(st, (int)i);
        unsigned type_count = bitsift_schema_packet_count(s);
        unsigned field_count = bitsift_schema_field_count(s);
        for (unsigned t = 0; t <= type_count; t++) {
            bitsift_type_stats ts;
            if (!bitsift_stats_type(st, (int)i, t, &ts) || !any_count(ts.errors))
                continue;
            out_str(o, sep);
            sep = ",";
            const char *name = bitsift_schema_name(s);
            out_str(o, "{\"protocol\":");
            out_json_string(o, name, strlen(name));
            if (t < type_count) {
                name = bitsift_schema_packet_name(s, t);
                out_str(o, ",\"type\":");
                out_json_string(o, name, strlen(name));
            } else {
                out_str(o, ",\"type\":null");
            }
            out_str(o, ",\"errors\":");
            kinds_json(o, ts.errors);
            out_str(o, ",\"fields\":[");
            const char *fsep = "";
            for (int k = 0; k < BITSIFT_STATS_PLACES; k++) {
                if (!any_count(ts.place_errors[k]))
                    continue;
                out_printf(o, "%s{\"field\":\"%s\",\"errors\":", fsep,
                           bitsift_stats_place_name((bitsift_stats_place)k));
                kinds_json(o, ts.place_errors[k]);
                out_char(o, '}');
                fsep = ",";
            }
            for (unsigned id = 0; t < type_count && id < field_count; id++) {
                bitsift_field_info info;
                bitsift_field_stats fs;
                if (!bitsift_stats_field(st, (int)i, id, &fs) || !any_count(fs.errors) ||
                    !bitsift_schema_field_info(s, id, &info) || info.packet_type != t)
                    continue;
                out_str(o, fsep);
                fsep = ",";
                out_str(o, "{\"field\":");
                out_json_string(o, info.path, strlen(info.path));
                out_str(o, ",\"errors\":");
                kinds_json(o, fs.errors);
                out_char(o, '}');
            }
            out_str(o, "]}");
        }
    }
    const uint64_t *no_protocol = bitsift_stats_no_protocol_errors(st);
    if (any_count(no_protocol)) {
        out_str(o, sep);
        out_str(o, "{\"protocol\":null,\"type\":null,\"errors\":");
        kinds_json(o, no_protocol);
        out_str(o, ",\"fields\":[]}");
    }
    out_char(o, ']');
}

static void series_label(const bitsift_stats *st, const bitsift_bandwidth_series *s, char *buf,
                         size_t size)
{
    if (s->schema == -2) {
        snprintf(buf, size, "(other types)");
    } else if (s->schema < 0) {
        snprintf(buf, size, "(no protocol)");
    } else {
        const bitsift_schema *schema = bitsift_stats_schema(st, s->schema);
        snprintf(buf, size, "%s %s", bitsift_schema_name(schema),
                 type_name(schema, (unsigned)(s->type >= 0
                                                  ? s->type
                                                  : (int)bitsift_schema_packet_count(schema))));
    }
}

void advisor_text_bandwidth(const bitsift_stats *st, struct out *o)
{
    bitsift_bandwidth bw;
    bitsift_stats_bandwidth(st, &bw);
    if (!bw.has_start || !bw.series_count)
        return;
    char time[64];
    format_time_rfc3339(time, bw.start, 0);
    /* In doubles: 120 buckets of a width that spans the whole int64 range
     * of seconds overflow 64 bits. */
    double span = (double)bw.buckets * (double)bw.bucket_seconds;
    out_printf(o, "\nbandwidth over %.0f s from %s (buckets of %llu s):\n", span, time,
               (unsigned long long)bw.bucket_seconds);
    out_printf(o, "  %-32s %12s %14s %10s\n", "packet type", "mean B/s", "peak B/s", "peak at");
    for (size_t k = 0; k < bw.series_count; k++) {
        bitsift_bandwidth_series s;
        if (!bitsift_stats_series(st, k, &s))
            continue;
        uint64_t total = 0, peak = 0, at = 0;
        for (uint64_t b = 0; b < bw.buckets; b++) {
            total += s.bytes[b];
            if (s.bytes[b] > peak)
                peak = s.bytes[b], at = b;
        }
        char label[160];
        series_label(st, &s, label, sizeof label);
        out_printf(o, "  %-32s %12.1f %14.1f %8.0f s\n", label, (double)total / span,
                   (double)peak / (double)bw.bucket_seconds, (double)at * (double)bw.bucket_seconds);
    }
}

void advisor_json_bandwidth(const bitsift_stats *st, struct out *o)
{
    bitsift_bandwidth bw;
    bitsift_stats_bandwidth(st, &bw);
    out_str(o, "\"bandwidth\":{");
    if (bw.has_start) {
        char time[64];
        out_str(o, "\"start\":\"");
        out_bytes(o, time, format_time_rfc3339(time, bw.start, 0));
        out_str(o, "\",");
    }
    out_str(o, "\"bucket_seconds\":");
    out_u64(o, bw.bucket_seconds);
    out_str(o, ",\"buckets\":");
    out_u64(o, bw.buckets);
    out_str(o, ",\"types\":[");
    for (size_t k = 0; k < bw.series_count; k++) {
        bitsift_bandwidth_series s;
        if (!bitsift_stats_series(st, k, &s))
            continue;
        if (k)
            out_char(o, ',');
        out_char(o, '{');
        if (s.schema >= 0) {
            const bitsift_schema *schema = bitsift_stats_schema(st, s.schema);
            const char *name = bitsift_schema_name(schema);
            out_str(o, "\"protocol\":");
            out_json_string(o, name, strlen(name));
            if (s.type >= 0 && (unsigned)s.type < bitsift_schema_packet_count(schema)) {
                name = bitsift_schema_packet_name(schema, (unsigned)s.type);
                out_str(o, ",\"type\":");
                out_json_string(o, name, strlen(name));
            } else {
                out_str(o, ",\"type\":null");
            }
        } else {
            out_str(o, s.schema == -2 ? "\"protocol\":null,\"type\":null,\"other\":true"
                                      : "\"protocol\":null,\"type\":null");
        }
        out_str(o, ",\"packets\":[");
        for (uint64_t b = 0; b < bw.buckets; b++) {
            if (b)
                out_char(o, ',');
            out_u64(o, s.packets[b]);
        }
        out_str(o, "],\"bytes\":[");
        for (uint64_t b = 0; b < bw.buckets; b++) {
            if (b)
                out_char(o, ',');
            out_u64(o, s.bytes[b]);
        }
        out_str(o, "]}");
    }
    out_str(o, "]}");
}
