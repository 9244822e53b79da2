#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# replay-selftest.sh -- the replayer must not be a rubber stamp: every
# vector in tests/vectors/wrong has one deliberate flaw (a flipped bit, a
# wrong kind, bit, op, CRC, type...), and replay-vectors must report each
# one as failing and exit non-zero. Prints TAP: a point per wrong vector
# that was caught, plus one for the exit status.
replay="${top_builddir:-.}/tests/vectors/replay-vectors"
dir="${top_srcdir:-.}/tests/vectors/wrong"

out=$("$replay" "$dir")
status=$?
total=$(printf '%s\n' "$out" | sed -n 's/^1\.\.\([0-9][0-9]*\)$/\1/p')
if [ -z "$total" ] || [ "$total" -eq 0 ]; then
    echo "1..1"
    echo "not ok 1 - replay-vectors printed no plan for $dir"
    exit 1
fi
echo "1..$((total + 1))"
printf '%s\n' "$out" | awk '
    /^ok [0-9]+ - / { sub(/^ok /, ""); print "not ok " $0 " (flaw NOT detected)"; next }
    /^not ok [0-9]+ - / { sub(/^not ok /, ""); print "ok " $0; next }'
if [ "$status" -ne 0 ]; then
    echo "ok $((total + 1)) - replay-vectors exits non-zero ($status) on failures"
else
    echo "not ok $((total + 1)) - replay-vectors exited 0 despite failures"
fi
