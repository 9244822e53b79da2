/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * drift_candidates.c -- the schema changes a diagnosis tries
 * (bitsift/diagnose.h, bitsift_drift_candidates), made as edits of the
 * schema text at the places the library says each field is written
 * (bitsift_schema_field_source). One family per function:
 *
 *   range      int(a, b), bits(n), uintN: width -2..+2 bits, or the same
 *              width with its range at the power-of-two boundary
 *   insert     bits(1..32) before or after any statement of the type,
 *              at the end of any body
 *   remove     any statement of the type
 *   bound      an array's size or maximum +-1
 *   condition  an integer or an enum value in a condition +-1, < <= > >=
 *              turned into their neighbour
 *   enum       values added at the end of an enum, up to filling the
 *              next width
 *   cfloat     a compressed float's step count moved to 2^k - 1, k within
 *              2 of its width (said as a resolution)
 *
 * Whether a candidate compiles is for the caller to find out: an edit the
 * compiler refuses is simply not a candidate.
 */
#include <ctype.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "drift_candidates.h"

#define INSERT_MAX_BITS   32 /* an inserted field: 1..32 bits */
#define RANGE_MAX_DELTA   2  /* widened or narrowed by up to 2 bits */
#define ENUM_MAX_SPAN     4096 /* enums whose values are looked at for conditions */
#define ENUM_SMALL_GROWTH 8  /* enum growth tried one value at a time up to this */
#define ENUM_MAX_GROWTH   64 /* values added to an enum at the most */

static const char *const family_names[BITSIFT_DRIFT_FAMILY_COUNT] = {
    "range", "insert", "remove", "bound", "condition", "enum", "cfloat", "schema"};

const char *bitsift_drift_family_name(bitsift_drift_family f)
{
    return (unsigned)f < BITSIFT_DRIFT_FAMILY_COUNT ? family_names[f] : "unknown";
}

/* ---- the list ----------------------------------------------------------- */

void bitsift_drift_list_free(bitsift_drift_list *list)
{
    for (size_t i = 0; i < list->count; i++)
        free(list->items[i].text);
    free(list->items);
    memset(list, 0, sizeof *list);
}

/* Append a copy of *c (taking its text). */
static bool push(bitsift_drift_list *list, bitsift_drift_candidate *c)
{
    if (list->count == list->cap) {
        size_t cap = list->cap ? list->cap * 2 : 256;
        bitsift_drift_candidate *bigger = realloc(list->items, cap * sizeof *bigger);
        if (!bigger) {
            free(c->text);
            return false;
        }
        list->items = bigger;
        list->cap = cap;
    }
    list->items[list->count++] = *c;
    return true;
}

/* A replacement edit with a printf-made text. */
static bool push_edit(bitsift_drift_list *list, bitsift_drift_family family, size_t start,
                      size_t end, const char *text, unsigned delta_bits, unsigned detail,
                      int new_bits, int field, const char *what)
{
    bitsift_drift_candidate c;
    memset(&c, 0, sizeof c);
    c.family = family;
    c.start = start;
    c.end = end;
    c.text = strdup(text);
    if (!c.text)
        return false;
    c.delta_bits = delta_bits;
    c.detail = detail;
    c.new_bits = new_bits;
    c.field = field;
    snprintf(c.what, sizeof c.what, "%s", what);
    return push(list, &c);
}

bool drift_add_schema(bitsift_drift_list *list, size_t index, const char *label)
{
    bitsift_drift_candidate c;
    memset(&c, 0, sizeof c);
    c.family = BITSIFT_DRIFT_SCHEMA;
    c.schema = index;
    c.field = -1;
    c.new_bits = -1;
    /* A schema the user has already written is no change to make: it
     * ranks before a field edit that explains as much. */
    c.delta_bits = 0;
    snprintf(c.what, sizeof c.what, "the other schema %s", label);
    return push(list, &c);
}

