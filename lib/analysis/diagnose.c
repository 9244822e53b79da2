/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * diagnose.c -- the diagnosis (bitsift/diagnose.h): packets checked
 * against the schema as they come, failing ones grouped by packet type
 * and sampled with bounded memory; then for each group every candidate
 * change (drift_candidates.c) compiled and ranked by the packets it
 * explains.
 *
 * Cost: reading is one validating decode per packet, the fast path. The
 * search for a group is, per candidate, one compile and a validating
 * decode of a few sampled packets (the first round below); the later
 * rounds measure a bounded number of candidates on more packets. A
 * candidate is compiled in the view of its packet type (diagnose_views.h),
 * so a compile costs one type's declaration, not the whole schema's: the
 * search grows linearly with the failing types, the packets read and the
 * candidates (about 34 per statement of the packet type: 32 insertion
 * widths, a removal, plus a few per field), and not with the size of a
 * group beyond BITSIFT_DIAGNOSE_SAMPLE. A budget counted in compile work
 * (BITSIFT_DIAGNOSE_WORK_BYTES) bounds the whole run whatever the schema.
 */
#include <stdlib.h>
#include <string.h>

#include "diagnose_views.h"
#include "drift_candidates.h"

/* A uniform sample of at most `cap` packets (reservoir sampling). */
struct diagnose_sample {
    struct diagnose_packet {
        uint8_t *data;
        size_t size;
    } *items;
    size_t count, cap;
    uint64_t seen;
};

/* A group's packets (bitsift_diagnose_group) and its sample. */
struct diagnose_group {
    bitsift_diagnose_group info;
    struct diagnose_sample sample;
};

struct bitsift_diagnosis {
    const bitsift_schema *schema; /* the schema the packets are checked with */
    const char *text;             /* its text, which candidates edit */
    size_t size;
    const char *path;
    bitsift_diagnose_options options;
    uint64_t packets, valid, not_sampled;
    struct diagnose_sample valid_sample;
    /* packet types, then "type unknown", then "CRC" */
    struct diagnose_group *groups;
    size_t group_count;
    size_t bytes; /* held by the samples */
    uint64_t rng;
    /* Made by the first search: */
    bool searching;
    bool have_views;            /* else every candidate compiles the whole text */
    struct diagnose_views views;
    int *valid_type;            /* per valid sampled packet: its type */
    bool *valid_exact;          /* and whether the schema reads it exactly */
    unsigned *seen;             /* per type: the last measure that met it */
    unsigned seen_mark;
    uint64_t work_budget, work_used; /* bytes compiled */
    size_t groups_left;         /* groups with failures not searched yet */
    bool stopped;               /* options.stop said stop */
};

/* The rounds: failing and valid packets measured, candidates kept for the
 * next round (more when tied with the last kept, up to 4 times). */
static const struct {
    size_t failing, valid, keep;
} diagnose_rounds[3] = {
    {32, 16, 256},
    {256, 64, 48},
    {BITSIFT_DIAGNOSE_SAMPLE, BITSIFT_DIAGNOSE_SAMPLE, 0},
};

/* ---- sampling ------------------------------------------------------------------ */

static uint64_t next_random(uint64_t *state)
{
    /* xorshift64*: a fixed seed makes every run give the same sample. */
    uint64_t x = *state;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *state = x;
    return x * 0x2545F4914F6CDD1DULL;
}

static bool sample_init(struct diagnose_sample *s, size_t cap)
{
    memset(s, 0, sizeof *s);
    s->items = calloc(cap, sizeof *s->items);
    s->cap = cap;
    return s->items != NULL;
}

static void sample_free(struct diagnose_sample *s)
{
    for (size_t i = 0; s->items && i < s->count; i++)
        free(s->items[i].data);
    free(s->items);
    memset(s, 0, sizeof *s);
}

/* Algorithm R: the n-th packet replaces a random kept one with
 * probability cap / n, which keeps the sample uniform. */
