/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * vector_schema.c -- turns a reference vector (the JSON format of
 * ../shared/vectors/README.txt) into a bitsift schema, and checks what a
 * program decoded from the vector's bytes with that schema against the
 * values the reference recorded.
 *
 *   vector-schema schema VECTOR.json          the schema, on stdout
 *   vector-schema bytes VECTOR.json           the vector's "hex" as raw bytes
 *   vector-schema pcap VECTOR.json            the same bytes as the one UDP
 *                                             datagram of a capture (raw IPv4),
 *                                             for a vector of no bytes: bitsift
 *                                             reports an empty packet file as
 *                                             no packet, a UDP datagram of no
 *                                             bytes is one
 *   vector-schema check VECTOR.json [RECORD]  compare one NDJSON record as
 *                                             `bitsift decode -F json` prints
 *                                             it (stdin when no RECORD file)
 *
 * It holds the schema path (parser, compiler, decoder, JSON printer) to the
 * reference, where tests/vectors/replay_vectors.c holds the library's primitives.
 * The schema says nothing the vector does not: every op becomes one
 * statement, the value ops named by their index ("o0", "o1", ...):
 *
 *   bits N -> bits(N)        bool, uint8..uint64, float, double as such
 *   int / int64 A B -> int(A, B)         bytes L -> bytes(L)
 *   compressed_float -> compressed_float(MIN, MAX, RES), each bound written
 *                       with 17 digits so that it reads back as exactly the
 *                       vector's float32 (the *_bits fields)
 *   string S -> string(S)    int_relative P -> int_relative(P)
 *   align -> align;          check -> check(0x12345678);
 * and the ops the library adds in hand-made vectors (tests/vectors/handmade):
 *   object_index P M -> object_index(P, M)
 *   sequence_relative P -> sequence_relative(P)
 *   ack_relative S -> ack_relative(S)    check "name" -> check("name")
 *
 * Framed packets (kind packet and packet_corrupt) get their protocol id,
 * CRC and end check, and num_types packet types T0..T<n-1> of which the
 * vector's type holds the ops; streams and rejects are read as raw bytes
 * with "crc off; end_check off;" and one packet type, which sends no type
 * field.
 *
 * check verdicts, one line on stdout, exit 0 when it holds and 1 when not:
 *   stream, packet   valid, every value equal (integers exactly, floats and
 *                    doubles by bit pattern, compressed floats as read_bits,
 *                    bytes and strings exactly), and "bits" = bits_written
 *   reject           invalid with the vector's fail_kind at field o<fail_at>
 *                    (an align or check statement has no name: the error
 *                    then lies inside that op's bits), every field decoded
 *                    before it equal
 *   packet_corrupt   invalid with a crc error
 * Packets must also name the protocol id they were read with.
 *
 * The decoder's JSON is read with jansson after every number is put in
 * quotes (jansson would round a uint64 above 2^63 and a float through
 * double), so each value is compared from its exact text.
 *
 * A later code generator is held to the reference the same way: the
 * schema from `schema`, its program's record through `check`.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

static const char *program = "vector-schema";

static int usage(void)
{
    fprintf(stderr,
            "Usage: %s schema VECTOR.json\n"
            "       %s bytes VECTOR.json\n"
            "       %s pcap VECTOR.json\n"
            "       %s check VECTOR.json [RECORD.ndjson]\n",
            program, program, program, program);
    return 2;
}

/* ------------------------------------------------------------------ */
/* Reading the vector                                                   */
/* ------------------------------------------------------------------ */

static json_t *load_vector(const char *path)
{
    json_error_t err;
    json_t *v = json_load_file(path, JSON_DECODE_ANY, &err);
    if (!v || !json_is_object(v) || !json_is_array(json_object_get(v, "ops"))) {
        fprintf(stderr, "%s: %s: not a vector: %s\n", program, path, v ? "no ops" : err.text);
        json_decref(v);
        return NULL;
    }
    return v;
}

static const char *kind_of(const json_t *v)
{
    const char *k = json_string_value(json_object_get(v, "kind"));
    return k ? k : "";
}

static bool is_framed(const json_t *v)
{
    return strncmp(kind_of(v), "packet", 6) == 0;
}

/* A number that may be a JSON integer or a decimal string (64-bit values),
 * as its decimal text. */
static bool number_text(const json_t *j, char *buf, size_t size)
{
    if (json_is_integer(j)) {
        snprintf(buf, size, "%" JSON_INTEGER_FORMAT, json_integer_value(j));
        return true;
    }
    if (json_is_string(j)) {
        snprintf(buf, size, "%s", json_string_value(j));
        return buf[0] != '\0';
    }
    return false;
}

static bool hex_u64(const json_t *j, uint64_t *out)
{
    const char *s = json_string_value(j);
    if (!s || s[0] != '0' || (s[1] != 'x' && s[1] != 'X'))
        return false;
    char *end;
    errno = 0;
    *out = strtoull(s + 2, &end, 16);
    return !errno && end != s + 2 && *end == '\0';
}

static float float_of_bits(uint32_t u)
{
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

/* A float32 bound from its "*_bits" pattern, as a literal the schema
 * compiler reads back exactly (17 digits name the double that equals it). */
static bool float_literal(const json_t *op, const char *key, char *buf, size_t size)
{
    char bits_key[32];
    snprintf(bits_key, sizeof bits_key, "%s_bits", key);
    uint64_t bits;
    if (!hex_u64(json_object_get(op, bits_key), &bits) || bits > UINT32_MAX)
        return false;
    float f = float_of_bits((uint32_t)bits);
    if (!isfinite(f))
        return false;
    snprintf(buf, size, "%.17g", (double)f);
    return true;
}

/* ------------------------------------------------------------------ */
/* schema                                                               */
/* ------------------------------------------------------------------ */

/* One op as a schema statement; false when the op is not known. */
static bool print_statement(FILE *out, const json_t *op, size_t index)
{
    const char *name = json_string_value(json_object_get(op, "op"));
    char a[64], b[64], c[64];
    if (!name)
        return false;
    if (strcmp(name, "align") == 0) {
        fprintf(out, "    align;\n");
        return true;
    }
    if (strcmp(name, "check") == 0) {
        uint64_t value;
        const char *hashed = json_string_value(json_object_get(op, "name"));
        if (hashed && !strpbrk(hashed, "\"\\\n")) {
            fprintf(out, "    check(\"%s\");\n", hashed);
            return true;
        }
        if (!hex_u64(json_object_get(op, "value"), &value) || value > UINT32_MAX)
            return false;
        fprintf(out, "    check(0x%08" PRIx64 ");\n", value);
        return true;
    }
    fprintf(out, "    ");
    if (strcmp(name, "bits") == 0) {
        if (!number_text(json_object_get(op, "n"), a, sizeof a))
            return false;
        fprintf(out, "bits(%s)", a);
    } else if (strcmp(name, "bool") == 0 || strcmp(name, "uint8") == 0 ||
               strcmp(name, "uint16") == 0 || strcmp(name, "uint32") == 0 ||
               strcmp(name, "uint64") == 0 || strcmp(name, "float") == 0 ||
               strcmp(name, "double") == 0) {
        fprintf(out, "%s", name);
    } else if (strcmp(name, "int") == 0 || strcmp(name, "int64") == 0) {
        if (!number_text(json_object_get(op, "min"), a, sizeof a) ||
            !number_text(json_object_get(op, "max"), b, sizeof b))
            return false;
        fprintf(out, "int(%s, %s)", a, b);
    } else if (strcmp(name, "compressed_float") == 0) {
        if (!float_literal(op, "min", a, sizeof a) || !float_literal(op, "max", b, sizeof b) ||
            !float_literal(op, "res", c, sizeof c))
            return false;
        fprintf(out, "compressed_float(%s, %s, %s)", a, b, c);
    } else if (strcmp(name, "bytes") == 0) {
        if (!number_text(json_object_get(op, "len"), a, sizeof a))
            return false;
        fprintf(out, "bytes(%s)", a);
    } else if (strcmp(name, "string") == 0) {
        if (!number_text(json_object_get(op, "bufsize"), a, sizeof a))
            return false;
        fprintf(out, "string(%s)", a);
    } else if (strcmp(name, "int_relative") == 0 || strcmp(name, "sequence_relative") == 0) {
        if (!number_text(json_object_get(op, "prev"), a, sizeof a))
            return false;
        fprintf(out, "%s(%s)", name, a);
    } else if (strcmp(name, "object_index") == 0) {
        if (!number_text(json_object_get(op, "prev"), a, sizeof a) ||
            !number_text(json_object_get(op, "max_objects"), b, sizeof b))
            return false;
        fprintf(out, "object_index(%s, %s)", a, b);
    } else if (strcmp(name, "ack_relative") == 0) {
        if (!number_text(json_object_get(op, "sequence"), a, sizeof a))
            return false;
        fprintf(out, "ack_relative(%s)", a);
    } else {
        return false;
    }
    fprintf(out, " o%zu;\n", index);
    return true;
}

static int cmd_schema(const json_t *v, const char *path)
{
    const json_t *ops = json_object_get(v, "ops");
    unsigned long long id = 0, end_check = 0, types = 1, type = 0;
    bool framed = is_framed(v);
    if (framed) {
        uint64_t x;
        if (!hex_u64(json_object_get(v, "protocol_id"), &x) || x > UINT32_MAX) {
            fprintf(stderr, "%s: %s: no protocol_id\n", program, path);
            return 2;
        }
        id = x;
        if (!hex_u64(json_object_get(v, "end_check"), &x) || x > UINT32_MAX) {
            fprintf(stderr, "%s: %s: no end_check\n", program, path);
            return 2;
        }
        end_check = x;
        json_int_t n = json_integer_value(json_object_get(v, "num_types"));
        json_int_t t = json_integer_value(json_object_get(v, "type"));
        if (n < 1 || n > 65536 || t < 0 || t >= n) {
            fprintf(stderr, "%s: %s: bad num_types or type\n", program, path);
            return 2;
        }
        types = (unsigned long long)n;
        type = (unsigned long long)t;
    }
    printf("# %s vector %s, written by vector-schema\n", kind_of(v), path);
    if (framed)
        printf("protocol vector { id 0x%08llx; crc on; end_check 0x%08llx; }\n", id, end_check);
    else
        printf("protocol vector { id 0; crc off; end_check off; }\n");
    for (unsigned long long t = 0; t < types; t++) {
        printf("packet T%llu {\n", t);
        if (t == type) {
            size_t i;
            const json_t *op;
            json_array_foreach(ops, i, op)
            {
                if (!print_statement(stdout, op, i)) {
                    fprintf(stderr, "%s: %s: op %zu: not a known op\n", program, path, i);
                    return 2;
                }
            }
        }
        printf("}\n");
    }
    return fflush(stdout) == 0 && !ferror(stdout) ? 0 : 2;
}

/* ------------------------------------------------------------------ */
/* bytes                                                                */
/* ------------------------------------------------------------------ */

static int hex_digit(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* The vector's "hex" into a fresh buffer; NULL when it is not hex. */
static uint8_t *vector_bytes(const json_t *v, const char *path, size_t *size)
{
    const char *hex = json_string_value(json_object_get(v, "hex"));
    size_t n = hex ? strlen(hex) : 1;
    uint8_t *bytes = n % 2 == 0 && n / 2 <= 65507 ? malloc(n / 2 + 1) : NULL;
    for (size_t i = 0; bytes && i < n; i += 2) {
        int hi = hex_digit(hex[i]), lo = hex_digit(hex[i + 1]);
        if (hi < 0 || lo < 0) {
            free(bytes);
            bytes = NULL;
        } else {
            bytes[i / 2] = (uint8_t)(hi << 4 | lo);
        }
    }
    if (!bytes)
        fprintf(stderr, "%s: %s: \"hex\" is not at most 65507 bytes of hex\n", program, path);
    *size = n / 2;
    return bytes;
}

static int cmd_bytes(const json_t *v, const char *path)
{
    size_t size;
    uint8_t *bytes = vector_bytes(v, path, &size);
    if (!bytes)
        return 2;
    fwrite(bytes, 1, size, stdout);
    free(bytes);
    return fflush(stdout) == 0 && !ferror(stdout) ? 0 : 2;
}

static void put16be(uint8_t *p, unsigned v)
{
    p[0] = (uint8_t)(v >> 8);
    p[1] = (uint8_t)v;
}

static void put32le(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

/*
 * A classic pcap (little-endian, LINKTYPE_RAW) of one frame:
 *
 *   file header (24)  a1b2c3d4 2.4 0 0 snaplen=65535 link=101
 *   record (16)       time 0.0, caplen = len = 28 + n
 *   IPv4 (20)         45 00 len | 0 0 | ttl 64, UDP, checksum | 10.0.0.1 > 10.0.0.2
 *   UDP (8)           40000 > 27015, length 8 + n, no checksum
 *   payload (n)
 */
static int cmd_pcap(const json_t *v, const char *path)
{
    size_t size;
    uint8_t *bytes = vector_bytes(v, path, &size);
    if (!bytes)
        return 2;
    uint8_t head[24 + 16 + 20 + 8] = {0};
    put32le(head, 0xa1b2c3d4);
    head[4] = 2, head[6] = 4;
    put32le(head + 16, 65535);
    put32le(head + 20, 101);
    put32le(head + 32, (uint32_t)(28 + size));
    put32le(head + 36, (uint32_t)(28 + size));
    uint8_t *ip = head + 40;
    ip[0] = 0x45;
    put16be(ip + 2, (unsigned)(28 + size));
    ip[8] = 64, ip[9] = 17;
    ip[12] = 10, ip[15] = 1;
    ip[16] = 10, ip[19] = 2;
    uint32_t sum = 0;
    for (int i = 0; i < 20; i += 2)
        sum += (uint32_t)(ip[i] << 8 | ip[i + 1]);
    while (sum >> 16)
        sum = (sum & 0xffff) + (sum >> 16);
    put16be(ip + 10, ~sum & 0xffff);
    uint8_t *udp = ip + 20;
    put16be(udp, 40000);
    put16be(udp + 2, 27015);
    put16be(udp + 4, (unsigned)(8 + size));
    fwrite(head, 1, sizeof head, stdout);
    fwrite(bytes, 1, size, stdout);
    free(bytes);
    return fflush(stdout) == 0 && !ferror(stdout) ? 0 : 2;
}

/* ------------------------------------------------------------------ */
/* check                                                                */
/* ------------------------------------------------------------------ */

/* The record with every number outside strings put in quotes, so that
 * jansson hands back its exact text. NULL when out of memory. */
static char *quote_numbers(const char *text, size_t size)
{
    char *out = malloc(size * 3 + 1); /* "1" becomes "\"1\"" */
    if (!out)
        return NULL;
    size_t o = 0;
    bool in_string = false;
    for (size_t i = 0; i < size;) {
        char c = text[i];
        if (in_string) {
            out[o++] = text[i++];
            if (c == '\\' && i < size)
                out[o++] = text[i++];
            else if (c == '"')
                in_string = false;
        } else if (c == '"') {
            in_string = true;
            out[o++] = text[i++];
        } else if (c == '-' || (c >= '0' && c <= '9')) {
            out[o++] = '"';
            while (i < size && strchr("0123456789+-.eE", text[i]))
                out[o++] = text[i++];
            out[o++] = '"';
        } else {
            out[o++] = text[i++];
        }
    }
    out[o] = '\0';
    return out;
}

static char verdict[1024];

static bool mismatch(const char *format, ...) __attribute__((format(printf, 1, 2)));
static bool mismatch(const char *format, ...)
{
    va_list ap;
    va_start(ap, format);
    vsnprintf(verdict, sizeof verdict, format, ap);
    va_end(ap);
    return false;
}

/* The text of a decoded value that must be a number (quoted above). */
static const char *decoded_text(const json_t *got)
{
    return json_string_value(got);
}

static bool same_integer(const json_t *want, const json_t *got, size_t i)
{
    char w[64];
    const char *g = decoded_text(got);
    if (!number_text(want, w, sizeof w) || !g)
        return mismatch("o%zu: not an integer (decoded %s)", i, g ? g : "no number");
    errno = 0;
    char *end;
    if (w[0] == '-') {
        long long a = strtoll(w, NULL, 10), b = strtoll(g, &end, 10);
        if (errno || *end || a != b)
            return mismatch("o%zu: decoded %s, the reference %s", i, g, w);
    } else {
        unsigned long long a = strtoull(w, NULL, 10), b = strtoull(g, &end, 10);
        if (errno || *end || g[0] == '-' || a != b)
            return mismatch("o%zu: decoded %s, the reference %s", i, g, w);
    }
    return true;
}

/* A decoded float or double ("1.5", "-0.0", "inf", "nan:0x7fc00001") as
 * its bit pattern. */
static bool decoded_bits(const char *text, bool is_double, uint64_t *bits)
{
    char *end;
    if (strncmp(text, "nan:0x", 6) == 0) {
        errno = 0;
        *bits = strtoull(text + 6, &end, 16);
        return !errno && *end == '\0';
    }
    errno = 0;
    if (is_double) {
        double d = strtod(text, &end);
        memcpy(bits, &d, sizeof d);
    } else {
        float f = strtof(text, &end);
        uint32_t u;
        memcpy(&u, &f, sizeof u);
        *bits = u;
    }
    return end != text && *end == '\0';
}

static bool same_bits(const json_t *op, const char *key, bool is_double, const json_t *got,
                      size_t i)
{
    uint64_t want, bits;
    const char *g = json_string_value(got);
    if (!hex_u64(json_object_get(op, key), &want))
        return mismatch("o%zu: the vector has no \"%s\"", i, key);
    if (!g || !decoded_bits(g, is_double, &bits))
        return mismatch("o%zu: decoded %s, not a number", i, g ? g : "no value");
    if (bits != want)
        return mismatch("o%zu: decoded %s (bits 0x%" PRIx64 "), the reference has bits 0x%" PRIx64,
                        i, g, bits, want);
    return true;
}

static bool same_text(const json_t *want, const json_t *got, size_t i)
{
    const char *w = json_string_value(want), *g = json_string_value(got);
    if (!w || !g || strcmp(w, g) != 0)
        return mismatch("o%zu: decoded \"%s\", the reference \"%s\"", i, g ? g : "(none)",
                        w ? w : "(none)");
    return true;
}

/* Value op i of the vector against its decoded field. */
static bool same_value(const json_t *op, const json_t *got, size_t i)
{
    const char *name = json_string_value(json_object_get(op, "op"));
    const json_t *want = json_object_get(op, "value");
    if (!got)
        return mismatch("o%zu (%s): not in the decoded fields", i, name);
    if (strcmp(name, "bool") == 0) {
        if (!json_is_boolean(got) || json_is_true(got) != json_is_true(want))
            return mismatch("o%zu: decoded bool differs", i);
        return true;
    }
    if (strcmp(name, "float") == 0)
        return same_bits(op, "bits", false, got, i);
    if (strcmp(name, "double") == 0)
        return same_bits(op, "bits", true, got, i);
    if (strcmp(name, "compressed_float") == 0)
        return same_bits(op, "read_bits", false, got, i);
    if (strcmp(name, "bytes") == 0)
        return same_text(json_object_get(op, "hex"), got, i);
    if (strcmp(name, "string") == 0)
        return same_text(want, got, i);
    return same_integer(want, got, i);
}

static bool is_value_op(const json_t *op)
{
    const char *name = json_string_value(json_object_get(op, "op"));
    return name && strcmp(name, "align") != 0 && strcmp(name, "check") != 0;
}

/* Ops 0..count-1 against the decoded fields. */
static bool same_values(const json_t *ops, size_t count, const json_t *fields)
{
    for (size_t i = 0; i < count; i++) {
        const json_t *op = json_array_get(ops, i);
        if (!is_value_op(op))
            continue;
        char key[32];
        snprintf(key, sizeof key, "o%zu", i);
        if (!same_value(op, json_object_get(fields, key), i))
            return false;
    }
    return true;
}

static bool check_protocol(const json_t *v, const json_t *record)
{
    uint64_t want, got;
    if (!hex_u64(json_object_get(v, "protocol_id"), &want))
        return mismatch("the vector has no protocol_id");
    if (!hex_u64(json_object_get(record, "protocol_id"), &got))
        return mismatch("the record names no \"protocol_id\"");
    if (want != got)
        return mismatch("read as protocol id 0x%08" PRIx64 ", the vector's is 0x%08" PRIx64, got,
                        want);
    return true;
}

static bool check_valid(const json_t *v, const json_t *record)
{
    const json_t *ops = json_object_get(v, "ops");
    const json_t *error = json_object_get(record, "error");
    if (!json_is_true(json_object_get(record, "valid")))
        return mismatch("refused: %s at %s",
                        json_string_value(json_object_get(error, "kind")),
                        json_string_value(json_object_get(error, "field")));
    if (!same_values(ops, json_array_size(ops), json_object_get(record, "fields")))
        return false;
    char want[32];
    const char *got = json_string_value(json_object_get(record, "bits"));
    if (!number_text(json_object_get(v, "bits_written"), want, sizeof want) || !got ||
        strcmp(want, got) != 0)
        return mismatch("decoded %s bits, the reference wrote %s", got ? got : "no", want);
    if (is_framed(v)) {
        char type[32];
        snprintf(type, sizeof type, "T%" JSON_INTEGER_FORMAT,
                 json_integer_value(json_object_get(v, "type")));
        const char *got_type = json_string_value(json_object_get(record, "type"));
        if (!got_type || strcmp(got_type, type) != 0)
            return mismatch("decoded type %s, the reference %s", got_type ? got_type : "none",
                            type);
        return check_protocol(v, record);
    }
    return true;
}

static bool check_reject(const json_t *v, const json_t *record)
{
    const json_t *ops = json_object_get(v, "ops");
    const json_t *error = json_object_get(record, "error");
    json_int_t at = json_integer_value(json_object_get(v, "fail_at"));
    const char *want_kind = json_string_value(json_object_get(v, "fail_kind"));
    if (json_is_true(json_object_get(record, "valid")))
        return mismatch("accepted; the reference refuses op %" JSON_INTEGER_FORMAT " (%s)", at,
                        want_kind);
    const char *kind = json_string_value(json_object_get(error, "kind"));
    const char *field = json_string_value(json_object_get(error, "field"));
    const char *bit_text = json_string_value(json_object_get(error, "bit"));
    if (!kind || !field || !bit_text || !want_kind || at < 0 || (size_t)at >= json_array_size(ops))
        return mismatch("the record or the vector lacks the failure's kind, field or bit");
    if (strcmp(kind, want_kind) != 0)
        return mismatch("refused with %s at %s, the reference with %s at o%" JSON_INTEGER_FORMAT,
                        kind, field, want_kind, at);
    const json_t *op = json_array_get(ops, (size_t)at);
    if (is_value_op(op)) {
        char key[32];
        snprintf(key, sizeof key, "o%" JSON_INTEGER_FORMAT, at);
        if (strcmp(field, key) != 0)
            return mismatch("refused at %s, the reference at %s", field, key);
    } else {
        /* An align or check statement has no name: the failure must lie
         * in its bits. */
        json_int_t pos = json_integer_value(json_object_get(op, "bit_pos"));
        json_int_t len = json_integer_value(json_object_get(op, "bit_len"));
        long long bit = strtoll(bit_text, NULL, 10);
        if (bit < pos || bit > pos + len)
            return mismatch("refused at bit %lld (%s), the reference in op %" JSON_INTEGER_FORMAT
                            " (bits %" JSON_INTEGER_FORMAT "..%" JSON_INTEGER_FORMAT ")",
                            bit, field, at, pos, pos + len);
    }
    return same_values(ops, (size_t)at, json_object_get(record, "fields"));
}

static bool check_corrupt(const json_t *v, const json_t *record)
{
    const char *kind = json_string_value(json_object_get(json_object_get(record, "error"), "kind"));
    if (json_is_true(json_object_get(record, "valid")))
        return mismatch("accepted; the reference refuses it (crc mismatch)");
    if (!kind || strcmp(kind, "crc") != 0)
        return mismatch("refused with %s, the reference with crc", kind ? kind : "nothing");
    return check_protocol(v, record);
}

static char *read_all(FILE *fp, size_t *size)
{
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        n += fread(buf + n, 1, cap - n, fp);
        if (n < cap)
            break;
        if (cap > (64u << 20)) {
            free(buf);
            return NULL;
        }
        char *bigger = realloc(buf, cap * 2);
        if (!bigger)
            free(buf);
        buf = bigger;
        cap *= 2;
    }
    if (buf && ferror(fp)) {
        free(buf);
        return NULL;
    }
    *size = n;
    return buf;
}

static int cmd_check(const json_t *v, const char *path, const char *record_path)
{
    FILE *fp = record_path ? fopen(record_path, "r") : stdin;
    if (!fp) {
        fprintf(stderr, "%s: %s: %s\n", program, record_path, strerror(errno));
        return 2;
    }
    size_t size = 0;
    char *text = read_all(fp, &size);
    if (fp != stdin)
        fclose(fp);
    char *quoted = text ? quote_numbers(text, size) : NULL;
    free(text);
    if (!quoted) {
        fprintf(stderr, "%s: cannot read the record\n", program);
        return 2;
    }
    json_error_t err;
    json_t *record = json_loads(quoted, JSON_DISABLE_EOF_CHECK, &err);
    free(quoted);
    bool ok;
    const char *kind = kind_of(v);
    if (!json_is_object(record))
        ok = mismatch("no decoded record (%s)", record ? "not an object" : err.text);
    else if (strcmp(kind, "stream") == 0 || strcmp(kind, "packet") == 0)
        ok = check_valid(v, record);
    else if (strcmp(kind, "reject") == 0)
        ok = check_reject(v, record);
    else if (strcmp(kind, "packet_corrupt") == 0)
        ok = check_corrupt(v, record);
    else
        ok = mismatch("unknown vector kind \"%s\"", kind);
    json_decref(record);
    if (ok)
        printf("%s: %s\n", path, kind);
    else
        printf("%s: %s: %s\n", path, kind, verdict);
    return ok ? 0 : 1;
}

int main(int argc, char **argv)
{
    if (argc < 3 || argc > 4 || (argc == 4 && strcmp(argv[1], "check") != 0))
        return usage();
    json_t *v = load_vector(argv[2]);
    if (!v)
        return 2;
    int status;
    if (strcmp(argv[1], "schema") == 0)
        status = cmd_schema(v, argv[2]);
    else if (strcmp(argv[1], "bytes") == 0)
        status = cmd_bytes(v, argv[2]);
    else if (strcmp(argv[1], "pcap") == 0)
        status = cmd_pcap(v, argv[2]);
    else if (strcmp(argv[1], "check") == 0)
        status = cmd_check(v, argv[2], argc == 4 ? argv[3] : NULL);
    else
        status = usage();
    json_decref(v);
    return status;
}
