/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * utf8.c -- strict UTF-8 validation, the one rule of the tree: string
 * fields (the reference reader refuses strings that are not valid UTF-8,
 * and so do we), schema text, and the command's JSON and XML output, which
 * pass a valid sequence through and escape anything else.
 */
#include "bitsift_internal.h"

/*
 * Well-formed sequences (Unicode 3.9, table 3-7):
 *   00..7F
 *   C2..DF 80..BF
 *   E0     A0..BF 80..BF      E1..EC 80..BF 80..BF
 *   ED     80..9F 80..BF      EE..EF 80..BF 80..BF
 *   F0     90..BF 80..BF 80..BF   F1..F3 80..BF x3   F4 80..8F 80..BF 80..BF
 */
size_t bitsift__utf8_valid_prefix(const uint8_t *s, size_t n)
{
    size_t i = 0;
    while (i < n) {
        uint8_t c = s[i];
        if (c < 0x80) {
            i++;
            continue;
        }
        size_t len;
        uint8_t lo = 0x80, hi = 0xBF;
        if (c >= 0xC2 && c <= 0xDF) {
            len = 2;
        } else if (c >= 0xE0 && c <= 0xEF) {
            len = 3;
            if (c == 0xE0)
                lo = 0xA0;
            else if (c == 0xED)
                hi = 0x9F;
        } else if (c >= 0xF0 && c <= 0xF4) {
            len = 4;
            if (c == 0xF0)
                lo = 0x90;
            else if (c == 0xF4)
                hi = 0x8F;
        } else {
            return i;
        }
        if (n - i < len)
            return i;
        if (s[i + 1] < lo || s[i + 1] > hi)
            return i;
        for (size_t k = 2; k < len; k++)
            if (s[i + k] < 0x80 || s[i + k] > 0xBF)
                return i;
        i += len;
    }
    return n;
}

/* One sequence by the rule above. Its length comes from the lead byte;
 * whether it is well-formed, from the loop above, so that there is one
 * rule. (The loop is not written as calls to this: per character, the
 * call and the second look at the lead byte cost the string reads 3 % of
 * `make bench`'s visitor decode.) */
size_t bitsift_utf8_sequence(const uint8_t *s, size_t n)
{
    if (n == 0)
        return 0;
    uint8_t c = s[0];
    size_t len = c < 0x80 ? 1 : c < 0xC2 ? 0 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : c < 0xF5 ? 4 : 0;
    if (len == 0 || len > n)
        return 0;
    return bitsift__utf8_valid_prefix(s, len) == len ? len : 0;
}
