/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * planted_drift.c -- does `bitsift diagnose` find a drift it did not make?
 *
 * For every example schema and every family of change, the schema text is
 * drifted here (with ranges, types and names of its own, not the
 * candidates' spellings), random valid packets of every type are written
 * by the ENCODER with the drifted schema, and the library's diagnosis is
 * run with the original. A planted change "ranks first" when a candidate
 * of rank 1 (alone or tied) is the same change on the wire:
 *
 *   range, cfloat, enum  the same field (type spelling), the same new width
 *   insert               the same place, the same number of bits
 *   remove, bound,       the same schema text once blanks and comments are
 *   condition            left out
 *   schema               the right one of two other schemas
 *
 * A planted change that no packet reveals (every packet still valid) is
 * counted apart, not as a miss. Output is TAP: one test per schema and
 * family, failing when a one-field range or width change is not ranked
 * first; the rank-1 rates per family are printed as comments.
 *
 *   planted_drift [SCHEMA.bss...]     (default: the examples/ schemas of $top_srcdir)
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bitsift.h"
#include "diagnose_testing.h"

#define PACKETS_PER_TYPE 100 /* of every packet type, per plant */
#define MAX_PACKET 65536
#define INSERT_TYPES 5
#define PLANTS_PER_FAMILY 24

struct tally {
    unsigned planted, hidden, first, alone;
};

static struct tally totals[BITSIFT_DRIFT_FAMILY_COUNT];
static unsigned tap_number, tap_failed;

static bool isalnum_ascii(char ch)
{
    return (ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
           ch == '_';
}

static uint64_t rng_state = 0x243F6A8885A308D3ULL;

static uint64_t rnd(void)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 0x2545F4914F6CDD1DULL;
}

/* A number in [lo, hi]. */
static int64_t rnd_between(int64_t lo, int64_t hi)
{
    return lo + (int64_t)(rnd() % (uint64_t)(hi - lo + 1));
}

static char *read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = malloc(BITSIFT_SCHEMA_MAX_TEXT + 1);
    size_t n = buf ? fread(buf, 1, BITSIFT_SCHEMA_MAX_TEXT, f) : 0;
    fclose(f);
    if (buf)
        buf[n] = 0;
    *size = n;
    return buf;
}

/* The text without blanks and comments: two texts equal this way are the
 * same schema. */
static char *stripped(const char *text, size_t size)
{
    char *out = malloc(size + 1);
    size_t n = 0;
    for (size_t i = 0; out && i < size; i++) {
        if (text[i] == '#' || (text[i] == '/' && i + 1 < size && text[i + 1] == '/')) {
            while (i < size && text[i] != '\n')
                i++;
            continue;
        }
        if (text[i] != ' ' && text[i] != '\t' && text[i] != '\n' && text[i] != '\r')
            out[n++] = text[i];
    }
    if (out)
        out[n] = 0;
    return out;
}

/* One planted change and how to recognise it among the candidates. */
struct plant {
    bitsift_drift_family family;
    size_t start, end; /* the edit of the original text */
    char text[4096];
    int new_bits;     /* range, cfloat, enum, insert: the width it gives */
    size_t match_at;  /* range, cfloat, enum, insert: where the candidate edits */
    char label[160];
};

struct schema_case {
    const char *path;
    const char *text;
    size_t size;
    const bitsift_schema *s;
};

/* Random valid packets of every type, written with `drifted`. */
static bool add_packets(bitsift_diagnosis *d, const bitsift_schema *drifted)
{
    bitsift_tree *t = bitsift_tree_create(drifted);
    static uint8_t buf[MAX_PACKET];
    bool ok = t != NULL;
    unsigned types = bitsift_schema_packet_count(drifted);
    for (unsigned type = 0; ok && type < types; type++)
        for (unsigned i = 0; ok && i < PACKETS_PER_TYPE; i++) {
            size_t size;
            bitsift_result res;
            if (bitsift_tree_random(t, type, rnd(), (unsigned)rnd_between(20, 100)) != BITSIFT_OK ||
                bitsift_encode(drifted, t, buf, sizeof buf, &size, &res) != BITSIFT_OK)
                continue;
            ok = bitsift_diagnose_add(d, buf, size) == BITSIFT_OK;
        }
    bitsift_tree_free(t);
    return ok;
}

