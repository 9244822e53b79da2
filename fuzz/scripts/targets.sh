# SPDX-License-Identifier: BSD-3-Clause
# fuzz/scripts/targets.sh -- sourced (POSIX sh) by the scripts that build
# the fuzz harnesses themselves: afl.sh, coverage.sh, oss-fuzz-build.sh
# and targets-mk.sh. Reads fuzz/targets.list, the one definition of each
# harness, and answers questions about it. Needs $srcdir (the source tree).
#
#   fuzz_target_names [shipped|test|all]   the harnesses, in table order
#   harness_sources NAME     its sources in the source tree
#   harness_generated NAME   its sources generated into the build tree
#   harness_has NAME OPTION  whether OPTION is among its options
#   harness_variants NAME    its libFuzzer variants (crc seal nocrc schema)
#   harness_libraries NAME   the configure prefixes of its libraries (PCAP)
#   harness_cflags NAME      $PREFIX_CFLAGS of those libraries
#   harness_libs NAME        $PREFIX_LIBS of those libraries
#   variant_sources VARIANT  what a variant adds to the harness's sources
#   variant_cppflags VARIANT what a variant defines
#   fuzz_compile DIR SOURCE CC [FLAGS...]
#                            compiles SOURCE (found in $srcdir, or in
#                            $builddir when generated) into DIR with
#                            $fuzz_cppflags, prints the object's path
#   trace_cmp_flags SOURCE   $FUZZ_NO_TRACE_CMP when SOURCE is among
#                            $FUZZ_NO_TRACE_CMP_FILES (fuzz/local.mk: the
#                            files the libFuzzer build compiles without
#                            comparison tracing), else nothing
#   seed_sources NAME        the seeds it takes from elsewhere in the tree
#                            (fuzz/seed-sources.list), relative to $srcdir
#   seed_dirs NAME WORK      every seed directory of NAME, one a line:
#                            corpus/NAME/, fuzz/regressions/NAME/ if any,
#                            the listed directories, and WORK/seeds-NAME/
#                            holding copies of the listed files (libFuzzer
#                            takes directories only)

# Sources that the build generates rather than the tree holds.
FUZZ_GENERATED_SOURCES="fuzz/support/bundled_schemas.c"

fuzz_targets_list=${srcdir:-.}/fuzz/targets.list

# The table without comments and blank lines.
fuzz_table() {
    sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$fuzz_targets_list"
}

# harness_line NAME: its line of the table (fails when there is none).
harness_line() {
    fuzz_table | awk -v name="$1" '$1 == name { print; found = 1 } END { exit !found }'
}

fuzz_target_names() {
    fuzz_table | awk -v which="${1:-shipped}" '{
        test = ("," $2 ",") ~ /,test,/
        if (which == "all" || (which == "test") == test) printf "%s ", $1
    }'
}

harness_options() {
    harness_line "$1" | awk '{ if ($2 != "-") { gsub(/,/, " ", $2); print $2 } }'
}

harness_has() {
    case " $(harness_options "$1") " in *" $2 "*) return 0 ;; esac
    return 1
}

harness_variants() {
    for o in $(harness_options "$1"); do
        case $o in crc | seal | nocrc | schema) printf '%s ' "$o" ;; esac
    done
}

harness_libraries() {
    for o in $(harness_options "$1"); do
        case $o in *[!A-Z0-9_]*) ;; *) printf '%s ' "$o" ;; esac
    done
}

# Every source of the line, then split by where it lives.
harness_all_sources() {
    harness_line "$1" | awk '{ for (i = 3; i <= NF; i++) printf "%s ", $i }'
}

harness_sources() {
    for s in $(harness_all_sources "$1"); do
        case " $FUZZ_GENERATED_SOURCES " in *" $s "*) ;; *) printf '%s ' "$s" ;; esac
    done
}

harness_generated() {
    for s in $(harness_all_sources "$1"); do
        case " $FUZZ_GENERATED_SOURCES " in *" $s "*) printf '%s ' "$s" ;; esac
    done
}

# The values of <PREFIX>_CFLAGS / <PREFIX>_LIBS from the environment (the
# Makefile passes them, see FUZZ_LIBRARY_ENV in fuzz/targets.mk).
harness_cflags() {
    for p in $(harness_libraries "$1"); do eval "printf '%s ' \"\${${p}_CFLAGS:-}\""; done
}

harness_libs() {
    for p in $(harness_libraries "$1"); do eval "printf '%s ' \"\${${p}_LIBS:-}\""; done
}

# The libFuzzer variants (the mutators are the installed kit's,
# libbitsift-fuzz, linked with libbitsift): a custom mutator that re-seals the CRC (crc), the
# harness computing the CRC itself (seal), the decoder not checking it
# (nocrc), the schema-aware mutator (schema).
variant_sources() {
    case $1 in
    crc) echo "fuzz/support/crc_mutator.c" ;;
    schema) echo "fuzz/support/schema_mutator.c" ;;
    esac
}

variant_cppflags() {
    case $1 in
    seal) echo "-DBITSIFT_FUZZ_SEAL" ;;
    nocrc) echo "-DBITSIFT_FUZZ_NO_CRC" ;;
    esac
}

fuzz_cppflags="-DHAVE_CONFIG_H -I${top_builddir:-.} -I${top_builddir:-.}/lib -I${srcdir:-.}/lib -I${srcdir:-.}/fuzz/support -I${srcdir:-.}/src"

fuzz_compile() {
    _dir=$1 _src=$2
    shift 2
    _path=${srcdir:-.}/$_src
    [ -f "$_path" ] || _path=${builddir:-.}/$_src
    _obj=$_dir/$(echo "$_src" | tr '/' '_' | sed 's/\.c$/.o/')
    # shellcheck disable=SC2086
    "$@" $fuzz_cppflags -c "$_path" -o "$_obj" || return 1
    echo "$_obj"
}

trace_cmp_flags() {
    case " ${FUZZ_NO_TRACE_CMP_FILES:-} " in *" $1 "*) echo "${FUZZ_NO_TRACE_CMP:-}" ;; esac
}

seed_sources() {
    sed -e 's/#.*//' "${srcdir:-.}/fuzz/seed-sources.list" |
        awk -v name="$1" '$1 == name && NF == 2 { print $2 }'
}

seed_dirs() {
    _top=${srcdir:-.}
    echo "$_top/corpus/$1"
    [ -d "$_top/fuzz/regressions/$1" ] && echo "$_top/fuzz/regressions/$1"
    _copies=
    for _path in $(seed_sources "$1"); do
        if [ -d "$_top/$_path" ]; then
            echo "$_top/$_path"
        else
            # Named by their whole path: two listed files may share a name.
            _copies=$2/seeds-$1
            mkdir -p "$_copies" && cp "$_top/$_path" "$_copies/$(echo "$_path" | tr / -)" || return 1
        fi
    done
    [ -z "$_copies" ] || echo "$_copies"
}
