/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_serialize_parts.c -- the serialize macros for sparse arrays (all
 * four encodings), smallest-three quaternions, vectors and named field
 * paths, held to the schema interpreter: the schema below describes the
 * same packet as serialize_parts(), the interpreter makes random valid
 * packets (bitsift_tree_random + bitsift_encode) and decodes every
 * truncation and bit flip of them, and the macros must agree on each:
 *
 *   - a valid packet reads, and writing what was read gives the same
 *     bytes (write(read(p)) == p), measure gives the bits written, and
 *     the values are the tree's;
 *   - a damaged packet is refused exactly when the interpreter refuses
 *     it, with the same failure kind, bit and field path.
 */
#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>

static const char SCHEMA[] =
    "protocol parts { id 1; crc off; end_check off; }\n"
    "struct Item { int(0, 100) v; bool b; }\n"
    "packet p {\n"
    "    int(0, 7) head;\n"
    "    Item fa[12] sparse(flags);\n"
    "    Item ib[12] sparse(indices);\n"
    "    int(0, 9) sc[12] sparse(sentinel);\n"
    "    Item rel[200] sparse(relative);\n"
    "    smallest_three(9) q;\n"
    "    vector3(compressed_float(-10, 10, 0.01)) pos;\n"
    "    vector2(int(-5, 5)) iv;\n"
    "    int(0, 3) tail;\n"
    "}\n";

struct item {
    int64_t v;
    bool b;
};

struct parts {
    int64_t head;
    bool fa_present[12];
    struct item fa[12];
    bool ib_present[12];
    struct item ib[12];
    bool sc_present[12];
    int64_t sc[12];
    bool rel_present[200];
    struct item rel[200];
    bitsift_smallest_three q;
    float pos[3];
    int64_t iv[2];
    int64_t tail;
};

static bool serialize_item(void *stream, const int mode, struct item *it)
{
    bitsift_serialize_named(stream, mode, "v", int, it->v, (0, 100));
    bitsift_serialize_named(stream, mode, "b", bool, it->b, ());
    return true;
}