/* Whether candidate c of the original text is the planted change p. */
static bool same_change(const struct schema_case *sc, const struct plant *p,
                        const bitsift_drift_candidate *c, const char *planted_stripped)
{
    switch (p->family) {
    case BITSIFT_DRIFT_RANGE:
    case BITSIFT_DRIFT_CFLOAT:
    case BITSIFT_DRIFT_ENUM:
    case BITSIFT_DRIFT_INSERT:
        return c->family == p->family && c->start == p->match_at && c->new_bits == p->new_bits;
    case BITSIFT_DRIFT_SCHEMA:
        return c->family == BITSIFT_DRIFT_SCHEMA && c->schema == 1;
    default: {
        size_t n;
        char *edited = bitsift_drift_apply(sc->text, sc->size, c, &n);
        char *st = edited ? stripped(edited, n) : NULL;
        bool same = st && strcmp(st, planted_stripped) == 0;
        free(edited);
        free(st);
        return same;
    }
    }
}

/* Plant p, diagnose, tally. */
static void run_plant(const struct schema_case *sc, const struct plant *p)
{
    bitsift_drift_candidate edit = {.start = p->start, .end = p->end, .text = (char *)p->text};
    size_t n;
    char *drifted_text = bitsift_drift_apply(sc->text, sc->size, &edit, &n);
    bitsift_schema_error err;
    /* The schema family: the drifted schema (another version) and a decoy
     * are given as other schemas; the capture is written with the first. */
    bitsift_schema *drifted = drifted_text ? bitsift_schema_compile(drifted_text, n, "drifted", &err)
                                           : NULL;
    char *planted_stripped = drifted_text ? stripped(drifted_text, n) : NULL;
    free(drifted_text);
    if (!drifted) {
        free(planted_stripped);
        return; /* not a schema: not planted */
    }
    struct tally *t = &totals[p->family];
    bitsift_schema *decoy = NULL;
    bitsift_schema *others[2] = {NULL, drifted};
    const char *other_paths[2] = {"decoy.bss", "drifted.bss"};
    bitsift_diagnose_options options = {0};
    if (p->family == BITSIFT_DRIFT_SCHEMA) {
        /* The decoy: the original with its protocol id changed the other
         * way, so that it explains nothing. */
        decoy = bitsift_schema_compile(sc->text, sc->size, "decoy", &err);
        others[0] = decoy;
        options.others = others;
        options.other_labels = other_paths;
        options.other_count = 2;
    }
    bitsift_diagnosis *d = bitsift_diagnose_create(sc->s, sc->text, sc->size, sc->path, &options);
    if (!d)
        abort();
    if (!add_packets(d, drifted))
        abort();
    /* The group with the most failing packets. */
    bitsift_diagnose_counts counts;
    bitsift_diagnose_get_counts(d, &counts);
    size_t best = 0;
    uint64_t most = 0;
    for (size_t g = 0; g < counts.group_count; g++) {
        bitsift_diagnose_group group;
        if (!bitsift_diagnose_get_group(d, g, &group))
            abort();
        if (g == 0 || group.tally.invalid > most) {
            best = g;
            most = group.tally.invalid;
        }
    }
    t->planted++;
    if (most == 0) {
        t->hidden++;
        if (getenv("PLANTED_VERBOSE"))
            printf("# not revealed: %s %s: %s (%" PRIu64 " packets)\n", sc->path,
                   bitsift_drift_family_name(p->family), p->label, counts.packets);
    } else {
        bitsift_diagnose_report rep;
        if (bitsift_diagnose_run(d, best, &rep) != BITSIFT_OK)
            abort();
        bool first = false;
        size_t at_first = 0;
        for (size_t i = 0; i < rep.count && rep.ranked[i].rank == 1; i++) {
            at_first++;
            if (same_change(sc, p, &rep.ranked[i].change, planted_stripped))
                first = true;
        }
        if (first) {
            t->first++;
            t->alone += at_first == 1;
        } else if (getenv("PLANTED_VERBOSE")) {
            printf("# miss: %s %s: %s; rank 1: %s\n", sc->path,
                   bitsift_drift_family_name(p->family), p->label,
                   rep.count ? rep.ranked[0].change.what : "(nothing explains)");
            for (size_t i = 0; i < rep.count && i < 6; i++)
                printf("#    #%zu %" PRIu64 "/%" PRIu64 " broken %" PRIu64 " exact %" PRIu64 " %s\n",
                       rep.ranked[i].rank, rep.ranked[i].explained, rep.failing_measured,
                       rep.ranked[i].broken, rep.ranked[i].exact, rep.ranked[i].change.what);
        }
        bitsift_diagnose_report_free(&rep);
    }
    bitsift_diagnose_free(d);
    bitsift_schema_free(drifted);
    bitsift_schema_free(decoy);
    free(planted_stripped);
}

