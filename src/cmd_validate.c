/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cmd_validate.c -- `bitsift validate`: check every packet (protocol id and
 * CRC, packet type, ranges, padding, check markers, string rules, trailing
 * data when --strict) and print each failure as
 *
 *     input:packet N: field.path @bit B: reason (expected ..., got ...)
 *
 * then a summary. Exit 0 when every packet is valid, 1 when one is not, 2
 * when an input, the schema or the command line could not be used, 3 when
 * there was no packet to check (unless --allow-empty): a CI job whose
 * filter matches nothing must not pass. With
 * -F json: one NDJSON record per failure and a summary record. --junit
 * FILE also writes a JUnit report (one test case per input).
 *
 * Validation runs the decoder with no visitor: the fastest path (verdict.c;
 * a -Y that names fields adds a decode with its visitor, for the packets
 * of the types it names).
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "print/error_tally.h"
#include "print/junit.h"
#include "print/packet_report.h"
#include "verdict.h"

struct validate_run {
    struct cli *cli;
    struct out out;
    struct out line; /* one failure line, for JUnit */
    struct junit *junit;
    bitsift_error_tally tally;
    uint64_t shown; /* failures printed (--max-errors) */
};

/* With several schemas the line names the protocol the packet was read
 * with (two versions of one protocol share the name, not the id). */
static void text_failure(struct out *o, const struct input_packet *p,
                         const bitsift_schema *several, const struct verdict *v)
{
    const bitsift_result *res = &v->res;
    out_str(o, p->source);
    out_str(o, ":packet ");
    out_u64(o, p->index);
    out_str(o, ": ");
    if (several) {
        report_text_protocol(o, several);
        out_str(o, ": ");
    }
    report_text_failure(o, res);
    verdict_text_note(o, v);
}

static void json_failure(struct out *o, const struct input_packet *p,
                         const bitsift_schema *schema, const struct verdict *v)
{
    const bitsift_result *res = &v->res;
    out_char(o, '{');
    report_json_origin(o, p);
    out_str(o, ",\"valid\":false,\"error\":");
    report_json_error(o, res);
    verdict_json_note(o, v);
    if (schema)
        report_json_protocol(o, schema, res);
    out_str(o, "}\n");
}

static int on_packet(void *ctx, const struct input_packet *p)
{
    struct validate_run *v = ctx;
    struct cli *c = v->cli;
    struct verdict verdict;
    if (!verdict_take(c, p->data, p->size, &verdict))
        return 0; /* not selected by -Y: not checked */
    const bitsift_schema *schema = verdict.schema;
    if (verdict.res.status == BITSIFT_OK) {
        bitsift_error_tally_valid(&v->tally);
        if (v->junit)
            junit_packet(v->junit, NULL);
    } else {
        const bitsift_schema *several = c->schema_count > 1 ? schema : NULL;
        bitsift_error_tally_invalid(&v->tally, verdict.res.status);
        if (!c->max_errors || v->shown < c->max_errors) {
            v->shown++;
            if (c->format == FORMAT_JSON) {
                json_failure(&v->out, p, schema, &verdict);
            } else {
                text_failure(&v->out, p, several, &verdict);
                out_char(&v->out, '\n');
            }
        }
        if (v->junit) {
            v->line.len = 0;
            text_failure(&v->line, p, several, &verdict);
            out_char(&v->line, '\0');
            junit_packet(v->junit, v->line.buf ? v->line.buf : "");
        }
    }
    return c->count && v->tally.packets >= c->count;
}

static void on_begin(void *ctx, const char *source, int is_capture)
{
    struct validate_run *v = ctx;
    (void)is_capture;
    if (v->junit)
        junit_begin_case(v->junit, source);
}

static void on_end(void *ctx, const char *source)
{
    struct validate_run *v = ctx;
    (void)source;
    if (v->junit)
        junit_end_case(v->junit);
}

static void on_problem(void *ctx, const char *source, uint64_t index, const char *message)
{
    struct validate_run *v = ctx;
    cli_report_problem(v->cli, source, index, message);
    if (v->junit) {
        char line[1024];
        if (index)
            snprintf(line, sizeof line, "%s:packet %llu: %s", source, (unsigned long long)index,
                     message);
        else
            snprintf(line, sizeof line, "%s: %s", source, message);
        junit_error(v->junit, source, line);
    }
}

