#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# cli.sh -- `bitsift diagnose` start to finish: packets written by the
# encoder (`bitsift seeds`) from a drifted copy of examples/shooter.bss,
# diagnosed with the original, in text and JSON; another version given
# with -s; a capture with nothing to diagnose; and the errors. Prints TAP.
name=diagnose
. "${top_srcdir:-.}/tests/cli/script-setup.sh"
shooter=$top_srcdir/examples/shooter.bss

n=0
failed=0
check() { # check DESCRIPTION COMMAND... : ok when the command succeeds
    n=$((n + 1))
    what=$1
    shift
    if "$@"; then
        echo "ok $n - $what"
    else
        echo "not ok $n - $what"
        failed=1
    fi
}

# A player's armor cap raised from 100 (7 bits) to 250 (8 bits).
sed 's/int(0, 100) armor;/int(0, 250) armor;/' "$shooter" >"$work/armor.bss"
mkdir "$work/armor"
"$bitsift" seeds -q -c 20 -s "$work/armor.bss" -o "$work/armor"

"$bitsift" diagnose -s "$shooter" "$work/armor" >"$work/text" 2>"$work/err"
check "diagnose exits 1 when packets fail" test $? = 1
check "the snapshot type is diagnosed" grep -q '^packet snapshot: [0-9]* failing' "$work/text"
check "the planted change ranks first, alone" \
    grep -q '^  #1  players\[\]\.armor: 7 -> 8 bits, range 0\.\.255 \[range\]$' "$work/text"
check "as a diff of the schema line" sh -c "
    grep -A4 '^  #1 ' '$work/text' | grep -q '^      -    int(0, 100) armor;\$' &&
    grep -A4 '^  #1 ' '$work/text' | grep -q '^      +    int(0, 255) armor;\$'"
check "nothing on stderr" test ! -s "$work/err"

"$bitsift" diagnose -F json -s "$shooter" "$work/armor" >"$work/json"
check "JSON: the first candidate is the planted one" \
    grep -q '"candidates":\[{"rank":1,"tied":false,"family":"range","explained":\([0-9]*\),"broken":0,.*"replacement":"int(0, 255)"' "$work/json"
check "JSON: a summary record" grep -q '^{"summary":{"packets":[0-9]*,' "$work/json"
if command -v python3 >/dev/null 2>&1; then
    check "JSON: every line parses" python3 -c "
import json, sys
for line in open(sys.argv[1]):
    json.loads(line)" "$work/json"
fi

# Another version: the protocol's version bumped with the same change.
sed 's/version 3;/version 4;/' "$work/armor.bss" >"$work/v4.bss"
mkdir "$work/v4"
"$bitsift" seeds -q -c 7 -s "$work/v4.bss" -o "$work/v4"
"$bitsift" diagnose -s "$shooter" "$work/v4" >"$work/v4.text"
check "without the other version: CRC mismatches, nothing explains them" \
    grep -q 'no other schema (-s) explains them' "$work/v4.text"
"$bitsift" diagnose -s "$shooter" -s "$work/armor.bss" -s "$work/v4.bss" "$work/v4" \
    >"$work/v4s.text"
check "with -s: the right other version ranks first" \
    grep -q "^  #1  the other schema $work/v4.bss \[schema\]\$" "$work/v4s.text"

"$bitsift" diagnose -s "$shooter" "$top_srcdir/examples/sample.pcap" >"$work/clean"
check "a capture with no failing packet: exit 0" test $? = 0
check "and nothing to diagnose" sh -c "! grep -q '^packet ' '$work/clean'"

"$bitsift" diagnose -s "$shooter" -f 'udp port 1' "$top_srcdir/examples/sample.pcap" \
    >/dev/null 2>"$work/empty.err"
check "no packet read (the filter matched none): exit 3" test $? = 3
check "with a message" grep -q 'no packet was read' "$work/empty.err"
"$bitsift" diagnose --allow-empty -s "$shooter" -f 'udp port 1' \
    "$top_srcdir/examples/sample.pcap" >/dev/null 2>&1
check "--allow-empty: exit 0" test $? = 0
"$bitsift" diagnose -s - "$work/armor" <"$shooter" >"$work/stdin.text"
check "the schema from standard input" \
    grep -q '^      <stdin>:38$' "$work/stdin.text"

echo 'protocol broken {' >"$work/broken.bss"
"$bitsift" diagnose -s "$work/broken.bss" "$work/armor" >/dev/null 2>"$work/broken.err"
check "a schema that does not compile: exit 2" test $? = 2
check "with the compiler's message" grep -q 'broken.bss:' "$work/broken.err"
"$bitsift" diagnose -s "$shooter" "$work/no-such-file" >/dev/null 2>&1
check "an input that cannot be read: exit 2" test $? = 2
"$bitsift" diagnose -s "$shooter" -s "$work/no-such.bss" "$work/armor" >/dev/null 2>&1
check "another schema that cannot be read: exit 2" test $? = 2

# A hostile schema: ranges of the whole 64 bits, values at the top, an
# array as large as allowed; random bytes to diagnose. No crash, no
# sanitizer report (field_read.h once subtracted an enum's full 64-bit
# range as signed integers on the "value has no name" path).
cat >"$work/hostile.bss" <<'SCHEMA'
protocol h { id 1; crc off; end_check off; }
enum Big : int(-9223372036854775808, 9223372036854775807) { a = 9223372036854775806, b }
enum Top { x = 9223372036854775800, y, z }
packet p {
    Big big;
    Top top;
    int(-9223372036854775808, 9223372036854775807) wide;
    bits(64) b64;
    if (wide > 9223372036854775806) bool q;
    uint8 arr[max 65536];
}
SCHEMA
for i in 1 2 3 4 5 6; do
    head -c $((i * 37)) /dev/urandom >"$work/random-$i.bin"
done
"$bitsift" diagnose -s "$work/hostile.bss" "$work"/random-*.bin >"$work/hostile.out" \
    2>"$work/hostile.err"
check "a hostile schema and random packets: exit 1, nothing on stderr" \
    sh -c "test $? = 1 && test ! -s '$work/hostile.err'"

echo "1..$n"
exit $failed
