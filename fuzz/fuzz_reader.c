/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fuzz_reader.c -- libFuzzer target: arbitrary sequences of libbitsift's
 * read primitives over arbitrary data.
 *
 * Input layout:
 *
 *   +--------+----------------------------+----------------------------+
 *   | len L  | program: L bytes           | data: the rest             |
 *   | 1 byte | op codes and parameters    | what the reader reads      |
 *   +--------+----------------------------+----------------------------+
 *
 * The program is run up to PROGRAM_PASSES times (so that a short program
 * can walk a long data block) and stops at the first failed read. Each op
 * code selects one primitive; its parameters (widths, ranges, buffer
 * sizes, check values, framings) come from the program bytes that follow.
 *
 * Besides "no crash, no sanitizer report", each read is checked:
 *   - a failure is sticky: the next read fails too and the position stays;
 *   - parameter errors (width 0 or > 64, min > max, buffer size 0) fail
 *     with BITSIFT_E_ARGUMENT;
 *   - a value read is inside its range, a string holds no NUL;
 *   - for canonical encodings (bits, ints, floats, align, bytes, strings,
 *     checks) writing the value back at the same bit phase gives exactly
 *     the bits that were read;
 *   - for the relative ladders and compressed floats, what the writer
 *     writes the reader reads back (the writer never writes what the
 *     reader refuses);
 *   - a smallest-three quaternion written back as read gives the same
 *     bits; so does a sparse array (the slots read, a one-bit element
 *     each) in the flags, indices and sentinel encodings, and in the
 *     relative one (a ladder: not canonical) it reads back the same;
 *   - a record written with the serialize macros as a game writes one
 *     (named leaves, a vector, a quaternion, a sparse array of structs,
 *     array elements) reads, writes back to the same bits and measures
 *     its size; when it fails, the failure names the field's path;
 *   - a failure's field path, grown by bitsift_reader_fail_in and
 *     bitsift_writer_fail_in as serialize code returns through its parts,
 *     stays a NUL-terminated string of the buffer's size, and those calls
 *     do nothing to a reader or writer that has not failed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bitsift.h"
#include "reader_ops.h"
#include "fuzz_input.h"

#define PROGRAM_PASSES 4
#define MAX_OPS        512

/* Beyond this a writer scratch buffer would be pointless: inputs are
 * small, and bytes()/string() fail on overflow before copying. */
#define SCRATCH_BYTES 70000


static uint8_t scratch[SCRATCH_BYTES];

/* A sparse array's slots and one-bit elements (max is at most 65536). */
#define SPARSE_MAX_SLOTS 65536
static bool present[SPARSE_MAX_SLOTS], element[SPARSE_MAX_SLOTS];

