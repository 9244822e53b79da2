/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cmd_seeds.c -- `bitsift seeds -o DIR [-s SCHEMA]... [-c N]`: a seed
 * corpus for a fuzzer of the schemas' protocols: valid, sealed packets of
 * every packet type of every schema.
 *
 * Each seed is a random valid tree of the library (bitsift_tree_random:
 * every value in range, counts, conditions and sparse indices consistent)
 * encoded with its checks and CRC, then decoded again as a release reader
 * would (CRC checked) before it is written: a seed that does not decode
 * is a bug reported, never a file. Per packet type, N seeds (default 1)
 * at each of the fills 0, 50 and 100 (as empty as allowed, half, as full
 * as allowed), identical packets written once. A packet too large for
 * the encoder's buffer is tried again emptier, down to fill 0, then with
 * other values.
 *
 * Memory: a seed is at most MAX_SEED bytes, and so is the random tree it
 * is made from (bitsift_tree_random keeps lengths within it); a packet
 * type whose smallest packet is larger (a schema may declare 64 Ki arrays
 * of 64 KiB) is refused, with its size, before anything is built.
 *
 * Files are DIR/<protocol>-<packet>-<fill>-<n>, written beside their name
 * and renamed into place (output_file.c). DIR must exist (as for a fuzzer's corpus).
 * The first SIGINT, SIGTERM or SIGHUP stops the run between two seeds:
 * those written stay, whole, and the exit status is 2.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "io/output_file.h"

/* The largest seed: far above any datagram, so that a full 1024-slot
 * sparse array of structs still fits; the random trees keep to it. */
#define MAX_SEED BITSIFT_RANDOM_MAX_BYTES
/* Trees made for one seed at the most: emptier down to fill 0, then
 * other values at fill 0 (a condition may take a branch too large). */
#define MAX_TRIES 16
/* Seeds per fill a command line may ask for. */
#define MAX_PER_FILL 1000

static const unsigned fills[] = {0, 50, 100};

/* Write `size` bytes to DIR/NAME through a temporary file beside it
 * (output_file.c). */
static int write_seed(const char *dir, const char *name, const uint8_t *data, size_t size)
{
    char path[4096];
    if ((size_t)snprintf(path, sizeof path, "%s/%s", dir, name) >= sizeof path) {
        cli_error("%s/%s: path too long", dir, name);
        return -1;
    }
    if (output_file_write_whole(path, data, size) != 0) {
        cli_error("%s: %s", path, strerror(errno));
        return -1;
    }
    return 0;
}

/* A file name part: letters, digits, '_' and '-' kept, the rest '_'. */
static void name_part(char *out, size_t size, const char *name)
{
    size_t n = 0;
    for (; name && name[n] && n + 1 < size; n++) {
        char ch = name[n];
        bool keep = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
                    (ch >= '0' && ch <= '9') || ch == '_' || ch == '-';
        out[n] = keep ? ch : '_';
    }
    out[n] = 0;
}

/* FNV-1a of a seed, to skip packets already written for this type. */
static uint64_t seed_hash(const uint8_t *data, size_t size)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < size; i++)
        h = (h ^ data[i]) * 0x100000001b3ull;
    return h ^ size;
}

/* The seeds of one packet type; returns how many were written, -1 on an
 * error (reported). */
static long seeds_of_type(const struct cli *c, const bitsift_schema *s, unsigned type,
                          bitsift_tree *t, uint8_t *buf, uint64_t *hashes, size_t per_fill)
{
    char proto[64], packet[64], name[200];
    name_part(proto, sizeof proto, bitsift_schema_name(s));
    name_part(packet, sizeof packet, bitsift_schema_packet_name(s, type));
    size_t hash_count = 0;
    long written = 0;
    for (size_t f = 0; f < sizeof fills / sizeof fills[0]; f++) {
        for (size_t n = 0; n < per_fill && !cli_interrupted(); n++) {
            uint64_t seed = ((uint64_t)type << 32) ^ (f << 20) ^ n ^ 0x5eed5eedull;
            unsigned fill = fills[f];
            size_t size = 0;
            bitsift_error e;
            bitsift_result res;
            for (unsigned tries = 0;; tries++) {
                e = bitsift_tree_random(t, type, seed, fill);
                if (e == BITSIFT_OK)
                    e = bitsift_encode(s, t, buf, MAX_SEED, &size, &res);
                if (e == BITSIFT_OK || tries == MAX_TRIES)
                    break;
                if (fill > 0)
                    fill /= 2; /* too large: emptier */
                else
                    seed = seed * 0x9e3779b97f4a7c15ull + 1; /* other values (a branch) */
            }
            if (e == BITSIFT_E_LIMIT) {
                cli_error("%s: no packet of type %s could be made within %u bytes and the "
                          "random tree's node limit",
                          c->output, packet, MAX_SEED);
                return -1;
            }
            if (e != BITSIFT_OK) {
                cli_error("%s: no packet of type %s could be made: %s", c->output, packet,
                          bitsift_error_string(e));
                return -1;
            }
            bitsift_decode(s, buf, size, 0, NULL, &res);
            if (res.status != BITSIFT_OK) {
                char why[512];
                bitsift_failure_format(&res.failure, why, sizeof why);
                cli_error("%s-%s: a generated packet does not decode (a bug): %s", proto, packet,
                          why);
                return -1;
            }
            uint64_t h = seed_hash(buf, size);
            bool seen = false;
            for (size_t i = 0; i < hash_count; i++)
                seen = seen || hashes[i] == h;
            if (seen)
                continue;
            hashes[hash_count++] = h;
            snprintf(name, sizeof name, "%s-%s-%u-%zu", proto, packet, fills[f], n);
            if (write_seed(c->output, name, buf, size) != 0)
                return -1;
            written++;
        }
    }
    return written;
}

