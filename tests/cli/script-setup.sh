# SPDX-License-Identifier: BSD-3-Clause
# script-setup.sh -- what the TAP scripts of tests/cli share, sourced by
# each after it sets `name` (the scratch directory's tag):
#
#   name=roundtrip
#   . "${top_srcdir:-.}/tests/cli/script-setup.sh"
#
# It sets `bitsift` (the built program, as an absolute path), `data` (the
# committed test data) and `work` (a fresh scratch directory, removed on
# exit), makes unset variables an error and pins the C locale.
set -u
: "${top_srcdir:=.}"
: "${top_builddir:=.}"
bitsift=$(cd "$top_builddir" && pwd)/src/bitsift
data=$top_srcdir/tests/cli/data
work=$(mktemp -d "${TMPDIR:-/tmp}/bitsift-$name.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
LC_ALL=C
export LC_ALL
