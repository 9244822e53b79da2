/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * check_choice.h -- which of its checks a harness runs on an input.
 *
 * A harness whose checks cost several decodes and encodes an input runs,
 * under a fuzzing engine, only one of them per input, chosen by a hash of
 * the input's bytes (FNV-1a): a bug in one path shows on many inputs of a
 * run, and a finding replays with the same check. The replay programs
 * (FUZZ_TARGET_NAME defined: make check, make coverage) run every check
 * on every input, so that a saved input keeps them all whatever its hash.
 */
#ifndef BITSIFT_FUZZ_CHECK_CHOICE_H
#define BITSIFT_FUZZ_CHECK_CHOICE_H

#include <stddef.h>
#include <stdint.h>

#ifdef FUZZ_TARGET_NAME
#define FUZZ_EVERY_CHECK 1
#else
#define FUZZ_EVERY_CHECK 0
#endif

static inline uint32_t fuzz_input_hash(const uint8_t *data, size_t size)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < size; i++)
        h = (h ^ data[i]) * 16777619u;
    return h;
}

#endif
