/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fuzz_planted.c -- TEST-ONLY target with a deliberately planted bug behind
 * the CRC gate. It exists to prove that the CRC-aware ways of fuzzing work
 * (fuzz/tests/planted.test, run by `make fuzz-smoke`); it is not a harness
 * of libbitsift and is not shipped to OSS-Fuzz.
 *
 * The toy protocol, framed like every bitsift packet:
 *
 *   +-----------+---------+-----------+------------------+-----------+
 *   | crc32 LE  | version | magic     | slot: int(0, 15) | end check |
 *   | 4 bytes   | uint8   | uint32 LE | 4 bits           | align+32  |
 *   +-----------+---------+-----------+------------------+-----------+
 *
 * The bug: when magic is PLANTED_MAGIC (a "debug" packet), the slot
 * indexes an 8-entry heap array without a bound check, so a slot of 8..15
 * writes out of bounds (ASan: heap-buffer-overflow). The seed has slot 12
 * and another magic. A fuzzer that keeps the CRC right finds the magic
 * from the comparison (libFuzzer's trace-cmp) within a few thousand runs;
 * one that does not never gets a mutated packet past the CRC.
 *
 * Built three ways (see fuzz/local.mk): fuzz_planted (plain),
 * fuzz_planted_crc (+ crc_mutator.c: the kit's CRC-resealing mutator) and fuzz_planted_seal
 * (-DBITSIFT_FUZZ_SEAL: the harness computes the CRC itself).
 */
#include <stdlib.h>

#include "bitsift.h"
#include "bitsift/fuzz.h"
#include "reseal.h"

#define PLANTED_PROTOCOL_ID 0x504c4e54u /* "PLNT" */
#define PLANTED_MAGIC       0x5eed1e55u
#define PLANTED_SLOTS       8

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void planted_framing(bitsift_framing *f)
{
    bitsift_framing_init(f, PLANTED_PROTOCOL_ID);
}

unsigned fuzz_reseal_hint(const uint8_t *data, size_t size)
{
    (void)data;
    (void)size;
    return 0;
}

void fuzz_reseal(uint8_t *data, size_t size, unsigned hint)
{
    (void)hint;
    bitsift_framing f;
    planted_framing(&f);
    if (size >= 4)
        fuzz_store_le32(data, bitsift_packet_crc(&f, data, size));
}

struct bitsift_fuzz *fuzz_kit_context(unsigned flags)
{
    (void)flags;
    bitsift_framing f;
    planted_framing(&f);
    return bitsift_fuzz_new_framing(&f);
}

static void decode(const uint8_t *data, size_t size)
{
    bitsift_framing f;
    bitsift_reader r;
    uint32_t type, magic;
    uint8_t version;
    planted_framing(&f);
    bitsift_reader_init(&r, data, size);
    if (!bitsift_packet_read_begin(&r, &f, &type) || !bitsift_read_uint8(&r, &version) ||
        !bitsift_read_uint32(&r, &magic))
        return;
    int64_t slot;
    if (!bitsift_read_int(&r, 0, 15, &slot))
        return;
    if (magic == PLANTED_MAGIC) {
        volatile uint8_t *slots = calloc(PLANTED_SLOTS, 1);
        if (!slots)
            return;
        slots[slot] = version; /* the planted bug: no check that slot < 8 */
        free((void *)slots);
    }
    (void)bitsift_packet_read_end(&r, &f);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
#ifdef BITSIFT_FUZZ_SEAL
    uint8_t *sealed = fuzz_sealed_copy(data, size, 0);
    if (sealed) {
        decode(sealed, size);
        free(sealed);
    }
#else
    decode(data, size);
#endif
    return 0;
}
