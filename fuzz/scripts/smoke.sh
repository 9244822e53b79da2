#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# fuzz/scripts/smoke.sh -- `make fuzz-smoke`: run every libFuzzer harness
# for a fixed number of runs with a fixed seed (deterministic, a few seconds
# each) and fail on any crash, leak, timeout or out-of-memory, or when the
# harness prints anything of its own: the log may hold libFuzzer's lines
# only (fuzz/tests/check-silent.sh holds the replay programs of make check
# to the same over the seeds; here it is the mutated inputs).
#
# Each run works in its own scratch directory under
# $builddir/fuzz/smoke-work/<name>/: new inputs go to its corpus/, findings
# to its artifacts/. The seed corpus, the regressions and the seeds taken
# from elsewhere in the tree (fuzz/seed-sources.list) are passed as extra
# (read-only) corpus directories: libFuzzer only ever writes into the
# first directory, so nothing lands in corpus/.
#
# Environment: srcdir, builddir, FUZZ_TARGETS, FUZZ_VARIANTS (set by
# fuzz/local.mk); FUZZ_SMOKE_RUNS (default 30000; fuzz_diagnose gets a
# tenth of it), FUZZ_SMOKE_SEED (default 1).
set -u

: "${srcdir:=.}" "${builddir:=.}" "${FUZZ_TARGETS:=}" "${FUZZ_VARIANTS:=}"
runs=${FUZZ_SMOKE_RUNS:-30000}
seed=${FUZZ_SMOKE_SEED:-1}
work=$builddir/fuzz/smoke-work
status=0
. "$srcdir/fuzz/scripts/targets.sh"

# The value of `key` in the [libfuzzer] section of an OSS-Fuzz .options file.
option() {
    [ -f "$1" ] || return 0
    sed -n '/^\[libfuzzer\]/,/^\[/ s/^'"$2"' *= *//p' "$1" | head -n 1
}

# The lines of libFuzzer's log that are not libFuzzer's: what the harness
# printed.
harness_output() {
    grep -avE '^(#[0-9]+[[:space:]]+(NEW|REDUCE|pulse|INITED|DONE|RELOAD) |INFO: |WARNING: |stat::|Done [0-9]+ runs in |Dictionary: [0-9]+ entries|###### (Recommended|End of recommended) dictionary|".*" # Uses: [0-9]+$|MS: |[[:space:]]+NEW_FUNC\[)' "$1"
}

# smoke NAME BINARY TARGET: one libFuzzer run.
smoke() {
    name=$1 binary=$2 target=$3
    dir=$work/$name
    rm -rf "$dir"
    mkdir -p "$dir/corpus" "$dir/artifacts"
    # A diagnosis compiles candidate schemas for each input: 22 runs a
    # second under ASan, where the other harnesses make thousands. At the
    # full count it was 20 minutes of a CI run; a tenth is 2 or 3.
    target_runs=$runs
    [ "$target" = fuzz_diagnose ] && target_runs=$((runs / 10))
    set -- -runs="$target_runs" -seed="$seed" -timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=1024 \
        -print_final_stats=1 -artifact_prefix="$dir/artifacts/"
    max_len=$(option "$srcdir/fuzz/$target.options" max_len)
    [ -n "$max_len" ] && set -- "$@" -max_len="$max_len"
    dict=$(option "$srcdir/fuzz/$target.options" dict)
    [ -n "$dict" ] && set -- "$@" -dict="$srcdir/fuzz/$dict"
    set -- "$@" "$dir/corpus"
    seeds=$(seed_dirs "$target" "$dir") || return 1
    for d in $seeds; do
        set -- "$@" "$d"
    done
    "$binary" "$@" >"$dir/log" 2>&1
    rc=$?
    findings=$(ls "$dir/artifacts")
    if [ "$rc" -ne 0 ] || [ -n "$findings" ]; then
        echo "FAIL: $name (exit $rc) findings: ${findings:-none}; log $dir/log:"
        tail -n 30 "$dir/log"
        status=1
        return
    fi
    own=$(harness_output "$dir/log" | head -n 5)
    if [ -n "$own" ]; then
        echo "FAIL: $name printed lines of its own (a harness is silent); log $dir/log:"
        echo "$own"
        status=1
        return
    fi
    stats=$(sed -n 's/^#\([0-9]*\)[[:space:]]*DONE *cov: \([0-9]*\) ft: \([0-9]*\).*exec\/s: \([0-9]*\).*/\1 runs, cov \2, ft \3, \4 exec\/s/p' "$dir/log")
    echo "ok: $name: ${stats:-done}"
}

for t in $FUZZ_TARGETS; do
    smoke "$t" "$builddir/fuzz/$t" "$t"
done
# Variants built from a target's source (BINARY:TARGET): they share its
# seeds, dictionary and options.
for v in $FUZZ_VARIANTS; do
    smoke "${v%%:*}" "$builddir/fuzz/${v%%:*}" "${v#*:}"
done
exit $status
