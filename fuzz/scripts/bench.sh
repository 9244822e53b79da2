#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# fuzz/scripts/bench.sh -- `make fuzz-bench`: executions per second of the
# harnesses under their libFuzzer build (ASan + UBSan, the flags of
# configure --enable-fuzzing). Each binary runs FUZZ_BENCH_ROUNDS times
# (default 5) for FUZZ_BENCH_SECONDS (default 20) of -max_total_time from
# its seed corpus, with seeds 1, 2, ...; the rounds of the binaries are
# interleaved (binary A, B, ..., then A, B, ... again), so that a change
# of the machine's load falls on all of them alike. Prints, per binary,
# the median over the rounds of libFuzzer's exec/s (runs / wall seconds)
# and of runs per CPU second (user + system time of the run: what a core
# of its own would give, the figure a loaded machine changes least), and
# each round's exec/s. A benchmark, not a test: it never fails on speed.
#
# With FUZZ_BENCH_BASELINE set to a directory holding binaries of the
# same names (another build's fuzz/, say), each round runs the baseline
# and this build's binary one after the other (in turn first), and prints
# both medians and the median of the per-round ratios.
#
# Environment: srcdir, builddir; FUZZ_BENCH_TARGETS (default the
# fuzz_packet variants, fuzz_roundtrip, fuzz_encode and fuzz_schema),
# FUZZ_BENCH_ROUNDS,
# FUZZ_BENCH_SECONDS, FUZZ_BENCH_BASELINE.
set -u

: "${srcdir:=.}" "${builddir:=.}"
rounds=${FUZZ_BENCH_ROUNDS:-5}
seconds=${FUZZ_BENCH_SECONDS:-20}
targets=${FUZZ_BENCH_TARGETS:-fuzz_packet fuzz_packet_crc fuzz_packet_schema fuzz_packet_seal fuzz_packet_nocrc fuzz_roundtrip fuzz_encode fuzz_schema}
baseline=${FUZZ_BENCH_BASELINE:-}
work=$builddir/fuzz/bench-work
rm -rf "$work"
mkdir -p "$work"

corpus_of() {
    case $1 in fuzz_packet*) echo fuzz_packet ;; *) echo "$1" ;; esac
}

# The children's CPU seconds (user + system) in the output of the shell's
# `times` (its second line: "1m2.500s 0m0.250s"), which must run in this
# shell, not in a command substitution's.
children_cpu() {
    sed -n 2p "$1" | awk '{
        t = 0
        for (i = 1; i <= 2; i++) { split($i, p, "m"); sub(/s$/, "", p[2]); t += p[1] * 60 + p[2] }
        printf "%.3f\n", t
    }'
}

# run SIDE TARGET BINARY ROUND: one round, its figures appended to
# $work/SIDE-TARGET.rates and .cpu.
run() {
    dir=$work/$1-$2-$4
    mkdir -p "$dir/corpus"
    times >"$dir/times-before"
    "$3" -max_total_time="$seconds" -seed="$4" -timeout=10 \
        -print_final_stats=1 -artifact_prefix="$dir/" "$dir/corpus" \
        "$srcdir/corpus/$(corpus_of "$2")" >"$dir/log" 2>&1
    times >"$dir/times-after"
    before=$(children_cpu "$dir/times-before")
    after=$(children_cpu "$dir/times-after")
    # libFuzzer's own figure: runs / seconds of the whole session.
    sed -n 's/^stat::average_exec_per_sec: *//p' "$dir/log" >>"$work/$1-$2.rates"
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$dir/log")
    awk -v r="${runs:-0}" -v a="$before" -v b="$after" \
        'BEGIN { printf "%d\n", (b > a ? r / (b - a) : 0) }' >>"$work/$1-$2.cpu"
}

median() {
    sort -n "$1" | awk '{ v[NR] = $1 } END { print NR ? v[int((NR + 1) / 2)] : 0 }'
}

echo "exec/s, $rounds rounds of $seconds s each (-max_total_time), interleaved${baseline:+, against $baseline}; load: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
r=1
while [ "$r" -le "$rounds" ]; do
    for t in $targets; do
        if [ -z "$baseline" ]; then
            run new "$t" "$builddir/fuzz/$t" "$r"
        elif [ $((r % 2)) -eq 1 ]; then
            run old "$t" "$baseline/$t" "$r"
            run new "$t" "$builddir/fuzz/$t" "$r"
        else
            run new "$t" "$builddir/fuzz/$t" "$r"
            run old "$t" "$baseline/$t" "$r"
        fi
    done
    r=$((r + 1))
done
echo "load at the end: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
for t in $targets; do
    rates=$(tr '\n' ' ' <"$work/new-$t.rates")
    if [ -z "$baseline" ]; then
        printf '%-20s median %7s exec/s, %7s runs per CPU second   (rounds: %s)\n' "$t" \
            "$(median "$work/new-$t.rates")" "$(median "$work/new-$t.cpu")" "$rates"
    else
        paste "$work/old-$t.rates" "$work/new-$t.rates" |
            awk '{ printf "%.2f\n", ($1 > 0 ? $2 / $1 : 0) }' >"$work/ratio-$t"
        printf '%-20s median exec/s %7s -> %7s (x%s; rounds %s); per CPU second %7s -> %7s\n' \
            "$t" "$(median "$work/old-$t.rates")" "$(median "$work/new-$t.rates")" \
            "$(median "$work/ratio-$t")" "$(tr '\n' ' ' <"$work/ratio-$t" | sed 's/ $//')" \
            "$(median "$work/old-$t.cpu")" "$(median "$work/new-$t.cpu")"
    fi
done
