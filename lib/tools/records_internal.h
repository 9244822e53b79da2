/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * records_internal.h -- what the files of libbitsift-tools' record reader
 * share: the line reader (record_lines.c), jansson's memory budget
 * (json_budget.c), the number protection (json_numbers.c) and the JSON ->
 * value tree builder (record_tree.c); float_text.h the float texts. The public side is <bitsift/records.h> (records.c).
 */
#ifndef BITSIFT_RECORDS_INTERNAL_H
#define BITSIFT_RECORDS_INTERNAL_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifndef BITSIFT_EXPERIMENTAL
#define BITSIFT_EXPERIMENTAL
#endif
#include "bitsift/records.h"
#include "float_text.h"

/* ---- record_lines.c: lines with the limit applied while reading ---- */

#define RECORD_LINE_BLOCK (64u << 10) /* bytes read from an input at a time */

/* An input read a block at a time; a line is gathered in `line` up to
 * BITSIFT_RECORD_MAX_LINE bytes, never more. */
struct record_lines {
    FILE *fp;
    char *block; /* RECORD_LINE_BLOCK bytes, kept from one input to the next */
    size_t pos, end;
    char *line;
    size_t len, cap;
};

enum record_line_status {
    RECORD_LINE_OK,
    RECORD_LINE_END,
    RECORD_LINE_TOO_LONG,
    RECORD_LINE_NO_MEMORY,
    RECORD_LINE_READ_ERROR
};

/* The next line, without its newline, in r->line / r->len. A line longer
 * than the limit is read to its end without being kept. */
enum record_line_status record_lines_next(struct record_lines *r);
/* Forget the input and the line buffer (the block stays). */
void record_lines_reset(struct record_lines *r);

/* ---- json_budget.c: jansson's memory, within a budget per record ---- */

/* Count jansson's memory from here on (before any JSON value exists). */
void record_budget_install(void);
/* The budget of a record of `size` bytes, from now. */
void record_budget_start(size_t size);
/* Did the last parse stop on the budget? */
int record_budget_exceeded(void);
/* The budget of a record of `size` bytes, in MiB (for the message). */
size_t record_budget_mib(size_t size);

/* ---- json_numbers.c: reals and integers beyond int64 kept as text ---- */

/* Copy `line` to a new buffer with the numbers jansson would damage put in
 * quotes. Returns NULL when out of memory. */
char *record_protect_numbers(const char *line, size_t size, size_t *out_size);

/* ---- record_tree.c: a record's "fields" -> value tree ---- */

/* (packet type, schema path) -> field id, sorted for bsearch. */
struct record_path_entry {
    unsigned type;
    const char *path;
    unsigned id;
};

struct record_paths {
    struct record_path_entry *entries;
    size_t count;
};

int record_paths_index(const bitsift_schema *s, struct record_paths *p);
int record_field_info_at(const bitsift_schema *s, const struct record_paths *p, unsigned type,
                         const char *path, bitsift_field_info *info);

/* Build the members of `fields` (a JSON object) under the tree's root,
 * reset to packet `type`: 0, or -1 with the message (and the field path)
 * in err. */
int record_tree_build(const bitsift_schema *s, const struct record_paths *paths,
                      bitsift_tree *tree, unsigned type, json_t *fields,
                      bitsift_record_error *err);

#endif /* BITSIFT_RECORDS_INTERNAL_H */
