#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""filters.py -- display filters on the generated dissector's fields select
the frames that the same condition selects over bitsift's JSON.

    filters.py NAME CAPTURE BITSIFT.ndjson -- TSHARK_ARGS...

For protocol NAME, three filters are tried on CAPTURE with tshark (run with
TSHARK_ARGS, which load the dissector): an integer field compared with a
value it takes (the median of its values), a packet type, and the error
field. Each selects frames (by timestamp) that must be exactly those whose
bitsift record meets the condition. Prints TAP lines "ok"/"not ok" without
a plan (the caller counts them: three per call) and exits 0.
"""
import json
import subprocess
import sys

from compare import epoch


def leaves(fields, path=""):
    if isinstance(fields, dict):
        if "@value" in fields:
            yield from leaves(fields["@value"], path)
            return
        for k, v in fields.items():
            if k != "@index":
                yield from leaves(v, path + "." + k if path else k)
    elif isinstance(fields, list):
        for v in fields:
            yield from leaves(v, path)
    else:
        yield path, fields


def tshark_frames(args, expr):
    out = subprocess.run(["tshark"] + args + ["-Y", expr, "-T", "fields", "-e",
                                              "frame.time_epoch"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if out.returncode != 0:
        return None, out.stderr.strip().splitlines()[-1:]
    return {line.strip() for line in out.stdout.splitlines() if line.strip()}, None


def main():
    sep = sys.argv.index("--")
    name, capture, ndjson = sys.argv[1:sep]
    args = sys.argv[sep + 1:] + ["-r", capture]
    # Wireshark hands an empty UDP payload to no dissector.
    records = [r for r in (json.loads(l) for l in open(ndjson) if l.strip())
               if r.get("length") != 0]
    # An integer field (not a bool) of the most common packet type.
    values = {}
    for r in records:
        if r.get("type"):
            for path, v in leaves(r.get("fields", {})):
                if isinstance(v, int) and not isinstance(v, bool):
                    values.setdefault((r["type"], path), []).append(v)
    checks = []
    if values:
        (ptype, path), vs = max(values.items(), key=lambda kv: len(kv[1]))
        vs.sort()
        pivot = vs[len(vs) // 2]
        checks.append((f"{name}.{ptype}.{path} >= {pivot}",
                       lambda r: r.get("type") == ptype and any(
                           p == path and isinstance(v, int) and v >= pivot
                           for p, v in leaves(r.get("fields", {})))))
        checks.append((f"{name}.{ptype}",
                       lambda r: r.get("type") == ptype))
    checks.append((f"{name}.error", lambda r: not r["valid"] and r.get("protocol") == name))
    for expr, want in checks:
        expected = {epoch(r["time"]) for r in records if want(r)}
        got, err = tshark_frames(args, expr)
        if got is None:
            print(f"not ok - {name}: filter '{expr}' refused: {err}")
        elif got != expected:
            print(f"not ok - {name}: filter '{expr}' selects {len(got)} frames, bitsift's "
                  f"JSON {len(expected)}; first differences: {sorted(got ^ expected)[:3]}")
        else:
            print(f"ok - {name}: filter '{expr}' selects the same {len(got)} frames")
    for _ in range(3 - len(checks)):
        print(f"ok - {name}: # SKIP no integer field decoded")
    return 0


if __name__ == "__main__":
    sys.exit(main())
