/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cmd_gen.c -- `bitsift gen TARGET -s SCHEMA -o OUTPUT`: code for another
 * tool written from a schema by one of the library's generators
 * (<bitsift/gen.h>). A target is one row of `targets`: its name, its
 * generator (one file, or a header and a source into a directory), and
 * whether it takes ports.
 *
 * The generator writes into memory first: a name or a schema it refuses
 * leaves nothing behind, not even the -o directory or a temporary file
 * beside a path the name would have made. Then every output goes through
 * output_file.h (a temporary file beside its target, renamed over it; a
 * device, FIFO or /dev/stdout written through), so that a failed write
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
#include "io/output_file.h"

/* The generators in one shape: out[] holds the target's files in order. */
static bitsift_error gen_wireshark(const bitsift_schema *s, const bitsift_gen_options *o,
                                   FILE **out)
{
    return bitsift_gen_wireshark(s, o, out[0]);
}

static bitsift_error gen_c(const bitsift_schema *s, const bitsift_gen_options *o, FILE **out)
{
    return bitsift_gen_c(s, o, out[0], out[1]);
}

static bitsift_error gen_fuzz(const bitsift_schema *s, const bitsift_gen_options *o, FILE **out)
{
    return bitsift_gen_fuzz(s, o, out[0], out[1], out[2]);
}

#define MAX_FILES 3

struct gen_target {
    const char *name;
    bitsift_error (*generate)(const bitsift_schema *, const bitsift_gen_options *, FILE **);
    /* NULL: -o names the one file; else -o is a directory and these are
     * the files' names in it, "%s" the generated code's name. */
    const char *files[MAX_FILES];
    bool takes_ports;
    const char *summary;
};

static const struct gen_target targets[] = {
    {"wireshark", gen_wireshark, {NULL}, true, "a Lua dissector for Wireshark and tshark"},
    {"c", gen_c, {"%s.h", "%s.c"}, false,
     "C types and serialize functions (-o DIR: NAME.h, NAME.c)"},
    {"fuzz", gen_fuzz, {"%s.h", "%s.c", "fuzz_%s.c"}, false,
     "gen c and a libFuzzer harness for its reader (-o DIR: ..., fuzz_NAME.c)"},
};
#define TARGET_COUNT (sizeof targets / sizeof targets[0])
static const struct gen_target *find_target(const char *name)
{
    for (size_t i = 0; i < TARGET_COUNT; i++)
        if (strcmp(targets[i].name, name) == 0)
            return &targets[i];
    return NULL;
}

static void report(const struct gen_target *t, const bitsift_schema *s,
                   const bitsift_gen_options *o, bitsift_error e)
{
    const char *name = o->name ? o->name : bitsift_schema_name(s);
    if (e == BITSIFT_E_ARGUMENT && o->error && o->error[0])
        cli_error("gen %s: %s (%s)", t->name, o->error,
                  o->name ? "--name" : "the schema's protocol name; give another with --name");
    else if (e == BITSIFT_E_ARGUMENT)
        cli_error("gen %s: '%s' is not a name the generated code can take (letters, digits "
                  "and '_', not starting with a digit)",
                  t->name, name);
    else if (o->error && o->error[0])
        cli_error("gen %s: %s", t->name, o->error);
    else
        cli_error("gen %s: %s", t->name, bitsift_error_string(e));
}

/* The schema file's text, for the comments gen c carries over: NULL (no
 * comments, no error) for standard input, which the schema was read
 * from, or a file that cannot be read again or has grown too large. */
static char *schema_text(const char *path, size_t *size)
{
    *size = 0;
    if (!path || strcmp(path, "-") == 0)
        return NULL;
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *text = malloc(BITSIFT_SCHEMA_MAX_TEXT + 1);
    size_t n = text ? fread(text, 1, BITSIFT_SCHEMA_MAX_TEXT + 1, f) : 0;
    bool bad = !text || ferror(f) || n > BITSIFT_SCHEMA_MAX_TEXT;
    fclose(f);
    if (bad) {
        free(text);
        return NULL;
    }
    *size = n;
    return text;
}

/* The generated files, in memory: generating first means that a name or
 * a schema the generator refuses leaves no file, temporary or not, and
 * no directory behind. */
