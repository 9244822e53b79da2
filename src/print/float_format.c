/* SPDX-License-Identifier: BSD-3-Clause */
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
 *   - format_common_float32: floats from 2^-29 to 2^22, about 1.9e-9 to
 *     4.2e6 (what packets hold), but for powers of two: D a power of two
 *     and N < 2^64 read from a table per exponent; the precision comes
 *     from one test per P that the read-back interval holds a P-digit
 *     decimal (no trial roundings), and the digits are rounded as bytes,
 *     all without loops or branches on the value (a capture's values
 *     defeat branch prediction);
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

#include "print/float_format.h"

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
        if (small_q < format_powers_of_ten[min_digits - 1] ||
            small_q >= 2 * format_powers_of_ten[min_digits])
            return 0;
        unsigned small_digits =
            small_q >= format_powers_of_ten[min_digits] ? min_digits + 1 : min_digits;
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

#if defined(__GNUC__)
#define NOT_INLINED __attribute__((noinline))
#else
#define NOT_INLINED
#endif

#if defined(__GNUC__) && defined(__SIZEOF_INT128__) && defined(__BYTE_ORDER__) && \
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define FAST_FLOAT32 1
/*
 * The common floats: 2^-29 <= |v| < 2^22 (about 1.9e-9 to 4.2e6, what
 * packets hold) whose significand is not a power of two, without loops or
 * branches on the value (a capture's values defeat branch prediction).
 * A loop over varied values is bound by the number of arithmetic
 * instructions per value and by the length of each value's dependency
 * chain, so the work is laid out for both: small tables (read by the load
 * units, which are otherwise idle here) stand in for arithmetic, and the
 * digits are worked out while the precision is.
 *
 * Scale: one row per biased exponent b. With v = m * 2^(b - 150), m in
 * [2^23, 2^24), k = 8 - floor(log10(2^(b - 127))) makes v * 10^k at least
 * 10^8; it reaches 10^9 from m = ten_from = ceil(10^(9 - k) * 2^(150 - b))
 * on (2^24: never in that binade), and k - 1 is used from there. Then
 *
 *     v * 10^k = m * 5^k / 2^shift      shift = 150 - b - k, in 0..35
 *
 * and s = m * 5^k < 2^64 is v in units of 2^-shift: q = s >> shift has
 * exactly 9 digits, r = s mod 2^shift is the fraction below them.
 *
 * Precision: v's neighbours are a gap g = 5^k / 2^shift (scaled) away on
 * both sides, m not being a power of two, so a decimal reads back to v
 * exactly when it lies in (v - g/2, v + g/2). In units of 2^-shift the
 * ends are s +- 5^k / 2, halves since 5^k is odd, while decimals of 9
 * digits or fewer are integers: the ends are never reached, and the
 * integers inside are s - (5^k + 1) / 2 + 1 .. s + (5^k - 1) / 2. The
 * interval being symmetric, the P-digit rounding of v (the P-digit decimal
 * nearest v) is in it exactly when some P-digit decimal is, that is when
 * some multiple of 10^(9 - P) is in there: with top_q = (s + (5^k - 1) / 2)
 * >> shift and below_q = (s - (5^k + 1) / 2) >> shift, when the largest
 * multiple up to top_q is above below_q. A multiple of 10^j is one of
 * 10^(j - 1), so the precisions that read back are 9 - drop .. 9 with
 * drop = how many of j = 1, 2, 3 pass; that sum needs no search. (9
 * digits always read back.) Powers of two have a lower neighbour twice as
 * close: not symmetric, they take shortest_g.
 *
 * Digits: q's 9 digits are split into bytes (the last one lowest) while
 * the precision is worked out, then rounded there: the `drop` lowest
 * bytes go, and 1 is added at byte `drop` when the dropped part, r
 * included, is above half a unit, or exactly half with an odd digit
 * before it (to nearest, ties to even, as printf rounds). The carry runs
 * through 9s with the usual trick of biasing each byte by 0xf6 (a branch
 * taken for the one value in twenty that carries was slower: each miss
 * also throws away the next value's work). The bytes are reversed into
 * text order and laid out with a few overlapping stores, whose places a
 * table gives for each decimal exponent.
 *
 * The rows of common_scales follow from the formulas above; the tests and
 * the comparison over all 2^32 floats (tests/cli/float_exhaustive.c)
 * check them.
 */
