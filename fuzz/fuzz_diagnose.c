/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fuzz_diagnose.c -- libFuzzer target: the diagnosis (<bitsift/diagnose.h>)
 * of the packets an input describes, against one of the bundled example
 * schemas or a schema the input holds, with a small work budget so that
 * an input stays fast.
 *
 *   +--------+---------+-------------------+-------+-------+-----
 *   | schema | options | (0xff: text, NUL) | entry | entry | ...
 *   | 1 B    | 1 B     |                   |       |       |
 *   +--------+---------+-------------------+-------+-------+-----
 *
 *   schema   0xff: the schema text follows the options, up to a NUL (an
 *            input whose text does not compile is done); else a bundled
 *            schema (packet_schemas.h), modulo their count
 *   options  bit 0: strict decoding; bit 1: the other bundled schemas as
 *            candidates; bit 2: a stop after (bit 3 ? 40 : 3) polls;
 *            bits 4-7: the work budget, (1 + n) * 16 KiB
 *   entry    a tag byte, then
 *              tag < 0x80: count = tag + 1 random valid packets of a
 *                type (1 B), seeds from (2 B, LE), one bit flipped in
 *                each at (1 B: 0 none, else a bit index from it), fill
 *                50; then resealed: packets that fail past their type
 *                field, the failures of a drift
 *              tag >= 0x80: tag - 0x80 bytes taken as a packet, resealed
 *                unless it is the last entry (the CRC group)
 *
 * Checked on every input, besides "no crash, no sanitizer report":
 *   - the diagnosis counts every packet as a tally of the harness's own
 *     decodes does (bitsift_error_tally): packets, valid, and each group's
 *     failures by kind;
 *   - each report ranks best first from 1, ties marked, what it explains,
 *     breaks and reads exactly within what it was measured on, and each
 *     candidate's edit made by bitsift_drift_apply is the size it says;
 *   - the work stays within the budget; a stopped search says so;
 *   - a packet type's view of the schema text (diagnose_views.h, through
 *     the test hooks) reads the packets of that type (the first
 *     VIEW_PACKETS) as the whole schema does (verdict and bits), and so
 *     does the view with a candidate change made, as the whole text with
 *     that change (a few candidates of the first failing type;
 *     tests/diagnose/views_equivalence.c does this for every type of the
 *     project's schemas): it compiles when the whole does, and reads the
 *     type's packets alike; a change outside the type's declaration reads
 *     the other types' packets in their views alike too;
 *   - the API's edges: a search of no group, a packet added once the
 *     search began, NULL arguments, refused as documented.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bitsift.h"
#include "packet_schemas.h"
#include "reseal.h"
#include "analysis/diagnose_testing.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_PACKETS      4096         /* packets an input makes (a sample holds 2048) */
#define MAX_TOTAL_BYTES  (512u << 10) /* and their bytes */
#define VIEW_PACKETS     32           /* packets of a type read through the views */
#define VIEW_CANDIDATES  4            /* candidate changes checked in the views */
#define MAX_RANDOM_BYTES 4096         /* a random packet larger is skipped */
#define BUDGET_UNIT      (16u << 10)  /* work budget steps */

#define CHECK(cond)                                                                         \
    do {                                                                                    \
        if (!(cond)) {                                                                      \
            fprintf(stderr, "fuzz_diagnose: %s:%d: check failed: %s\n", __FILE__, __LINE__, \
                    #cond);                                                                 \
            abort();                                                                        \
        }                                                                                   \
    } while (0)

/* The bundled schemas, compiled once. */
static bitsift_schema **schemas;
static size_t schema_count;

static void init_schemas(void)
{
    if (schemas)
        return;
    schemas = calloc(fuzz_bundled_schema_count, sizeof *schemas);
    CHECK(schemas != NULL);
    for (size_t i = 0; i < fuzz_bundled_schema_count; i++) {
        bitsift_schema_error err;
        schemas[i] =
            bitsift_schema_compile(fuzz_bundled_schemas[i].text, fuzz_bundled_schemas[i].size,
                                   fuzz_bundled_schemas[i].name, &err);
        CHECK(schemas[i] != NULL);
    }
    schema_count = fuzz_bundled_schema_count;
}

struct packet {
    uint8_t *data;
    size_t size;
};

struct packets {
    struct packet items[MAX_PACKETS];
    size_t count, bytes;
};

static void seal(const bitsift_schema *s, uint8_t *data, size_t size)
{
    const bitsift_framing *f = bitsift_schema_framing(s);
    if (f->crc && size >= (size_t)f->prefix_bytes + 4)
        fuzz_store_le32(data + f->prefix_bytes, bitsift_packet_crc(f, data, size));
}

static void keep(struct packets *p, const uint8_t *data, size_t size)
{
    uint8_t *copy = malloc(size ? size : 1);
    CHECK(copy != NULL);
    if (size)
        memcpy(copy, data, size);
    p->items[p->count].data = copy;
    p->items[p->count].size = size;
    p->count++;
    p->bytes += size;
}

/* The packets of the entries from data[at]. */
static void make_packets(const bitsift_schema *s, const uint8_t *data, size_t size, size_t at,
                         struct packets *p)
{
    static uint8_t buf[MAX_RANDOM_BYTES];
    bitsift_tree *tree = bitsift_tree_create(s);
    CHECK(tree != NULL);
    unsigned types = bitsift_schema_packet_count(s);
    while (at < size && p->count < MAX_PACKETS && p->bytes < MAX_TOTAL_BYTES) {
        uint8_t tag = data[at++];
        if (tag >= 0x80) {
            size_t n = tag - 0x80u;
            if (n > size - at)
                n = size - at;
            memcpy(buf, data + at, n);
            at += n;
            if (at < size)
                seal(s, buf, n);
            keep(p, buf, n);
            continue;
        }
        if (size - at < 4)
            break;
        unsigned type = data[at] % types;
        unsigned seed = data[at + 1] | (unsigned)data[at + 2] << 8;
        unsigned flip = data[at + 3];
        at += 4;
        for (unsigned k = 0; k <= tag && p->count < MAX_PACKETS && p->bytes < MAX_TOTAL_BYTES;
             k++) {
            size_t n;
            if (bitsift_tree_random(tree, type, seed + k, 50) != BITSIFT_OK ||
                bitsift_encode(s, tree, buf, sizeof buf, &n, NULL) != BITSIFT_OK)
                continue;
            if (flip && n) {
                size_t bit = (size_t)(flip - 1) * 7919u % (n * 8);
                buf[bit / 8] ^= (uint8_t)(1u << (bit % 8));
            }
            seal(s, buf, n);
            keep(p, buf, n);
        }
    }
    bitsift_tree_free(tree);
}

/* The stop callback: non-zero from poll number `after` on. */
struct stop_after {
    unsigned polls, after;
};

static int stop_after(void *ctx)
{
    struct stop_after *st = ctx;
    return ++st->polls > st->after;
}

/* A report is ranked and within what it was measured on. */
static void check_report(const char *text, size_t text_size, const bitsift_diagnose_report *rep)
{
    CHECK(rep->compiled <= rep->tried);
    CHECK(rep->count <= rep->compiled);
    for (size_t i = 0; i < rep->count; i++) {
        const bitsift_diagnose_ranked *r = &rep->ranked[i];
        CHECK(r->explained >= 1 && r->explained <= rep->failing_measured);
        CHECK(r->broken <= rep->valid_measured);
        CHECK(r->exact <= rep->failing_measured + rep->valid_measured);
        CHECK(r->rank >= 1 && r->rank <= i + 1);
        CHECK(i == 0 ? r->rank == 1 : r->rank >= rep->ranked[i - 1].rank);
        if (i && r->rank == rep->ranked[i - 1].rank)
            CHECK(r->tied && rep->ranked[i - 1].tied);
        CHECK(strcmp(bitsift_drift_family_name(r->change.family), "unknown") != 0);
        if (r->change.family == BITSIFT_DRIFT_SCHEMA)
            continue;
        CHECK(r->change.start <= r->change.end && r->change.end <= text_size);
        size_t n;
        char *edited = bitsift_drift_apply(text, text_size, &r->change, &n);
        CHECK(edited != NULL);
        CHECK(n == text_size - (r->change.end - r->change.start) + strlen(r->change.text));
        CHECK(edited[n] == 0);
        free(edited);
    }
}

/* a and b read the first VIEW_PACKETS packets that the schema reads as
 * type t alike. */
static bool agree(const bitsift_schema *s, const bitsift_schema *a, const bitsift_schema *b,
                  unsigned t, unsigned flags, const struct packets *p)
{
    for (size_t i = 0, n = 0; i < p->count && n < VIEW_PACKETS; i++) {
        bitsift_result res, ra, rb;
        bitsift_decode(s, p->items[i].data, p->items[i].size, flags, NULL, &res);
        if (res.packet_type != (int)t)
            continue;
        n++;
        bitsift_decode(a, p->items[i].data, p->items[i].size, flags, NULL, &ra);
        bitsift_decode(b, p->items[i].data, p->items[i].size, flags, NULL, &rb);
        if (ra.status != rb.status || ra.bits != rb.bits)
            return false;
    }
    return true;
}

/* Type u's view with candidate c (NULL: none) made, compiled; NULL when
 * it does not compile or c is not in u's view. */
static bitsift_schema *view_schema(bitsift__diagnose_views *views, unsigned u,
                                   const bitsift_drift_candidate *c)
{
    size_t n;
    bool unaffected;
    char *text = bitsift__diagnose_views_edit(views, u, c, &n, &unaffected);
    CHECK(text != NULL || unaffected);
    bitsift_schema_error err;
    bitsift_schema *view = text ? bitsift_schema_compile(text, n, "view", &err) : NULL;
    free(text);
    return view;
}

/* Type t's view reads the packets of type t as the whole schema does. */
static void check_view(const bitsift_schema *s, bitsift__diagnose_views *views, unsigned t,
                       unsigned flags, const struct packets *p)
{
    bitsift_schema *view = view_schema(views, t, NULL);
    CHECK(view != NULL);
    CHECK(agree(s, s, view, t, flags, p));
    bitsift_schema_free(view);
}

/* A few candidate changes of type t, made in the whole text and in the
 * views, read alike (see the top of the file). */
static void check_candidate_views(const bitsift_schema *s, const char *text, size_t size,
                                  bitsift__diagnose_views *views, unsigned t, unsigned flags,
                                  const struct packets *p)
{
    bitsift_drift_list list = {0};
    CHECK(bitsift_drift_candidates(s, text, size, t, &list) == BITSIFT_OK);
    size_t step = list.count > VIEW_CANDIDATES ? list.count / VIEW_CANDIDATES : 1;
    unsigned types = bitsift_schema_packet_count(s);
    for (size_t i = 0; i < list.count; i += step) {
        const bitsift_drift_candidate *c = &list.items[i];
        CHECK(c->start <= c->end && c->end <= size && c->text != NULL);
        size_t n;
        char *edited = bitsift_drift_apply(text, size, c, &n);
        CHECK(edited != NULL);
        bitsift_schema_error err;
        bitsift_schema *whole = bitsift_schema_compile(edited, n, "whole", &err);
        free(edited);
        bitsift_schema *view = view_schema(views, t, c);
        bool local = bitsift__diagnose_views_local(views, t, c);
        /* A local change compiles in the view as in the whole; one outside
         * may break a type it is not measured on. */
        CHECK(whole ? view != NULL : !(local && view));
        if (whole) {
            CHECK(agree(s, whole, view, t, flags, p));
            for (unsigned u = 0; u < types; u++) {
                if (u == t)
                    continue;
                if (local) {
                    CHECK(agree(s, whole, s, u, flags, p));
                    /* Not a change of type u's packets: no view of it,
                     * or one that reads them as before. */
                    bitsift_schema *other = view_schema(views, u, c);
                    CHECK(!other || agree(s, s, other, u, flags, p));
                    bitsift_schema_free(other);
                    continue;
                }
                bitsift_schema *other = view_schema(views, u, c);
                CHECK(other != NULL);
                CHECK(agree(s, whole, other, u, flags, p));
                bitsift_schema_free(other);
            }
        }
        bitsift_schema_free(whole);
        bitsift_schema_free(view);
    }
    bitsift_drift_list_free(&list);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    init_schemas();
    const bitsift_schema *s;
    bitsift_schema *own = NULL;
    const char *text;
    size_t text_size, at = 2, which = schema_count;
    if (data[0] == 0xff) {
        const uint8_t *end = memchr(data + 2, 0, size - 2);
        text = (const char *)data + 2;
        text_size = end ? (size_t)(end - (data + 2)) : size - 2;
        at = 2 + text_size + (end != NULL);
        bitsift_schema_error err;
        own = bitsift_schema_compile(text, text_size, "fuzz.bss", &err);
        if (!own)
            return 0;
        s = own;
    } else {
        which = data[0] % schema_count;
        s = schemas[which];
        text = fuzz_bundled_schemas[which].text;
        text_size = fuzz_bundled_schemas[which].size;
    }
    unsigned options = data[1];
    unsigned flags = options & 1 ? BITSIFT_DECODE_STRICT : 0;

    static struct packets p;
    p.count = 0;
    p.bytes = 0;
    make_packets(s, data, size, at, &p);

    /* The other bundled schemas as candidates, named by their files. */
    bitsift_schema *others[8];
    const char *labels[8];
    size_t other_count = 0;
    for (size_t i = 0; (options & 2) && i < schema_count && other_count < 8; i++)
        if (i != which) {
            others[other_count] = schemas[i];
            labels[other_count++] = fuzz_bundled_schemas[i].name;
        }
    struct stop_after st = {0, options & 8 ? 40 : 3};
    bitsift_diagnose_options o = {
        .decode_flags = flags,
        .others = others,
        .other_labels = labels,
        .other_count = other_count,
        .work_budget = (uint64_t)(1 + (options >> 4)) * BUDGET_UNIT,
        .stop = options & 4 ? stop_after : NULL,
        .stop_ctx = &st,
    };
    bitsift_diagnosis *d = bitsift_diagnose_create(s, text, text_size, "fuzz.bss", &o);
    CHECK(d != NULL);

    bitsift_error_tally tally = {0};
    for (size_t i = 0; i < p.count; i++) {
        bitsift_result res;
        if (bitsift_decode(s, p.items[i].data, p.items[i].size, flags, NULL, &res) == BITSIFT_OK)
            bitsift_error_tally_valid(&tally);
        else
            bitsift_error_tally_invalid(&tally, res.status);
        CHECK(bitsift_diagnose_add(d, p.items[i].data, p.items[i].size) == BITSIFT_OK);
    }
    bitsift_diagnose_counts counts;
    bitsift_diagnose_get_counts(d, &counts);
    CHECK(counts.packets == tally.packets && counts.valid == tally.valid);
    CHECK(counts.group_count == bitsift_schema_packet_count(s) + 2);
    bitsift_diagnose_group group;
    CHECK(!bitsift_diagnose_get_group(d, counts.group_count, &group));
    bitsift_error_tally groups = {0};
    for (size_t g = 0; g < counts.group_count; g++) {
        CHECK(bitsift_diagnose_get_group(d, g, &group));
        CHECK(group.tally.valid == 0 && group.tally.invalid == group.tally.packets);
        groups.invalid += group.tally.invalid;
        for (unsigned k = 0; k < BITSIFT_ERROR_COUNT; k++)
            groups.by_kind[k] += group.tally.by_kind[k];
    }
    CHECK(groups.invalid == tally.invalid);
    CHECK(memcmp(groups.by_kind, tally.by_kind, sizeof tally.by_kind) == 0);

    bitsift__diagnose_views *views = bitsift__diagnose_views_create(s, text, text_size);
    CHECK(views != NULL || bitsift_schema_packet_count(s) < 2);
    bool stopped = false, views_checked = false;
    for (size_t g = 0; g < counts.group_count; g++) {
        CHECK(bitsift_diagnose_get_group(d, g, &group));
        if (!group.tally.invalid)
            continue;
        bitsift_diagnose_report rep;
        CHECK(bitsift_diagnose_run(d, g, &rep) == BITSIFT_OK);
        check_report(text, text_size, &rep);
        CHECK(!stopped || rep.stopped); /* a stop holds for the searches after it */
        stopped = rep.stopped;
        CHECK(!rep.stopped || o.stop);
        bitsift_diagnose_report_free(&rep);
        if (views && group.packet_type >= 0) {
            check_view(s, views, (unsigned)group.packet_type, flags, &p);
            if (!views_checked)
                check_candidate_views(s, text, text_size, views, (unsigned)group.packet_type, flags,
                                      &p);
            views_checked = true;
        }
    }
    bitsift__diagnose_views_free(views);
    bitsift_diagnose_get_counts(d, &counts);
    CHECK(counts.work_used <= counts.work_budget);
    CHECK(counts.stopped == stopped);

    bitsift_diagnose_report rep;
    CHECK(bitsift_diagnose_run(d, counts.group_count, &rep) == BITSIFT_E_ARGUMENT);
    CHECK(bitsift_diagnose_run(d, 0, NULL) == BITSIFT_E_ARGUMENT);
    CHECK(bitsift_diagnose_run(NULL, 0, &rep) == BITSIFT_E_ARGUMENT && rep.count == 0);
    bitsift_diagnose_report_free(NULL);
    CHECK(bitsift_diagnose_add(NULL, data, size) == BITSIFT_E_ARGUMENT);
    CHECK(bitsift_diagnose_create(NULL, text, text_size, "fuzz.bss", NULL) == NULL);
    CHECK(bitsift_diagnose_create(s, NULL, 1, "fuzz.bss", NULL) == NULL);
    bitsift_diagnose_get_counts(NULL, &counts);
    CHECK(counts.packets == 0 && counts.group_count == 0);
    CHECK(!bitsift_diagnose_get_group(NULL, 0, &group));
    bitsift_diagnose_free(NULL);
    if (counts.packets > counts.valid)
        CHECK(bitsift_diagnose_add(d, data, size) == BITSIFT_E_ARGUMENT);
    bitsift_diagnose_free(d);

    /* The float spelling the candidates use reads back as the float. */
    if (size >= 6) {
        float v;
        memcpy(&v, data + 2, sizeof v);
        if (v == v && v - v == 0) {
            char buf[64];
            bitsift__drift_format_float(buf, sizeof buf, v);
            CHECK(strtof(buf, NULL) == v);
        }
    }
    /* An inserted field goes where the candidates put it: at the line
     * start before a statement first on its line, else at the place. */
    if (size >= 4) {
        size_t pos = (data[2] | (size_t)data[3] << 8) % (text_size + 1);
        bitsift_drift_candidate c;
        CHECK(bitsift__drift_insertion(text, text_size, pos, data[2] & 1, "bits(3)", "added", &c));
        CHECK(c.start == c.end && c.start <= text_size && c.text != NULL);
        free(c.text);
    }
    for (size_t i = 0; i < p.count; i++)
        free(p.items[i].data);
    bitsift_schema_free(own);
    return 0;
}
