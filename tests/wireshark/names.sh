#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# tests/wireshark/names.sh -- the names `bitsift gen wireshark` refuses are
# those tshark would refuse to load, checked through the installed tshark:
#
#   1. every name tshark has taken (builtin-names.sh: its protocols' filter
#      names and uppercase short names, its preference modules), every
#      display filter keyword and every one-character name is refused by
#      the generator (name-check, one process), uppercase or not; names
#      the installed tshark has and the generator's list has not fail the
#      test when the installed tshark is the list's own version, and are
#      listed as TODO with another version when they are fewer than a
#      tenth of tshark's names (a newer Wireshark's new protocols);
#   2. gen exits 2 with a message about the name, writing nothing, for a
#      refused --name and a refused protocol name;
#   3. names at the boundary that the generator takes (two characters,
#      63, digits and '_', uppercase) give dissectors that tshark loads,
#      all at once, each registered under its name;
#   4. such a dissector with its name changed to one of each refused kind
#      ("x", "and", "udp", "gui") is one tshark refuses to load: the
#      refusals are tshark's own.
# A TAP skip when tshark is not installed.
name=wireshark-names
. "${top_srcdir:-.}/tests/cli/script-setup.sh"
here=$top_srcdir/tests/wireshark
check=$(cd "$top_builddir" && pwd)/tests/wireshark/name-check
if ! command -v tshark >/dev/null 2>&1; then
    echo "1..0 # SKIP tshark is not installed"
    exit 0
fi

# --- 1. every name tshark has taken --------------------------------------------
sh "$here/builtin-names.sh" >"$work/builtin"
printf '%s\n' all and any bitwise_and contains eq ge gt in le lt matches ne not or >"$work/keywords"
for c in a b c d e f g h i j k l m n o p q r s t u v w x y z A Q Z _; do echo "$c"; done >"$work/short"
tr 'a-z' 'A-Z' <"$work/builtin" >"$work/upper"
cat "$work/builtin" "$work/keywords" "$work/short" "$work/upper" | "$check" >"$work/checked"
taken=$(grep -c '^taken' "$work/checked")
missing=$(grep '^taken' "$work/checked" | cut -d' ' -f2 | tr '\n' ' ')
installed=$(tshark --version 2>/dev/null | sed -n '1s/.*(Wireshark) \([0-9.]*\).*/\1/p')
listed=$(sed -n 's/^#define WIRESHARK_NAMES_VERSION "\(.*\)"/\1/p' "$top_srcdir/lib/gen_wireshark_names.h")
what="$(wc -l <"$work/builtin") names tshark $installed has taken, $(wc -l <"$work/keywords") display filter keywords, $(wc -l <"$work/short") one-character names and the taken names in uppercase refused by the generator"
if [ "$taken" = 0 ]; then
    report 0 "$what"
elif [ "$installed" != "$listed" ] && [ $((taken * 10)) -lt "$(wc -l <"$work/builtin")" ] &&
    ! grep '^taken' "$work/checked" | cut -d' ' -f2 | grep -qxF -f - "$work/keywords" "$work/short"; then
    # Another Wireshark: its new protocols (fewer than a tenth of all) are
    # not in the generator's list; the keywords and short names must hold.
    echo "ok $((n + 1)) - $what # TODO tshark $installed has $taken names the generator's list (Wireshark $listed) has not: $missing"
    n=$((n + 1))
else
    report 1 "$what; taken: $missing"
fi

# --- 2. gen refuses them with a message, writing nothing --------------------------
refuse() { # DESCRIPTION EXPECTED-MESSAGE gen-arguments...
    what=$1
    expect=$2
    shift 2
    "$bitsift" gen wireshark "$@" -o "$work/refused.lua" 2>"$work/err"
    status=$?
    [ "$status" = 2 ] && grep -q "$expect" "$work/err" && [ ! -e "$work/refused.lua" ]
    report $? "$what: exit $status, $(cat "$work/err")"
}
refuse "--name x" "the name 'x' is shorter than two characters" --name x
refuse "--name UDP" "the name 'UDP' is taken by a protocol or preference module built into Wireshark" \
    --name UDP
refuse "--name contains" "the name 'contains' is a display filter keyword" --name contains
printf 'protocol frame { id 1; }\npacket p { bool b; }\n' >"$work/frame.bss"
refuse "protocol frame" "the name 'frame' is taken.*give another with --name" -s "$work/frame.bss"

# --- 3. names at the boundary load --------------------------------------------------
for a in a m z; do for b in a q z 9 _; do echo "$a$b"; done; done >"$work/two"
long=a12345678901234567890123456789012345678901234567890123456789012
printf '%s\n' "$long" x_1 Zq1 >>"$work/two"
"$check" <"$work/two" | sed -n 's/^taken //p' >"$work/boundary"
scripts=""
made=""
id=0
while read -r b; do
    # Each its own protocol id: tshark wants one description per protocol.
    id=$((id + 1))
    printf 'protocol edge { id %d; }\npacket p { bool b; }\n' "$id" >"$work/edge.bss"
    "$bitsift" gen wireshark --name "$b" -s "$work/edge.bss" -o "$work/$b.lua" 2>>"$work/gen.err" &&
        scripts="$scripts -X lua_script:$work/$b.lua" && made="$made $b"
done <"$work/boundary"
# shellcheck disable=SC2086 # the -X options
tshark -G protocols $scripts >"$work/protocols" 2>"$work/tshark.err"
status=$?
missing=""
for b in $made; do
    lower=$(echo "$b" | tr 'A-Z' 'a-z')
    awk -F '\t' -v n="$lower" '$3 == n { found = 1 } END { exit !found }' "$work/protocols" ||
        missing="$missing $b"
done
errors=$(grep -v 'Running as user' "$work/tshark.err" | head -n 3 | tr '\n' ' ')
[ "$status" = 0 ] && [ -z "$missing" ] && [ -z "$errors" ] && [ -n "$made" ] &&
    [ "$(echo "$made" | wc -w)" -ge 12 ]
report $? "tshark loads the dissectors of$made at once${missing:+; not registered:$missing}${errors:+; $errors}"

# --- 4. what the generator refuses, tshark refuses ----------------------------------
for refused in x and udp gui; do
    sed "s/^local S = {name = \"zq\"/local S = {name = \"$refused\"/" "$work/zq.lua" >"$work/as-$refused.lua"
    if cmp -s "$work/zq.lua" "$work/as-$refused.lua"; then
        report 1 "a dissector renamed $refused: nothing renamed"
        continue
    fi
    tshark -G protocols -X lua_script:"$work/as-$refused.lua" >"$work/protocols" 2>"$work/tshark.err"
    status=$?
    why=$(grep -v 'Running as user' "$work/tshark.err" | grep -i -m 1 'cannot\|bug\|registered')
    if [ -n "$why" ] || [ "$status" != 0 ]; then
        report 0 "tshark refuses a dissector named $refused (exit $status): $why"
    else
        report 1 "tshark refuses a dissector named $refused: it loaded"
    fi
done

echo "1..$n"
exit $failed
