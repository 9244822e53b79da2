#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# fuzz/bench.sh -- `make fuzz-bench`: executions per second of the packet
# harnesses under their libFuzzer build (ASan + UBSan, the flags of
# configure --enable-fuzzing). Each binary runs FUZZ_BENCH_ROUNDS times
# (default 5) for FUZZ_BENCH_SECONDS (default 20) of -max_total_time from
# its seed corpus, with seeds 1, 2, ...; the rounds of the binaries are
# interleaved (binary A, B, ..., then A, B, ... again), so that a change
# of the machine's load falls on all of them alike. Prints each round's
# exec/s and the median. A benchmark, not a test: it never fails on speed.
#
# Environment: srcdir, builddir; FUZZ_BENCH_TARGETS (default the
# fuzz_packet variants and fuzz_roundtrip), FUZZ_BENCH_ROUNDS,
# FUZZ_BENCH_SECONDS.
set -u

: "${srcdir:=.}" "${builddir:=.}"
rounds=${FUZZ_BENCH_ROUNDS:-5}
seconds=${FUZZ_BENCH_SECONDS:-20}
targets=${FUZZ_BENCH_TARGETS:-fuzz_packet fuzz_packet_crc fuzz_packet_schema fuzz_packet_seal fuzz_packet_nocrc fuzz_roundtrip}
work=$builddir/fuzz/bench-work
rm -rf "$work"
mkdir -p "$work"

corpus_of() {
    case $1 in fuzz_packet*) echo fuzz_packet ;; *) echo "$1" ;; esac
}

echo "exec/s, $rounds rounds of $seconds s each (-max_total_time), interleaved; load: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
r=1
while [ "$r" -le "$rounds" ]; do
    for t in $targets; do
        dir=$work/$t-$r
        mkdir -p "$dir/corpus"
        "$builddir/fuzz/$t" -max_total_time="$seconds" -seed="$r" -timeout=10 \
            -print_final_stats=1 -artifact_prefix="$dir/" "$dir/corpus" \
            "$srcdir/corpus/$(corpus_of "$t")" >"$dir/log" 2>&1
        # libFuzzer's own figure: runs / seconds of the whole session.
        sed -n 's/^stat::average_exec_per_sec: *//p' "$dir/log" >>"$work/$t.rates"
    done
    r=$((r + 1))
done
for t in $targets; do
    rates=$(sort -n "$work/$t.rates" | tr '\n' ' ')
    median=$(sort -n "$work/$t.rates" | awk '{ v[NR] = $1 } END { print NR ? v[int((NR + 1) / 2)] : 0 }')
    printf '%-20s median %7s exec/s   (rounds: %s)\n' "$t" "$median" "$rates"
done
