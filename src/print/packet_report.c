/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * packet_report.c -- where a packet came from and why it failed, worded once for
 * text, JSON and JUnit output.
 */
#include <stdlib.h>
#include <string.h>

#define BITSIFT_EXPERIMENTAL /* <bitsift/filter.h>: bitsift_filter_failure_path */
#include "bitsift/filter.h"

#include "print/packet_report.h"

/*
 * Consecutive packets mostly share their source file and the second of
 * their timestamp: the escaped source and the "YYYY-MM-DDTHH:MM:SS." part
 * of the time are made once and kept here until they change.
 */
static struct {
    char *source; /* copy of the last source (compared by content) */
    size_t source_len;
    char *source_json; /* ,"source":"..." */
    size_t source_json_len;
    int have_second;
    int64_t second;
    char second_text[32]; /* 2026-11-23T09:00:00. */
    struct address_text {
        struct decap_address address;
        char text[64];
        size_t len;
    } addresses[4]; /* the endpoints met last, replaced in turn */
    unsigned next_address;
} origin_cache;

/* Escape source into the cache; 0 on success. */
static int cache_source(const char *source, size_t len)
{
    struct out m;
    out_init_memory(&m);
    out_str(&m, ",\"source\":");
    out_json_string(&m, source, len);
    char *copy = malloc(len + 1);
    if (m.failed || !copy) {
        free(m.buf);
        free(copy);
        return -1;
    }
    memcpy(copy, source, len + 1);
    free(origin_cache.source);
    free(origin_cache.source_json);
    origin_cache.source = copy;
    origin_cache.source_len = len;
    origin_cache.source_json = m.buf;
    origin_cache.source_json_len = m.len;
    return 0;
}

static void write_source(struct out *o, const char *source)
{
    size_t len = strlen(source);
    if ((origin_cache.source && len == origin_cache.source_len &&
         memcmp(source, origin_cache.source, len) == 0) ||
        cache_source(source, len) == 0) {
        out_bytes(o, origin_cache.source_json, origin_cache.source_json_len);
        return;
    }
    out_str(o, ",\"source\":");
    out_json_string(o, source, len);
}

/* The RFC 3339 time, its date and seconds from the cache. */
static void write_time(struct out *o, int64_t sec, uint32_t nsec)
{
    enum { SECOND_LEN = 20 }; /* "2026-11-23T09:00:00." */
    if (!origin_cache.have_second || origin_cache.second != sec) {
        char text[64];
        format_time_rfc3339(text, sec, 0);
        memcpy(origin_cache.second_text, text, SECOND_LEN);
        origin_cache.second = sec;
        origin_cache.have_second = 1;
    }
    char *text = out_reserve(o, SECOND_LEN + 10);
    if (!text)
        return;
    memcpy(text, origin_cache.second_text, SECOND_LEN);
    out_commit(o, SECOND_LEN);
    out_u64_width(o, nsec % 1000000000u, 9);
    out_char(o, 'Z');
}

static int same_address(const struct decap_address *a, const struct decap_address *b)
{
    return a->family == b->family && a->port == b->port && memcmp(a->ip, b->ip, sizeof a->ip) == 0;
}

void report_address(struct out *o, const struct decap_address *a)
{
    struct address_text *t = origin_cache.addresses;
    size_t count = sizeof origin_cache.addresses / sizeof origin_cache.addresses[0];
    for (size_t i = 0; i < count; i++)
        if (t[i].len && same_address(&t[i].address, a)) {
            out_bytes(o, t[i].text, t[i].len);
            return;
        }
    t += origin_cache.next_address++ % count;
    t->address = *a;
    t->len = decap_format_address(a, t->text, sizeof t->text);
    out_bytes(o, t->text, t->len);
}

void report_json_origin(struct out *o, const struct input_packet *p)
{
    out_str(o, "\"index\":");
    out_u64(o, p->index);
    write_source(o, p->source);
    if (p->from_capture) {
        out_str(o, ",\"time\":\"");
        write_time(o, p->sec, p->nsec);
        out_str(o, "\",\"src\":\"");
        report_address(o, p->src);
        out_str(o, "\",\"dst\":\"");
        report_address(o, p->dst);
        out_char(o, '"');
    }
    out_str(o, ",\"length\":");
    out_u64(o, p->size);
}

void report_reason(struct out *o, const bitsift_failure *f)
{
    out_str(o, f->why ? f->why : bitsift_error_string(f->kind));
    switch (f->kind) {
    case BITSIFT_E_OVERFLOW:
        out_str(o, " (needed ");
        out_u64(o, f->expected);
        out_str(o, " bits, ");
        out_u64(o, f->got);
        out_str(o, " left)");
        break;
    case BITSIFT_E_RANGE:
        out_str(o, " (expected <= ");
        out_u64(o, f->expected);
        out_str(o, ", got ");
        out_u64(o, f->got);
        out_char(o, ')');
        break;
    case BITSIFT_E_CHECK:
    case BITSIFT_E_CRC:
        out_str(o, " (expected 0x");
        out_hex_u64(o, f->expected, 8);
        out_str(o, ", got 0x");
        out_hex_u64(o, f->got, 8);
        out_char(o, ')');
        break;
    case BITSIFT_E_ALIGN:
        out_str(o, " (expected 0, got 0x");
        out_hex_u64(o, f->got, f->got ? (67u - (unsigned)__builtin_clzll(f->got)) / 4 : 1);
        out_char(o, ')');
        break;
    case BITSIFT_E_PROTOCOL:
        break;
    default:
        out_str(o, " (expected ");
        out_u64(o, f->expected);
        out_str(o, ", got ");
        out_u64(o, f->got);
        out_char(o, ')');
        break;
    }
}

