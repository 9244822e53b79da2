#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# replay-schema.sh -- the reference vectors through the schema path. For
# every vector of $VECTORS_DIR (or of the directory given), tests/vectors/vector-schema
# writes a schema of its ops and its bytes; then
#   decode  `bitsift decode -F json` reads the bytes with that schema and
#           tests/vectors/vector-schema checks the record against the reference:
#           every value equal, every reject refused at the same field with
#           the same kind, every corrupt packet refused by its CRC;
#   encode  for a valid vector (stream, packet), `bitsift encode` writes
#           that record back, which must give the reference's bytes.
# One TAP point per vector; a TAP skip when $VECTORS_DIR is absent (a
# user's clone, distcheck).
set -u
: "${top_srcdir:=.}"
: "${top_builddir:=.}"
builddir=$(cd "$top_builddir" && pwd)
bitsift=$builddir/src/bitsift
tool=$builddir/tests/vectors/vector-schema
dir=${1:-${VECTORS_DIR:-}}
if [ -z "$dir" ] || [ ! -d "$dir" ]; then
    if [ $# -gt 0 ]; then
        echo "1..1"
        echo "not ok 1 - no vector directory \"$dir\""
        exit 1
    fi
    echo "1..0 # SKIP no vector directory \"$dir\""
    exit 0
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/bitsift-replay-schema.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
LC_ALL=C
export LC_ALL

find "$dir" -maxdepth 1 -name '*.json' | LC_ALL=C sort >"$work/list"
count=$(wc -l <"$work/list")
if [ "$count" -eq 0 ]; then
    echo "1..1"
    echo "not ok 1 - no *.json vector in $dir"
    exit 1
fi
echo "1..$count"
n=0
failed=0
# (Read from a list, not $(find): a path may hold spaces.)
while IFS= read -r vector; do
    n=$((n + 1))
    base=$(basename "$vector" .json)
    w=$work/$base
    # The bytes as a raw packet file, or, when there are none, as a UDP
    # datagram of no bytes (an empty file is no packet to bitsift).
    input=$w.bin
    if ! "$tool" schema "$vector" >"$w.bss" 2>"$w.err" ||
        ! "$tool" bytes "$vector" >"$w.bin" 2>>"$w.err" ||
        { [ ! -s "$w.bin" ] && input=$w.pcap && ! "$tool" pcap "$vector" >"$input" 2>>"$w.err"; }; then
        echo "not ok $n - $base: $(head -n 1 "$w.err")"
        failed=$((failed + 1))
        continue
    fi
    if ! "$bitsift" decode -F json -s "$w.bss" "$input" >"$w.ndjson" 2>"$w.err" </dev/null; then
        echo "not ok $n - $base: decode failed: $(head -n 1 "$w.err")"
        failed=$((failed + 1))
    elif ! verdict=$("$tool" check "$vector" "$w.ndjson"); then
        echo "not ok $n - $verdict"
        failed=$((failed + 1))
    elif grep -q '"valid":true' "$w.ndjson" &&
        ! { "$bitsift" encode -s "$w.bss" -o "$w.encoded" "$w.ndjson" 2>"$w.err" &&
            cmp -s "$w.bin" "$w.encoded"; }; then
        echo "not ok $n - $verdict; encoding the record back: $(head -n 1 "$w.err")" \
            "$([ -f "$w.encoded" ] && echo "gives other bytes than the reference")"
        failed=$((failed + 1))
    else
        echo "ok $n - $verdict$(grep -q '"valid":true' "$w.ndjson" && echo ', encoded back byte for byte')"
    fi
    rm -f "$w".*
done <"$work/list"
echo "# $((n - failed)) of $n vectors decode (and encode) through their schema as the reference says"
[ "$failed" -eq 0 ]
