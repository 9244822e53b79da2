#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# tests/wireshark/builtin-names.sh -- the names the installed tshark has
# taken that a dissector of `bitsift gen wireshark` could ask for, one a
# line, lowercase (Wireshark's Lua lowercases a protocol's filter name and
# uppercases its short name): the filter names of its protocols, their
# short names that are all uppercase, and its preference modules (a
# second module of one name aborts tshark). Only identifiers are listed:
# a generated name is one. Two modules no report lists are added by hand
# (packet_list, taps). tests/wireshark/names.sh checks the generator
# against it; with --header it prints lib/gen_wireshark_names.h.
set -u
LC_ALL=C
export LC_ALL
names() {
    {
        tshark -G protocols 2>/dev/null | awk -F '\t' '{ print $3; if ($2 !~ /[a-z]/) print tolower($2) }'
        tshark -G defaultprefs 2>/dev/null | sed -n 's/^#\([A-Za-z0-9_-]*\)\..*/\1/p'
        printf 'packet_list\ntaps\n'
    } | grep -E '^[a-z_][a-z0-9_]*$' | sort -u
}
if [ "${1:-}" != --header ]; then
    names
    exit
fi
version=$(tshark --version 2>/dev/null | sed -n '1s/.*(Wireshark) \([0-9.]*\).*/\1/p')
cat <<HEAD
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gen_wireshark_names.h -- the names Wireshark $version has taken that a
 * dissector of \`bitsift gen wireshark\` could ask for, lowercase and sorted
 * (strcmp, for bsearch): its protocols' filter names, their short names
 * that are all uppercase, and its preference modules. Made by
 * tests/wireshark/builtin-names.sh --header from tshark $version; a newer
 * Wireshark knows more protocols (tests/wireshark/names.sh lists those the
 * installed tshark has and this list has not).
 */
#ifndef BITSIFT_GEN_WIRESHARK_NAMES_H
#define BITSIFT_GEN_WIRESHARK_NAMES_H

#define WIRESHARK_NAMES_VERSION "$version"

static const char *const wireshark_builtin_names[] = {
HEAD
names | awk '{ item = " \"" $0 "\","
               if (length(line) + length(item) > 96) { print "   " line; line = "" }
               line = line item }
             END { if (line != "") print "   " line }'
cat <<'TAIL'
};

#endif /* BITSIFT_GEN_WIRESHARK_NAMES_H */
TAIL
