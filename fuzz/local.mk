# fuzz/local.mk -- fuzz harnesses for libFuzzer and AFL++, their seed
# corpus, and the make targets that run them (fuzz/README.md tells how).
#
#   make check        replays corpus/<target>/ and fuzz/regressions/<target>/
#                     through every harness, with the normal compiler
#   make fuzz         builds the libFuzzer harnesses (configure --enable-fuzzing)
#   make fuzz-smoke   short deterministic libFuzzer runs + the planted-bug test
#   make fuzz-afl     short AFL++ runs (persistent mode, cmplog, CRC post-processor)
#   make coverage     replays the corpus with coverage and prints lib/ line and
#                     branch coverage
#   make fuzz-seeds   regenerates the seed corpus with the encoder

# Harnesses shipped to long campaigns (OSS-Fuzz, fuzz-smoke, fuzz-afl).
FUZZ_TARGETS = fuzz_reader fuzz_packet fuzz_schema fuzz_roundtrip fuzz_capture fuzz_encode
# Harnesses over framed packets: they also build as <target>_crc (libFuzzer
# custom mutator that re-seals the CRC) and <target>_seal (the harness
# computes the CRC itself).
FUZZ_CRC_TARGETS = fuzz_packet
# The other builds of a target's source (BINARY:TARGET), run by fuzz-smoke.
FUZZ_VARIANTS = fuzz_packet_crc:fuzz_packet fuzz_packet_seal:fuzz_packet \
	fuzz_packet_nocrc:fuzz_packet fuzz_packet_schema:fuzz_packet
# The test-only target with a bug behind the CRC gate (fuzz/planted.test).
FUZZ_TEST_TARGETS = fuzz_planted

noinst_HEADERS += fuzz/fuzz_input.h fuzz/reseal.h fuzz/packet_schemas.h fuzz/schema_mutate.h \
	fuzz/reader_ops.h fuzz/validate_check.h fuzz/frame_log.h

# The example schemas the packet harnesses carry (packet_schemas.h).
FUZZ_BUNDLED_SCHEMAS = examples/shooter.bss examples/article.bss examples/scenes.bss \
	examples/robocat.bss
fuzz/bundled_schemas.c: $(srcdir)/fuzz/embed-schemas.sh $(FUZZ_BUNDLED_SCHEMAS:%=$(srcdir)/%)
	$(AM_V_GEN)$(MKDIR_P) fuzz && \
	$(SHELL) $(srcdir)/fuzz/embed-schemas.sh $(srcdir) $(FUZZ_BUNDLED_SCHEMAS) >$@.tmp && \
	mv $@.tmp $@
CLEANFILES += fuzz/bundled_schemas.c
FUZZ_PACKET_SOURCES = fuzz/packet_schemas.c

# Dictionaries and libFuzzer/OSS-Fuzz options, one per target.
FUZZ_DICTS = fuzz/fuzz_reader.dict fuzz/fuzz_packet.dict fuzz/fuzz_schema.dict \
	fuzz/fuzz_planted.dict fuzz/fuzz_encode.dict
FUZZ_OPTIONS = fuzz/fuzz_reader.options fuzz/fuzz_packet.options fuzz/fuzz_schema.options \
	fuzz/fuzz_roundtrip.options fuzz/fuzz_capture.options fuzz/fuzz_planted.options \
	fuzz/fuzz_encode.options

FUZZ_DIST_FILES = fuzz/embed-schemas.sh fuzz/targets.sh fuzz/smoke.sh fuzz/planted.test fuzz/afl.sh fuzz/coverage.sh \
	fuzz/schema-error-seeds.sh \
	fuzz/oss-fuzz-build.sh fuzz/afl_driver.c fuzz/afl_crc_mutator.c
EXTRA_DIST += $(FUZZ_DIST_FILES) fuzz/README.md $(FUZZ_DICTS) $(FUZZ_OPTIONS) \
	corpus/fuzz_reader corpus/fuzz_planted corpus/fuzz_packet corpus/fuzz_schema corpus/fuzz_roundtrip corpus/fuzz_capture \
	corpus/fuzz_encode \
	fuzz/regressions

## -- Replay: every harness with a plain main(), run by make check ---------

check_PROGRAMS += fuzz/replay_fuzz_reader fuzz/replay_fuzz_planted \
	fuzz/replay_fuzz_packet fuzz/replay_fuzz_schema fuzz/replay_fuzz_roundtrip \
	fuzz/replay_fuzz_capture fuzz/replay_fuzz_encode
