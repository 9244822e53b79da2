/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fuzz_afl.c -- the AFL++ custom mutator of libbitsift-fuzz, installed as
 * $(pkglibdir)/bitsift-afl-mutator.so and configured from the environment
 * (libbitsift-fuzz(3)):
 *
 *   BITSIFT_FUZZ_SCHEMA=game.bss          schema-aware mutations + re-seal
 *   BITSIFT_FUZZ_PROTOCOL=0x1234abcd      re-seal only (BITSIFT_FUZZ_PREFIX,
 *                                         BITSIFT_FUZZ_CRC as for libFuzzer)
 *   AFL_CUSTOM_MUTATOR_LIBRARY=.../bitsift-afl-mutator.so afl-fuzz ...
 *
 * afl_custom_fuzz adds the kit's mutations to AFL++'s own (keep
 * AFL_CUSTOM_MUTATOR_ONLY unset); afl_custom_post_process re-seals every
 * case AFL++ runs, its own mutants included.
 *
 * AFL++ may hand post_process the very buffer it returned last time, so
 * results live in buffers of this library and a buffer that already is
 * ours is sealed in place, never copied onto itself or freed under the
 * caller.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bitsift/fuzz.h"

struct afl_state {
    bitsift_fuzz *fz;
    unsigned seed;
    uint8_t *fuzz_buf, *post_buf;
    size_t fuzz_capacity, post_capacity;
};

void *afl_custom_init(void *afl, unsigned int seed);
size_t afl_custom_fuzz(void *data, uint8_t *buf, size_t buf_size, uint8_t **out_buf,
                       uint8_t *add_buf, size_t add_buf_size, size_t max_size);
size_t afl_custom_post_process(void *data, uint8_t *buf, size_t buf_size, uint8_t **out_buf);
void afl_custom_deinit(void *data);

void *afl_custom_init(void *afl, unsigned int seed)
{
    (void)afl;
    bitsift_fuzz *fz = bitsift_fuzz_from_env(NULL);
    if (!fz) {
        fprintf(stderr, "bitsift-afl-mutator: set BITSIFT_FUZZ_SCHEMA=FILE or "
                        "BITSIFT_FUZZ_PROTOCOL=ID (libbitsift-fuzz(3))\n");
        return NULL;
    }
    struct afl_state *st = calloc(1, sizeof *st);
    if (!st) {
        bitsift_fuzz_free(fz);
        return NULL;
    }
    st->fz = fz;
    st->seed = seed;
    return st;
}

/* Make *buf hold at least `size` bytes (keeping nothing). */
static bool reserve(uint8_t **buf, size_t *capacity, size_t size)
{
    if (size <= *capacity)
        return true;
    size_t grown_capacity = size < 4096 ? 4096 : size;
    uint8_t *grown = realloc(*buf, grown_capacity);
    if (!grown)
        return false;
    *buf = grown;
    *capacity = grown_capacity;
    return true;
}

size_t afl_custom_fuzz(void *data, uint8_t *buf, size_t buf_size, uint8_t **out_buf,
                       uint8_t *add_buf, size_t add_buf_size, size_t max_size)
{
    struct afl_state *st = data;
    st->seed = st->seed * 1103515245u + 12345u;
    if (max_size == 0 || !reserve(&st->fuzz_buf, &st->fuzz_capacity, max_size)) {
        *out_buf = buf;
        return buf_size;
    }
    size_t size = buf_size < max_size ? buf_size : max_size;
    if (add_buf && add_buf_size && st->seed % 8 == 0) {
        size = bitsift_fuzz_crossover(st->fz, buf, buf_size, add_buf, add_buf_size,
                                      st->fuzz_buf, max_size, st->seed >> 3);
    } else {
        if (size)
            memcpy(st->fuzz_buf, buf, size);
        size = bitsift_fuzz_mutate(st->fz, st->fuzz_buf, size, max_size, st->seed, NULL);
    }
    *out_buf = st->fuzz_buf;
    return size;
}

size_t afl_custom_post_process(void *data, uint8_t *buf, size_t buf_size, uint8_t **out_buf)
{
    struct afl_state *st = data;
    if (buf == st->post_buf && buf_size > st->post_capacity) {
        *out_buf = buf; /* cannot be ours at that size: leave it alone */
        return buf_size;
    }
    if (buf != st->post_buf) {
        if (!reserve(&st->post_buf, &st->post_capacity, buf_size ? buf_size : 1)) {
            *out_buf = buf; /* out of memory: pass the case unsealed */
            return buf_size;
        }
        if (buf_size)
            memcpy(st->post_buf, buf, buf_size);
    }
    bitsift_fuzz_seal(st->fz, st->post_buf, buf_size);
    *out_buf = st->post_buf;
    return buf_size;
}

void afl_custom_deinit(void *data)
{
    struct afl_state *st = data;
    if (!st)
        return;
    bitsift_fuzz_free(st->fz);
    free(st->fuzz_buf);
    free(st->post_buf);
    free(st);
}
