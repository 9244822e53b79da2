# SPDX-License-Identifier: BSD-3-Clause
# src/local.mk -- the bitsift command. io/capture.c is the only file that
# includes <pcap.h>; encode reads its records with libbitsift-tools.
bin_PROGRAMS += src/bitsift
# The top holds the command line (main, cli), one orchestration file per
# subcommand (cmd_*.c) and the verdict they share; io/ reads the inputs
# and writes the output files, print/ formats what is shown. print/ uses
# io/ (a packet report names its input), never the other way round.
src_bitsift_SOURCES = \
	src/main.c src/cli.c src/cli.h src/verdict.c src/verdict.h \
	src/cmd_decode.c src/cmd_dump.c src/cmd_validate.c src/cmd_encode.c \
	src/cmd_stats.c src/cmd_schema.c src/cmd_seeds.c src/cmd_reseal.c \
	src/cmd_gen.c src/cmd_diagnose.c \
	src/io/input.c src/io/input.h src/io/frame_select.c src/io/frame_select.h \
	src/io/capture.c src/io/capture.h src/io/classic_pcap.c src/io/classic_pcap.h \
	src/io/file_window.c src/io/file_window.h src/io/decap.c src/io/decap.h \
	src/io/byte_cursor.h src/io/encap.c src/io/encap.h \
	src/io/output_file.c src/io/output_file.h \
	src/print/out.c src/print/out.h src/print/float_format.c src/print/float_format.h \
	src/print/fields.c src/print/fields.h src/print/packet_report.c src/print/packet_report.h \
	src/print/junit.c src/print/junit.h src/print/error_tally.c src/print/error_tally.h \
	src/print/advisor.c src/print/advisor.h
# The bundled example schema: installed in $(pkgdatadir); an uninstalled
# build finds it in the source tree, tests through BITSIFT_SCHEMA_DIR.
src_bitsift_CPPFLAGS = $(AM_CPPFLAGS) -I$(srcdir)/src \
	-DBITSIFT_PKGDATADIR='"$(pkgdatadir)"' \
	-DBITSIFT_SOURCE_EXAMPLES='"$(abs_top_srcdir)/examples"'
src_bitsift_CFLAGS = $(AM_CFLAGS) $(PCAP_CFLAGS)
src_bitsift_LDADD = lib/libbitsift-tools.la lib/libbitsift-fuzz.la lib/libbitsift.la $(PCAP_LIBS) -lm

# The sample capture of the README and bitsift(1), made by
# examples/make-sample.sh from examples/sample.ndjson with `bitsift encode`.
dist_pkgdata_DATA += examples/sample.pcap
EXTRA_DIST += examples/sample.ndjson examples/make-sample.sh
