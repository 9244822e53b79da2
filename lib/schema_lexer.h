/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * schema_lexer.h -- tokens of the schema language (see schema_lexer.c).
 * Internal to libbitsift.
 */
#ifndef BITSIFT_SCHEMA_LEXER_H
#define BITSIFT_SCHEMA_LEXER_H

#include <stddef.h>
#include <stdint.h>

#include "bitsift.h"

enum token_kind {
    TOK_EOF,
    TOK_IDENT,
    TOK_INT,    /* integer literal: ival (uval for > INT64_MAX) */
    TOK_FLOAT,  /* a literal with a '.' or an exponent: fval */
    TOK_STRING, /* "..." : text/len point inside the source (escapes kept) */
    TOK_LBRACE, TOK_RBRACE, TOK_LPAREN, TOK_RPAREN, TOK_LBRACKET, TOK_RBRACKET,
    TOK_SEMI, TOK_COMMA, TOK_DOT, TOK_MINUS, TOK_ASSIGN, TOK_COLON,
    TOK_EQ, TOK_NE, TOK_LT, TOK_LE, TOK_GT, TOK_GE, TOK_NOT, TOK_AND, TOK_OR
};

struct token {
    enum token_kind kind;
    unsigned line, column;
    const char *text; /* the token's bytes in the source */
    size_t len;
    uint64_t uval;    /* TOK_INT: magnitude */
    double fval;      /* TOK_INT and TOK_FLOAT: value */
};

/* Split `size` bytes of text into tokens (a TOK_EOF last). On failure
 * returns false and fills err (message without the file name prefix,
 * which the caller adds). *tokens is malloc'd; the caller frees it. */
bool schema_lex(const char *text, size_t size, struct token **tokens, size_t *count,
                bitsift_schema_error *err);

#endif /* BITSIFT_SCHEMA_LEXER_H */
