/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cmd_diagnose.c -- `bitsift diagnose -s SCHEMA [-s OTHER ...] INPUT...`:
 * which change of the schema explains the packets that fail it. Packets
 * are checked with the first schema; for each packet type with failures
 * the candidate changes (drift_candidates.c), and the other schemas as
 * wholes, are ranked by the failing packets they make valid, then the
 * valid packets they break, then the packets read exactly to their end,
 * then the size of the change (the library's diagnosis,
 * <bitsift/diagnose.h>); this file reads the inputs and prints.
 * Each is printed as a diff of the schema lines it changes:
 *
 *     #1  players[].armor: 7 -> 8 bits, range 0..255 [range]
 *         explains 53/53 failing, breaks 0/116 valid, reads 169/169 exactly
 *         examples/shooter.bss:38
 *         -    int(0, 100) armor;
 *         +    int(0, 255) armor;
 *
 * -F json prints one record per packet type and a summary. Exit 0 when
 * every packet was valid, 1 when some failed (diagnosed or not), 2 on a
 * usage, schema or input error, 3 when there was no packet (unless
 * --allow-empty), as validate.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "print/error_tally.h"
#ifndef BITSIFT_EXPERIMENTAL
#define BITSIFT_EXPERIMENTAL 1 /* the command uses the library's analysis API */
#endif
#include "bitsift/diagnose.h"

/* Ranks printed per packet type, and candidates at the most. */
#define SHOW_RANKS 5
#define SHOW_LINES_MAX 12

struct diagnose_run {
    struct cli *cli;
    bitsift_diagnosis *d;
    /* What the diagnosis was made of, for the diffs: */
    const bitsift_schema *schema;
    const char *text; /* the schema's text */
    size_t size;
    const char *path;
    bitsift_schema *const *others; /* the other schemas (-s) */
    const char *const *other_paths;
    uint64_t packets; /* added */
    struct out out;
    int nomem;
};

/* The schema's text, which candidates edit: a file or standard input
 * ("-"), at most BITSIFT_SCHEMA_MAX_TEXT bytes (one more is read to tell
 * "too large"). */
static char *read_schema_text(const char *path, size_t *size)
{
    bool from_stdin = strcmp(path, "-") == 0;
    FILE *f = from_stdin ? stdin : fopen(path, "rb");
    const char *name = from_stdin ? "<stdin>" : path;
    if (!f) {
        cli_error("%s: %s", name, strerror(errno));
        return NULL;
    }
    size_t cap = BITSIFT_SCHEMA_MAX_TEXT + 1, n = 0, got;
    char *buf = malloc(cap + 1);
    while (buf && n < cap && (got = fread(buf + n, 1, cap - n, f)) > 0)
        n += got;
    int bad = !buf || ferror(f);
    if (!from_stdin)
        fclose(f);
    if (bad) {
        cli_error("%s: %s", name, buf ? "read error" : "out of memory");
        free(buf);
        return NULL;
    }
    if (n > BITSIFT_SCHEMA_MAX_TEXT) {
        cli_error("%s: schema larger than 1 MiB", name);
        free(buf);
        return NULL;
    }
    buf[n] = 0;
    *size = n;
    return buf;
}

/* Standard input can be read once: by one -s - or by the inputs. */
static int stdin_taken_twice(const struct cli *c)
{
    size_t uses = 0;
    for (size_t i = 0; i < c->schema_path_count; i++)
        uses += strcmp(c->schema_paths[i], "-") == 0;
    for (size_t i = 0; i < c->input_count; i++)
        uses += strcmp(c->inputs[i], "-") == 0;
    return uses > 1;
}

static int on_packet(void *ctx, const struct input_packet *p)
{
    struct diagnose_run *r = ctx;
    r->packets++;
    if (bitsift_diagnose_add(r->d, p->data, p->size) != BITSIFT_OK) {
        r->nomem = 1;
        return 1;
    }
    return r->cli->count && r->packets >= r->cli->count;
}

/* The search's stop: the signal that stops the reading. */
static int stop_on_signal(void *ctx)
{
    (void)ctx;
    return cli_interrupted();
}

/* ---- the diff of a candidate ------------------------------------------------- */

static size_t line_begin(const char *text, size_t pos)
{
    while (pos > 0 && text[pos - 1] != '\n')
        pos--;
    return pos;
}

