#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# seeds-reseal.sh -- `bitsift seeds` and `bitsift reseal`: seeds for every
# packet type of every schema of the tree that compiles (the 1024-slot
# sparse arrays of scenes.bss and of the fuzzing example included), each
# a packet `bitsift validate` accepts; reseal repairs exactly the CRC, by
# schema and by protocol id, and refuses what it cannot do. Prints TAP.
name=seeds-reseal
. "${top_srcdir:-.}/tests/cli/script-setup.sh"



# Every schema file of the tree that compiles (the fuzz_schema corpus
# holds the valid ones fuzz_schema found interesting).
schemas=
for f in "$top_srcdir"/examples/*.bss "$top_srcdir"/examples/*/*.bss "$top_srcdir"/tests/schema/*.bss \
    "$top_srcdir"/tests/cli/data/*.bss "$top_srcdir"/corpus/fuzz_schema/*; do
    [ -f "$f" ] && "$bitsift" schema "$f" >/dev/null 2>&1 && schemas="$schemas $f"
done

i=0
for f in $schemas; do
    i=$((i + 1))
    base=$(basename "$f" .bss)
    dir=$work/seeds-$base
    [ -d "$dir" ] && dir=$dir-$i
    mkdir "$dir"
    "$bitsift" seeds -q -c 2 -s "$f" -o "$dir" >"$work/out" 2>&1
    status=$?
    types=$("$bitsift" schema "$f" | grep -c '^packet ')
    missing=0
    for t in $("$bitsift" schema "$f" | sed -n 's/^packet \([A-Za-z0-9_]*\).*/\1/p'); do
        ls "$dir" | grep -q -- "-$t-" || missing=$((missing + 1))
    done
    "$bitsift" validate -q -s "$f" "$dir" >"$work/validate" 2>&1
    valid=$?
    report "$([ "$status" = 0 ] && [ "$missing" = 0 ] && [ "$types" -gt 0 ] && [ "$valid" = 0 ]; echo $?)" \
        "seeds of all $types packet types of ${f#"$top_srcdir"/}, all valid (status $status, $missing types missing, validate $valid)"
done

# The sparse(relative) arrays: a full seed holds many elements.
decoded=$("$bitsift" decode -s "$top_srcdir/examples/scenes.bss" "$work/seeds-scenes/scenes-scene_d-100-0" | grep -c 'visible')
report "$([ "${decoded:-0}" -gt 16 ]; echo $?)" "a full scene_d seed has many sparse(relative) elements ($decoded)"

"$bitsift" seeds -o "$work/no/such/dir" >"$work/out" 2>&1
status=$?
report "$([ "$status" = 2 ] && grep -q 'no/such/dir: No such file' "$work/out"; echo $?)" \
    "a missing output directory is an error (status $status)"
"$bitsift" seeds -s "$top_srcdir/examples/shooter.bss" >"$work/out" 2>&1
report "$([ $? = 2 ]; echo $?)" "seeds without -o is a usage error"

# reseal: break the CRC of a seed, reseal it, compare.
shooter=$top_srcdir/examples/shooter.bss
seed=$(ls "$work/seeds-shooter"/* | head -n 1)
cp "$seed" "$work/broken"
printf '\377\377' | dd of="$work/broken" bs=1 seek=0 count=2 conv=notrunc 2>/dev/null
"$bitsift" validate -q -s "$shooter" "$work/broken" >/dev/null 2>&1
report "$([ $? = 1 ]; echo $?)" "a seed with a broken CRC is invalid"
"$bitsift" reseal -s "$shooter" -o "$work/fixed" "$work/broken" && cmp -s "$work/fixed" "$seed"
report $? "reseal -s restores the seed byte for byte"
id=$("$bitsift" schema "$shooter" | sed -n 's/.*id \(0x[0-9a-f]*\).*/\1/p' | head -n 1)
"$bitsift" reseal --protocol "$id" -o - "$work/broken" >"$work/fixed2" && cmp -s "$work/fixed2" "$seed"
report $? "reseal --protocol $id to standard output gives the same"
cp "$work/broken" "$work/inplace"
"$bitsift" reseal --in-place -s "$shooter" -s "$top_srcdir/examples/article.bss" "$work/inplace" &&
    cmp -s "$work/inplace" "$seed"
report $? "reseal --in-place with two schemas picks the packet's protocol"
printf 'abc' >"$work/short"
"$bitsift" reseal --protocol 1 -o "$work/x" "$work/short" >"$work/out" 2>&1
report "$([ $? = 2 ] && grep -q 'cannot hold a CRC' "$work/out" && [ ! -e "$work/x" ]; echo $?)" \
    "a file too short for a CRC is refused, nothing written"
"$bitsift" reseal --protocol 1 -o "$work/x" --in-place "$work/broken" >/dev/null 2>&1
report "$([ $? = 2 ]; echo $?)" "-o and --in-place together are refused"
"$bitsift" reseal --protocol 0x1nope -o "$work/x" "$work/broken" >/dev/null 2>&1
report "$([ $? = 2 ]; echo $?)" "a bad protocol id is refused"

echo "1..$n"
exit $failed
