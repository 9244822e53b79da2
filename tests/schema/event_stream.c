/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * event_stream.c -- records everything a decode reports, so that a change
 * to the decoder can be checked against the events of the version before
 * it: every event's contents (name, path, id, type, depth, index, bit,
 * bits, count, flags, value) in order, the result (status, type, bits,
 * fields, stopped, failure and its path) and the tree a tree decode
 * builds, over many packets, valid and hostile.
 *
 *   event_stream list SCHEMA...         one line per (schema, type, seed):
 *                                       digests of all its decodes
 *   event_stream dump SCHEMA TYPE SEED VARIANT MODE
 *                                       the text those digests are made of,
 *                                       to see where two versions differ
 *
 * The packets of a (type, seed) are a random valid packet of that type
 * (bitsift_tree_random + bitsift_encode) and variants of it; "resealed"
 * means that the CRC is made valid again after the change, so that the
 * decode gets past it:
 *
 *   valid     as encoded
 *   strict    one byte more, resealed, decoded STRICT
 *   cut1..3   truncated to 3 lengths, resealed
 *   flip1..4  1 to 3 bits of the body flipped, resealed
 *   nocrc     bits flipped, CRC left stale, decoded with NO_CRC
 *   crcbad    bits flipped, CRC left stale
 *   junk1, 2  random bytes after the CRC field, resealed
 *   pad       the top bit of the last byte flipped, resealed, STRICT
 *
 * and each is decoded in these modes:
 *
 *   all       field + enter + leave
 *   field     field only
 *   frame     enter + leave only
 *   stop      all; the visitor stops the decode at one event (from the seed)
 *   tree      bitsift_decode_tree, then every node of the tree
 *   none      no visitor (validation): the result only
 *   nopath    all with BITSIFT_DECODE_NO_PATHS, when the library has it
 *   noabsent  all with BITSIFT_DECODE_NO_ABSENT, when the library has it
 *
 * A list line holds, per variant, the status of the `all` decode, and one
 * digest (FNV-1a 64) over the text of every mode of every variant. The
 * digests of the `nopath` and `noabsent` modes are not in it: they are
 * compared, here, with the `all` text with its paths blanked, or without
 * its absent events.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bitsift.h"

#define PACKET_CAP (1u << 20)
#define SEEDS 16

enum variant {
    V_VALID,
    V_STRICT,
    V_CUT1,
    V_CUT2,
    V_CUT3,
    V_FLIP1,
    V_FLIP2,
    V_FLIP3,
    V_FLIP4,
    V_NOCRC,
    V_CRCBAD,
    V_JUNK1,
    V_JUNK2,
    V_PAD,
    V_COUNT
};
static const char *const variant_names[V_COUNT] = {
    "valid", "strict", "cut1",  "cut2",   "cut3",  "flip1", "flip2",
    "flip3", "flip4",  "nocrc", "crcbad", "junk1", "junk2", "pad"};

enum mode { M_ALL, M_FIELD, M_FRAME, M_STOP, M_TREE, M_NONE, M_NOPATH, M_NOABSENT, M_COUNT };
static const char *const mode_names[M_COUNT] = {"all",  "field", "frame",  "stop",
                                                "tree", "none",  "nopath", "noabsent"};

/* ---- the text of a decode, hashed or printed ------------------------------ */

struct sink {
    FILE *print;    /* dump: the text goes here */
    uint64_t hash;  /* list: FNV-1a 64 of the text */
    bool no_paths;  /* write paths as "" (to compare with a NO_PATHS decode) */
    bool no_absent; /* leave out absent fields (to compare with NO_ABSENT) */
    uint64_t events;
    uint64_t stop_at; /* stop mode: return false at this event (1-based) */
};

static void out(struct sink *k, const char *fmt, ...)
{
    char buf[4096];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    size_t len = (size_t)n < sizeof buf ? (size_t)n : sizeof buf - 1;
    if (k->print)
        fwrite(buf, 1, len, k->print);
    for (size_t i = 0; i < len; i++) {
        k->hash ^= (unsigned char)buf[i];
        k->hash *= 0x100000001b3ull;
    }
}