TESTS += fuzz/replay_fuzz_reader fuzz/replay_fuzz_planted \
	fuzz/replay_fuzz_packet fuzz/replay_fuzz_schema fuzz/replay_fuzz_roundtrip \
	fuzz/replay_fuzz_capture fuzz/replay_fuzz_encode

fuzz_replay_fuzz_reader_SOURCES = fuzz/fuzz_reader.c fuzz/replay_main.c
fuzz_replay_fuzz_reader_CPPFLAGS = $(AM_CPPFLAGS) -DFUZZ_TARGET_NAME='"fuzz_reader"'
fuzz_replay_fuzz_reader_LDADD = lib/libbitsift.la

fuzz_replay_fuzz_planted_SOURCES = fuzz/fuzz_planted.c fuzz/replay_main.c
fuzz_replay_fuzz_planted_CPPFLAGS = $(AM_CPPFLAGS) -DFUZZ_TARGET_NAME='"fuzz_planted"'
fuzz_replay_fuzz_planted_LDADD = lib/libbitsift.la

fuzz_replay_fuzz_packet_SOURCES = fuzz/fuzz_packet.c $(FUZZ_PACKET_SOURCES) fuzz/replay_main.c
nodist_fuzz_replay_fuzz_packet_SOURCES = fuzz/bundled_schemas.c
fuzz_replay_fuzz_packet_CPPFLAGS = $(AM_CPPFLAGS) -I$(srcdir)/fuzz -DFUZZ_TARGET_NAME='"fuzz_packet"'
fuzz_replay_fuzz_packet_LDADD = lib/libbitsift.la

fuzz_replay_fuzz_schema_SOURCES = fuzz/fuzz_schema.c fuzz/replay_main.c
fuzz_replay_fuzz_schema_CPPFLAGS = $(AM_CPPFLAGS) -DFUZZ_TARGET_NAME='"fuzz_schema"'
fuzz_replay_fuzz_schema_LDADD = lib/libbitsift.la

fuzz_replay_fuzz_roundtrip_SOURCES = fuzz/fuzz_roundtrip.c fuzz/schema_mutate.c \
	$(FUZZ_PACKET_SOURCES) fuzz/replay_main.c
nodist_fuzz_replay_fuzz_roundtrip_SOURCES = fuzz/bundled_schemas.c
fuzz_replay_fuzz_roundtrip_CPPFLAGS = $(AM_CPPFLAGS) -I$(srcdir)/fuzz \
	-DFUZZ_TARGET_NAME='"fuzz_roundtrip"'
fuzz_replay_fuzz_roundtrip_LDADD = lib/libbitsift.la

# fuzz_capture goes through the command's capture code (libpcap).
FUZZ_CAPTURE_SOURCES = fuzz/fuzz_capture.c $(FUZZ_PACKET_SOURCES) src/capture.c src/classic_pcap.c \
	src/file_window.c src/decap.c
FUZZ_CAPTURE_CPPFLAGS = $(AM_CPPFLAGS) -I$(srcdir)/fuzz -I$(srcdir)/src
fuzz_replay_fuzz_capture_SOURCES = $(FUZZ_CAPTURE_SOURCES) fuzz/replay_main.c
nodist_fuzz_replay_fuzz_capture_SOURCES = fuzz/bundled_schemas.c
fuzz_replay_fuzz_capture_CPPFLAGS = $(FUZZ_CAPTURE_CPPFLAGS) -DFUZZ_TARGET_NAME='"fuzz_capture"'
fuzz_replay_fuzz_capture_CFLAGS = $(AM_CFLAGS) $(PCAP_CFLAGS)
fuzz_replay_fuzz_capture_LDADD = lib/libbitsift.la $(PCAP_LIBS)

# fuzz_encode goes through the command's NDJSON record path (jansson, and
# libpcap for -w).
FUZZ_ENCODE_SOURCES = fuzz/fuzz_encode.c $(FUZZ_PACKET_SOURCES) src/cmd_encode.c src/cli.c \
	src/capture.c src/classic_pcap.c src/file_window.c src/decap.c src/encap.c src/out.c \
	src/float_format.c src/output_file.c src/filter.c src/frame_select.c
FUZZ_ENCODE_CPPFLAGS = $(AM_CPPFLAGS) -I$(srcdir)/fuzz -I$(srcdir)/src
fuzz_replay_fuzz_encode_SOURCES = $(FUZZ_ENCODE_SOURCES) fuzz/replay_main.c
nodist_fuzz_replay_fuzz_encode_SOURCES = fuzz/bundled_schemas.c
fuzz_replay_fuzz_encode_CPPFLAGS = $(FUZZ_ENCODE_CPPFLAGS) -DFUZZ_TARGET_NAME='"fuzz_encode"'
fuzz_replay_fuzz_encode_CFLAGS = $(AM_CFLAGS) $(PCAP_CFLAGS) $(JANSSON_CFLAGS)
fuzz_replay_fuzz_encode_LDADD = lib/libbitsift.la $(PCAP_LIBS) $(JANSSON_LIBS) -lm

