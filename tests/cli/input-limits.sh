#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# input-limits.sh -- what hostile inputs must not do to decode and validate:
# a packet's text is streamed in bounded memory, a FIFO in a directory does
# not hang the run, output is flushed before a read that may block and an
# interrupted run still writes what it has (its JUnit report too), a run of
# identical errors is reported once with its count, extreme timestamps
# print, and the JUnit report is valid XML whatever the file names. Prints TAP.
name=input-limits
. "${top_srcdir:-.}/tests/cli/script-setup.sh"
peak_rss=$(cd "$top_builddir" && pwd)/tests/cli/peak-rss
schema="-s $data/arena.bss"
packet=$data/packets/packet-000001.bin


show() { sed 's/^/#   /' "$@" | head -n 20; }
# found PATTERN FILE: grep's status, the file shown when it fails.
found() {
    grep -q -e "$1" "$2" && return 0
    show "$2"
    return 1
}
# watchdog PID: kill PID after 20 s, so that a hang fails instead of blocking.
watchdog() {
    (sleep 20 && kill -KILL "$1" 2>/dev/null) >/dev/null 2>&1 &
    dog=$!
}
peak() { sed -n 's/^peak-rss: //p' "$1"; }
# blocked PID: until PID waits in the open of a FIFO (Linux's wchan), at
# most 10 s; where /proc does not say, 1 s.
blocked() {
    [ -r "/proc/$1/wchan" ] || { sleep 1; return; }
    i=0
    while [ "$(cat "/proc/$1/wchan" 2>/dev/null)" != wait_for_partner ] && [ $i -lt 100 ]; do
        sleep 0.1
        i=$((i + 1))
    done
}
# wait_for FILE: until FILE is not empty, at most 10 s.
wait_for() {
    i=0
    while [ ! -s "$1" ] && [ $i -lt 100 ]; do
        sleep 0.1
        i=$((i + 1))
    done
    [ -s "$1" ]
}

# --- 6. A packet's text is streamed: memory does not grow with it -----------
cat >"$work/cube.bss" <<'SCHEMA'
protocol cube { id 1; crc off; end_check off; }
struct Row { bool b[65536]; }
struct Plane { Row r[65536]; }
packet Cube { Plane p[65536]; }
SCHEMA
head -c 262144 /dev/zero >"$work/cube.bin" # 2 M bools, then the packet ends
head -c 16 /dev/zero >"$work/small.bin"
for format in text json; do
    "$peak_rss" "$bitsift" decode -F $format -s "$work/cube.bss" "$work/small.bin" \
        >/dev/null 2>"$work/err.small"
    "$peak_rss" "$bitsift" decode -F $format -s "$work/cube.bss" "$work/cube.bin" \
        >"$work/cube.$format" 2>"$work/err"
    status=$?
    small=$(peak "$work/err.small")
    big=$(peak "$work/err")
    [ "$status" = 0 ] && [ -n "$big" ] && [ $((big - small)) -lt 8000 ]
    report $? "decode -F $format of a packet with 2 M fields: memory grows by $((big - small)) KiB for $(wc -c <"$work/cube.$format") bytes of text"
done
[ "$(grep -c ' = false$' "$work/cube.text")" = 2097152 ] &&
    tail -n 1 "$work/cube.text" | grep -q '^  !! p\[0\]\.r\[32\]\.b\[0\] @bit 2097152: not enough data'
report $? "the streamed text holds every field and the failure"
head -n 1 "$work/cube.text" | grep -q 'cube\.bin length 262144: cube .*Cube INVALID$'
report $? "the header comes first"
count=$(grep -o false "$work/cube.json" | wc -l) # the fields and "valid":false
[ "$count" = 2097153 ] && tail -c 2 "$work/cube.json" | od -c | grep -q '}  *\\n'
report $? "the streamed JSON record holds every field and ends its line ($count)"

# --- 7. FIFOs and devices in directories; flushing before blocking ----------
mkdir "$work/dir"
cp "$packet" "$work/dir/a.bin"
mkfifo "$work/dir/b.fifo"
cp "$packet" "$work/dir/c.bin"
timeout 20 "$bitsift" decode $schema "$work/dir" >"$work/out" 2>"$work/err"
status=$?
[ "$status" = 0 ] && [ "$(grep -c '[ac]\.bin length' "$work/out")" = 2 ]
report $? "a FIFO inside a directory is skipped, the run goes on (exit $status)"
found 'b.fifo: skipped: not a regular file' "$work/err"
report $? "with a note"
timeout 20 "$bitsift" validate --junit "$work/dir.xml" $schema "$work/dir" >/dev/null 2>&1
[ $? != 124 ] && [ -s "$work/dir.xml" ]
report $? "validate --junit over it writes its report"

