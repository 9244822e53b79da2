/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * boundary_test.c -- the limits the schema code decides on, tested on both
 * sides of each, where an off-by-one would go unseen by packets that stay
 * clear of the edge. TAP output.
 *
 *  1. A chain of `if (x == v)` on one field becomes a table jump in the
 *     validation program when the values span at most VP_SWITCH_SPAN (64,
 *     lib/schema_validate.c): 64 cases are a switch, 65 are not (the
 *     builder has room for 64 jumps). For chains of 63, 64 and 65 cases,
 *     from 0 and from a negative value, every value of the field (cases,
 *     gaps, around the ends) must be decided by the program as the op
 *     interpreter decides it, with the same bits and fields.
 *  2. A relative sparse index runs up to the array's size (the ladder may
 *     land on it); the size itself is "sparse index beyond the array"
 *     (expected size - 1), one below is the last element. An absolute
 *     index equal to the previous one is "not above the previous one".
 *     Through the visitor decoder, the validation program and the tree;
 *     a tree has nodes 0..count-1 and no node `count`.
 *  3. An unsigned value converts to a signed field up to INT64_MAX
 *     exactly; one more is "value too large" (a bits(64) field takes it).
 *     A double converts when integral and within +-9.2e18, both ends
 *     included; beyond is "not an integer".
 *  4. Random trees: an object index steps at most 1/16 of the room left
 *     below max_objects, at least 1: with 32 left, +1 or +2, both seen.
 *  5. Slots are numbered from 0: a field in a branch not taken takes its
 *     default for later conditions when it holds slot 0 as well.
 *  6. An object index's last tier steps up to max_objects + 1, which from
 *     -1 lands on max_objects itself: valid; one step more is not.
 *  7. Field ids run 0..count-1: the last one answers, count does not.
 *  8. A failure's path fills BITSIFT_PATH_MAX exactly (1023 characters and
 *     the NUL) with an element index; one character more drops the index.
 *  9. A check name is at most 255 bytes (the compiler's buffer holds 256
 *     with the NUL): 255 compiles to its hash, 256 is refused.
 * 10. Relative fields with a value list, which the validation program
 *     reads through its leaf fallback: each ladder read as its own kind,
 *     the values in the list taken and the others refused.
 * 11. An enum whose one value is the top raw value of its width: the
 *     program's window of one value at the top passes it, as the
 *     interpreter does, over every 1-byte packet.
 * 12. A relative integer in its absolute form lies above its base: the
 *     base is refused, one above it taken (program and interpreter).
 * 13. A negated literal (!false, !true, !0) as a condition holds or not
 *     whatever the fields hold: its operand is a constant, not a slot.
 * 14. Each shape of a condition on one field (k, !k, k == c, k != c,
 *     k >= c, !!k) decided as written, by every path, for every value of k.
 * 15. Random trees whose relative bases sit at the ends of their ranges
 *     (sequence and ack from 0 and 65535, an object index with one slot of
 *     room, an integer below INT32_MAX) are made, encode and decode.
 * 16. BITSIFT_SCHEMA_MAX_OPS (65536) ops compile, one more is refused.
 * 17. A default at each end of its field's range compiles, one beyond
 *     is refused (bool, bits(3), int(-2, 2)); -0 is 0.
 * 18. field_info's ranges: an integer's and an enum's as written, an
 *     array's 0..size, a byte string's buffer, an object index's maximum.
 * 19. A decoded smallest_three(31) component at the top of its width
 *     (2^31 - 1) is written back as that integer: decode, encode, same
 *     bytes.
 * 20. BITSIFT_SCHEMA_MAX_TYPES (1024) packet types compile, 1025 do not.
 * 21. '#' and '//' comments with two-byte UTF-8 from U+0080 (C2 80) on
 *     compile; a lone '/' is no comment.
 * 22. int_relative(0) encodes INT32_MAX (absolute) and refuses one more.
 * 23. Struct names that fill the compiler's path buffer exactly
 *     (BITSIFT_PATH_MAX - 1 characters) all go onto a field's path; one
 *     more character and the innermost is left off.
 * 24. A schema text that ends in '/', or in a backslash inside a string,
 *     handed over in a buffer of exactly its size (nothing after it, no
 *     NUL): refused, and the lexer never looks at the byte past the end
 *     for a second '/' or the escaped character (the ASan build of this
 *     test sees such a read).
 * 25. A struct node added under a name it already holds replaces that
 *     child, also when it is the first child (index 0): the count stays.
 * 26. A constant base at the ends of its range: an object index's and an
 *     int_relative's take INT32_MIN and INT32_MAX, a sequence's and an
 *     ack's 0 and 65535; one beyond either end is refused.
 * 27. An array at nesting level BITSIFT_SCHEMA_MAX_DEPTH (inside 31
 *     nested ifs) compiles; inside 32 it is refused as too deep.
 * 28. Fields of one value (int(5, 5), an enum of one named value, a value
 *     list on it, then a condition on them) read no bits and are decided
 *     by the validation program as by the interpreter, over every packet
 *     of 0 and 1 bytes.
 * 29. An enum value's name of exactly BITSIFT_SCHEMA_MAX_NAME bytes is
 *     kept when set on a tree node; one byte more is dropped.
 * 30. A node's path fills a buffer of exactly its length + 1 bytes; one
 *     byte less and it is cut, NUL-terminated.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bitsift_testing.h"

static int test_count, failed_count;

