#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# fuzz/scripts/targets-mk.sh -- writes on standard output fuzz/targets.mk, the
# Automake rules of every harness in fuzz/targets.list: its replay program
# (run by `make check`) and, with configure --enable-fuzzing, its libFuzzer
# binary and variants. Automake reads the rules before configure runs, so
# the output is committed; the Makefile regenerates it when the list
# changes and fuzz/tests/check-targets.sh fails when it is stale.
#
#   targets-mk.sh SRCDIR
set -eu
srcdir=$1
. "$srcdir/fuzz/scripts/targets.sh"

canonical() { echo "$1" | tr -c 'a-zA-Z0-9_\n' '_'; }

# program BINARY TARGET SOURCES GENERATED CPPFLAGS LDFLAGS: one program.
program() {
    p=$(canonical "$1")
    echo "${p}_SOURCES = $3"
    [ -z "$4" ] || echo "nodist_${p}_SOURCES = $4"
    echo "${p}_CPPFLAGS = \$(FUZZ_CPPFLAGS)$5"
    cflags= libs=
    for l in $(harness_libraries "$2"); do
        cflags="$cflags \$(${l}_CFLAGS)"
        libs="$libs \$(${l}_LIBS)"
    done
    [ -z "$cflags" ] || echo "${p}_CFLAGS = \$(AM_CFLAGS)$cflags"
    [ -z "$6" ] || echo "${p}_LDFLAGS = $6"
    echo "${p}_LDADD = lib/libbitsift-fuzz.la lib/libbitsift.la$libs"
}

trim() { echo $*; }

echo "# SPDX-License-Identifier: BSD-3-Clause"
echo "# fuzz/targets.mk -- generated from fuzz/targets.list by fuzz/scripts/targets-mk.sh:"
echo "# do not edit (included by fuzz/local.mk)."
echo
echo "FUZZ_TARGETS ="
echo "FUZZ_TEST_TARGETS ="
echo "FUZZ_CRC_TARGETS ="
echo "FUZZ_VARIANTS ="
echo "FUZZ_BINARIES ="
libraries=
for t in $(fuzz_target_names all); do
    sources=$(trim $(harness_sources "$t"))
    generated=$(trim $(harness_generated "$t"))
    echo
    echo "## $t"
    if harness_has "$t" test; then
        echo "FUZZ_TEST_TARGETS += $t"
    else
        echo "FUZZ_TARGETS += $t"
        harness_has "$t" crc && echo "FUZZ_CRC_TARGETS += $t"
    fi
    extra="corpus/$t"
    for f in "fuzz/$t.options" "fuzz/$t.dict"; do
        [ -f "$srcdir/$f" ] && extra="$extra $f"
    done
    echo "EXTRA_DIST += $extra"
    echo "check_PROGRAMS += fuzz/replay_$t"
    echo "TESTS += fuzz/replay_$t"
    program "fuzz/replay_$t" "$t" "$sources fuzz/support/replay_main.c" "$generated" \
        " -DFUZZ_TARGET_NAME='\"$t\"'" ""
    echo "if ENABLE_FUZZING"
    binaries="fuzz/$t"
    program "fuzz/$t" "$t" "$sources" "$generated" "" "\$(FUZZ_LINK_FLAGS)"
    for v in $(harness_variants "$t"); do
        binaries="$binaries fuzz/${t}_$v"
        vsources=$(trim "$sources" $(variant_sources "$v"))
        vflags=$(variant_cppflags "$v")
        program "fuzz/${t}_$v" "$t" "$vsources" "$generated" "${vflags:+ $vflags}" \
            "\$(FUZZ_LINK_FLAGS)"
        harness_has "$t" test || echo "FUZZ_VARIANTS += ${t}_$v:$t"
    done
    echo "FUZZ_BINARIES += $binaries"
    echo "endif"
    for l in $(harness_libraries "$t"); do
        case " $libraries " in *" $l "*) ;; *) libraries="$libraries $l" ;; esac
    done
done

echo
echo "# What the scripts that compile the harnesses themselves need of the"
echo "# harnesses' libraries (fuzz/scripts/targets.sh: harness_cflags, harness_libs)."
printf 'FUZZ_LIBRARY_ENV ='
for l in $libraries; do
    printf " %s_CFLAGS='\$(%s_CFLAGS)' %s_LIBS='\$(%s_LIBS)'" "$l" "$l" "$l" "$l"
done
echo