/* The plants of one schema, made first and run after, so that a family
 * with many can be thinned evenly (see run_plants). */
static struct plant *queue;
static size_t queued, queue_cap;

static void try_plant(const struct schema_case *sc, const struct plant *p)
{
    (void)sc;
    if (queued == queue_cap) {
        queue_cap = queue_cap ? 2 * queue_cap : 256;
        queue = realloc(queue, queue_cap * sizeof *queue);
        if (!queue)
            abort();
    }
    queue[queued++] = *p;
}

/* Every range and width change is run: rank 1 is asserted for each. The
 * other families run at most PLANTS_PER_FAMILY of theirs per schema,
 * spread evenly over the schema, which keeps the test near a minute (each
 * plant compiles some 1500 candidate schemas of shooter.bss). */
static void run_plants(const struct schema_case *sc)
{
    for (int f = 0; f < BITSIFT_DRIFT_FAMILY_COUNT; f++) {
        size_t count = 0, k = 0;
        for (size_t i = 0; i < queued; i++)
            count += queue[i].family == (bitsift_drift_family)f;
        size_t keep =
            f == BITSIFT_DRIFT_RANGE || count < PLANTS_PER_FAMILY ? count : PLANTS_PER_FAMILY;
        for (size_t i = 0; i < queued; i++) {
            if (queue[i].family != (bitsift_drift_family)f)
                continue;
            /* The k-th of `count` runs when it starts a new 1/keep-th. */
            if ((k * keep) % count < keep)
                run_plant(sc, &queue[i]);
            k++;
        }
    }
    queued = 0;
}

static void plant_text(struct plant *p, bitsift_drift_family family, size_t start, size_t end,
                       const char *text)
{
    memset(p, 0, sizeof *p);
    p->family = family;
    p->start = start;
    p->end = end;
    snprintf(p->text, sizeof p->text, "%s", text);
    p->match_at = start;
    p->new_bits = -1;
}

static bool seen_before(size_t *seen, size_t *nseen, size_t key)
{
    for (size_t i = 0; i < *nseen; i++)
        if (seen[i] == key)
            return true;
    seen[(*nseen)++] = key;
    return false;
}

/* ---- the families, planted ----------------------------------------------------- */

static void plant_ranges(const struct schema_case *sc, unsigned id, const bitsift_field_info *info,
                         const bitsift_field_source *src)
{
    struct plant p;
    char text[128];
    bool is_int = info->type == BITSIFT_FIELD_INT &&
                  strncmp(sc->text + src->type_start, "int(", 4) == 0;
    bool is_bits = (info->type == BITSIFT_FIELD_BITS || info->type == BITSIFT_FIELD_UINT8 ||
                    info->type == BITSIFT_FIELD_UINT16 || info->type == BITSIFT_FIELD_UINT32) &&
                   (strncmp(sc->text + src->type_start, "bits", 4) == 0 ||
                    strncmp(sc->text + src->type_start, "uint", 4) == 0);
    (void)id;
    if (is_int) {
        unsigned w = bitsift_bits_required(info->min, info->max);
        bool sym = info->min < 0 && (info->min == -info->max || info->min == -info->max - 1);
        for (int d = -2; d <= 2; d++) {
            int nw = (int)w + d;
            int64_t nmin = info->min, nmax;
            if (nw < (sym ? 2 : 1) || nw > 40)
                continue;
            if (d == 0) {
                /* The same width, more of it used. */
                if (sym) {
                    if (info->min != -info->max)
                        continue;
                    nmin = info->min - 1;
                    nmax = info->max;
                    if (bitsift_bits_required(nmin, nmax) != w)
                        continue;
                } else {
                    int64_t top = info->min + ((int64_t)1 << w) - 1;
                    if (top == info->max)
                        continue;
                    nmax = rnd_between(info->max + 1, top);
                }
            } else if (sym) {
                int64_t m = rnd_between((int64_t)1 << (nw - 2), ((int64_t)1 << (nw - 1)) - 1);
                nmin = -m;
                nmax = m;
            } else {
                nmax = info->min + rnd_between((int64_t)1 << (nw - 1), ((int64_t)1 << nw) - 1);
            }
            if (bitsift_bits_required(nmin, nmax) != (unsigned)nw)
                continue;
            snprintf(text, sizeof text, "int(%" PRId64 ", %" PRId64 ")", nmin, nmax);
            plant_text(&p, BITSIFT_DRIFT_RANGE, src->type_start, src->type_end, text);
            p.new_bits = nw;
            snprintf(p.label, sizeof p.label, "%s %s", info->path, text);
            try_plant(sc, &p);
        }
    } else if (is_bits) {
        for (int d = -2; d <= 2; d++) {
            int nw = (int)info->width + d;
            if (d == 0 || nw < 1 || nw > 64)
                continue;
            snprintf(text, sizeof text, "bits(%d)", nw);
            plant_text(&p, BITSIFT_DRIFT_RANGE, src->type_start, src->type_end, text);
            p.new_bits = nw;
            snprintf(p.label, sizeof p.label, "%s %s", info->path, text);
            try_plant(sc, &p);
        }
    }
}

