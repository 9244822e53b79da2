/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * schema_lexer.c -- splits schema text into tokens, with the line and
 * column of each for compiler-style diagnostics.
 *
 * The language is ASCII outside string literals and comments; those may
 * hold UTF-8, which must be valid. Comments run from `#` or `//` to the
 * end of the line. Columns count bytes from 1.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schema_internal.h"
#include "schema_lexer.h"

/* Schemas are at most BITSIFT_SCHEMA_MAX_TEXT bytes, so at most that many
 * tokens: the token array is bounded by the text. */

static bool lex_error(bitsift_schema_error *err, unsigned line, unsigned column, const char *what)
{
    if (err) {
        err->kind = BITSIFT_E_SCHEMA;
        err->line = line;
        err->column = column;
        snprintf(err->message, sizeof err->message, "%s", what);
    }
    return false;
}

static bool is_ident_start(int c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool is_ident_char(int c)
{
    return is_ident_start(c) || (c >= '0' && c <= '9');
}

bool schema_lex(const char *text, size_t size, struct token **tokens, size_t *count,
                bitsift_schema_error *err)
{
    const unsigned char *p = (const unsigned char *)text;
    size_t cap = 256, n = 0, i = 0;
    unsigned line = 1, column = 1;
    struct token *toks = malloc(cap * sizeof *toks);
    if (!toks) {
        if (err)
            err->kind = BITSIFT_E_NOMEM;
        return lex_error(err, 0, 0, "out of memory");
    }
    char msg[96];

    for (;;) {
        /* Skip blanks and comments. */
        while (i < size) {
            unsigned char c = p[i];
            if (c == '\n') {
                line++, column = 1, i++;
            } else if (c == ' ' || c == '\t' || c == '\r') {
                column++, i++;
            } else if (c == '#' || (c == '/' && i + 1 < size && p[i + 1] == '/')) {
                while (i < size && p[i] != '\n') {
                    size_t l = bitsift_utf8_sequence(p + i, size - i);
                    if (l == 0) {
                        snprintf(msg, sizeof msg, "invalid UTF-8 byte 0x%02x in comment", p[i]);
                        free(toks);
                        return lex_error(err, line, column, msg);
                    }
                    i += l, column += (unsigned)l;
                }
            } else {
                break;
            }
        }
        if (n + 1 >= cap) {
            struct token *bigger = realloc(toks, 2 * cap * sizeof *toks);
            if (!bigger) {
                free(toks);
                if (err)
                    err->kind = BITSIFT_E_NOMEM;
                return lex_error(err, line, column, "out of memory");
            }
            toks = bigger, cap *= 2;
        }
        struct token *t = &toks[n];
        memset(t, 0, sizeof *t);
        t->line = line, t->column = column, t->text = text + i;
        if (i >= size) {
            t->kind = TOK_EOF;
            n++;
            break;
        }
        unsigned char c = p[i];
        size_t start = i;
        if (is_ident_start(c)) {
            while (i < size && is_ident_char(p[i]))
                i++;
            t->kind = TOK_IDENT;
        } else if ((c >= '0' && c <= '9') ||
                   (c == '.' && i + 1 < size && p[i + 1] >= '0' && p[i + 1] <= '9')) {
            /* ".5" is a number: no reference or member starts with a digit. */
            bool is_float = c == '.';
            if (c == '0' && i + 1 < size && (p[i + 1] == 'x' || p[i + 1] == 'X')) {
                i += 2;
                while (i < size && is_ident_char(p[i]))
                    i++;
            } else {
                while (i < size && (is_ident_char(p[i]) || p[i] == '.' ||
                                    ((p[i] == '-' || p[i] == '+') &&
                                     (p[i - 1] == 'e' || p[i - 1] == 'E'))))
                    is_float |= p[i] == '.' || p[i] == 'e' || p[i] == 'E', i++;
            }
            /* Convert a bounded copy: the source is not NUL-terminated. */
            char buf[64];
            size_t len = i - start;
            if (len >= sizeof buf) {
                free(toks);
                return lex_error(err, line, column, "number too long");
            }
            memcpy(buf, p + start, len);
            buf[len] = 0;
            char *endp;
            errno = 0;
            if (is_float) {
                t->kind = TOK_FLOAT;
                t->fval = strtod(buf, &endp);
                if (*endp || !isfinite(t->fval)) {
                    snprintf(msg, sizeof msg, "invalid number '%s'", buf);
                    free(toks);
                    return lex_error(err, line, column, msg);
                }
            } else {
                t->kind = TOK_INT;
                t->uval = strtoull(buf, &endp, 0);
                if (*endp || errno == ERANGE) {
                    snprintf(msg, sizeof msg, "invalid or too large integer '%s'", buf);
                    free(toks);
                    return lex_error(err, line, column, msg);
                }
                t->fval = (double)t->uval;
            }
        } else if (c == '"') {
            i++;
            while (i < size && p[i] != '"') {
                if (p[i] == '\n') {
                    free(toks);
                    return lex_error(err, line, column, "unterminated string");
                }
                if (p[i] == '\\' && i + 1 < size && p[i + 1] != '\n')
                    i++;
                size_t l = bitsift_utf8_sequence(p + i, size - i);
                if (l == 0 || p[i] == 0) {
                    snprintf(msg, sizeof msg, "invalid byte 0x%02x in string", p[i]);
                    free(toks);
                    return lex_error(err, line, column + (unsigned)(i - start), msg);
                }
                i += l;
            }
            if (i >= size) {
                free(toks);
                return lex_error(err, line, column, "unterminated string");
            }
            i++;
            t->kind = TOK_STRING;
        } else {
            static const struct {
                const char *text;
                enum token_kind kind;
            } puncts[] = {
                {"==", TOK_EQ},     {"!=", TOK_NE},       {"<=", TOK_LE},       {">=", TOK_GE},
                {"&&", TOK_AND},    {"||", TOK_OR},       {"{", TOK_LBRACE},    {"}", TOK_RBRACE},
                {"(", TOK_LPAREN},  {")", TOK_RPAREN},    {"[", TOK_LBRACKET},  {"]", TOK_RBRACKET},
                {";", TOK_SEMI},    {",", TOK_COMMA},     {".", TOK_DOT},       {"-", TOK_MINUS},
                {"=", TOK_ASSIGN},  {":", TOK_COLON},     {"<", TOK_LT},        {">", TOK_GT},
                {"!", TOK_NOT},
            };
            bool found = false;
            for (size_t k = 0; k < sizeof puncts / sizeof puncts[0]; k++) {
                size_t l = strlen(puncts[k].text);
                if (i + l <= size && memcmp(p + i, puncts[k].text, l) == 0) {
                    t->kind = puncts[k].kind;
                    i += l;
                    found = true;
                    break;
                }
            }
            if (!found) {
                if (c >= 0x21 && c < 0x7f)
                    snprintf(msg, sizeof msg, "unexpected character '%c'", c);
                else
                    snprintf(msg, sizeof msg, "unexpected byte 0x%02x", c);
                free(toks);
                return lex_error(err, line, column, msg);
            }
        }
        t->len = i - start;
        column += (unsigned)t->len;
        n++;
    }
    *tokens = toks;
    *count = n;
    return true;
}
