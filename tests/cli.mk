# SPDX-License-Identifier: BSD-3-Clause
# tests/cli.mk -- tests of the bitsift command: unit tests of its input
# (decapsulation) and output formats, the golden tests of every subcommand
# (tests/cli/TESTLIST, expected outputs in tests/cli/expected), the
# decode | encode round trips, and the cross-check of decapsulation against
# tshark. tests/cli/prepare-data.sh regenerates tests/cli/data.
if HAVE_CMOCKA
check_PROGRAMS += tests/cli/test-decap tests/cli/test-out tests/cli/test-capture \
	tests/cli/test-float-format tests/cli/test-fields tests/cli/test-filter \
	tests/cli/test-frame-select
TESTS += tests/cli/test-decap tests/cli/test-out tests/cli/test-capture \
	tests/cli/test-float-format tests/cli/test-fields tests/cli/test-filter \
	tests/cli/test-frame-select
endif
# The -Y compiler (libbitsift's display filters) on hostile text
# (filter-check.py checks the filters against an independent evaluation
# over decode's JSON), and --frame lists.
tests_cli_test_filter_SOURCES = tests/cli/test_filter.c
tests_cli_test_filter_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_cli_test_filter_LDADD = lib/libbitsift.la $(CMOCKA_LIBS)
tests_cli_test_frame_select_SOURCES = tests/cli/test_frame_select.c src/io/frame_select.c \
	src/io/frame_select.h
tests_cli_test_frame_select_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/src
tests_cli_test_frame_select_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_cli_test_frame_select_LDADD = $(CMOCKA_LIBS)
tests_cli_test_decap_SOURCES = tests/cli/test_decap.c src/io/decap.c
tests_cli_test_decap_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/src
tests_cli_test_decap_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_cli_test_decap_LDADD = $(CMOCKA_LIBS)
tests_cli_test_capture_SOURCES = tests/cli/test_capture.c src/io/capture.c src/io/classic_pcap.c src/io/file_window.c src/io/decap.c
tests_cli_test_capture_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/src -I$(top_srcdir)/fuzz/support
tests_cli_test_capture_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS) $(PCAP_CFLAGS)
tests_cli_test_capture_LDADD = $(CMOCKA_LIBS) $(PCAP_LIBS)
# The float texts are read back by libbitsift-tools' record reader (not exported).
tests_cli_test_out_SOURCES = tests/cli/test_out.c src/print/out.c src/print/float_format.c lib/tools/float_text.c \
	lib/tools/record_time.c
tests_cli_test_out_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/src -I$(top_srcdir)/lib/tools
tests_cli_test_out_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_cli_test_out_LDADD = lib/libbitsift.la $(CMOCKA_LIBS) -lm
# The exact float formatter against the printf loop it replaced (the
# oracle); float-exhaustive (built on demand: make tests/cli/float-exhaustive)
# compares all 2^32 float bit patterns.
tests_cli_test_float_format_SOURCES = tests/cli/test_float_format.c src/print/float_format.c \
	tests/cli/float_oracle.c tests/cli/float_oracle.h
tests_cli_test_float_format_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/src
tests_cli_test_float_format_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_cli_test_float_format_LDADD = lib/libbitsift.la $(CMOCKA_LIBS) -lm
# The field printer's shortcuts against its plain path.
tests_cli_test_fields_SOURCES = tests/cli/test_fields.c src/print/fields.c src/print/fields.h src/print/out.c \
	src/print/out.h src/print/float_format.c src/print/float_format.h
tests_cli_test_fields_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/src
tests_cli_test_fields_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_cli_test_fields_LDADD = lib/libbitsift.la $(CMOCKA_LIBS) -lm
EXTRA_PROGRAMS += tests/cli/float-exhaustive
CLEANFILES += tests/cli/float-exhaustive
tests_cli_float_exhaustive_SOURCES = tests/cli/float_exhaustive.c src/print/float_format.c \
	tests/cli/float_oracle.c tests/cli/float_oracle.h
tests_cli_float_exhaustive_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/src
tests_cli_float_exhaustive_LDADD = -lm

TESTS += tests/cli/golden.sh tests/cli/roundtrip.sh tests/cli/tshark-crosscheck.sh tests/cli/input-paths.sh \
	tests/cli/seeds-reseal.sh tests/cli/readme-commands.sh \
	tests/cli/filter-check.py tests/cli/advisor-check.py
# What hostile inputs and failing runs must not do (data loss, unbounded
# memory or time, hangs, a signal not heeded); peak-rss measures a
# command's memory for them. output-paths.sh: every output option against
# links, FIFOs and devices.
TESTS += tests/cli/encode-safety.sh tests/cli/input-limits.sh tests/cli/seeds-memory.sh \
	tests/cli/interrupt.sh tests/cli/output-paths.sh
check_PROGRAMS += tests/cli/peak-rss
tests_cli_peak_rss_SOURCES = tests/cli/peak_rss.c
EXTRA_DIST += \
	tests/cli/filter-check.py tests/cli/advisor-check.py \
	tests/cli/encode-safety.sh tests/cli/input-limits.sh tests/cli/seeds-memory.sh \
	tests/cli/interrupt.sh tests/cli/output-paths.sh \
	tests/cli/golden.sh tests/cli/roundtrip.sh tests/cli/tshark-crosscheck.sh tests/cli/input-paths.sh \
	tests/cli/seeds-reseal.sh tests/cli/readme-commands.sh \
	tests/cli/TESTLIST tests/cli/expected tests/cli/data \
	tests/cli/script-setup.sh tests/cli/prepare-data.sh tests/cli/make-captures.py tests/cli/make-packets.py