char *bitsift_drift_apply(const char *text, size_t size, const bitsift_drift_candidate *c,
                  size_t *out_size)
{
    size_t add = c->text ? strlen(c->text) : 0;
    size_t n = size - (c->end - c->start) + add;
    char *out = malloc(n + 1);
    if (!out)
        return NULL;
    memcpy(out, text, c->start);
    memcpy(out + c->start, c->text, add);
    memcpy(out + c->start + add, text + c->end, size - c->end);
    out[n] = 0;
    *out_size = n;
    return out;
}

/* ---- reading the text around a statement --------------------------------- */

/* Past blanks and comments (# or // to the end of the line), as the
 * schema lexer skips them. */
static size_t skip_blank(const char *text, size_t size, size_t pos)
{
    while (pos < size) {
        char ch = text[pos];
        if (ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n' || ch == '\f' || ch == '\v') {
            pos++;
        } else if (ch == '#' || (ch == '/' && pos + 1 < size && text[pos + 1] == '/')) {
            while (pos < size && text[pos] != '\n')
                pos++;
        } else {
            break;
        }
    }
    return pos;
}

static size_t line_start(const char *text, size_t pos)
{
    while (pos > 0 && text[pos - 1] != '\n')
        pos--;
    return pos;
}

/* Only spaces and tabs before `pos` on its line. */
static bool first_on_line(const char *text, size_t pos)
{
    for (size_t i = line_start(text, pos); i < pos; i++)
        if (text[i] != ' ' && text[i] != '\t')
            return false;
    return true;
}

/* The indentation of pos's line, into buf. */
static void indentation(const char *text, size_t size, size_t pos, char *buf, size_t bufsize)
{
    size_t i = line_start(text, pos), n = 0;
    while (i < size && (text[i] == ' ' || text[i] == '\t') && n + 1 < bufsize)
        buf[n++] = text[i++];
    buf[n] = 0;
}

/* From `pos` to the end of its line there are only blanks and a comment. */
static bool rest_of_line_blank(const char *text, size_t size, size_t pos, size_t *next_line)
{
    size_t i = pos;
    while (i < size && (text[i] == ' ' || text[i] == '\t' || text[i] == '\r'))
        i++;
    if (i < size && (text[i] == '#' || (text[i] == '/' && i + 1 < size && text[i + 1] == '/')))
        while (i < size && text[i] != '\n')
            i++;
    if (i < size && text[i] != '\n')
        return false;
    *next_line = i < size ? i + 1 : i;
    return true;
}

bool drift_insertion(const char *text, size_t size, size_t pos, bool before, const char *type,
                     const char *name, bitsift_drift_candidate *c)
{
    size_t x = skip_blank(text, size, pos);
    char indent[64];
    /* Before a closing brace, the new field is the body's last: indented
     * like the statement it follows. */
    if (!before && x < size && text[x] == '}')
        indentation(text, size, pos, indent, sizeof indent);
    else
        indentation(text, size, x, indent, sizeof indent);
    char buf[256];
    memset(c, 0, sizeof *c);
    c->family = BITSIFT_DRIFT_INSERT;
    if (x < size && first_on_line(text, x)) {
        c->start = c->end = line_start(text, x);
        snprintf(buf, sizeof buf, "%s%s %s;\n", indent, type, name);
    } else {
        c->start = c->end = x;
        snprintf(buf, sizeof buf, "%s %s; ", type, name);
    }
    c->text = strdup(buf);
    c->field = -1;
    c->new_bits = -1;
    return c->text != NULL;
}

void drift_format_float(char *buf, size_t size, float v)
{
    /* Plain decimals as a schema author writes them ("-180", "0.01"),
     * else the exponent form. */
    if (fabsf(v) < 1e9f)
        for (int decimals = 0; decimals <= 12; decimals++) {
            snprintf(buf, size, "%.*f", decimals, (double)v);
            if (strtof(buf, NULL) == v)
                return;
        }
    for (int digits = 1; digits <= 9; digits++) {
        snprintf(buf, size, "%.*g", digits, (double)v);
        if (strtof(buf, NULL) == v)
            return;
    }
}

