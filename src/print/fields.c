/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fields.c -- the field tree of one packet, printed from decoder events.
 *
 * JSON mirrors the value tree that `bitsift encode` rebuilds: structs,
 * vectors and quaternions are objects, arrays are arrays, enums print by
 * name, bytes as a hex string. Fields the encoder does not need are left
 * out: framing (CRC, type, end check: the record says the type), checks and
 * alignment (fixed by the schema), absent conditional fields, and array
 * counts and indices (the array itself says them). A smallest-three
 * quaternion keeps all four components (the encoder needs them) and the
 * index of the largest. An element of a sparse array whose index differs from its
 * position carries it: {"@index": 7, ...} for a struct, {"@index": 7,
 * "@value": v} for a scalar ('@' cannot start a schema name).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "print/fields.h"

struct fields_keys *fields_keys_create(const bitsift_schema *schema)
{
    struct fields_keys *k = malloc(sizeof *k);
    if (!k)
        return NULL;
    k->count = bitsift_schema_field_count(schema);
    k->keys = calloc(k->count ? k->count : 1, sizeof *k->keys);
    if (!k->keys) {
        free(k);
        return NULL;
    }
    return k;
}

void fields_keys_free(struct fields_keys *k)
{
    if (!k)
        return;
    for (unsigned i = 0; i < k->count; i++) {
        free(k->keys[i].json);
        for (unsigned j = 0; k->keys[i].enum_names && j < FIELDS_ENUM_CACHE; j++)
            free(k->keys[i].enum_names[j].json);
        free(k->keys[i].enum_names);
    }
    free(k->keys);
    free(k);
}

/* The JSON string of text, then `suffix` (0: none), into a new buffer
 * padded with FIELDS_KEY_COPY zero bytes; NULL when out of memory. */
static char *json_text(const char *text, size_t size, char suffix, size_t *len)
{
    struct out m;
    out_init_memory(&m);
    out_json_string(&m, text, size);
    if (suffix)
        out_char(&m, suffix);
    *len = m.len;
    out_repeat(&m, '\0', FIELDS_KEY_COPY);
    if (m.failed) {
        free(m.buf);
        return NULL;
    }
    return m.buf;
}

/* Make the texts of key from name; -1 when out of memory. */
static int key_build(struct fields_key *key, const char *name)
{
    size_t len = strlen(name), json_len;
    char *json = json_text(name, len, ':', &json_len);
    if (!json)
        return -1;
    free(key->json);
    key->json = json;
    key->json_len = json_len;
    key->name = name;
    key->name_len = len;
    return 0;
}

/* The key of the event's field, or NULL (framing fields have no id, and a
 * missing table or memory leaves the caller to spell the name itself).
 * The table is keyed by field id; the name pointer guards it. */
static inline struct fields_key *key_for(struct fields_printer *p, const bitsift_event *ev)
{
    if ((unsigned)ev->id >= p->key_count) /* framing's -1 too */
        return NULL;
    struct fields_key *key = &p->keys->keys[ev->id];
    if (key->name != ev->name && key_build(key, ev->name) != 0)
        return NULL;
    return key;
}

/* The JSON string of an enum value's name, from the field's cache: one
 * slot per value 0..FIELDS_ENUM_CACHE - 1, filled on first use (the name
 * pointer guards it); NULL for other values or when memory is short. */
static const struct fields_text *enum_text(struct fields_key *key, int64_t value,
                                           const char *name)
{
    if ((uint64_t)value >= FIELDS_ENUM_CACHE)
        return NULL;
    if (!key->enum_names) {
        key->enum_names = calloc(FIELDS_ENUM_CACHE, sizeof *key->enum_names);
        if (!key->enum_names)
            return NULL;
    }
    struct fields_text *t = &key->enum_names[value];
    if (BITSIFT_LIKELY(t->from == name))
        return t;
    size_t from_len = strlen(name), len;
    char *json = json_text(name, from_len, 0, &len);
    if (!json)
        return NULL;
    free(t->json);
    t->json = json;
    t->len = len;
    t->from_len = from_len;
    t->from = name;
    return t;
}

