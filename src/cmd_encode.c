/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cmd_encode.c -- `bitsift encode`: read NDJSON records as `decode -F json`
 * prints them and write the packets: raw files (-o DIR, one per record;
 * -o FILE for a single record; -o - to stdout) or a pcap (-w FILE) with
 * Ethernet/IPv4/UDP headers, addresses and times from the records.
 *
 * Records are parsed with jansson. jansson reads numbers as int64 or
 * double, which would lose a uint64 above 2^63 and round a float32 twice
 * (text -> double -> float); so before parsing, every real number and
 * every integer beyond int64 is turned into a string holding its exact
 * text, and the field's type in the schema decides how that text is read
 * (strtof for float fields, strtod for double, strtoull for unsigned).
 *
 * Records with "valid": false are skipped (there is no complete packet to
 * write) and counted. Exit 0 when every other record was written, 1 when
 * one could not be encoded, 2 on unreadable input or unwritable output.
 *
 * Outputs appear only when the run exits 0 (output_file.h): -w FILE and
 * -o FILE are written beside their target and renamed over it, -o DIR
 * into a temporary directory inside it whose files are moved in at the
 * end; a run that fails leaves every existing file as it was. An output
 * that is one of the inputs is refused.
 *
 * Memory per record is bounded while it is read: a line is read up to
 * MAX_LINE bytes and the rest of a longer one skipped, and jansson parses
 * it within a budget proportional to its size (json_budget below).
 */
#include <ctype.h>
#include <errno.h>
#include <jansson.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "capture.h"
#include "cli.h"
#include "encap.h"
#include "encode.h"
#include "out.h"
#include "output_file.h"

#define MAX_LINE         (64u << 20) /* bytes of one NDJSON record */
#define PACKET_CAPACITY  (4u << 20)
#define LINE_BLOCK       (64u << 10) /* bytes read from an input at a time */

/* (packet type, schema path) -> field id, sorted for bsearch. */
struct path_entry {
    unsigned type;
    const char *path;
    unsigned id;
};

struct schema_paths {
    struct path_entry *entries;
    size_t count;
};

struct encode_run {
    struct cli *cli;
    struct schema_paths *paths; /* per schema */
    bitsift_tree **trees;       /* per schema */
    uint8_t *packet;
    uint8_t *frame;
    capture_writer *pcap;
    FILE *single;     /* -o FILE or -o - */
    int stream;       /* single takes packet after packet (-o -) */
    const char *dir;  /* -o DIR */
    struct output_file file;   /* -w FILE, -o FILE (output_file.h) */
    struct output_dir staging; /* -o DIR: the temporary directory in it */
    struct decap_address default_src, default_dst;
    int64_t last_sec;
    uint32_t last_nsec;
    uint64_t records, written, skipped, failed;
    int trouble;
    const char *source; /* input being read */
    uint64_t line;      /* its line number */
    /* The line reader's block (LINE_BLOCK bytes): one for all inputs (and
     * kept by encode_records_from from one call to the next). */
    char *line_block;
    encode_packet_fn observe; /* sees each packet encoded (the fuzz harness) */
    encode_message_fn say;    /* takes the messages instead of stderr (the same harness) */
    void *observe_ctx;
};

static int compare_entries(const void *a, const void *b)
{
    const struct path_entry *x = a, *y = b;
    if (x->type != y->type)
        return x->type < y->type ? -1 : 1;
    return strcmp(x->path, y->path);
}

static int index_paths(const bitsift_schema *s, struct schema_paths *p)
{
    unsigned n = bitsift_schema_field_count(s);
    p->entries = calloc(n ? n : 1, sizeof *p->entries);
    if (!p->entries)
        return -1;
    for (unsigned id = 0; id < n; id++) {
        bitsift_field_info info;
        if (!bitsift_schema_field_info(s, id, &info) || !info.path)
            continue;
        p->entries[p->count++] = (struct path_entry){info.packet_type, info.path, id};
    }
    qsort(p->entries, p->count, sizeof *p->entries, compare_entries);
    return 0;
}

static int field_info_at(const bitsift_schema *s, const struct schema_paths *p, unsigned type,
                         const char *path, bitsift_field_info *info)
{
    struct path_entry key = {type, path, 0};
    const struct path_entry *e =
        bsearch(&key, p->entries, p->count, sizeof *p->entries, compare_entries);
    return e && bitsift_schema_field_info(s, e->id, info) ? 0 : -1;
}

static int field_type_at(const bitsift_schema *s, const struct schema_paths *p, unsigned type,
                         const char *path)
{
    bitsift_field_info info;
    return field_info_at(s, p, type, path, &info) == 0 ? (int)info.type : -1;
}

/* ------------------------------------------------------------------ */
/* Number protection: quote reals and integers beyond int64.           */
/* ------------------------------------------------------------------ */

/* Does the integer text [p, p+n) fit in int64? */
static int fits_int64(const char *p, size_t n)
{
    int negative = p[0] == '-';
    const char *digits = p + negative;
    size_t len = n - (size_t)negative;
    const char *limit = negative ? "9223372036854775808" : "9223372036854775807";
    if (len != 19)
        return len < 19;
    return memcmp(digits, limit, 19) <= 0;
}

/* Copy `line` to a new buffer with the numbers jansson would damage put in
 * quotes. Returns NULL when out of memory. */
