#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""compare.py -- the generated Wireshark dissectors against bitsift decode.

    compare.py [--by-time] NAMES TSHARK.json BITSIFT.ndjson...

NAMES are the protocols (comma-separated) whose dissectors `bitsift gen
wireshark` made from the schemas; TSHARK.json is `tshark -X lua_script:...
-r CAPTURE -T json --no-duplicate-keys` with all of them loaded; each
BITSIFT.ndjson is `bitsift decode -F json` of the same capture with one or
more of the schemas. For every packet bitsift printed, tshark must show the
same protocol and packet type, the same fields with the same values in the
same order per field name (floats and doubles by their bits, enums by
name), and the same failure: kind, bit and field path; a packet that no
schema's CRC fits must be dissected by none. Packets are matched by frame
number, or with --by-time by timestamp (for decodes that filtered the
capture by port, whose indices count only the packets that passed).

Prints one line per difference (at most 20) and a summary; exit status 1
when anything differs or nothing was compared, 2 on bad input, 3 when
tshark reads none of bitsift's packets as UDP (a damaged capture).
"""
import json
import math
import struct
import sys


def flatten_bitsift(fields, containers):
    """name (path without indices) -> list of values, in document order;
    the names of structs and arrays into `containers`."""
    out = {}

    def leaf(path, v):
        out.setdefault(path, []).append(v)

    def walk(path, v):
        if isinstance(v, dict):
            if "@value" in v:
                walk(path, v["@value"])
                return
            containers.add(path)
            for k, x in v.items():
                if k == "@index":
                    continue
                walk(path + "." + k if path else k, x)
        elif isinstance(v, list):
            containers.add(path)
            for x in v:
                walk(path, x)
        else:
            leaf(path, v)

    walk("", fields)
    return out


def flatten_tshark(layer, prefix):
    """abbrev without `prefix` -> list of values (strings), document order."""
    out = {}

    def walk(v):
        if isinstance(v, dict):
            for k, x in v.items():
                if k.startswith(prefix) and isinstance(x, str):
                    out.setdefault(k[len(prefix):], []).append(x)
                elif k.startswith(prefix) and isinstance(x, list) and all(
                        isinstance(y, str) for y in x):
                    out.setdefault(k[len(prefix):], []).extend(x)
                else:
                    walk(x)
        elif isinstance(v, list):
            for x in v:
                walk(x)

    walk(layer)
    return out


def float_bits(v, wide):
    """bitsift's printed float or double as its bits (None for NaN)."""
    if isinstance(v, str):
        if "nan" in v:
            return None
        v = float(v)
    if wide:
        return struct.unpack("<Q", struct.pack("<d", float(v)))[0]
    return struct.unpack("<I", struct.pack("<f", float(v)))[0]


def is_nan_bits(b, wide):
    if wide:
        return (b >> 52) & 0x7ff == 0x7ff and b & ((1 << 52) - 1)
    return (b >> 23) & 0xff == 0xff and b & ((1 << 23) - 1)


def canonical(v):
    if isinstance(v, bool):
        return "1" if v else "0"
    if isinstance(v, float) and v == int(v):
        return str(int(v))
    return str(v)


def compare_values(name, b_values, t_fields):
    """Differences between bitsift's values of field `name` and tshark's."""
    if name + "-bits" in t_fields:
        bits = t_fields[name + "-bits"]
        if len(bits) != len(b_values):
            return [f"{name}: {len(b_values)} values in bitsift, {len(bits)} in tshark"]
        diffs = []
        for i, (bv, tb) in enumerate(zip(b_values, bits)):
            tbits = int(tb, 16)
            wide = len(tb) > 10
            want = float_bits(bv, wide)
            if want is None:
                if not is_nan_bits(tbits, wide):
                    diffs.append(f"{name}[{i}]: bitsift NaN, tshark bits {tb}")
            elif want != tbits:
                diffs.append(f"{name}[{i}]: bitsift {bv} (bits {want:#x}), tshark bits {tb}")
        return diffs
    if name + "-name" in t_fields:
        t_values = t_fields[name + "-name"]
    else:
        t_values = t_fields.get(name, [])
    b_canon = [canonical(v) for v in b_values]
    # Bytes: tshark writes "de:ad:be:ef", bitsift "deadbeef".
    t_canon = [y if y == x or ":" not in y or y.replace(":", "") != x else x
               for x, y in zip(b_canon, t_values)] + list(t_values[len(b_canon):])
    if b_canon != t_canon:
        for i, (x, y) in enumerate(zip(b_canon, t_canon)):
            if x != y:
                return [f"{name}[{i}]: bitsift {x!r}, tshark {y!r}"]
        return [f"{name}: {len(b_canon)} values in bitsift, {len(t_canon)} in tshark"]
    return []