/* One sparse array of items. */
#define SPARSE_ITEMS(stream, mode, p, field, encoding, max)                                     \
    do {                                                                                        \
        bitsift_sparse sp;                                                                      \
        bitsift_serialize_sparse_begin(stream, mode, sp, #field, encoding, p->field##_present,   \
                                       max);                                                    \
        while (bitsift_serialize_sparse_next(stream, mode, sp))                                 \
            bitsift_serialize_in(stream, mode, #field, sp.index,                                \
                                 serialize_item(stream, mode, &p->field[sp.index]));            \
        bitsift_serialize_sparse_end(stream, mode, sp, #field);                                 \
    } while (0)

static bool serialize_parts(void *stream, const int mode, struct parts *p)
{
    bitsift_serialize_named(stream, mode, "head", int, p->head, (0, 7));
    SPARSE_ITEMS(stream, mode, p, fa, BITSIFT_SPARSE_FLAGS, 12);
    SPARSE_ITEMS(stream, mode, p, ib, BITSIFT_SPARSE_INDICES, 12);
    bitsift_sparse it;
    bitsift_serialize_sparse_begin(stream, mode, it, "sc", BITSIFT_SPARSE_SENTINEL, p->sc_present,
                                   12);
    while (bitsift_serialize_sparse_next(stream, mode, it))
        bitsift_serialize_element(stream, mode, "sc", it.index, p->sc[it.index], int, (0, 9));
    bitsift_serialize_sparse_end(stream, mode, it, "sc");
    SPARSE_ITEMS(stream, mode, p, rel, BITSIFT_SPARSE_RELATIVE, 200);
    bitsift_serialize_named(stream, mode, "q", smallest_three, p->q, (9));
    bitsift_serialize_vector(stream, mode, "pos", 3, p->pos, compressed_float,
                             (-10.0f, 10.0f, 0.01f));
    bitsift_serialize_vector(stream, mode, "iv", 2, p->iv, int, (-5, 5));
    bitsift_serialize_named(stream, mode, "tail", int, p->tail, (0, 3));
    return true;
}
BITSIFT_SERIALIZE_FUNCTIONS(parts, struct parts, serialize_parts)

struct fixture {
    bitsift_schema *schema;
    bitsift_tree *tree;
};

static int setup(void **state)
{
    static struct fixture f;
    bitsift_schema_error err;
    f.schema = bitsift_schema_compile(SCHEMA, sizeof SCHEMA - 1, "parts.bss", &err);
    if (!f.schema) {
        fprintf(stderr, "schema: %s\n", err.message);
        return -1;
    }
    f.tree = bitsift_tree_create(f.schema);
    *state = &f;
    return f.tree ? 0 : -1;
}

static int teardown(void **state)
{
    struct fixture *f = *state;
    bitsift_tree_free(f->tree);
    bitsift_schema_free(f->schema);
    return 0;
}

/* A value of the tree at `path` as an int64 (ints, bools), or fail. */
static int64_t tree_int(const bitsift_tree *t, const char *path)
{
    const bitsift_node *n = bitsift_tree_find(t, path);
    if (!n)
        fail_msg("no node %s", path);
    const bitsift_value *v = bitsift_node_value(n);
    return v->kind == BITSIFT_VALUE_BOOL ? (int64_t)v->b : v->i;
}

static float tree_float(const bitsift_tree *t, const char *path)
{
    const bitsift_node *n = bitsift_tree_find(t, path);
    if (!n)
        fail_msg("no node %s", path);
    return bitsift_node_value(n)->f;
}

static void check_items(const bitsift_tree *t, const char *field, const bool *present,
                        const struct item *items, int max)
{
    char path[64];
    for (int i = 0; i < max; i++) {
        snprintf(path, sizeof path, "%s[%d]", field, i);
        assert_int_equal(present[i], bitsift_tree_find(t, path) != NULL);
        if (!present[i])
            continue;
        snprintf(path, sizeof path, "%s[%d].v", field, i);
        assert_int_equal(items[i].v, tree_int(t, path));
        snprintf(path, sizeof path, "%s[%d].b", field, i);
        assert_int_equal(items[i].b, tree_int(t, path));
    }
}

/* The values read are the ones the interpreter decodes. */
static void check_values(const bitsift_tree *t, const struct parts *p)
{
    static const char *const xyzw[] = {"x", "y", "z", "w"};
    char path[64];
    assert_int_equal(p->head, tree_int(t, "head"));
    check_items(t, "fa", p->fa_present, p->fa, 12);
    check_items(t, "ib", p->ib_present, p->ib, 12);
    for (int i = 0; i < 12; i++) {
        snprintf(path, sizeof path, "sc[%d]", i);
        assert_int_equal(p->sc_present[i], bitsift_tree_find(t, path) != NULL);
        if (p->sc_present[i])
            assert_int_equal(p->sc[i], tree_int(t, path));
    }
    check_items(t, "rel", p->rel_present, p->rel, 200);
    assert_int_equal(p->q.largest, tree_int(t, "q.largest"));
    for (int k = 0; k < 4; k++) {
        snprintf(path, sizeof path, "q.%s", xyzw[k]);
        float want = tree_float(t, path);
        assert_memory_equal(&p->q.q[k], &want, sizeof want);
    }
    for (int k = 0; k < 3; k++) {
        snprintf(path, sizeof path, "pos.%s", xyzw[k]);
        float want = tree_float(t, path);
        assert_memory_equal(&p->pos[k], &want, sizeof want);
    }
    for (int k = 0; k < 2; k++) {
        snprintf(path, sizeof path, "iv.%s", xyzw[k]);
        assert_int_equal(p->iv[k], tree_int(t, path));
    }
    assert_int_equal(p->tail, tree_int(t, "tail"));
}

/* The macros decide a packet as the interpreter does. */
static void check_same_decision(const bitsift_schema *s, const uint8_t *pkt, size_t size,
                                const char *what)
{
    bitsift_result res;
    bitsift_error e = bitsift_decode(s, pkt, size, 0, NULL, &res);
    bitsift_reader r;
    bitsift_reader_init(&r, pkt, size);
    struct parts p;
    bool ok = parts_read(&r, &p);
    if (ok != (e == BITSIFT_OK))
        fail_msg("%s: interpreter %s, macros %s", what, bitsift_error_name(e),
                 ok ? "accept" : bitsift_error_name(r.failure.kind));
    if (ok)
        return;
    const bitsift_failure *f = bitsift_reader_failure(&r);
    if (f->kind != res.failure.kind || f->bit != res.failure.bit ||
        strcmp(f->field ? f->field : "", res.path) != 0)
        fail_msg("%s: interpreter %s at bit %llu in '%s', macros %s at bit %llu in '%s'", what,
                 bitsift_error_name(res.failure.kind), (unsigned long long)res.failure.bit,
                 res.path, bitsift_error_name(f->kind), (unsigned long long)f->bit,
                 f->field ? f->field : "");
}

static void test_random_packets(void **state)
{
    struct fixture *f = *state;
    uint8_t pkt[2048], out[2048];
    bitsift_tree *decoded = bitsift_tree_create(f->schema);
    assert_non_null(decoded);
    for (uint64_t seed = 1; seed <= 300; seed++) {
        unsigned fill = (unsigned)(seed * 37 % 101);
        assert_int_equal(bitsift_tree_random(f->tree, 0, seed, fill), BITSIFT_OK);
        size_t size;
        bitsift_result res;
        assert_int_equal(bitsift_encode(f->schema, f->tree, pkt, sizeof pkt, &size, &res),
                         BITSIFT_OK);

        bitsift_reader r;
        bitsift_reader_init(&r, pkt, size);
        struct parts p;
        if (!parts_read(&r, &p)) {
            char msg[256];
            bitsift_failure_format(bitsift_reader_failure(&r), msg, sizeof msg);
            fail_msg("seed %llu: %s", (unsigned long long)seed, msg);
        }
        assert_int_equal(bitsift_decode_tree(f->schema, pkt, size, 0, decoded, &res), BITSIFT_OK);
        check_values(decoded, &p);

        bitsift_writer w;
        bitsift_writer_init(&w, out, sizeof out);
        assert_true(parts_write(&w, &p));
        assert_int_equal(bitsift_writer_bytes(&w), size);
        assert_memory_equal(out, pkt, size);
        assert_int_equal(parts_measure(&p), bitsift_writer_bit_pos(&w));

        char what[64];
        for (size_t n = 0; n < size; n++) {
            snprintf(what, sizeof what, "seed %llu cut at %zu", (unsigned long long)seed, n);
            check_same_decision(f->schema, pkt, n, what);
        }
        uint64_t rng = seed;
        for (int k = 0; k < 24; k++) {
            uint8_t bad[2048];
            memcpy(bad, pkt, size);
            uint64_t bit = test_below(&rng, size * 8);
            bad[bit >> 3] ^= (uint8_t)(1u << (bit & 7));
            snprintf(what, sizeof what, "seed %llu flip %llu", (unsigned long long)seed,
                     (unsigned long long)bit);
            check_same_decision(f->schema, bad, size, what);
        }
    }
    bitsift_tree_free(decoded);
}

/* A quaternion set by hand (not read) is sent afresh, largest positive. */
static void test_smallest_three_fresh(void **state)
{
    (void)state;
    bitsift_smallest_three q = {{0.0f, 0.0f, -1.0f, 0.0f}, 0, {0, 0, 0, 0}};
    uint8_t buf[8];
    bitsift_writer w;
    bitsift_writer_init(&w, buf, sizeof buf);
    assert_true(bitsift_write_smallest_three(&w, 9, &q));
    assert_int_equal(bitsift_writer_bit_pos(&w), 2 + 3 * 9);
    bitsift_reader r;
    bitsift_reader_init(&r, buf, sizeof buf);
    bitsift_smallest_three back;
    assert_true(bitsift_read_smallest_three(&r, 9, &back));
    assert_int_equal(back.largest, 2);
    assert_true(back.q[2] > 0.999f);
    for (int k = 0; k < 4; k++)
        if (k != 2)
            assert_true(back.q[k] > -0.002f && back.q[k] < 0.002f);
    bitsift_writer_init(&w, buf, sizeof buf);
    assert_false(bitsift_write_smallest_three(&w, 1, &q));
    assert_int_equal(bitsift_writer_failure(&w)->kind, BITSIFT_E_ARGUMENT);
}

/* Writers refuse what their readers would: a present slot beyond max in
 * a sentinel array cannot happen, but a writer failure is named. */
static void test_write_failure_path(void **state)
{
    (void)state;
    struct parts p;
    memset(&p, 0, sizeof p);
    p.q.q[3] = 1.0f;
    p.rel_present[5] = true;
    p.rel[5].v = 101; /* above int(0, 100) */
    uint8_t buf[512];
    bitsift_writer w;
    bitsift_writer_init(&w, buf, sizeof buf);
    assert_false(parts_write(&w, &p));
    assert_int_equal(bitsift_writer_failure(&w)->kind, BITSIFT_E_VALUE);
    assert_string_equal(bitsift_writer_failure(&w)->field, "rel[5].v");
    p.rel[5].v = 100;
    p.pos[1] = 0.5f;
    p.iv[1] = 6; /* above int(-5, 5) */
    bitsift_writer_init(&w, buf, sizeof buf);
    assert_false(parts_write(&w, &p));
    assert_string_equal(bitsift_writer_failure(&w)->field, "iv.y");
}

/* The article's macros still name a failure by its expression; a path
 * made through bitsift_serialize_in starts from its last member. */
struct pair {
    int64_t a, b;
};
static bool serialize_pair(void *stream, const int mode, struct pair *p)
{
    bitsift_serialize_int(stream, mode, p->a, 0, 3);
    bitsift_serialize_int(stream, mode, p->b, 0, 3);
    return true;
}
static bool serialize_pairs(void *stream, const int mode, struct pair *ps)
{
    for (int k = 0; k < 4; k++)
        bitsift_serialize_in(stream, mode, "pairs", k, serialize_pair(stream, mode, &ps[k]));
    return true;
}

static void test_expression_names(void **state)
{
    (void)state;
    struct pair ps[4];
    uint8_t buf[1] = {0xff};
    bitsift_reader r;
    bitsift_reader_init(&r, buf, 1);
    assert_false(serialize_pair(&r, BITSIFT_READ, &ps[0]) && serialize_pair(&r, BITSIFT_READ, &ps[1]) &&
                 serialize_pair(&r, BITSIFT_READ, &ps[2]));
    assert_string_equal(r.failure.field, "p->a");
    bitsift_reader_init(&r, buf, 1);
    assert_false(serialize_pairs(&r, BITSIFT_READ, ps));
    assert_string_equal(r.failure.field, "pairs[2].a");
    assert_int_equal(r.failure.bit, 8);
}

/* Paths longer than the buffer keep their innermost parts. */
static bool deep(void *stream, const int mode, int depth, int64_t *v)
{
    if (depth == 0) {
        bitsift_serialize_named(stream, mode, "leaf", int, *v, (0, 1));
        return true;
    }
    bitsift_serialize_in(stream, mode, "level", depth, deep(stream, mode, depth - 1, v));
    return true;
}

static void test_long_path(void **state)
{
    (void)state;
    bitsift_reader r;
    bitsift_reader_init(&r, NULL, 0);
    int64_t v;
    assert_false(deep(&r, BITSIFT_READ, 100, &v));
    const char *path = r.failure.field;
    assert_true(strlen(path) < BITSIFT_FAILURE_PATH_MAX);
    assert_true(strlen(path) > 200);
    const char *end = path + strlen(path) - strlen("level[1].leaf");
    assert_string_equal(end, "level[1].leaf");
    assert_true(strncmp(path, "level[", 6) == 0);
}

/* Bad arguments are failures, not crashes. */
static void test_sparse_arguments(void **state)
{
    (void)state;
    bool present[4];
    bitsift_sparse it;
    bitsift_reader r;
    uint8_t buf[4] = {0};
    bitsift_reader_init(&r, buf, sizeof buf);
    assert_false(bitsift_read_sparse_begin(&r, &it, BITSIFT_SPARSE_FLAGS, present, 0));
    assert_int_equal(r.failure.kind, BITSIFT_E_ARGUMENT);
    bitsift_reader_init(&r, buf, sizeof buf);
    assert_false(bitsift_read_sparse_begin(&r, &it, (bitsift_sparse_encoding)9, present, 4));
    assert_int_equal(r.failure.kind, BITSIFT_E_ARGUMENT);
    bitsift_writer w;
    bitsift_writer_init(&w, buf, sizeof buf);
    assert_false(bitsift_write_sparse_begin(&w, &it, BITSIFT_SPARSE_FLAGS, NULL, 4));
    assert_int_equal(w.failure.kind, BITSIFT_E_ARGUMENT);
}

/* The inline reads the macros use for compressed_float_steps and
 * smallest_three against the out-of-line reads of the same fields, at
 * every bit of every buffer length (so across the fast window's end),
 * with good and bad parameters: the same answer, value, position and
 * failure. */
static bool same_failure(const bitsift_reader *a, const bitsift_reader *b)
{
    return a->failure.kind == b->failure.kind && a->failure.bit == b->failure.bit &&
           a->failure.expected == b->failure.expected && a->failure.got == b->failure.got &&
           a->bit_pos == b->bit_pos;
}

/* Two readers over buf, both at bit `at`. */
static void readers_at(bitsift_reader *a, bitsift_reader *b, const uint8_t *buf, size_t len,
                       uint64_t at)
{
    uint64_t skip;
    bitsift_reader_init(a, buf, len);
    bitsift_reader_init(b, buf, len);
    for (uint64_t left = at; left > 0; left--) {
        (void)bitsift_read_bits(a, 1, &skip);
        (void)bitsift_read_bits(b, 1, &skip);
    }
}

static void test_inline_reads_agree(void **state)
{
    (void)state;
    static const struct {
        float min, max;
        uint32_t steps;
        unsigned bits;
    } floats[] = {
        {-4096.0f, 4096.0f, 819200u, 20u}, {0.0f, 1.0f, 100u, 7u}, {-1.0f, 1.0f, 1u, 1u},
        {0.0f, 1.0f, 4294967040u, 32u},    {0.0f, 1.0f, 100u, 8u}, {1.0f, 0.0f, 100u, 7u},
    };
    static const unsigned s3_bits[] = {1, 2, 9, 10, 18, 19, 31, 32};
    uint8_t buf[24];
    uint64_t rng = 0x1234567u;
    for (size_t len = 0; len <= sizeof buf; len++) {
        for (size_t i = 0; i < len; i++) {
            rng = rng * 6364136223846793005ull + 1442695040888963407ull;
            buf[i] = (uint8_t)(rng >> 56);
        }
        for (uint64_t at = 0; at <= len * 8; at++) {
            for (size_t k = 0; k < sizeof floats / sizeof floats[0]; k++) {
                bitsift_reader a, b;
                readers_at(&a, &b, buf, len, at);
                float va = -7.0f, vb = -7.0f;
                bool oka = bitsift__read_compressed_float_steps_inline(
                    &a, floats[k].min, floats[k].max, floats[k].steps, floats[k].bits, &va);
                bool okb = bitsift_read_compressed_float_steps(
                    &b, floats[k].min, floats[k].max, floats[k].steps, floats[k].bits, &vb);
                assert_int_equal(oka, okb);
                assert_memory_equal(&va, &vb, sizeof va);
                assert_true(same_failure(&a, &b));
            }
            for (size_t k = 0; k < sizeof s3_bits / sizeof s3_bits[0]; k++) {
                bitsift_reader a, b;
                readers_at(&a, &b, buf, len, at);
                bitsift_smallest_three qa, qb;
                memset(&qa, 0x5a, sizeof qa);
                memset(&qb, 0x5a, sizeof qb);
                bool oka = bitsift__read_smallest_three_inline(&a, s3_bits[k], &qa);
                bool okb = bitsift_read_smallest_three(&b, s3_bits[k], &qb);
                assert_int_equal(oka, okb);
                assert_memory_equal(&qa, &qb, sizeof qa);
                assert_true(same_failure(&a, &b));
            }
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_packets),
        cmocka_unit_test(test_smallest_three_fresh),
        cmocka_unit_test(test_write_failure_path),
        cmocka_unit_test(test_expression_names),
        cmocka_unit_test(test_long_path),
        cmocka_unit_test(test_sparse_arguments),
        cmocka_unit_test(test_inline_reads_agree),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
