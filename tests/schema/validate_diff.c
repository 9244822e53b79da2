/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * validate_diff.c -- the validation program (lib/schema_validate.c)
 * against the op interpreter it stands in for, on every example schema:
 * random valid packets of every type, every truncation and every single
 * bit flip of some of them (with the CRC as sent, ignored, and re-sealed),
 * and random bytes. For each input the program's own decision must be the
 * interpreter's, and bitsift_decode with no visitor must fill the result
 * exactly as the interpreter does (status, type, bits, fields, failure,
 * path). The program's portable build, which a CPU with BMI2 does not
 * run otherwise, is held to the same. TAP output.
 *
 *   validate_diff [packets-per-type [mutated-per-type [random-inputs]]]
 *
 * Schemas are read from $top_srcdir (examples/, tests/).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bitsift_testing.h"
#include "schema_internal.h" /* the ops: which fields a case flips */
#include "validate_check.h"  /* the differential check the fuzz harnesses run */

static int test_count, failed_count;

static void tap(bool ok, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
#include <stdarg.h>
static void tap(bool ok, const char *fmt, ...)
{
    va_list ap;
    test_count++;
    if (!ok)
        failed_count++;
    printf("%s %d - ", ok ? "ok" : "not ok", test_count);
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
}

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static uint64_t rng(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

/* Schemas every decode must use the program for, and test-only ones
 * that exercise constructs the examples do not (a switch whose cases
 * hold slots, else branches with defaults, nested and sparse arrays,
 * previous() bases, zero-bit fields, value lists, conditions that are
 * expressions). */
static const char *const example_files[] = {
    "examples/shooter.bss",  "examples/article.bss",     "examples/scenes.bss",
    "examples/robocat.bss",  "tests/cli/data/arena.bss", "tests/cli/data/lobby.bss",
    "tests/schema/constructs.bss",
};

static const char extra_schema[] =
    "protocol extra { id 77; crc on; end_check \"end\"; }\n"
    "enum Kind : int(0, 15) { a = 0, b = 1, c = 2, d = 3, e = 5 }\n"
    "enum Holes : int(-4, 60) { x = -4, y = 7, z = 59 }\n"
    "struct Item {\n"
    "    object_index(previous(-1), 300) id;\n"
    "    Kind kind;\n"
    "    if (kind == b) { int(0, 9) hp; bool alive; }\n"
    "    if (kind == c) { int(0, 3) lives; }\n"
    "    if (kind == d) { int_relative(previous(5)) step; }\n"
    "    if (kind == e) { Holes h; }\n"
    "    int(0, 2) n;\n"
    "    if (n > 0 && kind != a) { int(1, 4) m; uint8 sub[m]; } else { bits(5) pad; }\n"
    "    if (n == 1) { int(0, 5) q default 3; } else if (n == 2) { bool r; } else { bits(2) t; }\n"
    "    int(-3, 3) z in { -3, 0, 2 };\n"
    "    int(9, 9) nine;\n"
    "    if (!q) { bool no_q; }\n"
    "    if (q != 3) { bool q_set; }\n"
    "}\n"
    "packet items {\n"
    "    uint16 seq;\n"
    "    ack_relative(seq) ack;\n"
    "    sequence_relative(seq) next;\n"
    "    int(0, 6) count;\n"
    "    Item list[count];\n"
    "    Item more[max 3];\n"
    "    Item fixed[2];\n"
    "    check(0x0badf00d);\n"
    "    bool here[5] sparse(flags);\n"
    "    Item sent[9] sparse(sentinel);\n"
    "    Item at[4] sparse(indices);\n"
    "    Item rel[200] sparse(relative);\n"
    "    string(12) label;\n"
    "    bytes(3) raw;\n"
    "    align;\n"
    "    uint64 big;\n"
    "    double d;\n"
    "}\n"
    "packet nested {\n"
    "    int(0, 3) rows;\n"
    "    struct_row_t table[rows];\n"
    "}\n"
    "struct struct_row_t { int(0, 3) cols; Kind cells[cols]; int(0, 1) grid[2]; }\n";

/* No CRC and no end check: whatever a packet ends with is read last, at
 * the very end of the buffer (the reads from the padded tail). */
static const char tail_schema[] =
    "protocol tail { id 5; crc off; end_check off; }\n"
    "enum K : int(0, 7) { p = 1, q = 2, r = 6 }\n"
    "packet a { object_index(3, 500) o; }\n"
    "packet b { int(0, 300) n; int_relative(n) r; }\n"
    "packet c { uint8 e[600] sparse(relative); }\n"
    "packet d { bool f; if (f) { int(0, 6) v; } }\n"
    "packet e { smallest_three(12) q; }\n"
    "packet f { bits(60) wide; bits(7) seven; }\n"
    "packet g { K k[max 4]; }\n"
    "packet h { int(0, 2) m; sequence_relative(m) s; ack_relative(s) a; }\n"
    "struct O { object_index(previous(0), 20) x; }\n"
    "packet i { O xs[3]; object_index(7, 300) y; }\n"
    "packet j { bool g[3] sparse(flags); int(0, 1) h[6] sparse(sentinel); bool k[2] sparse(indices); }\n"
    "packet k { compressed_float(0, 5, 1) c; string(3) s; }\n"
    "packet l { int(0, 2) n; check(7); float x[n]; double y; }\n"
    "packet m { int(0, 9) k; if (k == 2) { int(0, 5) a; } if (k == 4) { bool b; }\n"
    "           if (k == 7) { int(0, 100) c; bits(3) d; } }\n"
    "packet n { int(0, 3) k; if (k == 1) { compressed_float(0, 1000, 0.001) a;\n"
    "           compressed_float(0, 1000, 0.001) b; compressed_float(0, 1000, 0.001) c; }\n"
    "           if (k == 2) { bool z; } if (k == 3) { int(0, 2) y; } }\n"
    "packet o { bool f; if (f) { int(0, 9) a; int(0, 9) b; } int(1, 3) e; }\n"
    /* An object index, then a run whose value picks a case (one op in the
     * program): the value 44 bits into the run, past the window when the
     * index takes its long form (more than 125 after the previous one);
     * one case of 171 bits (the cases' sizes are packed a byte each). */
    "enum J : int(0, 7) { j0, j1, j2, j3 }\n"
    "struct P { object_index(previous(-1), 3000) id; bits(40) pad; J k;\n"
    "           if (k == j1) { int(0, 5) a; } if (k == j2) { bool b; }\n"
    "           if (k == j3) { int(0, 99) c; bits(57) w1; bits(57) w2; bits(50) w3; } }\n"
    "packet p { P ps[max 6]; }\n";

/* Nothing but runs that check nothing (the program then has no group). */
static const char bools_schema[] =
    "protocol bools { id 9; crc off; end_check off; }\n"
    "packet a { bool x; if (x) bool y; bits(3) z; if (!x) { bool w; bits(9) v; } }\n";

/* Ifs on one value nested DEEP_CHAIN levels deep, each level a chain of
 * two: building the program must stay linear (an early builder compiled
 * each level twice: 2^30 times the work). */
#define DEEP_CHAIN 30

static char *deep_chain_schema(void)
{
    size_t cap = 64 * 1024, n = 0;
    char *text = malloc(cap);
    if (!text)
        return NULL;
    n += (size_t)snprintf(text + n, cap - n, "protocol deep { id 3; crc off; end_check off; }\n"
                                             "packet p {\n");
    for (int d = 0; d < DEEP_CHAIN; d++)
        n += (size_t)snprintf(text + n, cap - n, "    int(0, 3) k%d;\n", d);
    for (int d = 0; d < DEEP_CHAIN; d++)
        n += (size_t)snprintf(text + n, cap - n, "    if (k%d == 1) {\n", d);
    n += (size_t)snprintf(text + n, cap - n, "    bool leaf;\n");
    for (int d = DEEP_CHAIN - 1; d >= 0; d--)
        n += (size_t)snprintf(text + n, cap - n, "    } if (k%d == 2) { bool y%d; }\n", d, d);
    snprintf(text + n, cap - n, "}\n");
    return text;
}

static bitsift_schema *load(const char *file)
{
    const char *top = getenv("top_srcdir");
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", top ? top : ".", file);
    bitsift_schema_error err;
    bitsift_schema *s = bitsift_schema_load_file(path, &err);
    if (!s) {
        printf("Bail out! %s\n", err.message);
        exit(1);
    }
    return s;
}

struct tally {
    unsigned long inputs, valid, mismatches;
};

static void report(const char *what, const uint8_t *p, size_t n, unsigned flags,
                   const bitsift_result *want, const bitsift_result *got, int decision,
                   int portable_decision)
{
    printf("# %s: flags %#x, program says %d (portable build %d), interpreter %s/%llu bits/%llu "
           "fields at '%s', decode %s/%llu bits/%llu fields at '%s'; input (%zu bytes):\n#",
           what, flags, decision, portable_decision, bitsift_error_name(want->status),
           (unsigned long long)want->bits, (unsigned long long)want->fields, want->path,
           bitsift_error_name(got->status), (unsigned long long)got->bits,
           (unsigned long long)got->fields, got->path, n);
    for (size_t i = 0; i < n && i < 256; i++)
        printf(" %02x", p[i]);
    printf("\n");
}

/* One input, one set of flags: the three answers must agree. Each reads
 * a copy of exactly n bytes on the heap, so that under AddressSanitizer a
 * read past the packet's end is caught, not absorbed by the buffer the
 * input was cut from. */
static void compare(const bitsift_schema *s, const char *what, const uint8_t *input, size_t n,
                    unsigned flags, struct tally *t)
{
    uint8_t *p = malloc(n ? n : 1);
    if (!p) {
        printf("Bail out! out of memory\n");
        exit(1);
    }
    memcpy(p, input, n);
    struct validate_check v;
    /* Every example schema has a program: one that has none fails here. */
    bool ok = validate_check_run(s, p, n, flags, &v) && v.decision >= 0;
    t->inputs++;
    t->valid += v.interpreted.status == BITSIFT_OK;
    if (!ok && t->mismatches++ < 5)
        report(what, p, n, flags, &v.interpreted, &v.decoded, v.decision, v.portable_decision);
    free(p);
}

/* Rewrite the CRC field so that the payload's changes get past it. */
static void reseal(const bitsift_schema *s, uint8_t *p, size_t n)
{
    const bitsift_framing *f = bitsift_schema_framing(s);
    if (!f->crc || n < (size_t)f->prefix_bytes + 4)
        return;
    uint32_t crc = bitsift_packet_crc(f, p, n);
    for (int k = 0; k < 4; k++)
        p[f->prefix_bytes + k] = (uint8_t)(crc >> (8 * k));
}

static void compare_all(const bitsift_schema *s, const char *what, uint8_t *p, size_t n,
                        struct tally *t)
{
    compare(s, what, p, n, 0, t);
    compare(s, what, p, n, BITSIFT_DECODE_NO_CRC, t);
    compare(s, what, p, n, BITSIFT_DECODE_NO_CRC | BITSIFT_DECODE_STRICT, t);
    reseal(s, p, n);
    compare(s, what, p, n, 0, t);
    compare(s, what, p, n, BITSIFT_DECODE_STRICT, t);
}

#define MAX_PACKET 65536

/* ---- field edges: each field of a valid packet set to the raw values
 * at the edges of what its op accepts ------------------------------------- */

struct spot {
    uint64_t bit, bits;
    int32_t op; /* -1: framing or array bookkeeping */
    int64_t count_max;
};

struct spots {
    const bitsift_schema *s;
    struct spot list[4096];
    size_t n;
};

static bool collect(void *ctx, const bitsift_event *ev)
{
    struct spots *sp = ctx;
    if (ev->bits == 0 || ev->bits > 64 || (ev->flags & (BITSIFT_EVENT_ABSENT | BITSIFT_EVENT_DERIVED)))
        return true;
    if (sp->n == sizeof sp->list / sizeof sp->list[0])
        return false;
    struct spot *x = &sp->list[sp->n++];
    x->bit = ev->bit;
    x->bits = ev->bits;
    x->op = ev->id >= 0 && (unsigned)ev->id < sp->s->field_count ? sp->s->fields[ev->id].op : -1;
    x->count_max = x->op >= 0 && (ev->flags & BITSIFT_EVENT_ARRAY_META) ? sp->s->ops[x->op].max : -1;
    if (ev->flags & BITSIFT_EVENT_ARRAY_META)
        x->op = -1;
    return true;
}

static uint64_t get_bits(const uint8_t *p, uint64_t bit, unsigned n)
{
    uint64_t v = 0;
    for (unsigned k = 0; k < n; k++)
        v |= (uint64_t)((p[(bit + k) / 8] >> ((bit + k) % 8)) & 1) << k;
    return v;
}

static void put_bits(uint8_t *p, uint64_t bit, unsigned n, uint64_t v)
{
    for (unsigned k = 0; k < n; k++) {
        uint8_t m = (uint8_t)(1u << ((bit + k) % 8));
        p[(bit + k) / 8] = (uint8_t)((p[(bit + k) / 8] & ~m) | (((v >> k) & 1) ? m : 0));
    }
}

/* Raw values worth trying in a field of `bits` bits. */
static size_t edge_values(const bitsift_schema *s, const struct spot *x, uint64_t cur,
                          uint64_t *out, size_t cap)
{
    size_t n = 0;
    unsigned w = (unsigned)x->bits;
    uint64_t top = w == 64 ? ~0ull : (1ull << w) - 1;
#define ADD(v) (n < cap ? (void)(out[n++] = (uint64_t)(v) & top) : (void)0)
    if (w <= 7) {
        for (uint64_t v = 0; v <= top; v++)
            ADD(v);
        return n;
    }
    ADD(0), ADD(1), ADD(top), ADD(top - 1), ADD(cur + 1), ADD(cur - 1);
    for (unsigned j = 1; j < w && j < 40; j++)
        ADD((1ull << j) - 1), ADD(1ull << j), ADD(cur ^ (1ull << j));
    if (x->count_max >= 0)
        ADD(x->count_max), ADD(x->count_max + 1), ADD(x->count_max - 1);
    if (x->op >= 0) {
        const struct schema_op *op = &s->ops[x->op];
        uint64_t span = (uint64_t)op->max - (uint64_t)op->min;
        if (op->code == OP_INT || op->code == OP_ENUM)
            ADD(span), ADD(span + 1), ADD(span - 1);
        if (op->code == OP_CFLOAT)
            ADD(op->steps), ADD((uint64_t)op->steps + 1);
        if (op->code == OP_ENUM) {
            /* Every named value and its neighbours (holes). */
            const struct schema_enum *e = &s->enums[op->enum_id];
            for (uint32_t k = 0; k < e->count && k < 64; k++) {
                uint64_t v = (uint64_t)s->enum_values[e->first + k].value - (uint64_t)op->min;
                ADD(v), ADD(v + 1), ADD(v - 1);
            }
        }
        for (uint32_t k = 0; k < op->allowed_count && k < 64; k++) {
            uint64_t v = (uint64_t)s->allowed[op->allowed_first + k] - (uint64_t)op->min;
            ADD(v), ADD(v + 1), ADD(v - 1);
        }
    }
#undef ADD
    return n;
}

static void field_edges(const bitsift_schema *s, const uint8_t *buf, size_t n, uint8_t *work,
                        struct tally *t)
{
    static struct spots sp;
    sp.s = s;
    sp.n = 0;
    bitsift_visitor v = {collect, NULL, NULL, &sp};
    bitsift_result res;
    bitsift_decode(s, buf, n, 0, &v, &res);
    for (size_t i = 0; i < sp.n; i++) {
        uint64_t values[400];
        const struct spot *x = &sp.list[i];
        uint64_t cur = get_bits(buf, x->bit, (unsigned)x->bits);
        size_t nv = edge_values(s, x, cur, values, sizeof values / sizeof values[0]);
        for (size_t k = 0; k < nv; k++) {
            if (values[k] == cur)
                continue;
            memcpy(work, buf, n);
            put_bits(work, x->bit, (unsigned)x->bits, values[k]);
            reseal(s, work, n);
            compare(s, "field edge", work, n, 0, t);
            compare(s, "field edge", work, n, BITSIFT_DECODE_STRICT, t);
        }
    }
}

static void test_schema(const char *name, bitsift_schema *s, bool must_have_program,
                        unsigned per_type, unsigned mutated_per_type, unsigned random_inputs)
{
    tap(!must_have_program || s->validate != NULL, "%s: has a validation program", name);
    if (!s->validate)
        return;
    bitsift_tree *tree = bitsift_tree_create(s);
    uint8_t *buf = malloc(MAX_PACKET), *work = malloc(MAX_PACKET + 16);
    if (!tree || !buf || !work) {
        printf("Bail out! out of memory\n");
        exit(1);
    }
    struct tally valid = {0}, mutated = {0}, edges = {0}, random = {0};
    unsigned made = 0, types = bitsift_schema_packet_count(s);
    for (unsigned type = 0; type < types; type++) {
        for (unsigned k = 0; k < per_type; k++) {
            bitsift_result res;
            size_t n = 0;
            /* The packets mutated exhaustively are the smaller ones. */
            unsigned fill = (unsigned)(rng() % (k < mutated_per_type ? 31 : 101));
            if (bitsift_tree_random(tree, type, rng(), fill) != BITSIFT_OK ||
                bitsift_encode(s, tree, buf, MAX_PACKET, &n, &res) != BITSIFT_OK)
                continue;
            made++;
            compare(s, "valid", buf, n, 0, &valid);
            compare(s, "valid", buf, n, BITSIFT_DECODE_STRICT, &valid);
            if (k >= mutated_per_type)
                continue;
            field_edges(s, buf, n, work, &edges);
            /* Every truncation, with trailing bytes too. */
            for (size_t len = 0; len < n; len++) {
                memcpy(work, buf, len);
                compare_all(s, "truncated", work, len, &mutated);
            }
            memcpy(work, buf, n);
            work[n] = (uint8_t)rng();
            compare_all(s, "one byte more", work, n + 1, &mutated);
            /* Every single bit flip. */
            for (size_t bit = 0; bit < 8 * n; bit++) {
                memcpy(work, buf, n);
                work[bit / 8] ^= (uint8_t)(1u << (bit % 8));
                compare_all(s, "bit flip", work, n, &mutated);
            }
        }
    }
    for (unsigned k = 0; k < random_inputs; k++) {
        size_t n = (size_t)(rng() % 300), keep = 0;
        if (k % 4 >= 2 && made) {
            /* A valid packet's head, then noise. */
            size_t valid_n = 0;
            bitsift_result res;
            if (bitsift_tree_random(tree, (unsigned)(rng() % types), rng(), 60) == BITSIFT_OK &&
                bitsift_encode(s, tree, buf, MAX_PACKET, &valid_n, &res) == BITSIFT_OK &&
                valid_n) {
                keep = (size_t)(rng() % valid_n);
                n = valid_n + (size_t)(rng() % 8) - 4 + 4;
                memcpy(work, buf, keep);
            }
        }
        for (size_t i = keep; i < n; i++)
            work[i] = (uint8_t)rng();
        /* Mostly small values: deep into arrays and ifs rather than out
         * of range at the first field. */
        if (k & 1)
            for (size_t i = keep; i < n; i++)
                work[i] &= (uint8_t)rng() & (uint8_t)rng();
        compare_all(s, "random", work, n, &random);
    }
    tap(made > 0 && valid.mismatches == 0 && valid.valid == valid.inputs,
        "%s: %u valid packets of %u types: program, decode and interpreter agree (%lu decodes)",
        name, made, types, valid.inputs);
    tap(mutated.mismatches == 0,
        "%s: truncations and bit flips: %lu decodes agree (%lu valid, %lu mismatches)", name,
        mutated.inputs, mutated.valid, mutated.mismatches);
    tap(edges.mismatches == 0,
        "%s: fields set to the edges of their ranges: %lu decodes agree (%lu valid, %lu "
        "mismatches)",
        name, edges.inputs, edges.valid, edges.mismatches);
    tap(random.mismatches == 0, "%s: random bytes: %lu decodes agree (%lu valid, %lu mismatches)",
        name, random.inputs, random.valid, random.mismatches);
    free(buf);
    free(work);
    bitsift_tree_free(tree);
}

/* The interpreter and the program reach every decision on their own:
 * forcing the interpreter really bypasses the program. */
static void test_forced_interpreter(void)
{
    bitsift_schema *s = load("examples/shooter.bss");
    bitsift_result a, b;
    uint8_t empty[1] = {0};
    tap(bitsift__validate_program(s, empty, 0, 0, &a) == 0 &&
            bitsift__decode_interpreted(s, empty, 0, 0, &b) == BITSIFT_E_OVERFLOW &&
            strcmp(b.path, "crc") == 0,
        "an empty packet: the program refuses, the interpreter names the crc");
    tap(bitsift__validate_program_portable(s, empty, 0, 0, &a) == 0,
        "an empty packet: the program's portable build refuses it too");
    tap(bitsift__validate_program(NULL, empty, 0, 0, &a) == -1 &&
            bitsift__validate_program_portable(NULL, empty, 0, 0, &a) == -1 &&
            bitsift__decode_interpreted(NULL, empty, 0, 0, &b) == BITSIFT_E_ARGUMENT,
        "no schema: no program, an argument error");
    bitsift_schema_free(s);
}

int main(int argc, char **argv)
{
    unsigned per_type = argc > 1 ? (unsigned)atoi(argv[1]) : 150;
    unsigned mutated = argc > 2 ? (unsigned)atoi(argv[2]) : 3;
    unsigned random = argc > 3 ? (unsigned)atoi(argv[3]) : 3000;
    test_forced_interpreter();
    for (size_t i = 0; i < sizeof example_files / sizeof example_files[0]; i++) {
        bitsift_schema *s = load(example_files[i]);
        /* lobby and constructs may fall back; the others may not. */
        bool must = strstr(example_files[i], "lobby") == NULL &&
                    strstr(example_files[i], "constructs") == NULL;
        test_schema(example_files[i], s, must, per_type, mutated, random);
        bitsift_schema_free(s);
    }
    bitsift_schema_error err;
    bitsift_schema *x = bitsift_schema_compile(extra_schema, sizeof extra_schema - 1, "extra", &err);
    tap(x != NULL, "the test schema compiles%s%s", x ? "" : ": ", x ? "" : err.message);
    if (x) {
        test_schema("extra", x, true, per_type, mutated, random);
        bitsift_schema_free(x);
    }
    x = bitsift_schema_compile(tail_schema, sizeof tail_schema - 1, "tail", &err);
    tap(x != NULL, "the tail schema compiles%s%s", x ? "" : ": ", x ? "" : err.message);
    if (x) {
        test_schema("tail", x, true, per_type, mutated, random);
        bitsift_schema_free(x);
    }
    x = bitsift_schema_compile(bools_schema, sizeof bools_schema - 1, "bools", &err);
    tap(x != NULL, "the bools schema compiles%s%s", x ? "" : ": ", x ? "" : err.message);
    if (x) {
        test_schema("bools", x, true, per_type, mutated, random);
        bitsift_schema_free(x);
    }
    char *deep = deep_chain_schema();
    clock_t start = clock();
    x = deep ? bitsift_schema_compile(deep, strlen(deep), "deep", &err) : NULL;
    double seconds = (double)(clock() - start) / CLOCKS_PER_SEC;
    tap(x != NULL && seconds < 10, "%d nested if chains compile in %.3f s of CPU", DEEP_CHAIN,
        seconds);
    if (x) {
        test_schema("deep", x, true, per_type, mutated, random);
        bitsift_schema_free(x);
    }
    free(deep);
    printf("1..%d\n", test_count);
    return failed_count ? 1 : 0;
}
