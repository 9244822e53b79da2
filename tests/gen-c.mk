# SPDX-License-Identifier: BSD-3-Clause
# tests/gen-c.mk -- `bitsift gen c`: the generated code compiles
# warning-free as C99 and C++17 and reads, refuses and writes exactly as
# the schema interpreter; the schemas here (tests/gen-c/*.bss) hold what
# the other tests' schemas leave out.

# Every schema of examples/, of the schema tests, of tests/gen-c/ and of
# the schema fuzz corpus through generated code (tests/gen-c/diff.c linked
# with it), and examples/game_net.c built on it.
EXTRA_DIST += tests/gen-c/schemas.sh tests/gen-c/diff.c tests/gen-c/hostile.bss \
	tests/gen-c/arrays.bss tests/gen-c/names.bss \
	examples/game_net.c
TESTS += tests/gen-c/schemas.sh
# Compressed floats of every range of step counts read and written back
# through generated code.
EXTRA_DIST += tests/gen-c/cfloat.sh tests/gen-c/cfloat.c
TESTS += tests/gen-c/cfloat.sh
# The name of gen c's files is checked before any file is made; every
# keyword and header macro as each kind of schema name compiles; the
# generator's own names and the library's cannot be spelled twice.
EXTRA_DIST += tests/gen-c/name-paths.sh tests/gen-c/names.sh tests/gen-c/own-names.sh
TESTS += tests/gen-c/name-paths.sh tests/gen-c/names.sh tests/gen-c/own-names.sh
if HAVE_JANSSON
# The reference vectors, turned into schemas by tests/vectors/vector-schema,
# through generated code.
EXTRA_DIST += tests/gen-c/vectors.sh
TESTS += tests/gen-c/vectors.sh
endif