static size_t line_after(const char *text, size_t size, size_t pos)
{
    while (pos < size && text[pos] != '\n')
        pos++;
    return pos < size ? pos + 1 : pos;
}

static unsigned line_number(const char *text, size_t pos)
{
    unsigned line = 1;
    for (size_t i = 0; i < pos; i++)
        line += text[i] == '\n';
    return line;
}

/* The lines the edit touches, before [*a, *b) and after [*a, *nb) in the
 * edited text. A whole line inserted touches no line before. */
static void edit_lines(const char *text, size_t size, const bitsift_drift_candidate *c, size_t *a,
                       size_t *b, size_t *nb)
{
    size_t add = strlen(c->text);
    *a = line_begin(text, c->start);
    if (c->start == c->end && c->start == *a && add && c->text[add - 1] == '\n')
        *b = *a;
    else if (c->end > c->start && text[c->end - 1] == '\n')
        *b = c->end;
    else
        *b = line_after(text, size, c->end);
    *nb = *b - (c->end - c->start) + add;
}

static void out_lines(struct out *o, const char *indent, char mark, const char *text, size_t a,
                      size_t b)
{
    while (a < b) {
        size_t e = a;
        while (e < b && text[e] != '\n')
            e++;
        out_str(o, indent);
        out_char(o, mark);
        out_bytes(o, text + a, e - a);
        out_char(o, '\n');
        a = e < b ? e + 1 : e;
    }
}

/* JSON array of the lines text[a, b). */
static void json_lines(struct out *o, const char *text, size_t a, size_t b)
{
    out_char(o, '[');
    for (bool first = true; a < b; first = false) {
        size_t e = a;
        while (e < b && text[e] != '\n')
            e++;
        if (!first)
            out_char(o, ',');
        out_json_string(o, text + a, e - a);
        a = e < b ? e + 1 : e;
    }
    out_char(o, ']');
}

/* ---- text -------------------------------------------------------------------- */

static const char *group_name(const struct diagnose_run *r, const bitsift_diagnose_group *g)
{
    if (g->crc_mismatch)
        return "(CRC mismatch)";
    if (g->packet_type < 0)
        return "(packet type not read)";
    return bitsift_schema_packet_name(r->schema, (unsigned)g->packet_type);
}

static void text_candidate(struct out *o, const struct diagnose_run *r,
                           const bitsift_diagnose_report *rep, const bitsift_diagnose_ranked *c)
{
    char head[32];
    snprintf(head, sizeof head, "#%zu%s", c->rank, c->tied ? "=" : "");
    out_str(o, "  ");
    out_str(o, head);
    out_repeat(o, ' ', strlen(head) < 4 ? 4 - strlen(head) : 1);
    out_str(o, c->change.what);
    out_str(o, " [");
    out_str(o, bitsift_drift_family_name(c->change.family));
    out_str(o, "]\n      explains ");
    out_u64(o, c->explained);
    out_char(o, '/');
    out_u64(o, rep->failing_measured);
    out_str(o, " failing, breaks ");
    out_u64(o, c->broken);
    out_char(o, '/');
    out_u64(o, rep->valid_measured);
    out_str(o, " valid, reads ");
    out_u64(o, c->exact);
    out_char(o, '/');
    out_u64(o, rep->failing_measured + rep->valid_measured);
    out_str(o, " exactly\n");
    if (c->change.family == BITSIFT_DRIFT_SCHEMA) {
        const bitsift_schema *other = r->others[c->change.schema];
        char line[256];
        snprintf(line, sizeof line, "      protocol %s, id 0x%08x\n", bitsift_schema_name(other),
                 bitsift_schema_protocol_id(other));
        out_str(o, line);
        return;
    }
    size_t a, b, nb, n;
    char *edited = bitsift_drift_apply(r->text, r->size, &c->change, &n);
    if (!edited) {
        out_str(o, "      (out of memory for the diff)\n");
        return;
    }
    edit_lines(r->text, r->size, &c->change, &a, &b, &nb);
    char where[320];
    snprintf(where, sizeof where, "      %s:%u\n", r->path,
             line_number(r->text, a == b && a > 0 ? a - 1 : a));
    out_str(o, where);
    /* A line inserted: the line before it, for where. */
    if (a == b && a > 0)
        out_lines(o, "      ", ' ', r->text, line_begin(r->text, a - 1), a);
    out_lines(o, "      ", '-', r->text, a, b);
    out_lines(o, "      ", '+', edited, a, nb);
    free(edited);
}

