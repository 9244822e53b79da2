#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# tests/gen-c/names.sh -- the class guard of gen c's naming rule (the rule:
# lib/gen_c_names.c, gen_c_name; its lists: lib/gen_c_names.h). Every keyword and
# reserved word of C11, C23 and C++20, the GNU and Clang keywords, and
# every macro that gcc, clang, g++ and clang++ print (-dM -E) for the
# header the generated code includes (<bitsift/bits.h>) in strict and GNU
# modes -- predefined macros (linux, unix, __x86_64__, ...) and the
# library's own included -- is used as a field name, a struct name, an enum
# name, an enum value name and a packet type name; gen c must take every
# schema, and the output must compile with -Wall -Wextra -Werror under
# gcc and clang (-std=c11 -pedantic, -std=gnu11) and g++ and clang++
# (-std=c++20 -pedantic, -std=gnu++20). The names the schema language
# itself reserves (bool, int, packet, ...) are left out, as the schema
# compiler names them. Names go in batches of a few hundred per schema, so
# that the whole guard is 9 schemas, 72 compiles (about 20 s of CPU).
#
# Then the prefixed names: every macro name with a '_' (INT8_MAX) split at
# its first '_' into --name INT8 and a struct or an enum MAX must be
# refused by name (its C name is the header's macro), or compile.
# The lists of lib/gen_c_names.h must be sorted for its bsearch. TAP.
name=gen-c-names
. "${top_srcdir:-.}/tests/cli/script-setup.sh"
top=$top_srcdir
lib=$(cd "$top/lib" && pwd)
warn="-Wall -Wextra -Werror -Wshadow"

# --- the names ---------------------------------------------------------------
# Keywords are the standards' lists (no compiler prints them); the GNU and
# Clang ones are those of their manuals that a schema identifier can spell.
cat >"$work/keywords" <<'EOF'
auto break case char const continue default do double else enum extern float for goto if
inline int long register restrict return short signed sizeof static struct switch typedef
union unsigned void volatile while _Alignas _Alignof _Atomic _Bool _Complex _Generic
_Imaginary _Noreturn _Static_assert _Thread_local
alignas alignof bool constexpr false nullptr static_assert thread_local true typeof
typeof_unqual _BitInt _Decimal128 _Decimal32 _Decimal64
and and_eq asm bitand bitor catch char8_t char16_t char32_t class compl concept consteval
constinit const_cast co_await co_return co_yield decltype delete dynamic_cast explicit export
friend mutable namespace new noexcept not not_eq operator or or_eq private protected public
reinterpret_cast requires static_cast template this throw try typeid typename using virtual
wchar_t xor xor_eq final override import module
__attribute__ __attribute __extension__ __real__ __real __imag__ __imag __int128 __label__
__asm__ __asm __typeof__ __typeof __inline__ __inline __restrict__ __restrict __volatile__
__volatile __const__ __const __signed__ __signed __complex__ __complex __thread __auto_type
__alignof__ __alignof _Float16 _Float32 _Float64 _Float128 _Float32x _Float64x _Float128x
__float128 __float80 __ibm128 __fp16 __bf16 __null __builtin_va_list __builtin_offsetof
__builtin_types_compatible_p __builtin_choose_expr __builtin_va_arg __has_include
__has_attribute __has_builtin __int64 __int32 __declspec __unaligned __is_same __nullptr
__func__ __FUNCTION__ __PRETTY_FUNCTION__ __block __objc_yes __objc_no
_Nonnull _Nullable _Null_unspecified __kindof
EOF
printf '#include <bitsift/bits.h>\n' >"$work/inc.c"
for c in "gcc -std=c11" "gcc -std=gnu11" "clang -std=c11" "clang -std=gnu11" \
    "g++ -std=c++20 -x c++" "g++ -std=gnu++20 -x c++" "clang++ -std=c++20 -x c++" \
    "clang++ -std=gnu++20 -x c++"; do
    # shellcheck disable=SC2086
    $c -dM -E -I"$lib" "$work/inc.c" || exit 1
