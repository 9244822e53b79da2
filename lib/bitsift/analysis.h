/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bitsift/analysis.h -- the analysis that the bitsift command runs, as
 * library calls: display filters (<bitsift/filter.h>, the language of -Y),
 * packet counts by error kind (<bitsift/error_tally.h>), the statistics of
 * `bitsift stats` (<bitsift/stats.h>) and the diagnosis of `bitsift
 * diagnose` (<bitsift/diagnose.h>). All of it is in libbitsift and needs
 * nothing more; none of it prints.
 *
 * This API is experimental: it may change between releases, as zstd's
 * static-linking-only part does. A program states that it accepts this by
 * defining BITSIFT_EXPERIMENTAL before the include; each header refuses to
 * compile without it. The stable API is <bitsift.h>. The NDJSON record
 * reader is in the second library, libbitsift-tools (<bitsift/records.h>),
 * because it needs jansson.
 */
#ifndef BITSIFT_ANALYSIS_H
#define BITSIFT_ANALYSIS_H

#ifndef BITSIFT_EXPERIMENTAL
#error "<bitsift/analysis.h> is experimental: its API may change between releases; #define BITSIFT_EXPERIMENTAL before including it"
#endif

#include "diagnose.h"
#include "error_tally.h"
#include "filter.h"
#include "stats.h"

#endif
