/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fuzz_packet.c -- libFuzzer target: detect the input's protocol among
 * the schemas in use (the bundled examples, or the user's schema: see
 * packet_schemas.h), and decode it as one packet of that schema (of one
 * the input names when it carries no schema's CRC) through the visitor,
 * into a tree, with the validate-only path, the validation program and
 * the op interpreter.
 *
 * Built four ways from this file (fuzz/local.mk):
 *   fuzz_packet        release behaviour: the CRC is checked, so plain
 *                      mutations rarely get past it;
 *   fuzz_packet_crc    + crc_mutator.c: libFuzzer re-seals the CRC after
 *                      each mutation (findings are valid packets);
 *   fuzz_packet_seal   -DBITSIFT_FUZZ_SEAL: the harness computes the CRC of
 *                      each input itself before decoding;
 *   fuzz_packet_nocrc  -DBITSIFT_FUZZ_NO_CRC: the decoder skips the CRC
 *                      comparison (BITSIFT_DECODE_NO_CRC); a finding needs
 *                      `bitsift reseal` before it reproduces on a release build.
 * (fuzz_packet_schema adds the schema-aware mutator: schema_mutator.c.)
 *
 * Checked on every input, besides "no crash, no sanitizer report":
 *   - every event has a path of its stated length, lies inside the packet,
 *     and events come in increasing bit order;
 *   - on success the leaf bits add up to the packet's bits (bit accounting);
 *   - protocol detection names a schema that is in the list;
 * and, one cross-check an input (which one: a hash of its bytes, so that a
 * finding replays the same way; each gets a fifth of the inputs):
 *   - the decode without absent events and paths agrees with the visitor's,
 *     and so does the one `bitsift stats` profiles with (<bitsift/stats.h>,
 *     over every input so far): a valid packet counts once in its type, its
 *     top-level fields and framing fields account for its every bit, and an
 *     invalid one is counted by its failure;
 *   - the tree decode agrees with the visitor's on status, packet type,
 *     bits and failure position, and each value node of the tree is found
 *     again by its own path;
 *   - the validate-only decode fills its result exactly as the op
 *     interpreter does, and the validation program (and its portable
 *     build) decides as the interpreter (validate_check.h): lenient,
 *     strict (which never accepts what the lenient decode refuses), and
 *     with the CRC ignored.
 * Every cross-check on every input would be fifteen decodes an input, four
 * times the time of one visitor decode and one cross-check; a
 * disagreement between two paths shows on many inputs of a run, and
 * fuzz/tests/planted-disagreement.test shows each one still caught within its
 * budget of runs. The replay program (replay_main.c: make check, the
 * coverage build) runs every cross-check on every input, so that a saved
 * input keeps every check whatever its hash.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BITSIFT_EXPERIMENTAL
#include "bitsift.h"
#include "bitsift/stats.h"
#include "packet_schemas.h"
#include "check_choice.h"
#include "reseal.h"
#include "validate_check.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(cond)                                                                     \
    do {                                                                                \
        if (!(cond)) {                                                                  \
            fprintf(stderr, "fuzz_packet: %s:%d: check failed: %s\n", __FILE__, __LINE__, \
                    #cond);                                                             \
            abort();                                                                    \
        }                                                                               \
    } while (0)

#ifdef BITSIFT_FUZZ_NO_CRC
#define DECODE_FLAGS BITSIFT_DECODE_NO_CRC
#else
#define DECODE_FLAGS 0u
#endif

/* Most nodes of a tree whose paths are looked up again (keeps each run
 * linear in the packet). */
#define PATH_CHECKS 64

struct walk {
    size_t size;         /* packet bytes */
    uint64_t next_bit;   /* where the previous leaf ended */
    uint64_t leaf_bits;  /* sum of leaf bits */
    uint64_t leaves;
    uint64_t absent;     /* events flagged BITSIFT_EVENT_ABSENT */
    unsigned depth;
};

static bool on_field(void *ctx, const bitsift_event *ev)
{
    struct walk *w = ctx;
    CHECK(ev->path != NULL && strlen(ev->path) == ev->path_len && ev->path_len < BITSIFT_PATH_MAX);
    CHECK(ev->name != NULL);
    CHECK((unsigned)ev->type < BITSIFT_FIELD_TYPE_COUNT);
    CHECK(ev->bit + ev->bits <= (uint64_t)w->size * 8);
    if (ev->flags & (BITSIFT_EVENT_ABSENT | BITSIFT_EVENT_DERIVED)) {
        CHECK(ev->bits == 0);
    } else {
        CHECK(ev->bit >= w->next_bit);
        w->next_bit = ev->bit + ev->bits;
    }
    w->leaf_bits += ev->bits;
    w->leaves++;
    w->absent += (ev->flags & BITSIFT_EVENT_ABSENT) != 0;
    const bitsift_value *v = &ev->value;
    switch (v->kind) {
    case BITSIFT_VALUE_BYTES:
    case BITSIFT_VALUE_STRING: {
        /* Touch every byte: ASan checks the view is inside something. */
        unsigned sum = 0;
        for (size_t i = 0; i < v->size; i++)
            sum += v->data[i];
        (void)sum;
        if (v->kind == BITSIFT_VALUE_STRING)
            CHECK(v->size == 0 || memchr(v->data, 0, v->size) == NULL);
        break;
    }
    case BITSIFT_VALUE_ENUM:
        /* A decoded enum value always has a name (an unnamed one is a range
         * error); an absent field's default carries none. */
        if (!(ev->flags & BITSIFT_EVENT_ABSENT))
            CHECK(v->name != NULL);
        break;
    default:
        break;
    }
    return true;
}

static bool on_enter(void *ctx, const bitsift_event *ev)
{
    struct walk *w = ctx;
    CHECK(ev->path != NULL && strlen(ev->path) == ev->path_len);
    w->depth++;
    CHECK(w->depth <= BITSIFT_SCHEMA_MAX_DEPTH + 8);
    return true;
}

static bool on_leave(void *ctx, const bitsift_event *ev)
{
    struct walk *w = ctx;
    CHECK(ev->path != NULL && strlen(ev->path) == ev->path_len);
    CHECK(w->depth > 0);
    w->depth--;
    return true;
}

static bitsift_tree *trees[64];

static void check_tree(bitsift_tree *t)
{
    size_t n = bitsift_tree_node_count(t);
    char path[BITSIFT_PATH_MAX];
    for (size_t i = 0, checked = 0; i < n && checked < PATH_CHECKS; i++) {
        bitsift_node *node = bitsift_tree_node(t, i);
        CHECK(node != NULL);
        if (bitsift_node_kind_of(node) != BITSIFT_NODE_VALUE || node == bitsift_tree_root(t))
            continue;
        size_t len = bitsift_node_path(node, path, sizeof path);
        if (len >= sizeof path)
            continue;
        checked++;
        CHECK(bitsift_tree_find(t, path) == node);
    }
}

/* The statistics of the inputs so far, as `bitsift stats` keeps them:
 * memory fixed by the schemas, however many inputs. Made anew every
 * STATS_LIFETIME inputs, so that freeing one is exercised too. */
static bitsift_stats *stats;
static unsigned stats_inputs;
#define STATS_LIFETIME 64

/* Bits of one packet type's top-level fields and framing fields, over the
 * packets profiled so far. */
static uint64_t stats_accounted(int schema, unsigned type, const bitsift_type_stats *t)
{
    const bitsift_schema *s = fuzz_schema((size_t)schema);
    uint64_t sum = 0;
    for (int k = 0; k < BITSIFT_STATS_FRAMING_FIELDS; k++) {
        CHECK(bitsift_stats_place_name((bitsift_stats_place)k) != NULL);
        sum += t->framing[k].total;
    }
    for (size_t i = 0; i < t->field_count; i++) {
        bitsift_field_info info;
        bitsift_field_stats f;
        CHECK(bitsift_schema_field_info(s, t->field_ids[i], &info) && info.packet_type == type);
        CHECK(bitsift_stats_field(stats, schema, t->field_ids[i], &f));
        CHECK(f.bits.min <= f.bits.max && f.saving_total <= f.observed.count * 64);
        if (f.fitted)
            CHECK(f.declared_bits <= 64 && f.fitted_bits <= 64);
        if (info.depth == 1)
            sum += f.bits.total;
    }
    return sum;
}

/* The statistics' decode of the input against the visitor's. */
static void stats_agree(size_t schema_index, const uint8_t *data, size_t size,
                        const bitsift_result *by_visitor)
{
    if (stats_inputs++ % STATS_LIFETIME == 0) {
        bitsift_stats_free(stats);
        stats = bitsift_stats_create(fuzz_schema_list(), fuzz_schema_count());
    }
    CHECK(stats != NULL);
    int schema = (int)schema_index;
    const bitsift_schema *s = fuzz_schema(schema_index);
    CHECK(bitsift_stats_schema_count(stats) == fuzz_schema_count());
    CHECK(bitsift_stats_schema(stats, schema) == s && bitsift_stats_schema(stats, -1) == NULL);
    /* A time from the input's hash, before and after the first input's,
     * so that the buckets widen. */
    bitsift_stats_add_time(stats, schema, by_visitor->packet_type,
                           (int64_t)(fuzz_input_hash(data, size) % 100000) - 50000, size);
    bitsift_result res;
    /* An index no schema has is refused, not read past. */
    CHECK(!bitsift_stats_add_packet(stats, -1, data, size, DECODE_FLAGS, &res) &&
          res.status == BITSIFT_E_ARGUMENT);
    unsigned type = by_visitor->packet_type >= 0 ? (unsigned)by_visitor->packet_type : 0;
    bitsift_type_stats before, after;
    bitsift_field_stats field;
    CHECK(!bitsift_stats_type(stats, schema, bitsift_schema_packet_count(s) + 1, &before));
    CHECK(!bitsift_stats_field(stats, schema, bitsift_schema_field_count(s), &field));
    uint64_t valid_bits = bitsift_stats_valid_bits(stats), accounted = 0;
    bool valid = by_visitor->status == BITSIFT_OK;
    if (valid) {
        CHECK(bitsift_stats_type(stats, schema, type, &before));
        accounted = stats_accounted(schema, type, &before);
    }
    CHECK(bitsift_stats_add_packet(stats, schema, data, size, DECODE_FLAGS, &res) == valid);
    CHECK(res.status == by_visitor->status && res.bits == by_visitor->bits);
    CHECK(res.packet_type == by_visitor->packet_type && res.failure.bit == by_visitor->failure.bit);
    if (!valid) {
        CHECK(bitsift_stats_valid_bits(stats) == valid_bits);
        bitsift_stats_add_failure(stats, schema, by_visitor);
        bitsift_stats_add_failure(stats, -1, by_visitor);
        CHECK(bitsift_stats_no_protocol_errors(stats)[by_visitor->status] > 0);
        return;
    }
    CHECK(bitsift_stats_type(stats, schema, type, &after));
    CHECK(after.packets == before.packets + 1);
    CHECK(after.bits.total == before.bits.total + res.bits);
    CHECK(after.bits.min <= res.bits && res.bits <= after.bits.max);
    CHECK(bitsift_stats_valid_bits(stats) == valid_bits + res.bits);
    CHECK(stats_accounted(schema, type, &after) == accounted + res.bits);
    bitsift_bandwidth bw;
    bitsift_bandwidth_series series;
    bitsift_stats_bandwidth(stats, &bw);
    CHECK(bw.has_start && bw.buckets <= BITSIFT_STATS_MAX_BUCKETS && bw.series_count > 0);
    CHECK(bitsift_stats_series(stats, bw.series_count - 1, &series));
    CHECK(!bitsift_stats_series(stats, bw.series_count, &series));
}

/* The cross-checks one of which each input gets. */
enum cross_check {
    CROSS_PRESENT, /* no absent events, no paths */
    CROSS_TREE,
    CROSS_LENIENT, /* validate_check.h, the flags of the build */
    CROSS_STRICT,
    CROSS_NO_CRC,
    CROSS_CHECKS
};

static enum cross_check cross_check_for(const uint8_t *data, size_t size)
{
    return (enum cross_check)(fuzz_input_hash(data, size) % CROSS_CHECKS);
}

/* One cross-check of the input against its visitor decode (w, by_visitor). */
static void cross_check(enum cross_check check, size_t schema_index, const uint8_t *data,
                        size_t size, const struct walk *w, const bitsift_result *by_visitor)
{
    const bitsift_schema *s = fuzz_schema(schema_index);
    switch (check) {
    case CROSS_PRESENT: {
        /* Without absent events (as `bitsift decode` asks): the same outcome,
         * the same leaves less the absent ones, and none flagged absent. */
        struct walk present = {.size = size};
        bitsift_visitor pv = {on_field, on_enter, on_leave, &present};
        bitsift_result by_present;
        bitsift_decode(s, data, size,
                       DECODE_FLAGS | BITSIFT_DECODE_NO_ABSENT | BITSIFT_DECODE_NO_PATHS, &pv,
                       &by_present);
        CHECK(by_present.status == by_visitor->status && by_present.bits == by_visitor->bits);
        CHECK(by_present.failure.bit == by_visitor->failure.bit);
        CHECK(strcmp(by_present.path, by_visitor->path) == 0);
        CHECK(present.absent == 0 && present.leaves == w->leaves - w->absent);
        CHECK(present.leaf_bits == w->leaf_bits);
        stats_agree(schema_index, data, size, by_visitor);
        break;
    }
    case CROSS_TREE: {
        if (!trees[schema_index])
            trees[schema_index] = bitsift_tree_create(s);
        bitsift_tree *t = trees[schema_index];
        CHECK(t != NULL);
        bitsift_result by_tree;
        bitsift_decode_tree(s, data, size, DECODE_FLAGS, t, &by_tree);
        CHECK(by_tree.status == by_visitor->status);
        CHECK(by_tree.packet_type == by_visitor->packet_type);
        CHECK(by_tree.bits == by_visitor->bits);
        CHECK(by_tree.failure.bit == by_visitor->failure.bit);
        CHECK(strcmp(by_tree.path, by_visitor->path) == 0);
        if (by_tree.status == BITSIFT_OK)
            check_tree(t);
        break;
    }
    /* The validate-only decode, each also held to the interpreter and the
     * validation program by validate_check.h. */
    case CROSS_LENIENT: {
        bitsift_result validated;
        fuzz_validate_agrees_result(s, data, size, DECODE_FLAGS, &validated);
        CHECK(validated.status == by_visitor->status && validated.bits == by_visitor->bits);
        break;
    }
    case CROSS_STRICT: {
        /* A strict decode never accepts what the lenient one refuses. */
        bitsift_result strict;
        fuzz_validate_agrees_result(s, data, size, DECODE_FLAGS | BITSIFT_DECODE_STRICT, &strict);
        if (strict.status == BITSIFT_OK)
            CHECK(by_visitor->status == BITSIFT_OK && strict.bits == by_visitor->bits);
        break;
    }
    case CROSS_NO_CRC:
    case CROSS_CHECKS:
        /* (A build that ignores the CRC checks so in CROSS_LENIENT too.) */
        fuzz_validate_agrees(s, data, size, BITSIFT_DECODE_NO_CRC);
        break;
    }
}

static void decode_one(size_t schema_index, const uint8_t *data, size_t size)
{
    const bitsift_schema *s = fuzz_schema(schema_index);
    struct walk w = {.size = size};
    bitsift_visitor v = {on_field, on_enter, on_leave, &w};
    bitsift_result by_visitor;

    bitsift_decode(s, data, size, DECODE_FLAGS, &v, &by_visitor);
    CHECK(by_visitor.status == by_visitor.failure.kind && !by_visitor.stopped);
    CHECK(by_visitor.bits <= (uint64_t)size * 8);
    if (by_visitor.status == BITSIFT_OK) {
        CHECK(w.depth == 0);
        CHECK(w.leaf_bits == by_visitor.bits);
        CHECK(by_visitor.packet_type >= 0 &&
              (unsigned)by_visitor.packet_type < bitsift_schema_packet_count(s));
        CHECK(by_visitor.bits >= bitsift_schema_packet_min_bits(s, (unsigned)by_visitor.packet_type));
        CHECK(by_visitor.bits <= bitsift_schema_packet_max_bits(s, (unsigned)by_visitor.packet_type));
    } else {
        char message[512];
        CHECK(bitsift_failure_format(&by_visitor.failure, message, sizeof message) > 0);
        CHECK(strlen(by_visitor.path) < sizeof by_visitor.path);
    }

    enum cross_check first = cross_check_for(data, size), last = first;
    if (FUZZ_EVERY_CHECK) {
        first = CROSS_PRESENT;
        last = CROSS_NO_CRC;
    }
    for (int check = first; check <= (int)last; check++)
        cross_check((enum cross_check)check, schema_index, data, size, &w, &by_visitor);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    fuzz_schemas_init(argc, argv);
    return 0;
}

/*
 * Which schema an input is decoded against. Every path of every schema
 * would be 4 x 15 decodes an input, most of them wasted: against a schema
 * whose CRC the packet does not carry, every CRC-checking path stops at
 * the CRC. So an input goes through every path of ONE schema: the one
 * whose CRC it carries, else (and in seal mode, which seals for the
 * schema it picks) the one its last byte names, so that each schema
 * still sees every input shape over a run.
 */
static size_t schema_for_input(const uint8_t *data, size_t size, size_t n, int detected)
{
#ifndef BITSIFT_FUZZ_SEAL
    if (detected >= 0)
        return (size_t)detected;
#else
    (void)detected;
#endif
    return size ? data[size - 1] % n : 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t n = fuzz_schema_count();
    CHECK(n >= 1 && n <= sizeof trees / sizeof trees[0]);
    int detected = bitsift_detect(fuzz_schema_list(), n, data, size);
    CHECK(detected >= -1 && detected < (int)n);
    size_t which = schema_for_input(data, size, n, detected);
#ifdef BITSIFT_FUZZ_SEAL
    uint8_t *sealed = fuzz_sealed_copy(data, size, (unsigned)which);
    if (!sealed)
        return 0;
    decode_one(which, sealed, size);
    free(sealed);
#else
    decode_one(which, data, size);
#endif
    return 0;
}
