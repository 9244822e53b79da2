/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * search_budget.c -- the bounds of the diagnosis's search
 * (<bitsift/diagnose.h>): the
 * work of a run stays within its budget, a run over budget says what it
 * left out and gives the same report every time (the budget is a count,
 * not a time), and a stop (a signal) ends the search at once with the
 * groups after it marked as not tried. On 12 packet types whose field c
 * was widened by the writer, with valid packets of every type too.
 * Prints TAP.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BITSIFT_EXPERIMENTAL 1
#include "bitsift.h"
#include "bitsift/diagnose.h"

#define TYPES 12

static int n, failed;

static void report(bool ok, const char *what)
{
    printf("%sok %d - %s\n", ok ? "" : "not ", ++n, what);
    failed |= !ok;
}

/* The schema of make-many-types.sh, with int(0, c_max) c. */
static char *schema_text(int c_max, size_t *size)
{
    size_t cap = 4096 + TYPES * 256, at = 0;
    char *text = malloc(cap);
    if (!text)
        abort();
    at += (size_t)snprintf(text + at, cap - at,
                           "protocol many { version 1; crc on; end_check \"end of packet\"; }\n"
                           "enum Mode { idle, walk, run, jump }\n");
    for (int t = 0; t < TYPES; t++)
        at += (size_t)snprintf(text + at, cap - at,
                               "packet t%d {\n    int(0, 100) a;\n    int(-50, 50) b;\n"
                               "    int(0, %d) c;\n    bool d;\n    Mode e;\n    uint8 f;\n"
                               "    int(0, 63) g;\n    int(-1000, 1000) h;\n}\n",
                               t, c_max);
    *size = at;
    return text;
}

static bitsift_schema *compile(const char *text, size_t size)
{
    bitsift_schema_error err;
    bitsift_schema *s = bitsift_schema_compile(text, size, "many.bss", &err);
    if (!s) {
        printf("Bail out! %s\n", err.message);
        exit(1);
    }
    return s;
}

/* `count` random packets of every type written with `writer`. */
static void add_packets(bitsift_diagnosis *d, const bitsift_schema *writer, int count,
                        uint64_t seed)
{
    bitsift_tree *tree = bitsift_tree_create(writer);
    static uint8_t buf[4096];
    for (unsigned t = 0; t < TYPES; t++)
        for (int k = 0; k < count; k++) {
            size_t size;
            if (bitsift_tree_random(tree, t, seed + t * 1000u + (unsigned)k, 50) != BITSIFT_OK ||
                bitsift_encode(writer, tree, buf, sizeof buf, &size, NULL) != BITSIFT_OK ||
                bitsift_diagnose_add(d, buf, size) != BITSIFT_OK)
                abort();
        }
    bitsift_tree_free(tree);
}

/* The stop: the flag a test sets (a signal handler's, in the command). */
static int stop_flag(void *ctx)
{
    return *(const int *)ctx;
}

/* One run over every group with failures: the reports, what it left out,
 * its work. The diagnosis is made again for each run. */
struct run {
    bitsift_diagnose_report reps[TYPES + 2];
    size_t groups;
    uint64_t not_tried, work, budget;
    size_t stopped_groups, cut_groups;
};

static void search(const bitsift_schema *s, const bitsift_schema *drifted, const char *text,
                   size_t size, uint64_t budget, size_t stop_after, struct run *r)
{
    memset(r, 0, sizeof *r);
    int stop = 0;
    bitsift_diagnose_options options = {.work_budget = budget, .stop = stop_flag,
                                        .stop_ctx = &stop};
    bitsift_diagnosis *d = bitsift_diagnose_create(s, text, size, "many.bss", &options);
    if (!d)
        abort();
    add_packets(d, drifted, 20, 1);
    add_packets(d, s, 10, 77);
    bitsift_diagnose_counts counts;
    bitsift_diagnose_get_counts(d, &counts);
    for (size_t g = 0; g < counts.group_count; g++) {
        bitsift_diagnose_group group;
        if (!bitsift_diagnose_get_group(d, g, &group))
            abort();
        if (!group.tally.invalid)
            continue;
        if (r->groups == stop_after)
            stop = 1;
        bitsift_diagnose_report *rep = &r->reps[r->groups++];
        if (bitsift_diagnose_run(d, g, rep) != BITSIFT_OK)
            abort();
        r->not_tried += rep->not_tried;
        r->stopped_groups += rep->stopped;
        r->cut_groups += rep->not_tried > 0;
    }
    bitsift_diagnose_get_counts(d, &counts);
    r->work = counts.work_used;
    r->budget = counts.work_budget;
    bitsift_diagnose_free(d);
}

