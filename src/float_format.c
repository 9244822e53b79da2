/*
 * float_format.c -- the text of a float or double (see float_format.h):
 * the shortest of "%.{P}g" for P = 6..9 (15..17 for doubles) that reads
 * back to the same value, computed exactly with 64- and 128-bit integers.
 *
 * A finite v != 0 is m * 2^e exactly (m the integer significand). For a
 * scale k chosen so that v * 10^k has L = 9 or 10 digits before the point
 * (17 or 18 for doubles):
 *
 *     v * 10^k = N / D = q + r / D      N = m * A, q = floor(N / D)
 *
 * with N, A, D integers (powers of 2 and 5 split between them). Then, for
 * each precision P:
 *   - digits: d = q / 10^(L-P) rounded to nearest, ties to even, on the
 *     exact value (q's dropped digits, then r as a sticky part), which is
 *     what glibc's printf does; d = 10^P carries into the next decade;
 *   - round trip: the decimal w = d * 10^(L-P) (scaled by 10^k) reads back
 *     to v exactly when it lies within half the gap to v's neighbours.
 *     Scaled, that half gap is 2^(e-1) * 10^k = A / (2D); below a power of
 *     two (m = 2^23 or 2^52, not the smallest exponent) the lower neighbour
 *     is twice as close, so the half gap below is A / (4D). A decimal
 *     exactly on the boundary reads back to whichever neighbour has an
 *     even significand: to v when m is even.
 * The first P that reads back is printed with %g's layout: exponent form
 * when the decimal exponent X is < -4 or >= P, "e+XX" with at least two
 * exponent digits, trailing zeros dropped.
 *
 * Three ways to do that, fastest first:
 *   - format_common_float32: floats from 2^-29 to 2^22, about 1.9e-9 to 4.2e6 (what packets
 *     hold), D a power of two and N < 2^64, without loops or branches on
 *     the value (a capture's values defeat branch prediction);
 *   - shortest_g: any float or double whose N fits in 124 bits and D in
 *     110 (floats from about 1e-32 up, doubles from 1e-15 to 1e37);
 *   - elsewhere, and on compilers without unsigned __int128, snprintf and
 *     strtof/strtod as before (the oracle the tests compare with).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "float_format.h"

static const char hex_digits[] = "0123456789abcdef";

static size_t nonfinite(char *buf, int negative, int is_nan, uint64_t bits, unsigned digits)
{
    size_t n = 0;
    if (is_nan) {
        memcpy(buf, "nan:0x", 6);
        n = 6;
        for (unsigned i = 0; i < digits; i++)
            buf[n + digits - 1 - i] = hex_digits[(bits >> (4 * i)) & 15];
        n += digits;
    } else {
        if (negative)
            buf[n++] = '-';
        memcpy(buf + n, "inf", 3);
        n += 3;
    }
    buf[n] = '\0';
    return n;
}

/* ---- The printf loop: extreme magnitudes ------------------------------ */

/* Make sure a JSON reader sees a real: "1" -> "1.0", "1e+30" stays. */
static size_t as_real(char *buf, size_t n)
{
    if (!strpbrk(buf, ".e")) {
        memcpy(buf + n, ".0", 3);
        n += 2;
    }
    return n;
}

static size_t printf_float32(char *buf, float v)
{
    int n = 0;
    for (int p = 6; p <= 9; p++) {
        n = snprintf(buf, FORMAT_FLOAT_SIZE, "%.*g", p, (double)v);
        if (strtof(buf, NULL) == v)
            break;
    }
    return as_real(buf, (size_t)n);
}

static size_t printf_float64(char *buf, double v)
{
    int n = 0;
    for (int p = 15; p <= 17; p++) {
        n = snprintf(buf, FORMAT_FLOAT_SIZE, "%.*g", p, v);
        if (strtod(buf, NULL) == v)
            break;
    }
    return as_real(buf, (size_t)n);
}

/* ---- %g layout --------------------------------------------------------- */

