/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * output_file.h -- outputs that appear only when the run succeeds.
 *
 * A file is written to a temporary file beside its target (same directory,
 * so that rename(2) is atomic) and renamed into place on success; a
 * directory of outputs is written into a temporary directory inside it
 * whose files are renamed into the directory on success. On failure the
 * temporaries are removed and the target is not touched: an existing file
 * keeps its contents, a directory keeps its files.
 */
#ifndef BITSIFT_OUTPUT_FILE_H
#define BITSIFT_OUTPUT_FILE_H

#include <stdio.h>

struct output_file {
    char *target; /* the path asked for */
    char *temp;   /* the temporary file beside it */
    FILE *fp;     /* open on temp ("wb"); NULL once handed over and closed */
};

/* Create the temporary file for `target`: 0, or -1 with errno set. */
int output_file_open(struct output_file *f, const char *target);
/* Close the stream (unless already closed: fp NULL) and rename the file
 * into place, with the mode a new file would get (or the existing
 * target's). 0, or -1 with errno set (the temporary is then removed). */
int output_file_commit(struct output_file *f);
/* Close and remove the temporary; the target stays as it was. */
void output_file_discard(struct output_file *f);
/* The whole of `data` as the file `target`, through a temporary beside it:
 * 0, or -1 with errno set (the target then stays as it was). */
int output_file_write_whole(const char *target, const void *data, size_t size);

struct output_dir {
    char *target; /* the directory asked for */
    char *stage;  /* the temporary directory inside it */
};

/* Create the temporary directory inside `target`: 0, or -1 with errno. */
int output_dir_open(struct output_dir *d, const char *target);
/* The path of `name` in the temporary directory, malloc'd; NULL with
 * errno set (ENAMETOOLONG when it exceeds PATH_MAX: never truncated). */
char *output_dir_path(const struct output_dir *d, const char *name);
/* Move every file of the temporary directory into the target and remove
 * it. 0, or -1 with errno set and `failed_name` (if not NULL) set to the
 * file that could not be moved. */
int output_dir_commit(struct output_dir *d, char **failed_name);
/* Remove the temporary directory and what it holds. */
void output_dir_discard(struct output_dir *d);

/* Whether `output` and `input` name the same existing file (device and
 * inode), whatever the paths say. */
int output_is_same_file(const char *output, const char *input);

#endif /* BITSIFT_OUTPUT_FILE_H */