static bool sample_add(bitsift_diagnosis *d, struct diagnose_sample *s, const uint8_t *data,
                       size_t size)
{
    s->seen++;
    size_t slot;
    if (s->count < s->cap) {
        slot = s->count;
    } else {
        uint64_t r = next_random(&d->rng) % s->seen;
        if (r >= s->cap)
            return true;
        slot = (size_t)r;
    }
    if (size > BITSIFT_DIAGNOSE_PACKET_MAX ||
        d->bytes - (slot < s->count ? s->items[slot].size : 0) + size >
            BITSIFT_DIAGNOSE_SAMPLE_BYTES) {
        d->not_sampled++;
        return true;
    }
    uint8_t *copy = malloc(size ? size : 1);
    if (!copy)
        return false;
    memcpy(copy, data, size);
    if (slot < s->count) {
        d->bytes -= s->items[slot].size;
        free(s->items[slot].data);
    } else {
        s->count++;
    }
    s->items[slot].data = copy;
    s->items[slot].size = size;
    d->bytes += size;
    return true;
}

bitsift_diagnosis *bitsift_diagnose_create(const bitsift_schema *schema, const char *text,
                                           size_t size, const char *path,
                                           const bitsift_diagnose_options *options)
{
    if (!schema || (!text && size))
        return NULL;
    bitsift_diagnosis *d = calloc(1, sizeof *d);
    if (!d)
        return NULL;
    d->schema = schema;
    d->text = text;
    d->size = size;
    d->path = path;
    if (options)
        d->options = *options;
    d->work_budget = d->options.work_budget ? d->options.work_budget : BITSIFT_DIAGNOSE_WORK_BYTES;
    d->rng = 0x9E3779B97F4A7C15ULL;
    d->group_count = bitsift_schema_packet_count(schema) + 2;
    d->groups = calloc(d->group_count, sizeof *d->groups);
    if (!d->groups || !sample_init(&d->valid_sample, BITSIFT_DIAGNOSE_SAMPLE)) {
        bitsift_diagnose_free(d);
        return NULL;
    }
    for (size_t g = 0; g < d->group_count; g++) {
        d->groups[g].info.packet_type = g + 2 < d->group_count ? (int)g : -1;
        d->groups[g].info.crc_mismatch = g + 1 == d->group_count;
    }
    return d;
}

void bitsift_diagnose_free(bitsift_diagnosis *d)
{
    if (!d)
        return;
    for (size_t g = 0; d->groups && g < d->group_count; g++)
        sample_free(&d->groups[g].sample);
    free(d->groups);
    sample_free(&d->valid_sample);
    diagnose_views_free(&d->views);
    free(d->valid_type);
    free(d->valid_exact);
    free(d->seen);
    free(d);
}

bitsift_error bitsift_diagnose_add(bitsift_diagnosis *d, const void *packet, size_t size)
{
    /* The search sized its tables by the samples it found. */
    if (!d || (!packet && size) || d->searching)
        return BITSIFT_E_ARGUMENT;
    const uint8_t *data = packet;
    bitsift_result res;
    d->packets++;
    if (bitsift_decode(d->schema, data, size, d->options.decode_flags, NULL, &res) == BITSIFT_OK) {
        d->valid++;
        return sample_add(d, &d->valid_sample, data, size) ? BITSIFT_OK : BITSIFT_E_NOMEM;
    }
    size_t g = res.status == BITSIFT_E_CRC                                 ? d->group_count - 1
               : res.packet_type >= 0 && (size_t)res.packet_type + 2 < d->group_count
                   ? (size_t)res.packet_type
                   : d->group_count - 2;
    struct diagnose_group *group = &d->groups[g];
    if (!group->sample.items && !sample_init(&group->sample, BITSIFT_DIAGNOSE_SAMPLE))
        return BITSIFT_E_NOMEM;
    bitsift_error_tally_invalid(&group->info.tally, res.status);
    return sample_add(d, &group->sample, data, size) ? BITSIFT_OK : BITSIFT_E_NOMEM;
}