static void tap(bool ok, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
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

static bitsift_schema *compile(const char *text)
{
    bitsift_schema_error err;
    bitsift_schema *s = bitsift_schema_compile(text, strlen(text), "boundary", &err);
    if (!s) {
        printf("# schema does not compile: %s\n", err.message);
        printf("%s", text);
    }
    return s;
}

static bool count_field_visit(void *ctx, const bitsift_event *ev)
{
    (void)ctx;
    (void)ev;
    return true;
}

/* Decode `packet` three ways: the visitor decoder, the validation program
 * (the hook that reports the program's own decision) and the op
 * interpreter; the results must agree in every field. *res gets the
 * visitor decoder's. */
static bool decode_all_ways(const bitsift_schema *s, const uint8_t *packet, size_t size,
                            bitsift_result *res, char *why, size_t why_size)
{
    static const bitsift_visitor visitor = {.field = count_field_visit};
    bitsift_result program, interpreted;
    bitsift_decode(s, packet, size, 0, &visitor, res);
    int decided = bitsift__validate_program(s, packet, size, 0, &program);
    bitsift__decode_interpreted(s, packet, size, 0, &interpreted);
    if (decided < 0) {
        snprintf(why, why_size, "the schema has no validation program");
        return false;
    }
    if ((decided == 1) != (interpreted.status == BITSIFT_OK)) {
        snprintf(why, why_size, "program says %s, interpreter %s", decided ? "valid" : "invalid",
                 bitsift_error_name(interpreted.status));
        return false;
    }
    if (decided == 1 && (program.bits != interpreted.bits || program.fields != interpreted.fields)) {
        snprintf(why, why_size, "program read %llu bits %llu fields, interpreter %llu %llu",
                 (unsigned long long)program.bits, (unsigned long long)program.fields,
                 (unsigned long long)interpreted.bits, (unsigned long long)interpreted.fields);
        return false;
    }
    if (res->status != interpreted.status || res->bits != interpreted.bits ||
        res->fields != interpreted.fields) {
        snprintf(why, why_size, "visitor decode %s at %llu, interpreter %s at %llu",
                 bitsift_error_name(res->status), (unsigned long long)res->bits,
                 bitsift_error_name(interpreted.status), (unsigned long long)interpreted.bits);
        return false;
    }
    /* A NULL visitor takes the program and must report as the interpreter. */
    bitsift_result fast;
    bitsift_decode(s, packet, size, 0, NULL, &fast);
    if (fast.status != interpreted.status || fast.bits != interpreted.bits ||
        fast.fields != interpreted.fields ||
        (fast.status != BITSIFT_OK &&
         (fast.failure.bit != interpreted.failure.bit ||
          strcmp(fast.failure.why ? fast.failure.why : "", interpreted.failure.why ? interpreted.failure.why : "") != 0))) {
        snprintf(why, why_size, "validate-only decode %s at %llu (%s), interpreter %s at %llu (%s)",
                 bitsift_error_name(fast.status), (unsigned long long)fast.failure.bit,
                 fast.failure.why ? fast.failure.why : "", bitsift_error_name(interpreted.status),
                 (unsigned long long)interpreted.failure.bit,
                 interpreted.failure.why ? interpreted.failure.why : "");
        return false;
    }
    return true;
}

/* -- 1. the switch span ----------------------------------------------- */

/* A packet: int(lo - 8, lo + 72) x, then `cases` ifs on x == lo + k, each
 * body a field of its own width (so that a wrong case shows in the bits
 * read) and a nested if (so that no case is a single run), then a tail. */
static char *chain_schema(int cases, int lo)
{
    size_t cap = 256 + (size_t)cases * 160, len = 0;
    char *text = malloc(cap);
    if (!text)
        return NULL;
    len += (size_t)snprintf(text + len, cap - len,
                            "protocol span { id 9; crc off; end_check off; }\n"
                            "packet p {\n    int(%d, %d) x;\n    bool flag;\n",
                            lo - 8, lo + 72);
    for (int k = 0; k < cases; k++)
        len += (size_t)snprintf(text + len, cap - len,
                                "    if (x == %d) { bits(%d) f%d; if (flag) { bool g%d; } }\n",
                                lo + k, 1 + k % 13, k, k);
    snprintf(text + len, cap - len, "    uint8 tail;\n}\n");
    return text;
}

static void test_switch_span(int cases, int lo)
{
    char *text = chain_schema(cases, lo);
    bitsift_schema *s = text ? compile(text) : NULL;
    free(text);
    tap(s != NULL, "%d cases from %d: schema compiles", cases, lo);
    if (!s)
        return;
    /* Every value of x, with the flag set and clear, over two payloads:
     * zeros and ones. */
    int wrong = 0;
    char why[256] = "";
    for (int x = lo - 8; x <= lo + 72 && !wrong; x++)
        for (int flag = 0; flag <= 1 && !wrong; flag++)
            for (int fill = 0; fill <= 1 && !wrong; fill++) {
                uint8_t packet[8];
                bitsift_writer w;
                bitsift_writer_init(&w, packet, sizeof packet);
                bitsift_write_int(&w, lo - 8, lo + 72, x);
                bitsift_write_bool(&w, flag);
                bitsift_write_bits(&w, 32, fill ? 0xffffffffu : 0);
                bitsift_write_bits(&w, 20, fill ? 0xfffffu : 0);
                bitsift_result res;
                if (!decode_all_ways(s, packet, sizeof packet, &res, why, sizeof why)) {
                    printf("# x = %d, flag %d, fill %d: %s\n", x, flag, fill, why);
                    wrong++;
                    continue;
                }
                /* In a case, the body's field was read: 7 bits of x, the
                 * flag, the body (and g when flagged), the tail. */
                bool in_case = x >= lo && x < lo + cases;
                uint64_t bits = 7 + 1 + 8 +
                                (in_case ? (uint64_t)(1 + (x - lo) % 13) + (uint64_t)flag : 0);
                if (res.status != BITSIFT_OK || res.bits != bits) {
                    printf("# x = %d, flag %d: %s after %llu bits, expected ok after %llu\n", x,
                           flag, bitsift_error_name(res.status), (unsigned long long)res.bits,
                           (unsigned long long)bits);
                    wrong++;
                }
            }
    tap(wrong == 0, "%d cases from %d: every value decided by the program as by the interpreter",
        cases, lo);
    bitsift_schema_free(s);
}

/* -- 2. sparse index messages ----------------------------------------- */

/* object_index's ladder from `previous` to `index` in an array of 8: the
 * delta d as `1` (d = 1), `01` + int(d, 2, 5) or `001` + int(d, 6, 13). */
static void write_relative(bitsift_writer *w, int previous, int index)
{
    int d = index - previous;
    if (d == 1) {
        bitsift_write_bool(w, true);
    } else if (d <= 5) {
        bitsift_write_bool(w, false);
        bitsift_write_bool(w, true);
        bitsift_write_int(w, 2, 5, d);
    } else {
        bitsift_write_bool(w, false);
        bitsift_write_bool(w, false);
        bitsift_write_bool(w, true);
        bitsift_write_int(w, 6, 13, d);
    }
}

/* A packet of `n` elements at `indices` (relative or absolute), each
 * followed by its uint8 value, after the packet type (one bit: rel, abs).
 * Returns its size in bytes. */
static size_t sparse_packet(uint8_t *buf, size_t cap, bool relative, int n, const int *indices)
{
    bitsift_writer w;
    bitsift_writer_init(&w, buf, cap);
    memset(buf, 0, cap);
    bitsift_write_bool(&w, !relative);
    bitsift_write_int(&w, 0, 8, n);
    int previous = -1;
    for (int k = 0; k < n; k++) {
        if (relative)
            write_relative(&w, previous, indices[k]);
        else
            bitsift_write_bits(&w, 3, (uint64_t)indices[k]);
        bitsift_write_uint8(&w, (uint8_t)(0x40 + k));
        previous = indices[k];
    }
    bitsift_write_align(&w);
    return bitsift_writer_bytes(&w);
}

struct sparse_case {
    const char *name;
    bool relative;
    int n;
    int indices[3];
    const char *why;      /* NULL: the packet is valid */
    uint64_t bit;         /* where the failing index starts */
    uint64_t expected, got;
};

static void test_sparse_messages(void)
{
    static const char text[] = "protocol sp { id 3; crc off; end_check off; }\n"
                               "packet rel { uint8 e[8] sparse(relative); }\n"
                               "packet abs { uint8 e[8] sparse(indices); }\n";
    bitsift_schema *s = compile(text);
    tap(s != NULL, "sparse schema compiles");
    if (!s)
        return;
    /* Relative: count in 4 bits; index 7 from -1 is d = 8 (3 + 3 bits),
     * index 8 is d = 9; from 7, +1 (1 bit) is 8. Absolute: 3 bits. */
    static const struct sparse_case cases[] = {
        {"relative: last element (size - 1)", true, 1, {7}, NULL, 0, 0, 0},
        {"relative: index = size", true, 1, {8}, "sparse index beyond the array", 4, 7, 8},
        {"relative: size after the last", true, 2, {7, 8}, "sparse index beyond the array",
         4 + 6 + 8, 7, 8},
        {"relative: size - 1 after size - 2", true, 2, {6, 7}, NULL, 0, 0, 0},
        {"absolute: increasing", false, 2, {3, 4}, NULL, 0, 0, 0},
        {"absolute: index = previous", false, 2, {5, 5}, "sparse index not above the previous one",
         4 + 3 + 8, 6, 5},
        {"absolute: index below previous", false, 2, {5, 4},
         "sparse index not above the previous one", 4 + 3 + 8, 6, 4},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        const struct sparse_case *k = &cases[c];
        uint8_t framed[16];
        size_t size = sparse_packet(framed, sizeof framed, k->relative, k->n, k->indices);
        bitsift_result res;
        char why[256] = "";
        bool agree = decode_all_ways(s, framed, size, &res, why, sizeof why);
        if (!agree)
            printf("# %s: %s\n", k->name, why);
        bool ok = agree;
        if (!k->why) {
            ok = ok && res.status == BITSIFT_OK && res.fields == (uint64_t)k->n;
            if (!ok)
                printf("# %s after %llu fields\n", bitsift_error_name(res.status), (unsigned long long)res.fields);
        } else {
            /* +1: the packet-type bit before the payload. */
            ok = ok && res.status == BITSIFT_E_RANGE && res.failure.why &&
                 strcmp(res.failure.why, k->why) == 0 && res.failure.bit == 1 + k->bit &&
                 res.failure.expected == k->expected && res.failure.got == k->got;
            if (!ok)
                printf("# got %s at bit %llu: %s (expected %llu, got %llu)\n",
                       bitsift_error_name(res.status), (unsigned long long)res.failure.bit,
                       res.failure.why ? res.failure.why : "", (unsigned long long)res.failure.expected,
                       (unsigned long long)res.failure.got);
        }
        /* The tree decoder reaches the same verdict. */
        bitsift_tree *t = bitsift_tree_create(s);
        if (t) {
            bitsift_result tres;
            bitsift_decode_tree(s, framed, size, 0, t, &tres);
            ok = ok && tres.status == res.status &&
                 (!k->why || (tres.failure.why && strcmp(tres.failure.why, k->why) == 0));
            /* Nodes are numbered 0..count-1: count itself is none. */
            size_t count = bitsift_tree_node_count(t);
            ok = ok && count > 0 && bitsift_tree_node(t, count - 1) != NULL &&
                 bitsift_tree_node(t, count) == NULL;
            bitsift_tree_free(t);
        }
        tap(ok, "%s: %s", k->name, k->why ? k->why : "valid");
    }
    bitsift_schema_free(s);
}

/* -- 3. unsigned values into signed fields ----------------------------- */

static void test_uint_conversion(void)
{
    static const char text[] = "protocol u { id 4; crc off; end_check off; }\n"
                               "packet p { int(-9223372036854775808, 9223372036854775807) any;"
                               " bits(64) raw; }\n";
    bitsift_schema *s = compile(text);
    tap(s != NULL, "uint schema compiles");
    if (!s)
        return;
    static const struct {
        uint64_t any, raw;
        bool ok;
    } cases[] = {
        {(uint64_t)INT64_MAX, UINT64_MAX, true},
        {(uint64_t)INT64_MAX - 1, 0, true},
        {(uint64_t)INT64_MAX + 1, 0, false},
        {UINT64_MAX, 0, false},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        bitsift_tree *t = bitsift_tree_create(s);
        bool ok = t && bitsift_tree_reset(t, 0);
        bitsift_value v = {.kind = BITSIFT_VALUE_UINT};
        v.u = cases[c].any;
        ok = ok && bitsift_node_add_value(t, NULL, "any", &v);
        v.u = cases[c].raw;
        ok = ok && bitsift_node_add_value(t, NULL, "raw", &v);
        uint8_t out[32];
        size_t size = 0;
        bitsift_result res;
        bitsift_error e = ok ? bitsift_encode(s, t, out, sizeof out, &size, &res) : BITSIFT_E_NOMEM;
        if (cases[c].ok) {
            /* It decodes back to the same number, as a signed value. */
            bitsift_result dres;
            ok = ok && e == BITSIFT_OK && bitsift_decode_tree(s, out, size, 0, t, &dres) == BITSIFT_OK;
            const bitsift_node *n = ok ? bitsift_tree_find(t, "any") : NULL;
            const bitsift_value *got = n ? bitsift_node_value(n) : NULL;
            ok = ok && got && got->i == (int64_t)cases[c].any;
        } else {
            ok = ok && e == BITSIFT_E_VALUE && res.failure.why &&
                 strcmp(res.failure.why, "value too large") == 0;
        }
        if (!ok)
            printf("# encode %s: %s\n", bitsift_error_name(e), e ? (res.failure.why ? res.failure.why : "") : "");
        tap(ok, "uint %llu into int(INT64_MIN, INT64_MAX): %s", (unsigned long long)cases[c].any,
            cases[c].ok ? "written and read back" : "value too large");
        bitsift_tree_free(t);
    }
    bitsift_schema_free(s);
}

/* Doubles into the same field: the ends of the range the encoder takes. */
static void test_double_conversion(void)
{
    static const char text[] = "protocol d { id 4; crc off; end_check off; }\n"
                               "packet p { int(-9223372036854775808, 9223372036854775807) any; }\n";
    bitsift_schema *s = compile(text);
    if (!s)
        return;
    static const struct {
        double d;
        bool ok;
    } cases[] = {{-9.2e18, true}, {9.2e18, true}, {-9.3e18, false}, {9.3e18, false}, {0.5, false}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        bitsift_tree *t = bitsift_tree_create(s);
        bitsift_value v = {.kind = BITSIFT_VALUE_DOUBLE};
        v.d = cases[c].d;
        bool ok = t && bitsift_tree_reset(t, 0) && bitsift_node_add_value(t, NULL, "any", &v);
        uint8_t out[16];
        size_t size = 0;
        bitsift_result res;
        bitsift_error e = ok ? bitsift_encode(s, t, out, sizeof out, &size, &res) : BITSIFT_E_NOMEM;
        if (cases[c].ok) {
            bitsift_result dres;
            ok = ok && e == BITSIFT_OK && bitsift_decode_tree(s, out, size, 0, t, &dres) == BITSIFT_OK;
            const bitsift_node *n = ok ? bitsift_tree_find(t, "any") : NULL;
            ok = ok && n && bitsift_node_value(n)->i == (int64_t)cases[c].d;
        } else {
            ok = ok && e == BITSIFT_E_VALUE && res.failure.why &&
                 strcmp(res.failure.why, "not an integer") == 0;
        }
        tap(ok, "double %g into int(INT64_MIN, INT64_MAX): %s", cases[c].d,
            cases[c].ok ? "written and read back" : "not an integer");
        bitsift_tree_free(t);
    }
    bitsift_schema_free(s);
}

/* -- 4. random object indices ------------------------------------------ */

static void test_random_object_index(void)
{
    /* Base 0: 32 and 31 left below max_objects. */
    static const char text[] = "protocol r { id 6; crc off; end_check off; }\n"
                               "packet wide { object_index(0, 32) o; }\n"
                               "packet narrow { object_index(0, 31) o; }\n";
    bitsift_schema *s = compile(text);
    tap(s != NULL, "object index schema compiles");
    if (!s)
        return;
    bitsift_tree *t = bitsift_tree_create(s);
    for (unsigned type = 0; type < 2 && t; type++) {
        int64_t top = type == 0 ? 2 : 1; /* base + max(1, room / 16) */
        bool seen[3] = {false, false, false}, in_range = true;
        for (uint64_t seed = 1; seed <= 200; seed++) {
            if (bitsift_tree_random(t, type, seed, 50) != BITSIFT_OK) {
                in_range = false;
                break;
            }
            const bitsift_node *n = bitsift_tree_find(t, "o");
            int64_t o = n ? bitsift_node_value(n)->i : -1;
            if (o < 1 || o > top)
                in_range = false;
            else
                seen[o] = true;
        }
        tap(in_range && seen[1] && seen[top], "random object_index(0, %d): steps 1..%lld, each seen",
            type == 0 ? 32 : 31, (long long)top);
    }
    bitsift_tree_free(t);
    bitsift_schema_free(s);
}

/* -- 5. slot 0 in a branch not taken ---------------------------------- */

static void test_default_in_slot_zero(void)
{
    /* k is the first field referred to (slot 0); its branch is never
     * taken, so the second if sees its default, 2, and reads y. */
    static const char text[] = "protocol z { id 8; crc off; end_check off; }\n"
                               "packet p { if (1 == 2) { int(0, 3) k default 2; }\n"
                               "           if (k == 2) { bool y; } bool w; }\n";
    bitsift_schema *s = compile(text);
    tap(s != NULL, "slot 0 schema compiles");
    if (!s)
        return;
    const uint8_t packet[1] = {0x03};
    bitsift_result res;
    char why[256] = "";
    bool ok = decode_all_ways(s, packet, sizeof packet, &res, why, sizeof why);
    if (!ok)
        printf("# %s\n", why);
    ok = ok && res.status == BITSIFT_OK && res.bits == 2 && res.fields == 2;
    if (!ok)
        printf("# %s after %llu bits, %llu fields\n", bitsift_error_name(res.status),
               (unsigned long long)res.bits, (unsigned long long)res.fields);
    tap(ok, "a branch not taken sets its slot-0 field's default for a later condition");
    bitsift_schema_free(s);
}

/* -- 6. the object index's largest step ----------------------------- */

static void test_object_index_top(void)
{
    /* From -1 to at most 300: the last tier is int(126, 301), 8 bits. */
    static const char text[] = "protocol o { id 2; crc off; end_check off; }\n"
                               "packet p { object_index(-1, 300) o; bool after; }\n";
    bitsift_schema *s = compile(text);
    tap(s != NULL, "object index schema compiles");
    if (!s)
        return;
    for (int64_t d = 299; d <= 302; d++) {
        uint8_t packet[4] = {0};
        bitsift_writer w;
        bitsift_writer_init(&w, packet, sizeof packet);
        bitsift_write_bits(&w, 6, 0); /* no short tier */
        bitsift_write_bits(&w, 8, (uint64_t)(d - 126));
        bitsift_write_bool(&w, true);
        bitsift_result res;
        char why[256] = "";
        bool ok = decode_all_ways(s, packet, sizeof packet, &res, why, sizeof why);
        if (!ok)
            printf("# step %lld: %s\n", (long long)d, why);
        bool valid = d <= 301;
        ok = ok && (res.status == BITSIFT_OK) == valid && (!valid || res.bits == 15);
        tap(ok, "object_index(-1, 300): step %lld from -1 %s", (long long)d,
            valid ? "is valid" : "is refused");
    }
    bitsift_schema_free(s);
}

/* -- 7. field ids --------------------------------------------------- */

static void test_field_ids(void)
{
    /* The last field is an enum: its names answer by its id. */
    static const char text[] = "protocol f { id 1; crc off; end_check off; }\n"
                               "enum E { a, b, c }\n"
                               "packet p { bool x; E e; }\n";
    bitsift_schema *s = compile(text);
    tap(s != NULL, "field id schema compiles");
    if (!s)
        return;
    unsigned count = bitsift_schema_field_count(s);
    bitsift_field_info info;
    const char *name = count ? bitsift_schema_enum_name(s, count - 1, 2) : NULL;
    bool ok = count >= 2 && bitsift_schema_field_info(s, count - 1, &info) && name &&
              strcmp(name, "c") == 0;
    tap(ok, "field id count - 1 (%u) is the enum, value 2 is named c", count ? count - 1 : 0);
    ok = !bitsift_schema_field_info(s, count, &info) && !bitsift_schema_enum_name(s, count, 2) &&
         !bitsift_schema_enum_name(s, count + 1, 0);
    tap(ok, "field id count (%u) and beyond is none", count);
    bitsift_schema_free(s);
}

/* -- 8. a path as long as the buffer --------------------------------- */

/* 15 nested structs whose fields have 63-character names (15 * 64
 * characters with their dots), then an array of uint8 named with 60: the
 * array's path is 1020 characters long. */
static char *long_path_schema(void)
{
    size_t cap = 8192, len = 0;
    char *text = malloc(cap);
    if (!text)
        return NULL;
    char name[64];
    len += (size_t)snprintf(text + len, cap - len,
                            "protocol deep { id 7; crc off; end_check off; }\n");
    for (int level = 14; level >= 0; level--) {
        len += (size_t)snprintf(text + len, cap - len, "struct S%d { ", level);
        if (level == 14) {
            memset(name, 'z', 60);
            name[60] = 0;
            len += (size_t)snprintf(text + len, cap - len, "uint8 %s[12]; }\n", name);
        } else {
            memset(name, 'a' + level + 1, 63);
            name[63] = 0;
            len += (size_t)snprintf(text + len, cap - len, "S%d %s; }\n", level + 1, name);
        }
    }
    memset(name, 'a', 63);
    name[63] = 0;
    snprintf(text + len, cap - len, "packet p { S0 %s; }\n", name);
    return text;
}

static void test_path_at_capacity(void)
{
    char *text = long_path_schema();
    bitsift_schema *s = text ? compile(text) : NULL;
    free(text);
    tap(s != NULL, "long path schema compiles");
    if (!s)
        return;
    /* Truncated at element 3 ("[3]": 1023 characters) and at element 10
     * ("[10]" would make 1024). */
    static const struct {
        size_t bytes;
        const char *tail;
        size_t len;
    } cases[] = {{3, "z[3]", 1023}, {10, "zzz", 1020}};
    for (size_t c = 0; c < 2; c++) {
        uint8_t packet[12] = {0};
        bitsift_result res;
        char why[256] = "";
        bool ok = decode_all_ways(s, packet, cases[c].bytes, &res, why, sizeof why);
        if (!ok)
            printf("# %s\n", why);
        size_t len = strlen(res.path), tail = strlen(cases[c].tail);
        ok = ok && res.status == BITSIFT_E_OVERFLOW && len == cases[c].len &&
             strcmp(res.path + len - tail, cases[c].tail) == 0;
        if (!ok)
            printf("# %s, path of %zu characters ending \"%s\"\n", bitsift_error_name(res.status),
                   len, len > 8 ? res.path + len - 8 : res.path);
        tap(ok, "failure at element %zu: path of %zu characters ends \"%s\"", cases[c].bytes,
            cases[c].len, cases[c].tail);
    }
    bitsift_schema_free(s);
}

/* -- 9. the longest check name ---------------------------------------- */

static void test_check_name_length(void)
{
    for (size_t len = 254; len <= 257; len++) {
        char name[300], text[1024];
        memset(name, 'q', len);
        name[len] = 0;
        snprintf(text, sizeof text,
                 "protocol c { id 1; crc off; end_check \"%s\"; }\n"
                 "packet p { bool x; check(\"%s\"); }\n", name, name);
        bitsift_schema_error err;
        bitsift_schema *s = bitsift_schema_compile(text, strlen(text), "check", &err);
        bool ok;
        if (len <= 255) {
            const bitsift_framing *f = s ? bitsift_schema_framing(s) : NULL;
            ok = f && f->end_check && f->end_check_value == bitsift_hash_name(name, 0);
            if (!s)
                printf("# %s\n", err.message);
        } else {
            ok = !s && strstr(err.message, "string longer than 255 bytes") != NULL;
            if (!ok)
                printf("# %s\n", s ? "compiles" : err.message);
        }
        tap(ok, "check name of %zu bytes %s", len, len <= 255 ? "compiles to its hash" : "is refused");
        bitsift_schema_free(s);
    }
}

/* -- 10. relative fields with a value list ------------------------- */

static void test_relative_value_lists(void)
{
    static const char text[] = "protocol rl { id 5; crc off; end_check off; }\n"
                               "packet p { uint16 s0; sequence_relative(s0) s in { 5, 6, 900 };\n"
                               "           ack_relative(s0) a in { 1, 2, 70 };\n"
                               "           int_relative(s0) i in { 4, 9 }; bool end; }\n";
    bitsift_schema *s = compile(text);
    tap(s != NULL, "relative value list schema compiles");
    if (!s)
        return;
    /* s0 = 3: s steps 2, 3 or 897; a is 3 - ack back (or sent as is); i
     * steps 1 or 6. The last value of each row is not in its list. */
    static const struct {
        uint16_t seq, ack;
        int32_t i;
        bool valid;
    } cases[] = {
        {5, 1, 4, true},   {6, 2, 9, true},   {900, 70, 4, true}, {7, 1, 4, false},
        {5, 3, 4, false},  {5, 1, 5, false},  {6, 70, 9, true},
    };
    int wrong = 0;
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        uint8_t packet[16] = {0};
        bitsift_writer w;
        bitsift_writer_init(&w, packet, sizeof packet);
        bitsift_write_uint16(&w, 3);
        bitsift_write_sequence_relative(&w, 3, cases[c].seq);
        bitsift_write_ack_relative(&w, 3, cases[c].ack);
        bitsift_write_int_relative(&w, 3, cases[c].i);
        bitsift_write_bool(&w, true);
        size_t size = bitsift_writer_bytes(&w);
        bitsift_result res;
        char why[256] = "";
        bool ok = decode_all_ways(s, packet, size, &res, why, sizeof why);
        if (!ok)
            printf("# seq %u ack %u i %d: %s\n", cases[c].seq, cases[c].ack, cases[c].i, why);
        else if ((res.status == BITSIFT_OK) != cases[c].valid) {
            printf("# seq %u ack %u i %d: %s\n", cases[c].seq, cases[c].ack, cases[c].i,
                   bitsift_error_name(res.status));
            ok = false;
        }
        wrong += !ok;
    }
    tap(wrong == 0, "sequence, ack and int relative fields with value lists: program as interpreter");
    bitsift_schema_free(s);
}

