/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cli.c -- the parts every subcommand shares: loading the schemas (or the
 * bundled default), choosing a packet's protocol, reporting problems with
 * the inputs on stderr, and stopping cleanly on a signal.
 */
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define BITSIFT_EXPERIMENTAL /* -Y: <bitsift/filter.h> */
#include "bitsift/filter.h"

#include "cli.h"

const char *cli_program = "bitsift";

/* ---- runs of one repeated problem ---------------------------------------- */

/* The problem printed last, and the repeats of it held back since. */
static struct {
    char *source, *message;
    uint64_t first, last; /* frame numbers of the repeats held back */
    uint64_t count;       /* how many */
} repeat;

/* Print the repeats held back, if any, in one line. */
static void flush_repeats(void)
{
    if (repeat.count) {
        fflush(stdout);
        if (repeat.first)
            fprintf(stderr, "%s: %s:packets %llu-%llu: %s (repeated %llu times)\n", cli_program,
                    repeat.source, (unsigned long long)repeat.first,
                    (unsigned long long)repeat.last, repeat.message,
                    (unsigned long long)repeat.count);
        else
            fprintf(stderr, "%s: %s: %s (repeated %llu times)\n", cli_program, repeat.source,
                    repeat.message, (unsigned long long)repeat.count);
    }
    repeat.count = 0;
}

static void forget_repeats(void)
{
    flush_repeats();
    free(repeat.source);
    free(repeat.message);
    repeat.source = repeat.message = NULL;
}

/* Whether this problem repeats the last one printed (and is held back). */
static int held_back(const char *source, uint64_t index, const char *message)
{
    if (!repeat.source || strcmp(repeat.source, source) != 0 ||
        strcmp(repeat.message, message) != 0)
        return 0;
    if (!repeat.count)
        repeat.first = index;
    repeat.last = index;
    repeat.count++;
    return 1;
}

/* Remember the problem just printed (without memory: nothing is held back). */
static void remember(const char *source, const char *message)
{
    forget_repeats();
    repeat.source = strdup(source);
    repeat.message = strdup(message);
    if (!repeat.source || !repeat.message)
        forget_repeats();
}

/* ---- signals ----------------------------------------------------------------- */

static volatile sig_atomic_t interrupted;

static void on_interrupt(int signal_number)
{
    interrupted = signal_number;
}

void cli_catch_interrupts(void)
{
    static const int signals[] = {SIGINT, SIGTERM, SIGHUP};
    for (size_t i = 0; i < sizeof signals / sizeof signals[0]; i++) {
        struct sigaction old, sa;
        /* A signal the shell ignores (SIGINT for a background job) stays so. */
        if (sigaction(signals[i], NULL, &old) != 0 || old.sa_handler == SIG_IGN)
            continue;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_interrupt;
        sigemptyset(&sa.sa_mask);
        /* No SA_RESTART: a read blocked on a FIFO returns (EINTR) and the
         * run can stop; SA_RESETHAND: a second signal kills. */
        sa.sa_flags = SA_RESETHAND;
        sigaction(signals[i], &sa, NULL);
    }
}

int cli_interrupted(void)
{
    return interrupted;
}

/* ---- messages ---------------------------------------------------------------- */

void cli_error(const char *format, ...)
{
    va_list ap;
    flush_repeats();
    fflush(stdout);
    fprintf(stderr, "%s: ", cli_program);
    va_start(ap, format);
    vfprintf(stderr, format, ap);
    va_end(ap);
    fputc('\n', stderr);
}

#define DEFAULT_SCHEMA "shooter.bss"
/* Set by src/local.mk; builds of the fuzz harnesses that link this file
 * never look for the bundled schema. */
#ifndef BITSIFT_PKGDATADIR
#define BITSIFT_PKGDATADIR ""
#endif
#ifndef BITSIFT_SOURCE_EXAMPLES
#define BITSIFT_SOURCE_EXAMPLES ""
#endif

/* Where the bundled schema lives: $BITSIFT_SCHEMA_DIR (tests, relocated
 * installs), then the installed data directory, then the source tree the
 * program was built from (so that an uninstalled ./src/bitsift works). */
