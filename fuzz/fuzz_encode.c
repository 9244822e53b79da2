/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fuzz_encode.c -- libFuzzer target: NDJSON records, the untrusted input of
 * `bitsift encode`, through the command's own record path (src/cmd_encode.c
 * encode_records_from): the line reader and its 64 MiB limit, the number
 * protection, jansson within its memory budget, the value tree, the
 * encoder, and for -w the addresses, RFC 3339 times and UDP framing.
 *
 * Input: one byte of options, then the records.
 *   bit 0   write a pcap (as -w -) instead of raw packets (as -o -)
 *   bit 1   give --src/--dst (addresses in records are then ignored)
 * The schemas are the bundled examples (packet_schemas.h); records name
 * theirs by "protocol" (shooter, article, scenes, robocat).
 *
 * Checked: no crash, hang or sanitizer report; the exit status is one of
 * 0, 1, 2; every packet encoded decodes as valid with its schema (the
 * encoder never writes what its reader refuses); and, in sanitizer builds
 * (which report every allocation), memory stays within 32 MiB plus 128
 * times the input's size during an input: bounded per record, never
 * superlinear. Time is bounded by libFuzzer's -timeout (fuzz-smoke: 10 s).
 */
#define _GNU_SOURCE /* fmemopen */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "encode.h"
#include "packet_schemas.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(cond)                                                                     \
    do {                                                                                \
        if (!(cond)) {                                                                  \
            fprintf(stderr, "fuzz_encode: %s:%d: check failed: %s\n", __FILE__, __LINE__, \
                    #cond);                                                             \
            abort();                                                                    \
        }                                                                               \
    } while (0)

/* Sanitizer allocation hooks (compiler-rt): present in ASan/MSan/LSan
 * builds, absent (NULL) otherwise. */
void __sanitizer_install_malloc_and_free_hooks(void (*malloc_hook)(const volatile void *, size_t),
                                               void (*free_hook)(const volatile void *))
    __attribute__((weak));
size_t __sanitizer_get_allocated_size(const volatile void *p) __attribute__((weak));

static struct {
    int on;
    size_t in_use, peak;
} memory;

static void on_malloc(const volatile void *p, size_t size)
{
    (void)p;
    if (!memory.on)
        return;
    memory.in_use += size;
    if (memory.in_use > memory.peak)
        memory.peak = memory.in_use;
}

static void on_free(const volatile void *p)
{
    if (!memory.on || !p || !__sanitizer_get_allocated_size)
        return;
    size_t size = __sanitizer_get_allocated_size(p);
    memory.in_use = size < memory.in_use ? memory.in_use - size : 0;
}

static struct cli fuzz_cli;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    fuzz_schemas_init(argc, argv);
    fuzz_cli.command = "encode";
    fuzz_cli.schema_count = fuzz_schema_count();
    CHECK(fuzz_cli.schema_count <= CLI_MAX_SCHEMAS);
    for (size_t i = 0; i < fuzz_cli.schema_count; i++)
        fuzz_cli.schemas[i] = (bitsift_schema *)fuzz_schema(i);
    if (__sanitizer_install_malloc_and_free_hooks && __sanitizer_get_allocated_size)
        __sanitizer_install_malloc_and_free_hooks(on_malloc, on_free);
    return 0;
}

static void check_packet(void *ctx, const bitsift_schema *schema, const uint8_t *packet,
                         size_t size)
{
    (void)ctx;
    bitsift_result res;
    bitsift_decode(schema, packet, size, 0, NULL, &res);
    if (res.status != BITSIFT_OK) {
        char reason[BITSIFT_PATH_MAX + 256];
        bitsift_failure_format(&res.failure, reason, sizeof reason);
        fprintf(stderr, "fuzz_encode: %s wrote a packet it cannot read: %s\n",
                bitsift_schema_name(schema), reason);
    }
    CHECK(res.status == BITSIFT_OK);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!fuzz_cli.schema_count)
        LLVMFuzzerInitialize(NULL, NULL);
    if (size < 2)
        return 0;
    unsigned options = data[0];
    /* fmemopen does not write through a read-only mode: the cast is safe. */
    FILE *records = fmemopen((void *)(data + 1), size - 1, "r");
    FILE *out = fopen("/dev/null", "wb");
    CHECK(records && out);
    fuzz_cli.src = options & 2 ? "192.0.2.1:1" : NULL;
    fuzz_cli.dst = options & 2 ? "[2001:db8::1]:2" : NULL;
    memory.in_use = memory.peak = 0;
    memory.on = 1;
    int status = encode_records_from(&fuzz_cli, records, out, options & 1, check_packet, NULL);
    memory.on = 0;
    CHECK(status == 0 || status == 1 || status == 2);
    if (memory.peak > (32u << 20) + 128 * size)
        fprintf(stderr, "fuzz_encode: %zu bytes of input took %zu bytes of memory\n", size,
                memory.peak);
    CHECK(memory.peak <= (32u << 20) + 128 * size);
    if (!(options & 1))
        fclose(out); /* the pcap writer closed it */
    fclose(records);
    return 0;
}
