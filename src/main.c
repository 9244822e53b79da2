/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * main.c -- the bitsift command line: GNU-style --help and --version, the
 * options every subcommand shares, and dispatch to one file per
 * subcommand (cmd_*.c).
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "config.h"

/* Which options each subcommand takes (letters of the short option, or
 * the long-only codes below). */
enum {
    OPT_JUNIT = 256,
    OPT_MAX_ERRORS,
    OPT_SRC,
    OPT_DST,
    OPT_STRICT,
    OPT_PROTOCOL,
    OPT_PREFIX,
    OPT_IN_PLACE,
    OPT_ALLOW_EMPTY,
    OPT_FRAME,
    OPT_NO_CRC,
    OPT_NAME,
    OPT_RAW,
    OPT_HELP = 'h',
    OPT_VERSION = 'V'
};

struct command {
    const char *name;
    int (*run)(struct cli *c);
    /* short letters; J = --junit, M = --max-errors, A = --src/--dst, S = --strict,
     * P = --protocol/--prefix, I = --in-place, E = --allow-empty, R = --frame,
     * C = --no-crc, N = --name, W = --raw */
    const char *options;
    const char *usage;   /* arguments after the options */
    const char *summary;
    int inputs; /* 0: none, 1: at least one */
};

static const struct command commands[] = {
    {"decode", cmd_decode, "sfpFcqSYRC", "INPUT...", "print each packet's fields (text or NDJSON)", 1},
    {"dump", cmd_dump, "sfpcqSYRC", "INPUT...", "bit-level annotated hex dump of each packet", 1},
    {"validate", cmd_validate, "sfpFcqSJMEYRC", "INPUT...",
     "check every packet; exit 0 when all are valid, 1 when not, 3 when none", 1},
    {"encode", cmd_encode, "sowqA", "[NDJSON...]",
     "write packets from NDJSON records (as decode prints them)", 0},
    {"stats", cmd_stats, "sfpFcqSYR", "INPUT...",
     "packets per type and error, bits per field (bandwidth profile)", 1},
    {"schema", cmd_schema, "", "FILE", "check a schema and print each packet type's layout", 1},
    {"seeds", cmd_seeds, "socq", "", "valid sealed packets of every packet type (a fuzz corpus)", 0},
    {"reseal", cmd_reseal, "soPIW", "FILE...", "store the right CRC into packet files", 1},
    {"diagnose", cmd_diagnose, "sfpFcqSE", "INPUT...",
     "find the schema change that explains failing packets (first -s: the schema)", 1},
    {"gen", cmd_gen, "sopN", "TARGET", "write code from a schema: a Wireshark dissector (wireshark), C (c), a fuzz harness (fuzz)",
     1},
};
#define COMMAND_COUNT (sizeof commands / sizeof commands[0])

static const struct option long_options[] = {
    {"schema", required_argument, NULL, 's'},
    {"filter", required_argument, NULL, 'f'},
    {"port", required_argument, NULL, 'p'},
    {"format", required_argument, NULL, 'F'},
    {"count", required_argument, NULL, 'c'},
    {"quiet", no_argument, NULL, 'q'},
    {"output", required_argument, NULL, 'o'},
    {"write", required_argument, NULL, 'w'},
    {"junit", required_argument, NULL, OPT_JUNIT},
    {"max-errors", required_argument, NULL, OPT_MAX_ERRORS},
    {"src", required_argument, NULL, OPT_SRC},
    {"dst", required_argument, NULL, OPT_DST},
    {"strict", no_argument, NULL, OPT_STRICT},
    {"protocol", required_argument, NULL, OPT_PROTOCOL},
    {"prefix", required_argument, NULL, OPT_PREFIX},
    {"in-place", no_argument, NULL, OPT_IN_PLACE},
    {"allow-empty", no_argument, NULL, OPT_ALLOW_EMPTY},
    {"display-filter", required_argument, NULL, 'Y'},
    {"frame", required_argument, NULL, OPT_FRAME},
    {"no-crc", no_argument, NULL, OPT_NO_CRC},
    {"name", required_argument, NULL, OPT_NAME},
    {"raw", no_argument, NULL, OPT_RAW},
    {"help", no_argument, NULL, OPT_HELP},
    {"version", no_argument, NULL, OPT_VERSION},
    {NULL, 0, NULL, 0},
};

