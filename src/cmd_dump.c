/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cmd_dump.c -- `bitsift dump`: a bit-level annotated hex dump, the tool to
 * triage a fuzzer's crash file or a packet that does not decode.
 *
 * One line per field as the decoder meets it:
 *
 *       bit  bits  bytes   raw bits (MSB first)               field = value
 *         0    32  0-3     00010010001101000101011001111000   crc = 0x12345678
 *        32     2  4       01                                 type = 1 (Snapshot)
 *
 * `raw bits` are the field's bits as the stream holds them (bit k of the
 * stream is bit k%8 of byte k/8), printed most significant first so that
 * they read as the number. Fields decode up to the first failure, which is
 * marked with "!!" and the bits it concerns; then the whole packet is shown
 * as a hex dump with the bytes of the failing bits in [brackets] and the
 * bytes never reached marked '.', so you see how far decoding got.
 */
#include <string.h>

#include "cli.h"
#include "print/fields.h"
#include "print/packet_report.h"
#include "verdict.h"

struct dump_run {
    struct cli *cli;
    struct out out;
    const uint8_t *data; /* the packet being dumped */
    size_t size;
    uint64_t dumped;
    int several_inputs;
};

static void right(struct out *o, uint64_t v, unsigned width)
{
    char digits[24];
    unsigned n = 0;
    do {
        digits[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    if (n < width)
        out_repeat(o, ' ', width - n);
    while (n)
        out_char(o, digits[--n]);
}

static size_t put_u64(char *buf, uint64_t v)
{
    char digits[24];
    size_t n = 0;
    do {
        digits[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    for (size_t i = 0; i < n; i++)
        buf[i] = digits[n - 1 - i];
    return n;
}

/* `width` bits (<= 64) at stream bit `bit`, bounds-checked bit by bit. */
static uint64_t stream_bits(const uint8_t *data, size_t size, uint64_t bit, unsigned width)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < width; i++) {
        uint64_t b = bit + i;
        if (b / 8 >= size)
            break;
        v |= (uint64_t)((data[b / 8] >> (b % 8)) & 1) << i;
    }
    return v;
}

#define BITS_COLUMN 34

/* The columns before the field name: bit, width, byte span, raw bits. */
static void columns(struct dump_run *d, const char *mark, uint64_t bit, uint64_t bits,
                    int show_raw)
{
    struct out *o = &d->out;
    out_str(o, mark);
    right(o, bit, 6);
    right(o, bits, 6);
    out_str(o, "  ");
    size_t used = 0;
    if (bits) {
        uint64_t first = bit / 8, last = (bit + bits - 1) / 8;
        char text[48];
        used = put_u64(text, first);
        if (last != first) {
            text[used++] = '-';
            used += put_u64(text + used, last);
        }
        out_bytes(o, text, used);
    }
    out_repeat(o, ' ', used < 10 ? 10 - used : 1);
    used = 0;
    if (show_raw && bits > 0) {
        unsigned width = bits > 32 ? 32 : (unsigned)bits;
        uint64_t raw = stream_bits(d->data, d->size, bit + (bits - width), width);
        if (bits > 32) {
            out_str(o, "..");
            used += 2;
        }
        for (unsigned i = width; i-- > 0;)
            out_char(o, (raw >> i) & 1 ? '1' : '0');
        used += width;
    }
    out_repeat(o, ' ', used < BITS_COLUMN ? BITS_COLUMN - used : 1);
    out_str(o, " ");
}

static void path_of(struct out *o, const bitsift_event *ev)
{
    if (ev->path_len)
        out_bytes(o, ev->path, ev->path_len);
    else
        out_str(o, ev->name);
}

static bool on_field(void *ctx, const bitsift_event *ev)
{
    struct dump_run *d = ctx;
    struct out *o = &d->out;
    int raw = ev->value.kind != BITSIFT_VALUE_BYTES && ev->value.kind != BITSIFT_VALUE_STRING &&
              !(ev->flags & (BITSIFT_EVENT_ABSENT | BITSIFT_EVENT_DERIVED));
    columns(d, "  ", ev->bit, ev->bits, raw);
    path_of(o, ev);
    if (ev->flags & BITSIFT_EVENT_ARRAY_META)
        out_str(o, ev->value.kind == BITSIFT_VALUE_BOOL ? " (present)"
                   : ev->path_len && ev->path[ev->path_len - 1] == ']' ? " (index)"
                                                                      : " (count)");
    out_str(o, " = ");
    fields_write_text_value(o, ev);
    if (ev->flags & BITSIFT_EVENT_ABSENT)
        out_str(o, " (absent)");
    if (ev->flags & BITSIFT_EVENT_DERIVED)
        out_str(o, " (derived)");
    out_char(o, '\n');
    return true;
}

static bool on_enter(void *ctx, const bitsift_event *ev)
{
    struct dump_run *d = ctx;
    columns(d, "  ", ev->bit, 0, 0);
    path_of(&d->out, ev);
    out_str(&d->out, ev->type == BITSIFT_FIELD_ARRAY ? " [\n" : " {\n");
    return true;
}

static bool on_leave(void *ctx, const bitsift_event *ev)
{
    struct dump_run *d = ctx;
    columns(d, "  ", ev->bit, ev->bits, 0);
    path_of(&d->out, ev);
    out_str(&d->out, ev->type == BITSIFT_FIELD_ARRAY ? " ] " : " } ");
    out_u64(&d->out, ev->bits);
    out_str(&d->out, " bits\n");
    return true;
}

/* How many bits a failure concerns, from what it says it expected. */
static uint64_t failure_width(const bitsift_failure *f, uint64_t total_bits)
{
    switch (f->kind) {
    case BITSIFT_E_RANGE:
        return f->expected ? 64u - (unsigned)__builtin_clzll(f->expected) : 1;
    case BITSIFT_E_OVERFLOW:
        return f->bit < total_bits ? total_bits - f->bit : 0;
    case BITSIFT_E_CHECK:
    case BITSIFT_E_CRC:
        return 32;
    case BITSIFT_E_ALIGN:
        return f->bit % 8 ? 8 - f->bit % 8 : 8;
    case BITSIFT_E_STRING:
        return 8;
    default:
        return 0;
    }
}

/* The packet in 16-byte rows; bytes of the failure in [..], bytes after the
 * point decoding reached shown as they are but after a '|' at that point. */
static void hex_rows(struct dump_run *d, uint64_t fail_bit, uint64_t fail_bits, int failed,
                     uint64_t reached_bits)
{
    struct out *o = &d->out;
    uint64_t fail_first = fail_bit / 8;
    uint64_t fail_last = fail_bits ? (fail_bit + fail_bits - 1) / 8 : fail_first;
    uint64_t reached = (reached_bits + 7) / 8;
    for (size_t row = 0; row < d->size; row += 16) {
        out_str(o, "  ");
        out_hex_u64(o, row, 4);
        out_str(o, ": ");
        for (size_t i = row; i < row + 16 && i < d->size; i++) {
            int in_failure = failed && i >= fail_first && i <= fail_last;
            out_char(o, in_failure && (i == fail_first || i % 16 == 0) ? '[' : ' ');
            out_hex_u64(o, d->data[i], 2);
            if (in_failure && (i == fail_last || i % 16 == 15 || i + 1 == d->size))
                out_char(o, ']');
            else if (!failed && i + 1 == reached && reached < d->size)
                out_char(o, '|');
        }
        out_char(o, '\n');
    }
}

static void header(struct dump_run *d, const struct input_packet *p, const bitsift_schema *schema,
                   const bitsift_result *res)
{
    struct out *o = &d->out;
    out_str(o, p->source);
    out_str(o, ":packet ");
    out_u64(o, p->index);
    out_str(o, ": ");
    out_u64(o, p->size);
    out_str(o, " bytes (");
    out_u64(o, (uint64_t)p->size * 8);
    out_str(o, " bits), ");
    if (schema) {
        report_text_protocol(o, schema);
        out_char(o, ' ');
        out_str(o, res->packet_name ? res->packet_name : "(type not read)");
    } else {
        out_str(o, "unknown protocol");
    }
    out_str(o, res->status == BITSIFT_OK ? ", valid\n" : ", INVALID\n");
    out_str(o, "     bit  bits  bytes     raw bits (MSB first)                field = value\n");
}

static int on_packet(void *ctx, const struct input_packet *p)
{
    struct dump_run *d = ctx;
    struct cli *c = d->cli;
    /* Decode once without output to write the header (type, verdict)
     * first, then again with the visitor that prints. */
    struct verdict verdict;
    if (!verdict_take(c, p->data, p->size, &verdict))
        return 0; /* not selected by -Y */
    const bitsift_schema *schema = verdict.schema;
    d->data = p->data;
    d->size = p->size;
    if (d->dumped)
        out_char(&d->out, '\n');
    bitsift_result res = verdict.res;
    header(d, p, schema, &res);
    if (schema) {
        bitsift_visitor v = {on_field, on_enter, on_leave, d};
        bitsift_decode(schema, p->data, p->size, verdict.flags, &v, &res);
        if (verdict.crc_mismatch)
            res = verdict.res; /* the CRC mismatch, or the failure past it */
    }
    uint64_t total = (uint64_t)p->size * 8;
    uint64_t width = 0;
    if (res.status != BITSIFT_OK) {
        width = failure_width(&res.failure, total);
        if (res.failure.bit + width > total)
            width = res.failure.bit < total ? total - res.failure.bit : 0;
        columns(d, "!!", res.failure.bit, width, 1);
        out_str(&d->out, bitsift_error_name(res.status));
        out_str(&d->out, ": ");
        report_text_failure(&d->out, &res);
        verdict_text_note(&d->out, &verdict);
        out_char(&d->out, '\n');
    } else if (res.bits < total) {
        columns(d, "  ", res.bits, total - res.bits, 1);
        out_str(&d->out, "(after the packet: ");
        out_u64(&d->out, total - res.bits);
        out_str(&d->out, " bits not read)\n");
    }
    hex_rows(d, res.failure.bit, width, res.status != BITSIFT_OK, res.bits);
    d->dumped++;
    return c->count && d->dumped >= c->count;
}

int cmd_dump(struct cli *c)
{
    if (cli_load_schemas(c) != 0)
        return EXIT_TROUBLE;
    struct dump_run d = {.cli = c};
    out_init(&d.out, stdout);
    c->stdout_buffer = &d.out;
    struct input_options options;
    cli_input_options(c, &options);
    struct input_handler h = {
        .ctx = &d, .packet = on_packet, .problem = cli_report_problem, .problem_ctx = c};
    struct input_counts counts = {0};
    input_run(c->inputs, c->input_count, &options, &h, &counts);
    c->stdout_buffer = NULL;
    int failed = out_finish(&d.out) != 0;
    cli_report_counts(c, &counts);
    if (failed) {
        cli_error("write error on standard output");
        return EXIT_TROUBLE;
    }
    return cli_had_trouble(c, &counts) ? EXIT_TROUBLE : EXIT_VALID;
}