## -- Seed generator --------------------------------------------------------

noinst_PROGRAMS += fuzz/seedgen
fuzz_seedgen_SOURCES = fuzz/seedgen.c
fuzz_seedgen_LDADD = lib/libbitsift.la

# Valid schemas for fuzz_schema (which round-trips random packets of
# each): the examples and the test schemas, named schema-<file>.
FUZZ_SCHEMA_SEEDS = $(FUZZ_BUNDLED_SCHEMAS) tests/schema/constructs.bss \
	tests/cli/data/arena.bss tests/cli/data/lobby.bss

fuzz-seeds: fuzz/seedgen$(EXEEXT) fuzz/packetgen$(EXEEXT)
	$(builddir)/fuzz/seedgen $(srcdir)/corpus
	$(SHELL) $(srcdir)/fuzz/schema-error-seeds.sh $(srcdir)/corpus/fuzz_schema
	for f in $(FUZZ_SCHEMA_SEEDS); do \
		cp $(srcdir)/$$f $(srcdir)/corpus/fuzz_schema/schema-$$(basename $$f .bss) || exit 1; \
	done
	$(MKDIR_P) $(srcdir)/corpus/fuzz_packet
	$(builddir)/fuzz/packetgen -o $(srcdir)/corpus/fuzz_packet \
		$(FUZZ_BUNDLED_SCHEMAS:%=$(srcdir)/%)
	$(MKDIR_P) $(srcdir)/corpus/fuzz_roundtrip
	$(builddir)/fuzz/packetgen -v 2 -o $(srcdir)/corpus/fuzz_roundtrip \
		$(FUZZ_BUNDLED_SCHEMAS:%=$(srcdir)/%)
	$(builddir)/fuzz/packetgen -r -o $(srcdir)/corpus/fuzz_roundtrip \
		$(FUZZ_BUNDLED_SCHEMAS:%=$(srcdir)/%)

## -- libFuzzer builds (configure --enable-fuzzing) -------------------------

# -no-install: real executables (no libtool wrapper scripts), which
# libFuzzer's fork mode and AFL++ need.
FUZZ_LINK_FLAGS = $(FUZZ_ENGINE_LDFLAGS) -no-install

if ENABLE_FUZZING
FUZZ_BINARIES = fuzz/fuzz_reader fuzz/fuzz_schema \
	fuzz/fuzz_packet fuzz/fuzz_packet_crc fuzz/fuzz_packet_seal fuzz/fuzz_packet_nocrc \
	fuzz/fuzz_packet_schema fuzz/fuzz_roundtrip fuzz/fuzz_capture fuzz/fuzz_encode \
	fuzz/fuzz_planted fuzz/fuzz_planted_crc fuzz/fuzz_planted_seal
noinst_PROGRAMS += $(FUZZ_BINARIES)

fuzz_fuzz_reader_SOURCES = fuzz/fuzz_reader.c
fuzz_fuzz_reader_LDFLAGS = $(FUZZ_LINK_FLAGS)
fuzz_fuzz_reader_LDADD = lib/libbitsift.la

fuzz_fuzz_schema_SOURCES = fuzz/fuzz_schema.c
fuzz_fuzz_schema_LDFLAGS = $(FUZZ_LINK_FLAGS)
fuzz_fuzz_schema_LDADD = lib/libbitsift.la

FUZZ_PACKET_CPPFLAGS = $(AM_CPPFLAGS) -I$(srcdir)/fuzz
fuzz_fuzz_packet_SOURCES = fuzz/fuzz_packet.c $(FUZZ_PACKET_SOURCES)
nodist_fuzz_fuzz_packet_SOURCES = fuzz/bundled_schemas.c
fuzz_fuzz_packet_CPPFLAGS = $(FUZZ_PACKET_CPPFLAGS)
fuzz_fuzz_packet_LDFLAGS = $(FUZZ_LINK_FLAGS)
fuzz_fuzz_packet_LDADD = lib/libbitsift.la
fuzz_fuzz_packet_crc_SOURCES = fuzz/fuzz_packet.c $(FUZZ_PACKET_SOURCES) fuzz/crc_mutator.c \
	fuzz/crc_crossover.c
