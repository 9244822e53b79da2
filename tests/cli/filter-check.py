#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""filter-check.py -- bitsift's -Y filters against an independent evaluation.

For every test capture (tests/cli/data, examples/*.pcap) this script reads
bitsift's NDJSON (`decode -F json`), makes filter expressions from the
values it holds (every comparison operator on observed values and their
neighbours, enum names, strings, bytes, packet types, failures, and random
combinations with && || ! and parentheses), evaluates each expression here
over the JSON by the rules of bitsift(1) FILTERS, and checks that
`bitsift decode -Y EXPR` selects exactly the same packets. TAP output, one
test per input.

The evaluation shares no code with bitsift: its own tokenizer, parser and
path walk over the JSON. Float fields are compared in float32 (the literal
rounded to float32), as bitsift(1) defines; field types come from
`bitsift stats -F json`.
"""
import json
import os
import random
import re
import struct
import subprocess
import sys

TOP = os.environ.get("top_srcdir", ".")
BUILD = os.environ.get("top_builddir", ".")
PROGRAM = os.path.join(os.path.abspath(BUILD), "src", "bitsift")
DATA = os.path.join(TOP, "tests", "cli", "data")
ARENA = os.path.join(DATA, "arena.bss")
LOBBY = os.path.join(DATA, "lobby.bss")
# Expressions per input (one bitsift run each); FILTER_CHECK_COUNT=1000 for
# a deeper run.
EXPRESSIONS_PER_INPUT = int(os.environ.get("FILTER_CHECK_COUNT", "30"))


def run(args):
    env = dict(os.environ, LC_ALL="C", TZ="UTC",
               BITSIFT_SCHEMA_DIR=os.path.join(os.path.abspath(TOP), "examples"))
    p = subprocess.run([PROGRAM] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       env=env)
    return p.returncode, p.stdout.decode("utf-8", "surrogateescape"), p.stderr.decode(
        "utf-8", "replace")


def records(schemas, path, extra):
    _, out, _ = run(["decode", "-F", "json"] + extra + schemas + [path])
    return [json.loads(line) for line in out.splitlines() if line.strip()]


def field_types(schemas, path):
    """(type name, path with []) -> bitsift field type, from stats."""
    _, out, _ = run(["stats", "-F", "json"] + schemas + [path])
    types = {}
    try:
        for t in json.loads(out)["types"]:
            for f in t["fields"]:
                types[(t["type"], f["field"])] = f["type"]
    except (ValueError, KeyError):
        pass
    return types


# ---- the language -------------------------------------------------------

TOKEN = re.compile(r"""\s*(?:
    (?P<op>==|!=|<=|>=|<|>|&&|\|\||!|\(|\))
  | (?P<string>"(?:[^"\\]|\\.)*")
  | (?P<number>[-+]?(?:0[xX][0-9a-fA-F]+|(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?))
  | (?P<path>[A-Za-z_]\w*(?:\[\])*(?:\.[A-Za-z_]\w*(?:\[\])*)*)
)""", re.X)
WORDS = {"and": "&&", "or": "||", "not": "!", "eq": "==", "ne": "!=", "lt": "<", "le": "<=",
         "gt": ">", "ge": ">=", "contains": "contains"}
COMPARE = {"==", "!=", "<", "<=", ">", ">=", "contains"}


def tokenize(text):
    out, pos = [], 0
    while pos < len(text):
        if text[pos:].strip() == "":
            break
        m = TOKEN.match(text, pos)
        if not m or m.end() == pos:
            raise ValueError("cannot tokenize at %d" % pos)
        pos = m.end()
        if m.group("op"):
            out.append(("op", m.group("op")))
        elif m.group("string"):
            out.append(("string", unescape(m.group("string")[1:-1])))
        elif m.group("number"):
            out.append(("number", m.group("number")))
        else:
            word = m.group("path")
            out.append(("op", WORDS[word]) if word in WORDS else ("path", word))
    return out


def unescape(s):
    """A quoted string's bytes (escapes: backslash, quote, n, t, xHH)."""
    escapes = {ord("n"): b"\n", ord("t"): b"\t", 0x5C: b"\\", 0x22: b'"'}
    out, raw, i = bytearray(), s.encode("utf-8"), 0
    while i < len(raw):
        if raw[i] == 0x5C and raw[i + 1] == ord("x"):
            out.append(int(raw[i + 2:i + 4], 16))
            i += 4
        elif raw[i] == 0x5C:
            out += escapes[raw[i + 1]]
            i += 2
        else:
            out.append(raw[i])
            i += 1
    return bytes(out)


class Parser:
    def __init__(self, text):
        self.t = tokenize(text)
        self.i = 0

    def peek(self):
        return self.t[self.i] if self.i < len(self.t) else ("end", None)

    def take(self):
        tok = self.peek()
        self.i += 1
        return tok

    def parse(self):
        node = self.or_()
        if self.peek()[0] != "end":
            raise ValueError("trailing tokens")
        return node

    def or_(self):
        node = self.and_()
        while self.peek() == ("op", "||"):
            self.take()
            node = ("or", node, self.and_())
        return node

    def and_(self):
        node = self.unary()
        while self.peek() == ("op", "&&"):
            self.take()
            node = ("and", node, self.unary())
        return node

    def unary(self):
        tok = self.take()
        if tok == ("op", "!"):
            return ("not", self.unary())
        if tok == ("op", "("):
            node = self.or_()
            if self.take() != ("op", ")"):
                raise ValueError("no )")
            return node
        if tok == ("path", "true"):
            return ("const", True)
        if tok == ("path", "false"):
            return ("const", False)
        if tok[0] != "path":
            raise ValueError("test expected")
        if self.peek()[0] == "op" and self.peek()[1] in COMPARE:
            op = self.take()[1]
            value = self.take()
            return ("test", tok[1], op, value)
        return ("test", tok[1], None, None)


# ---- evaluation over one JSON record -------------------------------------

def f32(x):
    return struct.unpack("<f", struct.pack("<f", x))[0]


def number(text):
    body = text.lstrip("+-")
    if body[:2] in ("0x", "0X"):
        v = int(body, 16)
        return -v if text.startswith("-") else v
    if re.search(r"[.eE]", body):
        return float(text)
    return int(text)


def json_float(v):
    if isinstance(v, str):  # non-finite: "inf", "-inf", "nan", "nan:0x7fc00001"
        v = v.lower()
        return float("nan") if "nan" in v else float("-inf" if v.startswith("-") else "inf")
    return float(v)


def ordered(a, b, op):
    if op == "==":
        return a == b
    if op == "!=":
        return a != b
    if op == "<":
        return a < b
    if op == "<=":
        return a <= b
    if op == ">":
        return a > b
    if op == ">=":
        return a >= b
    raise ValueError(op)


def walk(fields, components):
    """Every (path with [], value) the components reach in the fields."""
    found = []

    def go(node, k, canonical):
        if k == len(components):
            found.append((canonical, node))
            return
        name, brackets = components[k]
        if not isinstance(node, dict) or name not in node:
            return
        value = node[name]
        here = canonical + ("." if canonical else "") + name
        if isinstance(value, list):
            last = k + 1 == len(components)
            for element in value:
                if isinstance(element, dict) and "@index" in element:
                    element = element["@value"]
                if last and not brackets and isinstance(element, dict):
                    break  # an array of structs named alone: the array (checked below)
                go(element, k + 1, here + "[]")
            else:
                return
            found.append((here, value))
            return
        go(value, k + 1, here)

    go(fields, 0, "")
    return found


def compare_value(ftype, value, op, lit):
    kind, text = lit
    if ftype in ("float", "compressed_float", "double"):
        v = json_float(value)
        x = number(text) if kind == "number" else {"true": 1, "false": 0}[text]
        if ftype != "double":
            v, x = f32(v), f32(float(x))
        return ordered(v, float(x), op) if v == v else op == "!="
    if ftype == "enum":
        if kind == "path" or kind == "string":
            name = text if kind == "path" else text.decode()
            return ordered(value == name, True, "==") if op == "==" else value != name
        raise ValueError("enum by number")
    if ftype == "string":
        b = value.encode("utf-8")
        return (text in b) if op == "contains" else ordered(b, text, op)
    if ftype == "bytes":
        b = bytes.fromhex(value)
        h = bytes.fromhex(text.decode().replace(":", ""))
        return (h in b) if op == "contains" else ordered(b, h, op)
    if ftype == "bool":
        x = {"true": 1, "false": 0}[text] if kind == "path" else number(text)
        return ordered(int(value), x, op)
    x = number(text) if kind == "number" else {"true": 1, "false": 0}[text]
    return ordered(int(value), x, op)


def type_matches(record, name):
    t = record.get("type")
    return t is not None and (t == name or t.lower() == name.lower())


def glob_path(path, pattern):
    return re.fullmatch(re.escape(pattern).replace(r"\[\]", r"\[[^\]]*\]"), path) is not None


def failures(record):
    out = []
    if not record.get("valid", True):
        out.append(record["error"])
    if "crc_mismatch" in record and record["error"]["kind"] != "crc":
        out.append({"kind": "crc", "field": "crc", "bit": 0})
    return out


def test(record, types, path, op, lit):
    head, _, rest = path.partition(".")
    if head == "error":
        errs = failures(record)
        if rest == "":
            return bool(errs)
        if rest == "kind":
            return any((e["kind"] == lit[1]) == (op == "==") for e in errs)
        if rest == "bit":
            return any(ordered(e["bit"], number(lit[1]), op) for e in errs)
        if rest == "field":
            pattern = lit[1].decode()
            if op == "contains":
                return any(pattern in e["field"] for e in errs)
            return any(glob_path(e["field"], pattern) == (op == "==") for e in errs)
    if not type_matches(record, head):
        return False
    if rest == "":
        return True
    components = [(c.replace("[]", ""), c.endswith("[]")) for c in rest.split(".")]
    hits = walk(record.get("fields", {}), components)
    if op is None:
        return bool(hits)
    for canonical, value in hits:
        ftype = types.get((record["type"], canonical))
        if ftype is None:
            raise KeyError(canonical)
        if compare_value(ftype, value, op, lit):
            return True
    return False


def evaluate(node, record, types):
    kind = node[0]
    if kind == "const":
        return node[1]
    if kind == "not":
        return not evaluate(node[1], record, types)
    if kind == "and":
        return evaluate(node[1], record, types) and evaluate(node[2], record, types)
    if kind == "or":
        return evaluate(node[1], record, types) or evaluate(node[2], record, types)
    return test(record, types, node[1], node[2], node[3])


# ---- expressions from what a capture holds --------------------------------

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


def quote(b):
    out = '"'
    for c in b:
        if c in (0x22, 0x5C):
            out += "\\" + chr(c)
        elif 0x20 <= c < 0x7F:
            out += chr(c)
        else:
            out += "\\x%02x" % c
    return out + '"'


def atoms(recs, types, rng):
    made = []
    for r in recs:
        t = r.get("type")
        if t is None:
            continue
        made.append(rng.choice([t, t.lower()]))
        for path, value in leaves(r.get("fields", {})):
            ftype = types.get((t, path))
            if ftype is None:
                continue
            spelled = rng.choice([path, path.replace("[]", "")]) if "[]" in path else path
            name = (t if rng.random() < 0.7 else t.lower()) + "." + spelled
            op = rng.choice(["==", "!=", "<", "<=", ">", ">="])
            if ftype in ("float", "compressed_float", "double"):
                if isinstance(value, str):
                    continue
                v = rng.choice([value, value + 1, value - 0.5, round(value, 1)])
                made.append("%s %s %r" % (name, op, float(v)))
            elif ftype == "enum":
                made.append("%s %s %s" % (name, rng.choice(["==", "!="]), value))
            elif ftype == "string":
                b = value.encode()
                if rng.random() < 0.3 and b:
                    made.append("%s contains %s" % (name, quote(b[:rng.randint(1, len(b))])))
                else:
                    made.append("%s %s %s" % (name, op, quote(b)))
            elif ftype == "bytes":
                made.append('%s %s "%s"' % (name, rng.choice(["==", "!=", "<", ">="]), value))
            elif ftype == "bool":
                made.append("%s == %s" % (name, rng.choice(["true", "false"])))
            elif isinstance(value, int) and not isinstance(value, bool):
                v = value + rng.choice([-1, 0, 0, 1])
                made.append("%s %s %s" % (name, op, rng.choice([str(v), hex(v) if 0 <= v < 2 ** 64 else str(v)])))
            if rng.random() < 0.1:
                made.append(name)  # present
        if not r.get("valid", True):
            e = r["error"]
            made.append("error")
            made.append("error.kind %s %s" % (rng.choice(["==", "!="]), e["kind"]))
            field = e["field"]
            made.append('error.field == "%s"' % re.sub(r"\[\d+\]", "[]", field))
            made.append('error.field %s "%s"' % (rng.choice(["==", "!="]), field))
            made.append('error.bit %s %d' % (rng.choice(["<", ">=", "=="]), e["bit"]))
    return sorted(set(made))


def combine(pool, rng, depth=0):
    if depth > 2 or rng.random() < 0.4:
        a = rng.choice(pool)
        return "!" + a if rng.random() < 0.2 and not a.startswith("!") else a
    op = rng.choice(["&&", "||", "and", "or"])
    a, b = combine(pool, rng, depth + 1), combine(pool, rng, depth + 1)
    text = "%s %s %s" % (a, op, b)
    return ("!(%s)" if rng.random() < 0.3 else "(%s)") % text


# ---- the inputs -----------------------------------------------------------

def inputs():
    out = []
    for name in sorted(os.listdir(DATA)):
        path = os.path.join(DATA, name)
        if name.endswith((".pcap", ".pcapng")):
            schemas = ["-s", ARENA] + (["-s", LOBBY] if name == "mixed.pcap" else [])
            out.append((schemas, [], path))
    out.append((["-s", ARENA], [], os.path.join(DATA, "bad")))
    out.append((["-s", ARENA], ["--no-crc"], os.path.join(DATA, "bad")))
    out.append((["-s", ARENA], [], os.path.join(DATA, "packets")))
    out.append((["-s", ARENA, "-s", LOBBY], [], os.path.join(DATA, "encoded.pcap")))
    examples = os.path.join(TOP, "examples")
    for name in sorted(os.listdir(examples)):
        if name.endswith((".pcap", ".pcapng")):
            out.append(([], [], os.path.join(examples, name)))
    return out


def selected(schemas, extra, path, expression):
    status, out, err = run(["decode", "-F", "json", "-q", "-Y", expression] + extra + schemas +
                           [path])
    if status not in (0, 2) or "-Y" in err:
        raise RuntimeError("bitsift -Y %r: exit %d: %s" % (expression, status, err.strip()))
    return [(r["source"], r["index"]) for r in map(json.loads, out.splitlines())]


def main():
    rng = random.Random(29)
    cases = inputs()
    print("1..%d" % len(cases))
    failed = 0
    total = 0
    for n, (schemas, extra, path) in enumerate(cases, 1):
        recs = records(schemas, path, extra)
        if not recs:  # nothing to select: a capture that cannot be read
            print("ok %d - %s %s: no packets # SKIP" % (n, " ".join(schemas + extra), path))
            continue
        types = field_types(schemas, path)
        pool = atoms(recs, types, rng) or ["error"]
        expressions = pool[:]
        rng.shuffle(expressions)
        expressions = expressions[:EXPRESSIONS_PER_INPUT // 2]
        expressions += [combine(pool, rng) for _ in range(EXPRESSIONS_PER_INPUT // 2)]
        problems = []
        telling = 0  # expressions that select some packets but not all
        for e in expressions:
            tree = Parser(e).parse()
            want = [(r["source"], r["index"]) for r in recs if evaluate(tree, r, types)]
            got = selected(schemas, extra, path, e)
            telling += 0 < len(want) < len(recs)
            if want != got:
                problems.append("%s: bitsift %s, expected %s" % (e, got, want))
        total += len(expressions)
        what = "%s %s: %d expressions over %d packets, %d selecting some but not all" % (
            " ".join(schemas + extra), path, len(expressions), len(recs), telling)
        if len(recs) > 1 and telling == 0:
            problems.append("no expression told the packets apart")
        if problems:
            failed += 1
            print("not ok %d - %s" % (n, what))
            for p in problems[:10]:
                print("# " + p)
        else:
            print("ok %d - %s" % (n, what))
    print("# %d expressions checked" % total)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
