/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fuzz_mutator.c -- libbitsift-fuzz: the mutation context of a protocol
 * (its framings, and its schemas for the schema-aware mutator), the
 * CRC-resealing mutator and crossover, and the context read from the
 * environment (bitsift/fuzz.h).
 *
 * Why: a fuzzer's byte mutations almost never leave a packet's CRC32
 * right, so a reader that checks the CRC (as a release build must)
 * refuses nearly every mutant before its payload code runs. Re-sealing
 * after each mutation turns every mutant into a packet the release reader
 * accepts as far as its framing goes; the schema-aware mutation goes
 * further and keeps ranges, check markers and lengths right.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bitsift/fuzz.h"

/* Protocols of one context: the bundled examples are 4; more than this
 * many is a caller's mistake we refuse rather than grow for. */
#define MAX_PROTOCOLS 64
/* The largest packet the schema-aware mutator encodes into. */
#define MAX_PACKET (1u << 16)

struct bitsift_fuzz {
    size_t count;
    bitsift_framing framings[MAX_PROTOCOLS];
    const bitsift_schema *schemas[MAX_PROTOCOLS]; /* NULL: framing only */
    bitsift_tree *trees[MAX_PROTOCOLS];           /* made on first use */
    bitsift_schema *owned;                        /* from a schema file */
    bool schema_aware;
    uint8_t encoded[MAX_PACKET];
};

static bitsift_fuzz *new_context(void)
{
    return calloc(1, sizeof(bitsift_fuzz));
}

bitsift_fuzz *bitsift_fuzz_new_framing(const bitsift_framing *f)
{
    bitsift_fuzz *fz = f ? new_context() : NULL;
    if (fz) {
        fz->framings[0] = *f;
        fz->count = 1;
    }
    return fz;
}

bitsift_fuzz *bitsift_fuzz_new_protocol(uint32_t protocol_id, uint32_t prefix_bytes, bool crc)
{
    bitsift_framing f;
    bitsift_framing_init(&f, protocol_id);
    f.prefix_bytes = prefix_bytes;
    f.crc = crc;
    return bitsift_fuzz_new_framing(&f);
}

bitsift_fuzz *bitsift_fuzz_new_schemas(const bitsift_schema *const *schemas, size_t count,
                                       unsigned flags)
{
    if (!schemas || count == 0 || count > MAX_PROTOCOLS)
        return NULL;
    bitsift_fuzz *fz = new_context();
    if (!fz)
        return NULL;
    for (size_t i = 0; i < count; i++) {
        if (!schemas[i]) {
            free(fz);
            return NULL;
        }
        fz->schemas[i] = schemas[i];
        fz->framings[i] = *bitsift_schema_framing(schemas[i]);
    }
    fz->count = count;
    fz->schema_aware = (flags & BITSIFT_FUZZ_SCHEMA_AWARE) != 0;
    return fz;
}

bitsift_fuzz *bitsift_fuzz_new_schema_file(const char *path, unsigned flags,
                                           bitsift_schema_error *err)
{
    bitsift_schema *s = bitsift_schema_load_file(path, err);
    if (!s)
        return NULL;
    const bitsift_schema *list[1] = {s};
    bitsift_fuzz *fz = bitsift_fuzz_new_schemas(list, 1, flags);
    if (!fz) {
        bitsift_schema_free(s);
        if (err) {
            memset(err, 0, sizeof *err);
            snprintf(err->message, sizeof err->message, "out of memory");
        }
        return NULL;
    }
    fz->owned = s;
    return fz;
}

void bitsift_fuzz_free(bitsift_fuzz *fz)
{
    if (!fz)
        return;
    for (size_t i = 0; i < fz->count; i++)
        bitsift_tree_free(fz->trees[i]);
    bitsift_schema_free(fz->owned);
    free(fz);
}

/* A number of the environment, or exit with the variable's name. */
static unsigned long env_number(const char *name, unsigned long fallback, unsigned long max)
{
    const char *text = getenv(name);
    if (!text || !*text)
        return fallback;
    char *end;
    errno = 0;
    unsigned long v = strtoul(text, &end, 0);
    if (errno || *end || v > max || text[0] == '-') {
        fprintf(stderr, "bitsift-fuzz: %s=%s: not a number up to %lu\n", name, text, max);
        exit(2);
    }
    return v;
}