done | awk '$1 == "#define" { sub(/\(.*/, "", $2); print $2 }' >"$work/macros"
LC_ALL=C sort -u "$work/macros" >"$work/macros.u"
tr -s ' \n' '\n\n' <"$work/keywords" | cat - "$work/macros" |
    grep -E '^[A-Za-z_][A-Za-z0-9_]{0,62}$' | LC_ALL=C sort -u >"$work/names"
echo "# $(wc -l <"$work/names") names: $(wc -l <"$work/macros") macro definitions, keywords" \
    "$(tr -s ' \n' '\n\n' <"$work/keywords" | grep -c .)"

# --- schemas -----------------------------------------------------------------
# build KINDS FILE NAMES: a schema using every name of the file NAMES (one
# a line) as each of KINDS (field, value, struct, enum, packet; struct and
# enum names would be one tag, and a packet's one more, so those go into
# schemas of their own); names the schema compiler refuses as reserved
# words are dropped, one by one, as it names them.
build() {
    cp "$3" "$work/batch"
    while :; do
        awk -v kinds=" $1 " '
            BEGIN { print "protocol gen { id 1; }" }
            { n[NR] = $0 }
            END {
                if (kinds ~ / field /) {
                    print "packet fields {"; for (i = 1; i <= NR; i++) print "    bool " n[i] ";"; print "}"
                }
                if (kinds ~ / value /) {
                    print "enum Values {"; for (i = 1; i <= NR; i++) print "    " n[i] (i < NR ? "," : ""); print "}"
                    print "packet values { Values v; }"
                }
                if (kinds ~ / struct /) {
                    for (i = 1; i <= NR; i++) print "struct " n[i] " { bool b; }"
                    print "packet structs {"; for (i = 1; i <= NR; i++) print "    " n[i] " s" i ";"; print "}"
                }
                if (kinds ~ / enum /) {
                    for (i = 1; i <= NR; i++) print "enum " n[i] " { a, b }"
                    print "packet enums {"; for (i = 1; i <= NR; i++) print "    " n[i] " e" i ";"; print "}"
                }
                if (kinds ~ / packet /)
                    for (i = 1; i <= NR; i++) print "packet " n[i] " { bool b; }"
            }' "$work/batch" >"$2"
        "$bitsift" schema "$2" >/dev/null 2>"$work/schema.err" && return 0
        word=$(sed -n "s/.*'\([A-Za-z0-9_]*\)' is a reserved word.*/\1/p" "$work/schema.err" | head -n 1)
        if [ -z "$word" ] || ! grep -qx "$word" "$work/batch"; then
            sed 's/^/# /' "$work/schema.err"
            return 1
        fi
        grep -vx "$word" "$work/batch" >"$work/batch.new"
        mv "$work/batch.new" "$work/batch"
        echo "$word" >>"$work/schema-reserved"
    done
}

split -l 450 "$work/names" "$work/chunk."
: >"$work/schema-reserved"
k=0
for chunk in "$work"/chunk.*; do
    for kinds in "field value struct" enum packet; do
        k=$((k + 1))
        s="$work/schema$k.bss"
        if ! build "$kinds" "$s" "$chunk"; then
            report 1 "$(basename "$chunk"): a schema of the names as $kinds names"
            continue
        fi
        d="$s.out"
        what="$(wc -l <"$work/batch") names as $(echo "$kinds" | sed 's/ /, /g') names"
        if ! "$bitsift" gen c --name gen -s "$s" -o "$d" 2>"$work/err"; then
            sed 's/^/# /' "$work/err"
            report 1 "gen c takes $what"
            continue
        fi
        bad=""
        for c in "gcc -std=c11 -pedantic" "gcc -std=gnu11" "clang -std=c11 -pedantic" \
            "clang -std=gnu11" "g++ -std=c++20 -pedantic -x c++" "g++ -std=gnu++20 -x c++" \
            "clang++ -std=c++20 -pedantic -x c++" "clang++ -std=gnu++20 -x c++"; do
            # shellcheck disable=SC2086
            if ! $c $warn -I"$lib" -I"$d" -fsyntax-only "$d/gen.c" 2>"$work/cc.err"; then
                bad="$bad; $c"
                grep -m 5 'error' "$work/cc.err" | sed 's/^/# /'
            fi
        done
        if [ -z "$bad" ]; then
            report 0 "$what compile with gcc, clang, g++, clang++ (strict and GNU)"
        else
            report 1 "$what do not compile with${bad#;}"
        fi
    done
