#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# fuzz/tests/check-silent.sh -- every fuzz harness is silent: run over its
# seed corpus and regression inputs (its replay program with no arguments,
# as `make check` runs it), it writes nothing to stderr and nothing to
# stdout but the replay driver's own TAP lines. A harness that prints what
# it refuses fills a fuzzing campaign's log (a 15-minute fuzz_encode run
# wrote 371 MB of "not a JSON object" lines) and spends its time in stdio
# and write(2); one that must say something about a failed check says it,
# then aborts. The harnesses come from fuzz/targets.list, so a new one is
# covered without a change here. TAP output.
set -u
: "${top_srcdir:=.}" "${top_builddir:=.}"
srcdir=$top_srcdir
. "$top_srcdir/fuzz/scripts/targets.sh"
work=${TMPDIR:-/tmp}/fuzz-silent.$$
mkdir -p "$work" || exit 99
trap 'rm -rf "$work"' EXIT

names=$(fuzz_target_names all)
set -- $names
echo "1..$#"
n=0 failed=0
for t in $names; do
    n=$((n + 1))
    top_srcdir=$top_srcdir "$top_builddir/fuzz/replay_$t" >"$work/out" 2>"$work/err"
    rc=$?
    # The driver's lines: the plan, a result per input, "# input" comments.
    grep -Ev '^(1\.\.[0-9]+|ok [0-9]+ |not ok [0-9]+ |# input )' "$work/out" >"$work/extra"
    err_bytes=$(wc -c <"$work/err" | tr -d ' ')
    out_bytes=$(wc -c <"$work/extra" | tr -d ' ')
    inputs=$(grep -c '^ok ' "$work/out")
    if [ "$rc" -eq 0 ] && [ "$err_bytes" -eq 0 ] && [ "$out_bytes" -eq 0 ]; then
        echo "ok $n - $t: silent over its $inputs inputs"
    else
        echo "not ok $n - $t: exit $rc; $err_bytes bytes on stderr, $out_bytes bytes of its own on stdout"
        for f in err extra; do
            [ -s "$work/$f" ] && head -n 5 "$work/$f" | sed 's/^/# /'
        done
        failed=$((failed + 1))
    fi
done
[ "$failed" -eq 0 ]