const uint64_t format_powers_of_ten[20] = {
    UINT64_C(1),
    UINT64_C(10),
    UINT64_C(100),
    UINT64_C(1000),
    UINT64_C(10000),
    UINT64_C(100000),
    UINT64_C(1000000),
    UINT64_C(10000000),
    UINT64_C(100000000),
    UINT64_C(1000000000),
    UINT64_C(10000000000),
    UINT64_C(100000000000),
    UINT64_C(1000000000000),
    UINT64_C(10000000000000),
    UINT64_C(100000000000000),
    UINT64_C(1000000000000000),
    UINT64_C(10000000000000000),
    UINT64_C(100000000000000000),
    UINT64_C(1000000000000000000),
    UINT64_C(10000000000000000000),
};

const char format_digit_pairs[201] = "00010203040506070809"
                                     "10111213141516171819"
                                     "20212223242526272829"
                                     "30313233343536373839"
                                     "40414243444546474849"
                                     "50515253545556575859"
                                     "60616263646566676869"
                                     "70717273747576777879"
                                     "80818283848586878889"
                                     "90919293949596979899";

/* The `count` decimal digits of d (leading zeros included) at out. Up to 9
 * digits go in 32-bit halves that the CPU works on side by side. */
static void put_digits(char *out, uint64_t d, unsigned count)
{
    while (count > 9) {
        memcpy(out + count - 2, format_digit_pairs + 2 * (d % 100), 2);
        d /= 100;
        count -= 2;
    }
    uint32_t v = (uint32_t)d;
    if (count > 4) {
        uint32_t high = v / 10000, low = v % 10000;
        memcpy(out + count - 4, format_digit_pairs + 2 * (low / 100), 2);
        memcpy(out + count - 2, format_digit_pairs + 2 * (low % 100), 2);
        v = high;
        count -= 4;
    }
    while (count > 2) {
        memcpy(out + count - 2, format_digit_pairs + 2 * (v % 100), 2);
        v /= 100;
        count -= 2;
    }
    if (count == 2)
        memcpy(out, format_digit_pairs + 2 * v, 2);
    else
        out[0] = (char)('0' + v);
}

/* Copy a short run of text: one fixed 16-byte move when both sides have
 * room (src is read past len, dst written past len and overwritten
 * after), else memcpy of len bytes. */
static void put_text(char *buf, size_t at, const char *src, size_t src_room, size_t len)
{
    if (len <= 16 && src_room >= 16 && at + 16 <= FORMAT_FLOAT_SIZE)
        memcpy(buf + at, src, 16);
    else
        memcpy(buf + at, src, len);
}

/*
 * The text of (-)d * 10^(x - (p - 1)), d having exactly p digits, as %.{p}g
 * lays it out, then ".0" when it has neither point nor exponent. buf holds
 * the sign already (n bytes).
 */
static size_t layout_g(char *buf, size_t n, uint64_t d, unsigned p, int x)
{
    unsigned count = p; /* significant digits once the trailing zeros are gone */
    while (count > 1 && d % 10 == 0) {
        d /= 10;
        count--;
    }
    char digits[40]; /* 16 bytes readable past any of its first 24 */
    put_digits(digits, d, count);
    if (x < -4 || x >= (int)p) {
        buf[n++] = digits[0];
        if (count > 1) {
            buf[n++] = '.';
            put_text(buf, n, digits + 1, sizeof digits - 1, count - 1);
            n += count - 1;
        }
        buf[n++] = 'e';
        buf[n++] = x < 0 ? '-' : '+';
        unsigned ax = x < 0 ? (unsigned)-x : (unsigned)x;
        if (ax >= 100) {
            buf[n++] = (char)('0' + ax / 100);
            ax %= 100;
        }
        memcpy(buf + n, format_digit_pairs + 2 * ax, 2);
        n += 2;
    } else if (x >= 0) {
        unsigned whole = (unsigned)x + 1; /* digits before the point */
        if (count <= whole) {
            /* an integer: its dropped zeros come back, then ".0" */
            put_text(buf, n, digits, sizeof digits, count);
            memset(buf + n + count, '0', whole - count);
            n += whole;
            memcpy(buf + n, ".0", 2);
            n += 2;
        } else {
            put_text(buf, n, digits, sizeof digits, whole);
            n += whole;
            buf[n++] = '.';
            put_text(buf, n, digits + whole, sizeof digits - whole, count - whole);
            n += count - whole;
        }
    } else {
        unsigned zeros = (unsigned)(-x - 1); /* 0..3 */
        memcpy(buf + n, "0.000", 5);
        n += 2 + zeros;
        put_text(buf, n, digits, sizeof digits, count);
        n += count;
    }
    buf[n] = '\0';
    return n;
}

