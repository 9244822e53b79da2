/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * plant_test.c -- the planted disagreement itself (lib/schema_internal.h),
 * on a copy of the library built with -DBITSIFT_PLANT_DISAGREEMENT: with
 * BITSIFT_PLANTED_PATH naming one of the four decoding paths (visitor,
 * tree, program, interpreter), that path and no other reports one bit
 * more for a valid packet of 1 mod 3 bits, and nothing changes for the
 * other packets; with no path, or a name that is none of them, no path
 * does. fuzz/tests/planted-disagreement.test relies on it to show that the
 * differential harnesses catch a disagreement; this checks the plant
 * without a fuzzer. Each setting runs in a child process, as the library
 * reads the variable once. TAP output.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bitsift_testing.h"

/* Three packet types a byte apart: their bit counts (whole bytes) cover
 * every remainder mod 3. */
static const char schema_text[] = "protocol plant { id 7; }\n"
                                  "packet one { bits(8) x; }\n"
                                  "packet two { bits(16) x; }\n"
                                  "packet three { bits(24) x; }\n";

static const char *const paths[] = {"visitor", "tree", "program", "interpreter"};
enum { PATHS = sizeof paths / sizeof paths[0] };

static bool visit_field(void *ctx, const bitsift_event *ev)
{
    (void)ctx;
    (void)ev;
    return true;
}

/* The bits each path reports for one packet, in the order of `paths`;
 * false when a path refuses it. */
static bool bits_by_path(const bitsift_schema *s, const uint8_t *packet, size_t size,
                         uint64_t bits[PATHS])
{
    bitsift_result res;
    bitsift_visitor v = {visit_field, NULL, NULL, NULL};
    if (bitsift_decode(s, packet, size, 0, &v, &res) != BITSIFT_OK)
        return false;
    bits[0] = res.bits;
    bitsift_tree *t = bitsift_tree_create(s);
    bool ok = t && bitsift_decode_tree(s, packet, size, 0, t, &res) == BITSIFT_OK;
    bitsift_tree_free(t);
    if (!ok)
        return false;
    bits[1] = res.bits;
    if (bitsift__validate_program(s, packet, size, 0, &res) != 1)
        return false;
    bits[2] = res.bits;
    if (bitsift__decode_interpreted(s, packet, size, 0, &res) != BITSIFT_OK)
        return false;
    bits[3] = res.bits;
    return true;
}

/* In a child with BITSIFT_PLANTED_PATH set to `setting` (NULL: unset):
 * exit status 0 when exactly path `planted` (-1: none) adds its bit. */
static int check_setting(const char *setting, int planted)
{
    if (setting)
        setenv("BITSIFT_PLANTED_PATH", setting, 1);
    else
        unsetenv("BITSIFT_PLANTED_PATH");
    bitsift_schema_error err;
    bitsift_schema *s = bitsift_schema_compile(schema_text, strlen(schema_text), "plant", &err);
    if (!s) {
        printf("# schema: %s\n", err.message);
        return 1;
    }
    bitsift_tree *t = bitsift_tree_create(s);
    int status = 0, seen_one_mod_three = 0;
    for (unsigned type = 0; type < bitsift_schema_packet_count(s) && t; type++) {
        uint8_t packet[64];
        size_t size = 0;
        bitsift_result res;
        uint64_t bits[PATHS];
        if (bitsift_tree_random(t, type, 1, 100) != BITSIFT_OK ||
            bitsift_encode(s, t, packet, sizeof packet, &size, &res) != BITSIFT_OK ||
            !bits_by_path(s, packet, size, bits)) {
            printf("# type %u: no valid packet\n", type);
            status = 1;
            continue;
        }
        /* The true count is what a path not planted says; with one path
         * planted, at least two others agree on it. */
        uint64_t truth = bits[0] == bits[1] || bits[0] == bits[2] ? bits[0] : bits[3];
        seen_one_mod_three += truth % 3 == 1;
        for (int p = 0; p < PATHS; p++) {
            uint64_t want = truth + (p == planted && truth % 3 == 1);
            if (bits[p] != want) {
                printf("# %s planted, type %u (%llu bits): %s says %llu\n",
                       setting ? setting : "nothing", type, (unsigned long long)truth, paths[p],
                       (unsigned long long)bits[p]);
                status = 1;
            }
        }
    }
    if (seen_one_mod_three != 1) {
        printf("# %d packets of 1 mod 3 bits, not 1\n", seen_one_mod_three);
        status = 1;
    }
    bitsift_tree_free(t);
    bitsift_schema_free(s);
    return status;
}

int main(void)
{
    struct {
        const char *setting;
        int planted;
    } cases[PATHS + 3] = {{NULL, -1}, {"", -1}, {"nowhere", -1}};
    for (int p = 0; p < PATHS; p++) {
        cases[3 + p].setting = paths[p];
        cases[3 + p].planted = p;
    }
    int n = sizeof cases / sizeof cases[0], failed = 0;
    printf("1..%d\n", n);
    for (int i = 0; i < n; i++) {
        fflush(stdout);
        pid_t pid = fork();
        if (pid == 0) {
            int status = check_setting(cases[i].setting, cases[i].planted);
            fflush(stdout);
            _exit(status);
        }
        int wstatus = 0;
        bool ok = pid > 0 && waitpid(pid, &wstatus, 0) == pid && WIFEXITED(wstatus) &&
                  WEXITSTATUS(wstatus) == 0;
        failed += !ok;
        printf("%s %d - BITSIFT_PLANTED_PATH %s%s%s: %s\n", ok ? "ok" : "not ok", i + 1,
               cases[i].setting ? "\"" : "unset", cases[i].setting ? cases[i].setting : "",
               cases[i].setting ? "\"" : "",
               cases[i].planted < 0 ? "no path adds a bit"
                                    : "that path alone adds a bit to 1 mod 3 bits");
    }
    return failed ? 1 : 0;
}
