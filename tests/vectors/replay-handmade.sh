#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# replay-handmade.sh -- replay tests/vectors/handmade: hand-made vectors for cases
# the reference set lacks (object index, sequence/ack relative, hashed
# check names, UTF-8 strings, extreme widths and ranges).
exec "${top_builddir:-.}/tests/vectors/replay-vectors" "${top_srcdir:-.}/tests/vectors/handmade"
