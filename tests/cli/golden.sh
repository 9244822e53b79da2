#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# golden.sh -- the golden tests of the bitsift command, as data.
#
#   tests/cli/golden.sh                  run every test of tests/cli/TESTLIST (TAP)
#   tests/cli/golden.sh --regen NAME...  rewrite the expected file of each NAME
#
# Each line of TESTLIST is "NAME EXIT COMMAND...": the command is a shell
# command line run from the top of the source tree, where `bitsift` is the
# built program and @TMP@ a fresh scratch directory. Its expected output is
# tests/cli/expected/NAME: standard output, then standard error after a
# "--- stderr" line, then every file the command left in @TMP@ (binary
# files as hex, JUnit times blanked), then "--- exit N". The test passes when
# both the output and the exit status match.
set -u
: "${top_srcdir:=.}"
: "${top_builddir:=.}"
builddir=$(cd "$top_builddir" && pwd)
srcdir=$(cd "$top_srcdir" && pwd)
program=$builddir/src/bitsift
expected_dir=$srcdir/tests/cli/expected
work=$(mktemp -d "${TMPDIR:-/tmp}/bitsift-golden.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM

# Outputs must not depend on the machine running the tests.
LC_ALL=C
TZ=UTC
BITSIFT_SCHEMA_DIR=$srcdir/examples
export LC_ALL TZ BITSIFT_SCHEMA_DIR

bitsift() {
    "$program" "$@"
}

# run NAME EXIT COMMAND -> writes the actual output to $work/NAME.actual
run() {
    name=$1
    command=$3
    tmp=$work/$name.tmp
    rm -rf "$tmp"
    mkdir -p "$tmp"
    cmd=$(printf '%s' "$command" | sed "s|@TMP@|$tmp|g")
    (cd "$srcdir" && eval "$cmd") >"$work/$name.stdout" 2>"$work/$name.stderr" </dev/null
    status=$?
    {
        sed "s|$tmp|@TMP@|g" "$work/$name.stdout"
        if [ -s "$work/$name.stderr" ]; then
            echo "--- stderr"
            sed "s|$tmp|@TMP@|g" "$work/$name.stderr"
        fi
        for f in $(cd "$tmp" && find . -type f | sort); do
            echo "--- file $f"
            case $f in
            *.xml | *.ndjson | *.txt) sed -e 's/time="[0-9.]*"/time="T"/g' "$tmp/$f" ;;
            *) od -An -tx1 -v "$tmp/$f" ;;
            esac
        done
        echo "--- exit $status"
    } >"$work/$name.actual"
}

list=$srcdir/tests/cli/TESTLIST

if [ "${1:-}" = --regen ]; then
    shift
    for want in "$@"; do
        found=0
        while read -r name exit command; do
            case $name in '' | '#'*) continue ;; esac
            [ "$name" = "$want" ] || continue
            found=1
            run "$name" "$exit" "$command"
            cp "$work/$name.actual" "$expected_dir/$name"
            echo "regenerated tests/cli/expected/$name (exit $status, listed $exit)"
        done <"$list"
        [ $found = 1 ] || echo "golden.sh: no test named $want" >&2
    done
    exit 0
fi

total=$(grep -c '^[^#[:space:]]' "$list")
echo "1..$total"
n=0
failed=0
while read -r name exit command; do
    case $name in '' | '#'*) continue ;; esac
    n=$((n + 1))
    run "$name" "$exit" "$command"
    if [ "$status" != "$exit" ]; then
        echo "not ok $n - $name: exit $status, expected $exit"
        sed 's/^/# /' "$work/$name.actual" | head -20
        failed=$((failed + 1))
    elif [ ! -f "$expected_dir/$name" ]; then
        echo "not ok $n - $name: no expected file tests/cli/expected/$name"
        failed=$((failed + 1))
    elif ! diff -u "$expected_dir/$name" "$work/$name.actual" >"$work/$name.diff"; then
        echo "not ok $n - $name: output differs"
        sed 's/^/# /' "$work/$name.diff" | head -40
        failed=$((failed + 1))
    else
        echo "ok $n - $name"
    fi
done <"$list"
[ $failed = 0 ]
