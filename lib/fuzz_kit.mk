# SPDX-License-Identifier: BSD-3-Clause
# lib/fuzz_kit.mk -- libbitsift-fuzz, the installed fuzzing kit
# (bitsift/fuzz.h, libbitsift-fuzz(3), pkg-config bitsift-fuzz): the
# CRC-resealing and schema-aware mutators, their libFuzzer glue, the
# AFL++ custom mutator, and libbitsift's sources for a harness that wants
# the library instrumented with its own flags (pkg-config bitsift-fuzz-src).
lib_LTLIBRARIES += lib/libbitsift-fuzz.la
bitsiftinclude_HEADERS += lib/bitsift/fuzz.h
noinst_HEADERS += lib/fuzz_input.h
pkgconfig_DATA += lib/bitsift-fuzz.pc lib/bitsift-fuzz-src.pc
EXTRA_DIST += lib/bitsift-fuzz.pc.in lib/bitsift-fuzz-src.pc.in lib/fuzz_src_config.h

BITSIFT_FUZZ_KIT_SOURCES = lib/fuzz_mutator.c lib/fuzz_tree_mutate.c
lib_libbitsift_fuzz_la_SOURCES = $(BITSIFT_FUZZ_KIT_SOURCES)
lib_libbitsift_fuzz_la_LIBADD = lib/libbitsift.la
lib_libbitsift_fuzz_la_LDFLAGS = -version-info $(BITSIFT_LT_VERSION) -no-undefined \
	-export-symbols-regex '^bitsift_fuzz_'

# AFL_CUSTOM_MUTATOR_LIBRARY=$(pkglibdir)/bitsift-afl-mutator.so
pkglib_LTLIBRARIES = lib/bitsift-afl-mutator.la
lib_bitsift_afl_mutator_la_SOURCES = lib/fuzz_afl.c
lib_bitsift_afl_mutator_la_LIBADD = lib/libbitsift-fuzz.la
lib_bitsift_afl_mutator_la_LDFLAGS = -module -avoid-version -shared -no-undefined \
	-export-symbols-regex '^afl_custom_'

# The sources, for `cc $(pkg-config --cflags bitsift-fuzz-src) harness.c
# $(pkg-config --variable=sources bitsift-fuzz-src)`: installed flat, with
# a config.h that uses the portable CRC32 (no optional dependency).
fuzzsrcdir = $(pkgdatadir)/src
fuzzsrc_DATA = $(lib_libbitsift_la_SOURCES) $(nodist_lib_libbitsift_la_SOURCES) $(BITSIFT_FUZZ_KIT_SOURCES) \
	$(LIBBITSIFT_INTERNALS) lib/fuzz_input.h
install-data-hook: install-fuzz-src-config
install-fuzz-src-config:
	$(INSTALL_DATA) $(srcdir)/lib/fuzz_src_config.h $(DESTDIR)$(fuzzsrcdir)/config.h
uninstall-hook: uninstall-fuzz-src-config
uninstall-fuzz-src-config:
	-rm -f $(DESTDIR)$(fuzzsrcdir)/config.h
.PHONY: install-fuzz-src-config uninstall-fuzz-src-config

# Its .pc names every source; made here, where the list is known (the
# brackets keep config.status from substituting the placeholders here).
lib/bitsift-fuzz-src.pc: $(srcdir)/lib/bitsift-fuzz-src.pc.in Makefile
	$(AM_V_GEN)$(MKDIR_P) lib && sources= && \
	for f in $(fuzzsrc_DATA); do case $$f in *.c) \
		sources="$$sources \$${srcdir}/$${f##*/}" ;; esac; done && \
	sed -e 's|@[p]refix@|$(prefix)|' -e 's|@[d]atarootdir@|$(datarootdir)|' \
		-e 's|@[d]atadir@|$(datadir)|' -e 's|@[i]ncludedir@|$(includedir)|' \
		-e 's|@[P]ACKAGE@|$(PACKAGE)|' -e 's|@[P]ACKAGE_VERSION@|$(PACKAGE_VERSION)|' \
		-e "s|@[B]ITSIFT_FUZZ_SRC_FILES@|$${sources# }|" \
		$(srcdir)/lib/bitsift-fuzz-src.pc.in >$@.tmp && mv $@.tmp $@
CLEANFILES += lib/bitsift-fuzz-src.pc

# The kit's worked example (built by fuzz/tests/example.test in `make fuzz-smoke`).
EXTRA_DIST += examples/fuzz-game/Makefile examples/fuzz-game/game.bss \
	examples/fuzz-game/game_reader.c examples/fuzz-game/game_reader.h \
	examples/fuzz-game/fuzz_game.c
