/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * randomgen.c -- the random-tree seeds of fuzz_roundtrip: for each packet
 * type of each schema and the fills 0, 50 and 100, a 15-byte header
 * "RAND", schema index (the position of the schema on the command line,
 * as in the harness's bundled list), packet type, fill, seed (8 bytes
 * LE), named DIR/random-<schema>-<packet>-<fill>. Each header is checked:
 * the library must make a tree from it that encodes.
 *
 *   randomgen -o DIR SCHEMA.bss...
 *
 * Valid packets of every type (the other harnesses' seeds) come from
 * `bitsift seeds`.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bitsift.h"

#define MAX_PACKET (1u << 20)

static uint8_t out[MAX_PACKET];

static int write_seed(const char *dir, const char *name, const uint8_t *p, size_t n)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f) {
        fprintf(stderr, "randomgen: %s: %s\n", path, strerror(errno));
        return -1;
    }
    bool ok = fwrite(p, 1, n, f) == n;
    if (fclose(f) != 0 || !ok) {
        fprintf(stderr, "randomgen: %s: %s\n", path, strerror(errno));
        return -1;
    }
    return 0;
}

static int write_random_seeds(const char *dir, const char *schema_name, const bitsift_schema *s,
                              unsigned schema_index)
{
    static const unsigned fills[] = {0, 50, 100};
    bitsift_tree *tree = bitsift_tree_create(s);
    if (!tree)
        return -1;
    int status = 0;
    for (unsigned type = 0; type < bitsift_schema_packet_count(s) && status == 0; type++) {
        for (size_t f = 0; f < sizeof fills / sizeof fills[0]; f++) {
            uint64_t seed = 0x9E3779B97F4A7C15ull * (type + 1) + fills[f];
            uint8_t header[15] = {'R', 'A', 'N', 'D', (uint8_t)schema_index, (uint8_t)type,
                                  (uint8_t)fills[f]};
            for (int k = 0; k < 8; k++)
                header[7 + k] = (uint8_t)(seed >> (8 * k));
            size_t out_size;
            bitsift_result enc;
            if (bitsift_tree_random(tree, type, seed, fills[f]) != BITSIFT_OK ||
                bitsift_encode(s, tree, out, sizeof out, &out_size, &enc) != BITSIFT_OK) {
                fprintf(stderr, "randomgen: %s %s: the random tree (fill %u) does not encode\n",
                        schema_name, bitsift_schema_packet_name(s, type), fills[f]);
                status = -1;
                break;
            }
            char name[512];
            snprintf(name, sizeof name, "random-%s-%s-%u", schema_name,
                     bitsift_schema_packet_name(s, type), fills[f]);
            if (write_seed(dir, name, header, sizeof header) != 0) {
                status = -1;
                break;
            }
        }
    }
    bitsift_tree_free(tree);
    return status;
}

int main(int argc, char **argv)
{
    const char *dir = NULL;
    int opt;
    while ((opt = getopt(argc, argv, "o:")) != -1) {
        if (opt != 'o') {
            fprintf(stderr, "usage: randomgen -o DIR SCHEMA...\n");
            return 2;
        }
        dir = optarg;
    }
    if (!dir || optind >= argc) {
        fprintf(stderr, "usage: randomgen -o DIR SCHEMA...\n");
        return 2;
    }
    for (int a = optind; a < argc; a++) {
        bitsift_schema_error err;
        bitsift_schema *s = bitsift_schema_load_file(argv[a], &err);
        if (!s) {
            fprintf(stderr, "randomgen: %s\n", err.message);
            return 1;
        }
        char schema_name[256];
        const char *slash = strrchr(argv[a], '/');
        snprintf(schema_name, sizeof schema_name, "%s", slash ? slash + 1 : argv[a]);
        char *dot = strrchr(schema_name, '.');
        if (dot)
            *dot = '\0';
        int st = write_random_seeds(dir, schema_name, s, (unsigned)(a - optind));
        bitsift_schema_free(s);
        if (st != 0)
            return 1;
    }
    return 0;
}
