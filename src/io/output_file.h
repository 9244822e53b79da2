/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * output_file.h -- outputs that appear only when the run succeeds, and
 * never replace what is not a file.
 *
 * Where an output goes depends on what its path is now:
 *   - a regular file, or nothing yet: the output is written to a temporary
 *     file beside it (same directory, so that rename(2) is atomic) and
 *     renamed into place on success; on failure the temporary is removed
 *     and an existing file keeps its contents;
 *   - a symbolic link: followed (at most OUTPUT_MAX_LINKS links) to what
 *     it names, which is then treated as above: a regular file at the end
 *     of the links is replaced atomically (the temporary beside it, in its
 *     directory) and the links stay links; a link to nothing creates the
 *     file it names, as a shell's `>` does;
 *   - anything else (a character or block device, a FIFO, /dev/stdout,
 *     /dev/fd/N, a link the kernel makes in /proc): written through, as
 *     `cmd > path` would, never replaced. /dev/stdout, /dev/stderr,
 *     /dev/fd/N and /proc/self/fd/N write to that descriptor of this
 *     process (its offset, its O_APPEND). Opening a FIFO waits for a
 *     reader, as tcpdump -w does; a signal ends the wait. What was
 *     written through cannot be taken back when the run then fails.
 * A directory is refused (EISDIR), a loop of links too (ELOOP).
 *
 * A directory of outputs is written into a temporary directory inside it
 * whose files are moved into the directory on success; a name that is
 * there already as anything but a regular file gets the file's contents
 * as a single output above would.
 */
#ifndef BITSIFT_OUTPUT_FILE_H
#define BITSIFT_OUTPUT_FILE_H

#include <stdio.h>

/* Symbolic links followed from an output path before ELOOP (Linux's
 * limit for one path lookup). */
#define OUTPUT_MAX_LINKS 40

struct output_file {
    char *target;  /* the path asked for; NULL when not open */
    char *replace; /* the file renamed over: target or where its links end;
                      NULL when written through */
    char *temp;    /* the temporary file beside `replace`; NULL when written
                      through */
    FILE *fp;      /* the stream to write ("wb"); NULL once handed over and closed */
};

/* Open the output `target` (the temporary file, or the path or
 * descriptor written through): 0, or -1 with errno set. */
int output_file_open(struct output_file *f, const char *target);
/* Whether `f` is open (between output_file_open and commit or discard). */
int output_file_is_open(const struct output_file *f);
/* Close the stream (unless already closed: fp NULL) and rename the file
 * into place, with the mode a new file would get (or the existing
 * file's). 0, or -1 with errno set (the temporary is then removed). */
int output_file_commit(struct output_file *f);
/* Close and remove the temporary; the target stays as it was. */
void output_file_discard(struct output_file *f);
/* The whole of `data` as the output `target`: 0, or -1 with errno set
 * (a replaced target then stays as it was). */
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
 * inode), whatever the paths say (symbolic links are followed). */
int output_is_same_file(const char *output, const char *input);

#endif /* BITSIFT_OUTPUT_FILE_H */
