/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * input.c -- walk the command's inputs (captures, packet files, directories,
 * standard input) and hand their packets to a handler, one at a time.
 *
 * Memory stays bounded: a capture is read frame by frame through libpcap,
 * a packet file is read whole but only up to INPUT_RAW_PACKET_LIMIT, and a
 * directory listing is held only while it is walked. Directory symlinks are
 * not followed and the depth is limited, so a link loop cannot hang the run.
 */
#define _GNU_SOURCE /* fopencookie */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/capture.h"
#include "io/input.h"

#define MAX_DIRECTORY_DEPTH 64
/* The bytes of standard input kept to replay after libpcap looked at them:
 * more than the 4-byte magic libpcap reads before it gives up. */
#define STDIN_PEEK 64

struct walk {
    const struct input_options *options;
    const struct input_handler *handler;
    struct input_counts *counts;
    uint8_t *buffer; /* a raw packet file's bytes, reused */
    size_t buffer_size;
    char *stdio_buffer; /* a file's stdio buffer (INPUT_STDIO_BUFFER), reused */
    int stopped;
};

static void *problem_ctx(const struct walk *w)
{
    return w->handler->problem_ctx ? w->handler->problem_ctx : w->handler->ctx;
}

/* The run was asked to stop (a signal): stop walking, report no more. */
static int interrupted(struct walk *w)
{
    if (w->options->stop && *w->options->stop)
        w->stopped = 1;
    return w->stopped;
}

static void problem(struct walk *w, const char *source, uint64_t index, const char *message)
{
    if (w->options->stop && *w->options->stop)
        return; /* a read the signal interrupted: not a problem of the input */
    w->counts->errors++;
    if (w->handler->problem)
        w->handler->problem(problem_ctx(w), source, index, message);
}

static void problem_errno(struct walk *w, const char *source, const char *what)
{
    char message[256];
    snprintf(message, sizeof message, "%s: %s", what, strerror(errno));
    problem(w, source, 0, message);
}

static void begin(struct walk *w, const char *source, int is_capture)
{
    w->counts->inputs++;
    if (w->handler->begin)
        w->handler->begin(w->handler->ctx, source, is_capture);
}

static void end(struct walk *w, const char *source)
{
    if (w->handler->end)
        w->handler->end(w->handler->ctx, source);
}

static void deliver(struct walk *w, const struct input_packet *p)
{
    w->counts->packets++;
    if (w->handler->packet(w->handler->ctx, p))
        w->stopped = 1;
    interrupted(w);
}

/* One frame that did not yield a UDP payload: count it, and report the
 * ones that might have been a game packet we could not read. */
static void frame_not_decoded(struct walk *w, const char *source, uint64_t index,
                              const struct decap_result *r)
{
    char message[256];
    switch (r->status) {
    case DECAP_NOT_IP:
        w->counts->not_ip++;
        return;
    case DECAP_NOT_UDP:
        w->counts->not_udp++;
        return;
    case DECAP_FRAGMENT:
        w->counts->fragments++;
        snprintf(message, sizeof message,
                 "%s (id 0x%x, offset %u, %s) skipped: fragments are not reassembled",
                 r->why, (unsigned)r->fragment_id, (unsigned)r->fragment_offset,
                 r->more_fragments ? "more follow" : "last");
        break;
    case DECAP_SNAPPED:
        w->counts->snapped++;
        if (r->payload_expected)
            snprintf(message, sizeof message,
                     "UDP payload cut by the snap length (captured %zu of %zu bytes)",
                     r->payload_size, r->payload_expected);
        else
            snprintf(message, sizeof message, "cut by the snap length: %s", r->why);
        break;
    default:
        w->counts->malformed++;
        snprintf(message, sizeof message, "malformed frame: %s", r->why);
        break;
    }
    if (w->handler->problem)
        w->handler->problem(problem_ctx(w), source, index, message);
}

/* One capture being read: what each of its frames needs. */
struct capture_walk {
    struct walk *w;
    const char *source;
    int link;
};