struct common_scale {
    uint64_t five_k[2]; /* 5^k, and 5^(k - 1) for m >= ten_from */
    uint32_t ten_from;  /* first m for which v * 10^k has 10 digits */
    uint8_t shift;      /* 150 - b - k */
    uint8_t exp10_row;  /* 9 + 8 - k: row of fixed_layouts for the decimal
                         * exponent of q's first digit, 8 - k */
};

#define COMMON_FIRST_BIASED 98 /* 2^-29: k = 17, 5^17 * 2^24 < 2^64 */
#define COMMON_ROWS         51 /* up to b = 148, 2^21: shift = 0 */

static const struct common_scale common_scales[COMMON_ROWS] = {
    {{UINT64_C(762939453125), UINT64_C(152587890625)}, 16777216, 35, 0}, /* 98: 2^-29, k = 17 */
    {{UINT64_C(762939453125), UINT64_C(152587890625)}, 16777216, 34, 0}, /* 99: 2^-28, k = 17 */
    {{UINT64_C(762939453125), UINT64_C(152587890625)}, 11259000, 33, 0}, /* 100: 2^-27, k = 17 */
    {{UINT64_C(152587890625), UINT64_C(30517578125)}, 16777216, 33, 1},  /* 101: 2^-26, k = 16 */
    {{UINT64_C(152587890625), UINT64_C(30517578125)}, 16777216, 32, 1},  /* 102: 2^-25, k = 16 */
    {{UINT64_C(152587890625), UINT64_C(30517578125)}, 14073749, 31, 1},  /* 103: 2^-24, k = 16 */
    {{UINT64_C(30517578125), UINT64_C(6103515625)}, 16777216, 31, 2},    /* 104: 2^-23, k = 15 */
    {{UINT64_C(30517578125), UINT64_C(6103515625)}, 16777216, 30, 2},    /* 105: 2^-22, k = 15 */
    {{UINT64_C(30517578125), UINT64_C(6103515625)}, 16777216, 29, 2},    /* 106: 2^-21, k = 15 */
    {{UINT64_C(30517578125), UINT64_C(6103515625)}, 8796094, 28, 2},     /* 107: 2^-20, k = 15 */
    {{UINT64_C(6103515625), UINT64_C(1220703125)}, 16777216, 28, 3},     /* 108: 2^-19, k = 14 */
    {{UINT64_C(6103515625), UINT64_C(1220703125)}, 16777216, 27, 3},     /* 109: 2^-18, k = 14 */
    {{UINT64_C(6103515625), UINT64_C(1220703125)}, 10995117, 26, 3},     /* 110: 2^-17, k = 14 */
    {{UINT64_C(1220703125), UINT64_C(244140625)}, 16777216, 26, 4},      /* 111: 2^-16, k = 13 */
    {{UINT64_C(1220703125), UINT64_C(244140625)}, 16777216, 25, 4},      /* 112: 2^-15, k = 13 */
    {{UINT64_C(1220703125), UINT64_C(244140625)}, 13743896, 24, 4},      /* 113: 2^-14, k = 13 */
    {{UINT64_C(244140625), UINT64_C(48828125)}, 16777216, 24, 5},        /* 114: 2^-13, k = 12 */
    {{UINT64_C(244140625), UINT64_C(48828125)}, 16777216, 23, 5},        /* 115: 2^-12, k = 12 */
    {{UINT64_C(244140625), UINT64_C(48828125)}, 16777216, 22, 5},        /* 116: 2^-11, k = 12 */
    {{UINT64_C(244140625), UINT64_C(48828125)}, 8589935, 21, 5},         /* 117: 2^-10, k = 12 */
    {{UINT64_C(48828125), UINT64_C(9765625)}, 16777216, 21, 6},          /* 118: 2^-9, k = 11 */
    {{UINT64_C(48828125), UINT64_C(9765625)}, 16777216, 20, 6},          /* 119: 2^-8, k = 11 */
    {{UINT64_C(48828125), UINT64_C(9765625)}, 10737419, 19, 6},          /* 120: 2^-7, k = 11 */
    {{UINT64_C(9765625), UINT64_C(1953125)}, 16777216, 19, 7},           /* 121: 2^-6, k = 10 */
    {{UINT64_C(9765625), UINT64_C(1953125)}, 16777216, 18, 7},           /* 122: 2^-5, k = 10 */
    {{UINT64_C(9765625), UINT64_C(1953125)}, 13421773, 17, 7},           /* 123: 2^-4, k = 10 */
    {{UINT64_C(1953125), UINT64_C(390625)}, 16777216, 17, 8},            /* 124: 2^-3, k = 9 */
    {{UINT64_C(1953125), UINT64_C(390625)}, 16777216, 16, 8},            /* 125: 2^-2, k = 9 */
    {{UINT64_C(1953125), UINT64_C(390625)}, 16777216, 15, 8},            /* 126: 2^-1, k = 9 */
    {{UINT64_C(390625), UINT64_C(78125)}, 16777216, 15, 9},              /* 127: 2^0, k = 8 */
    {{UINT64_C(390625), UINT64_C(78125)}, 16777216, 14, 9},              /* 128: 2^1, k = 8 */
    {{UINT64_C(390625), UINT64_C(78125)}, 16777216, 13, 9},              /* 129: 2^2, k = 8 */
    {{UINT64_C(390625), UINT64_C(78125)}, 10485760, 12, 9},              /* 130: 2^3, k = 8 */
    {{UINT64_C(78125), UINT64_C(15625)}, 16777216, 12, 10},              /* 131: 2^4, k = 7 */
    {{UINT64_C(78125), UINT64_C(15625)}, 16777216, 11, 10},              /* 132: 2^5, k = 7 */
    {{UINT64_C(78125), UINT64_C(15625)}, 13107200, 10, 10},              /* 133: 2^6, k = 7 */
    {{UINT64_C(15625), UINT64_C(3125)}, 16777216, 10, 11},               /* 134: 2^7, k = 6 */
    {{UINT64_C(15625), UINT64_C(3125)}, 16777216, 9, 11},                /* 135: 2^8, k = 6 */
    {{UINT64_C(15625), UINT64_C(3125)}, 16384000, 8, 11},                /* 136: 2^9, k = 6 */
    {{UINT64_C(3125), UINT64_C(625)}, 16777216, 8, 12},                  /* 137: 2^10, k = 5 */
    {{UINT64_C(3125), UINT64_C(625)}, 16777216, 7, 12},                  /* 138: 2^11, k = 5 */
    {{UINT64_C(3125), UINT64_C(625)}, 16777216, 6, 12},                  /* 139: 2^12, k = 5 */
    {{UINT64_C(3125), UINT64_C(625)}, 10240000, 5, 12},                  /* 140: 2^13, k = 5 */
    {{UINT64_C(625), UINT64_C(125)}, 16777216, 5, 13},                   /* 141: 2^14, k = 4 */
    {{UINT64_C(625), UINT64_C(125)}, 16777216, 4, 13},                   /* 142: 2^15, k = 4 */
    {{UINT64_C(625), UINT64_C(125)}, 12800000, 3, 13},                   /* 143: 2^16, k = 4 */
    {{UINT64_C(125), UINT64_C(25)}, 16777216, 3, 14},                    /* 144: 2^17, k = 3 */
    {{UINT64_C(125), UINT64_C(25)}, 16777216, 2, 14},                    /* 145: 2^18, k = 3 */
    {{UINT64_C(125), UINT64_C(25)}, 16000000, 1, 14},                    /* 146: 2^19, k = 3 */
    {{UINT64_C(25), UINT64_C(5)}, 16777216, 1, 15},                      /* 147: 2^20, k = 2 */
    {{UINT64_C(25), UINT64_C(5)}, 16777216, 0, 15},                      /* 148: 2^21, k = 2 */
};

