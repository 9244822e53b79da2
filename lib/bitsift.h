/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bitsift.h -- the umbrella header of libbitsift: the bit layer
 * (bitsift/bits.h: reader, writer, serialize macros, framing), the
 * schema API (bitsift/schema.h) and the code generators (bitsift/gen.h).
 * Include one of those instead to take only what a program uses.
 *
 * libbitsift reads and writes bit-packed game network packets the way the
 * reference bitpacker (Glenn Fiedler's serialize.h / protocol2.h) writes
 * them, hardened for hostile input. Every exported symbol starts with
 * bitsift_ / BITSIFT_. See man/libbitsift.3.
 */
#ifndef BITSIFT_H
#define BITSIFT_H

#include "bitsift/bits.h"
#include "bitsift/schema.h"
#include "bitsift/gen.h"

#endif /* BITSIFT_H */
