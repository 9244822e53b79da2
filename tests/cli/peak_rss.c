/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * peak_rss.c -- run a command and print its peak resident memory in KiB
 * (getrusage's ru_maxrss of the child) on stderr's last line as
 * "peak-rss: N", exiting with the command's status. The scripts of
 * tests/cli use it to hold a command to a memory bound whatever the build
 * (a sanitizer's reserved shadow memory is not resident, so ulimit -v
 * would not do).
 *
 *     peak-rss COMMAND [ARG...]
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: peak-rss COMMAND [ARG...]\n");
        return 2;
    }
    pid_t pid = fork();
    if (pid < 0) {
        perror("peak-rss: fork");
        return 2;
    }
    if (pid == 0) {
        execvp(argv[1], argv + 1);
        perror("peak-rss: exec");
        _exit(127);
    }
    int status;
    struct rusage usage;
    if (wait4(pid, &status, 0, &usage) < 0) {
        perror("peak-rss: wait4");
        return 2;
    }
    fprintf(stderr, "peak-rss: %ld\n", usage.ru_maxrss);
    if (WIFEXITED(status))
        return WEXITSTATUS(status);
    return 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}
