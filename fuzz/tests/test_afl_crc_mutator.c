/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_afl_crc_mutator.c -- unit test (TAP) of the AFL++ post-processor in
 * afl_crc_mutator.c, with the planted target's framing (fuzz_planted.c
 * supplies fuzz_reseal): it re-seals the CRC, returns its own buffer, and
 * copes with AFL++ handing that same buffer back, and with growth.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bitsift.h"

void *afl_custom_init(void *afl, unsigned int seed);
size_t afl_custom_post_process(void *data, uint8_t *buf, size_t buf_size, uint8_t **out_buf);
void afl_custom_deinit(void *data);

static int test_number, failures;

static void ok(int cond, const char *what)
{
    printf("%sok %d - %s\n", cond ? "" : "not ", ++test_number, what);
    if (!cond)
        failures++;
}

/* Does the packet pass the planted protocol's CRC check? */
static int crc_valid(const uint8_t *p, size_t n)
{
    bitsift_framing f;
    bitsift_reader r;
    uint32_t type;
    bitsift_framing_init(&f, 0x504c4e54u);
    f.end_check = false;
    bitsift_reader_init(&r, p, n);
    return bitsift_packet_read_begin(&r, &f, &type);
}

int main(void)
{
    printf("1..9\n");
    void *m = afl_custom_init(NULL, 1);
    ok(m != NULL, "init returns a state");

    uint8_t packet[16] = {0xde, 0xad, 0xbe, 0xef, 1, 2, 3, 4, 5, 6, 7, 8};
    uint8_t *out = NULL;
    size_t n = afl_custom_post_process(m, packet, 12, &out);
    ok(n == 12 && out != NULL && out != packet, "result is the same size, in the library's buffer");
    ok(crc_valid(out, n) && !crc_valid(packet, 12), "the CRC is re-sealed, the input left alone");
    ok(memcmp(out + 4, packet + 4, 8) == 0, "the payload is unchanged");

    /* AFL++ hands the returned buffer back, possibly modified. */
    out[6] ^= 0x55;
    uint8_t *again = NULL;
    n = afl_custom_post_process(m, out, 12, &again);
    ok(again == out && n == 12 && crc_valid(again, n) && again[6] == (3 ^ 0x55),
       "its own buffer handed back is re-sealed in place");

    /* A larger case makes it grow; the old contents do not matter. */
    size_t big_size = 100000;
    uint8_t *big = calloc(big_size, 1);
    uint8_t *big_out = NULL;
    n = afl_custom_post_process(m, big, big_size, &big_out);
    ok(n == big_size && big_out != big && crc_valid(big_out, n), "a larger case grows the buffer");
    free(big);

    /* Too short for a CRC field: passed through untouched. */
    uint8_t tiny[2] = {9, 9};
    uint8_t *tiny_out = NULL;
    n = afl_custom_post_process(m, tiny, 2, &tiny_out);
    ok(n == 2 && tiny_out[0] == 9 && tiny_out[1] == 9, "a 2-byte case is left as it is");
    n = afl_custom_post_process(m, tiny, 0, &tiny_out);
    ok(n == 0, "an empty case stays empty");

    afl_custom_deinit(m);
    afl_custom_deinit(NULL);
    ok(1, "deinit frees the state (and accepts NULL)");
    return failures ? 1 : 0;
}
