/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * afl_driver.c -- runs an LLVMFuzzerTestOneInput harness under AFL++ in
 * persistent mode with shared-memory test cases: one process executes
 * up to PERSISTENT_RUNS inputs handed over in memory by afl-fuzz, which is
 * one to two orders of magnitude faster than a fork per input.
 *
 * Compiled by fuzz/scripts/afl.sh with afl-clang-fast (which defines the
 * __AFL_* macros), once plainly and once with AFL_LLVM_CMPLOG=1 for the cmplog
 * binary given to afl-fuzz -c. Outside afl-clang-fast it falls back to
 * reading one input from standard input or a file, so that a crash file
 * replays with the same binary: ./fuzz_reader.afl < crash.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((weak));

#define PERSISTENT_RUNS 10000
#define MAX_INPUT       (1u << 20)

#ifdef __AFL_FUZZ_TESTCASE_LEN
__AFL_FUZZ_INIT();
#endif

/* A fresh heap copy of exactly the input's size, so that ASan (when the
 * AFL build uses it) catches over-reads as libFuzzer would. */
static void run_one(const uint8_t *data, size_t size)
{
    uint8_t *copy = malloc(size ? size : 1);
    if (!copy)
        abort();
    if (size)
        memcpy(copy, data, size);
    LLVMFuzzerTestOneInput(copy, size);
    free(copy);
}

int main(int argc, char **argv)
{
    if (LLVMFuzzerInitialize)
        LLVMFuzzerInitialize(&argc, &argv);

#ifdef __AFL_FUZZ_TESTCASE_LEN
    __AFL_INIT();
    const unsigned char *buf = __AFL_FUZZ_TESTCASE_BUF;
    while (__AFL_LOOP(PERSISTENT_RUNS))
        run_one(buf, (size_t)__AFL_FUZZ_TESTCASE_LEN);
#else
    static uint8_t buf[MAX_INPUT];
    FILE *in = stdin;
    for (int i = 1; i < argc; i++)
        if (argv[i][0] != '-') {
            in = fopen(argv[i], "rb");
            if (!in) {
                perror(argv[i]);
                return 2;
            }
            break;
        }
    size_t size = fread(buf, 1, sizeof buf, in);
    run_one(buf, size);
#endif
    return 0;
}
