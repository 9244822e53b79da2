/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * output_file.c -- every output of the command (encode -o/-w, validate's
 * JUnit report, gen, seeds, reseal): written beside its target and
 * renamed into place on success, or written through when the target is
 * not a file to replace (output_file.h says which is which).
 */
#define _GNU_SOURCE /* O_CLOEXEC, F_DUPFD_CLOEXEC on older C libraries */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/vfs.h>
#endif

#include "io/output_file.h"

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

/*
 * Where an output path leads (output_file.h): a file to replace through a
 * temporary beside it, a path to open and write through, or one of this
 * process's descriptors to write through.
 */
enum output_route { ROUTE_REPLACE, ROUTE_THROUGH_PATH, ROUTE_THROUGH_DESCRIPTOR };

struct route {
    enum output_route kind;
    char *path; /* REPLACE, THROUGH_PATH: malloc'd */
    int fd;     /* THROUGH_DESCRIPTOR */
};

/* The descriptor that a name of this process's descriptors stands for
 * (/dev/stdout, /dev/stderr, /dev/fd/N, /proc/self/fd/N), else -1.
 * Writing to the descriptor itself keeps its offset and O_APPEND (a shell's
 * `>>`), which opening the path again would lose, and works for a socket,
 * which cannot be opened by path. */
static int descriptor_named(const char *path)
{
    if (strcmp(path, "/dev/stdout") == 0)
        return 1;
    if (strcmp(path, "/dev/stderr") == 0)
        return 2;
    const char *digits = NULL;
    if (strncmp(path, "/dev/fd/", 8) == 0)
        digits = path + 8;
    else if (strncmp(path, "/proc/self/fd/", 14) == 0)
        digits = path + 14;
    if (!digits || !digits[0])
        return -1;
    int fd = 0;
    for (const char *p = digits; *p; p++) {
        if (*p < '0' || *p > '9' || fd > (INT_MAX - 9) / 10)
            return -1;
        fd = fd * 10 + (*p - '0');
    }
    return fd;
}

/* Whether the symbolic link `path` is one the kernel makes in /proc: what
 * it names is an open file (a pipe, a socket, a deleted file) that its
 * text may not name at all, so it is opened, not followed. */
static int link_in_proc(const char *path)
{
#ifdef __linux__
    size_t n = directory_length(path);
    char *dir = n ? strndup(path, n) : strdup(".");
    struct statfs fs;
    int proc = dir && statfs(dir, &fs) == 0 && fs.f_type == 0x9fa0; /* PROC_SUPER_MAGIC */
    free(dir);
    return proc;
#else
    (void)path;
    return 0;
#endif
}

/* What the symbolic link `link` names, as a path from here (a relative
 * link is relative to the link's directory), malloc'd; NULL with errno. */
static char *link_target(const char *link)
{
    char text[PATH_MAX];
    ssize_t n = readlink(link, text, sizeof text);
    if (n < 0)
        return NULL;
    if ((size_t)n >= sizeof text) {
        errno = ENAMETOOLONG;
        return NULL;
    }
    text[n] = '\0';
    size_t dir = text[0] == '/' ? 0 : directory_length(link);
    if (dir + (size_t)n + 1 > PATH_MAX) {
        errno = ENAMETOOLONG;
        return NULL;
    }
    char *path = malloc(dir + (size_t)n + 1);
    if (!path)
        return NULL;
    memcpy(path, link, dir);
    memcpy(path + dir, text, (size_t)n + 1);
    return path;
}

/* Follow `target`'s symbolic links to what the output must do: 0, or -1
 * with errno set (EISDIR, ELOOP, or what lstat or readlink said). */
static int route_output(const char *target, struct route *r)
{
    memset(r, 0, sizeof *r);
    char *path = strdup(target);
    if (!path)
        return -1;
    for (int links = 0;; links++) {
        struct stat st;
        if ((r->fd = descriptor_named(path)) >= 0) {
            r->kind = ROUTE_THROUGH_DESCRIPTOR;
            free(path);
            return 0;
        }
        if (lstat(path, &st) != 0) {
            if (errno != ENOENT)
                break;
            r->kind = ROUTE_REPLACE; /* nothing there yet (or a link to nothing) */
            r->path = path;
            return 0;
        }
        if (S_ISREG(st.st_mode)) {
            r->kind = ROUTE_REPLACE;
            r->path = path;
            return 0;
        }
        if (S_ISDIR(st.st_mode)) {
            errno = EISDIR;
            break;
        }
        if (!S_ISLNK(st.st_mode) || link_in_proc(path)) {
            r->kind = ROUTE_THROUGH_PATH; /* a device, a FIFO, a socket */
            r->path = path;
            return 0;
        }
        if (links == OUTPUT_MAX_LINKS) {
            errno = ELOOP;
            break;
        }
        char *next = link_target(path);
        if (!next)
            break;
        free(path);
        path = next;
    }
    int saved = errno;
    free(path);
    errno = saved;
    return -1;
}

