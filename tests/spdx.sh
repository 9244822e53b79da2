#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# tests/spdx.sh -- every source, build and script file of the tree says its
# license (BSD-3-Clause, COPYING) in an SPDX line among its first three
# lines. TAP: one point per file; generated files (config.h, the bundled
# schemas, the embedded Lua run time, bench/gen_c/) are not the tree's sources.
set -u
top=${top_srcdir:-.}
cd "$top" || exit 1
files=$(find lib src tests fuzz bench examples man .ci .clusterfuzzlite bootstrap configure.ac \
    Makefile.am -type f \( -name '*.c' -o -name '*.h' -o -name '*.sh' -o -name '*.py' \
    -o -name '*.mk' -o -name '*.lua' -o -name '*.[135]' -o -name '*.test' -o -name run \
    -o -name bootstrap -o -name configure.ac -o -name Makefile.am -o -name '*.pc.in' \) \
    ! -path 'tests/cli/expected/*' ! -path 'tests/cli/data/*' ! -path 'fuzz/regressions/*' \
    ! -path '*/.deps/*' ! -path '*/.libs/*' \
    ! -path 'bench/gen_c/*' ! -name config.h ! -name bundled_schemas.c ! -name gen_wireshark_lua.h \
    2>/dev/null | sort)
n=$(printf '%s\n' "$files" | grep -c .)
echo "1..$n"
i=0
status=0
for f in $files; do
    i=$((i + 1))
    if head -n 3 "$f" | grep -q 'SPDX-License-Identifier: BSD-3-Clause'; then
        echo "ok $i - $f"
    else
        echo "not ok $i - $f has no SPDX line"
        status=1
    fi
done
exit $status