static int capture_frame(void *ctx, const struct capture_frame *frame)
{
    struct capture_walk *cw = ctx;
    struct walk *w = cw->w;
    uint64_t index = frame->number; /* the frame's place in the capture */
    w->counts->frames++;
    const struct frame_select *frames = w->options->frames;
    if (!frame_select_has(frames, index)) /* after the last one, this input is done */
        return index >= frame_select_last(frames) || interrupted(w);
    struct decap_result d;
    if (decap_frame(cw->link, frame->data, frame->caplen, frame->wirelen, &d) != DECAP_UDP) {
        frame_not_decoded(w, cw->source, index, &d);
        return interrupted(w);
    }
    struct input_packet p = {
        .source = cw->source,
        .index = index,
        .from_capture = 1,
        .sec = frame->sec,
        .nsec = frame->nsec,
        .src = &d.src,
        .dst = &d.dst,
        .data = d.payload,
        .size = d.payload_size,
    };
    deliver(w, &p);
    return w->stopped;
}

static void read_capture(struct walk *w, const char *source, capture *c)
{
    char error[CAPTURE_ERROR_SIZE];
    int link = capture_link_type(c);
    begin(w, source, 1);
    if (!decap_link_supported(link)) {
        snprintf(error, sizeof error,
                 "unsupported link type %s (%d); bitsift reads Ethernet, Linux cooked v1/v2, "
                 "raw IP and BSD loopback",
                 capture_link_name(c), link);
        problem(w, source, 0, error);
        end(w, source);
        return;
    }
    if (w->options->filter && capture_set_filter(c, w->options->filter, error) != 0) {
        problem(w, source, 0, error);
        end(w, source);
        return;
    }
    struct capture_walk cw = {w, source, link};
    if (!w->stopped && capture_each(c, capture_frame, &cw, error) < 0)
        problem(w, source, capture_frames_read(c) + 1, error);
    end(w, source);
}

/* A raw packet file: `prefix` holds bytes already read from fp. */
static void read_packet_file(struct walk *w, const char *source, FILE *fp, const uint8_t *prefix,
                             size_t prefix_size)
{
    size_t size = prefix_size;
    if (w->buffer_size < prefix_size + 4096) {
        size_t want = prefix_size + 65536;
        uint8_t *b = realloc(w->buffer, want);
        if (!b) {
            problem(w, source, 0, "out of memory");
            return;
        }
        w->buffer = b;
        w->buffer_size = want;
    }
    if (prefix_size)
        memmove(w->buffer, prefix, prefix_size);
    for (;;) {
        if (size == w->buffer_size) {
            if (w->buffer_size >= INPUT_RAW_PACKET_LIMIT + 1) {
                char message[128];
                snprintf(message, sizeof message,
                         "packet file larger than the %u MiB limit", INPUT_RAW_PACKET_LIMIT >> 20);
                problem(w, source, 0, message);
                return;
            }
            size_t want = w->buffer_size * 2;
            if (want > INPUT_RAW_PACKET_LIMIT + 1)
                want = INPUT_RAW_PACKET_LIMIT + 1;
            uint8_t *b = realloc(w->buffer, want);
            if (!b) {
                problem(w, source, 0, "out of memory");
                return;
            }
            w->buffer = b;
            w->buffer_size = want;
        }
        size_t n = fread(w->buffer + size, 1, w->buffer_size - size, fp);
        size += n;
        if (n == 0)
            break;
    }
    if (ferror(fp)) {
        problem_errno(w, source, "read error");
        return;
    }
    begin(w, source, 0);
    if (size == 0) {
        problem(w, source, 0, "empty file: no packet");
    } else if (frame_select_has(w->options->frames, 1)) {
        struct input_packet p = {.source = source, .index = 1, .data = w->buffer, .size = size};
        deliver(w, &p);
    }
    end(w, source);
}

/* A capture that could not be opened: an input of its own with one problem. */
static void capture_failed(struct walk *w, const char *source, const char *error)
{
    begin(w, source, 1);
    problem(w, source, 0, error);
    end(w, source);
}

