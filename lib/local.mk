# SPDX-License-Identifier: BSD-3-Clause
# lib/local.mk -- libbitsift: the hardened bit reader/writer, CRC32, packet
# framing, and the schema compiler, decoder, validator and encoder.
lib_LTLIBRARIES += lib/libbitsift.la
include_HEADERS += lib/bitsift.h
# What a user includes: <bitsift/bits.h> (the bit layer) and
# <bitsift/schema.h> (the schema API), or <bitsift.h> for both; the
# analysis headers are experimental (BITSIFT_EXPERIMENTAL), outside the
# umbrella: <bitsift/analysis.h> includes them all.
bitsiftincludedir = $(includedir)/bitsift
bitsiftinclude_HEADERS = lib/bitsift/bits.h lib/bitsift/schema.h lib/bitsift/gen.h \
	lib/bitsift/analysis.h lib/bitsift/stats.h lib/bitsift/filter.h lib/bitsift/diagnose.h \
	lib/bitsift/error_tally.h
LIBBITSIFT_INTERNALS = lib/bitsift_internal.h lib/schema_internal.h lib/schema_lexer.h \
	lib/schema_emit.h lib/relative_tiers.h lib/field_types.h lib/field_read.h \
	lib/schema_passes.h lib/validate_program.h lib/bitsift_testing.h \
	lib/analysis/drift_candidates.h lib/analysis/diagnose_views.h lib/analysis/diagnose_testing.h
noinst_HEADERS += $(LIBBITSIFT_INTERNALS)
pkgconfig_DATA += lib/libbitsift.pc
EXTRA_DIST += lib/libbitsift.pc.in

lib_libbitsift_la_SOURCES = \
	lib/version.c \
	lib/errors.c \
	lib/hash_name.c \
	lib/crc32.c \
	lib/utf8.c \
	lib/bit_reader.c \
	lib/bit_writer.c \
	lib/compressed_float.c \
	lib/relative_ints.c \
	lib/smallest_three.c \
	lib/sparse.c \
	lib/failure_path.c \
	lib/packet.c \
	lib/schema_lexer.c \
	lib/schema_parser.c \
	lib/schema_emit.c \
	lib/field_types.c \
	lib/schema_size.c \
	lib/schema_passes.c \
	lib/schema_compile.c \
	lib/schema_access.c \
	lib/schema_runtime.c \
	lib/schema_decode.c \
	lib/schema_validate_build.c \
	lib/schema_validate.c \
	lib/schema_validate_run.h \
	lib/schema_testing.c \
	lib/schema_detect.c \
	lib/schema_tree.c \
	lib/schema_encode.c \
	lib/schema_print.c \
	lib/schema_random.c \
	lib/gen_wireshark.c \
	lib/gen_wireshark_names.h \
	lib/gen_c_names.c \
	lib/gen_c_comments.c \
	lib/gen_c_types.c \
	lib/gen_c_body.c \
	lib/gen_c_serialize.c \
	lib/gen_c_visit.c \
	lib/gen_c.c \
	lib/gen_fuzz.c \
	lib/gen_c_internal.h \
	lib/gen_c_names.h \
	lib/analysis/stats_internal.h \
	lib/analysis/stats.c \
	lib/analysis/stats_failures.c \
	lib/analysis/stats_bandwidth.c \
	lib/analysis/filter_internal.h \
	lib/analysis/filter_parse.c \
	lib/analysis/filter_bind.c \
	lib/analysis/filter.c \
	lib/analysis/drift_candidates.c \
	lib/analysis/diagnose_views.c \
	lib/analysis/diagnose.c \
	lib/analysis/diagnose_testing.c
# The Wireshark generator's Lua run time, as a C array of lines.
nodist_lib_libbitsift_la_SOURCES = lib/gen_wireshark_lua.h
BUILT_SOURCES = lib/gen_wireshark_lua.h
CLEANFILES += lib/gen_wireshark_lua.h
EXTRA_DIST += lib/gen_wireshark.lua
lib/gen_wireshark_lua.h: lib/gen_wireshark.lua
	$(AM_V_GEN)$(MKDIR_P) lib && \
	sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/"/' -e 's/$$/\\n",/' \
		$(srcdir)/lib/gen_wireshark.lua >$@.tmp && \
	{ echo '/* Made from lib/gen_wireshark.lua by lib/local.mk. */'; \
	  echo 'static const char *const wireshark_runtime[] = {'; cat $@.tmp; echo '};'; } >$@ && \
	rm -f $@.tmp
lib_libbitsift_la_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_builddir)/lib
lib_libbitsift_la_CFLAGS = $(AM_CFLAGS) $(LIBDEFLATE_CFLAGS)
lib_libbitsift_la_LIBADD = $(LIBDEFLATE_LIBS) -lm
# Only bitsift_* symbols leave the library.
lib_libbitsift_la_LDFLAGS = -version-info $(BITSIFT_LT_VERSION) -no-undefined \
	-export-symbols-regex '^bitsift_'
