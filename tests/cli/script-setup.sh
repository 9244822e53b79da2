# SPDX-License-Identifier: BSD-3-Clause
# script-setup.sh -- what the TAP scripts of tests/cli share, sourced by
# each after it sets `name` (the scratch directory's tag):
#
#   name=roundtrip
#   . "${top_srcdir:-.}/tests/cli/script-setup.sh"
#
# It sets `bitsift` (the built program, as an absolute path), `data` (the
# committed test data) and `work` (a fresh scratch directory, removed on
# exit), makes unset variables an error, pins the C locale, and gives
# report() for TAP points.
set -u
: "${top_srcdir:=.}"
: "${top_builddir:=.}"
bitsift=$(cd "$top_builddir" && pwd)/src/bitsift
data=$top_srcdir/tests/cli/data
work=$(mktemp -d "${TMPDIR:-/tmp}/bitsift-$name.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
LC_ALL=C
export LC_ALL

# TAP points: `report STATUS DESCRIPTION` numbers them (STATUS 0 is ok) and
# remembers a failure in `failed`; a script prints "1..$n" at the end.
n=0
failed=0
report() { # report OK DESCRIPTION
    n=$((n + 1))
    if [ "$1" = 0 ]; then
        echo "ok $n - $2"
    else
        echo "not ok $n - $2"
        failed=1
    fi
}