/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * packet_schemas.c -- loads the schemas of the packet harnesses (bundled
 * examples, or the user's schema named by BITSIFT_FUZZ_SCHEMA or
 * --schema=FILE) and re-seals packets for them: the fuzz_reseal hook of
 * reseal.h for fuzz_packet and fuzz_roundtrip.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bitsift/fuzz.h"
#include "packet_schemas.h"
#include "reseal.h"

#define MAX_SCHEMAS 64

static const bitsift_schema *schemas[MAX_SCHEMAS];
static size_t schema_count;
static int initialized;

static void load_user_schema(const char *path)
{
    bitsift_schema_error err;
    bitsift_schema *s = bitsift_schema_load_file(path, &err);
    if (!s) {
        fprintf(stderr, "fuzz: cannot use schema %s: %s\n", path, err.message);
        exit(2);
    }
    schemas[schema_count++] = s;
    fprintf(stderr, "fuzz: fuzzing schema %s (protocol %s, id 0x%08x, %u packet types)\n", path,
            bitsift_schema_name(s), bitsift_schema_protocol_id(s), bitsift_schema_packet_count(s));
}

void fuzz_schemas_init(int *argc, char ***argv)
{
    if (initialized)
        return;
    initialized = 1;
    const char *user = getenv("BITSIFT_FUZZ_SCHEMA");
    if (argc && argv)
        for (int i = 1; i < *argc; i++)
            if (strncmp((*argv)[i], "--schema=", 9) == 0)
                user = (*argv)[i] + 9;
    if (user && *user) {
        load_user_schema(user);
        return;
    }
    for (size_t i = 0; i < fuzz_bundled_schema_count && schema_count < MAX_SCHEMAS; i++) {
        bitsift_schema_error err;
        bitsift_schema *s = bitsift_schema_compile(fuzz_bundled_schemas[i].text,
                                                   fuzz_bundled_schemas[i].size,
                                                   fuzz_bundled_schemas[i].name, &err);
        if (!s) {
            /* A bundled example that does not compile is a bug of ours. */
            fprintf(stderr, "fuzz: bundled schema %s: %s\n", fuzz_bundled_schemas[i].name,
                    err.message);
            abort();
        }
        schemas[schema_count++] = s;
    }
}

size_t fuzz_schema_count(void)
{
    fuzz_schemas_init(NULL, NULL);
    return schema_count;
}

const bitsift_schema *fuzz_schema(size_t i)
{
    fuzz_schemas_init(NULL, NULL);
    return i < schema_count ? schemas[i] : NULL;
}

const bitsift_schema *const *fuzz_schema_list(void)
{
    fuzz_schemas_init(NULL, NULL);
    return schemas;
}

void fuzz_schema_seal(size_t i, uint8_t *data, size_t size)
{
    const bitsift_schema *s = fuzz_schema(i);
    if (!s)
        return;
    const bitsift_framing *f = bitsift_schema_framing(s);
    if (f->crc && size >= (size_t)f->prefix_bytes + 4)
        fuzz_store_le32(data + f->prefix_bytes, bitsift_packet_crc(f, data, size));
}

unsigned fuzz_schema_for_packet(const uint8_t *data, size_t size)
{
    size_t n = fuzz_schema_count();
    if (n <= 1)
        return 0;
    int detected = bitsift_detect(fuzz_schema_list(), n, data, size);
    if (detected >= 0)
        return (unsigned)detected;
    unsigned best = 0;
    uint64_t best_bits = 0;
    for (size_t i = 0; i < n; i++) {
        bitsift_result res;
        bitsift_decode(schemas[i], data, size, BITSIFT_DECODE_NO_CRC, NULL, &res);
        if (res.status == BITSIFT_OK)
            return (unsigned)i;
        if (res.bits > best_bits) {
            best_bits = res.bits;
            best = (unsigned)i;
        }
    }
    return best;
}

unsigned fuzz_reseal_hint(const uint8_t *data, size_t size)
{
    return fuzz_schema_for_packet(data, size);
}

void fuzz_reseal(uint8_t *data, size_t size, unsigned hint)
{
    fuzz_schema_seal(hint, data, size);
}

struct bitsift_fuzz *fuzz_kit_context(unsigned flags)
{
    return bitsift_fuzz_new_schemas(fuzz_schema_list(), fuzz_schema_count(), flags);
}
