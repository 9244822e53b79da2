/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cmd_stats.c -- `bitsift stats`: packets per type and per error kind, and
 * for each field of each packet type the mean, min and max bits it costs
 * per packet and its share of all the bits: the bandwidth profile that
 * tells a game programmer what to quantize next.
 *
 * Bits are counted from the decoder's visitor events by schema field id
 * (no path hashing): a field inside an array adds up over its elements, a
 * struct or array counts everything inside it. Only valid packets are
 * profiled; invalid ones are counted by error kind. Memory is a few
 * counters per schema field, whatever the number of packets.
 *
 * advisor.c adds the values seen against the declared ranges (and what a
 * fitted range would save), errors by packet type and field, and the
 * bandwidth per packet type over time.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "advisor.h"
#include "cli.h"
#include "error_tally.h"
#include "record.h"
#include "verdict.h"

/* Framing fields have no schema id; they get these slots after the fields. */
static const char *const framing_names[] = {"prefix", "crc", "type", "end_check"};
#define FRAMING_SLOTS 4

struct field_stats {
    uint64_t total, min, max;
};

struct type_stats {
    uint64_t packets, bits, min_bits, max_bits;
    unsigned *ids; /* the schema field ids of this packet type */
    size_t id_count;
    struct field_stats framing[FRAMING_SLOTS];
};

struct schema_stats {
    const bitsift_schema *schema;
    unsigned field_count, type_count;
    struct field_stats *fields; /* by field id */
    uint64_t *current;          /* bits of each field id in the packet being decoded */
    uint64_t current_framing[FRAMING_SLOTS];
    struct type_stats *types;
};

struct stats_run {
    struct cli *cli;
    struct schema_stats *per_schema;
    struct schema_stats *active; /* the schema of the packet being decoded */
    int active_index;
    struct advisor *advisor;
    bitsift_error_tally tally;
    uint64_t all_bits; /* in valid packets */
};

static int framing_slot(const char *name)
{
    for (int i = 0; i < FRAMING_SLOTS; i++)
        if (strcmp(name, framing_names[i]) == 0)
            return i;
    return -1;
}

static void add_bits(struct schema_stats *s, const bitsift_event *ev)
{
    if (ev->id >= 0 && (unsigned)ev->id < s->field_count) {
        s->current[ev->id] += ev->bits;
    } else if (ev->flags & BITSIFT_EVENT_FRAMING) {
        int slot = framing_slot(ev->name);
        if (slot >= 0)
            s->current_framing[slot] += ev->bits;
    }
}

static bool on_field(void *ctx, const bitsift_event *ev)
{
    /* Array counts and indices are inside the array's total (leave). */
    if (ev->flags & BITSIFT_EVENT_ARRAY_META)
        return true;
    struct stats_run *r = ctx;
    add_bits(r->active, ev);
    advisor_value(r->advisor, r->active_index, ev);
    return true;
}

static bool on_leave(void *ctx, const bitsift_event *ev)
{
    struct schema_stats *s = ((struct stats_run *)ctx)->active;
    /* Containers: the leave event carries the total. */
    if (ev->id >= 0 && (unsigned)ev->id < s->field_count)
        s->current[ev->id] += ev->bits;
    return true;
}

