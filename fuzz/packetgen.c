/*
 * packetgen.c -- makes valid, sealed packets of every packet type of a
 * schema, with no knowledge of the schema beyond what the library tells:
 * the seed corpus of the packet harnesses, for the bundled examples and
 * for a user's own schema.
 *
 *   packetgen [-d] [-v VARIANTS] [-p PREFIX] -o DIR SCHEMA.bss...
 *
 * For each packet type it starts from a buffer (all zeros, all ones, then
 * pseudo-random bytes: VARIANTS buffers, default 4), puts the type number
 * in the type field and decodes it (CRC ignored). Each failure tells what
 * to repair — a check marker to write, padding to clear, a raw value above
 * its range to lower, a string byte to replace, bytes missing at the end —
 * and the decode is tried again, until the packet decodes (or a bounded
 * number of repairs fails). The decoded tree is then encoded: the seed is
 * the encoder's canonical, CRC-sealed packet. Files are named
 * DIR/PREFIX<schema>-<packet>-<variant> (duplicates skipped).
 *
 * Zeros give minimum values, empty arrays and absent conditionals; ones
 * give maximum counts and present conditionals; random bytes the rest.
 *
 *   packetgen -r [-p PREFIX] -o DIR SCHEMA.bss...
 *
 * writes instead the random-tree seeds of fuzz_roundtrip: for each packet
 * type and the fills 0, 50 and 100 a 15-byte header "RAND", schema index
 * (the position of the schema on the command line, as in the harness's
 * bundled list), packet type, fill, seed (8 bytes LE), named
 * DIR/PREFIXrandom-<schema>-<packet>-<fill>. Each header is checked: the
 * library must make a tree from it that encodes.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bitsift.h"

#define MAX_PACKET   4096
#define MAX_REPAIRS  4000
#define MAX_VARIANTS 64

static uint8_t buf[MAX_PACKET];
static size_t buf_size;
static uint64_t rng_state;
static int debug; /* -d: print each failure and its repair */

static uint8_t next_random(void)
{
    /* xorshift64*: reproducible seeds from one fixed start. */
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return (uint8_t)((rng_state * 0x2545F4914F6CDD1Dull) >> 56);
}

static uint8_t fill_byte(int variant)
{
    return variant == 0 ? 0x00 : variant == 1 ? 0xff : next_random();
}

/* Store `width` bits of value at stream bit `bit` (LSB first). */
static void set_bits(uint64_t bit, unsigned width, uint64_t value)
{
    for (unsigned i = 0; i < width; i++, bit++) {
        if (bit / 8 >= buf_size)
            return;
        uint8_t mask = (uint8_t)(1u << (bit & 7));
        if ((value >> i) & 1)
            buf[bit / 8] |= mask;
        else
            buf[bit / 8] &= (uint8_t)~mask;
    }
}

static void grow(size_t size, int variant)
{
    if (size > MAX_PACKET)
        size = MAX_PACKET;
    while (buf_size < size)
        buf[buf_size++] = fill_byte(variant);
}

/* The schema field a failure path names ("objects[3].id" is the field
 * "objects[].id"); false when there is none. */
static bool failed_field(const bitsift_schema *s, const bitsift_result *res,
                         bitsift_field_info *info)
{
    char path[BITSIFT_PATH_MAX];
    size_t n = 0;
    for (const char *p = res->path; *p && n + 3 < sizeof path; p++) {
        path[n++] = *p;
        if (*p == '[') {
            while (p[1] && p[1] != ']')
                p++;
        }
    }
    path[n] = '\0';
    unsigned count = bitsift_schema_field_count(s);
    for (unsigned id = 0; id < count; id++)
        if (bitsift_schema_field_info(s, id, info) && (int)info->packet_type == res->packet_type &&
            strcmp(info->path, path) == 0)
            return true;
    return false;
}

/* One repair step from the failure of a decode. False when there is
 * nothing sensible left to try. */
