# tests/cli.mk -- tests of the bitsift command: unit tests of its input
# (decapsulation) and output formats, and golden tests of every subcommand.
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
