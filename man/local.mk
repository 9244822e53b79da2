# SPDX-License-Identifier: BSD-3-Clause
# man/local.mk -- manual pages, shipped prebuilt.
dist_man_MANS += man/libbitsift.3
dist_man_MANS += man/libbitsift-fuzz.3
dist_man_MANS += man/bitsift-stats.3
dist_man_MANS += man/libbitsift-tools.3
dist_man_MANS += man/bitsift.1
dist_man_MANS += man/bitsift-gen.1
dist_man_MANS += man/bitsift-schema.5
dist_man_MANS += man/bitsift-filter.3
dist_man_MANS += man/bitsift-diagnose.3