static char *protect_numbers(const char *line, size_t size, size_t *out_size)
{
    char *out = malloc(size * 2 + 1); /* at worst every number gains 2 quotes */
    if (!out)
        return NULL;
    size_t o = 0;
    int in_string = 0;
    for (size_t i = 0; i < size;) {
        char c = line[i];
        if (in_string) {
            out[o++] = c;
            i++;
            if (c == '\\' && i < size)
                out[o++] = line[i++];
            else if (c == '"')
                in_string = 0;
            continue;
        }
        if (c == '"') {
            in_string = 1;
            out[o++] = c;
            i++;
            continue;
        }
        if (c == '-' || (c >= '0' && c <= '9')) {
            size_t start = i;
            int real = 0;
            while (i < size && line[i] && strchr("0123456789+-.eE", line[i])) {
                if (line[i] == '.' || line[i] == 'e' || line[i] == 'E')
                    real = 1;
                i++;
            }
            size_t n = i - start;
            int quote = real || !fits_int64(line + start, n);
            if (quote)
                out[o++] = '"';
            memcpy(out + o, line + start, n);
            o += n;
            if (quote)
                out[o++] = '"';
            continue;
        }
        out[o++] = c;
        i++;
    }
    out[o] = '\0';
    *out_size = o;
    return out;
}

/* ------------------------------------------------------------------ */
/* jansson's memory, within a budget per record                         */
/* ------------------------------------------------------------------ */

/*
 * jansson builds a tree of values that costs many times the text: the
 * records decode prints take 7 to 14 times their size, an array of small
 * numbers about 25 times ("0," becomes a 24-byte json_t, its malloc
 * overhead and a slot in the array). A record may make jansson hold
 * JSON_BUDGET_BASE + JSON_BUDGET_FACTOR times its size; past that the
 * allocation fails, the parse stops and the record is refused. The base
 * covers any record decode prints for a UDP datagram (at most ~3 MB of
 * JSON); what does not fit is a record built to exhaust memory.
 */
#define JSON_BUDGET_BASE   (16u << 20)
#define JSON_BUDGET_FACTOR 8

union json_block {
    size_t size;
    max_align_t align; /* what jansson stores after it stays aligned */
};

static struct {
    size_t in_use, limit;
    int exceeded;
} json_budget = {0, SIZE_MAX, 0};

static void *json_budget_malloc(size_t size)
{
    if (size > json_budget.limit - json_budget.in_use ||
        json_budget.limit - json_budget.in_use - size < sizeof(union json_block)) {
        json_budget.exceeded = 1;
        return NULL;
    }
    union json_block *b = malloc(sizeof *b + size);
    if (!b)
        return NULL;
    b->size = sizeof *b + size;
    json_budget.in_use += b->size;
    return b + 1;
}

static void json_budget_free(void *p)
{
    if (!p)
        return;
    union json_block *b = (union json_block *)p - 1;
    json_budget.in_use -= b->size;
    free(b);
}

/* Count jansson's memory from here on (before any JSON value exists). */
static void json_budget_install(void)
{
    json_set_alloc_funcs(json_budget_malloc, json_budget_free);
}

/* The budget of a record of `size` bytes, from now. */
static void json_budget_start(size_t size)
{
    size_t allowed = size > (SIZE_MAX - JSON_BUDGET_BASE) / JSON_BUDGET_FACTOR
                         ? SIZE_MAX
                         : JSON_BUDGET_BASE + JSON_BUDGET_FACTOR * size;
    json_budget.limit = allowed > SIZE_MAX - json_budget.in_use ? SIZE_MAX
                                                                : json_budget.in_use + allowed;
    json_budget.exceeded = 0;
}

/* ------------------------------------------------------------------ */
/* JSON -> value tree                                                   */
/* ------------------------------------------------------------------ */

struct build {
    struct encode_run *run;
    const bitsift_schema *schema;
    const struct schema_paths *paths;
    bitsift_tree *tree;
    unsigned type;
    char path[BITSIFT_PATH_MAX];
    char error[BITSIFT_PATH_MAX + 128];
    unsigned depth;
};

static int fail_build(struct build *b, const char *what)
{
    if (!b->error[0])
        snprintf(b->error, sizeof b->error, "%s: %s", b->path[0] ? b->path : "fields", what);
    return -1;
}

