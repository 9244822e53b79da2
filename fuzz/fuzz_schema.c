/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fuzz_schema.c -- libFuzzer target: the schema lexer, parser and compiler
 * on arbitrary text, then everything a compiled schema offers.
 *
 * Checked, besides "no crash, no hang, no sanitizer report":
 *   - a rejected schema has a kind, a non-empty NUL-terminated message and
 *     a position inside the text (line <= lines + 1);
 *   - an accepted one answers every introspection call consistently (each
 *     packet type found again by its name, fields' parents precede them,
 *     min_bits <= max_bits), prints its layout, writes its Wireshark
 *     dissector (bitsift_gen_wireshark succeeds) and its C code and
 *     harness (bitsift_gen_fuzz succeeds, or refuses with a message), and
 *     decodes and encodes
 *     (a zero-filled and a 0xff-filled buffer, CRC ignored) without
 *     crashing — so the compiled form itself is exercised, not just the
 *     parser;
 *   - a random valid packet of each type (bitsift_tree_random, fills 0, 50
 *     and 100, a fixed seed) encodes, unless it does not fit the output
 *     buffer; the packet decodes, CRC included, as the same type and
 *     re-encodes to the same bytes; one byte less of output space makes
 *     the encoder fail with BITSIFT_E_OVERFLOW; one value replaced by a
 *     value of another kind (an integral or fractional float, a string, a
 *     byte string, a negative or huge integer) is refused with
 *     BITSIFT_E_VALUE (BITSIFT_E_STRING for text with a NUL byte or bad
 *     UTF-8, as the writer reports it) or written as a packet the decoder
 *     accepts, on up to 8 values in turn; so is a node of another kind in
 *     a struct (an array for a value, a value for a struct or array), and
 *     so is one array element more (a struct or a value, whichever the
 *     array does not hold, or does);
 *   - the validation program decides as the op interpreter, and the
 *     validate-only decode fills its result as the interpreter does
 *     (validate_check.h), on the two simple buffers, on each random packet
 *     and, as budgets of bytes and of decoding work allow (all for small
 *     packets, fewer for large ones), in strict mode, on up to 64
 *     truncations and 16 bit flips of it;
 *   - the API's edges: out-of-range types and field ids, NULL where the
 *     header allows it, a tree of no packet type, a name one character
 *     too long and bytes beyond the limit are refused as documented;
 *     every field's source spans lie inside the text; the dissector
 *     takes a name and ports of its own and refuses a name that is no
 *     identifier, too many ports or none behind a count; compiling without a
 *     file name or error struct decides the same, and no text or too
 *     much text is refused;
 *   - a visitor that returns false stops the decode of a random packet
 *     there, with BITSIFT_OK and `stopped` set, and only then; no path, no
 *     such file, a directory and an empty file load no schema;
 *   - in each decoded random packet, every node is found again by its path
 *     (bitsift_node_path -> bitsift_tree_find) and a named struct member
 *     by its name (bitsift_node_child); a path cut short by a small buffer
 *     is NUL-terminated and reports its full length; paths that cannot
 *     name a node ("[0]" on the root struct, a name with a space, an
 *     unclosed bracket) find nothing.
 *
 * The replay programs (make check, make coverage) hold every input to all
 * of this. Under a fuzzing engine an input gets the checks that cost
 * little (the compile's decision and diagnostics, introspection, the two
 * simple buffers, the empty trees) and, chosen by a hash of its bytes
 * (check_choice.h), one of three stages: generation (the printed layout,
 * the dissector, the C code and harness), the random packets, or the
 * API's edges (with the generators' options); and one input in four is
 * compiled a second time without a file name or error struct.
 */
