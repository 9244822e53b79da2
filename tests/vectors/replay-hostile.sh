#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# replay-hostile.sh -- replay tests/vectors/hostile: damaged streams and
# packets that must fail at a given op with a given kind and bit offset.
exec "${top_builddir:-.}/tests/vectors/replay-vectors" "${top_srcdir:-.}/tests/vectors/hostile"