nodist_fuzz_fuzz_packet_crc_SOURCES = fuzz/bundled_schemas.c
fuzz_fuzz_packet_crc_CPPFLAGS = $(FUZZ_PACKET_CPPFLAGS)
fuzz_fuzz_packet_crc_LDFLAGS = $(FUZZ_LINK_FLAGS)
fuzz_fuzz_packet_crc_LDADD = lib/libbitsift.la
fuzz_fuzz_packet_seal_SOURCES = fuzz/fuzz_packet.c $(FUZZ_PACKET_SOURCES)
nodist_fuzz_fuzz_packet_seal_SOURCES = fuzz/bundled_schemas.c
fuzz_fuzz_packet_seal_CPPFLAGS = $(FUZZ_PACKET_CPPFLAGS) -DBITSIFT_FUZZ_SEAL
fuzz_fuzz_packet_seal_LDFLAGS = $(FUZZ_LINK_FLAGS)
fuzz_fuzz_packet_seal_LDADD = lib/libbitsift.la
fuzz_fuzz_packet_nocrc_SOURCES = fuzz/fuzz_packet.c $(FUZZ_PACKET_SOURCES)
nodist_fuzz_fuzz_packet_nocrc_SOURCES = fuzz/bundled_schemas.c
fuzz_fuzz_packet_nocrc_CPPFLAGS = $(FUZZ_PACKET_CPPFLAGS) -DBITSIFT_FUZZ_NO_CRC
fuzz_fuzz_packet_nocrc_LDFLAGS = $(FUZZ_LINK_FLAGS)
fuzz_fuzz_packet_nocrc_LDADD = lib/libbitsift.la
fuzz_fuzz_packet_schema_SOURCES = fuzz/fuzz_packet.c $(FUZZ_PACKET_SOURCES) \
	fuzz/schema_mutator.c fuzz/schema_mutate.c fuzz/crc_crossover.c
nodist_fuzz_fuzz_packet_schema_SOURCES = fuzz/bundled_schemas.c
fuzz_fuzz_packet_schema_CPPFLAGS = $(FUZZ_PACKET_CPPFLAGS)
fuzz_fuzz_packet_schema_LDFLAGS = $(FUZZ_LINK_FLAGS)
fuzz_fuzz_packet_schema_LDADD = lib/libbitsift.la

fuzz_fuzz_roundtrip_SOURCES = fuzz/fuzz_roundtrip.c fuzz/schema_mutate.c $(FUZZ_PACKET_SOURCES)
nodist_fuzz_fuzz_roundtrip_SOURCES = fuzz/bundled_schemas.c
fuzz_fuzz_roundtrip_CPPFLAGS = $(FUZZ_PACKET_CPPFLAGS)
fuzz_fuzz_roundtrip_LDFLAGS = $(FUZZ_LINK_FLAGS)
fuzz_fuzz_roundtrip_LDADD = lib/libbitsift.la

fuzz_fuzz_capture_SOURCES = $(FUZZ_CAPTURE_SOURCES)
nodist_fuzz_fuzz_capture_SOURCES = fuzz/bundled_schemas.c
fuzz_fuzz_capture_CPPFLAGS = $(FUZZ_CAPTURE_CPPFLAGS)
fuzz_fuzz_capture_CFLAGS = $(AM_CFLAGS) $(PCAP_CFLAGS)
fuzz_fuzz_capture_LDFLAGS = $(FUZZ_LINK_FLAGS)
fuzz_fuzz_capture_LDADD = lib/libbitsift.la $(PCAP_LIBS)

fuzz_fuzz_encode_SOURCES = $(FUZZ_ENCODE_SOURCES)
nodist_fuzz_fuzz_encode_SOURCES = fuzz/bundled_schemas.c
fuzz_fuzz_encode_CPPFLAGS = $(FUZZ_ENCODE_CPPFLAGS)
fuzz_fuzz_encode_CFLAGS = $(AM_CFLAGS) $(PCAP_CFLAGS) $(JANSSON_CFLAGS)
fuzz_fuzz_encode_LDFLAGS = $(FUZZ_LINK_FLAGS)
fuzz_fuzz_encode_LDADD = lib/libbitsift.la $(PCAP_LIBS) $(JANSSON_LIBS) -lm

