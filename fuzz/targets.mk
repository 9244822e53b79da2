# SPDX-License-Identifier: BSD-3-Clause
# fuzz/targets.mk -- generated from fuzz/targets.list by fuzz/scripts/targets-mk.sh:
# do not edit (included by fuzz/local.mk).

FUZZ_TARGETS =
FUZZ_TEST_TARGETS =
FUZZ_CRC_TARGETS =
FUZZ_VARIANTS =
FUZZ_BINARIES =

## fuzz_reader
FUZZ_TARGETS += fuzz_reader
EXTRA_DIST += corpus/fuzz_reader fuzz/fuzz_reader.options fuzz/fuzz_reader.dict
check_PROGRAMS += fuzz/replay_fuzz_reader
TESTS += fuzz/replay_fuzz_reader
fuzz_replay_fuzz_reader_SOURCES = fuzz/fuzz_reader.c fuzz/support/replay_main.c
fuzz_replay_fuzz_reader_CPPFLAGS = $(FUZZ_CPPFLAGS) -DFUZZ_TARGET_NAME='"fuzz_reader"'
fuzz_replay_fuzz_reader_LDADD = lib/libbitsift-fuzz.la lib/libbitsift.la
if ENABLE_FUZZING
fuzz_fuzz_reader_SOURCES = fuzz/fuzz_reader.c
fuzz_fuzz_reader_CPPFLAGS = $(FUZZ_CPPFLAGS)
fuzz_fuzz_reader_LDFLAGS = $(FUZZ_LINK_FLAGS)
fuzz_fuzz_reader_LDADD = lib/libbitsift-fuzz.la lib/libbitsift.la
FUZZ_BINARIES += fuzz/fuzz_reader
endif

## fuzz_packet
FUZZ_TARGETS += fuzz_packet
FUZZ_CRC_TARGETS += fuzz_packet
EXTRA_DIST += corpus/fuzz_packet fuzz/fuzz_packet.options fuzz/fuzz_packet.dict
check_PROGRAMS += fuzz/replay_fuzz_packet
TESTS += fuzz/replay_fuzz_packet
fuzz_replay_fuzz_packet_SOURCES = fuzz/fuzz_packet.c fuzz/support/packet_schemas.c fuzz/support/replay_main.c
nodist_fuzz_replay_fuzz_packet_SOURCES = fuzz/support/bundled_schemas.c
fuzz_replay_fuzz_packet_CPPFLAGS = $(FUZZ_CPPFLAGS) -DFUZZ_TARGET_NAME='"fuzz_packet"'
fuzz_replay_fuzz_packet_LDADD = lib/libbitsift-fuzz.la lib/libbitsift.la
if ENABLE_FUZZING
fuzz_fuzz_packet_SOURCES = fuzz/fuzz_packet.c fuzz/support/packet_schemas.c
nodist_fuzz_fuzz_packet_SOURCES = fuzz/support/bundled_schemas.c
fuzz_fuzz_packet_CPPFLAGS = $(FUZZ_CPPFLAGS)
fuzz_fuzz_packet_LDFLAGS = $(FUZZ_LINK_FLAGS)
fuzz_fuzz_packet_LDADD = lib/libbitsift-fuzz.la lib/libbitsift.la
fuzz_fuzz_packet_crc_SOURCES = fuzz/fuzz_packet.c fuzz/support/packet_schemas.c fuzz/support/crc_mutator.c
nodist_fuzz_fuzz_packet_crc_SOURCES = fuzz/support/bundled_schemas.c
fuzz_fuzz_packet_crc_CPPFLAGS = $(FUZZ_CPPFLAGS)
fuzz_fuzz_packet_crc_LDFLAGS = $(FUZZ_LINK_FLAGS)
fuzz_fuzz_packet_crc_LDADD = lib/libbitsift-fuzz.la lib/libbitsift.la
FUZZ_VARIANTS += fuzz_packet_crc:fuzz_packet
fuzz_fuzz_packet_seal_SOURCES = fuzz/fuzz_packet.c fuzz/support/packet_schemas.c
nodist_fuzz_fuzz_packet_seal_SOURCES = fuzz/support/bundled_schemas.c
fuzz_fuzz_packet_seal_CPPFLAGS = $(FUZZ_CPPFLAGS) -DBITSIFT_FUZZ_SEAL
fuzz_fuzz_packet_seal_LDFLAGS = $(FUZZ_LINK_FLAGS)
fuzz_fuzz_packet_seal_LDADD = lib/libbitsift-fuzz.la lib/libbitsift.la
FUZZ_VARIANTS += fuzz_packet_seal:fuzz_packet
fuzz_fuzz_packet_nocrc_SOURCES = fuzz/fuzz_packet.c fuzz/support/packet_schemas.c
nodist_fuzz_fuzz_packet_nocrc_SOURCES = fuzz/support/bundled_schemas.c
fuzz_fuzz_packet_nocrc_CPPFLAGS = $(FUZZ_CPPFLAGS) -DBITSIFT_FUZZ_NO_CRC
fuzz_fuzz_packet_nocrc_LDFLAGS = $(FUZZ_LINK_FLAGS)
fuzz_fuzz_packet_nocrc_LDADD = lib/libbitsift-fuzz.la lib/libbitsift.la
FUZZ_VARIANTS += fuzz_packet_nocrc:fuzz_packet
fuzz_fuzz_packet_schema_SOURCES = fuzz/fuzz_packet.c fuzz/support/packet_schemas.c fuzz/support/schema_mutator.c
nodist_fuzz_fuzz_packet_schema_SOURCES = fuzz/support/bundled_schemas.c
fuzz_fuzz_packet_schema_CPPFLAGS = $(FUZZ_CPPFLAGS)
fuzz_fuzz_packet_schema_LDFLAGS = $(FUZZ_LINK_FLAGS)
fuzz_fuzz_packet_schema_LDADD = lib/libbitsift-fuzz.la lib/libbitsift.la
FUZZ_VARIANTS += fuzz_packet_schema:fuzz_packet
FUZZ_BINARIES += fuzz/fuzz_packet fuzz/fuzz_packet_crc fuzz/fuzz_packet_seal fuzz/fuzz_packet_nocrc fuzz/fuzz_packet_schema
endif

