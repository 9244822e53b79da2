# SPDX-License-Identifier: BSD-3-Clause
# tests/reader_window.mk -- the differential test of the inline bit
# reader's fast and slow paths (owned with the reader's hot path).
check_PROGRAMS += tests/test-reader-window
tests_test_reader_window_SOURCES = tests/test_reader_window.c
tests_test_reader_window_LDADD = lib/libbitsift.la
TESTS += tests/test-reader-window
