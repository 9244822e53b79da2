#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# make-many-types.sh N DIR BITSIFT -- the input of diagnose when many
# packet types fail (tests/diagnose/many-types.sh, `make bench`):
# DIR/schema.bss holds N packet types of 8 fields each, DIR/packets about
# 20 packets of every type (`bitsift seeds -c 7`) written with a drifted
# copy (DIR/drifted.bss: every type's field c widened from 10 to 12 bits),
# so that most of them fail with the schema.
set -eu
n=$1
dir=$2
bitsift=$3
schema() { # schema C_MAX: the schema with int(0, C_MAX) c
    echo "protocol many { version 1; crc on; end_check \"end of packet\"; }"
    echo "enum Mode { idle, walk, run, jump }"
    i=0
    while [ "$i" -lt "$n" ]; do
        printf 'packet t%d {\n    int(0, 100) a;\n    int(-50, 50) b;\n    int(0, %d) c;\n' "$i" "$1"
        printf '    bool d;\n    Mode e;\n    uint8 f;\n    int(0, 63) g;\n    int(-1000, 1000) h;\n}\n'
        i=$((i + 1))
    done
}
mkdir -p "$dir/packets"
schema 1000 >"$dir/schema.bss"
schema 4000 >"$dir/drifted.bss"
"$bitsift" seeds -q -c 7 -s "$dir/drifted.bss" -o "$dir/packets"
