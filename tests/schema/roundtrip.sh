#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# roundtrip.test -- every packet type of every example schema: random
# trees are encoded, decoded, encoded again; bytes, values and the
# visitor's bit accounting must agree (see schematool.c). TAP output.
: "${top_srcdir:=.}" "${top_builddir:=.}"
tool="$top_builddir/tests/schema/schematool"
n=0
out=$(mktemp)
trap 'rm -f "$out"' EXIT
for schema in shooter article scenes robocat constructs; do
    file="$top_srcdir/examples/$schema.bss"
    [ "$schema" = constructs ] && file="$top_srcdir/tests/schema/constructs.bss"
    [ -f "$file" ] || continue
    "$tool" roundtrip "$file" 60 >"$out" 2>&1
    status=$?
    grep -E '^(not )?ok ' "$out" | while IFS= read -r line; do
        echo "$line"
    done | sed "s/^\(not \)\{0,1\}ok [0-9]* - /&$schema: /" >>"$out.all"
    # A tool that dies (a sanitizer report, a crash) must not pass as
    # "fewer test points".
    if [ "$status" -ne 0 ] || ! grep -q '^ok ' "$out"; then
        echo "not ok 0 - $schema: schematool roundtrip exited $status: $(tail -n 1 "$out")" >>"$out.all"
    fi
done
count=0
while IFS= read -r line; do
    count=$((count + 1))
    case "$line" in
    "not ok"*) echo "not ok $count ${line#not ok * - }" ;;
    *) echo "ok $count ${line#ok * - }" ;;
    esac
done <"$out.all"
rm -f "$out.all"
if [ "$count" -eq 0 ]; then
    echo "1..1"
    echo "not ok 1 - no example schema found"
    exit 0
fi
echo "1..$count"
