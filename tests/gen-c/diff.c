/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gen_c_diff.c -- the C that `bitsift gen c --name gen` wrote for a
 * schema, held to the schema interpreter (tests/gen-c/schemas.sh compiles this
 * file with the generated gen.c for each schema):
 *
 *   gen_c_diff SCHEMA [SEEDS]
 *
 * For every packet type and seed, a random valid packet from the
 * interpreter (bitsift_tree_random, bitsift_encode) must read through
 * the generated code, write back to the same bytes (write(read(p)) ==
 * p), measure to its size; then every truncation, and bit flips both
 * left as they are (the CRC refuses them) and re-sealed with a correct
 * CRC (so that the fields refuse them), must be accepted or refused as
 * the interpreter decides, with the same failure kind, bit and field
 * path. TAP: one point per packet type.
 *
 *   gen_c_diff SCHEMA --packet FILE
 *
 * holds them to the interpreter on the one packet in FILE (a reference
 * vector's bytes, tests/gen-c/vectors.sh): the same decision, failure
 * kind, bit and path, and for a valid packet write(read(p)) == p. Prints
 * "valid" or the failure; exit status 0 when both sides agree.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bitsift.h>

#include "gen.h"

/* A random packet takes at most BITSIFT_RANDOM_MAX_BYTES: every tree the
 * library makes fits. */
#define MAX_PACKET BITSIFT_RANDOM_MAX_BYTES

static uint64_t rng_next(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static struct gen_packet packet, again; /* large: not on the stack */
static uint8_t out[MAX_PACKET], bad[MAX_PACKET];

/* ---- values, as lines: the interpreter's visitor events and gen_visit's --- */

/* One field as a line of text that holds its value exactly: path, type
 * name, value kind, flags (absent, derived), then the value (floats and
 * doubles as their bits, bytes in hex, an enum with its name, an array's
 * element count). */
struct lines {
    char **line;
    size_t n, cap;
    size_t open[BITSIFT_SCHEMA_MAX_DEPTH * 2 + 8]; /* arrays entered, their count lines */
    unsigned nopen;
    bool broken; /* out of memory, or arrays nested beyond `open` */
};

static uint64_t compared_packets, compared_fields;

static void lines_clear(struct lines *l)
{
    for (size_t k = 0; k < l->n; k++)
        free(l->line[k]);
    l->n = 0;
    l->nopen = 0;
    l->broken = false;
}

static size_t lines_add(struct lines *l, char *text)
{
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 256;
        char **grown = realloc(l->line, cap * sizeof *grown);
        if (!grown) {
            free(text);
            l->broken = true;
            return l->n;
        }
        l->line = grown;
        l->cap = cap;
    }
    l->line[l->n] = text;
    return l->n++;
}

/* The value part; kind as bitsift_value_kind (gen_KIND_* have its numbers). */
static char *field_line(const char *path, const char *type, int kind, unsigned flags, bool b,
                        uint64_t u, int64_t i, float f, double d, const void *data, size_t size,
                        const char *name)
{
    char *text = NULL;
    size_t len = 0;
    FILE *s = open_memstream(&text, &len);
    if (!s)
        return NULL;
    fprintf(s, "%s %s kind %d flags %u:", path, type, kind, flags);
    uint32_t fbits;
    uint64_t dbits;
    switch (kind) {
    case BITSIFT_VALUE_BOOL:
        fprintf(s, " %d", b ? 1 : 0);
        break;
    case BITSIFT_VALUE_UINT:
        fprintf(s, " %llu", (unsigned long long)u);
        break;
    case BITSIFT_VALUE_INT:
        fprintf(s, " %lld", (long long)i);
        break;
    case BITSIFT_VALUE_ENUM:
        fprintf(s, " %lld %s", (long long)i, name ? name : "(no name)");
        break;
    case BITSIFT_VALUE_FLOAT:
        memcpy(&fbits, &f, 4);
        fprintf(s, " 0x%08x (%a)", fbits, (double)f);
        break;
    case BITSIFT_VALUE_DOUBLE:
        memcpy(&dbits, &d, 8);
        fprintf(s, " 0x%016llx (%a)", (unsigned long long)dbits, d);
        break;
    case BITSIFT_VALUE_BYTES:
    case BITSIFT_VALUE_STRING:
        fprintf(s, " %zu bytes ", size);
        for (size_t k = 0; k < size; k++)
            fprintf(s, "%02x", ((const uint8_t *)data)[k]);
        break;
    default:
        break;
    }
    fclose(s);
    return text;
}

static bool interpreter_field(void *ctx, const bitsift_event *ev)
{
    struct lines *l = ctx;
    if (ev->flags & (BITSIFT_EVENT_FRAMING | BITSIFT_EVENT_ARRAY_META))
        return true; /* framing; array bookkeeping: counts come with leave */
    const bitsift_value *v = &ev->value;
    /* Only the union member of the value's kind is read (a bool member
     * holding another kind's bytes is no bool). */
    int k = (int)v->kind;
    char *text = field_line(ev->path, bitsift_field_type_name(ev->type), k,
                            ev->flags & (BITSIFT_EVENT_ABSENT | BITSIFT_EVENT_DERIVED),
                            k == BITSIFT_VALUE_BOOL && v->b, k == BITSIFT_VALUE_UINT ? v->u : 0,
                            k == BITSIFT_VALUE_INT || k == BITSIFT_VALUE_ENUM ? v->i : 0,
                            k == BITSIFT_VALUE_FLOAT ? v->f : 0.0f,
                            k == BITSIFT_VALUE_DOUBLE ? v->d : 0.0, v->data, v->size, v->name);
    if (!text)
        l->broken = true;
    else
        lines_add(l, text);
    return true;
}

/* An array's count line goes where the array starts, as gen_visit puts it. */
static bool interpreter_enter(void *ctx, const bitsift_event *ev)
{
    struct lines *l = ctx;
    if (ev->type != BITSIFT_FIELD_ARRAY)
        return true;
    if (l->nopen == sizeof l->open / sizeof l->open[0]) {
        l->broken = true;
        return false;
    }
    l->open[l->nopen++] = lines_add(l, NULL);
    return true;
}

static bool interpreter_leave(void *ctx, const bitsift_event *ev)
{
    struct lines *l = ctx;
    if (ev->type != BITSIFT_FIELD_ARRAY || l->nopen == 0 || l->broken)
        return true;
    char *text = NULL;
    size_t len = 0;
    FILE *s = open_memstream(&text, &len);
    if (!s) {
        l->broken = true;
        return false;
    }
    fprintf(s, "%s array count %llu", ev->path, (unsigned long long)ev->count);
    fclose(s);
    l->line[l->open[--l->nopen]] = text;
    return true;
}

static bool generated_field(void *ctx, const struct gen_field *f)
{
    struct lines *l = ctx;
    char *text = NULL;
    if (f->kind == gen_KIND_NONE && strcmp(f->type, "array") == 0) {
        size_t len = 0;
        FILE *s = open_memstream(&text, &len);
        if (s) {
            fprintf(s, "%s array count %lld", f->path, (long long)f->count);
            fclose(s);
        }
    } else {
        int k = f->kind;
        text = field_line(f->path, f->type, k, f->flags, k == gen_KIND_BOOL && f->value.b,
                          k == gen_KIND_UINT ? f->value.u : 0,
                          k == gen_KIND_INT || k == gen_KIND_ENUM ? f->value.i : 0,
                          k == gen_KIND_FLOAT ? f->value.f : 0.0f,
                          k == gen_KIND_DOUBLE ? f->value.d : 0.0, f->data, f->size, f->name);
    }
    if (!text)
        l->broken = true;
    else
        lines_add(l, text);
    return true;
}

/* The values of `pkt` (which both sides accept; `p` is what the generated
 * reader made of it) are the same, field by field. */
static bool same_values(const bitsift_schema *s, const uint8_t *pkt, size_t size,
                        const struct gen_packet *p, const char *what)
{
    static struct lines want, got;
    static bitsift_result res;
    lines_clear(&want);
    lines_clear(&got);
    bitsift_visitor vis = {interpreter_field, interpreter_enter, interpreter_leave, &want};
    if (bitsift_decode(s, pkt, size, 0, &vis, &res) != BITSIFT_OK) {
        printf("# %s: the interpreter refuses the packet it accepted without a visitor\n", what);
        return false;
    }
    if (!gen_visit(p, generated_field, &got)) {
        printf("# %s: gen_visit fails\n", what);
        return false;
    }
    if (want.broken || got.broken) {
        printf("# %s: out of memory comparing values\n", what);
        return false;
    }
    for (size_t k = 0; k < want.n || k < got.n; k++) {
        const char *a = k < want.n ? want.line[k] : "(nothing)";
        const char *b = k < got.n ? got.line[k] : "(nothing)";
        if (!a || !b || strcmp(a, b) != 0) {
            printf("# %s: value %zu differs:\n#   interpreter %s\n#   generated   %s\n", what,
                   k, a ? a : "(array not left)", b ? b : "(null)");
            return false;
        }
    }
    compared_packets++;
    compared_fields += want.n;
    return true;
}

/* The interpreter and the generated reader decide the same. */
static bool same_decision(const bitsift_schema *s, const uint8_t *pkt, size_t size,
                          const char *what)
{
    static bitsift_result res;
    bitsift_error e = bitsift_decode(s, pkt, size, 0, NULL, &res);
    bitsift_reader r;
    bitsift_reader_init(&r, pkt, size);
    bool ok = gen_read(&r, &again);
    const bitsift_failure *f = bitsift_reader_failure(&r);
    if (ok != (e == BITSIFT_OK)) {
        printf("# %s: interpreter %s at bit %llu in '%s', generated %s at bit %llu in '%s'\n",
               what, bitsift_error_name(e), (unsigned long long)res.failure.bit, res.path,
               ok ? "accepts" : bitsift_error_name(f->kind), (unsigned long long)f->bit,
               f->field ? f->field : "");
        return false;
    }
    if (ok)
        return same_values(s, pkt, size, &again, what);
    const char *field = f->field ? f->field : "";
    if (f->kind != res.failure.kind || f->bit != res.failure.bit || strcmp(field, res.path) != 0) {
        printf("# %s: interpreter %s at bit %llu in '%s', generated %s at bit %llu in '%s'\n",
               what, bitsift_error_name(res.failure.kind), (unsigned long long)res.failure.bit,
               res.path, bitsift_error_name(f->kind), (unsigned long long)f->bit, field);
        return false;
    }
    return true;
}

static void reseal(const bitsift_schema *s, uint8_t *pkt, size_t size)
{
    const bitsift_framing *fr = bitsift_schema_framing(s);
    if (!fr->crc || size < fr->prefix_bytes + 4u)
        return;
    uint32_t crc = bitsift_packet_crc(fr, pkt, size);
    for (int i = 0; i < 4; i++)
        pkt[fr->prefix_bytes + i] = (uint8_t)(crc >> (8 * i));
}

static bool check_type(const bitsift_schema *s, bitsift_tree *t, unsigned type, unsigned seeds)
{
    static uint8_t pkt[MAX_PACKET];
    char what[128];
    for (unsigned seed = 1; seed <= seeds; seed++) {
        unsigned fill = seed * 37u % 101u;
        size_t size;
        bitsift_result res;
        if (bitsift_tree_random(t, type, seed, fill) != BITSIFT_OK ||
            bitsift_encode(s, t, pkt, sizeof pkt, &size, &res) != BITSIFT_OK) {
            printf("# type %u seed %u: the interpreter made no packet: %s\n", type, seed,
                   res.path);
            return false;
        }
        bitsift_reader r;
        bitsift_reader_init(&r, pkt, size);
        if (!gen_read(&r, &packet)) {
            char msg[512];
            bitsift_failure_format(bitsift_reader_failure(&r), msg, sizeof msg);
            printf("# type %u seed %u: the generated reader refuses a valid packet: %s\n", type,
                   seed, msg);
            return false;
        }
        if (packet.type != type) {
            printf("# type %u seed %u: read as type %u\n", type, seed, packet.type);
            return false;
        }
        bitsift_writer w;
        bitsift_writer_init(&w, out, sizeof out);
        size_t written = 0;
        if (!gen_write(&w, &packet, &written) || written != size || memcmp(out, pkt, size) != 0) {
            char msg[512] = "";
            if (!bitsift_writer_ok(&w))
                bitsift_failure_format(bitsift_writer_failure(&w), msg, sizeof msg);
            printf("# type %u seed %u: write(read(p)) != p (%zu bytes, %zu written) %s\n", type,
                   seed, size, written, msg);
            return false;
        }
        snprintf(what, sizeof what, "type %u seed %u", type, seed);
        if (!same_values(s, pkt, size, &packet, what))
            return false;
        if (gen_measure(&packet) != 8u * size) {
            printf("# type %u seed %u: measure %llu bits, packet %zu bytes\n", type, seed,
                   (unsigned long long)gen_measure(&packet), size);
            return false;
        }
        for (size_t n = 0; n < size; n++) {
            snprintf(what, sizeof what, "type %u seed %u cut at %zu", type, seed, n);
            if (!same_decision(s, pkt, n, what))
                return false;
        }
        uint64_t state = seed * 1000003u + type;
        for (int k = 0; k < 32; k++) {
            memcpy(bad, pkt, size);
            uint64_t bit = rng_next(&state) % (8u * size);
            bad[bit >> 3] ^= (uint8_t)(1u << (bit & 7));
            bool sealed = k & 1;
            if (sealed)
                reseal(s, bad, size);
            snprintf(what, sizeof what, "type %u seed %u flip %llu%s", type, seed,
                     (unsigned long long)bit, sealed ? " resealed" : "");
            if (!same_decision(s, bad, size, what))
                return false;
        }
    }
    return true;
}

static int one_packet(bitsift_schema *s, const char *path)
{
    static uint8_t pkt[MAX_PACKET];
    FILE *f = fopen(path, "rb");
    if (!f) {
        printf("%s: cannot open\n", path);
        return 1;
    }
    size_t size = fread(pkt, 1, sizeof pkt, f);
    fclose(f);
    int status = same_decision(s, pkt, size, path) ? 0 : 1;
    bitsift_reader r;
    bitsift_reader_init(&r, pkt, size);
    if (status == 0 && gen_read(&r, &packet)) {
        bitsift_writer w;
        bitsift_writer_init(&w, out, sizeof out);
        size_t written = 0;
        if (!gen_write(&w, &packet, &written) || written != size ||
            memcmp(out, pkt, size) != 0) {
            printf("# %s: write(read(p)) != p\n", path);
            status = 1;
        } else if (!same_values(s, pkt, size, &packet, path)) {
            status = 1;
        } else {
            printf("valid, %llu values the same, written back byte for byte\n",
                   (unsigned long long)compared_fields);
        }
    } else if (status == 0) {
        printf("refused as the interpreter refuses it: %s at bit %llu in '%s'\n",
               bitsift_error_name(r.failure.kind), (unsigned long long)r.failure.bit,
               r.failure.field ? r.failure.field : "");
    }
    bitsift_schema_free(s);
    return status;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: gen_c_diff SCHEMA [SEEDS]\n");
        return 2;
    }
    unsigned seeds = argc > 2 ? (unsigned)strtoul(argv[2], NULL, 10) : 40;
    bitsift_schema_error err;
    bitsift_schema *s = bitsift_schema_load_file(argv[1], &err);
    if (!s) {
        printf("Bail out! %s\n", err.message);
        return 1;
    }
    if (argc == 4 && strcmp(argv[2], "--packet") == 0)
        return one_packet(s, argv[3]);
    bitsift_tree *t = bitsift_tree_create(s);
    if (!t) {
        printf("Bail out! out of memory\n");
        return 1;
    }
    unsigned types = bitsift_schema_packet_count(s);
    int status = 0;
    printf("1..%u\n", types);
    for (unsigned type = 0; type < types; type++) {
        bool ok = check_type(s, t, type, seeds);
        printf("%s %u - %s: %s, %u random packets, their cuts and bit flips\n",
               ok ? "ok" : "not ok", type + 1, argv[1], bitsift_schema_packet_name(s, type),
               seeds);
        printf("# values compared: %llu packets, %llu fields\n",
               (unsigned long long)compared_packets, (unsigned long long)compared_fields);
        status |= !ok;
    }
    bitsift_tree_free(t);
    bitsift_schema_free(s);
    return status;
}
