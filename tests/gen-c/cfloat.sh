#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# tests/gen-c/cfloat.sh -- compressed floats of step counts across the
# whole range (2 .. 4294967040: log-spaced, the edges around 2^24, odd
# counts in [2^23 + 1, 2^24 - 1]) read and written back through the code
# `bitsift gen c` writes: one schema of many fields, one driver
# (tests/gen-c/cfloat.c) over packets of chosen integers; and the schema
# interpreter (decode -F json | encode) writes the same bytes. TAP.
set -u
top=${top_srcdir:-.}
build=${top_builddir:-.}
bitsift="$build/src/bitsift"
cc=${GEN_C_CC:-cc}
cflags=${GEN_C_CFLAGS:-}
ldflags=${GEN_C_LDFLAGS:-}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

# Step counts m of a schema (float32 integers: the schema's ceil gives no
# other): every half power of two, then the edges. Each as
# compressed_float(0, m, 1), which has exactly m steps, and as
# compressed_float(-1000, 1000, 2000 / m), about m.
awk 'BEGIN {
    n = 0
    for (k = 2; k <= 64; k++) {
        m = int(2 ^ (k / 2))
        e = int(log(m) / log(2))
        if (e > 23)
            m -= m % (2 ^ (e - 23))
        if (m > 4294967040)
            m = 4294967040
        steps[n++] = m
    }
    split("16777215 16777216 16777218 8388609 8388611 12582911 16777213 4294967040", edge, " ")
    for (i in edge)
        steps[n++] = edge[i]
    print "protocol cfloat { id 34; }"
    print "packet p {"
    for (i = 0; i < n; i++) {
        printf "    compressed_float(0, %.0f, 1) a%d;\n", steps[i], i
        printf "    compressed_float(-1000, 1000, %.9g) b%d;\n", 2000 / steps[i], i
    }
    print "    compressed_float(-1000, 1000, 0.0001) issue;"
    print "    compressed_float(-3904, 100, 1.7558486e-07) clamped;"
    print "}"
}' >"$tmp/cfloat.bss"

d="$tmp/gen"
if ! "$bitsift" gen c --name gen -s "$tmp/cfloat.bss" -o "$d" 2>"$tmp/err"; then
    echo "1..1"
    sed 's/^/# /' "$tmp/err"
    echo "not ok 1 - gen c of $(grep -c compressed_float "$tmp/cfloat.bss") compressed floats"
    exit 1
fi
# The driver's field table, with the parameters exactly as generated.
sed -n 's/.*bitsift_serialize_named(stream, mode, "\([a-z0-9_]*\)", compressed_float_steps, v->[a-z0-9_]*, (\(.*\)));$/CF(\1, \2)/p' \
    "$d/gen.c" >"$d/fields.h"
if [ "$(wc -l <"$d/fields.h")" -ne "$(grep -c compressed_float "$tmp/cfloat.bss")" ]; then
    echo "1..1"
    echo "not ok 1 - the generated code's compressed floats not found in gen.c"
    exit 1
fi
# shellcheck disable=SC2086 # the build's flag lists (sanitizers)
if ! $cc $cflags -std=gnu11 -I"$top/lib" -I"$build/lib" -I"$d" "$top/tests/gen-c/cfloat.c" \
    "$d/gen.c" $ldflags -L"$build/lib/.libs" -lbitsift -Wl,-rpath,"$build/lib/.libs" \
    -o "$d/driver" 2>"$tmp/err"; then
    echo "1..1"
    sed 's/^/# /' "$tmp/err"
    echo "not ok 1 - the driver builds"
    exit 1
fi
mkdir -p "$d/packets" "$d/encoded"
"$d/driver" "$d/packets"
status=$?
# The schema interpreter writes what the generated code writes (the same
# quantization): bitsift decode -F json | bitsift encode of every packet
# built gives the bytes gen_write gave, shared integers included.
"$bitsift" decode -F json -s "$tmp/cfloat.bss" "$d"/packets/in-*.bin 2>"$tmp/err" |
    "$bitsift" encode -s "$tmp/cfloat.bss" -o "$d/encoded" 2>>"$tmp/err"
total=0
same=0
k=0
for f in "$d"/packets/gen-*.bin; do
    k=$((k + 1))
    total=$((total + 1))
    if cmp -s "$f" "$d/encoded/$(printf 'packet-%06d.bin' "$k")"; then
        same=$((same + 1))
    fi
done
if [ "$total" -gt 0 ] && [ "$same" -eq "$total" ]; then
    echo "ok 4 - bitsift decode -F json | bitsift encode writes what gen_write wrote for all $total packets"
else
    sed 's/^/# /' "$tmp/err" | head -5
    echo "not ok 4 - bitsift decode -F json | bitsift encode writes what gen_write wrote for $same of $total packets"
    status=1
fi
exit $status