/* Kept out of line, so that the common path of its caller stays small. */
#if defined(__GNUC__) || defined(__clang__)
#define NOINLINE __attribute__((noinline))
#else
#define NOINLINE
#endif

/* Indentation, copied FIELDS_KEY_COPY bytes at a time. */
static const char spaces[FIELDS_KEY_COPY + 1] = "                                ";

/* Copy a padded text (fields_text, key): one fixed move when it is short. */
static inline char *put_padded(char *w, const char *text, size_t len)
{
    if (len <= FIELDS_KEY_COPY)
        memcpy(w, text, FIELDS_KEY_COPY);
    else
        memcpy(w, text, len);
    return w + len;
}

void fields_begin(struct fields_printer *p, struct out *o, const bitsift_schema *schema,
                  struct fields_keys *keys, int json, unsigned indent)
{
    p->o = o;
    p->schema = schema;
    p->keys = keys;
    p->key_count = keys ? keys->count : 0;
    p->in_array = 0;
    p->json = json;
    p->indent = indent;
    p->depth = 0;
    p->need_comma = 0;
    if (json)
        out_char(o, '{');
}

/* Finite values are formatted straight into the output buffer; JSON
 * quotes the spellings of the others. */
static void write_float(struct out *o, float f, int json)
{
    if (json && !isfinite(f)) {
        char text[FORMAT_FLOAT_SIZE];
        out_json_string(o, text, format_float32(text, f));
        return;
    }
    char *text = out_reserve(o, FORMAT_FLOAT_SIZE);
    if (text)
        out_commit(o, format_float32(text, f));
}

static void write_double(struct out *o, double d, int json)
{
    if (json && !isfinite(d)) {
        char text[FORMAT_FLOAT_SIZE];
        out_json_string(o, text, format_float64(text, d));
        return;
    }
    char *text = out_reserve(o, FORMAT_FLOAT_SIZE);
    if (text)
        out_commit(o, format_float64(text, d));
}

void fields_write_json_value(struct out *o, const bitsift_value *v)
{
    switch (v->kind) {
    case BITSIFT_VALUE_NONE:
        out_str(o, "null");
        break;
    case BITSIFT_VALUE_BOOL:
        out_str(o, v->b ? "true" : "false");
        break;
    case BITSIFT_VALUE_UINT:
        out_u64(o, v->u);
        break;
    case BITSIFT_VALUE_INT:
        out_i64(o, v->i);
        break;
    case BITSIFT_VALUE_FLOAT:
        write_float(o, v->f, 1);
        break;
    case BITSIFT_VALUE_DOUBLE:
        write_double(o, v->d, 1);
        break;
    case BITSIFT_VALUE_BYTES:
        out_char(o, '"');
        out_hex_bytes(o, v->data, v->size);
        out_char(o, '"');
        break;
    case BITSIFT_VALUE_STRING:
        out_json_string(o, (const char *)v->data, v->size);
        break;
    case BITSIFT_VALUE_ENUM:
        if (v->name)
            out_json_string(o, v->name, strlen(v->name));
        else
            out_i64(o, v->i);
        break;
    }
}

void fields_write_text_value(struct out *o, const bitsift_event *ev)
{
    const bitsift_value *v = &ev->value;
    switch (ev->type) {
    case BITSIFT_FIELD_CHECK:
    case BITSIFT_FIELD_CRC:
    case BITSIFT_FIELD_END_CHECK:
        if (v->kind == BITSIFT_VALUE_UINT) {
            out_str(o, "0x");
            out_hex_u64(o, v->u, 8);
            return;
        }
        break;
    default:
        break;
    }
    switch (v->kind) {
    case BITSIFT_VALUE_NONE:
        out_str(o, ev->type == BITSIFT_FIELD_ALIGN ? "(align)" : "-");
        break;
    case BITSIFT_VALUE_FLOAT:
        write_float(o, v->f, 0);
        break;
    case BITSIFT_VALUE_DOUBLE:
        write_double(o, v->d, 0);
        break;
    case BITSIFT_VALUE_BYTES:
        if (v->size == 0)
            out_str(o, "(0 bytes)");
        out_hex_bytes(o, v->data, v->size);
        break;
    case BITSIFT_VALUE_ENUM:
        if (v->name) {
            out_str(o, v->name);
            out_str(o, " (");
            out_i64(o, v->i);
            out_char(o, ')');
        } else {
            out_i64(o, v->i);
        }
        break;
    default:
        fields_write_json_value(o, v);
        break;
    }
}