done
echo "# left out as reserved by the schema language: $(LC_ALL=C sort -u "$work/schema-reserved" | tr '\n' ' ')"

# --- prefixed names ----------------------------------------------------------
# prefixed KIND NAME: --name (NAME up to its first '_') and a KIND named
# the rest; the generated C name is NAME itself.
refused=0
taken=0
failures=""
while read -r macro; do
    case "$macro" in
    _* | *_ | [!A-Za-z]*) continue ;; # reserved, or no name before the '_'
    bitsift_[a-z]* | BITSIFT_[A-Z]*) # one is enough: the prefix is refused
        [ "$macro" = bitsift_serialize_int ] || [ "$macro" = BITSIFT_VERSION_MAJOR ] || continue ;;
    *_*) ;;
    *) continue ;;
    esac
    prefix=${macro%%_*}
    rest=${macro#*_}
    for kind in struct enum; do
        case "$kind" in
        struct) text="struct $rest { bool b; } packet p { $rest x; }" ;;
        enum) text="enum $rest { a } packet p { $rest x; }" ;;
        packet) text="packet $rest { bool b; }" ;;
        esac
        printf 'protocol p { id 1; }\n%s\n' "$text" >"$work/p.bss"
        rm -rf "$work/p.out"
        if ! "$bitsift" gen c --name "$prefix" -s "$work/p.bss" -o "$work/p.out" 2>"$work/err"; then
            if grep -q 'p.bss:[0-9]' "$work/err"; then
                continue # a name the schema language reserves
            elif grep -q "is $macro in the generated C\|name '$prefix' would put the generated names among libbitsift's own" "$work/err"; then
                refused=$((refused + 1))
            else
                failures="$failures $kind:$macro(refused:$(head -c 200 "$work/err"))"
            fi
        elif gcc -std=c11 $warn -I"$lib" -I"$work/p.out" -fsyntax-only "$work/p.out/$prefix.c" \
            2>/dev/null && g++ -std=c++20 -x c++ $warn -I"$lib" -I"$work/p.out" -fsyntax-only \
            "$work/p.out/$prefix.c" 2>/dev/null; then
            taken=$((taken + 1))
        else
            failures="$failures $kind:$macro(does-not-compile)"
        fi
    done
done <"$work/macros.u" 2>/dev/null
[ -z "$failures" ] && [ $((refused + taken)) -gt 0 ]
report $? "macro names spelled by --name and a struct or enum: $refused refused by name, $taken compile${failures:+; wrong:$(echo "$failures" | cut -c1-600)}"

# --- the lists' order --------------------------------------------------------
[ -r "$lib/gen_c_names.h" ] && [ "$(grep -c '^static const char \*const c_' "$lib/gen_c_names.h")" = 2 ] &&
awk '/^static const char \*const c_/ { list = $5; next }
     list && /^};/ { list = ""; next }
     list { gsub(/[",]/, " "); for (i = 1; i <= NF; i++) print list, $i }' "$lib/gen_c_names.h" |
    awk '{ if ($1 == last && prev >= $2) bad = bad " " prev ">=" $2; last = $1; prev = $2 }
         END { if (bad != "") { print "# out of order:" bad; exit 1 } }'
report $? "lib/gen_c_names.h: each list sorted (strcmp order, for bsearch)"

echo "1..$n"
exit $failed
