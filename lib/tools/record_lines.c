/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * record_lines.c -- the lines of an NDJSON input, with the limit on a
 * line applied while it is read: a line is gathered up to
 * BITSIFT_RECORD_MAX_LINE bytes and the rest of a longer one skipped, so
 * that no input can make a record cost more memory than the limit.
 */
#include <stdlib.h>
#include <string.h>

#include "records_internal.h"

/* Append [p, p+n) to the line, growing it to at most the limit:
 * -1 when the line would pass the limit, -2 without memory. */
static int line_append(struct record_lines *r, const char *p, size_t n)
{
    if (n == 0)
        return 0; /* r->line may still be NULL */
    if (n > BITSIFT_RECORD_MAX_LINE - r->len)
        return -1;
    if (r->len + n > r->cap) {
        size_t cap = r->cap ? r->cap : 4096;
        while (cap < r->len + n)
            cap *= 2;
        if (cap > BITSIFT_RECORD_MAX_LINE)
            cap = BITSIFT_RECORD_MAX_LINE;
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

enum record_line_status record_lines_next(struct record_lines *r)
{
    r->len = 0;
    int dropping = 0, no_memory = 0, any = 0;
    for (;;) {
        if (r->pos == r->end) {
            r->pos = 0;
            r->end = fread(r->block, 1, RECORD_LINE_BLOCK, r->fp);
            if (r->end == 0) {
                if (ferror(r->fp))
                    return RECORD_LINE_READ_ERROR;
                if (!any)
                    return RECORD_LINE_END;
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
        return no_memory ? RECORD_LINE_NO_MEMORY : RECORD_LINE_TOO_LONG;
    return RECORD_LINE_OK;
}

void record_lines_reset(struct record_lines *r)
{
    free(r->line);
    r->fp = NULL;
    r->pos = r->end = 0;
    r->line = NULL;
    r->len = r->cap = 0;
}