/* 5^i for i <= 27 (5^27 < 2^64 < 5^28). */
static const uint64_t pow5_u64[28] = {
    UINT64_C(1),
    UINT64_C(5),
    UINT64_C(25),
    UINT64_C(125),
    UINT64_C(625),
    UINT64_C(3125),
    UINT64_C(15625),
    UINT64_C(78125),
    UINT64_C(390625),
    UINT64_C(1953125),
    UINT64_C(9765625),
    UINT64_C(48828125),
    UINT64_C(244140625),
    UINT64_C(1220703125),
    UINT64_C(6103515625),
    UINT64_C(30517578125),
    UINT64_C(152587890625),
    UINT64_C(762939453125),
    UINT64_C(3814697265625),
    UINT64_C(19073486328125),
    UINT64_C(95367431640625),
    UINT64_C(476837158203125),
    UINT64_C(2384185791015625),
    UINT64_C(11920928955078125),
    UINT64_C(59604644775390625),
    UINT64_C(298023223876953125),
    UINT64_C(1490116119384765625),
    UINT64_C(7450580596923828125),
};

/* q / 10^drop for drop <= 4 (at most one more digit than the widest
 * precision minus the narrowest), with constant divisors the compiler
 * turns into multiplications. */
static uint64_t divide_by_pow10(uint64_t q, unsigned drop)
{
    switch (drop) {
    case 0:
        return q;
    case 1:
        return q / 10;
    case 2:
        return q / 100;
    case 3:
        return q / 1000;
    default:
        return q / 10000;
    }
}

/*
 * The search for the common floats, in 64-bit arithmetic: D = 2^shift
 * (shift <= 40) and N = m * 5^k < 2^64, so v * 10^k = q + r / 2^shift and
 * the half gap is a / 2^(shift + 1) with a = 5^k. The scaled errors stay
 * under 10^4 * 2^42 < 2^56.
 */
static size_t pick_precision_u64(char *buf, size_t n, uint64_t q, uint64_t r, unsigned shift,
                                 uint64_t a, int x, unsigned digits, int m_even, int lower_closer,
                                 unsigned min_p, unsigned max_p)
{
    uint64_t d = UINT64_C(1) << shift;
    for (unsigned p = min_p; p <= max_p; p++) {
        unsigned drop = digits - p;
        uint64_t unit = format_powers_of_ten[drop];
        uint64_t dp = divide_by_pow10(q, drop), rest = q - dp * unit;
        int up;
        if (drop == 0) {
            uint64_t twice = r << 1;
            up = twice > d || (twice == d && (dp & 1));
        } else {
            uint64_t half = unit / 2;
            up = rest > half || (rest == half && (r != 0 || (dp & 1)));
        }
        dp += (uint64_t)up;
        uint64_t w = dp * unit, err;
        int below;
        if (w > q) {
            err = ((w - q) << shift) - r;
            below = 0;
        } else {
            err = ((q - w) << shift) + r;
            below = err != 0;
        }
        uint64_t scaled = err << (below && lower_closer ? 2 : 1);
        if (scaled < a || (scaled == a && m_even)) {
            if (dp == format_powers_of_ten[p]) {
                dp /= 10;
                x++;
            }
            return layout_g(buf, n, dp, p, x);
        }
    }
    return 0; /* not reached: max_p digits always read back */
}

#ifdef __SIZEOF_INT128__
typedef unsigned __int128 u128;

#define MAX_N_BITS 124
#define MAX_D_BITS 110
#define MAX_POW5   54 /* 5^54 < 2^126 */

