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
 * 0, 1, 2, and not 0 exactly when the run gave a message; messages come to
 * the harness, not to stderr (a fuzzer's log holds only its own lines),
 * each non-empty and about a line of the input, one at most a record, in
 * order; every packet encoded decodes as valid with its schema (the
 * encoder never writes what its reader refuses); the output holds exactly
 * those packets (raw) or a pcap no larger than their frames; and, in
 * sanitizer builds
 * (which report every allocation), memory stays within 32 MiB plus 128
 * times the input's size during an input: bounded per record, never
 * superlinear. Time is bounded by libFuzzer's -timeout (fuzz-smoke: 10 s).
 */
#define _GNU_SOURCE /* fmemopen, fopencookie */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "encap.h"
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

/* What one input's run encoded, wrote and said, checked as it comes. */
struct run {
    uint64_t lines;     /* lines of the records: no message names a later one */
    uint64_t messages;  /* how many */
    uint64_t last_line; /* the line of the last message about a record */
    uint64_t packets, packet_bytes; /* the packets encoded */
    uint64_t written;   /* bytes written to the output */
};

static void check_packet(void *ctx, const bitsift_schema *schema, const uint8_t *packet,
                         size_t size)
{
    struct run *run = ctx;
    bitsift_result res;
    bitsift_decode(schema, packet, size, 0, NULL, &res);
    if (res.status != BITSIFT_OK) {
        char reason[BITSIFT_PATH_MAX + 256];
        bitsift_failure_format(&res.failure, reason, sizeof reason);
        fprintf(stderr, "fuzz_encode: %s wrote a packet it cannot read: %s\n",
                bitsift_schema_name(schema), reason);
    }
    CHECK(res.status == BITSIFT_OK);
    run->packets++;
    run->packet_bytes += size;
}

/* The messages stay here, silent (a campaign's refusals are the normal
 * case, and printing them costs a write(2) each): each says something
 * and names a line of the input; one message at most a record, in the
 * records' order. */
static void check_message(void *ctx, uint64_t line, const char *message)
{
    struct run *run = ctx;
    CHECK(message != NULL && message[0] != '\0');
    CHECK(line <= run->lines);
    CHECK(line == 0 || line > run->last_line);
    if (line)
        run->last_line = line;
    run->messages++;
}

/* The output: counted, not kept (no file, no system call). */
static ssize_t count_written(void *ctx, const char *buf, size_t size)
{
    (void)buf;
    ((struct run *)ctx)->written += size;
    return (ssize_t)size;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!fuzz_cli.schema_count)
        LLVMFuzzerInitialize(NULL, NULL);
    if (size < 2)
        return 0;
    unsigned options = data[0];
    struct run run = {.lines = 1};
    for (const uint8_t *p = data + 1, *end = data + size;
         (p = memchr(p, '\n', (size_t)(end - p))) != NULL; p++)
        run.lines++;
    /* fmemopen does not write through a read-only mode: the cast is safe.
     * The output is unbuffered: a stdio buffer would be a fresh 8 KiB
     * allocation every run. (An unbuffered input would be read a byte a
     * call.) */
    FILE *records = fmemopen((void *)(data + 1), size - 1, "r");
    FILE *out = fopencookie(&run, "w", (cookie_io_functions_t){.write = count_written});
    CHECK(records && out);
    CHECK(setvbuf(out, NULL, _IONBF, 0) == 0);
    fuzz_cli.src = options & 2 ? "192.0.2.1:1" : NULL;
    fuzz_cli.dst = options & 2 ? "[2001:db8::1]:2" : NULL;
    memory.in_use = memory.peak = 0;
    memory.on = 1;
    int status = encode_records_from(&fuzz_cli, records, out, options & 1, check_packet,
                                     check_message, &run);
    memory.on = 0;
    CHECK(status == 0 || status == 1 || status == 2);
    /* A run fails exactly when it says why. */
    CHECK((status == 0) == (run.messages == 0));
    if (memory.peak > (32u << 20) + 128 * size)
        fprintf(stderr, "fuzz_encode: %zu bytes of input took %zu bytes of memory\n", size,
                memory.peak);
    CHECK(memory.peak <= (32u << 20) + 128 * size);
    if (options & 1) {
        /* The pcap writer closed it: a file header, then at most a record
         * header and the largest frame for each packet encoded. */
        CHECK(run.written >= 24);
        CHECK(run.written <= 24 + run.packets * (16 + ENCAP_MAX_HEADERS) + run.packet_bytes);
    } else {
        /* Raw packets: exactly the bytes of those encoded, one after another. */
        CHECK(fflush(out) == 0);
        CHECK(run.written == run.packet_bytes);
        fclose(out);
    }
    fclose(records);
    return 0;
}
