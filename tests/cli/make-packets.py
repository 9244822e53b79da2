#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""make-packets.py -- hand-made invalid packets for the golden tests.

    tests/cli/make-packets.py VALID_DIR OUT_DIR

Takes the valid arena packets that `bitsift encode` wrote to VALID_DIR
(packet-000001.bin Hello, -000002 Snapshot, -000003 Bye) and writes one
packet per failure kind into OUT_DIR. Each damaged packet gets its CRC
sealed again (zlib CRC32 over the protocol id, little-endian, then the
packet with its CRC field zeroed) so that the decoder reaches the damage
instead of stopping at the CRC -- except bad-crc.bin, which is about it.
"""
import os
import struct
import sys
import zlib

ARENA_ID = 0x41524E41


def seal(packet, protocol_id=ARENA_ID):
    body = b"\0\0\0\0" + bytes(packet[4:])
    crc = zlib.crc32(struct.pack("<I", protocol_id) + body) & 0xFFFFFFFF
    return struct.pack("<I", crc) + bytes(packet[4:])


def set_bits(packet, bit, width, value):
    """Write `value` in `width` bits at stream bit `bit` (LSB first)."""
    p = bytearray(packet)
    for i in range(width):
        b = bit + i
        if value >> i & 1:
            p[b // 8] |= 1 << (b % 8)
        else:
            p[b // 8] &= ~(1 << (b % 8)) & 0xFF
    return p


def main():
    valid, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    hello, snapshot, bye = (open(os.path.join(valid, "packet-%06d.bin" % i), "rb").read()
                            for i in (1, 2, 3))

    def write(name, data):
        with open(os.path.join(out, name), "wb") as fp:
            fp.write(bytes(data))

    # Bye: crc(32) type int(0,2) at 32 (2 bits), reason int(-5,5) at 34 (4 bits).
    write("bad-crc.bin", bye[:5] + bytes([bye[5] ^ 0x40]) + bye[6:])
    write("range.bin", seal(set_bits(bye, 34, 4, 15)))
    write("bad-type.bin", seal(set_bits(bye, 32, 2, 3)))
    # Hello: check("hello") is the 32 bits before the final end check.
    write("check.bin", seal(set_bits(hello, (len(hello) - 8) * 8, 8, 0x00)))
    # Snapshot cut short: the data ends inside the players.
    write("truncated.bin", seal(snapshot[:20]))
    # A valid Bye with two bytes after its end: valid unless --strict.
    write("trailing.bin", seal(bye + b"\0\0"))
    # A valid Bye sealed with another protocol's id.
    write("other-protocol.bin", seal(bye, 0x12345678))
    # Non-zero padding before the end check of Bye (bits 41..47).
    write("align.bin", seal(set_bits(bye, 45, 1, 1)))


if __name__ == "__main__":
    main()
