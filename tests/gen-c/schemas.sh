#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# tests/gen-c/schemas.sh -- `bitsift gen c` on every schema of examples/, of the
# schema tests and of the schema fuzz corpus that compiles: the output
# must compile without a warning (-Wall -Wextra -pedantic -Werror) as C99
# with gcc and clang and as C++17 with g++ and clang++ (the example and
# test schemas; the corpus ones with the C compiler of the build), and
# tests/gen-c/diff.c, linked with it, holds the generated reader and
# writer to the schema interpreter on random valid packets of every type,
# their truncations and bit flips (same decision, failure kind, bit and
# field path; the same values, field by field, through the generated
# <name>_visit and the interpreter's visitor; write(read(p)) == p). A
# planted wrong value in the generated code shows that the value
# comparison fails when it should. TAP.
set -u
top=${top_srcdir:-.}
build=${top_builddir:-.}
bitsift="$build/src/bitsift"
cc=${GEN_C_CC:-cc}
cflags=${GEN_C_CFLAGS:-}
ldflags=${GEN_C_LDFLAGS:-}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
warn="-Wall -Wextra -pedantic -Wshadow -Werror"

full=""
for f in "$top"/examples/*.bss "$top"/tests/schema/constructs.bss "$top"/tests/gen-c/*.bss; do
    full="$full $f"
done
corpus=""
for f in "$top"/corpus/fuzz_schema/*; do
    case " $full " in *" $f "*) continue ;; esac
    if "$bitsift" schema "$f" >/dev/null 2>&1; then
        corpus="$corpus $f"
    fi
done
set -- $full
nfull=$#
set -- $corpus
ncorpus=$#
echo "1..$((nfull * 6 + ncorpus * 2 + 9))"

i=0
status=0
point() { # ok|fail description
    i=$((i + 1))
    if [ "$1" = ok ]; then
        echo "ok $i - $2"
    else
        echo "not ok $i - $2"
        status=1
    fi
}

# gen SCHEMA DIR: generate; the TAP point says whether it worked.
gen() {
    if "$bitsift" gen c --name gen -s "$1" -o "$2" 2>"$tmp/err"; then
        point ok "$1: gen c"
        return 0
    fi
    sed 's/^/# /' "$tmp/err"
    point fail "$1: gen c"
    return 1
}

# diff SCHEMA DIR SEEDS: build the differential driver and run it.
diff_run() {
    # shellcheck disable=SC2086 # the build's flag lists (sanitizers)
    if ! $cc $cflags -std=gnu11 -I"$top/lib" -I"$build/lib" -I"$2" "$top/tests/gen-c/diff.c" \
        "$2/gen.c" $ldflags -L"$build/lib/.libs" -lbitsift -Wl,-rpath,"$build/lib/.libs" \
        -o "$2/diff" 2>"$tmp/err"; then
        sed 's/^/# /' "$tmp/err"
        point fail "$1: differential driver builds"
        return
    fi
    if "$2/diff" "$1" "$3" >"$tmp/out" 2>&1; then
        point ok "$1: generated code decides, fails, reads the same values and writes as the interpreter ($3 seeds per type; values of$(grep '^# values compared' "$tmp/out" | tail -n 1 | sed 's/^# values compared://'))"
    else
        grep -v '^ok' "$tmp/out" | sed 's/^/# /'
        point fail "$1: generated code decides, fails and writes as the interpreter"
    fi
}

# plant SCHEMA DIR REGEX REPLACEMENT WHAT: the generated gen.c with its
# first match of REGEX replaced; the differential driver must now report
# a value that differs.
plant() {
    awk -v re="$3" -v to="$4" '!done && sub(re, to) { done = 1 } 1' "$2/gen.c" >"$2/planted.c"
    # shellcheck disable=SC2086
    if cmp -s "$2/gen.c" "$2/planted.c"; then
        point fail "$1: planted wrong value ($5): nothing to plant in"
    elif ! $cc $cflags -std=gnu11 -I"$top/lib" -I"$build/lib" -I"$2" "$top/tests/gen-c/diff.c" \
        "$2/planted.c" $ldflags -L"$build/lib/.libs" -lbitsift -Wl,-rpath,"$build/lib/.libs" \
        -o "$2/planted" 2>"$tmp/err"; then
        sed 's/^/# /' "$tmp/err"
        point fail "$1: planted wrong value ($5): driver builds"
    elif "$2/planted" "$1" 3 >"$tmp/out" 2>&1 || ! grep -q 'value [0-9]* differs' "$tmp/out"; then
        point fail "$1: planted wrong value ($5) not caught"
    else
        point ok "$1: planted wrong value ($5) caught: $(grep -m 1 -A 2 'differs' "$tmp/out" |
            tail -n 2 | tr -s ' #\n' ' ')"
    fi
}

n=0
for f in $full; do
    n=$((n + 1))
    d="$tmp/full$n"
    if ! gen "$f" "$d"; then
        for k in 1 2 3 4 5; do point fail "$f: not generated"; done
        continue
    fi
    for c in "gcc -std=c99" "clang -std=c99" "g++ -std=c++17 -x c++" "clang++ -std=c++17 -x c++"; do
        # shellcheck disable=SC2086 # word lists
        if $c $warn -I"$top/lib" -I"$d" -c "$d/gen.c" -o "$d/gen.o" 2>"$tmp/err"; then
            point ok "$f: compiles with $c $warn"
        else
            sed 's/^/# /' "$tmp/err" | head -20
            point fail "$f: compiles with $c $warn"
        fi
    done
    diff_run "$f" "$d" 30
    case "$f" in
    */constructs.bss)
        # The value comparison can fail: a generated visit function made to
        # report a wrong value (a float's sign; an enum's name) must be caught.
        plant "$f" "$d" 'vs->f\.value\.f = v->' 'vs->f.value.f = -v->' "a float's sign"
        plant "$f" "$d" 'return "mid";' 'return "MID";' "an enum value's name"
        ;;
    */hostile.bss)
        # Its comments, strings and names try to add declarations named
        # INJECTED_n: none may reach the output other than as comment text
        # (the preprocessor strips comments), and the comments must be there.
        if cat "$d/gen.h" "$d/gen.c" | gcc -fpreprocessed -dD -E -P -x c - 2>&1 |
            grep -n INJECTED | sed 's/^/# /' | grep .; then
            point fail "$f: schema text put code into the output"
        elif ! grep -q 'INJECTED_5' "$d/gen.h"; then
            point fail "$f: the schema's comments are not in the header"
        else
            point ok "$f: no schema text reaches the output as code (comments carried as text)"
        fi
        ;;
    esac
