#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""lib_call_graph.py -- the call-level dependency graph of libbitsift's
objects, and a check that it has no cycle.

An object A depends on an object B when A uses (nm: U) a symbol that B
defines (T, D, B, R). The #include graph can be free of loops while the
calls are not; this looks at what the linker sees.

  lib_call_graph.py [--graph] DIR|OBJECT...

With --graph it prints every edge, "a -> b: sym, sym". As a test (no
--graph) it prints TAP: one point for the graph having no cycle, and on
failure the cycle found with the symbols that make each edge.
"""
import glob
import os
import subprocess
import sys


def objects_in(path):
    if os.path.isdir(path):
        # libtool keeps PIC objects in .libs; a --disable-shared build
        # keeps them beside the .lo files. The library's folders by
        # concern (lib/analysis/) are part of it.
        found = sorted(glob.glob(os.path.join(path, ".libs", "*.o")))
        found = found or sorted(glob.glob(os.path.join(path, "*.o")))
        for sub in sorted(os.listdir(path)):
            if not sub.startswith(".") and os.path.isdir(os.path.join(path, sub)):
                found += objects_in(os.path.join(path, sub))
        return found
    return [path]


def short_name(obj):
    base = os.path.basename(obj)[:-2]
    return base.split("-", 1)[1] if "-" in base else base


def symbols(obj):
    out = subprocess.run(["nm", "-P", obj], check=True, capture_output=True, text=True).stdout
    defined, used = set(), set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) < 2:
            continue
        name, kind = parts[0], parts[1]
        if kind == "U":
            used.add(name)
        elif kind in "TDBRVWtdbr" and kind.isupper():
            defined.add(name)
    return defined, used


def build_graph(objs):
    defs, uses = {}, {}
    for o in objs:
        n = short_name(o)
        defs[n], uses[n] = symbols(o)
    owner = {}
    for n, ds in defs.items():
        for s in ds:
            owner[s] = n
    edges = {n: {} for n in defs}
    for n, us in uses.items():
        for s in us:
            m = owner.get(s)
            if m is not None and m != n:
                edges[n].setdefault(m, []).append(s)
    return edges


def find_cycle(edges):
    WHITE, GREY, BLACK = 0, 1, 2
    colour = {n: WHITE for n in edges}
    stack = []

    def visit(n):
        colour[n] = GREY
        stack.append(n)
        for m in sorted(edges[n]):
            if colour[m] == GREY:
                return stack[stack.index(m):] + [m]
            if colour[m] == WHITE:
                c = visit(m)
                if c:
                    return c
        stack.pop()
        colour[n] = BLACK
        return None

    for n in sorted(edges):
        if colour[n] == WHITE:
            c = visit(n)
            if c:
                return c
    return None


def main(argv):
    show = "--graph" in argv
    args = [a for a in argv if a != "--graph"]
    if not args:
        lib = os.path.join(os.environ.get("top_builddir", "."), "lib")
        args = [lib]
    objs = [o for a in args for o in objects_in(a)]
    if not show:
        print("1..1")
    if not objs:
        print("not ok 1 - no objects found in %s" % " ".join(args))
        return 1
    edges = build_graph(objs)
    if show:
        for n in sorted(edges):
            for m in sorted(edges[n]):
                print("%s -> %s: %s" % (n, m, ", ".join(sorted(edges[n][m]))))
    cycle = find_cycle(edges)
    if show:
        print("cycle: " + (" -> ".join(cycle) if cycle else "none"))
        return 1 if cycle else 0
    if cycle:
        print("not ok 1 - the call graph of %d objects has a cycle" % len(objs))
        for a, b in zip(cycle, cycle[1:]):
            print("# %s -> %s uses %s" % (a, b, ", ".join(sorted(edges[a][b])[:6])))
        return 1
    print("ok 1 - the call graph of %d objects has no cycle" % len(objs))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
