#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# events.sh -- the decoder's events, results and trees must stay exactly
# those recorded in events.expected (made by event_stream list before the
# visitor path was optimised): one TAP point per schema. On a difference,
# `event_stream dump SCHEMA TYPE SEED VARIANT MODE` prints the text of one
# decode to compare with the same command built from an older commit.
: "${top_srcdir:=.}" "${top_builddir:=.}"
tool="$top_builddir/tests/schema/event_stream"
expected="$top_srcdir/tests/schema/events.expected"
schemas="examples/shooter.bss examples/article.bss examples/scenes.bss examples/robocat.bss
tests/cli/data/arena.bss tests/cli/data/lobby.bss tests/schema/constructs.bss"
got=$(mktemp)
trap 'rm -f "$got"' EXIT
count=0
for schema in $schemas; do
    count=$((count + 1))
    name=${schema##*/}
    if ! "$tool" list "$top_srcdir/$schema" >"$got" 2>&1; then
        echo "not ok $count - $name: event_stream failed: $(grep -v "^$name " "$got" | head -n 3)"
        continue
    fi
    want=$(grep -c "^$name " "$expected")
    if [ "$want" -eq 0 ]; then
        echo "not ok $count - $name: nothing expected"
    elif grep "^$name " "$expected" | cmp -s - "$got"; then
        echo "ok $count - $name: $want packets and their variants, same events, results and trees"
    else
        first=$(grep "^$name " "$expected" | diff - "$got" | grep '^>' | head -n 1)
        echo "not ok $count - $name: differs, first at${first#>}"
    fi
done
echo "1..$count"
