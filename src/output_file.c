/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * output_file.c -- write outputs beside their targets and rename them into
 * place on success (output_file.h). Used by `encode` (-w, -o FILE, -o DIR)
 * and the JUnit report of `validate`.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "output_file.h"

/* "dir/" of path (with its slash), or "" for a bare name: its length. */
static size_t directory_length(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? (size_t)(slash - path) + 1 : 0;
}

/* dir + "/" + name (no doubled slash), malloc'd; NULL with errno set,
 * ENAMETOOLONG beyond PATH_MAX. */
static char *join(const char *dir, const char *name)
{
    size_t d = strlen(dir), n = strlen(name);
    int slash = d > 0 && dir[d - 1] != '/';
    if (d + slash + n + 1 > PATH_MAX) {
        errno = ENAMETOOLONG;
        return NULL;
    }
    char *path = malloc(d + slash + n + 1);
    if (!path)
        return NULL;
    memcpy(path, dir, d);
    if (slash)
        path[d] = '/';
    memcpy(path + d + slash, name, n + 1);
    return path;
}

/* The mode a file created now gets (0666 less the umask). */
static mode_t new_file_mode(void)
{
    mode_t mask = umask(0);
    umask(mask);
    return 0666 & ~mask;
}

int output_file_open(struct output_file *f, const char *target)
{
    memset(f, 0, sizeof *f);
    /* ".NAME.XXXXXX" beside NAME: hidden, and in the same file system. */
    size_t dir = directory_length(target);
    const char *base = target + dir;
    size_t size = strlen(target) + 16;
    if (size > PATH_MAX) {
        errno = ENAMETOOLONG;
        return -1;
    }
    f->temp = malloc(size);
    f->target = strdup(target);
    if (!f->temp || !f->target)
        goto fail;
    snprintf(f->temp, size, "%.*s.%s.XXXXXX", (int)dir, target, base);
    int fd = mkstemp(f->temp);
    if (fd < 0)
        goto fail;
    f->fp = fdopen(fd, "wb");
    if (!f->fp) {
        int saved = errno;
        close(fd);
        unlink(f->temp);
        errno = saved;
        goto fail;
    }
    return 0;
fail: {
    int saved = errno;
    free(f->temp);
    free(f->target);
    memset(f, 0, sizeof *f);
    errno = saved;
    return -1;
}
}

int output_file_write_whole(const char *target, const void *data, size_t size)
{
    struct output_file f;
    if (output_file_open(&f, target) != 0)
        return -1;
    if (fwrite(data, 1, size, f.fp) != size) {
        int saved = errno ? errno : EIO;
        output_file_discard(&f);
        errno = saved;
        return -1;
    }
    return output_file_commit(&f);
}

int output_file_commit(struct output_file *f)
{
    int failed = 0, saved = 0;
    if (f->fp) {
        int bad = ferror(f->fp);
        if (fclose(f->fp) != 0 || bad) {
            failed = 1;
            saved = errno ? errno : EIO;
        }
        f->fp = NULL;
    }
    struct stat st;
    mode_t mode = stat(f->target, &st) == 0 ? st.st_mode & 07777 : new_file_mode();
    if (!failed && (chmod(f->temp, mode) != 0 || rename(f->temp, f->target) != 0)) {
        failed = 1;
        saved = errno;
    }
    if (failed)
        unlink(f->temp);
    free(f->temp);
    free(f->target);
    memset(f, 0, sizeof *f);
    errno = saved;
    return failed ? -1 : 0;
}

void output_file_discard(struct output_file *f)
{
    if (!f->temp)
        return;
    if (f->fp)
        fclose(f->fp);
    unlink(f->temp);
    free(f->temp);
    free(f->target);
    memset(f, 0, sizeof *f);
}

int output_dir_open(struct output_dir *d, const char *target)
{
    memset(d, 0, sizeof *d);
    d->stage = join(target, ".bitsift-XXXXXX");
    d->target = strdup(target);
    if (!d->stage || !d->target || !mkdtemp(d->stage)) {
        int saved = errno;
        free(d->stage);
        free(d->target);
        memset(d, 0, sizeof *d);
        errno = saved;
        return -1;
    }
    return 0;
}

char *output_dir_path(const struct output_dir *d, const char *name)
{
    /* The name must also fit once moved into the target. */
    char *final = join(d->target, name);
    if (!final)
        return NULL;
    free(final);
    return join(d->stage, name);
}

/* Every file of the stage: moved into the target (commit), or removed. */
static int empty_stage(struct output_dir *d, int move, char **failed_name)
{
    DIR *dir = opendir(d->stage);
    if (!dir)
        return -1;
    int failed = 0, saved = 0;
    struct dirent *e;
    while ((e = readdir(dir)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        char *from = join(d->stage, e->d_name);
        char *to = move ? join(d->target, e->d_name) : NULL;
        int ok = from && (move ? to && rename(from, to) == 0 : unlink(from) == 0);
        if (!ok && !failed) {
            failed = 1;
            saved = errno;
            if (failed_name)
                *failed_name = strdup(e->d_name);
        }
        if (!ok && from)
            unlink(from); /* a file that cannot be moved is not left behind */
        free(from);
        free(to);
    }
    closedir(dir);
    errno = saved;
    return failed ? -1 : 0;
}

static void free_dir(struct output_dir *d)
{
    free(d->stage);
    free(d->target);
    memset(d, 0, sizeof *d);
}

int output_dir_commit(struct output_dir *d, char **failed_name)
{
    if (failed_name)
        *failed_name = NULL;
    int r = empty_stage(d, 1, failed_name);
    int saved = errno;
    if (rmdir(d->stage) != 0 && r == 0) {
        r = -1;
        saved = errno;
    }
    free_dir(d);
    errno = saved;
    return r;
}

void output_dir_discard(struct output_dir *d)
{
    if (!d->stage)
        return;
    empty_stage(d, 0, NULL);
    rmdir(d->stage);
    free_dir(d);
}

int output_is_same_file(const char *output, const char *input)
{
    struct stat a, b;
    return stat(output, &a) == 0 && stat(input, &b) == 0 && a.st_dev == b.st_dev &&
           a.st_ino == b.st_ino;
}