static void out_bytes(struct sink *k, const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        out(k, "%02x", p[i]);
}

static void out_value(struct sink *k, const bitsift_value *v)
{
    out(k, " v%d", (int)v->kind);
    switch (v->kind) {
    case BITSIFT_VALUE_BOOL:
        out(k, "=%d", v->b ? 1 : 0);
        break;
    case BITSIFT_VALUE_UINT:
        out(k, "=%" PRIu64, v->u);
        break;
    case BITSIFT_VALUE_INT:
    case BITSIFT_VALUE_ENUM:
        out(k, "=%" PRId64, v->i);
        break;
    case BITSIFT_VALUE_FLOAT: {
        uint32_t bits;
        memcpy(&bits, &v->f, sizeof bits);
        out(k, "=%08" PRIx32 "(%.9g)", bits, v->f);
        break;
    }
    case BITSIFT_VALUE_DOUBLE: {
        uint64_t bits;
        memcpy(&bits, &v->d, sizeof bits);
        out(k, "=%016" PRIx64, bits);
        break;
    }
    default:
        break;
    }
    out(k, " size=%zu data=", v->size);
    if (v->data)
        out_bytes(k, v->data, v->size);
    else
        out(k, "null");
    out(k, " name=%s", v->name ? v->name : "(null)");
    if (v->has_raw)
        out(k, " raw=%" PRIu64, v->raw);
}

static bool on_event(struct sink *k, char what, const bitsift_event *ev)
{
    if (k->no_absent && (ev->flags & BITSIFT_EVENT_ABSENT))
        return true;
    k->events++;
    out(k, "%c %s path=%s/%zu id=%d type=%d depth=%u index=%" PRId64 " bit=%" PRIu64
           " bits=%" PRIu64 " count=%" PRIu64 " flags=%u",
        what, ev->name ? ev->name : "(null)", k->no_paths ? "" : ev->path,
        k->no_paths ? (size_t)0 : ev->path_len, ev->id, (int)ev->type, ev->depth, ev->index,
        ev->bit, ev->bits, ev->count, ev->flags);
    out_value(k, &ev->value);
    out(k, "\n");
    return k->events != k->stop_at;
}

static bool on_field(void *ctx, const bitsift_event *ev)
{
    return on_event(ctx, 'F', ev);
}

static bool on_enter(void *ctx, const bitsift_event *ev)
{
    return on_event(ctx, 'E', ev);
}

static bool on_leave(void *ctx, const bitsift_event *ev)
{
    return on_event(ctx, 'L', ev);
}

static void out_result(struct sink *k, const bitsift_result *r)
{
    const bitsift_failure *f = &r->failure;
    out(k, "= status=%d type=%d name=%s bits=%" PRIu64 " fields=%" PRIu64 " stopped=%d",
        (int)r->status, r->packet_type, r->packet_name ? r->packet_name : "(null)", r->bits,
        r->fields, r->stopped ? 1 : 0);
    out(k, " failure=%d@%" PRIu64 " field=%s why=%s expected=%" PRIu64 " got=%" PRIu64
           " path=%s\n",
        (int)f->kind, f->bit, f->field ? f->field : "(null)", f->why ? f->why : "(null)",
        f->expected, f->got, r->path);
}

static void out_tree(struct sink *k, const bitsift_tree *t)
{
    size_t n = bitsift_tree_node_count(t);
    out(k, "tree type=%d nodes=%zu\n", bitsift_tree_packet_type(t), n);
    for (size_t i = 0; i < n; i++) {
        const bitsift_node *node = bitsift_tree_node(t, i);
        unsigned depth = 0;
        for (const bitsift_node *p = bitsift_node_parent(node); p; p = bitsift_node_parent(p))
            depth++;
        const char *name = bitsift_node_name(node);
        out(k, "N %d %s depth=%u index=%" PRId64 " children=%zu id=%d bit=%" PRIu64
               " bits=%" PRIu64,
            (int)bitsift_node_kind_of(node), name ? name : "(null)", depth,
            bitsift_node_index(node), bitsift_node_child_count(node),
            bitsift_node_field_id(node), bitsift_node_bit(node), bitsift_node_bits(node));
        out_value(k, bitsift_node_value(node));
        out(k, "\n");
    }
}