static void plant_cfloat(const struct schema_case *sc, const bitsift_field_info *info,
                         const bitsift_field_source *src)
{
    if (info->type != BITSIFT_FIELD_COMPRESSED_FLOAT ||
        strncmp(sc->text + src->type_start, "compressed_float", 16) != 0)
        return;
    uint32_t steps;
    unsigned w;
    if (!bitsift_compressed_float_steps(info->fmin, info->fmax, info->resolution, &steps, &w))
        return;
    /* A finer or coarser resolution, and a wider or narrower range, each
     * by a factor near 2^d. */
    for (int variant = 0; variant < 2; variant++)
        for (int d = -2; d <= 2; d++) {
            if (d == 0 || (variant == 1 && (d < -1 || d > 1)))
                continue;
            float fmin = info->fmin, fmax = info->fmax, res = info->resolution;
            double factor = ldexp(1.0, d) * (1.0 + (double)(rnd() % 100) / 1000.0);
            if (variant == 0) {
                res = (float)(res / factor);
            } else if (fmin < 0 && fmax > 0) {
                fmin = (float)(fmin * factor);
                fmax = (float)(fmax * factor);
            } else {
                fmax = (float)(fmin + (fmax - fmin) * factor);
            }
            uint32_t nsteps;
            unsigned nw;
            if (!bitsift_compressed_float_steps(fmin, fmax, res, &nsteps, &nw) || nw == w ||
                nw > 32 || nw < 1)
                continue;
            char smin[32], smax[32], sres[32], text[160];
            bitsift__drift_format_float(smin, sizeof smin, fmin);
            bitsift__drift_format_float(smax, sizeof smax, fmax);
            bitsift__drift_format_float(sres, sizeof sres, res);
            snprintf(text, sizeof text, "compressed_float(%s, %s, %s)", smin, smax, sres);
            struct plant p;
            plant_text(&p, BITSIFT_DRIFT_CFLOAT, src->type_start, src->type_end, text);
            p.new_bits = (int)nw;
            snprintf(p.label, sizeof p.label, "%.60s %.90s", info->path, text);
            try_plant(sc, &p);
        }
}

static void plant_insert(const struct schema_case *sc, size_t pos, bool before, const char *where)
{
    static const struct {
        const char *type;
        int bits;
    } types[INSERT_TYPES] = {{"int(0, 100)", 7},
                             {"bool", 1},
                             {"uint16", 16},
                             {"int(-1000, 1000)", 11},
                             {"compressed_float(0, 1, 0.01)", 7}};
    unsigned k = (unsigned)(rnd() % INSERT_TYPES);
    bitsift_drift_candidate c;
    if (!bitsift__drift_insertion(sc->text, sc->size, pos, before, types[k].type, "planted", &c))
        abort();
    struct plant p;
    plant_text(&p, BITSIFT_DRIFT_INSERT, c.start, c.end, c.text);
    free(c.text);
    p.new_bits = types[k].bits;
    snprintf(p.label, sizeof p.label, "%s %s", types[k].type, where);
    try_plant(sc, &p);
}

