#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# fuzz/tests/check-targets.sh -- fuzz/targets.mk (committed, because Automake
# reads it before configure runs) is what fuzz/scripts/targets-mk.sh makes of
# fuzz/targets.list, and every harness in the list has its source and
# its seed corpus. TAP output.
set -u
: "${top_srcdir:=.}"
tmp=${TMPDIR:-/tmp}/targets-mk.$$
trap 'rm -f "$tmp"' EXIT
n=0 failed=0

result() {
    n=$((n + 1))
    if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; failed=$((failed + 1)); fi
}

sh "$top_srcdir/fuzz/scripts/targets-mk.sh" "$top_srcdir" >"$tmp"
rc=$?
if [ "$rc" -eq 0 ] && cmp -s "$tmp" "$top_srcdir/fuzz/targets.mk"; then
    result 0 "fuzz/targets.mk is up to date with fuzz/targets.list"
else
    diff -u "$top_srcdir/fuzz/targets.mk" "$tmp" | sed 's/^/# /' | head -n 40
    result 1 "fuzz/targets.mk is stale: sh fuzz/scripts/targets-mk.sh . >fuzz/targets.mk"
fi

srcdir=$top_srcdir
. "$top_srcdir/fuzz/scripts/targets.sh"
for t in $(fuzz_target_names all); do
    missing=
    for f in $(harness_sources "$t") "corpus/$t"; do
        [ -e "$top_srcdir/$f" ] || missing="$missing $f"
    done
    case " $(harness_sources "$t") " in *" fuzz/$t.c "*) ;; *) missing="$missing fuzz/$t.c(not listed)" ;; esac
    [ -z "$missing" ]
    result $? "$t: sources and corpus present${missing:+ (missing:$missing)}"
done
echo "1..$n"
[ "$failed" -eq 0 ]