/* Fields left out of JSON (see the top of the file). */
static int json_skips(const bitsift_event *ev)
{
    if (ev->flags & (BITSIFT_EVENT_FRAMING | BITSIFT_EVENT_ABSENT | BITSIFT_EVENT_ARRAY_META))
        return 1;
    return ev->type == BITSIFT_FIELD_ALIGN || ev->type == BITSIFT_FIELD_CHECK;
}

/* Keep p->in_array right after the depth changes. */
static void update_in_array(struct fields_printer *p)
{
    p->in_array = p->depth > 0 && p->depth <= FIELDS_MAX_DEPTH && p->is_array[p->depth - 1];
}

/* The JSON text before a member: comma, then the key or, in an array, the
 * element (opening {"@index":..} when its index is not its position).
 * Returns 1 when a scalar element was wrapped and needs a closing '}'. */
static int json_member(struct fields_printer *p, const bitsift_event *ev, int is_container)
{
    struct out *o = p->o;
    if (p->need_comma)
        out_char(o, ',');
    p->need_comma = 1;
    if (!p->in_array) {
        const struct fields_key *key = key_for(p, ev);
        char *w = key ? out_reserve(o, key->json_len + FIELDS_KEY_COPY) : NULL;
        if (w) {
            out_commit(o, (size_t)(put_padded(w, key->json, key->json_len) - w));
        } else {
            out_json_string(o, ev->name, strlen(ev->name));
            out_char(o, ':');
        }
        return 0;
    }
    uint64_t position = p->position[p->depth - 1]++;
    if (ev->index < 0 || (uint64_t)ev->index == position)
        return 0;
    out_str(o, "{\"@index\":");
    out_i64(o, ev->index);
    if (is_container) {
        /* the struct's own members follow after a comma */
        return 2;
    }
    out_str(o, ",\"@value\":");
    return 1;
}

static void text_label(struct fields_printer *p, const bitsift_event *ev)
{
    struct out *o = p->o;
    size_t indent = p->indent + 2u * (ev->depth ? ev->depth - 1 : 0);
    char *room = indent <= FIELDS_KEY_COPY ? out_reserve(o, FIELDS_KEY_COPY) : NULL;
    if (room) {
        memcpy(room, spaces, FIELDS_KEY_COPY);
        out_commit(o, indent);
    } else {
        out_repeat(o, ' ', indent);
    }
    if (ev->index >= 0) {
        out_char(o, '[');
        out_i64(o, ev->index);
        out_char(o, ']');
    } else {
        const struct fields_key *key = key_for(p, ev);
        if (key)
            out_bytes(o, ev->name, key->name_len);
        else
            out_str(o, ev->name);
    }
}

/* The room a scalar takes as JSON text at most: a float with the scratch
 * format_float* may write past its text, or a 64-bit integer and sign. */
#define JSON_SCALAR_ROOM FORMAT_FLOAT_SIZE

/* The value at w when it is a bool, an integer or an enum whose JSON name
 * the field's cache holds already, returning the end; NULL for anything
 * else. It calls nothing, so that on_json_field needs no stack frame. */
static inline char *json_plain_scalar(char *w, const struct fields_key *key,
                                      const bitsift_value *v)
{
    if (v->kind == BITSIFT_VALUE_BOOL) {
        memcpy(w, v->b ? "true" : "false", 5); /* a byte past "true" is room */
        return w + 5 - v->b;
    }
    if (v->kind == BITSIFT_VALUE_UINT)
        return w + format_u64(w, v->u);
    if (v->kind == BITSIFT_VALUE_INT || (v->kind == BITSIFT_VALUE_ENUM && !v->name))
        return w + format_i64(w, v->i);
    if (v->kind == BITSIFT_VALUE_ENUM && key->enum_names && (uint64_t)v->i < FIELDS_ENUM_CACHE) {
        const struct fields_text *t = &key->enum_names[v->i];
        if (t->from == v->name && t->len <= FIELDS_KEY_COPY)
            return put_padded(w, t->json, t->len);
    }
    return NULL;
}

