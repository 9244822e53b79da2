/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cmd_gen.c -- `bitsift gen TARGET -s SCHEMA -o OUTPUT`: code for another
 * tool written from a schema by one of the library's generators
 * (<bitsift/gen.h>). A target is one row of `targets`: its name, its
 * generator (one file, or a header and a source into a directory), and
 * whether it takes ports.
 *
 * Every output is written to a temporary file beside its target and
 * renamed over it only when the generator succeeded, so that a failed run
 * never leaves half a dissector where Wireshark would load it, nor a
 * header without its source.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

struct gen_target {
    const char *name;
    bitsift_error (*generate)(const bitsift_schema *, const bitsift_gen_options *, FILE *);
    /* Or a header and a source, NAME.h and NAME.c in the -o directory. */
    bitsift_error (*generate_pair)(const bitsift_schema *, const bitsift_gen_options *, FILE *,
                                   FILE *);
    bool takes_ports;
    const char *summary;
};

static const struct gen_target targets[] = {
    {"wireshark", bitsift_gen_wireshark, NULL, true, "a Lua dissector for Wireshark and tshark"},
    {"c", NULL, bitsift_gen_c, false, "C types and serialize functions (-o DIR: NAME.h, NAME.c)"},
};
#define TARGET_COUNT (sizeof targets / sizeof targets[0])

static const struct gen_target *find_target(const char *name)
{
    for (size_t i = 0; i < TARGET_COUNT; i++)
        if (strcmp(targets[i].name, name) == 0)
            return &targets[i];
    return NULL;
}

/* A temporary file beside `path`, with the mode open(2) would give a new
 * file (mkstemp makes it private; Wireshark, run by any user, reads it). */
static FILE *open_temp(const char *path, char **tmp_out)
{
    size_t n = strlen(path);
    char *tmp = malloc(n + sizeof ".XXXXXX");
    if (!tmp) {
        cli_error("out of memory");
        return NULL;
    }
    memcpy(tmp, path, n);
    memcpy(tmp + n, ".XXXXXX", sizeof ".XXXXXX");
    int fd = mkstemp(tmp);
    if (fd < 0) {
        cli_error("%s: cannot create a temporary file beside it: %s", path, strerror(errno));
        free(tmp);
        return NULL;
    }
    mode_t mask = umask(0);
    umask(mask);
    FILE *out = NULL;
    if (fchmod(fd, 0666 & ~mask) != 0 || !(out = fdopen(fd, "w"))) {
        cli_error("%s: %s", tmp, strerror(errno));
        close(fd);
        unlink(tmp);
        free(tmp);
        return NULL;
    }
    *tmp_out = tmp;
    return out;
}

static void report(const struct gen_target *t, const bitsift_schema *s,
                   const bitsift_gen_options *o, bitsift_error e, const char *path, int saved)
{
    if (e == BITSIFT_E_IO)
        cli_error("%s: write error: %s", path, strerror(saved));
    else if (e == BITSIFT_E_ARGUMENT)
        cli_error("gen %s: '%s' is not a name the generated code can take (letters, digits "
                  "and '_', not starting with a digit)",
                  t->name, o->name ? o->name : bitsift_schema_name(s));
    else if (o->error && o->error[0])
        cli_error("gen %s: %s", t->name, o->error);
    else
        cli_error("gen %s: %s", t->name, bitsift_error_string(e));
}

/* Generate into temporary files beside the outputs, then rename them
 * there: paths[0] (and paths[1] for a pair). */
static int write_atomically(const struct gen_target *t, const bitsift_schema *s,
                            const bitsift_gen_options *o, const char *const paths[2])
{
    int files = t->generate_pair ? 2 : 1;
    FILE *out[2] = {NULL, NULL};
    char *tmp[2] = {NULL, NULL};
    bitsift_error e = BITSIFT_OK;
    int saved = 0;
    const char *failed = paths[0];
    for (int i = 0; i < files; i++)
        if (!(out[i] = open_temp(paths[i], &tmp[i])))
            e = BITSIFT_E_LIMIT; /* reported by open_temp */
    if (e == BITSIFT_OK) {
        e = files == 2 ? t->generate_pair(s, o, out[0], out[1]) : t->generate(s, o, out[0]);
        saved = errno;
    }
    for (int i = 0; i < files; i++) {
        if (out[i] && fclose(out[i]) != 0 && e == BITSIFT_OK) {
            e = BITSIFT_E_IO;
            saved = errno;
            failed = paths[i];
        }
    }
    for (int i = 0; i < files && e == BITSIFT_OK; i++)
        if (rename(tmp[i], paths[i]) != 0) {
            e = BITSIFT_E_IO;
            saved = errno;
            failed = paths[i];
        }
    if (e != BITSIFT_OK) {
        if (e != BITSIFT_E_LIMIT || tmp[files - 1])
            report(t, s, o, e, failed, saved);
        for (int i = 0; i < files; i++)
            if (tmp[i])
                unlink(tmp[i]);
    }
    free(tmp[0]);
    free(tmp[1]);
    return e == BITSIFT_OK ? EXIT_VALID : EXIT_TROUBLE;
}

int cmd_gen(struct cli *c)
{
    if (c->input_count != 1) {
        cli_error("gen: give one target (%s)", targets[0].name);
        return EXIT_TROUBLE;
    }
    const struct gen_target *t = find_target(c->inputs[0]);
    if (!t) {
        cli_error("gen: unknown target '%s'; targets:", c->inputs[0]);
        for (size_t i = 0; i < TARGET_COUNT; i++)
            fprintf(stderr, "  %-10s %s\n", targets[i].name, targets[i].summary);
        return EXIT_TROUBLE;
    }
    if (!c->output) {
        cli_error("gen %s: no output %s (-o)", t->name, t->generate_pair ? "directory" : "file");
        return EXIT_TROUBLE;
    }
    if (c->port_count && !t->takes_ports) {
        cli_error("gen %s: this target takes no ports", t->name);
        return EXIT_TROUBLE;
    }
    if (c->schema_path_count > 1) {
        cli_error("gen %s: one schema at a time (-s)", t->name);
        return EXIT_TROUBLE;
    }
    if (cli_load_schemas(c) != 0)
        return EXIT_TROUBLE;
    char error[512] = "";
    bitsift_gen_options o = {c->name, c->ports, c->port_count, 0, error, sizeof error};
    const char *paths[2] = {c->output, NULL};
    char *made[2] = {NULL, NULL};
    if (t->generate_pair) {
        /* -o DIR: DIR/NAME.h and DIR/NAME.c, DIR made when missing. */
        const char *name = c->name ? c->name : bitsift_schema_name(c->schemas[0]);
        if (mkdir(c->output, 0777) != 0 && errno != EEXIST) {
            cli_error("%s: %s", c->output, strerror(errno));
            return EXIT_TROUBLE;
        }
        for (int i = 0; i < 2; i++) {
            size_t n = strlen(c->output) + strlen(name) + 4;
            if (!(made[i] = malloc(n))) {
                free(made[0]);
                cli_error("out of memory");
                return EXIT_TROUBLE;
            }
            snprintf(made[i], n, "%s/%s.%c", c->output, name, i ? 'c' : 'h');
            paths[i] = made[i];
        }
    }
    int rc = write_atomically(t, c->schemas[0], &o, paths);
    free(made[0]);
    free(made[1]);
    return rc;
}
