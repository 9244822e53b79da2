#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# seeds-reseal.sh -- `bitsift seeds` and `bitsift reseal`: seeds for every
# packet type of every schema of the tree that compiles (the 1024-slot
# sparse arrays of scenes.bss and of the fuzzing example included), each
# a packet `bitsift validate` accepts; reseal repairs exactly the CRC, by
# schema and by protocol id, and refuses what it cannot do: a file too
# short, a capture of every format (which it would destroy), a directory.
# Prints TAP.
name=seeds-reseal
. "${top_srcdir:-.}/tests/cli/script-setup.sh"



# Every schema file of the tree that compiles (the fuzz_schema corpus
# holds the valid ones fuzz_schema found interesting).
schemas=
for f in "$top_srcdir"/examples/*.bss "$top_srcdir"/examples/*/*.bss "$top_srcdir"/tests/schema/*.bss \
    "$top_srcdir"/tests/cli/data/*.bss "$top_srcdir"/corpus/fuzz_schema/*; do
    [ -f "$f" ] && "$bitsift" schema "$f" >/dev/null 2>&1 && schemas="$schemas $f"
done

i=0
for f in $schemas; do
    i=$((i + 1))
    base=$(basename "$f" .bss)
    dir=$work/seeds-$base
    [ -d "$dir" ] && dir=$dir-$i
    mkdir "$dir"
    "$bitsift" seeds -q -c 2 -s "$f" -o "$dir" >"$work/out" 2>&1
    status=$?
    types=$("$bitsift" schema "$f" | grep -c '^packet ')
    missing=0
    for t in $("$bitsift" schema "$f" | sed -n 's/^packet \([A-Za-z0-9_]*\).*/\1/p'); do
        ls "$dir" | grep -q -- "-$t-" || missing=$((missing + 1))
    done
    "$bitsift" validate -q -s "$f" "$dir" >"$work/validate" 2>&1
    valid=$?
    report "$([ "$status" = 0 ] && [ "$missing" = 0 ] && [ "$types" -gt 0 ] && [ "$valid" = 0 ]; echo $?)" \
        "seeds of all $types packet types of ${f#"$top_srcdir"/}, all valid (status $status, $missing types missing, validate $valid)"
done

# The sparse(relative) arrays: a full seed holds many elements.
decoded=$("$bitsift" decode -s "$top_srcdir/examples/scenes.bss" "$work/seeds-scenes/scenes-scene_d-100-0" | grep -c 'visible')
report "$([ "${decoded:-0}" -gt 16 ]; echo $?)" "a full scene_d seed has many sparse(relative) elements ($decoded)"

"$bitsift" seeds -o "$work/no/such/dir" >"$work/out" 2>&1
status=$?
report "$([ "$status" = 2 ] && grep -q 'no/such/dir: No such file' "$work/out"; echo $?)" \
    "a missing output directory is an error (status $status)"
"$bitsift" seeds -s "$top_srcdir/examples/shooter.bss" >"$work/out" 2>&1
report "$([ $? = 2 ]; echo $?)" "seeds without -o is a usage error"