fuzz_fuzz_planted_SOURCES = fuzz/fuzz_planted.c
fuzz_fuzz_planted_LDFLAGS = $(FUZZ_LINK_FLAGS)
fuzz_fuzz_planted_LDADD = lib/libbitsift.la
fuzz_fuzz_planted_crc_SOURCES = fuzz/fuzz_planted.c fuzz/crc_mutator.c fuzz/crc_crossover.c
fuzz_fuzz_planted_crc_LDFLAGS = $(FUZZ_LINK_FLAGS)
fuzz_fuzz_planted_crc_LDADD = lib/libbitsift.la
fuzz_fuzz_planted_seal_SOURCES = fuzz/fuzz_planted.c
fuzz_fuzz_planted_seal_CPPFLAGS = $(AM_CPPFLAGS) -DBITSIFT_FUZZ_SEAL
fuzz_fuzz_planted_seal_LDFLAGS = $(FUZZ_LINK_FLAGS)
fuzz_fuzz_planted_seal_LDADD = lib/libbitsift.la

fuzz: $(FUZZ_BINARIES) fuzz/reseal$(EXEEXT)

# Environment of the scripts that run the fuzzers.
FUZZ_RUN_ENV = srcdir='$(srcdir)' builddir='$(builddir)' \
	FUZZ_TARGETS='$(FUZZ_TARGETS)' FUZZ_VARIANTS='$(FUZZ_VARIANTS)'

fuzz-smoke: fuzz
	$(FUZZ_RUN_ENV) $(SHELL) $(srcdir)/fuzz/smoke.sh
	$(FUZZ_RUN_ENV) $(SHELL) $(srcdir)/fuzz/planted.test
else
fuzz fuzz-smoke:
	@echo "$@: the libFuzzer harnesses need ./configure --enable-fuzzing (clang)" >&2; exit 1
endif

## -- AFL++ and coverage builds: compiled by their scripts ------------------

# What the scripts need to compile the library and harnesses themselves.
FUZZ_BUILD_ENV = srcdir='$(srcdir)' builddir='$(builddir)' top_builddir='$(top_builddir)' \
	FUZZ_TARGETS='$(FUZZ_TARGETS)' FUZZ_CRC_TARGETS='$(FUZZ_CRC_TARGETS)' \
	LIB_SOURCES='$(lib_libbitsift_la_SOURCES)' \
	LIB_CFLAGS='$(BITSIFT_CFLAGS) $(LIBDEFLATE_CFLAGS) $(ISAL_CFLAGS) $(PCAP_CFLAGS) $(JANSSON_CFLAGS)' \
	LIB_LIBS='$(LIBDEFLATE_LIBS) $(ISAL_LIBS) $(PCAP_LIBS) $(JANSSON_LIBS) -lm' \
	FUZZ_AFL_CC='$(AFL_CC)' FUZZ_AFL_FUZZ='$(AFL_FUZZ)' CC='$(CC)' LLVM_COV='$(LLVM_COV)' GCOV='$(GCOV)'

fuzz-afl:
	$(FUZZ_BUILD_ENV) $(SHELL) $(srcdir)/fuzz/afl.sh

coverage:
	$(FUZZ_BUILD_ENV) $(SHELL) $(srcdir)/fuzz/coverage.sh

clean-local: clean-fuzz
clean-fuzz:
	-rm -rf $(builddir)/fuzz/smoke-work $(builddir)/fuzz/afl-work $(builddir)/fuzz/coverage-work

.PHONY: fuzz fuzz-smoke fuzz-afl fuzz-seeds coverage clean-fuzz

## -- The reseal tool -------------------------------------------------------

noinst_PROGRAMS += fuzz/reseal
fuzz_reseal_SOURCES = fuzz/reseal.c
fuzz_reseal_LDADD = lib/libbitsift.la

## -- Unit test of the AFL++ post-processor ----------------------------------

check_PROGRAMS += fuzz/test_afl_crc_mutator
TESTS += fuzz/test_afl_crc_mutator
fuzz_test_afl_crc_mutator_SOURCES = fuzz/test_afl_crc_mutator.c fuzz/afl_crc_mutator.c \
	fuzz/fuzz_planted.c
fuzz_test_afl_crc_mutator_LDADD = lib/libbitsift.la

## -- The packet seed generator (any schema) --------------------------------

noinst_PROGRAMS += fuzz/packetgen
fuzz_packetgen_SOURCES = fuzz/packetgen.c
fuzz_packetgen_LDADD = lib/libbitsift.la

## -- For fuzz/oss-fuzz-build.sh ---------------------------------------------

fuzz-print-build:
	@echo "LIB_SOURCES='$(lib_libbitsift_la_SOURCES)'"
	@echo "FUZZ_TARGETS='$(FUZZ_TARGETS)'"
	@echo "FUZZ_VARIANTS='$(FUZZ_VARIANTS)'"
.PHONY: fuzz-print-build
