/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gen_c_names.h -- the names `bitsift gen c` keeps its output away from,
 * as data: lib/gen_c_names.c's gen_c_name and its file-scope check read
 * these, and nothing else decides which schema names C cannot take as they are.
 *
 *   c_renamed_names     a schema name spelled like one of these gets '_'
 *                       appended wherever it is used: keywords of C11, C23
 *                       and C++20 and their alternative tokens; GNU and
 *                       Clang keywords without a leading underscore (asm,
 *                       typeof); macros that gcc and clang predefine in GNU
 *                       modes (linux, unix, i386, and those of other common
 *                       targets); the macros, and the type names, of the
 *                       headers the generated code includes (<bitsift/bits.h>:
 *                       <stdbool.h>, <stddef.h>, <stdint.h>, <stdio.h>,
 *                       <string.h>) in C11, C23 and C++20, glibc and Annex
 *                       K included; and errno, assert, main
 *   c_file_scope_names  functions those headers declare whose names a
 *                       prefixed name could spell (open_memstream =
 *                       prefix "open" and enum "memstream"); a member may
 *                       take them, a file-scope name may not
 *
 * Names beginning with '_' and an uppercase letter or a second '_' (the
 * implementation's: __attribute__, __int128, _Float128, _Bool...) are
 * not listed: gen_c_name prefixes every such name. The library's own
 * names (bitsift_*, BITSIFT_*) are a rule of their own in gen_c_name too.
 * tests/gen-c/names.sh compiles every keyword and every macro the
 * installed compilers print for these headers as each kind of schema
 * name, so a name missing here shows up as generated code that does not
 * compile. Both lists are sorted by strcmp (bsearch); the test checks it.
 */
#ifndef BITSIFT_GEN_C_NAMES_H
#define BITSIFT_GEN_C_NAMES_H

static const char *const c_renamed_names[] = {
    "BUFSIZ", "EOF", "FILE", "FILENAME_MAX", "FOPEN_MAX", "INT16_C", "INT16_MAX", "INT16_MIN",
    "INT16_WIDTH", "INT32_C", "INT32_MAX", "INT32_MIN", "INT32_WIDTH", "INT64_C", "INT64_MAX",
    "INT64_MIN", "INT64_WIDTH", "INT8_C", "INT8_MAX", "INT8_MIN", "INT8_WIDTH", "INTMAX_C",
    "INTMAX_MAX", "INTMAX_MIN", "INTMAX_WIDTH", "INTPTR_MAX", "INTPTR_MIN", "INTPTR_WIDTH",
    "INT_FAST16_MAX", "INT_FAST16_MIN", "INT_FAST16_WIDTH", "INT_FAST32_MAX", "INT_FAST32_MIN",
    "INT_FAST32_WIDTH", "INT_FAST64_MAX", "INT_FAST64_MIN", "INT_FAST64_WIDTH", "INT_FAST8_MAX",
    "INT_FAST8_MIN", "INT_FAST8_WIDTH", "INT_LEAST16_MAX", "INT_LEAST16_MIN", "INT_LEAST16_WIDTH",
    "INT_LEAST32_MAX", "INT_LEAST32_MIN", "INT_LEAST32_WIDTH", "INT_LEAST64_MAX",
    "INT_LEAST64_MIN", "INT_LEAST64_WIDTH", "INT_LEAST8_MAX", "INT_LEAST8_MIN", "INT_LEAST8_WIDTH",
    "L_ctermid", "L_cuserid", "L_tmpnam", "L_tmpnam_s", "NULL", "PTRDIFF_MAX", "PTRDIFF_MIN",
    "PTRDIFF_WIDTH", "P_tmpdir", "RENAME_EXCHANGE", "RENAME_NOREPLACE", "RENAME_WHITEOUT",
    "RSIZE_MAX", "SEEK_CUR", "SEEK_DATA", "SEEK_END", "SEEK_HOLE", "SEEK_SET", "SIG_ATOMIC_MAX",
    "SIG_ATOMIC_MIN", "SIG_ATOMIC_WIDTH", "SIZE_MAX", "SIZE_WIDTH", "TMP_MAX", "TMP_MAX_S",
    "UINT16_C", "UINT16_MAX", "UINT16_WIDTH", "UINT32_C", "UINT32_MAX", "UINT32_WIDTH", "UINT64_C",
    "UINT64_MAX", "UINT64_WIDTH", "UINT8_C", "UINT8_MAX", "UINT8_WIDTH", "UINTMAX_C",
    "UINTMAX_MAX", "UINTMAX_WIDTH", "UINTPTR_MAX", "UINTPTR_WIDTH", "UINT_FAST16_MAX",
    "UINT_FAST16_WIDTH", "UINT_FAST32_MAX", "UINT_FAST32_WIDTH", "UINT_FAST64_MAX",
    "UINT_FAST64_WIDTH", "UINT_FAST8_MAX", "UINT_FAST8_WIDTH", "UINT_LEAST16_MAX",
    "UINT_LEAST16_WIDTH", "UINT_LEAST32_MAX", "UINT_LEAST32_WIDTH", "UINT_LEAST64_MAX",
    "UINT_LEAST64_WIDTH", "UINT_LEAST8_MAX", "UINT_LEAST8_WIDTH", "WCHAR_MAX", "WCHAR_MIN",
    "WCHAR_WIDTH", "WINT_MAX", "WINT_MIN", "WINT_WIDTH", "alignas", "alignof", "and", "and_eq",
    "asm", "assert", "auto", "bitand", "bitor", "bool", "break", "case", "catch", "char",
    "char16_t", "char32_t", "char8_t", "class", "co_await", "co_return", "co_yield", "compl",
    "concept", "const", "const_cast", "consteval", "constexpr", "constinit", "continue",
    "cookie_close_function_t", "cookie_io_functions_t", "cookie_read_function_t",
    "cookie_seek_function_t", "cookie_write_function_t", "decltype", "default", "delete", "do",
    "double", "dynamic_cast", "else", "enum", "errno", "errno_t", "explicit", "export", "extern",
    "false", "float", "for", "fpos64_t", "fpos_t", "friend", "goto", "i386", "if", "inline", "int",
    "int16_t", "int32_t", "int64_t", "int8_t", "int_fast16_t", "int_fast32_t", "int_fast64_t",
    "int_fast8_t", "int_least16_t", "int_least32_t", "int_least64_t", "int_least8_t", "intmax_t",
    "intptr_t", "linux", "locale_t", "long", "main", "max_align_t", "mips", "mutable", "namespace",
    "new", "noexcept", "not", "not_eq", "nullptr", "nullptr_t", "off64_t", "off_t", "offsetof",
    "operator", "or", "or_eq", "private", "protected", "ptrdiff_t", "public", "register",
    "reinterpret_cast", "requires", "restrict", "return", "rsize_t", "short", "signed", "size_t",
    "sizeof", "sparc", "ssize_t", "static", "static_assert", "static_cast", "stderr", "stdin",
    "stdout", "strdupa", "strndupa", "struct", "sun", "switch", "template", "this", "thread_local",
    "throw", "true", "try", "typedef", "typeid", "typename", "typeof", "typeof_unqual", "uint16_t",
    "uint32_t", "uint64_t", "uint8_t", "uint_fast16_t", "uint_fast32_t", "uint_fast64_t",
    "uint_fast8_t", "uint_least16_t", "uint_least32_t", "uint_least64_t", "uint_least8_t",
    "uintmax_t", "uintptr_t", "union", "unix", "unreachable", "unsigned", "using", "va_arg",
    "va_copy", "va_end", "va_list", "va_start", "vax", "virtual", "void", "volatile", "wchar_t",
    "while", "xor", "xor_eq",
};

static const char *const c_file_scope_names[] = {
    "clearerr_unlocked", "explicit_bzero", "feof_unlocked", "ferror_unlocked", "fflush_unlocked",
    "fgetc_unlocked", "fgets_unlocked", "fileno_unlocked", "fopen_s", "fprintf_s",
    "fputc_unlocked", "fputs_unlocked", "fread_unlocked", "freopen_s", "fscanf_s",
    "fwrite_unlocked", "getc_unlocked", "getchar_unlocked", "gets_s", "memalignment", "memcpy_s",
    "memmove_s", "memset_explicit", "memset_s", "obstack_printf", "obstack_vprintf",
    "open_memstream", "printf_s", "putc_unlocked", "putchar_unlocked", "scanf_s", "sigabbrev_np",
    "sigdescr_np", "snprintf_s", "sprintf_s", "sscanf_s", "strcasecmp_l", "strcat_s", "strcoll_l",
    "strcpy_s", "strerror_l", "strerror_r", "strerror_s", "strerrordesc_np", "strerrorlen_s",
    "strerrorname_np", "strncasecmp_l", "strncat_s", "strncpy_s", "strnlen_s", "strtok_r",
    "strtok_s", "strxfrm_l", "tmpfile_s", "tmpnam_r", "tmpnam_s", "vfprintf_s", "vfscanf_s",
    "vprintf_s", "vscanf_s", "vsnprintf_s", "vsprintf_s", "vsscanf_s",
};

#endif /* BITSIFT_GEN_C_NAMES_H */