/* ---- the families --------------------------------------------------------- */

struct gen {
    const bitsift_schema *s;
    const char *text;
    size_t size;
    unsigned type;
    bitsift_drift_list *list;
    const char *new_name; /* a field name the schema does not use */
};

/* max - min of a range, without overflow (min <= max). */
static uint64_t span_of(int64_t min, int64_t max)
{
    return (uint64_t)max - (uint64_t)min;
}

static bool span_starts_with(const struct gen *g, size_t start, size_t end, const char *word)
{
    size_t n = strlen(word);
    return end - start >= n && memcmp(g->text + start, word, n) == 0;
}

static bool symmetric(int64_t min, int64_t max)
{
    return min < 0 && max > 0 && (min == -max || min == -max - 1);
}

/* int(min, max) of width `bits`, in the form of the original range:
 * symmetric ranges stay symmetric, others keep their minimum. */
static bool range_of_width(int64_t min, int64_t max, unsigned bits, int64_t *nmin, int64_t *nmax)
{
    if (bits < 1 || bits > 62)
        return false;
    if (symmetric(min, max)) {
        int64_t m = ((int64_t)1 << (bits - 1)) - 1;
        *nmax = m;
        *nmin = min == -max ? -m : -m - 1;
        /* At the boundary already (-127..127 in 8 bits): the boundary of
         * the same width is the two's complement range, -128..127. */
        if (*nmin == min && *nmax == max)
            *nmin = -m - 1;
        return bitsift_bits_required(*nmin, *nmax) == bits;
    }
    int64_t span = ((int64_t)1 << bits) - 1;
    if (min > INT64_MAX - span)
        return false;
    *nmin = min;
    *nmax = min + span;
    return true;
}

static bool gen_range(struct gen *g, int id, const bitsift_field_info *info,
                      const bitsift_field_source *src)
{
    size_t a = src->type_start, b = src->type_end;
    char text[128], what[192];
    if (info->type == BITSIFT_FIELD_INT && span_starts_with(g, a, b, "int")) {
        unsigned w = bitsift_bits_required(info->min, info->max);
        for (int d = -RANGE_MAX_DELTA; d <= RANGE_MAX_DELTA; d++) {
            int64_t nmin, nmax;
            if ((int)w + d < 1)
                continue;
            if (!range_of_width(info->min, info->max, (unsigned)((int)w + d), &nmin, &nmax))
                continue;
            if (nmin == info->min && nmax == info->max)
                continue; /* d == 0 and already at the boundary */
            snprintf(text, sizeof text, "int(%" PRId64 ", %" PRId64 ")", nmin, nmax);
            if (d == 0)
                snprintf(what, sizeof what, "%s: range %" PRId64 "..%" PRId64 " -> %" PRId64
                         "..%" PRId64 " (%u bits)", info->path, info->min, info->max, nmin,
                         nmax, w);
            else
                snprintf(what, sizeof what, "%s: %u -> %d bits, range %" PRId64 "..%" PRId64,
                         info->path, w, (int)w + d, nmin, nmax);
            if (!push_edit(g->list, BITSIFT_DRIFT_RANGE, a, b, text, (unsigned)abs(d), d == 0,
                           (int)w + d, id, what))
                return false;
        }
        return true;
    }
    bool bits_type = info->type == BITSIFT_FIELD_BITS || info->type == BITSIFT_FIELD_UINT8 ||
                     info->type == BITSIFT_FIELD_UINT16 || info->type == BITSIFT_FIELD_UINT32 ||
                     info->type == BITSIFT_FIELD_UINT64;
    if (bits_type && (span_starts_with(g, a, b, "bits") || span_starts_with(g, a, b, "uint"))) {
        unsigned w = info->width;
        for (int d = -RANGE_MAX_DELTA; d <= RANGE_MAX_DELTA; d++) {
            int nw = (int)w + d;
            if (d == 0 || nw < 1 || nw > 64)
                continue;
            snprintf(text, sizeof text, "bits(%d)", nw);
            snprintf(what, sizeof what, "%s: %u -> %d bits", info->path, w, nw);
            if (!push_edit(g->list, BITSIFT_DRIFT_RANGE, a, b, text, (unsigned)abs(d), 0, nw, id,
                           what))
                return false;
        }
    }
    return true;
}