/* The rounding at byte `drop` of q's digits (one byte per digit, the last
 * digit lowest), for drop = 0..3. */
struct digit_rounding {
    uint64_t dropped; /* the bytes that go */
    uint64_t kept;    /* the others */
    uint64_t unit;    /* 1 at byte drop */
    uint64_t twice_half;
    /* twice half a unit in those bytes, which hold 0xf6 + each digit:
     * "5" * 2, "50" * 2, "500" * 2 so biased; for drop = 0 the half is
     * 2^(shift - 1), in r alone: 1 (<< shift) */
};

static const struct digit_rounding digit_roundings[4] = {
    {0, ~UINT64_C(0), 1, 1},
    {0xff, ~UINT64_C(0xff), 0x100, 0xfb * 2},
    {0xffff, ~UINT64_C(0xffff), 0x10000, 0xfbf6 * 2},
    {0xffffff, ~UINT64_C(0xffffff), 0x1000000, 0xfbf6f6 * 2},
};

/*
 * Where the text goes, for each decimal exponent x = -9..7 of the first
 * digit (index x + 9). %g writes "ddd.ddd" for 0 <= x < p, "0.000ddd" for
 * -4 <= x < 0, and an exponent form otherwise. The fixed forms take four
 * overlapping stores:
 *               8 bytes at 0   8 bytes at    from digit   '.' at
 *   ddd.ddd     digits         whole + 1     whole        whole
 *   0.00ddd     "0.000000"     1 - x         0            1
 * whole = x + 1 <= 7 digits before the point; 1 - x is "0." and the zeros.
 * Digit 8 goes right after the second word, which is past the text in the
 * first form. The length: whole + 1 + the digits after the point, at least
 * one (a trailing '0': ddd.0); 1 - x + the digits.
 */