static void text_group(struct diagnose_run *r, const bitsift_diagnose_group *g,
                       const bitsift_diagnose_report *rep)
{
    struct out *o = &r->out;
    if (g->packet_type >= 0) {
        out_str(o, "\npacket ");
        out_str(o, group_name(r, g));
        out_str(o, ": ");
    } else {
        out_str(o, g->crc_mismatch ? "\npackets whose CRC does not match: "
                                   : "\npackets whose type could not be read: ");
    }
    out_u64(o, g->tally.invalid);
    out_str(o, " failing");
    error_tally_text_kinds(o, &g->tally, " (", ", ", ")");
    if (rep->failing_measured < g->tally.invalid) {
        out_str(o, "; measured on a sample of ");
        out_u64(o, rep->failing_measured);
    }
    out_char(o, '\n');
    if (rep->count == 0 && rep->stopped && rep->tried == 0) {
        out_str(o, "  not searched: interrupted\n");
    } else if (rep->count == 0) {
        if (g->crc_mismatch || g->packet_type < 0)
            out_str(o, "  no other schema (-s) explains them: another protocol or version, or "
                       "damaged packets\n");
        else if (rep->stopped)
            out_str(o, "  no candidate change tried before the interruption explains any of "
                       "them\n");
        else
            out_str(o, "  no candidate change explains any of them\n");
    }
    /* Up to SHOW_RANKS ranks, at most SHOW_LINES_MAX candidates; a rank
     * cut short says how many more share it. */
    for (size_t i = 0; i < rep->count && rep->ranked[i].rank <= SHOW_RANKS; i++) {
        const bitsift_diagnose_ranked *c = &rep->ranked[i];
        if (i == SHOW_LINES_MAX) {
            size_t tied = 0;
            while (i + tied < rep->count && rep->ranked[i + tied].rank == c->rank)
                tied++;
            if (tied) {
                char line[128];
                snprintf(line, sizeof line, "  ... %zu more at #%zu\n", tied, c->rank);
                out_str(o, line);
            }
            break;
        }
        text_candidate(o, r, rep, c);
    }
    char line[256];
    snprintf(line, sizeof line, "  (%zu candidate change%s tried, %zu compiled", rep->tried,
             rep->tried == 1 ? "" : "s", rep->compiled);
    out_str(o, line);
    if (rep->not_tried) {
        snprintf(line, sizeof line, "; %zu more not tried: %s", rep->not_tried,
                 rep->stopped ? "interrupted" : "over the budget");
        out_str(o, line);
    }
    if (rep->measured[1]) {
        snprintf(line, sizeof line, "; the best %zu measured on more packets", rep->measured[1]);
        out_str(o, line);
    }
    if (rep->measured[2]) {
        snprintf(line, sizeof line, ", the best %zu on every sampled packet", rep->measured[2]);
        out_str(o, line);
    }
    if (rep->rounds_cut) {
        snprintf(line, sizeof line, "; not measured on every sampled packet: %s",
                 rep->stopped ? "interrupted" : "over the budget");
        out_str(o, line);
    }
    out_str(o, ")\n");
}

/* ---- JSON -------------------------------------------------------------------- */

