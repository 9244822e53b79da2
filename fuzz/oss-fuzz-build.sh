#!/bin/bash
# fuzz/oss-fuzz-build.sh -- build the fuzz targets the way OSS-Fuzz and
# ClusterFuzzLite expect (their build.sh runs this script).
#
# Honours the infrastructure's environment:
#   CC, CXX, CFLAGS, CXXFLAGS  compilers and flags (sanitizer and coverage
#                              instrumentation already in CFLAGS)
#   LIB_FUZZING_ENGINE         the engine to link (libFuzzer, AFL++ driver,
#                              honggfuzz...)
#   SRC                        where the sources are ($SRC/bitsift)
#   OUT                        where binaries and their files go
# and writes into $OUT, for each target: the binary, <target>_seed_corpus.zip
# (corpus/<target>/ and fuzz/regressions/<target>/), <target>.options and
# the dictionary its options name. The planted-bug test target is not built.
#
# Needs autoconf/automake/libtool, pkg-config, zip and libpcap (headers and
# a static or shared library) in the build image.
set -eu
cd "$(dirname "$0")/.."
: "${CC:=clang}" "${CXX:=clang++}" "${CFLAGS:=}" "${CXXFLAGS:=}"
: "${LIB_FUZZING_ENGINE:=-fsanitize=fuzzer}" "${OUT:=$PWD/oss-fuzz-out}"
mkdir -p "$OUT"

# config.h and the generated sources; the portable CRC (no libdeflate to
# link statically), no shared library.
[ -x configure ] || autoreconf -fi
[ -f config.status ] || ./configure --without-libdeflate --disable-shared CC="$CC" CFLAGS="$CFLAGS"
make fuzz/bundled_schemas.c
eval "$(make -s fuzz-print-build)"
. fuzz/targets.sh

work=$(mktemp -d)
cppflags="-DHAVE_CONFIG_H -I. -Ilib -Ifuzz -Isrc"
lib_objs=
for src in $LIB_SOURCES; do
    case $src in *.h) continue ;; esac
    obj=$work/$(basename "$src" .c).o
    $CC $CFLAGS -std=gnu11 -ffp-contract=off $cppflags -c "$src" -o "$obj"
    lib_objs="$lib_objs $obj"
done

for t in $FUZZ_TARGETS; do
    objs=
    libs=-lm
    for src in $(harness_sources "$t"); do
        obj=$work/${t}_$(basename "$src" .c).o
        $CC $CFLAGS -std=gnu11 $cppflags $(pkg-config --cflags libpcap 2>/dev/null) -c "$src" -o "$obj"
        objs="$objs $obj"
    done
    [ "$t" = fuzz_capture ] && libs="$(pkg-config --libs libpcap 2>/dev/null || echo -lpcap) -lm"
    [ "$t" = fuzz_encode ] && libs="$(pkg-config --libs libpcap jansson 2>/dev/null || echo -lpcap -ljansson) -lm"
    # shellcheck disable=SC2086
    $CXX $CXXFLAGS $objs $lib_objs $LIB_FUZZING_ENGINE $libs -o "$OUT/$t"

    rm -f "$OUT/${t}_seed_corpus.zip"
    dirs="corpus/$t"
    [ -d "fuzz/regressions/$t" ] && dirs="$dirs fuzz/regressions/$t"
    # shellcheck disable=SC2086
    zip -q -j -r "$OUT/${t}_seed_corpus.zip" $dirs
    if [ -f "fuzz/$t.options" ]; then
        cp "fuzz/$t.options" "$OUT/"
        dict=$(sed -n '/^\[libfuzzer\]/,/^\[/ s/^dict *= *//p' "fuzz/$t.options")
        [ -n "$dict" ] && cp "fuzz/$dict" "$OUT/"
    fi
done
rm -rf "$work"
echo "oss-fuzz-build: $FUZZ_TARGETS in $OUT"
