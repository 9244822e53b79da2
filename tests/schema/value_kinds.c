/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * value_kinds.c -- bitsift_schema_field_value_kind against what decode
 * reports. For each schema named on the command line, random packets of
 * every type (bitsift_tree_random at several fills, encoded) are decoded
 * with a visitor, and for every field id the kinds of the values of its
 * events (absent ones included, array bookkeeping left out) must be
 * exactly the one kind the function names: BITSIFT_VALUE_NONE for a field
 * that only enters and leaves (structs, arrays, vectors, quaternions).
 * Every field must be met at least once, and an id out of range is NONE.
 * TAP: one point per schema.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bitsift.h>

#define SEEDS 24

static uint8_t packet[BITSIFT_RANDOM_MAX_BYTES + 4096];

struct seen {
    unsigned *kinds; /* per field id: bit k set when a value of kind k was reported */
    bool *entered;   /* per field id: an enter event was reported */
    unsigned count;
};

static bool on_field(void *ctx, const bitsift_event *ev)
{
    struct seen *seen = ctx;
    if (ev->id >= 0 && (unsigned)ev->id < seen->count && !(ev->flags & BITSIFT_EVENT_ARRAY_META))
        seen->kinds[ev->id] |= 1u << ev->value.kind;
    return true;
}

static bool on_enter(void *ctx, const bitsift_event *ev)
{
    struct seen *seen = ctx;
    if (ev->id >= 0 && (unsigned)ev->id < seen->count)
        seen->entered[ev->id] = true;
    return true;
}

/* Decode random packets of every type; false (with `why`) when one of
 * them does not make the round. */
static bool decode_random(const bitsift_schema *s, struct seen *seen, char *why, size_t size)
{
    static const unsigned fills[] = {0, 50, 100};
    bitsift_tree *t = bitsift_tree_create(s);
    if (!t)
        return snprintf(why, size, "no tree"), false;
    bitsift_visitor v = {on_field, on_enter, NULL, seen};
    bool ok = true;
    for (unsigned type = 0; ok && type < bitsift_schema_packet_count(s); type++)
        for (unsigned f = 0; ok && f < sizeof fills / sizeof fills[0]; f++)
            for (uint64_t seed = 1; ok && seed <= SEEDS; seed++) {
                if (bitsift_tree_random(t, type, seed, fills[f]) != BITSIFT_OK)
                    continue; /* too large at this fill: the others make it */
                size_t n;
                bitsift_result res;
                if (bitsift_encode(s, t, packet, sizeof packet, &n, &res) != BITSIFT_OK ||
                    bitsift_decode(s, packet, n, 0, &v, &res) != BITSIFT_OK) {
                    snprintf(why, size, "%s seed %llu fill %u: %s at %s",
                             bitsift_schema_packet_name(s, type), (unsigned long long)seed,
                             fills[f], bitsift_error_string(res.status), res.path);
                    ok = false;
                }
            }
    bitsift_tree_free(t);
    return ok;
}

/* Compare, field by field; false (with `why`) at the first field that
 * disagrees or was never met. */
static bool compare(const bitsift_schema *s, const struct seen *seen, char *why, size_t size)
{
    for (unsigned id = 0; id < seen->count; id++) {
        bitsift_field_info info;
        bitsift_schema_field_info(s, id, &info);
        bitsift_value_kind kind = bitsift_schema_field_value_kind(s, id);
        unsigned got = seen->kinds[id];
        if (!got && seen->entered[id])
            got = 1u << BITSIFT_VALUE_NONE;
        if (!got)
            return snprintf(why, size, "%s %s (%s): never decoded",
                            bitsift_schema_packet_name(s, info.packet_type), info.path,
                            bitsift_field_type_name(info.type)),
                   false;
        if (got != 1u << kind)
            return snprintf(why, size, "%s %s (%s): kind %d, decode reports the kinds 0x%x",
                            bitsift_schema_packet_name(s, info.packet_type), info.path,
                            bitsift_field_type_name(info.type), (int)kind, got),
                   false;
    }
    if (bitsift_schema_field_value_kind(s, seen->count) != BITSIFT_VALUE_NONE ||
        bitsift_schema_field_value_kind(s, ~0u) != BITSIFT_VALUE_NONE)
        return snprintf(why, size, "an id out of range is not NONE"), false;
    return true;
}

int main(int argc, char **argv)
{
    int failed = 0;
    for (int i = 1; i < argc; i++) {
        char why[1200] = "";
        bitsift_schema_error err;
        bitsift_schema *s = bitsift_schema_load_file(argv[i], &err);
        bool ok = s != NULL;
        struct seen seen = {NULL, NULL, 0};
        if (!s) {
            snprintf(why, sizeof why, "%s", err.message);
        } else {
            seen.count = bitsift_schema_field_count(s);
            seen.kinds = calloc(seen.count + 1, sizeof *seen.kinds);
            seen.entered = calloc(seen.count + 1, sizeof *seen.entered);
            ok = seen.kinds && seen.entered && decode_random(s, &seen, why, sizeof why) &&
                 compare(s, &seen, why, sizeof why);
        }
        const char *name = strrchr(argv[i], '/') ? strrchr(argv[i], '/') + 1 : argv[i];
        if (ok)
            printf("ok %d - %s: the value kind of its %u fields is the kind decode reports\n", i,
                   name, seen.count);
        else
            printf("not ok %d - %s: %s\n", i, name, why);
        failed |= !ok;
        free(seen.kinds);
        free(seen.entered);
        bitsift_schema_free(s);
    }
    printf("1..%d\n", argc - 1);
    return failed;
}
