#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# fuzz/scripts/oss-fuzz-test.sh -- `make fuzz-oss-fuzz`: run
# fuzz/scripts/oss-fuzz-build.sh the way OSS-Fuzz's build step does, then
# check what it wrote: every shipped target of fuzz/targets.list is in $OUT
# with its seed corpus zip and options, and runs over every input of that
# zip without a finding.
#
#   oss-fuzz-test.sh WORK
#
# WORK/src/bitsift holds a fresh copy of the tree (the Makefile makes it).
# The build's environment is that of an OSS-Fuzz ASan + UBSan libFuzzer
# build: clang, CFLAGS and CXXFLAGS with -fsanitize=address,undefined and
# -fsanitize=fuzzer-no-link, LIB_FUZZING_ENGINE=-fsanitize=fuzzer, $SRC,
# $OUT and $WORK. Override CC/CXX/SANITIZER_FLAGS to try others.
set -u
work=$1
SRC=$(cd "$work/src" && pwd)
OUT=$(cd "$work" && pwd)/out
WORK=$(cd "$work" && pwd)/work
mkdir -p "$OUT" "$WORK"
: "${CC:=clang}" "${CXX:=clang++}"
: "${SANITIZER_FLAGS:=-fsanitize=address,undefined -fsanitize-address-use-after-scope -fno-sanitize-recover=undefined}"
CFLAGS="-O1 -fno-omit-frame-pointer -gline-tables-only -DFUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION $SANITIZER_FLAGS -fsanitize=fuzzer-no-link"
CXXFLAGS=$CFLAGS
LIB_FUZZING_ENGINE=-fsanitize=fuzzer
export CC CXX CFLAGS CXXFLAGS LIB_FUZZING_ENGINE SRC OUT WORK

echo "oss-fuzz: building in $SRC/bitsift (CC=$CC, CFLAGS=$CFLAGS)"
if ! (cd "$SRC/bitsift" && ./fuzz/scripts/oss-fuzz-build.sh) >"$work/build.log" 2>&1; then
    echo "FAIL: fuzz/scripts/oss-fuzz-build.sh; last lines of $work/build.log:"
    tail -n 30 "$work/build.log"
    exit 1
fi

srcdir=$SRC/bitsift
. "$srcdir/fuzz/scripts/targets.sh"
status=0
export ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
for t in $(fuzz_target_names shipped); do
    for f in "$t" "${t}_seed_corpus.zip"; do
        [ -f "$OUT/$f" ] || { echo "FAIL: $t: no $f in \$OUT"; status=1; continue 2; }
    done
    [ ! -f "$srcdir/fuzz/$t.options" ] || [ -f "$OUT/$t.options" ] ||
        { echo "FAIL: $t: no $t.options in \$OUT"; status=1; }
    seeds=$WORK/seeds/$t
    mkdir -p "$seeds"
    unzip -q -o "$OUT/${t}_seed_corpus.zip" -d "$seeds" || { status=1; continue; }
    # The [libfuzzer] options of the .options file, as ClusterFuzz passes them.
    set --
    if [ -f "$OUT/$t.options" ]; then
        for o in $(sed -n '/^\[libfuzzer\]/,/^\[/ { /^[a-z_]* *= */ s/ *= */=/p }' "$OUT/$t.options"); do
            case $o in dict=*) o="dict=$OUT/${o#dict=}" ;; esac
            set -- "$@" "-$o"
        done
    fi
    # -runs=0: run every input of the corpus once, fuzz nothing.
    n=$(ls "$seeds" | wc -l)
    if (cd "$WORK" && "$OUT/$t" "$@" -runs=0 "$seeds") >"$work/$t.log" 2>&1 &&
        grep -q 'INITED' "$work/$t.log"; then
        echo "ok: $t: $n seed inputs"
    else
        echo "FAIL: $t over its $n seed inputs; last lines of $work/$t.log:"
        tail -n 30 "$work/$t.log"
        status=1
    fi
done
exit $status
