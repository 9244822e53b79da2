#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""random_schema.py -- a random bitsift schema, for the randomized test of
the generated Wireshark dissector (tests/wireshark/compare.sh).

    random_schema.py SEED

Prints a schema that uses the constructs of bitsift-schema(5) in random
combinations: every scalar type with random parameters (64-bit extremes
included), enums dense and sparse, signed and 64-bit wide, structs,
vectors and quaternions, smallest three, the seven kinds of arrays, ifs
with else branches and conditions over earlier fields (defaults
included), constraints, relative fields on constants, fields and
previous(), checks and alignment, and the framing variants (CRC on or off,
prefix, end check, one or several packet types). The same seed gives the
same schema.
"""
import random
import sys

I64_MIN, I64_MAX = -(1 << 63), (1 << 63) - 1


class Gen:
    def __init__(self, seed):
        self.r = random.Random(seed)
        self.enums = []    # (name, values, wide)
        self.structs = []  # names, usable once declared below
        self.element_structs = []  # structs with previous(): array elements only
        self.n = 0

    def name(self, stem):
        self.n += 1
        return f"{stem}{self.n}"

    def int_range(self):
        r = self.r
        kind = r.random()
        if kind < 0.1:
            return I64_MIN, I64_MAX
        if kind < 0.2:
            lo = r.randint(I64_MIN, 0)
            return lo, lo + r.randint(0, 1 << r.randint(1, 62))
        if kind < 0.25:
            v = r.randint(-5, 5)
            return v, v
        lo = r.randint(-1000, 1000)
        return lo, lo + r.randint(1, 1 << r.randint(1, 20))

    def enum(self):
        r = self.r
        name = self.name("E")
        values = []
        v = r.randint(-3, 3)
        for _ in range(r.randint(1, 6)):
            values.append(v)
            v += 1 if r.random() < 0.6 else r.randint(2, 50)
        items = ", ".join(f"n{i} = {x}" for i, x in enumerate(values))
        wide = False
        head = f"enum {name}"
        if r.random() < 0.2:
            head += f" : int({I64_MIN}, {I64_MAX})"
            wide = True
        elif r.random() < 0.3:
            head += f" : int({min(values) - r.randint(0, 5)}, {max(values) + r.randint(0, 9)})"
        self.enums.append((name, values))
        return f"{head} {{ {items} }}\n"

    def scalar(self, refs, in_element, numeric_only=False):
        """A scalar type; (text, kind) with kind in int/bool/float/other."""
        r = self.r
        choices = ["bits", "bool", "uint", "int", "float", "double", "cfloat"]
        if not numeric_only:
            choices += ["bytes", "string", "enum", "int_relative", "object_index",
                        "sequence_relative", "ack_relative"]
        c = r.choice(choices)
        if c == "bits":
            return f"bits({r.randint(1, 64)})", "int"
        if c == "bool":
            return "bool", "bool"
        if c == "uint":
            return r.choice(["uint8", "uint16", "uint32", "uint64"]), "int"
        if c == "int":
            lo, hi = self.int_range()
            return f"int({lo}, {hi})", "int"
        if c == "float":
            return "float", "float"
        if c == "double":
            return "double", "float"
        if c == "cfloat":
            lo = r.choice([-4096, -100, -1, 0, 0.5, -1e6])
            hi = lo + r.choice([1, 10, 200, 8192, 1e6])
            res = r.choice([0.5, 0.01, 0.001, 0.1, 3, 0.0005])
            return f"compressed_float({lo}, {hi}, {res})", "float"
        if c == "bytes":
            return f"bytes({r.randint(1, 5)})", "other"
        if c == "string":
            return f"string({r.randint(1, 20)})", "other"
        if c == "enum" and self.enums:
            return r.choice(self.enums)[0], "enum"
        base = self.base(refs if c != "object_index" else [], in_element)
        if c == "int_relative":
            return f"int_relative({base})", "int"
        if c == "object_index":
            most = r.choice([1, 10, 124, 125, 200, 5000])
            if base.lstrip("-").isdigit():
                base = str(min(int(base), most - 1))
            return f"object_index({base}, {most})", "int"
        if c == "sequence_relative":
            return f"sequence_relative({self.base(refs, in_element, 0, 65535)})", "int"
        return f"ack_relative({self.base(refs, in_element, 0, 65535)})", "int"

    def base(self, refs, in_element, lo=-1000, hi=1000):
        r = self.r
        ints = [n for n, k in refs if k == "int"]
        x = r.random()
        if in_element and x < 0.4:
            return f"previous({r.randint(max(lo, -1), min(hi, 100))})"
        if ints and x < 0.7:
            return r.choice(ints)
        return str(r.randint(max(lo, -10), min(hi, 100)))

    def condition(self, refs):
        r = self.r
        usable = [(n, k) for n, k in refs if k in ("int", "bool", "enum")]
        if not usable:
            return r.choice(["true", "false"])

        def atom():
            n, k = r.choice(usable)
            x = r.random()
            if k == "bool" or x < 0.2:
                return n if r.random() < 0.5 else f"!{n}"
            op = r.choice(["==", "!=", "<", "<=", ">", ">="])
            return f"{n} {op} {r.randint(-3, 40)}"

        expr = atom()
        for _ in range(r.randint(0, 2)):
            expr = f"({expr}) {r.choice(['&&', '||'])} {atom()}"
        return expr

    def statements(self, depth, refs, in_element, budget):
        r = self.r
        out = []
        for _ in range(r.randint(1, budget)):
            x = r.random()
            pad = "    " * depth
            if x < 0.05:
                out.append(f"{pad}align;")
            elif x < 0.1:
                out.append(pad + r.choice(['check("section")', "check(0x12345678)",
                                           f"check({r.randint(0, 0xffffffff)})"]) + ";")
            elif x < 0.2 and depth < 3:
                cond = self.condition(refs)
                then = self.statements(depth + 1, refs, in_element, 2)
                text = f"{pad}if ({cond}) {{\n{then}\n{pad}}}"
                if r.random() < 0.5:
                    other = self.statements(depth + 1, refs, in_element, 2)
                    text += f" else {{\n{other}\n{pad}}}"
                out.append(text)
            elif x < 0.35 and depth < 3 and not in_element:
                out.append(self.array(depth, refs))
            else:
                out.append(self.field(depth, refs, in_element))
        return "\n".join(out)

    def field(self, depth, refs, in_element):
        r = self.r
        pad = "    " * depth
        name = self.name("f")
        x = r.random()
        if x < 0.1 and self.structs:
            out = f"{pad}{r.choice(self.structs)} {name};"
            return out
        if x < 0.2:
            t, _ = self.scalar(refs, in_element, numeric_only=True)
            wrap = r.choice(["vector2", "vector3", "vector4", "quaternion"])
            return f"{pad}{wrap}({t}) {name};"
        if x < 0.27:
            return f"{pad}smallest_three({r.randint(2, 31)}) {name};"
        t, kind = self.scalar(refs, in_element)
        extra = ""
        if t.startswith("int(") and r.random() < 0.3:
            lo, hi = (int(v) for v in t[4:-1].split(","))
            vals = sorted({r.randint(lo, min(hi, lo + 50)) for _ in range(r.randint(1, 4))})
            extra = f" == {vals[0]}" if len(vals) == 1 else " in { " + ", ".join(
                map(str, vals)) + " }"
        if depth > 1 and kind in ("int", "bool") and r.random() < 0.4 and not extra:
            if kind == "bool":
                extra += f" default {r.choice(['true', 'false'])}"
            elif t.startswith("int(") :
                lo, hi = (int(v) for v in t[4:-1].split(","))
                extra += f" default {r.randint(lo, min(hi, lo + 9))}"
        refs.append((name, kind))
        return f"{pad}{t} {name}{extra};"

    def array(self, depth, refs):
        r = self.r
        pad = "    " * depth
        name = self.name("a")
        if self.element_structs and r.random() < 0.3:
            elem = r.choice(self.element_structs)
        elif self.structs and r.random() < 0.5:
            elem = r.choice(self.structs)
        else:
            elem, _ = self.scalar([], False)
            if elem.startswith("int(") and elem[4:-1].split(",")[0].strip() == \
                    elem[4:-1].split(",")[1].strip():
                elem = "bool"
        kind = r.choice(["fixed", "counted", "inline", "flags", "indices", "sentinel",
                         "relative"])
        n = r.randint(1, 6)
        if kind == "fixed":
            return f"{pad}{elem} {name}[{n}];"
        if kind == "inline":
            return f"{pad}{elem} {name}[max {n}];"
        if kind == "counted":
            count = self.name("n")
            refs.append((count, "int"))
            return f"{pad}int(0, {n}) {count};\n{pad}{elem} {name}[{count}];"
        return f"{pad}{elem} {name}[{n}] sparse({kind});"

    def schema(self):
        r = self.r
        out = [f"# random schema {r.random()}"]
        props = [f"id {r.randint(0, 0xffffffff)};"]
        props.append(r.choice(["crc on;", "crc on;", "crc on;", "crc off;"]))
        props.append(r.choice(["", 'end_check "end of packet";', "end_check 0x12345678;",
                               "end_check off;"]))
        if r.random() < 0.3:
            props.append(f"prefix {r.randint(1, 3)};")
        out.append("protocol rnd { " + " ".join(p for p in props if p) + " }")
        for _ in range(r.randint(0, 3)):
            out.append(self.enum())
        for _ in range(r.randint(0, 2)):
            name = self.name("S")
            body = self.statements(1, [], False, 4)
            out.append(f"struct {name} {{\n{body}\n}}")
            self.structs.append(name)
        for _ in range(r.randint(0, 2)):
            name = self.name("Q")
            body = self.statements(1, [], True, 4)
            out.append(f"struct {name} {{\n{body}\n}}")
            self.element_structs.append(name)
        for _ in range(r.randint(1, 4)):
            name = self.name("p")
            body = self.statements(1, [], False, 6)
            out.append(f"packet {name} {{\n{body}\n}}")
        return "\n".join(out) + "\n"


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    sys.stdout.write(Gen(int(sys.argv[1])).schema())