mkfifo "$work/named.fifo"
"$bitsift" decode -q $schema "$packet" "$work/named.fifo" >"$work/out" 2>"$work/err" &
pid=$!
watchdog $pid
wait_for "$work/out"
report $? "output is flushed before opening a FIFO named on the command line"
blocked $pid
kill -TERM $pid
wait $pid
status=$?
kill $dog 2>/dev/null
[ "$status" = 2 ] && grep -q interrupted "$work/err"
report $? "a TERM signal stops the blocked run with exit 2 and a message (exit $status)"
"$bitsift" validate --junit "$work/named.xml" $schema "$packet" "$work/named.fifo" >/dev/null 2>&1 &
pid=$!
watchdog $pid
blocked $pid
kill -TERM $pid
wait $pid
status=$?
kill $dog 2>/dev/null
[ "$status" = 2 ] && grep -q "name=\"$packet\"" "$work/named.xml" 2>/dev/null
report $? "an interrupted validate still writes its JUnit report (exit $status)"

# --- 8. A run of identical errors is reported once, with its count ----------
# A capture of 100,000 empty frames (a header, then zeros).
{
    printf '\324\303\262\241\002\000\004\000\000\000\000\000\000\000\000\000\377\377\000\000\001\000\000\000'
    head -c 1600000 /dev/zero
} >"$work/zeros.pcap"
"$bitsift" decode $schema "$work/zeros.pcap" >/dev/null 2>"$work/err"
status=$?
lines=$(wc -l <"$work/err")
[ "$status" = 2 ] && [ "$lines" -le 3 ]
report $? "100,000 identical frame errors take $lines lines (exit $status)"
found 'zeros.pcap:packets 2-100000: .*(repeated 99999 times)' "$work/err"
report $? "the run is reported with its range and count"

# --- 9. Extreme timestamps (pcapng if_tsoffset INT64_MIN) ---------------------
echo '{"protocol":"arena","type":"Bye","time":"2026-01-01T00:00:00Z","fields":{"reason":-5,"flags":1}}' |
    "$bitsift" encode $schema -w "$work/bye.pcap"
{
    # Section header, interface (Ethernet, if_tsoffset = INT64_MIN), one packet.
    printf '\012\015\015\012\034\000\000\000\115\074\053\032\001\000\000\000\377\377\377\377\377\377\377\377\034\000\000\000'
    printf '\001\000\000\000\044\000\000\000\001\000\000\000\000\000\000\000'
    printf '\016\000\010\000\000\000\000\000\000\000\000\200\000\000\000\000\044\000\000\000'
    printf '\006\000\000\000\124\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000'
    printf '\064\000\000\000\064\000\000\000'
    tail -c 52 "$work/bye.pcap"
    printf '\124\000\000\000'
} >"$work/tsoffset.pcapng"
"$bitsift" decode -F json $schema "$work/tsoffset.pcapng" >"$work/out" 2>"$work/err"
status=$?
[ "$status" = 0 ] && grep -q '"time":"[0-9]\{4\}-[0-9][0-9]-[0-9][0-9]T[0-9:.]*Z"' "$work/out"
report $? "a pcapng timestamp near INT64_MIN prints a valid time (exit $status)"
"$bitsift" decode $schema "$work/tsoffset.pcapng" | grep -q '^1 [0-2][0-9]:[0-5][0-9]:[0-5][0-9]\.[0-9]\{6\} '
report $? "and a valid time of day"

# --- 10. JUnit: valid XML 1.0 whatever the names, real times ----------------
if command -v xmllint >/dev/null 2>&1; then
    mkdir "$work/names"
    for name in 'f5\365' 'ff\377' 'overlong\300\200' 'overlong3\340\200\200' 'surrogate\355\240\200' \
        'fffe\357\277\276' 'ffff\357\277\277' 'above\364\220\200\200' 'ctrl\001' 'ok-\303\251' 'amp&<>"'; do
        cp "$packet" "$work/names/$(printf "$name")"
    done
    "$bitsift" validate --junit "$work/names.xml" $schema "$work/names" >/dev/null 2>&1
    xmllint --noout "$work/names.xml" 2>"$work/err"
    report $? "the JUnit report is well-formed XML for hostile file names"
    grep -q 'ok-é' "$work/names.xml"
    report $? "valid UTF-8 names are kept as they are"
    cases=$(grep -c '<testcase ' "$work/names.xml")
    timed=$(grep '<testcase ' "$work/names.xml" | grep -c 'time="[0-9]*\.[0-9]*"')
    zero=$(grep -c 'time="0*\.0*"' "$work/names.xml")
    [ "$cases" = 11 ] && [ "$timed" = "$cases" ] && [ "$zero" = 0 ]
    report $? "every test case has a time, none of them zero ($timed of $cases timed, $zero zero)"
else
    echo "# xmllint (libxml2-utils) is missing"
    report 1 "the JUnit report is well-formed XML for hostile file names"
fi

echo "1..$n"
exit $failed