static void json_group(struct diagnose_run *r, const bitsift_diagnose_group *g,
                       const bitsift_diagnose_report *rep)
{
    struct out *o = &r->out;
    out_str(o, "{\"packet_type\":");
    if (g->packet_type >= 0) {
        const char *name = group_name(r, g);
        out_json_string(o, name, strlen(name));
    } else {
        out_str(o, "null");
    }
    out_str(o, ",\"crc_mismatch\":");
    out_str(o, g->crc_mismatch ? "true" : "false");
    out_str(o, ",\"failing\":");
    out_u64(o, g->tally.invalid);
    out_char(o, ',');
    error_tally_json_kinds(o, &g->tally);
    out_str(o, ",\"measured_failing\":");
    out_u64(o, rep->failing_measured);
    out_str(o, ",\"measured_valid\":");
    out_u64(o, rep->valid_measured);
    out_str(o, ",\"candidates_tried\":");
    out_u64(o, rep->tried);
    out_str(o, ",\"candidates_compiled\":");
    out_u64(o, rep->compiled);
    out_str(o, ",\"candidates_not_tried\":");
    out_u64(o, rep->not_tried);
    out_str(o, ",\"rounds_cut\":");
    out_str(o, rep->rounds_cut ? "true" : "false");
    out_str(o, ",\"interrupted\":");
    out_str(o, rep->stopped ? "true" : "false");
    out_str(o, ",\"candidates\":[");
    for (size_t i = 0; i < rep->count && rep->ranked[i].rank <= SHOW_RANKS; i++) {
        const bitsift_diagnose_ranked *c = &rep->ranked[i];
        if (i)
            out_char(o, ',');
        out_str(o, "{\"rank\":");
        out_u64(o, c->rank);
        out_str(o, ",\"tied\":");
        out_str(o, c->tied ? "true" : "false");
        out_str(o, ",\"family\":\"");
        out_str(o, bitsift_drift_family_name(c->change.family));
        out_str(o, "\",\"explained\":");
        out_u64(o, c->explained);
        out_str(o, ",\"broken\":");
        out_u64(o, c->broken);
        out_str(o, ",\"exact\":");
        out_u64(o, c->exact);
        out_str(o, ",\"change\":");
        out_json_string(o, c->change.what, strlen(c->change.what));
        if (c->change.family == BITSIFT_DRIFT_SCHEMA) {
            out_str(o, ",\"schema\":");
            const char *path = r->other_paths[c->change.schema];
            out_json_string(o, path, strlen(path));
        } else {
            size_t a, b, nb, n;
            char *edited = bitsift_drift_apply(r->text, r->size, &c->change, &n);
            if (!edited) {
                r->nomem = 1;
                break;
            }
            edit_lines(r->text, r->size, &c->change, &a, &b, &nb);
            out_str(o, ",\"line\":");
            out_u64(o, line_number(r->text, a));
            out_str(o, ",\"offset\":");
            out_u64(o, c->change.start);
            out_str(o, ",\"length\":");
            out_u64(o, c->change.end - c->change.start);
            out_str(o, ",\"replacement\":");
            out_json_string(o, c->change.text, strlen(c->change.text));
            out_str(o, ",\"remove\":");
            json_lines(o, r->text, a, b);
            out_str(o, ",\"add\":");
            json_lines(o, edited, a, nb);
            free(edited);
        }
        out_char(o, '}');
    }
    out_str(o, "]}\n");
}

/* ---- the command -------------------------------------------------------------- */