static bool repair(const bitsift_schema *s, const bitsift_result *res, int variant,
                   unsigned *same)
{
    static uint64_t last_bit = UINT64_MAX;
    static bitsift_error last_kind;
    const bitsift_failure *f = &res->failure;
    if (debug) {
        char message[512];
        bitsift_failure_format(f, message, sizeof message);
        fprintf(stderr, "packetgen: %zu bytes: %s (%s)\n", buf_size, message, res->path);
    }
    if (f->bit == last_bit && f->kind == last_kind)
        (*same)++;
    else
        *same = 0;
    last_bit = f->bit;
    last_kind = f->kind;
    if (*same > 6)
        return false;
    if (*same > 3) {
        /* The simple repair did not help (a ladder tier, a relation to a
         * previous value): make everything from here on zeros, then ones. */
        for (uint64_t b = f->bit; b < (uint64_t)buf_size * 8; b++)
            set_bits(b, 1, *same & 1);
        return true;
    }

    switch (f->kind) {
    case BITSIFT_E_OVERFLOW: {
        if (buf_size >= MAX_PACKET)
            return false;
        uint64_t missing = f->expected > f->got ? f->expected - f->got : 8;
        grow(buf_size + (size_t)((missing + 7) / 8) + 1, variant);
        return true;
    }
    case BITSIFT_E_CHECK:
        set_bits(f->bit, 32, f->expected);
        return true;
    case BITSIFT_E_ALIGN:
        set_bits(f->bit, (unsigned)(8 - (f->bit & 7)) & 7, 0);
        return true;
    case BITSIFT_E_RANGE: {
        bitsift_field_info info;
        if (f->why && strcmp(f->why, "raw value above range") != 0 && failed_field(s, res, &info) &&
            (info.type == BITSIFT_FIELD_INT || info.type == BITSIFT_FIELD_ENUM) &&
            (int64_t)f->expected >= info.min && (int64_t)f->expected <= info.max && *same < 2) {
            /* A value constraint (== or in {...}): write the value it names. */
            set_bits(f->bit, bitsift_bits_required(info.min, info.max),
                     (uint64_t)((int64_t)f->expected - info.min));
            return true;
        }
        unsigned width = bitsift_bits_required(0, (int64_t)(f->expected & INT64_MAX));
        if (width == 0 || f->expected >= f->got)
            width = width ? width : 1;
        /* First a value inside the range, then its top (for a sentinel
         * index: the end of the list), then its bottom. */
        uint64_t value = *same == 0 ? f->got % (f->expected + 1) : *same == 1 ? f->expected : 0;
        set_bits(f->bit, width, value);
        return true;
    }
    case BITSIFT_E_STRING: {
        uint64_t at = f->bit / 8 + f->got;
        if (at < buf_size)
            buf[at] = 'a';
        return true;
    }
    default:
        return false;
    }
}

static int write_seed(const char *dir, const char *name, const uint8_t *p, size_t n)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(p, 1, n, f) != n || fclose(f) != 0) {
        fprintf(stderr, "packetgen: %s: %s\n", path, strerror(errno));
        return -1;
    }
    return 0;
}