done
for f in $corpus; do
    n=$((n + 1))
    d="$tmp/corpus$n"
    # A schema whose names would be one C name at file scope is refused,
    # naming both (corpus/fuzz_schema/gen-c-clash): that is its answer.
    if ! "$bitsift" gen c --name gen -s "$f" -o "$d" 2>"$tmp/err" &&
        grep -q 'are both .* in the generated C: rename one of them' "$tmp/err"; then
        point ok "$f: gen c refuses names that clash: $(cat "$tmp/err")"
        point ok "$f: nothing to compile"
        continue
    fi
    if gen "$f" "$d"; then
        # shellcheck disable=SC2086
        if ! $cc -std=c99 $warn -I"$top/lib" -I"$d" -c "$d/gen.c" -o "$d/gen.o" 2>"$tmp/err"; then
            sed 's/^/# /' "$tmp/err" | head -20
            point fail "$f: compiles warning-free"
        else
            diff_run "$f" "$d" 5
        fi
    else
        point fail "$f: not generated"
    fi
done
# Names that would collide at file scope in C are refused, naming both
# (member names inside a struct are renamed instead: tests/gen-c/names.bss).
# clash NAME SCHEMA-TEXT EXPECTED-MESSAGE [gen options]
clash() {
    printf '%s\n' "$2" >"$tmp/clash.bss"
    rm -rf "$tmp/clash"
    shift_args=${4:-}
    # shellcheck disable=SC2086
    "$bitsift" gen c $shift_args -s "$tmp/clash.bss" -o "$tmp/clash" 2>"$tmp/err"
    rc=$?
    if [ "$rc" -eq 2 ] && grep -qF "$3" "$tmp/err" && [ -z "$(ls "$tmp/clash" 2>/dev/null)" ]; then
        point ok "file-scope clash refused: $1 ($(cat "$tmp/err"))"
    else
        sed 's/^/# /' "$tmp/err"
        point fail "file-scope clash refused: $1 (exit $rc)"
    fi
}
clash "two enums' values" 'protocol t { id 1; } enum A_b { c } enum A { b_c } packet p { A a; A_b ab; }' \
    "enum A_b's value c and enum A's value b_c are both t_A_b_c"