struct fixed_layout {
    _Alignas(8) uint8_t exponent_from; /* exponent form when drop >= this (x >= 9 - drop);
                                        * 8 bytes a row: one scaled index */
    uint8_t point_at;
    uint8_t second_at;
    uint8_t second_from; /* 8 * the digit the second word starts with */
    uint8_t length_base; /* length = max(length_base - zero digits at the end, */
    uint8_t length_min;  /*              length_min) */
};

static const struct fixed_layout fixed_layouts[17] = {
    {0, 1, 2, 0, 0, 0},   /* x = -9 .. -5: exponent form */
    {0, 1, 2, 0, 0, 0},   /* -8 */
    {0, 1, 2, 0, 0, 0},   /* -7 */
    {0, 1, 2, 0, 0, 0},   /* -6 */
    {0, 1, 2, 0, 0, 0},   /* -5 */
    {4, 1, 5, 0, 14, 0},  /* -4: 0.000ddd */
    {4, 1, 4, 0, 13, 0},  /* -3 */
    {4, 1, 3, 0, 12, 0},  /* -2 */
    {4, 1, 2, 0, 11, 0},  /* -1 */
    {4, 1, 2, 8, 10, 3},  /* 0: d.ddd */
    {4, 2, 3, 16, 10, 4}, /* 1 */
    {4, 3, 4, 24, 10, 5}, /* 2 */
    {4, 4, 5, 32, 10, 6}, /* 3 */
    {4, 5, 6, 40, 10, 7}, /* 4 */
    {4, 6, 7, 48, 10, 8}, /* 5 */
    {3, 7, 8, 56, 10, 9}, /* 6: p >= 7 */
    {0, 1, 2, 0, 0, 0},   /* 7: cannot happen (v < 2^22 rounds below 10^7) */
};

#define BYTES_01 UINT64_C(0x0101010101010101)

