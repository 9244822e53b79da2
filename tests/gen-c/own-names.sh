#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# tests/gen-c/own-names.sh -- the class guard of gen c's file-scope names
# against the names it adds of its own and the library's. Both lists are
# taken from the code, not written here: the generator's own names are
# every file-scope declaration (clang's AST) and macro (-dM) of the code
# it writes for a reference schema; the library's are those of the
# installed headers (<bitsift.h> and <bitsift/fuzz.h>).
#
#   - every library name is in the library's name space (bitsift_*,
#     BITSIFT_*), and every --name the generated names would share it with
#     (bitsift, BITSIFT, bitsift_reader, ...) is refused;
#   - every own name N, spelled by schema names -- gen_R as a struct, enum
#     or packet type R, as enum A's value B for each A_B = R, and a name
#     without the prefix (visit_path_end) as --name visit with a struct,
#     enum or packet path_end -- is refused, naming both, or the output
#     compiles with gcc -std=c11 and g++ -std=c++20 (a struct tag beside a
#     function of the same name is legal C and C++; a tag beside a typedef
#     is not C++: struct visitor must be refused).
# TAP.
name=gen-c-own-names
. "${top_srcdir:-.}/tests/cli/script-setup.sh"
lib=$(cd "$top_srcdir/lib" && pwd)
warn="-Wall -Wextra -Werror -Wshadow -pedantic"
if ! command -v clang >/dev/null 2>&1 || ! command -v python3 >/dev/null 2>&1; then
    echo "1..0 # SKIP clang (its AST lists the declarations) or python3 is not installed"
    exit 0
fi

# file_scope FILE.c DIR: the file-scope names declared in DIR's files when
# FILE.c is compiled, one a line: declarations from clang's AST (tags,
# typedefs, functions, objects, enumeration constants) and macros.
file_scope() {
    clang -Xclang -ast-dump=json -fsyntax-only -I"$lib" -I"$2" "$1" >"$work/ast.json" || return 1
    python3 - "$work/ast.json" "$2" <<'EOF' || return 1
import json, sys
tree = json.load(open(sys.argv[1]))
where = sys.argv[2].rstrip("/") + "/"
current = None  # clang names a file only where it changes
for node in tree.get("inner", []):
    loc = node.get("loc", {})
    for key in (None, "expansionLoc", "spellingLoc"):
        part = loc if key is None else loc.get(key, {})
        if part.get("file"):
            current = part["file"]
            break
    if not current or not current.startswith(where) or node.get("isImplicit"):
        continue
    if node.get("name"):
        print(node["name"])
    for inner in node.get("inner", []):
        if inner.get("kind") == "EnumConstantDecl":
            print(inner["name"])
EOF
    printf '#include <stdbool.h>\n#include <stddef.h>\n#include <stdint.h>\n#include <stdio.h>\n#include <string.h>\n#include <stdlib.h>\n' >"$work/sys.c"
    clang -dM -E "$work/sys.c" | awk '{ sub(/\(.*/, "", $2); print $2 }' | LC_ALL=C sort -u >"$work/sys.macros"
    clang -dM -E -I"$lib" -I"$2" "$1" | awk '{ sub(/\(.*/, "", $2); print $2 }' | LC_ALL=C sort -u |
        LC_ALL=C comm -23 - "$work/sys.macros"
}

# --- the library's names -------------------------------------------------------
mkdir "$work/libnames"
printf '#include <bitsift.h>\n#include <bitsift/fuzz.h>\n' >"$work/libnames/all.c"
file_scope "$work/libnames/all.c" "$lib" | LC_ALL=C sort -u >"$work/library" || exit 1
outside=$(grep -v -e '^bitsift_' -e '^BITSIFT_' "$work/library" | tr '\n' ' ')
[ -s "$work/library" ] && [ -z "$outside" ]
report $? "the library's $(wc -l <"$work/library") file-scope names are all bitsift_* or BITSIFT_*${outside:+ (not: $outside)}"

printf 'protocol p { id 1; }\nstruct s { bool b; }\npacket t { s x; }\n' >"$work/s.bss"
wrong=""
count=0
for prefix in $(awk '{ for (i = 2; i < length($0); i++) if (substr($0, i, 1) == "_") print substr($0, 1, i - 1) }' \
    "$work/library" | LC_ALL=C sort -u); do
    case "$prefix" in [A-Za-z]*) ;; *) continue ;; esac
    count=$((count + 1))
    if "$bitsift" gen c --name "$prefix" -s "$work/s.bss" -o "$work/lib.out" 2>"$work/err" ||
        ! grep -q "libbitsift's own" "$work/err"; then
        wrong="$wrong $prefix"
    fi
