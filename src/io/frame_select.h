/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * frame_select.h -- `--frame N[-M][,...]`: which frame numbers of each
 * input the command reads.
 *
 * A selection is a sorted list of disjoint ranges of 1-based frame
 * numbers, made once from the command line; asking whether a frame is in
 * it is a binary search (no allocation). Frame numbers are those of the
 * input being read (a capture's frame numbers, BPF-filtered frames
 * counted, as Wireshark and `tcpdump -#` number them; a raw packet file is
 * frame 1), so with several inputs the same numbers are taken from each.
 */
#ifndef BITSIFT_FRAME_SELECT_H
#define BITSIFT_FRAME_SELECT_H

#include <stddef.h>
#include <stdint.h>

/* Ranges one selection may hold (after merging overlaps). */
#define FRAME_SELECT_MAX_RANGES 4096

struct frame_range {
    uint64_t first, last; /* inclusive; last == UINT64_MAX for "N-" */
};

struct frame_select {
    struct frame_range *ranges;
    size_t count;
};

/* Add the ranges of one --frame argument: "12", "5-9", "100-" and lists
 * of them separated by commas. Returns 0, or -1 with a message in
 * `error` (what is wrong and where in the text). */
int frame_select_add(struct frame_select *s, const char *text, char *error, size_t error_size);

/* Whether frame `number` is selected (an empty selection selects all). */
int frame_select_has(const struct frame_select *s, uint64_t number);

/* The largest selected frame number (UINT64_MAX when open-ended or empty):
 * reading an input can stop after it. */
uint64_t frame_select_last(const struct frame_select *s);

void frame_select_free(struct frame_select *s);

#endif /* BITSIFT_FRAME_SELECT_H */
