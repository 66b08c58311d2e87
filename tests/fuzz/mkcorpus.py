#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""mkcorpus.py - (re)make the seed corpora of tests/fuzz/corpus/ from the
golden captures (tests/golden/cap/*.cap.gz): small captures (every text
section, the first two sub-buffers of each CPU), sub-buffers trimmed to
their data, the metadata texts, and format + payload pairs of real records.
The hand-made seeds (corpus/*/hand-*) are not touched.  Run from anywhere:
    tests/fuzz/mkcorpus.py
Layouts: userspace/lib/capture.h (sections), include/uapi/linux/logdev.h
(sub-buffer and record headers).  Each target's input layout is in its
fuzz_TARGET.c comment."""
import gzip, hashlib, os, re, struct, sys

here = os.path.dirname(os.path.abspath(__file__))
capdir = os.path.join(here, '..', 'golden', 'cap')
out = os.path.join(here, 'corpus')
SECT_HEADER, SECT_FORMATS, SECT_KALLSYMS, SECT_CPU, SECT_END, SECT_MODLOG = 1, 2, 4, 5, 6, 7

def save(target, name, data):
    d = os.path.join(out, target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), 'wb') as f:
        f.write(data)

def sections(b):
    off = 16
    while off + 16 <= len(b):
        t, cpu, ln = struct.unpack_from('<IIQ', b, off)
        yield t, cpu, b[off + 16:off + 16 + ln], b[off:off + 16 + ln]
        off += 16 + ln

def unescape_formats(text):
    # formats lines: "id<TAB>file<TAB>line<TAB>func<TAB>fmt", the format
    # escaped; we need id -> fmt (the fuzzer takes the format as is)
    sites = {}
    for line in text.decode('latin-1').splitlines():
        m = re.match(r'(\d+)\t[^\t]*\t\d+\t[^\t]*\t(.*)$', line)
        if m:
            fmt = m.group(2).encode('latin-1').decode('unicode_escape').encode('latin-1')
            sites[int(m.group(1))] = fmt
    return sites

for fn in sorted(os.listdir(capdir)):
    if not fn.endswith('.cap.gz'):
        continue
    base = fn[:-len('.cap.gz')]
    b = gzip.open(os.path.join(capdir, fn)).read()
    small, per_cpu, texts, sbs = bytearray(b[:16]), {}, {}, []
    subbuf_size = 4096
    for t, cpu, data, whole in sections(b):
        if t == SECT_HEADER:
            m = re.search(rb'subbuf_size:\s*(\d+)', data)
            if m:
                subbuf_size = int(m.group(1))
        if t == SECT_CPU:
            n = per_cpu.get(cpu, 0)
            if n >= 2:
                continue
            per_cpu[cpu] = n + 1
            for o in range(0, len(data) - 48 + 1, subbuf_size):
                ver, db = struct.unpack_from('<H', data, o + 4)[0], struct.unpack_from('<I', data, o + 24)[0]
                hdr = 40 if ver == 1 else 48
                if len(sbs) < 3:
                    sbs.append((hdr, data[o:o + hdr + min(db, subbuf_size - hdr)]))
                if n == 0 and len(sbs) == 3:
                    break
        elif t != SECT_END:
            texts.setdefault(t, data)
        small += whole
    small += struct.pack('<IIQ', SECT_END, 0xffffffff, 0)
    save('capture', base + '.cap', bytes(small))
    code = (subbuf_size // 256).bit_length() - 1
    for i, (hdr, sb) in enumerate(sbs):
        save('subbuf', '%s-%d' % (base, i), bytes([code]) + sb)
    if SECT_HEADER in texts:
        save('meta', base + '-header', b'\x00' + texts[SECT_HEADER])
    if SECT_FORMATS in texts:
        save('meta', base + '-formats', b'\x01' + texts[SECT_FORMATS][:4096])
    ks = b''.join(texts.get(SECT_KALLSYMS, b'').splitlines(True)[:40])
    if ks:
        save('meta', base + '-kallsyms', b'\x02' + ks)
    if SECT_MODLOG in texts:
        save('meta', base + '-modlog', b'\x03' + ks + b'\x00' + texts[SECT_MODLOG][:6000])
    # bprintf: format + NUL + payload of the first records of each type
    sites = {}
    for t, cpu, data, whole in sections(b):
        if t == SECT_FORMATS:
            sites.update(unescape_formats(data))
    seen = set()
    allsb = []
    for t, cpu, data, whole in sections(b):
        if t == SECT_CPU:
            for o in range(0, len(data) - 48 + 1, subbuf_size):
                hdr = 40 if struct.unpack_from('<H', data, o + 4)[0] == 1 else 48
                db = struct.unpack_from('<I', data, o + 24)[0]
                allsb.append((hdr, data[o:o + hdr + min(db, subbuf_size - hdr)]))
    for hdr, sb in allsb:
        if len(seen) >= 8:
            break
        o = hdr
        while o + 24 <= len(sb):
            ts, site, ln, typ, ctx, pid, ab = struct.unpack_from('<QIHBBII', sb, o)
            if ln < 24 or o + ln > len(sb):
                break
            if typ in (1, 3) and site in sites and (site, typ) not in seen and len(seen) < 8:
                seen.add((site, typ))
                flags = (1 if typ == 3 else 0) | (2 if ctx & 0x80 else 0) | 4
                save('bprintf', '%s-site%d' % (base, site),
                     bytes([flags, 200]) + sites[site] + b'\x00' + sb[o + 24:o + 24 + ab])
            o += ln