bitsift_fuzz *bitsift_fuzz_from_env(bitsift_fuzz *fallback)
{
    const char *schema = getenv("BITSIFT_FUZZ_SCHEMA");
    const char *protocol = getenv("BITSIFT_FUZZ_PROTOCOL");
    const char *mode = getenv("BITSIFT_FUZZ_MODE");
    bool crc_only = mode && strcmp(mode, "crc") == 0;
    if (mode && *mode && !crc_only && strcmp(mode, "schema") != 0) {
        fprintf(stderr, "bitsift-fuzz: BITSIFT_FUZZ_MODE=%s: expected crc or schema\n", mode);
        exit(2);
    }
    bitsift_fuzz *fz = fallback;
    if (schema && *schema) {
        bitsift_schema_error err;
        fz = bitsift_fuzz_new_schema_file(schema, BITSIFT_FUZZ_SCHEMA_AWARE, &err);
        if (!fz) {
            fprintf(stderr, "bitsift-fuzz: BITSIFT_FUZZ_SCHEMA=%s: %s\n", schema, err.message);
            exit(2);
        }
    } else if (protocol && *protocol) {
        uint32_t id = (uint32_t)env_number("BITSIFT_FUZZ_PROTOCOL", 0, 0xffffffffu);
        uint32_t prefix = (uint32_t)env_number("BITSIFT_FUZZ_PREFIX", 0, 1u << 16);
        bool crc = env_number("BITSIFT_FUZZ_CRC", 1, 1) != 0;
        fz = bitsift_fuzz_new_protocol(id, prefix, crc);
    }
    if (fz != fallback)
        bitsift_fuzz_free(fallback);
    if (fz && crc_only)
        fz->schema_aware = false;
    return fz;
}

bitsift_fuzz *bitsift_fuzz_require(bitsift_fuzz *fz, const char *what)
{
    if (!fz) {
        fprintf(stderr, "bitsift-fuzz: no mutation context from %s (see libbitsift-fuzz(3))\n",
                what ? what : "the environment");
        exit(2);
    }
    return fz;
}

unsigned bitsift_fuzz_protocol_of(const bitsift_fuzz *fz, const uint8_t *data, size_t size)
{
    if (!fz || fz->count <= 1 || !fz->schemas[0])
        return 0;
    int detected = bitsift_detect(fz->schemas, fz->count, data, size);
    if (detected >= 0)
        return (unsigned)detected;
    /* Not sealed for any: the one that decodes furthest, CRC ignored. */
    unsigned best = 0;
    uint64_t best_bits = 0;
    for (size_t i = 0; i < fz->count; i++) {
        bitsift_result res;
        bitsift_decode(fz->schemas[i], data, size, BITSIFT_DECODE_NO_CRC, NULL, &res);
        if (res.status == BITSIFT_OK)
            return (unsigned)i;
        if (res.bits > best_bits) {
            best_bits = res.bits;
            best = (unsigned)i;
        }
    }
    return best;
}

void bitsift_fuzz_seal_as(const bitsift_fuzz *fz, unsigned which, uint8_t *data, size_t size)
{
    if (!fz || which >= fz->count || !data)
        return;
    const bitsift_framing *f = &fz->framings[which];
    if (!f->crc || size < (size_t)f->prefix_bytes + 4)
        return;
    uint32_t crc = bitsift_packet_crc(f, data, size);
    uint8_t *p = data + f->prefix_bytes;
    p[0] = (uint8_t)crc;
    p[1] = (uint8_t)(crc >> 8);
    p[2] = (uint8_t)(crc >> 16);
    p[3] = (uint8_t)(crc >> 24);
}

void bitsift_fuzz_seal(const bitsift_fuzz *fz, uint8_t *data, size_t size)
{
    bitsift_fuzz_seal_as(fz, bitsift_fuzz_protocol_of(fz, data, size), data, size);
}

/* xorshift32: the choices a seed stands for. */
static uint32_t next_random(uint32_t *x)
{
    *x ^= *x << 13;
    *x ^= *x >> 17;
    *x ^= *x << 5;
    return *x;
}

/* The byte mutator of a caller without one (AFL++, tools): flip a bit,
 * set a byte to an edge value, or drop or repeat the last byte. */
static size_t builtin_bytes(uint8_t *data, size_t size, size_t max_size, uint32_t *x)
{
    if (size == 0)
        return 0;
    for (unsigned rounds = 1 + next_random(x) % 4; rounds > 0; rounds--) {
        size_t at = next_random(x) % size;
        switch (next_random(x) % 4) {
        case 0:
            data[at] ^= (uint8_t)(1u << (next_random(x) % 8));
            break;
        case 1: {
            static const uint8_t edges[] = {0x00, 0x01, 0x7f, 0x80, 0xff};
            data[at] = edges[next_random(x) % sizeof edges];
            break;
        }
        case 2:
            data[at] = (uint8_t)next_random(x);
            break;
        default:
            if (next_random(x) & 1 && size > 1)
                size--;
            else if (size < max_size)
                data[size] = data[size - 1], size++;
            break;
        }
    }
    return size;
}

