#!/usr/bin/env python3
"""tests/lib/zip_cases.py OUT.apk CASE [STORE] - an APK holding STORE at
lib/arm64-v8a/libassembly-store.so (beside a DEFLATEd classes.dex), written here header by header
so that one field can be wrong:
  stored, deflated         well-formed, the store STORED or DEFLATEd
  crc-stored, crc-deflated both headers carry a CRC-32 the data does not have
  local-size, local-method the local header's sizes / method disagree with the central directory's
  declared-short           both headers declare one byte less than the entry inflates to
  ratio                    both headers declare 1 GiB from a few compressed bytes
  bomb [MIB]               the entry inflates to 1.5 GiB (MIB MiB) of zeros: a 1.5 MB APK
  crc-manifest             STORE is a .NET 6-8 set's directory: its assemblies.blob STORED at
                           assemblies/, its manifest DEFLATEd with a CRC-32 its data does not have
"""
import os
import struct
import sys
import zlib

NAME = b"lib/arm64-v8a/libassembly-store.so"


def deflate(data):
    c = zlib.compressobj(9, zlib.DEFLATED, -15)
    return c.compress(data) + c.flush()


def zeros_bomb(mib):
    """1 MiB of zeros deflated once and repeated: each piece ends in a full flush (byte-aligned,
    no back-references across pieces), so the stream is valid and takes milliseconds to write."""
    c = zlib.compressobj(9, zlib.DEFLATED, -15)
    piece = c.compress(bytes(1 << 20)) + c.flush(zlib.Z_FULL_FLUSH)
    end = zlib.compressobj(9, zlib.DEFLATED, -15).flush()
    crc = 0
    for _ in range(mib):
        crc = zlib.crc32(bytes(1 << 20), crc)
    return piece * mib + end, crc, mib << 20


def local(name, method, crc, csize, usize, flags=0):
    return struct.pack("<IHHHHHIIIHH", 0x04034B50, 20, flags, method, 0, 0, crc, csize, usize,
                       len(name), 0) + name


def central(name, method, crc, csize, usize, off, flags=0):
    return struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 20, 20, flags, method, 0, 0, crc, csize,
                       usize, len(name), 0, 0, 0, 0, 0, off) + name


def archive(entries):
    """entries: (name, method, data, central (crc, csize, usize), local (crc, csize, usize, method))"""
    out, cd = b"", b""
    for name, method, data, c, l in entries:
        off = len(out)
        out += local(name, l[3], l[0], l[1], l[2]) + data
        cd += central(name, method, c[0], c[1], c[2], off)
    eocd = struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, len(entries), len(entries), len(cd), len(out), 0)
    return out + cd + eocd


def main():
    out, case = sys.argv[1], sys.argv[2]
    dex = b"dex\n035\0" * 64
    entries = [(b"classes.dex", 8, deflate(dex), None, None)]
    if case == "crc-manifest":
        blob = open(os.path.join(sys.argv[3], "assemblies.blob"), "rb").read()
        man = open(os.path.join(sys.argv[3], "assemblies.manifest"), "rb").read()
        c = [zlib.crc32(man) ^ 1, len(deflate(man)), len(man)]
        entries += [(b"assemblies/assemblies.blob", 0, blob, None, None),
                    (b"assemblies/assemblies.manifest", 8, deflate(man), c, c + [8])]
        write(out, entries)
        return
    if case == "bomb":
        data, crc, usize = zeros_bomb(int(sys.argv[3]) if len(sys.argv) > 3 else 1536)
        method = 8
    else:
        raw = open(sys.argv[3], "rb").read()
        crc, usize = zlib.crc32(raw), len(raw)
        method = 0 if case in ("stored", "crc-stored", "local-size", "local-method") else 8
        data = raw if method == 0 else deflate(raw)
    c = [crc, len(data), usize]
    if case.startswith("crc-"):
        c[0] ^= 0x5A5A5A5A
    if case == "declared-short":
        c[2] -= 1
    if case == "ratio":
        c[2] = 1 << 30
    lh = c + [method]
    if case == "local-size":
        lh[1] = lh[2] = usize - 16
    if case == "local-method":
        lh[3] = 8
    entries.append((NAME, method, data, c, lh))
    write(out, entries)


def write(out, entries):
    """entries whose headers are None get the right values (classes.dex: those of `dex`)"""
    dex = b"dex\n035\0" * 64
    full = []
    for n, m, d, c, l in entries:
        plain = dex if n == b"classes.dex" else d
        c = c or [zlib.crc32(plain), len(d), len(plain)]
        full.append((n, m, d, c, l or c + [m]))
    with open(out, "wb") as f:
        f.write(archive(full))


if __name__ == "__main__":
    main()
