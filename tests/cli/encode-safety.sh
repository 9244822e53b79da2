#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# encode-safety.sh -- `bitsift encode` never damages what it was not asked
# to write: an output is replaced only by a run that succeeds, an output
# that is one of the inputs is refused, a path that does not fit is an
# error, and times that the capture cannot hold are refused. It also holds
# encode to bounded memory and time on hostile records. Prints TAP.
name=encode-safety
. "${top_srcdir:-.}/tests/cli/script-setup.sh"
peak_rss=$(cd "$top_builddir" && pwd)/tests/cli/peak-rss
schema="-s $data/arena.bss"


# expect STATUS DESCRIPTION COMMAND...: the command exits with STATUS.
expect() {
    want=$1
    what=$2
    shift 2
    "$@" >"$work/out" 2>"$work/err"
    got=$?
    [ "$got" = "$want" ]
    ok=$?
    [ "$ok" = 0 ] || { echo "# exit $got, expected $want; stderr:"; sed 's/^/#   /' "$work/err"; }
    report $ok "$what"
}
# leftovers DIR: names in DIR other than the expected ones (temporary files).
leftovers() {
    ls -A "$1" | grep -v -x -e 'keep.*' -e 'packet-[0-9]*\.bin' -e 'out\.pcap' -e 'in.ndjson'
}

good_record='{"protocol":"arena","type":"Bye","fields":{"reason":-5,"flags":1}}'
bad_record='{"protocol":"arena","type":"Bye","fields":{"reason":6,"flags":1}}'

# --- 1. An existing output survives a run that fails -----------------------
mkdir "$work/o"
printf 'precious capture\n' >"$work/o/keep.pcap"
cp "$work/o/keep.pcap" "$work/keep.copy"
expect 2 "-w with a missing input fails" \
    "$bitsift" encode $schema -w "$work/o/keep.pcap" "$work/missing.ndjson"
cmp -s "$work/o/keep.pcap" "$work/keep.copy"
report $? "-w with a missing input leaves the existing capture as it was"
echo "$bad_record" >"$work/bad.ndjson"
expect 1 "-w with a record that cannot be encoded exits 1" \
    "$bitsift" encode $schema -w "$work/o/keep.pcap" "$work/bad.ndjson"
cmp -s "$work/o/keep.pcap" "$work/keep.copy"
report $? "-w with a failed record leaves the existing capture as it was"

printf 'precious packet' >"$work/o/keep.bin"
cp "$work/o/keep.bin" "$work/keep.copy"
{ echo "$bad_record"; echo "$good_record"; } >"$work/bad-first.ndjson"
expect 1 "-o FILE with a bad first record exits 1" \
    "$bitsift" encode $schema -o "$work/o/keep.bin" "$work/bad-first.ndjson"
cmp -s "$work/o/keep.bin" "$work/keep.copy"
report $? "-o FILE with a bad first record leaves the file as it was"
echo 'not json' >"$work/garbage.ndjson"
expect 2 "-o FILE with unreadable records exits 2" \
    "$bitsift" encode $schema -o "$work/o/keep.bin" "$work/garbage.ndjson"
cmp -s "$work/o/keep.bin" "$work/keep.copy"
report $? "-o FILE with unreadable records leaves the file as it was"

mkdir "$work/d"
printf 'old packet 1' >"$work/d/packet-000001.bin"
{ echo "$good_record"; echo "$good_record"; echo "$bad_record"; } >"$work/third-bad.ndjson"
expect 1 "-o DIR with a bad third record exits 1" \
    "$bitsift" encode $schema -o "$work/d" "$work/third-bad.ndjson"
[ "$(cat "$work/d/packet-000001.bin")" = "old packet 1" ] && [ ! -e "$work/d/packet-000002.bin" ]
report $? "-o DIR with a failed record changes no file of the directory"
[ -z "$(leftovers "$work/d")" ] && [ -z "$(leftovers "$work/o")" ]
report $? "failed runs leave no temporary file behind"

# The output as one of the inputs: refused, the input intact.
cp "$data/arena.ndjson" "$work/o/in.ndjson"
expect 2 "-w naming an input is refused" \
    "$bitsift" encode $schema -w "$work/o/in.ndjson" "$work/o/in.ndjson"
cmp -s "$work/o/in.ndjson" "$data/arena.ndjson"
report $? "-w naming an input leaves the input intact"
expect 2 "-o naming an input (by another path) is refused" \
    "$bitsift" encode $schema -o "$work/o/../o/in.ndjson" "$work/o/in.ndjson"
cmp -s "$work/o/in.ndjson" "$data/arena.ndjson"
report $? "-o naming an input leaves the input intact"

# Success: the outputs are in place, nothing else beside them.
expect 0 "-w succeeds" "$bitsift" encode $schema -w "$work/o/out.pcap" "$data/arena.ndjson"
expect 0 "-o DIR succeeds over old files" "$bitsift" encode $schema -o "$work/d" "$data/arena.ndjson"
[ "$(cat "$work/d/packet-000001.bin")" != "old packet 1" ] && [ -s "$work/o/out.pcap" ] &&
    [ -z "$(leftovers "$work/d")" ] && [ -z "$(leftovers "$work/o")" ]
report $? "successful runs put their outputs in place and leave nothing else"

# A run stopped by a signal (blocked on a FIFO) leaves the output as it was.
mkfifo "$work/o/records.fifo"
"$bitsift" encode $schema -w "$work/o/keep.pcap" "$data/arena.ndjson" "$work/o/records.fifo" \
    >/dev/null 2>"$work/err" &