struct generated {
    char *text[MAX_FILES];
    size_t size[MAX_FILES];
};

static void generated_free(struct generated *g)
{
    for (int i = 0; i < MAX_FILES; i++)
        free(g->text[i]);
}

static int generate(const struct gen_target *t, const bitsift_schema *s,
                    const bitsift_gen_options *o, int files, struct generated *g)
{
    FILE *out[MAX_FILES] = {NULL};
    bool opened = true;
    for (int i = 0; i < files && opened; i++)
        opened = (out[i] = open_memstream(&g->text[i], &g->size[i])) != NULL;
    bitsift_error e = opened ? t->generate(s, o, out) : BITSIFT_E_NOMEM;
    for (int i = 0; i < files; i++)
        if (out[i] && fclose(out[i]) != 0 && e == BITSIFT_OK)
            e = BITSIFT_E_NOMEM;
    if (e != BITSIFT_OK) {
        report(t, s, o, e);
        return EXIT_TROUBLE;
    }
    return EXIT_VALID;
}

/* Write the generated files to their outputs (output_file.h), all
 * committed only when every one was written: paths[0 .. files). */
static int write_atomically(const struct generated *g, const char *const *paths, int files)
{
    struct output_file out[MAX_FILES];
    int opened = 0;
    bool ok = true;
    for (; opened < files; opened++) {
        if (output_file_open(&out[opened], paths[opened]) != 0) {
            cli_error("%s: cannot write: %s", paths[opened], strerror(errno));
            ok = false;
            break;
        }
        if (fwrite(g->text[opened], 1, g->size[opened], out[opened].fp) != g->size[opened]) {
            cli_error("%s: write error: %s", paths[opened], strerror(errno));
            ok = false;
            opened++;
            break;
        }
    }
    for (int i = 0; i < opened; i++) {
        if (!ok) {
            output_file_discard(&out[i]);
        } else if (output_file_commit(&out[i]) != 0) {
            cli_error("%s: write error: %s", paths[i], strerror(errno));
            ok = false;
        }
    }
    return ok ? EXIT_VALID : EXIT_TROUBLE;
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
        cli_error("gen %s: no output %s (-o)", t->name, t->files[0] ? "directory" : "file");
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
    /* The fuzz harness loads the schema where it runs: its absolute path. */
    char *schema = c->schema_path_count ? realpath(c->schema_paths[0], NULL) : NULL;
    size_t text_size;
    char *text = schema_text(c->schema_path_count ? c->schema_paths[0] : NULL, &text_size);
    bitsift_gen_options o = {c->name, c->ports, c->port_count, 0, error, sizeof error, schema,
                             text, text_size, cli_interrupted};
    const char *paths[MAX_FILES] = {c->output};
    char *made[MAX_FILES] = {NULL};
    int files = 0;
    while (files < MAX_FILES && (files == 0 || t->files[files]))
        files++;
    struct generated g = {{NULL}, {0}};
    int rc = generate(t, c->schemas[0], &o, files, &g);
    if (rc == EXIT_VALID && t->files[0]) {
        /* -o DIR: the target's files in DIR, DIR made when missing. The
         * generator took the name, so it is an identifier: no path. */
        const char *name = c->name ? c->name : bitsift_schema_name(c->schemas[0]);
        if (mkdir(c->output, 0777) != 0 && errno != EEXIST) {
            cli_error("%s: %s", c->output, strerror(errno));
            rc = EXIT_TROUBLE;
        }
        for (int i = 0; i < files && rc == EXIT_VALID; i++) {
            size_t n = strlen(c->output) + strlen(name) + strlen(t->files[i]) + 2;
            if (!(made[i] = malloc(n))) {
                cli_error("out of memory");
                rc = EXIT_TROUBLE;
                break;
            }
            int k = snprintf(made[i], n, "%s/", c->output);
            snprintf(made[i] + k, n - (size_t)k, t->files[i], name);
            paths[i] = made[i];
        }
    }
    if (rc == EXIT_VALID)
        rc = write_atomically(&g, paths, files);
    generated_free(&g);
    for (int i = 0; i < files; i++)
        free(made[i]);
    free(schema);
    free(text);
    return rc;
}
