# SPDX-License-Identifier: BSD-3-Clause
# lib/tools/local.mk -- libbitsift-tools, the second installed library: what
# a tool built on libbitsift wants and needs more than libbitsift for. Today
# the NDJSON record reader (<bitsift/records.h>, libbitsift-tools(3),
# pkg-config bitsift-tools), which needs jansson. libbitsift stays free of
# dependencies: it goes into a game's build.
lib_LTLIBRARIES += lib/libbitsift-tools.la
bitsiftinclude_HEADERS += lib/bitsift/records.h
noinst_HEADERS += lib/tools/records_internal.h lib/tools/float_text.h
pkgconfig_DATA += lib/bitsift-tools.pc
EXTRA_DIST += lib/bitsift-tools.pc.in

BITSIFT_TOOLS_SOURCES = lib/tools/records.c lib/tools/record_lines.c lib/tools/json_budget.c \
	lib/tools/json_numbers.c lib/tools/float_text.c lib/tools/record_tree.c \
	lib/tools/record_time.c
lib_libbitsift_tools_la_SOURCES = $(BITSIFT_TOOLS_SOURCES)
lib_libbitsift_tools_la_CFLAGS = $(AM_CFLAGS) $(JANSSON_CFLAGS)
lib_libbitsift_tools_la_LIBADD = lib/libbitsift.la $(JANSSON_LIBS)
lib_libbitsift_tools_la_LDFLAGS = -version-info $(BITSIFT_LT_VERSION) -no-undefined \
	-export-symbols-regex '^bitsift_record_'