int cmd_seeds(struct cli *c)
{
    struct stat st;
    if (!c->output) {
        cli_error("seeds: -o DIR is required (the directory of the seed corpus)");
        return EXIT_TROUBLE;
    }
    if (stat(c->output, &st) != 0) {
        cli_error("%s: %s", c->output, strerror(errno));
        return EXIT_TROUBLE;
    }
    if (!S_ISDIR(st.st_mode)) {
        cli_error("%s: not a directory", c->output);
        return EXIT_TROUBLE;
    }
    size_t per_fill = c->count ? (size_t)c->count : 1;
    if (c->count > MAX_PER_FILL) {
        cli_error("seeds: -c %llu: at most %d seeds per fill", (unsigned long long)c->count,
                  MAX_PER_FILL);
        return EXIT_TROUBLE;
    }
    if (cli_load_schemas(c) != 0)
        return EXIT_TROUBLE;
    /* Every type of every schema must fit before anything is built. */
    for (size_t i = 0; i < c->schema_count; i++) {
        const bitsift_schema *s = c->schemas[i];
        for (unsigned type = 0; type < bitsift_schema_packet_count(s); type++) {
            uint64_t bytes = (bitsift_schema_packet_min_bits(s, type) + 7) / 8;
            if (bytes > MAX_SEED) {
                cli_error("seeds: protocol %s, packet type %s: its smallest packet is %llu bytes, over the "
                          "%u bytes a seed may take",
                          bitsift_schema_name(s), bitsift_schema_packet_name(s, type),
                          (unsigned long long)bytes, MAX_SEED);
                return EXIT_TROUBLE;
            }
        }
    }
    uint8_t *buf = malloc(MAX_SEED);
    uint64_t *hashes = malloc(sizeof *hashes * per_fill * (sizeof fills / sizeof fills[0]));
    int status = EXIT_VALID;
    if (!buf || !hashes) {
        cli_error("seeds: out of memory");
        status = EXIT_TROUBLE;
    }
    for (size_t i = 0; i < c->schema_count && status == EXIT_VALID; i++) {
        const bitsift_schema *s = c->schemas[i];
        bitsift_tree *t = bitsift_tree_create(s);
        if (!t) {
            cli_error("seeds: out of memory");
            status = EXIT_TROUBLE;
            break;
        }
        long total = 0;
        for (unsigned type = 0; type < bitsift_schema_packet_count(s) && !cli_interrupted();
             type++) {
            long n = seeds_of_type(c, s, type, t, buf, hashes, per_fill);
            if (n < 0) {
                status = EXIT_TROUBLE;
                break;
            }
            total += n;
        }
        bitsift_tree_free(t);
        if (cli_interrupted()) {
            /* Every seed written is whole (renamed into place); the
             * temporary of the one being written is removed. */
            cli_error("interrupted: %ld seeds of %s written in %s before the signal, the corpus "
                      "is incomplete",
                      total, bitsift_schema_name(s), c->output);
            status = EXIT_TROUBLE;
            break;
        }
        if (status == EXIT_VALID && !c->quiet)
            fprintf(stderr, "%s: %s: %ld seeds of %u packet types in %s\n", cli_program,
                    bitsift_schema_name(s), total, bitsift_schema_packet_count(s), c->output);
    }
    free(hashes);
    free(buf);
    return status;
}
