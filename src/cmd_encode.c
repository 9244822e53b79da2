/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cmd_encode.c -- `bitsift encode`: read NDJSON records as `decode -F json`
 * prints them and write the packets: raw files (-o DIR, one per record;
 * -o FILE for a single record; -o - to stdout) or a pcap (-w FILE) with
 * Ethernet/IPv4/UDP headers, addresses and times from the records.
 *
 * The records are read by libbitsift-tools (<bitsift/records.h>): each
 * line within its limits, into a value tree of its schema's packet type,
 * and encoded; this file runs it over the inputs, writes the packets and
 * prints what the reader refused.
 *
 * Records with "valid": false are skipped (there is no complete packet to
 * write) and counted. Exit 0 when every other record was written, 1 when
 * one could not be encoded, 2 on unreadable input or unwritable output.
 *
 * Outputs appear only when the run exits 0 (output_file.h): -w FILE and
 * -o FILE are written beside their target and renamed over it, -o DIR
 * into a temporary directory inside it whose files are moved in at the
 * end; a run that fails leaves every existing file as it was. An output
 * that is one of the inputs is refused.
 */
#define BITSIFT_EXPERIMENTAL
#include <bitsift/records.h>
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "io/capture.h"
#include "cli.h"
#include "io/encap.h"
#include "print/out.h"
#include "io/output_file.h"

#define PACKET_CAPACITY  (4u << 20)

struct encode_run {
    struct cli *cli;
    bitsift_record_reader *reader;
    uint8_t *packet;
    uint8_t *frame;
    capture_writer *pcap;
    FILE *single;     /* -o FILE or -o - */
    int stream;       /* single takes packet after packet (-o -) */
    const char *dir;  /* -o DIR */
    struct output_file file;   /* -w FILE, -o FILE (output_file.h) */
    struct output_dir staging; /* -o DIR: the temporary directory in it */
    struct decap_address default_src, default_dst;
    int64_t last_sec;
    uint32_t last_nsec;
    uint64_t records, written, skipped, failed;
    int trouble;
    const char *source; /* input being read */
    uint64_t line;      /* its line number */
};

static void record_error(struct encode_run *e, const char *message)
{
    fflush(stdout);
    fprintf(stderr, "%s: %s:%llu: %s\n", cli_program, e->source, (unsigned long long)e->line,
            message);
}

/* -o DIR: the packet as packet-NNNNNN.bin (the record's number) in the
 * temporary directory, moved into DIR when the run succeeds. */
static int write_packet_file(struct encode_run *e, size_t size)
{
    char name[64];
    snprintf(name, sizeof name, "packet-%06llu.bin", (unsigned long long)e->records);
    char *path = output_dir_path(&e->staging, name);
    if (!path) {
        cli_error("%s/%s: cannot write: %s", e->dir, name, strerror(errno));
        e->trouble = 1;
        return -1;
    }
    FILE *fp = fopen(path, "wb");
    int failed = !fp || fwrite(e->packet, 1, size, fp) != size;
    if (fp && fclose(fp) != 0)
        failed = 1;
    if (failed) {
        cli_error("%s/%s: cannot write: %s", e->dir, name, strerror(errno));
        e->trouble = 1;
    }
    free(path);
    return failed ? -1 : 0;
}

static int write_packet(struct encode_run *e, const bitsift_record *rec, size_t size)
{
    struct cli *c = e->cli;
    if (e->pcap) {
        struct decap_address src = e->default_src, dst = e->default_dst;
        if (rec->src && !c->src && encap_parse_address(rec->src, &src) != 0) {
            record_error(e, "bad \"src\" address");
            return -1;
        }
        if (rec->dst && !c->dst && encap_parse_address(rec->dst, &dst) != 0) {
            record_error(e, "bad \"dst\" address");
            return -1;
        }
        int64_t sec = e->last_sec;
        uint32_t nsec = e->last_nsec + 1000000; /* no time: 1 ms after the last */
        if (nsec >= 1000000000u) {
            sec++;
            nsec -= 1000000000u;
        }
        if (rec->time && bitsift_record_parse_time(rec->time, &sec, &nsec) != 0) {
            record_error(e, "bad \"time\" (RFC 3339 expected)");
            return -1;
        }
        if (sec < CAPTURE_WRITER_FIRST_SECOND || sec > CAPTURE_WRITER_LAST_SECOND) {
            record_error(e, "\"time\" outside what a classic pcap holds (1970-01-01T00:00:00Z "
                            "to 2038-01-19T03:14:07Z)");
            return -1;
        }
        e->last_sec = sec;
        e->last_nsec = nsec;
        size_t n = encap_udp_frame(e->frame, &src, &dst, (uint16_t)e->written, e->packet, size);
        if (n == 0) {
            record_error(e, src.family != dst.family ? "src and dst are not of one IP version"
                                                     : "packet too large for a UDP datagram");
            return -1;
        }
        if (capture_writer_write(e->pcap, sec, nsec, e->frame, n) != 0) {
            record_error(e, "cannot write the frame");
            return -1;
        }
        return 0;
    }
    if (e->single) {
        if (!e->stream && e->written >= 1) {
            record_error(e, "-o FILE holds one packet; give -o a directory for several");
            return -1;
        }
        if (fwrite(e->packet, 1, size, e->single) != size) {
            cli_error("%s: write error: %s", c->output ? c->output : "-", strerror(errno));
            e->trouble = 1;
            return -1;
        }
        return 0;
    }
    return write_packet_file(e, size);
}

