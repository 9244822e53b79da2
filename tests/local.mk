# SPDX-License-Identifier: BSD-3-Clause
# tests/local.mk -- unit tests (cmocka, TAP), the reference vector replay,
# and the randomized reader test.

# --- Vector replay (jansson) -------------------------------------------
# tests/replay-vectors with no argument replays $VECTORS_DIR (the team's
# ../shared/vectors; a TAP SKIP when absent, as in a user's clone or in
# distcheck); two scripts replay the hand-made vectors kept in the tree,
# which tests/make_vectors.py regenerates.
# The vector directories are distributed whole (make_vectors.py writes
# them); tests/vectors-wrong holds deliberately flawed vectors that the
# self-test expects the replayer to refuse, one by one.
EXTRA_DIST += tests/vectors tests/vectors-hostile tests/vectors-wrong tests/make_vectors.py
# (Scripts go in EXTRA_DIST, which keeps their mode: no variable that
# another area's .mk might also assign.)
EXTRA_DIST += tests/replay-handmade.sh tests/replay-hostile.sh tests/replay-selftest.sh
# The same vectors through the schema path: tests/vector-schema writes a
# schema of each vector's ops, bitsift decode -F json reads its bytes, and
# the tool checks the record (tests/replay-schema.sh; a TAP SKIP without
# $VECTORS_DIR), and the hand-made tests/vectors; its self-test runs it
# over tests/vectors-wrong.
EXTRA_DIST += tests/replay-schema.sh tests/replay-schema-handmade.sh tests/replay-schema-selftest.sh

if HAVE_JANSSON
check_PROGRAMS += tests/replay-vectors
tests_replay_vectors_SOURCES = tests/replay_vectors.c
tests_replay_vectors_CFLAGS = $(AM_CFLAGS) $(JANSSON_CFLAGS)
tests_replay_vectors_LDADD = lib/libbitsift.la $(JANSSON_LIBS)
TESTS += tests/replay-vectors tests/replay-handmade.sh tests/replay-hostile.sh \
	tests/replay-selftest.sh
check_PROGRAMS += tests/vector-schema
tests_vector_schema_SOURCES = tests/vector_schema.c
tests_vector_schema_CFLAGS = $(AM_CFLAGS) $(JANSSON_CFLAGS)
tests_vector_schema_LDADD = $(JANSSON_LIBS)
TESTS += tests/replay-schema.sh tests/replay-schema-handmade.sh tests/replay-schema-selftest.sh
endif

# --- Unit tests (cmocka, TAP through CMOCKA_MESSAGE_OUTPUT) --------------
noinst_HEADERS += tests/test_util.h
if HAVE_CMOCKA
UNIT_TESTS = tests/test-bits tests/test-primitives tests/test-failure tests/test-serialize \
	tests/test-serialize-parts tests/test-random-reader tests/test-cfloat-round-trip \
	tests/test-stats
