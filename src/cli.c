/*
 * cli.c -- the parts every subcommand shares: loading the schemas (or the
 * bundled default), choosing a packet's protocol, and reporting problems
 * with the inputs on stderr.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

const char *cli_program = "bitsift";

void cli_error(const char *format, ...)
{
    va_list ap;
    fflush(stdout);
    fprintf(stderr, "%s: ", cli_program);
    va_start(ap, format);
    vfprintf(stderr, format, ap);
    va_end(ap);
    fputc('\n', stderr);
}

#define DEFAULT_SCHEMA "shooter.bss"

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
    return 0;
}

void cli_free(struct cli *c)
{
    for (size_t i = 0; i < c->schema_count; i++)
        bitsift_schema_free(c->schemas[i]);
    c->schema_count = 0;
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
}

void cli_report_problem(void *ctx, const char *source, uint64_t index, const char *message)
{
    struct cli *c = ctx;
    c->trouble = 1;
    if (c->stdout_buffer)
        out_flush(c->stdout_buffer);
    fflush(stdout);
    if (index)
        fprintf(stderr, "%s: %s:packet %llu: %s\n", cli_program, source,
                (unsigned long long)index, message);
    else
        fprintf(stderr, "%s: %s: %s\n", cli_program, source, message);
}

void cli_report_counts(struct cli *c, const struct input_counts *n)
{
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
    return c->trouble || n->errors || n->fragments || n->snapped || n->malformed;
}
