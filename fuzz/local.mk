# SPDX-License-Identifier: BSD-3-Clause
# fuzz/local.mk -- fuzz harnesses for libFuzzer and AFL++, their seed
# corpus, and the make targets that run them (fuzz/README.md tells how).
#
#   make check        replays corpus/<target>/ and fuzz/regressions/<target>/
#                     through every harness, with the normal compiler
#   make fuzz         builds the libFuzzer harnesses (configure --enable-fuzzing)
#   make fuzz-smoke   short deterministic libFuzzer runs + the planted-bug test
#                     + the kit's worked example (examples/fuzz-game/) built
#                     against a fresh prefix
#   make fuzz-bench   exec/s of the packet, round-trip, encode and schema
#                     harnesses (median of rounds)
#   make fuzz-afl     short AFL++ runs (persistent mode, cmplog, CRC post-processor)
#   make coverage     replays the corpus with coverage and prints lib/ line and
#                     branch coverage
#   make fuzz-seeds   regenerates the seed corpus with the encoder

# The harnesses, their sources and libraries: fuzz/targets.list, from which
# fuzz/targets.mk (replay and libFuzzer programs, FUZZ_TARGETS...) is
# generated and which the build scripts read (fuzz/scripts/targets.sh).
include $(srcdir)/fuzz/targets.mk
FUZZ_CPPFLAGS = $(AM_CPPFLAGS) -I$(srcdir)/fuzz/support -I$(srcdir)/src

$(srcdir)/fuzz/targets.mk: $(srcdir)/fuzz/targets.list $(srcdir)/fuzz/scripts/targets.sh \
		$(srcdir)/fuzz/scripts/targets-mk.sh
	$(AM_V_GEN)$(SHELL) $(srcdir)/fuzz/scripts/targets-mk.sh $(srcdir) >$@.tmp && \
	if cmp -s $@.tmp $@; then rm -f $@.tmp; touch $@; else mv $@.tmp $@; fi
TESTS += fuzz/tests/check-targets.sh
# Every harness silent over its corpus (its replay program, built above).
TESTS += fuzz/tests/check-silent.sh

noinst_HEADERS += fuzz/support/reseal.h fuzz/support/packet_schemas.h fuzz/support/reader_ops.h \
	fuzz/support/validate_check.h fuzz/support/frame_log.h fuzz/support/check_choice.h

# The example schemas the packet harnesses carry (packet_schemas.h).
FUZZ_BUNDLED_SCHEMAS = examples/shooter.bss examples/article.bss examples/scenes.bss \
	examples/robocat.bss
fuzz/support/bundled_schemas.c: $(srcdir)/fuzz/scripts/embed-schemas.sh $(FUZZ_BUNDLED_SCHEMAS:%=$(srcdir)/%)
	$(AM_V_GEN)$(MKDIR_P) fuzz/support && \
	$(SHELL) $(srcdir)/fuzz/scripts/embed-schemas.sh $(srcdir) $(FUZZ_BUNDLED_SCHEMAS) >$@.tmp && \
	mv $@.tmp $@
CLEANFILES += fuzz/support/bundled_schemas.c

FUZZ_DIST_FILES = fuzz/targets.list fuzz/seed-sources.list fuzz/coverage-floor \
	fuzz/scripts/targets.sh fuzz/scripts/targets-mk.sh fuzz/scripts/embed-schemas.sh \
	fuzz/scripts/smoke.sh fuzz/scripts/bench.sh fuzz/scripts/afl.sh fuzz/scripts/coverage.sh \
	fuzz/scripts/schema-error-seeds.sh fuzz/scripts/oss-fuzz-build.sh fuzz/scripts/oss-fuzz-test.sh \
	fuzz/support/afl_driver.c fuzz/support/afl_crc_mutator.c \
	fuzz/tests/check-targets.sh fuzz/tests/check-silent.sh fuzz/tests/planted.test \
	fuzz/tests/example.test fuzz/tests/planted-disagreement.test
EXTRA_DIST += $(FUZZ_DIST_FILES) fuzz/README.md fuzz/regressions
EXTRA_DIST += fuzz/tests/gen-fuzz.test
# ClusterFuzzLite: configuration only (fuzz/README.md, "Long campaigns").
EXTRA_DIST += .clusterfuzzlite/Dockerfile .clusterfuzzlite/build.sh .clusterfuzzlite/project.yaml \
	.github/workflows/cflite.yml

## -- Seed generator --------------------------------------------------------

noinst_PROGRAMS += fuzz/seedgen
fuzz_seedgen_SOURCES = fuzz/support/seedgen.c
fuzz_seedgen_LDADD = lib/libbitsift.la