static void fold(struct field_stats *f, uint64_t bits, uint64_t packets_before)
{
    f->total += bits;
    if (packets_before == 0 || bits < f->min)
        f->min = bits;
    if (packets_before == 0 || bits > f->max)
        f->max = bits;
}

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
        record_no_protocol(&none);
        bitsift_error_tally_invalid(&r->tally, BITSIFT_E_PROTOCOL);
        advisor_failure(r->advisor, -1, &none);
        advisor_packet(r->advisor, -1, -1, p);
        return c->count && r->tally.packets >= c->count;
    }
    struct schema_stats *s = &r->per_schema[index];
    r->active = s;
    r->active_index = index;
    bitsift_result res;
    unsigned strict = c->strict ? BITSIFT_DECODE_STRICT : 0;
    /* The verdict first (the fast path): only a valid packet is profiled,
     * and only its values may count among the values seen. */
    if (c->display)
        res = verdict.res;
    else
        bitsift_decode(s->schema, p->data, p->size, strict, NULL, &res);
    advisor_packet(r->advisor, index, res.packet_type, p);
    if (res.status != BITSIFT_OK) {
        bitsift_error_tally_invalid(&r->tally, res.status);
        advisor_failure(r->advisor, index, &res);
        return c->count && r->tally.packets >= c->count;
    }
    bitsift_visitor v = {on_field, NULL, on_leave, r};
    /* Fields add up by id: their paths are never read. */
    bitsift_decode(s->schema, p->data, p->size, BITSIFT_DECODE_NO_PATHS | strict, &v, &res);
    int type = res.packet_type;
    if (res.status == BITSIFT_OK && type >= 0 && (unsigned)type < s->type_count) {
        bitsift_error_tally_valid(&r->tally);
        r->all_bits += res.bits;
        struct type_stats *t = &s->types[type];
        for (size_t i = 0; i < t->id_count; i++)
            fold(&s->fields[t->ids[i]], s->current[t->ids[i]], t->packets);
        for (int k = 0; k < FRAMING_SLOTS; k++)
            fold(&t->framing[k], s->current_framing[k], t->packets);
        if (t->packets == 0 || res.bits < t->min_bits)
            t->min_bits = res.bits;
        if (t->packets == 0 || res.bits > t->max_bits)
            t->max_bits = res.bits;
        t->bits += res.bits;
        t->packets++;
    } else {
        bitsift_error_tally_invalid(&r->tally, res.status);
    }
    /* Reset what this packet touched (every id of any type may have been
     * reached before a failure, so clear them all: field counts are small). */
    memset(s->current, 0, s->field_count * sizeof *s->current);
    memset(s->current_framing, 0, sizeof s->current_framing);
    return c->count && r->tally.packets >= c->count;
}

static int setup(struct stats_run *r)
{
    struct cli *c = r->cli;
    r->advisor = advisor_create(c->schemas, c->schema_count);
    if (!r->advisor)
        return -1;
    r->per_schema = calloc(c->schema_count, sizeof *r->per_schema);
    if (!r->per_schema)
        return -1;
    for (size_t i = 0; i < c->schema_count; i++) {
        struct schema_stats *s = &r->per_schema[i];
        s->schema = c->schemas[i];
        s->field_count = bitsift_schema_field_count(s->schema);
        s->type_count = bitsift_schema_packet_count(s->schema);
        s->fields = calloc(s->field_count + 1, sizeof *s->fields);
        s->current = calloc(s->field_count + 1, sizeof *s->current);
        s->types = calloc(s->type_count + 1, sizeof *s->types);
        if (!s->fields || !s->current || !s->types)
            return -1;
        for (unsigned id = 0; id < s->field_count; id++) {
            bitsift_field_info info;
            if (!bitsift_schema_field_info(s->schema, id, &info) ||
                info.packet_type >= s->type_count)
                continue;
            struct type_stats *t = &s->types[info.packet_type];
            unsigned *ids = realloc(t->ids, (t->id_count + 1) * sizeof *ids);
            if (!ids)
                return -1;
            t->ids = ids;
            t->ids[t->id_count++] = id;
        }
    }
    return 0;
}

static void teardown(struct stats_run *r)
{
    advisor_free(r->advisor);
    r->advisor = NULL;
    if (!r->per_schema)
        return;
    for (size_t i = 0; i < r->cli->schema_count; i++) {
        struct schema_stats *s = &r->per_schema[i];
        for (unsigned t = 0; s->types && t < s->type_count; t++)
            free(s->types[t].ids);
        free(s->types);
        free(s->fields);
        free(s->current);
    }
    free(r->per_schema);
}

static double mean(uint64_t total, uint64_t n)
{
    return n ? (double)total / (double)n : 0.0;
}

static double share(const struct stats_run *r, uint64_t total)
{
    return r->all_bits ? 100.0 * (double)total / (double)r->all_bits : 0.0;
}

