/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cmd_decode.c -- `bitsift decode`: for each packet a header line (index,
 * time, source > destination, length, protocol and packet type) and its
 * field tree; or with -F json one NDJSON record per packet and nothing
 * else on stdout.
 *
 * The fields are printed straight from the decoder's visitor into a scratch
 * buffer (the header needs the packet type and size, known at the end), so
 * a capture of any size is decoded without building value trees. The
 * scratch holds at most DECODE_SCRATCH_MAX bytes: a packet whose text is
 * longer (a legal schema can make a 16 MiB packet print gigabytes) is
 * decoded a second time, its fields then printed straight to the output
 * after the header, so memory stays bounded whatever the packet. The
 * decoder is deterministic: the second pass visits exactly what the first
 * did.
 */
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "print/fields.h"
#include "print/packet_report.h"
#include "verdict.h"

/* Bytes of one packet's field text kept in memory; beyond, it is streamed.
 * 1 MiB holds the text of any packet of a real game by far (a 1,400-byte
 * shooter snapshot prints ~6 KB). */
#define DECODE_SCRATCH_MAX (1u << 20)

struct decode_run {
    struct cli *cli;
    struct out out;                            /* stdout */
    struct out scratch;                        /* the fields of the current packet */
    struct fields_keys *keys[CLI_MAX_SCHEMAS]; /* the printed names, per schema */
    uint64_t decoded;
    int several_inputs;
};

/* Print the packet's fields with `p` into o (the visitor's events). */
static void print_fields(struct decode_run *d, struct out *o, const struct input_packet *p,
                         int index, bitsift_result *res)
{
    struct cli *c = d->cli;
    const bitsift_schema *schema = c->schemas[index];
    struct fields_printer fp;
    fields_begin(&fp, o, schema, d->keys[index], c->format == FORMAT_JSON, 2);
    bitsift_visitor v = fields_visitor(&fp);
    /* The printers nest by enter/leave, never read ev->path and
     * leave out the fields of branches not taken. */
    unsigned flags = BITSIFT_DECODE_NO_PATHS | BITSIFT_DECODE_NO_ABSENT |
                     (c->strict ? BITSIFT_DECODE_STRICT : 0) |
                     (c->no_crc ? BITSIFT_DECODE_NO_CRC : 0);
    bitsift_decode(schema, p->data, p->size, flags, &v, res);
    fields_end(&fp);
}

/* The fields printed into the scratch, or when they did not fit, printed
 * again straight to the output. */
static void write_fields(struct decode_run *d, const struct input_packet *p, int index)
{
    if (!d->scratch.failed) {
        out_bytes(&d->out, d->scratch.buf, d->scratch.len);
        return;
    }
    bitsift_result again;
    print_fields(d, &d->out, p, index, &again);
}

static void text_header(struct decode_run *d, const struct input_packet *p,
                        const bitsift_schema *schema, const bitsift_result *res)
{
    struct out *o = &d->out;
    char text[64];
    if (p->from_capture) {
        if (d->several_inputs) {
            out_str(o, p->source);
            out_char(o, ':');
        }
        out_u64(o, p->index);
        out_char(o, ' ');
        out_bytes(o, text, format_time_of_day(text, p->sec, p->nsec));
        out_char(o, ' ');
        report_address(o, p->src);
        out_str(o, " > ");
        report_address(o, p->dst);
    } else {
        out_str(o, p->source);
    }
    out_str(o, " length ");
    out_u64(o, p->size);
    out_str(o, ": ");
    if (schema) {
        report_text_protocol(o, schema);
        if (res->packet_name) {
            out_char(o, ' ');
            out_str(o, res->packet_name);
        }
    } else {
        out_str(o, "unknown protocol");
    }
    if (res->status == BITSIFT_OK) {
        out_str(o, " (");
        out_u64(o, res->bits);
        out_str(o, " bits)\n");
    } else {
        out_str(o, " INVALID\n");
    }
}

