/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cmd_reseal.c -- `bitsift reseal`: store the right CRC32 into packet
 * files, so that an input a CRC-blind fuzzer found (a no-CRC build, a
 * harness that seals its inputs itself) reproduces on a release build.
 *
 *   bitsift reseal (-s SCHEMA... | --protocol ID [--prefix N])
 *                  (-o OUT | --in-place) [--raw] FILE...
 *
 * The framing is a schema's (with several, each packet is sealed for the
 * one it decodes furthest with, CRC ignored: libbitsift-fuzz's
 * bitsift_fuzz_seal) or a protocol id with its prefix bytes. The CRC is
 * the framing CRC (bitsift_packet_crc): zlib CRC32 over the protocol id,
 * 4 bytes little-endian, then the packet with its CRC field taken as zero.
 * Outputs go through output_file.c (beside their target, renamed into
 * place).
 *
 * A capture is refused, not resealed: its first bytes are a file header,
 * and a CRC stored there would destroy it (tell it by libpcap, as every
 * command does, and by its header, capture_header_format: a packet whose
 * CRC happens to be a magic number is still a packet). --raw takes every
 * file as one packet whatever it looks like.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bitsift/fuzz.h"
#include "io/capture.h"
#include "cli.h"
#include "io/output_file.h"

/* The largest packet file reseal reads: far above any UDP datagram. */
#define MAX_PACKET (1u << 20)

static bool parse_u32(const char *text, uint32_t max, uint32_t *value)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 0);
    if (!text[0] || text[0] == '-' || errno || *end || v > max)
        return false;
    *value = (uint32_t)v;
    return true;
}

/* The whole file, at most MAX_PACKET bytes; NULL after a message. */
static uint8_t *read_packet(const char *path, size_t *size)
{
    FILE *fp = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
    if (!fp) {
        cli_error("%s: %s", path, strerror(errno));
        return NULL;
    }
    struct stat st;
    if (fstat(fileno(fp), &st) == 0 && S_ISDIR(st.st_mode)) {
        cli_error("%s: is a directory; reseal takes packet files (one raw packet a file)", path);
        if (fp != stdin)
            fclose(fp);
        return NULL;
    }
    uint8_t *data = malloc(MAX_PACKET + 1);
    size_t n = data ? fread(data, 1, MAX_PACKET + 1, fp) : 0;
    bool failed = !data || ferror(fp);
    int saved = errno;
    if (fp != stdin)
        fclose(fp);
    if (failed || n > MAX_PACKET) {
        if (!data)
            cli_error("%s: out of memory", path);
        else if (failed)
            cli_error("%s: read error: %s", path, strerror(saved));
        else
            cli_error("%s: larger than 1 MiB: not a packet", path);
        free(data);
        return NULL;
    }
    *size = n;
    return data;
}

/* Whether the file is a capture (reported), which reseal must not touch:
 * libpcap reads it as one, or cannot but its header is a capture's (a
 * damaged capture). A packet whose CRC field merely holds a magic number
 * is neither. */
static bool is_capture(const char *path, const uint8_t *data, size_t size)
{
    capture *cap = NULL;
    char error[CAPTURE_ERROR_SIZE] = "";
    enum capture_open_result opened = capture_open_memory(data, size, &cap, error);
    capture_close(cap);
    enum capture_format format = capture_header_format(data, size);
    if (opened == CAPTURE_NOT_A_CAPTURE ||
        (opened == CAPTURE_FAILED && format == CAPTURE_FORMAT_NONE))
        return false;
    bool ng = format == CAPTURE_FORMAT_PCAPNG || (size >= 4 && memcmp(data, "\n\r\r\n", 4) == 0);
    char damage[CAPTURE_ERROR_SIZE + 16] = "";
    if (opened != CAPTURE_OPENED)
        snprintf(damage, sizeof damage, " (damaged: %s)", error);
    cli_error("%s: a %s capture%s, not a packet file: refused (reseal works on raw packet "
              "files, one packet a file as a fuzzer writes them, and would write a CRC over a "
              "capture's header)",
              path, ng ? "pcapng" : "pcap", damage);
    cli_error("%s: to reseal its packets, encode them again: bitsift decode --no-crc -F json -s "
              "SCHEMA %s | jq -c 'del(.valid)' | bitsift encode -s SCHEMA -w NEW.pcap (see "
              "reseal in bitsift(1)); --raw reseals the file as one packet",
              path, path);
    return true;
}

