#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""make_vectors.py -- regenerate tests/vectors/handmade, tests/vectors/hostile
and tests/vectors/wrong.

The hand-made vectors cover what the reference set (../shared/vectors)
lacks: the object index ladder, sequence/ack relative, hashed check names,
non-ASCII UTF-8 strings, 64-bit extremes, and damaged streams that must
fail with a given kind at a given bit (the "fail_bit" field, our addition
to the reject format).

The bytes are computed here from DESIGN.md's wire format by a second,
deliberately naive implementation (a list of bits), independent of
libbitsift's C code: the replay test checks one against the other.

    python3 tests/vectors/make_vectors.py [OUTDIR_ROOT]  (default: tests/vectors/)
"""
import json
import os
import struct
import sys


def bits_required(lo, hi):
    return (hi - lo).bit_length()


def hash_name(name, seed=0):
    """protocol2's hash: Jenkins one-at-a-time, no avalanche, upper-cased."""
    h = seed
    for ch in name.encode():
        c = ch - 32 if ord('a') <= ch <= ord('z') else ch
        if c >= 0x80:
            c -= 0x100  # protocol2 adds a plain (signed) char
        h = (h + c) & 0xFFFFFFFF
        h = (h + (h << 10)) & 0xFFFFFFFF
        h ^= h >> 6
    return h


def crc32(data):
    crc = 0xFFFFFFFF
    for b in data:
        crc ^= b
        for _ in range(8):
            crc = (crc >> 1) ^ (0xEDB88320 if crc & 1 else 0)
    return crc ^ 0xFFFFFFFF


