/*
 * crc_crossover.c -- libFuzzer custom crossover for CRC-framed inputs:
 * libFuzzer stops using its own crossover once a custom mutator exists,
 * so the custom mutators (crc_mutator.c, schema_mutator.c) link this one,
 * which splices two packets and re-seals the result.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "reseal.h"

size_t LLVMFuzzerCustomCrossOver(const uint8_t *data1, size_t size1, const uint8_t *data2,
                                 size_t size2, uint8_t *out, size_t max_out_size,
                                 unsigned int seed);

/* The head of one packet and the tail of the other, at points the seed
 * picks, then resealed for the first one's framing. */
size_t LLVMFuzzerCustomCrossOver(const uint8_t *data1, size_t size1, const uint8_t *data2,
                                 size_t size2, uint8_t *out, size_t max_out_size,
                                 unsigned int seed)
{
    if (size1 == 0 || max_out_size == 0)
        return 0;
    size_t cut = seed % size1;
    size_t tail_from = size2 ? (seed / 7u) % size2 : 0;
    size_t tail = size2 - tail_from;
    if (cut > max_out_size)
        cut = max_out_size;
    if (tail > max_out_size - cut)
        tail = max_out_size - cut;
    memcpy(out, data1, cut);
    memcpy(out + cut, data2 + tail_from, tail);
    fuzz_reseal(out, cut + tail, fuzz_reseal_hint(data1, size1));
    return cut + tail;
}
