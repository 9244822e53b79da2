# SPDX-License-Identifier: BSD-3-Clause
# tests/wireshark.mk -- the dissectors of `bitsift gen wireshark` run in
# tshark against bitsift decode (tests/wireshark/compare.sh): the test
# captures, random packets of the example schemas and of random schemas,
# display filters and hostile schemas; integers of every width 1..64 and
# kind (widths.sh); a TAP skip when tshark is absent.
# gen-cli.sh tests the command itself (no tshark needed); names.sh, the
# names the generator refuses against those tshark refuses.
check_PROGRAMS += tests/wireshark/randcap tests/wireshark/name-check
tests_wireshark_name_check_SOURCES = tests/wireshark/name_check.c
tests_wireshark_name_check_LDADD = lib/libbitsift.la
tests_wireshark_randcap_SOURCES = tests/wireshark/randcap.c
tests_wireshark_randcap_LDADD = lib/libbitsift.la
TESTS += tests/wireshark/gen-cli.sh tests/wireshark/compare.sh tests/wireshark/widths.sh \
	tests/wireshark/names.sh
EXTRA_DIST += tests/wireshark/gen-cli.sh tests/wireshark/compare.sh tests/wireshark/compare.py \
	tests/wireshark/widths.sh tests/wireshark/widths.py \
	tests/wireshark/filters.py tests/wireshark/random_schema.py tests/wireshark/hostile \
	tests/wireshark/floats.bss tests/wireshark/names.sh tests/wireshark/builtin-names.sh
