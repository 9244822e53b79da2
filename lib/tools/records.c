/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * records.c -- <bitsift/records.h>: the record reader. A line (read within
 * its limit by record_lines.c) is parsed by jansson within its memory
 * budget (json_budget.c) after its numbers are kept as text
 * (json_numbers.c); the record names its schema and packet type, its
 * "fields" become that type's value tree (record_tree.c), and
 * bitsift_record_encode words the encoder's refusal for the record.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "records_internal.h"

struct bitsift_record_reader {
    const bitsift_schema **schemas;
    size_t count;
    struct record_paths *paths; /* per schema */
    bitsift_tree **trees;       /* per schema */
    struct record_lines lines;
    uint64_t line;              /* the input's line last read */
    int (*stop)(void *ctx);
    void *stop_ctx;
    json_t *record;             /* the last record, whose strings rec points to */
};

bitsift_record_reader *bitsift_record_reader_create(const bitsift_schema *const *schemas,
                                                    size_t count)
{
    record_budget_install();
    bitsift_record_reader *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    r->count = count;
    r->schemas = calloc(count ? count : 1, sizeof *r->schemas);
    r->paths = calloc(count ? count : 1, sizeof *r->paths);
    r->trees = calloc(count ? count : 1, sizeof *r->trees);
    r->lines.block = malloc(RECORD_LINE_BLOCK);
    if (!r->schemas || !r->paths || !r->trees || !r->lines.block) {
        bitsift_record_reader_free(r);
        return NULL;
    }
    for (size_t i = 0; i < count; i++) {
        r->schemas[i] = schemas[i];
        if (record_paths_index(schemas[i], &r->paths[i]) != 0 ||
            !(r->trees[i] = bitsift_tree_create(schemas[i]))) {
            bitsift_record_reader_free(r);
            return NULL;
        }
    }
    return r;
}

static void drop_record(bitsift_record_reader *r)
{
    json_decref(r->record);
    r->record = NULL;
}

void bitsift_record_reader_free(bitsift_record_reader *r)
{
    if (!r)
        return;
    drop_record(r);
    for (size_t i = 0; r->paths && i < r->count; i++)
        free(r->paths[i].entries);
    for (size_t i = 0; r->trees && i < r->count; i++)
        bitsift_tree_free(r->trees[i]);
    record_lines_reset(&r->lines);
    free(r->lines.block);
    free(r->schemas);
    free(r->paths);
    free(r->trees);
    free(r);
}

void bitsift_record_reader_start(bitsift_record_reader *r, FILE *input, int (*stop)(void *ctx),
                                 void *ctx)
{
    drop_record(r);
    record_lines_reset(&r->lines);
    r->lines.fp = input;
    r->line = 0;
    r->stop = stop;
    r->stop_ctx = ctx;
}

