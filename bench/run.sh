#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# bench/run.sh -- run by `make bench`: prints the machine and load, then
# runs every benchmark section, each printing its rows of one table.
#
#   bench/run.sh TOP_BUILDDIR TOP_SRCDIR     (BENCH_REPS in the environment)
set -u
builddir=${1:-.}
srcdir=${2:-.}
reps=${BENCH_REPS:-9}
export BENCH_REPS="$reps"

model=$(LC_ALL=C lscpu 2>/dev/null | sed -n 's/^Model name: *//p' | head -n 1)
echo "bitsift benchmarks, $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "machine: ${model:-unknown CPU}, $(nproc 2>/dev/null || echo '?') CPUs," \
    "load average $(cut -d ' ' -f 1-3 /proc/loadavg 2>/dev/null || echo '?')"
echo "each figure: median of $reps rounds, candidate and baseline interleaved;" \
    "ratio: median of per-round ratios (CPU time)"
echo

status=0
"$builddir/bench/bench_reader" --header || status=1
"$builddir/bench/bench_crc" || status=1
schema="$srcdir/examples/shooter.bss"
if [ -f "$schema" ]; then
    "$builddir/bench/bench_schema" "$schema" || status=1
    "$builddir/bench/bench_gen_c" "$schema" || status=1
else
    printf '%-2s %-34s %s\n' 3 "schema decode (visitor, tree)" "n/a (needs examples/shooter.bss)"
fi
"$builddir/bench/bench_e2e" "$builddir" "$srcdir" || status=1
"$builddir/bench/bench_diagnose" "$builddir" "$srcdir" || status=1
# Section 6 reads the capture section 4 made.
python3 "$srcdir/bench/wireshark.py" "$builddir" "$srcdir" || status=1
exit $status
