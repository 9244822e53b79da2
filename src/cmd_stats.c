/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cmd_stats.c -- `bitsift stats`: packets per type and per error kind, and
 * for each field of each packet type the mean, min and max bits it costs
 * per packet and its share of all the bits: the bandwidth profile that
 * tells a game programmer what to quantize next.
 *
 * The statistics are the library's (<bitsift/stats.h>): bits counted per
 * schema field id from the decoder's events, the values seen, errors by
 * type and place, and bandwidth over time, in memory fixed by the schemas
 * whatever the number of packets. Only valid packets are profiled; invalid
 * ones are counted by error kind. This file feeds it packets and prints
 * the bit profile; advisor.c prints the rest.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "print/advisor.h"
#include "cli.h"
#include "print/error_tally.h"
#include "print/packet_report.h"
#include "verdict.h"

struct stats_run {
    struct cli *cli;
    bitsift_stats *stats;
    bitsift_error_tally tally;
};

static int on_packet(void *ctx, const struct input_packet *p)
{
    struct stats_run *r = ctx;
    struct cli *c = r->cli;
    struct verdict verdict;
    if (c->display && !verdict_take(c, p->data, p->size, &verdict))
        return 0; /* not selected by -Y: not profiled */
    int index = c->display ? verdict.schema_index : cli_pick_schema(c, p->data, p->size);
    if (index < 0) {
        bitsift_result none;
        report_no_protocol(&none);
        bitsift_error_tally_invalid(&r->tally, BITSIFT_E_PROTOCOL);
        bitsift_stats_add_failure(r->stats, -1, &none);
        if (p->from_capture) /* a packet file has no time */
            bitsift_stats_add_time(r->stats, -1, -1, p->sec, p->size);
        return c->count && r->tally.packets >= c->count;
    }
    bitsift_result res;
    unsigned strict = c->strict ? BITSIFT_DECODE_STRICT : 0;
    /* The verdict first (the fast path): only a valid packet is profiled,
     * and only its values may count among the values seen. */
    if (c->display)
        res = verdict.res;
    else
        bitsift_decode(c->schemas[index], p->data, p->size, strict, NULL, &res);
    if (p->from_capture)
        bitsift_stats_add_time(r->stats, index, res.packet_type, p->sec, p->size);
    if (res.status != BITSIFT_OK) {
        bitsift_error_tally_invalid(&r->tally, res.status);
        bitsift_stats_add_failure(r->stats, index, &res);
        return c->count && r->tally.packets >= c->count;
    }
    if (bitsift_stats_add_packet(r->stats, index, p->data, p->size, strict, &res))
        bitsift_error_tally_valid(&r->tally);
    else
        bitsift_error_tally_invalid(&r->tally, res.status);
    return c->count && r->tally.packets >= c->count;
}

static double mean(uint64_t total, uint64_t n)
{
    return n ? (double)total / (double)n : 0.0;
}

static double share(const struct stats_run *r, uint64_t total)
{
    uint64_t all_bits = bitsift_stats_valid_bits(r->stats);
    return all_bits ? 100.0 * (double)total / (double)all_bits : 0.0;
}

static void text_row(const struct stats_run *r, const bitsift_bits_summary *f, uint64_t packets,
                     unsigned depth, const char *label)
{
    printf("  %10.1f %8llu %8llu %6.1f%%  %*s%s\n", mean(f->total, packets),
           (unsigned long long)f->min, (unsigned long long)f->max, share(r, f->total),
           (int)(2 * (depth > 0 ? depth - 1 : 0)), "", label);
}

static void print_text(const struct stats_run *r)
{
    struct cli *c = r->cli;
    struct out o;
    out_init(&o, stdout);
    error_tally_text_counts(&o, &r->tally);
    out_str(&o, "; ");
    out_u64(&o, bitsift_stats_valid_bits(r->stats));
    out_str(&o, " bits in valid packets\n");
    if (r->tally.invalid) {
        out_str(&o, "errors:");
        error_tally_text_kinds(&o, &r->tally, " ", " ", "");
        out_char(&o, '\n');
    }
    out_finish(&o); /* flushed before the rows printf writes after it */
    for (size_t i = 0; i < c->schema_count; i++) {
        const bitsift_schema *schema = c->schemas[i];
        for (unsigned t = 0; t < bitsift_schema_packet_count(schema); t++) {
            bitsift_type_stats type_stats, *ts = &type_stats;
            if (!bitsift_stats_type(r->stats, (int)i, t, ts) || !ts->packets)
                continue;
            struct out label;
            out_init_memory(&label);
            report_text_protocol(&label, schema);
            out_char(&label, '\0');
            printf("\n%s %s: %llu packet%s, mean %.1f bits (min %llu, max %llu), %.1f%% of all "
                   "bits\n",
                   label.buf ? label.buf : bitsift_schema_name(schema),
                   bitsift_schema_packet_name(schema, t),
                   (unsigned long long)ts->packets, ts->packets == 1 ? "" : "s",
                   mean(ts->bits.total, ts->packets),
                   (unsigned long long)ts->bits.min, (unsigned long long)ts->bits.max,
                   share(r, ts->bits.total));
            out_finish(&label);
            printf("  %10s %8s %8s %7s  %s\n", "mean bits", "min", "max", "share", "field");
            for (int k = 0; k < BITSIFT_STATS_FRAMING_FIELDS; k++)
                if (ts->framing[k].max)
                    text_row(r, &ts->framing[k], ts->packets, 1,
                             bitsift_stats_place_name((bitsift_stats_place)k));
            for (size_t j = 0; j < ts->field_count; j++) {
                bitsift_field_info info;
                bitsift_field_stats fs;
                if (!bitsift_schema_field_info(schema, ts->field_ids[j], &info) ||
                    !bitsift_stats_field(r->stats, (int)i, ts->field_ids[j], &fs))
                    continue;
                if (info.depth == 0 || (info.type == BITSIFT_FIELD_ALIGN && fs.bits.max == 0))
                    continue;
                text_row(r, &fs.bits, ts->packets, info.depth, info.path);
            }
            fflush(stdout);
            struct out q;
            out_init(&q, stdout);
            advisor_text_type(r->stats, &q, (int)i, t, ts->packets);
            out_finish(&q);
        }
    }
    struct out tail;
    out_init(&tail, stdout);
    advisor_text_errors(r->stats, &tail);
    advisor_text_bandwidth(r->stats, &tail);
    out_finish(&tail);
}