def epoch(time_text):
    """bitsift's "2023-11-14T22:13:20.042000000Z" as tshark's frame.time_epoch."""
    import calendar
    date, frac = time_text.rstrip("Z").split(".")
    seconds = calendar.timegm(__import__("time").strptime(date, "%Y-%m-%dT%H:%M:%S"))
    return f"{seconds}.{frac}"


def main():
    args = sys.argv[1:]
    by_time = bool(args) and args[0] == "--by-time"
    if by_time:
        args = args[1:]
    if len(args) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    names = args[0].split(",")
    tshark_path = args[1]
    records = {}
    for path in args[2:]:
        with open(path) as f:
            for line in f:
                if line.strip():
                    r = json.loads(line)
                    key = epoch(r["time"]) if by_time else r["index"]
                    if key in records:
                        print(f"# two bitsift records for {key}", file=sys.stderr)
                        return 2
                    records[key] = r
    with open(tshark_path) as f:
        text = f.read()
    frames = {}
    for pkt in json.loads(text) if text.strip() else []:
        layers = pkt["_source"]["layers"]
        key = layers["frame"]["frame.time_epoch"] if by_time else int(
            layers["frame"]["frame.number"])
        frames[key] = layers
    diffs = []
    fields_compared = 0
    failures = 0
    empty = not_udp = compared = 0
    for index, r in sorted(records.items()):
        layers = frames.get(index)
        where = f"frame {index}"
        if r.get("length") == 0:
            # Wireshark's UDP dissector hands an empty payload to no one.
            empty += 1
            continue
        if layers is not None and "udp" not in layers:
            # tshark reads the frame otherwise (a damaged capture read
            # another way): tests/cli/tshark-crosscheck.sh compares
            # decapsulation; here only the dissector is compared.
            not_udp += 1
            continue
        compared += 1
        ours = [n for n in names if layers and n in layers]
        if r.get("error", {}).get("kind") == "protocol":
            # No schema's CRC fits: no heuristic may claim it either.
            failures += 1
            if ours:
                diffs.append(f"{where}: no schema fits it, yet tshark dissected it as {ours}")
            continue
        name = r.get("protocol")
        if layers is None or name not in layers:
            diffs.append(f"{where}: tshark did not dissect it as {name} ({ours})")
            continue
        if "_ws.lua.error" in json.dumps(layers):
            diffs.append(f"{where}: Lua error in the dissector")
            continue
        layer = layers[name]
        if isinstance(layer, list):
            diffs.append(f"{where}: {name} twice in one frame")
            continue
        top = flatten_tshark(layer, name + ".")
        # The failure: kind, bit and field.
        if r["valid"]:
            if "error" in top:
                diffs.append(f"{where}: bitsift valid, tshark error {top['error']} "
                             f"at {top.get('error-field', top.get('error.field'))}")
        else:
            failures += 1
            e = r["error"]
            # error.bit and error.field, or error-bit and error-field when
            # a packet type is called "error".
            got = (top.get("error", ["-"])[0],
                   top.get("error-bit", top.get("error.bit", ["-"]))[0],
                   top.get("error-field", top.get("error.field", [""]))[0])
            want = (e["kind"], str(e["bit"]), e["field"])
            if got != want:
                diffs.append(f"{where}: bitsift failure {want}, tshark {got}")
        ptype = r.get("type")
        if ptype is None:
            continue
        t_fields = flatten_tshark(layer, f"{name}.{ptype}.")
        if "fields" not in r:
            diffs.append(f"{where}: bitsift printed no fields (decode -q?)")
            continue
        containers = set()
        b_fields = flatten_bitsift(r["fields"], containers)
        # tshark's own extras: array counts, presence bits and indices, raw
        # bits and enum names (used above), check markers (bitsift leaves
        # checks out of its JSON; they are the only hexadecimal fields).
        # An empty struct (all its fields absent) is an item with no value.
        extra = {k for k in t_fields if "-" in k or all(
            v.startswith("0x") for v in t_fields[k]) or (
            k in containers and all(v == "" for v in t_fields[k]))}
        names = set(b_fields) | (set(t_fields) - extra)
        for n in sorted(names):
            if n not in b_fields:
                diffs.append(f"{where}: {n} only in tshark: {t_fields[n][:3]}")
                continue
            fields_compared += len(b_fields[n])
            for d in compare_values(n, b_fields[n], t_fields):
                diffs.append(f"{where}: {d}")
    for d in diffs[:20]:
        print("#", d)
    print(f"# {len(records)} packets ({failures} failing, {empty} empty"
          + (f", {not_udp} not UDP to tshark" if not_udp else "")
          + f"), {fields_compared} values, {len(diffs)} differences")
    if not compared:
        print("# no packet was compared")
        return 3 if not_udp and not diffs else 1
    return 1 if diffs else 0


if __name__ == "__main__":
    sys.exit(main())
