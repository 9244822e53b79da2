#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""advisor-check.py -- `bitsift stats -F json` against decode's NDJSON.

On every test capture, recomputes here from `bitsift decode -F json`:
the minimum and maximum seen of each field in valid packets, the bits a
range fitted to them costs (int and enum fields: bits of max - min) and
the saving over the capture, the errors per packet type and kind, and the
packets and bytes per packet type summed over the bandwidth buckets; and
checks that stats reports the same. TAP output, one test per input.
"""
import json
import os
import struct
import subprocess
import sys
from collections import Counter, defaultdict

TOP = os.environ.get("top_srcdir", ".")
BUILD = os.environ.get("top_builddir", ".")
PROGRAM = os.path.join(os.path.abspath(BUILD), "src", "bitsift")
DATA = os.path.join(TOP, "tests", "cli", "data")
ARENA = os.path.join(DATA, "arena.bss")
LOBBY = os.path.join(DATA, "lobby.bss")


def run(args):
    env = dict(os.environ, LC_ALL="C", TZ="UTC",
               BITSIFT_SCHEMA_DIR=os.path.join(os.path.abspath(TOP), "examples"))
    p = subprocess.run([PROGRAM] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    return p.stdout.decode("utf-8", "surrogateescape")


def leaves(fields, prefix=""):
    for name, value in fields.items():
        path = prefix + name
        if isinstance(value, dict):
            yield from leaves(value, path + ".")
        elif isinstance(value, list):
            for element in value:
                if isinstance(element, dict) and "@index" in element:
                    element = element["@value"]
                if isinstance(element, dict):
                    yield from leaves(element, path + "[].")
                else:
                    yield path + "[]", element
        else:
            yield path, value


def f32(x):
    return struct.unpack("<f", struct.pack("<f", x))[0]


def bits(lo, hi):
    return 0 if hi == lo else (hi - lo).bit_length()


def check(schemas, path):
    problems = []
    recs = [json.loads(l) for l in run(["decode", "-F", "json"] + schemas + [path]).splitlines()]
    stats = json.loads(run(["stats", "-F", "json"] + schemas + [path]))
    seen = defaultdict(list)
    errors = Counter()
    traffic = Counter()
    for r in recs:
        key = r.get("type")
        if "time" in r:
            traffic[(r.get("protocol"), key, "packets")] += 1
            traffic[(r.get("protocol"), key, "bytes")] += r["length"]
        if not r["valid"]:
            errors[(r.get("protocol"), key, r["error"]["kind"])] += 1
            continue
        for p, v in leaves(r["fields"]):
            seen[(r["protocol"], key, p)].append(v)
    checked = 0
    for t in stats["types"]:
        for f in t["fields"]:
            values = seen.get((t["protocol"], t["type"], f["field"]))
            if not values or f["type"] in ("bool", "string", "bytes", "framing", "check"):
                if "observed" in f and f["type"] not in ("check", "bool"):
                    problems.append("%s %s: observed without values" % (t["type"], f["field"]))
                continue
            numbers = [v for v in values if isinstance(v, (int, float)) and not isinstance(v, bool)]
            if f["type"] == "enum" or not numbers:
                continue
            o = f.get("observed")
            if o is None:
                problems.append("%s %s: no observed" % (t["type"], f["field"]))
                continue
            checked += 1
            lo, hi = min(numbers), max(numbers)
            same = (lambda a, b: f32(a) == f32(b)) if isinstance(lo, float) else (lambda a, b: a == b)
            if o["count"] != len(values) or not same(o["min"], lo) or not same(o["max"], hi):
                problems.append("%s %s: observed %s, decode says %d values in %r..%r" % (
                    t["type"], f["field"], o, len(values), lo, hi))
            if f["type"] == "int":
                d = f["declared"]
                want = bits(lo, hi)
                saving = (bits(d["min"], d["max"]) - want) * len(values)
                if f["fitted"]["bits"] != want or f["fitted"]["saving_total"] != saving:
                    problems.append("%s %s: fitted %s, expected %d bits saving %d" % (
                        t["type"], f["field"], f["fitted"], want, saving))
    got_errors = Counter()
    for e in stats["errors_by_type"]:
        for kind, n in e["errors"].items():
            got_errors[(e["protocol"], e["type"], kind)] += n
    # A packet no schema claimed has no protocol in either output.
    if got_errors != errors:
        problems.append("errors by type %s, decode says %s" % (dict(got_errors), dict(errors)))
    got_traffic = Counter()
    for s in stats["bandwidth"]["types"]:
        got_traffic[(s["protocol"], s["type"], "packets")] += sum(s["packets"])
        got_traffic[(s["protocol"], s["type"], "bytes")] += sum(s["bytes"])
        if len(s["packets"]) > 120:
            problems.append("more than 120 buckets")
    if got_traffic != traffic:
        problems.append("bandwidth %s, decode says %s" % (dict(got_traffic), dict(traffic)))
    return checked, problems


def main():
    cases = []
    for name in sorted(os.listdir(DATA)):
        if name.endswith((".pcap", ".pcapng")):
            cases.append((["-s", ARENA] + (["-s", LOBBY] if name == "mixed.pcap" else []),
                          os.path.join(DATA, name)))
    cases.append((["-s", ARENA], os.path.join(DATA, "bad")))
    cases.append((["-s", ARENA], os.path.join(DATA, "packets")))
    for name in sorted(os.listdir(os.path.join(TOP, "examples"))):
        if name.endswith(".pcap"):
            cases.append(([], os.path.join(TOP, "examples", name)))
    print("1..%d" % len(cases))
    failed = 0
    for n, (schemas, path) in enumerate(cases, 1):
        checked, problems = check(schemas, path)
        what = "%s %s: %d fields' values" % (" ".join(schemas), path, checked)
        if problems:
            failed += 1
            print("not ok %d - %s" % (n, what))
            for p in problems[:10]:
                print("# " + p)
        else:
            print("ok %d - %s" % (n, what))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
