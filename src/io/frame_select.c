/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * frame_select.c -- parse `--frame` lists into sorted disjoint ranges and
 * answer "is frame N selected" by binary search (see frame_select.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/frame_select.h"

/* A frame number: decimal digits, at least 1, no overflow. */
static const char *parse_number(const char *p, uint64_t *value)
{
    uint64_t v = 0;
    const char *start = p;
    while (*p >= '0' && *p <= '9') {
        unsigned digit = (unsigned)(*p - '0');
        if (v > (UINT64_MAX - digit) / 10)
            return NULL;
        v = v * 10 + digit;
        p++;
    }
    if (p == start)
        return NULL;
    *value = v;
    return p;
}

static int by_first(const void *a, const void *b)
{
    const struct frame_range *x = a, *y = b;
    return x->first < y->first ? -1 : x->first > y->first;
}

/* Sort and merge overlapping or touching ranges. */
static void normalize(struct frame_select *s)
{
    if (s->count < 2)
        return;
    qsort(s->ranges, s->count, sizeof *s->ranges, by_first);
    size_t out = 0;
    for (size_t i = 1; i < s->count; i++) {
        struct frame_range *last = &s->ranges[out];
        if (last->last == UINT64_MAX || s->ranges[i].first <= last->last + 1) {
            if (s->ranges[i].last > last->last)
                last->last = s->ranges[i].last;
        } else {
            s->ranges[++out] = s->ranges[i];
        }
    }
    s->count = out + 1;
}

static int add_range(struct frame_select *s, uint64_t first, uint64_t last)
{
    if (s->count == FRAME_SELECT_MAX_RANGES) {
        normalize(s);
        if (s->count == FRAME_SELECT_MAX_RANGES)
            return -1;
    }
    if (!s->ranges) {
        s->ranges = malloc(FRAME_SELECT_MAX_RANGES * sizeof *s->ranges);
        if (!s->ranges)
            return -1;
    }
    s->ranges[s->count].first = first;
    s->ranges[s->count].last = last;
    s->count++;
    return 0;
}

int frame_select_add(struct frame_select *s, const char *text, char *error, size_t error_size)
{
    const char *p = text;
    for (;;) {
        uint64_t first, last;
        const char *at = p;
        p = parse_number(p, &first);
        if (!p || first == 0) {
            snprintf(error, error_size,
                     "frame numbers start at 1 (N, N-M, N- separated by commas): at \"%s\"", at);
            return -1;
        }
        last = first;
        if (*p == '-') {
            p++;
            if (*p == ',' || *p == '\0') {
                last = UINT64_MAX;
            } else {
                const char *m = p;
                p = parse_number(p, &last);
                if (!p) {
                    snprintf(error, error_size, "not a frame number: \"%s\"", m);
                    return -1;
                }
                if (last < first) {
                    snprintf(error, error_size, "range ends before it starts: \"%s\"", at);
                    return -1;
                }
            }
        }
        if (add_range(s, first, last) != 0) {
            snprintf(error, error_size, "more than %u frame ranges (or out of memory)",
                     FRAME_SELECT_MAX_RANGES);
            return -1;
        }
        if (*p == '\0')
            break;
        if (*p != ',') {
            snprintf(error, error_size, "expected ',' or the end: at \"%s\"", p);
            return -1;
        }
        p++;
    }
    normalize(s);
    return 0;
}

int frame_select_has(const struct frame_select *s, uint64_t number)
{
    if (!s || s->count == 0)
        return 1;
    size_t lo = 0, hi = s->count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (number < s->ranges[mid].first)
            hi = mid;
        else if (number > s->ranges[mid].last)
            lo = mid + 1;
        else
            return 1;
    }
    return 0;
}

uint64_t frame_select_last(const struct frame_select *s)
{
    if (!s || s->count == 0)
        return UINT64_MAX;
    return s->ranges[s->count - 1].last;
}

void frame_select_free(struct frame_select *s)
{
    free(s->ranges);
    s->ranges = NULL;
    s->count = 0;
}
