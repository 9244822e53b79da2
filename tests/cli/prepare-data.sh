#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# prepare-data.sh -- regenerate the committed test data of tests/cli/data
# (run by hand from the top of a built tree when the formats change):
#
#   tests/cli/prepare-data.sh
#
# 1. `bitsift encode` turns the NDJSON records into raw packets
#    (data/packets/) and into an Ethernet pcap (data/encoded.pcap, and the
#    two-protocol data/mixed.pcap);
# 2. make-packets.py damages copies of them, one per failure kind
#    (data/bad/);
# 3. make-captures.py wraps the packets in every link type and writes the
#    hostile captures;
# 4. tshark reads the same captures: its frame numbers, addresses, ports and
#    UDP lengths are kept in data/*.tshark for the cross-check test.
set -eu
bitsift=./src/bitsift
data=tests/cli/data
arena="-s $data/arena.bss"

rm -rf "$data/packets" "$data/bad"
mkdir -p "$data/packets"
$bitsift encode $arena -o "$data/packets" "$data/arena.ndjson"
python3 tests/cli/make-packets.py "$data/packets" "$data/bad"
$bitsift encode $arena -w "$data/encoded.pcap" "$data/arena.ndjson"
cat "$data/arena.ndjson" "$data/lobby.ndjson" |
    $bitsift encode $arena -s "$data/lobby.bss" -w "$data/mixed.pcap"
python3 tests/cli/make-captures.py "$data/packets" "$data"

if command -v tshark >/dev/null 2>&1; then
    for capture in ethernet-vlan.pcap ethernet.pcapng sll.pcap sll2.pcapng raw.pcap \
        ipv4.pcap ipv6.pcap null.pcap loop.pcap encoded.pcap mixed.pcap; do
        tshark -r "$data/$capture" -Y udp -T fields -E separator=' ' \
            -e frame.number -e ip.src -e ipv6.src -e udp.srcport \
            -e ip.dst -e ipv6.dst -e udp.dstport -e udp.length \
            >"$data/$capture.tshark" 2>/dev/null
    done
else
    echo "prepare-data.sh: tshark not found; the .tshark files were not refreshed" >&2
fi