static size_t byte_level(bitsift_fuzz *fz, unsigned which, uint8_t *data, size_t size,
                         size_t max_size, uint32_t *x, bitsift_fuzz_byte_mutator bytes)
{
    size = bytes ? bytes(data, size, max_size) : builtin_bytes(data, size, max_size, x);
    if (size > max_size)
        size = max_size;
    bitsift_fuzz_seal_as(fz, which, data, size);
    return size;
}

/* Store `width` bits of `value` at stream bit `bit` (LSB first). */
static void put_bits(uint8_t *data, size_t size, uint64_t bit, unsigned width, uint64_t value)
{
    for (unsigned i = 0; i < width && (bit + i) / 8 < size; i++) {
        uint8_t mask = (uint8_t)(1u << ((bit + i) & 7));
        if ((value >> i) & 1)
            data[(bit + i) / 8] |= mask;
        else
            data[(bit + i) / 8] &= (uint8_t)~mask;
    }
}

/* The field of packet type `type` at event path `path` ("units[3].x" is
 * the schema path "units[].x"); -1 when there is none. */
static int field_at(const bitsift_schema *s, unsigned type, const char *path)
{
    char want[BITSIFT_PATH_MAX];
    size_t n = 0;
    for (const char *p = path; *p && n + 3 < sizeof want; p++) {
        want[n++] = *p;
        if (*p == '[') {
            while (*p && *p != ']')
                p++;
            want[n++] = ']';
            if (!*p)
                break;
        }
    }
    want[n] = 0;
    for (unsigned id = 0; id < bitsift_schema_field_count(s); id++) {
        bitsift_field_info info;
        if (bitsift_schema_field_info(s, id, &info) && info.packet_type == type &&
            strcmp(info.path, want) == 0)
            return (int)id;
    }
    return -1;
}

/*
 * A change can switch a condition on (mode = 13 makes `focus` present):
 * the tree then lacks the fields of the branch, and the encoder names the
 * first one missing. Give it a random value in its range and try again,
 * a few fields at most. Scalars only; false when the field cannot be
 * made.
 */
static bool add_missing_field(const bitsift_schema *s, bitsift_tree *t, const char *path,
                              uint32_t *x)
{
    int id = field_at(s, (unsigned)bitsift_tree_packet_type(t), path);
    bitsift_field_info info;
    if (id < 0 || !bitsift_schema_field_info(s, (unsigned)id, &info))
        return false;
    char parent_path[BITSIFT_PATH_MAX];
    snprintf(parent_path, sizeof parent_path, "%s", path);
    char *dot = strrchr(parent_path, '.');
    bitsift_node *parent;
    if (dot) {
        *dot = 0;
        parent = bitsift_tree_find(t, parent_path);
    } else {
        parent = bitsift_tree_root(t);
    }
    if (!parent || bitsift_node_kind_of(parent) != BITSIFT_NODE_STRUCT)
        return false;
    bitsift_value v;
    memset(&v, 0, sizeof v);
    uint64_t r = ((uint64_t)next_random(x) << 32) | next_random(x);
    v.kind = bitsift_schema_field_value_kind(s, (unsigned)id);
    switch (v.kind) {
    case BITSIFT_VALUE_BOOL:
        v.b = r & 1;
        break;
    case BITSIFT_VALUE_INT:
    case BITSIFT_VALUE_ENUM: {
        uint64_t span = (uint64_t)info.max - (uint64_t)info.min;
        v.i = (int64_t)((uint64_t)info.min + (span == UINT64_MAX ? r : r % (span + 1)));
        if (v.kind == BITSIFT_VALUE_ENUM && !bitsift_schema_enum_name(s, (unsigned)id, v.i))
            v.i = info.min;
        break;
    }
    case BITSIFT_VALUE_UINT:
        /* Sequence and ack numbers (ladders from a base) and checks have
         * no width to fill. */
        if (!info.width)
            return false;
        v.u = info.width >= 64 ? r : r & ((1ull << info.width) - 1);
        break;
    case BITSIFT_VALUE_FLOAT:
        if (info.type == BITSIFT_FIELD_COMPRESSED_FLOAT)
            v.f = info.fmin + (info.fmax - info.fmin) * (float)(r % 1024) / 1024.0f;
        else
            v.f = (float)(int)(r % 2048) - 1024.0f;
        break;
    case BITSIFT_VALUE_DOUBLE:
        v.d = (double)(int)(r % 2048) - 1024.0;
        break;
    case BITSIFT_VALUE_NONE:
    case BITSIFT_VALUE_BYTES:
    case BITSIFT_VALUE_STRING:
        return false;
    }
    return bitsift_node_add_value(t, parent, info.name, &v) != NULL;
}

