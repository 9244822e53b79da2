#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# fuzz/scripts/oss-fuzz-build.sh -- build the fuzz targets the way OSS-Fuzz
# and ClusterFuzzLite expect (their build.sh runs this script).
#
# Honours the infrastructure's environment:
#   CC, CXX, CFLAGS, CXXFLAGS  compilers and flags (sanitizer and coverage
#                              instrumentation already in CFLAGS)
#   LIB_FUZZING_ENGINE         the engine to link (libFuzzer, AFL++ driver,
#                              honggfuzz...)
#   SRC                        where the sources are ($SRC/bitsift)
#   OUT                        where binaries and their files go
# and writes into $OUT, for each target of fuzz/targets.list but the test
# ones: the binary, <target>_seed_corpus.zip (corpus/<target>/,
# fuzz/regressions/<target>/ and its fuzz/seed-sources.list entries),
# <target>.options and the dictionary its options name. `make
# fuzz-oss-fuzz` runs it as OSS-Fuzz does (fuzz/scripts/oss-fuzz-test.sh).
#
# Needs autoconf/automake/libtool, pkg-config, zip and libpcap (headers and
# a library; OSS-Fuzz's runner image has no libpcap.so, so a project
# Dockerfile builds libpcap.a) in the build image.
set -eu
cd "$(dirname "$0")/../.."
: "${CC:=clang}" "${CXX:=clang++}" "${CFLAGS:=}" "${CXXFLAGS:=}"
: "${LIB_FUZZING_ENGINE:=-fsanitize=fuzzer}" "${OUT:=$PWD/oss-fuzz-out}"
mkdir -p "$OUT"

# config.h and the generated sources. The portable CRC32: ISA-L and
# libdeflate are assembly that no sanitizer or coverage instrumentation
# sees into, and the runner image lacks their shared libraries. A tree
# configured already keeps its configuration: what it links is in LIB_LIBS.
[ -x configure ] || autoreconf -fi
[ -f config.status ] ||
    ./configure --without-isal --without-libdeflate --disable-shared CC="$CC" CFLAGS="$CFLAGS"
make fuzz-generated
eval "$(make -s fuzz-print-build)"
srcdir=. builddir=. top_builddir=.
. fuzz/scripts/targets.sh

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/lib"
lib_objs=
for src in $LIB_SOURCES; do
    case $src in *.h) continue ;; esac
    # shellcheck disable=SC2086
    lib_objs="$lib_objs $(fuzz_compile "$work/lib" "$src" $CC $CFLAGS $LIB_CFLAGS)"
done

for t in $FUZZ_TARGETS; do
    mkdir -p "$work/$t"
    objs=
    for src in $(harness_sources "$t") $(harness_generated "$t"); do
        # shellcheck disable=SC2086
        objs="$objs $(fuzz_compile "$work/$t" "$src" $CC $CFLAGS $LIB_CFLAGS $(harness_cflags "$t"))"
    done
    # shellcheck disable=SC2086
    $CXX $CXXFLAGS $objs $lib_objs $LIB_FUZZING_ENGINE $(harness_libs "$t") $LIB_LIBS -o "$OUT/$t"

    rm -f "$OUT/${t}_seed_corpus.zip"
    seeds=$(seed_dirs "$t" "$work")
    # shellcheck disable=SC2086
    zip -q -j -r "$OUT/${t}_seed_corpus.zip" $seeds
    if [ -f "fuzz/$t.options" ]; then
        cp "fuzz/$t.options" "$OUT/"
        dict=$(sed -n '/^\[libfuzzer\]/,/^\[/ s/^dict *= *//p' "fuzz/$t.options")
        [ -z "$dict" ] || cp "fuzz/$dict" "$OUT/"
    fi
done
echo "oss-fuzz-build: $FUZZ_TARGETS in $OUT"
