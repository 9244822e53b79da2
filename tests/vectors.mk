# SPDX-License-Identifier: BSD-3-Clause
# tests/vectors.mk -- wire vectors replayed (jansson): the team's reference
# vectors and the hand-made ones kept in the tree, through the library's
# primitives (tests/vectors/replay-vectors) and through the schema path
# (tests/vectors/vector-schema writes a schema of each vector's ops,
# bitsift decode -F json reads its bytes, and the tool checks the record).
#
# With no argument both replay $VECTORS_DIR (the team's ../shared/vectors;
# a TAP SKIP when absent, as in a user's clone or in distcheck). The
# vector directories are distributed whole (make_vectors.py writes them):
#   handmade/  cases the reference set lacks
#   hostile/   damaged streams, each failing with a given kind at a bit
#   wrong/     deliberately flawed vectors that each self-test expects its
#              replayer to refuse, one by one
EXTRA_DIST += tests/vectors/handmade tests/vectors/hostile tests/vectors/wrong \
	tests/vectors/make_vectors.py
# (Scripts go in EXTRA_DIST, which keeps their mode: no variable that
# another area's .mk might also assign.)
EXTRA_DIST += tests/vectors/replay-handmade.sh tests/vectors/replay-hostile.sh \
	tests/vectors/replay-selftest.sh
EXTRA_DIST += tests/vectors/replay-schema.sh tests/vectors/replay-schema-handmade.sh \
	tests/vectors/replay-schema-selftest.sh

if HAVE_JANSSON
check_PROGRAMS += tests/vectors/replay-vectors
tests_vectors_replay_vectors_SOURCES = tests/vectors/replay_vectors.c
tests_vectors_replay_vectors_CFLAGS = $(AM_CFLAGS) $(JANSSON_CFLAGS)
tests_vectors_replay_vectors_LDADD = lib/libbitsift.la $(JANSSON_LIBS)
TESTS += tests/vectors/replay-vectors tests/vectors/replay-handmade.sh \
	tests/vectors/replay-hostile.sh tests/vectors/replay-selftest.sh
check_PROGRAMS += tests/vectors/vector-schema
tests_vectors_vector_schema_SOURCES = tests/vectors/vector_schema.c
tests_vectors_vector_schema_CFLAGS = $(AM_CFLAGS) $(JANSSON_CFLAGS)
tests_vectors_vector_schema_LDADD = $(JANSSON_LIBS)
TESTS += tests/vectors/replay-schema.sh tests/vectors/replay-schema-handmade.sh \
	tests/vectors/replay-schema-selftest.sh
endif
