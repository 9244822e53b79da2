/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * schematool.c -- a small driver over the schema API for the tests:
 *
 *   schematool check FILE            compile; print the diagnostic, exit 1 on error
 *   schematool print FILE            print the layout (bitsift_schema_print)
 *   schematool dump FILE PACKET      decode a packet file, one line per event
 *   schematool fail FILE PACKET      decode; print "kind path bit" of the failure
 *   schematool detect PACKET FILE... index of the schema that owns the packet
 *   schematool roundtrip FILE N      TAP: N random packets of every type go
 *                                    tree -> encode -> decode -> encode, and
 *                                    must give the same bytes, the same values
 *                                    and visitor bits that add up
 *   schematool encode FILE TYPE SEED OUT  write one random packet to OUT
 *   schematool verify FILE TYPE PACKET    the packet decodes strictly as TYPE
 *                                    and re-encodes to the same bytes
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bitsift.h"

static bitsift_schema *load(const char *path)
{
    bitsift_schema_error err;
    bitsift_schema *s = bitsift_schema_load_file(path, &err);
    if (!s)
        fprintf(stderr, "%s\n", err.message);
    return s;
}

static unsigned char *read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    unsigned char *buf = malloc(1 << 20);
    *size = buf ? fread(buf, 1, 1 << 20, f) : 0;
    fclose(f);
    return buf;
}

static void print_value(const bitsift_value *v)
{
    switch (v->kind) {
    case BITSIFT_VALUE_BOOL:
        printf("%s", v->b ? "true" : "false");
        break;
    case BITSIFT_VALUE_UINT:
        printf("%llu", (unsigned long long)v->u);
        break;
    case BITSIFT_VALUE_INT:
        printf("%lld", (long long)v->i);
        break;
    case BITSIFT_VALUE_FLOAT:
        printf("%.9g", v->f);
        break;
    case BITSIFT_VALUE_DOUBLE:
        printf("%.17g", v->d);
        break;
    case BITSIFT_VALUE_ENUM:
        printf("%s(%lld)", v->name ? v->name : "?", (long long)v->i);
        break;
    case BITSIFT_VALUE_STRING:
        printf("\"%.*s\"", (int)v->size, (const char *)v->data);
        break;
    case BITSIFT_VALUE_BYTES:
        for (size_t i = 0; i < v->size; i++)
            printf("%02x", v->data[i]);
        break;
    default:
        printf("-");
    }
}

static bool on_field(void *ctx, const bitsift_event *ev)
{
    (void)ctx;
    printf("%*s%s = ", (int)ev->depth * 2, "", ev->path);
    print_value(&ev->value);
    printf(" @%llu+%llu%s%s%s\n", (unsigned long long)ev->bit, (unsigned long long)ev->bits,
           ev->flags & BITSIFT_EVENT_ABSENT ? " absent" : "",
           ev->flags & BITSIFT_EVENT_DERIVED ? " derived" : "",
           ev->flags & BITSIFT_EVENT_ARRAY_META ? " meta" : "");
    return true;
}

static bool on_enter(void *ctx, const bitsift_event *ev)
{
    (void)ctx;
    printf("%*s%s {\n", (int)ev->depth * 2, "", ev->depth ? ev->path : ev->name);
    return true;
}

static bool on_leave(void *ctx, const bitsift_event *ev)
{
    (void)ctx;
    printf("%*s} %llu bits\n", (int)ev->depth * 2, "", (unsigned long long)ev->bits);
    return true;
}

/* Sum of the bits the visitor reports for leaves, framing and array
 * bookkeeping: must be every bit up to the end of the packet. */
static bool sum_bits(void *ctx, const bitsift_event *ev)
{
    *(uint64_t *)ctx += ev->bits;
    return true;
}

/* Values decoded must equal what was encoded (floats up to what their
 * encoding keeps). */
