#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""lib_call_graph.py -- the call-level dependency graphs of the libraries'
objects and of the command's, and a check of the layering: no cycle in
either, and nothing in lib/ that calls into src/.

An object A depends on an object B when A uses (nm: U) a symbol that B
defines (T, D, B, R). The #include graph can be free of loops while the
calls are not; this looks at what the linker sees.

  lib_call_graph.py                    the five checks below, as TAP
  lib_call_graph.py [--graph] DIR|OBJECT...

Without arguments it looks at the objects make names in LIBRARY_OBJECTS
(the libraries' .lo files; their PIC objects are read) and
PROGRAM_OBJECTS (the bitsift program's), relative to $top_builddir, so
that objects left behind by a file's move or rename do not count; without
those, at every library object under lib/ and every bitsift-*.o under
src/. It prints five TAP points: the graph of lib/ has no cycle, the
graph of src/ has none, no lib/ object uses a symbol that a src/ object
defines, and, taken folder by folder (lib/ and lib/analysis; src/, src/io
and src/print), neither calls in a cycle. With paths it checks the one
graph of those objects; with --graph it prints every edge,
"a -> b: sym, sym". On failure it prints the cycle or the calls found,
with the symbols that make each edge.
"""
import glob
import os
import subprocess
import sys


def objects_in(path):
    if os.path.isdir(path):
        # libtool keeps PIC objects in .libs; a --disable-shared build
        # keeps them beside the .lo files. (library_objects walks the
        # folders by concern, lib/analysis, each with its own .libs.)
        found = sorted(glob.glob(os.path.join(path, ".libs", "*.o")))
        return found or sorted(glob.glob(os.path.join(path, "*.o")))
    return [path]


def named_objects(variable, top):
    """The objects make lists in an environment variable, or None. A
    libtool .lo stands for its PIC object in .libs (or, in a
    --disable-shared build, the .o beside it)."""
    names = os.environ.get(variable, "").split()
    if not names:
        return None
    found = []
    for n in names:
        path = os.path.join(top, n)
        if n.endswith(".lo"):
            d, base = os.path.split(path)
            pic = os.path.join(d, ".libs", base[:-3] + ".o")
            path = pic if os.path.exists(pic) else path[:-3] + ".o"
        found.append(path)
    return found


def library_objects(top):
    """The libraries' objects in top and its subfolders."""
    found = []
    for d, subdirs, _ in os.walk(top):
        subdirs[:] = sorted(s for s in subdirs if s != ".libs")
        found += objects_in(d)
    return [o for o in found if o.endswith(".o")]


def program_objects(top):
    """The bitsift program's objects (automake names them bitsift-*.o,
    for its own CFLAGS) in top and its subfolders; the unit tests' and
    harnesses' copies of src/ files have other prefixes."""
    found = []
    for d, subdirs, _ in os.walk(top):
        subdirs[:] = sorted(s for s in subdirs if s != ".libs")
        found += sorted(glob.glob(os.path.join(d, "bitsift-*.o")))
    return found


def short_name(obj):
    base = os.path.basename(obj)[:-2]
    base = base.split("-", 1)[1] if "-" in base else base
    # A folder's objects are named with it: analysis/filter.
    folder = os.path.basename(os.path.dirname(obj))
    if folder == ".libs":
        folder = os.path.basename(os.path.dirname(os.path.dirname(obj)))
    return base if folder == "lib" else folder + "/" + base


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


def report_cycle(number, what, objs):
    """One TAP point: the graph of objs has no cycle."""
    if not objs:
        print("not ok %d - %s: no objects found" % (number, what))
        return False
    edges = build_graph(objs)
    cycle = find_cycle(edges)
    if cycle:
        print("not ok %d - %s: the call graph of %d objects has a cycle" % (number, what, len(objs)))
        for a, b in zip(cycle, cycle[1:]):
            print("# %s -> %s uses %s" % (a, b, ", ".join(sorted(edges[a][b])[:6])))
        return False
    print("ok %d - %s: the call graph of %d objects has no cycle" % (number, what, len(objs)))
    return True


def folder_edges(edges):
    """The graph of folders: an edge where an object of one folder uses
    a symbol of another's (the top of lib/ or src/ is a folder too)."""
    def folder(n):
        return n.split("/", 1)[0] if "/" in n else "lib"
    out = {}
    for a, targets in edges.items():
        fa = folder(a)
        out.setdefault(fa, {})
        for b, syms in targets.items():
            fb = folder(b)
            if fb != fa:
                out[fa].setdefault(fb, []).extend("%s -> %s: %s" % (a, b, s) for s in syms)
    return out


def report_folder_cycle(number, what, objs):
    """One TAP point: the folders of objs call each other in one direction
    only (lib/analysis uses lib/, src/print uses src/io, never back)."""
    edges = folder_edges(build_graph(objs)) if objs else {}
    cycle = find_cycle(edges) if edges else None
    if not objs or cycle:
        print("not ok %d - %s: folders call each other in a cycle" % (number, what))
        for a, b in zip(cycle or [], (cycle or [])[1:]):
            print("# %s -> %s: %s" % (a, b, "; ".join(sorted(edges[a][b])[:3])))
        return False
    layers = ", ".join("%s -> %s" % (a, "/".join(sorted(t))) for a, t in sorted(edges.items()) if t)
    print("ok %d - %s: folders in one direction (%s)" % (number, what, layers or "one folder"))
    return True


def report_upcalls(number, lib_objs, src_objs):
    """One TAP point: no library object uses a symbol of the command."""
    src_defined = {}
    for o in src_objs:
        for s in symbols(o)[0]:
            src_defined[s] = short_name(o)
    bad = []
    for o in lib_objs:
        for s in sorted(symbols(o)[1]):
            if s in src_defined:
                bad.append("%s -> %s: %s" % (short_name(o), src_defined[s], s))
    if bad or not src_objs:
        print("not ok %d - lib/ calls into src/ (%d calls)" % (number, len(bad)))
        for b in bad[:20]:
            print("# " + b)
        return False
    print("ok %d - no call from %d lib/ objects into %d src/ objects" % (number, len(lib_objs), len(src_objs)))
    return True


def main(argv):
    show = "--graph" in argv
    args = [a for a in argv if a != "--graph"]
    if not args and not show:
        top = os.environ.get("top_builddir", ".")
        lib_objs = named_objects("LIBRARY_OBJECTS", top) or library_objects(os.path.join(top, "lib"))
        src_objs = named_objects("PROGRAM_OBJECTS", top) or program_objects(os.path.join(top, "src"))
        print("1..5")
        ok = report_cycle(1, "lib/", lib_objs)
        ok = report_cycle(2, "src/ (the bitsift program)", src_objs) and ok
        ok = report_upcalls(3, lib_objs, src_objs) and ok
        ok = report_folder_cycle(4, "lib/ by folder", lib_objs) and ok
        ok = report_folder_cycle(5, "src/ by folder", src_objs) and ok
        return 0 if ok else 1
    if not args:
        args = [os.path.join(os.environ.get("top_builddir", "."), "lib")]
    objs = [o for a in args for o in (library_objects(a) if os.path.isdir(a) else [a])]
    if not show:
        print("1..1")
        return 0 if report_cycle(1, " ".join(args), objs) else 1
    edges = build_graph(objs)
    for n in sorted(edges):
        for m in sorted(edges[n]):
            print("%s -> %s: %s" % (n, m, ", ".join(sorted(edges[n][m]))))
    cycle = find_cycle(edges)
    print("cycle: " + (" -> ".join(cycle) if cycle else "none"))
    return 1 if cycle else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