static void usage_summary(FILE *fp)
{
    fprintf(fp, "Usage: %s COMMAND [OPTION]... [INPUT]...\n", cli_program);
}

static void help(void)
{
    usage_summary(stdout);
    printf("Decode, validate, encode and profile bit-packed game packets in pcap/pcapng\n"
           "captures, raw packet files, directories of them, and standard input.\n\n"
           "Commands:\n");
    for (size_t i = 0; i < COMMAND_COUNT; i++)
        printf("  %-9s %s\n", commands[i].name, commands[i].summary);
    printf("\n"
           "Options (each command takes those that apply to it):\n"
           "  -s, --schema FILE     protocol schema; repeat for several protocols (each\n"
           "                        packet is decoded by the one whose id fits its CRC);\n"
           "                        default: the bundled example protocol shooter.bss\n"
           "  -f, --filter EXPR     BPF filter for captures (tcpdump syntax)\n"
           "  -p, --port N          only UDP port N (same as -f 'udp port N')\n"
           "  -Y, --display-filter EXPR\n"
           "                        only the packets EXPR selects by their fields, type\n"
           "                        or failure: 'Snapshot.players[].health < 10'\n"
           "      --frame N[-M],... only these frame numbers of each input\n"
           "      --no-crc          decode past a CRC mismatch and report it (one schema)\n"
           "  -F, --format FORMAT   text (default) or json (NDJSON, one object a line)\n"
           "  -c, --count N         stop after N packets (0, the default: all)\n"
           "  -q, --quiet           decode: header lines only; others: no notes\n"
           "      --strict          reject data after the end of a packet\n"
           "      --junit FILE      validate: also write a JUnit XML report\n"
           "      --max-errors N    validate: print at most N failures (0, the default:\n"
           "                        all); every failure is still counted\n"
           "      --allow-empty     validate, diagnose: exit 0, not 3, when no packet was read\n"
           "  -o, --output PATH     encode: raw packet files into directory PATH, or\n"
           "                        one packet into file PATH; seeds: the directory;\n"
           "                        reseal: the resealed file; gen: the file (c: directory)\n"
           "      --protocol ID     reseal: the protocol id (instead of a schema)\n"
           "      --prefix N        reseal: bytes before the CRC field (with --protocol)\n"
           "      --in-place        reseal: rewrite each FILE\n"
           "      --raw             reseal: each FILE is one packet, even one whose\n"
           "                        first bytes are a capture header (else refused)\n"
           "  -w, --write FILE      encode: a pcap with Ethernet/IPv4/UDP headers\n"
           "      --src ADDR:PORT   encode: source address when a record has none\n"
           "      --dst ADDR:PORT   encode: destination address when a record has none\n"
           "      --name NAME       gen: the generated protocol's name (default: the\n"
           "                        schema's); with gen, -p N registers on UDP port N\n"
           "  -h, --help            show this help and exit\n"
           "  -V, --version         show the version and exit\n"
           "\n"
           "An INPUT is a capture, a raw packet file, a directory (read recursively,\n"
           "sorted), or - for standard input.\n"
           "\n"
           "Exit status: 0 when all is well, 1 when a packet is invalid (validate) or a\n"
           "record cannot be encoded (encode), 2 on a usage, schema, input or output error,\n"
           "3 when validate or diagnose found no packet (a filter matched nothing, an empty\n"
           "directory) and --allow-empty was not given.\n"
           "\n"
           "Examples:\n"
           "  %s decode examples/sample.pcap\n"
           "  %s validate --junit report.xml -s game.bss corpus/\n"
           "  %s decode -F json capture.pcapng | %s encode -w copy.pcap\n"
           "\n"
           "Full documentation: man bitsift. Report bugs to: %s\n",
           cli_program, cli_program, cli_program, cli_program, PACKAGE_BUGREPORT);
}

static void version(void)
{
    printf("bitsift %s (libbitsift %s, CRC32 %s)\n"
           "Copyright (C) 2026 the bitsift authors.\n"
           "License BSD-3-Clause: <https://spdx.org/licenses/BSD-3-Clause.html>.\n"
           "This is free software: you are free to change and redistribute it under the\n"
           "terms of that license (the file COPYING). There is NO WARRANTY, to the extent\n"
           "permitted by law.\n",
           PACKAGE_VERSION, bitsift_version_string(), bitsift_crc32_implementation());
}

