#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# many-types.sh -- diagnose when many packet types fail: 64 types of 8
# fields, about 20 packets each written with a drifted copy of the schema
# (make-many-types.sh). The search must finish within a CPU-time limit
# (ulimit -t: a search that grows again with the square of the types is
# killed instead of hanging make check; it took 18 s here when it did,
# under 1 s since), rank the drift first, and print the same output on
# two runs (the budget counts work, not time). Prints TAP.
name=diagnose-many-types
. "${top_srcdir:-.}/tests/cli/script-setup.sh"
# CPU seconds for one run: about 20 times what it needs, about half of
# what a search of whole-schema compiles needs.
limit=10

"$top_srcdir/tests/diagnose/make-many-types.sh" 64 "$work" "$bitsift"
run() { # run OUT ARGS...: diagnose with the CPU limit; its status in $status
    out=$1
    shift
    (ulimit -t $limit && exec "$bitsift" diagnose "$@" -s "$work/schema.bss" "$work/packets") \
        >"$out" 2>"$out.err"
    status=$?
}
run "$work/text1"
report $((status != 1)) "64 failing types diagnosed within $limit s of CPU (exit $status, 1 expected)"
grep -q '^packet t63: [0-9]* failing' "$work/text1"
report $? "the last type is diagnosed"
n_types=$(grep -c '^packet t[0-9]*: [0-9]* failing' "$work/text1")
n_found=$(awk '/^packet t/ { type = $2 }
    /^  #1=? +c: 10 -> 12 bits, range 0\.\.4095 \[range\]$/ { found[type] = 1 }
    END { n = 0; for (t in found) n++; print n }' "$work/text1")
report $((n_types != 64 || n_found != 64)) "the drift of c ranks first in each of the 64 types ($n_found of $n_types)"
grep -q 'not tried' "$work/text1"
report $((! $?)) "every candidate tried: the budget does not bind at 64 types"
run "$work/text2"
cmp -s "$work/text1" "$work/text2"
report $? "text: two runs print the same"
run "$work/json1" -F json
report $((status != 1)) "JSON: exit 1 within $limit s (exit $status)"
run "$work/json2" -F json
cmp -s "$work/json1" "$work/json2"
report $? "JSON: two runs print the same"
grep -q '^{"summary":{.*"candidates_not_tried":0,"work":[0-9]*,"work_budget":[0-9]*,"interrupted":false}}$' \
    "$work/json1"
report $? "JSON: the summary gives the work done, the budget, nothing left out"
echo "1..$n"
exit $failed
