/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * schema_print.c -- the layout of a compiled schema as text, what
 * `bitsift schema FILE` shows: the framing, then every packet type with
 * one line per field, indented by nesting, with its bit cost.
 *
 *   packet snapshot (type 1): 92..4711 bits
 *     sequence              uint16                  16
 *     objects               array[64] relative      7..4500
 *       objects[]           struct Object           ...
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "schema_internal.h"

static int print_bits(char *buf, size_t size, uint64_t min, uint64_t max)
{
    if (min == max)
        return snprintf(buf, size, "%" PRIu64, min);
    if (max == UINT64_MAX)
        return snprintf(buf, size, "%" PRIu64 "..unbounded", min);
    return snprintf(buf, size, "%" PRIu64 "..%" PRIu64, min, max);
}

static void describe_type(const bitsift_schema *s, const struct schema_op *op, char *buf,
                          size_t size)
{
    if (op->code == OP_ARRAY)
        snprintf(buf, size, "array[%" PRId64 "] %s%s", op->max,
                 op->array_kind >= ARRAY_FLAGS ? "sparse " : "",
                 schema_array_kind_name((enum array_kind)op->array_kind));
    else
        field_spelling(s, op, buf, size);
}

static bool print_range(const bitsift_schema *s, FILE *out, uint32_t first, uint32_t end,
                        unsigned indent)
{
    for (uint32_t i = first; i < end;) {
        const struct schema_op *op = &s->ops[i];
        char type[96], bits[48];
        if (op->code == OP_IF) {
            uint64_t a, b;
            schema_size(s, i, op->end, &a, &b);
            print_bits(bits, sizeof bits, a, b);
            /* The condition itself is not shown: the CLI's golden layout
             * files pin this form ("if (...)"). */
            if (fprintf(out, "%*sif (...)%*s%s\n", (int)indent, "", (int)(46 - indent - 8), "",
                        bits) < 0)
                return false;
            if (!print_range(s, out, i + 1, op->else_start, indent + 2))
                return false;
            if (op->else_start < op->end) {
                if (fprintf(out, "%*selse\n", (int)indent, "") < 0 ||
                    !print_range(s, out, op->else_start, op->end, indent + 2))
                    return false;
            }
            i = op->end;
            continue;
        }
        const bitsift_field_info *f = &s->fields[op->field].info;
        describe_type(s, op, type, sizeof type);
        print_bits(bits, sizeof bits, f->min_bits, f->max_bits);
        int w = 30 - (int)indent;
        if (fprintf(out, "%*s%-*s %-24s %s\n", (int)indent, "", w < 1 ? 1 : w,
                    f->path[0] ? f->path : op->name, type, bits) < 0)
            return false;
        if (op->code == OP_STRUCT || op->code == OP_ARRAY) {
            if (!print_range(s, out, i + 1, op->end, indent + 2))
                return false;
            i = op->end;
        } else {
            i++;
        }
    }
    return true;
}

bool bitsift_schema_print(const bitsift_schema *s, FILE *out)
{
    if (!s || !out)
        return false;
    const bitsift_framing *fr = &s->framing;
    if (fprintf(out, "protocol %s: id 0x%08" PRIx32, s->name, fr->protocol_id) < 0)
        return false;
    if (s->has_version)
        fprintf(out, " (version %" PRIu32 ")", s->version);
    fprintf(out, ", crc %s, end check ", fr->crc ? "on" : "off");
    if (fr->end_check)
        fprintf(out, "0x%08" PRIx32, fr->end_check_value);
    else
        fprintf(out, "off");
    fprintf(out, ", prefix %" PRIu32 " bytes, %" PRIu32 " packet type%s\n", fr->prefix_bytes,
            fr->num_types, fr->num_types == 1 ? "" : "s");
    for (uint32_t p = 0; p < s->packet_count; p++) {
        const struct schema_packet *pk = &s->packets[p];
        char bits[48];
        print_bits(bits, sizeof bits, pk->min_bits, pk->max_bits);
        if (fprintf(out, "\npacket %s (type %" PRIu32 "): %s bits\n", pk->name, p, bits) < 0)
            return false;
        if (!print_range(s, out, pk->first_op + 1, pk->end_op, 2))
            return false;
    }
    return !ferror(out);
}