done
[ -z "$wrong" ]
report $? "$count names that would spell the library's (bitsift_reader_init = --name bitsift_reader + init) refused${wrong:+; not:$wrong}"

# --- the generator's own names -------------------------------------------------
cat >"$work/ref.bss" <<'EOF'
protocol ref { id 1; }
enum E { a, b }
enum Wide : int(-9223372036854775808, 9223372036854775807) { lo = -9223372036854775808, hi = 1 }
struct S { bool b; E e; }
packet p { S s; bool x; string(4) t; float q[2]; Wide w; uint8 xs[max 3]; int(0, 7) ys[3] sparse(flags); }
packet q { smallest_three(2) o; }
EOF
"$bitsift" gen c --name gen -s "$work/ref.bss" -o "$work/ref" || exit 1
file_scope "$work/ref/gen.c" "$work/ref" | LC_ALL=C sort -u |
    LC_ALL=C comm -23 - "$work/library" >"$work/own" || exit 1
echo "# the generator's names for the reference schema: $(tr '\n' ' ' <"$work/own")"

# try NAME TEXT: gen c --name NAME over the schema TEXT, which spells an own name.
k=0
refused=0
: >"$work/accepted"
wrong=""
try() {
    k=$((k + 1))
    printf 'protocol t { id 1; }\n%s\n' "$2" >"$work/t$k.bss"
    if "$bitsift" gen c --name "$1" -s "$work/t$k.bss" -o "$work/t$k" 2>"$work/err"; then
        echo "$work/t$k/$1.c" >>"$work/accepted"
    elif grep -q "in the generated C" "$work/err"; then
        refused=$((refused + 1))
    elif ! grep -q "t$k.bss:[0-9]" "$work/err"; then # else: a word the schema reserves
        wrong="$wrong [$1: $2: $(cat "$work/err")]"
    fi
}
# spell NAME R: the schemas that make --name NAME's names spell NAME_R.
spell() {
    try "$1" "struct $2 { bool b; } packet p { $2 x; }"
    try "$1" "enum $2 { a } packet p { $2 x; }"
    try "$1" "packet $2 { bool b; }"
    rest=$2
    while case "$rest" in *_*) true ;; *) false ;; esac; do
        left=${2%_"${rest#*_}"}
        try "$1" "enum $left { ${rest#*_} } packet p { $left x; }"
        rest=${rest#*_}
    done
}
while read -r own; do
    case "$own" in
    gen_*) spell gen "${own#gen_}" ;;
    GEN_*) ;; # the include guard: the prefix in uppercase, made of no schema name
    *_*)
        rest=$own
        while case "$rest" in *_*) true ;; *) false ;; esac; do
            rest=${rest#*_}
            spell "${own%_"$rest"}" "$rest"
        done
        ;;
    esac
done <"$work/own"
failed_compile=""
if [ -s "$work/accepted" ]; then
    for c in "gcc -std=c11" "g++ -std=c++20 -x c++"; do
        # shellcheck disable=SC2086,SC2046
        if ! $c $warn -I"$lib" -fsyntax-only $(cat "$work/accepted") 2>"$work/cc.err"; then
            while read -r f; do
                # shellcheck disable=SC2086
                $c $warn -I"$lib" -fsyntax-only "$f" 2>/dev/null ||
                    failed_compile="$failed_compile [$c: $(sed -n 2p "${f%/*}/../$(basename "${f%/*}").bss")]"
            done <"$work/accepted"
        fi
    done
fi
[ -z "$wrong" ] && [ -z "$failed_compile" ] && [ "$refused" -gt 0 ]
report $? "$k schemas spelling the generator's $(wc -l <"$work/own") names: $refused refused naming both, $(wc -l <"$work/accepted") compile as C11 and C++20${wrong:+; wrong refusals:$wrong}${failed_compile:+; do not compile:$failed_compile}"

# The issue's examples, by name.
printf 'protocol t { id 1; }\nstruct visitor { bool b; }\npacket p { visitor v; }\n' >"$work/v.bss"
"$bitsift" gen c --name gen -s "$work/v.bss" -o "$work/v" 2>"$work/err"
[ $? = 2 ] && grep -q "struct visitor and the generator's own visitor are both gen_visitor" "$work/err"
report $? "a struct named visitor beside the gen_visitor typedef is refused: $(cat "$work/err")"
printf 'protocol bitsift { id 1; }\npacket p { bool b; }\n' >"$work/b.bss"
"$bitsift" gen c -s "$work/b.bss" -o "$work/b" 2>"$work/err"
[ $? = 2 ] && grep -q "name 'bitsift' would put the generated names among libbitsift's own" "$work/err" &&
    [ ! -e "$work/b" ]
report $? "protocol bitsift is refused before any file: $(cat "$work/err")"

echo "1..$n"
exit $failed