static int hex_value(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* A string value (a string field, an enum name, hex bytes, or a number
 * protected above), read according to the schema's field type. */
static int string_value(struct build *b, int type, const char *text, size_t size, bitsift_value *v,
                        uint8_t **scratch)
{
    memset(v, 0, sizeof *v);
    switch (type) {
    case BITSIFT_FIELD_BYTES: {
        if (size % 2)
            return fail_build(b, "bytes must be an even number of hex digits");
        uint8_t *bytes = malloc(size / 2 + 1);
        if (!bytes)
            return fail_build(b, "out of memory");
        for (size_t i = 0; i < size / 2; i++) {
            int hi = hex_value(text[2 * i]), lo = hex_value(text[2 * i + 1]);
            if (hi < 0 || lo < 0) {
                free(bytes);
                return fail_build(b, "bytes must be hex digits");
            }
            bytes[i] = (uint8_t)(hi << 4 | lo);
        }
        *scratch = bytes;
        v->kind = BITSIFT_VALUE_BYTES;
        v->data = bytes;
        v->size = size / 2;
        return 0;
    }
    case BITSIFT_FIELD_FLOAT:
    case BITSIFT_FIELD_COMPRESSED_FLOAT:
        v->kind = BITSIFT_VALUE_FLOAT;
        if (parse_float32(text, &v->f) == 0)
            return 0;
        if (strcmp(text, "inf") == 0 || strcmp(text, "-inf") == 0) {
            v->f = text[0] == '-' ? -__builtin_inff() : __builtin_inff();
            return 0;
        }
        return fail_build(b, "not a float");
    case BITSIFT_FIELD_DOUBLE:
        v->kind = BITSIFT_VALUE_DOUBLE;
        if (parse_float64(text, &v->d) == 0)
            return 0;
        if (strcmp(text, "inf") == 0 || strcmp(text, "-inf") == 0) {
            v->d = text[0] == '-' ? -__builtin_inf() : __builtin_inf();
            return 0;
        }
        return fail_build(b, "not a double");
    case BITSIFT_FIELD_STRING:
    case BITSIFT_FIELD_ENUM:
        v->kind = BITSIFT_VALUE_STRING;
        v->data = (const uint8_t *)text;
        v->size = size;
        return 0;
    case BITSIFT_FIELD_BITS:
    case BITSIFT_FIELD_BOOL:
    case BITSIFT_FIELD_UINT8:
    case BITSIFT_FIELD_UINT16:
    case BITSIFT_FIELD_UINT32:
    case BITSIFT_FIELD_UINT64:
    case BITSIFT_FIELD_INT:
    case BITSIFT_FIELD_INT_RELATIVE:
    case BITSIFT_FIELD_OBJECT_INDEX:
    case BITSIFT_FIELD_SEQUENCE_RELATIVE:
    case BITSIFT_FIELD_ACK_RELATIVE:
        /* A real (1e5, 3.0) is not an integer: through a double it would
         * round above 2^53, and decode never prints an integer that way. */
        if (strpbrk(text, ".eE")) {
            char what[96];
            snprintf(what, sizeof what, "an integer field takes an integer, not %.40s", text);
            return fail_build(b, what);
        }
        break;
    default:
        break;
    }
    /* Integers beyond int64 (protected), or a field the schema does not
     * know (the encoder ignores it): numbers if they parse, else text. */
    char *end;
    errno = 0;
    if (text[0] != '-' && text[0]) {
        unsigned long long u = strtoull(text, &end, 10);
        if (!errno && !*end) {
            v->kind = BITSIFT_VALUE_UINT;
            v->u = u;
            return 0;
        }
    }
    double d = strtod(text, &end);
    if (text[0] && !*end) {
        v->kind = BITSIFT_VALUE_DOUBLE;
        v->d = d;
        return 0;
    }
    v->kind = BITSIFT_VALUE_STRING;
    v->data = (const uint8_t *)text;
    v->size = size;
    return 0;
}

static int build_node(struct build *b, bitsift_node *parent, const char *name, json_t *j);

/* Append ".name" or "[]" to the path; returns the old length to restore. */
static size_t push_path(struct build *b, const char *name)
{
    size_t old = strlen(b->path);
    if (name)
        snprintf(b->path + old, sizeof b->path - old, "%s%s", old ? "." : "", name);
    else
        snprintf(b->path + old, sizeof b->path - old, "[]");
    return old;
}

static int build_struct_members(struct build *b, bitsift_node *node, json_t *j)
{
    const char *key;
    json_t *member;
    json_object_foreach(j, key, member)
    {
        if (key[0] == '@')
            continue; /* @index of a sparse element */
        size_t old = push_path(b, key);
        int r = build_node(b, node, key, member);
        b->path[old] = '\0';
        if (r)
            return r;
    }
    return 0;
}

static int build_node(struct build *b, bitsift_node *parent, const char *name, json_t *j)
{
    if (++b->depth > BITSIFT_SCHEMA_MAX_DEPTH * 4) {
        b->depth--;
        return fail_build(b, "nested too deep");
    }
    int r = 0;
    if (json_is_object(j)) {
        bitsift_node *n = bitsift_node_add_struct(b->tree, parent, name);
        if (!n)
            r = fail_build(b, "value tree limit reached");
        else
            r = build_struct_members(b, n, j);
    } else if (json_is_array(j)) {
        bitsift_node *n = bitsift_node_add_array(b->tree, parent, name);
        if (!n) {
            r = fail_build(b, "value tree limit reached");
        } else {
            size_t old = push_path(b, NULL);
            size_t i;
            json_t *element;
            json_array_foreach(j, i, element)
            {
                /* {"@index": N, ...}: a sparse element away from its position. */
                json_t *at = json_is_object(element) ? json_object_get(element, "@index") : NULL;
                json_t *value = at ? json_object_get(element, "@value") : NULL;
                size_t before = bitsift_node_child_count(n);
                if (at && value)
                    r = build_node(b, n, NULL, value);
                else
                    r = build_node(b, n, NULL, element);
                if (r)
                    break;
                if (at) {
                    if (!json_is_integer(at)) {
                        r = fail_build(b, "@index must be an integer");
                        break;
                    }
                    if (bitsift_node_child_count(n) > before)
                        bitsift_node_set_index(bitsift_node_child_at(n, before),
                                               json_integer_value(at));
                }
            }
            b->path[old] = '\0';
        }
    } else {
        bitsift_value v;
        memset(&v, 0, sizeof v);
        uint8_t *scratch = NULL;
        int type = field_type_at(b->schema, b->paths, b->type, b->path);
        if (json_is_boolean(j)) {
            v.kind = BITSIFT_VALUE_BOOL;
            v.b = json_is_true(j);
        } else if (json_is_integer(j)) {
            v.kind = BITSIFT_VALUE_INT;
            v.i = json_integer_value(j);
        } else if (json_is_string(j)) {
            r = string_value(b, type, json_string_value(j), json_string_length(j), &v, &scratch);
        } else if (json_is_null(j)) {
            r = fail_build(b, "null is not a value");
        } else {
            r = fail_build(b, "unexpected JSON value");
        }
        if (!r && !bitsift_node_add_value(b->tree, parent, name, &v))
            r = fail_build(b, "value tree limit reached");
        free(scratch);
    }
    b->depth--;
    return r;
}

/* ------------------------------------------------------------------ */
/* Records                                                              */
/* ------------------------------------------------------------------ */

static void record_error(struct encode_run *e, const char *message)
{
    if (e->say) {
        e->say(e->observe_ctx, e->line, message);
        return;
    }
    fflush(stdout);
    fprintf(stderr, "%s: %s:%llu: %s\n", cli_program, e->source, (unsigned long long)e->line,
            message);
}

/* A message about the input or output as a whole, not one record. */
static void run_error(struct encode_run *e, const char *format, ...)
    __attribute__((format(printf, 2, 3)));
static void run_error(struct encode_run *e, const char *format, ...)
{
    char message[512];
    va_list ap;
    va_start(ap, format);
    vsnprintf(message, sizeof message, format, ap);
    va_end(ap);
    if (e->say)
        e->say(e->observe_ctx, 0, message);
    else
        cli_error("%s", message);
}

/* ------------------------------------------------------------------ */
/* Which schema a record is written with                                */
/* ------------------------------------------------------------------ */

/* What a record says about its protocol; a key it lacks constrains nothing. */
struct protocol_keys {
    const char *name;
    int has_id, has_version;
    uint32_t id, version;
};

/* Read "protocol", "protocol_id" ("0x..." as decode prints it, or a
 * number) and "version"; NULL, or what is wrong with them. */
static const char *protocol_keys(json_t *record, struct protocol_keys *k)
{
    memset(k, 0, sizeof *k);
    json_t *name = json_object_get(record, "protocol");
    json_t *id = json_object_get(record, "protocol_id");
    json_t *version = json_object_get(record, "version");
    if (name && !json_is_string(name))
        return "\"protocol\" must be a string";
    k->name = json_string_value(name);
    if (id) {
        const char *text = json_string_value(id);
        char *end = NULL;
        unsigned long long v = 0;
        errno = 0;
        if (text && text[0] == '0' && (text[1] == 'x' || text[1] == 'X') &&
            isxdigit((unsigned char)text[2]))
            v = strtoull(text + 2, &end, 16);
        else if (json_is_integer(id) && json_integer_value(id) >= 0)
            v = (unsigned long long)json_integer_value(id), end = (char *)"";
        if (!end || *end || errno || v > UINT32_MAX)
            return "\"protocol_id\" must be a 32-bit id such as \"0x1a2b3c4d\"";
        k->has_id = 1;
        k->id = (uint32_t)v;
    }
    if (version) {
        if (!json_is_integer(version) || json_integer_value(version) < 0 ||
            json_integer_value(version) > UINT32_MAX)
            return "\"version\" must be an integer 0..4294967295";
        k->has_version = 1;
        k->version = (uint32_t)json_integer_value(version);
    }
    return NULL;
}

static int schema_fits(const bitsift_schema *s, const struct protocol_keys *k)
{
    uint32_t version;
    if (k->name && strcmp(bitsift_schema_name(s), k->name) != 0)
        return 0;
    if (k->has_id && bitsift_schema_protocol_id(s) != k->id)
        return 0;
    if (k->has_version && (!bitsift_schema_version(s, &version) || version != k->version))
        return 0;
    return 1;
}

/*
 * The schema whose name, id and version agree with every one of these
 * keys the record has: exactly one must. Two versions of one protocol
 * share the name, so a record that names only the protocol is ambiguous
 * and refused rather than sealed with one version's id (which would make
 * its CRC valid for the wrong protocol). Returns the schema's index, or -1
 * with the reason in `why`.
 */
static int choose_schema(const struct cli *c, json_t *record, char *why, size_t size)
{
    struct protocol_keys k;
    const char *bad = protocol_keys(record, &k);
    if (bad) {
        snprintf(why, size, "%s", bad);
        return -1;
    }
    int found = -1;
    size_t fits = 0;
    for (size_t i = 0; i < c->schema_count; i++)
        if (schema_fits(c->schemas[i], &k) && fits++ == 0)
            found = (int)i;
    if (fits == 1)
        return found;
    char wanted[128];
    int n = snprintf(wanted, sizeof wanted, "protocol \"%.64s\"", k.name ? k.name : "(any)");
    if (k.has_id)
        n += snprintf(wanted + n, sizeof wanted - (size_t)n, ", id 0x%08x", (unsigned)k.id);
    if (k.has_version)
        snprintf(wanted + n, sizeof wanted - (size_t)n, ", version %u", (unsigned)k.version);
    if (fits == 0)
        snprintf(why, size, "no schema given with -s matches %s", wanted);
    else
        snprintf(why, size,
                 "%zu schemas given with -s match %s: the record must say which with "
                 "\"protocol_id\" (or \"version\")",
                 fits, wanted);
    return -1;
}

/* ------------------------------------------------------------------ */
/* Why a record could not be encoded                                    */
/* ------------------------------------------------------------------ */

/* "players[1].id" -> "players[].id", the path bitsift_field_info gives. */
static void schema_path(const char *path, char *out, size_t size)
{
    size_t o = 0;
    for (const char *p = path; *p && o + 1 < size; p++) {
        out[o++] = *p;
        if (*p == '[')
            while (p[1] >= '0' && p[1] <= '9')
                p++;
    }
    out[o] = '\0';
}

static void put_number(char *buf, size_t size, uint64_t v, int is_signed)
{
    if (is_signed)
        snprintf(buf, size, "%lld", (long long)(int64_t)v);
    else
        snprintf(buf, size, "%llu", (unsigned long long)v);
}

/*
 * The encoder's failure, worded for the record: the field's path, the
 * bit, the reason, and the numbers compared as the field reads them, so
 * that an int below its range shows -7 (not 2^64 - 7) beside the range.
 * A reason without numbers (a missing field) shows none.
 */
static void failure_message(const bitsift_schema *s, const struct schema_paths *paths,
                            unsigned type, const bitsift_result *res, char *buf, size_t size)
{
    const bitsift_failure *f = &res->failure;
    if (f->kind != BITSIFT_E_VALUE) {
        char reason[BITSIFT_PATH_MAX + 256];
        bitsift_failure_format(f, reason, sizeof reason);
        snprintf(buf, size, "cannot encode: %s", reason);
        return;
    }
    const char *path = res->path[0] ? res->path : "fields";
    const char *why = f->why ? f->why : bitsift_error_string(f->kind);
    char key[BITSIFT_PATH_MAX];
    bitsift_field_info info;
    schema_path(res->path, key, sizeof key);
    int known = res->path[0] && field_info_at(s, paths, type, key, &info) == 0;
    /* Signed fields, and a negative value given to an unsigned field of
     * fewer than 64 bits (only uint64 and bits(64) hold values >= 2^63). */
    int wide = known && (info.type == BITSIFT_FIELD_UINT64 ||
                         (info.type == BITSIFT_FIELD_BITS && info.width == 64));
    int is_signed = (known && (info.type == BITSIFT_FIELD_INT ||
                               info.type == BITSIFT_FIELD_ENUM || info.min < 0)) ||
                    (f->got > INT64_MAX && !wide);
    char expected[32], got[32], numbers[128] = "";
    put_number(expected, sizeof expected, f->expected, is_signed);
    put_number(got, sizeof got, f->got, is_signed);
    if (known && (info.type == BITSIFT_FIELD_INT || info.type == BITSIFT_FIELD_ENUM) &&
        strstr(why, "range"))
        snprintf(numbers, sizeof numbers, " (range %lld..%lld, got %s)", (long long)info.min,
                 (long long)info.max, got);
    else if (f->expected || f->got)
        snprintf(numbers, sizeof numbers, " (expected %s, got %s)", expected, got);
    snprintf(buf, size, "cannot encode %s (bit %llu): %s%s", path, (unsigned long long)f->bit,
             why, numbers);
}

/* -o DIR: the packet as packet-NNNNNN.bin (the record's number) in the
 * temporary directory, moved into DIR when the run succeeds. */
static int write_packet_file(struct encode_run *e, size_t size)
{
    char name[64];
    snprintf(name, sizeof name, "packet-%06llu.bin", (unsigned long long)e->records);
    char *path = output_dir_path(&e->staging, name);
    if (!path) {
        cli_error("%s/%s: cannot write: %s", e->dir, name, strerror(errno));
        e->trouble = 1;
        return -1;
    }
    FILE *fp = fopen(path, "wb");
    int failed = !fp || fwrite(e->packet, 1, size, fp) != size;
    if (fp && fclose(fp) != 0)
        failed = 1;
    if (failed) {
        cli_error("%s/%s: cannot write: %s", e->dir, name, strerror(errno));
        e->trouble = 1;
    }
    free(path);
    return failed ? -1 : 0;
}

static int write_packet(struct encode_run *e, json_t *record, size_t size)
{
    struct cli *c = e->cli;
    if (e->pcap) {
        struct decap_address src = e->default_src, dst = e->default_dst;
        json_t *s = json_object_get(record, "src"), *d = json_object_get(record, "dst");
        if (json_is_string(s) && !c->src && encap_parse_address(json_string_value(s), &src) != 0) {
            record_error(e, "bad \"src\" address");
            return -1;
        }
        if (json_is_string(d) && !c->dst && encap_parse_address(json_string_value(d), &dst) != 0) {
            record_error(e, "bad \"dst\" address");
            return -1;
        }
        int64_t sec = e->last_sec;
        uint32_t nsec = e->last_nsec + 1000000; /* no time: 1 ms after the last */
        if (nsec >= 1000000000u) {
            sec++;
            nsec -= 1000000000u;
        }
        json_t *t = json_object_get(record, "time");
        if (json_is_string(t) && parse_time_rfc3339(json_string_value(t), &sec, &nsec) != 0) {
            record_error(e, "bad \"time\" (RFC 3339 expected)");
            return -1;
        }
        if (sec < CAPTURE_WRITER_FIRST_SECOND || sec > CAPTURE_WRITER_LAST_SECOND) {
            record_error(e, "\"time\" outside what a classic pcap holds (1970-01-01T00:00:00Z "
                            "to 2038-01-19T03:14:07Z)");
            return -1;
        }
        e->last_sec = sec;
        e->last_nsec = nsec;
        size_t n = encap_udp_frame(e->frame, &src, &dst, (uint16_t)e->written, e->packet, size);
        if (n == 0) {
            record_error(e, src.family != dst.family ? "src and dst are not of one IP version"
                                                     : "packet too large for a UDP datagram");
            return -1;
        }
        if (capture_writer_write(e->pcap, sec, nsec, e->frame, n) != 0) {
            record_error(e, "cannot write the frame");
            return -1;
        }
        return 0;
    }
    if (e->single) {
        if (!e->stream && e->written >= 1) {
            record_error(e, "-o FILE holds one packet; give -o a directory for several");
            return -1;
        }
        if (fwrite(e->packet, 1, size, e->single) != size) {
            run_error(e, "%s: write error: %s", c->output ? c->output : "-", strerror(errno));
            e->trouble = 1;
            return -1;
        }
        return 0;
    }
    return write_packet_file(e, size);
}

static void encode_record(struct encode_run *e, const char *line, size_t size)
{
    struct cli *c = e->cli;
    e->records++;
    size_t safe_size;
    char *safe = protect_numbers(line, size, &safe_size);
    if (!safe) {
        record_error(e, "out of memory");
        e->trouble = 1;
        return;
    }
    json_error_t jerr;
    json_budget_start(size);
    json_t *record = json_loadb(safe, safe_size, 0, &jerr);
    free(safe);
    if (!record && json_budget.exceeded) {
        char message[160];
        snprintf(message, sizeof message,
                 "record of %zu bytes needs more than %zu MiB to parse (its limit)", size,
                 ((size_t)JSON_BUDGET_BASE + JSON_BUDGET_FACTOR * size) >> 20);
        record_error(e, message);
        e->trouble = 1;
        return;
    }
    if (!record || !json_is_object(record)) {
        char message[300];
        snprintf(message, sizeof message, "not a JSON object: %s",
                 record ? "another JSON value" : jerr.text);
        record_error(e, message);
        json_decref(record);
        e->trouble = 1;
        return;
    }
    if (json_object_get(record, "summary")) {
        json_decref(record); /* a validate summary line: nothing to write */
        e->records--;
        return;
    }
    json_t *valid = json_object_get(record, "valid");
    if (json_is_false(valid)) {
        e->skipped++;
        json_decref(record);
        return;
    }
    char no_schema[256];
    int si = choose_schema(c, record, no_schema, sizeof no_schema);
    json_t *type = json_object_get(record, "type");
    json_t *fields = json_object_get(record, "fields");
    const char *problem = NULL;
    int type_index = -1;
    if (si < 0)
        problem = no_schema;
    else if (!json_is_string(type))
        problem = "record has no \"type\"";
    else if ((type_index = bitsift_schema_packet_index(c->schemas[si], json_string_value(type))) <
             0)
        problem = "unknown packet \"type\" for this protocol";
    else if (fields && !json_is_object(fields))
        problem = "\"fields\" must be an object";
    if (problem) {
        record_error(e, problem);
        e->failed++;
        json_decref(record);
        return;
    }
    struct build b;
    memset(&b, 0, sizeof b);
    b.run = e;
    b.schema = c->schemas[si];
    b.paths = &e->paths[si];
    b.tree = e->trees[si];
    b.type = (unsigned)type_index;
    if (!bitsift_tree_reset(b.tree, b.type)) {
        record_error(e, "cannot start a value tree");
        e->failed++;
        json_decref(record);
        return;
    }
    if (fields && build_struct_members(&b, bitsift_tree_root(b.tree), fields) != 0) {
        record_error(e, b.error);
        e->failed++;
        json_decref(record);
        return;
    }
    size_t packet_size = 0;
    bitsift_result res;
    if (bitsift_encode(b.schema, b.tree, e->packet, PACKET_CAPACITY, &packet_size, &res) !=
        BITSIFT_OK) {
        char message[BITSIFT_PATH_MAX + 400];
        failure_message(b.schema, b.paths, b.type, &res, message, sizeof message);
        record_error(e, message);
        e->failed++;
        json_decref(record);
        return;
    }
    if (e->observe)
        e->observe(e->observe_ctx, b.schema, e->packet, packet_size);
    if (write_packet(e, record, packet_size) == 0)
        e->written++;
    else
        e->failed++;
    json_decref(record);
}

/* ------------------------------------------------------------------ */
/* Reading lines with the limit applied while reading                   */
/* ------------------------------------------------------------------ */

/* An input read a block at a time; a line is gathered in `line` up to
 * MAX_LINE bytes, never more. */
struct line_reader {
    FILE *fp;
    char *block;
    size_t pos, end;
    char *line;
    size_t len, cap;
};

/* Append [p, p+n) to the line, growing it to at most MAX_LINE bytes:
 * -1 when the line would pass the limit, -2 without memory. */
static int line_append(struct line_reader *r, const char *p, size_t n)
{
    if (n == 0)
        return 0; /* r->line may still be NULL */
    if (n > MAX_LINE - r->len)
        return -1;
    if (r->len + n > r->cap) {
        size_t cap = r->cap ? r->cap : 4096;
        while (cap < r->len + n)
            cap *= 2;
        if (cap > MAX_LINE)
            cap = MAX_LINE;
        char *bigger = realloc(r->line, cap);
        if (!bigger)
            return -2;
        r->line = bigger;
        r->cap = cap;
    }
    memcpy(r->line + r->len, p, n);
    r->len += n;
    return 0;
}

enum line_status { LINE_OK, LINE_END, LINE_TOO_LONG, LINE_NO_MEMORY, LINE_READ_ERROR };

/* The next line, without its newline, in r->line / r->len. A line longer
 * than MAX_LINE is read to its end without being kept: LINE_TOO_LONG. */
static enum line_status next_line(struct line_reader *r)
{
    r->len = 0;
    int dropping = 0, no_memory = 0, any = 0;
    for (;;) {
        if (r->pos == r->end) {
            r->pos = 0;
            r->end = fread(r->block, 1, LINE_BLOCK, r->fp);
            if (r->end == 0) {
                if (ferror(r->fp))
                    return LINE_READ_ERROR;
                if (!any)
                    return LINE_END;
                break; /* a last line without a newline */
            }
        }
        any = 1;
        const char *start = r->block + r->pos;
        size_t avail = r->end - r->pos;
        const char *newline = memchr(start, '\n', avail);
        size_t n = newline ? (size_t)(newline - start) : avail;
        if (!dropping) {
            int k = line_append(r, start, n);
            if (k < 0) {
                dropping = 1;
                no_memory = k == -2;
            }
        }
        r->pos += n + (newline != NULL);
        if (newline)
            break;
    }
    if (dropping)
        return no_memory ? LINE_NO_MEMORY : LINE_TOO_LONG;
    return LINE_OK;
}

static void read_records(struct encode_run *e, FILE *fp, const char *source)
{
    struct line_reader r = {.fp = fp, .block = e->line_block};
    e->source = source;
    e->line = 0;
    enum line_status status = LINE_OK;
    while (!cli_interrupted() && (status = next_line(&r)) != LINE_END &&
           status != LINE_READ_ERROR) {
        e->line++;
        if (status != LINE_OK) {
            record_error(e, status == LINE_TOO_LONG ? "record longer than the 64 MiB limit"
                                                    : "out of memory for this record");
            e->trouble = 1;
            continue;
        }
        size_t n = r.len;
        while (n > 0 && (r.line[n - 1] == '\r' || r.line[n - 1] == '\n'))
            n--;
        size_t start = 0;
        while (start < n && (r.line[start] == ' ' || r.line[start] == '\t'))
            start++;
        if (start == n)
            continue; /* blank line */
        encode_record(e, r.line + start, n - start);
    }
    if (status == LINE_READ_ERROR && !cli_interrupted()) {
        run_error(e, "%s: read error: %s", source, strerror(errno));
        e->trouble = 1;
    }
    free(r.line);
}

/* An output that is one of the inputs would be read while it is replaced. */
static int output_is_an_input(const struct cli *c, const char *output)
{
    for (size_t i = 0; i < c->input_count; i++) {
        if (strcmp(c->inputs[i], "-") != 0 && output_is_same_file(output, c->inputs[i])) {
            cli_error("encode: the output %s is the input %s: refused", output, c->inputs[i]);
            return 1;
        }
    }
    return 0;
}

static int open_outputs(struct encode_run *e)
{
    struct cli *c = e->cli;
    char error[CAPTURE_ERROR_SIZE];
    if (!c->output && !c->pcap_out) {
        cli_error("encode: say where to write: -o DIR, -o FILE, -o - or -w FILE.pcap");
        return -1;
    }
    if (c->output && c->pcap_out) {
        cli_error("encode: -o and -w cannot be used together");
        return -1;
    }
    const char *target = c->pcap_out ? c->pcap_out : c->output;
    int to_stdout = strcmp(target, "-") == 0;
    struct stat st;
    if (!to_stdout && output_is_an_input(c, target))
        return -1;
    if (!c->pcap_out && !to_stdout && stat(target, &st) == 0 && S_ISDIR(st.st_mode)) {
        if (output_dir_open(&e->staging, target) != 0) {
            cli_error("%s: cannot write in this directory: %s", target, strerror(errno));
            return -1;
        }
        e->dir = target;
        return 0;
    }
    FILE *fp = stdout;
    if (!to_stdout) {
        if (output_file_open(&e->file, target) != 0) {
            cli_error("%s: cannot write: %s", target, strerror(errno));
            return -1;
        }
        fp = e->file.fp;
    }
    if (!c->pcap_out) {
        e->single = fp;
        e->stream = to_stdout;
        return 0;
    }
    e->pcap = capture_writer_open(fp, error);
    if (!e->pcap) {
        cli_error("%s: %s", target, error);
        return -1;
    }
    e->file.fp = NULL; /* the writer owns the stream now */
    return 0;
}

/* End the outputs: put them in place when the run succeeded (exit 0),
 * else remove what was written. Returns the exit status. */
static int close_outputs(struct encode_run *e, int status)
{
    struct cli *c = e->cli;
    if (e->pcap && capture_writer_close(e->pcap) != 0) {
        cli_error("%s: write error: %s", c->pcap_out, strerror(errno));
        status = EXIT_TROUBLE;
    }
    e->pcap = NULL;
    if (e->single == stdout && fflush(stdout) != 0) {
        cli_error("write error on standard output: %s", strerror(errno));
        status = EXIT_TROUBLE;
    }
    e->single = NULL;
    if (output_file_is_open(&e->file)) {
        const char *target = c->pcap_out ? c->pcap_out : c->output;
        if (status != EXIT_VALID) {
            output_file_discard(&e->file);
        } else if (output_file_commit(&e->file) != 0) {
            cli_error("%s: cannot write: %s", target, strerror(errno));
            status = EXIT_TROUBLE;
        }
    }
    if (e->staging.stage) {
        char *failed_name = NULL;
        if (status != EXIT_VALID) {
            output_dir_discard(&e->staging);
        } else if (output_dir_commit(&e->staging, &failed_name) != 0) {
            cli_error("%s/%s: cannot move into place: %s", e->dir,
                      failed_name ? failed_name : "", strerror(errno));
            status = EXIT_TROUBLE;
        }
        free(failed_name);
    }
    return status;
}

/* The default addresses: -1 (with a message) when --src or --dst is bad. */
static int parse_default_addresses(struct encode_run *e, const struct cli *c)
{
    if (encap_parse_address(c->src ? c->src : "10.0.0.1:40000", &e->default_src) != 0 ||
        encap_parse_address(c->dst ? c->dst : "10.0.0.2:27015", &e->default_dst) != 0) {
        cli_error("encode: --src and --dst take ADDR:PORT (IPv6 as [ADDR]:PORT)");
        return -1;
    }
    return 0;
}

/* The buffers, path indexes and value trees of a run: -1 (with a message)
 * without memory. */
static int encode_start(struct encode_run *e, struct cli *c)
{
    memset(e, 0, sizeof *e);
    e->cli = c;
    e->paths = calloc(c->schema_count, sizeof *e->paths);
    e->trees = calloc(c->schema_count, sizeof *e->trees);
    e->packet = malloc(PACKET_CAPACITY);
    e->frame = malloc(ENCAP_MAX_HEADERS + ENCAP_MAX_PAYLOAD);
    e->line_block = malloc(LINE_BLOCK);
    if (!e->paths || !e->trees || !e->packet || !e->frame || !e->line_block) {
        cli_error("out of memory");
        return -1;
    }
    for (size_t i = 0; i < c->schema_count; i++) {
        if (index_paths(c->schemas[i], &e->paths[i]) != 0 ||
            !(e->trees[i] = bitsift_tree_create(c->schemas[i]))) {
            cli_error("out of memory");
            return -1;
        }
    }
    return 0;
}

static void encode_free(struct encode_run *e)
{
    for (size_t i = 0; e->paths && i < e->cli->schema_count; i++)
        free(e->paths[i].entries);
    for (size_t i = 0; e->trees && i < e->cli->schema_count; i++)
        bitsift_tree_free(e->trees[i]);
    free(e->paths);
    free(e->trees);
    free(e->packet);
    free(e->frame);
    free(e->line_block);
}

int encode_records_from(struct cli *c, FILE *records, FILE *out, int as_pcap,
                        encode_packet_fn observe, encode_message_fn say, void *ctx)
{
    /* The buffers (a 4 MiB packet, the line reader's block), indexes and
     * trees are kept from one call to the next with the same cli: a fuzzer
     * calls this thousands of times a second. */
    static struct encode_run kept;
    static const struct cli *kept_for;
    json_budget_install();
    if (kept_for != c) {
        if (kept_for)
            encode_free(&kept);
        kept_for = NULL;
        if (encode_start(&kept, c) != 0) {
            encode_free(&kept);
            if (as_pcap)
                fclose(out);
            return EXIT_TROUBLE;
        }
        kept_for = c;
    }
    struct encode_run e;
    memset(&e, 0, sizeof e);
    e.cli = c;
    e.paths = kept.paths;
    e.trees = kept.trees;
    e.packet = kept.packet;
    e.frame = kept.frame;
    e.line_block = kept.line_block;
    e.observe = observe;
    e.say = say;
    e.observe_ctx = ctx;
    if (parse_default_addresses(&e, c) != 0) {
        if (as_pcap)
            fclose(out);
        return EXIT_TROUBLE;
    }
    if (as_pcap) {
        char error[CAPTURE_ERROR_SIZE];
        if (!(e.pcap = capture_writer_open(out, error))) {
            run_error(&e, "<output>: %s", error);
            fclose(out);
            return EXIT_TROUBLE;
        }
    } else {
        e.single = out;
        e.stream = 1;
    }
    read_records(&e, records, "<records>");
    int status = e.trouble ? EXIT_TROUBLE : e.failed ? EXIT_INVALID : EXIT_VALID;
    if (e.pcap && capture_writer_close(e.pcap) != 0) {
        run_error(&e, "<output>: write error");
        status = EXIT_TROUBLE;
    }
    return status;
}

int cmd_encode(struct cli *c)
{
    if (cli_load_schemas(c) != 0)
        return EXIT_TROUBLE;
    json_budget_install();
    struct encode_run e;
    int status = EXIT_TROUBLE;
    if (encode_start(&e, c) != 0 || parse_default_addresses(&e, c) != 0 || open_outputs(&e) != 0)
        goto done;
    if (c->input_count == 0) {
        read_records(&e, stdin, "<stdin>");
    } else {
        for (size_t i = 0; i < c->input_count && !cli_interrupted(); i++) {
            if (strcmp(c->inputs[i], "-") == 0) {
                read_records(&e, stdin, "<stdin>");
                continue;
            }
            FILE *fp = fopen(c->inputs[i], "r");
            if (!fp) {
                if (!cli_interrupted()) /* else a blocked open of a FIFO */
                    cli_error("%s: cannot open: %s", c->inputs[i], strerror(errno));
                e.trouble = 1;
                continue;
            }
            read_records(&e, fp, c->inputs[i]);
            fclose(fp);
        }
    }
    if (cli_interrupted()) {
        cli_error("interrupted: stopped at record %llu", (unsigned long long)e.records);
        e.trouble = 1;
    }
    const char *target = c->pcap_out ? c->pcap_out : c->output;
    int staged = e.file.temp || e.staging.stage; /* replaced on success only */
    status = close_outputs(&e, e.trouble ? EXIT_TROUBLE : e.failed ? EXIT_INVALID : EXIT_VALID);
    if (staged && status != EXIT_VALID) {
        fflush(stdout);
        fprintf(stderr,
                "%s: %llu packets encoded, %llu invalid records skipped, %llu failed: %s left as "
                "it was (written only when every record is)\n",
                cli_program, (unsigned long long)e.written, (unsigned long long)e.skipped,
                (unsigned long long)e.failed, target);
    } else if (!c->quiet && (e.skipped || e.failed)) {
        fflush(stdout);
        fprintf(stderr, "%s: %llu packets written, %llu invalid records skipped, %llu failed\n",
                cli_program, (unsigned long long)e.written, (unsigned long long)e.skipped,
                (unsigned long long)e.failed);
    }
done:
    close_outputs(&e, EXIT_TROUBLE); /* after an early failure: remove what was made */
    encode_free(&e);
    return status;
}