/*
 * libpcap reads a capture through stdio, two fread calls per record. With
 * stdio's default 4 KiB buffer a 200 MB capture costs ~50,000 read(2)
 * calls, which on a virtual machine take longer than decoding the packets;
 * with 1 MiB it is ~200 (measured with a bare pcap_next_ex loop: 0.15 s ->
 * 0.07 s of CPU time on 1 M packets). The buffer is shared by the files of
 * one run; without memory stdio keeps its own.
 */
#define INPUT_STDIO_BUFFER (1u << 20)

/* A regular file (or a device): a capture when libpcap recognises it. */
static void read_file(struct walk *w, const char *path)
{
    FILE *fp = fopen(path, "rb");
    if (!fp) {
        problem_errno(w, path, "cannot open");
        return;
    }
    if (!w->stdio_buffer)
        w->stdio_buffer = malloc(INPUT_STDIO_BUFFER);
    if (w->stdio_buffer)
        setvbuf(fp, w->stdio_buffer, _IOFBF, INPUT_STDIO_BUFFER);
    struct stat st;
    if (fstat(fileno(fp), &st) == 0 && S_ISREG(st.st_mode) && st.st_size < 4) {
        /* Too short for any capture header: libpcap would call it truncated. */
        read_packet_file(w, path, fp, NULL, 0);
        fclose(fp);
        return;
    }
    char error[CAPTURE_ERROR_SIZE];
    capture *c;
    switch (capture_open_stream(fp, &c, error)) {
    case CAPTURE_OPENED:
        read_capture(w, path, c);
        capture_close(c);
        return;
    case CAPTURE_NOT_A_CAPTURE:
        if (fseek(fp, 0, SEEK_SET) != 0) {
            problem_errno(w, path, "cannot rewind");
            break;
        }
        clearerr(fp);
        read_packet_file(w, path, fp, NULL, 0);
        break;
    case CAPTURE_FAILED:
        capture_failed(w, path, error);
        break;
    }
    fclose(fp);
}

/*
 * Standard input cannot be rewound, so its first bytes are read here and
 * replayed to libpcap through a cookie stream; when libpcap does not know
 * the format, the same bytes start the raw packet. The cookie hands out
 * the peeked bytes alone before it reads further, so libpcap's stdio buffer
 * never holds more than those when it gives up.
 */
struct replay {
    const uint8_t *peek;
    size_t peek_size, peek_pos;
    int fd;
};

static ssize_t replay_read(void *cookie, char *buf, size_t size)
{
    struct replay *r = cookie;
    if (r->peek_pos < r->peek_size) {
        size_t n = r->peek_size - r->peek_pos;
        if (n > size)
            n = size;
        memcpy(buf, r->peek + r->peek_pos, n);
        r->peek_pos += n;
        return (ssize_t)n;
    }
    for (;;) {
        ssize_t n = read(r->fd, buf, size);
        if (n >= 0 || errno != EINTR)
            return n;
    }
}

static int replay_close(void *cookie)
{
    (void)cookie;
    return 0;
}

static void read_stdin(struct walk *w)
{
    const char *source = "<stdin>";
    uint8_t peek[STDIN_PEEK];
    size_t size = 0;
    while (size < sizeof peek) {
        ssize_t n = read(STDIN_FILENO, peek + size, sizeof peek - size);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            problem_errno(w, source, "read error");
            return;
        }
        if (n == 0)
            break;
        size += (size_t)n;
    }
    if (size >= 4) {
        struct replay r = {peek, size, 0, STDIN_FILENO};
        cookie_io_functions_t io = {.read = replay_read, .close = replay_close};
        FILE *fp = fopencookie(&r, "rb", io);
        if (!fp) {
            problem_errno(w, source, "cannot read");
            return;
        }
        char error[CAPTURE_ERROR_SIZE];
        capture *c;
        switch (capture_open_stream(fp, &c, error)) {
        case CAPTURE_OPENED:
            read_capture(w, source, c);
            capture_close(c);
            return;
        case CAPTURE_FAILED:
            capture_failed(w, source, error);
            fclose(fp);
            return;
        case CAPTURE_NOT_A_CAPTURE:
            fclose(fp);
            break;
        }
    }
    /* Not a capture: the peeked bytes, then whatever is left. */
    FILE *rest = fdopen(dup(STDIN_FILENO), "rb");
    if (!rest) {
        problem_errno(w, source, "cannot read");
        return;
    }
    read_packet_file(w, source, rest, peek, size);
    fclose(rest);
}