#define CHECK(cond)                                                                  \
    do {                                                                             \
        if (!(cond)) {                                                               \
            fprintf(stderr, "fuzz_reader: %s:%d: check failed: %s\n", __FILE__, __LINE__, \
                    #cond);                                                          \
            abort();                                                                 \
        }                                                                            \
    } while (0)

/* The same float, NaN being the same as NaN: a compressed float whose
 * range is infinite (min -inf, say) reads every integer as NaN, and the
 * round-trip writer's promise is that NaN reads back as NaN. */
static bool same_float(float a, float b)
{
    return a == b || (a != a && b != b);
}

static int stream_bit(const uint8_t *buf, uint64_t k)
{
    return (buf[k >> 3] >> (k & 7)) & 1;
}

/*
 * The bits the last op consumed, [from, to) of the input, compared with
 * what `w` wrote after `phase` filler bits. The writer was started with
 * the same bit phase (from mod 8) so that its alignment matches.
 */
static void check_same_bits(const uint8_t *data, uint64_t from, uint64_t to,
                            const bitsift_writer *w, unsigned phase)
{
    CHECK(bitsift_writer_ok(w));
    CHECK(bitsift_writer_bit_pos(w) - phase == to - from);
    for (uint64_t k = 0; k < to - from; k++)
        CHECK(stream_bit(data, from + k) == stream_bit(scratch, phase + k));
}

/* A writer over the scratch buffer, advanced to the bit phase of `from`
 * with zero filler bits. */
static unsigned writer_at_phase(bitsift_writer *w, uint64_t from)
{
    unsigned phase = (unsigned)(from & 7);
    bitsift_writer_init(w, scratch, sizeof scratch);
    if (phase)
        CHECK(bitsift_write_bits(w, phase, 0));
    return phase;
}

struct run_state {
    bitsift_reader r;
    const uint8_t *data;
    size_t size;
    bitsift_framing framing;
    int32_t last_int;
    uint16_t last_sequence;
};

/* Run one op. Returns false when the reader failed (the failure was
 * checked). */
static bool run_op(struct run_state *s, fuzz_input *prog)
{
    bitsift_reader *r = &s->r;
    uint64_t from = bitsift_reader_bit_pos(r);
    bitsift_writer w;
    unsigned phase;
    bool ok = true;
    bool argument_error = false;

    unsigned op = fuzz_u8(prog) % OP_COUNT;
    switch (op) {
    case OP_BITS: {
        unsigned n = fuzz_u8(prog) % 66;
        uint64_t v;
        argument_error = n == 0 || n > 64;
        if ((ok = bitsift_read_bits(r, n, &v))) {
            CHECK(n == 64 || v >> n == 0);
            phase = writer_at_phase(&w, from);
            bitsift_write_bits(&w, n, v);
            check_same_bits(s->data, from, bitsift_reader_bit_pos(r), &w, phase);
        }
        break;
    }
    case OP_BOOL: {
        bool v;
        if ((ok = bitsift_read_bool(r, &v))) {
            phase = writer_at_phase(&w, from);
            bitsift_write_bool(&w, v);
            check_same_bits(s->data, from, bitsift_reader_bit_pos(r), &w, phase);
        }
        break;
    }
    case OP_UINT8: {
        uint8_t v;
        if ((ok = bitsift_read_uint8(r, &v))) {
            phase = writer_at_phase(&w, from);
            bitsift_write_uint8(&w, v);
            check_same_bits(s->data, from, bitsift_reader_bit_pos(r), &w, phase);
        }
        break;
    }
    case OP_UINT16: {
        uint16_t v;
        if ((ok = bitsift_read_uint16(r, &v))) {
            phase = writer_at_phase(&w, from);
            bitsift_write_uint16(&w, v);
            check_same_bits(s->data, from, bitsift_reader_bit_pos(r), &w, phase);
        }
        break;
    }
    case OP_UINT32: {
        uint32_t v;
        if ((ok = bitsift_read_uint32(r, &v))) {
            phase = writer_at_phase(&w, from);
            bitsift_write_uint32(&w, v);
            check_same_bits(s->data, from, bitsift_reader_bit_pos(r), &w, phase);
        }
        break;
    }
    case OP_UINT64: {
        uint64_t v;
        if ((ok = bitsift_read_uint64(r, &v))) {
            phase = writer_at_phase(&w, from);
            bitsift_write_uint64(&w, v);
            check_same_bits(s->data, from, bitsift_reader_bit_pos(r), &w, phase);
        }
        break;
    }
    case OP_INT: {
        int64_t min = fuzz_i64(prog), max = fuzz_i64(prog), v;
        argument_error = min > max;
        if ((ok = bitsift_read_int(r, min, max, &v))) {
            CHECK(v >= min && v <= max);
            CHECK(bitsift_reader_bit_pos(r) - from == bitsift_bits_required(min, max));
            phase = writer_at_phase(&w, from);
            bitsift_write_int(&w, min, max, v);
            check_same_bits(s->data, from, bitsift_reader_bit_pos(r), &w, phase);
        }
        break;
    }
    case OP_FLOAT: {
        float v;
        if ((ok = bitsift_read_float(r, &v))) {
            phase = writer_at_phase(&w, from);
            bitsift_write_float(&w, v); /* NaN payloads must survive */
            check_same_bits(s->data, from, bitsift_reader_bit_pos(r), &w, phase);
        }
        break;
    }
    case OP_DOUBLE: {
        double v;
        if ((ok = bitsift_read_double(r, &v))) {
            phase = writer_at_phase(&w, from);
            bitsift_write_double(&w, v);
            check_same_bits(s->data, from, bitsift_reader_bit_pos(r), &w, phase);
        }
        break;
    }
    case OP_ALIGN:
        if ((ok = bitsift_read_align(r))) {
            CHECK((bitsift_reader_bit_pos(r) & 7) == 0);
            phase = writer_at_phase(&w, from);
            bitsift_write_align(&w);
            check_same_bits(s->data, from, bitsift_reader_bit_pos(r), &w, phase);
        }
        break;
    case OP_COMPRESSED_FLOAT: {
        float min = fuzz_float(prog), max = fuzz_float(prog), res = fuzz_float(prog), v;
        uint32_t steps;
        unsigned bits;
        argument_error = !bitsift_compressed_float_steps(min, max, res, &steps, &bits);
        if ((ok = bitsift_read_compressed_float(r, min, max, res, &v))) {
            CHECK(bitsift_reader_bit_pos(r) - from == bits);
            /* What the writer makes of the value, the reader must take. */
            bitsift_writer_init(&w, scratch, sizeof scratch);
            CHECK(bitsift_write_compressed_float(&w, min, max, res, v));
            bitsift_reader back;
            float again;
            bitsift_reader_init(&back, scratch, bitsift_writer_bytes(&w));
            CHECK(bitsift_read_compressed_float(&back, min, max, res, &again));
            /* The serialize macros' round-trip writer gives an integer that
             * reads as the very value read (bitsift_compressed_float_quantize). */
            bitsift_writer_init(&w, scratch, sizeof scratch);
            CHECK(bitsift__write_compressed_float_exact(&w, min, max, res, v));
            bitsift_reader_init(&back, scratch, bitsift_writer_bytes(&w));
            CHECK(bitsift_read_compressed_float(&back, min, max, res, &again) &&
                  same_float(again, v));
        }
        break;
    }
    case OP_BYTES:
    case OP_BYTES_VIEW: {
        bool copy = op == OP_BYTES;
        size_t n = fuzz_u16(prog);
        const uint8_t *view = NULL;
        uint8_t *buf = NULL;
        if (copy) {
            buf = malloc(n ? n : 1); /* exact size: ASan sees any overrun */
            CHECK(buf != NULL);
            ok = bitsift_read_bytes(r, buf, n);
            view = buf;
        } else {
            ok = bitsift_read_bytes_view(r, n, &view);
            if (ok)
                CHECK(n == 0 || (view >= s->data && view + n <= s->data + s->size));
        }
        if (ok) {
            phase = writer_at_phase(&w, from);
            bitsift_write_bytes(&w, view, n);
            check_same_bits(s->data, from, bitsift_reader_bit_pos(r), &w, phase);
        }
        free(buf);
        break;
    }
    case OP_STRING:
    case OP_STRING_VIEW: {
        bool copy = op == OP_STRING;
        size_t bufsize = fuzz_u16(prog);
        size_t len = 0;
        const uint8_t *view = NULL;
        char *buf = NULL;
        argument_error = bufsize == 0;
        if (copy) {
            buf = malloc(bufsize ? bufsize : 1);
            CHECK(buf != NULL);
            if ((ok = bitsift_read_string(r, buf, bufsize, &len))) {
                CHECK(buf[len] == '\0' && strlen(buf) == len);
                view = (const uint8_t *)buf;
            }
        } else {
            ok = bitsift_read_string_view(r, bufsize, &view, &len);
        }
        if (ok) {
            CHECK(len < bufsize && memchr(view, 0, len) == NULL);
            phase = writer_at_phase(&w, from);
            bitsift_write_string_n(&w, view, len, bufsize);
            check_same_bits(s->data, from, bitsift_reader_bit_pos(r), &w, phase);
        }
        free(buf);
        break;
    }
    case OP_CHECK: {
        uint8_t which = fuzz_u8(prog);
        uint32_t value = which == 0   ? BITSIFT_CHECK_CLASSIC
                         : which == 1 ? BITSIFT_CHECK_END_OF_PACKET
                                      : fuzz_u32(prog);
        if ((ok = bitsift_read_check(r, value))) {
            phase = writer_at_phase(&w, from);
            bitsift_write_check(&w, value);
            check_same_bits(s->data, from, bitsift_reader_bit_pos(r), &w, phase);
        }
        break;
    }
    case OP_INT_RELATIVE: {
        int32_t previous = fuzz_u8(prog) & 1 ? s->last_int : (int32_t)fuzz_i64(prog), v;
        if ((ok = bitsift_read_int_relative(r, previous, &v))) {
            CHECK(v > previous);
            bitsift_writer_init(&w, scratch, sizeof scratch);
            CHECK(bitsift_write_int_relative(&w, previous, v));
            bitsift_reader back;
            int32_t again;
            bitsift_reader_init(&back, scratch, bitsift_writer_bytes(&w));
            CHECK(bitsift_read_int_relative(&back, previous, &again) && again == v);
            s->last_int = v;
        }
        break;
    }
    case OP_OBJECT_INDEX: {
        int32_t previous = fuzz_u8(prog) & 1 ? s->last_int : (int32_t)fuzz_i64(prog);
        int32_t max_objects = (int32_t)fuzz_i64(prog), v;
        if ((ok = bitsift_read_object_index(r, previous, max_objects, &v))) {
            CHECK(v > previous);
            bitsift_writer_init(&w, scratch, sizeof scratch);
            /* Every index the reader accepts is one the writer makes
             * (steps above max_objects + 1 from the middle tiers are
             * refused: fuzz/regressions/fuzz_reader/object-index-step-
             * beyond-max), and it round-trips. */
            CHECK((int64_t)v - previous <= (int64_t)max_objects + 1);
            CHECK(bitsift_write_object_index(&w, previous, max_objects, v));
            bitsift_reader back;
            int32_t again;
            bitsift_reader_init(&back, scratch, bitsift_writer_bytes(&w));
            CHECK(bitsift_read_object_index(&back, previous, max_objects, &again) && again == v);
            s->last_int = v;
        }
        break;
    }
    case OP_SEQUENCE_RELATIVE: {
        uint16_t s1 = fuzz_u8(prog) & 1 ? s->last_sequence : fuzz_u16(prog), v;
        if ((ok = bitsift_read_sequence_relative(r, s1, &v))) {
            bitsift_writer_init(&w, scratch, sizeof scratch);
            if (bitsift_write_sequence_relative(&w, s1, v)) {
                bitsift_reader back;
                uint16_t again;
                bitsift_reader_init(&back, scratch, bitsift_writer_bytes(&w));
                CHECK(bitsift_read_sequence_relative(&back, s1, &again) && again == v);
            } else {
                /* The writer refuses only s2 == s1, which the ladder
                 * (d >= 1) cannot produce unless it wrapped by 65536. */
                CHECK(v == s1);
            }
            s->last_sequence = v;
        }
        break;
    }
    case OP_ACK_RELATIVE: {
        uint16_t sequence = fuzz_u8(prog) & 1 ? s->last_sequence : fuzz_u16(prog), v;
        if ((ok = bitsift_read_ack_relative(r, sequence, &v))) {
            bitsift_writer_init(&w, scratch, sizeof scratch);
            CHECK(bitsift_write_ack_relative(&w, sequence, v));
            bitsift_reader back;
            uint16_t again;
            bitsift_reader_init(&back, scratch, bitsift_writer_bytes(&w));
            CHECK(bitsift_read_ack_relative(&back, sequence, &again) && again == v);
        }
        break;
    }
    case OP_PACKET_BEGIN: {
        /* Framing starts at bit 0: restart the reader. */
        uint8_t flags = fuzz_u8(prog);
        bitsift_framing_init(&s->framing, fuzz_u32(prog));
        s->framing.num_types = fuzz_u8(prog);
        s->framing.crc = flags & 1;
        s->framing.end_check = flags & 2;
        s->framing.prefix_bytes = (flags >> 2) & 7;
        if (flags & 0x20)
            s->framing.end_check_value = fuzz_u32(prog);
        argument_error = s->framing.num_types == 0;
        bitsift_reader_init(r, s->data, s->size);
        uint32_t type;
        if ((ok = bitsift_packet_read_begin(r, &s->framing, &type))) {
            CHECK(type < s->framing.num_types);
            /* A packet the reader accepted has a CRC field, and it holds
             * the CRC of its bytes. */
            uint32_t stored;
            if (s->framing.crc)
                CHECK(bitsift_packet_stored_crc(&s->framing, s->data, s->size, &stored) &&
                      bitsift_packet_crc(&s->framing, s->data, s->size) == stored);
            else
                CHECK(!bitsift_packet_stored_crc(&s->framing, s->data, s->size, &stored));
            /* The writer's begin gives back the prefix and type that were
             * read (the CRC field is written as 0 until the end). */
            bitsift_writer_init(&w, scratch, sizeof scratch);
            CHECK(bitsift_packet_write_begin(&w, &s->framing, s->data, type));
            CHECK(bitsift_writer_bit_pos(&w) == bitsift_reader_bit_pos(r));
            CHECK(memcmp(scratch, s->data, s->framing.prefix_bytes) == 0);
        }
        /* The writer refuses what no packet can be: a type past the last,
         * no types at all, a packet that does not start at bit 0. */
        bitsift_writer_init(&w, scratch, sizeof scratch);
        bool begun = bitsift_packet_write_begin(&w, &s->framing, NULL, s->framing.num_types);
        CHECK(!begun && w.failure.kind == (s->framing.num_types ? BITSIFT_E_VALUE
                                                                : BITSIFT_E_ARGUMENT));
        if (s->framing.num_types) {
            bitsift_writer_init(&w, scratch, sizeof scratch);
            CHECK(bitsift_write_bool(&w, true));
            CHECK(!bitsift_packet_write_begin(&w, &s->framing, NULL, 0) &&
                  w.failure.kind == BITSIFT_E_ARGUMENT);
        }
        break;
    }
    case OP_PACKET_END:
        ok = bitsift_packet_read_end(r, &s->framing);
        break;
    case OP_RESET:
        bitsift_reader_init(r, s->data, s->size);
        break;
    case OP_SMALLEST_THREE: {
        unsigned bits = fuzz_u8(prog) % 34; /* 2..31 are valid */
        argument_error = bits < 2 || bits > 31;
        bitsift_smallest_three q;
        if ((ok = bitsift_read_smallest_three(r, bits, &q))) {
            CHECK(bitsift_reader_bit_pos(r) - from == 2 + 3 * (uint64_t)bits);
            CHECK(q.largest < 4);
            phase = writer_at_phase(&w, from);
            CHECK(bitsift_write_smallest_three(&w, bits, &q));
            check_same_bits(s->data, from, bitsift_reader_bit_pos(r), &w, phase);
            /* The same rotation negated is written afresh (quantized, not
             * the integers kept from the read) and reads back. */
            bitsift_smallest_three negated = q, again;
            for (int k = 0; k < 4; k++)
                negated.q[k] = -q.q[k];
            bitsift_writer_init(&w, scratch, sizeof scratch);
            CHECK(bitsift_write_smallest_three(&w, bits, &negated));
            bitsift_reader back;
            bitsift_reader_init(&back, scratch, bitsift_writer_bytes(&w));
            CHECK(bitsift_read_smallest_three(&back, bits, &again));
            for (int k = 0; k < 4; k++)
                CHECK(again.q[k] >= -1.0f && again.q[k] <= 1.0f);
        }
        break;
    }
    case OP_SPARSE: {
        bitsift_sparse_encoding encoding = (bitsift_sparse_encoding)(fuzz_u8(prog) % 4);
        uint32_t max = (uint32_t)fuzz_le(prog, 3) % (SPARSE_MAX_SLOTS + 2); /* 0, 65537 bad */
        argument_error = max == 0 || max > SPARSE_MAX_SLOTS;
        bitsift_sparse sp;
        uint32_t elements = 0;
        ok = bitsift_read_sparse_begin(r, &sp, encoding, present, max);
        while (ok && bitsift_read_sparse_next(r, &sp)) {
            CHECK(sp.index >= 0 && (uint64_t)sp.index < max && present[sp.index]);
            ok = bitsift_read_bool(r, &element[sp.index]);
            elements++;
        }
        ok = ok && bitsift_reader_ok(r);
        if (!ok) {
            if (argument_error) { /* the writer refuses the same arguments */
                bitsift_writer_init(&w, scratch, sizeof scratch);
                CHECK(!bitsift_write_sparse_begin(&w, &sp, encoding, present, max));
                CHECK(bitsift_writer_failure(&w)->kind == BITSIFT_E_ARGUMENT);
            }
            break;
        }
        uint32_t set = 0;
        for (uint32_t i = 0; i < max; i++)
            set += present[i];
        CHECK(set == elements);
        /* The writer writes no more than was read (the relative ladder's
         * shortest tier): beyond the scratch buffer, only the read counts
         * (inputs past max_len). */
        if (bitsift_reader_bit_pos(r) - from > (uint64_t)(SCRATCH_BYTES - 8) * 8)
            break;
        phase = writer_at_phase(&w, from);
        CHECK(bitsift_write_sparse_begin(&w, &sp, encoding, present, max));
        while (bitsift_write_sparse_next(&w, &sp))
            CHECK(bitsift_write_bool(&w, element[sp.index]));
        /* Into a byte string one bit too short, the writer fails and the
         * iteration ends. */
        uint64_t content = bitsift_writer_bit_pos(&w) - phase;
        bitsift_writer short_w;
        bitsift_sparse short_sp;
        static uint8_t short_buf[SCRATCH_BYTES];
        bitsift_writer_init(&short_w, short_buf, (size_t)((content - 1) / 8));
        if (bitsift_write_sparse_begin(&short_w, &short_sp, encoding, present, max))
            while (bitsift_write_sparse_next(&short_w, &short_sp))
                (void)bitsift_write_bool(&short_w, element[short_sp.index]);
        CHECK(!bitsift_writer_ok(&short_w));
        if (encoding != BITSIFT_SPARSE_RELATIVE) {
            check_same_bits(s->data, from, bitsift_reader_bit_pos(r), &w, phase);
            break;
        }
        /* The slot ladder is not canonical: read it back instead. */
        CHECK(bitsift_writer_ok(&w));
        bitsift_reader back;
        bitsift_reader_init(&back, scratch, bitsift_writer_bytes(&w));
        uint64_t skipped;
        CHECK(!phase || bitsift_read_bits(&back, phase, &skipped));
        uint32_t again = 0;
        CHECK(bitsift_read_sparse_begin(&back, &sp, encoding, present, max));
        while (bitsift_read_sparse_next(&back, &sp)) {
            bool e;
            CHECK(bitsift_read_bool(&back, &e) && e == element[sp.index]);
            again++;
        }
        CHECK(bitsift_reader_ok(&back) && again == elements);
        break;
    }
    case OP_SERIALIZE: {
        static struct part_snapshot snap;
        if ((ok = serialize_snapshot(r, BITSIFT_READ, &snap))) {
            phase = writer_at_phase(&w, from);
            CHECK(serialize_snapshot(&w, BITSIFT_WRITE, &snap));
            check_same_bits(s->data, from, bitsift_reader_bit_pos(r), &w, phase);
            bitsift_writer_init_measure(&w);
            CHECK(serialize_snapshot(&w, BITSIFT_MEASURE, &snap));
            CHECK(bitsift_writer_bit_pos(&w) == bitsift_reader_bit_pos(r) - from);
        } else {
            /* Named by its path: a player's part, a score, the array. */
            const char *field = bitsift_reader_failure(r)->field;
            CHECK(field != NULL);
            CHECK(strncmp(field, "players", 7) == 0 || strncmp(field, "scores[", 7) == 0);
            /* The writer refuses an out-of-range value by its path too. */
            snap.present[0] = true;
            snap.players[0].health = 201;
            bitsift_writer_init(&w, scratch, sizeof scratch);
            CHECK(!serialize_snapshot(&w, BITSIFT_WRITE, &snap));
            CHECK(strcmp(bitsift_writer_failure(&w)->field, "players[0].health") == 0);
        }
        break;
    }
    case OP_COMPRESSED_FLOAT_STEPS: {
        float min = fuzz_float(prog), max = fuzz_float(prog), v;
        uint32_t steps = (uint32_t)fuzz_le(prog, 4);
        unsigned bits = fuzz_u8(prog) % 34;
        argument_error = bits != bitsift_bits_required(0, steps) || !(min <= max);
        if ((ok = bitsift_read_compressed_float_steps(r, min, max, steps, bits, &v))) {
            CHECK(bitsift_reader_bit_pos(r) - from == bits);
            bitsift_writer_init(&w, scratch, sizeof scratch);
            CHECK(bitsift_write_compressed_float_steps(&w, min, max, steps, bits, v));
            bitsift_reader back;
            float again;
            bitsift_reader_init(&back, scratch, bitsift_writer_bytes(&w));
            CHECK(bitsift_read_compressed_float_steps(&back, min, max, steps, bits, &again));
            bitsift_writer_init(&w, scratch, sizeof scratch);
            CHECK(bitsift__write_compressed_float_steps_exact(&w, min, max, steps, bits, v));
            bitsift_reader_init(&back, scratch, bitsift_writer_bytes(&w));
            CHECK(bitsift_read_compressed_float_steps(&back, min, max, steps, bits, &again) &&
                  same_float(again, v));
        }
        break;
    }
    }

    CHECK(bitsift_reader_bit_pos(r) <= (uint64_t)s->size * 8);
    if (ok) {
        CHECK(bitsift_reader_ok(r));
        /* A path part on a reader that has not failed does nothing. */
        CHECK(!bitsift_reader_fail_in(r, "unused", 1) && bitsift_reader_ok(r));
        return true;
    }

    /* The failure is recorded, named and formattable, and sticky. */
    const bitsift_failure *f = bitsift_reader_failure(r);
    CHECK(!bitsift_reader_ok(r));
    CHECK(f->kind > BITSIFT_OK && f->kind < BITSIFT_ERROR_COUNT);
    if (argument_error)
        CHECK(f->kind == BITSIFT_E_ARGUMENT);
    /* Serialize code returning through up to 40 parts, some with an
     * index, some nameless: the path stays a string in its buffer. */
    static const char *const parts[] = {"players", "", "position", "b->x", NULL,
                                         "a_rather_long_member_name_to_fill_the_buffer"};
    unsigned depth = fuzz_u8(prog) % 41;
    for (unsigned i = 0; i < depth; i++) {
        unsigned pick = fuzz_u8(prog);
        int64_t index = pick & 1 ? (int64_t)fuzz_le(prog, 2) : -1;
        CHECK(!bitsift_reader_fail_in(r, parts[pick / 2 % 6], index));
        CHECK(f->field == NULL || strlen(f->field) < BITSIFT_FAILURE_PATH_MAX);
    }
    bitsift_writer_init(&w, scratch, 0);
    CHECK(!bitsift_writer_fail_in(&w, "x", 3) && bitsift_writer_ok(&w));
    CHECK(!bitsift_write_bits(&w, 8, 1));
    for (unsigned i = 0; i < depth; i++)
        CHECK(!bitsift_writer_fail_in(&w, parts[i % 6], (int64_t)i - 1));
    const bitsift_failure *wf = bitsift_writer_failure(&w);
    CHECK(wf->field == NULL || strlen(wf->field) < BITSIFT_FAILURE_PATH_MAX);
    /* A value serialize code refuses itself (an enum value without a
     * name), named by the last member of its expression. */
    bitsift_reader refused;
    bitsift_reader_init(&refused, s->data, s->size);
    CHECK(!bitsift_serialize_refuse(&refused, BITSIFT_READ, "(*e).kind", 0, "no name", 3, 9));
    CHECK(!bitsift_reader_fail_in(&refused, "entities", 2));
    CHECK(strcmp(bitsift_reader_failure(&refused)->field, "entities[2].kind") == 0);
    bitsift_writer_init(&w, scratch, sizeof scratch);
    CHECK(!bitsift_serialize_refuse(&w, BITSIFT_WRITE, "&s->a b", 0, "no name", 3, 9));
    CHECK(!bitsift_writer_fail_in(&w, NULL, 4) && !bitsift_writer_fail_in(&w, "x", -1));
    CHECK(strcmp(bitsift_writer_failure(&w)->field, "x[4].b") == 0);
    char message[256];
    CHECK(bitsift_failure_format(f, message, sizeof message) > 0);
    CHECK(bitsift_error_name(f->kind) != NULL && bitsift_error_string(f->kind) != NULL);
    uint64_t at = bitsift_reader_bit_pos(r);
    bool b;
    uint64_t v;
    CHECK(!bitsift_read_bool(r, &b));
    CHECK(!bitsift_read_bits(r, 64, &v));
    CHECK(!bitsift_read_align(r));
    CHECK(bitsift_reader_bit_pos(r) == at && bitsift_reader_bits_left(r) == 0);
    return false;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    size_t program_size = data[0];
    if (program_size > size - 1)
        program_size = size - 1;

    struct run_state s = {0};
    s.data = data + 1 + program_size;
    s.size = size - 1 - program_size;
    bitsift_reader_init(&s.r, s.data, s.size);
    bitsift_framing_init(&s.framing, 0);

    unsigned ops = 0;
    for (int pass = 0; pass < PROGRAM_PASSES && program_size > 0; pass++) {
        fuzz_input prog;
        fuzz_input_init(&prog, data + 1, program_size);
        while (fuzz_input_left(&prog) > 0 && ops++ < MAX_OPS)
            if (!run_op(&s, &prog))
                return 0;
    }
    return 0;
}
