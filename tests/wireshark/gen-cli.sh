#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# gen-cli.sh -- bitsift gen as a command, without tshark: a failed run
# leaves the target as it was, the output is an ordinary readable file,
# the same schema gives the same bytes, and bad targets, names and schemas
# are refused with exit status 2. Prints TAP.
name=gen-cli
. "${top_srcdir:-.}/tests/cli/script-setup.sh"
examples=$top_srcdir/examples
echo "1..7"
n=0
t() {
    n=$((n + 1))
    if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fi
}

umask 022
"$bitsift" gen wireshark -s "$examples/shooter.bss" -o "$work/a.lua" -p 27015
t $? "gen wireshark writes the dissector"
mode=$(ls -l "$work/a.lua" | cut -c1-10)
[ "$mode" = "-rw-r--r--" ]
t $? "the dissector is readable by all under umask 022 ($mode)"
"$bitsift" gen wireshark -s "$examples/shooter.bss" -o "$work/b.lua" -p 27015 && cmp -s "$work/a.lua" "$work/b.lua"
t $? "the same schema and options give the same bytes"
cp "$work/a.lua" "$work/keep.lua"
"$bitsift" gen wireshark -s "$data/bad-schema.bss" -o "$work/a.lua" 2>/dev/null
status=$?
[ "$status" = 2 ] && cmp -s "$work/a.lua" "$work/keep.lua" &&
    [ "$(ls "$work" | grep -c '\.lua\.')" = 0 ]
t $? "a schema error exits 2 and leaves the target and no temporary file"
"$bitsift" gen nosuchtarget -s "$examples/shooter.bss" -o "$work/c.lua" 2>/dev/null
[ $? = 2 ] && [ ! -e "$work/c.lua" ]
t $? "an unknown target exits 2"
"$bitsift" gen wireshark -s "$examples/shooter.bss" -o "$work/c.lua" --name 'a b' 2>/dev/null
[ $? = 2 ] && [ ! -e "$work/c.lua" ]
t $? "a name that is not an identifier exits 2"
"$bitsift" gen wireshark -s "$examples/shooter.bss" 2>/dev/null
[ $? = 2 ]
t $? "no output file exits 2"
