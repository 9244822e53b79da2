/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * reseal.h -- the CRC hook shared by the CRC-aware pieces of the fuzzing
 * kit. A harness whose inputs are framed packets defines fuzz_reseal(),
 * which stores into `data` the CRC32 a release build expects; then
 *
 *   - afl_crc_mutator.c (AFL++) calls it after every mutation, so mutated
 *     packets still pass the CRC check (the libFuzzer variants use the
 *     installed kit instead, through fuzz_kit_context below);
 *   - built with -DBITSIFT_FUZZ_SEAL, the harness itself calls it on a
 *     copy of each input before decoding (payload-level fuzzing: the CRC
 *     bytes of the input do not matter), and a finding reproduces on the
 *     release build once the file is resealed (`bitsift reseal`).
 *
 * `hint` lets a harness that knows several framings (fuzz_packet: one per
 * schema) keep the one the input was sealed for: fuzz_reseal_hint() is
 * called on the input before it is mutated, its result passed to
 * fuzz_reseal() afterwards. Harnesses with one framing ignore it.
 */
#ifndef BITSIFT_FUZZ_RESEAL_H
#define BITSIFT_FUZZ_RESEAL_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

unsigned fuzz_reseal_hint(const uint8_t *data, size_t size);
void fuzz_reseal(uint8_t *data, size_t size, unsigned hint);

/* The harness's protocols as a mutation context of the installed kit
 * (bitsift/fuzz.h), for the crc and schema variants (crc_mutator.c,
 * schema_mutator.c); `flags` as bitsift_fuzz_new_schemas takes them. */
struct bitsift_fuzz *fuzz_kit_context(unsigned flags);

/* Store a 32-bit value little-endian (the CRC field's byte order). */
static inline void fuzz_store_le32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

/* Seal mode: a resealed copy of the input, exactly `size` bytes (so that
 * ASan still sees over-reads), or NULL when out of memory. */
static inline uint8_t *fuzz_sealed_copy(const uint8_t *data, size_t size, unsigned hint)
{
    uint8_t *copy = malloc(size ? size : 1);
    if (copy) {
        if (size)
            memcpy(copy, data, size);
        fuzz_reseal(copy, size, hint);
    }
    return copy;
}

#endif /* BITSIFT_FUZZ_RESEAL_H */