/* The descriptor to write through, open for writing: -1 with errno. */
static int open_through(const struct route *r)
{
    if (r->kind == ROUTE_THROUGH_DESCRIPTOR) {
        fflush(NULL); /* what this process wrote to it before comes first */
        return fcntl(r->fd, F_DUPFD_CLOEXEC, 0);
    }
    /* No O_CREAT (the path exists) and no O_TRUNC: a device or a FIFO is
     * written as it is. No O_NONBLOCK: a FIFO waits for its reader. */
    int fd = open(r->path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
    struct stat st;
    if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && ftruncate(fd, 0) != 0) {
        /* A regular file behind a /proc link: emptied first, as `>` does. */
        int saved = errno;
        close(fd);
        errno = saved;
        return -1;
    }
    return fd;
}

/* The temporary ".NAME.XXXXXX" beside f->replace (hidden, and in the same
 * file system), open as f->fp: 0, or -1 with errno. */
static int open_temp(struct output_file *f)
{
    size_t dir = directory_length(f->replace);
    const char *base = f->replace + dir;
    size_t size = strlen(f->replace) + 16;
    if (size > PATH_MAX) {
        errno = ENAMETOOLONG;
        return -1;
    }
    if (!(f->temp = malloc(size)))
        return -1;
    snprintf(f->temp, size, "%.*s.%s.XXXXXX", (int)dir, f->replace, base);
    int fd = mkstemp(f->temp);
    if (fd < 0)
        return -1;
    if (!(f->fp = fdopen(fd, "wb"))) {
        int saved = errno;
        close(fd);
        unlink(f->temp);
        errno = saved;
        return -1;
    }
    return 0;
}

static void free_file(struct output_file *f)
{
    int saved = errno;
    free(f->target);
    free(f->replace);
    free(f->temp);
    memset(f, 0, sizeof *f);
    errno = saved;
}

int output_file_open(struct output_file *f, const char *target)
{
    memset(f, 0, sizeof *f);
    struct route r;
    if (route_output(target, &r) != 0)
        return -1;
    if (!(f->target = strdup(target))) {
        free(r.path);
        return -1;
    }
    if (r.kind == ROUTE_REPLACE) {
        f->replace = r.path;
        if (open_temp(f) == 0)
            return 0;
        free_file(f);
        return -1;
    }
    int fd = open_through(&r);
    free(r.path);
    if (fd >= 0 && (f->fp = fdopen(fd, "wb")) != NULL)
        return 0;
    if (fd >= 0) {
        int saved = errno;
        close(fd);
        errno = saved;
    }
    free_file(f);
    return -1;
}

int output_file_is_open(const struct output_file *f)
{
    return f->target != NULL;
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
        errno = 0;
        int bad = ferror(f->fp);
        if (fclose(f->fp) != 0 || bad) {
            failed = 1;
            saved = errno ? errno : EIO;
        }
        f->fp = NULL;
    }
    if (f->temp) {
        struct stat st;
        mode_t mode = stat(f->replace, &st) == 0 ? st.st_mode & 07777 : new_file_mode();
        if (!failed && (chmod(f->temp, mode) != 0 || rename(f->temp, f->replace) != 0)) {
            failed = 1;
            saved = errno;
        }
        if (failed)
            unlink(f->temp);
    }
    free_file(f);
    errno = saved;
    return failed ? -1 : 0;
}

void output_file_discard(struct output_file *f)
{
    if (!f->target)
        return;
    if (f->fp)
        fclose(f->fp);
    if (f->temp)
        unlink(f->temp);
    free_file(f);
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

/* The staged file `from` as the output `to` when `to` is not a file that
 * a rename may replace (a link, a device, a FIFO): 0, or -1 with errno. */
static int copy_to_output(const char *from, const char *to)
{
    FILE *in = fopen(from, "rb");
    if (!in)
        return -1;
    struct output_file out;
    if (output_file_open(&out, to) != 0) {
        int saved = errno;
        fclose(in);
        errno = saved;
        return -1;
    }
    char buffer[1 << 14];
    size_t n;
    int failed = 0;
    while (!failed && (n = fread(buffer, 1, sizeof buffer, in)) > 0)
        failed = fwrite(buffer, 1, n, out.fp) != n;
    failed = failed || ferror(in);
    int saved = errno ? errno : EIO;
    fclose(in);
    if (failed) {
        output_file_discard(&out);
        errno = saved;
        return -1;
    }
    return output_file_commit(&out);
}

/* Move `from` to `to` (a file of the target directory). */
static int move_into_place(const char *from, const char *to)
{
    struct stat st;
    if (lstat(to, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) {
        if (copy_to_output(from, to) != 0)
            return -1;
        return unlink(from);
    }
    return rename(from, to);
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
        int ok = from && (move ? to && move_into_place(from, to) == 0 : unlink(from) == 0);
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
