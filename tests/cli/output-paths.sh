#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# output-paths.sh -- every output option of the command against every kind
# of path it may be given: a regular file is replaced atomically, a symbolic
# link is followed (the link stays a link, the file it names gets the
# output, a link to nothing creates that file), and a character device, a
# FIFO or a link to /dev/stdout is written through, never replaced. After
# each run it checks what the path still is and where the output went,
# against the same command's output to a fresh file. Device nodes are made
# with mknod in the scratch directory (only as root; /dev is never
# touched). Every command runs under a timeout, so that a FIFO nobody
# opens cannot hang make check. Prints TAP.
name=output-paths
. "${top_srcdir:-.}/tests/cli/script-setup.sh"
limit=20 # seconds any one command may take

examples=$(cd "$top_srcdir/examples" && pwd)
shooter=$examples/shooter.bss
records=$examples/sample.ndjson
capture=$examples/sample.pcap
head -n 1 "$records" >"$work/one.ndjson"
printf 'CRC!a packet of no protocol' >"$work/packet.bin"

# The output options, each as a word: `output_of OPTION DIR` prints the path
# of the output under test when the option writes into DIR, and
# `run_option OPTION DIR` runs the command.
options="gen-wireshark gen-c gen-fuzz encode-o-file encode-o-dir encode-w validate-junit reseal-o seeds"
output_of() {
    case $1 in
    gen-c) echo "$2/shooter.c" ;;
    gen-fuzz) echo "$2/fuzz_shooter.c" ;;
    encode-o-dir) echo "$2/packet-000002.bin" ;;
    seeds) echo "$2/shooter-connect_accept-50-0" ;;
    *) echo "$2/out" ;;
    esac
}
run_option() {
    case $1 in
    gen-wireshark) timeout $limit "$bitsift" gen wireshark -s "$shooter" -o "$2/out" ;;
    gen-c) timeout $limit "$bitsift" gen c -s "$shooter" -o "$2" ;;
    gen-fuzz) timeout $limit "$bitsift" gen fuzz -s "$shooter" -o "$2" ;;
    encode-o-file) timeout $limit "$bitsift" encode -s "$shooter" -o "$2/out" "$work/one.ndjson" ;;
    encode-o-dir) timeout $limit "$bitsift" encode -s "$shooter" -o "$2" "$records" ;;
    encode-w) timeout $limit "$bitsift" encode -s "$shooter" -w "$2/out" "$records" ;;
    validate-junit) timeout $limit "$bitsift" validate -q -s "$shooter" --junit "$2/out" "$capture" ;;
    reseal-o) timeout $limit "$bitsift" reseal --protocol 7 -o "$2/out" "$work/packet.bin" ;;
    seeds) timeout $limit "$bitsift" seeds -q -s "$shooter" -o "$2" ;;
    esac
}
# The output as compared: the JUnit report's times vary from run to run,
# and validate's summary line shares standard output with a report there.
normalized() {
    sed -e 's/ time="[0-9.]*"//g' -e '/^[0-9]* packets: /d' "$1"
}

# The expected output of each option: the command writing to a fresh file.
for o in $options; do
    mkdir "$work/ref-$o"
    run_option "$o" "$work/ref-$o" >/dev/null 2>"$work/err"
    status=$?
    [ "$status" = 0 ] && [ -s "$(output_of "$o" "$work/ref-$o")" ]
    report $? "$o writes its output to a fresh path (status $status)"
    normalized "$(output_of "$o" "$work/ref-$o")" >"$work/ref-$o.expected"
done

# same FILE: the output (normalized) is the option's expected output.
same() {
    normalized "$2" | cmp -s - "$work/ref-$1.expected"
}
# No temporary file left in DIR (they are hidden: .NAME.XXXXXX, .bitsift-XXXXXX).
no_leftovers() {
    [ -z "$(ls -A "$1" | grep '^\.')" ]
}
# Until the background reader $reader has ended, at most 5 s (after a
# command that never opened the FIFO, the reader waits for nobody).
end_reader() {
    i=0
    while kill -0 "$reader" 2>/dev/null && [ $i -lt 50 ]; do
        sleep 0.1
        i=$((i + 1))
    done
    kill "$reader" 2>/dev/null
    wait "$reader" 2>/dev/null
}

devices=no
if [ "$(id -u)" = 0 ] && mknod "$work/probe" c 1 3 2>/dev/null && printf x >"$work/probe" 2>/dev/null; then
    devices=yes
else
    echo "# not root, or device nodes cannot be opened here (a nodev mount): no device cases"
fi
rm -f "$work/probe"