pid=$!
(sleep 20 && kill -KILL $pid 2>/dev/null) >/dev/null 2>&1 &
dog=$!
i=0 # until it waits in the open of the FIFO (Linux's wchan), at most 10 s
while [ -r "/proc/$pid/wchan" ] && [ "$(cat "/proc/$pid/wchan" 2>/dev/null)" != wait_for_partner ] &&
    [ $i -lt 100 ]; do
    sleep 0.1
    i=$((i + 1))
done
[ -r "/proc/$pid/wchan" ] || sleep 1
kill -TERM $pid
wait $pid
status=$?
kill $dog 2>/dev/null
rm -f "$work/o/records.fifo"
[ "$(cat "$work/o/keep.pcap")" = "precious capture" ] && [ "$status" = 2 ] && [ -z "$(leftovers "$work/o")" ]
report $? "-w stopped by a signal exits 2, leaves the capture as it was and no temporary (exit $status)"

# --- 2. A path that does not fit is an error ---------------------------------
long=$work/long
part=$(printf '%0200d' 0)
while [ ${#long} -lt 3880 ]; do long=$long/$part; done
long=$long/$(printf '%0*d' $((4086 - ${#long} - 1)) 0)
mkdir -p "$long" 2>/dev/null
if [ -d "$long" ]; then
    expect 2 "-o DIR with a ${#long}-byte directory name is an error" \
        "$bitsift" encode $schema -o "$long" "$data/arena.ndjson"
    grep -q "too long" "$work/err"
    report $? "the error says the path is too long"
    [ -z "$(ls -A "$long")" ]
    report $? "nothing was written in the directory"
else
    echo "# cannot make a ${#long}-byte directory here"
    report 1 "-o DIR with a long directory name"
fi

# --- 3. Times that a classic pcap cannot hold; dates that do not exist -----
for t in 9999-12-31T00:00:00Z 1960-01-01T00:00:00Z 2038-01-19T03:14:08Z 2026-02-31T00:00:00Z \
    2026-01-01T00:00:00+99:99; do
    echo "{\"protocol\":\"arena\",\"type\":\"Bye\",\"time\":\"$t\",\"fields\":{\"reason\":-5,\"flags\":1}}" \
        >"$work/time.ndjson"
    expect 1 "-w refuses the time $t" "$bitsift" encode $schema -w "$work/time.pcap" "$work/time.ndjson"
done
echo '{"protocol":"arena","type":"Bye","time":"2038-01-19T03:14:07.999999Z","fields":{"reason":-5,"flags":1}}' \
    >"$work/time.ndjson"
expect 0 "-w takes the last second a classic pcap holds" \
    "$bitsift" encode $schema -w "$work/time.pcap" "$work/time.ndjson"
"$bitsift" decode -F json $schema "$work/time.pcap" | grep -q '"time":"2038-01-19T03:14:07.999999000Z"'
report $? "and it reads back as written"

# --- 4. A record longer than the limit costs no more than the limit --------
# In a sanitizer build, freed memory is held in a quarantine (to catch its
# use) and stays resident: the measurements below turn it off, and allow
# twice the budget for the allocator's own overhead (redzones).
asan_memory="${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=0:malloc_context_size=0:redzone=16:max_redzone=16"
# 200 MB of one line with no newline, from a pipe.
head -c 200000000 /dev/zero | tr '\0' ' ' | ASAN_OPTIONS=$asan_memory "$peak_rss" "$bitsift" encode $schema -o - >/dev/null 2>"$work/err"
status=$?
rss=$(sed -n 's/^peak-rss: //p' "$work/err")
[ "$status" = 2 ] && grep -q "longer than" "$work/err"
report $? "a 200 MB line is refused (exit $status)"
[ -n "$rss" ] && [ "$rss" -lt 160000 ]
report $? "a 200 MB line is read in bounded memory (peak ${rss:-?} KiB)"
# A record of 16 MB that jansson would need ~25 times its size for (about
# 490 MB); its budget is 16 MiB + 8 times its size (144 MB), read with the
# line and its protected copy (48 MB).
awk 'BEGIN { printf "{\"protocol\":\"arena\",\"type\":\"Bye\",\"fields\":{\"reason\":-5,\"flags\":1,\"junk\":[0"; for (i = 0; i < 8000000; i++) printf ",0"; print "]}}" }' \
    >"$work/wide.ndjson"
ASAN_OPTIONS=$asan_memory "$peak_rss" "$bitsift" encode $schema -o - "$work/wide.ndjson" >/dev/null 2>"$work/err"
status=$?
rss=$(sed -n 's/^peak-rss: //p' "$work/err")
[ -n "$rss" ] && [ "$rss" -lt 340000 ]
report $? "a 16 MB record of 8 M numbers stays in bounded memory (peak ${rss:-?} KiB, exit $status)"

# --- 5. Many keys in one object: linear, not quadratic ---------------------
awk 'BEGIN { printf "{\"protocol\":\"arena\",\"type\":\"Bye\",\"fields\":{\"reason\":-5,\"flags\":1"; for (i = 0; i < 200000; i++) printf ",\"k%d\":0", i; print "}}" }' \
    >"$work/keys.ndjson"
start=$(date +%s)
timeout 60 "$bitsift" encode $schema -o - "$work/keys.ndjson" >"$work/keys.bin" 2>"$work/err"
status=$?
elapsed=$(($(date +%s) - start))
[ "$status" = 0 ] && [ "$elapsed" -le 10 ]
report $? "200,000 keys in one object encode in ${elapsed} s (exit $status)"

echo "1..$n"
exit $failed
