#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# readme-commands.sh -- the README's table of commands and `bitsift --help`
# name the same commands, with the same words for what each does, so that
# a command added to the program is added to the README too. Prints TAP.
name=readme-commands
. "${top_srcdir:-.}/tests/cli/script-setup.sh"

# `--help`'s "Commands:" section: "  NAME  what it does" up to a blank line.
"$bitsift" --help | awk '/^Commands:/ { on = 1; next } on && /^$/ { exit }
    on { name = $1; sub(/^ *[^ ]+ +/, ""); print name "\t" $0 }' >"$work/help"
# The README's table: "| `NAME` | what it does |".
sed -n 's/^| `\([a-z]*\)` | \(.*\) |$/\1\t\2/p' "$top_srcdir/README.md" >"$work/readme"

cut -f1 "$work/help" >"$work/help-names"
cut -f1 "$work/readme" >"$work/readme-names"
[ -s "$work/help-names" ] && cmp -s "$work/help-names" "$work/readme-names"
report $? "the README's table names the commands of bitsift --help, in its order ($(tr '\n' ' ' <"$work/help-names"))"
if [ "$failed" != 0 ]; then
    diff "$work/help-names" "$work/readme-names" | sed 's/^/# /'
fi

# Each row starts with --help's words (the README may add a pointer to a
# document after them).
while IFS="$(printf '\t')" read -r cmd what; do
    row=$(awk -F '\t' -v c="$cmd" '$1 == c { print $2 }' "$work/readme")
    case $row in
    "$what"*) report 0 "README: $cmd: $what" ;;
    *) report 1 "README: $cmd: '$row' does not start with --help's '$what'" ;;
    esac
done <"$work/help"
echo "1..$n"
[ "$failed" = 0 ]
