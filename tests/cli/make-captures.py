#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""make-captures.py -- build the test captures of tests/cli/data from raw packets.

    tests/cli/make-captures.py PAYLOAD_DIR OUT_DIR

PAYLOAD_DIR holds raw game packets (as `bitsift encode -o DIR` writes them);
each capture wraps them in one link type, so that the golden tests see the
same packets through every path of src/io/decap.c. It also writes the hostile
captures (truncated, huge caplen, unknown link type, ...). Only the Python
standard library is used; the files are committed, so this runs only when
the test data is prepared again.

Layouts written here (all multi-byte pcap fields little-endian, network
headers big-endian):

  pcap file header: magic a1b2c3d4 (us) or a1b23c4d (ns), version 2.4,
                    thiszone 0, sigfigs 0, snaplen, linktype
  pcap record:      ts_sec, ts_frac, caplen, len, then caplen bytes
  pcapng:           SHB, one IDB (linktype, snaplen), EPBs (ts in us)
"""
import os
import struct
import sys

BASE_TIME = 1795424400  # 2026-11-23T09:00:00Z


def checksum(data):
    if len(data) % 2:
        data += b"\0"
    s = sum(struct.unpack("!%dH" % (len(data) // 2), data))
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return ~s & 0xFFFF


def udp(payload, sport=40000, dport=27015):
    return struct.pack("!HHHH", sport, dport, 8 + len(payload), 0) + payload


def ipv4(l4, proto=17, src=b"\x0a\x00\x00\x01", dst=b"\x0a\x00\x00\x02", options=b"",
         ident=0x1234, flags_frag=0x4000):
    ihl = 5 + len(options) // 4
    hdr = struct.pack("!BBHHHBBH4s4s", 0x40 | ihl, 0, ihl * 4 + len(l4), ident, flags_frag, 64,
                      proto, 0, src, dst) + options
    hdr = hdr[:10] + struct.pack("!H", checksum(hdr)) + hdr[12:]
    return hdr + l4


V6_SRC = bytes.fromhex("20010db8000000000000000000000001")
V6_DST = bytes.fromhex("20010db8000000000000000000000002")


def ipv6(l4, next_header=17, ext=b""):
    return struct.pack("!IHBB", 0x60000000, len(ext) + len(l4), next_header, 64) + V6_SRC + \
        V6_DST + ext + l4


def ethernet(l3, ethertype, tags=()):
    frame = bytes.fromhex("020000000002020000000001")
    for tpid, vid in tags:
        frame += struct.pack("!HH", tpid, vid)
    return frame + struct.pack("!H", ethertype) + l3


def sll(l3, proto):
    return struct.pack("!HHH8sH", 0, 1, 6, bytes.fromhex("0200000000010000"), proto) + l3


def sll2(l3, proto):
    return struct.pack("!HHIHBB8s", proto, 0, 1, 1, 0, 6, bytes.fromhex("0200000000010000")) + l3


def pcap(path, linktype, frames, nano=False, snaplen=262144, version=(2, 4)):
    magic = 0xA1B23C4D if nano else 0xA1B2C3D4
    out = struct.pack("<IHHiIII", magic, version[0], version[1], 0, 0, snaplen, linktype)
    for i, f in enumerate(frames):
        data, wirelen = (f if isinstance(f, tuple) else (f, len(f)))
        frac = i * 1000 + 123 if not nano else i * 1000000 + 123456
        out += struct.pack("<IIII", BASE_TIME + i, frac, len(data), wirelen) + data
    with open(path, "wb") as fp:
        fp.write(out)


def pcapng(path, linktype, frames):
    def block(btype, body):
        body += b"\0" * (-len(body) % 4)
        length = 12 + len(body)
        return struct.pack("<II", btype, length) + body + struct.pack("<I", length)
    out = block(0x0A0D0D0A, struct.pack("<IHHq", 0x1A2B3C4D, 1, 0, -1))
    out += block(0x00000001, struct.pack("<HHI", linktype, 0, 262144))
    for i, data in enumerate(frames):
        ts = (BASE_TIME + i) * 1000000 + i * 1000 + 123
        out += block(0x00000006, struct.pack("<IIIII", 0, ts >> 32, ts & 0xFFFFFFFF, len(data),
                                             len(data)) + data)
    with open(path, "wb") as fp:
        fp.write(out)


def main():
    payload_dir, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    payloads = [open(os.path.join(payload_dir, n), "rb").read()
                for n in sorted(os.listdir(payload_dir))]
    p = payloads
    arp = ethernet(b"\0\1\x08\0\6\4\0\1" + b"\0" * 20, 0x0806)
    tcp = ethernet(ipv4(b"\0" * 20, proto=6), 0x0800)

    # Ethernet: plain, 802.1Q, QinQ, IPv4 options, IPv6; an ARP and a TCP frame are skipped.
    eth = []
    for i, payload in enumerate(p):
        kind = i % 4
        if kind == 0:
            eth.append(ethernet(ipv4(udp(payload)), 0x0800))
        elif kind == 1:
            eth.append(ethernet(ipv4(udp(payload)), 0x0800, tags=[(0x8100, 5)]))
        elif kind == 2:
            eth.append(ethernet(ipv4(udp(payload), options=b"\x01\x01\x01\x00"), 0x0800,
                                tags=[(0x88A8, 100), (0x8100, 200)]))
        else:
            eth.append(ethernet(ipv6(udp(payload)), 0x86DD))
        if i == 1:
            eth.append(arp)
            eth.append(tcp)
    pcap(os.path.join(out, "ethernet-vlan.pcap"), 1, eth)
    pcapng(os.path.join(out, "ethernet.pcapng"), 1,
           [ethernet(ipv4(udp(x)), 0x0800) for x in p])

    pcap(os.path.join(out, "sll.pcap"), 113,
         [sll(ipv4(udp(x)), 0x0800) if i % 2 == 0 else sll(ipv6(udp(x)), 0x86DD)
          for i, x in enumerate(p)])
    pcapng(os.path.join(out, "sll2.pcapng"), 276,
           [sll2(ipv4(udp(x)), 0x0800) for x in p] + [sll2(b"\0" * 28, 0x0806)])

    # Raw IP: IPv6 with a hop-by-hop and a destination-options header.
    ext = bytes([60, 0, 1, 4, 0, 0, 0, 0]) + bytes([17, 0, 1, 4, 0, 0, 0, 0])
    raw = [ipv4(udp(x)) if i % 2 == 0 else ipv6(udp(x), next_header=0, ext=ext)
           for i, x in enumerate(p)]
    pcap(os.path.join(out, "raw.pcap"), 101, raw)
    pcap(os.path.join(out, "ipv4.pcap"), 228, [ipv4(udp(x)) for x in p], nano=True)
    pcap(os.path.join(out, "ipv6.pcap"), 229, [ipv6(udp(x)) for x in p])

    # BSD loopback: NULL in host (little-endian) order, LOOP in network order.
    pcap(os.path.join(out, "null.pcap"), 0,
         [struct.pack("<I", 2) + ipv4(udp(x)) if i % 2 == 0 else
          struct.pack("<I", 30) + ipv6(udp(x)) for i, x in enumerate(p)])
    pcap(os.path.join(out, "loop.pcap"), 108, [struct.pack("!I", 2) + ipv4(udp(x)) for x in p])

    # Reported, not decoded: IPv4 fragments of the first packet, a packet cut
    # by the snap length, a UDP header claiming more than the frame holds.
    l4 = udp(p[0])
    half = (len(l4) // 2) & ~7
    frags = [ethernet(ipv4(l4[:half], flags_frag=0x2000, ident=77), 0x0800),
             ethernet(ipv4(l4[half:], flags_frag=half // 8, ident=77), 0x0800)]
    whole = ethernet(ipv4(udp(p[1 % len(p)])), 0x0800)
    lying = bytearray(ethernet(ipv4(udp(p[0])), 0x0800))
    lying[14 + 20 + 4:14 + 20 + 6] = struct.pack("!H", 2000)
    pcap(os.path.join(out, "problems.pcap"), 1,
         frags + [(whole[:50], len(whole)), bytes(lying), whole])

    # Hostile capture files.
    good = open(os.path.join(out, "ethernet-vlan.pcap"), "rb").read()
    with open(os.path.join(out, "truncated-header.pcap"), "wb") as fp:
        fp.write(good[:10])
    first_record_end = 24 + 16 + len(eth[0])
    with open(os.path.join(out, "truncated-record.pcap"), "wb") as fp:
        fp.write(good[:first_record_end + 16 + 7])
    huge = bytearray(good[:first_record_end + 16])
    huge[first_record_end + 8:first_record_end + 12] = struct.pack("<I", 0xFFFFFFF0)
    with open(os.path.join(out, "huge-caplen.pcap"), "wb") as fp:
        fp.write(bytes(huge) + b"\0" * 64)
    pcap(os.path.join(out, "unknown-link.pcap"), 147, [b"\0" * 40])
    pcap(os.path.join(out, "bad-version.pcap"), 1, [eth[0]], version=(9, 9))
    ng = bytearray(open(os.path.join(out, "ethernet.pcapng"), "rb").read())
    ng[28 + 20 + 4:28 + 20 + 8] = struct.pack("<I", 0x7FFFFFF0)  # first EPB length
    with open(os.path.join(out, "bad-block.pcapng"), "wb") as fp:
        fp.write(bytes(ng))
    open(os.path.join(out, "empty.bin"), "wb").close()
    with open(os.path.join(out, "garbage.bin"), "wb") as fp:
        fp.write(bytes((i * 37 + 11) & 0xFF for i in range(48)))


if __name__ == "__main__":
    main()
