#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# tshark-crosscheck.sh -- src/io/decap.c against tshark: for every capture of
# tests/cli/data that has a .tshark file (tshark's frame numbers, addresses,
# ports and UDP lengths, written by prepare-data.sh when the data was made),
# bitsift must find the same UDP datagrams in the same frames. Prints TAP.
name=tshark
. "${top_srcdir:-.}/tests/cli/script-setup.sh"

set -- "$data"/*.tshark
echo "1..$#"
n=0
for expected in "$@"; do
    n=$((n + 1))
    capture=${expected%.tshark}
    name=$(basename "$capture")
    # tshark: frame ip.src ipv6.src sport ip.dst ipv6.dst dport udp.length
    # (one of each address pair is empty; awk's default splitting drops it).
    awk '{ print $1, $2, $3, $4, $5, $6 }' "$expected" >"$work/tshark"
    # bitsift: index, src, dst, length -> the same columns.
    "$bitsift" decode -F json -q -s "$data/arena.bss" -s "$data/lobby.bss" "$capture" 2>/dev/null |
        sed -n 's/^{"index":\([0-9]*\),.*"src":"\([^"]*\)","dst":"\([^"]*\)","length":\([0-9]*\),.*/\1 \2 \3 \4/p' |
        awk '{
            split_addr($2); s = a; sp = p
            split_addr($3); d = a; dp = p
            print $1, s, sp, d, dp, $4 + 8
        }
        function split_addr(x,   i) {
            i = match(x, /:[0-9]+$/)
            a = substr(x, 1, i - 1); p = substr(x, i + 1)
            gsub(/^\[|\]$/, "", a)
        }' >"$work/bitsift"
    if [ -s "$work/tshark" ] && cmp -s "$work/tshark" "$work/bitsift"; then
        echo "ok $n - $name: the same UDP datagrams as tshark ($(wc -l <"$work/tshark") frames)"
    else
        echo "not ok $n - $name: bitsift and tshark differ"
        diff "$work/tshark" "$work/bitsift" | head -6 | sed 's/^/# /'
    fi
done
