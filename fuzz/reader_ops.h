/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * reader_ops.h -- the op codes of fuzz_reader's input language, shared by
 * the harness (fuzz_reader.c) and the seed generator (seedgen.c) so that
 * the seeds always speak the harness's language.
 *
 * An input is a sequence of ops: one byte op code (taken modulo
 * OP_COUNT), then the op's parameters; the rest of the input is the data
 * the ops read (see fuzz_reader.c).
 */
#ifndef BITSIFT_FUZZ_READER_OPS_H
#define BITSIFT_FUZZ_READER_OPS_H

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
    OP_COUNT
};

#endif