const char *cli_default_schema(void)
{
    static char path[4096];
    const char *dirs[3] = {getenv("BITSIFT_SCHEMA_DIR"), BITSIFT_PKGDATADIR,
                           BITSIFT_SOURCE_EXAMPLES};
    for (size_t i = 0; i < 3; i++) {
        if (!dirs[i] || !dirs[i][0])
            continue;
        snprintf(path, sizeof path, "%s/%s", dirs[i], DEFAULT_SCHEMA);
        if (access(path, R_OK) == 0)
            return path;
    }
    snprintf(path, sizeof path, "%s/%s", BITSIFT_PKGDATADIR, DEFAULT_SCHEMA);
    return path;
}

/* Standard input as schema text: at most BITSIFT_SCHEMA_MAX_TEXT bytes,
 * one more read to tell a larger one. */
static bitsift_schema *compile_stdin(bitsift_schema_error *err)
{
    size_t cap = BITSIFT_SCHEMA_MAX_TEXT + 1, n = 0;
    char *text = malloc(cap);
    if (!text) {
        snprintf(err->message, sizeof err->message, "<stdin>: out of memory");
        return NULL;
    }
    size_t got;
    while (n < cap && (got = fread(text + n, 1, cap - n, stdin)) > 0)
        n += got;
    bitsift_schema *s = NULL;
    if (ferror(stdin))
        snprintf(err->message, sizeof err->message, "<stdin>: read error");
    else if (n > BITSIFT_SCHEMA_MAX_TEXT)
        snprintf(err->message, sizeof err->message, "<stdin>: schema larger than 1 MiB");
    else
        s = bitsift_schema_compile(text, n, "<stdin>", err);
    free(text);
    return s;
}

bitsift_schema *cli_load_schema(const char *path)
{
    bitsift_schema_error err;
    memset(&err, 0, sizeof err);
    bitsift_schema *s = strcmp(path, "-") == 0 ? compile_stdin(&err)
                                               : bitsift_schema_load_file(path, &err);
    if (!s) {
        if (err.message[0])
            cli_error("%s", err.message);
        else
            cli_error("%s: cannot load schema", path);
    }
    return s;
}

/* Standard input can be read once: a -s - schema cannot share it with
 * another -s - or with the packets or records. */
static int stdin_taken_twice(const struct cli *c)
{
    size_t schemas = 0, others = 0;
    for (size_t i = 0; i < c->schema_path_count; i++)
        schemas += strcmp(c->schema_paths[i], "-") == 0;
    for (size_t i = 0; i < c->input_count; i++)
        others += strcmp(c->inputs[i], "-") == 0;
    if (c->input_count == 0 && strcmp(c->command, "encode") == 0)
        others++; /* encode reads its records from stdin by default */
    return schemas && schemas + others > 1;
}

/* Why -Y did not compile: "-Y column N: what", cut at 511 bytes as the
 * command always cut it; an allocation failure is no fault of the
 * expression's and says so alone when it has no column. */
static void print_filter_error(const bitsift_filter_error *err)
{
    enum { MESSAGE_MAX = 511 };
    char where[32] = "";
    if (err->column)
        snprintf(where, sizeof where, "-Y column %u: ", err->column);
    else if (err->kind != BITSIFT_E_NOMEM)
        strcpy(where, "-Y: ");
    cli_error("%s%.*s", where, (int)(MESSAGE_MAX - strlen(where)), err->message);
}

int cli_load_schemas(struct cli *c)
{
    if (c->schema_path_count == 0) {
        c->schema_paths[0] = cli_default_schema();
        c->schema_path_count = 1;
    }
    if (stdin_taken_twice(c)) {
        cli_error("standard input can hold a schema (-s -) or the input, not both");
        return -1;
    }
    for (size_t i = 0; i < c->schema_path_count; i++) {
        bitsift_schema *s = cli_load_schema(c->schema_paths[i]);
        if (!s)
            return -1;
        c->schemas[c->schema_count++] = s;
    }
    if (c->no_crc && c->schema_count != 1) {
        /* Several schemas are told apart by their CRC. */
        cli_error("--no-crc needs exactly one schema: with several, the CRC is what tells "
                  "which one a packet belongs to");
        return -1;
    }
    if (c->display_filter) {
        bitsift_filter_error err;
        c->display = bitsift_filter_compile(c->display_filter,
                                            (const bitsift_schema *const *)c->schemas,
                                            c->schema_count, &err);
        if (!c->display) {
            print_filter_error(&err);
            return -1;
        }
    }
    return 0;
}

