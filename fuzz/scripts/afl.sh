#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# fuzz/scripts/afl.sh -- `make fuzz-afl`: build every harness for AFL++
# and run a short, unattended afl-fuzz session on each; fail if any crash
# was saved (afl-fuzz itself exits 0 when it found crashes).
#
# Builds, in $builddir/fuzz/afl-work/:
#   bin/<target>         afl-clang-fast, persistent mode with shared-memory
#                        test cases (fuzz/support/afl_driver.c), ASan + UBSan
#   bin/<target>.cmplog  the same with AFL_LLVM_CMPLOG=1, for afl-fuzz -c
#   lib/<target>-crc.so  for CRC-framed targets: the post_process custom
#                        mutator (fuzz/support/afl_crc_mutator.c) that
#                        re-seals the CRC
# and runs afl-fuzz -V $FUZZ_AFL_SECONDS (default 15) per target with the
# seed directories of fuzz/scripts/targets.sh's seed_dirs as input (its
# corpus, regressions and fuzz/seed-sources.list entries), the target's
# dictionary and cmplog. Output (queue, crashes) stays in
# afl-work/out/<target>/.
#
# The harnesses and their sources: fuzz/targets.list
# (fuzz/scripts/targets.sh).
# Environment (from fuzz/local.mk): srcdir, builddir, top_builddir,
# FUZZ_TARGETS, FUZZ_CRC_TARGETS, LIB_SOURCES, LIB_CFLAGS, LIB_LIBS, the
# harnesses' <LIBRARY>_CFLAGS/_LIBS, FUZZ_AFL_CC, FUZZ_AFL_FUZZ;
# FUZZ_AFL_SECONDS, FUZZ_AFL_TARGETS (a subset) may be set.
set -u

: "${srcdir:=.}" "${builddir:=.}" "${top_builddir:=.}" "${FUZZ_TARGETS:=}" "${FUZZ_CRC_TARGETS:=}"
: "${LIB_SOURCES:=}" "${LIB_CFLAGS:=}" "${LIB_LIBS:=}" "${FUZZ_AFL_CC:=}" "${FUZZ_AFL_FUZZ:=}"
seconds=${FUZZ_AFL_SECONDS:-15}
targets=${FUZZ_AFL_TARGETS:-$FUZZ_TARGETS}

if [ -z "$FUZZ_AFL_CC" ] || [ -z "$FUZZ_AFL_FUZZ" ]; then
    echo "fuzz-afl: AFL++ not found (afl-clang-fast/afl-cc and afl-fuzz); install afl++ and reconfigure" >&2
    exit 1
fi

. "$srcdir/fuzz/scripts/targets.sh"

work=$builddir/fuzz/afl-work
rm -rf "$work"
mkdir -p "$work/obj" "$work/obj-cmplog" "$work/obj-pic" "$work/bin" "$work/lib" "$work/in" "$work/out"
cflags="-g -O2 $LIB_CFLAGS"
export AFL_QUIET=1 AFL_USE_ASAN=1 AFL_USE_UBSAN=1

# objects DIR SOURCES CC [FLAGS...]: compile each source, print the objects.
objects() {
    dir=$1 sources=$2
    shift 2
    for src in $sources; do
        case $src in *.h) continue ;; esac
        fuzz_compile "$dir" "$src" "$@" $cflags || exit 1
    done
}

echo "fuzz-afl: building with $FUZZ_AFL_CC"
lib_objs=$(objects "$work/obj" "$LIB_SOURCES" "$FUZZ_AFL_CC") || exit 1
lib_cmplog_objs=$(AFL_LLVM_CMPLOG=1 objects "$work/obj-cmplog" "$LIB_SOURCES" "$FUZZ_AFL_CC") || exit 1
driver=$(objects "$work/obj" fuzz/support/afl_driver.c "$FUZZ_AFL_CC") || exit 1
driver_cmplog=$(AFL_LLVM_CMPLOG=1 objects "$work/obj-cmplog" fuzz/support/afl_driver.c "$FUZZ_AFL_CC") || exit 1

