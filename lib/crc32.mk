# SPDX-License-Identifier: BSD-3-Clause
# lib/crc32.mk -- links libbitsift with the CRC32 library configure chose
# for lib/crc32.c (ISA-L when present; libdeflate's flags are in
# lib/local.mk and empty when ISA-L is used).
lib_libbitsift_la_CFLAGS += $(ISAL_CFLAGS)
lib_libbitsift_la_LIBADD += $(ISAL_LIBS)