static u128 pow5(unsigned i)
{
    return i < 28 ? pow5_u64[i] : (u128)pow5_u64[27] * pow5_u64[i - 27];
}

static unsigned bit_length(u128 x)
{
    uint64_t hi = (uint64_t)(x >> 64), lo = (uint64_t)x;
    if (hi)
        return 128u - (unsigned)__builtin_clzll(hi);
    return lo ? 64u - (unsigned)__builtin_clzll(lo) : 0;
}

/* What one float needs: m * 2^e, its kind of neighbours, the precisions. */
struct shortest_request {
    uint64_t m;       /* significand, > 0 */
    int e;            /* binary exponent */
    int lower_closer; /* m is a power of two above the smallest exponent */
    unsigned min_p;   /* first precision tried (6 or 15) */
    unsigned max_p;   /* last (9 or 17) */
};

/*
 * Write the digits and the layout for v = m * 2^e into buf after the n
 * bytes of sign. Returns 0 when N or D do not fit (the caller falls back).
 */
static size_t shortest_g(char *buf, size_t n, const struct shortest_request *rq)
{
    const unsigned min_digits = rq->max_p; /* q has min_digits or one more */
    unsigned m_bits = 64u - (unsigned)__builtin_clzll(rq->m);
    int e2 = rq->e + (int)m_bits - 1; /* floor(log2 v) */
    /* floor(e2 * log10(2)): 78913 / 2^18 is log10(2) to within 1e-6, exact
     * for |e2| < 1650; 10^x0 <= v < 10^(x0 + 2). */
    int x0 = (int)(((int64_t)e2 * 78913) >> 18);
    int k = (int)min_digits - 1 - x0;
    int t = rq->e + k; /* power of two left after 10^k = 5^k * 2^k */
    if (k >= 0 && k < 28 && t <= 0 && t >= -40 &&
        m_bits + 64u - (unsigned)__builtin_clzll(pow5_u64[k]) <= 64) {
        uint64_t small_a = pow5_u64[k], small_n = small_a * rq->m;
        unsigned small_shift = (unsigned)-t;
        uint64_t small_q = small_n >> small_shift;
        uint64_t small_r = small_n & ((UINT64_C(1) << small_shift) - 1);
        if (small_q < format_powers_of_ten[min_digits - 1] || small_q >= 2 * format_powers_of_ten[min_digits])
            return 0;
        unsigned small_digits = small_q >= format_powers_of_ten[min_digits] ? min_digits + 1 : min_digits;
        return pick_precision_u64(buf, n, small_q, small_r, small_shift, small_a,
                                  (int)small_digits - 1 - k, small_digits, (rq->m & 1) == 0,
                                  rq->lower_closer, rq->min_p, rq->max_p);
    }
    u128 a, d;
    unsigned shift = 0; /* D = 2^shift when d_is_pow2 */
    int d_is_pow2;
    if (k >= 0) {
        if (k > MAX_POW5)
            return 0;
        a = pow5((unsigned)k);
        if (t >= 0) {
            if (bit_length(a) + (unsigned)t + m_bits > MAX_N_BITS)
                return 0;
            a <<= t;
        } else if ((unsigned)-t >= MAX_D_BITS) {
            return 0;
        } else {
            shift = (unsigned)-t;
        }
        d_is_pow2 = 1;
        d = (u128)1 << shift;
    } else {
        if (-k > MAX_POW5)
            return 0;
        d = pow5((unsigned)-k);
        if (t >= 0) {
            if ((unsigned)t + m_bits > MAX_N_BITS)
                return 0;
            a = (u128)1 << t;
        } else {
            if (bit_length(d) + (unsigned)-t > MAX_D_BITS)
                return 0;
            a = 1;
            d <<= -t;
        }
        d_is_pow2 = 0;
    }
    if (bit_length(a) + m_bits > MAX_N_BITS)
        return 0;
    u128 big_n = a * rq->m;
    uint64_t q;
    u128 r;
    if (d_is_pow2) {
        q = (uint64_t)(big_n >> shift);
        r = big_n & (d - 1);
    } else {
        q = (uint64_t)(big_n / d);
        r = big_n % d;
    }
    if (q < format_powers_of_ten[min_digits - 1] || q >= 2 * format_powers_of_ten[min_digits])
        return 0; /* cannot happen (see x0); never print wrong digits */
    unsigned digits = q >= format_powers_of_ten[min_digits] ? min_digits + 1 : min_digits;
    int x = (int)digits - 1 - k; /* decimal exponent of q's first digit */
    int m_even = (rq->m & 1) == 0;
    for (unsigned p = rq->min_p; p <= rq->max_p; p++) {
        unsigned drop = digits - p;
        uint64_t unit = format_powers_of_ten[drop];
        uint64_t dp = divide_by_pow10(q, drop), rest = q - dp * unit;
        int up;
        if (drop == 0) {
            u128 twice = r << 1;
            up = twice > d || (twice == d && (dp & 1));
        } else {
            uint64_t half = unit / 2;
            up = rest > half || (rest == half && (r != 0 || (dp & 1)));
        }
        dp += (uint64_t)up;
        /* Distance from v to w = dp * unit, scaled by 10^k * D. */
        uint64_t w = dp * unit;
        u128 err;
        int below;
        if (w > q) {
            err = (u128)(w - q) * d - r;
            below = 0;
        } else {
            err = (u128)(q - w) * d + r;
            below = err != 0;
        }
        u128 scaled = err << (below && rq->lower_closer ? 2 : 1);
        if (scaled < a || (scaled == a && m_even)) {
            int px = x;
            if (dp == format_powers_of_ten[p]) {
                dp /= 10;
                px++;
            }
            return layout_g(buf, n, dp, p, px);
        }
    }
    return 0; /* not reached: max_p digits always read back */
}
#endif /* __SIZEOF_INT128__ */