static void summary_text(struct validate_run *v, const struct input_counts *n)
{
    struct out *o = &v->out;
    error_tally_text_counts(o, &v->tally);
    error_tally_text_kinds(o, &v->tally, " (", ", ", ")");
    uint64_t problems = n->errors + n->fragments + n->snapped + n->malformed;
    if (problems) {
        out_str(o, "; ");
        out_u64(o, problems);
        out_str(o, problems == 1 ? " input problem" : " input problems");
    }
    if (v->tally.invalid > v->shown) {
        out_str(o, "; ");
        out_u64(o, v->tally.invalid - v->shown);
        out_str(o, " failures not shown (--max-errors)");
    }
    out_char(o, '\n');
}

static void summary_json(struct validate_run *v, const struct input_counts *n)
{
    struct out *o = &v->out;
    out_str(o, "{\"summary\":{\"inputs\":");
    out_u64(o, n->inputs);
    out_char(o, ',');
    error_tally_json_counts(o, &v->tally);
    out_char(o, ',');
    error_tally_json_kinds(o, &v->tally);
    out_str(o, ",\"not_shown\":");
    out_u64(o, v->tally.invalid - v->shown);
    out_str(o, ",\"skipped\":{\"not_ip\":");
    out_u64(o, n->not_ip);
    out_str(o, ",\"not_udp\":");
    out_u64(o, n->not_udp);
    out_str(o, "},\"input_problems\":{\"errors\":");
    out_u64(o, n->errors);
    out_str(o, ",\"fragments\":");
    out_u64(o, n->fragments);
    out_str(o, ",\"snapped\":");
    out_u64(o, n->snapped);
    out_str(o, ",\"malformed\":");
    out_u64(o, n->malformed);
    out_str(o, "}}}\n");
}

int cmd_validate(struct cli *c)
{
    if (cli_load_schemas(c) != 0)
        return EXIT_TROUBLE;
    struct timespec start, stop;
    clock_gettime(CLOCK_MONOTONIC, &start);
    struct validate_run v;
    memset(&v, 0, sizeof v);
    v.cli = c;
    out_init(&v.out, stdout);
    c->stdout_buffer = &v.out;
    out_init_memory(&v.line);
    if (c->junit && !(v.junit = junit_create())) {
        cli_error("out of memory");
        return EXIT_TROUBLE;
    }
    struct input_options options;
    cli_input_options(c, &options);
    struct input_handler h = {.ctx = &v,
                              .begin = on_begin,
                              .end = on_end,
                              .packet = on_packet,
                              .problem = on_problem};
    struct input_counts counts = {0};
    input_run(c->inputs, c->input_count, &options, &h, &counts);
    if (c->format == FORMAT_JSON)
        summary_json(&v, &counts);
    else
        summary_text(&v, &counts);
    c->stdout_buffer = NULL;
    int failed = out_finish(&v.out) != 0;
    out_finish(&v.line);
    cli_report_counts(c, &counts);
    if (v.junit) {
        clock_gettime(CLOCK_MONOTONIC, &stop);
        double seconds = (double)(stop.tv_sec - start.tv_sec) +
                         (double)(stop.tv_nsec - start.tv_nsec) / 1e9;
        if (junit_write(v.junit, c->junit, seconds) != 0) {
            cli_error("%s: cannot write JUnit report: %m", c->junit);
            failed = 1;
        }
        junit_free(v.junit);
    }
    if (failed || cli_had_trouble(c, &counts))
        return EXIT_TROUBLE;
    if (v.tally.packets == 0 && !c->allow_empty) {
        cli_error("no packet was checked in %llu input%s%s: exit status %d (--allow-empty "
                  "accepts this)",
                  (unsigned long long)counts.inputs, counts.inputs == 1 ? "" : "s",
                  options.filter                      ? " (no frame matched the filter)"
                  : c->display || c->frames.count ? " (-Y or --frame selected none)"
                                                  : "",
                  EXIT_EMPTY);
        return EXIT_EMPTY;
    }
    return v.tally.invalid ? EXIT_INVALID : EXIT_VALID;
}
