#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""bench/ab.py -- an A/B of two builds of bitsift on the figures `make bench`
guards, for a change that must not move them (a restructure, say):

  - in memory (bench_schema): ns per field of a validating decode, of a
    decode with a visitor and of a decode into a tree;
  - end to end: the CPU time of `bitsift validate -q` and of `bitsift
    decode --format json` on the 1 M-packet capture, as a ratio to the bare
    libpcap loop run in the same round (section 4's ratio).

  bench/ab.py A_BUILDDIR B_BUILDDIR SRCDIR [ROUNDS]

Both build directories must have run `make bench` once (programs and the
capture). A round runs every measurement of both builds, A first in odd
rounds and B first in even ones, so that the machine's drift falls on both.
Printed: the median of each figure over the rounds (default 9) for A and B,
and the median of the per-round ratios B/A (for ns/field and CPU time,
below 1 is faster; for the ratio to the loop, above 1 is faster).
"""
import os
import re
import statistics
import subprocess
import sys


def cpu_of(argv, env):
    """CPU seconds (user + system) of one run, output to /dev/null."""
    with open(os.devnull, "wb") as null:
        p = subprocess.Popen(argv, stdout=null, stdin=subprocess.DEVNULL, env=env)
        _, status, ru = os.wait4(p.pid, 0)
    if status != 0:
        sys.exit("ab.py: %s exited with status %d" % (argv[0], status))
    return ru.ru_utime + ru.ru_stime


def in_memory(build, schema):
    env = dict(os.environ, BENCH_REPS="1")
    text = subprocess.run([os.path.join(build, "bench", "bench_schema"), schema], env=env,
                          capture_output=True, text=True, check=True).stdout
    out = {}
    for name in ("validate", "visitor", "tree"):
        m = re.search(r"^3\s+%s\s+([0-9.]+) ns/field" % name, text, re.M)
        if m:
            out[name + " ns/field"] = float(m.group(1))
    return out


def end_to_end(build, schema, capture, loop_cpu):
    exe = os.path.join(build, "src", ".libs", "bitsift")
    env = dict(os.environ, LD_LIBRARY_PATH=os.path.join(build, "lib", ".libs"))
    if not os.access(exe, os.X_OK):
        exe, env = os.path.join(build, "src", "bitsift"), dict(os.environ)
    v = cpu_of([exe, "validate", "-q", "-s", schema, capture], env)
    j = cpu_of([exe, "decode", "-s", schema, "--format", "json", capture], env)
    return {"validate e2e ratio": loop_cpu / v, "json e2e ratio": loop_cpu / j}


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    a, b, srcdir = argv[:3]
    rounds = int(argv[3]) if len(argv) > 3 else 9
    schema = os.path.join(srcdir, "examples", "shooter.bss")
    capture = os.path.join(b, "bench", "shooter-1m.pcap")
    loop = os.path.join(b, "bench", "pcap_loop")
    figs = {"A": [], "B": []}
    for r in range(rounds):
        order = ("A", "B") if r % 2 == 0 else ("B", "A")
        loop_cpu = cpu_of([loop, capture], dict(os.environ))
        for which in order:
            build = a if which == "A" else b
            f = in_memory(build, schema)
            f.update(end_to_end(build, schema, capture, loop_cpu))
            figs[which].append(f)
    print("%-20s %10s %10s %8s   (%d rounds)" % ("figure", "A", "B", "B/A", rounds))
    for name in figs["A"][0]:
        va = [f[name] for f in figs["A"]]
        vb = [f[name] for f in figs["B"]]
        ratio = statistics.median(y / x for x, y in zip(va, vb))
        print("%-20s %10.3f %10.3f %8.3f" % (name, statistics.median(va), statistics.median(vb),
                                             ratio))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