/* The value at w when it is a number, bool or enum name (cached now if it
 * was not) that fits JSON_SCALAR_ROOM, returning the end; NULL for
 * anything else. */
static inline char *json_scalar(char *w, struct fields_key *key, const bitsift_value *v)
{
    /* most frequent first: a jump table on the kind mispredicts more */
    if (v->kind == BITSIFT_VALUE_FLOAT)
        return isfinite(v->f) ? w + format_float32(w, v->f) : NULL;
    char *end = json_plain_scalar(w, key, v);
    if (end)
        return end;
    if (v->kind == BITSIFT_VALUE_ENUM) {
        const struct fields_text *t = enum_text(key, v->i, v->name);
        if (!t || t->len > FIELDS_KEY_COPY)
            return NULL;
        return put_padded(w, t->json, t->len);
    }
    if (v->kind == BITSIFT_VALUE_DOUBLE)
        return isfinite(v->d) ? w + format_float64(w, v->d) : NULL;
    return NULL;
}

/* A member of an object whose key is known and short: comma, key and
 * scalar value written in one reservation. Returns false when the value
 * is not such a scalar (nothing written). */
static inline bool json_fast_member(struct fields_printer *p, struct fields_key *key,
                                    const bitsift_value *v)
{
    char *start = out_reserve(p->o, 1 + FIELDS_KEY_COPY + JSON_SCALAR_ROOM);
    if (!start)
        return true; /* the output failed already */
    char *w = start;
    *w = ',';
    w += p->need_comma;
    memcpy(w, key->json, FIELDS_KEY_COPY); /* json_len <= FIELDS_KEY_COPY, padded */
    w += key->json_len;
    w = json_scalar(w, key, v);
    if (!w)
        return false;
    out_commit(p->o, (size_t)(w - start));
    p->need_comma = 1;
    return true;
}

/* Any member the common path below does not take: the key built on first
 * use, long keys and enum names, array elements, non-finite floats,
 * strings and bytes. */
static NOINLINE bool json_field_general(struct fields_printer *p, const bitsift_event *ev)
{
    if (!p->in_array) {
        struct fields_key *key = key_for(p, ev);
        if (key && key->json_len <= FIELDS_KEY_COPY && json_fast_member(p, key, &ev->value))
            return true;
    }
    int wrapped = json_member(p, ev, 0);
    fields_write_json_value(p->o, &ev->value);
    if (wrapped)
        out_char(p->o, '}');
    return true;
}

/* The float f at w, the member begun at start, then commit it. Out of line
 * (and reached by a tail call) so that on_json_field calls nothing on its
 * common path and needs no stack frame. */
static NOINLINE bool json_commit_float(struct out *o, char *start, char *w, float f)
{
    w += format_float32(w, f);
    out_commit(o, (size_t)(w - start));
    return true;
}

/*
 * A member of an object: comma, key and scalar in one reservation, with
 * nothing committed (and need_comma unchanged) until it is complete, so
 * that any case it leaves to json_field_general starts afresh.
 */
static bool on_json_field(void *ctx, const bitsift_event *ev)
{
    struct fields_printer *p = ctx;
    if (json_skips(ev))
        return true;
    unsigned id = (unsigned)ev->id;
    if (BITSIFT_UNLIKELY(p->in_array || id >= p->key_count))
        return json_field_general(p, ev);
    const struct fields_key *key = &p->keys->keys[id];
    struct out *o = p->o;
    if (BITSIFT_UNLIKELY(key->name != ev->name || key->json_len > FIELDS_KEY_COPY ||
                         o->cap - o->len < 1 + FIELDS_KEY_COPY + JSON_SCALAR_ROOM || !o->buf))
        return json_field_general(p, ev);
    char *start = o->buf + o->len, *w = start;
    *w = ',';
    w += p->need_comma;
    memcpy(w, key->json, FIELDS_KEY_COPY); /* json_len <= FIELDS_KEY_COPY, padded */
    w += key->json_len;
    const bitsift_value *v = &ev->value;
    if (v->kind == BITSIFT_VALUE_FLOAT) { /* the most frequent */
        if (BITSIFT_UNLIKELY(!isfinite(v->f)))
            return json_field_general(p, ev);
        p->need_comma = 1;
        return json_commit_float(o, start, w, v->f);
    }
    w = json_plain_scalar(w, key, v);
    if (!w)
        return json_field_general(p, ev);
    out_commit(o, (size_t)(w - start));
    p->need_comma = 1;
    return true;
}

