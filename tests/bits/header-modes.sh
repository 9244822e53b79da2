#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# tests/bits/header-modes.sh -- <bitsift/bits.h> and all its serialize macros
# (tests/bits/header_modes.c) compile without a warning as C99 with gcc and
# clang and as C++17 with g++ and clang++ (-Wall -Wextra -pedantic
# -Werror), the languages and compilers that hand-written and generated
# serialize code is built with. ./bootstrap installs all four. The
# experimental analysis headers (<bitsift/analysis.h>: filter, error
# tally, stats, diagnose) compile the same way as C11 and C++17 with
# BITSIFT_EXPERIMENTAL defined, and refuse to compile without it. TAP.
set -u
top=${top_srcdir:-.}
src="$top/tests/bits/header_modes.c"
warn="-Wall -Wextra -pedantic -Wshadow -Werror"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
set -- "gcc -std=c99" "clang -std=c99" "g++ -std=c++17 -x c++" "clang++ -std=c++17 -x c++"
echo "1..$(($# + 5))"
i=0
status=0
for cc in "$@"; do
    i=$((i + 1))
    prog=${cc%% *}
    if ! command -v "$prog" >/dev/null 2>&1; then
        echo "not ok $i - $cc: not installed (./bootstrap installs it)"
        status=1
        continue
    fi
    # shellcheck disable=SC2086 # $cc and $warn are word lists
    if $cc $warn -I"$top/lib" -c "$src" -o "$tmp/out.o" 2>"$tmp/err"; then
        echo "ok $i - $cc $warn"
    else
        echo "not ok $i - $cc $warn"
        sed 's/^/# /' "$tmp/err"
        status=1
    fi
done

# The analysis headers: C11 (schema.h's unnamed unions are C11) and C++17.
printf '#define BITSIFT_EXPERIMENTAL\n#include <bitsift/analysis.h>\nint use(void);\nint use(void) { return BITSIFT_DIAGNOSE_SAMPLE > 0 && BITSIFT_FILTER_MAX_TEXT > 0; }\n' >"$tmp/analysis.c"
for cc in "gcc -std=c11" "clang -std=c11" "g++ -std=c++17 -x c++" "clang++ -std=c++17 -x c++"; do
    i=$((i + 1))
    # shellcheck disable=SC2086
    if $cc $warn -I"$top/lib" -c "$tmp/analysis.c" -o "$tmp/out.o" 2>"$tmp/err"; then
        echo "ok $i - <bitsift/analysis.h>: $cc $warn"
    else
        echo "not ok $i - <bitsift/analysis.h>: $cc $warn"
        sed 's/^/# /' "$tmp/err"
        status=1
    fi
done
i=$((i + 1))
printf '#include <bitsift/analysis.h>\n' >"$tmp/ungated.c"
if gcc -I"$top/lib" -c "$tmp/ungated.c" -o "$tmp/out.o" 2>"$tmp/err"; then
    echo "not ok $i - <bitsift/analysis.h> compiles without BITSIFT_EXPERIMENTAL"
    status=1
elif grep -q 'is experimental' "$tmp/err"; then
    echo "ok $i - <bitsift/analysis.h> without BITSIFT_EXPERIMENTAL: refused, saying it is experimental"
else
    echo "not ok $i - <bitsift/analysis.h> without BITSIFT_EXPERIMENTAL: refused for another reason"
    sed 's/^/# /' "$tmp/err"
    status=1
fi
exit $status