static void plant_remove(const struct schema_case *sc, const bitsift_field_info *info,
                         const bitsift_field_source *src)
{
    struct plant p;
    plant_text(&p, BITSIFT_DRIFT_REMOVE, src->start, src->end, "");
    snprintf(p.label, sizeof p.label, "%s removed", info->path);
    try_plant(sc, &p);
}

/* Each integer literal of text[a, b) moved by one. */
static void plant_literals(const struct schema_case *sc, bitsift_drift_family family, size_t a,
                           size_t b, const char *where)
{
    for (size_t i = a; i < b; i++) {
        if (!(sc->text[i] >= '0' && sc->text[i] <= '9') ||
            (i > a && (isalnum_ascii(sc->text[i - 1]))))
            continue;
        size_t e = i;
        while (e < b && isalnum_ascii(sc->text[e]))
            e++;
        char buf[32];
        snprintf(buf, sizeof buf, "%.*s", (int)(e - i), sc->text + i);
        char *stop;
        unsigned long long v = strtoull(buf, &stop, 0);
        for (int d = -1; d <= 1 && !*stop; d += 2) {
            if (d < 0 && v <= 1)
                continue;
            struct plant p;
            char text[32];
            snprintf(text, sizeof text, "%llu", v + (unsigned long long)(long long)d);
            plant_text(&p, family, i, e, text);
            snprintf(p.label, sizeof p.label, "%s: %s -> %s", where, buf, text);
            try_plant(sc, &p);
        }
        i = e;
    }
}

/* Each enum value name in a condition turned into its neighbour. */
static void plant_condition_names(const struct schema_case *sc, size_t a, size_t b,
                                  const char *where)
{
    unsigned count = bitsift_schema_field_count(sc->s);
    for (size_t i = a; i < b;) {
        if (!isalnum_ascii(sc->text[i]) || (sc->text[i] >= '0' && sc->text[i] <= '9')) {
            i++;
            continue;
        }
        size_t e = i;
        while (e < b && isalnum_ascii(sc->text[e]))
            e++;
        bool done = false;
        for (unsigned id = 0; id < count && !done; id++) {
            bitsift_field_info info;
            bitsift_schema_field_info(sc->s, id, &info);
            if (info.type != BITSIFT_FIELD_ENUM || info.max - info.min > 4096)
                continue;
            for (int64_t v = info.min; v <= info.max && !done; v++) {
                const char *name = bitsift_schema_enum_name(sc->s, id, v);
                if (!name || strlen(name) != e - i || memcmp(name, sc->text + i, e - i) != 0)
                    continue;
                done = true;
                for (int d = -1; d <= 1; d += 2) {
                    if ((d < 0 && v == info.min) || (d > 0 && v == info.max))
                        continue;
                    const char *other = bitsift_schema_enum_name(sc->s, id, v + d);
                    char text[96];
                    if (other)
                        snprintf(text, sizeof text, "%s", other);
                    else
                        snprintf(text, sizeof text, "%" PRId64, v + d);
                    struct plant p;
                    plant_text(&p, BITSIFT_DRIFT_CONDITION, i, e, text);
                    snprintf(p.label, sizeof p.label, "%s: %s -> %s", where, name, text);
                    try_plant(sc, &p);
                }
            }
        }
        i = e;
    }
}

static void plant_enum(const struct schema_case *sc, unsigned id, const bitsift_field_info *info,
                       const bitsift_field_source *src)
{
    if (info->max - info->min > 4096)
        return;
    int64_t last = info->min;
    for (int64_t v = info->min; v <= info->max; v++)
        if (bitsift_schema_enum_name(sc->s, id, v))
            last = v;
    unsigned w = bitsift_bits_required(info->min, info->max);
    int64_t fill = (((int64_t)1 << (w + 1)) - 1) - (last - info->min);
    int64_t counts[2] = {1, fill};
    for (int k = 0; k < 2; k++) {
        if (counts[k] < 1 || counts[k] > 64 || (k == 1 && counts[1] == 1))
            continue;
        char text[512];
        size_t n = 0;
        for (int64_t j = 1; j <= counts[k] && n + 40 < sizeof text; j++)
            n += (size_t)snprintf(text + n, sizeof text - n, ", grown_%" PRId64, j);
        if (n + 40 >= sizeof text)
            continue;
        struct plant p;
        plant_text(&p, BITSIFT_DRIFT_ENUM, src->body_end, src->body_end, text);
        int64_t nmax = last + counts[k] > info->max ? last + counts[k] : info->max;
        p.new_bits = (int)bitsift_bits_required(info->min, nmax);
        snprintf(p.label, sizeof p.label, "enum of %s: %" PRId64 " values added", info->path,
                 counts[k]);
        try_plant(sc, &p);
    }
}