void bitsift_diagnose_get_counts(const bitsift_diagnosis *d, bitsift_diagnose_counts *counts)
{
    memset(counts, 0, sizeof *counts);
    if (!d)
        return;
    counts->packets = d->packets;
    counts->valid = d->valid;
    counts->not_sampled = d->not_sampled;
    counts->work_used = d->work_used;
    counts->work_budget = d->work_budget;
    counts->group_count = d->group_count;
    counts->stopped = d->stopped;
}

bool bitsift_diagnose_get_group(const bitsift_diagnosis *d, size_t g,
                                bitsift_diagnose_group *group)
{
    if (!d || g >= d->group_count)
        return false;
    *group = d->groups[g].info;
    return true;
}

/* ---- measuring ------------------------------------------------------------------ */

/* A decode that ends in the packet's last byte, the bits after its end
 * zero: what a writer of that schema would have sent, not a packet that a
 * shorter reading happens to accept (fields at the end of a packet with
 * no end check are otherwise accepted at almost any width). */
static bool exact_end(const uint8_t *data, size_t size, uint64_t bits)
{
    if ((bits + 7) / 8 != size)
        return false;
    return bits % 8 == 0 || (data[size - 1] >> (bits % 8)) == 0;
}

/* Packets [0, n) of `s` that `schema` accepts; *exact counts those it
 * reads exactly (exact_end). */
static uint64_t count_valid(const bitsift_schema *schema, unsigned flags,
                            const struct diagnose_sample *s, size_t n, uint64_t *exact)
{
    uint64_t valid = 0, exactly = 0;
    bitsift_result res;
    for (size_t i = 0; i < n && i < s->count; i++) {
        const struct diagnose_packet *p = &s->items[i];
        if (bitsift_decode(schema, p->data, p->size, flags, NULL, &res) != BITSIFT_OK)
            continue;
        valid++;
        exactly += exact_end(p->data, p->size, res.bits);
    }
    if (exact)
        *exact = exactly;
    return valid;
}

/* The work of compiling n bytes of text in the view of type u (the whole
 * text when u < 0 or without views), in bytes: the compiler's time grows
 * with its text and with the square of its fields (its name lookups);
 * 64 field pairs cost about as much as a byte. */
static uint64_t compile_work(const bitsift_diagnosis *d, int u, uint64_t n)
{
    uint64_t fields = d->have_views && u >= 0 ? d->views.fields[u]
                                              : bitsift_schema_field_count(d->schema);
    return n + fields * fields / 64;
}

/* A candidate's schema for type u's packets: the other schema itself
 * (*owned false), or the edited text compiled, whole or as u's view
 * (diagnose_views.h). NULL when it does not compile (*nomem when memory
 * ran out). Its text's bytes are added to the work done. */
static bitsift_schema *candidate_schema(bitsift_diagnosis *d, int u,
                                        const bitsift_drift_candidate *c, bool *owned, bool *nomem)
{
    *owned = false;
    *nomem = false;
    if (c->family == BITSIFT_DRIFT_SCHEMA)
        return c->schema < d->options.other_count ? d->options.others[c->schema] : NULL;
    size_t n;
    bool unaffected = false;
    char *text = d->have_views && u >= 0
                     ? diagnose_views_edit(&d->views, (unsigned)u, c, &n, &unaffected)
                     : bitsift_drift_apply(d->text, d->size, c, &n);
    if (!text) {
        *nomem = !unaffected;
        return NULL;
    }
    d->work_used += compile_work(d, u, n);
    bitsift_schema_error err;
    bitsift_schema *s = bitsift_schema_compile(text, n, d->path, &err);
    free(text);
    if (!s && err.kind == BITSIFT_E_NOMEM)
        *nomem = true;
    *owned = s != NULL;
    return s;
}

/* The bytes candidate_schema compiles to measure c on a group's packets
 * and the first valid_n valid ones: the view of the group's type, and for
 * an edit outside that type's declaration the view of every other type
 * among those valid packets. */
