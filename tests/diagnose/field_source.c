/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * field_source.c -- bitsift_schema_field_source on examples/shooter.bss:
 * each span read back from the text is what the schema says there, and
 * every field's spans lie inside the text. Prints TAP.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bitsift.h"

static unsigned tests, failed;

static void expect_span(const char *text, size_t start, size_t end, const char *want,
                        const char *what)
{
    size_t n = strlen(want);
    bool ok = end >= start && end - start == n && memcmp(text + start, want, n) == 0;
    tests++;
    failed += !ok;
    printf("%s %u - %s is \"%s\"", ok ? "ok" : "not ok", tests, what, want);
    if (!ok)
        printf(" (got \"%.*s\")", (int)(end >= start && end - start < 200 ? end - start : 0),
               text + start);
    printf("\n");
}

static int find(const bitsift_schema *s, unsigned type, const char *path)
{
    for (unsigned id = 0; id < bitsift_schema_field_count(s); id++) {
        bitsift_field_info info;
        bitsift_schema_field_info(s, id, &info);
        if (info.packet_type == type && strcmp(info.path, path) == 0)
            return (int)id;
    }
    return -1;
}

int main(void)
{
    const char *top = getenv("top_srcdir");
    char path[4096];
    snprintf(path, sizeof path, "%s/examples/shooter.bss", top ? top : ".");
    FILE *f = fopen(path, "rb");
    static char text[1 << 20];
    size_t size = f ? fread(text, 1, sizeof text - 1, f) : 0;
    if (f)
        fclose(f);
    bitsift_schema *s = bitsift_schema_compile(text, size, path, NULL);
    if (!s) {
        printf("1..1\nnot ok 1 - %s compiles\n", path);
        return 1;
    }
    int snap = bitsift_schema_packet_index(s, "snapshot");
    int disc = bitsift_schema_packet_index(s, "disconnect");
    bitsift_field_source src;
    int id = find(s, (unsigned)snap, "players[].armor");
    bitsift_schema_field_source(s, (unsigned)id, &src);
    expect_span(text, src.start, src.end, "int(0, 100) armor;", "armor's statement");
    expect_span(text, src.type_start, src.type_end, "int(0, 100)", "armor's type");
    tests++;
    failed += src.line != 38 || src.column != 5;
    printf("%s %u - armor is at 38:5 (got %u:%u)\n", src.line == 38 && src.column == 5 ? "ok" : "not ok",
           tests, src.line, src.column);
    id = find(s, (unsigned)snap, "players[].velocity.x");
    bitsift_schema_field_source(s, (unsigned)id, &src);
    expect_span(text, src.type_start, src.type_end, "compressed_float(-64, 64, 0.05)",
                "a vector component's type");
    expect_span(text, src.cond_start, src.cond_end, "moving", "velocity's condition");
    id = find(s, (unsigned)snap, "players");
    bitsift_schema_field_source(s, (unsigned)id, &src);
    expect_span(text, src.array_start, src.array_end, "[player_count]", "the players array");
    id = find(s, (unsigned)snap, "players[]");
    bitsift_schema_field_source(s, (unsigned)id, &src);
    expect_span(text, src.body_start, src.body_start + 21, "int(0, 63) client_id;",
                "the start of PlayerState's body");
    expect_span(text, src.body_end - 12, src.body_end, "bool firing;", "its end");
    id = find(s, (unsigned)snap, "players[].team");
    bitsift_schema_field_source(s, (unsigned)id, &src);
    expect_span(text, src.body_start, src.body_end, "spectator, red, blue", "Team's values");
    id = find(s, (unsigned)disc, "message");
    bitsift_schema_field_source(s, (unsigned)id, &src);
    expect_span(text, src.cond_start, src.cond_end, "reason == kicked || reason == banned",
                "a condition with enum names");
    id = find(s, (unsigned)snap, "check");
    bitsift_schema_field_source(s, (unsigned)id, &src);
    expect_span(text, src.start, src.end, "check(\"snapshot header\");", "a check statement");
    /* Every field: spans in order and inside the text. */
    bool inside = true;
    for (unsigned i = 0; i < bitsift_schema_field_count(s); i++) {
        bitsift_schema_field_source(s, i, &src);
        inside = inside && src.start < src.end && src.end <= size && src.type_start <= src.type_end &&
                 src.type_end <= size && src.array_end <= size && src.cond_end <= size &&
                 src.body_start <= src.body_end && src.body_end <= size && src.line >= 1;
    }
    tests++;
    failed += !inside;
    printf("%s %u - every field's spans lie inside the text\n", inside ? "ok" : "not ok", tests);
    tests++;
    bool out = !bitsift_schema_field_source(s, bitsift_schema_field_count(s), &src);
    failed += !out;
    printf("%s %u - an id out of range is refused\n", out ? "ok" : "not ok", tests);
    printf("1..%u\n", tests);
    bitsift_schema_free(s);
    return failed != 0;
}