/*
 * q < 10^9 as its first digit and the other eight as bytes of a word
 * (the last digit lowest), each digit d as 0xf6 + d for the rounding's
 * carries (see format_common_float32). q splits into two lanes of four
 * digits (the last four low, the four before high); then, in each lane,
 * y = d0 + 10 d1 + 100 d2 + 1000 d3 becomes d0 | d1 << 8 | d2 << 16 |
 * d3 << 24 by adding (2^8 - 10) floor(y / 10), (2^16 - 10 * 2^8)
 * floor(y / 100) and (2^24 - 10 * 2^16) floor(y / 1000), three quotients
 * worked out side by side, each with one multiplication by a reciprocal
 * for both lanes (exact for y < 10^4: y * 6554 >> 16, y * 10486 >> 20,
 * y * 8389 >> 23; no lane's products reach the next lane).
 */
static inline uint64_t split_digits(uint32_t q, uint32_t *first)
{
    uint64_t f = q / 100000000, t = q / 10000;
    *first = (uint32_t)f;
    /* q - t * 10^4 low, t - f * 10^4 high */
    uint64_t y = q + t * ((UINT64_C(1) << 32) - 10000) - (f * 10000 << 32);
    uint64_t tens = ((y * 6554) >> 16) & UINT64_C(0x000003ff000003ff);
    uint64_t hundreds = ((y * 10486) >> 20) & UINT64_C(0x0000007f0000007f);
    uint64_t thousands = ((y * 8389) >> 23) & UINT64_C(0x0000000f0000000f);
    return y + tens * ((1 << 8) - 10) + hundreds * ((1 << 16) - (10 << 8)) +
           thousands * ((1 << 24) - (10 << 16)) + UINT64_C(0xf6f6f6f6f6f6f6f6);
}

/* The exponent form ("1.5e+06", "2e-07") of digits 0..7 (text) and 8
 * (ninth), for x < -4 or x >= p: rare among the common floats (|x| <= 9
 * there), so plain code, out of line. */
static NOT_INLINED size_t layout_exponent(char *buf, size_t n, uint64_t text, uint64_t ninth,
                                          size_t count, int x)
{
    char digits[9];
    memcpy(digits, &text, 8);
    digits[8] = (char)ninth;
    buf[n++] = digits[0];
    if (count > 1) {
        buf[n++] = '.';
        memcpy(buf + n, digits + 1, count - 1);
        n += count - 1;
    }
    buf[n++] = 'e';
    buf[n++] = x < 0 ? '-' : '+';
    memcpy(buf + n, format_digit_pairs + 2 * (x < 0 ? -x : x), 2);
    n += 2;
    buf[n] = '\0';
    return n;
}

