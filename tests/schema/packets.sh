#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# packets.sh -- the example packets in examples/packets (made by the
# encoder, named SCHEMA-TYPE.bin) decode strictly as their type, encode
# back to the same bytes, and are told apart by protocol detection. TAP.
: "${top_srcdir:=.}" "${top_builddir:=.}"
tool="$top_builddir/tests/schema/schematool"
ex="$top_srcdir/examples"
n=0
for packet in "$ex"/packets/*.bin; do
    base=${packet##*/}
    base=${base%.bin}
    schema=${base%%-*}
    type=${base#*-}
    n=$((n + 1))
    got=$("$tool" verify "$ex/$schema.bss" "$type" "$packet" 2>&1)
    if [ "$got" = ok ]; then echo "ok $n - $base decodes and re-encodes byte for byte"
    else echo "not ok $n - $base: $got"; fi
    n=$((n + 1))
    index=$("$tool" detect "$packet" "$ex/shooter.bss" "$ex/article.bss" "$ex/scenes.bss" \
        "$ex/robocat.bss" 2>&1)
    case $schema in
    shooter) want=0 ;; article) want=1 ;; scenes) want=2 ;; *) want=3 ;;
    esac
    if [ "$index" = "$want" ]; then echo "ok $n - $base detected as $schema"
    else echo "not ok $n - $base detected as schema $index, not $want"; fi
done
echo "1..$n"
