/*
 * junit.h -- a JUnit XML report of `bitsift validate`: one test case per
 * input file or capture, failed when a packet in it is invalid, in error
 * when it could not be read. CI systems (GitLab, Jenkins, GitHub actions)
 * show these per file.
 */
#ifndef BITSIFT_JUNIT_H
#define BITSIFT_JUNIT_H

#include <stdint.h>

/* Lines of detail kept per test case (the count is always complete). */
#define JUNIT_MAX_DETAIL_LINES 100

struct junit;

struct junit *junit_create(void);
void junit_free(struct junit *j);
/* Start a test case (an input). */
void junit_begin_case(struct junit *j, const char *name);
/* Count a packet of the current case; `failure` is a line of text when it
 * is invalid, NULL when valid. */
void junit_packet(struct junit *j, const char *failure);
/* An input problem in the current case (or a case of its own when none is open). */
void junit_error(struct junit *j, const char *source, const char *message);
void junit_end_case(struct junit *j);
/* Write the report; 0, or -1 with errno set. */
int junit_write(const struct junit *j, const char *path, double seconds);

#endif /* BITSIFT_JUNIT_H */