static void json_record(struct decode_run *d, const struct input_packet *p, int index,
                        const bitsift_schema *schema, const bitsift_result *res,
                        const struct verdict *crc)
{
    struct out *o = &d->out;
    out_char(o, '{');
    report_json_origin(o, p);
    out_str(o, res->status == BITSIFT_OK ? ",\"valid\":true" : ",\"valid\":false");
    if (res->status != BITSIFT_OK) {
        out_str(o, ",\"error\":");
        report_json_error(o, res);
    }
    if (crc)
        verdict_json_note(o, crc);
    if (schema) {
        report_json_protocol(o, schema, res);
        out_str(o, ",\"bits\":");
        out_u64(o, res->bits);
        if (!d->cli->quiet) {
            out_str(o, ",\"fields\":");
            write_fields(d, p, index);
        }
    }
    out_str(o, "}\n");
}

/* Whether frame numbers need their input's name: several inputs, or a
 * directory, which may hold several captures (whose frame numbers would
 * collide) and whose files are known only as it is walked. */
static int inputs_need_names(const struct cli *c)
{
    if (c->input_count > 1)
        return 1;
    struct stat st;
    return c->input_count == 1 && strcmp(c->inputs[0], "-") != 0 && stat(c->inputs[0], &st) == 0 &&
           S_ISDIR(st.st_mode);
}

static int on_packet(void *ctx, const struct input_packet *p)
{
    struct decode_run *d = ctx;
    struct cli *c = d->cli;
    int json = c->format == FORMAT_JSON;
    struct verdict verdict;
    if ((c->display || c->no_crc) && !verdict_take(c, p->data, p->size, &verdict))
        return 0; /* not selected by -Y */
    int index = c->display || c->no_crc ? verdict.schema_index
                                         : cli_pick_schema(c, p->data, p->size);
    const bitsift_schema *schema = index >= 0 ? c->schemas[index] : NULL;
    bitsift_result res;
    d->scratch.len = 0;
    d->scratch.failed = 0;
    unsigned decode_flags = (c->strict ? BITSIFT_DECODE_STRICT : 0) |
                            (c->no_crc ? BITSIFT_DECODE_NO_CRC : 0);
    if (!schema) {
        report_no_protocol(&res);
    } else if (!json && c->quiet) {
        bitsift_decode(schema, p->data, p->size, decode_flags, NULL, &res);
    } else {
        print_fields(d, &d->scratch, p, index, &res);
    }
    const struct verdict *crc = NULL;
    if (c->no_crc && verdict.crc_mismatch) {
        res = verdict.res; /* the CRC mismatch, or the failure past it */
        crc = &verdict;
    }
    if (json) {
        json_record(d, p, index, schema, &res, crc);
    } else {
        text_header(d, p, schema, &res);
        if (schema && !c->quiet)
            write_fields(d, p, index);
        if (res.status != BITSIFT_OK && !c->quiet) { /* -q: header lines only */
            out_str(&d->out, "  !! ");
            report_text_failure(&d->out, &res);
            if (crc)
                verdict_text_note(&d->out, crc);
            out_char(&d->out, '\n');
        }
    }
    d->decoded++;
    return c->count && d->decoded >= c->count;
}

int cmd_decode(struct cli *c)
{
    if (cli_load_schemas(c) != 0)
        return EXIT_TROUBLE;
    struct decode_run d = {.cli = c};
    for (size_t i = 0; i < c->schema_count; i++)
        d.keys[i] = fields_keys_create(c->schemas[i]);
    out_init(&d.out, stdout);
    if (!d.out.buf) {
        cli_error("out of memory");
        for (size_t i = 0; i < c->schema_count; i++)
            fields_keys_free(d.keys[i]);
        return EXIT_TROUBLE;
    }
    c->stdout_buffer = &d.out;
    out_init_memory_limited(&d.scratch, DECODE_SCRATCH_MAX);
    d.several_inputs = inputs_need_names(c);
    struct input_options options;
    cli_input_options(c, &options);
    struct input_handler h = {
        .ctx = &d, .packet = on_packet, .problem = cli_report_problem, .problem_ctx = c};
    struct input_counts counts = {0};
    input_run(c->inputs, c->input_count, &options, &h, &counts);
    c->stdout_buffer = NULL;
    int failed = out_finish(&d.out) != 0;
    out_finish(&d.scratch);
    for (size_t i = 0; i < c->schema_count; i++)
        fields_keys_free(d.keys[i]);
    cli_report_counts(c, &counts);
    if (failed) {
        cli_error("write error on standard output");
        return EXIT_TROUBLE;
    }
    return cli_had_trouble(c, &counts) ? EXIT_TROUBLE : EXIT_VALID;
}