int cmd_diagnose(struct cli *c)
{
    if (c->schema_path_count == 0) {
        c->schema_paths[0] = cli_default_schema();
        c->schema_path_count = 1;
    }
    if (stdin_taken_twice(c)) {
        cli_error("standard input can hold a schema (-s -) or the input, not both");
        return EXIT_TROUBLE;
    }
    size_t size = 0;
    const char *path = c->schema_paths[0];
    char *text = read_schema_text(path, &size);
    if (!text)
        return EXIT_TROUBLE;
    if (strcmp(path, "-") == 0)
        path = "<stdin>";
    bitsift_schema_error err;
    bitsift_schema *schema = bitsift_schema_compile(text, size, path, &err);
    if (!schema) {
        cli_error("%s", err.message[0] ? err.message : "cannot compile the schema");
        free(text);
        return EXIT_TROUBLE;
    }
    c->schemas[c->schema_count++] = schema;
    for (size_t i = 1; i < c->schema_path_count; i++) {
        bitsift_schema *other = cli_load_schema(c->schema_paths[i]);
        if (!other) {
            free(text);
            return EXIT_TROUBLE;
        }
        c->schemas[c->schema_count++] = other;
    }
    struct diagnose_run r;
    memset(&r, 0, sizeof r);
    r.cli = c;
    r.schema = schema;
    r.text = text;
    r.size = size;
    r.path = path;
    r.others = c->schemas + 1;
    r.other_paths = c->schema_paths + 1;
    /* The search stops at the first signal too (the reading already has). */
    bitsift_diagnose_options diagnose_options = {
        .decode_flags = c->strict ? BITSIFT_DECODE_STRICT : 0,
        .others = r.others,
        .other_labels = r.other_paths,
        .other_count = c->schema_count - 1,
        .stop = stop_on_signal,
    };
    r.d = bitsift_diagnose_create(schema, text, size, path, &diagnose_options);
    if (!r.d) {
        free(text);
        cli_error("out of memory");
        return EXIT_TROUBLE;
    }
    out_init(&r.out, stdout);
    c->stdout_buffer = &r.out;

    struct input_options options;
    cli_input_options(c, &options);
    struct input_handler h = {.ctx = &r, .packet = on_packet, .problem = cli_report_problem,
                              .problem_ctx = c};
    struct input_counts counts = {0};
    input_run(c->inputs, c->input_count, &options, &h, &counts);

    bitsift_diagnose_counts seen;
    bitsift_diagnose_get_counts(r.d, &seen);
    uint64_t not_tried = 0;
    size_t cut_groups = 0;
    if (c->format == FORMAT_TEXT && !r.nomem) {
        char line[256];
        snprintf(line, sizeof line, "%llu packets: %llu valid, %llu invalid\n",
                 (unsigned long long)seen.packets, (unsigned long long)seen.valid,
                 (unsigned long long)(seen.packets - seen.valid));
        out_str(&r.out, line);
    }
    for (size_t g = 0; g < seen.group_count && !r.nomem; g++) {
        bitsift_diagnose_group group;
        if (!bitsift_diagnose_get_group(r.d, g, &group) || !group.tally.invalid)
            continue;
        bitsift_diagnose_report rep;
        if (bitsift_diagnose_run(r.d, g, &rep) != BITSIFT_OK) {
            r.nomem = 1;
            break;
        }
        not_tried += rep.not_tried;
        cut_groups += rep.not_tried || rep.rounds_cut;
        if (c->format == FORMAT_JSON)
            json_group(&r, &group, &rep);
        else
            text_group(&r, &group, &rep);
        bitsift_diagnose_report_free(&rep);
    }
    bitsift_diagnose_get_counts(r.d, &seen);
    if (c->format == FORMAT_JSON && !r.nomem) {
        out_str(&r.out, "{\"summary\":{\"packets\":");
        out_u64(&r.out, seen.packets);
        out_str(&r.out, ",\"valid\":");
        out_u64(&r.out, seen.valid);
        out_str(&r.out, ",\"invalid\":");
        out_u64(&r.out, seen.packets - seen.valid);
        out_str(&r.out, ",\"not_sampled\":");
        out_u64(&r.out, seen.not_sampled);
        out_str(&r.out, ",\"candidates_not_tried\":");
        out_u64(&r.out, not_tried);
        out_str(&r.out, ",\"work\":");
        out_u64(&r.out, seen.work_used);
        out_str(&r.out, ",\"work_budget\":");
        out_u64(&r.out, seen.work_budget);
        out_str(&r.out, ",\"interrupted\":");
        out_str(&r.out, seen.stopped || cli_interrupted() ? "true" : "false");
        out_str(&r.out, "}}\n");
    } else if (!r.nomem && (not_tried || cut_groups)) {
        char line[256];
        snprintf(line, sizeof line, "\n%s: %llu candidate change%s in %zu packet type%s not "
                 "tried or not measured on every sampled packet\n",
                 seen.stopped || cli_interrupted() ? "interrupted"
                                                   : "the budget of the search ran out",
                 (unsigned long long)not_tried, not_tried == 1 ? "" : "s", cut_groups,
                 cut_groups == 1 ? "" : "s");
        out_str(&r.out, line);
    }
    c->stdout_buffer = NULL;
    int failed = out_finish(&r.out) != 0;
    cli_report_counts(c, &counts);
    uint64_t invalid = seen.packets - seen.valid, packets = seen.packets;
    bitsift_diagnose_free(r.d);
    free(text);
    if (r.nomem) {
        cli_error("out of memory");
        return EXIT_TROUBLE;
    }
    if (failed || cli_had_trouble(c, &counts))
        return EXIT_TROUBLE;
    if (packets == 0 && !c->allow_empty) {
        cli_error("no packet was read in %llu input%s%s: exit status %d (--allow-empty "
                  "accepts this)",
                  (unsigned long long)counts.inputs, counts.inputs == 1 ? "" : "s",
                  options.filter ? " (no frame matched the filter)" : "", EXIT_EMPTY);
        return EXIT_EMPTY;
    }
    return invalid ? EXIT_INVALID : EXIT_VALID;
}