/* -- 11. a raw window at the top of its width ------------------------- */

/* An enum whose one value is the largest raw value of its width: the
 * program reads a window of one value, at the top (lo == top), which
 * passes; above the top nothing could. Every 1-byte packet, decided by
 * the program as by the interpreter, and the named value accepted. */
static void test_window_at_top(const char *enum_type, const char *value, unsigned pad)
{
    char text[512], rest[32] = "";
    if (pad)
        snprintf(rest, sizeof rest, " bits(%u) rest;", pad);
    snprintf(text, sizeof text,
             "protocol z { id 8; crc off; end_check off; }\n"
             "enum Top : %s { top = %s }\n"
             "packet p { Top t;%s }\n",
             enum_type, value, rest);
    bitsift_schema *s = compile(text);
    tap(s != NULL, "enum %s { top = %s } compiles", enum_type, value);
    if (!s)
        return;
    unsigned valid = 0;
    bool all_agree = true;
    for (unsigned byte = 0; byte < 256; byte++) {
        const uint8_t packet[1] = {(uint8_t)byte};
        bitsift_result res;
        char why[256] = "";
        if (!decode_all_ways(s, packet, sizeof packet, &res, why, sizeof why)) {
            if (all_agree)
                printf("# packet %02x: %s\n", byte, why);
            all_agree = false;
        }
        valid += res.status == BITSIFT_OK;
    }
    tap(all_agree && valid > 0,
        "enum %s { top = %s }: every 1-byte packet decided alike, %u of them valid", enum_type,
        value, valid);
    bitsift_schema_free(s);
}