static int name_order(const struct dirent **a, const struct dirent **b)
{
    return strcmp((*a)->d_name, (*b)->d_name);
}

static int visible(const struct dirent *e)
{
    return e->d_name[0] != '.';
}

static void read_path(struct walk *w, const char *path, int depth);

static const char *file_kind(mode_t mode)
{
    if (S_ISFIFO(mode))
        return "a FIFO";
    if (S_ISCHR(mode))
        return "a character device";
    if (S_ISBLK(mode))
        return "a block device";
    if (S_ISSOCK(mode))
        return "a socket";
    return "of an unknown kind";
}

/* A file in a directory that is not a regular file: not opened (opening
 * a FIFO blocks until a writer comes, reading a device may never end). */
static void skip_file(struct walk *w, const char *path, mode_t mode)
{
    if (!w->options->note)
        return;
    char message[64];
    snprintf(message, sizeof message, "skipped: not a regular file (%s)", file_kind(mode));
    w->options->note(w->options->ctx, path, message);
}

/* Before a read that may wait for ever: what was produced goes out. */
static void before_blocking(struct walk *w)
{
    if (w->options->before_blocking)
        w->options->before_blocking(w->options->ctx);
}

static void read_directory(struct walk *w, const char *path, int depth)
{
    if (depth > MAX_DIRECTORY_DEPTH) {
        problem(w, path, 0, "directories nested too deep");
        return;
    }
    struct dirent **entries;
    int n = scandir(path, &entries, visible, name_order);
    if (n < 0) {
        problem_errno(w, path, "cannot read directory");
        return;
    }
    size_t length = strlen(path);
    int slash = length > 0 && path[length - 1] == '/';
    for (int i = 0; i < n; i++) {
        if (!interrupted(w)) {
            size_t size = length + strlen(entries[i]->d_name) + 2;
            char *child = malloc(size);
            if (child) {
                snprintf(child, size, "%s%s%s", path, slash ? "" : "/", entries[i]->d_name);
                read_path(w, child, depth + 1);
                free(child);
            } else {
                problem(w, path, 0, "out of memory");
            }
        }
        free(entries[i]);
    }
    free(entries);
}

static void read_path(struct walk *w, const char *path, int depth)
{
    if (strcmp(path, "-") == 0 && depth == 0) {
        before_blocking(w);
        read_stdin(w);
        return;
    }
    struct stat st;
    /* Inside a directory, a symlink to a directory is not followed. */
    if ((depth ? lstat(path, &st) : stat(path, &st)) != 0) {
        problem_errno(w, path, "cannot open");
        return;
    }
    if (S_ISDIR(st.st_mode)) {
        read_directory(w, path, depth);
        return;
    }
    if (S_ISLNK(st.st_mode)) {
        if (stat(path, &st) != 0) {
            problem_errno(w, path, "cannot open");
            return;
        }
        if (S_ISDIR(st.st_mode))
            return; /* a linked directory: skipped to avoid loops */
    }
    if (!S_ISREG(st.st_mode)) {
        if (depth) {
            skip_file(w, path, st.st_mode);
            return;
        }
        before_blocking(w); /* named on the command line: read, as cat would */
        /* A signal that came during the flush would not interrupt the
         * open: look once more (a few instructions remain before it). */
        if (interrupted(w))
            return;
    }
    read_file(w, path);
}

int input_run(char *const *paths, size_t count, const struct input_options *options,
              const struct input_handler *handler, struct input_counts *counts)
{
    struct walk w = {.options = options, .handler = handler, .counts = counts};
    for (size_t i = 0; i < count && !interrupted(&w); i++)
        read_path(&w, paths[i], 0);
    free(w.buffer);
    free(w.stdio_buffer);
    return w.stopped;
}