static void text_row(const struct stats_run *r, const struct field_stats *f, uint64_t packets,
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
    out_u64(&o, r->all_bits);
    out_str(&o, " bits in valid packets\n");
    if (r->tally.invalid) {
        out_str(&o, "errors:");
        error_tally_text_kinds(&o, &r->tally, " ", " ", "");
        out_char(&o, '\n');
    }
    out_finish(&o); /* flushed before the rows printf writes after it */
    for (size_t i = 0; i < c->schema_count; i++) {
        const struct schema_stats *s = &r->per_schema[i];
        for (unsigned t = 0; t < s->type_count; t++) {
            const struct type_stats *ts = &s->types[t];
            if (!ts->packets)
                continue;
            struct out label;
            out_init_memory(&label);
            record_text_protocol(&label, s->schema);
            out_char(&label, '\0');
            printf("\n%s %s: %llu packet%s, mean %.1f bits (min %llu, max %llu), %.1f%% of all "
                   "bits\n",
                   label.buf ? label.buf : bitsift_schema_name(s->schema),
                   bitsift_schema_packet_name(s->schema, t),
                   (unsigned long long)ts->packets, ts->packets == 1 ? "" : "s",
                   mean(ts->bits, ts->packets),
                   (unsigned long long)ts->min_bits, (unsigned long long)ts->max_bits,
                   share(r, ts->bits));
            out_finish(&label);
            printf("  %10s %8s %8s %7s  %s\n", "mean bits", "min", "max", "share", "field");
            for (int k = 0; k < FRAMING_SLOTS; k++)
                if (ts->framing[k].max)
                    text_row(r, &ts->framing[k], ts->packets, 1, framing_names[k]);
            for (size_t j = 0; j < ts->id_count; j++) {
                bitsift_field_info info;
                if (!bitsift_schema_field_info(s->schema, ts->ids[j], &info))
                    continue;
                if (info.depth == 0 ||
                    (info.type == BITSIFT_FIELD_ALIGN && s->fields[ts->ids[j]].max == 0))
                    continue;
                text_row(r, &s->fields[ts->ids[j]], ts->packets, info.depth, info.path);
            }
            fflush(stdout);
            struct out q;
            out_init(&q, stdout);
            advisor_text_type(r->advisor, &q, (int)i, t, ts->packets);
            out_finish(&q);
        }
    }
    struct out tail;
    out_init(&tail, stdout);
    advisor_text_errors(r->advisor, &tail);
    advisor_text_bandwidth(r->advisor, &tail);
    out_finish(&tail);
}

static void json_field(struct out *o, const struct stats_run *r, const struct field_stats *f,
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
    out_u64(&o, r->all_bits);
    out_char(&o, ',');
    error_tally_json_kinds(&o, &r->tally);
    out_str(&o, ",\"types\":[");
    const char *sep = "";
    for (size_t i = 0; i < c->schema_count; i++) {
        const struct schema_stats *s = &r->per_schema[i];
        for (unsigned t = 0; t < s->type_count; t++) {
            const struct type_stats *ts = &s->types[t];
            if (!ts->packets)
                continue;
            const char *type = bitsift_schema_packet_name(s->schema, t);
            out_str(&o, sep);
            sep = ",";
            out_char(&o, '{');
            record_json_protocol_id(&o, s->schema);
            out_str(&o, ",\"type\":");
            out_json_string(&o, type, strlen(type));
            out_str(&o, ",\"packets\":");
            out_u64(&o, ts->packets);
            out_str(&o, ",\"bits\":{\"mean\":");
            out_bytes(&o, number, format_float64(number, mean(ts->bits, ts->packets)));
            out_str(&o, ",\"min\":");
            out_u64(&o, ts->min_bits);
            out_str(&o, ",\"max\":");
            out_u64(&o, ts->max_bits);
            out_str(&o, ",\"total\":");
            out_u64(&o, ts->bits);
            out_str(&o, "},\"fields\":[");
            const char *fsep = "";
            for (int k = 0; k < FRAMING_SLOTS; k++) {
                if (!ts->framing[k].max)
                    continue;
                out_str(&o, fsep);
                fsep = ",";
                json_field(&o, r, &ts->framing[k], ts->packets, framing_names[k], "framing");
                out_char(&o, '}');
            }
            for (size_t j = 0; j < ts->id_count; j++) {
                bitsift_field_info info;
                if (!bitsift_schema_field_info(s->schema, ts->ids[j], &info) || info.depth == 0)
                    continue;
                out_str(&o, fsep);
                fsep = ",";
                json_field(&o, r, &s->fields[ts->ids[j]], ts->packets, info.path,
                           bitsift_field_type_name(info.type));
                advisor_json_field(r->advisor, &o, (int)i, ts->ids[j], ts->packets);
                out_char(&o, '}');
            }
            out_str(&o, "]}");
        }
    }
    out_str(&o, "],");
    advisor_json_errors(r->advisor, &o);
    out_char(&o, ',');
    advisor_json_bandwidth(r->advisor, &o);
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
    if (setup(&r) != 0) {
        teardown(&r);
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
    teardown(&r);
    cli_report_counts(c, &counts);
    if (failed)
        return EXIT_TROUBLE;
    return cli_had_trouble(c, &counts) ? EXIT_TROUBLE : EXIT_VALID;
}