/* -- 12. the absolute form of a relative integer ---------------------- */

/* int_relative(base) written in its absolute form (no tier: six 0 bits,
 * then 32 bits) must lie above the base: the base itself and below are
 * refused, one above is taken, by the program as by the interpreter. */
static void test_relative_absolute(void)
{
    static const char text[] = "protocol r { id 4; crc off; end_check off; }\n"
                               "packet p { int_relative(5) x; bool after; }\n";
    bitsift_schema *s = compile(text);
    tap(s != NULL, "int_relative schema compiles");
    if (!s)
        return;
    for (int64_t value = 4; value <= 7; value++) {
        uint8_t packet[8] = {0};
        bitsift_writer w;
        bitsift_writer_init(&w, packet, sizeof packet);
        bitsift_write_bits(&w, 6, 0);
        bitsift_write_bits(&w, 32, (uint64_t)value);
        bitsift_write_bool(&w, true);
        bitsift_result res;
        char why[256] = "";
        bool ok = decode_all_ways(s, packet, sizeof packet, &res, why, sizeof why);
        if (!ok)
            printf("# value %lld: %s\n", (long long)value, why);
        bool valid = value > 5;
        ok = ok && (res.status == BITSIFT_OK) == valid;
        tap(ok, "int_relative(5) written absolute as %lld %s", (long long)value,
            valid ? "is valid" : "is refused");
    }
    bitsift_schema_free(s);
}

