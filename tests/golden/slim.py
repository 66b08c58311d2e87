#!/usr/bin/env python3
"""Shrink a capture for tests/golden: rewrite its KALLSYMS sections to the
lines the golden records can need (module symbols, the section markers the
reader uses, the symbols named on the command line, and the line after each
kept vmlinux symbol, so sizes stay as they were).  Everything else is copied
byte for byte.  Only used to make the committed captures; see README.md.

    slim.py IN OUT [SYMBOL...]
"""
import struct
import sys

KALLSYMS = 4
MARKERS = {"_text", "_stext", "_etext", "_sinittext", "_einittext", "_end",
           "_sdata", "_edata", "__start_rodata", "__end_rodata",
           "fixed_percpu_data", "__per_cpu_start", "__per_cpu_end"}


def slim(text, keep):
    lines = text.split(b"\n")
    out, upto = [], None   # upto: keep lines until one above this address
    for ln in lines:
        f = ln.split()
        name = f[2].decode(errors="replace") if len(f) >= 3 else ""
        addr = int(f[0], 16) if f else 0
        if len(f) >= 4 or name in keep or upto is not None:
            out.append(ln)
            if len(f) == 3 and name in keep:
                upto = addr
            elif upto is not None and addr > upto:
                upto = None
    return b"\n".join(out) + (b"\n" if not out or out[-1] else b"")


def main():
    src, dst, keep = sys.argv[1], sys.argv[2], MARKERS | set(sys.argv[3:])
    data = open(src, "rb").read()
    res = bytearray(data[:16])
    off = 16
    while off + 16 <= len(data):
        typ, cpu, length = struct.unpack_from("<IIQ", data, off)
        body = data[off + 16:off + 16 + length]
        if typ == KALLSYMS:
            body = slim(body, keep)
        res += struct.pack("<IIQ", typ, cpu, len(body)) + body
        off += 16 + length
    res += data[off:]
    open(dst, "wb").write(res)


if __name__ == "__main__":
    main()
