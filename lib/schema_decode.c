/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * schema_decode.c -- decodes a framed packet by interpreting a compiled
 * schema's op list, calling a visitor for each field. This is the hot
 * path: no allocation, no name lookups, and with a NULL visitor no event
 * is even built (pure validation).
 *
 *   +--------------+-----------+-----------------+------------------+-------+-----------+
 *   | prefix bytes | crc32 LE  | int(0, types-1) | packet body ops  | align | end check |
 *   +--------------+-----------+-----------------+------------------+-------+-----------+
 *
 * Two walks over the ops: run() validates (no visitor: leaf runs, structs
 * read through), visit_run() reports every field to a visitor. The
 * visitor's walk hands the same bitsift_event to every callback, filling
 * in only what changes, reads the simple leaves in one step each (see
 * schema_prepare_visit) and falls back to read_leaf_value, which reads
 * anything and reports failures exactly, whenever a leaf is not simple.
 *
 * Field paths ("objects[3].position.y") are only built when a visitor
 * wants them (not with BITSIFT_DECODE_NO_PATHS). When a packet fails
 * without a visitor or without paths, the decode is run a second time
 * with paths on to name the field: failures are rare, valid packets pay
 * nothing.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "field_read.h"

/* The per-field steps of a visited decode are small and run ~100 times a
 * packet: keep them inside their callers' loops. */
#if defined(__GNUC__) || defined(__clang__)
#define HOT_INLINE inline __attribute__((always_inline))
#else
#define HOT_INLINE inline
#endif

struct frame {
    const struct schema_op *op;
    size_t saved_len; /* path length before this container */
    size_t name_len;  /* arrays: path length with the name, before [i] */
};

typedef bool (*event_fn)(void *, const bitsift_event *);

struct decoder {
    const bitsift_schema *s;
    bitsift_reader r;
    const bitsift_visitor *v;
    bool paths;
    bool fast;   /* no visitor, no paths: leaf runs, structs read through */
    bool absent; /* report the fields of branches not taken */
    bool stopped;
    uint64_t fields;
    char path[BITSIFT_PATH_MAX];
    size_t path_len;
    struct frame frames[BITSIFT_SCHEMA_MAX_DEPTH + 2];
    unsigned nframes;
    int64_t slots[SCHEMA_MAX_SLOTS + 1]; /* + the scratch slot of leaf runs */
    /* The visitor's callbacks (NULL when it has none or there is no
     * visitor) and the one event handed to them. The event lives as long
     * as the decode: a leaf writes its value straight into ev.value and
     * each event sets only what it reports, instead of a new event being
     * built and copied for every field. ev.path is always `path`;
     * ev.depth (0 for the packet root) and ev.index (the element index
     * of the value being read, -1) are the decoder's own. */
    event_fn on_field, on_enter, on_leave;
    void *ctx;
    bitsift_event ev;
};

/* ---- paths ---------------------------------------------------------------- */

/*
 * `path` holds the path of the container being read (path_len bytes):
 * "objects[3].position". A leaf's event appends ".name" after it and
 * terminates it there without moving path_len, so the next leaf simply
 * writes over it; path[path_len] is therefore not always the terminator,
 * and whoever hands the path out (an event, a failure) writes it first.
 */

/* n <= BITSIFT_SCHEMA_MAX_NAME bytes (a name), copied with a few
 * fixed-size moves instead of a call to memcpy: this runs for every
 * field of a visited packet. Overlapping moves never read outside
 * src[0, n). */
static inline void copy_name(char *dst, const char *src, size_t n)
{
    if (n >= 8) {
        size_t i = 0;
        for (; i + 8 < n; i += 8)
            memcpy(dst + i, src + i, 8);
        memcpy(dst + n - 8, src + n - 8, 8);
    } else if (n >= 4) {
        memcpy(dst, src, 4);
        memcpy(dst + n - 4, src + n - 4, 4);
    } else if (n) {
        dst[0] = src[0];
        dst[n / 2] = src[n / 2];
        dst[n - 1] = src[n - 1];
    }
}

static void path_append_n(struct decoder *d, const char *name, size_t n)
{
    size_t need = n + (d->path_len ? 1 : 0);
    if (d->path_len + need + 1 > sizeof d->path)
        return; /* deeper parts of an over-long path are dropped */
    if (d->path_len)
        d->path[d->path_len++] = '.';
    copy_name(d->path + d->path_len, name, n);
    d->path_len += n;
    d->path[d->path_len] = 0;
}

static void path_append(struct decoder *d, const char *name)
{
    path_append_n(d, name, strlen(name));
}

/* An op's own name: its length is known. */
static void path_append_op(struct decoder *d, const struct schema_op *op)
{
    path_append_n(d, op->name, op->name_len);
}

/* "[index]", written by hand: this runs for every array element of a
 * visited packet, and snprintf costs more than the rest of the element. */
