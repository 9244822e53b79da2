#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# roundtrip.sh -- `bitsift decode -F json | bitsift encode` gives back every
# valid packet byte for byte: from raw packet files, from captures of every
# link type (pcap and pcapng), and through a pcap written by `encode -w`.
# Prints TAP.
name=roundtrip
. "${top_srcdir:-.}/tests/cli/script-setup.sh"
schema="-s $data/arena.bss"

inputs="packets ethernet-vlan.pcap ethernet.pcapng sll.pcap sll2.pcapng raw.pcap ipv4.pcap
        ipv6.pcap null.pcap loop.pcap encoded.pcap"
echo "1..$(($(echo $inputs | wc -w) + 3))"
n=0
originals=$(cd "$data/packets" && ls)

# The k-th record of each input is the k-th packet file.
for input in $inputs; do
    n=$((n + 1))
    out=$work/$n
    mkdir -p "$out"
    "$bitsift" decode -F json $schema "$data/$input" >"$work/$n.json" &&
        "$bitsift" encode $schema -o "$out" "$work/$n.json"
    status=$?
    bad=""
    k=0
    for original in $originals; do
        k=$((k + 1))
        copy=$out/$(printf 'packet-%06d.bin' $k)
        cmp -s "$data/packets/$original" "$copy" || bad="$bad $original"
    done
    [ "$(ls "$out" | wc -l)" -eq "$k" ] || bad="$bad (count)"
    if [ $status = 0 ] && [ -z "$bad" ]; then
        echo "ok $n - decode | encode reproduces every packet of $input"
    else
        echo "not ok $n - decode | encode of $input: exit $status, differs:$bad"
    fi
done

# Through a pcap: the records read back from it are the same (but for the source).
n=$((n + 1))
"$bitsift" decode -F json $schema "$data/encoded.pcap" >"$work/a.json" &&
    "$bitsift" encode $schema -w "$work/copy.pcap" "$work/a.json" &&
    "$bitsift" decode -F json $schema "$work/copy.pcap" >"$work/b.json"
status=$?
sed 's/"source":"[^"]*"//' "$work/a.json" >"$work/a.cmp"
sed 's/"source":"[^"]*"//' "$work/b.json" >"$work/b.cmp"
if [ $status = 0 ] && [ -s "$work/a.cmp" ] && cmp -s "$work/a.cmp" "$work/b.cmp"; then
    echo "ok $n - decode -> encode -w -> decode gives the same records, times and addresses"
else
    echo "not ok $n - pcap round trip (exit $status)"
    diff "$work/a.cmp" "$work/b.cmp" | head -5 | sed 's/^/# /'
fi

# Two protocols in one capture: each record goes back to its own protocol.
n=$((n + 1))
"$bitsift" decode -F json $schema -s "$data/lobby.bss" "$data/mixed.pcap" >"$work/m.json" &&
    "$bitsift" encode $schema -s "$data/lobby.bss" -w "$work/m.pcap" "$work/m.json" &&
    "$bitsift" decode -F json $schema -s "$data/lobby.bss" "$work/m.pcap" >"$work/m2.json"
status=$?
if [ $status = 0 ] && [ "$(grep -c '"valid":true' "$work/m2.json")" = 6 ] &&
    [ "$(sed 's/"source":"[^"]*"//' "$work/m.json")" = "$(sed 's/"source":"[^"]*"//' "$work/m2.json")" ]; then
    echo "ok $n - two protocols survive decode -> encode -> decode"
else
    echo "not ok $n - two-protocol round trip (exit $status)"
fi

# Standard input both ways: one packet in, one packet out.
n=$((n + 1))
"$bitsift" decode -F json $schema - <"$data/packets/packet-000002.bin" |
    "$bitsift" encode $schema -o - >"$work/stdout.bin"
if cmp -s "$work/stdout.bin" "$data/packets/packet-000002.bin"; then
    echo "ok $n - decode - | encode -o - reproduces a packet from stdin to stdout"
else
    echo "not ok $n - stdin/stdout round trip"
fi
