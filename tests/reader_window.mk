# tests/reader_window.mk -- the differential test of the inline bit
# reader's fast and slow paths (owned with the reader's hot path).
check_PROGRAMS += tests/reader-window
tests_reader_window_SOURCES = tests/reader_window.c
tests_reader_window_LDADD = lib/libbitsift.la
TESTS += tests/reader-window