/* One record of the input: read, encoded, written; what went wrong said
 * and counted. */
static void encode_record(struct encode_run *e, bitsift_record_status status,
                          const bitsift_record *rec, const bitsift_record_error *err)
{
    switch (status) {
    case BITSIFT_RECORD_SUMMARY:
        return; /* a validate summary line: nothing to write, not a record */
    case BITSIFT_RECORD_SKIPPED:
        e->records++;
        e->skipped++;
        return;
    case BITSIFT_RECORD_TOO_LONG:
        record_error(e, err->message);
        e->trouble = 1;
        return;
    case BITSIFT_RECORD_MALFORMED:
        e->records++;
        record_error(e, err->message);
        e->trouble = 1;
        return;
    case BITSIFT_RECORD_OK:
        break;
    default: /* BITSIFT_RECORD_REFUSED */
        e->records++;
        record_error(e, err->message);
        e->failed++;
        return;
    }
    e->records++;
    size_t packet_size = 0;
    bitsift_record_error refused;
    if (bitsift_record_encode(e->reader, rec, e->packet, PACKET_CAPACITY, &packet_size,
                              &refused) != BITSIFT_RECORD_OK) {
        record_error(e, refused.message);
        e->failed++;
        return;
    }
    if (write_packet(e, rec, packet_size) == 0)
        e->written++;
    else
        e->failed++;
}

static int stop_when_interrupted(void *ctx)
{
    (void)ctx;
    return cli_interrupted();
}

static void read_records(struct encode_run *e, FILE *fp, const char *source)
{
    bitsift_record_reader_start(e->reader, fp, stop_when_interrupted, NULL);
    e->source = source;
    e->line = 0;
    bitsift_record rec;
    bitsift_record_error err;
    bitsift_record_status status;
    while ((status = bitsift_record_next(e->reader, &rec, &err)) != BITSIFT_RECORD_END &&
           status != BITSIFT_RECORD_STOPPED && status != BITSIFT_RECORD_READ_ERROR) {
        e->line = err.line;
        encode_record(e, status, &rec, &err);
    }
    if (status == BITSIFT_RECORD_READ_ERROR && !cli_interrupted()) {
        cli_error("%s: %s", source, err.message);
        e->trouble = 1;
    }
}

/* An output that is one of the inputs would be read while it is replaced. */
static int output_is_an_input(const struct cli *c, const char *output)
{
    for (size_t i = 0; i < c->input_count; i++) {
        if (strcmp(c->inputs[i], "-") != 0 && output_is_same_file(output, c->inputs[i])) {
            cli_error("encode: the output %s is the input %s: refused", output, c->inputs[i]);
            return 1;
        }
    }
    return 0;
}

static int open_outputs(struct encode_run *e)
{
    struct cli *c = e->cli;
    char error[CAPTURE_ERROR_SIZE];
    if (!c->output && !c->pcap_out) {
        cli_error("encode: say where to write: -o DIR, -o FILE, -o - or -w FILE.pcap");
        return -1;
    }
    if (c->output && c->pcap_out) {
        cli_error("encode: -o and -w cannot be used together");
        return -1;
    }
    const char *target = c->pcap_out ? c->pcap_out : c->output;
    int to_stdout = strcmp(target, "-") == 0;
    struct stat st;
    if (!to_stdout && output_is_an_input(c, target))
        return -1;
    if (!c->pcap_out && !to_stdout && stat(target, &st) == 0 && S_ISDIR(st.st_mode)) {
        if (output_dir_open(&e->staging, target) != 0) {
            cli_error("%s: cannot write in this directory: %s", target, strerror(errno));
            return -1;
        }
        e->dir = target;
        return 0;
    }
    FILE *fp = stdout;
    if (!to_stdout) {
        if (output_file_open(&e->file, target) != 0) {
            cli_error("%s: cannot write: %s", target, strerror(errno));
            return -1;
        }
        fp = e->file.fp;
    }
    if (!c->pcap_out) {
        e->single = fp;
        e->stream = to_stdout;
        return 0;
    }
    e->pcap = capture_writer_open(fp, error);
    if (!e->pcap) {
        cli_error("%s: %s", target, error);
        return -1;
    }
    e->file.fp = NULL; /* the writer owns the stream now */
    return 0;
}

/* End the outputs: put them in place when the run succeeded (exit 0),
 * else remove what was written. Returns the exit status. */
