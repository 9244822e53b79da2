/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * crc_mutator.c -- the *_crc variants of the CRC-framed harnesses: the
 * kit's CRC-resealing mutator and crossover (libbitsift-fuzz,
 * bitsift/fuzz.h) over the harness's protocols (fuzz_kit_context, from
 * the harness: reseal.h). libFuzzer's own mutations, then the CRC32
 * recomputed, so that mutants pass a release build's CRC check and every
 * finding is a packet such a build accepts.
 */
#include "bitsift/fuzz.h"
#include "reseal.h"

BITSIFT_FUZZ_MUTATORS(fuzz_kit_context(0));
