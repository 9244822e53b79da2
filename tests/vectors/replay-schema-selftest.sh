#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# replay-schema-selftest.sh -- the schema replay must not be a rubber
# stamp: over tests/vectors/wrong (one deliberate flaw per vector),
# replay-schema.sh must fail every vector whose flaw a reader of the bytes
# can see. Three flaws lie in fields the schema path does not read and
# must pass: wrong-903 (a recorded bit_len, informational in the format),
# wrong-907 (a hand-made "fail_bit"; the replay compares the failing field
# and kind) and wrong-911 (a recorded "crc" the bytes do not hold; the
# decoder checks the CRC the bytes do hold). Vectors of ops the tool does
# not know (wrong-904) fail as they must. TAP: one point per vector, one
# for the exit status.
out=$(VECTORS_DIR= sh "${top_srcdir:-.}/tests/vectors/replay-schema.sh" "${top_srcdir:-.}/tests/vectors/wrong")
status=$?
total=$(printf '%s\n' "$out" | sed -n 's/^1\.\.\([0-9][0-9]*\)$/\1/p')
if [ -z "$total" ] || [ "$total" -eq 0 ]; then
    echo "1..1"
    echo "not ok 1 - replay-schema.sh printed no plan for tests/vectors/wrong"
    exit 1
fi
echo "1..$((total + 1))"
printf '%s\n' "$out" | awk '
    /^(not )?ok [0-9]+ - / {
        passed = $1 == "ok"
        sub(/^(not )?ok [0-9]+ - /, "")
        unseen = $0 ~ /wrong-(903|907|911)/
        n++
        if (passed == unseen) print "ok " n " - " $0 (unseen ? " (a flaw the bytes do not show)" : "")
        else print "not ok " n " - " $0 (passed ? " (flaw NOT detected)" : " (refused, but its flaw is not in the bytes)")
    }'
if [ "$status" -ne 0 ]; then
    echo "ok $((total + 1)) - replay-schema.sh exits non-zero ($status) on failures"
else
    echo "not ok $((total + 1)) - replay-schema.sh exited 0 despite failures"
fi
