/*
 * record.c -- where a packet came from and why it failed, worded once for
 * text, JSON and JUnit output.
 */
#include <string.h>

#include "record.h"

void record_json_origin(struct out *o, const struct input_packet *p)
{
    out_str(o, "\"index\":");
    out_u64(o, p->index);
    out_str(o, ",\"source\":");
    out_json_string(o, p->source, strlen(p->source));
    if (p->from_capture) {
        char text[64];
        size_t n = format_time_rfc3339(text, p->sec, p->nsec);
        out_str(o, ",\"time\":\"");
        out_bytes(o, text, n);
        out_str(o, "\",\"src\":\"");
        n = decap_format_address(p->src, text, sizeof text);
        out_bytes(o, text, n);
        out_str(o, "\",\"dst\":\"");
        n = decap_format_address(p->dst, text, sizeof text);
        out_bytes(o, text, n);
        out_char(o, '"');
    }
    out_str(o, ",\"length\":");
    out_u64(o, p->size);
}

void record_reason(struct out *o, const bitsift_failure *f)
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

static const char *failure_path(const bitsift_result *res)
{
    if (res->path[0])
        return res->path;
    if (res->failure.field && res->failure.field[0])
        return res->failure.field;
    return "packet";
}

void record_json_error(struct out *o, const bitsift_result *res)
{
    const bitsift_failure *f = &res->failure;
    out_str(o, "{\"kind\":\"");
    out_str(o, bitsift_error_name(f->kind));
    out_str(o, "\",\"field\":");
    const char *path = failure_path(res);
    out_json_string(o, path, strlen(path));
    out_str(o, ",\"bit\":");
    out_u64(o, f->bit);
    /* The message is built in a memory buffer, then quoted. */
    struct out m;
    out_init_memory(&m);
    record_reason(&m, f);
    out_str(o, ",\"message\":");
    out_json_string(o, m.buf ? m.buf : "", m.len);
    out_finish(&m);
    out_str(o, ",\"expected\":");
    out_u64(o, f->expected);
    out_str(o, ",\"got\":");
    out_u64(o, f->got);
    out_char(o, '}');
}

void record_text_failure(struct out *o, const bitsift_result *res)
{
    out_str(o, failure_path(res));
    out_str(o, " @bit ");
    out_u64(o, res->failure.bit);
    out_str(o, ": ");
    record_reason(o, &res->failure);
}

void record_no_protocol(bitsift_result *res)
{
    memset(res, 0, sizeof *res);
    res->status = BITSIFT_E_PROTOCOL;
    res->packet_type = -1;
    res->failure.kind = BITSIFT_E_PROTOCOL;
    res->failure.why = "no schema's protocol id gives this packet a valid CRC";
}

void record_json_protocol(struct out *o, const bitsift_schema *schema, const bitsift_result *res)
{
    const char *name = bitsift_schema_name(schema);
    out_str(o, ",\"protocol\":");
    out_json_string(o, name, strlen(name));
    if (res->packet_name) {
        out_str(o, ",\"type\":");
        out_json_string(o, res->packet_name, strlen(res->packet_name));
    }
}
