/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cmd_gen.c -- `bitsift gen TARGET -s SCHEMA -o FILE`: code for another
 * tool written from a schema by one of the library's generators
 * (<bitsift/gen.h>). A target is one row of `targets`: its name, its
 * generator, and whether it takes ports.
 *
 * The output is written to a temporary file beside FILE and renamed over
 * it only when the generator succeeded, so that a failed run never leaves
 * half a dissector where Wireshark would load it.
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
    bool takes_ports;
    const char *summary;
};

static const struct gen_target targets[] = {
    {"wireshark", bitsift_gen_wireshark, true, "a Lua dissector for Wireshark and tshark"},
};
#define TARGET_COUNT (sizeof targets / sizeof targets[0])

static const struct gen_target *find_target(const char *name)
{
    for (size_t i = 0; i < TARGET_COUNT; i++)
        if (strcmp(targets[i].name, name) == 0)
            return &targets[i];
    return NULL;
}

/* Generate into a temporary file beside `path`, then rename it there. */
static int write_atomically(const struct gen_target *t, const bitsift_schema *s,
                            const bitsift_gen_options *o, const char *path)
{
    size_t n = strlen(path);
    char *tmp = malloc(n + sizeof ".XXXXXX");
    if (!tmp) {
        cli_error("out of memory");
        return EXIT_TROUBLE;
    }
    memcpy(tmp, path, n);
    memcpy(tmp + n, ".XXXXXX", sizeof ".XXXXXX");
    int fd = mkstemp(tmp);
    if (fd < 0) {
        cli_error("%s: cannot create a temporary file beside it: %s", path, strerror(errno));
        free(tmp);
        return EXIT_TROUBLE;
    }
    /* mkstemp makes the file private; the output is an ordinary file that
     * Wireshark, run by any user, reads: the mode open(2) would give it. */
    mode_t mask = umask(0);
    umask(mask);
    if (fchmod(fd, 0666 & ~mask) != 0) {
        cli_error("%s: %s", tmp, strerror(errno));
        close(fd);
        unlink(tmp);
        free(tmp);
        return EXIT_TROUBLE;
    }
    FILE *out = fdopen(fd, "w");
    if (!out) {
        cli_error("%s: %s", tmp, strerror(errno));
        close(fd);
        unlink(tmp);
        free(tmp);
        return EXIT_TROUBLE;
    }
    bitsift_error e = t->generate(s, o, out);
    int saved = errno;
    if (fclose(out) != 0 && e == BITSIFT_OK) {
        e = BITSIFT_E_IO;
        saved = errno;
    }
    if (e == BITSIFT_OK && rename(tmp, path) != 0) {
        e = BITSIFT_E_IO;
        saved = errno;
    }
    if (e != BITSIFT_OK) {
        if (e == BITSIFT_E_IO)
            cli_error("%s: write error: %s", path, strerror(saved));
        else if (e == BITSIFT_E_ARGUMENT)
            cli_error("gen %s: '%s' is not a name the generated code can take (letters, digits "
                      "and '_', not starting with a digit)",
                      t->name, o->name ? o->name : bitsift_schema_name(s));
        else
            cli_error("gen %s: %s", t->name, bitsift_error_string(e));
        unlink(tmp);
        free(tmp);
        return EXIT_TROUBLE;
    }
    free(tmp);
    return EXIT_VALID;
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
        cli_error("gen %s: no output file (-o FILE)", t->name);
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
    bitsift_gen_options o = {c->name, c->ports, c->port_count};
    return write_atomically(t, c->schemas[0], &o, c->output);
}
