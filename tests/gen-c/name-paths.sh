#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# tests/gen-c/name-paths.sh -- the name of gen c's and gen fuzz's files
# (--name, or the protocol's name) is checked before anything is made: a
# name that is not a C identifier ('a/b', '../x', '', '/abs', 'a.b', ...)
# is refused with exit status 2 and a message about the name, and the
# scratch directory the command runs in is the same afterwards, file for
# file (no -o directory made, no file beside or outside it), and no
# message speaks of a temporary file. TAP.
name=gen-c-name-paths
. "${top_srcdir:-.}/tests/cli/script-setup.sh"

mkdir "$work/scratch" "$work/scratch/sub"
printf 'protocol ok { id 1; }\npacket p { bool b; }\n' >"$work/scratch/ok.bss"
listing() { (cd "$work/scratch" && find . | LC_ALL=C sort); }
before=$(listing)

# refused TARGET NAME: --name NAME with -o inside the scratch directory.
refused() {
    (cd "$work/scratch/sub" &&
        "$bitsift" gen "$1" --name "$2" -s ../ok.bss -o out 2>"$work/err")
    status=$?
    after=$(listing)
    if [ "$status" = 2 ] && grep -q "name '$2'" "$work/err" &&
        ! grep -q 'temporary' "$work/err" && [ "$before" = "$after" ]; then
        report 0 "gen $1 --name '$2' refused before any file: $(cat "$work/err")"
    else
        sed 's/^/# /' "$work/err"
        [ "$before" = "$after" ] || echo "# files after: $(echo "$after" | tr '\n' ' ')"
        report 1 "gen $1 --name '$2' refused before any file (exit $status)"
    fi
}

for target in c fuzz; do
    for bad in a/b ../x '' /tmp/x a.b 'a b' ./x x/ .. 9x _x; do
        refused "$target" "$bad"
    done
done

# The protocol's own name goes the same way (a schema cannot name its
# protocol 'a/b', but it can name it one C reserves).
printf 'protocol _Hidden { id 1; }\npacket p { bool b; }\n' >"$work/reserved.bss"
(cd "$work/scratch/sub" && "$bitsift" gen c -s ../../reserved.bss -o out 2>"$work/err")
status=$?
if [ "$status" = 2 ] && grep -q "name '_Hidden'.*--name" "$work/err" &&
    [ "$before" = "$(listing)" ]; then
    report 0 "a protocol name C reserves is refused, pointing to --name: $(cat "$work/err")"
else
    sed 's/^/# /' "$work/err"
    report 1 "a protocol name C reserves is refused before any file (exit $status)"
fi

# And a good name still works where -o is writable.
(cd "$work/scratch" && "$bitsift" gen c --name good -s ok.bss -o out 2>"$work/err") &&
    [ -f "$work/scratch/out/good.h" ] && [ -f "$work/scratch/out/good.c" ] &&
    [ "$(ls -A "$work/scratch/out" | wc -l)" = 2 ]
report $? "gen c --name good writes out/good.h and out/good.c and nothing else"
echo "1..$n"
exit $failed