/* Write the packet to `path` through a temporary file beside it
 * (output_file.c), or to standard output for "-". */
static int write_packet(const char *path, const uint8_t *data, size_t size)
{
    if (strcmp(path, "-") == 0)
        return fwrite(data, 1, size, stdout) == size ? 0 : -1;
    if (output_file_write_whole(path, data, size) != 0) {
        cli_error("%s: %s", path, strerror(errno));
        return -1;
    }
    return 0;
}

int cmd_reseal(struct cli *c)
{
    if (!c->in_place == !c->output) {
        cli_error("reseal: give either -o OUT or --in-place");
        return EXIT_TROUBLE;
    }
    if (c->output && c->input_count != 1) {
        cli_error("reseal: -o takes one input; use --in-place for several");
        return EXIT_TROUBLE;
    }
    if (c->protocol && c->schema_path_count) {
        cli_error("reseal: give either -s SCHEMA or --protocol ID, not both");
        return EXIT_TROUBLE;
    }
    bitsift_fuzz *fz;
    uint32_t id = 0, prefix = 0;
    if (c->protocol) {
        if (!parse_u32(c->protocol, 0xffffffffu, &id)) {
            cli_error("reseal: --protocol must be a 32-bit number, not %s", c->protocol);
            return EXIT_TROUBLE;
        }
        if (c->prefix && !parse_u32(c->prefix, 65536, &prefix)) {
            cli_error("reseal: --prefix must be a number of bytes up to 65536, not %s",
                      c->prefix);
            return EXIT_TROUBLE;
        }
        fz = bitsift_fuzz_new_protocol(id, prefix, true);
    } else {
        if (c->prefix) {
            cli_error("reseal: --prefix goes with --protocol (a schema has its own)");
            return EXIT_TROUBLE;
        }
        if (cli_load_schemas(c) != 0)
            return EXIT_TROUBLE;
        fz = bitsift_fuzz_new_schemas((const bitsift_schema *const *)c->schemas,
                                      c->schema_count, 0);
    }
    if (!fz) {
        cli_error("reseal: out of memory");
        return EXIT_TROUBLE;
    }
    int status = EXIT_VALID;
    for (size_t i = 0; i < c->input_count; i++) {
        const char *in = c->inputs[i];
        size_t size;
        uint8_t *data = read_packet(in, &size);
        if (!data || (!c->raw && is_capture(in, data, size))) {
            free(data);
            status = EXIT_TROUBLE;
            continue;
        }
        unsigned which = bitsift_fuzz_protocol_of(fz, data, size);
        const bitsift_framing *f =
            c->protocol ? NULL : bitsift_schema_framing(c->schemas[which]);
        uint32_t need = (f ? f->prefix_bytes : prefix) + 4;
        if (f && !f->crc) {
            cli_error("%s: protocol %s has no CRC: nothing to reseal", in,
                      bitsift_schema_name(c->schemas[which]));
            status = EXIT_TROUBLE;
        } else if (size < need) {
            cli_error("%s: %zu bytes cannot hold a CRC field (%u bytes needed)", in, size, need);
            status = EXIT_TROUBLE;
        } else {
            bitsift_fuzz_seal_as(fz, which, data, size);
            if (write_packet(c->in_place ? in : c->output, data, size) != 0)
                status = EXIT_TROUBLE;
        }
        free(data);
    }
    bitsift_fuzz_free(fz);
    return status;
}