/* -- 13. a negated literal as a condition ------------------------------ */

/* `!false` always holds and `!true` never does, whatever the fields
 * referred to hold: a 2-item condition whose operand is a constant, not
 * a field. For a = 0 and 1: a, b if a, y, u, w: 4 + a bits. */
static void test_negated_literal(void)
{
    static const char text[] = "protocol n { id 5; crc off; end_check off; }\n"
                               "packet p { bool a; if (a) { bool b; }\n"
                               "           if (!false) { bool y; } if (!true) { bool z; }\n"
                               "           if (!0) { bool u; } bool w; }\n";
    bitsift_schema *s = compile(text);
    tap(s != NULL, "negated literal schema compiles");
    if (!s)
        return;
    for (unsigned a = 0; a < 2; a++) {
        const uint8_t packet[1] = {(uint8_t)(a ? 0x0f : 0x00)};
        bitsift_result res;
        char why[256] = "";
        bool ok = decode_all_ways(s, packet, sizeof packet, &res, why, sizeof why);
        if (!ok)
            printf("# a = %u: %s\n", a, why);
        ok = ok && res.status == BITSIFT_OK && res.bits == 4 + a;
        if (!ok)
            printf("# a = %u: %s after %llu bits\n", a, bitsift_error_name(res.status),
                   (unsigned long long)res.bits);
        tap(ok, "a = %u: !false and !0 hold, !true does not (%u bits)", a, 4 + a);
    }
    bitsift_schema_free(s);
}

/* -- 14. each shape of a condition on one field ------------------------ */

/* The shapes the decoder and the program test without the general
 * evaluator: k, !k, k == 2, k != 2 (and two it does not: k >= 2, and !!k,
 * which starts as !k does), over k = 0..3: 2 bits of k, then one bit per
 * condition that holds, then w. */
static void test_condition_shapes(void)
{
    static const char text[] = "protocol c { id 6; crc off; end_check off; }\n"
                               "packet p { int(0, 3) k; if (k) { bool a; } if (!k) { bool b; }\n"
                               "           if (k == 2) { bool c; } if (k != 2) { bool d; }\n"
                               "           if (k >= 2) { bool e; } if (!!k) { bool f; } bool w; }\n";
    bitsift_schema *s = compile(text);
    tap(s != NULL, "condition shapes schema compiles");
    if (!s)
        return;
    for (unsigned k = 0; k < 4; k++) {
        const uint8_t packet[2] = {(uint8_t)k, 0};
        unsigned held = (k != 0) + (k == 0) + (k == 2) + (k != 2) + (k >= 2) + (k != 0);
        bitsift_result res;
        char why[256] = "";
        bool ok = decode_all_ways(s, packet, sizeof packet, &res, why, sizeof why);
        if (!ok)
            printf("# k = %u: %s\n", k, why);
        ok = ok && res.status == BITSIFT_OK && res.bits == 2 + held + 1;
        if (!ok)
            printf("# k = %u: %s after %llu bits\n", k, bitsift_error_name(res.status),
                   (unsigned long long)res.bits);
        tap(ok, "k = %u: k, !k, k == 2, k != 2, k >= 2, !!k hold %u times (%u bits)", k, held,
            2 + held + 1);
    }
    bitsift_schema_free(s);
}

/* -- 15. random values at the ends of the relative bases ---------------- */

/* Constant bases at the ends of their ranges: sequence and ack numbers
 * from 0 and from 65535, an object index with one slot of room (9 of at
 * most 10), an integer just below INT32_MAX. Random trees of each must
 * be made, encode, and decode back to the same values. */
static void test_random_relative_ends(void)
{
    static const char text[] = "protocol e { id 7; crc off; end_check off; }\n"
                               "packet p { sequence_relative(0) s0; sequence_relative(65535) s1;\n"
                               "           ack_relative(0) a0; ack_relative(65535) a1;\n"
                               "           object_index(9, 10) o; int_relative(2147483646) i; }\n";
    bitsift_schema *s = compile(text);
    tap(s != NULL, "relative ends schema compiles");
    if (!s)
        return;
    bitsift_tree *t = bitsift_tree_create(s), *back = bitsift_tree_create(s);
    bool ok = t && back;
    for (uint64_t seed = 1; seed <= 50 && ok; seed++) {
        uint8_t packet[64];
        size_t size = 0;
        bitsift_result res;
        ok = bitsift_tree_random(t, 0, seed, 50) == BITSIFT_OK &&
             bitsift_encode(s, t, packet, sizeof packet, &size, &res) == BITSIFT_OK &&
             bitsift_decode_tree(s, packet, size, 0, back, &res) == BITSIFT_OK;
        static const char *const names[] = {"s0", "s1", "a0", "a1", "o", "i"};
        for (size_t k = 0; ok && k < sizeof names / sizeof names[0]; k++) {
            const bitsift_value *a = bitsift_node_value(bitsift_tree_find(t, names[k]));
            const bitsift_value *b = bitsift_node_value(bitsift_tree_find(back, names[k]));
            ok = a && b && (a->kind == BITSIFT_VALUE_INT ? a->i == b->i : a->u == b->u);
        }
        if (!ok)
            printf("# seed %llu: %s\n", (unsigned long long)seed, bitsift_error_name(res.status));
    }
    tap(ok, "random trees with bases 0 and 65535, one slot of room, INT32_MAX - 1: "
            "made, encoded, decoded alike");
    bitsift_tree_free(t);
    bitsift_tree_free(back);
    bitsift_schema_free(s);
}