static bool same_value(const bitsift_schema *s, const bitsift_node *dec, const bitsift_node *orig,
                       char *why, size_t size)
{
    const bitsift_value *a = bitsift_node_value(dec), *b = bitsift_node_value(orig);
    bitsift_field_info info;
    double tolerance = 0;
    if (bitsift_node_field_id(dec) >= 0 &&
        bitsift_schema_field_info(s, (unsigned)bitsift_node_field_id(dec), &info)) {
        if (info.type == BITSIFT_FIELD_COMPRESSED_FLOAT)
            tolerance = info.resolution * 0.6 + 1e-6;
        if (info.parent >= 0) {
            bitsift_field_info parent;
            bitsift_schema_field_info(s, (unsigned)info.parent, &parent);
            /* smallest three: half a step on the sent components, more on
             * the rebuilt one; q and -q are the same, so compare sizes. */
            if (parent.type == BITSIFT_FIELD_QUATERNION && info.type == BITSIFT_FIELD_FLOAT &&
                strcmp(info.name, "largest") != 0 && info.width)
                tolerance = 3.0 * 1.414214 / (double)((1ull << info.width) - 1) + 0.002;
        }
    }
    switch (a->kind) {
    case BITSIFT_VALUE_FLOAT: {
        double x = a->f, y = b->kind == BITSIFT_VALUE_FLOAT ? b->f : b->d;
        bool quaternion = tolerance > 0 && info.type == BITSIFT_FIELD_FLOAT;
        /* A float cannot hold more than 24 bits: allow for its spacing. */
        if (tolerance > 0 && tolerance < fabs(y) / 4194304.0)
            tolerance = fabs(y) / 4194304.0;
        if (quaternion ? fabs(fabs(x) - fabs(y)) <= tolerance
                              : (tolerance ? fabs(x - y) <= tolerance
                                           : memcmp(&a->f, &b->f, sizeof a->f) == 0))
            return true;
        snprintf(why, size, "float %.9g != %.9g", x, y);
        return false;
    }
    case BITSIFT_VALUE_DOUBLE:
        if (memcmp(&a->d, &b->d, sizeof a->d) == 0)
            return true;
        snprintf(why, size, "double %.17g != %.17g", a->d, b->d);
        return false;
    case BITSIFT_VALUE_BYTES:
    case BITSIFT_VALUE_STRING:
        if (a->size == b->size && memcmp(a->data, b->data, a->size) == 0)
            return true;
        snprintf(why, size, "bytes differ");
        return false;
    case BITSIFT_VALUE_BOOL:
        if (a->b == b->b)
            return true;
        break;
    case BITSIFT_VALUE_UINT:
        if (a->u == b->u)
            return true;
        break;
    case BITSIFT_VALUE_INT:
    case BITSIFT_VALUE_ENUM:
        if (a->i == b->i)
            return true;
        break;
    default:
        return true;
    }
    snprintf(why, size, "integer %lld != %lld", (long long)a->i, (long long)b->i);
    return false;
}