/* After --help or --version: the text must have reached standard output
 * (a full disk, a closed pipe), else say so and exit 2. */
static int stdout_status(void)
{
    if (fflush(stdout) == 0 && !ferror(stdout))
        return EXIT_VALID;
    fprintf(stderr, "%s: write error on standard output: %s\n", cli_program,
            strerror(errno ? errno : EIO));
    return EXIT_TROUBLE;
}

static int usage_error(const char *command, const char *message, const char *arg)
{
    fprintf(stderr, "%s%s%s: %s%s%s\n", cli_program, command ? " " : "", command ? command : "",
            message, arg ? " " : "", arg ? arg : "");
    fprintf(stderr, "Try '%s%s%s --help' for more information.\n", cli_program,
            command ? " " : "", command ? command : "");
    return EXIT_TROUBLE;
}

static int parse_count(const char *text, uint64_t *value)
{
    char *end;
    if (!text[0] || text[0] == '-')
        return -1;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 10);
    if (errno || *end)
        return -1;
    *value = v;
    return 0;
}

static void command_help(const struct command *cmd)
{
    printf("Usage: %s %s [OPTION]... %s\n%c%s.\n\nOptions:", cli_program, cmd->name, cmd->usage,
           toupper((unsigned char)cmd->summary[0]), cmd->summary + 1);
    for (const char *o = cmd->options; *o; o++) {
        for (const struct option *lo = long_options; lo->name; lo++) {
            int match = lo->val == *o || (*o == 'J' && lo->val == OPT_JUNIT) ||
                        (*o == 'M' && lo->val == OPT_MAX_ERRORS) ||
                        (*o == 'A' && (lo->val == OPT_SRC || lo->val == OPT_DST)) ||
                        (*o == 'S' && lo->val == OPT_STRICT) ||
                        (*o == 'P' && (lo->val == OPT_PROTOCOL || lo->val == OPT_PREFIX)) ||
                        (*o == 'I' && lo->val == OPT_IN_PLACE) ||
                        (*o == 'E' && lo->val == OPT_ALLOW_EMPTY) ||
                        (*o == 'R' && lo->val == OPT_FRAME) ||
                        (*o == 'C' && lo->val == OPT_NO_CRC) ||
                        (*o == 'N' && lo->val == OPT_NAME) ||
                        (*o == 'W' && lo->val == OPT_RAW);
            if (match)
                printf(" --%s", lo->name);
        }
    }
    printf(" --help\nSee '%s --help' and man bitsift for details.\n", cli_program);
}

