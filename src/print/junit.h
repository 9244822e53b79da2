/* SPDX-License-Identifier: BSD-3-Clause */
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
/* Write the report (beside `path`, renamed over it when complete); 0, or
 * -1 with errno set: ENOMEM when memory ran out while collecting (no
 * incomplete report is written). Every name and message comes out as
 * valid XML 1.0 (what it cannot hold becomes U+FFFD); each test case
 * carries the time from its begin to its end, the suite the `seconds`. */
int junit_write(const struct junit *j, const char *path, double seconds);

#endif /* BITSIFT_JUNIT_H */
