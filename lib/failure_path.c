/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * failure_path.c -- the field path of a failure in serialize code,
 * "players[2].position.x", built from the inside out as the serialize
 * functions return false through each part. Nothing is spent on it until
 * a read or write fails.
 *
 * The path is written right-aligned into the reader's (or writer's)
 * buffer, each outer part in front of the last:
 *
 *   path[]  ..............players[2].position.x\0
 *                         ^ path_start           ^ BITSIFT_FAILURE_PATH_MAX - 1
 *
 * A part that does not fit is dropped with every part outside it: the
 * innermost ones, which say the most, stay.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "bitsift_internal.h"

/* The last member an expression names: "b->pos.x" gives "x",
 * "p->items[k]" gives "items", "*e" gives "". */
static void last_member(const char *expr, const char **start, size_t *len)
{
    const char *s = expr;
    for (const char *p = expr; *p; p++)
        if (*p == '.' || *p == '>' || *p == '*' || *p == '&' || *p == '(' || *p == ' ')
            s = p + 1;
    size_t n = strcspn(s, "[)");
    *start = s;
    *len = n;
}

static bool points_into(const char *p, const char *buf)
{
    /* Compared as integers: relational operators on pointers into
     * different objects are undefined. */
    uintptr_t a = (uintptr_t)p, b = (uintptr_t)buf;
    return p && a >= b && a < b + BITSIFT_FAILURE_PATH_MAX;
}

static void prepend(bitsift_failure *f, char *buf, uint32_t *start, const char *name,
                    int64_t index)
{
    if (f->kind == BITSIFT_OK)
        return;
    if (!points_into(f->field, buf)) {
        /* The first outer part: start from the leaf's own name. */
        *start = BITSIFT_FAILURE_PATH_MAX - 1;
        buf[*start] = '\0';
        if (f->field) {
            const char *m;
            size_t n;
            last_member(f->field, &m, &n);
            if (n < *start) {
                *start -= (uint32_t)n;
                memcpy(buf + *start, m, n);
            }
        }
        f->field = buf + *start;
    }
    char part[96];
    size_t name_len = name ? strnlen(name, 63) : 0;
    size_t n = 0;
    memcpy(part, name ? name : "", name_len);
    n = name_len;
    if (index >= 0)
        n += (size_t)snprintf(part + n, sizeof part - n, "[%" PRId64 "]", index);
    const char *rest = buf + *start;
    if (n && rest[0] && rest[0] != '[')
        part[n++] = '.';
    if (n > *start)
        return; /* no room: keep the inner parts */
    *start -= (uint32_t)n;
    memcpy(buf + *start, part, n);
    f->field = buf + *start;
}

bool bitsift_reader_fail_in(bitsift_reader *r, const char *name, int64_t index)
{
    prepend(&r->failure, r->path, &r->path_start, name, index);
    return false;
}

bool bitsift_writer_fail_in(bitsift_writer *w, const char *name, int64_t index)
{
    prepend(&w->failure, w->path, &w->path_start, name, index);
    return false;
}

bool bitsift__serialize_failed(void *stream, int mode, const char *parent, int64_t index,
                               const char *field)
{
    if (mode == BITSIFT_READ) {
        bitsift_reader_name_failure(stream, field);
        if (parent || index >= 0)
            bitsift_reader_fail_in(stream, parent, index);
    } else {
        bitsift_writer_name_failure(stream, field);
        if (parent || index >= 0)
            bitsift_writer_fail_in(stream, parent, index);
    }
    return false;
}

bool bitsift__serialize_failed_in(void *stream, int mode, const char *name, int64_t index)
{
    if (mode == BITSIFT_READ)
        return bitsift_reader_fail_in(stream, name, index);
    return bitsift_writer_fail_in(stream, name, index);
}

bool bitsift_serialize_refuse(void *stream, int mode, const char *name, uint64_t at,
                              const char *why, uint64_t expected, uint64_t got)
{
    if (mode == BITSIFT_READ) {
        bitsift_reader_fail(stream, BITSIFT_E_RANGE, at, why, expected, got);
        bitsift_reader_name_failure(stream, name);
    } else {
        bitsift_writer_fail(stream, BITSIFT_E_VALUE, why, expected, got);
        bitsift_writer_name_failure(stream, name);
    }
    return false;
}
