/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_filter.c -- libbitsift's display filters (bitsift/filter.h, the
 * language of -Y) on hostile text: every text either compiles or gets a
 * message and its column, never a crash, a hang or a leak; limits hold;
 * judgements from events. The agreement of filters with an independent
 * evaluation over decode's JSON is tests/cli/filter-check.py.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#define BITSIFT_EXPERIMENTAL
#include <bitsift/filter.h>

static const char arena_text[] =
    "protocol arena { id 0x41524e41; crc on; end_check \"end of packet\"; }\n"
    "enum Team { Red, Blue, Spectator }\n"
    "struct Player { int(0, 63) id; Team team; bool alive; if (alive) { int(0, 100) health; }"
    " string(16) name; }\n"
    "packet Hello { uint16 client_version; bytes(4) token; }\n"
    "packet Snapshot { float gravity; Player players[max 8]; int(-1000, 1000) scores[16]; }\n";

static bitsift_schema *arena(void)
{
    bitsift_schema_error err;
    bitsift_schema *s = bitsift_schema_compile(arena_text, sizeof arena_text - 1, "arena", &err);
    if (!s)
        fail_msg("%s", err.message);
    return s;
}

/* Compile; NULL with a non-empty, terminated message, or a filter. */
static bitsift_filter *compile(bitsift_schema *s, const char *text, bitsift_filter_error *err)
{
    memset(err, 0x55, sizeof *err);
    const bitsift_schema *const list[1] = {s};
    bitsift_filter *f = bitsift_filter_compile(text, list, 1, err);
    if (!f) {
        assert_true(err->message[0] != '\0');
        assert_true(memchr(err->message, '\0', sizeof err->message) != NULL);
    }
    return f;
}

static void accepts_the_language(void **state)
{
    (void)state;
    bitsift_schema *s = arena();
    bitsift_filter_error err;
    const char *good[] = {
        "Snapshot",
        "snapshot",
        "Snapshot.players[].health < 10",
        "Snapshot.players.health < 10",
        "Snapshot.players[].team == Blue && !(Snapshot.gravity > -9.5)",
        "Snapshot.scores >= -1000 or Hello.token == \"dead:beef\"",
        "Hello.token contains \"be\"",
        "Snapshot.players[].name contains \"a\\x62\" || Snapshot.players[].name == \"\"",
        "error",
        "error.kind == crc || error.kind ne range",
        "error.field == \"players[].health\" and error.bit gt 0x10",
        "Snapshot.players[].alive == true && Hello.client_version != 18446744073709551616",
        "true || false",
        "not Snapshot.players[]",
    };
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        bitsift_filter *f = compile(s, good[i], &err);
        if (!f)
            fail_msg("%s: %s", good[i], err.message);
        bitsift_filter_free(f);
    }
    bitsift_schema_free(s);
}

