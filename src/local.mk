# SPDX-License-Identifier: BSD-3-Clause
# src/local.mk -- the bitsift command. capture.c is the only file that
# includes <pcap.h>; encode reads its records with libbitsift-tools.
bin_PROGRAMS += src/bitsift
src_bitsift_SOURCES = \
	src/main.c src/cli.c src/cli.h \
	src/cmd_decode.c src/cmd_dump.c src/cmd_validate.c src/cmd_encode.c \
	src/cmd_stats.c src/cmd_schema.c src/cmd_seeds.c src/cmd_reseal.c src/cmd_gen.c src/error_tally.c src/error_tally.h \
	src/input.c src/input.h src/capture.c src/capture.h src/classic_pcap.c src/classic_pcap.h src/file_window.c src/file_window.h \
	src/decap.c src/decap.h src/byte_cursor.h src/encap.c src/encap.h \
	src/out.c src/out.h src/float_format.c src/float_format.h src/fields.c src/fields.h src/record.c src/record.h \
	src/junit.c src/junit.h src/output_file.c src/output_file.h \
	src/cmd_diagnose.c \
	src/frame_select.c src/frame_select.h src/verdict.c src/verdict.h \
	src/advisor.c src/advisor.h
# The bundled example schema: installed in $(pkgdatadir); an uninstalled
# build finds it in the source tree, tests through BITSIFT_SCHEMA_DIR.
src_bitsift_CPPFLAGS = $(AM_CPPFLAGS) \
	-DBITSIFT_PKGDATADIR='"$(pkgdatadir)"' \
	-DBITSIFT_SOURCE_EXAMPLES='"$(abs_top_srcdir)/examples"'
src_bitsift_CFLAGS = $(AM_CFLAGS) $(PCAP_CFLAGS)
src_bitsift_LDADD = lib/libbitsift-tools.la lib/libbitsift-fuzz.la lib/libbitsift.la $(PCAP_LIBS) -lm

# The sample capture of the README and bitsift(1), made by
# examples/make-sample.sh from examples/sample.ndjson with `bitsift encode`.
dist_pkgdata_DATA += examples/sample.pcap
EXTRA_DIST += examples/sample.ndjson examples/make-sample.sh
