# tests/cli.mk -- tests of the bitsift command: unit tests of its input
# (decapsulation) and output formats, the golden tests of every subcommand
# (tests/cli/TESTLIST, expected outputs in tests/cli/expected), the
# decode | encode round trips, and the cross-check of decapsulation against
# tshark. tests/cli/prepare-data.sh regenerates tests/cli/data.
if HAVE_CMOCKA
check_PROGRAMS += tests/cli/test-decap tests/cli/test-out
TESTS += tests/cli/test-decap tests/cli/test-out
endif
tests_cli_test_decap_SOURCES = tests/cli/test_decap.c src/decap.c
tests_cli_test_decap_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/src
tests_cli_test_decap_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_cli_test_decap_LDADD = $(CMOCKA_LIBS)
tests_cli_test_out_SOURCES = tests/cli/test_out.c src/out.c
tests_cli_test_out_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/src
tests_cli_test_out_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_cli_test_out_LDADD = $(CMOCKA_LIBS) -lm

TESTS += tests/cli/golden.sh tests/cli/roundtrip.sh tests/cli/tshark-crosscheck.sh
EXTRA_DIST += \
	tests/cli/golden.sh tests/cli/roundtrip.sh tests/cli/tshark-crosscheck.sh \
	tests/cli/TESTLIST tests/cli/expected tests/cli/data \
	tests/cli/prepare-data.sh tests/cli/make-captures.py tests/cli/make-packets.py