void cli_free(struct cli *c)
{
    for (size_t i = 0; i < c->schema_count; i++)
        bitsift_schema_free(c->schemas[i]);
    c->schema_count = 0;
    bitsift_filter_free(c->display);
    c->display = NULL;
    frame_select_free(&c->frames);
    free(c->bpf);
    c->bpf = NULL;
}

int cli_pick_schema(const struct cli *c, const uint8_t *data, size_t size)
{
    if (c->schema_count == 1)
        return 0;
    return bitsift_detect((const bitsift_schema *const *)c->schemas, c->schema_count, data, size);
}

void cli_input_options(struct cli *c, struct input_options *options)
{
    memset(options, 0, sizeof *options);
    if (c->port && c->filter) {
        size_t size = strlen(c->filter) + strlen(c->port) + 32;
        c->bpf = malloc(size);
        if (c->bpf)
            snprintf(c->bpf, size, "(%s) and udp port %s", c->filter, c->port);
    } else if (c->port) {
        size_t size = strlen(c->port) + 16;
        c->bpf = malloc(size);
        if (c->bpf)
            snprintf(c->bpf, size, "udp port %s", c->port);
    } else if (c->filter) {
        c->bpf = strdup(c->filter);
    }
    options->filter = c->bpf;
    options->before_blocking = cli_flush_output;
    options->note = cli_report_note;
    options->ctx = c;
    options->stop = &interrupted;
    options->frames = &c->frames;
}

void cli_report_problem(void *ctx, const char *source, uint64_t index, const char *message)
{
    struct cli *c = ctx;
    c->trouble = 1;
    if (held_back(source, index, message))
        return;
    if (c->stdout_buffer)
        out_flush(c->stdout_buffer);
    flush_repeats();
    fflush(stdout);
    if (index)
        fprintf(stderr, "%s: %s:packet %llu: %s\n", cli_program, source,
                (unsigned long long)index, message);
    else
        fprintf(stderr, "%s: %s: %s\n", cli_program, source, message);
    remember(source, message);
}

void cli_flush_output(void *ctx)
{
    struct cli *c = ctx;
    if (c->stdout_buffer)
        out_flush(c->stdout_buffer);
    flush_repeats();
    fflush(stdout);
}

void cli_report_note(void *ctx, const char *source, const char *message)
{
    struct cli *c = ctx;
    if (c->quiet)
        return;
    cli_flush_output(c);
    fprintf(stderr, "%s: %s: %s\n", cli_program, source, message);
}

void cli_report_counts(struct cli *c, const struct input_counts *n)
{
    forget_repeats();
    if (interrupted) {
        cli_error("interrupted by %s: the output covers what was read before",
                  interrupted == SIGINT    ? "SIGINT"
                  : interrupted == SIGTERM ? "SIGTERM"
                                           : "SIGHUP");
        c->trouble = 1;
    }
    if (out_memory_failures) {
        cli_error("out of memory: some output is incomplete");
        c->trouble = 1;
    }
    uint64_t skipped = n->not_ip + n->not_udp;
    if (c->quiet || skipped == 0)
        return;
    fflush(stdout);
    fprintf(stderr, "%s: %llu frame%s skipped (%llu not IP, %llu not UDP)\n", cli_program,
            (unsigned long long)skipped, skipped == 1 ? "" : "s", (unsigned long long)n->not_ip,
            (unsigned long long)n->not_udp);
}

int cli_had_trouble(const struct cli *c, const struct input_counts *n)
{
    return c->trouble || interrupted || out_memory_failures || n->errors || n->fragments ||
           n->snapped || n->malformed;
}
