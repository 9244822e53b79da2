#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# compare.sh -- the Wireshark dissectors that `bitsift gen wireshark` writes,
# run in tshark, against `bitsift decode -F json`. Prints TAP.
#
#  1. a dissector is generated for every schema of examples/ and the tests;
#  2. every capture of the tests that tshark reads, with the dissectors of
#     all CRC-framed schemas loaded as heuristics: the same packets claimed,
#     the same fields and values, the same failures (compare.py);
#  3. random packets of every example schema, valid and damaged (randcap),
#     each schema on its own UDP port, and display filters on them
#     (filters.py);
#  4. random packets of random schemas (random_schema.py);
#  5. hostile schemas and names: nothing of them runs as Lua.
#
# tshark starts slowly (about a second): each run dissects many captures'
# worth of packets at once. The test is skipped only when tshark is not
# installed (./bootstrap installs it). BITSIFT_WIRESHARK_SEED changes the
# random schemas and packets.
name=wireshark
. "${top_srcdir:-.}/tests/cli/script-setup.sh"
here=$top_srcdir/tests/wireshark
examples=$top_srcdir/examples
randcap=$(cd "$top_builddir" && pwd)/tests/wireshark/randcap
seed=${BITSIFT_WIRESHARK_SEED:-1}
random_schemas=12

if ! command -v tshark >/dev/null 2>&1; then
    echo "1..0 # SKIP tshark is not installed"
    exit 0
fi
# tshark as root warns on stderr; nothing is written to the user's
# Wireshark profile.
tshark() {
    command tshark -n -o ip.defragment:FALSE "$@"
}

n=0
ok() {
    n=$((n + 1))
    echo "ok $n - $*"
}
not_ok() {
    n=$((n + 1))
    echo "not ok $n - $*"
}
# check DESCRIPTION COMMAND...: ok when the command succeeds; its output
# follows as comments (the last line only when it succeeded).
check() {
    what=$1
    shift
    if "$@" >"$work/out" 2>&1; then
        ok "$what"
        tail -1 "$work/out" | sed 's/^#* */  # /'
    else
        not_ok "$what"
        sed 's/^#* */  # /' "$work/out" | head -12
    fi
}

schemas="$examples/shooter.bss $examples/article.bss $examples/scenes.bss $examples/robocat.bss
  $data/arena.bss $data/lobby.bss $top_srcdir/tests/schema/constructs.bss $here/floats.bss"
# The CRC-framed ones, recognised on any port by their heuristics.
crc_schemas="$examples/shooter.bss $examples/article.bss $examples/scenes.bss
  $data/arena.bss $data/lobby.bss $top_srcdir/tests/schema/constructs.bss"

# --- 1. generation ------------------------------------------------------------
port=27100
for s in $schemas; do
    base=$(basename "$s" .bss)
    port=$((port + 1))
    check "gen wireshark $base.bss" \
        "$bitsift" gen wireshark -s "$s" -o "$work/$base.lua" -p "$port"
done

# -X lua_script:... for the dissectors of the schemas given (the scratch
# directory's path has no spaces: mktemp made it).
lua_args() {
    for s in "$@"; do
        printf ' -X lua_script:%s' "$work/$(basename "$s" .bss).lua"
    done
}

# --- 2. the test captures -----------------------------------------------------
names=
schema_args=
for s in $crc_schemas; do
    names=$names${names:+,}$(basename "$s" .bss)
    schema_args="$schema_args -s $s"
done
# shellcheck disable=SC2086
heuristic_args=$(lua_args $crc_schemas)
for capture in "$data"/*.pcap "$data"/*.pcapng "$examples"/*.pcap; do
    cname=$(basename "$capture")
    if ! command tshark -n -r "$capture" -c 1 >/dev/null 2>&1; then
        continue # tshark cannot read it either: nothing to compare
    fi
    # shellcheck disable=SC2086
    "$bitsift" decode -F json $schema_args "$capture" >"$work/b.ndjson" 2>/dev/null
    if [ ! -s "$work/b.ndjson" ]; then
        ok "$cname # SKIP bitsift decodes no packet of it"
        continue
    fi
    # shellcheck disable=SC2086
    tshark -o udp.try_heuristic_first:TRUE $heuristic_args -r "$capture" -T json \
        --no-duplicate-keys >"$work/t.json" 2>"$work/t.err"
    python3 "$here/compare.py" "$names" "$work/t.json" "$work/b.ndjson" >"$work/out" 2>&1
    case $? in
    0) ok "$cname: tshark with the dissectors as bitsift decode" ;;
    3) ok "$cname # SKIP tshark reads none of its UDP packets" ;;
    *) not_ok "$cname: tshark with the dissectors as bitsift decode" ;;
    esac
    sed 's/^#* */  # /' "$work/out" | tail -12
done

