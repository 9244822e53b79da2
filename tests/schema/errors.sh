#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# errors.sh -- every hostile or wrong schema in corpus/schemas is refused
# with exactly the diagnostic in errors.list; plus the limits that need a
# generated input (a schema over 1 MiB, a file that does not exist) and the
# examples, which must compile. TAP output.
: "${top_srcdir:=.}" "${top_builddir:=.}"
tool="$top_builddir/tests/schema/schematool"
dir="$top_srcdir/corpus/schemas"
list="$top_srcdir/tests/schema/errors.list"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
result() { # ok|not-ok description
    n=$((n + 1))
    if [ "$1" = ok ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fi
}

grep -v '^#' "$list" >"$tmp/expected"
while IFS= read -r expected; do
    file=${expected%%:*}
    # The tool names the file as given; strip the directory to compare.
    got=$("$tool" check "$dir/$file" 2>&1)
    status=$?
    got=${got#"$dir/"}
    if [ $status -eq 1 ] && [ "$got" = "$expected" ]; then
        result ok "$file: $expected"
    else
        result not-ok "$file: expected '$expected', got '$got' (exit $status)"
    fi
done <"$tmp/expected"

# Every corpus file is listed (a new file without an expectation fails).
for f in "$dir"/*.bss; do
    base=${f##*/}
    if ! grep -q "^$base:" "$tmp/expected"; then
        result not-ok "$base has no expected diagnostic in errors.list"
    fi
done

# Over the size limit: refused before parsing.
{
    echo 'protocol p { version 1; }'
    i=0
    while [ $i -lt 20000 ]; do
        echo "packet p$i { bool a_field_with_a_long_name_to_grow_the_file_past_the_limit; }"
        i=$((i + 1))
    done
} >"$tmp/big.bss"
got=$("$tool" check "$tmp/big.bss" 2>&1)
case "$got" in
*"schema larger than 1 MiB") result ok "schema over 1 MiB refused" ;;
*) result not-ok "schema over 1 MiB: got '$got'" ;;
esac

got=$("$tool" check "$tmp/missing.bss" 2>&1)
case "$got" in
*"missing.bss: No such file or directory") result ok "missing file reported" ;;
*) result not-ok "missing file: got '$got'" ;;
esac

# A step count above 4294967040 is clamped to it, as the reference and the
# library do, not refused (2e6 / 1e-5 = 2e11 steps, 32 bits).
printf 'protocol p { version 1; }\npacket a { compressed_float(-1000000, 1000000, 0.00001) x; }\n' \
    >"$tmp/huge-steps.bss"
got=$("$tool" check "$tmp/huge-steps.bss" 2>&1)
if [ "$got" = ok ]; then result ok "a step count above 2^32 is clamped"; else
    result not-ok "a step count above 2^32: got '$got'"; fi

# A real may start with its point.
printf 'protocol p { version 1; }\npacket a { compressed_float(-.5, .5, .25e-2) x; }\n' \
    >"$tmp/point.bss"
got=$("$tool" check "$tmp/point.bss" 2>&1)
if [ "$got" = ok ]; then result ok "a real written .5 is read"; else
    result not-ok "a real written .5: got '$got'"; fi

for ex in shooter article scenes robocat; do
    f="$top_srcdir/examples/$ex.bss"
    [ -f "$f" ] || continue
    got=$("$tool" check "$f" 2>&1)
    if [ "$got" = ok ]; then result ok "examples/$ex.bss compiles"; else
        result not-ok "examples/$ex.bss: $got"; fi
done
echo "1..$n"
