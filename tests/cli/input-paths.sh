#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# input-paths.sh -- a file gives the same result whichever way src/io/input.c
# reads it: by name (through stdio with a 1 MiB buffer; a packet file is
# rewound after libpcap looked at it) or from standard input (its first
# bytes peeked and replayed to libpcap, then the rest). Each test runs one
# command on one input both ways and compares the output, errors and exit
# status, with the input's name made the same. Prints TAP.
name=input-paths
. "${top_srcdir:-.}/tests/cli/script-setup.sh"
schema="-s $data/arena.bss"
TZ=UTC
export TZ

buffer=1048576 # INPUT_STDIO_BUFFER


# run OUT ARGS... -> OUT holds stdout, stderr and the exit status of
# `bitsift ARGS...` (stdin from $stdin), the input's name replaced by INPUT.
stdin=/dev/null
run() {
    out=$1
    name=$2
    shift 2
    "$bitsift" "$@" <"$stdin" >"$out.1" 2>"$out.2"
    status=$?
    {
        cat "$out.1"
        echo "--- stderr"
        cat "$out.2"
        echo "--- exit $status"
    } | sed -e "s|$name|INPUT|g" -e 's|<stdin>|INPUT|g' >"$out"
}

# same_ways FILE DESCRIPTION ARGS... -> one test: `bitsift ARGS... FILE`
# and `bitsift ARGS... - < FILE` agree
same_ways() {
    file=$1
    what=$2
    shift 2
    stdin=/dev/null
    run "$work/as-file" "$file" "$@" "$file"
    stdin=$file
    run "$work/as-stdin" "$file" "$@" -
    stdin=/dev/null
    cmp -s "$work/as-file" "$work/as-stdin"
    report $? "$what: read as a file and from standard input alike"
}

size_of() { wc -c <"$1" | tr -d ' '; }

echo "1..14"

# A capture larger than the stdio buffer and a small one made of the same
# records: the large one's first records decode as the small one.
records=$(wc -l <"$data/arena.ndjson" | tr -d ' ')
cp "$data/arena.ndjson" "$work/big.ndjson"
for i in 1 2 3 4 5 6 7 8 9 10 11 12; do # 4096 copies
    cat "$work/big.ndjson" "$work/big.ndjson" >"$work/twice.ndjson"
    mv "$work/twice.ndjson" "$work/big.ndjson"
done
"$bitsift" encode $schema -w "$work/big.pcap" "$work/big.ndjson" &&
    "$bitsift" encode $schema -w "$work/small.pcap" "$data/arena.ndjson"
report $? "encode -w writes the two captures"
big=$(size_of "$work/big.pcap")
small=$(size_of "$work/small.pcap")
[ "$big" -gt $buffer ] && [ "$small" -lt 4096 ]
report $? "one capture is larger than the $buffer-byte stdio buffer ($big bytes), one small ($small)"

run "$work/big-head" "$work/big.pcap" decode -F json -c "$records" $schema "$work/big.pcap"
run "$work/small-all" "$work/small.pcap" decode -F json $schema "$work/small.pcap"
cmp -s "$work/big-head" "$work/small-all" && [ -s "$work/small.pcap" ] &&
    grep -q '"valid":true' "$work/small-all"
report $? "a large capture's first records decode as the small one's"

same_ways "$work/big.pcap" "large capture" validate $schema
same_ways "$work/small.pcap" "small capture" decode -F json $schema

# Damaged captures: cut inside the last record, and a header cut short.
head -c $((big - 5)) "$work/big.pcap" >"$work/big-cut.pcap"
head -c $((small - 5)) "$work/small.pcap" >"$work/small-cut.pcap"
head -c 10 "$work/small.pcap" >"$work/header-cut.pcap"
same_ways "$work/big-cut.pcap" "large capture cut in a record" decode -q $schema
same_ways "$work/small-cut.pcap" "small capture cut in a record" decode -q $schema
same_ways "$work/header-cut.pcap" "capture header cut short" validate $schema
grep -q "truncated dump file" "$work/as-file"
report $? "the header cut short is reported as libpcap's truncated dump file"

# Packet files: one valid packet, too short for a capture header, empty, and
# one longer than any UDP payload.
packet=$(ls "$data/packets" | head -n 1)
same_ways "$data/packets/$packet" "packet file" decode -F json $schema
printf 'ab' >"$work/two-bytes.bin"
same_ways "$work/two-bytes.bin" "2-byte packet file" validate $schema
: >"$work/empty.bin"
same_ways "$work/empty.bin" "empty packet file" validate $schema
{
    cat "$data/packets/$packet"
    head -c 70000 /dev/zero
} >"$work/big.bin"
same_ways "$work/big.bin" "70 KB packet file" decode -F json $schema
grep -q '"valid":' "$work/as-file"
report $? "the 70 KB packet file is decoded as one packet"

exit $failed