static bitsift_record_status fail(bitsift_record_error *err, bitsift_record_status status,
                                  const char *message)
{
    snprintf(err->message, sizeof err->message, "%s", message);
    return status;
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
static int choose_schema(const bitsift_record_reader *r, json_t *record, char *why, size_t size)
{
    struct protocol_keys k;
    const char *bad = protocol_keys(record, &k);
    if (bad) {
        snprintf(why, size, "%s", bad);
        return -1;
    }
    int found = -1;
    size_t fits = 0;
    for (size_t i = 0; i < r->count; i++)
        if (schema_fits(r->schemas[i], &k) && fits++ == 0)
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
/* Records                                                              */
/* ------------------------------------------------------------------ */

static const char *string_or_null(json_t *record, const char *key)
{
    json_t *j = json_object_get(record, key);
    return json_is_string(j) ? json_string_value(j) : NULL;
}

bitsift_record_status bitsift_record_parse(bitsift_record_reader *r, const char *text,
                                           size_t size, bitsift_record *rec,
                                           bitsift_record_error *err)
{
    drop_record(r);
    memset(rec, 0, sizeof *rec);
    err->line = 0;
    err->path[0] = '\0';
    err->message[0] = '\0';
    size_t safe_size;
    char *safe = record_protect_numbers(text, size, &safe_size);
    if (!safe)
        return fail(err, BITSIFT_RECORD_MALFORMED, "out of memory");
    json_error_t jerr;
    record_budget_start(size);
    json_t *record = json_loadb(safe, safe_size, 0, &jerr);
    free(safe);
    if (!record && record_budget_exceeded()) {
        snprintf(err->message, sizeof err->message,
                 "record of %zu bytes needs more than %zu MiB to parse (its limit)", size,
                 record_budget_mib(size));
        return BITSIFT_RECORD_MALFORMED;
    }
    if (!record || !json_is_object(record)) {
        snprintf(err->message, sizeof err->message, "not a JSON object: %s",
                 record ? "another JSON value" : jerr.text);
        json_decref(record);
        return BITSIFT_RECORD_MALFORMED;
    }
    r->record = record;
    if (json_object_get(record, "summary"))
        return BITSIFT_RECORD_SUMMARY; /* a validate summary line: nothing to write */
    if (json_is_false(json_object_get(record, "valid")))
        return BITSIFT_RECORD_SKIPPED;
    char no_schema[256];
    int si = choose_schema(r, record, no_schema, sizeof no_schema);
    json_t *type = json_object_get(record, "type");
    json_t *fields = json_object_get(record, "fields");
    const char *problem = NULL;
    int type_index = -1;
    if (si < 0)
        problem = no_schema;
    else if (!json_is_string(type))
        problem = "record has no \"type\"";
    else if ((type_index = bitsift_schema_packet_index(r->schemas[si], json_string_value(type))) <
             0)
        problem = "unknown packet \"type\" for this protocol";
    else if (fields && !json_is_object(fields))
        problem = "\"fields\" must be an object";
    if (problem)
        return fail(err, BITSIFT_RECORD_REFUSED, problem);
    rec->schema = (size_t)si;
    rec->packet_type = (unsigned)type_index;
    rec->tree = r->trees[si];
    rec->src = string_or_null(record, "src");
    rec->dst = string_or_null(record, "dst");
    rec->time = string_or_null(record, "time");
    if (!bitsift_tree_reset(rec->tree, rec->packet_type))
        return fail(err, BITSIFT_RECORD_REFUSED, "cannot start a value tree");
    if (fields && record_tree_build(r->schemas[si], &r->paths[si], rec->tree, rec->packet_type,
                                    fields, err) != 0)
        return BITSIFT_RECORD_REFUSED;
    return BITSIFT_RECORD_OK;
}

bitsift_record_status bitsift_record_next(bitsift_record_reader *r, bitsift_record *rec,
                                          bitsift_record_error *err)
{
    struct record_lines *lines = &r->lines;
    for (;;) {
        drop_record(r);
        memset(rec, 0, sizeof *rec);
        err->line = 0;
        err->path[0] = '\0';
        err->message[0] = '\0';
        if (r->stop && r->stop(r->stop_ctx))
            return BITSIFT_RECORD_STOPPED;
        enum record_line_status status = record_lines_next(lines);
        if (status == RECORD_LINE_END || status == RECORD_LINE_READ_ERROR) {
            int read_errno = errno;
            record_lines_reset(lines); /* the line buffer goes with the input */
            if (status == RECORD_LINE_END)
                return BITSIFT_RECORD_END;
            snprintf(err->message, sizeof err->message, "read error: %s", strerror(read_errno));
            errno = read_errno;
            return BITSIFT_RECORD_READ_ERROR;
        }
        err->line = ++r->line;
        if (status != RECORD_LINE_OK)
            return fail(err, BITSIFT_RECORD_TOO_LONG,
                        status == RECORD_LINE_TOO_LONG ? "record longer than the 64 MiB limit"
                                                       : "out of memory for this record");
        size_t n = lines->len;
        while (n > 0 && (lines->line[n - 1] == '\r' || lines->line[n - 1] == '\n'))
            n--;
        size_t start = 0;
        while (start < n && (lines->line[start] == ' ' || lines->line[start] == '\t'))
            start++;
        if (start == n)
            continue; /* blank line */
        bitsift_record_status parsed =
            bitsift_record_parse(r, lines->line + start, n - start, rec, err);
        rec->line = err->line = r->line;
        return parsed;
    }
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
static void failure_message(const bitsift_schema *s, const struct record_paths *paths,
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
    int known = res->path[0] && record_field_info_at(s, paths, type, key, &info) == 0;
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

bitsift_record_status bitsift_record_encode(bitsift_record_reader *r, const bitsift_record *rec,
                                            uint8_t *packet, size_t capacity, size_t *size,
                                            bitsift_record_error *err)
{
    const bitsift_schema *s = r->schemas[rec->schema];
    bitsift_result res;
    *size = 0;
    err->line = rec->line;
    err->path[0] = '\0';
    err->message[0] = '\0';
    if (bitsift_encode(s, rec->tree, packet, capacity, size, &res) == BITSIFT_OK)
        return BITSIFT_RECORD_OK;
    failure_message(s, &r->paths[rec->schema], rec->packet_type, &res, err->message,
                    sizeof err->message);
    memcpy(err->path, res.path, sizeof err->path);
    return BITSIFT_RECORD_REFUSED;
}