static bool gen_cfloat(struct gen *g, int id, const bitsift_field_info *info,
                       const bitsift_field_source *src)
{
    if (info->type != BITSIFT_FIELD_COMPRESSED_FLOAT ||
        !span_starts_with(g, src->type_start, src->type_end, "compressed_float"))
        return true;
    uint32_t steps;
    unsigned w;
    if (!bitsift_compressed_float_steps(info->fmin, info->fmax, info->resolution, &steps, &w))
        return true;
    char smin[32], smax[32], sres[32], text[160], what[192];
    drift_format_float(smin, sizeof smin, info->fmin);
    drift_format_float(smax, sizeof smax, info->fmax);
    for (int d = -RANGE_MAX_DELTA; d <= RANGE_MAX_DELTA; d++) {
        int nw = (int)w + d;
        if (nw < 1 || nw > 32)
            continue;
        uint64_t target = ((uint64_t)1 << nw) - 1;
        if (d == 0 && steps == target)
            continue;
        /* The resolution whose step count is 2^nw - 1: computed, written
         * as the compiler will read it, then nudged until the compiler's
         * own step count has the width asked for. */
        float res = (float)(((double)info->fmax - (double)info->fmin) / (double)target);
        uint32_t nsteps = 0;
        unsigned nbits = 0;
        bool found = false;
        for (int tries = 0; tries < 64 && res > 0 && isfinite(res); tries++) {
            drift_format_float(sres, sizeof sres, res);
            res = strtof(sres, NULL);
            if (!bitsift_compressed_float_steps(info->fmin, info->fmax, res, &nsteps, &nbits))
                break;
            if ((int)nbits == nw) {
                found = true;
                break;
            }
            res = (int)nbits > nw ? nextafterf(res, INFINITY) : nextafterf(res, 0);
        }
        if (!found || (nsteps == steps && nbits == w))
            continue;
        snprintf(text, sizeof text, "compressed_float(%s, %s, %s)", smin, smax, sres);
        snprintf(what, sizeof what, "%s: %u -> %d bits (%" PRIu32 " -> %" PRIu32 " steps)",
                 info->path, w, nw, steps, nsteps);
        if (!push_edit(g->list, BITSIFT_DRIFT_CFLOAT, src->type_start, src->type_end, text,
                       (unsigned)abs(d), d == 0, nw, id, what))
            return false;
    }
    return true;
}

/* Fields of sizes 1..32 inserted before the statement at `pos` or after
 * the one ending there. */
static bool gen_insert_at(struct gen *g, size_t pos, bool before, int id, const char *where)
{
    for (int bits = 1; bits <= INSERT_MAX_BITS; bits++) {
        char type[32], what[192];
        snprintf(type, sizeof type, "bits(%d)", bits);
        bitsift_drift_candidate c;
        if (!drift_insertion(g->text, g->size, pos, before, type, g->new_name, &c))
            return false;
        c.delta_bits = (unsigned)bits;
        c.new_bits = bits;
        c.field = id;
        snprintf(c.what, sizeof c.what, "%d-bit field inserted %s", bits, where);
        (void)what;
        if (!push(g->list, &c))
            return false;
    }
    return true;
}

