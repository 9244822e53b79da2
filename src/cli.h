/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cli.h -- what the subcommands of the bitsift command share: the parsed
 * command line, exit statuses, the loaded schemas and protocol detection,
 * and the reporting of input problems.
 */
#ifndef BITSIFT_CLI_H
#define BITSIFT_CLI_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "bitsift.h"
#include "io/frame_select.h"
#include "io/input.h"
#include "print/out.h"

/* Exit statuses (documented in bitsift(1)). */
#define EXIT_VALID   0 /* all packets valid, command done */
#define EXIT_INVALID 1 /* some packet invalid (validate), some record not encoded (encode) */
#define EXIT_TROUBLE 2 /* usage, schema, input or output error */
#define EXIT_EMPTY   3 /* validate checked no packet at all (unless --allow-empty) */

#define CLI_MAX_SCHEMAS 64
#define CLI_MAX_PORTS   64

struct bitsift_filter;

enum cli_format { FORMAT_TEXT, FORMAT_JSON };

struct cli {
    const char *command;
    /* Options (see bitsift(1)). */
    const char *schema_paths[CLI_MAX_SCHEMAS];
    size_t schema_path_count;
    const char *filter;   /* -f */
    const char *port;     /* -p */
    enum cli_format format;
    uint64_t count;       /* -c, 0 = all */
    int quiet;            /* -q */
    int strict;           /* --strict: no data after the packet's end */
    const char *junit;    /* --junit FILE */
    uint64_t max_errors;  /* --max-errors, 0 = no limit */
    int allow_empty;      /* --allow-empty: validate of no packet exits 0 */
    const char *display_filter; /* -Y EXPR (bitsift/filter.h), compiled by cli_load_schemas */
    struct frame_select frames; /* --frame (empty: every frame) */
    int no_crc;           /* --no-crc: decode past a CRC mismatch (one schema only) */
    const char *output;   /* encode -o */
    const char *pcap_out; /* encode -w */
    const char *src;      /* encode --src ADDR:PORT */
    const char *dst;      /* encode --dst ADDR:PORT */
    const char *protocol; /* reseal --protocol ID */
    const char *prefix;   /* reseal --prefix N */
    int in_place;         /* reseal --in-place */
    int raw;              /* reseal --raw: every file one packet, a capture's header too */
    uint16_t ports[CLI_MAX_PORTS]; /* gen: every -p */
    size_t port_count;
    const char *name;     /* gen --name */
    char **inputs;
    size_t input_count;
    /* Loaded by cli_load_schemas. */
    bitsift_schema *schemas[CLI_MAX_SCHEMAS];
    size_t schema_count;
    struct bitsift_filter *display; /* -Y compiled against them, or NULL */
    char *bpf; /* the filter handed to libpcap (-f and -p combined) */
    /* Set when any input problem was reported. */
    int trouble;
    /* The command's buffered stdout, flushed before a message goes to
     * stderr so that the two stay in order on a terminal. */
    struct out *stdout_buffer;
};

/* The program name for messages ("bitsift"). */
extern const char *cli_program;

/* "bitsift: message" on stderr. */
void cli_error(const char *format, ...) __attribute__((format(printf, 1, 2)));

/* SIGINT, SIGTERM and SIGHUP (unless ignored) stop the run at the next
 * packet or file instead of killing it, so that the output produced so
 * far, summaries and reports included, is still written; the run then
 * exits 2. A second signal kills as usual. */
void cli_catch_interrupts(void);
/* The signal that asked the run to stop, or 0 (also what the library's
 * generators poll: bitsift_gen_options.stop). */
int cli_interrupted(void);

/* Load every -s schema, or the bundled default (shooter.bss) when there is
 * none, then compile -Y against them and check that --no-crc has one
 * schema. Prints compiler-style messages and returns -1 on failure. */
int cli_load_schemas(struct cli *c);
/* Compile one schema file, "-" being standard input (named "<stdin>" in
 * messages). On failure prints "bitsift: file:line:column: message" and
 * returns NULL. */
bitsift_schema *cli_load_schema(const char *path);
void cli_free(struct cli *c);
/* Path of the bundled default schema (first existing of $BITSIFT_SCHEMA_DIR,
 * the installed data directory, the source tree). */
const char *cli_default_schema(void);

/* Which schema a packet belongs to: the only one, or the one whose protocol
 * id makes its CRC valid; -1 when there are several and none fits. */
int cli_pick_schema(const struct cli *c, const uint8_t *data, size_t size);

/* Input options from the command line (filter with the -p shorthand). */
void cli_input_options(struct cli *c, struct input_options *options);

/* The default `problem` handler: "bitsift: source:packet N: message" on
 * stderr (unless -q for skipped-frame notes), and remembers the trouble.
 * A run of the same message for the same source is printed once, then
 * summed up in one line when it ends: "source:packets 2-1000: message
 * (repeated 999 times)". */
void cli_report_problem(void *cli, const char *source, uint64_t index, const char *message);

/* input_options' before_blocking and note: flush the output (stdout
 * buffer, held-back repeats); a note on stderr unless -q. */
void cli_flush_output(void *cli);
void cli_report_note(void *cli, const char *source, const char *message);

/* After a run: the end of a run of repeated problems, the one-line note on
 * skipped frames (stderr, unless -q), an interruption or lost output (out
 * of memory) as trouble; and whether anything could not be read. */
void cli_report_counts(struct cli *c, const struct input_counts *counts);
int cli_had_trouble(const struct cli *c, const struct input_counts *counts);

/* Subcommands: each returns an exit status. */
int cmd_decode(struct cli *c);
int cmd_dump(struct cli *c);
int cmd_validate(struct cli *c);
int cmd_encode(struct cli *c);
int cmd_stats(struct cli *c);
int cmd_schema(struct cli *c);
int cmd_seeds(struct cli *c);
int cmd_reseal(struct cli *c);
int cmd_diagnose(struct cli *c);
int cmd_gen(struct cli *c);

#endif /* BITSIFT_CLI_H */
