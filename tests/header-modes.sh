#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# tests/header-modes.sh -- <bitsift/bits.h> and all its serialize macros
# (tests/header_modes.c) compile without a warning as C99 with gcc and
# clang and as C++17 with g++ and clang++ (-Wall -Wextra -pedantic
# -Werror), the languages and compilers that hand-written and generated
# serialize code is built with. ./bootstrap installs all four. TAP.
set -u
top=${top_srcdir:-.}
src="$top/tests/header_modes.c"
warn="-Wall -Wextra -pedantic -Wshadow -Werror"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
set -- "gcc -std=c99" "clang -std=c99" "g++ -std=c++17 -x c++" "clang++ -std=c++17 -x c++"
echo "1..$#"
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
exit $status