/* Another version: the protocol's version (or id) bumped and its first
 * int field one bit wider, in one edit from the one to the other. */
static void plant_schema(const struct schema_case *sc)
{
    const char *t = sc->text;
    size_t a = 0, a_end = 0;
    for (size_t i = 0; i + 8 < sc->size && !a_end; i++) {
        size_t skip = strncmp(t + i, "version ", 8) == 0 ? 8 : strncmp(t + i, " id ", 4) == 0 ? 4 : 0;
        if (!skip)
            continue;
        a = i + skip;
        a_end = a;
        while (a_end < sc->size && isalnum_ascii(t[a_end]))
            a_end++;
    }
    unsigned count = bitsift_schema_field_count(sc->s);
    for (unsigned id = 0; a_end && id < count; id++) {
        bitsift_field_info info;
        bitsift_field_source src;
        bitsift_schema_field_info(sc->s, id, &info);
        bitsift_schema_field_source(sc->s, id, &src);
        if (info.type != BITSIFT_FIELD_INT || src.type_start < a_end ||
            strncmp(t + src.type_start, "int(", 4) != 0 || info.min != 0)
            continue;
        unsigned w = bitsift_bits_required(info.min, info.max);
        char version[32], *stop;
        snprintf(version, sizeof version, "%.*s", (int)(a_end - a), t + a);
        unsigned long long v = strtoull(version, &stop, 0);
        size_t middle = src.type_start - a_end;
        char *text = malloc(middle + 128);
        if (!text)
            abort();
        int n = snprintf(text, 64, "%llu", v + 1);
        memcpy(text + n, t + a_end, middle);
        snprintf(text + n + middle, 64, "int(0, %" PRId64 ")", ((int64_t)1 << (w + 1)) - 1);
        struct plant p;
        plant_text(&p, BITSIFT_DRIFT_SCHEMA, a, src.type_end, "");
        if (strlen(text) + 1 < sizeof p.text) {
            snprintf(p.text, sizeof p.text, "%s", text);
            snprintf(p.label, sizeof p.label, "version %llu, %s one bit wider", v + 1, info.path);
            try_plant(sc, &p);
        }
        free(text);
        return;
    }
}

static void plant_all(const struct schema_case *sc)
{
    unsigned count = bitsift_schema_field_count(sc->s);
    size_t *seen[BITSIFT_DRIFT_FAMILY_COUNT];
    size_t nseen[BITSIFT_DRIFT_FAMILY_COUNT] = {0};
    for (int f = 0; f < BITSIFT_DRIFT_FAMILY_COUNT; f++)
        seen[f] = calloc(2 * (size_t)count + 1, sizeof **seen);
    for (unsigned id = 0; id < count; id++) {
        bitsift_field_info info;
        bitsift_field_source src;
        bitsift_schema_field_info(sc->s, id, &info);
        bitsift_schema_field_source(sc->s, id, &src);
        if (info.parent < 0) {
            if (!seen_before(seen[BITSIFT_DRIFT_INSERT], &nseen[BITSIFT_DRIFT_INSERT],
                             src.body_end))
                plant_insert(sc, src.body_end, false, "at the end of a packet");
            continue;
        }
        if (!seen_before(seen[BITSIFT_DRIFT_RANGE], &nseen[BITSIFT_DRIFT_RANGE], src.type_start)) {
            plant_ranges(sc, id, &info, &src);
            plant_cfloat(sc, &info, &src);
        }
        if (info.type == BITSIFT_FIELD_ENUM &&
            !seen_before(seen[BITSIFT_DRIFT_ENUM], &nseen[BITSIFT_DRIFT_ENUM], src.body_end))
            plant_enum(sc, id, &info, &src);
        if (info.type == BITSIFT_FIELD_ARRAY && src.array_start != src.array_end &&
            !seen_before(seen[BITSIFT_DRIFT_BOUND], &nseen[BITSIFT_DRIFT_BOUND], src.array_start))
            plant_literals(sc, BITSIFT_DRIFT_BOUND, src.array_start, src.array_end, info.path);
        if (src.cond_start != src.cond_end &&
            !seen_before(seen[BITSIFT_DRIFT_CONDITION], &nseen[BITSIFT_DRIFT_CONDITION],
                         src.cond_start)) {
            plant_literals(sc, BITSIFT_DRIFT_CONDITION, src.cond_start, src.cond_end, info.path);
            plant_condition_names(sc, src.cond_start, src.cond_end, info.path);
        }
        if (!seen_before(seen[BITSIFT_DRIFT_REMOVE], &nseen[BITSIFT_DRIFT_REMOVE], src.start)) {
            plant_remove(sc, &info, &src);
            char where[160];
            snprintf(where, sizeof where, "before %s", info.path);
            plant_insert(sc, src.start, true, where);
        }
    }
    plant_schema(sc);
    for (int f = 0; f < BITSIFT_DRIFT_FAMILY_COUNT; f++)
        free(seen[f]);
}

