/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fuzz_game.c -- a libFuzzer harness for game_reader.c with the bitsift
 * fuzzing kit: the harness calls the game's own reader; the one
 * BITSIFT_FUZZ_MUTATORS line makes every mutant a sealed packet of the
 * protocol game.bss describes, changed field by field (the schema-aware
 * mutator; BITSIFT_FUZZ_MODE=crc keeps only the CRC re-sealing).
 * Built with -DPLAIN_LIBFUZZER it is the same harness without the kit.
 */
#include <bitsift/fuzz.h>

#include "game_reader.h"

#ifndef PLAIN_LIBFUZZER
BITSIFT_FUZZ_MUTATORS(bitsift_fuzz_new_schema_file(GAME_SCHEMA, BITSIFT_FUZZ_SCHEMA_AWARE, NULL));
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static struct game_snapshot s;
    if (game_read(data, size, &s))
        game_apply(&s);
    return 0;
}