status=0
for t in $targets; do
    sources="$(harness_sources "$t") $(harness_generated "$t")"
    hcflags=$(harness_cflags "$t")
    libs="$(harness_libs "$t") $LIB_LIBS"
    # shellcheck disable=SC2086
    objs=$(objects "$work/obj" "$sources" "$FUZZ_AFL_CC" $hcflags) || exit 1
    # shellcheck disable=SC2086
    cmplog_objs=$(AFL_LLVM_CMPLOG=1 objects "$work/obj-cmplog" "$sources" "$FUZZ_AFL_CC" $hcflags) ||
        exit 1
    # shellcheck disable=SC2086
    "$FUZZ_AFL_CC" -o "$work/bin/$t" $objs $driver $lib_objs $libs || exit 1
    # shellcheck disable=SC2086
    AFL_LLVM_CMPLOG=1 "$FUZZ_AFL_CC" -o "$work/bin/$t.cmplog" $cmplog_objs $driver_cmplog \
        $lib_cmplog_objs $libs || exit 1

    set -- env
    case " $FUZZ_CRC_TARGETS " in
    *" $t "*)
        # The post-processor: plain clang, position-independent, no ASan.
        # shellcheck disable=SC2086
        pic=$(objects "$work/obj-pic" "fuzz/support/afl_crc_mutator.c $sources $LIB_SOURCES" \
            "${CC:-cc}" -fPIC -fvisibility=default $hcflags) || exit 1
        # shellcheck disable=SC2086
        "${CC:-cc}" -shared -o "$work/lib/$t-crc.so" $pic $libs || exit 1
        set -- env AFL_CUSTOM_MUTATOR_LIBRARY="$work/lib/$t-crc.so"
        ;;
    esac

    mkdir -p "$work/in/$t"
    seeds=$(seed_dirs "$t" "$work/seeds") || exit 1
    for d in $seeds; do
        cp "$d"/* "$work/in/$t/" 2>/dev/null
    done
    dict=$(sed -n '/^\[libfuzzer\]/,/^\[/ s/^dict *= *//p' "$srcdir/fuzz/$t.options" 2>/dev/null)
    [ -n "$dict" ] && dict="-x $srcdir/fuzz/$dict"

    echo "fuzz-afl: $t: afl-fuzz for ${seconds}s"
    # Unattended: no UI, no CPU governor or core-pattern checks, no
    # binding to a core (the machine is shared), a fresh output directory.
    # shellcheck disable=SC2086
    "$@" AFL_NO_UI=1 AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 \
        AFL_NO_AFFINITY=1 AFL_FAST_CAL=1 \
        "$FUZZ_AFL_FUZZ" -V "$seconds" -m none -t 1000 -i "$work/in/$t" -o "$work/out/$t" $dict \
        -c "$work/bin/$t.cmplog" -- "$work/bin/$t" >"$work/out/$t.log" 2>&1
    rc=$?
    # afl-fuzz -V can leave its cmplog fork server behind, stopped: end
    # every process of this target's binaries.
    pkill -KILL -f "^$work/bin/$t" 2>/dev/null
    stats=$work/out/$t/default/fuzzer_stats
    crashes=$(ls "$work/out/$t/default/crashes" 2>/dev/null | grep -c '^id:')
    hangs=$(ls "$work/out/$t/default/hangs" 2>/dev/null | grep -c '^id:')
    if [ "$rc" -ne 0 ] || [ ! -f "$stats" ]; then
        echo "FAIL: $t: afl-fuzz exit $rc; log $work/out/$t.log:"
        tail -n 20 "$work/out/$t.log"
        status=1
    elif [ "$crashes" -gt 0 ]; then
        echo "FAIL: $t: $crashes crash(es) in $work/out/$t/default/crashes"
        status=1
    else
        execs=$(sed -n 's/^execs_done *: *//p' "$stats")
        paths=$(sed -n 's/^corpus_count *: *//p' "$stats")
        echo "ok: $t: $execs execs, corpus $paths, $hangs hang(s)"
    fi
done
exit $status