/* The text of a value for people, at w, when it is a float, number, bool
 * or (cached) enum; NULL for anything else. Checks and CRCs print in hex
 * (fields_write_text_value). Writes at most TEXT_SCALAR_ROOM bytes. */
#define TEXT_SCALAR_ROOM 64
static inline char *text_scalar(char *w, struct fields_key *key, const bitsift_event *ev)
{
    const bitsift_value *v = &ev->value;
    if (v->kind == BITSIFT_VALUE_FLOAT)
        return w + format_float32(w, v->f);
    if (ev->type == BITSIFT_FIELD_CHECK || ev->type == BITSIFT_FIELD_CRC ||
        ev->type == BITSIFT_FIELD_END_CHECK)
        return NULL;
    if (v->kind == BITSIFT_VALUE_ENUM) {
        if (!v->name)
            return w + format_i64(w, v->i);
        const struct fields_text *t = enum_text(key, v->i, v->name);
        if (!t || t->len != t->from_len + 2 || t->from_len > FIELDS_KEY_COPY - 2)
            return NULL;                         /* escaped in JSON: not the name as it is */
        memcpy(w, t->json + 1, FIELDS_KEY_COPY); /* "name" padded: the name */
        w += t->from_len;
        memcpy(w, " (", 2);
        w += 2 + format_i64(w + 2, v->i);
        *w++ = ')';
        return w;
    }
    if (v->kind == BITSIFT_VALUE_DOUBLE)
        return w + format_float64(w, v->d);
    return json_scalar(w, key, v); /* bool, integers: as in JSON */
}

/* "    name = value\n" in one reservation, for a named field with a short
 * name whose value text_scalar takes; false (nothing written) otherwise. */
static inline bool text_fast_line(struct fields_printer *p, const bitsift_event *ev, size_t indent)
{
    if (ev->index >= 0 || indent > FIELDS_KEY_COPY)
        return false;
    struct fields_key *key = key_for(p, ev);
    if (!key || key->name_len > FIELDS_KEY_COPY - 1 || key->json_len != key->name_len + 3)
        return false; /* the JSON key "name": holds the name as it is, padded */
    char *start = out_reserve(p->o, 2 * FIELDS_KEY_COPY + 3 + TEXT_SCALAR_ROOM + 11);
    if (!start)
        return true; /* the output failed already */
    char *w = start;
    memcpy(w, spaces, FIELDS_KEY_COPY);
    w += indent;
    memcpy(w, key->json + 1, FIELDS_KEY_COPY);
    w += key->name_len;
    memcpy(w, " = ", 3);
    w = text_scalar(w + 3, key, ev);
    if (!w)
        return false;
    if (ev->flags & BITSIFT_EVENT_DERIVED) {
        memcpy(w, " (derived)", 10);
        w += 10;
    }
    *w++ = '\n';
    out_commit(p->o, (size_t)(w - start));
    return true;
}

static bool on_text_field(void *ctx, const bitsift_event *ev)
{
    struct fields_printer *p = ctx;
    struct out *o = p->o;
    /* Counts and indices show as the elements themselves; conditional
     * fields that were not sent are left out (bitsift dump shows them). */
    if (ev->flags & (BITSIFT_EVENT_ARRAY_META | BITSIFT_EVENT_ABSENT))
        return true;
    if (text_fast_line(p, ev, p->indent + 2u * (ev->depth ? ev->depth - 1 : 0)))
        return true;
    text_label(p, ev);
    out_str(o, " = ");
    fields_write_text_value(o, ev);
    if (ev->flags & BITSIFT_EVENT_DERIVED)
        out_str(o, " (derived)");
    out_char(o, '\n');
    return true;
}

/* The packet's own root struct: its fields print at the top level. */
static int is_root(const bitsift_event *ev)
{
    return ev->depth == 0 && ev->index < 0;
}