static void path_index(struct decoder *d, int64_t index)
{
    if (index >= 0 && index < 100 && d->path_len + 5 <= sizeof d->path) {
        /* Most arrays are short: "[7]" or "[42]" without a division. */
        char *p = d->path + d->path_len;
        size_t n = 0;
        p[n++] = '[';
        if (index >= 10)
            p[n++] = (char)('0' + index / 10);
        p[n++] = (char)('0' + index % 10);
        p[n++] = ']';
        p[n] = 0;
        d->path_len += n;
        return;
    }
    char buf[24];
    char *p = buf + sizeof buf;
    uint64_t u = index < 0 ? 0 - (uint64_t)index : (uint64_t)index;
    *--p = 0;
    *--p = ']';
    do {
        *--p = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    if (index < 0)
        *--p = '-';
    *--p = '[';
    size_t n = (size_t)(buf + sizeof buf - 1 - p);
    if (d->path_len + n + 1 <= sizeof d->path) {
        copy_name(d->path + d->path_len, p, n + 1);
        d->path_len += n;
    }
}

static void path_truncate(struct decoder *d, size_t len)
{
    d->path_len = len;
    d->path[len] = 0;
}

/* ---- events ----------------------------------------------------------------- */

/*
 * Without paths nothing is ever written to `path` (path_len stays 0, and
 * path "" for every event, as ev.path_len 0), so these do nothing then.
 */

/* The event's path is the container's path. */
static HOT_INLINE void event_path_here(struct decoder *d)
{
    if (d->paths) {
        d->path[d->path_len] = 0;
        d->ev.path_len = d->path_len;
    }
}

/* The event's path is the container's path plus ".name", as
 * path_append_n would make it (dropped when it does not fit), without
 * changing path_len. */
static inline void event_path_leaf(struct decoder *d, const char *name, size_t n)
{
    size_t len = d->path_len;
    if (!d->paths)
        return;
    size_t dot = len ? 1 : 0;
    if (BITSIFT_LIKELY(len + dot + n + 1 <= sizeof d->path)) {
        char *p = d->path + len;
        *p = '.';
        copy_name(p + dot, name, n);
        len += dot + n;
    }
    d->path[len] = 0;
    d->ev.path_len = len;
}

/* Hand the event to a callback; false (and stopped) when it says stop. */
static inline bool deliver(struct decoder *d, event_fn cb)
{
    if (BITSIFT_UNLIKELY(!cb(d->ctx, &d->ev))) {
        d->stopped = true;
        return false;
    }
    return true;
}

/* An enter or leave event (value NONE, path the container's). */
static bool emit_frame(struct decoder *d, event_fn cb, const char *name, int id,
                       bitsift_field_type type, uint64_t bit, uint64_t bits, uint64_t count)
{
    bitsift_event *ev = &d->ev;
    ev->name = name;
    ev->id = id;
    ev->type = type;
    ev->bit = bit;
    ev->bits = bits;
    ev->count = count;
    ev->flags = 0;
    memset(&ev->value, 0, sizeof ev->value);
    event_path_here(d);
    return deliver(d, cb);
}

/* event_path_leaf for a name also held zero-padded in 16 bytes (name16,
 * NULL when the name is longer): one 16-byte move when the buffer has
 * room for all of it. */
static HOT_INLINE void event_path_name(struct decoder *d, const char *name, const char *name16,
                                       size_t name_len)
{
    size_t len = d->path_len;
    if (!d->paths)
        return;
    if (BITSIFT_LIKELY(name16 && len + 1 + 16 <= sizeof d->path)) {
        size_t dot = len != 0;
        char *p = d->path + len;
        *p = '.';
        memcpy(p + dot, name16, 16);
        d->ev.path_len = len + dot + name_len;
    } else {
        event_path_leaf(d, name, name_len);
    }
}

/* An op's leaf event: its own id, name and type. */
static HOT_INLINE bool emit_op(struct decoder *d, const struct schema_op *op, uint64_t bit,
                               uint64_t bits, unsigned flags)
{
    bitsift_event *ev = &d->ev;
    ev->name = op->name;
    ev->id = op->field;
    ev->type = (bitsift_field_type)op->type;
    ev->bit = bit;
    ev->bits = bits;
    ev->count = 0;
    ev->flags = flags;
    if (d->paths) {
        size_t len = d->path_len, name_len = op->name_len;
        if (BITSIFT_LIKELY(op->visit_quick && len + 1 + 16 <= sizeof d->path)) {
            size_t dot = len != 0;
            char *p = d->path + len;
            *p = '.';
            memcpy(p + dot, op->visit_name, 16);
            ev->path_len = len + dot + name_len;
        } else if (op->element) {
            event_path_here(d);
        } else {
            event_path_leaf(d, op->name, name_len);
        }
    }
    return deliver(d, d->on_field);
}

/* path_append_op, in one 16-byte move when the name is short and the
 * buffer has room for the whole move. */
static HOT_INLINE void path_append_quick(struct decoder *d, const struct schema_op *op)
{
    size_t len = d->path_len, name_len = op->name_len;
    if (BITSIFT_LIKELY(name_len < sizeof op->visit_name &&
                       len + 1 + sizeof op->visit_name <= sizeof d->path)) {
        size_t dot = len != 0;
        char *p = d->path + len;
        *p = '.';
        memcpy(p + dot, op->visit_name, sizeof op->visit_name);
        d->path_len = len + dot + name_len;
    } else {
        path_append_op(d, op);
    }
}

/* An array's own field event (count, presence bit, index, sentinel),
 * value in ev.value, path the container's. */
static bool emit_array_field(struct decoder *d, const struct schema_op *arr, uint64_t bit,
                             uint64_t bits, uint64_t count)
{
    bitsift_event *ev = &d->ev;
    ev->name = arr->name;
    ev->id = arr->field;
    ev->type = BITSIFT_FIELD_ARRAY;
    ev->bit = bit;
    ev->bits = bits;
    ev->count = count;
    ev->flags = BITSIFT_EVENT_ARRAY_META;
    event_path_here(d);
    return deliver(d, d->on_field);
}

/* A value with no bytes, no name and no raw integer, of kind `kind`:
 * the caller then sets the one member the kind uses. */
static inline bitsift_value *value_start(struct decoder *d, bitsift_value_kind kind)
{
    bitsift_value *v = &d->ev.value;
    v->kind = kind;
    v->data = NULL;
    v->size = 0;
    v->name = NULL;
    v->has_raw = false;
    return v;
}

#define WANT_FIELDS(d) ((d)->on_field != NULL)

static bool fail(struct decoder *d, bitsift_error kind, uint64_t bit, const char *why,
                 uint64_t expected, uint64_t got)
{
    return bitsift_reader_fail(&d->r, kind, bit, why, expected, got);
}

/* ---- one leaf ----------------------------------------------------------------- */

/* compressed_float's read side, as bitsift_compressed_float_value
 * computes it (the same float operations in the same order; the library
 * is built with -ffp-contract=off, so no multiply-add fuses them): inline
 * here because every compressed float of a visited packet goes through
 * it. The event tests compare the values bit for bit. */
static inline float dequantize(const struct schema_op *op, uint32_t raw)
{
    float delta = op->fmax - op->fmin;
    float n = (float)raw / (float)op->steps;
    float s = n * delta;
    return s + op->fmin;
}

/* A part of a smallest-three quaternion (a plain, non-element leaf),
 * value in ev.value. */
static bool emit_part(struct decoder *d, int id, const char *name, size_t name_len,
                      bitsift_field_type type, uint64_t bit, uint64_t bits, unsigned flags)
{
    bitsift_event *ev = &d->ev;
    ev->name = name;
    ev->id = id;
    ev->type = type;
    ev->bit = bit;
    ev->bits = bits;
    ev->count = 0;
    ev->flags = flags;
    event_path_name(d, name, name, name_len);
    return deliver(d, d->on_field);
}

static bool read_smallest_three(struct decoder *d, const struct schema_op *op, uint64_t at)
{
    uint64_t largest, raw[3];
    if (!bitsift_read_bits(&d->r, 2, &largest))
        return false;
    for (int k = 0; k < 3; k++)
        if (!bitsift_read_bits(&d->r, op->width, &raw[k]))
            return false;
    d->fields++;
    if (!WANT_FIELDS(d) && !(d->on_enter || d->on_leave))
        return true; /* any raw values make a valid quaternion */
    float comp[4];
    uint64_t comp_raw[4] = {0};
    float sum = 0.0f;
    for (int k = 0, j = 0; k < 4; k++) {
        if ((uint64_t)k == largest)
            continue;
        comp_raw[k] = raw[j];
        comp[k] = schema_s3_dequantize(op->width, (uint32_t)raw[j++]);
        sum += comp[k] * comp[k];
    }
    comp[largest] = sqrtf(sum < 1.0f ? 1.0f - sum : 0.0f);
    /* The parts' names, zero-padded for event_path_name. */
    static const char names[5][16] = {"largest", "x", "y", "z", "w"};
    size_t len = d->path_len;
    if (d->paths && !op->element)
        path_append_quick(d, op);
    const char *qname = op->name;
    d->ev.depth++;
    bool ok = true;
    if (d->on_enter) {
        d->ev.depth--;
        ok = emit_frame(d, d->on_enter, qname, op->field, BITSIFT_FIELD_QUATERNION, at, 0, 0);
        d->ev.depth++;
    }
    int64_t saved_index = d->ev.index;
    d->ev.index = -1;
    if (ok && d->on_field) {
        /* The parts are reported as plain (non-element) leaves. */
        bitsift_value *v = value_start(d, BITSIFT_VALUE_UINT);
        v->u = largest;
        v->raw = 0;
        ok = emit_part(d, op->field + 1, names[0], 7, BITSIFT_FIELD_BITS, at, 2, 0);
        uint64_t bit = at + 2;
        for (int k = 0; k < 4 && ok; k++) {
            bool derived = (uint64_t)k == largest;
            v = value_start(d, BITSIFT_VALUE_FLOAT);
            v->u = 0;
            v->f = comp[k];
            v->raw = comp_raw[k];
            v->has_raw = !derived;
            ok = emit_part(d, op->field + 2 + k, names[k + 1], 1, BITSIFT_FIELD_FLOAT, bit,
                           derived ? 0 : op->width, derived ? BITSIFT_EVENT_DERIVED : 0);
            if (!derived)
                bit += op->width;
        }
    }
    d->ev.index = saved_index;
    d->ev.depth--;
    if (ok && d->on_leave)
        ok = emit_frame(d, d->on_leave, qname, op->field, BITSIFT_FIELD_QUATERNION, at,
                        d->r.bit_pos - at, 0);
    if (d->paths)
        path_truncate(d, len);
    return ok;
}

/* Read one leaf into ev.value, check it, keep it in its slot, report it. */
static bool read_leaf_value(struct decoder *d, const struct schema_op *op)
{
    bitsift_reader *r = &d->r;
    uint64_t at = r->bit_pos;
    if (op->code == OP_SMALLEST3)
        return read_smallest_three(d, op, at);
    bitsift_value *v = value_start(d, BITSIFT_VALUE_NONE);
    int64_t as_int;
    if (!field_read_leaf(d->s, r, op, d->slots, v, &as_int))
        return false;
    /* Validation needs only the range check: skip the arithmetic. */
    if (op->code == OP_CFLOAT && WANT_FIELDS(d))
        v->f = dequantize(op, (uint32_t)v->raw);
    if (op->slot >= 0)
        d->slots[op->slot] = as_int;
    d->fields++;
    if (WANT_FIELDS(d))
        return emit_op(d, op, at, r->bit_pos - at, 0);
    return true;
}

/* On failure the path names the leaf (an element's "[i]" is there). */
static bool leaf_failed(struct decoder *d, const struct schema_op *op)
{
    if (d->paths && !op->element && !d->stopped)
        path_append_op(d, op);
    return false;
}

static bool read_leaf(struct decoder *d, const struct schema_op *op)
{
    if (BITSIFT_LIKELY(read_leaf_value(d, op)))
        return true;
    return leaf_failed(d, op);
}

/* ---- leaves read in one step while visiting ----------------------------- */

/* What every leaf does once its value is in ev.value: keep it for later
 * fields, count it, report it. */
static HOT_INLINE bool leaf_done(struct decoder *d, const struct schema_op *op, uint64_t at,
                                 int64_t as_int)
{
    if (op->slot >= 0)
        d->slots[op->slot] = as_int;
    d->fields++;
    if (WANT_FIELDS(d))
        return emit_op(d, op, at, d->r.bit_pos - at, 0);
    return true;
}

/*
 * A simple leaf (kind, a constant where this is inlined) while visiting,
 * read in one step when the value is accepted: one load, shift and mask,
 * one unsigned compare; the load comes from the reader's padded copy of
 * the last bytes when the read ends near the end of the packet. Otherwise
 * (bits missing, a 0-bit read, a value that fails) read_leaf reads the
 * same bits again and reports the failure exactly. The test is `<`
 * rather than `<=` so that a 0-bit read (int(n, n)) well inside the
 * buffer still loads inside it.
 */
static HOT_INLINE bool visit_simple(struct decoder *d, const struct schema_op *op,
                                    enum visit_kind kind)
{
    bitsift_reader *r = &d->r;
    uint64_t at = r->bit_pos, end = at + op->visit_width, raw;
    if (BITSIFT_LIKELY(end < r->fast_limit))
        raw = (bitsift__load_le64(r->data + (at >> 3)) >> (at & 7)) & op->visit_mask;
    else if (op->visit_width && end <= r->bit_limit)
        raw = bitsift__reader_window(r, at) & op->visit_mask; /* the last bytes */
    else
        return read_leaf(d, op);
    if (BITSIFT_UNLIKELY(raw - op->visit_lo > op->visit_span))
        return read_leaf(d, op);
    r->bit_pos = at + op->visit_width;
    bitsift_value *v = &d->ev.value;
    v->data = NULL;
    v->size = 0;
    v->name = NULL;
    v->has_raw = false;
    int64_t as_int = 0;
    switch (kind) {
    case VISIT_UINT:
        v->kind = BITSIFT_VALUE_UINT;
        v->u = raw;
        as_int = (int64_t)raw;
        break;
    case VISIT_BOOL:
        v->kind = BITSIFT_VALUE_BOOL;
        v->b = raw != 0;
        as_int = (int64_t)raw;
        break;
    case VISIT_INT:
        v->kind = BITSIFT_VALUE_INT;
        v->i = as_int = (int64_t)((uint64_t)op->min + raw);
        break;
    case VISIT_ENUM:
        v->kind = BITSIFT_VALUE_ENUM;
        v->i = as_int = (int64_t)((uint64_t)op->min + raw);
        v->name = d->s->enum_values[op->visit_names + (raw - op->visit_lo)].name;
        break;
    case VISIT_CFLOAT:
        v->kind = BITSIFT_VALUE_FLOAT;
        if (WANT_FIELDS(d))
            v->f = dequantize(op, (uint32_t)raw);
        v->raw = raw;
        v->has_raw = true;
        break;
    case VISIT_FLOAT: {
        uint32_t u = (uint32_t)raw;
        v->kind = BITSIFT_VALUE_FLOAT;
        memcpy(&v->f, &u, sizeof u);
        break;
    }
    default:
        break;
    }
    return leaf_done(d, op, at, as_int);
}

/* Leaves of the other common kinds while visiting: what read_leaf_value
 * does for them, without its dispatch. */
static HOT_INLINE bool visit_object_index(struct decoder *d, const struct schema_op *op)
{
    bitsift_reader *r = &d->r;
    uint64_t at = r->bit_pos;
    int64_t base = 0;
    int32_t cur;
    if (!field_base(r, op, d->slots, INT32_MIN, INT32_MAX, &base) ||
        !bitsift_read_object_index(r, (int32_t)base, op->max_objects, &cur))
        return leaf_failed(d, op);
    bitsift_value *v = value_start(d, BITSIFT_VALUE_INT);
    v->i = cur;
    return leaf_done(d, op, at, cur);
}

static HOT_INLINE bool visit_check(struct decoder *d, const struct schema_op *op)
{
    bitsift_reader *r = &d->r;
    uint64_t at = r->bit_pos;
    if (!bitsift_read_check(r, op->check))
        return leaf_failed(d, op);
    bitsift_value *v = value_start(d, BITSIFT_VALUE_UINT);
    v->u = op->check;
    return leaf_done(d, op, at, 0);
}

/* Any leaf while visiting. */
static HOT_INLINE bool visit_leaf(struct decoder *d, const struct schema_op *op)
{
    switch ((enum visit_kind)op->visit) {
    case VISIT_UINT:
        return visit_simple(d, op, VISIT_UINT);
    case VISIT_BOOL:
        return visit_simple(d, op, VISIT_BOOL);
    case VISIT_INT:
        return visit_simple(d, op, VISIT_INT);
    case VISIT_ENUM:
        return visit_simple(d, op, VISIT_ENUM);
    case VISIT_CFLOAT:
        return visit_simple(d, op, VISIT_CFLOAT);
    case VISIT_FLOAT:
        return visit_simple(d, op, VISIT_FLOAT);
    default:
        return read_leaf(d, op);
    }
}

/* A leaf run (see struct schema_leaf), only when nobody watches: one
 * bounds test, then a load, a shift, a mask and a compare per read. It
 * commits only when every read passes; otherwise the caller reads the
 * same ops one by one, which finds and reports the failure exactly (the
 * slots written here are written again with the same values). The test
 * is `<` rather than `<=` so that a 0-bit read at the run's end still
 * loads inside the buffer. */
static bool read_leaf_run(struct decoder *d, const struct schema_op *op)
{
    bitsift_reader *r = &d->r;
    uint64_t pos = r->bit_pos;
    if (BITSIFT_UNLIKELY(pos + op->run_bits >= r->fast_limit))
        return false;
    const struct schema_leaf *l = d->s->leaves + op->run_first, *end = l + op->run_reads;
    for (; l < end; l++) {
        uint64_t raw = (bitsift__load_le64(r->data + (pos >> 3)) >> (pos & 7)) & l->mask;
        pos += l->width;
        if (BITSIFT_UNLIKELY(raw - l->lo > l->span))
            return false;
        d->slots[l->slot] = (int64_t)((uint64_t)l->base + raw);
    }
    r->bit_pos = pos;
    d->fields += op->run_fields;
    return true;
}

/* ---- containers -------------------------------------------------------------- */

static bool run(struct decoder *d, uint32_t first, uint32_t end);
static bool visit_run(struct decoder *d, uint32_t first, uint32_t end);

static bool enter(struct decoder *d, const struct schema_op *op, uint64_t at, uint64_t count)
{
    struct frame *f = &d->frames[d->nframes++];
    f->op = op;
    f->saved_len = d->path_len;
    if (d->paths && !op->element && d->ev.depth > 0)
        path_append_op(d, op);
    f->name_len = d->path_len;
    if (d->on_enter && !emit_frame(d, d->on_enter, op->name, op->field,
                                   (bitsift_field_type)op->type, at, 0, count))
        return false;
    d->ev.depth++;
    return true;
}

static bool leave(struct decoder *d, const struct schema_op *op, uint64_t at, uint64_t count)
{
    d->ev.depth--;
    struct frame *f = &d->frames[--d->nframes];
    if (d->paths)
        path_truncate(d, f->name_len);
    bool ok = true;
    if (d->on_leave)
        ok = emit_frame(d, d->on_leave, op->name, op->field, (bitsift_field_type)op->type, at,
                        d->r.bit_pos - at, count);
    if (d->paths)
        path_truncate(d, f->saved_len);
    return ok;
}

static bool read_struct(struct decoder *d, const struct schema_op *op)
{
    uint64_t at = d->r.bit_pos;
    int64_t index = d->ev.index;
    if (!enter(d, op, at, 0))
        return false;
    d->ev.index = -1;
    bool ok = run(d, (uint32_t)(op - d->s->ops) + 1, op->end);
    d->ev.index = index;
    return ok && leave(d, op, at, 0);
}

/* A struct while visiting: read_struct without a frame (nothing looks
 * for a struct's frame: arrays find their own on top once the struct's
 * body is done), its name appended the quick way. */
static HOT_INLINE bool visit_struct(struct decoder *d, const struct schema_op *op)
{
    uint64_t at = d->r.bit_pos;
    size_t saved_len = d->path_len;
    if (d->paths && !op->element && d->ev.depth > 0)
        path_append_quick(d, op);
    if (d->on_enter && !emit_frame(d, d->on_enter, op->name, op->field,
                                   (bitsift_field_type)op->type, at, 0, 0))
        return false;
    int64_t index = d->ev.index;
    d->ev.depth++;
    d->ev.index = -1;
    if (!visit_run(d, (uint32_t)(op - d->s->ops) + 1, op->end))
        return false;
    d->ev.index = index;
    d->ev.depth--;
    if (d->on_leave && !emit_frame(d, d->on_leave, op->name, op->field,
                                   (bitsift_field_type)op->type, at, d->r.bit_pos - at, 0))
        return false;
    path_truncate(d, saved_len);
    return true;
}

/* Array bookkeeping bits, reported so that stats account for them. */
static bool emit_meta(struct decoder *d, const struct schema_op *arr, uint64_t at, int64_t value,
                      bool is_bool)
{
    if (!WANT_FIELDS(d))
        return true;
    bitsift_value *v = value_start(d, is_bool ? BITSIFT_VALUE_BOOL : BITSIFT_VALUE_INT);
    v->u = 0;
    v->raw = 0;
    if (is_bool)
        v->b = value != 0;
    else
        v->i = value;
    return emit_array_field(d, arr, at, d->r.bit_pos - at, 0);
}

static bool read_element(struct decoder *d, const struct schema_op *arr, int64_t index)
{
    const struct schema_op *elem = arr + 1;
    if (d->fast) {
        if (elem->code == OP_STRUCT)
            return run(d, (uint32_t)(elem - d->s->ops) + 1, elem->end);
        return (elem->run_ops && read_leaf_run(d, elem)) || read_leaf(d, elem);
    }
    if (d->paths) {
        path_truncate(d, d->frames[d->nframes - 1].name_len);
        path_index(d, index);
    }
    d->ev.index = index;
    bool ok = elem->code == OP_STRUCT ? visit_struct(d, elem) : visit_leaf(d, elem);
    d->ev.index = -1;
    return ok;
}

static bool read_array(struct decoder *d, const struct schema_op *op)
{
    bitsift_reader *r = &d->r;
    uint64_t at = r->bit_pos;
    int64_t max = op->max, count = 0, n = 0;
    schema_reset_bases(d->s, op, d->slots);
    if (schema_array_count_known(op, d->slots, &count)) {
        if (count < 0 || count > max) {
            if (d->paths)
                path_append_op(d, op);
            return fail(d, BITSIFT_E_RANGE, at, "count above the array's maximum",
                        (uint64_t)max, (uint64_t)count);
        }
    } else if (op->array_kind != ARRAY_FLAGS && op->array_kind != ARRAY_SENTINEL) {
        /* Inline, indices, relative: int(0, max) elements follow. */
        if (!bitsift_read_int(r, 0, max, &count)) {
            if (d->paths)
                path_append_op(d, op);
            return false;
        }
    }
    if (!enter(d, op, at, (uint64_t)count))
        return false;
    if ((op->array_kind == ARRAY_INLINE || op->array_kind == ARRAY_INDICES ||
         op->array_kind == ARRAY_RELATIVE)) {
        if (WANT_FIELDS(d)) {
            bitsift_value *v = value_start(d, BITSIFT_VALUE_INT);
            v->i = count;
            v->raw = 0;
            if (!emit_array_field(d, op, at, bitsift_bits_required(0, max), (uint64_t)count))
                return false;
        }
    }
    int64_t previous = -1;
    switch ((enum array_kind)op->array_kind) {
    case ARRAY_FIXED:
    case ARRAY_COUNTED:
    case ARRAY_INLINE:
        for (n = 0; n < count; n++)
            if (!read_element(d, op, n))
                return false;
        break;
    case ARRAY_FLAGS:
        for (int64_t i = 0; i < max; i++) {
            uint64_t bit = r->bit_pos;
            bool here;
            if (!bitsift_read_bool(r, &here))
                return false;
            if (d->paths) {
                path_truncate(d, d->frames[d->nframes - 1].name_len);
                path_index(d, i);
            }
            if (!emit_meta(d, op, bit, here, true))
                return false;
            if (here) {
                if (!read_element(d, op, i))
                    return false;
                n++;
            }
        }
        break;
    case ARRAY_INDICES:
    case ARRAY_SENTINEL:
    case ARRAY_RELATIVE:
        for (;;) {
            uint64_t bit = r->bit_pos;
            int64_t index;
            if (op->array_kind == ARRAY_RELATIVE) {
                if (n == count)
                    break;
                int32_t cur;
                if (!bitsift_read_object_index(r, (int32_t)previous, (int32_t)max, &cur))
                    return false;
                index = cur;
            } else if (op->array_kind == ARRAY_INDICES) {
                if (n == count)
                    break;
                if (!bitsift_read_int(r, 0, max - 1, &index))
                    return false;
            } else {
                if (!bitsift_read_int(r, 0, max, &index))
                    return false;
                if (index == max) {
                    if (d->paths)
                        path_truncate(d, d->frames[d->nframes - 1].name_len);
                    if (!emit_meta(d, op, bit, index, false))
                        return false;
                    break;
                }
            }
            if (index <= previous || index >= max)
                return fail(d, BITSIFT_E_RANGE, bit,
                            index >= max ? "sparse index beyond the array"
                                         : "sparse index not above the previous one",
                            (uint64_t)(index >= max ? max - 1 : previous + 1), (uint64_t)index);
            if (d->paths) {
                path_truncate(d, d->frames[d->nframes - 1].name_len);
                path_index(d, index);
            }
            if (!emit_meta(d, op, bit, index, false) || !read_element(d, op, index))
                return false;
            previous = index;
            n++;
        }
        break;
    }
    return leave(d, op, at, (uint64_t)n);
}

/* The branch not taken: its fields take their defaults (so that later
 * conditions and counts see them) and are reported as absent. */
static HOT_INLINE bool skip_branch(struct decoder *d, uint32_t first, uint32_t end,
                                   bool sets_slots)
{
    const bitsift_schema *s = d->s;
    if (sets_slots)
        schema_skip_defaults(s, first, end, d->slots);
    if (!WANT_FIELDS(d) || !d->absent)
        return true;
    for (uint32_t i = first; i < end;) {
        const struct schema_op *op = &s->ops[i];
        if (op->visit >= VISIT_STRUCT) {
            i = op->end;
            continue;
        }
        if (op->visit_absent) {
            d->ev.value = op->absent;
            if (!emit_op(d, op, d->r.bit_pos, 0, BITSIFT_EVENT_ABSENT))
                return false;
        }
        i++;
    }
    return true;
}

/* An if's condition: the common shapes here, the rest by schema_eval. */
static inline bool condition(const struct decoder *d, const struct schema_op *op)
{
    switch ((enum cond_shape)op->cond_shape) {
    case COND_NONZERO:
        return d->slots[op->cond_slot] != 0;
    case COND_ZERO:
        return d->slots[op->cond_slot] == 0;
    case COND_EQ:
        return d->slots[op->cond_slot] == op->cond_value;
    case COND_NE:
        return d->slots[op->cond_slot] != op->cond_value;
    default:
        return schema_eval(d->s, op, d->slots);
    }
}

/* run() with a visitor or paths: every struct entered, every leaf
 * reported. */
static bool visit_run(struct decoder *d, uint32_t first, uint32_t end)
{
    const struct schema_op *ops = d->s->ops, *op = ops + first, *stop = ops + end;
    while (op < stop) {
        bool ok;
        switch ((enum visit_kind)op->visit) {
        case VISIT_LEAF:
            ok = read_leaf(d, op);
            break;
        case VISIT_UINT:
            ok = visit_simple(d, op, VISIT_UINT);
            break;
        case VISIT_BOOL:
            ok = visit_simple(d, op, VISIT_BOOL);
            break;
        case VISIT_INT:
            ok = visit_simple(d, op, VISIT_INT);
            break;
        case VISIT_ENUM:
            ok = visit_simple(d, op, VISIT_ENUM);
            break;
        case VISIT_CFLOAT:
            ok = visit_simple(d, op, VISIT_CFLOAT);
            break;
        case VISIT_FLOAT:
            ok = visit_simple(d, op, VISIT_FLOAT);
            break;
        case VISIT_OBJECT_INDEX:
            ok = visit_object_index(d, op);
            break;
        case VISIT_CHECK:
            ok = visit_check(d, op);
            break;
        case VISIT_QUATERNION:
            ok = read_smallest_three(d, op, d->r.bit_pos) || leaf_failed(d, op);
            break;
        case VISIT_STRUCT:
            if (!visit_struct(d, op))
                return false;
            op = ops + op->end;
            continue;
        case VISIT_ARRAY:
            if (!read_array(d, op))
                return false;
            op = ops + op->end;
            continue;
        case VISIT_IF: {
            bool taken = condition(d, op);
            uint32_t i = (uint32_t)(op - ops);
            uint32_t sa = taken ? op->else_start : i + 1, sb = taken ? op->end : op->else_start;
            bool sets_slots = op->branch_slots & (taken ? 2 : 1);
            if (sa < sb && !skip_branch(d, sa, sb, sets_slots))
                return false;
            if (!taken) {
                op = ops + op->else_start; /* the else branch ends where the if does */
            } else if (op->else_start == op->end) {
                op++; /* no else: the then branch ends where the if does */
            } else {
                if (!visit_run(d, i + 1, op->else_start))
                    return false;
                op = ops + op->end;
            }
            continue;
        }
        default:
            /* schema_prepare_visit gives every op one of the kinds above */
#if defined(__GNUC__) || defined(__clang__)
            __builtin_unreachable();
#else
            ok = read_leaf(d, op);
            break;
#endif
        }
        if (!ok)
            return false;
        op++;
    }
    return true;
}

/* The ops [first, end). Without a visitor and without paths (d->fast)
 * this validates; anything else is visit_run's (so the !fast cases
 * below are only its former way, kept as the interpreter's shape). */
static bool run(struct decoder *d, uint32_t first, uint32_t end)
{
    if (!d->fast)
        return visit_run(d, first, end);
    const struct schema_op *ops = d->s->ops;
    for (uint32_t i = first; i < end;) {
        const struct schema_op *op = &ops[i];
        if (d->fast && op->run_ops && read_leaf_run(d, op)) {
            i += op->run_ops;
            continue;
        }
        switch ((enum op_code)op->code) {
        case OP_STRUCT:
            if (d->fast) {
                i++; /* into the body: a struct adds nothing to check */
                break;
            }
            if (!read_struct(d, op))
                return false;
            i = op->end;
            break;
        case OP_ARRAY:
            if (!read_array(d, op))
                return false;
            i = op->end;
            break;
        case OP_IF: {
            bool taken = schema_eval(d->s, op, d->slots);
            uint32_t a = taken ? i + 1 : op->else_start, b = taken ? op->else_start : op->end;
            uint32_t sa = taken ? op->else_start : i + 1, sb = taken ? op->end : op->else_start;
            bool sets_slots = op->branch_slots & (taken ? 2 : 1);
            if (!skip_branch(d, sa, sb, sets_slots) || !run(d, a, b))
                return false;
            i = op->end;
            break;
        }
        default:
            if (!read_leaf(d, op))
                return false;
            i++;
        }
    }
    return true;
}

/* ---- framing and the entry points --------------------------------------------- */

/* The framing fields, in the order of framing_names. */
enum framing_field { FRAMING_PREFIX, FRAMING_CRC, FRAMING_TYPE, FRAMING_END_CHECK };
/* Their names, zero-padded for event_path_name. */
static const char framing_names[4][16] = {"prefix", "crc", "type", "end_check"};

static bool framing_event(struct decoder *d, enum framing_field which, bitsift_field_type type,
                          uint64_t at, const bitsift_value *v)
{
    static const uint8_t name_len[4] = {6, 3, 4, 9};
    const char *name = framing_names[which];
    if (!WANT_FIELDS(d))
        return true;
    bitsift_event *ev = &d->ev;
    ev->value = *v;
    ev->name = name;
    ev->id = -1;
    ev->type = type;
    ev->bit = at;
    ev->bits = d->r.bit_pos - at;
    ev->count = 0;
    ev->flags = BITSIFT_EVENT_FRAMING;
    event_path_name(d, name, name, name_len[which]);
    return deliver(d, d->on_field);
}

static bool decode_packet(struct decoder *d, const void *packet, size_t size, unsigned flags,
                          bitsift_result *res)
{
    const bitsift_schema *s = d->s;
    const bitsift_framing *fr = &s->framing;
    bitsift_reader *r = &d->r;
    bitsift_reader_init(r, packet, size);
    const bitsift_visitor *vis = d->v;
    d->on_field = vis ? vis->field : NULL;
    d->on_enter = vis ? vis->enter : NULL;
    d->on_leave = vis ? vis->leave : NULL;
    d->ctx = vis ? vis->ctx : NULL;
    d->ev.path = d->path;
    d->ev.path_len = 0;
    d->ev.depth = 0;
    d->ev.index = -1;
    uint64_t at = 0;
    const char *where = NULL;
    bitsift_value v;
    memset(&v, 0, sizeof v);

    if (fr->prefix_bytes) {
        where = "prefix";
        if (!bitsift_read_bytes_view(r, fr->prefix_bytes, &v.data))
            return false;
        v.kind = BITSIFT_VALUE_BYTES;
        v.size = fr->prefix_bytes;
        if (!framing_event(d, FRAMING_PREFIX, BITSIFT_FIELD_PREFIX, 0, &v))
            return false;
    }
    if (fr->crc) {
        where = "crc";
        at = r->bit_pos;
        uint32_t stored;
        if (!bitsift_read_uint32(r, &stored))
            goto named;
        if (!(flags & BITSIFT_DECODE_NO_CRC)) {
            uint32_t computed = bitsift_packet_crc(fr, packet, size);
            if (computed != stored) {
                fail(d, BITSIFT_E_CRC, at, "CRC32 mismatch", computed, stored);
                goto named;
            }
        }
        v.kind = BITSIFT_VALUE_UINT;
        v.u = stored;
        v.data = NULL, v.size = 0;
        if (!framing_event(d, FRAMING_CRC, BITSIFT_FIELD_CRC, at, &v))
            return false;
    }
    int64_t type = 0;
    if (fr->num_types > 1) {
        where = "type";
        at = r->bit_pos;
        if (!bitsift_read_int(r, 0, (int64_t)fr->num_types - 1, &type))
            goto named;
    }
    res->packet_type = (int)type;
    res->packet_name = s->packets[type].name;
    if (fr->num_types > 1) {
        v.kind = BITSIFT_VALUE_ENUM;
        v.i = type;
        v.name = res->packet_name;
        if (!framing_event(d, FRAMING_TYPE, BITSIFT_FIELD_PACKET_TYPE, at, &v))
            return false;
    }
    where = NULL;
    const struct schema_packet *p = &s->packets[type];
    if (!read_struct(d, &s->ops[p->first_op]))
        return false;
    if (fr->end_check) {
        where = "end_check";
        at = r->bit_pos;
        if (!bitsift_read_check(r, fr->end_check_value))
            goto named;
        v.kind = BITSIFT_VALUE_UINT;
        v.u = fr->end_check_value;
        v.name = NULL;
        if (!framing_event(d, FRAMING_END_CHECK, BITSIFT_FIELD_END_CHECK, at, &v))
            return false;
    }
    if (flags & BITSIFT_DECODE_STRICT) {
        uint64_t end = r->bit_pos;
        uint64_t pad_bits = (8 - (end & 7)) & 7;
        uint64_t pad = 0;
        if (pad_bits && !bitsift_read_bits(r, (unsigned)pad_bits, &pad))
            return false;
        if (pad) {
            fail(d, BITSIFT_E_TRAILING, end, "non-zero bits after the last field", 0, pad);
            return false;
        }
        if ((end + 7) / 8 < size) {
            fail(d, BITSIFT_E_TRAILING, (end + 7) / 8 * 8, "bytes after the end of the packet",
                 (end + 7) / 8, size);
            return false;
        }
        r->bit_pos = end;
    }
    return true;
named:
    if (where && d->paths)
        path_append(d, where);
    return false;
}

static bitsift_error finish(struct decoder *d, bool ok, bitsift_result *res)
{
    res->fields = d->fields;
    if (ok || (d->stopped && bitsift_reader_ok(&d->r))) {
        res->stopped = d->stopped;
        res->bits = d->r.bit_pos;
        res->status = BITSIFT_OK;
        return BITSIFT_OK;
    }
    res->failure = d->r.failure;
    res->status = res->failure.kind;
    res->bits = res->failure.bit;
    return res->status;
}

bitsift_error schema_decode(const bitsift_schema *s, const void *packet, size_t size,
                            unsigned flags, const bitsift_visitor *v, bitsift_result *res)
{
    /* Validation only (protocol detection): as in bitsift_decode. */
    if (!v && s->validate && !(flags & SCHEMA_DECODE_INTERPRETER) &&
        schema_validate(s, packet, size, flags, res))
        return BITSIFT_OK;
    struct decoder d;
    d.s = s;
    d.v = v;
    d.paths = v && !(flags & (SCHEMA_DECODE_NO_PATHS | BITSIFT_DECODE_NO_PATHS));
    d.fast = !v;
    d.absent = !(flags & BITSIFT_DECODE_NO_ABSENT);
    d.stopped = false;
    d.fields = 0;
    d.path[0] = 0;
    d.path_len = 0;
    d.nframes = 0;
    memset(d.slots, 0, sizeof(d.slots[0]) * s->slot_count);
    schema_result_init(res);
    bool ok = decode_packet(&d, packet, size, flags, res);
    bitsift_error e = finish(&d, ok, res);
    if (e == BITSIFT_OK) {
        if (!v)
            SCHEMA_PLANT(PLANT_INTERPRETER, res);
        return e;
    }
    if (!d.paths) {
        /* Run again, silently, to learn the failing field's path. */
        bitsift_result again;
        struct decoder *p = &d;
        p->v = NULL;
        p->paths = true;
        p->fast = false;
        p->stopped = false;
        p->fields = 0;
        p->path[0] = 0;
        p->path_len = 0;
        p->nframes = 0;
        memset(p->slots, 0, sizeof(p->slots[0]) * s->slot_count);
        schema_result_init(&again);
        (void)decode_packet(p, packet, size, flags & ~SCHEMA_DECODE_NO_PATHS, &again);
    }
    /* The path of the container being read, plus the leaf that failed:
     * the reader's failure names the leaf through the path buffer. (A
     * leaf event may have written past path_len: end the path first.) */
    d.path[d.path_len] = 0;
    snprintf(res->path, sizeof res->path, "%s", d.path);
    res->failure.field = res->path;
    return e;
}

bitsift_error bitsift_decode(const bitsift_schema *s, const void *packet, size_t size,
                             unsigned flags, const bitsift_visitor *v, bitsift_result *res)
{
    bitsift_result local;
    if (!res)
        res = &local;
    if (!schema_decode_args_ok(s, packet, size, res))
        return res->status;
    flags &= ~(SCHEMA_DECODE_NO_PATHS | SCHEMA_DECODE_INTERPRETER);
    /* Validation only: the validation program (schema_validate.c) decides
     * valid packets; the interpreter names the failure of the others. */
    if (!v && s->validate) {
        if (schema_validate(s, packet, size, flags, res))
            return BITSIFT_OK;
        flags |= SCHEMA_DECODE_INTERPRETER;
    }
    bitsift_error e = schema_decode(s, packet, size, flags, v, res);
    if (v)
        SCHEMA_PLANT(PLANT_VISITOR, res);
    return e;
}