int main(int argc, char **argv)
{
    static const char *const examples[] = {"article.bss", "robocat.bss", "scenes.bss",
                                           "shooter.bss"};
    char paths[4][4096];
    const char *list[64];
    int n = 0;
    for (int i = 1; i < argc && n < 64; i++)
        list[n++] = argv[i];
    if (n == 0) {
        const char *top = getenv("top_srcdir");
        for (int i = 0; i < 4; i++) {
            snprintf(paths[i], sizeof paths[i], "%s/examples/%s", top ? top : ".", examples[i]);
            list[n++] = paths[i];
        }
    }
    printf("1..%d\n", n * (BITSIFT_DRIFT_FAMILY_COUNT + 0));
    for (int i = 0; i < n; i++) {
        struct schema_case sc = {.path = list[i]};
        char *text = read_file(list[i], &sc.size);
        bitsift_schema_error err;
        bitsift_schema *s = text ? bitsift_schema_compile(text, sc.size, list[i], &err) : NULL;
        struct tally before[BITSIFT_DRIFT_FAMILY_COUNT];
        memcpy(before, totals, sizeof before);
        if (s) {
            sc.text = text;
            sc.s = s;
            plant_all(&sc);
            run_plants(&sc);
        }
        for (int f = 0; f < BITSIFT_DRIFT_FAMILY_COUNT; f++) {
            struct tally t = totals[f];
            t.planted -= before[f].planted, t.hidden -= before[f].hidden;
            t.first -= before[f].first, t.alone -= before[f].alone;
            unsigned shown = t.planted - t.hidden;
            /* One-field range and width changes must rank first, all of
             * them; the other families are reported. */
            bool ok = s && (f != BITSIFT_DRIFT_RANGE || t.first == shown);
            tap_number++;
            if (!ok)
                tap_failed++;
            printf("%s %u - %s %s: rank 1 for %u of %u revealed (%u alone), %u not revealed\n",
                   ok ? "ok" : "not ok", tap_number, list[i],
                   bitsift_drift_family_name((bitsift_drift_family)f), t.first, shown, t.alone,
                   t.hidden);
        }
        bitsift_schema_free(s);
        free(text);
    }
    printf("# rank-1 rate per family (planted change ranked first, alone or tied):\n");
    unsigned all_first = 0, all_shown = 0;
    for (int f = 0; f < BITSIFT_DRIFT_FAMILY_COUNT; f++) {
        unsigned shown = totals[f].planted - totals[f].hidden;
        all_first += totals[f].first;
        all_shown += shown;
        printf("#   %-9s %4u/%-4u %5.1f%%  (alone %u; %u planted, %u revealed by no packet)\n",
               bitsift_drift_family_name((bitsift_drift_family)f), totals[f].first, shown,
               shown ? 100.0 * totals[f].first / shown : 0.0, totals[f].alone, totals[f].planted,
               totals[f].hidden);
    }
    printf("#   all       %4u/%-4u %5.1f%%\n", all_first, all_shown,
           all_shown ? 100.0 * all_first / all_shown : 0.0);
    return tap_failed ? 1 : 0;
}
