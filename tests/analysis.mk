# SPDX-License-Identifier: BSD-3-Clause
# tests/analysis.mk -- the library's analysis API through its headers
# (<bitsift/stats.h>) on packets whose numbers are known by hand; the
# diagnosis has its own group (tests/diagnose.mk).
if HAVE_CMOCKA
check_PROGRAMS += tests/analysis/test-stats
TESTS += tests/analysis/test-stats
tests_analysis_test_stats_SOURCES = tests/analysis/test_stats.c
tests_analysis_test_stats_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests/bits
tests_analysis_test_stats_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_analysis_test_stats_LDADD = lib/libbitsift.la $(CMOCKA_LIBS) -lm
endif
