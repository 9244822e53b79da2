#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# seeds-memory.sh -- `bitsift seeds` in bounded memory whatever the schema:
# over every schema of the tree (corpus/, tests/, examples/: those that do
# not compile are counted as refusals), and over schemas made to be large
# (arrays of 64 KiB byte fields, 64 Ki strings, a million bools, a branch
# too large), each run within 64 MiB of peak RSS, each seed within 1 MiB
# and valid. A packet type whose smallest packet is over 1 MiB (the
# schema of issue 34: 64 Ki fields of 64 KiB) is refused with its size
# before anything is built; every run is capped at 1 GiB of address space
# (ASan: its own RSS limit) so that a regression fails instead of taking
# the machine. Prints TAP.
name=seeds-memory
. "${top_srcdir:-.}/tests/cli/script-setup.sh"
peak_rss=$(cd "$top_builddir" && pwd)/tests/cli/peak-rss
limit_kib=65536
peak() { sed -n 's/^peak-rss: //p' "$1"; }

# ulimit -v does not suit a sanitizer's shadow memory: there, its own RSS
# limit does the job, freed memory is not held in quarantine, and the
# bound is half as large again for the shadow and the redzones.
if (ulimit -v 1048576 && "$bitsift" --version) >/dev/null 2>&1; then
    cap() { ulimit -v 1048576; }
else
    cap() { :; }
    ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}hard_rss_limit_mb=1024:quarantine_size_mb=0"
    export ASAN_OPTIONS
    limit_kib=$((limit_kib * 3 / 2))
fi
# seeds SCHEMA DIR: seeds -c 2 under the caps; status in $status, peak
# RSS in $kib, messages in DIR.err.
seeds() {
    rm -rf "$2"
    mkdir "$2"
    (cap && ulimit -t 60 && exec "$peak_rss" "$bitsift" seeds -q -c 2 -s "$1" -o "$2") \
        >/dev/null 2>"$2.err"
    status=$?
    kib=$(peak "$2.err")
    kib=${kib:-999999999}
}
# Every seed in DIR at most 1 MiB; every one valid for SCHEMA.
seeds_fit() {
    [ -z "$(find "$1" -type f -size +1048576c)" ] || return 1
    [ -z "$(ls "$1")" ] || "$bitsift" validate -q -s "$2" "$1" >/dev/null 2>&1
}

# --- every schema of the tree -------------------------------------------------
seeded=0
refused=0
over=""
for schema in $(cd "$top_srcdir" && find corpus tests examples -name '*.bss' | LC_ALL=C sort); do
    seeds "$top_srcdir/$schema" "$work/out"
    if [ "$kib" -gt $limit_kib ] || { [ "$status" != 0 ] && [ "$status" != 2 ]; }; then
        over="$over $schema($status, $kib KiB)"
    elif [ "$status" = 0 ] && seeds_fit "$work/out" "$top_srcdir/$schema"; then
        seeded=$((seeded + 1))
    elif [ "$status" = 2 ] && grep -q "$schema:[0-9]*:[0-9]*: " "$work/out.err"; then
        refused=$((refused + 1)) # does not compile: an expected refusal
    else
        over="$over $schema(exit $status: $(head -n 1 "$work/out.err"))"
    fi
done
[ -z "$over" ] && [ "$seeded" -ge 10 ]
report $? "seeds of every schema in the tree within $limit_kib KiB, seeds valid and within 1 MiB: $seeded seeded, $refused do not compile${over:+; failed:$over}"

# --- the schema of issue 34 ----------------------------------------------------
cat >"$work/issue34.bss" <<'SCHEMA'
protocol huge { version 1; }
packet p { bytes(65536) b[65536]; }
SCHEMA
seeds "$work/issue34.bss" "$work/issue34"
[ "$status" = 2 ] && [ "$kib" -le $limit_kib ] && [ -z "$(ls "$work/issue34")" ]
report $? "64 Ki fields of 64 KiB: refused (exit $status) in $kib KiB, nothing written"
grep -q 'packet type p: its smallest packet is 4294967304 bytes, over the 1048576 bytes' \
    "$work/issue34.err"
report $? "the message names the type and its smallest size against the cap"

# --- schemas made to be large --------------------------------------------------
big() { # big NAME BODY...: a schema of one packet type p
    name=$1
    shift
    { echo "protocol $name { version 1; }"; printf '%s\n' "$@"; } >"$work/$name.bss"
}
big counted 'packet p { int(0, 65535) n; bytes(65536) b[n]; }'
big flags 'packet p { bytes(65536) b[65536] sparse(flags); }'
big indices 'packet p { bytes(4096) b[65536] sparse(indices); }'
big strings 'packet p { string(65536) s[65536]; }'
big nested 'struct Row { bytes(1024) r[max 1024]; }' 'packet p { Row rows[max 1024]; }'
big branch 'packet p { bytes(65536) b[15]; int(0, 1) x; if (x == 1) bytes(65536) c[2]; }'
big exact 'packet p { bytes(65536) b[15]; bytes(65000) c; }'
for name in counted flags indices strings nested branch exact; do
    seeds "$work/$name.bss" "$work/$name"
    [ "$status" = 0 ] && [ "$kib" -le $limit_kib ] && seeds_fit "$work/$name" "$work/$name.bss"
    report $? "$name: seeds made (exit $status) in $kib KiB, each valid and within 1 MiB ($(ls "$work/$name" | wc -l) seeds)"
done
# A million bools fit 128 KiB, not the random tree's nodes: refused in
# bounded memory.
big bools 'struct Row { bool b[65536]; }' 'packet p { Row r[16]; }'
seeds "$work/bools.bss" "$work/bools"
[ "$status" = 2 ] && [ "$kib" -le $limit_kib ] &&
    grep -q "no packet of type p could be made within 1048576 bytes" "$work/bools.err"
report $? "a million bools: refused (exit $status) in $kib KiB"

echo "1..$n"
exit $failed
