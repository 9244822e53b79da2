/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_frame_select.c -- the --frame list parser: ranges merged as they
 * come, bounded in number; every malformed list refused.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "io/frame_select.h"

static void frame_lists(void **state)
{
    (void)state;
    struct frame_select sel = {0};
    char error[256];
    assert_true(frame_select_has(&sel, 12345)); /* empty: all */
    assert_int_equal(frame_select_add(&sel, "5-9,2,100-", error, sizeof error), 0);
    assert_int_equal(frame_select_add(&sel, "7-12", error, sizeof error), 0);
    assert_false(frame_select_has(&sel, 1));
    assert_true(frame_select_has(&sel, 2));
    assert_false(frame_select_has(&sel, 3));
    assert_true(frame_select_has(&sel, 5));
    assert_true(frame_select_has(&sel, 12));
    assert_false(frame_select_has(&sel, 13));
    assert_true(frame_select_has(&sel, UINT64_MAX));
    assert_int_equal(sel.count, 3); /* 2, 5-12, 100- */
    assert_true(frame_select_last(&sel) == UINT64_MAX);
    frame_select_free(&sel);
    const char *bad[] = {"", "0", "1,", ",1", "3-2", "1-2-3", "x", "18446744073709551616",
                         "1 ", "-5", "1--"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        if (frame_select_add(&sel, bad[i], error, sizeof error) == 0)
            fail_msg("accepted --frame %s", bad[i]);
        frame_select_free(&sel);
    }
    /* Many ranges: bounded, merged as they come. */
    for (int i = 0; i < FRAME_SELECT_MAX_RANGES * 2; i++) {
        char one[32];
        snprintf(one, sizeof one, "%d", 1 + (i % 10));
        assert_int_equal(frame_select_add(&sel, one, error, sizeof error), 0);
    }
    assert_true(frame_select_has(&sel, 10) && !frame_select_has(&sel, 11));
    assert_int_equal(frame_select_last(&sel), 10);
    frame_select_free(&sel);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(frame_lists),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