## fuzz_schema
FUZZ_TARGETS += fuzz_schema
EXTRA_DIST += corpus/fuzz_schema fuzz/fuzz_schema.options fuzz/fuzz_schema.dict
check_PROGRAMS += fuzz/replay_fuzz_schema
TESTS += fuzz/replay_fuzz_schema
fuzz_replay_fuzz_schema_SOURCES = fuzz/fuzz_schema.c fuzz/support/replay_main.c
fuzz_replay_fuzz_schema_CPPFLAGS = $(FUZZ_CPPFLAGS) -DFUZZ_TARGET_NAME='"fuzz_schema"'
fuzz_replay_fuzz_schema_LDADD = lib/libbitsift-fuzz.la lib/libbitsift.la
if ENABLE_FUZZING
fuzz_fuzz_schema_SOURCES = fuzz/fuzz_schema.c
fuzz_fuzz_schema_CPPFLAGS = $(FUZZ_CPPFLAGS)
fuzz_fuzz_schema_LDFLAGS = $(FUZZ_LINK_FLAGS)
fuzz_fuzz_schema_LDADD = lib/libbitsift-fuzz.la lib/libbitsift.la
FUZZ_BINARIES += fuzz/fuzz_schema
endif

## fuzz_roundtrip
FUZZ_TARGETS += fuzz_roundtrip
EXTRA_DIST += corpus/fuzz_roundtrip fuzz/fuzz_roundtrip.options
check_PROGRAMS += fuzz/replay_fuzz_roundtrip
TESTS += fuzz/replay_fuzz_roundtrip
fuzz_replay_fuzz_roundtrip_SOURCES = fuzz/fuzz_roundtrip.c fuzz/support/packet_schemas.c fuzz/support/replay_main.c
nodist_fuzz_replay_fuzz_roundtrip_SOURCES = fuzz/support/bundled_schemas.c
fuzz_replay_fuzz_roundtrip_CPPFLAGS = $(FUZZ_CPPFLAGS) -DFUZZ_TARGET_NAME='"fuzz_roundtrip"'
fuzz_replay_fuzz_roundtrip_LDADD = lib/libbitsift-fuzz.la lib/libbitsift.la
if ENABLE_FUZZING
fuzz_fuzz_roundtrip_SOURCES = fuzz/fuzz_roundtrip.c fuzz/support/packet_schemas.c
nodist_fuzz_fuzz_roundtrip_SOURCES = fuzz/support/bundled_schemas.c
fuzz_fuzz_roundtrip_CPPFLAGS = $(FUZZ_CPPFLAGS)
fuzz_fuzz_roundtrip_LDFLAGS = $(FUZZ_LINK_FLAGS)
fuzz_fuzz_roundtrip_LDADD = lib/libbitsift-fuzz.la lib/libbitsift.la
FUZZ_BINARIES += fuzz/fuzz_roundtrip
endif

