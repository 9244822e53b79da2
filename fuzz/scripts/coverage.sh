#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# fuzz/scripts/coverage.sh -- `make coverage`: replay the seed corpus and
# the regressions of every harness through a coverage build of libbitsift and
# print the line and branch coverage of lib/*.c and of lib/'s folders by
# concern (lib/analysis/*.c), per file and in total.
#
# Builds with the configured compiler and --coverage in
# $builddir/fuzz/coverage-work/ and counts with gcov (gcc) or `llvm-cov
# gcov` (clang): it runs the replay main (fuzz/support/replay_main.c) of
# each harness in fuzz/targets.list (fuzz/scripts/targets.sh), then sums
# gcov's "Lines executed" and "Taken at least once" (branches) over
# lib/*.c and over each folder by concern (lib/analysis/*.c): one sum per scope.
#
# A ratchet: fails when a scope's sum is below its floor committed in
# fuzz/coverage-floor (lines and branches, in percent; the scope "lib" is
# lib/*.c, a folder's scope is its name). A scope without a floor fails
# too, so that a new folder gets one. Each scope has its own floor, so that
# code moved into lib/ (with the coverage it had, unmeasured, elsewhere)
# neither hides a drop in the rest nor lowers what the rest must hold.
# When coverage rose it says so: raise the floor in the same commit
# (COVERAGE_UPDATE=1 writes the figures just measured into the file), and
# it never goes back down.
#
# Environment (from fuzz/local.mk): srcdir, builddir, top_builddir,
# FUZZ_TARGETS, LIB_SOURCES, LIB_CFLAGS, LIB_LIBS, the harnesses'
# <LIBRARY>_CFLAGS/_LIBS, CC, LLVM_COV, GCOV.
set -u

: "${srcdir:=.}" "${builddir:=.}" "${top_builddir:=.}" "${FUZZ_TARGETS:=}"
: "${LIB_SOURCES:=}" "${LIB_CFLAGS:=}" "${LIB_LIBS:=}" "${CC:=cc}" "${LLVM_COV:=}" "${GCOV:=gcov}"
floor_file=$srcdir/fuzz/coverage-floor

if "$CC" --version 2>/dev/null | grep -q clang; then
    [ -n "$LLVM_COV" ] || { echo "coverage: clang needs llvm-cov" >&2; exit 1; }
    tool=llvm-cov gcov_tool="$LLVM_COV gcov"
else
    tool=gcov gcov_tool=$GCOV
fi
# The two tools count branches differently (gcc's gcov sees more of them):
# each has its floors, one line "TOOL SCOPE LINES BRANCHES" per scope.
if ! grep -q "^$tool[[:space:]]" "$floor_file"; then
    echo "coverage: $floor_file lacks a '$tool SCOPE LINES BRANCHES' line" >&2
    exit 1
fi

. "$srcdir/fuzz/scripts/targets.sh"

work=$builddir/fuzz/coverage-work
rm -rf "$work"
mkdir -p "$work/lib" "$work/bin"
cflags="-O0 -g --coverage $LIB_CFLAGS"

lib_objs=
for src in $LIB_SOURCES; do
    case $src in *.h) continue ;; esac
    lib_objs="$lib_objs $(fuzz_compile "$work/lib" "$src" "$CC" $cflags)" || exit 1
done

status=0
for t in $FUZZ_TARGETS; do
    mkdir -p "$work/harness/$t"
    hcflags=$(harness_cflags "$t")
    objs=
    for src in $(harness_sources "$t") $(harness_generated "$t") fuzz/support/replay_main.c; do
        # shellcheck disable=SC2086
        objs="$objs $(fuzz_compile "$work/harness/$t" "$src" "$CC" $cflags $hcflags \
            -DFUZZ_TARGET_NAME="\"$t\"")" || exit 1
    done
    # shellcheck disable=SC2086
    "$CC" --coverage -o "$work/bin/replay_$t" $objs $lib_objs $(harness_libs "$t") $LIB_LIBS || exit 1
    seeds=$(seed_dirs "$t" "$work/harness/$t") || exit 1
    # shellcheck disable=SC2086
    set -- $seeds
    if ! "$work/bin/replay_$t" "$@" >"$work/replay_$t.log" 2>&1; then
        echo "coverage: replay of $t failed; see $work/replay_$t.log" >&2
        status=1
    fi
    echo "coverage: $t: $(grep -c '^ok' "$work/replay_$t.log") inputs replayed"
done

