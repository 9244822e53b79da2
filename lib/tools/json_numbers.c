/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * json_numbers.c -- numbers that jansson would damage, kept as text.
 *
 * jansson reads numbers as int64 or double, which would lose a uint64
 * above 2^63 and round a float32 twice (text -> double -> float); so
 * before parsing, every real number and every integer beyond int64 is
 * turned into a string holding its exact text, and the field's type in
 * the schema decides how that text is read (record_tree.c: strtof for
 * float fields, strtod for double, strtoull for unsigned).
 */
#include <stdlib.h>
#include <string.h>

#include "records_internal.h"

/* Does the integer text [p, p+n) fit in int64? */
static int fits_int64(const char *p, size_t n)
{
    int negative = p[0] == '-';
    const char *digits = p + negative;
    size_t len = n - (size_t)negative;
    const char *limit = negative ? "9223372036854775808" : "9223372036854775807";
    if (len != 19)
        return len < 19;
    return memcmp(digits, limit, 19) <= 0;
}

char *record_protect_numbers(const char *line, size_t size, size_t *out_size)
{
    char *out = malloc(size * 2 + 1); /* at worst every number gains 2 quotes */
    if (!out)
        return NULL;
    size_t o = 0;
    int in_string = 0;
    for (size_t i = 0; i < size;) {
        char c = line[i];
        if (in_string) {
            out[o++] = c;
            i++;
            if (c == '\\' && i < size)
                out[o++] = line[i++];
            else if (c == '"')
                in_string = 0;
            continue;
        }
        if (c == '"') {
            in_string = 1;
            out[o++] = c;
            i++;
            continue;
        }
        if (c == '-' || (c >= '0' && c <= '9')) {
            size_t start = i;
            int real = 0;
            while (i < size && line[i] && strchr("0123456789+-.eE", line[i])) {
                if (line[i] == '.' || line[i] == 'e' || line[i] == 'E')
                    real = 1;
                i++;
            }
            size_t n = i - start;
            int quote = real || !fits_int64(line + start, n);
            if (quote)
                out[o++] = '"';
            memcpy(out + o, line + start, n);
            o += n;
            if (quote)
                out[o++] = '"';
            continue;
        }
        out[o++] = c;
        i++;
    }
    out[o] = '\0';
    *out_size = o;
    return out;
}
