/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fuzz_encode.c -- libFuzzer target: NDJSON records, the untrusted input of
 * `bitsift encode`, through libbitsift-tools' record reader
 * (<bitsift/records.h>), as the command reads them: the line reader and
 * its 64 MiB limit, the number protection, jansson within its memory
 * budget, the value tree and the encoder; and for -w, the record's
 * addresses (src/io/encap.c), RFC 3339 time (the reader's
 * bitsift_record_parse_time) and UDP framing (src/io/encap.c), as the
 * command's pcap writer takes them (its capture file itself is the
 * golden tests' and tests/cli/encode-safety.sh's).
 *
 * Input: one byte of options, then the records.
 *   bit 0   frame every packet for a pcap (as -w -)
 *   bit 1   give --src/--dst (addresses in records are then ignored)
 * The schemas are the bundled examples (packet_schemas.h); records name
 * theirs by "protocol" (shooter, article, scenes, robocat).
 *
 * Checked: no crash, hang or sanitizer report; every refusal carries a
 * non-empty message about a line of the input, one at most a line, in
 * order, and a record read carries none; messages stay here, nothing is
 * printed (a fuzzer's log holds only its own lines); every packet encoded
 * decodes as valid with its schema (the encoder never writes what its
 * reader refuses); a frame holds its packet and at most the largest
 * headers; and, in sanitizer builds (which report every allocation),
 * memory stays within 32 MiB plus 128 times the input's size during an
 * input: bounded per record, never superlinear. Time is bounded by
 * libFuzzer's -timeout (fuzz-smoke: 10 s).
 */
#define _GNU_SOURCE /* fmemopen */
#define BITSIFT_EXPERIMENTAL
#include <bitsift/records.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/capture.h"
#include "io/encap.h"
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

#define PACKET_CAPACITY (4u << 20) /* as the command's */

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

/* Kept from one input to the next, as the command keeps them over its
 * inputs: a fuzzer runs thousands of inputs a second. */
static bitsift_record_reader *reader;
static uint8_t *packet, *frame;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    fuzz_schemas_init(argc, argv);
    reader = bitsift_record_reader_create(fuzz_schema_list(), fuzz_schema_count());
    packet = malloc(PACKET_CAPACITY);
    frame = malloc(ENCAP_MAX_HEADERS + ENCAP_MAX_PAYLOAD);
    CHECK(reader && packet && frame);
    if (__sanitizer_install_malloc_and_free_hooks && __sanitizer_get_allocated_size)
        __sanitizer_install_malloc_and_free_hooks(on_malloc, on_free);
    return 0;
}

/* What one input's run read and said, checked as it comes. */
struct run {
    uint64_t lines;     /* lines of the records: no message names a later one */
    uint64_t last_line; /* the line of the last message */
    int64_t sec;        /* the last packet's time (-w) */
    uint32_t nsec;
};

/* A refusal: it says something, about a line of the input, one at most a
 * line, in the records' order. */
static void check_message(struct run *run, uint64_t line, const char *message)
{
    CHECK(message[0] != '\0');
    CHECK(line >= 1 && line <= run->lines);
    CHECK(line > run->last_line);
    run->last_line = line;
}

static void check_packet(const bitsift_schema *schema, const uint8_t *data, size_t size)
{
    bitsift_result res;
    bitsift_decode(schema, data, size, 0, NULL, &res);
    if (res.status != BITSIFT_OK) {
        char reason[BITSIFT_PATH_MAX + 256];
        bitsift_failure_format(&res.failure, reason, sizeof reason);
        fprintf(stderr, "fuzz_encode: %s wrote a packet it cannot read: %s\n",
                bitsift_schema_name(schema), reason);
    }
    CHECK(res.status == BITSIFT_OK);
}

/* -w: the record's addresses and time, and the frame, as the command's
 * pcap writer takes them (src/cmd_encode.c, write_packet). Returns 0, or
 * -1 for a record the command refuses there. */
