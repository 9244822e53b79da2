/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * game_reader.c -- the packet reader of a small game, as a user of
 * libbitsift writes it: one serialize function (the bitsift_serialize_*
 * macros) that both writes and reads a snapshot, framed with a CRC32 over
 * the protocol id and an end-of-packet check. examples/fuzz-game/game.bss
 * describes the same packet for the bitsift command and the fuzzing kit.
 *
 *   +-----------+----------+---------+---------------------+----------------+-----------+
 *   | crc32 LE  | sequence | mode    | focus: int(0, 1023) | units: count + | end check |
 *   | 4 bytes   | uint16   | 4 bits  | when mode == 13     | sparse(relative)| align+32 |
 *   +-----------+----------+---------+---------------------+----------------+-----------+
 *
 * THE BUG (planted, for the fuzzing example): a spectator replay
 * (mode 13) names the player the camera follows, a 10-bit index, and
 * game_apply marks that player in a 64-entry table without checking the
 * index against the table. It sits behind the CRC: a fuzzer whose
 * mutants fail the CRC check never reaches it.
 */
#include <stdlib.h>

#include "game_reader.h"

static bool serialize_snapshot(void *stream, const int mode, struct game_snapshot *s)
{
    int32_t previous = -1;
    bitsift_serialize_uint16(stream, mode, s->sequence);
    bitsift_serialize_int(stream, mode, s->mode, 0, 15);
    if (s->mode == GAME_MODE_REPLAY)
        bitsift_serialize_int(stream, mode, s->focus, 0, 1023);
    bitsift_serialize_int(stream, mode, s->unit_count, 0, GAME_MAX_UNITS);
    for (int64_t i = 0; i < s->unit_count; i++) {
        struct game_unit *u = &s->units[i];
        bitsift_serialize_object_index(stream, mode, previous, u->slot, GAME_MAX_UNITS);
        if (u->slot >= GAME_MAX_UNITS)
            return false; /* the ladder's last tier reaches one past the end */
        previous = u->slot;
        bitsift_serialize_int(stream, mode, u->kind, 0, 15);
        bitsift_serialize_int(stream, mode, u->health, 0, 100);
        bitsift_serialize_compressed_float(stream, mode, u->x, -512.0f, 511.99f, 0.05f);
        bitsift_serialize_compressed_float(stream, mode, u->y, -512.0f, 511.99f, 0.05f);
    }
    return true;
}
BITSIFT_SERIALIZE_FUNCTIONS(game_snapshot, struct game_snapshot, serialize_snapshot)

bool game_read(const uint8_t *packet, size_t size, struct game_snapshot *s)
{
    bitsift_framing f;
    bitsift_reader r;
    uint32_t type;
    bitsift_framing_init(&f, GAME_PROTOCOL_ID);
    bitsift_reader_init(&r, packet, size);
    return bitsift_packet_read_begin(&r, &f, &type) && game_snapshot_read(&r, s) &&
           bitsift_packet_read_end(&r, &f);
}

bool game_write(const struct game_snapshot *s, uint8_t *out, size_t capacity, size_t *size)
{
    bitsift_framing f;
    bitsift_writer w;
    bitsift_framing_init(&f, GAME_PROTOCOL_ID);
    bitsift_writer_init(&w, out, capacity);
    return bitsift_packet_write_begin(&w, &f, NULL, 0) &&
           game_snapshot_write(&w, (struct game_snapshot *)s) &&
           bitsift_packet_write_end(&w, &f, size);
}

void game_apply(const struct game_snapshot *s)
{
    bool *followed = calloc(GAME_MAX_PLAYERS, sizeof *followed);
    if (!followed)
        return;
    if (s->mode == GAME_MODE_REPLAY)
        followed[s->focus] = true; /* the planted bug: focus may be 64..1023 */
    free(followed);
}