#if defined(__SIZEOF_INT128__) && defined(__BYTE_ORDER__) && \
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define FAST_FLOAT32 1
/*
 * The common floats (2^-29 to 2^22, about 1.9e-9 to 4.2e6) without loops or data-dependent
 * branches, which the varied values of a capture would mispredict:
 * q + r / 2^shift = v * 10^k with q of exactly 9 digits; the roundings to
 * 6, 7, 8 and 9 digits are all tried and the first that reads back wins;
 * its digits, scaled to 9, become ASCII in one 64-bit word, and the
 * decimal point goes in with shifts of a 128-bit word (little-endian: the
 * first character is the lowest byte).
 */

/* Digits of v < 10^8 as bytes 0..9 of a word, the first digit lowest:
 * four-digit halves, then two-digit quarters, then digits, each split
 * done for all lanes with one multiplication by a reciprocal (exact for
 * these ranges: y / 100 = y * 10486 >> 20 for y < 10^4, y / 10 = y * 103
 * >> 10 for y < 100). */
static inline uint64_t eight_digits(uint32_t v)
{
    uint64_t x = (uint64_t)(v / 10000) | (uint64_t)(v % 10000) << 32;
    uint64_t hundreds = ((x * 10486) >> 20) & UINT64_C(0x0000007f0000007f);
    x = hundreds | (x - hundreds * 100) << 16;
    uint64_t tens = ((x * 103) >> 10) & UINT64_C(0x000f000f000f000f);
    return tens | (x - tens * 10) << 8;
}

/*
 * Whether the rounding of q + r / 2^shift to 9 - drop digits (drop >= 1)
 * reads back to v, whose half gap is a / 2^(shift + 1); the rounded digits
 * go to *digits. drop is a constant at each call, so the division is a
 * multiplication, and the conditions combine with & and | rather than
 * branches (the values are too varied for a branch predictor).
 */