## fuzz_filter
FUZZ_TARGETS += fuzz_filter
EXTRA_DIST += corpus/fuzz_filter fuzz/fuzz_filter.options fuzz/fuzz_filter.dict
check_PROGRAMS += fuzz/replay_fuzz_filter
TESTS += fuzz/replay_fuzz_filter
fuzz_replay_fuzz_filter_SOURCES = fuzz/fuzz_filter.c fuzz/support/packet_schemas.c fuzz/support/replay_main.c
nodist_fuzz_replay_fuzz_filter_SOURCES = fuzz/support/bundled_schemas.c
fuzz_replay_fuzz_filter_CPPFLAGS = $(FUZZ_CPPFLAGS) -DFUZZ_TARGET_NAME='"fuzz_filter"'
fuzz_replay_fuzz_filter_LDADD = lib/libbitsift-fuzz.la lib/libbitsift.la
if ENABLE_FUZZING
fuzz_fuzz_filter_SOURCES = fuzz/fuzz_filter.c fuzz/support/packet_schemas.c
nodist_fuzz_fuzz_filter_SOURCES = fuzz/support/bundled_schemas.c
fuzz_fuzz_filter_CPPFLAGS = $(FUZZ_CPPFLAGS)
fuzz_fuzz_filter_LDFLAGS = $(FUZZ_LINK_FLAGS)
fuzz_fuzz_filter_LDADD = lib/libbitsift-fuzz.la lib/libbitsift.la
FUZZ_BINARIES += fuzz/fuzz_filter
endif

## fuzz_capture
FUZZ_TARGETS += fuzz_capture
EXTRA_DIST += corpus/fuzz_capture fuzz/fuzz_capture.options
check_PROGRAMS += fuzz/replay_fuzz_capture
TESTS += fuzz/replay_fuzz_capture
fuzz_replay_fuzz_capture_SOURCES = fuzz/fuzz_capture.c fuzz/support/packet_schemas.c src/io/capture.c src/io/classic_pcap.c src/io/file_window.c src/io/decap.c fuzz/support/replay_main.c
nodist_fuzz_replay_fuzz_capture_SOURCES = fuzz/support/bundled_schemas.c
fuzz_replay_fuzz_capture_CPPFLAGS = $(FUZZ_CPPFLAGS) -DFUZZ_TARGET_NAME='"fuzz_capture"'
fuzz_replay_fuzz_capture_CFLAGS = $(AM_CFLAGS) $(PCAP_CFLAGS)
fuzz_replay_fuzz_capture_LDADD = lib/libbitsift-fuzz.la lib/libbitsift.la $(PCAP_LIBS)
if ENABLE_FUZZING
fuzz_fuzz_capture_SOURCES = fuzz/fuzz_capture.c fuzz/support/packet_schemas.c src/io/capture.c src/io/classic_pcap.c src/io/file_window.c src/io/decap.c
nodist_fuzz_fuzz_capture_SOURCES = fuzz/support/bundled_schemas.c
fuzz_fuzz_capture_CPPFLAGS = $(FUZZ_CPPFLAGS)
fuzz_fuzz_capture_CFLAGS = $(AM_CFLAGS) $(PCAP_CFLAGS)
fuzz_fuzz_capture_LDFLAGS = $(FUZZ_LINK_FLAGS)
fuzz_fuzz_capture_LDADD = lib/libbitsift-fuzz.la lib/libbitsift.la $(PCAP_LIBS)
FUZZ_BINARIES += fuzz/fuzz_capture
endif

## fuzz_diagnose
FUZZ_TARGETS += fuzz_diagnose
EXTRA_DIST += corpus/fuzz_diagnose fuzz/fuzz_diagnose.options
check_PROGRAMS += fuzz/replay_fuzz_diagnose
TESTS += fuzz/replay_fuzz_diagnose
fuzz_replay_fuzz_diagnose_SOURCES = fuzz/fuzz_diagnose.c fuzz/support/replay_main.c
nodist_fuzz_replay_fuzz_diagnose_SOURCES = fuzz/support/bundled_schemas.c
fuzz_replay_fuzz_diagnose_CPPFLAGS = $(FUZZ_CPPFLAGS) -DFUZZ_TARGET_NAME='"fuzz_diagnose"'
fuzz_replay_fuzz_diagnose_LDADD = lib/libbitsift-fuzz.la lib/libbitsift.la
if ENABLE_FUZZING
fuzz_fuzz_diagnose_SOURCES = fuzz/fuzz_diagnose.c
nodist_fuzz_fuzz_diagnose_SOURCES = fuzz/support/bundled_schemas.c
fuzz_fuzz_diagnose_CPPFLAGS = $(FUZZ_CPPFLAGS)
fuzz_fuzz_diagnose_LDFLAGS = $(FUZZ_LINK_FLAGS)
fuzz_fuzz_diagnose_LDADD = lib/libbitsift-fuzz.la lib/libbitsift.la
FUZZ_BINARIES += fuzz/fuzz_diagnose
endif

