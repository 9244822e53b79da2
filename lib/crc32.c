/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * crc32.c -- zlib's CRC32 (reflected polynomial 0xEDB88320, initial value
 * and final xor 0xFFFFFFFF), the checksum of framed packets.
 *
 * Which implementation configure picked, fastest first:
 *   ISA-L       crc32_gzip_refl folds 16..64 bytes per step with carry-less
 *               multiplication (PCLMULQDQ, or VPCLMULQDQ on AVX-512 CPUs),
 *               chosen at run time: about 7x zlib on 1200-byte packets;
 *   libdeflate  libdeflate_crc32, also PCLMULQDQ / ARMv8 accelerated: about
 *               3x zlib on 1200 bytes, the same as ISA-L on 64 bytes;
 *   slice-by-8  portable tables below, folding 8 bytes per step.
 * `make bench` measures the one in use against zlib's crc32().
 *
 * Inputs under SHORT_INPUT bytes always take the table: both libraries
 * have a fixed cost per call that an 8-byte input (the protocol id and
 * zeroed CRC field that packet.c hashes first) does not repay; ISA-L takes
 * about 22 ns for 8 bytes where the table takes 4.
 *
 * ISA-L's AVX-512 kernel returns with the upper halves of the vector
 * registers dirty (it ends without VZEROUPPER). On Intel cores the next
 * legacy-SSE instruction of the caller (any memset or struct copy GCC
 * emits) then pays a state transition: on a Xeon (model 167) each packet
 * paid it a few times and `bitsift validate` ran at half speed, 0.47 s
 * against 0.22 s of CPU on the 1 M-packet bench capture. So the call is
 * followed by a VZEROUPPER wherever the CPU has AVX.
 */
#include "config.h"

#include <pthread.h>

#include "bitsift.h"

#if defined(HAVE_ISAL)
#include <isa-l/crc.h>
#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define CRC_CLEAR_UPPER_STATE 1
#endif
#elif defined(HAVE_LIBDEFLATE)
#include <libdeflate.h>
#endif

enum { SHORT_INPUT = 16 };

static uint32_t crc_table[8][256];
static pthread_once_t crc_table_once = PTHREAD_ONCE_INIT;

/* crc_table[0] is the classic byte table; crc_table[k][b] is the CRC of
 * byte b followed by k zero bytes, which is what slice-by-8 needs. */
static void crc_table_build(void)
{
    for (uint32_t b = 0; b < 256; b++) {
        uint32_t c = b;
        for (int k = 0; k < 8; k++)
            c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1u)));
        crc_table[0][b] = c;
    }
    for (uint32_t b = 0; b < 256; b++)
        for (int k = 1; k < 8; k++)
            crc_table[k][b] = (crc_table[k - 1][b] >> 8) ^ crc_table[0][crc_table[k - 1][b] & 0xff];
}

static uint32_t crc32_slice8(uint32_t crc, const uint8_t *p, size_t n)
{
    pthread_once(&crc_table_once, crc_table_build);
    crc = ~crc;
    while (n >= 8) {
        uint32_t lo =
            (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
        uint32_t hi =
            (uint32_t)p[4] | (uint32_t)p[5] << 8 | (uint32_t)p[6] << 16 | (uint32_t)p[7] << 24;
        lo ^= crc;
        crc = crc_table[7][lo & 0xff] ^ crc_table[6][(lo >> 8) & 0xff] ^
              crc_table[5][(lo >> 16) & 0xff] ^ crc_table[4][lo >> 24] ^ crc_table[3][hi & 0xff] ^
              crc_table[2][(hi >> 8) & 0xff] ^ crc_table[1][(hi >> 16) & 0xff] ^
              crc_table[0][hi >> 24];
        p += 8;
        n -= 8;
    }
    while (n--)
        crc = (crc >> 8) ^ crc_table[0][(crc ^ *p++) & 0xff];
    return ~crc;
}

#if defined(CRC_CLEAR_UPPER_STATE)
/* Only a function built for AVX may hold the instruction; it is called
 * only when the CPU has AVX (without it the upper state is never dirty). */
__attribute__((target("avx"))) static void clear_upper_state_avx(void)
{
    _mm256_zeroupper();
}

/* __builtin_cpu_supports reads a flag word that libgcc fills once at
 * start-up: a load and a test per call. */
static inline void clear_upper_state(void)
{
    if (__builtin_cpu_supports("avx"))
        clear_upper_state_avx();
}
#endif

uint32_t bitsift_crc32(uint32_t crc, const void *data, size_t size)
{
    if (size == 0)
        return crc;
    if (size < SHORT_INPUT)
        return crc32_slice8(crc, data, size);
#if defined(HAVE_ISAL)
    /* Same convention as zlib: 0 to start, the previous result to go on. */
    crc = crc32_gzip_refl(crc, data, size);
#if defined(CRC_CLEAR_UPPER_STATE)
    clear_upper_state();
#endif
    return crc;
#elif defined(HAVE_LIBDEFLATE)
    return libdeflate_crc32(crc, data, size);
#else
    return crc32_slice8(crc, data, size);
#endif
}

const char *bitsift_crc32_implementation(void)
{
#if defined(HAVE_ISAL)
    return "isa-l";
#elif defined(HAVE_LIBDEFLATE)
    return "libdeflate";
#else
    return "slice-by-8";
#endif
}