/* ---- packets ---------------------------------------------------------------- */

static uint64_t splitmix(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* Make the CRC valid again after the packet's bytes changed. */
static void reseal(const bitsift_schema *s, uint8_t *p, size_t size)
{
    const bitsift_framing *fr = bitsift_schema_framing(s);
    if (!fr->crc || size < fr->prefix_bytes + 4)
        return;
    uint32_t crc = bitsift_packet_crc(fr, p, size);
    for (int i = 0; i < 4; i++)
        p[fr->prefix_bytes + i] = (uint8_t)(crc >> (8 * i));
}

/* The bytes and decode flags of one variant of the valid packet `base`.
 * Returns false when the variant does not apply (a packet too short). */
static bool make_variant(const bitsift_schema *s, enum variant v, uint64_t seed,
                         const uint8_t *base, size_t base_size, uint8_t *p, size_t *size,
                         unsigned *flags)
{
    uint64_t rng = seed * 0x2545f4914f6cdd1dull + (uint64_t)v * 7777;
    const bitsift_framing *fr = bitsift_schema_framing(s);
    size_t body = fr->prefix_bytes + (fr->crc ? 4 : 0);
    memcpy(p, base, base_size);
    *size = base_size;
    *flags = 0;
    switch (v) {
    case V_VALID:
        return true;
    case V_STRICT:
        p[(*size)++] = (uint8_t)splitmix(&rng);
        reseal(s, p, *size);
        *flags = BITSIFT_DECODE_STRICT;
        return true;
    case V_CUT1:
    case V_CUT2:
    case V_CUT3:
        if (base_size == 0)
            return false;
        *size = v == V_CUT1   ? base_size - 1
                : v == V_CUT2 ? base_size / 2
                              : splitmix(&rng) % base_size;
        reseal(s, p, *size);
        return true;
    case V_FLIP1:
    case V_FLIP2:
    case V_FLIP3:
    case V_FLIP4:
    case V_NOCRC:
    case V_CRCBAD: {
        if (base_size <= body)
            return false;
        unsigned flips = 1 + (unsigned)(splitmix(&rng) % 3);
        for (unsigned i = 0; i < flips; i++) {
            uint64_t bit = body * 8 + splitmix(&rng) % ((base_size - body) * 8);
            p[bit / 8] ^= (uint8_t)(1u << (bit % 8));
        }
        if (v == V_NOCRC)
            *flags = BITSIFT_DECODE_NO_CRC;
        else if (v != V_CRCBAD)
            reseal(s, p, *size);
        return true;
    }
    case V_JUNK1:
    case V_JUNK2:
        *size = body + (size_t)(splitmix(&rng) % (v == V_JUNK1 ? 16 : 300));
        for (size_t i = fr->prefix_bytes; i < *size; i++)
            p[i] = (uint8_t)splitmix(&rng);
        reseal(s, p, *size);
        return true;
    case V_PAD:
        /* Last byte's top bit: padding when the packet does not fill it. */
        if (base_size <= body)
            return false;
        p[base_size - 1] ^= 0x80;
        reseal(s, p, *size);
        *flags = BITSIFT_DECODE_STRICT;
        return true;
    default:
        return false;
    }
}

/* ---- decodes -------------------------------------------------------------- */

#ifdef BITSIFT_DECODE_NO_PATHS
#define HAVE_NO_PATHS 1
#else
#define HAVE_NO_PATHS 0
#define BITSIFT_DECODE_NO_PATHS 0
#endif
#ifdef BITSIFT_DECODE_NO_ABSENT
#define HAVE_NO_ABSENT 1
#else
#define HAVE_NO_ABSENT 0
#define BITSIFT_DECODE_NO_ABSENT 0
#endif

/* Decode in one mode, writing its text into k. `stop_at` for M_STOP. */
static bitsift_error decode_mode(const bitsift_schema *s, bitsift_tree *t, enum mode m,
                                 const uint8_t *p, size_t size, unsigned flags, uint64_t stop_at,
                                 struct sink *k)
{
    bitsift_visitor v = {on_field, on_enter, on_leave, k};
    bitsift_result res;
    bitsift_error e;
    k->events = 0;
    k->stop_at = m == M_STOP ? stop_at : 0;
    switch (m) {
    case M_FIELD:
        v.enter = v.leave = NULL;
        break;
    case M_FRAME:
        v.field = NULL;
        break;
    default:
        break;
    }
    if (m == M_TREE) {
        e = bitsift_decode_tree(s, p, size, flags, t, &res);
        out_tree(k, t);
    } else if (m == M_NONE) {
        e = bitsift_decode(s, p, size, flags, NULL, &res);
    } else {
        unsigned extra = m == M_NOPATH     ? BITSIFT_DECODE_NO_PATHS
                         : m == M_NOABSENT ? BITSIFT_DECODE_NO_ABSENT
                                           : 0;
        e = bitsift_decode(s, p, size, flags | extra, &v, &res);
    }
    out_result(k, &res);
    if (e != res.status)
        out(k, "! returned %d\n", (int)e);
    return e;
}

struct tool {
    const bitsift_schema *s;
    bitsift_tree *gen, *dec;
    uint8_t *base, *p;
    size_t base_size;
    int failures;
};

static bool make_base(struct tool *T, unsigned type, unsigned seed)
{
    bitsift_result res;
    uint64_t rseed = (uint64_t)seed * 104729u + type;
    if (bitsift_tree_random(T->gen, type, rseed, (seed % 5) * 25) != BITSIFT_OK)
        return false;
    return bitsift_encode(T->s, T->gen, T->base, PACKET_CAP - 1, &T->base_size, &res) ==
           BITSIFT_OK;
}

/* The event at which the stop mode stops: anywhere in the full stream. */
static uint64_t stop_point(unsigned seed, enum variant v, uint64_t all_events)
{
    return all_events ? 1 + ((uint64_t)seed * 31 + (uint64_t)v * 7) % all_events : 1;
}

/* The text of one (variant, mode), into k; false when the variant does
 * not apply. The NO_PATHS mode is checked against `all` here. */
static bool decode_variant(struct tool *T, unsigned seed, enum variant v, enum mode m,
                           struct sink *k, bitsift_error *status)
{
    size_t size;
    unsigned flags;
    if (!make_variant(T->s, v, seed, T->base, T->base_size, T->p, &size, &flags))
        return false;
    uint64_t stop_at = 0;
    if (m == M_STOP) {
        struct sink count = {0};
        decode_mode(T->s, T->dec, M_ALL, T->p, size, flags, 0, &count);
        stop_at = stop_point(seed, v, count.events);
    }
    *status = decode_mode(T->s, T->dec, m, T->p, size, flags, stop_at, k);
    return true;
}

static const char *status_letter(bitsift_error e)
{
    static char buf[8];
    snprintf(buf, sizeof buf, "%d", (int)e);
    return buf;
}

/* Mode m (a flag that drops something from every event stream) must give
 * the text of `all` written through `filter` (paths blanked, or absent
 * events left out). */
static void same_as_all(struct tool *T, const char *label, unsigned type, unsigned seed,
                        enum variant v, enum mode m, struct sink filter, const char *flag)
{
    struct sink b = {.hash = 1};
    bitsift_error st;
    filter.hash = 1;
    if (decode_variant(T, seed, v, M_ALL, &filter, &st) && decode_variant(T, seed, v, m, &b, &st) &&
        (filter.hash != b.hash || filter.events != b.events)) {
        printf("# %s t%u s%u %s: %s events differ from the full decode\n", label, type, seed,
               variant_names[v], flag);
        T->failures++;
    }
}

static void list_one(struct tool *T, const char *label, unsigned type, unsigned seed)
{
    if (!make_base(T, type, seed)) {
        printf("%s t%u s%u: no packet\n", label, type, seed);
        return;
    }
    struct sink k = {.hash = 0xcbf29ce484222325ull};
    uint64_t events = 0;
    char statuses[V_COUNT * 4 + 1] = "";
    for (int v = 0; v < V_COUNT; v++) {
        for (int m = 0; m < M_NOPATH; m++) {
            bitsift_error st;
            if (!decode_variant(T, seed, (enum variant)v, (enum mode)m, &k, &st)) {
                if (m == 0)
                    strcat(statuses, "-");
                break;
            }
            if (m == M_ALL) {
                events += k.events;
                strcat(statuses, status_letter(st));
                if (v + 1 < V_COUNT)
                    strcat(statuses, ",");
            }
        }
        if (HAVE_NO_PATHS)
            same_as_all(T, label, type, seed, (enum variant)v, M_NOPATH,
                        (struct sink){.no_paths = true}, "NO_PATHS");
        if (HAVE_NO_ABSENT)
            same_as_all(T, label, type, seed, (enum variant)v, M_NOABSENT,
                        (struct sink){.no_absent = true}, "NO_ABSENT");
    }
    /* The packet's own digest tells a change of the generator (the
     * random tree or the encoder) from a change of the decoder. */
    struct sink bytes = {.hash = 0xcbf29ce484222325ull};
    out_bytes(&bytes, T->base, T->base_size);
    printf("%s t%u s%u: packet=%zu/%016" PRIx64 " events=%" PRIu64 " status=%s digest=%016" PRIx64
           "\n",
           label, type, seed, T->base_size, bytes.hash, events, statuses, k.hash);
}

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

int main(int argc, char **argv)
{
    if (argc < 3 || (strcmp(argv[1], "list") != 0 && strcmp(argv[1], "dump") != 0) ||
        (strcmp(argv[1], "dump") == 0 && argc != 7)) {
        fprintf(stderr, "usage: event_stream list SCHEMA...\n"
                        "       event_stream dump SCHEMA TYPE SEED VARIANT MODE\n");
        return 2;
    }
    struct tool T = {0};
    T.base = malloc(PACKET_CAP);
    T.p = malloc(PACKET_CAP);
    if (!T.base || !T.p)
        return 1;
    int rc = 0;
    bool dump = strcmp(argv[1], "dump") == 0;
    for (int a = 2; a < (dump ? 3 : argc); a++) {
        bitsift_schema_error err;
        bitsift_schema *s = bitsift_schema_load_file(argv[a], &err);
        if (!s) {
            fprintf(stderr, "%s\n", err.message);
            rc = 1;
            continue;
        }
        T.s = s;
        T.gen = bitsift_tree_create(s);
        T.dec = bitsift_tree_create(s);
        if (!T.gen || !T.dec)
            return 1;
        if (dump) {
            unsigned type = (unsigned)strtoul(argv[3], NULL, 0);
            unsigned seed = (unsigned)strtoul(argv[4], NULL, 0);
            int v = 0, m = 0;
            while (v < V_COUNT && strcmp(variant_names[v], argv[5]) != 0)
                v++;
            while (m < M_COUNT && strcmp(mode_names[m], argv[6]) != 0)
                m++;
            struct sink k = {.print = stdout};
            bitsift_error st;
            if (v == V_COUNT || m == M_COUNT || !make_base(&T, type, seed) ||
                !decode_variant(&T, seed, (enum variant)v, (enum mode)m, &k, &st)) {
                fprintf(stderr, "no such packet, variant or mode\n");
                rc = 1;
            }
        } else {
            for (unsigned type = 0; type < bitsift_schema_packet_count(s); type++)
                for (unsigned seed = 0; seed < SEEDS; seed++)
                    list_one(&T, base_name(argv[a]), type, seed);
        }
        bitsift_tree_free(T.gen);
        bitsift_tree_free(T.dec);
        bitsift_schema_free(s);
    }
    free(T.base);
    free(T.p);
    return rc ? rc : T.failures ? 1 : 0;
}
