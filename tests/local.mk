# tests/local.mk -- unit tests (cmocka, TAP), the reference vector replay,
# and the randomized reader test.

# --- Vector replay (jansson) -------------------------------------------
# replay-vectors with no argument replays $VECTORS_DIR (the team's
# ../shared/vectors; SKIP when absent); the scripts replay the hand-made
# vectors kept in the tree.
if HAVE_JANSSON
check_PROGRAMS += tests/replay-vectors
tests_replay_vectors_SOURCES = tests/replay_vectors.c
tests_replay_vectors_CFLAGS = $(AM_CFLAGS) $(JANSSON_CFLAGS)
tests_replay_vectors_LDADD = lib/libbitsift.la $(JANSSON_LIBS)
TESTS += tests/replay-vectors
endif
