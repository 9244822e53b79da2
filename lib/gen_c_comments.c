/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gen_c_comments.c -- the schema's '#' comments, carried into the header
 * `bitsift gen c` writes, above the declarations and members they were
 * written beside.
 */
#include <stdint.h>

#include "gen_c_internal.h"

/*
 * With the schema's text (options->schema_text), the '#' comments right
 * above a declaration or field, and the one after a field on its line,
 * go into the header. They are untrusted text inside a C comment: only
 * printable ASCII is kept (anything else becomes '?'), and a space splits
 * every "*" "/" and "/" "*" pair and every "??" (trigraphs), so that no
 * comment can end the C comment, open a nested one or splice a line.
 */
#define COMMENT_MAX_LINE  160 /* bytes of one comment line kept */
#define COMMENT_MAX_LINES 24  /* lines of one comment block kept */

void gen_c_comment_text(FILE *out, const char *t, size_t a, size_t b)
{
    while (a < b && (t[a] == ' ' || t[a] == '\t'))
        a++;
    while (b > a && (t[b - 1] == ' ' || t[b - 1] == '\t' || t[b - 1] == '\r'))
        b--;
    if (b - a > COMMENT_MAX_LINE)
        b = a + COMMENT_MAX_LINE;
    char last = ' ';
    for (size_t k = a; k < b; k++) {
        char c = t[k] >= 0x20 && t[k] < 0x7f ? t[k] : '?';
        if ((last == '*' && c == '/') || (last == '/' && c == '*') || (last == '?' && c == '?'))
            fputc(' ', out);
        fputc(c, out);
        last = c;
    }
}

/* The start of the line that holds offset `at`. */
static size_t line_start(const struct cgen *g, size_t at)
{
    while (at > 0 && g->text[at - 1] != '\n')
        at--;
    return at;
}

/* The '#' comment lines right above the line that holds `at`, when `at`
 * starts its line (blanks aside), each written as its own C comment line. */
void gen_c_leading_comments(struct cgen *g, size_t at, unsigned ind)
{
    if (!g->text || at > g->text_size)
        return;
    size_t ls = line_start(g, at);
    for (size_t k = ls; k < at; k++)
        if (g->text[k] != ' ' && g->text[k] != '\t')
            return; /* something else before it on its line */
    size_t first = ls, lines = 0;
    while (first > 0 && lines < COMMENT_MAX_LINES) {
        size_t prev = line_start(g, first - 1), k = prev;
        while (k < first - 1 && (g->text[k] == ' ' || g->text[k] == '\t'))
            k++;
        if (k >= first - 1 || g->text[k] != '#')
            break;
        first = prev;
        lines++;
    }
    if (!lines)
        return;
    indent(g->out, ind);
    fputs(lines == 1 ? "/* " : "/*\n", g->out);
    for (size_t pos = first; pos < ls;) {
        size_t end = pos;
        while (end < ls && g->text[end] != '\n')
            end++;
        size_t k = pos;
        while (k < end && g->text[k] != '#')
            k++;
        if (lines > 1) {
            indent(g->out, ind);
            fputs(" *", g->out);
            if (k + 1 < end)
                fputc(' ', g->out);
        }
        gen_c_comment_text(g->out, g->text, k + 1, end);
        fputs(lines == 1 ? " */\n" : "\n", g->out);
        pos = end + 1;
    }
    if (lines > 1) {
        indent(g->out, ind);
        fputs(" */\n", g->out);
    }
}

/* The '#' comment after offset `end` on its line (blanks between): its
 * text in [*a, *b). */
bool gen_c_trailing_comment(const struct cgen *g, size_t end, size_t *a, size_t *b)
{
    if (!g->text || end > g->text_size)
        return false;
    size_t k = end;
    while (k < g->text_size && (g->text[k] == ' ' || g->text[k] == '\t'))
        k++;
    if (k >= g->text_size || g->text[k] != '#')
        return false;
    *a = k + 1;
    *b = k + 1;
    bool words = false;
    while (*b < g->text_size && g->text[*b] != '\n')
        words |= g->text[(*b)++] > ' ';
    return words; /* not a '#' alone */
}

/* Where a field's statement is written, when known. */
const bitsift_field_source *gen_c_field_source(const struct cgen *g, const struct schema_op *op)
{
    if (!g->text || op->field < 0 || (uint32_t)op->field >= g->s->field_count ||
        !g->s->fields[op->field].has_src)
        return NULL;
    const bitsift_field_source *src = &g->s->fields[op->field].src;
    return src->end > src->start && src->end <= g->text_size ? src : NULL;
}

/* The start of the line holding the '{' that opens the body at `body`. */
size_t gen_c_declaration_line(const struct cgen *g, size_t body)
{
    if (!g->text || body > g->text_size)
        return SIZE_MAX;
    while (body > 0 && g->text[body - 1] != '{')
        body--;
    return body > 0 ? line_start(g, body - 1) : SIZE_MAX;
}
