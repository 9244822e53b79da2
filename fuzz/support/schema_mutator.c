/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * schema_mutator.c -- fuzz_packet_schema: the kit's schema-aware mutator
 * (libbitsift-fuzz, bitsift/fuzz.h) over the harness's schemas: decode
 * the packet, change one field (in range, at an edge, just out of range,
 * another enum value, another array length), encode it again with its
 * checks, end check and CRC; one mutation in four stays byte-level and
 * re-sealed, so malformed packets are explored too.
 */
#include "bitsift/fuzz.h"
#include "reseal.h"

BITSIFT_FUZZ_MUTATORS(fuzz_kit_context(BITSIFT_FUZZ_SCHEMA_AWARE));
