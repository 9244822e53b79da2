# SPDX-License-Identifier: BSD-3-Clause
# tests/schema.mk -- tests of the schema language, compiler, decoder and
# encoder: round trips of every example, the diagnostics of the hostile
# schemas in corpus/schemas, and packets written by the core serializer.
check_PROGRAMS += tests/schema/schematool
tests_schema_schematool_SOURCES = tests/schema/schematool.c
tests_schema_schematool_LDADD = lib/libbitsift.la -lm

# Scripts print TAP; without a registered extension they run under
# LOG_DRIVER (the TAP driver).
SCHEMA_TEST_PROGS = \
	tests/schema/roundtrip.sh \
	tests/schema/errors.sh \
	tests/schema/packets.sh
TESTS += $(SCHEMA_TEST_PROGS)
EXTRA_DIST += $(SCHEMA_TEST_PROGS) tests/schema/errors.list tests/schema/constructs.bss $(SCHEMA_CORPUS_FILES)

# Hostile and wrong schemas: each must be refused with its diagnostic.
SCHEMA_CORPUS_FILES = \
	corpus/schemas/array_empty_brackets.bss \
	corpus/schemas/array_without_max.bss \
	corpus/schemas/array_zero.bss \
	corpus/schemas/bad_enum_compare.bss \
	corpus/schemas/bits_too_wide.bss \
	corpus/schemas/bytes_too_big.bss \
	corpus/schemas/condition_too_complex.bss \
	corpus/schemas/constraint_out_of_range.bss \
	corpus/schemas/deep_condition.bss \
	corpus/schemas/deep_nesting.bss \
	corpus/schemas/deep_struct_chain.bss \
	corpus/schemas/default_outside_if.bss \
	corpus/schemas/default_wrong_type.bss \
	corpus/schemas/duplicate_enum_value.bss \
	corpus/schemas/duplicate_field.bss \
	corpus/schemas/duplicate_type.bss \
	corpus/schemas/empty_enum.bss \
	corpus/schemas/enum_too_many_values.bss \
	corpus/schemas/expansion_bomb.bss \
	corpus/schemas/giant_count.bss \
	corpus/schemas/huge_range.bss \
	corpus/schemas/later_field.bss \
	corpus/schemas/long_name.bss \
	corpus/schemas/min_above_max.bss \
	corpus/schemas/missing_protocol.bss \
	corpus/schemas/mutual_recursion.bss \
	corpus/schemas/no_packets.bss \
	corpus/schemas/non_utf8.bss \
	corpus/schemas/non_utf8_comment.bss \
	corpus/schemas/not_an_integer.bss \
	corpus/schemas/nul_byte.bss \
	corpus/schemas/packet_as_type.bss \
	corpus/schemas/previous_outside_array.bss \
	corpus/schemas/protocol_id_too_big.bss \
	corpus/schemas/protocol_without_id.bss \
	corpus/schemas/range_overflow.bss \
	corpus/schemas/recursive_type.bss \
	corpus/schemas/reference_into_array.bss \
	corpus/schemas/reserved_name.bss \
	corpus/schemas/resolution_underflow.bss \
	corpus/schemas/resolution_zero.bss \
	corpus/schemas/self_reference.bss \
	corpus/schemas/smallest_three_too_wide.bss \
	corpus/schemas/sparse_unknown_kind.bss \
	corpus/schemas/string_zero.bss \
	corpus/schemas/syntax_bad_character.bss \
	corpus/schemas/syntax_missing_semicolon.bss \
	corpus/schemas/syntax_unterminated_brace.bss \
	corpus/schemas/too_many_packets.bss \
	corpus/schemas/too_many_references.bss \
	corpus/schemas/unknown_field.bss \
	corpus/schemas/unknown_type.bss \
	corpus/schemas/unterminated_string.bss \
	corpus/schemas/vector_of_strings.bss \
	corpus/schemas/zero_bit_loop.bss \
	corpus/schemas/zero_bit_loop_struct.bss

# Example protocols, installed for the bitsift command and for users.
dist_pkgdata_DATA += \
	examples/shooter.bss \
	examples/article.bss \
	examples/scenes.bss \
	examples/robocat.bss

check_PROGRAMS += tests/schema/decode_test
tests_schema_decode_test_SOURCES = tests/schema/decode_test.c
tests_schema_decode_test_LDADD = lib/libbitsift.la -lm -lpthread
TESTS += tests/schema/decode_test