class Stream:
    """Writes ops as a list of bits, recording each op's position."""

    def __init__(self):
        self.bits = []
        self.ops = []
        self.fields = []  # (op index, bit position, width) of every field

    def field(self, value, width):
        assert 0 <= value < (1 << width) or width == 0, (value, width)
        self.fields.append((len(self.ops), len(self.bits), width))
        for i in range(width):
            self.bits.append((value >> i) & 1)

    def pad(self):
        while len(self.bits) % 8:
            self.bits.append(0)

    def int_field(self, value, lo, hi):
        self.field(value - lo, bits_required(lo, hi))

    def op(self, op_name, **fields):
        """Append an op; its fields are written by _write_<op_name>."""
        start = len(self.bits)
        getattr(self, '_write_' + op_name)(**fields)
        entry = {'op': op_name}
        entry.update(fields)
        entry['bit_pos'] = start
        entry['bit_len'] = len(self.bits) - start
        self.ops.append(entry)
        return start

    def _write_bits(self, n, value):
        self.field(int(value), n)

    def _write_bool(self, value):
        self.field(1 if value else 0, 1)

    def _write_uint8(self, value):
        self.field(value, 8)

    def _write_uint16(self, value):
        self.field(value, 16)

    def _write_uint32(self, value):
        self.field(value, 32)

    def _write_uint64(self, value):
        self.field(int(value), 64)

    def _write_int(self, min, max, value):
        self.int_field(value, min, max)

    def _write_int64(self, min, max, value):
        self.int_field(int(value), int(min), int(max))

    def _write_float(self, bits):
        self.field(int(bits, 16), 32)

    def _write_double(self, bits):
        self.field(int(bits, 16), 64)

    def _write_align(self):
        self.pad()

    def _write_bytes(self, len, hex):
        self.pad()
        for b in bytes.fromhex(hex):
            self.field(b, 8)

    def _write_string(self, bufsize, len, value):
        data = value.encode()
        assert len == data.__len__()
        self.int_field(len, 0, bufsize - 1)
        self.pad()
        for b in data:
            self.field(b, 8)

    def _write_check(self, value=None, name=None):
        self.pad()
        self.field(hash_name(name) if name else int(value, 16), 32)

    def _ladder(self, d, tiers, last):
        for lo, hi in tiers:
            here = d <= hi
            self.field(1 if here else 0, 1)
            if here:
                self.int_field(d, lo, hi)
                return
        last()

    def _write_int_relative(self, prev, value):
        tiers = [(1, 1), (2, 6), (7, 23), (24, 280), (281, 4377), (4378, 69914)]
        self._ladder(value - prev, tiers, lambda: self.field(value & 0xFFFFFFFF, 32))

    def _write_object_index(self, prev, value, max_objects):
        tiers = [(1, 1), (2, 5), (6, 13), (14, 29), (30, 61), (62, 125)]
        d = value - prev
        self._ladder(d, tiers, lambda: self.int_field(d, 126, max_objects + 1))

    def _write_sequence_relative(self, prev, value):
        b = value + (65536 if prev > value else 0)
        self._write_int_relative(prev, b)

    def _write_ack_relative(self, sequence, value):
        delta = (sequence - value) & 0xFFFF
        in_range = 1 <= delta <= 64
        self.field(1 if in_range else 0, 1)
        if in_range:
            self.int_field(delta, 1, 64)
        else:
            self.field(value, 16)

    def to_bytes(self):
        out = bytearray((len(self.bits) + 7) // 8)
        for k, b in enumerate(self.bits):
            out[k >> 3] |= b << (k & 7)
        return bytes(out)

    def field_at(self, op_index, nth=0):
        """(bit position, width) of the nth field of an op."""
        found = [f for f in self.fields if f[0] == op_index]
        return found[nth][1], found[nth][2]


def stream_vector(index, s, note):
    data = s.to_bytes()
    return {
        'kind': 'stream', 'note': note, 'index': index, 'ops': s.ops,
        'bits_written': len(s.bits), 'bytes': len(data), 'hex': data.hex(),
    }


def packet_vector(index, protocol_id, num_types, ptype, payload, note):
    s = Stream()
    s.field(0, 32)
    if num_types > 1:
        s.int_field(ptype, 0, num_types - 1)
    for name, fields in payload:
        s.op(name, **fields)
    s.pad()
    s.field(0x9908ACE2, 32)
    data = bytearray(s.to_bytes())
    crc = crc32(struct.pack('<I', protocol_id) + bytes(4) + bytes(data[4:]))
    data[0:4] = struct.pack('<I', crc)
    return {
        'kind': 'packet', 'note': note, 'index': index,
        'protocol_id': '0x%08x' % protocol_id, 'num_types': num_types, 'type': ptype,
        'end_check': '0x9908ace2', 'ops': s.ops, 'bits_written': 8 * len(data),
        'crc': '0x%08x' % crc, 'bytes': len(data), 'hex': bytes(data).hex(),
    }


def reject_vector(index, s, data, fail_at, kind, fail_bit, note):
    return {
        'kind': 'reject', 'note': note, 'index': index, 'ops': s.ops,
        'bits_written': len(s.bits), 'base_hex': s.to_bytes().hex(),
        'bytes': len(data), 'hex': bytes(data).hex(),
        'fail_at': fail_at, 'fail_op': s.ops[fail_at]['op'], 'fail_kind': kind,
        'fail_bit': fail_bit,
    }


def set_field(data, pos, width, value):
    """Overwrite a field in a byte string (LSB-first)."""
    data = bytearray(data)
    for i in range(width):
        k = pos + i
        if (value >> i) & 1:
            data[k >> 3] |= 1 << (k & 7)
        else:
            data[k >> 3] &= ~(1 << (k & 7)) & 0xFF
    return data


I64_MIN, I64_MAX = -(1 << 63), (1 << 63) - 1


def streams():
    out = []

    s = Stream()
    for v in (I64_MIN, I64_MAX, 0, -1, 1):
        s.op('int64', min=str(I64_MIN), max=str(I64_MAX), value=str(v))
    s.op('int64', min=str(I64_MIN), max=str(I64_MIN), value=str(I64_MIN))
    s.op('int64', min=str(I64_MAX), max=str(I64_MAX), value=str(I64_MAX))
    s.op('int64', min=str(I64_MIN + 1), max=str(I64_MAX), value=str(I64_MIN + 1))
    s.op('int64', min=str(-1), max=str(I64_MAX), value=str(I64_MAX))
    out.append(stream_vector(1, s, 'int64 over the full signed 64-bit range'))

    s = Stream()
    for k in (1, 2, 31, 32, 33, 62, 63):
        for span in ((1 << k) - 1, 1 << k, (1 << k) + 1):
            lo = -(1 << 62) if k == 63 and span > (1 << 63) - 1 else -5
            s.op('int64', min=str(lo), max=str(lo + span), value=str(lo + span))
            s.op('int64', min=str(lo), max=str(lo + span), value=str(lo))
    out.append(stream_vector(2, s, 'int64 spans 2^k - 1, 2^k, 2^k + 1 at both ends'))

    s = Stream()
    for n in range(1, 65):
        s.op('bits', n=n, value=str((1 << n) - 1) if n > 32 else (1 << n) - 1)
        s.op('bits', n=n, value=str(1 << (n - 1)) if n > 32 else 1 << (n - 1))
    out.append(stream_vector(3, s, 'bits 1..64, all ones and top bit only, every alignment'))

    s = Stream()
    for prev, value, mo in ((-1, 0, 1), (-1, 1, 1), (0, 1, 1000), (0, 2, 1000), (0, 5, 1000),
                            (0, 6, 1000), (0, 13, 1000), (0, 14, 1000), (0, 29, 1000),
                            (0, 30, 1000), (0, 61, 1000), (0, 62, 1000), (0, 125, 1000),
                            (0, 126, 1000), (0, 1000, 1000), (-1, 1000, 1000), (4, 125, 125),
                            (-1, 125, 125)):
        s.op('object_index', prev=prev, value=value, max_objects=mo)
    out.append(stream_vector(4, s, 'object index: every ladder tier and its edges'))

    s = Stream()
    for prev, value in ((0, 1), (65535, 0), (65535, 65534), (0, 65535), (100, 106),
                        (65530, 4), (1, 0), (40000, 40000 + 69914 - 65536)):
        s.op('sequence_relative', prev=prev, value=value)
    for seq, ack in ((100, 99), (100, 36), (100, 35), (100, 100), (0, 65535), (5, 65477),
                     (5, 65476), (0, 0)):
        s.op('ack_relative', sequence=seq, value=ack)
    out.append(stream_vector(5, s, 'sequence_relative with wrap, ack_relative in and out of range'))

    s = Stream()
    s.op('bool', value=True)
    s.op('check', name='end of packet')
    s.op('bits', n=3, value=5)
    s.op('check', name='rigid body')
    s.op('check', value='0x00000000')
    s.op('check', value='0xffffffff')
    out.append(stream_vector(6, s, 'check markers by hashed name and extreme values'))

    s = Stream()
    s.op('bits', n=5, value=3)
    for text, bufsize in (('h\u00e9llo', 16), ('\u65e5\u672c', 7), ('\U0001f600', 5),
                          ('', 1), ('\u007f\u0080\u07ff\u0800\uffff\U00010000\U0010ffff', 64),
                          ('x' * 255, 256), ('y' * 1000, 4096)):
        s.op('string', bufsize=bufsize, len=len(text.encode()), value=text)
        s.op('bool', value=False)
    out.append(stream_vector(7, s, 'UTF-8 strings (2, 3, 4-byte sequences), len = bufsize - 1'))

    s = Stream()
    for pad in range(8):
        if pad:
            s.op('bits', n=pad, value=1)
        s.op('bytes', len=0, hex='')
        s.op('bits', n=pad + 1, value=0)
        s.op('bytes', len=3, hex='00ff80')
    s.op('bytes', len=1500, hex=bytes(range(256)).hex() * 5 + bytes(220).hex())
    out.append(stream_vector(8, s, 'bytes after every padding width, empty and MTU-sized'))

    s = Stream()
    for bits in ('0x7fc00001', '0x7f800001', '0xffbfffff', '0x80000000', '0x00000001',
                 '0x7f800000', '0xff800000'):
        s.op('float', bits=bits)
        s.op('bool', value=True)
    for bits in ('0x7ff8000000000001', '0x7ff0000000000001', '0xfff7ffffffffffff',
                 '0x8000000000000000', '0x0000000000000001'):
        s.op('double', bits=bits)
        s.op('bits', n=3, value=7)
    out.append(stream_vector(9, s, 'float/double bit patterns: NaN payloads, sNaN, -0, denormals'))

    s = Stream()
    for prev, value in ((0, 1), (0, 6), (0, 7), (0, 23), (0, 24), (0, 280), (0, 281),
                        (0, 4377), (0, 4378), (0, 69914), (0, 69915),
                        (-2147483648, 2147483647), (2147483646, 2147483647),
                        (-5, 69909), (-100, -50)):
        s.op('int_relative', prev=prev, value=value)
    out.append(stream_vector(10, s, 'int_relative tier edges and signed extremes'))
    return out


def packets():
    return [
        packet_vector(11, 0, 1, 0, [], 'empty payload, protocol id 0'),
        packet_vector(12, 0xFFFFFFFF, 256, 255, [('object_index', {'prev': -1, 'value': 7,
                                                                   'max_objects': 64})],
                      '256 types, type 255, protocol id 0xffffffff'),
        packet_vector(13, 0x62697473, 3, 2, [('string', {'bufsize': 32, 'len': 9,
                                                          'value': 'caf\u00e9 \u2615'}),
                                             ('check', {'name': 'rigid body'})],
                      'UTF-8 string and hashed check inside a packet'),
    ]


def hostile():
    out = []
    n = [100]

    def add(s, data, fail_at, kind, fail_bit, note):
        n[0] += 1
        out.append(reject_vector(n[0], s, data, fail_at, kind, fail_bit, note))

    # Strings: interior NUL, invalid UTF-8 of every flavour, length > bufsize - 1.
    for bad, why in ((b'ab\x00d', 'NUL inside'), (b'\xc0\x80xx', 'overlong NUL'),
                     (b'a\xed\xa0\x80', 'UTF-16 surrogate'), (b'\xf5\x80\x80\x80', 'above U+10FFFF'),
                     (b'abc\xe2\x82', 'truncated 3-byte sequence'), (b'\x80abc', 'lone continuation'),
                     (b'\xf4\x90\x80\x80', 'U+110000')):
        s = Stream()
        s.op('bits', n=3, value=1)
        s.op('string', bufsize=16, len=len(bad), value='Z' * len(bad))
        pos, _ = s.field_at(1, 1)  # first data byte
        data = s.to_bytes()
        for i, b in enumerate(bad):
            data = set_field(data, pos + 8 * i, 8, b)
        add(s, data, 1, 'string', pos, 'string: ' + why)

    s = Stream()
    s.op('bool', value=True)
    s.op('string', bufsize=10, len=3, value='abc')
    pos, width = s.field_at(1, 0)
    add(s, set_field(s.to_bytes(), pos, width, 10), 1, 'range', pos,
        'string length above bufsize - 1')

    # Object index: a delta whose ladder tier is well formed but whose index
    # lands past max_objects (tiers [2,5], [6,13], [14,29], the last one,
    # and past INT32_MAX). The failure is reported at the op's first bit.
    for prev, good, bad, mo in ((90, 91, 93, 92), (90, 91, 97, 95), (80, 90, 101, 90),
                                (100, 101, 250, 200), (2147483600, 2147483601, 2147483700,
                                                       2147483647)):
        s = Stream()
        s.op('uint8', value=7)
        s.op('object_index', prev=prev, value=good, max_objects=mo)
        s.op('bool', value=True)
        t = Stream()
        t.op('uint8', value=7)
        t.op('object_index', prev=prev, value=bad, max_objects=mo)
        t.op('bool', value=True)
        add(s, t.to_bytes(), 1, 'range', 8, 'object index %d + %d beyond max_objects %d'
            % (prev, bad - prev, mo))
    s = Stream()
    s.op('object_index', prev=-1, value=0, max_objects=100)
    data = set_field(s.to_bytes(), 0, 6, 0)  # six zero flags: the last tier
    add(s, data, 0, 'range', 0, 'object index last tier with max_objects < 125')

    # sequence_relative decoding to more than a 16-bit sequence.
    s = Stream()
    s.op('sequence_relative', prev=10, value=20)
    t = Stream()
    t.op('int_relative', prev=10, value=200000)
    add(s, t.to_bytes(), 0, 'range', 0, 'sequence_relative beyond 16 bits')

    # int_relative: tier payload above width, and a result past INT32_MAX.
    s = Stream()
    s.op('bits', n=2, value=0)
    s.op('int_relative', prev=0, value=3)
    pos, width = s.field_at(1, 2)
    add(s, set_field(s.to_bytes(), pos, width, 7), 1, 'range', pos, 'int_relative tier 1 raw 7')
    s = Stream()
    s.op('int_relative', prev=2147483000, value=2147483647)
    t = Stream()
    t.op('int_relative', prev=0, value=1000)
    add(s, t.to_bytes(), 0, 'range', 0, 'int_relative past INT32_MAX')

    # int64 with span 2^63: raw above it.
    s = Stream()
    s.op('bits', n=7, value=0)
    s.op('int64', min=str(-1), max=str(I64_MAX), value=str(5))
    pos, width = s.field_at(1, 0)
    add(s, set_field(s.to_bytes(), pos, width, (1 << 64) - 1), 1, 'range', pos,
        'int64 raw 2^64 - 1 above span 2^63')

    # Truncations and padding.
    s = Stream()
    s.op('bits', n=1, value=1)
    s.op('bits', n=64, value=str(1 << 63))
    add(s, s.to_bytes()[:-1], 1, 'overflow', 1, '64-bit field one bit short')
    s = Stream()
    s.op('bool', value=False)
    add(s, b'', 0, 'overflow', 0, 'empty input')
    s = Stream()
    s.op('uint8', value=1)
    s.op('bytes', len=20, hex='11' * 20)
    add(s, s.to_bytes()[:-1], 1, 'overflow', 8, 'bytes one byte short')
    s = Stream()
    s.op('bits', n=3, value=0)
    s.op('check', name='end of packet')
    add(s, set_field(s.to_bytes(), 7, 1, 1), 1, 'align', 3, 'check marker padding bit set')
    s = Stream()
    s.op('bits', n=3, value=0)
    s.op('check', name='end of packet')
    pos, width = s.field_at(1, 0)
    add(s, set_field(s.to_bytes(), pos, width, hash_name('end of packeT') ^ 1), 1, 'check', pos,
        'hashed check marker mismatch')
    # Framed packets damaged by one flipped bit (in the CRC field, the
    # type, the payload, the end check) or read with another protocol id.
    for base, bit in ((packets()[1], 3), (packets()[1], 33), (packets()[2], 100),
                      (packets()[2], -1), (packets()[0], 40)):
        data = bytearray(bytes.fromhex(base['hex']))
        k = bit if bit >= 0 else 8 * len(data) - 1
        data[k >> 3] ^= 1 << (k & 7)
        protocol_id = int(base['protocol_id'], 16)
        expected = crc32(struct.pack('<I', protocol_id) + bytes(4) + bytes(data[4:]))
        n[0] += 1
        v = dict(base)
        v.update({'kind': 'packet_corrupt', 'index': n[0],
                  'note': 'bit %d of a valid packet flipped' % k,
                  'corruption': {'type': 'bit_flip', 'bit': k}, 'base_hex': base['hex'],
                  'hex': bytes(data).hex(), 'crc': '0x%08x' % struct.unpack('<I', data[:4])[0],
                  'expected_crc': '0x%08x' % expected, 'expect': 'crc_mismatch'})
        out.append(v)
    base = packets()[2]
    other = 0x62697474
    n[0] += 1
    v = dict(base)
    v.update({'kind': 'packet_corrupt', 'index': n[0], 'protocol_id': '0x%08x' % other,
              'note': 'a valid packet read with the wrong protocol id',
              'corruption': {'type': 'wrong_protocol_id',
                             'written_with_protocol_id': base['protocol_id']},
              'base_hex': base['hex'], 'expect': 'crc_mismatch',
              'expected_crc': '0x%08x' % crc32(struct.pack('<I', other) + bytes(4) +
                                               bytes.fromhex(base['hex'])[4:])})
    out.append(v)
    return out


def wrong():
    """Vectors that are WRONG on purpose, one flaw each: the replayer must
    report every one of them as failing (tests/vectors/replay-selftest.sh)."""
    out = []
    base = streams()[0]

    def flawed(name, vector):
        vector = json.loads(json.dumps(vector))
        vector['note'] = 'wrong on purpose: ' + name
        vector['kind_of_flaw'] = name
        return vector

    v = flawed('hex differs in one bit', base)
    v['hex'] = '%02x' % (int(v['hex'][:2], 16) ^ 1) + v['hex'][2:]
    out.append(v)
    v = flawed('bits_written off by one', base)
    v['bits_written'] += 1
    out.append(v)
    s = Stream()
    s.op('uint16', value=0xBEEF)
    s.op('bool', value=True)
    v = flawed('recorded value differs from the bytes', stream_vector(0, s, ''))
    v['ops'][0]['value'] = 0xBEEE
    v['hex'] = s.to_bytes().hex()
    out.append(v)
    v = flawed('recorded bit_len wrong', stream_vector(0, s, ''))
    v['ops'][1]['bit_len'] = 2
    out.append(v)
    v = flawed('unknown op', stream_vector(0, s, ''))
    v['ops'][1]['op'] = 'int128'
    out.append(v)
    v = flawed('64-bit value as a float', stream_vector(0, s, ''))
    v['ops'][0]['value'] = 1.5
    out.append(v)
    hostile_vectors = hostile()
    v = flawed('reject with the wrong kind', hostile_vectors[0])
    v['fail_kind'] = 'range'
    out.append(v)
    v = flawed('reject with the wrong bit', hostile_vectors[0])
    v['fail_bit'] += 1
    out.append(v)
    v = flawed('reject at the wrong op', hostile_vectors[0])
    v['fail_at'] = 0
    out.append(v)
    v = flawed('reject of a stream that is fine', hostile_vectors[0])
    v['hex'] = v['base_hex']
    v['bytes'] = len(v['hex']) // 2
    out.append(v)
    pkt = packets()[2]
    v = flawed('packet type differs', pkt)
    v['type'] = 1
    out.append(v)
    v = flawed('packet crc field differs from "crc"', pkt)
    v['crc'] = '0x%08x' % (int(v['crc'], 16) ^ 0x80)
    out.append(v)
    v = flawed('packet_corrupt that is a valid packet', pkt)
    v['kind'] = 'packet_corrupt'
    v['expected_crc'] = v['crc']
    out.append(v)
    for i, v in enumerate(out):
        v['index'] = 900 + i
    return out


def write(dirname, vectors):
    os.makedirs(dirname, exist_ok=True)
    for v in vectors:
        name = '%s-%03d.json' % (v['kind'], v['index'])
        if 'kind_of_flaw' in v:
            name = 'wrong-%03d.json' % v['index']
        with open(os.path.join(dirname, name), 'w') as f:
            json.dump(v, f, indent=1, ensure_ascii=False)
            f.write('\n')


if __name__ == '__main__':
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
    write(os.path.join(root, 'handmade'), streams() + packets())
    write(os.path.join(root, 'hostile'), hostile())
    write(os.path.join(root, 'wrong'), wrong())
