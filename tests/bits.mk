# SPDX-License-Identifier: BSD-3-Clause
# tests/bits.mk -- the bit layer (<bitsift/bits.h>, the serialize macros,
# packet framing, CRC32): cmocka unit tests in TAP (through
# CMOCKA_MESSAGE_OUTPUT), the differential test of the inline reader's
# fast and slow paths, and the public headers compiled alone and in every
# language a game builds them with.

# --- Unit tests (cmocka) -------------------------------------------------
noinst_HEADERS += tests/bits/test_util.h
if HAVE_CMOCKA
UNIT_TESTS = tests/bits/test-bits tests/bits/test-primitives tests/bits/test-failure \
	tests/bits/test-serialize tests/bits/test-serialize-parts tests/bits/test-random-reader \
	tests/bits/test-cfloat-round-trip
check_PROGRAMS += $(UNIT_TESTS)
TESTS += $(UNIT_TESTS)
UNIT_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
UNIT_LDADD = lib/libbitsift.la $(CMOCKA_LIBS) -lm
tests_bits_test_bits_SOURCES = tests/bits/test_bits.c
tests_bits_test_bits_CFLAGS = $(UNIT_CFLAGS)
tests_bits_test_bits_LDADD = $(UNIT_LDADD)
tests_bits_test_primitives_SOURCES = tests/bits/test_primitives.c
tests_bits_test_primitives_CFLAGS = $(UNIT_CFLAGS)
tests_bits_test_primitives_LDADD = $(UNIT_LDADD)
tests_bits_test_failure_SOURCES = tests/bits/test_failure.c
tests_bits_test_failure_CFLAGS = $(UNIT_CFLAGS)
tests_bits_test_failure_LDADD = $(UNIT_LDADD)
tests_bits_test_serialize_SOURCES = tests/bits/test_serialize.c
tests_bits_test_serialize_CFLAGS = $(UNIT_CFLAGS)
tests_bits_test_serialize_LDADD = $(UNIT_LDADD)
tests_bits_test_serialize_parts_SOURCES = tests/bits/test_serialize_parts.c
tests_bits_test_serialize_parts_CFLAGS = $(UNIT_CFLAGS)
tests_bits_test_serialize_parts_LDADD = $(UNIT_LDADD)
tests_bits_test_random_reader_SOURCES = tests/bits/test_random_reader.c
tests_bits_test_random_reader_CFLAGS = $(UNIT_CFLAGS)
tests_bits_test_random_reader_LDADD = $(UNIT_LDADD)
tests_bits_test_cfloat_round_trip_SOURCES = tests/bits/test_cfloat_round_trip.c
tests_bits_test_cfloat_round_trip_CFLAGS = $(UNIT_CFLAGS)
tests_bits_test_cfloat_round_trip_LDADD = $(UNIT_LDADD)
# The framing's CRC32 and packet layout are checked against zlib's crc32().
if HAVE_ZLIB
check_PROGRAMS += tests/bits/test-crc32 tests/bits/test-packet
TESTS += tests/bits/test-crc32 tests/bits/test-packet
tests_bits_test_crc32_SOURCES = tests/bits/test_crc32.c
tests_bits_test_crc32_CFLAGS = $(UNIT_CFLAGS) $(ZLIB_CFLAGS)
tests_bits_test_crc32_LDADD = $(UNIT_LDADD) $(ZLIB_LIBS)
tests_bits_test_packet_SOURCES = tests/bits/test_packet.c
tests_bits_test_packet_CFLAGS = $(UNIT_CFLAGS) $(ZLIB_CFLAGS)
tests_bits_test_packet_LDADD = $(UNIT_LDADD) $(ZLIB_LIBS)
endif
endif

# --- The inline reader ----------------------------------------------------
# Its fast and slow paths against each other (owned with the reader's hot
# path).
check_PROGRAMS += tests/bits/test-reader-window
tests_bits_test_reader_window_SOURCES = tests/bits/test_reader_window.c
tests_bits_test_reader_window_LDADD = lib/libbitsift.la
TESTS += tests/bits/test-reader-window

# --- The headers ------------------------------------------------------------
# The bit layer's header alone, as strict C99 (-pedantic -Werror).
check_PROGRAMS += tests/bits/test-headers
TESTS += tests/bits/test-headers
tests_bits_test_headers_SOURCES = tests/bits/test_headers.c
tests_bits_test_headers_CFLAGS = -std=c99 -pedantic -Wall -Wextra -Werror
tests_bits_test_headers_LDADD = lib/libbitsift.la

# The bit layer's header and its serialize macros, warning-free as C99 and
# C++17 with gcc, clang, g++ and clang++ (and the experimental analysis
# headers as C11 and C++17).
EXTRA_DIST += tests/bits/header-modes.sh tests/bits/header_modes.c
TESTS += tests/bits/header-modes.sh
