#!/bin/sh
# fuzz/coverage.sh -- `make coverage`: replay the seed corpus and the
# regressions of every harness through a coverage build of libbitsift and
# print the line and branch coverage of lib/*.c, per file and in total.
#
# Builds with the configured compiler and --coverage in
# $builddir/fuzz/coverage-work/ (gcc: gcov; clang: llvm-cov gcov), runs the
# replay main (fuzz/replay_main.c) of each harness, then summarises gcov's
# "Lines executed" and "Taken at least once" (branches). Fails when the
# total is below COVERAGE_MIN_LINES (default 90) percent of lines or
# COVERAGE_MIN_BRANCHES (default 80) percent of branches.
#
# Environment (from fuzz/local.mk): srcdir, builddir, top_builddir,
# FUZZ_TARGETS, LIB_SOURCES, LIB_CFLAGS, LIB_LIBS, CC, LLVM_COV, GCOV.
set -u

: "${srcdir:=.}" "${builddir:=.}" "${top_builddir:=.}" "${FUZZ_TARGETS:=}"
: "${LIB_SOURCES:=}" "${LIB_CFLAGS:=}" "${LIB_LIBS:=}" "${CC:=cc}" "${LLVM_COV:=}" "${GCOV:=gcov}"
min_lines=${COVERAGE_MIN_LINES:-90}
min_branches=${COVERAGE_MIN_BRANCHES:-80}

. "$srcdir/fuzz/targets.sh"

work=$builddir/fuzz/coverage-work
rm -rf "$work"
mkdir -p "$work/lib" "$work/harness" "$work/bin"
cppflags="-DHAVE_CONFIG_H -I$top_builddir -I$srcdir/lib -I$srcdir/fuzz -I$srcdir/src"
cflags="-O0 -g --coverage $LIB_CFLAGS"

if "$CC" --version 2>/dev/null | grep -q clang; then
    [ -n "$LLVM_COV" ] || { echo "coverage: clang needs llvm-cov" >&2; exit 1; }
    gcov_tool="$LLVM_COV gcov"
else
    gcov_tool=$GCOV
fi

lib_objs=
for src in $LIB_SOURCES; do
    case $src in *.h) continue ;; esac
    obj=$work/lib/$(basename "$src" .c).o
    "$CC" $cppflags $cflags -c "$srcdir/$src" -o "$obj" || exit 1
    lib_objs="$lib_objs $obj"
done

status=0
for t in $FUZZ_TARGETS; do
    objs=
    for src in $(harness_sources "$t") fuzz/replay_main.c; do
        [ -f "$srcdir/$src" ] || { [ -f "$builddir/$src" ] && src_path=$builddir/$src; } || continue
        src_path=$srcdir/$src
        [ -f "$src_path" ] || src_path=$builddir/$src
        obj=$work/harness/${t}_$(basename "$src" .c).o
        "$CC" $cppflags $cflags -DFUZZ_TARGET_NAME="\"$t\"" -c "$src_path" -o "$obj" || exit 1
        objs="$objs $obj"
    done
    # shellcheck disable=SC2086
    "$CC" --coverage -o "$work/bin/replay_$t" $objs $lib_objs $LIB_LIBS || exit 1
    set -- "$srcdir/corpus/$t"
    [ -d "$srcdir/fuzz/regressions/$t" ] && set -- "$@" "$srcdir/fuzz/regressions/$t"
    # The schema tests' hostile schemas are seeds for the compiler too.
    [ "$t" = fuzz_schema ] && [ -d "$srcdir/corpus/schemas" ] && set -- "$@" "$srcdir/corpus/schemas"
    if ! "$work/bin/replay_$t" "$@" >"$work/replay_$t.log" 2>&1; then
        echo "coverage: replay of $t failed; see $work/replay_$t.log" >&2
        status=1
    fi
    echo "coverage: $t: $(grep -c '^ok' "$work/replay_$t.log") inputs replayed"
done

# gcov -b -n prints, per source file:
#   File 'lib/bit_reader.c'
#   Lines executed:95.00% of 100
#   Branches executed:90.00% of 50
#   Taken at least once:80.00% of 50
(cd "$work/lib" && for obj in *.o; do $gcov_tool -b -n -o . "$obj" 2>/dev/null; done) |
    awk -v min_l="$min_lines" -v min_b="$min_branches" '
    /^File / { file = $2; gsub(/\047/, "", file); keep = file ~ /lib\/[^\/]*\.c$/ }
    keep && /^Lines executed:/ {
        split($2, a, "%"); pct = substr(a[1], index(a[1], ":") + 1); n = $NF
        lines[file] = n; lhit[file] = pct * n / 100 }
    keep && /^Taken at least once:/ {
        split($4, a, "%"); pct = substr(a[1], index(a[1], ":") + 1); n = $NF
        br[file] = n; bhit[file] = pct * n / 100 }
    END {
        printf "%-32s %16s %16s\n", "lib/ file", "lines", "branches"
        for (f in lines) {
            printf "%-32s %7.1f%% of %-5d %7.1f%% of %-5d\n", f,
                lines[f] ? 100 * lhit[f] / lines[f] : 100, lines[f],
                br[f] ? 100 * bhit[f] / br[f] : 100, br[f]
            L += lines[f]; LH += lhit[f]; B += br[f]; BH += bhit[f]
        }
        lp = L ? 100 * LH / L : 0; bp = B ? 100 * BH / B : 0
        printf "%-32s %7.1f%% of %-5d %7.1f%% of %-5d\n", "TOTAL", lp, L, bp, B
        if (lp < min_l || bp < min_b) {
            printf "coverage: below the target of %d%% lines and %d%% branches\n", min_l, min_b
            exit 1
        }
    }' || status=1
exit $status