# compare_random CAPTURE SCHEMA PORT...: the schemas' dissectors in one
# tshark run over CAPTURE (made by randcap, each schema on its port), then
# each schema's packets against bitsift decode -p PORT, and the display
# filters of the schemas named in $filters.
compare_random() {
    capture=$1
    shift
    lua=
    i=1
    for a in "$@"; do
        [ $((i % 2)) -eq 1 ] && lua="$lua$(lua_args "$a")"
        i=$((i + 1))
    done
    # shellcheck disable=SC2086
    tshark $lua -r "$capture" -T json --no-duplicate-keys >"$work/t.json" 2>"$work/t.err"
    while [ $# -ge 2 ]; do
        s=$1 port=$2
        shift 2
        base=$(basename "$s" .bss)
        "$bitsift" decode -F json -s "$s" -p "$port" "$capture" \
            >"$work/$base.ndjson" 2>/dev/null
        if [ ! -s "$work/$base.ndjson" ]; then
            ok "$base # SKIP the encoder made no packet of it"
            continue
        fi
        check "random packets of $base, valid and damaged (seed $seed)" \
            python3 "$here/compare.py" --by-time "$base" "$work/t.json" "$work/$base.ndjson"
        case " $filters " in *" $base "*) ;; *) continue ;; esac
        # shellcheck disable=SC2086
        PYTHONPATH=$here python3 "$here/filters.py" "$base" "$capture" \
            "$work/$base.ndjson" -- -n $lua >"$work/filters" 2>&1
        while IFS= read -r line; do
            case $line in
            "ok - "*) ok "${line#ok - }" ;;
            *) not_ok "${line#not ok - }" ;;
            esac
        done <"$work/filters"
    done
}

# --- 3. random packets of the example schemas, display filters ---------------
set --
port=27100
for s in $schemas; do
    port=$((port + 1))
    set -- "$@" "$s" "$port"
done
# Display filters on three of them (a tshark run per filter).
filters="shooter arena constructs"
if "$randcap" "$work/examples.pcap" "$seed" 150 "$@" 2>"$work/randcap.err"; then
    compare_random "$work/examples.pcap" "$@"
else
    not_ok "randcap on the example schemas: $(cat "$work/randcap.err")"
fi
filters=

# --- 4. random schemas ------------------------------------------------------------
set --
made=0
tried=0
port=28000
while [ "$made" -lt "$random_schemas" ] && [ "$tried" -lt $((random_schemas * 3)) ]; do
    tried=$((tried + 1))
    rs=$work/rnd$tried.bss
    python3 "$here/random_schema.py" $((seed * 1000 + tried)) |
        sed "s/^protocol rnd /protocol rnd$tried /" >"$rs"
    # Some random schemas are refused (an array whose elements can take 0
    # bits): the compiler's business, tested elsewhere.
    "$bitsift" schema "$rs" >/dev/null 2>&1 || continue
    port=$((port + 1))
    if ! "$bitsift" gen wireshark -s "$rs" -o "$work/rnd$tried.lua" -p "$port" \
        >"$work/out" 2>&1; then
        not_ok "gen wireshark on random schema $tried: $(cat "$work/out")"
        continue
    fi
    made=$((made + 1))
    set -- "$@" "$rs" "$port"
done
if [ "$made" -lt "$random_schemas" ]; then
    not_ok "only $made of $tried random schemas compiled"
fi
if "$randcap" "$work/random.pcap" "$seed" 40 "$@" 2>"$work/randcap.err"; then
    compare_random "$work/random.pcap" "$@"
else
    not_ok "randcap on the random schemas: $(cat "$work/randcap.err")"
fi

# --- 5. hostile schemas ----------------------------------------------------------
# Lua in comments and strings, keywords and the run time's own names as
# names, the longest names: the payloads all print INJECTED, and none may
# reach the dissector, which must then decode the schema's own packets.
set --
port=29000
for s in "$here"/hostile/*.bss; do
    base=$(basename "$s" .bss)
    port=$((port + 1))
    if ! "$bitsift" gen wireshark -s "$s" -o "$work/$base.lua" -p "$port" >"$work/out" 2>&1; then
        not_ok "gen wireshark $base.bss: $(cat "$work/out")"
    elif grep -q INJECTED "$work/$base.lua"; then
        not_ok "$base.bss: schema text reached the dissector"
        grep -n INJECTED "$work/$base.lua" | head -3 | sed 's/^/  # /'
    else
        ok "$base.bss: no schema text in the dissector"
        set -- "$@" "$s" "$port"
    fi
done
if "$randcap" "$work/hostile.pcap" "$seed" 30 "$@" 2>"$work/randcap.err"; then
    compare_random "$work/hostile.pcap" "$@"
    if grep -q "INJECTED" "$work/t.json" "$work/t.err"; then
        not_ok "hostile schemas: INJECTED in tshark's output"
    else
        ok "hostile schemas: nothing of them ran"
    fi
else
    not_ok "randcap on the hostile schemas: $(cat "$work/randcap.err")"
fi
for bad in 'x"); print("INJECTED") --' 'a.b' '9lives' ''; do
    if "$bitsift" gen wireshark -s "$examples/shooter.bss" --name "$bad" \
        -o "$work/bad.lua" >/dev/null 2>&1 || [ -e "$work/bad.lua" ]; then
        not_ok "--name '$bad' accepted"
    else
        ok "--name '$bad' refused, no output written"
    fi
done

echo "1..$n"
