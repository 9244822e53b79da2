#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""wireshark.py -- section 6 of `make bench`: what Wireshark costs next to
bitsift on the same packets. The first 100,000 packets of the end-to-end
capture (bench/shooter-1m.pcap, made by bench_e2e) are decoded by

  bitsift decode -s shooter.bss --format json -c 100000
  tshark -T json -c 100000 with the dissector of `bitsift gen wireshark`
  tshark -c 100000 with it, the packet list only (no tree is shown: what
        Wireshark's first pass and display filters cost)
  tshark -T json -c 100000 without it (UDP and below only)

each as a child process with its output to /dev/null, timed by CPU time
(user + system, from the kernel's accounting of the child), rounds
interleaved, medians. No target: the row says what each costs. tshark
with the dissector takes minutes of CPU on these packets: one round by
default.

    wireshark.py TOP_BUILDDIR TOP_SRCDIR     (BENCH_WIRESHARK_REPS, default 1)
"""
import os
import resource
import shutil
import subprocess
import sys
import tempfile

ROW = "%-2s %-34s %-17s %-30s %-17s %-7s %s"
PACKETS = 100000


def figure(v):
    for div, prefix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if v >= div:
            return f"{v / div:.3g} {prefix}packets/s"
    return f"{v:.3g} packets/s"


def cpu_seconds(argv, env=None):
    """CPU time of one run of argv, output discarded; None when it fails."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    with open(os.devnull, "wb") as null:
        status = subprocess.call(argv, stdout=null, stderr=null, env=env)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if status != 0:
        return None
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def median(xs):
    xs = sorted(xs)
    return xs[len(xs) // 2]


def main():
    builddir, srcdir = sys.argv[1], sys.argv[2]
    what = "decode -F json, first 100 k packets"
    capture = os.path.join(builddir, "bench", "shooter-1m.pcap")
    schema = os.path.join(srcdir, "examples", "shooter.bss")
    bitsift = os.path.join(builddir, "src", ".libs", "bitsift")
    env = dict(os.environ)
    if os.access(bitsift, os.X_OK):
        env["LD_LIBRARY_PATH"] = os.path.join(builddir, "lib", ".libs")
    else:
        bitsift = os.path.join(builddir, "src", "bitsift")
    if not shutil.which("tshark"):
        print(ROW % ("6", what, "n/a (needs tshark)", "", "", "", ""))
        return 0
    if not os.path.exists(capture):
        print(ROW % ("6", what, "n/a (needs bench_e2e's capture)", "", "", "", ""))
        return 0
    reps = max(1, int(os.environ.get("BENCH_WIRESHARK_REPS", "1")))
    with tempfile.TemporaryDirectory() as tmp:
        lua = os.path.join(tmp, "shooter.lua")
        if subprocess.call([bitsift, "gen", "wireshark", "-s", schema, "-o", lua, "-p", "27015"],
                           env=env) != 0:
            print(ROW % ("6", what, "n/a (gen wireshark failed)", "", "", "", ""))
            return 1
        runs = {
            "bitsift": [bitsift, "decode", "-s", schema, "--format", "json", "-c", str(PACKETS),
                        capture],
            "dissector": ["tshark", "-n", "-X", "lua_script:" + lua, "-r", capture, "-c",
                          str(PACKETS), "-T", "json"],
            "list": ["tshark", "-n", "-X", "lua_script:" + lua, "-r", capture, "-c",
                     str(PACKETS)],
            "tshark": ["tshark", "-n", "-r", capture, "-c", str(PACKETS), "-T", "json"],
        }
        rates = {k: [] for k in runs}
        for _ in range(reps):
            for k, argv in runs.items():
                t = cpu_seconds(argv, env)
                if t is None:
                    print(ROW % ("6", what, f"n/a ({k} run failed)", "", "", "", ""))
                    return 1
                rates[k].append(PACKETS / t)
    b = median(rates["bitsift"])
    for k, name in (("dissector", "tshark -T json + gen wireshark"),
                    ("list", "tshark packet list + gen wireshark"),
                    ("tshark", "tshark -T json, no dissector")):
        base = median(rates[k])
        ratios = [x / y for x, y in zip(rates["bitsift"], rates[k])]
        print(ROW % ("6", what, figure(b), name, figure(base), f"{median(ratios):.2f}x", ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
