/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * boundary_test.c -- the limits the schema code decides on, tested on both
 * sides of each, where an off-by-one would go unseen by packets that stay
 * clear of the edge. TAP output.
 *
 * The cases are grouped by concern; where a concern's cases share one
 * shape they are rows of a table walked by one loop:
 *
 *  - Compiling (compile_cases): a schema text at the edge of what the
 *    compiler takes and one step beyond it: the longest check name (255
 *    bytes, the compiler's buffer with its NUL), BITSIFT_SCHEMA_MAX_OPS
 *    ops, BITSIFT_SCHEMA_MAX_TYPES packet types, an array at
 *    BITSIFT_SCHEMA_MAX_DEPTH, a default at each end of its field's range
 *    (-0 is 0), constant bases of relative fields at the ends of their
 *    ranges, comments holding UTF-8 from U+0080 on (a lone '/' is none),
 *    and a text that ends in '/' or in a backslash inside a string, handed
 *    over in a buffer of exactly its size so that the ASan build of this
 *    test sees any look at the byte past the end. Every text is compiled
 *    from such a buffer.
 *  - The validation program against the op interpreter (decode_all_ways):
 *    a chain of `if (x == v)` becomes a table jump when the values span
 *    at most VP_SWITCH_SPAN (64, lib/schema_validate.c; the builder has
 *    room for 64 jumps): chains of 63, 64 and 65 cases, from 0 and from a
 *    negative value, every value of the field decided alike. Single
 *    packets (packet_cases): a field of slot 0 in a branch not taken
 *    takes its default for a later condition; an object index's last
 *    tier steps up to max_objects + 1; a relative integer in its absolute
 *    form lies above its base; negated literals and each shape of a
 *    condition on one field, decided as written. Sweeps over every packet
 *    of a set: an enum whose one value is the top raw value of its width
 *    (the program's window of one value at the top), fields of one value
 *    (no bits read), relative fields with a value list (the program's
 *    leaf fallback). Sparse arrays: a relative index runs up to the
 *    array's size, which is "beyond the array"; an absolute index equal
 *    to the previous one is "not above the previous one", through the
 *    visitor decoder, the program and the tree (nodes 0..count-1).
 *  - Encoding a tree's values (encode_cases): an unsigned value into a
 *    signed field up to INT64_MAX exactly, one more "value too large"; a
 *    double when integral and within +-9.2e18, both ends included, beyond
 *    "not an integer"; int_relative(0) up to INT32_MAX. A decoded
 *    smallest_three(31) component at 2^31 - 1 is written back as that
 *    integer (the same bytes).
 *  - Random trees: an object index steps at most 1/16 of the room left
 *    below max_objects, at least 1 (with 32 left, +1 or +2, both seen);
 *    relative bases at the ends of their ranges make trees that encode
 *    and decode back alike.
 *  - Names, paths and ids: field ids run 0..count-1; field_info's ranges;
 *    a failure's path that fills BITSIFT_PATH_MAX exactly (one character
 *    more drops the element index); struct names that fill the
 *    compiler's path buffer; a child added again by name replaces the old
 *    one (also child 0); an enum value's name of BITSIFT_SCHEMA_MAX_NAME
 *    bytes is kept, one more dropped; a node's path in a buffer of exactly
 *    its length + 1, one byte less cut and NUL-terminated.
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

/* compile(), with a TAP point of its own for whether it did. */
static bitsift_schema *compile_point(const char *name, const char *text)
{
    bitsift_schema *s = compile(text);
    tap(s != NULL, "%s schema compiles", name);
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

/* == Compiling: the limits of a schema text ============================== */

/* The texts of the generated rows, each in a buffer of its own (malloc). */

/* A check name of `len` bytes, both as the end check and as a check. */
static char *check_name_schema(int len, const char *unused)
{
    (void)unused;
    char name[300], *text = malloc(1024);
    if (!text)
        return NULL;
    memset(name, 'q', (size_t)len);
    name[len] = 0;
    snprintf(text, 1024,
             "protocol c { id 1; crc off; end_check \"%s\"; }\n"
             "packet p { bool x; check(\"%s\"); }\n", name, name);
    return text;
}

static bool end_check_is_hash(const bitsift_schema *s, int len)
{
    char name[300];
    memset(name, 'q', (size_t)len);
    name[len] = 0;
    const bitsift_framing *f = bitsift_schema_framing(s);
    return f && f->end_check && f->end_check_value == bitsift_hash_name(name, 0);
}

/* A packet of 255 copies of a 255-field struct (256 ops each: the struct
 * and its fields) and `extra` fields more, plus its root: 65281 + extra
 * ops. */
static char *ops_schema(int extra, const char *unused)
{
    (void)unused;
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

/* `types` packet types of one bool each. */
static char *types_schema(int types, const char *unused)
{
    (void)unused;
    size_t cap = 64 + (size_t)types * 32, len = 0;
    char *text = malloc(cap);
    if (!text)
        return NULL;
    len += (size_t)snprintf(text, cap, "protocol t { id 1; }\n");
    for (int i = 0; i < types; i++)
        len += (size_t)snprintf(text + len, cap - len, "packet p%d { bool x; }\n", i);
    return text;
}

static bool has_packet_types(const bitsift_schema *s, int types)
{
    return bitsift_schema_packet_count(s) == (unsigned)types;
}

/* An array of int(0, 3) inside `ifs` nested ifs. */
static char *nested_array_schema(int ifs, const char *unused)
{
    (void)unused;
    char *text = malloc(2048);
    if (!text)
        return NULL;
    int n = snprintf(text, 2048, "protocol d { id 7; crc off; end_check off; }\npacket p { bool f; ");
    for (int k = 0; k < ifs; k++)
        n += snprintf(text + n, 2048 - (size_t)n, "if (f) { ");
    n += snprintf(text + n, 2048 - (size_t)n, "int(0, 3) xs[2]; ");
    for (int k = 0; k < ifs; k++)
        n += snprintf(text + n, 2048 - (size_t)n, "} ");
    snprintf(text + n, 2048 - (size_t)n, "}\n");
    return text;
}

/* `field` inside a condition, where a default is allowed. */
static char *default_schema(int unused, const char *field)
{
    (void)unused;
    char *text = malloc(256);
    if (text)
        snprintf(text, 256,
                 "protocol d { id 3; crc off; end_check off; }\n"
                 "packet p { bool on; if (on) { %s; } }\n", field);
    return text;
}

/* `field x` alone in a packet. */
static char *lone_field_schema(int unused, const char *field)
{
    (void)unused;
    char *text = malloc(200);
    if (text)
        snprintf(text, 200,
                 "protocol o { id 6; crc off; end_check off; }\n"
                 "packet p { %s x; }\n", field);
    return text;
}

/* The text as it is. */
static char *text_as_is(int unused, const char *text)
{
    (void)unused;
    size_t size = strlen(text) + 1;
    char *copy = malloc(size);
    if (copy)
        memcpy(copy, text, size);
    return copy;
}

static bool has_three_fields(const bitsift_schema *s, int unused)
{
    (void)unused;
    return bitsift_schema_field_count(s) == 3;
}

struct compile_case {
    const char *name;
    char *(*make)(int n, const char *arg); /* the text, from n or arg */
    int n;
    const char *arg;
    bool compiles;
    const char *refusal; /* refused: a part of the message; NULL: any */
    unsigned line;       /* refused: the line; 0: any */
    bool (*holds)(const bitsift_schema *s, int n); /* compiled: what else must hold */
};

static const struct compile_case compile_cases[] = {
    /* The longest check name: the compiler's buffer holds 256 bytes with
     * the NUL. */
    {"check name of 254 bytes (its hash the end check)", check_name_schema, 254, NULL, true, NULL, 0, end_check_is_hash},
    {"check name of 255 bytes (its hash the end check)", check_name_schema, 255, NULL, true, NULL, 0, end_check_is_hash},
    {"check name of 256 bytes", check_name_schema, 256, NULL, false, "string longer than 255 bytes", 0, NULL},
    {"check name of 257 bytes", check_name_schema, 257, NULL, false, "string longer than 255 bytes", 0, NULL},
    /* BITSIFT_SCHEMA_MAX_OPS (65536) ops compile, one more is refused. */
    {"a schema of 65535 ops", ops_schema, 254, NULL, true, NULL, 0, NULL},
    {"a schema of 65536 ops", ops_schema, 255, NULL, true, NULL, 0, NULL},
    {"a schema of 65537 ops", ops_schema, 256, NULL, false, "schema too large", 0, NULL},
    /* BITSIFT_SCHEMA_MAX_TYPES (1024) packet types compile, 1025 do not. */
    {"a schema of 1024 packet types", types_schema, 1024, NULL, true, NULL, 0, has_packet_types},
    {"a schema of 1025 packet types", types_schema, 1025, NULL, false, "packet types", 0, NULL},
    /* An array at nesting level BITSIFT_SCHEMA_MAX_DEPTH (inside 31 ifs). */
    {"an array inside 31 nested ifs", nested_array_schema, 31, NULL, true, NULL, 0, NULL},
    {"an array inside 32 nested ifs", nested_array_schema, 32, NULL, false, "nesting deeper", 0, NULL},
    /* A default at each end of its field's range, and one beyond. */
    {"bool x default 0", default_schema, 0, "bool x default 0", true, NULL, 0, NULL},
    {"bool x default 1", default_schema, 0, "bool x default 1", true, NULL, 0, NULL},
    {"bool x default 2", default_schema, 0, "bool x default 2", false, NULL, 0, NULL},
    {"bool x default -1", default_schema, 0, "bool x default -1", false, NULL, 0, NULL},
    {"bits(3) x default 0", default_schema, 0, "bits(3) x default 0", true, NULL, 0, NULL},
    {"bits(3) x default 7", default_schema, 0, "bits(3) x default 7", true, NULL, 0, NULL},
    {"bits(3) x default 8", default_schema, 0, "bits(3) x default 8", false, NULL, 0, NULL},
    {"bits(3) x default -1", default_schema, 0, "bits(3) x default -1", false, NULL, 0, NULL},
    {"bits(3) x default -0", default_schema, 0, "bits(3) x default -0", true, NULL, 0, NULL},
    {"int(-2, 2) x default -2", default_schema, 0, "int(-2, 2) x default -2", true, NULL, 0, NULL},
    {"int(-2, 2) x default 2", default_schema, 0, "int(-2, 2) x default 2", true, NULL, 0, NULL},
    {"int(-2, 2) x default -3", default_schema, 0, "int(-2, 2) x default -3", false, NULL, 0, NULL},
    {"int(-2, 2) x default 3", default_schema, 0, "int(-2, 2) x default 3", false, NULL, 0, NULL},
    /* A constant base at the ends of its range: an object index's and an
     * int_relative's are 32-bit, a sequence's and an ack's 16-bit. */
    {"object_index(-2147483648, 10)", lone_field_schema, 0, "object_index(-2147483648, 10)", true, NULL, 0, NULL},
    {"object_index(-2147483649, 10)", lone_field_schema, 0, "object_index(-2147483649, 10)", false, NULL, 0, NULL},
    {"object_index(2147483647, 10)", lone_field_schema, 0, "object_index(2147483647, 10)", true, NULL, 0, NULL},
    {"object_index(2147483648, 10)", lone_field_schema, 0, "object_index(2147483648, 10)", false, NULL, 0, NULL},
    {"int_relative(-2147483648)", lone_field_schema, 0, "int_relative(-2147483648)", true, NULL, 0, NULL},
    {"int_relative(-2147483649)", lone_field_schema, 0, "int_relative(-2147483649)", false, NULL, 0, NULL},
    {"int_relative(2147483647)", lone_field_schema, 0, "int_relative(2147483647)", true, NULL, 0, NULL},
    {"int_relative(2147483648)", lone_field_schema, 0, "int_relative(2147483648)", false, NULL, 0, NULL},
    {"sequence_relative(0)", lone_field_schema, 0, "sequence_relative(0)", true, NULL, 0, NULL},
    {"sequence_relative(-1)", lone_field_schema, 0, "sequence_relative(-1)", false, NULL, 0, NULL},
    {"ack_relative(65535)", lone_field_schema, 0, "ack_relative(65535)", true, NULL, 0, NULL},
    {"ack_relative(65536)", lone_field_schema, 0, "ack_relative(65536)", false, NULL, 0, NULL},
    /* Comments: '#' and '//', holding text of every UTF-8 length from the
     * first two-byte lead (U+0080, C2 80) on; a lone '/' is no comment. */
    {"a text with # and // comments holding U+0080..", text_as_is, 0,
     "# comment \xc2\x80 \xc2\xa9 \xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\n"
     "protocol c { id 1; } // \xc2\xa0 no-break space, \xc2\xb0 degree\n"
     "packet p { bool x; // inside\n"
     "           bool y; }\n",
     true, NULL, 0, has_three_fields},
    {"a lone '/' (no comment)", text_as_is, 0, "protocol c { id 1; } / packet p { bool x; }\n",
     false, NULL, 0, NULL},
    /* The lexer must not look past the end for a second '/' or for the
     * escaped character. */
    {"a text ending in '/'", text_as_is, 0, "protocol c { id 1; } packet p { bool x; } /",
     false, NULL, 1, NULL},
    {"a text ending in a backslash in a string", text_as_is, 0,
     "protocol c { id 1; } packet p { check(\"x\\", false, NULL, 1, NULL},
};

static void test_compile_cases(void)
{
    for (size_t c = 0; c < sizeof compile_cases / sizeof compile_cases[0]; c++) {
        const struct compile_case *k = &compile_cases[c];
        char *text = k->make(k->n, k->arg);
        if (!text) {
            tap(false, "%s: no memory for the text", k->name);
            continue;
        }
        /* In a buffer of exactly its size: nothing after it, no NUL. */
        size_t size = strlen(text);
        char *exact = malloc(size ? size : 1);
        if (exact)
            memcpy(exact, text, size);
        free(text);
        bitsift_schema_error err;
        bitsift_schema *s = exact ? bitsift_schema_compile(exact, size, "boundary", &err) : NULL;
        bool ok;
        if (k->compiles) {
            ok = s && (!k->holds || k->holds(s, k->n));
            if (!s)
                printf("# %s\n", exact ? err.message : "no memory");
        } else {
            ok = exact && !s && (!k->refusal || strstr(err.message, k->refusal)) &&
                 (!k->line || err.line == k->line);
            if (!ok)
                printf("# %s\n", s ? "compiles" : exact ? err.message : "no memory");
        }
        tap(ok, "%s %s%s%s", k->name, k->compiles ? "compiles" : "is refused", s || !exact ? "" : ": ",
            s || !exact ? "" : err.message);
        bitsift_schema_free(s);
        free(exact);
    }
}

/* == The validation program against the op interpreter =================== */

/* -- A chain of ifs on one field: a table jump up to VP_SWITCH_SPAN ------- */

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

/* Around VP_SWITCH_SPAN (64): below, at and above it, from 0 and from a
 * negative value. */
static const struct {
    int cases, lo;
} span_cases[] = {{63, 0}, {64, 0}, {65, 0}, {64, -30}, {65, -30}};

static void test_switch_spans(void)
{
    for (size_t c = 0; c < sizeof span_cases / sizeof span_cases[0]; c++)
        test_switch_span(span_cases[c].cases, span_cases[c].lo);
}

/* -- Single packets ------------------------------------------------------- */

enum packet_schema { SLOT_ZERO, OBJECT_INDEX_TOP, RELATIVE_ABSOLUTE, NEGATED_LITERAL, CONDITION_SHAPES };

static const struct {
    const char *name;
    const char *text;
} packet_schemas[] = {
    /* k is the first field referred to (slot 0); its branch is never
     * taken, so the second if sees its default, 2, and reads y. */
    [SLOT_ZERO] = {"slot 0",
                   "protocol z { id 8; crc off; end_check off; }\n"
                   "packet p { if (1 == 2) { int(0, 3) k default 2; }\n"
                   "           if (k == 2) { bool y; } bool w; }\n"},
    /* From -1 to at most 300: the last tier is int(126, 301), 8 bits. */
    [OBJECT_INDEX_TOP] = {"object index",
                          "protocol o { id 2; crc off; end_check off; }\n"
                          "packet p { object_index(-1, 300) o; bool after; }\n"},
    [RELATIVE_ABSOLUTE] = {"int_relative",
                           "protocol r { id 4; crc off; end_check off; }\n"
                           "packet p { int_relative(5) x; bool after; }\n"},
    /* `!false` always holds and `!true` never does, whatever the fields
     * referred to hold: a 2-item condition whose operand is a constant,
     * not a field. For a = 0 and 1: a, b if a, y, u, w: 4 + a bits. */
    [NEGATED_LITERAL] = {"negated literal",
                         "protocol n { id 5; crc off; end_check off; }\n"
                         "packet p { bool a; if (a) { bool b; }\n"
                         "           if (!false) { bool y; } if (!true) { bool z; }\n"
                         "           if (!0) { bool u; } bool w; }\n"},
    /* The shapes the decoder and the program test without the general
     * evaluator: k, !k, k == 2, k != 2 (and two it does not: k >= 2, and
     * !!k, which starts as !k does): 2 bits of k, then one bit per
     * condition that holds, then w. */
    [CONDITION_SHAPES] = {"condition shapes",
                          "protocol c { id 6; crc off; end_check off; }\n"
                          "packet p { int(0, 3) k; if (k) { bool a; } if (!k) { bool b; }\n"
                          "           if (k == 2) { bool c; } if (k != 2) { bool d; }\n"
                          "           if (k >= 2) { bool e; } if (!!k) { bool f; } bool w; }\n"},
};

/* A first byte. */
static void write_byte(bitsift_writer *w, int64_t byte)
{
    bitsift_write_bits(w, 8, (uint64_t)byte);
}

/* object_index(-1, 300)'s last tier (no short tier: six 0 bits) stepping
 * `d` from -1, then `after`. */
static void write_last_tier_step(bitsift_writer *w, int64_t d)
{
    bitsift_write_bits(w, 6, 0);
    bitsift_write_bits(w, 8, (uint64_t)(d - 126));
    bitsift_write_bool(w, true);
}

/* int_relative's absolute form (no tier: six 0 bits, then 32 bits), then
 * `after`. */
static void write_relative_absolute(bitsift_writer *w, int64_t value)
{
    bitsift_write_bits(w, 6, 0);
    bitsift_write_bits(w, 32, (uint64_t)value);
    bitsift_write_bool(w, true);
}

#define ANY UINT64_MAX /* bits or fields not checked */

struct packet_case {
    const char *name;
    enum packet_schema schema;
    void (*write)(bitsift_writer *w, int64_t arg);
    int64_t arg;
    size_t size; /* the bytes handed over: what is written, then zeros */
    bool valid;
    uint64_t bits, fields; /* when valid; ANY: not checked */
};

static const struct packet_case packet_cases[] = {
    {"a branch not taken sets its slot-0 field's default for a later condition", SLOT_ZERO,
     write_byte, 0x03, 1, true, 2, 2},
    /* The last tier steps up to max_objects + 1, which from -1 lands on
     * max_objects itself: valid; one step more is not. */
    {"object_index(-1, 300): step 299 from -1 is valid", OBJECT_INDEX_TOP, write_last_tier_step,
     299, 4, true, 15, ANY},
    {"object_index(-1, 300): step 300 from -1 is valid", OBJECT_INDEX_TOP, write_last_tier_step,
     300, 4, true, 15, ANY},
    {"object_index(-1, 300): step 301 from -1 is valid", OBJECT_INDEX_TOP, write_last_tier_step,
     301, 4, true, 15, ANY},
    {"object_index(-1, 300): step 302 from -1 is refused", OBJECT_INDEX_TOP, write_last_tier_step,
     302, 4, false, ANY, ANY},
    /* The absolute form must lie above the base: the base itself and
     * below are refused, one above is taken. */
    {"int_relative(5) written absolute as 4 is refused", RELATIVE_ABSOLUTE, write_relative_absolute,
     4, 8, false, ANY, ANY},
    {"int_relative(5) written absolute as 5 is refused", RELATIVE_ABSOLUTE, write_relative_absolute,
     5, 8, false, ANY, ANY},
    {"int_relative(5) written absolute as 6 is valid", RELATIVE_ABSOLUTE, write_relative_absolute,
     6, 8, true, ANY, ANY},
    {"int_relative(5) written absolute as 7 is valid", RELATIVE_ABSOLUTE, write_relative_absolute,
     7, 8, true, ANY, ANY},
    {"a = 0: !false and !0 hold, !true does not (4 bits)", NEGATED_LITERAL, write_byte, 0x00, 1,
     true, 4, ANY},
    {"a = 1: !false and !0 hold, !true does not (5 bits)", NEGATED_LITERAL, write_byte, 0x0f, 1,
     true, 5, ANY},
    {"k = 0: k, !k, k == 2, k != 2, k >= 2, !!k hold 2 times (5 bits)", CONDITION_SHAPES,
     write_byte, 0, 2, true, 5, ANY},
    {"k = 1: k, !k, k == 2, k != 2, k >= 2, !!k hold 3 times (6 bits)", CONDITION_SHAPES,
     write_byte, 1, 2, true, 6, ANY},
    {"k = 2: k, !k, k == 2, k != 2, k >= 2, !!k hold 4 times (7 bits)", CONDITION_SHAPES,
     write_byte, 2, 2, true, 7, ANY},
    {"k = 3: k, !k, k == 2, k != 2, k >= 2, !!k hold 4 times (7 bits)", CONDITION_SHAPES,
     write_byte, 3, 2, true, 7, ANY},
};

static void test_packet_cases(void)
{
    enum { SCHEMAS = sizeof packet_schemas / sizeof packet_schemas[0] };
    bitsift_schema *schemas[SCHEMAS];
    for (size_t k = 0; k < SCHEMAS; k++)
        schemas[k] = compile_point(packet_schemas[k].name, packet_schemas[k].text);
    for (size_t c = 0; c < sizeof packet_cases / sizeof packet_cases[0]; c++) {
        const struct packet_case *k = &packet_cases[c];
        const bitsift_schema *s = schemas[k->schema];
        if (!s)
            continue; /* its compile point failed */
        uint8_t packet[8] = {0};
        bitsift_writer w;
        bitsift_writer_init(&w, packet, sizeof packet);
        k->write(&w, k->arg);
        bitsift_result res;
        char why[256] = "";
        bool ok = decode_all_ways(s, packet, k->size, &res, why, sizeof why);
        if (!ok)
            printf("# %s\n", why);
        ok = ok && (res.status == BITSIFT_OK) == k->valid &&
             (!k->valid || ((k->bits == ANY || res.bits == k->bits) &&
                            (k->fields == ANY || res.fields == k->fields)));
        if (!ok)
            printf("# %s after %llu bits, %llu fields\n", bitsift_error_name(res.status),
                   (unsigned long long)res.bits, (unsigned long long)res.fields);
        tap(ok, "%s", k->name);
    }
    for (size_t k = 0; k < SCHEMAS; k++)
        bitsift_schema_free(schemas[k]);
}

/* -- Every packet of a set ------------------------------------------------ */

/* An enum whose one value is the largest raw value of its width: the
 * program reads a window of one value, at the top (lo == top), which
 * passes; above the top nothing could. Every 1-byte packet, decided by
 * the program as by the interpreter, and the named value accepted. */
static const struct {
    const char *enum_type, *value;
    unsigned pad;
} window_cases[] = {{"int(0, 7)", "7", 5}, {"int(-4, 3)", "3", 5}, {"uint8", "255", 0}};

static void test_windows_at_top(void)
{
    for (size_t c = 0; c < sizeof window_cases / sizeof window_cases[0]; c++) {
        const char *enum_type = window_cases[c].enum_type, *value = window_cases[c].value;
        char text[512], rest[32] = "";
        if (window_cases[c].pad)
            snprintf(rest, sizeof rest, " bits(%u) rest;", window_cases[c].pad);
        snprintf(text, sizeof text,
                 "protocol z { id 8; crc off; end_check off; }\n"
                 "enum Top : %s { top = %s }\n"
                 "packet p { Top t;%s }\n",
                 enum_type, value, rest);
        bitsift_schema *s = compile(text);
        tap(s != NULL, "enum %s { top = %s } compiles", enum_type, value);
        if (!s)
            continue;
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
}

/* Relative fields with a value list, which the validation program reads
 * through its leaf fallback: each ladder read as its own kind, the values
 * in the list taken and the others refused. */
static void test_relative_value_lists(void)
{
    static const char text[] = "protocol rl { id 5; crc off; end_check off; }\n"
                               "packet p { uint16 s0; sequence_relative(s0) s in { 5, 6, 900 };\n"
                               "           ack_relative(s0) a in { 1, 2, 70 };\n"
                               "           int_relative(s0) i in { 4, 9 }; bool end; }\n";
    bitsift_schema *s = compile_point("relative value list", text);
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

/* Fields of one value (int(5, 5), an enum of one named value, a value list
 * on it, then a condition on them) read no bits: every packet of 0 and 1
 * bytes. */
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

/* -- Sparse arrays: the index messages ----------------------------------- */

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
    bitsift_schema *s = compile_point("sparse", text);
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

/* == Encoding a tree's values ============================================= */

enum encode_schema { INT64_AND_RAW, INT64_ONLY, INT_RELATIVE_0 };

static const struct {
    const char *name; /* NULL: no point of its own for compiling */
    const char *text;
} encode_schemas[] = {
    [INT64_AND_RAW] = {"uint",
                       "protocol u { id 4; crc off; end_check off; }\n"
                       "packet p { int(-9223372036854775808, 9223372036854775807) any;"
                       " bits(64) raw; }\n"},
    [INT64_ONLY] = {NULL,
                    "protocol d { id 4; crc off; end_check off; }\n"
                    "packet p { int(-9223372036854775808, 9223372036854775807) any; }\n"},
    [INT_RELATIVE_0] = {"int_relative(0)",
                        "protocol r { id 4; crc off; end_check off; }\n"
                        "packet p { int_relative(0) x; }\n"},
};

#define UINT_VALUE(v) {.kind = BITSIFT_VALUE_UINT, .u = (v)}
#define INT_VALUE(v) {.kind = BITSIFT_VALUE_INT, .i = (v)}
#define DOUBLE_VALUE(v) {.kind = BITSIFT_VALUE_DOUBLE, .d = (v)}

struct encode_case {
    const char *name;
    enum encode_schema schema;
    const char *field; /* set to value, and read back when it encodes */
    bitsift_value value;
    const char *other; /* NULL, or a second field set to other_value */
    bitsift_value other_value;
    bitsift_error error; /* BITSIFT_OK: encodes, and decodes back to `back` */
    const char *why;     /* refused: the failure's why; NULL: not checked */
    int64_t back;
};

static const struct encode_case encode_cases[] = {
    /* An unsigned value into a signed field, up to INT64_MAX exactly (a
     * bits(64) field takes any). */
    {"uint 9223372036854775807 into int(INT64_MIN, INT64_MAX): written and read back", INT64_AND_RAW,
     "any", UINT_VALUE((uint64_t)INT64_MAX), "raw", UINT_VALUE(UINT64_MAX), BITSIFT_OK, NULL,
     INT64_MAX},
    {"uint 9223372036854775806 into int(INT64_MIN, INT64_MAX): written and read back", INT64_AND_RAW,
     "any", UINT_VALUE((uint64_t)INT64_MAX - 1), "raw", UINT_VALUE(0), BITSIFT_OK, NULL,
     INT64_MAX - 1},
    {"uint 9223372036854775808 into int(INT64_MIN, INT64_MAX): value too large", INT64_AND_RAW,
     "any", UINT_VALUE((uint64_t)INT64_MAX + 1), "raw", UINT_VALUE(0), BITSIFT_E_VALUE,
     "value too large", 0},
    {"uint 18446744073709551615 into int(INT64_MIN, INT64_MAX): value too large", INT64_AND_RAW,
     "any", UINT_VALUE(UINT64_MAX), "raw", UINT_VALUE(0), BITSIFT_E_VALUE, "value too large", 0},
    /* A double when integral and within +-9.2e18, both ends included. */
    {"double -9.2e+18 into int(INT64_MIN, INT64_MAX): written and read back", INT64_ONLY, "any",
     DOUBLE_VALUE(-9.2e18), NULL, {0}, BITSIFT_OK, NULL, (int64_t)-9.2e18},
    {"double 9.2e+18 into int(INT64_MIN, INT64_MAX): written and read back", INT64_ONLY, "any",
     DOUBLE_VALUE(9.2e18), NULL, {0}, BITSIFT_OK, NULL, (int64_t)9.2e18},
    {"double -9.3e+18 into int(INT64_MIN, INT64_MAX): not an integer", INT64_ONLY, "any",
     DOUBLE_VALUE(-9.3e18), NULL, {0}, BITSIFT_E_VALUE, "not an integer", 0},
    {"double 9.3e+18 into int(INT64_MIN, INT64_MAX): not an integer", INT64_ONLY, "any",
     DOUBLE_VALUE(9.3e18), NULL, {0}, BITSIFT_E_VALUE, "not an integer", 0},
    {"double 0.5 into int(INT64_MIN, INT64_MAX): not an integer", INT64_ONLY, "any",
     DOUBLE_VALUE(0.5), NULL, {0}, BITSIFT_E_VALUE, "not an integer", 0},
    /* int_relative(0) takes values up to INT32_MAX (written absolute). */
    {"int_relative(0) = 2147483646 encodes and decodes", INT_RELATIVE_0, "x",
     INT_VALUE((int64_t)INT32_MAX - 1), NULL, {0}, BITSIFT_OK, NULL, (int64_t)INT32_MAX - 1},
    {"int_relative(0) = 2147483647 encodes and decodes", INT_RELATIVE_0, "x",
     INT_VALUE(INT32_MAX), NULL, {0}, BITSIFT_OK, NULL, INT32_MAX},
    {"int_relative(0) = 2147483648 is refused", INT_RELATIVE_0, "x",
     INT_VALUE((int64_t)INT32_MAX + 1), NULL, {0}, BITSIFT_E_VALUE, NULL, 0},
};

static void test_encode_cases(void)
{
    enum { SCHEMAS = sizeof encode_schemas / sizeof encode_schemas[0] };
    bitsift_schema *schemas[SCHEMAS];
    for (size_t k = 0; k < SCHEMAS; k++)
        schemas[k] = encode_schemas[k].name
                         ? compile_point(encode_schemas[k].name, encode_schemas[k].text)
                         : compile(encode_schemas[k].text);
    for (size_t c = 0; c < sizeof encode_cases / sizeof encode_cases[0]; c++) {
        const struct encode_case *k = &encode_cases[c];
        const bitsift_schema *s = schemas[k->schema];
        if (!s)
            continue; /* its compile point failed */
        bitsift_tree *t = bitsift_tree_create(s);
        bool ok = t && bitsift_tree_reset(t, 0) &&
                  bitsift_node_add_value(t, NULL, k->field, &k->value) &&
                  (!k->other || bitsift_node_add_value(t, NULL, k->other, &k->other_value));
        uint8_t out[32];
        size_t size = 0;
        bitsift_result res;
        bitsift_error e = ok ? bitsift_encode(s, t, out, sizeof out, &size, &res) : BITSIFT_E_NOMEM;
        if (k->error == BITSIFT_OK) {
            /* It decodes back to the same number, as a signed value. */
            bitsift_result dres;
            ok = ok && e == BITSIFT_OK && bitsift_decode_tree(s, out, size, 0, t, &dres) == BITSIFT_OK;
            const bitsift_node *n = ok ? bitsift_tree_find(t, k->field) : NULL;
            const bitsift_value *got = n ? bitsift_node_value(n) : NULL;
            ok = ok && got && got->i == k->back;
        } else {
            ok = ok && e == k->error &&
                 (!k->why || (res.failure.why && strcmp(res.failure.why, k->why) == 0));
        }
        if (!ok)
            printf("# encode %s: %s\n", bitsift_error_name(e),
                   e ? (res.failure.why ? res.failure.why : "") : "");
        tap(ok, "%s", k->name);
        bitsift_tree_free(t);
    }
    for (size_t k = 0; k < SCHEMAS; k++)
        bitsift_schema_free(schemas[k]);
}

/* -- A wire integer kept at the top of its width --------------------------- */

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

/* == Random trees ========================================================= */

/* -- Random object indices ------------------------------------------------- */

static void test_random_object_index(void)
{
    /* Base 0: 32 and 31 left below max_objects. */
    static const char text[] = "protocol r { id 6; crc off; end_check off; }\n"
                               "packet wide { object_index(0, 32) o; }\n"
                               "packet narrow { object_index(0, 31) o; }\n";
    bitsift_schema *s = compile_point("object index", text);
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

/* -- Random values at the ends of the relative bases ----------------------- */

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
    bitsift_schema *s = compile_point("relative ends", text);
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

/* == Names, paths and ids ================================================= */

/* -- Field ids ------------------------------------------------------------- */

static void test_field_ids(void)
{
    /* The last field is an enum: its names answer by its id. */
    static const char text[] = "protocol f { id 1; crc off; end_check off; }\n"
                               "enum E { a, b, c }\n"
                               "packet p { bool x; E e; }\n";
    bitsift_schema *s = compile_point("field id", text);
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

/* -- A path as long as the buffer ------------------------------------------ */

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

/* -- The ranges field_info reports ----------------------------------------- */

/* min and max as the schema wrote them for integers and enums, 0 and the
 * size (max_count) for arrays, byte strings and strings by their buffer,
 * 0..max_objects for an object index. */
static void test_field_info_ranges(void)
{
    static const char text[] = "protocol f { id 2; crc off; end_check off; }\n"
                               "enum E : int(-8, 7) { lo = -8, hi = 7 }\n"
                               "packet p { int(-5, 5) i; E e; uint8 a[max 12]; bytes(3) b;\n"
                               "           object_index(10, 2000) o; }\n";
    bitsift_schema *s = compile_point("field info", text);
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

/* -- A field path that fills the compiler's buffer ------------------------- */

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

/* -- A child added again by name ------------------------------------------- */

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

/* -- An enum value's name at the length limit ------------------------------ */

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

/* -- A node path in a buffer of exactly its size --------------------------- */

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
    test_compile_cases();
    test_switch_spans();
    test_packet_cases();
    test_windows_at_top();
    test_single_value_fields();
    test_relative_value_lists();
    test_sparse_messages();
    test_encode_cases();
    test_kept_raw_top();
    test_random_object_index();
    test_random_relative_ends();
    test_field_ids();
    test_field_info_ranges();
    test_path_at_capacity();
    test_compile_path_capacity();
    test_child_replaced();
    test_enum_name_limit();
    test_node_path_exact();
    printf("1..%d\n", test_count);
    return failed_count ? 1 : 0;
}