k=0
for o in $options; do
    # A regular file: replaced atomically, with the new content.
    k=$((k + 1)); d=$work/case$k; mkdir "$d"; p=$(output_of "$o" "$d")
    printf 'old contents\n' >"$p"
    run_option "$o" "$d" >/dev/null 2>"$work/err"
    status=$?
    [ "$status" = 0 ] && [ -f "$p" ] && [ ! -L "$p" ] && same "$o" "$p" && no_leftovers "$d"
    report $? "$o over a regular file replaces it (status $status)"

    # A symbolic link to a regular file in another directory: the file gets
    # the output (its temporary beside it), the link stays a link.
    k=$((k + 1)); d=$work/case$k; mkdir "$d" "$d-other"; p=$(output_of "$o" "$d")
    printf 'old contents\n' >"$d-other/file"
    ln -s "../case$k-other/file" "$p"
    run_option "$o" "$d" >/dev/null 2>"$work/err"
    status=$?
    [ "$status" = 0 ] && [ -L "$p" ] && [ -f "$d-other/file" ] && same "$o" "$d-other/file" &&
        no_leftovers "$d" && no_leftovers "$d-other"
    report $? "$o through a symbolic link replaces the file it names and keeps the link (status $status)"

    # Two links in a row.
    k=$((k + 1)); d=$work/case$k; mkdir "$d"; p=$(output_of "$o" "$d")
    printf 'old contents\n' >"$d/file"
    ln -s file "$d/link1"
    ln -s link1 "$p"
    run_option "$o" "$d" >/dev/null 2>"$work/err"
    status=$?
    [ "$status" = 0 ] && [ -L "$p" ] && [ -L "$d/link1" ] && same "$o" "$d/file"
    report $? "$o through two symbolic links replaces the file at their end (status $status)"

    # A link to nothing: the file it names is created.
    k=$((k + 1)); d=$work/case$k; mkdir "$d"; p=$(output_of "$o" "$d")
    ln -s new-file "$p"
    run_option "$o" "$d" >/dev/null 2>"$work/err"
    status=$?
    [ "$status" = 0 ] && [ -L "$p" ] && [ -f "$d/new-file" ] && same "$o" "$d/new-file"
    report $? "$o through a link to nothing creates the file it names (status $status)"

    # A loop of links: an error, the links untouched.
    k=$((k + 1)); d=$work/case$k; mkdir "$d"; p=$(output_of "$o" "$d")
    ln -s loop-b "$d/loop-a"
    ln -s loop-a "$d/loop-b"
    ln -s loop-a "$p"
    run_option "$o" "$d" >/dev/null 2>"$work/err"
    status=$?
    [ "$status" = 2 ] && [ -L "$p" ] && [ -L "$d/loop-a" ] && grep -q 'symbolic links' "$work/err"
    report $? "$o through a loop of links is an error naming it (status $status)"

    # A link to /dev/stdout: the output appears on standard output.
    k=$((k + 1)); d=$work/case$k; mkdir "$d"; p=$(output_of "$o" "$d")
    ln -s /dev/stdout "$p"
    run_option "$o" "$d" >"$work/stdout" 2>"$work/err"
    status=$?
    [ "$status" = 0 ] && [ -L "$p" ] && same "$o" "$work/stdout"
    report $? "$o through a link to /dev/stdout writes to standard output and keeps the link (status $status)"

    # A FIFO with a reader: the reader gets the output, the FIFO stays.
    k=$((k + 1)); d=$work/case$k; mkdir "$d"; p=$(output_of "$o" "$d")
    mkfifo "$p"
    timeout $limit cat "$p" >"$d-read" &
    reader=$!
    run_option "$o" "$d" >/dev/null 2>"$work/err"
    status=$?
    end_reader
    [ "$status" = 0 ] && [ -p "$p" ] && same "$o" "$d-read"
    report $? "$o into a FIFO writes through to its reader and leaves the FIFO (status $status)"

    # A directory where a file is expected: an error, the directory stays
    # (encode -o DIR writes packet files into a directory).
    if [ "$o" != encode-o-file ]; then
        k=$((k + 1)); d=$work/case$k; mkdir "$d"; p=$(output_of "$o" "$d")
        mkdir "$p"
        run_option "$o" "$d" >/dev/null 2>"$work/err"
        status=$?
        [ "$status" = 2 ] && [ -d "$p" ] && [ -z "$(ls -A "$p")" ] && no_leftovers "$d"
        report $? "$o onto a directory is an error, the directory untouched (status $status)"
    fi

    if [ "$devices" = yes ]; then
        # A character device (the null device): written through, still a device.
        k=$((k + 1)); d=$work/case$k; mkdir "$d"; p=$(output_of "$o" "$d")
        mknod "$p" c 1 3
        run_option "$o" "$d" >/dev/null 2>"$work/err"
        status=$?
        [ "$status" = 0 ] && [ -c "$p" ] && no_leftovers "$d"
        report $? "$o into a character device (null) writes through, still a device (status $status)"

        # The full device: a write error is an error, still a device.
        k=$((k + 1)); d=$work/case$k; mkdir "$d"; p=$(output_of "$o" "$d")
        mknod "$p" c 1 7
        run_option "$o" "$d" >/dev/null 2>"$work/err"
        status=$?
        [ "$status" = 2 ] && [ -c "$p" ] && grep -q 'No space left' "$work/err"
        report $? "$o into a full device is a write error, still a device (status $status)"
    fi
done

# reseal --in-place through a symbolic link: the file it names is resealed.
mkdir "$work/inplace" "$work/inplace-other"
cp "$work/packet.bin" "$work/inplace-other/packet.bin"
ln -s ../inplace-other/packet.bin "$work/inplace/link"
timeout $limit "$bitsift" reseal --protocol 7 --in-place "$work/inplace/link" 2>"$work/err"
status=$?
[ "$status" = 0 ] && [ -L "$work/inplace/link" ] && cmp -s "$work/inplace-other/packet.bin" "$work/ref-reseal-o/out"
report $? "reseal --in-place through a symbolic link reseals the file it names, keeps the link (status $status)"

# An output that is the input through a link is still seen as the input.
ln -s "$records" "$work/records-link"
timeout $limit "$bitsift" encode -s "$shooter" -o "$work/records-link" "$records" 2>"$work/err"
status=$?
[ "$status" = 2 ] && [ -L "$work/records-link" ] && grep -q 'is the input' "$work/err"
report $? "encode -o a link to its input is refused (status $status)"

# /dev/fd/N: that descriptor of the process, where the shell put it.
timeout $limit "$bitsift" gen wireshark -s "$shooter" -o /dev/fd/3 3>"$work/fd3" 2>"$work/err"
status=$?
[ "$status" = 0 ] && same gen-wireshark "$work/fd3"
report $? "gen -o /dev/fd/3 writes to descriptor 3 (status $status)"

echo "1..$n"
exit $failed
