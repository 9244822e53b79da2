/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * file_window.c -- a window mapped onto a file, moved along as it is read,
 * and the SIGBUS handler that keeps a file shrinking under it from killing
 * the process (see file_window.h).
 *
 * The handler and the reader share three words: where the window is in
 * memory, and whether a read of it faulted (file_window_faulted). SIGBUS
 * from a read is synchronous (it is raised by the faulting instruction of
 * this thread), so the handler never runs while the window is being
 * moved; the words are volatile so that the reader sees the handler's
 * write.
 */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "io/file_window.h"

/* The size of a huge page (x86-64, arm64 with 4 KiB pages): see
 * file_window_at. */
#define LARGE_PAGE (2u << 20)

static volatile uintptr_t guard_low, guard_high; /* the mapping, [low, high) */
volatile sig_atomic_t file_window_faulted;
static uintptr_t page_size;
static int window_in_use;
static struct sigaction previous_action;

/*
 * SIGBUS in the window: the page is no longer backed by the file (it was
 * truncated) or could not be read in. Zero-filled anonymous memory goes
 * over the window from that page on, so the faulting read, run again when
 * the handler returns, reads zeros; file_window_faulted tells the reader.
 * mmap is a plain system call on Linux, safe in a handler.
 */
static void on_sigbus(int signal_number, siginfo_t *info, void *context)
{
    uintptr_t at = (uintptr_t)info->si_addr;
    if (info->si_code > 0 && at >= guard_low && at < guard_high) {
        uintptr_t page = at & ~(page_size - 1);
        int saved_errno = errno;
        void *zeros = mmap((void *)page, guard_high - page, PROT_READ,
                           MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
        errno = saved_errno;
        if (zeros != MAP_FAILED) {
            file_window_faulted = 1;
            return;
        }
    }
    /* Not ours: what would have happened without this handler. */
    if (previous_action.sa_flags & SA_SIGINFO) {
        previous_action.sa_sigaction(signal_number, info, context);
    } else if (previous_action.sa_handler != SIG_DFL && previous_action.sa_handler != SIG_IGN) {
        previous_action.sa_handler(signal_number);
    } else {
        /* The faulting access runs again and now ends the process, as it
         * would have; a SIGBUS sent by kill(2) is raised again. */
        signal(SIGBUS, SIG_DFL);
        if (info->si_code <= 0)
            raise(SIGBUS);
    }
}

static void unmap(struct file_window *w)
{
    guard_low = guard_high = 0;
    if (w->base)
        munmap((void *)w->base, w->mapped);
    w->base = NULL;
    w->start = 0;
    w->size = w->mapped = 0;
}

int file_window_open(struct file_window *w, int fd, uint64_t file_size, size_t window)
{
    memset(w, 0, sizeof *w);
    w->fd = -1;
    long page = sysconf(_SC_PAGESIZE);
    if (window_in_use || page <= 0 || window == 0)
        return -1;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_sigaction = on_sigbus;
    action.sa_flags = SA_SIGINFO;
    sigemptyset(&action.sa_mask);
    if (sigaction(SIGBUS, &action, &previous_action) != 0)
        return -1;
    page_size = (uintptr_t)page;
    file_window_faulted = 0;
    window_in_use = 1;
    w->fd = fd;
    w->file_size = file_size;
    w->window = window;
    /* The window rounded down to a power of two, from a page to 2 MiB. */
    w->align = page_size;
    while (w->align < LARGE_PAGE && w->align * 2 <= window)
        w->align *= 2;
    return 0;
}

const uint8_t *file_window_at(struct file_window *w, uint64_t offset, size_t need)
{
    if (w->fd < 0 || need > w->file_size || offset > w->file_size - need)
        return NULL;
    if (w->base && offset >= w->start && offset - w->start <= w->size &&
        need <= w->size - (offset - w->start))
        return w->base + (offset - w->start);
    unmap(w);
    /* From the page holding `offset`, the window or the bytes asked for,
     * whichever is more, on to a multiple of w->align in the file, and
     * never past the end of the file. With windows of 2 MiB or more, a
     * window thus ends where the next one's whole 2 MiB pieces start:
     * where the page cache holds the file in 2 MiB folios (as readahead
     * leaves it), the kernel maps each piece with one page-table entry
     * instead of 512 (it places the mapping at an address congruent to
     * the offset). */
    uint64_t start = offset & ~(uint64_t)(page_size - 1);
    uint64_t end = offset + need;
    if (end < start + w->window)
        end = start + w->window;
    end = (end + w->align - 1) & ~(uint64_t)(w->align - 1);
    if (end > w->file_size)
        end = w->file_size;
    uint64_t length = end - start;
    uint64_t mapped = (length + page_size - 1) & ~(uint64_t)(page_size - 1);
    const uint64_t off_max = ((uint64_t)1 << (sizeof(off_t) * 8 - 1)) - 1;
    if (start > off_max || mapped > SIZE_MAX)
        return NULL;
    void *m =
        mmap(NULL, (size_t)mapped, PROT_READ, MAP_PRIVATE | MAP_POPULATE, w->fd, (off_t)start);
    if (m == MAP_FAILED)
        return NULL;
    w->base = m;
    w->start = start;
    w->size = (size_t)length;
    w->mapped = (size_t)mapped;
    guard_low = (uintptr_t)m;
    guard_high = (uintptr_t)m + (size_t)mapped;
    return w->base + (offset - start);
}

void file_window_close(struct file_window *w)
{
    if (w->fd < 0)
        return;
    unmap(w);
    sigaction(SIGBUS, &previous_action, NULL);
    window_in_use = 0;
    w->fd = -1;
}