/* Encode the tree into fz->encoded, adding the fields a switched-on
 * condition asks for. */
static bool encode_completed(bitsift_fuzz *fz, const bitsift_schema *s, bitsift_tree *t,
                             size_t *size, uint32_t *x)
{
    for (int added = 0; added <= 8; added++) {
        bitsift_result enc;
        bitsift_error e = bitsift_encode(s, t, fz->encoded, sizeof fz->encoded, size, &enc);
        if (e == BITSIFT_OK)
            return true;
        if (e != BITSIFT_E_VALUE || !enc.failure.why ||
            strcmp(enc.failure.why, "missing field") != 0 ||
            !add_missing_field(s, t, enc.path, x))
            return false;
    }
    return false;
}

/*
 * Schema-aware: decode (CRC ignored), change one field, encode with its
 * checks, end check and CRC. A value the encoder refuses (outside its
 * field) is put on the wire by hand where the field was read, in its
 * width, and the CRC re-sealed: the reader must refuse it cleanly.
 * Returns 0 when this mutation could not be made.
 */
static size_t field_level(bitsift_fuzz *fz, unsigned which, uint8_t *data, size_t size,
                          size_t max_size, uint32_t *x)
{
    const bitsift_schema *s = fz->schemas[which];
    if (!s)
        return 0;
    if (!fz->trees[which] && !(fz->trees[which] = bitsift_tree_create(s)))
        return 0;
    bitsift_tree *t = fz->trees[which];
    bitsift_result res;
    if (bitsift_decode_tree(s, data, size, BITSIFT_DECODE_NO_CRC, t, &res) != BITSIFT_OK)
        return 0;
    uint8_t choices[32];
    for (size_t i = 0; i < sizeof choices; i++)
        choices[i] = (uint8_t)next_random(x);
    bitsift_fuzz_mutation m;
    if (!bitsift_fuzz_mutate_tree(s, t, choices, sizeof choices, NULL, &m))
        return 0;
    size_t out_size;
    if (encode_completed(fz, s, t, &out_size, x) && out_size <= max_size && out_size > 0) {
        memcpy(data, fz->encoded, out_size);
        return out_size;
    }
    if (m.kind == BITSIFT_FUZZ_MUTATION_OUT_OF_RANGE && m.width > 0 && m.width < 64 &&
        m.raw < (1ull << m.width) && size > 0) {
        put_bits(data, size, m.bit, m.width, m.raw);
        bitsift_fuzz_seal_as(fz, which, data, size);
        return size;
    }
    return 0;
}

size_t bitsift_fuzz_mutate(bitsift_fuzz *fz, uint8_t *data, size_t size, size_t max_size,
                           unsigned seed, bitsift_fuzz_byte_mutator bytes)
{
    if (!fz || !data)
        return size;
    uint32_t x = seed | 1u;
    unsigned which = bitsift_fuzz_protocol_of(fz, data, size);
    /* One in four stays byte-level, so malformed packets are explored too. */
    if (fz->schema_aware && seed % 4 != 0) {
        size_t changed = field_level(fz, which, data, size, max_size, &x);
        if (changed)
            return changed;
    }
    return byte_level(fz, which, data, size, max_size, &x, bytes);
}

size_t bitsift_fuzz_crossover(bitsift_fuzz *fz, const uint8_t *data1, size_t size1,
                              const uint8_t *data2, size_t size2, uint8_t *out,
                              size_t max_out_size, unsigned seed)
{
    if (!data1 || !out || size1 == 0 || max_out_size == 0)
        return 0;
    size_t cut = seed % size1;
    size_t tail_from = size2 && data2 ? (seed / 7u) % size2 : 0;
    size_t tail = data2 ? size2 - tail_from : 0;
    if (cut > max_out_size)
        cut = max_out_size;
    if (tail > max_out_size - cut)
        tail = max_out_size - cut;
    memcpy(out, data1, cut);
    if (tail)
        memcpy(out + cut, data2 + tail_from, tail);
    bitsift_fuzz_seal_as(fz, bitsift_fuzz_protocol_of(fz, data1, size1), out, cut + tail);
    return cut + tail;
}