void report_json_error(struct out *o, const bitsift_result *res)
{
    const bitsift_failure *f = &res->failure;
    out_str(o, "{\"kind\":\"");
    out_str(o, bitsift_error_name(f->kind));
    out_str(o, "\",\"field\":");
    const char *path = bitsift_filter_failure_path(res);
    out_json_string(o, path, strlen(path));
    out_str(o, ",\"bit\":");
    out_u64(o, f->bit);
    /* The message is built in a memory buffer, then quoted. */
    struct out m;
    out_init_memory(&m);
    report_reason(&m, f);
    out_str(o, ",\"message\":");
    out_json_string(o, m.buf ? m.buf : "", m.len);
    out_finish(&m);
    out_str(o, ",\"expected\":");
    out_u64(o, f->expected);
    out_str(o, ",\"got\":");
    out_u64(o, f->got);
    out_char(o, '}');
}

void report_text_failure(struct out *o, const bitsift_result *res)
{
    out_str(o, bitsift_filter_failure_path(res));
    out_str(o, " @bit ");
    out_u64(o, res->failure.bit);
    out_str(o, ": ");
    report_reason(o, &res->failure);
}

void report_no_protocol(bitsift_result *res)
{
    memset(res, 0, sizeof *res);
    res->status = BITSIFT_E_PROTOCOL;
    res->packet_type = -1;
    res->failure.kind = BITSIFT_E_PROTOCOL;
    res->failure.why = "no schema's protocol id gives this packet a valid CRC";
}

static void write_text_protocol(struct out *o, const bitsift_schema *schema)
{
    uint32_t version;
    out_str(o, bitsift_schema_name(schema));
    if (bitsift_schema_version(schema, &version)) {
        out_char(o, '/');
        out_u64(o, version);
    }
    out_str(o, " [0x");
    out_hex_u64(o, bitsift_schema_protocol_id(schema), 8);
    out_char(o, ']');
}

static void write_json_protocol(struct out *o, const bitsift_schema *schema)
{
    const char *name = bitsift_schema_name(schema);
    uint32_t version;
    out_str(o, "\"protocol\":");
    out_json_string(o, name, strlen(name));
    out_str(o, ",\"protocol_id\":\"0x");
    out_hex_u64(o, bitsift_schema_protocol_id(schema), 8);
    out_char(o, '"');
    if (bitsift_schema_version(schema, &version)) {
        out_str(o, ",\"version\":");
        out_u64(o, version);
    }
}

/*
 * Each packet names its protocol: the two forms are made once per schema
 * (the command loads its schemas once and keeps them to the end) and
 * kept here, which saves formatting the id on every packet of a decode
 * (-F json: 0.93 s -> 0.90 s on 1.4 M packets).
 */
/* Schemas named at once; more (up to 64 with -s) are made again in turn. */
#define CLI_PROTOCOL_CACHE 8

static struct protocol_text {
    const bitsift_schema *schema;
    uint32_t id; /* with the pointer: a schema freed and another made at its address differ */
    char *text, *json;
    size_t text_len, json_len;
} protocol_cache[CLI_PROTOCOL_CACHE];
static unsigned protocol_next;

static char *made(void (*write)(struct out *, const bitsift_schema *), const bitsift_schema *s,
                  size_t *len)
{
    struct out m;
    out_init_memory(&m);
    write(&m, s);
    if (m.failed) {
        free(m.buf);
        return NULL;
    }
    *len = m.len;
    return m.buf;
}

static const struct protocol_text *protocol_text(const bitsift_schema *schema)
{
    for (unsigned i = 0; i < CLI_PROTOCOL_CACHE; i++)
        if (protocol_cache[i].schema == schema &&
            protocol_cache[i].id == bitsift_schema_protocol_id(schema))
            return &protocol_cache[i];
    struct protocol_text *t = &protocol_cache[protocol_next++ % CLI_PROTOCOL_CACHE];
    free(t->text);
    free(t->json);
    t->schema = schema;
    t->id = bitsift_schema_protocol_id(schema);
    t->text = made(write_text_protocol, schema, &t->text_len);
    t->json = made(write_json_protocol, schema, &t->json_len);
    if (!t->text || !t->json) {
        free(t->text);
        free(t->json);
        memset(t, 0, sizeof *t);
        return NULL;
    }
    return t;
}

void report_text_protocol(struct out *o, const bitsift_schema *schema)
{
    const struct protocol_text *t = protocol_text(schema);
    if (t)
        out_bytes(o, t->text, t->text_len);
    else
        write_text_protocol(o, schema);
}

void report_json_protocol_id(struct out *o, const bitsift_schema *schema)
{
    const struct protocol_text *t = protocol_text(schema);
    if (t)
        out_bytes(o, t->json, t->json_len);
    else
        write_json_protocol(o, schema);
}

void report_json_protocol(struct out *o, const bitsift_schema *schema, const bitsift_result *res)
{
    out_char(o, ',');
    report_json_protocol_id(o, schema);
    if (res->packet_name) {
        out_str(o, ",\"type\":");
        out_json_string(o, res->packet_name, strlen(res->packet_name));
    }
}