static bool gen_remove(struct gen *g, int id, const bitsift_field_info *info,
                       const bitsift_field_source *src)
{
    size_t start = src->start, end = src->end, next_line;
    if (first_on_line(g->text, start) && rest_of_line_blank(g->text, g->size, end, &next_line)) {
        start = line_start(g->text, start);
        end = next_line;
    } else {
        while (end < g->size && (g->text[end] == ' ' || g->text[end] == '\t'))
            end++;
    }
    char what[192];
    snprintf(what, sizeof what, "%s removed (%" PRIu64 "..%" PRIu64 " bits)",
             info->path[0] ? info->path : info->name, info->min_bits, info->max_bits);
    /* Its size when present: a conditional field costs 0 bits at the least. */
    unsigned bits = info->max_bits > 1u << 20 ? 1u << 20 : (unsigned)info->max_bits;
    return push_edit(g->list, BITSIFT_DRIFT_REMOVE, start, end, "", bits, 0, -1, id, what);
}

/* The first integer literal in text[a, b): its span and value. */
static bool find_integer(const char *text, size_t a, size_t b, size_t *start, size_t *end,
                         uint64_t *value)
{
    for (size_t i = a; i < b; i++) {
        if (!isdigit((unsigned char)text[i]))
            continue;
        if (i > a && (isalnum((unsigned char)text[i - 1]) || text[i - 1] == '_'))
            continue;
        size_t j = i;
        while (j < b && (isalnum((unsigned char)text[j]) || text[j] == '_'))
            j++;
        char buf[32];
        if (j - i >= sizeof buf)
            return false;
        memcpy(buf, text + i, j - i);
        buf[j - i] = 0;
        char *stop;
        *value = strtoull(buf, &stop, 0);
        if (*stop)
            return false;
        *start = i;
        *end = j;
        return true;
    }
    return false;
}

static bool gen_bound(struct gen *g, int id, const bitsift_field_info *info,
                      const bitsift_field_source *src)
{
    size_t a, b;
    uint64_t n;
    if (info->type != BITSIFT_FIELD_ARRAY || src->array_start == src->array_end ||
        !find_integer(g->text, src->array_start, src->array_end, &a, &b, &n))
        return true;
    for (int d = -1; d <= 1; d += 2) {
        if ((d < 0 && n <= 1) || (d > 0 && n >= BITSIFT_SCHEMA_MAX_ARRAY))
            continue;
        char text[32], what[192];
        snprintf(text, sizeof text, "%" PRIu64, n + (uint64_t)(int64_t)d);
        snprintf(what, sizeof what, "%s: array bound %" PRIu64 " -> %s", info->path, n, text);
        if (!push_edit(g->list, BITSIFT_DRIFT_BOUND, a, b, text, 0, 1, -1, id, what))
            return false;
    }
    return true;
}

/* Enum value names, for conditions written with them. */
struct enum_seen {
    int field;
    int64_t min, max;
    size_t items_start;
};

static bool same_word(const char *a, size_t n, const char *word)
{
    return word && strlen(word) == n && memcmp(a, word, n) == 0;
}