# fuzz_schema's valid seeds, the example and test schemas, are not copied
# into corpus/: fuzz/seed-sources.list names them where they are.
fuzz-seeds: fuzz/seedgen$(EXEEXT) fuzz/randomgen$(EXEEXT) src/bitsift$(EXEEXT)
	$(builddir)/fuzz/seedgen $(srcdir)/corpus
	$(SHELL) $(srcdir)/fuzz/scripts/schema-error-seeds.sh $(srcdir)/corpus/fuzz_schema
	$(MKDIR_P) $(srcdir)/corpus/fuzz_packet $(srcdir)/corpus/fuzz_roundtrip
	for f in $(FUZZ_BUNDLED_SCHEMAS); do \
		$(builddir)/src/bitsift seeds -q -s $(srcdir)/$$f -o $(srcdir)/corpus/fuzz_packet && \
		$(builddir)/src/bitsift seeds -q -s $(srcdir)/$$f -o $(srcdir)/corpus/fuzz_roundtrip || \
		exit 1; \
	done
	$(builddir)/fuzz/randomgen -o $(srcdir)/corpus/fuzz_roundtrip \
		$(FUZZ_BUNDLED_SCHEMAS:%=$(srcdir)/%)

## -- libFuzzer builds (configure --enable-fuzzing) -------------------------

# -no-install: real executables (no libtool wrapper scripts), which
# libFuzzer's fork mode and AFL++ need. -static: libbitsift's static
# archive (configure builds it with --enable-fuzzing), not the shared
# library: each sanitizer callback of the library is a direct call instead
# of a PLT stub, and only the library objects the harness uses are linked,
# so libFuzzer's scan of the coverage counters after each run is shorter.
FUZZ_LINK_FLAGS = $(FUZZ_ENGINE_LDFLAGS) -no-install -static

# The sources built without comparison tracing (-fsanitize-coverage's
# trace-cmp) in the libFuzzer builds of the harnesses: the library's op
# interpreter and visitor, validation program, tree builder, encoder and
# the interpreter's testing entry, whose comparisons run a dozen times a
# field on every decode and were most of an execution; the bit writer,
# which compares the values it is given with their widths; the random
# tree generator, which compares the output of its own PRNG; and the checks of
# the packet and round-trip harnesses, which compare two results that are
# equal unless a finding aborts; and libbitsift-tools' record reader
# (FUZZ_NO_TRACE_CMP_TOOLS) with fuzz_encode's checks, whose comparisons run on
# every byte of a record (numbers protected, lines counted) and compare
# text characters (libFuzzer keeps one-byte comparisons only for
# -use_value_profile) or sizes and numbers parsed from decimal text (a
# copy of one into the text never spells it), while the record's keys and
# names are compared by strcmp, whose hook stays. Edge coverage stays; what the fuzzer
# loses is the comparison feedback (libFuzzer's table of recent
# comparisons, -use_value_profile) on what these compare (fuzz/README.md,
# "Speed"). The scripts that build harnesses themselves take the list
# (FUZZ_BUILD_ENV); here, their objects.
FUZZ_NO_TRACE_CMP = -fno-sanitize-coverage=trace-cmp
FUZZ_NO_TRACE_CMP_LIB = lib/schema_decode.c lib/schema_validate.c lib/schema_tree.c \
	lib/schema_encode.c lib/schema_testing.c lib/schema_random.c lib/bit_writer.c
FUZZ_NO_TRACE_CMP_TOOLS = lib/tools/records.c lib/tools/record_lines.c lib/tools/json_budget.c \
	lib/tools/json_numbers.c lib/tools/record_tree.c
FUZZ_NO_TRACE_CMP_FILES = $(FUZZ_NO_TRACE_CMP_LIB) fuzz/fuzz_packet.c fuzz/fuzz_roundtrip.c \
	$(FUZZ_NO_TRACE_CMP_TOOLS) fuzz/fuzz_encode.c
FUZZ_NO_TRACE_CMP_OBJECTS = $(FUZZ_NO_TRACE_CMP_LIB:lib/%.c=lib/libbitsift_la-%.lo) \
	fuzz/fuzz_packet-fuzz_packet.$(OBJEXT) fuzz/fuzz_packet_crc-fuzz_packet.$(OBJEXT) \
	fuzz/fuzz_packet_seal-fuzz_packet.$(OBJEXT) fuzz/fuzz_packet_nocrc-fuzz_packet.$(OBJEXT) \
	fuzz/fuzz_packet_schema-fuzz_packet.$(OBJEXT) fuzz/fuzz_roundtrip-fuzz_roundtrip.$(OBJEXT) \
	$(FUZZ_NO_TRACE_CMP_TOOLS:lib/tools/%.c=lib/tools/fuzz_fuzz_encode-%.$(OBJEXT)) \
	fuzz/fuzz_encode-fuzz_encode.$(OBJEXT)

