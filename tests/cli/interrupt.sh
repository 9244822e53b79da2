#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# interrupt.sh -- every command stops within a second of the first
# SIGTERM (bitsift(1): the output so far and the reports are written, the
# exit status is 2, a second signal kills): decode, dump, validate, stats,
# diagnose (reading, and searching), encode, seeds and gen, each on an
# input that keeps it busy for many seconds (an endless capture or NDJSON
# stream through a FIFO, a search of 20000 candidates, 3000 seeds of 64 Ki
# bools, gen c of a packet of 25000 fields). Each must be running 0.5 s
# after its start, gone 2 s after the signal (else it is killed and the
# point fails), exit 2, say so, leave no temporary file, and leave its
# outputs whole. Prints TAP.
name=interrupt
. "${top_srcdir:-.}/tests/cli/script-setup.sh"
shooter=$top_srcdir/examples/shooter.bss
producer=""
trap 'stop_producer; rm -rf "$work"' EXIT INT TERM

# --- endless inputs ------------------------------------------------------------
# A capture: sample.pcap's header, then its frames over and over (a 1.4 MB
# chunk written again and again until the reader is gone).
head -c 24 "$top_srcdir/examples/sample.pcap" >"$work/header"
tail -c +25 "$top_srcdir/examples/sample.pcap" >"$work/chunk"
for i in 1 2 3 4 5 6 7 8 9 10 11; do
    cat "$work/chunk" "$work/chunk" >"$work/chunk2" && mv "$work/chunk2" "$work/chunk"
done
mkfifo "$work/fifo"
# start_producer FIRST CHUNK: FIRST then CHUNK forever into the FIFO.
start_producer() {
    { cat "$1" && while cat "$2"; do :; done; } >"$work/fifo" 2>/dev/null &
    producer=$!
}
# The producer's shell is killed (also when it still waits to open the
# FIFO); a cat it had started ends on its next write (no reader: SIGPIPE).
stop_producer() {
    if [ -n "$producer" ]; then
        kill "$producer" 2>/dev/null
        wait "$producer" 2>/dev/null
    fi
    producer=""
}

# ready PID: until PID catches SIGTERM (bitsift, not the libtool wrapper
# or a shell, has started and set its handler: SigCgt bit 15 in Linux's
# /proc), at most 10 s on a loaded machine; where /proc does not say, 1 s.
ready() {
    [ -r "/proc/$1/status" ] || { sleep 1; return; }
    i=0
    while [ $i -lt 100 ]; do
        mask=$(sed -n 's/^SigCgt:[[:space:]]*//p' "/proc/$1/status" 2>/dev/null)
        [ -n "$mask" ] && [ $((0x$mask & 0x4000)) != 0 ] && return
        sleep 0.1
        i=$((i + 1))
    done
}
# sigterm WHAT: run the command "$@" of the caller (set with `set --`) in
# the background, output in $work/WHAT.out and .err; SIGTERM 0.5 s after
# it is ready.
# Sets status (its exit status, or "alive" / "early").
sigterm() {
    what=$1
    shift
    "$@" >"$work/$what.out" 2>"$work/$what.err" &
    pid=$!
    ready "$pid"
    sleep 0.5
    if ! kill -0 "$pid" 2>/dev/null; then
        wait "$pid"
        status="early (exit $?)"
        return
    fi
    kill -TERM "$pid"
    i=0
    while kill -0 "$pid" 2>/dev/null && [ $i -lt 20 ]; do
        sleep 0.1
        i=$((i + 1))
    done
    if kill -0 "$pid" 2>/dev/null; then
        kill -KILL "$pid" 2>/dev/null
        wait "$pid" 2>/dev/null
        status="alive 2 s after SIGTERM"
        return
    fi
    wait "$pid"
    status=$?
}
# No temporary file of ours in DIR (.NAME.XXXXXX, NAME.XXXXXX, .bitsift-XXXXXX).
no_temporaries() {
    [ -z "$(find "$1" -name '.*.??????' -o -name '*.??????' -o -name '.bitsift-*' | head -n 1)" ]
}
# The file ends with a newline (the last record is whole).
ends_line() { [ -s "$1" ] && [ "$(tail -c 1 "$1" | od -An -c | tr -d ' ')" = '\n' ]; }
said() { grep -q 'interrupted' "$1"; }