static uint64_t measure_cost(bitsift_diagnosis *d, const struct diagnose_group *group,
                             const bitsift_drift_candidate *c, size_t valid_n)
{
    if (c->family == BITSIFT_DRIFT_SCHEMA)
        return 0;
    if (!d->have_views || group->info.packet_type < 0)
        return compile_work(d, -1, d->size - (c->end - c->start) + (c->text ? strlen(c->text) : 0));
    unsigned t = (unsigned)group->info.packet_type;
    uint64_t cost = compile_work(d, (int)t, diagnose_views_edit_size(&d->views, t, c));
    if (diagnose_views_local(&d->views, t, c))
        return cost;
    d->seen_mark++;
    d->seen[t] = d->seen_mark;
    for (size_t i = 0; i < valid_n && i < d->valid_sample.count; i++) {
        unsigned u = (unsigned)d->valid_type[i];
        if (d->seen[u] == d->seen_mark)
            continue;
        d->seen[u] = d->seen_mark;
        cost += compile_work(d, (int)u, diagnose_views_edit_size(&d->views, u, c));
    }
    return cost;
}

/* Valid packets [0, n) of the sample of type u that `schema` (the
 * candidate's for type u) accepts; *exact those it reads exactly. */
static uint64_t count_valid_of_type(const bitsift_schema *schema, const bitsift_diagnosis *d,
                                    int u, size_t n, uint64_t *exact)
{
    uint64_t valid = 0;
    bitsift_result res;
    for (size_t i = 0; i < n && i < d->valid_sample.count; i++) {
        const struct diagnose_packet *p = &d->valid_sample.items[i];
        if (d->valid_type[i] != u ||
            bitsift_decode(schema, p->data, p->size, d->options.decode_flags, NULL, &res) !=
                BITSIFT_OK)
            continue;
        valid++;
        *exact += exact_end(p->data, p->size, res.bits);
    }
    return valid;
}

/* The candidate of a group's samples: how many failing it makes valid and
 * how many valid it makes fail, over the first n and valid_n of each. */
static int measure(bitsift_diagnosis *d, const struct diagnose_group *group,
                   const bitsift_drift_candidate *c, size_t n, size_t valid_n,
                   bitsift_diagnose_ranked *out)
{
    bool owned, nomem;
    int t = group->info.packet_type;
    bitsift_schema *s = candidate_schema(d, t, c, &owned, &nomem);
    if (!s)
        return nomem ? -1 : 0;
    out->explained = count_valid(s, d->options.decode_flags, &group->sample, n, &out->exact);
    if (valid_n > d->valid_sample.count)
        valid_n = d->valid_sample.count;
    if (c->family == BITSIFT_DRIFT_SCHEMA || !d->have_views || t < 0) {
        uint64_t exact_valid;
        out->broken = valid_n - count_valid(s, d->options.decode_flags, &d->valid_sample, valid_n,
                                            &exact_valid);
        out->exact += exact_valid;
        if (owned)
            bitsift_schema_free(s);
        return 1;
    }
    /* By views: the group's type with its own; the others unchanged by an
     * edit inside the group's type, else each with its view edited. */
    uint64_t valid = count_valid_of_type(s, d, t, valid_n, &out->exact);
    bitsift_schema_free(s);
    if (diagnose_views_local(&d->views, (unsigned)t, c)) {
        for (size_t i = 0; i < valid_n; i++)
            if (d->valid_type[i] != t) {
                valid++;
                out->exact += d->valid_exact[i];
            }
        out->broken = valid_n - valid;
        return 1;
    }
    d->seen_mark++;
    d->seen[t] = d->seen_mark;
    for (size_t i = 0; i < valid_n; i++) {
        int u = d->valid_type[i];
        if (d->seen[u] == d->seen_mark)
            continue;
        d->seen[u] = d->seen_mark;
        bitsift_schema *su = candidate_schema(d, u, c, &owned, &nomem);
        if (!su)
            return nomem ? -1 : 0; /* the change breaks type u's declaration */
        valid += count_valid_of_type(su, d, u, valid_n, &out->exact);
        bitsift_schema_free(su);
    }
    out->broken = valid_n - valid;
    return 1;
}

