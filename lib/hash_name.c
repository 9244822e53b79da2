/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * hash_name.c -- the string hash of the 2016 article code (protocol2.h):
 * Jenkins one-at-a-time without the final avalanche, ASCII lower case
 * folded to upper case first. It turns names into check marker values
 * ("end of packet" -> 0x9908ace2) and, in schemas, into protocol ids.
 */
#include "bitsift.h"

uint32_t bitsift_hash_name(const char *name, uint32_t seed)
{
    uint32_t hash = seed;
    for (const unsigned char *p = (const unsigned char *)name; *p; p++) {
        unsigned c = *p;
        if (c >= 'a' && c <= 'z')
            c = c - 'a' + 'A';
        /* protocol2 adds a plain char: bytes >= 0x80 are negative there. */
        hash += (uint32_t)(int32_t)(signed char)c;
        hash += hash << 10;
        hash ^= hash >> 6;
    }
    return hash;
}
