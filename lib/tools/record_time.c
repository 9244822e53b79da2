/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * record_time.c -- the "time" of a record: an RFC 3339 time as `bitsift
 * decode` prints it, read back into seconds and nanoseconds since the
 * epoch (bitsift_record_parse_time in <bitsift/records.h>).
 */
#include <stdint.h>

#define BITSIFT_EXPERIMENTAL /* <bitsift/records.h> */
#include "bitsift/records.h"

/* Days from 1970-01-01 to y-m-d of the proleptic Gregorian calendar
 * (H. Hinnant's algorithm, the inverse of what prints the time): the year
 * counted from March, so that the leap day ends it, in 400-year eras. */
static int64_t days_from_civil(int64_t y, unsigned m, unsigned d)
{
    y -= m <= 2;
    int64_t era = (y >= 0 ? y : y - 399) / 400;
    unsigned yoe = (unsigned)(y - era * 400);
    unsigned doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
    unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + (int64_t)doe - 719468;
}

static unsigned days_in_month(unsigned year, unsigned month)
{
    static const unsigned char days[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    int leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    return days[month - 1] + (month == 2 && leap);
}

/* Read exactly `width` digits. */
static int read_digits(const char **p, unsigned width, unsigned *v)
{
    *v = 0;
    for (unsigned i = 0; i < width; i++) {
        char c = (*p)[i];
        if (c < '0' || c > '9')
            return -1;
        *v = *v * 10 + (unsigned)(c - '0');
    }
    *p += width;
    return 0;
}

int bitsift_record_parse_time(const char *text, int64_t *sec, uint32_t *nsec)
{
    const char *p = text;
    unsigned year, month, day, hour, minute, second, frac = 0;
    if (read_digits(&p, 4, &year) || *p++ != '-' || read_digits(&p, 2, &month) || *p++ != '-' ||
        read_digits(&p, 2, &day) || (*p != 'T' && *p != 't' && *p != ' '))
        return -1;
    p++;
    if (read_digits(&p, 2, &hour) || *p++ != ':' || read_digits(&p, 2, &minute) || *p++ != ':' ||
        read_digits(&p, 2, &second))
        return -1;
    if (month < 1 || month > 12 || day < 1 || day > days_in_month(year, month) || hour > 23 ||
        minute > 59 || second > 60)
        return -1;
    if (*p == '.') {
        p++;
        unsigned digits = 0;
        while (*p >= '0' && *p <= '9') {
            if (digits < 9) {
                frac = frac * 10 + (unsigned)(*p - '0');
                digits++;
            }
            p++;
        }
        if (digits == 0)
            return -1;
        while (digits++ < 9)
            frac *= 10;
    }
    int64_t offset = 0;
    if (*p == 'Z' || *p == 'z') {
        p++;
    } else if (*p == '+' || *p == '-') {
        int sign = *p++ == '-' ? -1 : 1;
        unsigned oh, om;
        if (read_digits(&p, 2, &oh) || *p++ != ':' || read_digits(&p, 2, &om) || oh > 23 ||
            om > 59)
            return -1;
        offset = sign * (int64_t)(oh * 3600 + om * 60);
    } else {
        return -1;
    }
    if (*p)
        return -1;
    *sec = days_from_civil(year, month, day) * 86400 + hour * 3600 + minute * 60 + second - offset;
    *nsec = frac;
    return 0;
}