static int roundtrip(bitsift_schema *s, int count)
{
    unsigned types = bitsift_schema_packet_count(s);
    bitsift_tree *orig = bitsift_tree_create(s), *dec = bitsift_tree_create(s);
    size_t cap = 1 << 20;
    unsigned char *p1 = malloc(cap), *p2 = malloc(cap);
    int failures = 0;
    printf("1..%u\n", types);
    for (unsigned type = 0; type < types; type++) {
        char why[2048] = "";
        bool ok = true;
        for (int n = 0; n < count && ok; n++) {
            unsigned fill = (unsigned)(n % 3) * 50;
            size_t size1 = 0, size2 = 0;
            bitsift_result res;
            if (bitsift_tree_random(orig, type, (uint64_t)n * 7919 + type, fill) != BITSIFT_OK) {
                snprintf(why, sizeof why, "seed %d: no random tree", n);
                ok = false;
                break;
            }
            if (bitsift_encode(s, orig, p1, cap, &size1, &res) != BITSIFT_OK) {
                char msg[256];
                bitsift_failure_format(&res.failure, msg, sizeof msg);
                snprintf(why, sizeof why, "seed %d: encode: %s", n, msg);
                ok = false;
                break;
            }
            if (bitsift_decode_tree(s, p1, size1, BITSIFT_DECODE_STRICT, dec, &res) !=
                    BITSIFT_OK ||
                res.packet_type != (int)type) {
                char msg[256];
                bitsift_failure_format(&res.failure, msg, sizeof msg);
                snprintf(why, sizeof why, "seed %d: decode: %s", n, msg);
                ok = false;
                break;
            }
            uint64_t bits = 0;
            bitsift_visitor v = {sum_bits, NULL, NULL, &bits};
            if (bitsift_decode(s, p1, size1, 0, &v, &res) != BITSIFT_OK || bits != res.bits) {
                snprintf(why, sizeof why, "seed %d: visitor bits %llu != %llu", n,
                         (unsigned long long)bits, (unsigned long long)res.bits);
                ok = false;
                break;
            }
            if (bitsift_encode(s, dec, p2, cap, &size2, &res) != BITSIFT_OK || size1 != size2 ||
                memcmp(p1, p2, size1) != 0) {
                snprintf(why, sizeof why, "seed %d: re-encode differs (%zu vs %zu bytes)", n,
                         size1, size2);
                ok = false;
                break;
            }
            for (size_t i = 0; i < bitsift_tree_node_count(dec) && ok; i++) {
                const bitsift_node *d = bitsift_tree_node(dec, i);
                if (bitsift_node_kind_of(d) != BITSIFT_NODE_VALUE)
                    continue;
                char path[BITSIFT_PATH_MAX];
                bitsift_node_path(d, path, sizeof path);
                const bitsift_node *o = bitsift_tree_find(orig, path);
                char diff[256];
                if (!o) {
                    /* smallest-three's largest is derived by the encoder */
                    size_t len = strlen(path);
                    if (len > 8 && strcmp(path + len - 8, ".largest") == 0)
                        continue;
                    snprintf(why, sizeof why, "seed %d: %s not in the original", n, path);
                    ok = false;
                } else if (!same_value(s, d, o, diff, sizeof diff)) {
                    snprintf(why, sizeof why, "seed %d: %s: %s", n, path, diff);
                    ok = false;
                }
            }
        }
        printf("%sok %u - %s round trip%s%s\n", ok ? "" : "not ", type + 1,
               bitsift_schema_packet_name(s, type), ok ? "" : ": ", why);
        failures += !ok;
    }
    free(p1);
    free(p2);
    bitsift_tree_free(orig);
    bitsift_tree_free(dec);
    return failures ? 1 : 0;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: schematool check|print|dump|fail|detect ...\n");
        return 2;
    }
    const char *cmd = argv[1];
    if (strcmp(cmd, "detect") == 0) {
        size_t size;
        unsigned char *p = read_file(argv[2], &size);
        bitsift_schema *list[16];
        int n = 0;
        int rc = 0;
        for (int i = 3; i < argc && n < 16 && rc == 0; i++)
            if (!(list[n++] = load(argv[i])))
                rc = 1;
        if (rc == 0)
            printf("%d\n", bitsift_detect((const bitsift_schema *const *)list, (size_t)n, p, size));
        for (int i = 0; i < n; i++)
            bitsift_schema_free(list[i]);
        free(p);
        return rc;
    }
    bitsift_schema *s = load(argv[2]);
    if (!s)
        return 1;
    if (strcmp(cmd, "roundtrip") == 0 && argc > 3) {
        int rc = roundtrip(s, atoi(argv[3]));
        bitsift_schema_free(s);
        return rc;
    }
    if (strcmp(cmd, "encode") == 0 && argc > 5) {
        bitsift_tree *t = bitsift_tree_create(s);
        int type = bitsift_schema_packet_index(s, argv[3]);
        unsigned char buf[65536];
        size_t size = 0;
        bitsift_result res;
        if (type < 0 || bitsift_tree_random(t, (unsigned)type, strtoull(argv[4], NULL, 0), 50) ||
            bitsift_encode(s, t, buf, sizeof buf, &size, &res)) {
            fprintf(stderr, "cannot encode a random %s\n", argv[3]);
            return 1;
        }
        FILE *f = fopen(argv[5], "wb");
        if (!f || fwrite(buf, 1, size, f) != size || fclose(f))
            return 1;
        bitsift_tree_free(t);
        bitsift_schema_free(s);
        return 0;
    }
    if (strcmp(cmd, "verify") == 0 && argc > 4) {
        size_t size;
        unsigned char *p = read_file(argv[4], &size);
        unsigned char again[1 << 16];
        size_t size2 = 0;
        bitsift_tree *t = bitsift_tree_create(s);
        bitsift_result res;
        char msg[256] = "";
        int rc = 1;
        if (!p)
            snprintf(msg, sizeof msg, "cannot read %s", argv[4]);
        else if (bitsift_decode_tree(s, p, size, BITSIFT_DECODE_STRICT, t, &res) != BITSIFT_OK)
            bitsift_failure_format(&res.failure, msg, sizeof msg);
        else if (strcmp(res.packet_name, argv[3]) != 0)
            snprintf(msg, sizeof msg, "decoded as %s", res.packet_name);
        else if (bitsift_encode(s, t, again, sizeof again, &size2, &res) != BITSIFT_OK ||
                 size2 != size || memcmp(p, again, size) != 0)
            snprintf(msg, sizeof msg, "re-encoding differs");
        else
            rc = 0;
        printf("%s\n", rc ? msg : "ok");
        free(p);
        bitsift_tree_free(t);
        bitsift_schema_free(s);
        return rc;
    }
    if (strcmp(cmd, "check") == 0) {
        printf("ok\n");
    } else if (strcmp(cmd, "print") == 0) {
        bitsift_schema_print(s, stdout);
    } else if ((strcmp(cmd, "dump") == 0 || strcmp(cmd, "fail") == 0) && argc > 3) {
        size_t size;
        unsigned char *p = read_file(argv[3], &size);
        if (!p)
            return 2;
        bitsift_visitor v = {on_field, on_enter, on_leave, NULL};
        bitsift_result res;
        bitsift_decode(s, p, size, 0, strcmp(cmd, "dump") == 0 ? &v : NULL, &res);
        char msg[256];
        bitsift_failure_format(&res.failure, msg, sizeof msg);
        printf("%s %s %s bits=%llu\n", res.packet_name ? res.packet_name : "-", msg,
               res.path[0] ? res.path : "-", (unsigned long long)res.bits);
        free(p);
    }
    bitsift_schema_free(s);
    return 0;
}
