/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * game_reader.h -- the snapshot of examples/fuzz-game (game_reader.c).
 */
#ifndef GAME_READER_H
#define GAME_READER_H

#include <bitsift.h>

#define GAME_PROTOCOL_ID 0x47414d45u /* "GAME" */
#define GAME_MAX_UNITS   1024
#define GAME_MAX_PLAYERS 64
#define GAME_MODE_REPLAY 13

struct game_unit {
    int32_t slot;
    int64_t kind, health;
    float x, y;
};

struct game_snapshot {
    uint16_t sequence;
    int64_t mode, focus, unit_count;
    struct game_unit units[GAME_MAX_UNITS];
};

/* Read a framed snapshot (CRC and end check verified). */
bool game_read(const uint8_t *packet, size_t size, struct game_snapshot *s);
bool game_write(const struct game_snapshot *s, uint8_t *out, size_t capacity, size_t *size);
/* What the game does with a snapshot it read. */
void game_apply(const struct game_snapshot *s);

#endif
