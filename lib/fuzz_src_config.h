/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * config.h of libbitsift's installed sources ($(pkgdatadir)/src, pkg-config
 * bitsift-fuzz-src): a harness that compiles the library with its own
 * fuzzing flags gets the portable CRC32 (slice-by-8) and no optional
 * dependency; everything else is the same code as the installed library.
 */
