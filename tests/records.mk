# SPDX-License-Identifier: BSD-3-Clause
# tests/records.mk -- libbitsift-tools' record reader (<bitsift/records.h>)
# through its API; the command's use of it is the golden encode tests'
# (tests/cli.mk) and the fuzz_encode harness's.
if HAVE_CMOCKA
check_PROGRAMS += tests/records/test-records
TESTS += tests/records/test-records
endif
tests_records_test_records_SOURCES = tests/records/test_records.c
tests_records_test_records_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_records_test_records_LDADD = lib/libbitsift-tools.la lib/libbitsift.la $(CMOCKA_LIBS)