/* Best first: most explained, fewest broken, most read exactly, smallest
 * change. */
static int compare_score(const bitsift_diagnose_ranked *a, const bitsift_diagnose_ranked *b)
{
    if (a->explained != b->explained)
        return a->explained > b->explained ? -1 : 1;
    if (a->broken != b->broken)
        return a->broken < b->broken ? -1 : 1;
    if (a->exact != b->exact)
        return a->exact > b->exact ? -1 : 1;
    if (a->change.delta_bits != b->change.delta_bits)
        return a->change.delta_bits < b->change.delta_bits ? -1 : 1;
    if (a->change.detail != b->change.detail)
        return a->change.detail < b->change.detail ? -1 : 1;
    return 0;
}

/* Among ties, shown first: another schema, then changes of an existing
 * statement, then removals, then insertions. */
static const unsigned tie_order[BITSIFT_DRIFT_FAMILY_COUNT] = {
    [BITSIFT_DRIFT_SCHEMA] = 0, [BITSIFT_DRIFT_RANGE] = 1,  [BITSIFT_DRIFT_CFLOAT] = 2,
    [BITSIFT_DRIFT_ENUM] = 3,   [BITSIFT_DRIFT_BOUND] = 4,  [BITSIFT_DRIFT_CONDITION] = 5,
    [BITSIFT_DRIFT_REMOVE] = 6, [BITSIFT_DRIFT_INSERT] = 7,
};

/* The same, then a fixed order among ties: family, place in the text. */
static int compare_ranked(const void *pa, const void *pb)
{
    const bitsift_diagnose_ranked *a = pa, *b = pb;
    int order = compare_score(a, b);
    if (order)
        return order;
    if (a->change.family != b->change.family)
        return tie_order[a->change.family] < tie_order[b->change.family] ? -1 : 1;
    if (a->change.start != b->change.start)
        return a->change.start < b->change.start ? -1 : 1;
    if (a->change.schema != b->change.schema)
        return a->change.schema < b->change.schema ? -1 : 1;
    return strcmp(a->change.text ? a->change.text : "", b->change.text ? b->change.text : "");
}

/* Which candidates a budget keeps: every change of an existing statement,
 * then insertions of fewer bits before insertions of more. */
static int compare_priority(const void *pa, const void *pb)
{
    const bitsift_drift_candidate *a = pa, *b = pb;
    bool ia = a->family == BITSIFT_DRIFT_INSERT, ib = b->family == BITSIFT_DRIFT_INSERT;
    if (ia != ib)
        return ia ? 1 : -1;
    if (ia && a->delta_bits != b->delta_bits)
        return a->delta_bits < b->delta_bits ? -1 : 1;
    if (a->start != b->start)
        return a->start < b->start ? -1 : 1;
    if (a->family != b->family)
        return a->family < b->family ? -1 : 1;
    if (a->delta_bits != b->delta_bits)
        return a->delta_bits < b->delta_bits ? -1 : 1;
    return strcmp(a->text ? a->text : "", b->text ? b->text : "");
}

void bitsift_diagnose_report_free(bitsift_diagnose_report *report)
{
    if (!report)
        return;
    for (size_t i = 0; report->ranked && i < report->count; i++)
        free(report->ranked[i].change.text);
    free(report->ranked);
    memset(report, 0, sizeof *report);
}

/* What the search needs once the samples are complete: the views, each
 * valid packet's type and exactness, the budget. False when memory ran
 * out. */
