#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# replay-schema-handmade.sh -- the hand-made vectors of tests/vectors/handmade (the
# library's own ops: object index, sequence and ack relative, hashed check
# names, UTF-8 strings, extreme widths) through the schema path, as
# replay-schema.sh does with the reference vectors.
exec sh "${top_srcdir:-.}/tests/vectors/replay-schema.sh" "${top_srcdir:-.}/tests/vectors/handmade"