static bool on_enter(void *ctx, const bitsift_event *ev)
{
    struct fields_printer *p = ctx;
    struct out *o = p->o;
    if (is_root(ev))
        return true;
    int is_array = ev->type == BITSIFT_FIELD_ARRAY;
    int wrapped_array = 0;
    if (p->json) {
        int wrapped = json_member(p, ev, 1);
        wrapped_array = wrapped == 2 && is_array;
        if (wrapped == 2 && !is_array) {
            /* {"@index":N already open: the struct's members continue it. */
            p->need_comma = 1;
        } else if (wrapped == 2) {
            out_str(o, ",\"@value\":[");
            p->need_comma = 0;
        } else {
            out_char(o, is_array ? '[' : '{');
            p->need_comma = 0;
        }
    } else {
        text_label(p, ev);
        if (is_array && ev->count) {
            out_str(o, ": ");
            out_u64(o, ev->count);
            out_str(o, ev->count == 1 ? " element\n" : " elements\n");
        } else {
            out_str(o, ":\n");
        }
    }
    if (p->depth < FIELDS_MAX_DEPTH) {
        p->is_array[p->depth] = (unsigned char)is_array;
        p->wrapped[p->depth] = p->json && wrapped_array;
        p->position[p->depth] = 0;
    }
    p->depth++;
    update_in_array(p);
    return true;
}

/*
 * JSON's enter for the common case, in one reservation: a named struct or
 * array member of an object (`,"name":{` or `,"name":[`), or an element
 * at its own position (`,{`). Returns false, having written nothing, for
 * anything else (the root, wrapped elements, long keys, deep nesting),
 * which on_enter handles.
 */
static inline bool json_fast_enter(struct fields_printer *p, const bitsift_event *ev)
{
    if (is_root(ev) || p->depth >= FIELDS_MAX_DEPTH)
        return false;
    int is_array = ev->type == BITSIFT_FIELD_ARRAY;
    const struct fields_key *key = NULL;
    if (p->in_array) {
        if (ev->index >= 0 && (uint64_t)ev->index != p->position[p->depth - 1])
            return false;
    } else {
        key = key_for(p, ev);
        if (!key || key->json_len > FIELDS_KEY_COPY)
            return false;
    }
    char *start = out_reserve(p->o, 2 + FIELDS_KEY_COPY);
    if (start) {
        char *w = start;
        *w = ',';
        w += p->need_comma;
        if (key) {
            memcpy(w, key->json, FIELDS_KEY_COPY); /* padded */
            w += key->json_len;
        } else {
            p->position[p->depth - 1]++;
        }
        *w++ = is_array ? '[' : '{';
        out_commit(p->o, (size_t)(w - start));
    }
    p->need_comma = 0;
    p->is_array[p->depth] = (unsigned char)is_array;
    p->wrapped[p->depth] = 0;
    p->position[p->depth] = 0;
    p->depth++;
    p->in_array = is_array;
    return true;
}

static bool on_json_enter(void *ctx, const bitsift_event *ev)
{
    return json_fast_enter(ctx, ev) || on_enter(ctx, ev);
}

/* Close the container at p->depth (already decremented). */
static void close_container(struct fields_printer *p)
{
    if (p->depth >= FIELDS_MAX_DEPTH) {
        out_char(p->o, '}');
        return;
    }
    out_char(p->o, p->is_array[p->depth] ? ']' : '}');
    if (p->wrapped[p->depth])
        out_char(p->o, '}');
}

static bool on_leave(void *ctx, const bitsift_event *ev)
{
    struct fields_printer *p = ctx;
    if (p->depth == 0 || is_root(ev))
        return true;
    p->depth--;
    update_in_array(p);
    if (p->json) {
        close_container(p);
        p->need_comma = 1;
    }
    return true;
}

bitsift_visitor fields_visitor(struct fields_printer *p)
{
    bitsift_visitor v = {p->json ? on_json_field : on_text_field,
                         p->json ? on_json_enter : on_enter, on_leave, p};
    return v;
}

void fields_end(struct fields_printer *p)
{
    if (!p->json)
        return;
    while (p->depth > 0) {
        p->depth--;
        close_container(p);
    }
    out_char(p->o, '}');
}
