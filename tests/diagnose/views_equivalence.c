/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * views_equivalence.c -- a packet type's view of a schema
 * (lib/analysis/diagnose_views.h) reads that type's packets exactly as the whole
 * schema does, with or without a candidate change: the guard of the
 * shortcut that made diagnose linear in the failing types. For every
 * schema of several types among the project's, every type, and up to 48
 * of its candidate changes (evenly spread over drift_candidates' list),
 * random packets of every type (valid, and each with a bit flipped) are
 * decoded by the whole edited schema and by the edited view, which must
 * agree on the verdict and the bits read; a change inside the type's
 * declaration must leave the other types' packets as the original reads
 * them, and one outside (an enum, a struct) must read them in their own
 * views as in the whole. Prints TAP.
 *
 *   views_equivalence [SCHEMA.bss...]   (default: the list below, in $top_srcdir)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bitsift.h"
#include "diagnose_testing.h"

#define PER_TYPE 6        /* random packets per type and fill */
#define MAX_CANDIDATES 48 /* changes tried per type */
#define MAX_PACKET 65536

static const char *const default_schemas[] = {
    "examples/shooter.bss",     "examples/article.bss",        "examples/robocat.bss",
    "examples/scenes.bss",      "examples/fuzz-game/game.bss", "tests/cli/data/arena.bss",
    "tests/cli/data/chat-v1.bss", "tests/cli/data/chat-v2.bss", "tests/cli/data/lobby.bss",
    "tests/schema/constructs.bss", "tests/gen-c/arrays.bss",   "tests/gen-c/hostile.bss",
    "tests/gen-c/names.bss",
};

static int n, failed;

static void report(bool ok, const char *what)
{
    printf("%sok %d - %s\n", ok ? "" : "not ", ++n, what);
    failed |= !ok;
}

struct packet {
    unsigned type;
    size_t size;
    uint8_t *data;
};

struct packets {
    struct packet *items;
    size_t count;
};

/* Random packets of every type, and each again with one bit flipped. */
static void make_packets(const bitsift_schema *s, struct packets *p)
{
    unsigned types = bitsift_schema_packet_count(s);
    p->items = calloc((size_t)types * PER_TYPE * 3 * 2, sizeof *p->items);
    p->count = 0;
    bitsift_tree *tree = bitsift_tree_create(s);
    static uint8_t buf[1u << 20];
    uint64_t rng = 0x5eedull;
    for (unsigned t = 0; t < types; t++)
        for (unsigned fill = 0; fill <= 100; fill += 50)
            for (unsigned k = 0; k < PER_TYPE; k++) {
                size_t size;
                if (bitsift_tree_random(tree, t, t * 7919u + fill * 131u + k, fill) != BITSIFT_OK ||
                    bitsift_encode(s, tree, buf, sizeof buf, &size, NULL) != BITSIFT_OK ||
                    size > MAX_PACKET)
                    continue;
                for (int flip = 0; flip < 2; flip++) {
                    struct packet *q = &p->items[p->count++];
                    q->type = t;
                    q->size = size;
                    q->data = malloc(size);
                    memcpy(q->data, buf, size);
                    rng = rng * 6364136223846793005ull + 1442695040888963407ull;
                    if (flip && size)
                        q->data[(rng >> 33) % size] ^= (uint8_t)(1u << ((rng >> 20) % 8));
                }
            }
    bitsift_tree_free(tree);
}

static void free_packets(struct packets *p)
{
    for (size_t i = 0; i < p->count; i++)
        free(p->items[i].data);
    free(p->items);
}

static bitsift_schema *compile(const char *text, size_t size)
{
    bitsift_schema_error err;
    return bitsift_schema_compile(text, size, "view", &err);
}

/* Do a and b read the packets of type t alike (verdict and bits)? */
static bool agree(const bitsift_schema *a, const bitsift_schema *b, const struct packets *p,
                  unsigned t)
{
    for (size_t i = 0; i < p->count; i++) {
        if (p->items[i].type != t)
            continue;
        bitsift_result ra, rb;
        bitsift_decode(a, p->items[i].data, p->items[i].size, 0, NULL, &ra);
        bitsift_decode(b, p->items[i].data, p->items[i].size, 0, NULL, &rb);
        if (ra.status != rb.status || ra.bits != rb.bits)
            return false;
    }
    return true;
}

static char *read_text(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *text = malloc(BITSIFT_SCHEMA_MAX_TEXT + 1);
    *size = fread(text, 1, BITSIFT_SCHEMA_MAX_TEXT, f);
    text[*size] = 0;
    fclose(f);
    return text;
}

static void check_schema(const char *path)
{
    size_t size;
    char *text = read_text(path, &size), what[512];
    bitsift_schema *s = text ? compile(text, size) : NULL;
    if (!s) {
        snprintf(what, sizeof what, "%s: read and compiled", path);
        report(false, what);
        free(text);
        return;
    }
    unsigned types = bitsift_schema_packet_count(s);
    if (types < 2) { /* one type: no views, the whole text is compiled */
        bitsift_schema_free(s);
        free(text);
        return;
    }
    bitsift__diagnose_views *v = bitsift__diagnose_views_create(s, text, size);
    bool made = v != NULL;
    snprintf(what, sizeof what, "%s: views of its %u types made", path, types);
    report(made, what);
    if (!made) {
        bitsift_schema_free(s);
        free(text);
        return;
    }
    struct packets p;
    make_packets(s, &p);
    size_t plain_bad = 0, tried = 0, compile_bad = 0, read_bad = 0, others_bad = 0;
    for (unsigned t = 0; t < types; t++) {
        size_t vn;
        bool unaffected;
        char *vt = bitsift__diagnose_views_edit(v, t, NULL, &vn, &unaffected);
        bitsift_schema *view = vt ? compile(vt, vn) : NULL;
        plain_bad += !view || !agree(s, view, &p, t);
        bitsift_schema_free(view);
        free(vt);
        bitsift_drift_list list = {0};
        if (bitsift_drift_candidates(s, text, size, t, &list) != BITSIFT_OK)
            abort();
        size_t step = list.count > MAX_CANDIDATES ? list.count / MAX_CANDIDATES : 1;
        for (size_t i = 0; i < list.count; i += step) {
            const bitsift_drift_candidate *c = &list.items[i];
            size_t fn;
            char *ft = bitsift_drift_apply(text, size, c, &fn);
            char *et = bitsift__diagnose_views_edit(v, t, c, &vn, &unaffected);
            bitsift_schema *whole = compile(ft, fn), *edited = et ? compile(et, vn) : NULL;
            bool local = bitsift__diagnose_views_local(v, t, c);
            tried++;
            /* A local change compiles in the view as in the whole; one
             * outside may break a type it is not measured on. */
            if (whole ? !edited : (local && edited)) {
                compile_bad++;
            } else if (whole) {
                read_bad += !agree(whole, edited, &p, t);
                for (unsigned u = 0; u < types; u++) {
                    if (u == t)
                        continue;
                    if (local) {
                        others_bad += !agree(whole, s, &p, u);
                        continue;
                    }
                    char *ut = bitsift__diagnose_views_edit(v, u, c, &vn, &unaffected);
                    bitsift_schema *uview = ut ? compile(ut, vn) : NULL;
                    others_bad += !uview || !agree(whole, uview, &p, u);
                    bitsift_schema_free(uview);
                    free(ut);
                }
            }
            bitsift_schema_free(whole);
            bitsift_schema_free(edited);
            free(ft);
            free(et);
        }
        bitsift_drift_list_free(&list);
    }
    snprintf(what, sizeof what, "%s: each view reads its type's %zu packets as the schema does",
             path, p.count);
    report(plain_bad == 0, what);
    snprintf(what, sizeof what,
             "%s: %zu changes: compiled alike (%zu differ), read alike (%zu differ), other types "
             "alike (%zu differ)",
             path, tried, compile_bad, read_bad, others_bad);
    report(tried > 0 && compile_bad == 0 && read_bad == 0 && others_bad == 0, what);
    free_packets(&p);
    bitsift__diagnose_views_free(v);
    bitsift_schema_free(s);
    free(text);
}

int main(int argc, char **argv)
{
    const char *top = getenv("top_srcdir");
    char path[4096];
    if (argc > 1) {
        for (int i = 1; i < argc; i++)
            check_schema(argv[i]);
    } else {
        for (size_t i = 0; i < sizeof default_schemas / sizeof default_schemas[0]; i++) {
            snprintf(path, sizeof path, "%s/%s", top ? top : ".", default_schemas[i]);
            check_schema(path);
        }
    }
    printf("1..%d\n", n);
    return failed;
}