static inline int rounding_reads_back(uint64_t q, uint64_t r, unsigned shift, uint64_t a,
                                      unsigned drop, int m_even, int lower_closer, uint64_t *digits)
{
    uint64_t unit = format_powers_of_ten[drop], half = unit / 2;
    uint64_t d = q / unit, rest = q - d * unit;
    /* to nearest; a tie (v exactly halfway) goes to the even digit */
    int up = (rest > half) | ((rest == half) & ((r != 0) | (int)(d & 1)));
    /* |w - v| in units of 2^-shift: the digits to the next candidate less
     * r when rounding up, the dropped digits plus r when down (selected
     * with a mask: compilers turn `up ? :` here into a branch) */
    uint64_t up_mask = (uint64_t)0 - (uint64_t)up;
    uint64_t dist = rest ^ ((rest ^ (unit - rest)) & up_mask);
    uint64_t err = (dist << shift) + ((r ^ up_mask) - up_mask);
    int below = !up & ((rest | r) != 0);
    uint64_t scaled = err << (1 + (below & lower_closer));
    *digits = d + (uint64_t)up;
    return (scaled < a) | ((scaled == a) & m_even);
}

/* The 9-digit rounding of q + r / 2^shift (always reads back). */
static inline uint64_t round_to_nine(uint64_t q, uint64_t r, unsigned shift)
{
    uint64_t twice = r << 1, whole = UINT64_C(1) << shift;
    return q + (uint64_t)((twice > whole) | ((twice == whole) & (int)(q & 1)));
}

/* Returns 0 when v is not one of the common floats. */
static size_t format_common_float32(char *buf, size_t n, uint32_t m, unsigned biased,
                                    int lower_closer)
{
    /* v = m * 2^(biased - 150), floor(log2 v) = biased - 127 */
    int x0 = (int)(((int64_t)biased - 127) * 78913 >> 18);
    int k = 8 - x0;
    int shift = 150 - (int)biased - k;
    if (k < 1 || k > 17 || shift < 0 || shift > 39)
        return 0;
    /* v * 10^k has 9 or 10 digits; with 10, take k - 1 (shift + 1) */
    int ten = ((pow5_u64[k] * m) >> shift) >= format_powers_of_ten[9];
    k -= ten;
    shift += ten;
    uint64_t a = pow5_u64[k], scaled = a * m; /* < 2^24 * 5^17 < 2^64 */
    uint64_t q = scaled >> shift, r = scaled & ((UINT64_C(1) << shift) - 1);
    if (q < format_powers_of_ten[8] || q >= format_powers_of_ten[9])
        return 0;  /* cannot happen (see x0) */
    int x = 8 - k; /* decimal exponent of the first digit */
    int m_even = (m & 1) == 0;
    uint64_t rounded[4];
    /* 9 digits always read back; printf's loop ends there in any case */
    unsigned reads_back = (unsigned)rounding_reads_back(q, r, (unsigned)shift, a, 3, m_even,
                                                        lower_closer, &rounded[0]) |
                          (unsigned)rounding_reads_back(q, r, (unsigned)shift, a, 2, m_even,
                                                        lower_closer, &rounded[1])
                              << 1 |
                          (unsigned)rounding_reads_back(q, r, (unsigned)shift, a, 1, m_even,
                                                        lower_closer, &rounded[2])
                              << 2 |
                          8u;
    rounded[3] = round_to_nine(q, r, (unsigned)shift);
    unsigned pick = (unsigned)__builtin_ctz(reads_back);
    unsigned p = 6 + pick;
    uint64_t nine = rounded[pick] * format_powers_of_ten[3 - pick]; /* the digits, scaled to 9 */
    if (nine == format_powers_of_ten[9]) {                          /* rounded up into the next decade */
        nine = format_powers_of_ten[8];
        x++;
    }
    if ((unsigned)(x + 4) >= p + 4) /* x < -4 or x >= p: exponent form, rare */
        return layout_g(buf, n, nine / format_powers_of_ten[9 - p], p, x);
    uint32_t first = (uint32_t)(nine / format_powers_of_ten[8]);
    uint64_t rest = eight_digits((uint32_t)(nine - first * format_powers_of_ten[8]));
    /* significant digits: 9 less the trailing zero bytes (8 when rest is 0) */
    size_t count = 9 - (unsigned)__builtin_clzll(rest | 1) / 8 - (rest == 0);
    /* the 9 digits as text, then a '0' for "123456789.0" */
    u128 digits =
        (u128)('0' + first) | (u128)(rest | UINT64_C(0x3030303030303030)) << 8 | (u128)'0' << 72;
    /*
     * Four stores write either layout (which one is as hard to predict as
     * the values, so it is chosen with conditional moves, not branches):
     *             at 0        digits at  '.' at   8 digits from   at
     *   ddd.ddd   digits      0          whole    digit `whole`   whole + 1
     *   0.00ddd   "0.000000"  lead       1        digit 0         lead
     * ddd.0 when no digit is left after the point (the next digit is '0').
     */
    int fixed = x >= 0;
    size_t whole = (size_t)x + 1, lead = (size_t)(1 - x); /* lead: "0." and -x - 1 zeros */
    size_t fraction = count > whole ? count - whole : 1;
    size_t len = fixed ? whole + 1 + fraction : lead + count;
    uint64_t first8 = fixed ? (uint64_t)digits : UINT64_C(0x3030303030302e30); /* "0.000000" */
    size_t digits_at = fixed ? 0 : lead, point_at = fixed ? whole : 1;
    size_t tail_from = fixed ? whole : 0, tail_at = fixed ? whole + 1 : lead;
    uint64_t tail = (uint64_t)(digits >> (8 * tail_from));
    char *w = buf + n;
    memcpy(w, &first8, 8);
    memcpy(w + digits_at, &digits, 16);
    w[point_at] = '.';
    memcpy(w + tail_at, &tail, 8);
    w[len] = '\0';
    return n + len;
}
#endif