static bool search_start(bitsift_diagnosis *d)
{
    d->searching = true;
    for (size_t g = 0; g < d->group_count; g++)
        d->groups_left += d->groups[g].info.tally.invalid > 0;
    d->have_views = diagnose_views_init(&d->views, d->schema, d->text, d->size);
    size_t n = d->valid_sample.count;
    d->valid_type = calloc(n + 1, sizeof *d->valid_type);
    d->valid_exact = calloc(n + 1, sizeof *d->valid_exact);
    d->seen = calloc(bitsift_schema_packet_count(d->schema) + 1, sizeof *d->seen);
    if (!d->valid_type || !d->valid_exact || !d->seen)
        return false;
    bitsift_result res;
    for (size_t i = 0; i < n; i++) {
        const struct diagnose_packet *p = &d->valid_sample.items[i];
        bitsift_decode(d->schema, p->data, p->size, d->options.decode_flags, NULL, &res);
        d->valid_type[i] = res.packet_type < 0 ? 0 : res.packet_type;
        d->valid_exact[i] = exact_end(p->data, p->size, res.bits);
    }
    return true;
}

static bool stop_asked(bitsift_diagnosis *d)
{
    if (d->options.stop && d->options.stop(d->options.stop_ctx))
        d->stopped = true;
    return d->stopped;
}