# reseal: break the CRC of a seed, reseal it, compare.
shooter=$top_srcdir/examples/shooter.bss
seed=$(ls "$work/seeds-shooter"/* | head -n 1)
cp "$seed" "$work/broken"
printf '\377\377' | dd of="$work/broken" bs=1 seek=0 count=2 conv=notrunc 2>/dev/null
"$bitsift" validate -q -s "$shooter" "$work/broken" >/dev/null 2>&1
report "$([ $? = 1 ]; echo $?)" "a seed with a broken CRC is invalid"
"$bitsift" reseal -s "$shooter" -o "$work/fixed" "$work/broken" && cmp -s "$work/fixed" "$seed"
report $? "reseal -s restores the seed byte for byte"
id=$("$bitsift" schema "$shooter" | sed -n 's/.*id \(0x[0-9a-f]*\).*/\1/p' | head -n 1)
"$bitsift" reseal --protocol "$id" -o - "$work/broken" >"$work/fixed2" && cmp -s "$work/fixed2" "$seed"
report $? "reseal --protocol $id to standard output gives the same"
cp "$work/broken" "$work/inplace"
"$bitsift" reseal --in-place -s "$shooter" -s "$top_srcdir/examples/article.bss" "$work/inplace" &&
    cmp -s "$work/inplace" "$seed"
report $? "reseal --in-place with two schemas picks the packet's protocol"
printf 'abc' >"$work/short"
"$bitsift" reseal --protocol 1 -o "$work/x" "$work/short" >"$work/out" 2>&1
report "$([ $? = 2 ] && grep -q 'cannot hold a CRC' "$work/out" && [ ! -e "$work/x" ]; echo $?)" \
    "a file too short for a CRC is refused, nothing written"
"$bitsift" reseal --protocol 1 -o "$work/x" --in-place "$work/broken" >/dev/null 2>&1
report "$([ $? = 2 ]; echo $?)" "-o and --in-place together are refused"
"$bitsift" reseal --protocol 0x1nope -o "$work/x" "$work/broken" >/dev/null 2>&1
report "$([ $? = 2 ]; echo $?)" "a bad protocol id is refused"

# reseal refuses captures (it would write a CRC over the file header): a
# classic pcap in both byte orders, with micro- and nanosecond times, and
# pcapng in both byte orders, each whole, truncated after its header, and
# (pcapng) without an interface, by --in-place and by -o: exit 2, a
# message naming the file and what to do, the file unchanged, no output.
# The captures are made here: header + one 60-byte Ethernet frame.
frame='\377\377\377\377\377\377\000\001\002\003\004\005\010\000'
frame="$frame$(printf '%046d' 0 | sed 's/0/\\000/g')"
pcap_le() { # MAGIC as 4 bytes in file order
    printf "$1"'\002\000\004\000\000\000\000\000\000\000\000\000\377\377\000\000\001\000\000\000'
    printf '\000\000\000\000\000\000\000\000\074\000\000\000\074\000\000\000'
    printf "$frame"
}
pcap_be() {
    printf "$1"'\000\002\000\004\000\000\000\000\000\000\000\000\000\000\377\377\000\000\000\001'
    printf '\000\000\000\000\000\000\000\000\000\000\000\074\000\000\000\074'
    printf "$frame"
}
pcapng_le() { # SHB (28 bytes), IDB (20), EPB (32 + 60)
    printf '\012\015\015\012\034\000\000\000\115\074\053\032\001\000\000\000\377\377\377\377\377\377\377\377\034\000\000\000'
    [ "${1:-}" = no-idb ] && return
    printf '\001\000\000\000\024\000\000\000\001\000\000\000\377\377\000\000\024\000\000\000'
    printf '\006\000\000\000\134\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\074\000\000\000\074\000\000\000'
    printf "$frame"
    printf '\134\000\000\000'
}
pcapng_be() {
    printf '\012\015\015\012\000\000\000\034\032\053\074\115\000\001\000\000\377\377\377\377\377\377\377\377\000\000\000\034'
    printf '\000\000\000\001\000\000\000\024\000\001\000\000\000\000\377\377\000\000\000\024'
    printf '\000\000\000\006\000\000\000\134\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\074\000\000\000\074'
    printf "$frame"
    printf '\000\000\000\134'
}
pcap_le '\324\303\262\241' >"$work/cap-us-le.pcap"
pcap_be '\241\262\303\324' >"$work/cap-us-be.pcap"
pcap_le '\115\074\262\241' >"$work/cap-ns-le.pcap"
pcap_be '\241\262\074\115' >"$work/cap-ns-be.pcap"
pcapng_le >"$work/cap-le.pcapng"
pcapng_be >"$work/cap-be.pcapng"
pcapng_le no-idb >"$work/cap-no-idb.pcapng"
head -c 40 "$work/cap-us-le.pcap" >"$work/cap-cut.pcap"
for f in "$work"/cap-*.pcap "$work"/cap-*.pcapng; do
    base=${f##*/}
    cp "$f" "$work/before"
    timeout 20 "$bitsift" reseal --protocol 1 --in-place "$f" >"$work/out" 2>&1
    status=$?
    [ "$status" = 2 ] && cmp -s "$f" "$work/before" && grep -q "$base: a pcap.* capture" "$work/out" &&
        grep -q 'encode .*-w' "$work/out"
    report $? "reseal --in-place refuses the capture $base, which stays as it was (status $status)"
    rm -f "$work/resealed"
    timeout 20 "$bitsift" reseal -s "$shooter" -o "$work/resealed" "$f" >"$work/out" 2>&1
    status=$?
    [ "$status" = 2 ] && [ ! -e "$work/resealed" ] && grep -q "$base: a pcap.* capture" "$work/out"
    report $? "reseal -o refuses the capture $base, writes nothing (status $status)"
done
# Every capture of the test data libpcap reads is refused as well.
for f in "$data"/*.pcap "$data"/*.pcapng "$top_srcdir/examples/sample.pcap"; do
    "$bitsift" stats -q "$f" >/dev/null 2>&1 || continue
    "$bitsift" reseal --protocol 1 -o "$work/resealed" "$f" >"$work/out" 2>&1
    status=$?
    [ "$status" = 2 ] && [ ! -e "$work/resealed" ]
    report $? "reseal refuses ${f#"$top_srcdir"/} (status $status)"
done

# What the refusal tells to do instead gives back the capture, CRC repaired.
if command -v jq >/dev/null 2>&1; then
    cp "$top_srcdir/examples/sample.pcap" "$work/broken.pcap"
    printf '\377' | dd of="$work/broken.pcap" bs=1 seek=82 count=1 conv=notrunc 2>/dev/null
    "$bitsift" decode --no-crc -F json -s "$shooter" "$work/broken.pcap" | jq -c 'del(.valid)' |
        "$bitsift" encode -s "$shooter" -w "$work/repaired.pcap" 2>"$work/out" &&
        ! cmp -s "$work/broken.pcap" "$top_srcdir/examples/sample.pcap" &&
        cmp -s "$work/repaired.pcap" "$top_srcdir/examples/sample.pcap"
    report $? "the re-encoding the refusal suggests repairs a capture's CRC"
else
    echo "# jq not installed: the suggested re-encoding is not tried"
fi

# A packet whose CRC field happens to hold a pcap or pcapng magic number is
# still a packet when the rest is no capture header: resealed.
for magic in pcap-le:'\324\303\262\241' pcap-be:'\241\262\303\324' pcap-ns-le:'\115\074\262\241' \
    pcapng:'\012\015\015\012'; do
    { printf "${magic#*:}"; printf 'not a capture header, only a packet'; } >"$work/magic.bin"
    cp "$work/magic.bin" "$work/before"
    timeout 20 "$bitsift" reseal --protocol 1 --in-place "$work/magic.bin" >"$work/out" 2>&1
    status=$?
    [ "$status" = 0 ] && [ "$(tail -c +5 "$work/magic.bin" | od -An -tx1)" = "$(tail -c +5 "$work/before" | od -An -tx1)" ] &&
        ! cmp -s "$work/magic.bin" "$work/before"
    report $? "a packet whose CRC bytes are the ${magic%%:*} magic is resealed (status $status)"
done
# --raw: a file that is a capture by its header is taken as one packet.
cp "$work/cap-us-le.pcap" "$work/raw.pcap"
timeout 20 "$bitsift" reseal --protocol 1 --raw --in-place "$work/raw.pcap" >"$work/out" 2>&1
status=$?
[ "$status" = 0 ] && ! cmp -s "$work/raw.pcap" "$work/cap-us-le.pcap" &&
    [ "$(tail -c +5 "$work/raw.pcap" | od -An -tx1)" = "$(tail -c +5 "$work/cap-us-le.pcap" | od -An -tx1)" ]
report $? "reseal --raw reseals even a file with a capture header (status $status)"

# A directory: said so, not "read error".
mkdir "$work/packets"
timeout 20 "$bitsift" reseal --protocol 1 --in-place "$work/packets" >"$work/out" 2>&1
status=$?
[ "$status" = 2 ] && grep -q 'packets: is a directory; reseal takes packet files' "$work/out"
report $? "reseal of a directory says it is one (status $status)"
timeout 20 "$bitsift" reseal --protocol 1 -o "$work/x2" "$work/packets" >"$work/out" 2>&1
status=$?
[ "$status" = 2 ] && [ ! -e "$work/x2" ] && grep -q 'is a directory' "$work/out"
report $? "reseal -o of a directory says it is one, writes nothing (status $status)"

echo "1..$n"
exit $failed