# Packets made by the encoder from the example schemas (SCHEMA-TYPE.bin).
EXTRA_DIST += \
	examples/packets/article-PacketA.bin \
	examples/packets/article-PacketB.bin \
	examples/packets/article-PacketC.bin \
	examples/packets/article-RigidBody.bin \
	examples/packets/article-RigidBodyCompressed.bin \
	examples/packets/robocat-position.bin \
	examples/packets/robocat-robocat.bin \
	examples/packets/scenes-scene_a.bin \
	examples/packets/scenes-scene_b.bin \
	examples/packets/scenes-scene_c.bin \
	examples/packets/scenes-scene_d.bin \
	examples/packets/shooter-connect_accept.bin \
	examples/packets/shooter-connect_request.bin \
	examples/packets/shooter-disconnect.bin \
	examples/packets/shooter-input.bin \
	examples/packets/shooter-snapshot.bin

# The validation program against the op interpreter (lib/schema_validate.c).
check_PROGRAMS += tests/schema/validate_diff
tests_schema_validate_diff_SOURCES = tests/schema/validate_diff.c
tests_schema_validate_diff_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/fuzz/support
tests_schema_validate_diff_LDADD = lib/libbitsift.la
TESTS += tests/schema/validate_diff

# The decoder's events, results and trees over valid and hostile packets
# of every schema, against those recorded before the visitor path was
# optimised (tests/schema/events.expected, made by `event_stream list`).
check_PROGRAMS += tests/schema/event_stream
tests_schema_event_stream_SOURCES = tests/schema/event_stream.c
tests_schema_event_stream_LDADD = lib/libbitsift.la -lm
TESTS += tests/schema/events.sh
EXTRA_DIST += tests/schema/events.sh tests/schema/events.expected

# Both sides of the limits the schema code decides on: the validation
# program's switch span, the sparse index messages.
check_PROGRAMS += tests/schema/boundary_test
tests_schema_boundary_test_SOURCES = tests/schema/boundary_test.c
tests_schema_boundary_test_LDADD = lib/libbitsift.la
TESTS += tests/schema/boundary_test
# The same over a copy of the library with AddressSanitizer (when the
# compiler has it): a builder that writes past its stack array of jumps
# decides right and shows nothing else.
check_PROGRAMS += tests/schema/boundary_test_asan
tests_schema_boundary_test_asan_SOURCES = tests/schema/boundary_test.c $(lib_libbitsift_la_SOURCES)
nodist_tests_schema_boundary_test_asan_SOURCES = $(nodist_lib_libbitsift_la_SOURCES)
tests_schema_boundary_test_asan_CPPFLAGS = $(lib_libbitsift_la_CPPFLAGS)
tests_schema_boundary_test_asan_CFLAGS = $(lib_libbitsift_la_CFLAGS) $(TEST_ASAN_FLAGS)
tests_schema_boundary_test_asan_LDFLAGS = $(TEST_ASAN_FLAGS)
tests_schema_boundary_test_asan_LDADD = $(lib_libbitsift_la_LIBADD)
TESTS += tests/schema/boundary_test_asan

# The planted disagreement of fuzz/tests/planted-disagreement.test, over a copy
# of the library built with it: the named path alone reports one bit more.
check_PROGRAMS += tests/schema/plant_test
tests_schema_plant_test_SOURCES = tests/schema/plant_test.c $(lib_libbitsift_la_SOURCES)
nodist_tests_schema_plant_test_SOURCES = $(nodist_lib_libbitsift_la_SOURCES)
tests_schema_plant_test_CPPFLAGS = $(lib_libbitsift_la_CPPFLAGS) -DBITSIFT_PLANT_DISAGREEMENT
tests_schema_plant_test_CFLAGS = $(lib_libbitsift_la_CFLAGS)
tests_schema_plant_test_LDADD = $(lib_libbitsift_la_LIBADD)
TESTS += tests/schema/plant_test

# bitsift_schema_field_value_kind against the kinds of the values decode
# reports, field by field, over random packets of every schema.
check_PROGRAMS += tests/schema/value_kinds
tests_schema_value_kinds_SOURCES = tests/schema/value_kinds.c
tests_schema_value_kinds_LDADD = lib/libbitsift.la
TESTS += tests/schema/value-kinds.sh
EXTRA_DIST += tests/schema/value-kinds.sh