static bool gen_condition(struct gen *g, int id, const bitsift_field_info *info,
                          const bitsift_field_source *src, const struct enum_seen *enums,
                          size_t nenums)
{
    size_t a = src->cond_start, b = src->cond_end;
    char what[192], cond[64];
    snprintf(cond, sizeof cond, "%.*s", (int)(b - a > 60 ? 60 : b - a), g->text + a);
    const char *where = info->path[0] ? info->path : info->name;
    for (size_t i = a; i < b;) {
        char ch = g->text[i];
        if (isdigit((unsigned char)ch)) {
            size_t s, e;
            uint64_t n;
            if (!find_integer(g->text, i, b, &s, &e, &n))
                return true;
            for (int d = -1; d <= 1; d += 2) {
                if (d < 0 && n == 0)
                    continue;
                char text[32];
                snprintf(text, sizeof text, "%" PRIu64, n + (uint64_t)(int64_t)d);
                snprintf(what, sizeof what, "condition of %s: %s, %" PRIu64 " -> %s", where, cond,
                         n, text);
                if (!push_edit(g->list, BITSIFT_DRIFT_CONDITION, s, e, text, 0, 1, -1, id, what))
                    return false;
            }
            i = e;
        } else if (isalpha((unsigned char)ch) || ch == '_') {
            size_t e = i;
            while (e < b && (isalnum((unsigned char)g->text[e]) || g->text[e] == '_'))
                e++;
            bool dotted = (i > a && g->text[i - 1] == '.') || (e < b && g->text[e] == '.');
            for (size_t k = 0; k < nenums && !dotted; k++) {
                uint64_t span = span_of(enums[k].min, enums[k].max);
                for (uint64_t j = 0; j <= span; j++) {
                    int64_t v = (int64_t)((uint64_t)enums[k].min + j);
                    const char *name = bitsift_schema_enum_name(g->s, (unsigned)enums[k].field, v);
                    if (!same_word(g->text + i, e - i, name))
                        continue;
                    for (int d = -1; d <= 1; d += 2) {
                        if ((d < 0 && v == enums[k].min) || (d > 0 && v == enums[k].max))
                            continue;
                        char text[96];
                        const char *other =
                            bitsift_schema_enum_name(g->s, (unsigned)enums[k].field, v + d);
                        if (other)
                            snprintf(text, sizeof text, "%s", other);
                        else
                            snprintf(text, sizeof text, "%" PRId64, v + d);
                        snprintf(what, sizeof what, "condition of %.40s: %s, %.*s -> %.24s",
                                 where, cond, (int)(e - i > 24 ? 24 : e - i), g->text + i, text);
                        if (!push_edit(g->list, BITSIFT_DRIFT_CONDITION, i, e, text, 0, 1, -1, id,
                                       what))
                            return false;
                    }
                    break;
                }
            }
            i = e;
        } else if (ch == '<' || ch == '>') {
            bool eq = i + 1 < b && g->text[i + 1] == '=';
            char text[4];
            snprintf(text, sizeof text, "%c%s", ch, eq ? "" : "=");
            snprintf(what, sizeof what, "condition of %s: %s, %.*s -> %s", where, cond,
                     eq ? 2 : 1, g->text + i, text);
            if (!push_edit(g->list, BITSIFT_DRIFT_CONDITION, i, i + (eq ? 2 : 1), text, 0, 1, -1,
                           id, what))
                return false;
            i += eq ? 2 : 1;
        } else {
            i++;
        }
    }
    return true;
}

