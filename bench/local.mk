# SPDX-License-Identifier: BSD-3-Clause
# bench/local.mk -- `make bench`: builds the benchmark programs (never
# built by `make` or `make check`) and runs bench/run.sh, which prints one
# table of medians beside baselines measured in the same run.
#
#   make bench                 all sections, BENCH_REPS=9 repetitions
#   make bench BENCH_REPS=21   steadier medians on a busy machine
bench_programs = bench/bench_reader bench/bench_crc bench/bench_schema bench/bench_e2e \
	bench/pcap_loop bench/bench_diagnose bench/bench_gen_c
EXTRA_PROGRAMS += bench/bench_reader bench/bench_crc bench/bench_schema bench/bench_e2e \
	bench/pcap_loop bench/bench_diagnose bench/bench_gen_c
EXTRA_DIST += bench/run.sh bench/ab.py bench/wireshark.py
CLEANFILES += $(bench_programs) bench/shooter-1m.pcap bench/shooter-4m.pcap \
	bench/shooter-drift-1m.pcap bench/diagnose-1m.json
clean-local: clean-bench-many-types
clean-bench-many-types:
	rm -rf bench/many-types-256
.PHONY: clean-bench-many-types
noinst_HEADERS += bench/bench_util.h bench/bench_packets.h bench/bench_capture.h

# -no-install: real executables rather than libtool wrapper scripts, so
# that perf and valgrind see the program itself.
bench_link_flags = -no-install

bench_bench_reader_SOURCES = bench/bench_reader.c bench/bench_util.c
bench_bench_reader_LDADD = lib/libbitsift.la
bench_bench_reader_LDFLAGS = $(bench_link_flags)

bench_bench_crc_SOURCES = bench/bench_crc.c bench/bench_util.c
bench_bench_crc_LDADD = lib/libbitsift.la $(ZLIB_LIBS)
bench_bench_crc_LDFLAGS = $(bench_link_flags)
bench_bench_crc_CPPFLAGS = $(AM_CPPFLAGS) $(ZLIB_CFLAGS)
if HAVE_ZLIB
bench_bench_crc_CPPFLAGS += -DBENCH_HAVE_ZLIB
endif

bench_bench_schema_SOURCES = bench/bench_schema.c bench/bench_packets.c bench/bench_util.c
bench_bench_schema_LDADD = lib/libbitsift.la
bench_bench_schema_LDFLAGS = $(bench_link_flags)

bench_bench_e2e_SOURCES = bench/bench_e2e.c bench/bench_capture.c bench/bench_packets.c \
	bench/bench_util.c
bench_bench_e2e_CFLAGS = $(AM_CFLAGS) $(PCAP_CFLAGS)
bench_bench_e2e_LDADD = lib/libbitsift.la $(PCAP_LIBS)
bench_bench_e2e_LDFLAGS = $(bench_link_flags)

# diagnose on a capture with a planted drift (bench_diagnose.c).
bench_bench_diagnose_SOURCES = bench/bench_diagnose.c bench/bench_capture.c bench/bench_packets.c \
	bench/bench_util.c
bench_bench_diagnose_CFLAGS = $(AM_CFLAGS) $(PCAP_CFLAGS)
bench_bench_diagnose_LDADD = lib/libbitsift.la $(PCAP_LIBS)
bench_bench_diagnose_LDFLAGS = $(bench_link_flags)

# The reader `bitsift gen c` writes for examples/shooter.bss, made here.
bench_bench_gen_c_SOURCES = bench/bench_gen_c.c bench/bench_packets.c bench/bench_util.c
nodist_bench_bench_gen_c_SOURCES = bench/gen_c/shooter.c
bench_bench_gen_c_CPPFLAGS = $(AM_CPPFLAGS) -Ibench/gen_c
bench_bench_gen_c_LDADD = lib/libbitsift.la
bench_bench_gen_c_LDFLAGS = $(bench_link_flags)
bench/gen_c/shooter.c: $(top_srcdir)/examples/shooter.bss src/bitsift$(EXEEXT)
	$(AM_V_GEN)src/bitsift gen c -s $(top_srcdir)/examples/shooter.bss -o bench/gen_c
bench/gen_c/shooter.h: bench/gen_c/shooter.c
bench/bench_gen_c-bench_gen_c.$(OBJEXT): bench/gen_c/shooter.h
CLEANFILES += bench/gen_c/shooter.c bench/gen_c/shooter.h

bench_pcap_loop_SOURCES = bench/pcap_loop.c
bench_pcap_loop_CFLAGS = $(AM_CFLAGS) $(PCAP_CFLAGS)
bench_pcap_loop_LDADD = $(PCAP_LIBS)

BENCH_REPS = 9
bench: $(bench_programs) $(bin_PROGRAMS)
	@BENCH_REPS='$(BENCH_REPS)' $(SHELL) '$(srcdir)/bench/run.sh' '$(top_builddir)' '$(top_srcdir)'
.PHONY: bench