#define _GNU_SOURCE /* fopencookie */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bitsift.h"
#include "check_choice.h"
#include "validate_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(cond)                                                                     \
    do {                                                                                \
        if (!(cond)) {                                                                  \
            fprintf(stderr, "fuzz_schema: %s:%d: check failed: %s\n", __FILE__, __LINE__, \
                    #cond);                                                             \
            abort();                                                                    \
        }                                                                               \
    } while (0)

/* Introspection calls, decoding and encoding stay bounded for any schema:
 * look at no more than this many fields and packet types. */
#define MAX_LOOKED_AT 256

/* Paths and names of a decoded tree (bounded to the first nodes). */
static void check_paths(const bitsift_tree *t)
{
    static char path[4096];
    char small[4];
    size_t nodes = bitsift_tree_node_count(t);
    for (size_t i = 0; i < nodes && i < 4 * MAX_LOOKED_AT; i++) {
        bitsift_node *n = bitsift_tree_node(t, i);
        size_t len = bitsift_node_path(n, path, sizeof path);
        if (len >= sizeof path)
            continue;
        CHECK(bitsift_tree_find(t, path) == n);
        CHECK(bitsift_node_path(n, small, sizeof small) == len);
        CHECK(memchr(small, 0, sizeof small) != NULL);
        bitsift_node *parent = bitsift_node_parent(n);
        const char *name = bitsift_node_name(n);
        if (parent && name && bitsift_node_kind_of(parent) == BITSIFT_NODE_STRUCT)
            CHECK(bitsift_node_child(parent, name) == n);
    }
    CHECK(bitsift_tree_find(t, "[0]") == NULL);
    CHECK(bitsift_tree_find(t, "no such") == NULL);
    CHECK(bitsift_tree_find(t, "x[") == NULL);
}

/* A visitor that stops the decode at its `left`-th callback. */
struct stop_after {
    unsigned left, calls;
    bool refused;
};

static bool stop_after_call(void *ctx, const bitsift_event *ev)
{
    struct stop_after *st = ctx;
    (void)ev;
    st->calls++;
    if (st->left == 0) {
        st->refused = true;
        return false;
    }
    st->left--;
    return true;
}

/* The value of another kind that replaces a value, by number. */
static bitsift_value other_kind(unsigned which)
{
    static const uint8_t raw[3] = {0xff, 0x00, 0x41};
    bitsift_value v;
    memset(&v, 0, sizeof v);
    switch (which % 8) {
    case 0: v.kind = BITSIFT_VALUE_FLOAT, v.f = 2.0f; break;
    case 1: v.kind = BITSIFT_VALUE_DOUBLE, v.d = 0.5; break;
    case 2: v.kind = BITSIFT_VALUE_STRING, v.data = (const uint8_t *)"one", v.size = 3; break;
    case 3: v.kind = BITSIFT_VALUE_BYTES, v.data = raw, v.size = sizeof raw; break;
    case 4: v.kind = BITSIFT_VALUE_INT, v.i = -1; break;
    case 5: v.kind = BITSIFT_VALUE_UINT, v.u = UINT64_MAX; break;
    case 6: v.kind = BITSIFT_VALUE_BOOL, v.b = true; break;
    default: v.kind = BITSIFT_VALUE_INT, v.i = INT64_MAX; break;
    }
    return v;
}

/* One input's random packets are bounded in all, in decoding work, so that
 * a schema of huge packets cannot make a run slow: each packet is encoded,
 * decoded and mutated several times. The work of a decode is counted as
 * the decoded tree's nodes plus the bits of its arrays that no element
 * holds (a sparse(flags) array reads a flag for every slot, present or
 * not): the steps the decoder takes. Bytes alone do not bound them, as a
 * packet of one-bit flags and elements packs eight steps into a byte.
 * Once the packets so far add up to ROUND_TRIP_WORK, the round trips
 * stop. What the validation checks may decode in all (each decode four
 * times: interpreter, decode, the program in both builds) is bounded
 * twice, in bytes and in work, and shared out among the packets as they
 * come: a packet of a few hundred bytes, where the edge cases are, gets
 * its 64 truncations and 16 bit flips from its share, large ones get
 * fewer. The examples and the seed corpus get the same checks as under
 * the budget of bytes alone. A schema of nested 1024-element arrays of
 * one-bit elements makes 40 KiB packets of 300,000 steps, whose checks,
 * unbounded, took 23 s a run under ASan, and 3.3 s under a budget of
 * bytes alone (fuzz/regressions/fuzz_schema/slow-nested-sparse-arrays). */
#define ROUND_TRIP_WORK (64u << 10)
#define VALIDATE_CHECK_BYTES (1u << 20)
#define VALIDATE_CHECK_WORK (2u << 20)

static size_t at_most(size_t n, size_t limit)
{
    return n < limit ? n : limit;
}

static size_t left_of(size_t share, size_t used)
{
    return share > used ? share - used : 0;
}

/* The steps of decoding the packet held in `t` (decoded, so that its
 * nodes have their bits): one a node, plus, in each array, one a bit that
 * no element holds. That is a sparse(flags) array's flag of each slot,
 * present or not; a count or an index (a few bits, overcounted) elsewhere. */
static uint64_t decode_work(const bitsift_tree *t)
{
    size_t nodes = bitsift_tree_node_count(t);
    uint64_t work = nodes;
    for (size_t i = 0; i < nodes; i++) {
        const bitsift_node *n = bitsift_tree_node(t, i);
        if (bitsift_node_kind_of(n) != BITSIFT_NODE_ARRAY)
            continue;
        uint64_t inside = 0;
        for (size_t k = 0; k < bitsift_node_child_count(n); k++)
            inside += bitsift_node_bits(bitsift_node_child_at(n, k));
        uint64_t bits = bitsift_node_bits(n);
        work += bits > inside ? bits - inside : 0;
    }
    return work;
}

/* The validation program against the interpreter on a valid packet, then
 * (as far as `share`, in bytes decoded, allows) in strict mode, on its
 * truncations and on bit flips chosen by `salt`; `packet` is restored
 * before returning. Returns the bytes decoded (at least `size`: the packet
 * itself is always checked). */
static size_t validate_mutations(const bitsift_schema *s, uint8_t *packet, size_t size,
                                 unsigned salt, size_t share)
{
    fuzz_validate_agrees(s, packet, size, 0);
    size_t used = size;
    if (size == 0 || left_of(share, used) < size)
        return used;
    fuzz_validate_agrees(s, packet, size, BITSIFT_DECODE_STRICT);
    used += size;
    /* A truncation decodes half the packet on average, a flip all of it. */
    size_t truncations = at_most(left_of(share, used) / size * 2, 64);
    if (truncations > 0) {
        size_t step = size / truncations + 1;
        for (size_t len = salt % step; len < size; len += step)
            fuzz_validate_agrees(s, packet, len, BITSIFT_DECODE_NO_CRC);
        used += truncations * (size / 2);
    }
    size_t flips = at_most(left_of(share, used) / size, 16);
    for (size_t k = 0; k < flips; k++) {
        size_t bit = ((size_t)salt * 2654435761u + k * 40503u) % (size * 8);
        packet[bit / 8] ^= (uint8_t)(1u << (bit % 8));
        fuzz_validate_agrees(s, packet, size, BITSIFT_DECODE_NO_CRC);
        packet[bit / 8] ^= (uint8_t)(1u << (bit % 8));
    }
    return used + flips * size;
}

/* Random valid packets of each type: encode -> decode -> encode. */
static void random_round_trips(const bitsift_schema *s, bitsift_tree *t, unsigned types)
{
    static const unsigned fills[] = {0, 50, 100};
    static uint8_t out[1 << 16], again[1 << 16];
    enum { FILLS = sizeof fills / sizeof fills[0] };
    size_t check_bytes = VALIDATE_CHECK_BYTES, check_work = VALIDATE_CHECK_WORK, packet_work = 0;
    unsigned rounds = (types < 8 ? types : 8) * FILLS, round = 0;
    bitsift_tree *back = bitsift_tree_create(s);
    CHECK(back != NULL);
    for (unsigned type = 0; type < types && type < 8 && packet_work < ROUND_TRIP_WORK; type++) {
        for (size_t f = 0; f < FILLS && packet_work < ROUND_TRIP_WORK; f++) {
            /* This round's shares of what is left, unused shares rolling over. */
            size_t share = check_bytes / (rounds - round);
            size_t work_share = check_work / (rounds - round++);
            if (bitsift_tree_random(t, type, 0x5EEDull + type, fills[f]) != BITSIFT_OK)
                continue;
            size_t out_size = 0, again_size = 0;
            bitsift_result enc, dec;
            if (bitsift_encode(s, t, out, sizeof out, &out_size, &enc) != BITSIFT_OK) {
                /* Only a packet larger than the buffer may fail. */
                CHECK(enc.status == BITSIFT_E_OVERFLOW || enc.status == BITSIFT_E_LIMIT);
                continue;
            }
            CHECK(bitsift_decode_tree(s, out, out_size, 0, back, &dec) == BITSIFT_OK);
            CHECK(dec.packet_type == (int)type);
            check_paths(back);
            /* A visitor that stops the decode: a valid packet read so far,
             * stopped exactly when a callback said so (with one kind of
             * callback, or all three). */
            unsigned calls_allowed = (type * 3 + (unsigned)f) % 9;
            struct stop_after st = {calls_allowed, 0, false};
            bitsift_visitor stop = {stop_after_call, NULL, NULL, &st};
            if (f % 2)
                stop.enter = stop.leave = stop_after_call;
            CHECK(bitsift_decode(s, out, out_size, 0, &stop, &dec) == BITSIFT_OK);
            CHECK(dec.stopped == st.refused && (!st.refused || st.calls == calls_allowed + 1));
            /* The validation checks' share in bytes, as far as the share
             * of work allows, and the work of the bytes they used. */
            uint64_t work = decode_work(back);
            packet_work += work;
            if (out_size > 0)
                share = at_most(share, (size_t)((uint64_t)work_share * out_size / work));
            size_t used = validate_mutations(s, out, out_size, type * 3 + (unsigned)f, share);
            check_bytes -= at_most(used, check_bytes);
            if (out_size > 0)
                check_work -= at_most((size_t)((uint64_t)used * work / out_size), check_work);
            CHECK(bitsift_encode(s, back, again, sizeof again, &again_size, &enc) == BITSIFT_OK);
            CHECK(again_size == out_size && memcmp(again, out, out_size) == 0);
            if (out_size > 0) {
                CHECK(bitsift_encode(s, t, again, out_size - 1, &again_size, &enc) ==
                      BITSIFT_E_OVERFLOW);
            }
            /* Values of other kinds, one at a time on up to 8 value nodes
             * spread over the tree (where they start chosen by the type
             * and fill), each put back after its encode. */
            size_t nodes = bitsift_tree_node_count(t), step = nodes / 8 + 1;
            unsigned tried = 0;
            for (size_t k = 0; k < nodes && tried < 8; k++) {
                bitsift_node *n = bitsift_tree_node(t, (k * step + type * 7 + f * 13) % nodes);
                if (bitsift_node_kind_of(n) != BITSIFT_NODE_VALUE)
                    continue;
                bitsift_value saved = *bitsift_node_value(n);
                bitsift_value v = other_kind(type * 3 + (unsigned)f + (unsigned)k + tried++);
                if (!bitsift_node_set_value(t, n, &v))
                    break;
                if (bitsift_encode(s, t, out, sizeof out, &out_size, &enc) == BITSIFT_OK)
                    CHECK(bitsift_decode_tree(s, out, out_size, 0, back, &dec) == BITSIFT_OK);
                else
                    CHECK(enc.status == BITSIFT_E_VALUE || enc.status == BITSIFT_E_STRING ||
                          enc.status == BITSIFT_E_OVERFLOW);
                CHECK(bitsift_node_set_value(t, n, &saved));
            }
            /* One node of another kind in a struct: an array where a
             * value stands, a value where a struct or an array does. */
            for (size_t k = 0; k < nodes; k++) {
                bitsift_node *n = bitsift_tree_node(t, (k + type * 5 + f * 3) % nodes);
                bitsift_node *parent = bitsift_node_parent(n);
                const char *name = bitsift_node_name(n);
                if (!parent || !name || bitsift_node_kind_of(parent) != BITSIFT_NODE_STRUCT)
                    continue;
                bitsift_value zero;
                memset(&zero, 0, sizeof zero);
                zero.kind = BITSIFT_VALUE_INT;
                bitsift_node *other = bitsift_node_kind_of(n) == BITSIFT_NODE_VALUE
                                          ? bitsift_node_add_array(t, parent, name)
                                          : bitsift_node_add_value(t, parent, name, &zero);
                if (!other)
                    break;
                if (bitsift_encode(s, t, out, sizeof out, &out_size, &enc) == BITSIFT_OK)
                    CHECK(bitsift_decode_tree(s, out, out_size, 0, back, &dec) == BITSIFT_OK);
                else
                    CHECK(enc.status == BITSIFT_E_VALUE || enc.status == BITSIFT_E_OVERFLOW);
                break;
            }
            /* One element more in an array: a struct or a value. */
            if (bitsift_tree_random(t, type, 0x5EEDull + type, fills[f]) != BITSIFT_OK)
                continue;
            nodes = bitsift_tree_node_count(t);
            for (size_t k = 0; k < nodes; k++) {
                bitsift_node *n = bitsift_tree_node(t, (k + type * 5 + f * 11) % nodes);
                if (bitsift_node_kind_of(n) != BITSIFT_NODE_ARRAY)
                    continue;
                bitsift_value zero;
                memset(&zero, 0, sizeof zero);
                zero.kind = BITSIFT_VALUE_INT;
                bool added = (type + f) % 2 ? bitsift_node_add_struct(t, n, NULL) != NULL
                                            : bitsift_node_add_value(t, n, NULL, &zero) != NULL;
                if (!added)
                    break;
                if (bitsift_encode(s, t, out, sizeof out, &out_size, &enc) == BITSIFT_OK)
                    CHECK(bitsift_decode_tree(s, out, out_size, 0, back, &dec) == BITSIFT_OK);
                else
                    CHECK(enc.status == BITSIFT_E_VALUE || enc.status == BITSIFT_E_OVERFLOW);
                break;
            }
        }
    }
    bitsift_tree_free(back);
}

/* bitsift_gen_options.stop of a run whose signal came before it began. */
static int always_stop(void)
{
    return 1;
}

static ssize_t discard(void *ctx, const char *buf, size_t size)
{
    (void)ctx;
    (void)buf;
    return (ssize_t)size;
}

/* Where printed layouts, dissectors and C code go: nowhere, without a
 * system call (a full buffer is dropped, not written to /dev/null). */
static FILE *null_sink(void)
{
    static FILE *sink;
    static char buffer[1 << 16];
    if (!sink) {
        sink = fopencookie(NULL, "w", (cookie_io_functions_t){.write = discard});
        if (sink)
            setvbuf(sink, buffer, _IOFBF, sizeof buffer);
    }
    return sink;
}

/* The API's answers to arguments that name nothing: out-of-range ids and
 * types, NULL pointers where the header allows them, a tree of no packet
 * type, and source spans inside the text the schema came from. */
static void check_edges(const bitsift_schema *s, const uint8_t *text, size_t size,
                        bitsift_tree *t)
{
    unsigned types = bitsift_schema_packet_count(s), fields = bitsift_schema_field_count(s);
    uint32_t version = 0;
    bool has_version = bitsift_schema_version(s, &version);
    CHECK(bitsift_schema_version(s, NULL) == has_version);
    CHECK(bitsift_schema_packet_index(s, NULL) == -1);
    CHECK(bitsift_schema_packet_index(s, "") == -1);
    CHECK(bitsift_schema_packet_min_bits(s, types) == 0);
    CHECK(bitsift_schema_packet_max_bits(s, types) == 0);
    CHECK(bitsift_schema_enum_name(s, fields, 0) == NULL);
    bitsift_field_source src;
    CHECK(!bitsift_schema_field_source(s, fields, &src));
    if (fields > 0) {
        CHECK(!bitsift_schema_field_info(s, 0, NULL));
        CHECK(!bitsift_schema_field_source(s, 0, NULL));
    }
    for (unsigned id = 0; id < fields && id < MAX_LOOKED_AT; id++) {
        bitsift_field_info info;
        CHECK(bitsift_schema_field_source(s, id, &src) && bitsift_schema_field_info(s, id, &info));
        CHECK(src.start <= src.end && src.end <= size);
        CHECK(src.type_start <= src.type_end && src.type_end <= size);
        CHECK(src.array_start <= src.array_end && src.array_end <= size);
        CHECK(src.cond_start <= src.cond_end && src.cond_end <= size);
        CHECK(src.body_start <= src.body_end && src.body_end <= size);
        CHECK(strcmp(bitsift_field_type_name(info.type), "unknown") != 0);
        /* An enum's names answer only for an enum field. */
        if (info.type != BITSIFT_FIELD_ENUM)
            CHECK(bitsift_schema_enum_name(s, id, info.min) == NULL);
    }
    CHECK(!bitsift_schema_print(s, NULL));
    CHECK(strcmp(bitsift_field_type_name(BITSIFT_FIELD_TYPE_COUNT), "unknown") == 0);
    CHECK(strcmp(bitsift_error_name(BITSIFT_ERROR_COUNT), "unknown") == 0);
    CHECK(strcmp(bitsift_error_string(BITSIFT_ERROR_COUNT), "unknown error") == 0);
    /* A failure with no reason nor field of its own still reads. */
    bitsift_failure bare;
    memset(&bare, 0, sizeof bare);
    bare.kind = BITSIFT_E_VALUE;
    char line[256];
    CHECK(bitsift_failure_format(&bare, line, sizeof line) > 0 && strstr(line, "value") != NULL);

    /* The dissector's options: a name of our own and ports, each refused
     * when it names nothing or too much. */
    FILE *sink = null_sink();
    if (sink) {
        static const uint16_t ports[2] = {7777, 27015};
        static const char *const bad_names[] = {
            "", "2fast", "has space", "dash-ed",
            "a123456789012345678901234567890123456789012345678901234567890123"};
        bitsift_gen_options o = {"game_2", ports, 2, 0, NULL, 0, NULL, NULL, 0, NULL};
        CHECK(bitsift_gen_wireshark(s, &o, sink) == BITSIFT_OK);
        CHECK(bitsift_gen_wireshark(NULL, &o, sink) == BITSIFT_E_ARGUMENT);
        CHECK(bitsift_gen_wireshark(s, &o, NULL) == BITSIFT_E_ARGUMENT);
        o.ports = NULL;
        CHECK(bitsift_gen_wireshark(s, &o, sink) == BITSIFT_E_ARGUMENT);
        o.ports = ports;
        o.port_count = BITSIFT_GEN_MAX_PORTS + 1;
        CHECK(bitsift_gen_wireshark(s, &o, sink) == BITSIFT_E_ARGUMENT);
        o.port_count = 2;
        /* Refused names, and those Wireshark refuses (one letter, a
         * filter keyword, a built-in protocol), each with its message. */
        static const char *const taken_names[] = {"x", "and", "udp"};
        char why_ws[128];
        o.error = why_ws;
        o.error_size = sizeof why_ws;
        for (size_t i = 0; i < sizeof bad_names / sizeof bad_names[0]; i++) {
            o.name = bad_names[i];
            why_ws[0] = '\0';
            CHECK(bitsift_gen_wireshark(s, &o, sink) == BITSIFT_E_ARGUMENT && why_ws[0]);
        }
        for (size_t i = 0; i < sizeof taken_names / sizeof taken_names[0]; i++) {
            o.name = taken_names[i];
            why_ws[0] = '\0';
            CHECK(bitsift_gen_wireshark(s, &o, sink) == BITSIFT_E_ARGUMENT && why_ws[0]);
        }
        o.error = NULL;
        o.error_size = 0;

        /* The C generator's: a name that is no identifier, nothing to
         * write to, and a struct size limit of 8 bytes, which refuses all
         * but the smallest schemas with a message. */
        char why[128];
        bitsift_gen_options c = {"game_2", NULL, 0, 8, why, sizeof why, NULL, NULL, 0, NULL};
        bitsift_error e = bitsift_gen_c(s, &c, sink, sink);
        CHECK(e == BITSIFT_OK || (e == BITSIFT_E_LIMIT && why[0]) || e == BITSIFT_E_SCHEMA);
        /* Asked to stop from the start (a signal at once): the generator
         * ends with "interrupted" as soon as it polls, or finishes if it
         * never needs to (nothing to name). */
        c.max_struct_bytes = 0;
        c.stop = always_stop;
        e = bitsift_gen_c(s, &c, sink, sink);
        CHECK(e == BITSIFT_OK || e == BITSIFT_E_SCHEMA || e == BITSIFT_E_ARGUMENT ||
              (e == BITSIFT_E_LIMIT && strcmp(why, "interrupted") == 0));
        c.stop = NULL;
        c.max_struct_bytes = 8;
        CHECK(bitsift_gen_c(NULL, &c, sink, sink) == BITSIFT_E_ARGUMENT);
        CHECK(bitsift_gen_c(s, &c, NULL, sink) == BITSIFT_E_ARGUMENT);
        CHECK(bitsift_gen_fuzz(s, &c, sink, sink, NULL) == BITSIFT_E_ARGUMENT);
        for (size_t i = 0; i < sizeof bad_names / sizeof bad_names[0]; i++) {
            c.name = bad_names[i];
            CHECK(bitsift_gen_c(s, &c, sink, sink) == BITSIFT_E_ARGUMENT);
            CHECK(bitsift_gen_fuzz(s, &c, sink, sink, sink) == BITSIFT_E_ARGUMENT);
        }
        /* A harness with no schema file: CRC re-sealing only (or the
         * default 16 MiB struct limit refused, as for 8660 sparse structs,
         * or a protocol name C cannot take as the prefix, as `_x`). */
        c.name = NULL;
        c.max_struct_bytes = 0;
        e = bitsift_gen_fuzz(s, &c, sink, sink, sink);
        CHECK(
            e == BITSIFT_OK ||
            ((e == BITSIFT_E_SCHEMA || e == BITSIFT_E_LIMIT || e == BITSIFT_E_ARGUMENT) && why[0]));
    }

    /* Trees. */
    CHECK(bitsift_tree_create(NULL) == NULL);
    bitsift_tree_free(NULL);
    CHECK(!bitsift_tree_reset(NULL, 0));
    CHECK(!bitsift_tree_reset(t, types));
    CHECK(bitsift_tree_random(NULL, 0, 1, 50) == BITSIFT_E_ARGUMENT);
    CHECK(bitsift_tree_random(t, types, 1, 50) == BITSIFT_E_ARGUMENT);
    CHECK(bitsift_tree_packet_type(NULL) == -1 && bitsift_tree_root(NULL) == NULL);
    CHECK(bitsift_tree_node_count(NULL) == 0 && bitsift_tree_node(NULL, 0) == NULL);
    CHECK(bitsift_tree_node(t, bitsift_tree_node_count(t)) == NULL);
    CHECK(bitsift_tree_find(NULL, "") == NULL && bitsift_tree_find(t, NULL) == NULL);
    CHECK(bitsift_node_child_count(NULL) == 0 && bitsift_node_child_at(NULL, 0) == NULL);
    CHECK(bitsift_node_child(NULL, "x") == NULL);
    char path[8] = "x";
    CHECK(bitsift_node_path(NULL, path, sizeof path) == 0 && path[0] == '\0');
    bitsift_value v;
    memset(&v, 0, sizeof v);
    v.kind = BITSIFT_VALUE_INT;
    CHECK(bitsift_node_add_value(NULL, NULL, "x", &v) == NULL);
    CHECK(!bitsift_node_set_value(NULL, NULL, &v));
    bitsift_node_set_index(NULL, 0);
    if (types > 0 && bitsift_tree_reset(t, 0)) {
        bitsift_node *root = bitsift_tree_root(t);
        CHECK(bitsift_node_child(root, NULL) == NULL);
        CHECK(bitsift_node_child_at(root, bitsift_node_child_count(root)) == NULL);
        /* A struct's children need a name, of at most the schema's
         * longest. */
        char longest[BITSIFT_SCHEMA_MAX_NAME + 2];
        memset(longest, 'n', sizeof longest - 1);
        longest[sizeof longest - 1] = '\0';
        CHECK(bitsift_node_add_struct(t, NULL, NULL) == NULL);
        CHECK(bitsift_node_add_array(t, root, "") == NULL);
        CHECK(bitsift_node_add_value(t, root, longest, &v) == NULL);
        longest[BITSIFT_SCHEMA_MAX_NAME] = '\0';
        bitsift_node *n = bitsift_node_add_value(t, root, longest, &v);
        CHECK(n != NULL && bitsift_node_child(root, longest) == n);
        /* A value holds no children and only a value of known size. */
        CHECK(bitsift_node_add_value(t, n, "x", &v) == NULL);
        CHECK(!bitsift_node_set_value(t, n, NULL) && !bitsift_node_set_value(t, root, &v));
        v.kind = BITSIFT_VALUE_BYTES;
        v.size = 1;
        CHECK(!bitsift_node_set_value(t, n, &v));
        v.size = (size_t)BITSIFT_SCHEMA_MAX_BYTES + 1;
        v.data = text;
        CHECK(!bitsift_node_set_value(t, n, &v));
    }

    /* Decoding and encoding without what they need. */
    static uint8_t out[64];
    size_t out_size = 1;
    bitsift_result res;
    CHECK(bitsift_decode(NULL, out, sizeof out, 0, NULL, &res) == BITSIFT_E_ARGUMENT);
    CHECK(bitsift_decode(s, NULL, 1, 0, NULL, &res) == BITSIFT_E_ARGUMENT);
    CHECK(bitsift_decode(s, out, sizeof out, BITSIFT_DECODE_NO_CRC, NULL, NULL) ==
          bitsift_decode(s, out, sizeof out, BITSIFT_DECODE_NO_CRC, NULL, &res));
    CHECK(bitsift__decode_interpreted(s, NULL, 1, 0, NULL) == BITSIFT_E_ARGUMENT);
    CHECK(bitsift__validate_program(NULL, out, sizeof out, 0, &res) == -1);
    CHECK(bitsift__validate_program(s, NULL, 1, 0, &res) != 1);
    CHECK(bitsift_decode_tree(NULL, out, sizeof out, 0, t, &res) == BITSIFT_E_ARGUMENT);
    CHECK(bitsift_decode_tree(s, NULL, 1, 0, t, NULL) == BITSIFT_E_ARGUMENT);
    CHECK(bitsift_encode(NULL, t, out, sizeof out, &out_size, &res) == BITSIFT_E_ARGUMENT);
    CHECK(out_size == 0);
    CHECK(bitsift_encode(s, NULL, out, sizeof out, NULL, NULL) == BITSIFT_E_ARGUMENT);
    CHECK(bitsift_encode(s, t, NULL, 1, NULL, &res) == BITSIFT_E_ARGUMENT);
    const bitsift_schema *both[2] = {NULL, s};
    CHECK(bitsift_detect(NULL, 1, out, sizeof out) == -1);
    CHECK(bitsift_detect(both, 2, NULL, 1) == -1);
    int found = bitsift_detect(both, 2, out, sizeof out);
    CHECK(found == -1 || found == 1);
}

/* What an accepted schema is held to besides the checks that cost little
 * (introspection, the two simple buffers, empty trees): under a fuzzing
 * engine one of these an input, chosen by a hash of its bytes
 * (check_choice.h), so that a finding replays the same way; the replay
 * programs run all three on every input. */
enum stage {
    STAGE_GENERATE,    /* layout printed, Wireshark dissector, C code and harness */
    STAGE_ROUND_TRIPS, /* random packets and what is done with them */
    STAGE_EDGES,       /* the API's edges, the generators' options */
    STAGES
};

static void exercise(const bitsift_schema *s, const uint8_t *text, size_t size, enum stage stage)
{
    CHECK(bitsift_schema_name(s) != NULL);
    (void)bitsift_schema_protocol_id(s);
    const bitsift_framing *f = bitsift_schema_framing(s);
    CHECK(f != NULL);

    unsigned types = bitsift_schema_packet_count(s);
    CHECK(types <= BITSIFT_SCHEMA_MAX_TYPES);
    CHECK(bitsift_schema_packet_name(s, types) == NULL);
    for (unsigned t = 0; t < types && t < MAX_LOOKED_AT; t++) {
        const char *name = bitsift_schema_packet_name(s, t);
        CHECK(name != NULL);
        CHECK(bitsift_schema_packet_index(s, name) == (int)t);
        CHECK(bitsift_schema_packet_min_bits(s, t) <= bitsift_schema_packet_max_bits(s, t));
    }

    unsigned fields = bitsift_schema_field_count(s);
    bitsift_field_info info;
    CHECK(!bitsift_schema_field_info(s, fields, &info));
    for (unsigned id = 0; id < fields && id < MAX_LOOKED_AT; id++) {
        CHECK(bitsift_schema_field_info(s, id, &info));
        CHECK(info.name != NULL && info.path != NULL);
        CHECK((unsigned)info.type < BITSIFT_FIELD_TYPE_COUNT);
        CHECK(info.packet_type < types);
        CHECK(info.parent < (int)id);
        CHECK(info.min_bits <= info.max_bits);
        if (info.type == BITSIFT_FIELD_ENUM)
            (void)bitsift_schema_enum_name(s, id, info.min);
    }

    FILE *sink = null_sink();
    if (sink && (FUZZ_EVERY_CHECK || stage == STAGE_GENERATE)) {
        CHECK(bitsift_schema_print(s, sink));
        /* The dissector generator refuses only a protocol name Wireshark
         * would refuse (one character, a built-in protocol's). */
        bitsift_error w = bitsift_gen_wireshark(s, NULL, sink);
        CHECK(w == BITSIFT_OK || w == BITSIFT_E_ARGUMENT);
        /* The C generator writes every schema or refuses it, saying why;
         * with the schema's text, its comments go along. */
        char why[256] = "";
        bitsift_gen_options c = {NULL, NULL, 0, 0, why, sizeof why, "game.bss",
                                 (const char *)text, size, NULL};
        bitsift_error e = bitsift_gen_fuzz(s, &c, sink, sink, sink);
        CHECK(e == BITSIFT_OK || e == BITSIFT_E_LIMIT || e == BITSIFT_E_SCHEMA ||
              (e == BITSIFT_E_ARGUMENT && why[0]));
        CHECK(e == BITSIFT_OK || (why[0] && memchr(why, 0, sizeof why)));
    }

    /* The compiled ops on two simple buffers. */
    static uint8_t buf[512];
    bitsift_tree *t = bitsift_tree_create(s);
    CHECK(t != NULL);
    for (int fill = 0; fill < 2; fill++) {
        memset(buf, fill ? 0xff : 0x00, sizeof buf);
        bitsift_result res;
        bitsift_decode_tree(s, buf, sizeof buf, BITSIFT_DECODE_NO_CRC, t, &res);
        CHECK(res.bits <= sizeof buf * 8);
        fuzz_validate_agrees(s, buf, sizeof buf, BITSIFT_DECODE_NO_CRC);
        if (res.status == BITSIFT_OK) {
            static uint8_t out[1 << 16];
            size_t out_size;
            bitsift_result enc;
            bitsift_encode(s, t, out, sizeof out, &out_size, &enc);
            if (enc.status == BITSIFT_OK)
                CHECK(out_size <= sizeof out);
        }
    }
    for (unsigned type = 0; type < types && type < 8; type++) {
        /* An empty tree of each type: the encoder must fail cleanly or
         * write a packet the decoder accepts. */
        static uint8_t out[1 << 16];
        size_t out_size = 0;
        bitsift_result enc, dec;
        CHECK(bitsift_tree_reset(t, type));
        if (bitsift_encode(s, t, out, sizeof out, &out_size, &enc) == BITSIFT_OK) {
            bitsift_decode(s, out, out_size, 0, NULL, &dec);
            CHECK(dec.status == BITSIFT_OK && dec.packet_type == (int)type);
        }
    }
    if (FUZZ_EVERY_CHECK || stage == STAGE_ROUND_TRIPS)
        random_round_trips(s, t, types);
    if (FUZZ_EVERY_CHECK || stage == STAGE_EDGES)
        check_edges(s, text, size, t);
    bitsift_tree_free(t);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint32_t hash = fuzz_input_hash(data, size);
    bitsift_schema_error err;
    bitsift_schema *s = bitsift_schema_compile((const char *)data, size, "fuzz.bss", &err);
    /* Without a file name or an error to fill, the same decision: a
     * second compile, which a fuzzing engine gives one input in four. */
    if (FUZZ_EVERY_CHECK || (hash / STAGES) % 4 == 0) {
        bitsift_schema *plain = bitsift_schema_compile((const char *)data, size, NULL, NULL);
        CHECK((plain != NULL) == (s != NULL));
        bitsift_schema_free(plain);
    }
    /* Files that hold no schema, once: no path, no such file, a
     * directory (a read error), an empty file. */
    static bool files_checked;
    if (!files_checked) {
        static const char *const paths[] = {"/nonexistent/fuzz.bss", "/", "/dev/null"};
        bitsift_schema_error file_err;
        CHECK(bitsift_schema_load_file(NULL, &file_err) == NULL && file_err.kind != BITSIFT_OK);
        for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++) {
            CHECK(bitsift_schema_load_file(paths[i], &file_err) == NULL);
            CHECK(file_err.kind != BITSIFT_OK && file_err.message[0] != '\0');
        }
        files_checked = true;
    }
    /* No text, or more than a schema may be: refused, with a kind. */
    bitsift_schema_error none;
    CHECK(bitsift_schema_compile(NULL, 1, NULL, &none) == NULL && none.kind != BITSIFT_OK);
    CHECK(bitsift_schema_compile(NULL, (size_t)BITSIFT_SCHEMA_MAX_TEXT + 1, NULL, &none) == NULL &&
          none.kind != BITSIFT_OK);
    if (!s) {
        CHECK(err.kind != BITSIFT_OK);
        CHECK(memchr(err.message, 0, sizeof err.message) != NULL && err.message[0] != '\0');
        size_t lines = 1;
        for (size_t i = 0; i < size; i++)
            lines += data[i] == '\n';
        CHECK(err.line <= lines + 1);
        return 0;
    }
    exercise(s, data, size, (enum stage)(hash % STAGES));
    bitsift_schema_free(s);
    return 0;
}