check_PROGRAMS += $(UNIT_TESTS)
TESTS += $(UNIT_TESTS)
UNIT_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
UNIT_LDADD = lib/libbitsift.la $(CMOCKA_LIBS) -lm
tests_test_bits_SOURCES = tests/test_bits.c
tests_test_bits_CFLAGS = $(UNIT_CFLAGS)
tests_test_bits_LDADD = $(UNIT_LDADD)
tests_test_primitives_SOURCES = tests/test_primitives.c
tests_test_primitives_CFLAGS = $(UNIT_CFLAGS)
tests_test_primitives_LDADD = $(UNIT_LDADD)
tests_test_failure_SOURCES = tests/test_failure.c
tests_test_failure_CFLAGS = $(UNIT_CFLAGS)
tests_test_failure_LDADD = $(UNIT_LDADD)
tests_test_serialize_SOURCES = tests/test_serialize.c
tests_test_serialize_CFLAGS = $(UNIT_CFLAGS)
tests_test_serialize_LDADD = $(UNIT_LDADD)
tests_test_serialize_parts_SOURCES = tests/test_serialize_parts.c
tests_test_serialize_parts_CFLAGS = $(UNIT_CFLAGS)
tests_test_serialize_parts_LDADD = $(UNIT_LDADD)
tests_test_random_reader_SOURCES = tests/test_random_reader.c
tests_test_random_reader_CFLAGS = $(UNIT_CFLAGS)
tests_test_random_reader_LDADD = $(UNIT_LDADD)
tests_test_cfloat_round_trip_SOURCES = tests/test_cfloat_round_trip.c
tests_test_cfloat_round_trip_CFLAGS = $(UNIT_CFLAGS)
tests_test_cfloat_round_trip_LDADD = $(UNIT_LDADD)
tests_test_stats_SOURCES = tests/test_stats.c
tests_test_stats_CFLAGS = $(UNIT_CFLAGS)
tests_test_stats_LDADD = $(UNIT_LDADD)
tests_test_packet_SOURCES = tests/test_packet.c
tests_test_packet_CFLAGS = $(UNIT_CFLAGS) $(ZLIB_CFLAGS)
tests_test_packet_LDADD = $(UNIT_LDADD) $(ZLIB_LIBS)
# The CRC32 baseline is zlib's crc32().
if HAVE_ZLIB
check_PROGRAMS += tests/test-crc32 tests/test-packet
TESTS += tests/test-crc32 tests/test-packet
tests_test_crc32_SOURCES = tests/test_crc32.c
tests_test_crc32_CFLAGS = $(UNIT_CFLAGS) $(ZLIB_CFLAGS)
tests_test_crc32_LDADD = $(UNIT_LDADD) $(ZLIB_LIBS)
endif
endif

# --- Structure -----------------------------------------------------------
# No two objects of libbitsift use each other's symbols in a loop (nm).
EXTRA_DIST += tests/lib_call_graph.py
TESTS += tests/lib_call_graph.py

# The bit layer's header alone, as strict C99 (-pedantic -Werror).
check_PROGRAMS += tests/test-headers
TESTS += tests/test-headers
tests_test_headers_SOURCES = tests/test_headers.c
tests_test_headers_CFLAGS = -std=c99 -pedantic -Wall -Wextra -Werror
tests_test_headers_LDADD = lib/libbitsift.la

# The bit layer's header and its serialize macros, warning-free as C99 and
# C++17 with gcc, clang, g++ and clang++.
EXTRA_DIST += tests/header-modes.sh tests/header_modes.c
TESTS += tests/header-modes.sh

# `bitsift gen c`: the generated code compiles warning-free as C99 and
# C++17 and reads, refuses and writes exactly as the schema interpreter.
EXTRA_DIST += tests/gen-c.sh tests/gen_c_diff.c tests/gen-c/hostile.bss tests/gen-c/arrays.bss \
	tests/gen-c/names.bss \
	examples/game_net.c
TESTS += tests/gen-c.sh
# Compressed floats of every range of step counts read and written back
# through generated code.
EXTRA_DIST += tests/gen-c-cfloat.sh tests/gen_c_cfloat.c
TESTS += tests/gen-c-cfloat.sh
# The name of gen c's files is checked before any file is made; every
# keyword and header macro as each kind of schema name compiles; the
# generator's own names and the library's cannot be spelled twice.
EXTRA_DIST += tests/gen-c-name-paths.sh tests/gen-c-names.sh tests/gen-c-own-names.sh
TESTS += tests/gen-c-name-paths.sh tests/gen-c-names.sh tests/gen-c-own-names.sh
if HAVE_JANSSON
# The reference vectors, turned into schemas, through generated code.
EXTRA_DIST += tests/gen-c-vectors.sh
TESTS += tests/gen-c-vectors.sh
endif

# Every source file names its license (SPDX).
EXTRA_DIST += tests/spdx.sh
TESTS += tests/spdx.sh