size_t format_float32(char *buf, float v)
{
    uint32_t bits;
    memcpy(&bits, &v, sizeof bits);
    int negative = (int)(bits >> 31);
    unsigned biased = (bits >> 23) & 0xff;
    uint32_t fraction = bits & 0x7fffff;
    if (biased == 0xff)
        return nonfinite(buf, negative, fraction != 0, bits, 8);
    buf[0] = '-';
    size_t n = (size_t)negative; /* the '-' stays when negative */
    if (biased == 0 && fraction == 0) {
        memcpy(buf + n, "0.0", 4);
        return n + 3;
    }
    uint32_t m = biased ? fraction | UINT32_C(1) << 23 : fraction;
    int lower_closer = fraction == 0 && biased > 1;
#ifdef FAST_FLOAT32
    if (biased) {
        size_t len = format_common_float32(buf, n, m, biased, lower_closer);
        if (len)
            return len;
    }
#endif
#ifdef __SIZEOF_INT128__
    struct shortest_request rq = {
        .m = m,
        .e = biased ? (int)biased - 150 : -149,
        .lower_closer = lower_closer,
        .min_p = 6,
        .max_p = 9,
    };
    size_t len = shortest_g(buf, n, &rq);
    if (len)
        return len;
#endif
    return printf_float32(buf, v);
}

size_t format_float64(char *buf, double v)
{
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    int negative = (int)(bits >> 63);
    unsigned biased = (unsigned)(bits >> 52) & 0x7ff;
    uint64_t fraction = bits & ((UINT64_C(1) << 52) - 1);
    if (biased == 0x7ff)
        return nonfinite(buf, negative, fraction != 0, bits, 16);
    size_t n = 0;
    if (negative)
        buf[n++] = '-';
    if (biased == 0 && fraction == 0) {
        memcpy(buf + n, "0.0", 4);
        return n + 3;
    }
#ifdef __SIZEOF_INT128__
    struct shortest_request rq = {
        .m = biased ? fraction | UINT64_C(1) << 52 : fraction,
        .e = biased ? (int)biased - 1075 : -1074,
        .lower_closer = fraction == 0 && biased > 1,
        .min_p = 15,
        .max_p = 17,
    };
    size_t len = shortest_g(buf, n, &rq);
    if (len)
        return len;
#endif
    return printf_float64(buf, v);
}

int format_is_nonfinite(const char *text)
{
    return text[0] == 'n' || text[0] == 'i' || (text[0] == '-' && text[1] == 'i');
}