# --- the packet readers on an endless capture ------------------------------------
for cmd in decode dump validate stats diagnose; do
    mkdir "$work/$cmd.dir"
    start_producer "$work/header" "$work/chunk"
    case $cmd in
    validate) set -- "$bitsift" validate -s "$shooter" --junit "$work/$cmd.dir/report.xml" "$work/fifo" ;;
    stats) set -- "$bitsift" stats -F json -s "$shooter" "$work/fifo" ;;
    *) set -- "$bitsift" $cmd -s "$shooter" "$work/fifo" ;;
    esac
    sigterm $cmd "$@"
    stop_producer
    [ "$status" = 2 ] && said "$work/$cmd.err" && ends_line "$work/$cmd.out" &&
        no_temporaries "$work/$cmd.dir"
    report $? "$cmd of an endless capture: stopped by SIGTERM within 2 s, exit 2 ($status), said, output ends whole"
done
tail -n 1 "$work/validate.dir/report.xml" | grep -q '^</testsuites>$'
report $? "validate: the JUnit report is written whole"
grep -q '^[0-9]* packets: [0-9]* valid' "$work/diagnose.out"
report $? "diagnose: the packets read before the signal are counted"

# --- diagnose, in its search ------------------------------------------------------
# One packet type of 600 fields: about 20000 candidates, each a compile of
# 600 fields (many seconds); 30 packets written with the last field wider.
{
    echo 'protocol wide { version 1; }'
    echo 'packet p {'
    i=0
    while [ $i -lt 600 ]; do
        echo "    int(0, 100) f$i;"
        i=$((i + 1))
    done
} >"$work/wide.bss"
{ cat "$work/wide.bss" && echo '    int(0, 1000) last;' && echo '}'; } >"$work/wide-drifted.bss"
{ cat "$work/wide.bss" && echo '    int(0, 100) last;' && echo '}'; } >"$work/wide-schema.bss"
mkdir "$work/wide"
"$bitsift" seeds -q -c 10 -s "$work/wide-drifted.bss" -o "$work/wide"
sigterm search "$bitsift" diagnose -s "$work/wide-schema.bss" "$work/wide"
[ "$status" = 2 ] && said "$work/search.err" &&
    grep -q 'not tried: interrupted' "$work/search.out" && ends_line "$work/search.out"
report $? "diagnose in its search: stopped within 2 s, exit 2 ($status), the group says what was not tried"

# --- encode, on an endless NDJSON stream ------------------------------------------
head -n 1 "$top_srcdir/examples/sample.ndjson" >"$work/record"
for i in 1 2 3 4 5 6 7 8 9 10 11 12; do
    cat "$work/record" "$work/record" >"$work/record2" && mv "$work/record2" "$work/record"
done
mkdir "$work/encode.dir"
start_producer "$work/record" "$work/record"
sigterm encode "$bitsift" encode -s "$shooter" -o "$work/encode.dir/out.pcap" "$work/fifo"
stop_producer
[ "$status" = 2 ] && said "$work/encode.err" && [ ! -e "$work/encode.dir/out.pcap" ] &&
    no_temporaries "$work/encode.dir"
report $? "encode of an endless stream: stopped within 2 s, exit 2 ($status), no output, no temporary"

# --- seeds ---------------------------------------------------------------------------
printf 'protocol bools { version 1; }\npacket p { bool b[65536]; }\n' >"$work/bools.bss"
mkdir "$work/seeds"
sigterm seeds "$bitsift" seeds -c 1000 -s "$work/bools.bss" -o "$work/seeds"
count=$(ls "$work/seeds" | wc -l)
[ "$status" = 2 ] && said "$work/seeds.err" && no_temporaries "$work/seeds" &&
    [ "$count" -lt 3000 ] && { [ "$count" = 0 ] ||
    "$bitsift" validate -q -s "$work/bools.bss" "$work/seeds" >/dev/null 2>&1; }
report $? "seeds: stopped within 2 s, exit 2 ($status), the $count seeds written whole and valid, no temporary"

# --- gen -------------------------------------------------------------------------------
# gen finishes at once on most schemas the parser accepts (0.7 s on 900
# types of 60 fields); gen c names a body's members in time that grows
# with their square: 9 s for one packet of 25000 fields (its compile takes
# 0.05 s, so the signal finds it naming).
{
    echo 'protocol many_fields { version 1; }'
    echo 'packet p {'
    i=0
    while [ $i -lt 25000 ]; do
        echo "bool f$i;"
        i=$((i + 1))
    done
    echo '}'
} >"$work/fields.bss"
mkdir "$work/gen"
sigterm gen "$bitsift" gen c -s "$work/fields.bss" -o "$work/gen"
[ "$status" = 2 ] && said "$work/gen.err" && [ -z "$(ls -A "$work/gen")" ]
report $? "gen c: stopped within 2 s, exit 2 ($status), nothing left in the output directory"

echo "1..$n"
exit $failed
