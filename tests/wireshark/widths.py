#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""widths.py -- one schema with an integer field of every width and range
kind, and packets of the values at both ends of each, for the comparison of
the generated Wireshark dissector with bitsift decode (widths.sh).

    widths.py SCHEMA.bss RECORDS.ndjson

The packet type holds, for every width w: bits(w); int(0, 2^w - 1);
int(-2^(w-1), 2^(w-1) - 1); int(-(2^w - 1), 0); ranges of w bits at the
top and at the bottom of the signed 64-bit range (numbers Lua cannot hold
exactly whatever w is); an enum of signed values and one of unsigned values
over w bits. Then the relative encodings, with their bases as fields:
int_relative and sequence_relative across every rung of their ladders,
object_index with max_objects from 126 to 2^31 - 2 (its last rung
6 + 1..25 bits) and ack_relative in and out of its 1..64 window.

The records (as bitsift decode -F json prints them, for bitsift encode)
take every field to its minimum, its maximum, one above the minimum, one
below the maximum, the middle, then random values; the relative fields
walk their ladders' ends.
"""
import json
import random
import sys

I64_MIN, I64_MAX = -(1 << 63), (1 << 63) - 1
I32_MIN, I32_MAX = -(1 << 31), (1 << 31) - 1
# The ends of each rung of int_relative's ladder (DESIGN.md), then the
# first difference sent as an absolute 32-bit value.
RUNGS = [1, 2, 6, 7, 23, 24, 280, 281, 4377, 4378, 69914, 69915, 1 << 20]
# object_index: +1, then [2,5], [6,13], [14,29], [30,61], [62,125], then
# int(d, 126, max_objects + 1).
INDEX_RUNGS = [1, 2, 5, 6, 13, 14, 29, 30, 61, 62, 125, 126, 127]
MAX_OBJECTS = [126, 127, 128, 255, 256, 1000, 4096, 65535, 1 << 20, 1 << 24, 1 << 30,
               I32_MAX - 1]


def ranges():
    """(name, lo, hi) of every int field, and (name, width) of bits."""
    ints = []
    for w in range(1, 65):
        if w < 64:
            ints.append((f"u{w}", 0, (1 << w) - 1))
            ints.append((f"n{w}", -((1 << w) - 1), 0))
        ints.append((f"s{w}", -(1 << (w - 1)), (1 << (w - 1)) - 1))
        if w < 63:
            ints.append((f"top{w}", I64_MAX - ((1 << w) - 1), I64_MAX))
            ints.append((f"bottom{w}", I64_MIN, I64_MIN + (1 << w) - 1))
    return ints


def enums():
    """(enum name, field name, {value name: value}) for every width."""
    out = []
    for w in range(1, 65):
        lo, hi = -(1 << (w - 1)), (1 << (w - 1)) - 1
        values = {"low": lo, "high": hi}
        if lo < 1 < hi:
            values["one"] = 1
        out.append((f"Signed{w}", f"es{w}", lo, hi, values))
        if w < 64:
            hi = (1 << w) - 1
            values = {"zero": 0, "full": hi}
            if w > 1:
                values["half"] = hi // 2
            out.append((f"Unsigned{w}", f"eu{w}", 0, hi, values))
    return out


def schema():
    lines = ["protocol widths { id 34; }"]
    for ename, _, lo, hi, values in enums():
        items = ", ".join(f"{k} = {v}" for k, v in sorted(values.items(), key=lambda x: x[1]))
        lines.append(f"enum {ename} : int({lo}, {hi}) {{ {items} }}")
    lines.append("packet p {")
    for w in range(1, 65):
        lines.append(f"    bits({w}) b{w};")
    for name, lo, hi in ranges():
        lines.append(f"    int({lo}, {hi}) {name};")
    for ename, fname, _, _, _ in enums():
        lines.append(f"    {ename} {fname};")
    lines.append(f"    int({I32_MIN}, {I32_MAX - 1}) rel_base;")
    lines.append("    int_relative(rel_base) rel;")
    lines.append("    int(0, 65535) seq_base;")
    lines.append("    sequence_relative(seq_base) seq;")
    lines.append("    int(0, 65535) ack_seq;")
    lines.append("    ack_relative(ack_seq) ack;")
    for k, m in enumerate(MAX_OBJECTS):
        lines.append(f"    int(-1, {m - 1}) index_base{k};")
        lines.append(f"    object_index(index_base{k}, {m}) index{k};")
    lines.append("}")
    return "\n".join(lines) + "\n"


def pick(j, lo, hi, rng):
    """Packet j's value in [lo, hi]: the ends, next to them, the middle,
    then random."""
    choices = [lo, hi, min(lo + 1, hi), max(hi - 1, lo), lo + (hi - lo) // 2]
    return choices[j] if j < len(choices) else rng.randint(lo, hi)


def record(j, rng):
    f = {}
    for w in range(1, 65):
        f[f"b{w}"] = pick(j, 0, (1 << w) - 1, rng)
    for name, lo, hi in ranges():
        f[name] = pick(j, lo, hi, rng)
    for _, fname, _, _, values in enums():
        names = sorted(values, key=lambda k: values[k])
        f[fname] = names[j % len(names)] if j < 6 else rng.choice(names)
    d = RUNGS[j % len(RUNGS)]
    # the base at the bottom, then at the top, of what leaves room for d
    base = I32_MIN if j % 2 == 0 else I32_MAX - d
    f["rel_base"], f["rel"] = base, base + d
    s1 = rng.randint(0, 65535) if j >= 4 else [0, 65535, 1, 65534][j]
    f["seq_base"], f["seq"] = s1, (s1 + min(d, 65535)) % 65536
    a = [1, 64, 65, 0, 32][j % 5]
    f["ack_seq"], f["ack"] = s1, (s1 - a) % 65536
    for k, m in enumerate(MAX_OBJECTS):
        d = min(INDEX_RUNGS[j % len(INDEX_RUNGS)] if j < 2 * len(INDEX_RUNGS) else
                rng.randint(1, m + 1), m + 1)
        base = -1 if j % 2 == 0 else m - d
        f[f"index_base{k}"], f[f"index{k}"] = base, base + d
    return {"type": "p", "fields": f}


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    with open(sys.argv[1], "w") as out:
        out.write(schema())
    rng = random.Random(34)
    with open(sys.argv[2], "w") as out:
        for j in range(32):
            out.write(json.dumps(record(j, rng)) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
