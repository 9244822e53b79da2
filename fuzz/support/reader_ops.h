/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * reader_ops.h -- the op codes of fuzz_reader's input language, shared by
 * the harness (fuzz_reader.c) and the seed generator (seedgen.c) so that
 * the seeds always speak the harness's language.
 *
 * An input is a sequence of ops: one byte op code (taken modulo
 * OP_COUNT), then the op's parameters; the rest of the input is the data
 * the ops read (see fuzz_reader.c). The ops are the bit layer's
 * primitives and calls, not the schema's field types or value kinds: the
 * seeds' bytes depend on this order.
 */
#ifndef BITSIFT_FUZZ_READER_OPS_H
#define BITSIFT_FUZZ_READER_OPS_H

#include "bitsift/bits.h"

enum reader_op {
    OP_BITS,
    OP_BOOL,
    OP_UINT8,
    OP_UINT16,
    OP_UINT32,
    OP_UINT64,
    OP_INT,
    OP_FLOAT,
    OP_DOUBLE,
    OP_ALIGN,
    OP_COMPRESSED_FLOAT,
    OP_BYTES,
    OP_BYTES_VIEW,
    OP_STRING,
    OP_STRING_VIEW,
    OP_CHECK,
    OP_INT_RELATIVE,
    OP_OBJECT_INDEX,
    OP_SEQUENCE_RELATIVE,
    OP_ACK_RELATIVE,
    OP_PACKET_BEGIN,
    OP_PACKET_END,
    OP_RESET,
    OP_SMALLEST_THREE,
    OP_SPARSE,
    OP_COMPRESSED_FLOAT_STEPS,
    OP_SERIALIZE,
    OP_COUNT
};

/* OP_SERIALIZE's record, written as a game writes its own. */
struct part_player {
    int64_t health;
    float position[3];
    bitsift_smallest_three rotation;
};

struct part_snapshot {
    bool present[16];
    struct part_player players[16];
    uint8_t scores[4];
};

static inline bool serialize_player(void *stream, const int mode, struct part_player *p)
{
    bitsift_serialize_named(stream, mode, "health", int, p->health, (0, 200));
    bitsift_serialize_vector(stream, mode, "position", 3, p->position, compressed_float,
                             (-64.0f, 64.0f, 0.5f));
    bitsift_serialize_named(stream, mode, "rotation", smallest_three, p->rotation, (9));
    return true;
}

static inline bool serialize_snapshot(void *stream, const int mode, struct part_snapshot *s)
{
    bitsift_sparse it;
    bitsift_serialize_sparse_begin(stream, mode, it, "players", BITSIFT_SPARSE_INDICES, s->present,
                                   16);
    while (bitsift_serialize_sparse_next(stream, mode, it))
        bitsift_serialize_in(stream, mode, "players", it.index,
                             serialize_player(stream, mode, &s->players[it.index]));
    bitsift_serialize_sparse_end(stream, mode, it, "players");
    for (int k = 0; k < 4; k++)
        bitsift_serialize_element(stream, mode, "scores", k, s->scores[k], uint8, ());
    return true;
}

#endif