static inline size_t format_common_float32(char *buf, size_t n, uint32_t m,
                                           const struct common_scale *scale)
{
    /* both scales are loaded at once; a conditional move picks one (no
     * load waiting for the comparison) */
    unsigned ten = m >= scale->ten_from;
    uint64_t a0 = scale->five_k[0], a1 = scale->five_k[1];
    uint64_t a = ten ? a1 : a0;
    unsigned shift = scale->shift + ten;
    unsigned x_row = scale->exp10_row + ten; /* x + 9 */
    uint64_t s = a * m;                      /* < 2^24 * 5^17 < 2^64 */
    uint32_t q = (uint32_t)(s >> shift);

    /* the precision (a >> 1 = (5^k - 1) / 2, 5^k being odd) */
    uint32_t top_q = (uint32_t)((s + (a >> 1)) >> shift);
    uint32_t below_q = (uint32_t)((s - (a >> 1) - 1) >> shift);
    /* the largest multiple of 10^j up to top_q is above below_q */
    unsigned drop = (unsigned)(top_q / 10 * 10 > below_q) +
                    (unsigned)(top_q / 100 * 100 > below_q) +
                    (unsigned)(top_q / 1000 * 1000 > below_q);

    /* meanwhile, q's digits: the first, and the other 8 one per byte */
    uint32_t first;
    uint64_t digits = split_digits(q, &first);

    /* the rounding, at byte drop: up when 2 * (dropped part and r) + the
     * parity of the digit kept last > twice half a unit (ties to even);
     * the bias of the dropped bytes, the same in each, keeps their order */
    const struct digit_rounding *rounding = &digit_roundings[drop];
    /* (dropped digits << shift) + r, r = s - (q << shift); < 2^60 */
    uint64_t dropped =
        (s + (((digits & rounding->dropped) - q) << shift)) * 2 + ((digits & rounding->unit) != 0);
    uint64_t up = (uint64_t)0 - (uint64_t)(dropped > rounding->twice_half << shift);
    uint64_t kept = digits & rounding->kept;
    /* a byte (0xf6 + digit) wraps to 0 and carries exactly when the digit
     * reaches 10; the bytes that did not wrap (the dropped ones are 0)
     * lose the 0xf6 again */
    uint64_t sum = kept + (rounding->unit & up);
    first += sum < kept; /* the carry went out of the top byte */
    uint64_t rounded = sum - ((sum >> 7) & BYTES_01) * 0xf6;
    if (first == 10) { /* 999999999 rounded up: 1 digit into the next decade */
        first = 1;
        x_row++;
    }
    /* zero digits at the end: zero bytes at the bottom (all 8 when rounded
     * is 0: bit 63 is no digit's) */
    unsigned zeros = (unsigned)(__builtin_ctzll(rounded | UINT64_C(1) << 63) + 1) / 8;
    /* digits 0..7 as text, the first digit lowest; digit 8 apart */
    uint64_t text = (__builtin_bswap64(rounded) << 8 | first) | UINT64_C(0x3030303030303030);
    uint64_t ninth = '0' + (rounded & 0xff);

    const struct fixed_layout *layout = &fixed_layouts[x_row];
    if (drop >= layout->exponent_from) /* rare */
        return layout_exponent(buf, n, text, ninth, 9 - zeros, (int)x_row - 9);
    /* text and ninth shifted right by from bits as one 128-bit word */
    uint64_t second_word = (uint64_t)(((u128)ninth << 64 | text) >> (layout->second_from & 63));
    uint64_t first_word = x_row < 9 ? UINT64_C(0x3030303030302e30) : text; /* "0.000000" */
    size_t len = layout->length_base - zeros;
    len = len > layout->length_min ? len : layout->length_min;
    char *w = buf + n;
    memcpy(w, &first_word, 8);
    w[layout->second_at + 8] = (char)ninth;
    memcpy(w + layout->second_at, &second_word, 8);
    w[layout->point_at] = '.';
    w[len] = '\0';
    return n + len;
}
#endif

/* Every float but the common ones, out of line: the common path then
 * needs no stack frame nor saved registers. */
static NOT_INLINED size_t format_rare_float32(char *buf, float v)
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
#ifdef __SIZEOF_INT128__
    struct shortest_request rq = {
        .m = biased ? fraction | UINT32_C(1) << 23 : fraction,
        .e = biased ? (int)biased - 150 : -149,
        .lower_closer = fraction == 0 && biased > 1,
        .min_p = 6,
        .max_p = 9,
    };
    size_t len = shortest_g(buf, n, &rq);
    if (len)
        return len;
#endif
    return printf_float32(buf, v);
}

size_t format_float32(char *buf, float v)
{
#ifdef FAST_FLOAT32
    uint32_t bits;
    memcpy(&bits, &v, sizeof bits);
    unsigned biased = (bits >> 23) & 0xff;
    uint32_t fraction = bits & 0x7fffff;
    /* unsigned: b below the first row wraps around above the last */
    if (biased - COMMON_FIRST_BIASED < COMMON_ROWS && fraction != 0) {
        buf[0] = '-'; /* stays when negative */
        return format_common_float32(buf, bits >> 31, fraction | UINT32_C(1) << 23,
                                     &common_scales[biased - COMMON_FIRST_BIASED]);
    }
#endif
    return format_rare_float32(buf, v);
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