static int allowed(const struct command *cmd, int opt)
{
    int letter = opt == OPT_JUNIT ? 'J' : opt == OPT_MAX_ERRORS ? 'M' :
                 opt == OPT_SRC || opt == OPT_DST ? 'A' : opt == OPT_STRICT ? 'S' :
                 opt == OPT_PROTOCOL || opt == OPT_PREFIX ? 'P' : opt == OPT_IN_PLACE ? 'I' :
                 opt == OPT_ALLOW_EMPTY ? 'E' : opt == OPT_FRAME ? 'R' :
                 opt == OPT_NO_CRC ? 'C' : opt == OPT_NAME ? 'N' : opt == OPT_RAW ? 'W' : opt;
    return strchr(cmd->options, letter) != NULL;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage_summary(stderr);
        fprintf(stderr, "Try '%s --help' for more information.\n", cli_program);
        return EXIT_TROUBLE;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        help();
        return stdout_status();
    }
    if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0) {
        version();
        return stdout_status();
    }
    const struct command *cmd = NULL;
    for (size_t i = 0; i < COMMAND_COUNT; i++)
        if (strcmp(argv[1], commands[i].name) == 0)
            cmd = &commands[i];
    if (!cmd)
        return usage_error(NULL, argv[1][0] == '-' ? "unknown option" : "unknown command",
                           argv[1]);

    struct cli c;
    memset(&c, 0, sizeof c);
    c.command = cmd->name;
    int opt, longindex;
    char option_name[64];
    /* Parse the options after the command; '+' is not used so that options
     * may follow the inputs, as with most GNU tools. */
    optind = 2;
    opterr = 0;
    while ((longindex = -1,
            opt = getopt_long(argc, argv, ":s:f:p:F:c:qo:w:Y:hV", long_options, &longindex)) !=
           -1) {
        if (longindex >= 0)
            snprintf(option_name, sizeof option_name, "--%s", long_options[longindex].name);
        else
            snprintf(option_name, sizeof option_name, "-%c", opt);
        if (opt == '?')
            return usage_error(cmd->name, "unknown option", argv[optind - 1]);
        if (opt == ':')
            return usage_error(cmd->name, "option needs an argument:", argv[optind - 1]);
        if (opt == OPT_HELP) {
            command_help(cmd);
            return stdout_status();
        }
        if (opt == OPT_VERSION) {
            version();
            return stdout_status();
        }
        if (!allowed(cmd, opt))
            return usage_error(cmd->name, "option not valid for this command:", option_name);
        switch (opt) {
        case 's':
            if (c.schema_path_count == CLI_MAX_SCHEMAS)
                return usage_error(cmd->name, "too many schemas", NULL);
            c.schema_paths[c.schema_path_count++] = optarg;
            break;
        case 'f':
            c.filter = optarg;
            break;
        case 'p': {
            uint64_t port;
            if (parse_count(optarg, &port) != 0 || port > 65535)
                return usage_error(cmd->name, "port must be 0..65535, not", optarg);
            c.port = optarg;
            if (c.port_count == CLI_MAX_PORTS)
                return usage_error(cmd->name, "too many ports", NULL);
            c.ports[c.port_count++] = (uint16_t)port;
            break;
        }
        case 'F':
            if (strcmp(optarg, "text") == 0)
                c.format = FORMAT_TEXT;
            else if (strcmp(optarg, "json") == 0)
                c.format = FORMAT_JSON;
            else
                return usage_error(cmd->name, "format must be text or json, not", optarg);
            break;
        case 'c':
            if (parse_count(optarg, &c.count) != 0)
                return usage_error(cmd->name, "count must be a number, not", optarg);
            break;
        case 'q':
            c.quiet = 1;
            break;
        case 'o':
            c.output = optarg;
            break;
        case 'w':
            c.pcap_out = optarg;
            break;
        case OPT_JUNIT:
            c.junit = optarg;
            break;
        case OPT_MAX_ERRORS:
            if (parse_count(optarg, &c.max_errors) != 0)
                return usage_error(cmd->name, "--max-errors must be a number, not", optarg);
            break;
        case OPT_SRC:
            c.src = optarg;
            break;
        case OPT_DST:
            c.dst = optarg;
            break;
        case OPT_STRICT:
            c.strict = 1;
            break;
        case OPT_PROTOCOL:
            c.protocol = optarg;
            break;
        case OPT_PREFIX:
            c.prefix = optarg;
            break;
        case OPT_IN_PLACE:
            c.in_place = 1;
            break;
        case OPT_ALLOW_EMPTY:
            c.allow_empty = 1;
            break;
        case 'Y':
            if (c.display_filter)
                return usage_error(cmd->name, "give one -Y (join conditions with &&), not a second:",
                                   optarg);
            c.display_filter = optarg;
            break;
        case OPT_FRAME: {
            char message[256];
            if (frame_select_add(&c.frames, optarg, message, sizeof message) != 0) {
                frame_select_free(&c.frames);
                return usage_error(cmd->name, "--frame:", message);
            }
            break;
        }
        case OPT_NO_CRC:
            c.no_crc = 1;
            break;
        case OPT_NAME:
            c.name = optarg;
            break;
        case OPT_RAW:
            c.raw = 1;
            break;
        }
    }
    c.inputs = argv + optind;
    c.input_count = (size_t)(argc - optind);
    if (cmd->inputs && c.input_count == 0) {
        frame_select_free(&c.frames);
        return usage_error(cmd->name, "no input given", NULL);
    }
    cli_catch_interrupts();
    int status = cmd->run(&c);
    cli_free(&c);
    if (stdout_status() != EXIT_VALID)
        status = EXIT_TROUBLE;
    return status;
}