static void refuses_with_a_reason(void **state)
{
    (void)state;
    bitsift_schema *s = arena();
    bitsift_filter_error err;
    const struct {
        const char *text, *message;
    } bad[] = {
        {"", "a test expected at the end"},
        {"Snapshot.nope < 1", "has no field \"nope\""},
        {"Shapshot.gravity < 1", "no packet type \"Shapshot\""},
        {"Snapshot.players[].team == Purple", "no value named \"Purple\""},
        {"Snapshot.players[].name < 3", "compare it with a \"quoted string\""},
        {"Snapshot.players < 3", "compare one of its fields"},
        {"Snapshot.gravity == \"x\"", "compare it with a number"},
        {"Hello.token == \"xyz\"", "hex digits"},
        {"Snapshot.players[3].id == 1", "not an index"},
        {"error.kind == nosuch", "no error kind"},
        {"error.kind < crc", "== or !="},
        {"error == 1", "error alone is a test"},
        {"Snapshot == 1", "compare one of its fields"},
        {"(Snapshot", "')' expected"},
        {"Snapshot)", "without its '('"},
        {"Snapshot Hello", "&&, || or the end"},
        {"Snapshot.gravity < \"open", "closing quote"},
        {"Snapshot.gravity < 1e999", "not a number"},
        {"Snapshot.gravity < 0x", "not a number"},
        {"Snapshot.gravity # 1", "unexpected '#'"},
        {"Snapshot.gravity < \"\\q\"", "unknown escape"},
        {"error.nope", "kind, field and bit"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        bitsift_filter *f = compile(s, bad[i].text, &err);
        if (f)
            fail_msg("accepted: %s", bad[i].text);
        if (!strstr(err.message, bad[i].message))
            fail_msg("%s: \"%s\" does not say \"%s\"", bad[i].text, err.message,
                     bad[i].message);
    }
    /* Where: the column of the token at fault, or of the test it is in. */
    const struct {
        const char *text;
        unsigned column;
        bitsift_error kind;
    } where[] = {
        {"Snapshot.gravity # 1", 18, BITSIFT_E_ARGUMENT},
        {"Snapshot && Snapshot.nope < 1", 13, BITSIFT_E_ARGUMENT},
        {"Snapshot.gravity < \"\\q\"", 22, BITSIFT_E_ARGUMENT},
        {"", 1, BITSIFT_E_ARGUMENT},
    };
    for (size_t i = 0; i < sizeof where / sizeof where[0]; i++) {
        assert_null(compile(s, where[i].text, &err));
        if (err.column != where[i].column || err.kind != where[i].kind)
            fail_msg("%s: column %u kind %d, not column %u kind %d", where[i].text, err.column,
                     (int)err.kind, where[i].column, (int)where[i].kind);
        /* The message says what, bitsift prints where. */
        assert_null(strstr(err.message, "column"));
    }
    bitsift_schema_free(s);
}

static void limits_hold(void **state)
{
    (void)state;
    bitsift_schema *s = arena();
    bitsift_filter_error err;
    static char text[BITSIFT_FILTER_MAX_TEXT * 2];
    /* Nesting: no stack overflow, a message. */
    memset(text, '(', 3000);
    strcpy(text + 3000, "Snapshot");
    assert_null(compile(s, text, &err));
    memset(text, '!', 4000);
    strcpy(text + 4000, "Snapshot");
    assert_null(compile(s, text, &err));
    /* Too many tests. */
    text[0] = '\0';
    for (int i = 0; i < BITSIFT_FILTER_MAX_TESTS + 1; i++)
        strcat(text, i ? " || Snapshot" : "Snapshot");
    assert_null(compile(s, text, &err));
    assert_non_null(strstr(err.message, "too many tests"));
    assert_int_equal(err.kind, BITSIFT_E_LIMIT);
    /* Too long. */
    memset(text, ' ', sizeof text - 1);
    text[sizeof text - 1] = '\0';
    assert_null(compile(s, text, &err));
    assert_int_equal(err.kind, BITSIFT_E_LIMIT);
    assert_int_equal(err.column, 0);
    /* A message longer than its buffer is cut and still terminated. */
    strcpy(text, "Snapshot.");
    memset(text + 9, 'a', 2000);
    text[2009] = '\0';
    assert_null(compile(s, text, &err));
    assert_true(strlen(err.message) == sizeof err.message - 1);
    /* No error wanted: NULL is fine. */
    const bitsift_schema *const list[1] = {s};
    assert_null(bitsift_filter_compile("Snapshot.nope", list, 1, NULL));
    bitsift_schema_free(s);
}

static uint64_t rng_state = 0x2901;
static uint32_t rng(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (uint32_t)rng_state;
}

/* Random bytes, and random soups of the language's own tokens: each
 * compiles or is refused with a message (under ASan/valgrind: no bad
 * access, no leak). */
static void hostile_text(void **state)
{
    (void)state;
    bitsift_schema *s = arena();
    static const char *const pieces[] = {
        "Snapshot", ".players", "[]", ".health", ".team", "==", "!=", "<", ">=", "&&", "||",
        "!", "(", ")", "\"", "\\", "\\x4", "1", "-", "0x", ".5e", "Blue", "error", ".kind",
        ".field", "crc", " ", "contains", "Hello.token", "\"ab\"", "true", "[", "]", "\xff",
        "\0"};
    bitsift_filter_error err;
    char text[256];
    unsigned compiled = 0;
    for (int round = 0; round < 20000; round++) {
        size_t n = 0;
        if (round % 2) {
            size_t len = rng() % 40;
            for (size_t i = 0; i < len; i++)
                text[n++] = (char)(rng() % 255 + 1);
        } else {
            unsigned count = rng() % 12;
            for (unsigned i = 0; i < count; i++) {
                const char *p = pieces[rng() % (sizeof pieces / sizeof pieces[0])];
                size_t len = strlen(p);
                if (n + len + 1 >= sizeof text)
                    break;
                memcpy(text + n, p, len);
                n += len;
            }
        }
        text[n] = '\0';
        bitsift_filter *f = compile(s, text, &err);
        compiled += f != NULL;
        bitsift_filter_free(f);
    }
    assert_true(compiled > 0); /* the soup does hit the language */
    bitsift_schema_free(s);
}

/* Judgements from events, with the semantics over arrays of bitsift(1):
 * a comparison is true when any element satisfies it; ! negates that. */
static void judges_any_element(void **state)
{
    (void)state;
    bitsift_schema *s = arena();
    bitsift_filter_error err;
    int health = -1;
    for (unsigned id = 0; id < bitsift_schema_field_count(s); id++) {
        bitsift_field_info info;
        bitsift_schema_field_info(s, id, &info);
        if (strcmp(info.path, "players[].health") == 0 && info.packet_type == 1)
            health = (int)id;
    }
    assert_true(health >= 0);
    const struct {
        const char *text;
        int expected;
    } cases[] = {
        {"Snapshot.players[].health < 10", 1},       {"Snapshot.players[].health > 90", 0},
        {"Snapshot.players[].health != 5", 1},       {"!(Snapshot.players[].health == 5)", 0},
        {"Snapshot.players[].health != 50", 1},      {"!(Snapshot.players[].health != 50)", 0},
        {"Snapshot.players[].health", 1},            {"Hello", 0},
        {"Snapshot && !error", 1},                   {"error.kind == crc", 0},
    };
    bitsift_result res;
    memset(&res, 0, sizeof res);
    res.packet_type = 1;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const bitsift_schema *const list[1] = {s};
        bitsift_filter *f = bitsift_filter_compile(cases[i].text, list, 1, &err);
        if (!f)
            fail_msg("%s: %s", cases[i].text, err.message);
        assert_true(bitsift_filter_needs_fields(f, 0, 1) || !strstr(cases[i].text, "health"));
        bitsift_filter_state st;
        bitsift_filter_begin(&st, f, 0);
        bitsift_visitor v = bitsift_filter_visitor(&st);
        int values[] = {5, 50};
        for (int k = 0; k < 2; k++) {
            bitsift_event ev;
            memset(&ev, 0, sizeof ev);
            ev.id = health;
            ev.type = BITSIFT_FIELD_INT;
            ev.value.kind = BITSIFT_VALUE_INT;
            ev.value.i = values[k];
            v.field(v.ctx, &ev);
        }
        bitsift_filter_facts facts = {0, &res, 0};
        if (bitsift_filter_end(&st, &facts) != cases[i].expected)
            fail_msg("%s: expected %d", cases[i].text, cases[i].expected);
        bitsift_filter_free(f);
    }
    bitsift_schema_free(s);
}

/* The failure's field as failure.field sees it and the outputs print it:
 * the path, else the field's name, else "packet". */
static void names_the_failed_field(void **state)
{
    (void)state;
    bitsift_result res;
    memset(&res, 0, sizeof res);
    assert_string_equal(bitsift_filter_failure_path(&res), "packet");
    res.failure.field = "";
    assert_string_equal(bitsift_filter_failure_path(&res), "packet");
    res.failure.field = "crc";
    assert_string_equal(bitsift_filter_failure_path(&res), "crc");
    strcpy(res.path, "players[2].health");
    assert_string_equal(bitsift_filter_failure_path(&res), "players[2].health");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(accepts_the_language), cmocka_unit_test(refuses_with_a_reason),
        cmocka_unit_test(limits_hold),          cmocka_unit_test(hostile_text),
        cmocka_unit_test(judges_any_element),   cmocka_unit_test(names_the_failed_field),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
