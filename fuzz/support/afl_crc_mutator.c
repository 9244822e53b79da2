/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * afl_crc_mutator.c -- AFL++ custom mutator library that re-seals the
 * CRC32 of every test case after AFL++'s own mutations
 * (afl_custom_post_process), so that mutated packets pass the CRC check
 * of the release harness and the fuzzer explores the payload.
 *
 * fuzz/scripts/afl.sh builds one per CRC-framed harness, from this file
 * plus the harness's fuzz_reseal(), and runs afl-fuzz with
 * AFL_CUSTOM_MUTATOR_LIBRARY=<it> (AFL++'s mutators stay on: this only
 * post-processes).
 *
 * AFL++ may call post_process with the very buffer it returned last time
 * (e.g. when a stage re-runs the last case), so the result is built in
 * this library's own buffer and a buffer that already is ours is sealed
 * in place, never copied onto itself or freed under the caller.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "reseal.h"

struct crc_mutator {
    uint8_t *buf;
    size_t capacity;
};

void *afl_custom_init(void *afl, unsigned int seed);
size_t afl_custom_post_process(void *data, uint8_t *buf, size_t buf_size, uint8_t **out_buf);
void afl_custom_deinit(void *data);

void *afl_custom_init(void *afl, unsigned int seed)
{
    (void)afl;
    (void)seed;
    return calloc(1, sizeof(struct crc_mutator));
}

size_t afl_custom_post_process(void *data, uint8_t *buf, size_t buf_size, uint8_t **out_buf)
{
    struct crc_mutator *m = data;
    if (buf == m->buf && buf_size > m->capacity) {
        *out_buf = buf; /* cannot be ours at that size: leave it alone */
        return buf_size;
    }
    if (buf != m->buf) {
        if (buf_size > m->capacity) {
            size_t capacity = buf_size < 4096 ? 4096 : buf_size;
            uint8_t *grown = realloc(m->buf, capacity);
            if (!grown) {
                *out_buf = buf; /* out of memory: pass the case unsealed */
                return buf_size;
            }
            m->buf = grown;
            m->capacity = capacity;
        }
        if (buf_size)
            memcpy(m->buf, buf, buf_size);
    }
    fuzz_reseal(m->buf, buf_size, fuzz_reseal_hint(m->buf, buf_size));
    *out_buf = m->buf;
    return buf_size;
}

void afl_custom_deinit(void *data)
{
    struct crc_mutator *m = data;
    if (m)
        free(m->buf);
    free(m);
}