# Environment of the scripts that run the fuzzers.
FUZZ_RUN_ENV = srcdir='$(srcdir)' builddir='$(builddir)' \
	FUZZ_TARGETS='$(FUZZ_TARGETS)' FUZZ_VARIANTS='$(FUZZ_VARIANTS)'

# Where a build without --enable-fuzzing builds the libFuzzer harnesses.
FUZZ_BUILD_DIR = build-fuzz

if ENABLE_FUZZING
noinst_PROGRAMS += $(FUZZ_BINARIES)

# The library's decode and encode loops without comparison tracing
# (FUZZ_NO_TRACE_CMP; fuzz/README.md, "Speed"): edge coverage stays.
$(FUZZ_NO_TRACE_CMP_OBJECTS): CFLAGS += $(FUZZ_NO_TRACE_CMP)

# The generated headers first: BUILT_SOURCES covers only all, check and
# install, and this target builds the library on its own.
fuzz: $(BUILT_SOURCES)
	$(MAKE) $(AM_MAKEFLAGS) $(FUZZ_BINARIES) src/bitsift$(EXEEXT)

fuzz-smoke: fuzz
	$(FUZZ_RUN_ENV) $(SHELL) $(srcdir)/fuzz/scripts/smoke.sh
	$(FUZZ_RUN_ENV) $(SHELL) $(srcdir)/fuzz/tests/planted.test
	$(FUZZ_RUN_ENV) CC='$(CC)' MAKE='$(MAKE)' $(SHELL) $(srcdir)/fuzz/tests/example.test
	$(FUZZ_BUILD_ENV) FUZZ_VARIANTS='$(FUZZ_VARIANTS)' CFLAGS='$(CFLAGS)' \
		FUZZ_ENGINE_LDFLAGS='$(FUZZ_ENGINE_LDFLAGS)' \
		$(SHELL) $(srcdir)/fuzz/tests/planted-disagreement.test
	$(FUZZ_RUN_ENV) CC='$(CC)' CFLAGS='$(CFLAGS)' FUZZ_ENGINE_LDFLAGS='$(FUZZ_ENGINE_LDFLAGS)' $(SHELL) $(srcdir)/fuzz/tests/gen-fuzz.test

# Executions per second of the packet, round-trip, encode and schema
# harnesses (fuzz/scripts/bench.sh): a benchmark, reported in docs/performance.md,
# not a test.
fuzz-bench: fuzz
	$(FUZZ_RUN_ENV) $(SHELL) $(srcdir)/fuzz/scripts/bench.sh
else
# A build configured without --enable-fuzzing (the quick start's) cannot
# also hold the clang build: its objects would be found through VPATH and
# configure refuses a second build of a configured source tree. So make
# fuzz and fuzz-smoke here build in $(FUZZ_BUILD_DIR)/, configured with
# --enable-fuzzing from a copy of the distribution tree in
# $(FUZZ_BUILD_DIR)/source/ (refreshed on every call, timestamps kept, so
# that the build there stays incremental).
FUZZ_CONFIGURE_FLAGS = --enable-fuzzing

fuzz fuzz-smoke fuzz-bench:
	$(AM_V_at)$(MKDIR_P) $(FUZZ_BUILD_DIR)
	$(AM_V_at)$(MAKE) $(AM_MAKEFLAGS) distdir distdir=$(FUZZ_BUILD_DIR)/source >/dev/null
	$(AM_V_at)cd $(FUZZ_BUILD_DIR) && { test -f config.status || \
		./source/configure $(FUZZ_CONFIGURE_FLAGS); } && $(MAKE) $@
endif

distclean-local: distclean-fuzz
distclean-fuzz:
	-rm -rf $(FUZZ_BUILD_DIR)

## -- AFL++, coverage and OSS-Fuzz builds: compiled by their scripts --------

