/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * version.c -- the version of the library actually linked, so that a
 * program can compare it with the BITSIFT_VERSION_* macros it was built
 * against.
 */
#include "bitsift.h"

unsigned bitsift_version_number(void)
{
    return BITSIFT_VERSION_NUMBER;
}

const char *bitsift_version_string(void)
{
    return BITSIFT_VERSION_STRING;
}
