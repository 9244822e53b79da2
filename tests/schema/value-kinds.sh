#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# value-kinds.sh -- bitsift_schema_field_value_kind names, for every field
# of every example schema and of constructs.bss (every field type), the
# kind of the values decode reports for it (tests/schema/value_kinds.c).
: "${top_srcdir:=.}" "${top_builddir:=.}"
set --
for schema in examples/shooter.bss examples/article.bss examples/scenes.bss \
    examples/robocat.bss tests/cli/data/arena.bss tests/cli/data/lobby.bss \
    tests/schema/constructs.bss; do
    set -- "$@" "$top_srcdir/$schema"
done
exec "$top_builddir/tests/schema/value_kinds" "$@"