static bool gen_enum(struct gen *g, int id, const bitsift_field_info *info,
                     const bitsift_field_source *src)
{
    if (info->type != BITSIFT_FIELD_ENUM || src->body_start == src->body_end)
        return true;
    /* The highest named value: new ones follow it. */
    int64_t last = info->min;
    bool any = false;
    if (info->min <= info->max && span_of(info->min, info->max) <= ENUM_MAX_SPAN) {
        for (uint64_t j = 0; j <= span_of(info->min, info->max) && !any; j++) {
            int64_t v = (int64_t)((uint64_t)info->max - j);
            if (bitsift_schema_enum_name(g->s, (unsigned)id, v))
                last = v, any = true;
        }
    }
    if (!any || last > INT64_MAX - ENUM_MAX_GROWTH)
        return true;
    unsigned w = bitsift_bits_required(info->min, info->max);
    /* Values within the enum's width, one at a time then all of them, and
     * enough to fill the next width. */
    int64_t room = w >= 62 ? 0 : (((int64_t)1 << w) - 1) - (last - info->min);
    int64_t next_room = w >= 61 ? 0 : (((int64_t)1 << (w + 1)) - 1) - (last - info->min);
    int64_t counts[ENUM_SMALL_GROWTH + 3];
    size_t ncounts = 0;
    for (int64_t k = 1; k <= room && k <= ENUM_SMALL_GROWTH; k++)
        counts[ncounts++] = k;
    if (room > ENUM_SMALL_GROWTH && room <= ENUM_MAX_GROWTH)
        counts[ncounts++] = room;
    /* The first value that needs one more bit, and the values that fill it. */
    if (next_room > room && room + 1 <= ENUM_MAX_GROWTH)
        counts[ncounts++] = room + 1;
    if (next_room > room + 1 && next_room <= ENUM_MAX_GROWTH)
        counts[ncounts++] = next_room;
    const char *enum_name = "";
    char name_buf[96];
    snprintf(name_buf, sizeof name_buf, "%.*s",
             (int)(src->type_end - src->type_start > 90 ? 90 : src->type_end - src->type_start),
             g->text + src->type_start);
    enum_name = name_buf;
    for (size_t i = 0; i < ncounts; i++) {
        int64_t k = counts[i];
        size_t cap = (size_t)k * 48 + 1;
        char *text = malloc(cap);
        if (!text)
            return false;
        size_t n = 0;
        for (int64_t j = 1; j <= k; j++)
            n += (size_t)snprintf(text + n, cap - n, ", %s_%" PRId64 " = %" PRId64, g->new_name,
                                  last + j, last + j);
        int64_t new_max = last + k > info->max ? last + k : info->max;
        unsigned nw = bitsift_bits_required(info->min, new_max);
        char what[192];
        snprintf(what, sizeof what, "enum %s: %" PRId64 " value%s added (%u bits)", enum_name, k,
                 k == 1 ? "" : "s", nw);
        /* The size of the change: the bit it adds, then the values beyond
         * the fewest that give this width (none when it fills the width:
         * every value of it named is as plain a guess as one more). */
        int64_t fewest = nw == w ? 1 : room + 1;
        bool fills = k == (nw == w ? room : next_room);
        bool ok = push_edit(g->list, BITSIFT_DRIFT_ENUM, src->body_end, src->body_end, text, nw - w,
                            fills ? 0 : (unsigned)(k - fewest), (int)nw, id, what);
        free(text);
        if (!ok)
            return false;
    }
    return true;
}

/* ---- all of them ------------------------------------------------------------ */

static int compare_edits(const void *pa, const void *pb)
{
    const bitsift_drift_candidate *a = pa, *b = pb;
    if (a->start != b->start)
        return a->start < b->start ? -1 : 1;
    if (a->end != b->end)
        return a->end < b->end ? -1 : 1;
    return strcmp(a->text ? a->text : "", b->text ? b->text : "");
}

/* Edits in order, and among equal edits the first field's description
 * first, so that the one kept does not depend on qsort. */
static int compare_candidates(const void *pa, const void *pb)
{
    int order = compare_edits(pa, pb);
    if (order)
        return order;
    const bitsift_drift_candidate *a = pa, *b = pb;
    if (a->field != b->field)
        return a->field < b->field ? -1 : 1;
    return strcmp(a->what, b->what);
}

/* A name for new fields and values that the text does not hold. */
static void pick_new_name(const char *text, size_t size, char *buf, size_t bufsize)
{
    for (unsigned i = 0;; i++) {
        if (i == 0)
            snprintf(buf, bufsize, "added");
        else
            snprintf(buf, bufsize, "added%u", i);
        size_t n = strlen(buf);
        bool found = false;
        for (size_t k = 0; k + n <= size && !found; k++)
            found = memcmp(text + k, buf, n) == 0;
        if (!found || i > 1000)
            return;
    }
}