bitsift_error bitsift_diagnose_run(bitsift_diagnosis *d, size_t g,
                                   bitsift_diagnose_report *report)
{
    if (!report)
        return BITSIFT_E_ARGUMENT;
    memset(report, 0, sizeof *report);
    if (!d || g >= d->group_count)
        return BITSIFT_E_ARGUMENT;
    if (!d->searching && !search_start(d))
        return BITSIFT_E_NOMEM;
    struct diagnose_group *group = &d->groups[g];
    bitsift_drift_list list = {0};
    bool ok = group->info.packet_type < 0 ||
              bitsift_drift_candidates(d->schema, d->text, d->size,
                                       (unsigned)group->info.packet_type, &list) == BITSIFT_OK;
    for (size_t i = 0; ok && i < d->options.other_count; i++)
        ok = drift_add_schema(&list, i, d->options.other_labels ? d->options.other_labels[i] : "");
    /* The order the budget keeps them in. */
    if (ok && list.count > 1)
        qsort(list.items, list.count, sizeof *list.items, compare_priority);
    if (ok && list.count > BITSIFT_DIAGNOSE_MAX_CANDIDATES) {
        for (size_t i = BITSIFT_DIAGNOSE_MAX_CANDIDATES; i < list.count; i++)
            free(list.items[i].text);
        report->not_tried = list.count - BITSIFT_DIAGNOSE_MAX_CANDIDATES;
        list.count = BITSIFT_DIAGNOSE_MAX_CANDIDATES;
    }
    /* This group's share of the work left; half of it for the first round
     * when later rounds will measure more packets. */
    uint64_t left = d->work_budget > d->work_used ? d->work_budget - d->work_used : 0;
    uint64_t share = left / (d->groups_left ? d->groups_left : 1);
    if (d->groups_left)
        d->groups_left--;
    uint64_t group_start = d->work_used;
    bool later_rounds = group->sample.count > diagnose_rounds[0].failing ||
                        d->valid_sample.count > diagnose_rounds[0].valid;
    uint64_t first_round_share = later_rounds ? share / 2 : share;
    bitsift_diagnose_ranked *scored = ok ? calloc(list.count + 1, sizeof *scored) : NULL;
    if (!scored) {
        bitsift_drift_list_free(&list);
        return BITSIFT_E_NOMEM;
    }
    /* Round 1 measures every candidate (and drops those that do not
     * compile); each later round the best of the one before. The samples
     * are in random order (reservoir slots), so their first packets are a
     * random sample too. */
    size_t n = 0, tried = 0;
    for (size_t i = 0; i < list.count; i++, tried++) {
        uint64_t cost = measure_cost(d, group, &list.items[i], diagnose_rounds[0].valid);
        if (stop_asked(d) || d->work_used - group_start + cost > first_round_share) {
            /* Over the budget (or stopped): this one and those after it
             * are not tried. */
            for (size_t j = i; j < list.count; j++)
                free(list.items[j].text);
            report->not_tried += list.count - i;
            break;
        }
        bitsift_diagnose_ranked r = {.change = list.items[i]};
        int m =
            measure(d, group, &r.change, diagnose_rounds[0].failing, diagnose_rounds[0].valid, &r);
        if (m < 0) {
            /* This text and those after it are still the list's. */
            for (size_t j = i; j < list.count; j++)
                free(list.items[j].text);
            ok = false;
            break;
        }
        if (m == 0) {
            free(r.change.text);
            continue;
        }
        scored[n++] = r;
    }
    report->tried = tried;
    report->compiled = n;
    report->measured[0] = n;
    /* Texts now belong to `scored` (or were freed above). */
    free(list.items);
    size_t finalists = n;
    for (size_t round = 1; ok && round < 3; round++) {
        qsort(scored, finalists, sizeof *scored, compare_ranked);
        size_t keep = diagnose_rounds[round - 1].keep;
        size_t kept = finalists < keep ? finalists : keep;
        while (kept < finalists && kept < 4 * keep &&
               compare_score(&scored[kept - 1], &scored[kept]) == 0)
            kept++;
        for (size_t i = kept; i < finalists; i++)
            free(scored[i].change.text);
        finalists = kept;
        /* A round that would measure no more packets than the last adds
         * nothing. */
        bool more = group->sample.count > diagnose_rounds[round - 1].failing ||
                    d->valid_sample.count > diagnose_rounds[round - 1].valid;
        /* A round that does not fit what is left of the share is not
         * made, nor those after it. */
        uint64_t cost = 0;
        for (size_t i = 0; i < finalists && more; i++)
            cost += measure_cost(d, group, &scored[i].change, diagnose_rounds[round].valid);
        if (more && (report->rounds_cut || stop_asked(d) ||
                     d->work_used - group_start + cost > share)) {
            report->rounds_cut = true;
            more = false;
        }
        for (size_t i = 0; i < finalists && more; i++)
            if (measure(d, group, &scored[i].change, diagnose_rounds[round].failing,
                        diagnose_rounds[round].valid, &scored[i]) < 0)
                ok = false;
        report->measured[round] = more ? finalists : 0;
    }
    if (!ok) {
        for (size_t i = 0; i < finalists; i++)
            free(scored[i].change.text);
        free(scored);
        return BITSIFT_E_NOMEM;
    }
    qsort(scored, finalists, sizeof *scored, compare_ranked);
    /* Keep those that explain something; rank with ties. */
    size_t kept = 0;
    for (size_t i = 0; i < finalists; i++) {
        if (scored[i].explained == 0) {
            free(scored[i].change.text);
            continue;
        }
        scored[kept++] = scored[i];
    }
    for (size_t i = 0; i < kept; i++) {
        scored[i].rank = i && compare_score(&scored[i - 1], &scored[i]) == 0 ? scored[i - 1].rank
                                                                             : i + 1;
        bool before = i && scored[i - 1].rank == scored[i].rank;
        bool after = i + 1 < kept && compare_score(&scored[i], &scored[i + 1]) == 0;
        scored[i].tied = before || after;
    }
    report->ranked = scored;
    report->count = kept;
    report->finalists = finalists;
    /* What the candidates were measured on: every sampled packet, unless
     * a round was cut. */
    report->failing_measured = group->sample.count;
    report->valid_measured = d->valid_sample.count;
    if (report->rounds_cut) {
        size_t last = report->measured[1] ? 1 : 0;
        if (report->failing_measured > diagnose_rounds[last].failing)
            report->failing_measured = diagnose_rounds[last].failing;
        if (report->valid_measured > diagnose_rounds[last].valid)
            report->valid_measured = diagnose_rounds[last].valid;
    }
    report->stopped = d->stopped;
    return BITSIFT_OK;
}
