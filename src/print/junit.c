/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * junit.c -- collect per-input results of `bitsift validate` and write them
 * as JUnit XML. Memory is bounded per test case (JUNIT_MAX_DETAIL_LINES of
 * detail each), so a capture with millions of bad packets stays small.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bitsift/bits.h" /* bitsift_utf8_sequence */
#include "print/junit.h"
#include "print/out.h"
#include "io/output_file.h"

struct junit_case {
    char *name;
    uint64_t packets, invalid, errors;
    char *failures; /* newline-separated detail lines */
    size_t failures_len;
    unsigned failure_lines;
    char *error_text;
    size_t error_len;
    unsigned error_lines;
    struct timespec start; /* when the input before it was done */
    double seconds;        /* start to end; < 0: not timed yet */
};

struct junit {
    struct junit_case *cases;
    size_t count, cap;
    int open;          /* the last case is still being filled */
    int out_of_memory; /* a case or a line of detail was lost */
    /* When the last input was done (or the report started): a case's time
     * runs from there, so that it holds the opening and reading of its
     * input, and the cases add up to the run. */
    struct timespec mark;
};

static double seconds_between(const struct timespec *from, const struct timespec *to)
{
    return (double)(to->tv_sec - from->tv_sec) + (double)(to->tv_nsec - from->tv_nsec) / 1e9;
}

/* The case's time ends now. */
static void stop_clock(struct junit *j, struct junit_case *c)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    c->seconds = seconds_between(&c->start, &now);
    j->mark = now;
}

struct junit *junit_create(void)
{
    struct junit *j = calloc(1, sizeof(struct junit));
    if (j)
        clock_gettime(CLOCK_MONOTONIC, &j->mark);
    return j;
}

void junit_free(struct junit *j)
{
    if (!j)
        return;
    for (size_t i = 0; i < j->count; i++) {
        free(j->cases[i].name);
        free(j->cases[i].failures);
        free(j->cases[i].error_text);
    }
    free(j->cases);
    free(j);
}

static struct junit_case *add_case(struct junit *j, const char *name)
{
    if (j->count == j->cap) {
        size_t cap = j->cap ? j->cap * 2 : 16;
        struct junit_case *c = realloc(j->cases, cap * sizeof *c);
        if (!c) {
            j->out_of_memory = 1;
            return NULL;
        }
        j->cases = c;
        j->cap = cap;
    }
    struct junit_case *c = &j->cases[j->count];
    memset(c, 0, sizeof *c);
    c->seconds = -1;
    c->start = j->mark;
    c->name = strdup(name);
    if (!c->name) {
        j->out_of_memory = 1;
        return NULL;
    }
    j->count++;
    return c;
}

static void append_line(struct junit *j, char **text, size_t *len, unsigned *lines,
                        const char *line)
{
    if (*lines >= JUNIT_MAX_DETAIL_LINES)
        return;
    size_t n = strlen(line);
    char *t = realloc(*text, *len + n + 2);
    if (!t) {
        j->out_of_memory = 1;
        return;
    }
    memcpy(t + *len, line, n);
    t[*len + n] = '\n';
    t[*len + n + 1] = '\0';
    *text = t;
    *len += n + 1;
    (*lines)++;
}

void junit_begin_case(struct junit *j, const char *name)
{
    j->open = add_case(j, name) != NULL;
}

void junit_packet(struct junit *j, const char *failure)
{
    if (!j->open)
        return;
    struct junit_case *c = &j->cases[j->count - 1];
    c->packets++;
    if (failure) {
        c->invalid++;
        append_line(j, &c->failures, &c->failures_len, &c->failure_lines, failure);
    }
}

void junit_error(struct junit *j, const char *source, const char *message)
{
    if (!j->open || strcmp(j->cases[j->count - 1].name, source) != 0) {
        /* A problem outside any case (an unreadable path): a case of its own. */
        struct junit_case *own = add_case(j, source);
        if (!own)
            return;
        j->open = 0;
        stop_clock(j, own);
    }
    struct junit_case *c = &j->cases[j->count - 1];
    c->errors++;
    append_line(j, &c->error_text, &c->error_len, &c->error_lines, message);
}

void junit_end_case(struct junit *j)
{
    if (j->open)
        stop_clock(j, &j->cases[j->count - 1]);
    j->open = 0;
}

/* The length of the UTF-8 sequence at p (1..4) holding one character that
 * XML 1.0 allows (#x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] |
 * [#x10000-#x10FFFF]), or 0: an invalid sequence (a lead byte C0, C1 or
 * F5-FF, a missing continuation, an overlong form, a surrogate, above
 * U+10FFFF) or a character XML forbids. `p` is NUL-terminated, so a
 * sequence cut short meets the NUL, which is no continuation byte. */
