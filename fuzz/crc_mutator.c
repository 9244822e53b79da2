/*
 * crc_mutator.c -- libFuzzer custom mutator that keeps framed packets
 * sealed: libFuzzer's own mutations (LLVMFuzzerMutate: byte flips,
 * inserts, dictionary words, values from comparisons) followed by a
 * recomputed CRC32 (fuzz_reseal from the harness). Without it nearly every
 * mutant fails the CRC check and the fuzzer never reaches the payload
 * decoder; with it the release harness (which checks the CRC) is fuzzed
 * and every finding is a packet that a release build also accepts.
 *
 * Linked into the *_crc variants of the CRC-framed harnesses, with
 * crc_crossover.c.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "reseal.h"

size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed);

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed)
{
    (void)seed; /* LLVMFuzzerMutate draws from libFuzzer's seeded RNG */
    unsigned hint = fuzz_reseal_hint(data, size);
    size = LLVMFuzzerMutate(data, size, max_size);
    fuzz_reseal(data, size, hint);
    return size;
}