static void json_field(struct out *o, const struct stats_run *r, const bitsift_bits_summary *f,
                       uint64_t packets, const char *path, const char *type)
{
    char number[48];
    out_str(o, "{\"field\":");
    out_json_string(o, path, strlen(path));
    out_str(o, ",\"type\":\"");
    out_str(o, type);
    out_str(o, "\",\"mean\":");
    out_bytes(o, number, format_float64(number, mean(f->total, packets)));
    out_str(o, ",\"min\":");
    out_u64(o, f->min);
    out_str(o, ",\"max\":");
    out_u64(o, f->max);
    out_str(o, ",\"total\":");
    out_u64(o, f->total);
    out_str(o, ",\"share\":");
    out_bytes(o, number, format_float64(number, share(r, f->total) / 100.0));
}

static int print_json(const struct stats_run *r)
{
    struct cli *c = r->cli;
    struct out o;
    char number[48];
    out_init(&o, stdout);
    out_char(&o, '{');
    error_tally_json_counts(&o, &r->tally);
    out_str(&o, ",\"bits\":");
    out_u64(&o, bitsift_stats_valid_bits(r->stats));
    out_char(&o, ',');
    error_tally_json_kinds(&o, &r->tally);
    out_str(&o, ",\"types\":[");
    const char *sep = "";
    for (size_t i = 0; i < c->schema_count; i++) {
        const bitsift_schema *schema = c->schemas[i];
        for (unsigned t = 0; t < bitsift_schema_packet_count(schema); t++) {
            bitsift_type_stats type_stats, *ts = &type_stats;
            if (!bitsift_stats_type(r->stats, (int)i, t, ts) || !ts->packets)
                continue;
            const char *type = bitsift_schema_packet_name(schema, t);
            out_str(&o, sep);
            sep = ",";
            out_char(&o, '{');
            report_json_protocol_id(&o, schema);
            out_str(&o, ",\"type\":");
            out_json_string(&o, type, strlen(type));
            out_str(&o, ",\"packets\":");
            out_u64(&o, ts->packets);
            out_str(&o, ",\"bits\":{\"mean\":");
            out_bytes(&o, number, format_float64(number, mean(ts->bits.total, ts->packets)));
            out_str(&o, ",\"min\":");
            out_u64(&o, ts->bits.min);
            out_str(&o, ",\"max\":");
            out_u64(&o, ts->bits.max);
            out_str(&o, ",\"total\":");
            out_u64(&o, ts->bits.total);
            out_str(&o, "},\"fields\":[");
            const char *fsep = "";
            for (int k = 0; k < BITSIFT_STATS_FRAMING_FIELDS; k++) {
                if (!ts->framing[k].max)
                    continue;
                out_str(&o, fsep);
                fsep = ",";
                json_field(&o, r, &ts->framing[k], ts->packets,
                           bitsift_stats_place_name((bitsift_stats_place)k), "framing");
                out_char(&o, '}');
            }
            for (size_t j = 0; j < ts->field_count; j++) {
                bitsift_field_info info;
                bitsift_field_stats fs;
                if (!bitsift_schema_field_info(schema, ts->field_ids[j], &info) ||
                    !bitsift_stats_field(r->stats, (int)i, ts->field_ids[j], &fs) ||
                    info.depth == 0)
                    continue;
                out_str(&o, fsep);
                fsep = ",";
                json_field(&o, r, &fs.bits, ts->packets, info.path,
                           bitsift_field_type_name(info.type));
                advisor_json_field(r->stats, &o, (int)i, ts->field_ids[j], ts->packets);
                out_char(&o, '}');
            }
            out_str(&o, "]}");
        }
    }
    out_str(&o, "],");
    advisor_json_errors(r->stats, &o);
    out_char(&o, ',');
    advisor_json_bandwidth(r->stats, &o);
    out_str(&o, "}\n");
    return out_finish(&o);
}

int cmd_stats(struct cli *c)
{
    if (cli_load_schemas(c) != 0)
        return EXIT_TROUBLE;
    struct stats_run r;
    memset(&r, 0, sizeof r);
    r.cli = c;
    r.stats = bitsift_stats_create((const bitsift_schema *const *)c->schemas, c->schema_count);
    if (!r.stats) {
        cli_error("out of memory");
        return EXIT_TROUBLE;
    }
    struct input_options options;
    cli_input_options(c, &options);
    struct input_handler h = {
        .ctx = &r, .packet = on_packet, .problem = cli_report_problem, .problem_ctx = c};
    struct input_counts counts = {0};
    input_run(c->inputs, c->input_count, &options, &h, &counts);
    int failed = 0;
    if (c->format == FORMAT_JSON)
        failed = print_json(&r) != 0;
    else
        print_text(&r);
    bitsift_stats_free(r.stats);
    cli_report_counts(c, &counts);
    if (failed)
        return EXIT_TROUBLE;
    return cli_had_trouble(c, &counts) ? EXIT_TROUBLE : EXIT_VALID;
}
