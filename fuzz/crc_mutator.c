/*
 * crc_mutator.c -- libFuzzer custom mutator that keeps framed packets
 * sealed: libFuzzer's own mutations (LLVMFuzzerMutate: byte flips,
 * inserts, dictionary words, values from comparisons) followed by a
 * recomputed CRC32 (fuzz_reseal from the harness). Without it nearly every
 * mutant fails the CRC check and the fuzzer never reaches the payload
 * decoder; with it the release harness (which checks the CRC) is fuzzed
 * and every finding is a packet that a release build also accepts.
 *
 * Linked into the *_crc variants of the CRC-framed harnesses.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "reseal.h"

size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed);
size_t LLVMFuzzerCustomCrossOver(const uint8_t *data1, size_t size1, const uint8_t *data2,
                                 size_t size2, uint8_t *out, size_t max_out_size,
                                 unsigned int seed);

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed)
{
    (void)seed; /* LLVMFuzzerMutate draws from libFuzzer's seeded RNG */
    unsigned hint = fuzz_reseal_hint(data, size);
    size = LLVMFuzzerMutate(data, size, max_size);
    fuzz_reseal(data, size, hint);
    return size;
}

/*
 * Splice: the head of one packet and the tail of the other, at a point
 * both have (the seed picks it), then resealed for the first one's
 * framing. libFuzzer's default crossover is not used once a custom
 * mutator exists, so without this the corpus would never mix.
 */
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