static void run_free(struct run *r)
{
    for (size_t i = 0; i < r->groups; i++)
        bitsift_diagnose_report_free(&r->reps[i]);
}

/* The same reports: candidates, their order, ranks and counts. */
static bool same_reports(const struct run *a, const struct run *b)
{
    if (a->groups != b->groups || a->work != b->work)
        return false;
    for (size_t g = 0; g < a->groups; g++) {
        const bitsift_diagnose_report *x = &a->reps[g], *y = &b->reps[g];
        if (x->count != y->count || x->tried != y->tried || x->not_tried != y->not_tried ||
            x->rounds_cut != y->rounds_cut)
            return false;
        for (size_t i = 0; i < x->count; i++) {
            const bitsift_diagnose_ranked *p = &x->ranked[i], *q = &y->ranked[i];
            if (p->rank != q->rank || p->explained != q->explained || p->broken != q->broken ||
                p->exact != q->exact || strcmp(p->change.what, q->change.what) != 0)
                return false;
        }
    }
    return true;
}

int main(void)
{
    size_t size, dsize;
    char *text = schema_text(1000, &size), *dtext = schema_text(4000, &dsize);
    bitsift_schema *s = compile(text, size), *drifted = compile(dtext, dsize);
    char what[256];

    struct run full, tight, again, stopped, half;
    search(s, drifted, text, size, 0, SIZE_MAX, &full);
    snprintf(what, sizeof what, "the default budget: %zu groups, nothing left out, work %" PRIu64
             " <= %" PRIu64, full.groups, full.work, full.budget);
    report(full.groups == TYPES && full.not_tried == 0 &&
               full.work <= BITSIFT_DIAGNOSE_WORK_BYTES &&
               full.budget == BITSIFT_DIAGNOSE_WORK_BYTES,
           what);

    uint64_t budget = full.work / 4;
    search(s, drifted, text, size, budget, SIZE_MAX, &tight);
    snprintf(what, sizeof what, "a quarter of the work: %" PRIu64 " <= %" PRIu64 ", %" PRIu64
             " candidates in %zu groups left out and said", tight.work, budget, tight.not_tried,
             tight.cut_groups);
    report(tight.work <= budget && tight.not_tried > 0 && tight.groups == TYPES, what);
    bool ranked = true;
    for (size_t g = 0; g < tight.groups; g++)
        ranked = ranked && tight.reps[g].tried > 0 && !tight.reps[g].stopped;
    report(ranked, "over budget, every group still has candidates measured (an equal share each)");
    search(s, drifted, text, size, budget, SIZE_MAX, &again);
    report(same_reports(&tight, &again), "over budget, two runs give the same reports");

    search(s, drifted, text, size, 0, 0, &stopped);
    bool none = stopped.groups == TYPES && stopped.stopped_groups == TYPES;
    for (size_t g = 0; g < stopped.groups && none; g++)
        none = stopped.reps[g].tried == 0 && stopped.reps[g].not_tried > 0 &&
               stopped.reps[g].count == 0;
    report(none, "stopped before the search: every group says so, nothing tried");

    search(s, drifted, text, size, 0, TYPES / 2, &half);
    bool split = half.groups == TYPES && half.stopped_groups == TYPES - TYPES / 2;
    for (size_t g = 0; g < TYPES / 2 && split; g++)
        split = !half.reps[g].stopped && half.reps[g].not_tried == 0 &&
                half.reps[g].count == full.reps[g].count;
    report(split, "stopped half way: the groups before are complete, those after marked");

    run_free(&full);
    run_free(&tight);
    run_free(&again);
    run_free(&stopped);
    run_free(&half);
    bitsift_schema_free(s);
    bitsift_schema_free(drifted);
    free(text);
    free(dtext);
    printf("1..%d\n", n);
    return failed;
}