bitsift_error bitsift_drift_candidates(const bitsift_schema *s, const char *text, size_t size,
                                       unsigned type, bitsift_drift_list *list)
{
    char new_name[32];
    pick_new_name(text, size, new_name, sizeof new_name);
    struct gen g = {.s = s, .text = text, .size = size, .type = type, .list = list,
                    .new_name = new_name};
    size_t first = list->count;
    unsigned count = bitsift_schema_field_count(s);
    /* Enums anywhere in the schema, for conditions. */
    struct enum_seen *enums = NULL;
    size_t nenums = 0;
    for (unsigned id = 0; id < count; id++) {
        bitsift_field_info info;
        bitsift_field_source src;
        if (!bitsift_schema_field_info(s, id, &info) || !bitsift_schema_field_source(s, id, &src) ||
            info.type != BITSIFT_FIELD_ENUM || info.max < info.min ||
            span_of(info.min, info.max) > ENUM_MAX_SPAN)
            continue;
        bool seen = false;
        for (size_t k = 0; k < nenums && !seen; k++)
            seen = enums[k].items_start == src.body_start;
        if (seen)
            continue;
        struct enum_seen *bigger = realloc(enums, (nenums + 1) * sizeof *enums);
        if (!bigger) {
            free(enums);
            return BITSIFT_E_NOMEM;
        }
        enums = bigger;
        enums[nenums++] = (struct enum_seen){(int)id, info.min, info.max, src.body_start};
    }
    bool ok = true;
    for (unsigned id = 0; id < count && ok; id++) {
        bitsift_field_info info;
        bitsift_field_source src;
        if (!bitsift_schema_field_info(s, id, &info) || info.packet_type != type ||
            !bitsift_schema_field_source(s, id, &src) || src.start == src.end)
            continue;
        bool root = info.parent < 0;
        const char *where = info.path[0] ? info.path : "";
        char label[192];
        if (root) {
            /* The end of the packet's body. */
            snprintf(label, sizeof label, "at the end of packet %s",
                     bitsift_schema_packet_name(s, type));
            ok = gen_insert_at(&g, src.body_end, false, (int)id, label);
            if (ok && src.body_start == src.body_end)
                ok = gen_insert_at(&g, src.body_start, true, (int)id, label);
            continue;
        }
        ok = gen_range(&g, (int)id, &info, &src) && gen_cfloat(&g, (int)id, &info, &src) &&
             gen_bound(&g, (int)id, &info, &src) && gen_enum(&g, (int)id, &info, &src);
        if (ok && src.cond_start != src.cond_end)
            ok = gen_condition(&g, (int)id, &info, &src, enums, nenums);
        /* Statement-level changes, once per statement: the first field a
         * statement makes is the one whose source starts it. */
        bitsift_field_info parent;
        bitsift_field_source psrc;
        bool same_statement = bitsift_schema_field_info(s, (unsigned)info.parent, &parent) &&
                              bitsift_schema_field_source(s, (unsigned)info.parent, &psrc) &&
                              psrc.start == src.start && parent.parent >= 0;
        if (!ok || same_statement)
            continue;
        snprintf(label, sizeof label, "before %s", where);
        ok = gen_insert_at(&g, src.start, true, (int)id, label);
        if (ok) {
            snprintf(label, sizeof label, "after %s", where);
            ok = gen_insert_at(&g, src.end, false, (int)id, label);
        }
        if (ok && src.body_start != src.body_end && info.type != BITSIFT_FIELD_ENUM) {
            snprintf(label, sizeof label, "at the end of %s", where);
            ok = gen_insert_at(&g, src.body_end, false, (int)id, label);
        }
        if (ok)
            ok = gen_remove(&g, (int)id, &info, &src);
    }
    free(enums);
    if (!ok)
        return BITSIFT_E_NOMEM;
    /* The same edit reached from two fields (a struct used twice, the
     * place after one statement and before the next) is one candidate. */
    bitsift_drift_candidate *items = list->items + first;
    size_t n = list->count - first;
    qsort(items, n, sizeof *items, compare_candidates);
    size_t kept = 0;
    for (size_t i = 0; i < n; i++) {
        if (kept && compare_edits(&items[kept - 1], &items[i]) == 0) {
            free(items[i].text);
            continue;
        }
        items[kept++] = items[i];
    }
    list->count = first + kept;
    return BITSIFT_OK;
}