static size_t xml_char(const unsigned char *p)
{
    unsigned char c = p[0];
    if (c < 0x80)
        return c >= 0x20 || c == '\t' || c == '\n' || c == '\r';
    size_t n = bitsift_utf8_sequence(p, strnlen((const char *)p, 4));
    /* U+FFFE and U+FFFF: EF BF BE, EF BF BF. */
    if (n == 3 && c == 0xef && p[1] == 0xbf && p[2] >= 0xbe)
        return 0;
    return n;
}

/* XML text of s: markup escaped, and in an attribute the white space a
 * parser would normalise given as references; a byte that starts no
 * allowed character becomes U+FFFD, the replacement character. */
static void xml_text(FILE *fp, const char *s, int attribute)
{
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        unsigned char c = *p;
        size_t n = xml_char(p);
        if (n == 0) {
            fputs("\xef\xbf\xbd", fp);
            p++;
            continue;
        }
        if (c == '&')
            fputs("&amp;", fp);
        else if (c == '<')
            fputs("&lt;", fp);
        else if (c == '>')
            fputs("&gt;", fp);
        else if (c == '"')
            fputs("&quot;", fp);
        else if (c == '\r')
            fputs("&#13;", fp);
        else if (attribute && (c == '\n' || c == '\t'))
            fputs(c == '\n' ? "&#10;" : "&#9;", fp);
        else
            fwrite(p, 1, n, fp);
        p += n;
    }
}

/* Times in seconds with microseconds: a test case of a few packets takes
 * well under a millisecond, which "%.3f" printed as 0.000. */
int junit_write(const struct junit *j, const char *path, double seconds)
{
    if (j->out_of_memory) {
        errno = ENOMEM;
        return -1;
    }
    struct output_file out;
    if (output_file_open(&out, path) != 0)
        return -1;
    FILE *fp = out.fp;
    uint64_t failures = 0, errors = 0;
    for (size_t i = 0; i < j->count; i++) {
        failures += j->cases[i].invalid > 0;
        errors += j->cases[i].errors > 0 && j->cases[i].invalid == 0;
    }
    fprintf(fp, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    fprintf(fp,
            "<testsuites name=\"bitsift validate\" tests=\"%zu\" failures=\"%llu\" "
            "errors=\"%llu\" time=\"%.6f\">\n",
            j->count, (unsigned long long)failures, (unsigned long long)errors, seconds);
    fprintf(fp,
            "  <testsuite name=\"bitsift validate\" tests=\"%zu\" failures=\"%llu\" "
            "errors=\"%llu\" skipped=\"0\" time=\"%.6f\">\n",
            j->count, (unsigned long long)failures, (unsigned long long)errors, seconds);
    for (size_t i = 0; i < j->count; i++) {
        const struct junit_case *c = &j->cases[i];
        fputs("    <testcase classname=\"bitsift.validate\" name=\"", fp);
        xml_text(fp, c->name, 1);
        if (c->seconds >= 0)
            fprintf(fp, "\" time=\"%.6f", c->seconds);
        fputs("\">\n", fp);
        if (c->invalid) {
            fprintf(fp,
                    "      <failure type=\"invalid\" message=\"%llu of %llu packets invalid\">",
                    (unsigned long long)c->invalid, (unsigned long long)c->packets);
            xml_text(fp, c->failures ? c->failures : "", 0);
            if (c->invalid > c->failure_lines)
                fprintf(fp, "... %llu more\n",
                        (unsigned long long)(c->invalid - c->failure_lines));
            fputs("</failure>\n", fp);
        }
        if (c->errors) {
            /* The first problem is the message, all of them the text. */
            char first[512];
            size_t k = c->error_text ? strcspn(c->error_text, "\n") : 0;
            if (k >= sizeof first)
                k = sizeof first - 1;
            if (k)
                memcpy(first, c->error_text, k);
            first[k] = '\0';
            fputs("      <error type=\"input\" message=\"", fp);
            xml_text(fp, first, 1);
            fputs("\">", fp);
            xml_text(fp, c->error_text ? c->error_text : "", 0);
            fputs("</error>\n", fp);
        }
        fprintf(fp, "      <system-out>%llu packet%s, %llu invalid</system-out>\n",
                (unsigned long long)c->packets, c->packets == 1 ? "" : "s",
                (unsigned long long)c->invalid);
        fputs("    </testcase>\n", fp);
    }
    fputs("  </testsuite>\n</testsuites>\n", fp);
    return output_file_commit(&out);
}
