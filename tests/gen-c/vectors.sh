#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# tests/gen-c/vectors.sh -- the reference vectors through `bitsift gen c`:
# for every vector of $VECTORS_DIR, tests/vectors/vector-schema writes its schema
# and bytes, `bitsift gen c` the code, and tests/gen-c/diff.c (--packet)
# requires the generated reader to decide the bytes as the interpreter
# does (which tests/vectors/replay-schema.sh holds to the reference), with the same
# failure kind, bit and field path, and a valid packet to write back byte
# for byte. One TAP point per vector; a skip without $VECTORS_DIR.
set -u
top=${top_srcdir:-.}
build=${top_builddir:-.}
bitsift="$build/src/bitsift"
tool="$build/tests/vectors/vector-schema"
cc=${GEN_C_CC:-cc}
cflags=${GEN_C_CFLAGS:-}
ldflags=${GEN_C_LDFLAGS:-}
dir=${VECTORS_DIR:-}
if [ -z "$dir" ] || [ ! -d "$dir" ]; then
    echo "1..0 # SKIP no vector directory \"$dir\""
    exit 0
fi
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
find "$dir" -maxdepth 1 -name '*.json' | LC_ALL=C sort >"$tmp/list"
echo "1..$(wc -l <"$tmp/list")"
n=0
status=0
while IFS= read -r v; do
    n=$((n + 1))
    base=$(basename "$v" .json)
    w="$tmp/$base"
    mkdir -p "$w"
    if ! "$tool" schema "$v" >"$w/v.bss" 2>"$w/err" || ! "$tool" bytes "$v" >"$w/v.bin" 2>>"$w/err" ||
        ! "$bitsift" gen c --name gen -s "$w/v.bss" -o "$w" 2>>"$w/err"; then
        echo "not ok $n - $base: $(head -n 1 "$w/err")"
        status=1
        continue
    fi
    # shellcheck disable=SC2086
    if ! $cc $cflags -std=gnu11 -O0 -I"$top/lib" -I"$build/lib" -I"$w" "$top/tests/gen-c/diff.c" \
        "$w/gen.c" $ldflags -L"$build/lib/.libs" -lbitsift -Wl,-rpath,"$build/lib/.libs" \
        -o "$w/diff" 2>"$w/err"; then
        echo "not ok $n - $base: $(head -n 1 "$w/err")"
        status=1
    elif out=$("$w/diff" "$w/v.bss" --packet "$w/v.bin" 2>&1); then
        echo "ok $n - $base: $(echo "$out" | tail -n 1)"
    else
        echo "$out" | sed 's/^/# /'
        echo "not ok $n - $base"
        status=1
    fi
    rm -rf "$w"
done <"$tmp/list"
exit $status
