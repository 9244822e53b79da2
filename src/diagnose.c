/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * diagnose.c -- the search behind `bitsift diagnose` (see diagnose.h).
 *
 * Cost: reading is one validating decode per packet, the fast path. The
 * search for a group is, per candidate, one compile and a validating
 * decode of a few sampled packets (the first round below); the later
 * rounds measure a bounded number of candidates on more packets. So it
 * grows linearly with the packets read, linearly with the candidates
 * (about 34 per statement of the packet type: 32 insertion widths, a
 * removal, plus a few per field), and not with the size of a group beyond
 * DIAGNOSE_SAMPLE.
 */
#include <stdlib.h>
#include <string.h>

#include "diagnose.h"

/* The rounds: failing and valid packets measured, candidates kept for the
 * next round (more when tied with the last kept, up to 4 times). */
static const struct {
    size_t failing, valid, keep;
} diagnose_rounds[3] = {
    {32, 16, 256},
    {256, 64, 48},
    {DIAGNOSE_SAMPLE, DIAGNOSE_SAMPLE, 0},
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
static bool sample_add(struct diagnosis *d, struct diagnose_sample *s, const uint8_t *data,
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
    if (size > DIAGNOSE_PACKET_MAX ||
        d->bytes - (slot < s->count ? s->items[slot].size : 0) + size > DIAGNOSE_SAMPLE_BYTES) {
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

bool diagnosis_init(struct diagnosis *d, const bitsift_schema *schema, const char *text,
                    size_t size, const char *path)
{
    memset(d, 0, sizeof *d);
    d->schema = schema;
    d->text = text;
    d->size = size;
    d->path = path;
    d->rng = 0x9E3779B97F4A7C15ULL;
    d->group_count = bitsift_schema_packet_count(schema) + 2;
    d->groups = calloc(d->group_count, sizeof *d->groups);
    if (!d->groups || !sample_init(&d->valid_sample, DIAGNOSE_SAMPLE)) {
        diagnosis_free(d);
        return false;
    }
    for (size_t g = 0; g < d->group_count; g++) {
        d->groups[g].packet_type = g + 2 < d->group_count ? (int)g : -1;
        d->groups[g].crc = g + 1 == d->group_count;
    }
    return true;
}

void diagnosis_free(struct diagnosis *d)
{
    for (size_t g = 0; d->groups && g < d->group_count; g++)
        sample_free(&d->groups[g].sample);
    free(d->groups);
    sample_free(&d->valid_sample);
    memset(d, 0, sizeof *d);
}

bool diagnosis_add(struct diagnosis *d, const uint8_t *data, size_t size)
{
    bitsift_result res;
    d->packets++;
    if (bitsift_decode(d->schema, data, size, d->flags, NULL, &res) == BITSIFT_OK) {
        d->valid++;
        return sample_add(d, &d->valid_sample, data, size);
    }
    size_t g = res.status == BITSIFT_E_CRC                                 ? d->group_count - 1
               : res.packet_type >= 0 && (size_t)res.packet_type + 2 < d->group_count
                   ? (size_t)res.packet_type
                   : d->group_count - 2;
    struct diagnose_group *group = &d->groups[g];
    if (!group->sample.items && !sample_init(&group->sample, DIAGNOSE_SAMPLE))
        return false;
    error_tally_invalid(&group->tally, res.status);
    return sample_add(d, &group->sample, data, size);
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

/* The candidate's schema: compiled from the edited text, or the other
 * schema itself (not to be freed: *owned is false). */
static bitsift_schema *candidate_schema(const struct diagnosis *d, const struct drift_candidate *c,
                                        bool *owned, bool *nomem)
{
    *owned = false;
    *nomem = false;
    if (c->family == DRIFT_SCHEMA)
        return c->schema < d->other_count ? d->others[c->schema] : NULL;
    size_t n;
    char *text = drift_apply(d->text, d->size, c, &n);
    if (!text) {
        *nomem = true;
        return NULL;
    }
    bitsift_schema_error err;
    bitsift_schema *s = bitsift_schema_compile(text, n, d->path, &err);
    free(text);
    if (!s && err.kind == BITSIFT_E_NOMEM)
        *nomem = true;
    *owned = s != NULL;
    return s;
}

/* The candidate of a group's samples: how many failing it makes valid and
 * how many valid it makes fail, over the first n and valid_n of each. */
static int measure(const struct diagnosis *d, const struct diagnose_group *group,
                   const struct drift_candidate *c, size_t n, size_t valid_n,
                   struct diagnose_ranked *out)
{
    bool owned, nomem;
    bitsift_schema *s = candidate_schema(d, c, &owned, &nomem);
    if (!s)
        return nomem ? -1 : 0;
    uint64_t exact_valid;
    out->explained = count_valid(s, d->flags, &group->sample, n, &out->exact);
    if (valid_n > d->valid_sample.count)
        valid_n = d->valid_sample.count;
    out->broken = valid_n - count_valid(s, d->flags, &d->valid_sample, valid_n, &exact_valid);
    out->exact += exact_valid;
    if (owned)
        bitsift_schema_free(s);
    return 1;
}

/* Best first: most explained, fewest broken, most read exactly, smallest
 * change. */
static int compare_score(const struct diagnose_ranked *a, const struct diagnose_ranked *b)
{
    if (a->explained != b->explained)
        return a->explained > b->explained ? -1 : 1;
    if (a->broken != b->broken)
        return a->broken < b->broken ? -1 : 1;
    if (a->exact != b->exact)
        return a->exact > b->exact ? -1 : 1;
    if (a->c.delta_bits != b->c.delta_bits)
        return a->c.delta_bits < b->c.delta_bits ? -1 : 1;
    if (a->c.detail != b->c.detail)
        return a->c.detail < b->c.detail ? -1 : 1;
    return 0;
}

/* Among ties, shown first: another schema, then changes of an existing
 * statement, then removals, then insertions. */
static const unsigned tie_order[DRIFT_FAMILY_COUNT] = {
    [DRIFT_SCHEMA] = 0, [DRIFT_RANGE] = 1,  [DRIFT_CFLOAT] = 2, [DRIFT_ENUM] = 3,
    [DRIFT_BOUND] = 4,  [DRIFT_CONDITION] = 5, [DRIFT_REMOVE] = 6, [DRIFT_INSERT] = 7,
};

/* The same, then a fixed order among ties: family, place in the text. */
static int compare_ranked(const void *pa, const void *pb)
{
    const struct diagnose_ranked *a = pa, *b = pb;
    int order = compare_score(a, b);
    if (order)
        return order;
    if (a->c.family != b->c.family)
        return tie_order[a->c.family] < tie_order[b->c.family] ? -1 : 1;
    if (a->c.start != b->c.start)
        return a->c.start < b->c.start ? -1 : 1;
    if (a->c.schema != b->c.schema)
        return a->c.schema < b->c.schema ? -1 : 1;
    return strcmp(a->c.text ? a->c.text : "", b->c.text ? b->c.text : "");
}

/* Which candidates a budget keeps: every change of an existing statement,
 * then insertions of fewer bits before insertions of more. */
static int compare_priority(const void *pa, const void *pb)
{
    const struct drift_candidate *a = pa, *b = pb;
    bool ia = a->family == DRIFT_INSERT, ib = b->family == DRIFT_INSERT;
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

void diagnose_report_free(struct diagnose_report *report)
{
    for (size_t i = 0; report->ranked && i < report->count; i++)
        free(report->ranked[i].c.text);
    free(report->ranked);
    memset(report, 0, sizeof *report);
}

bool diagnosis_run(struct diagnosis *d, size_t g, struct diagnose_report *report)
{
    memset(report, 0, sizeof *report);
    struct diagnose_group *group = &d->groups[g];
    struct drift_list list = {0};
    bool ok = group->packet_type < 0 ||
              drift_candidates(d->schema, d->text, d->size, (unsigned)group->packet_type, &list);
    for (size_t i = 0; ok && i < d->other_count; i++)
        ok = drift_add_schema(&list, i, d->other_paths ? d->other_paths[i] : "");
    size_t budget = (size_t)(DIAGNOSE_COMPILE_BYTES / (d->size + 1));
    uint64_t fields = bitsift_schema_field_count(d->schema);
    if (budget > DIAGNOSE_COMPILE_WORK / (fields * fields + 1))
        budget = (size_t)(DIAGNOSE_COMPILE_WORK / (fields * fields + 1));
    if (budget > DIAGNOSE_MAX_CANDIDATES)
        budget = DIAGNOSE_MAX_CANDIDATES;
    if (ok && list.count > budget) {
        qsort(list.items, list.count, sizeof *list.items, compare_priority);
        for (size_t i = budget; i < list.count; i++)
            free(list.items[i].text);
        report->not_tried = list.count - budget;
        list.count = budget;
    }
    struct diagnose_ranked *scored = ok ? calloc(list.count + 1, sizeof *scored) : NULL;
    if (!scored) {
        drift_list_free(&list);
        return false;
    }
    /* Round 1 measures every candidate (and drops those that do not
     * compile); each later round the best of the one before. The samples
     * are in random order (reservoir slots), so their first packets are a
     * random sample too. */
    size_t n = 0;
    for (size_t i = 0; i < list.count; i++) {
        struct diagnose_ranked r = {.c = list.items[i]};
        int m = measure(d, group, &r.c, diagnose_rounds[0].failing, diagnose_rounds[0].valid, &r);
        if (m < 0) {
            /* This text and those after it are still the list's. */
            for (size_t j = i; j < list.count; j++)
                free(list.items[j].text);
            ok = false;
            break;
        }
        if (m == 0) {
            free(r.c.text);
            continue;
        }
        scored[n++] = r;
    }
    report->tried = list.count;
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
            free(scored[i].c.text);
        finalists = kept;
        /* A round that would measure no more packets than the last adds
         * nothing. */
        bool more = group->sample.count > diagnose_rounds[round - 1].failing ||
                    d->valid_sample.count > diagnose_rounds[round - 1].valid;
        for (size_t i = 0; i < finalists && more; i++)
            if (measure(d, group, &scored[i].c, diagnose_rounds[round].failing,
                        diagnose_rounds[round].valid, &scored[i]) < 0)
                ok = false;
        report->measured[round] = more ? finalists : 0;
    }
    if (!ok) {
        for (size_t i = 0; i < finalists; i++)
            free(scored[i].c.text);
        free(scored);
        return false;
    }
    qsort(scored, finalists, sizeof *scored, compare_ranked);
    /* Keep those that explain something; rank with ties. */
    size_t kept = 0;
    for (size_t i = 0; i < finalists; i++) {
        if (scored[i].explained == 0) {
            free(scored[i].c.text);
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
    report->failing_measured = group->sample.count;
    report->valid_measured = d->valid_sample.count;
    return true;
}