static int close_outputs(struct encode_run *e, int status)
{
    struct cli *c = e->cli;
    if (e->pcap && capture_writer_close(e->pcap) != 0) {
        cli_error("%s: write error: %s", c->pcap_out, strerror(errno));
        status = EXIT_TROUBLE;
    }
    e->pcap = NULL;
    if (e->single == stdout && fflush(stdout) != 0) {
        cli_error("write error on standard output: %s", strerror(errno));
        status = EXIT_TROUBLE;
    }
    e->single = NULL;
    if (output_file_is_open(&e->file)) {
        const char *target = c->pcap_out ? c->pcap_out : c->output;
        if (status != EXIT_VALID) {
            output_file_discard(&e->file);
        } else if (output_file_commit(&e->file) != 0) {
            cli_error("%s: cannot write: %s", target, strerror(errno));
            status = EXIT_TROUBLE;
        }
    }
    if (e->staging.stage) {
        char *failed_name = NULL;
        if (status != EXIT_VALID) {
            output_dir_discard(&e->staging);
        } else if (output_dir_commit(&e->staging, &failed_name) != 0) {
            cli_error("%s/%s: cannot move into place: %s", e->dir,
                      failed_name ? failed_name : "", strerror(errno));
            status = EXIT_TROUBLE;
        }
        free(failed_name);
    }
    return status;
}

/* The default addresses: -1 (with a message) when --src or --dst is bad. */
static int parse_default_addresses(struct encode_run *e, const struct cli *c)
{
    if (encap_parse_address(c->src ? c->src : "10.0.0.1:40000", &e->default_src) != 0 ||
        encap_parse_address(c->dst ? c->dst : "10.0.0.2:27015", &e->default_dst) != 0) {
        cli_error("encode: --src and --dst take ADDR:PORT (IPv6 as [ADDR]:PORT)");
        return -1;
    }
    return 0;
}

/* The buffers and the record reader of a run: -1 (with a message) without
 * memory. */
static int encode_start(struct encode_run *e, struct cli *c)
{
    memset(e, 0, sizeof *e);
    e->cli = c;
    e->reader = bitsift_record_reader_create((const bitsift_schema *const *)c->schemas,
                                             c->schema_count);
    e->packet = malloc(PACKET_CAPACITY);
    e->frame = malloc(ENCAP_MAX_HEADERS + ENCAP_MAX_PAYLOAD);
    if (!e->reader || !e->packet || !e->frame) {
        cli_error("out of memory");
        return -1;
    }
    return 0;
}

static void encode_free(struct encode_run *e)
{
    bitsift_record_reader_free(e->reader);
    free(e->packet);
    free(e->frame);
}

int cmd_encode(struct cli *c)
{
    if (cli_load_schemas(c) != 0)
        return EXIT_TROUBLE;
    struct encode_run e;
    int status = EXIT_TROUBLE;
    if (encode_start(&e, c) != 0 || parse_default_addresses(&e, c) != 0 || open_outputs(&e) != 0)
        goto done;
    if (c->input_count == 0) {
        read_records(&e, stdin, "<stdin>");
    } else {
        for (size_t i = 0; i < c->input_count && !cli_interrupted(); i++) {
            if (strcmp(c->inputs[i], "-") == 0) {
                read_records(&e, stdin, "<stdin>");
                continue;
            }
            FILE *fp = fopen(c->inputs[i], "r");
            if (!fp) {
                if (!cli_interrupted()) /* else a blocked open of a FIFO */
                    cli_error("%s: cannot open: %s", c->inputs[i], strerror(errno));
                e.trouble = 1;
                continue;
            }
            read_records(&e, fp, c->inputs[i]);
            fclose(fp);
        }
    }
    if (cli_interrupted()) {
        cli_error("interrupted: stopped at record %llu", (unsigned long long)e.records);
        e.trouble = 1;
    }
    const char *target = c->pcap_out ? c->pcap_out : c->output;
    int staged = e.file.temp || e.staging.stage; /* replaced on success only */
    status = close_outputs(&e, e.trouble ? EXIT_TROUBLE : e.failed ? EXIT_INVALID : EXIT_VALID);
    if (staged && status != EXIT_VALID) {
        fflush(stdout);
        fprintf(stderr,
                "%s: %llu packets encoded, %llu invalid records skipped, %llu failed: %s left as "
                "it was (written only when every record is)\n",
                cli_program, (unsigned long long)e.written, (unsigned long long)e.skipped,
                (unsigned long long)e.failed, target);
    } else if (!c->quiet && (e.skipped || e.failed)) {
        fflush(stdout);
        fprintf(stderr, "%s: %llu packets written, %llu invalid records skipped, %llu failed\n",
                cli_program, (unsigned long long)e.written, (unsigned long long)e.skipped,
                (unsigned long long)e.failed);
    }
done:
    close_outputs(&e, EXIT_TROUBLE); /* after an early failure: remove what was made */
    encode_free(&e);
    return status;
}