# What the scripts need to compile the library and harnesses themselves.
FUZZ_BUILD_ENV = srcdir='$(srcdir)' builddir='$(builddir)' top_builddir='$(top_builddir)' \
	FUZZ_TARGETS='$(FUZZ_TARGETS)' FUZZ_CRC_TARGETS='$(FUZZ_CRC_TARGETS)' \
	LIB_SOURCES='$(lib_libbitsift_la_SOURCES) $(BITSIFT_FUZZ_KIT_SOURCES)' \
	LIB_CFLAGS='$(BITSIFT_CFLAGS) $(LIBDEFLATE_CFLAGS) $(ISAL_CFLAGS)' \
	LIB_LIBS='$(LIBDEFLATE_LIBS) $(ISAL_LIBS) -lm' $(FUZZ_LIBRARY_ENV) \
	FUZZ_AFL_CC='$(AFL_CC)' FUZZ_AFL_FUZZ='$(AFL_FUZZ)' CC='$(CC)' LLVM_COV='$(LLVM_COV)' GCOV='$(GCOV)' \
	FUZZ_NO_TRACE_CMP='$(FUZZ_NO_TRACE_CMP)' FUZZ_NO_TRACE_CMP_FILES='$(FUZZ_NO_TRACE_CMP_FILES)'

# The generated sources the scripts compile: BUILT_SOURCES covers only
# all, check and install.
fuzz-generated: fuzz/support/bundled_schemas.c $(BUILT_SOURCES)

fuzz-afl: fuzz-generated
	$(FUZZ_BUILD_ENV) $(SHELL) $(srcdir)/fuzz/scripts/afl.sh

coverage: fuzz-generated
	$(FUZZ_BUILD_ENV) $(SHELL) $(srcdir)/fuzz/scripts/coverage.sh

# fuzz/scripts/oss-fuzz-build.sh as OSS-Fuzz runs it, on a fresh copy of the tree
# (a git checkout's files, or the distribution's), then every target over
# its seed corpus zip.
FUZZ_OSS_WORK = fuzz/oss-fuzz-work
fuzz-oss-fuzz:
	rm -rf $(FUZZ_OSS_WORK) && $(MKDIR_P) $(FUZZ_OSS_WORK)/src/bitsift
	if git -C $(srcdir) rev-parse --git-dir >/dev/null 2>&1; then \
		(cd $(srcdir) && git ls-files -z -c -o --exclude-standard | tar --null -T - -cf -) | \
			tar -C $(FUZZ_OSS_WORK)/src/bitsift -xf -; \
	else \
		$(MAKE) $(AM_MAKEFLAGS) distdir distdir=$(FUZZ_OSS_WORK)/src/bitsift; \
	fi
	$(SHELL) $(srcdir)/fuzz/scripts/oss-fuzz-test.sh $(FUZZ_OSS_WORK)

clean-local: clean-fuzz
clean-fuzz:
	-rm -rf $(builddir)/fuzz/smoke-work $(builddir)/fuzz/afl-work $(builddir)/fuzz/coverage-work \
		$(FUZZ_OSS_WORK)

.PHONY: fuzz fuzz-smoke fuzz-bench fuzz-afl fuzz-seeds fuzz-oss-fuzz fuzz-generated coverage \
	clean-fuzz distclean-fuzz

## -- Unit test of the AFL++ post-processor ----------------------------------

check_PROGRAMS += fuzz/tests/test_afl_crc_mutator
TESTS += fuzz/tests/test_afl_crc_mutator
fuzz_tests_test_afl_crc_mutator_SOURCES = fuzz/tests/test_afl_crc_mutator.c \
	fuzz/support/afl_crc_mutator.c fuzz/fuzz_planted.c
fuzz_tests_test_afl_crc_mutator_CPPFLAGS = $(FUZZ_CPPFLAGS)
fuzz_tests_test_afl_crc_mutator_LDADD = lib/libbitsift-fuzz.la lib/libbitsift.la

## -- The random-tree seeds of fuzz_roundtrip (valid packets of every type
## come from `bitsift seeds`) ---------------------------------------------

noinst_PROGRAMS += fuzz/randomgen
fuzz_randomgen_SOURCES = fuzz/support/randomgen.c
fuzz_randomgen_LDADD = lib/libbitsift.la

## -- For fuzz/scripts/oss-fuzz-build.sh -------------------------------------

fuzz-print-build:
	@echo "LIB_SOURCES='$(lib_libbitsift_la_SOURCES) $(BITSIFT_FUZZ_KIT_SOURCES)'"
	@echo "LIB_CFLAGS='$(BITSIFT_CFLAGS) $(LIBDEFLATE_CFLAGS) $(ISAL_CFLAGS)'"
	@echo "LIB_LIBS='$(LIBDEFLATE_LIBS) $(ISAL_LIBS) -lm'"
	@echo "FUZZ_TARGETS='$(FUZZ_TARGETS)'"
	@echo "$(FUZZ_LIBRARY_ENV)"
.PHONY: fuzz-print-build
