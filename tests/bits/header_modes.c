/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * header_modes.c -- every serialize macro of <bitsift/bits.h>, the
 * article's short names included, in one file that tests/bits/header-modes.sh
 * compiles as C99 and as C++17 with gcc, clang, g++ and clang++ under
 * -Wall -Wextra -pedantic -Werror: hand-written and generated serialize
 * code includes this header and must build warning-free in both
 * languages. Only compiled; test_serialize_parts.c checks what it does.
 */
#define BITSIFT_SHORT_NAMES
#include <bitsift/bits.h>

struct item {
    int64_t v;
    bool b;
};

struct everything {
    uint64_t bits;
    bool flag;
    uint8_t u8;
    uint16_t u16, seq, ack;
    uint32_t u32;
    uint64_t u64;
    int64_t i;
    float f, cf;
    double d;
    int32_t rel, obj;
    char text[16];
    uint8_t raw[4];
    bitsift_smallest_three q;
    float pos[3];
    float path[2][3];
    int64_t iv[2];
    bool present[8];
    struct item items[8];
    int64_t scores[4];
};

static bool serialize_item(void *stream, const int mode, struct item *it)
{
    bitsift_serialize_named(stream, mode, "v", int, it->v, (0, 100));
    bitsift_serialize_named(stream, mode, "b", bool, it->b, ());
    return true;
}

static bool serialize_everything(void *stream, const int mode, struct everything *e)
{
    bitsift_serialize_bits(stream, mode, e->bits, 5);
    bitsift_serialize_bool(stream, mode, e->flag);
    bitsift_serialize_uint8(stream, mode, e->u8);
    bitsift_serialize_uint16(stream, mode, e->u16);
    bitsift_serialize_uint32(stream, mode, e->u32);
    bitsift_serialize_uint64(stream, mode, e->u64);
    bitsift_serialize_int(stream, mode, e->i, -7, 7);
    bitsift_serialize_float(stream, mode, e->f);
    bitsift_serialize_double(stream, mode, e->d);
    bitsift_serialize_compressed_float(stream, mode, e->cf, -1.0f, 1.0f, 0.01f);
    bitsift_serialize_int_relative(stream, mode, 5, e->rel);
    bitsift_serialize_object_index(stream, mode, -1, e->obj, 100);
    bitsift_serialize_sequence_relative(stream, mode, 10, e->seq);
    bitsift_serialize_ack_relative(stream, mode, e->seq, e->ack);
    bitsift_serialize_align(stream, mode);
    bitsift_serialize_check(stream, mode, BITSIFT_CHECK_CLASSIC);
    bitsift_serialize_string(stream, mode, e->text, sizeof e->text);
    bitsift_serialize_bytes(stream, mode, e->raw, sizeof e->raw);
    bitsift_serialize_smallest_three(stream, mode, e->q, 9);
    bitsift_serialize_named(stream, mode, "u8", uint8, e->u8, ());
    bitsift_serialize_named(stream, mode, "text", string, e->text, (sizeof e->text));
    bitsift_serialize_vector(stream, mode, "pos", 3, e->pos, compressed_float,
                             (-10.0f, 10.0f, 0.01f));
    bitsift_serialize_vector(stream, mode, "iv", 2, e->iv, int, (-5, 5));
    for (int k = 0; k < 4; k++)
        bitsift_serialize_element(stream, mode, "scores", k, e->scores[k], int, (0, 9));
    for (int k = 0; k < 2; k++)
        bitsift_serialize_vector_element(stream, mode, "path", k, 3, e->path[k], float, ());
    bitsift_sparse it;
    bitsift_serialize_sparse_begin(stream, mode, it, "items", BITSIFT_SPARSE_RELATIVE, e->present,
                                   8);
    while (bitsift_serialize_sparse_next(stream, mode, it))
        bitsift_serialize_in(stream, mode, "items", it.index,
                             serialize_item(stream, mode, &e->items[it.index]));
    bitsift_serialize_sparse_end(stream, mode, it, "items");
    bitsift_serialize_object(stream, mode, serialize_item, &e->items[0]);
    return true;
}
BITSIFT_SERIALIZE_FUNCTIONS(everything, struct everything, serialize_everything)

/* The article's spelling. */
static bool serialize_short(void *stream, const int mode, struct everything *e)
{
    serialize_bits(stream, e->bits, 5);
    serialize_bool(stream, e->flag);
    serialize_int(stream, e->i, -7, 7);
    serialize_uint8(stream, e->u8);
    serialize_uint16(stream, e->u16);
    serialize_uint32(stream, e->u32);
    serialize_uint64(stream, e->u64);
    serialize_float(stream, e->f);
    serialize_double(stream, e->d);
    serialize_compressed_float(stream, e->cf, -1.0f, 1.0f, 0.01f);
    serialize_int_relative(stream, 5, e->rel);
    serialize_object_index(stream, -1, e->obj, 100);
    serialize_sequence_relative(stream, 10, e->seq);
    serialize_ack_relative(stream, e->seq, e->ack);
    serialize_align(stream);
    serialize_check(stream, BITSIFT_CHECK_CLASSIC);
    serialize_string(stream, e->text, sizeof e->text);
    serialize_bytes(stream, e->raw, sizeof e->raw);
    serialize_object(stream, serialize_item, &e->items[0]);
    return true;
}
BITSIFT_SERIALIZE_FUNCTIONS(short_names, struct everything, serialize_short)

/* Referenced so that no static function is unused. */
bool header_modes_round_trip(void *buf, size_t size);
bool header_modes_round_trip(void *buf, size_t size)
{
    struct everything e;
    bitsift_writer w;
    bitsift_reader r;
    memset(&e, 0, sizeof e);
    bitsift_writer_init(&w, buf, size);
    bitsift_reader_init(&r, buf, size);
    return everything_write(&w, &e) && everything_read(&r, &e) && everything_measure(&e) > 0 &&
           short_names_write(&w, &e) && short_names_read(&r, &e) && short_names_measure(&e) > 0;
}
