/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_headers.c -- the bit layer's header stands alone: this file
 * includes only <bitsift/bits.h>, is compiled as strict C99 with
 * -pedantic -Werror (tests/bits.mk), and writes and reads one packet with
 * it. Code that a program writes by hand or generates needs nothing else.
 */
#include <bitsift/bits.h>

int main(void)
{
    uint8_t buf[16];
    bitsift_writer w;
    bitsift_writer_init(&w, buf, sizeof buf);
    int ok = bitsift_write_int(&w, -5, 40, 17) && bitsift_write_bool(&w, true) &&
             bitsift_write_check(&w, BITSIFT_CHECK_CLASSIC);
    bitsift_reader r;
    bitsift_reader_init(&r, buf, bitsift_writer_bytes(&w));
    int64_t v = 0;
    bool b = false;
    ok = ok && bitsift_read_int(&r, -5, 40, &v) && v == 17 && bitsift_read_bool(&r, &b) && b &&
         bitsift_read_check(&r, BITSIFT_CHECK_CLASSIC);
    printf("1..1\n%s 1 - <bitsift/bits.h> alone writes and reads a packet\n", ok ? "ok" : "not ok");
    return ok ? 0 : 1;
}