/* -- 16. the op limit ---------------------------------------------------- */

/* A packet of 255 copies of a 255-field struct (256 ops each: the struct
 * and its fields) and `extra` fields more, plus its root: 65281 + extra
 * ops. */
static char *ops_schema(int extra)
{
    size_t cap = 16384, len = 0;
    char *text = malloc(cap);
    if (!text)
        return NULL;
    len += (size_t)snprintf(text + len, cap - len,
                            "protocol big { id 9; crc off; end_check off; }\nstruct S {");
    for (int i = 0; i < 255; i++)
        len += (size_t)snprintf(text + len, cap - len, " uint8 a%d;", i);
    len += (size_t)snprintf(text + len, cap - len, " }\npacket p {");
    for (int i = 0; i < 255; i++)
        len += (size_t)snprintf(text + len, cap - len, " S s%d;", i);
    for (int i = 0; i < extra; i++)
        len += (size_t)snprintf(text + len, cap - len, " uint8 x%d;", i);
    snprintf(text + len, cap - len, " }\n");
    return text;
}

static void test_op_limit(void)
{
    /* 65536 ops (BITSIFT_SCHEMA_MAX_OPS) compile; 65537 are refused. */
    for (int extra = 254; extra <= 256; extra++) {
        char *text = ops_schema(extra);
        bitsift_schema_error err;
        bitsift_schema *s =
            text ? bitsift_schema_compile(text, strlen(text), "ops", &err) : NULL;
        int ops = 1 + 255 * 256 + extra;
        bool want = ops <= BITSIFT_SCHEMA_MAX_OPS;
        bool ok = text && (s != NULL) == want &&
                  (want || strstr(err.message, "schema too large") != NULL);
        if (!ok && text)
            printf("# %d ops: %s\n", ops, s ? "compiled" : err.message);
        tap(ok, "a schema of %d ops %s", ops, want ? "compiles" : "is refused as too large");
        bitsift_schema_free(s);
        free(text);
    }
}

/* -- 17. defaults at the ends of their fields' ranges ----------------- */

static void test_default_ranges(void)
{
    static const struct {
        const char *field;
        bool compiles;
    } cases[] = {
        {"bool x default 0", true},         {"bool x default 1", true},
        {"bool x default 2", false},        {"bool x default -1", false},
        {"bits(3) x default 0", true},      {"bits(3) x default 7", true},
        {"bits(3) x default 8", false},     {"bits(3) x default -1", false},
        {"bits(3) x default -0", true},
        {"int(-2, 2) x default -2", true},  {"int(-2, 2) x default 2", true},
        {"int(-2, 2) x default -3", false}, {"int(-2, 2) x default 3", false},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[256];
        snprintf(text, sizeof text,
                 "protocol d { id 3; crc off; end_check off; }\n"
                 "packet p { bool on; if (on) { %s; } }\n",
                 cases[i].field);
        bitsift_schema_error err;
        bitsift_schema *s = bitsift_schema_compile(text, strlen(text), "defaults", &err);
        bool ok = (s != NULL) == cases[i].compiles;
        if (!ok)
            printf("# %s\n", s ? "compiled" : err.message);
        tap(ok, "%s %s", cases[i].field, cases[i].compiles ? "compiles" : "is refused");
        bitsift_schema_free(s);
    }
}

/* -- 18. the ranges field_info reports ------------------------------------ */

/* min and max as the schema wrote them for integers and enums, 0 and the
 * size (max_count) for arrays, byte strings and strings by their buffer,
 * 0..max_objects for an object index. */
static void test_field_info_ranges(void)
{
    static const char text[] = "protocol f { id 2; crc off; end_check off; }\n"
                               "enum E : int(-8, 7) { lo = -8, hi = 7 }\n"
                               "packet p { int(-5, 5) i; E e; uint8 a[max 12]; bytes(3) b;\n"
                               "           object_index(10, 2000) o; }\n";
    bitsift_schema *s = compile(text);
    tap(s != NULL, "field info schema compiles");
    if (!s)
        return;
    static const struct {
        const char *path;
        int64_t min, max;
        uint32_t max_count;
    } want[] = {
        {"i", -5, 5, 0}, {"e", -8, 7, 0}, {"a", 0, 12, 12}, {"b", 0, 0, 3}, {"o", 0, 2000, 0},
    };
    for (size_t k = 0; k < sizeof want / sizeof want[0]; k++) {
        bitsift_field_info info;
        bool found = false;
        for (unsigned id = 0; !found && bitsift_schema_field_info(s, id, &info); id++)
            found = strcmp(info.path, want[k].path) == 0;
        bool ok = found && info.min == want[k].min && info.max == want[k].max &&
                  info.max_count == want[k].max_count;
        if (!ok && found)
            printf("# %s: min %lld max %lld max_count %u\n", want[k].path, (long long)info.min,
                   (long long)info.max, info.max_count);
        tap(ok, "field_info(%s): min %lld, max %lld, max_count %u", want[k].path,
            (long long)want[k].min, (long long)want[k].max, want[k].max_count);
    }
    bitsift_schema_free(s);
}

/* -- 19. a wire integer kept at the top of its width -------------------- */

/* A decoded smallest_three(31) component keeps its wire integer, and
 * encoding writes that integer back: at 31 bits many integers share one
 * float, so quantizing the float again would pick another. The top
 * integer (2^31 - 1) too. Decode, encode, compare the bytes. */
static void test_kept_raw_top(void)
{
    static const char text[] = "protocol q { id 1; crc off; end_check off; }\n"
                               "packet p { smallest_three(31) q; }\n";
    bitsift_schema *s = compile(text);
    bitsift_tree *t = s ? bitsift_tree_create(s) : NULL;
    tap(t != NULL, "smallest_three(31) schema compiles");
    if (!t) {
        bitsift_schema_free(s);
        return;
    }
    static const uint32_t tops[][3] = {
        {0x7fffffffu, 0x40000000u, 0x40000000u},
        {0x40000000u, 0x7fffffffu, 0x3fffffffu},
        {0x3ffffff0u, 0x40000010u, 0x7fffffffu},
    };
    for (size_t k = 0; k < sizeof tops / sizeof tops[0]; k++) {
        uint8_t packet[16] = {0}, again[16] = {0};
        bitsift_writer w;
        bitsift_writer_init(&w, packet, sizeof packet);
        bitsift_write_bits(&w, 2, 3);
        for (int c = 0; c < 3; c++)
            bitsift_write_bits(&w, 31, tops[k][c]);
        size_t size = (2 + 3 * 31 + 7) / 8, again_size = 0;
        bitsift_result res;
        bool ok = bitsift_decode_tree(s, packet, size, 0, t, &res) == BITSIFT_OK &&
                  bitsift_encode(s, t, again, sizeof again, &again_size, &res) == BITSIFT_OK &&
                  again_size == size && memcmp(again, packet, size) == 0;
        if (!ok)
            printf("# %s\n", bitsift_error_name(res.status));
        tap(ok, "smallest_three(31) with a component at 2^31 - 1 (%zu): encodes back to its bytes",
            k);
    }
    bitsift_tree_free(t);
    bitsift_schema_free(s);
}

/* -- 20. the packet type limit ------------------------------------------ */