clash "an enum value and a packet type's number" \
    'protocol t { id 1; } enum TYPE { p } packet p { TYPE q; }' \
    "packet p and enum TYPE's value p are both t_TYPE_p"
clash "a renamed C keyword" \
    'protocol t { id 1; } struct class { bool x; } struct class_ { bool y; } packet p { class a; class_ b; }' \
    "struct class and struct class_ are both"
clash "the generated code's own static names" \
    'protocol t { id 1; } enum path { end } packet p { path a; }' \
    "enum path and the generator's own visit_path are both visit_path" \
    "--name visit"

# The walk-through's example (docs/gen-c.md): a game's send and receive.
d="$tmp/game"
mkdir -p "$d"
# shellcheck disable=SC2086
if "$bitsift" gen c -s "$top/examples/shooter.bss" -o "$d/net" 2>"$tmp/err" &&
    $cc $cflags -std=c99 $warn -I"$top/lib" -I"$d/net" "$top/examples/game_net.c" \
        "$d/net/shooter.c" $ldflags -L"$build/lib/.libs" -lbitsift \
        -Wl,-rpath,"$build/lib/.libs" -o "$d/game_net" 2>>"$tmp/err" &&
    "$d/game_net" >"$tmp/out" 2>&1 && grep -q 'player 7 at (12.5, -3.25), health 180' "$tmp/out" &&
    grep -q '^  players\[0\]\.weapon = rifle$' "$tmp/out" &&
    grep -q '^dropped: crc' "$tmp/out"; then
    point ok "examples/game_net.c: sends and receives a snapshot through generated code"
else
    sed 's/^/# /' "$tmp/err" "$tmp/out" 2>/dev/null
    point fail "examples/game_net.c: sends and receives a snapshot through generated code"
fi

# gen fuzz: the harness for shooter.bss, built with libFuzzer and run over
# a seed corpus from `bitsift seeds` (a failed round trip aborts).
d="$tmp/fuzz"
case " $cflags $ldflags " in
*-fsanitize=*)
    # The library is built with the build compiler's sanitizer run time;
    # clang's libFuzzer build would link a second one.
    echo "ok $((i + 1)) - gen fuzz harness # SKIP the build is sanitized ($cc): one run time per process"
    i=$((i + 1))
    ;;
*)
    if "$bitsift" gen fuzz --name gen -s "$top/examples/shooter.bss" -o "$d" 2>"$tmp/err" &&
        mkdir -p "$d/corpus" &&
        "$bitsift" seeds -q -s "$top/examples/shooter.bss" -o "$d/corpus" 2>>"$tmp/err" &&
        clang -g -O1 -fsanitize=fuzzer,address,undefined -I"$top/lib" "$d/fuzz_gen.c" "$d/gen.c" \
            -L"$build/lib/.libs" -lbitsift-fuzz -lbitsift -Wl,-rpath,"$build/lib/.libs" \
            -o "$d/fuzz_gen" 2>>"$tmp/err" &&
        "$d/fuzz_gen" -runs=20000 -seed=1 "$d/corpus" >"$tmp/out" 2>&1; then
        point ok "gen fuzz: shooter harness builds and runs 20000 inputs over bitsift seeds"
    else
        sed 's/^/# /' "$tmp/err"
        tail -n 20 "$tmp/out" 2>/dev/null | sed 's/^/# /'
        point fail "gen fuzz: shooter harness builds and runs"
    fi
    ;;
esac
exit $status
