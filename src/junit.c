/*
 * junit.c -- collect per-input results of `bitsift validate` and write them
 * as JUnit XML. Memory is bounded per test case (JUNIT_MAX_DETAIL_LINES of
 * detail each), so a capture with millions of bad packets stays small.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "junit.h"

struct junit_case {
    char *name;
    uint64_t packets, invalid, errors;
    char *failures; /* newline-separated detail lines */
    size_t failures_len;
    unsigned failure_lines;
    char *error_text;
    size_t error_len;
    unsigned error_lines;
};

struct junit {
    struct junit_case *cases;
    size_t count, cap;
    int open; /* the last case is still being filled */
};

struct junit *junit_create(void)
{
    return calloc(1, sizeof(struct junit));
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
        if (!c)
            return NULL;
        j->cases = c;
        j->cap = cap;
    }
    struct junit_case *c = &j->cases[j->count];
    memset(c, 0, sizeof *c);
    c->name = strdup(name);
    if (!c->name)
        return NULL;
    j->count++;
    return c;
}

static void append_line(char **text, size_t *len, unsigned *lines, const char *line)
{
    if (*lines >= JUNIT_MAX_DETAIL_LINES)
        return;
    size_t n = strlen(line);
    char *t = realloc(*text, *len + n + 2);
    if (!t)
        return;
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
        append_line(&c->failures, &c->failures_len, &c->failure_lines, failure);
    }
}

void junit_error(struct junit *j, const char *source, const char *message)
{
    if (!j->open || strcmp(j->cases[j->count - 1].name, source) != 0) {
        /* A problem outside any case (an unreadable path): a case of its own. */
        if (!add_case(j, source))
            return;
        j->open = 0;
    }
    struct junit_case *c = &j->cases[j->count - 1];
    c->errors++;
    append_line(&c->error_text, &c->error_len, &c->error_lines, message);
}

void junit_end_case(struct junit *j)
{
    j->open = 0;
}

/* XML text: escape markup, and replace what XML 1.0 cannot hold (control
 * characters, invalid UTF-8) with '?'. */
static void xml_text(FILE *fp, const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        unsigned char c = *p;
        if (c == '&')
            fputs("&amp;", fp);
        else if (c == '<')
            fputs("&lt;", fp);
        else if (c == '>')
            fputs("&gt;", fp);
        else if (c == '"')
            fputs("&quot;", fp);
        else if (c < 0x20 && c != '\n' && c != '\t')
            fputc('?', fp);
        else if (c < 0x80)
            fputc(c, fp);
        else {
            size_t n = c >= 0xf0 && c <= 0xf4 ? 4 : c >= 0xe0 ? 3 : c >= 0xc2 && c <= 0xdf ? 2 : 0;
            size_t k = 1;
            while (n && k < n && (p[k] & 0xc0) == 0x80)
                k++;
            if (n && k == n) {
                fwrite(p, 1, n, fp);
                p += n;
                continue;
            }
            fputc('?', fp);
        }
        p++;
    }
}

int junit_write(const struct junit *j, const char *path, double seconds)
{
    FILE *fp = fopen(path, "w");
    if (!fp)
        return -1;
    uint64_t failures = 0, errors = 0;
    for (size_t i = 0; i < j->count; i++) {
        failures += j->cases[i].invalid > 0;
        errors += j->cases[i].errors > 0 && j->cases[i].invalid == 0;
    }
    fprintf(fp, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    fprintf(fp,
            "<testsuites name=\"bitsift validate\" tests=\"%zu\" failures=\"%llu\" "
            "errors=\"%llu\" time=\"%.3f\">\n",
            j->count, (unsigned long long)failures, (unsigned long long)errors, seconds);
    fprintf(fp,
            "  <testsuite name=\"bitsift validate\" tests=\"%zu\" failures=\"%llu\" "
            "errors=\"%llu\" skipped=\"0\" time=\"%.3f\">\n",
            j->count, (unsigned long long)failures, (unsigned long long)errors, seconds);
    for (size_t i = 0; i < j->count; i++) {
        const struct junit_case *c = &j->cases[i];
        fputs("    <testcase classname=\"bitsift.validate\" name=\"", fp);
        xml_text(fp, c->name);
        fputs("\">\n", fp);
        if (c->invalid) {
            fprintf(fp,
                    "      <failure type=\"invalid\" message=\"%llu of %llu packets invalid\">",
                    (unsigned long long)c->invalid, (unsigned long long)c->packets);
            xml_text(fp, c->failures ? c->failures : "");
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
            xml_text(fp, first);
            fputs("\">", fp);
            xml_text(fp, c->error_text ? c->error_text : "");
            fputs("</error>\n", fp);
        }
        fprintf(fp, "      <system-out>%llu packet%s, %llu invalid</system-out>\n",
                (unsigned long long)c->packets, c->packets == 1 ? "" : "s",
                (unsigned long long)c->invalid);
        fputs("    </testcase>\n", fp);
    }
    fputs("  </testsuite>\n</testsuites>\n", fp);
    int bad = ferror(fp);
    if (fclose(fp) != 0 || bad)
        return -1;
    return 0;
}