static void test_packet_type_limit(void)
{
    /* BITSIFT_SCHEMA_MAX_TYPES (1024) packet types compile; 1025 do not. */
    for (int types = BITSIFT_SCHEMA_MAX_TYPES; types <= BITSIFT_SCHEMA_MAX_TYPES + 1; types++) {
        size_t cap = 64 + (size_t)types * 32, len = 0;
        char *text = malloc(cap);
        if (!text)
            return;
        len += (size_t)snprintf(text, cap, "protocol t { id 1; }\n");
        for (int i = 0; i < types; i++)
            len += (size_t)snprintf(text + len, cap - len, "packet p%d { bool x; }\n", i);
        bitsift_schema_error err;
        bitsift_schema *s = bitsift_schema_compile(text, len, "types", &err);
        bool want = types <= BITSIFT_SCHEMA_MAX_TYPES;
        bool ok = (s != NULL) == want &&
                  (want ? bitsift_schema_packet_count(s) == (unsigned)types
                        : strstr(err.message, "packet types") != NULL);
        if (!ok)
            printf("# %d types: %s\n", types, s ? "compiled" : err.message);
        tap(ok, "%d packet types %s", types, want ? "compile" : "are refused");
        bitsift_schema_free(s);
        free(text);
    }
}

/* -- 21. comments ------------------------------------------------------- */

/* '#' and '//' comments, holding text of every UTF-8 length from the
 * first two-byte lead (U+0080, C2 80) on; a lone '/' is no comment. */
static void test_comments(void)
{
    static const char text[] = "# comment \xc2\x80 \xc2\xa9 \xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\n"
                               "protocol c { id 1; } // \xc2\xa0 no-break space, \xc2\xb0 degree\n"
                               "packet p { bool x; // inside\n"
                               "           bool y; }\n";
    bitsift_schema_error err;
    bitsift_schema *s = bitsift_schema_compile(text, strlen(text), "comments", &err);
    if (!s)
        printf("# %s\n", err.message);
    tap(s != NULL && bitsift_schema_field_count(s) == 3,
        "# and // comments with U+0080.. in them compile");
    bitsift_schema_free(s);
    static const char slash[] = "protocol c { id 1; } / packet p { bool x; }\n";
    s = bitsift_schema_compile(slash, strlen(slash), "slash", &err);
    tap(s == NULL, "a lone '/' is refused, not taken for a comment");
    bitsift_schema_free(s);
}

/* -- 22. a relative integer's largest value ------------------------------- */

static void test_relative_int_top(void)
{
    /* int_relative(0) takes values up to INT32_MAX (written absolute);
     * INT32_MAX + 1 is refused. */
    static const char text[] = "protocol r { id 4; crc off; end_check off; }\n"
                               "packet p { int_relative(0) x; }\n";
    bitsift_schema *s = compile(text);
    bitsift_tree *t = s ? bitsift_tree_create(s) : NULL;
    tap(t != NULL, "int_relative(0) schema compiles");
    for (int64_t v = (int64_t)INT32_MAX - 1; t && v <= (int64_t)INT32_MAX + 1; v++) {
        bitsift_value value = {.kind = BITSIFT_VALUE_INT, .i = v};
        uint8_t packet[16];
        size_t size = 0;
        bitsift_result res;
        bool built = bitsift_tree_reset(t, 0) && bitsift_node_add_value(t, NULL, "x", &value);
        bitsift_error e = built ? bitsift_encode(s, t, packet, sizeof packet, &size, &res)
                                : BITSIFT_E_ARGUMENT;
        bool want = v <= INT32_MAX;
        bool ok = want ? e == BITSIFT_OK &&
                             bitsift_decode_tree(s, packet, size, 0, t, &res) == BITSIFT_OK &&
                             bitsift_node_value(bitsift_tree_find(t, "x"))->i == v
                       : e == BITSIFT_E_VALUE;
        tap(ok, "int_relative(0) = %lld %s", (long long)v,
            want ? "encodes and decodes" : "is refused");
    }
    bitsift_tree_free(t);
    bitsift_schema_free(s);
}

/* -- 23. a field path that fills the compiler's buffer -------------------- */

/* 17 nested struct fields, names of about 60 characters, whose path is
 * `total` characters with its dots, holding a bool x. At BITSIFT_PATH_MAX -
 * 1 the innermost struct's name still goes onto the path, so x's path is
 * the whole of it (no room for ".x"); at BITSIFT_PATH_MAX it does not, and
 * x's path is the struct's enclosing path and ".x". */
static void test_compile_path_capacity(void)
{
    for (size_t total = BITSIFT_PATH_MAX - 1; total <= BITSIFT_PATH_MAX; total++) {
        enum { NAMES = 17 };
        size_t letters = total - (NAMES - 1), lengths[NAMES];
        char names[NAMES][64];
        for (int i = 0; i < NAMES; i++) {
            lengths[i] = letters / NAMES + ((size_t)i < letters % NAMES);
            snprintf(names[i], sizeof names[i], "n%02d", i);
            memset(names[i] + 3, 'a', lengths[i] - 3);
            names[i][lengths[i]] = '\0';
        }
        char text[8192];
        size_t len = (size_t)snprintf(text, sizeof text,
                                      "protocol l { id 1; crc off; end_check off; }\n"
                                      "struct S%d { bool x; }\n", NAMES - 1);
        /* S0 holds S1 names[1], ..., S15 holds S16 names[16]. */
        for (int level = NAMES - 2; level >= 0; level--)
            len += (size_t)snprintf(text + len, sizeof text - len, "struct S%d { S%d %s; }\n",
                                    level, level + 1, names[level + 1]);
        len += (size_t)snprintf(text + len, sizeof text - len, "packet p { S0 %s; }\n",
                                names[0]);
        bitsift_schema_error err;
        bitsift_schema *s = bitsift_schema_compile(text, len, "path", &err);
        size_t got = 0;
        bitsift_field_info info;
        for (unsigned id = 0; s && bitsift_schema_field_info(s, id, &info); id++)
            if (strcmp(info.name, "x") == 0)
                got = strlen(info.path);
        if (!s)
            printf("# %s\n", err.message);
        size_t want = total < BITSIFT_PATH_MAX ? total : total - lengths[NAMES - 1] - 1 + 2;
        if (s && got != want)
            printf("# x's path has %zu characters\n", got);
        tap(s && got == want, "struct names of %zu characters: x's path has %zu", total, want);
        bitsift_schema_free(s);
    }
}

/* -- 24. a '/' at the very end of the text -------------------------------- */

static void test_text_end(const char *text, const char *what)
{
    size_t size = strlen(text);
    char *exact = malloc(size); /* no room after the text: ASan sees a read past it */
    if (!exact) {
        tap(false, "allocate the text");
        return;
    }
    memcpy(exact, text, size);
    bitsift_schema_error err;
    bitsift_schema *s = bitsift_schema_compile(exact, size, "text-end", &err);
    tap(s == NULL && err.line == 1, "a text ending in %s is refused at line 1: %s", what,
        err.message);
    bitsift_schema_free(s);
    free(exact);
}

/* -- 25. a child added again by name -------------------------------------- */

static void test_child_replaced(void)
{
    static const char text[] = "protocol r { id 5; crc off; end_check off; }\n"
                               "packet p { bool a; bool b; }\n";
    bitsift_schema *s = compile(text);
    bitsift_tree *t = s ? bitsift_tree_create(s) : NULL;
    bool ok = t && bitsift_tree_reset(t, 0);
    bitsift_value yes = {.kind = BITSIFT_VALUE_BOOL, .b = true};
    bitsift_value no = {.kind = BITSIFT_VALUE_BOOL, .b = false};
    bitsift_node *a1 = ok ? bitsift_node_add_value(t, NULL, "a", &yes) : NULL;
    bitsift_node *b1 = ok ? bitsift_node_add_value(t, NULL, "b", &yes) : NULL;
    bitsift_node *a2 = ok ? bitsift_node_add_value(t, NULL, "a", &no) : NULL;
    bitsift_node *b2 = ok ? bitsift_node_add_value(t, NULL, "b", &no) : NULL;
    bitsift_node *root = t ? bitsift_tree_root(t) : NULL;
    tap(a1 && b1 && a2 && b2 && root && bitsift_node_child_count(root) == 2 &&
            bitsift_node_child_at(root, 0) == a2 && bitsift_node_child_at(root, 1) == b2 &&
            bitsift_tree_find(t, "a") == a2 && !bitsift_node_value(a2)->b,
        "adding 'a' (child 0) and 'b' (child 1) again replaces each: 2 children, the new ones");
    bitsift_tree_free(t);
    bitsift_schema_free(s);
}