# gcov -b -n prints, per source file (libbitsift's, in lib/ and its
# folders: the fuzzing kit, lib/fuzz_*.c, is linked for the harnesses but
# not measured):
#   File 'lib/bit_reader.c'
#   Lines executed:95.00% of 100
#   Branches executed:90.00% of 50
#   Taken at least once:80.00% of 50
(cd "$work/lib" && for obj in *.o; do $gcov_tool -b -n -o . "$obj" 2>/dev/null; done) |
    awk -v floors="$floor_file" -v measured="$work/measured" -v tool="$tool" '
    BEGIN {
        while ((getline row <floors) > 0)
            if (row !~ /^#/ && split(row, w) == 4 && w[1] == tool) {
                min_l[w[2]] = w[3]; min_b[w[2]] = w[4]
            }
    }
    /^File / { file = $2; gsub(/\047/, "", file); sub(/^\.\//, "", file)
               keep = file ~ /lib\/([^\/]+\/)?[^\/]*\.c$/ && file !~ /lib\/fuzz_[^\/]*\.c$/ }
    keep && /^Lines executed:/ {
        split($2, a, "%"); pct = substr(a[1], index(a[1], ":") + 1); n = $NF
        lines[file] = n; lhit[file] = pct * n / 100 }
    keep && /^Taken at least once:/ {
        split($4, a, "%"); pct = substr(a[1], index(a[1], ":") + 1); n = $NF
        br[file] = n; bhit[file] = pct * n / 100 }
    # Rounded down to the tenth that is printed and compared.
    function tenth(hit, all) { return all ? int(1000 * hit / all) / 10 : 0 }
    END {
        printf "%-32s %16s %16s\n", "lib/ file", "lines", "branches"
        for (f in lines) {
            printf "%-32s %7.1f%% of %-5d %7.1f%% of %-5d\n", f,
                lines[f] ? 100 * lhit[f] / lines[f] : 100, lines[f],
                br[f] ? 100 * bhit[f] / br[f] : 100, br[f] | "sort"
            scope = f; sub(/^.*lib\//, "", scope)
            scope = scope ~ /\// ? substr(scope, 1, index(scope, "/") - 1) : "lib"
            L[scope] += lines[f]; LH[scope] += lhit[f]; B[scope] += br[f]; BH[scope] += bhit[f]
            TL += lines[f]; TLH += lhit[f]; TB += br[f]; TBH += bhit[f]
        }
        close("sort")
        printf "%-32s %7.1f%% of %-5d %7.1f%% of %-5d\n", "TOTAL", tenth(TLH, TL), TL,
            tenth(TBH, TB), TB
        bad = 0; rose = 0
        for (sc in L) {
            lp = tenth(LH[sc], L[sc]); bp = tenth(BH[sc], B[sc])
            printf "%s %.1f %.1f\n", sc, lp, bp >measured
            if (!(sc in min_l)) {
                printf "coverage (%s): %s: lines %.1f%%, branches %.1f%%: no floor\n", tool, sc, lp, bp
                print "coverage: FAIL: scope " sc " has no line in fuzz/coverage-floor"
                bad = 1
                continue
            }
            printf "coverage (%s): %s: lines %.1f%% (floor %.1f%%), branches %.1f%% (floor %.1f%%)\n",
                tool, sc, lp, min_l[sc], bp, min_b[sc]
            if (lp < min_l[sc] || bp < min_b[sc]) {
                print "coverage: FAIL: " sc " below the floor in fuzz/coverage-floor"
                bad = 1
            }
            if (lp > min_l[sc] || bp > min_b[sc])
                rose = 1
        }
        if (bad)
            exit 1
        if (rose)
            print "coverage: above the floor: raise fuzz/coverage-floor (COVERAGE_UPDATE=1 make coverage)"
    }' || status=1
if [ "${COVERAGE_UPDATE:-0}" = 1 ] && [ "$status" -eq 0 ]; then
    awk -v tool="$tool" -v now="$work/measured" '
        BEGIN { while ((getline row <now) > 0) { split(row, w); fig[w[1]] = w[2] " " w[3] } }
        $1 == tool && ($2 in fig) { $0 = sprintf("%-9s %-9s %s", tool, $2, fig[$2]); delete fig[$2] }
        { print }
        END { for (sc in fig) printf "%-9s %-9s %s\n", tool, sc, fig[sc] }' "$floor_file" >"$floor_file.tmp" &&
        mv "$floor_file.tmp" "$floor_file" && echo "coverage: wrote $floor_file"
fi
exit $status
