# SPDX-License-Identifier: BSD-3-Clause
# tests/local.mk -- the checks over the whole tree, which belong to no
# group of tests: the library's call graph and the SPDX lines. The groups
# keep their rules beside their folders (tests/<group>.mk, included from
# Makefile.am): bits/, vectors/, gen-c/, analysis/, schema/, cli/,
# records/, diagnose/ and wireshark/.

# No two objects of libbitsift use each other's symbols in a loop (nm).
EXTRA_DIST += tests/lib_call_graph.py
TESTS += tests/lib_call_graph.py

# Every source file names its license (SPDX).
EXTRA_DIST += tests/spdx.sh
TESTS += tests/spdx.sh