/* -- 26. constant bases at the ends of their ranges ---------------------- */

static void test_const_base_ends(void)
{
    static const struct {
        const char *field;
        bool compiles;
    } cases[] = {
        {"object_index(-2147483648, 10)", true}, {"object_index(-2147483649, 10)", false},
        {"object_index(2147483647, 10)", true},  {"object_index(2147483648, 10)", false},
        {"int_relative(-2147483648)", true},     {"int_relative(-2147483649)", false},
        {"int_relative(2147483647)", true},      {"int_relative(2147483648)", false},
        {"sequence_relative(0)", true},          {"sequence_relative(-1)", false},
        {"ack_relative(65535)", true},           {"ack_relative(65536)", false},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[200];
        snprintf(text, sizeof text,
                 "protocol o { id 6; crc off; end_check off; }\n"
                 "packet p { %s x; }\n",
                 cases[i].field);
        bitsift_schema_error err;
        bitsift_schema *s = bitsift_schema_compile(text, strlen(text), "const-base", &err);
        tap((s != NULL) == cases[i].compiles, "%s %s%s%s", cases[i].field,
            cases[i].compiles ? "compiles" : "is refused", s ? "" : ": ", s ? "" : err.message);
        bitsift_schema_free(s);
    }
}

/* -- 27. an array at the deepest nesting level --------------------------- */

static void test_array_at_max_depth(void)
{
    for (int ifs = BITSIFT_SCHEMA_MAX_DEPTH - 1; ifs <= BITSIFT_SCHEMA_MAX_DEPTH; ifs++) {
        char text[2048];
        int n = snprintf(text, sizeof text,
                         "protocol d { id 7; crc off; end_check off; }\npacket p { bool f; ");
        for (int k = 0; k < ifs; k++)
            n += snprintf(text + n, sizeof text - (size_t)n, "if (f) { ");
        n += snprintf(text + n, sizeof text - (size_t)n, "int(0, 3) xs[2]; ");
        for (int k = 0; k < ifs; k++)
            n += snprintf(text + n, sizeof text - (size_t)n, "} ");
        snprintf(text + n, sizeof text - (size_t)n, "}\n");
        bitsift_schema_error err;
        bitsift_schema *s = bitsift_schema_compile(text, strlen(text), "depth", &err);
        bool want = ifs < BITSIFT_SCHEMA_MAX_DEPTH;
        tap(want ? s != NULL : s == NULL && strstr(err.message, "nesting deeper") != NULL,
            "an array inside %d nested ifs %s%s%s", ifs, want ? "compiles" : "is refused",
            s ? "" : ": ", s ? "" : err.message);
        bitsift_schema_free(s);
    }
}

/* -- 28. fields of one value --------------------------------------------- */

static void test_single_value_fields(void)
{
    static const char text[] = "protocol o { id 8; crc off; end_check off; }\n"
                               "enum One : int(3, 3) { three = 3 }\n"
                               "packet p { int(5, 5) five; One one; int(7, 7) seven in { 7 };\n"
                               "           if (five == 5 && one == three) { bool b; } int(0, 3) tail; }\n";
    bitsift_schema *s = compile(text);
    bool ok = s != NULL;
    char why[256] = "";
    for (unsigned size = 0; ok && size <= 1; size++)
        for (unsigned byte = 0; ok && byte < (size ? 256u : 1u); byte++) {
            uint8_t packet[1] = {(uint8_t)byte};
            bitsift_result res;
            ok = decode_all_ways(s, packet, size, &res, why, sizeof why);
        }
    tap(ok, "int(5, 5), an enum of one value and a value list on one value: every path agrees%s%s",
        ok ? "" : ": ", why);
    bitsift_schema_free(s);
}

/* -- 29. an enum value's name at the length limit ------------------------- */

static void test_enum_name_limit(void)
{
    static const char text[] = "protocol e { id 9; crc off; end_check off; }\n"
                               "enum E { a, b }\npacket p { E e; }\n";
    bitsift_schema *s = compile(text);
    bitsift_tree *t = s ? bitsift_tree_create(s) : NULL;
    for (size_t len = BITSIFT_SCHEMA_MAX_NAME; len <= BITSIFT_SCHEMA_MAX_NAME + 1; len++) {
        char name[BITSIFT_SCHEMA_MAX_NAME + 2];
        memset(name, 'n', len);
        name[len] = 0;
        bitsift_value v = {.kind = BITSIFT_VALUE_ENUM, .i = 0, .name = name};
        bitsift_node *n = t && bitsift_tree_reset(t, 0) ? bitsift_node_add_value(t, NULL, "e", &v)
                                                        : NULL;
        const bitsift_value *got = n ? bitsift_node_value(n) : NULL;
        bool kept = got && got->name && strcmp(got->name, name) == 0 && got->name != name;
        bool want = len <= BITSIFT_SCHEMA_MAX_NAME;
        tap(got && kept == want, "an enum value name of %zu bytes is %s", len,
            want ? "kept (copied)" : "dropped");
    }
    bitsift_tree_free(t);
    bitsift_schema_free(s);
}

/* -- 30. a node path in a buffer of exactly its size ----------------------- */

static void test_node_path_exact(void)
{
    static const char text[] = "protocol n { id 10; crc off; end_check off; }\n"
                               "struct In { bool leaf; }\npacket p { In inner; }\n";
    bitsift_schema *s = compile(text);
    bitsift_tree *t = s ? bitsift_tree_create(s) : NULL;
    bitsift_value yes = {.kind = BITSIFT_VALUE_BOOL, .b = true};
    bitsift_node *inner = t && bitsift_tree_reset(t, 0) ? bitsift_node_add_struct(t, NULL, "inner")
                                                        : NULL;
    bitsift_node *leaf = inner ? bitsift_node_add_value(t, inner, "leaf", &yes) : NULL;
    const char want[] = "inner.leaf";
    char buf[sizeof want + 4];
    memset(buf, 'x', sizeof buf);
    size_t len = leaf ? bitsift_node_path(leaf, buf, sizeof want) : 0;
    tap(leaf && len == strlen(want) && strcmp(buf, want) == 0,
        "a path in a buffer of exactly its size + 1: \"%s\"", leaf ? buf : "");
    memset(buf, 'x', sizeof buf);
    len = leaf ? bitsift_node_path(leaf, buf, sizeof want - 1) : 0;
    tap(leaf && len == strlen(want) && strlen(buf) < sizeof want - 1,
        "one byte less: cut, NUL-terminated, full length returned");
    bitsift_tree_free(t);
    bitsift_schema_free(s);
}

int main(void)
{
    /* Around VP_SWITCH_SPAN (64): below, at and above it. */
    test_switch_span(63, 0);
    test_switch_span(64, 0);
    test_switch_span(65, 0);
    test_switch_span(64, -30);
    test_switch_span(65, -30);
    test_sparse_messages();
    test_uint_conversion();
    test_double_conversion();
    test_random_object_index();
    test_default_in_slot_zero();
    test_object_index_top();
    test_field_ids();
    test_path_at_capacity();
    test_check_name_length();
    test_relative_value_lists();
    test_window_at_top("int(0, 7)", "7", 5);
    test_window_at_top("int(-4, 3)", "3", 5);
    test_window_at_top("uint8", "255", 0);
    test_relative_absolute();
    test_negated_literal();
    test_condition_shapes();
    test_random_relative_ends();
    test_op_limit();
    test_default_ranges();
    test_field_info_ranges();
    test_kept_raw_top();
    test_packet_type_limit();
    test_comments();
    test_relative_int_top();
    test_compile_path_capacity();
    test_text_end("protocol c { id 1; } packet p { bool x; } /", "'/'");
    test_text_end("protocol c { id 1; } packet p { check(\"x\\", "a backslash in a string");
    test_child_replaced();
    test_const_base_ends();
    test_array_at_max_depth();
    test_single_value_fields();
    test_enum_name_limit();
    test_node_path_exact();
    printf("1..%d\n", test_count);
    return failed_count ? 1 : 0;
}
