/*
 * reseal.c -- store the right CRC32 into a framed packet, so that an input
 * found by a CRC-blind build (fuzz_packet_nocrc, or any *_seal harness,
 * which ignore the CRC bytes of their input) reproduces on a release build.
 *
 *   reseal -p PROTOCOL_ID [-x PREFIX_BYTES] (-i | -o OUT) FILE
 *
 *   -p ID   the protocol id (decimal, or 0x... hex) the CRC is seeded with
 *   -x N    opaque bytes before the CRC field (framing prefix), default 0
 *   -i      rewrite FILE in place
 *   -o OUT  write the resealed packet to OUT ("-" for standard output)
 *
 * The CRC is libbitsift's framing CRC (bitsift_packet_crc): zlib CRC32
 * over the protocol id, 4 LE bytes, then the packet from its CRC field on
 * with that field taken as zero. Exit status: 0 done, 1 I/O error, 2 usage
 * (also when FILE is too short to hold a CRC field).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bitsift.h"
#include "reseal.h"

/* The largest packet we accept: far above any UDP datagram. */
#define MAX_PACKET (1u << 20)

static void usage(void)
{
    fprintf(stderr, "usage: reseal -p PROTOCOL_ID [-x PREFIX_BYTES] (-i | -o OUT) FILE\n");
    exit(2);
}

static unsigned long parse_number(const char *text, unsigned long max, const char *what)
{
    char *end;
    errno = 0;
    unsigned long v = strtoul(text, &end, 0);
    if (errno || end == text || *end || v > max || text[0] == '-') {
        fprintf(stderr, "reseal: bad %s: %s\n", what, text);
        exit(2);
    }
    return v;
}

int main(int argc, char **argv)
{
    bitsift_framing f;
    bool have_id = false, in_place = false;
    const char *out = NULL;
    int opt;

    bitsift_framing_init(&f, 0);
    while ((opt = getopt(argc, argv, "p:x:io:")) != -1) {
        switch (opt) {
        case 'p':
            f.protocol_id = (uint32_t)parse_number(optarg, 0xffffffffu, "protocol id");
            have_id = true;
            break;
        case 'x':
            f.prefix_bytes = (uint32_t)parse_number(optarg, 1024, "prefix byte count");
            break;
        case 'i':
            in_place = true;
            break;
        case 'o':
            out = optarg;
            break;
        default:
            usage();
        }
    }
    if (!have_id || optind != argc - 1 || in_place == (out != NULL))
        usage();
    const char *in = argv[optind];
    if (in_place)
        out = in;

    static uint8_t packet[MAX_PACKET + 1];
    FILE *fp = fopen(in, "rb");
    if (!fp) {
        fprintf(stderr, "reseal: %s: %s\n", in, strerror(errno));
        return 1;
    }
    size_t size = fread(packet, 1, sizeof packet, fp);
    int read_error = ferror(fp);
    fclose(fp);
    if (read_error || size > MAX_PACKET) {
        fprintf(stderr, "reseal: %s: %s\n", in, read_error ? "read error" : "file too large");
        return 1;
    }
    if (size < (size_t)f.prefix_bytes + 4) {
        fprintf(stderr, "reseal: %s: %zu bytes cannot hold a %u-byte prefix and a CRC field\n",
                in, size, f.prefix_bytes);
        return 2;
    }
    fuzz_store_le32(packet + f.prefix_bytes, bitsift_packet_crc(&f, packet, size));

    fp = strcmp(out, "-") == 0 ? stdout : fopen(out, "wb");
    if (!fp || fwrite(packet, 1, size, fp) != size || (fp != stdout ? fclose(fp) : fflush(fp))) {
        fprintf(stderr, "reseal: %s: %s\n", out, strerror(errno));
        return 1;
    }
    return 0;
}