/* -r: the "RAND" headers of fuzz_roundtrip (see the top of this file). */
static int write_random_seeds(const char *dir, const char *prefix, const char *schema_name,
                              const bitsift_schema *s, unsigned schema_index)
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
            uint8_t out[MAX_PACKET];
            size_t out_size;
            bitsift_result enc;
            if (bitsift_tree_random(tree, type, seed, fills[f]) != BITSIFT_OK ||
                bitsift_encode(s, tree, out, sizeof out, &out_size, &enc) != BITSIFT_OK) {
                fprintf(stderr, "packetgen: %s %s: the random tree (fill %u) does not encode\n",
                        schema_name, bitsift_schema_packet_name(s, type), fills[f]);
                status = -1;
                break;
            }
            char name[512];
            snprintf(name, sizeof name, "%srandom-%s-%s-%u", prefix, schema_name,
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

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

int main(int argc, char **argv)
{
    const char *dir = NULL, *prefix = "";
    int variants = 4, opt, random_trees = 0;
    while ((opt = getopt(argc, argv, "do:v:p:r")) != -1) {
        switch (opt) {
        case 'r':
            random_trees = 1;
            break;
        case 'd':
            debug = 1;
            break;
        case 'o':
            dir = optarg;
            break;
        case 'v':
            variants = atoi(optarg);
            if (variants < 1 || variants > MAX_VARIANTS)
                variants = 4;
            break;
        case 'p':
            prefix = optarg;
            break;
        default:
            fprintf(stderr, "usage: packetgen [-r] [-v VARIANTS] [-p PREFIX] -o DIR SCHEMA...\n");
            return 2;
        }
    }
    if (!dir || optind >= argc) {
        fprintf(stderr, "usage: packetgen [-r] [-v VARIANTS] [-p PREFIX] -o DIR SCHEMA...\n");
        return 2;
    }

    int failures = 0;
    for (int a = optind; a < argc; a++) {
        bitsift_schema_error err;
        bitsift_schema *s = bitsift_schema_load_file(argv[a], &err);
        if (!s) {
            fprintf(stderr, "packetgen: %s\n", err.message);
            return 1;
        }
        char schema_name[256];
        snprintf(schema_name, sizeof schema_name, "%s", base_name(argv[a]));
        char *dot = strrchr(schema_name, '.');
        if (dot)
            *dot = '\0';
        if (random_trees) {
            int st = write_random_seeds(dir, prefix, schema_name, s, (unsigned)(a - optind));
            bitsift_schema_free(s);
            if (st != 0)
                return 1;
            continue;
        }
        const bitsift_framing *framing = bitsift_schema_framing(s);
        bitsift_tree *tree = bitsift_tree_create(s);
        unsigned types = bitsift_schema_packet_count(s);
        for (unsigned type = 0; type < types; type++) {
            uint8_t last[MAX_PACKET];
            size_t last_size = 0;
            int made = 0;
            for (int v = 0; v < variants; v++) {
                rng_state = 0x9E3779B97F4A7C15ull * (uint64_t)(v + 1) + type;
                buf_size = 0;
                uint64_t min_bits = bitsift_schema_packet_min_bits(s, type);
                grow((size_t)((min_bits + 7) / 8) + (v >= 2 ? next_random() % 16 : 0), v);
                uint64_t type_bit = ((uint64_t)framing->prefix_bytes + (framing->crc ? 4 : 0)) * 8;
                unsigned type_width =
                    framing->num_types > 1 ? bitsift_bits_required(0, framing->num_types - 1) : 0;
                bitsift_result res;
                unsigned same = 0;
                bool decoded = false;
                for (int i = 0; i < MAX_REPAIRS; i++) {
                    grow(type_bit / 8 + 8, v);
                    set_bits(type_bit, type_width, type);
                    bitsift_decode_tree(s, buf, buf_size, BITSIFT_DECODE_NO_CRC, tree, &res);
                    if (res.status == BITSIFT_OK) {
                        decoded = true;
                        break;
                    }
                    if (!repair(s, &res, v, &same))
                        break;
                }
                if (!decoded || res.packet_type != (int)type)
                    continue;
                uint8_t out[MAX_PACKET];
                size_t out_size;
                bitsift_result enc;
                if (bitsift_encode(s, tree, out, sizeof out, &out_size, &enc) != BITSIFT_OK) {
                    fprintf(stderr, "packetgen: %s %s: encoding the decoded tree failed at %s\n",
                            schema_name, bitsift_schema_packet_name(s, type), enc.path);
                    failures++;
                    continue;
                }
                if (out_size == last_size && memcmp(out, last, out_size) == 0)
                    continue;
                memcpy(last, out, out_size);
                last_size = out_size;
                char name[512];
                snprintf(name, sizeof name, "%s%s-%s-%d", prefix, schema_name,
                         bitsift_schema_packet_name(s, type), v);
                if (write_seed(dir, name, out, out_size) != 0)
                    return 1;
                made++;
            }
            if (!made) {
                fprintf(stderr, "packetgen: %s: no packet of type %s could be made\n", schema_name,
                        bitsift_schema_packet_name(s, type));
                failures++;
            }
        }
        bitsift_tree_free(tree);
        bitsift_schema_free(s);
    }
    return failures ? 1 : 0;
}