## fuzz_encode
FUZZ_TARGETS += fuzz_encode
EXTRA_DIST += corpus/fuzz_encode fuzz/fuzz_encode.options fuzz/fuzz_encode.dict
check_PROGRAMS += fuzz/replay_fuzz_encode
TESTS += fuzz/replay_fuzz_encode
fuzz_replay_fuzz_encode_SOURCES = fuzz/fuzz_encode.c fuzz/support/packet_schemas.c lib/tools/records.c lib/tools/record_lines.c lib/tools/json_budget.c lib/tools/json_numbers.c lib/tools/float_text.c lib/tools/record_tree.c lib/tools/record_time.c src/io/encap.c fuzz/support/replay_main.c
nodist_fuzz_replay_fuzz_encode_SOURCES = fuzz/support/bundled_schemas.c
fuzz_replay_fuzz_encode_CPPFLAGS = $(FUZZ_CPPFLAGS) -DFUZZ_TARGET_NAME='"fuzz_encode"'
fuzz_replay_fuzz_encode_CFLAGS = $(AM_CFLAGS) $(JANSSON_CFLAGS)
fuzz_replay_fuzz_encode_LDADD = lib/libbitsift-fuzz.la lib/libbitsift.la $(JANSSON_LIBS)
if ENABLE_FUZZING
fuzz_fuzz_encode_SOURCES = fuzz/fuzz_encode.c fuzz/support/packet_schemas.c lib/tools/records.c lib/tools/record_lines.c lib/tools/json_budget.c lib/tools/json_numbers.c lib/tools/float_text.c lib/tools/record_tree.c lib/tools/record_time.c src/io/encap.c
nodist_fuzz_fuzz_encode_SOURCES = fuzz/support/bundled_schemas.c
fuzz_fuzz_encode_CPPFLAGS = $(FUZZ_CPPFLAGS)
fuzz_fuzz_encode_CFLAGS = $(AM_CFLAGS) $(JANSSON_CFLAGS)
fuzz_fuzz_encode_LDFLAGS = $(FUZZ_LINK_FLAGS)
fuzz_fuzz_encode_LDADD = lib/libbitsift-fuzz.la lib/libbitsift.la $(JANSSON_LIBS)
FUZZ_BINARIES += fuzz/fuzz_encode
endif

## fuzz_planted
FUZZ_TEST_TARGETS += fuzz_planted
EXTRA_DIST += corpus/fuzz_planted fuzz/fuzz_planted.options fuzz/fuzz_planted.dict
check_PROGRAMS += fuzz/replay_fuzz_planted
TESTS += fuzz/replay_fuzz_planted
fuzz_replay_fuzz_planted_SOURCES = fuzz/fuzz_planted.c fuzz/support/replay_main.c
fuzz_replay_fuzz_planted_CPPFLAGS = $(FUZZ_CPPFLAGS) -DFUZZ_TARGET_NAME='"fuzz_planted"'
fuzz_replay_fuzz_planted_LDADD = lib/libbitsift-fuzz.la lib/libbitsift.la
if ENABLE_FUZZING
fuzz_fuzz_planted_SOURCES = fuzz/fuzz_planted.c
fuzz_fuzz_planted_CPPFLAGS = $(FUZZ_CPPFLAGS)
fuzz_fuzz_planted_LDFLAGS = $(FUZZ_LINK_FLAGS)
fuzz_fuzz_planted_LDADD = lib/libbitsift-fuzz.la lib/libbitsift.la
fuzz_fuzz_planted_crc_SOURCES = fuzz/fuzz_planted.c fuzz/support/crc_mutator.c
fuzz_fuzz_planted_crc_CPPFLAGS = $(FUZZ_CPPFLAGS)
fuzz_fuzz_planted_crc_LDFLAGS = $(FUZZ_LINK_FLAGS)
fuzz_fuzz_planted_crc_LDADD = lib/libbitsift-fuzz.la lib/libbitsift.la
fuzz_fuzz_planted_seal_SOURCES = fuzz/fuzz_planted.c
fuzz_fuzz_planted_seal_CPPFLAGS = $(FUZZ_CPPFLAGS) -DBITSIFT_FUZZ_SEAL
fuzz_fuzz_planted_seal_LDFLAGS = $(FUZZ_LINK_FLAGS)
fuzz_fuzz_planted_seal_LDADD = lib/libbitsift-fuzz.la lib/libbitsift.la
FUZZ_BINARIES += fuzz/fuzz_planted fuzz/fuzz_planted_crc fuzz/fuzz_planted_seal
endif

# What the scripts that compile the harnesses themselves need of the
# harnesses' libraries (fuzz/scripts/targets.sh: harness_cflags, harness_libs).
FUZZ_LIBRARY_ENV = PCAP_CFLAGS='$(PCAP_CFLAGS)' PCAP_LIBS='$(PCAP_LIBS)' JANSSON_CFLAGS='$(JANSSON_CFLAGS)' JANSSON_LIBS='$(JANSSON_LIBS)'