static int frame_packet(struct run *run, const bitsift_record *rec, unsigned options, size_t size)
{
    struct decap_address src, dst;
    CHECK(encap_parse_address(options & 2 ? "192.0.2.1:1" : "10.0.0.1:40000", &src) == 0);
    CHECK(encap_parse_address(options & 2 ? "[2001:db8::1]:2" : "10.0.0.2:27015", &dst) == 0);
    if (rec->src && !(options & 2) && encap_parse_address(rec->src, &src) != 0)
        return -1;
    if (rec->dst && !(options & 2) && encap_parse_address(rec->dst, &dst) != 0)
        return -1;
    int64_t sec = run->sec;
    uint32_t nsec = run->nsec + 1000000; /* no time: 1 ms after the last */
    if (nsec >= 1000000000u) {
        sec++;
        nsec -= 1000000000u;
    }
    if (rec->time && bitsift_record_parse_time(rec->time, &sec, &nsec) != 0)
        return -1;
    CHECK(nsec < 1000000000u);
    if (sec < CAPTURE_WRITER_FIRST_SECOND || sec > CAPTURE_WRITER_LAST_SECOND)
        return -1;
    run->sec = sec;
    run->nsec = nsec;
    size_t n = encap_udp_frame(frame, &src, &dst, 0, packet, size);
    if (n == 0) {
        CHECK(src.family != dst.family || size > ENCAP_MAX_PAYLOAD);
        return -1;
    }
    CHECK(n > size && n <= size + ENCAP_MAX_HEADERS);
    CHECK(memcmp(frame + n - size, packet, size) == 0);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!reader)
        LLVMFuzzerInitialize(NULL, NULL);
    if (size < 2)
        return 0;
    unsigned options = data[0];
    struct run run = {.lines = 1};
    for (const uint8_t *p = data + 1, *end = data + size;
         (p = memchr(p, '\n', (size_t)(end - p))) != NULL; p++)
        run.lines++;
    /* fmemopen does not write through a read-only mode: the cast is safe. */
    FILE *records = fmemopen((void *)(data + 1), size - 1, "r");
    CHECK(records);
    memory.in_use = memory.peak = 0;
    memory.on = 1;
    bitsift_record_reader_start(reader, records, NULL, NULL);
    bitsift_record rec;
    bitsift_record_error err;
    bitsift_record_status status;
    while ((status = bitsift_record_next(reader, &rec, &err)) != BITSIFT_RECORD_END) {
        CHECK(status != BITSIFT_RECORD_STOPPED && status != BITSIFT_RECORD_READ_ERROR);
        CHECK(err.line >= 1 && err.line <= run.lines);
        if (status == BITSIFT_RECORD_SKIPPED || status == BITSIFT_RECORD_SUMMARY)
            continue;
        if (status != BITSIFT_RECORD_OK) {
            CHECK(status == BITSIFT_RECORD_TOO_LONG || status == BITSIFT_RECORD_MALFORMED ||
                  status == BITSIFT_RECORD_REFUSED);
            check_message(&run, err.line, err.message);
            continue;
        }
        CHECK(err.message[0] == '\0' && rec.line == err.line);
        CHECK(rec.schema < fuzz_schema_count() && rec.tree != NULL);
        size_t packet_size = 0;
        if (bitsift_record_encode(reader, &rec, packet, PACKET_CAPACITY, &packet_size, &err) !=
            BITSIFT_RECORD_OK) {
            CHECK(err.line == rec.line);
            check_message(&run, err.line, err.message);
            continue;
        }
        check_packet(fuzz_schema(rec.schema), packet, packet_size);
        if ((options & 1) && frame_packet(&run, &rec, options, packet_size) != 0)
            check_message(&run, rec.line, "refused for a pcap");
    }
    memory.on = 0;
    if (memory.peak > (32u << 20) + 128 * size)
        fprintf(stderr, "fuzz_encode: %zu bytes of input took %zu bytes of memory\n", size,
                memory.peak);
    CHECK(memory.peak <= (32u << 20) + 128 * size);
    fclose(records);
    return 0;
}
