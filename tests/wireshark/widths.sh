#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# widths.sh -- the generated Wireshark dissector on integers of every
# width, 1 to 64 bits, against bitsift decode, through tshark: bits(w), int
# ranges unsigned, signed, negative and at both ends of the 64-bit range,
# enums, and the relative encodings across their ladders (widths.py writes
# the schema and the records). One capture of the values at both ends of
# every range (bitsift encode), one of random packets valid and damaged
# (randcap); one tshark run each, compared field by field (compare.py).
# Prints TAP; skipped only when tshark is not installed.
name=wireshark-widths
. "${top_srcdir:-.}/tests/cli/script-setup.sh"
here=$top_srcdir/tests/wireshark
randcap=$(cd "$top_builddir" && pwd)/tests/wireshark/randcap

if ! command -v tshark >/dev/null 2>&1; then
    echo "1..0 # SKIP tshark is not installed"
    exit 0
fi
tshark() {
    command tshark -n -o ip.defragment:FALSE "$@"
}

python3 "$here/widths.py" "$work/widths.bss" "$work/ends.ndjson"
"$bitsift" gen wireshark -s "$work/widths.bss" -o "$work/widths.lua" -p 27015 >"$work/out" 2>&1
report $? "gen wireshark of $(grep -c ';$' "$work/widths.bss") fields of every width"
sed 's/^/  # /' "$work/out"

# compare WHAT CAPTURE: tshark with the dissector against bitsift decode.
compare() {
    "$bitsift" decode -F json -s "$work/widths.bss" "$2" >"$work/b.ndjson" 2>/dev/null
    tshark -X lua_script:"$work/widths.lua" -r "$2" -T json --no-duplicate-keys \
        >"$work/t.json" 2>"$work/t.err"
    python3 "$here/compare.py" widths "$work/t.json" "$work/b.ndjson" >"$work/out" 2>&1
    report $? "$1: tshark with the dissector as bitsift decode ($(tail -n 1 "$work/out" | sed 's/^# //'))"
    grep -v '^# [0-9]* packets' "$work/out" | head -12 | sed 's/^#* */  # /'
}

"$bitsift" encode -s "$work/widths.bss" -w "$work/ends.pcap" "$work/ends.ndjson" \
    >"$work/out" 2>&1
report $? "bitsift encode of the values at both ends of every range"
sed 's/^/  # /' "$work/out"
compare "the ends of every range" "$work/ends.pcap"

if "$randcap" "$work/random.pcap" 34 60 "$work/widths.bss" 27015 2>"$work/out"; then
    compare "random packets, valid and damaged" "$work/random.pcap"
else
    report 1 "randcap: $(cat "$work/out")"
fi
echo "1..$n"
exit 0
