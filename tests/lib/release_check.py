#!/usr/bin/python3
"""Checks what `asmstore pack --target ...` wrote against the release rules of
docs/store-releases.md (§1, §2, §3.2, §4) and docs/store-format.md, byte by byte, with
hashes from python3-xxhash and zlib and images decoded by python3-lz4 (raw blocks) and
python3-zstandard: nothing here shares code with asmstore.h.

  release_check.py store STORE SRCDIR FORMAT ABI HASH MAGIC TWINS [ALIGN]
      one raw format 2-4 store: HASH crc32|xxh32|xxh3, MAGIC XALZ|XAZS|none, TWINS 1 when every
      entry is followed by its ignored X.ni.dll twin (CoreCLR of .NET 10 and the 11 previews), 0 when
      no entry is ignored (MonoVM, and CoreCLR of .NET 11 GA: a real X.ni.dll is then ordinary), ALIGN the image alignment (default 1: data back to back right after the names)
  release_check.py set DIR SRCDIR [ABI=ARCHDIR]...
      a format 1 set (.NET 6-8): assemblies.blob from SRCDIR's files, one assemblies.<abi_>.blob
      per ABI from ARCHDIR's, assemblies.manifest
Prints one line per problem; exit 0 when there is none."""
import os
import struct
import sys
import zlib

import lz4.block
import xxhash
import zstandard

ABIS = {"arm64": (1, True, "arm64-v8a"), "arm": (2, False, "armeabi-v7a"),
        "x86_64": (3, True, "x86_64"), "x86": (4, False, "x86")}
MAGICS = {b"XALZ": "XALZ", b"XAZS": "XAZS"}
problems = []


def bad(msg):
    problems.append(msg)


def name_hash(kind, data):
    if kind == "crc32":
        return zlib.crc32(data) & 0xFFFFFFFF
    if kind == "xxh32":
        return xxhash.xxh32_intdigest(data, seed=0)
    return xxhash.xxh3_64_intdigest(data, seed=0)


def without_ext(name):
    slash, dot = name.rfind(b"/"), name.rfind(b".")
    return name[:dot] if dot > slash else name


def decode(img, magic):
    """(descriptor index, image bytes) of a stored image; index None when stored plain."""
    if img[:4] not in MAGICS:
        return None, img
    if MAGICS[img[:4]] != magic:
        bad("image with magic %s in a %s store" % (img[:4], magic))
    _, index, length = struct.unpack_from("<3I", img, 0)
    if img[:4] == b"XALZ":
        data = lz4.block.decompress(img[12:], uncompressed_size=length)
    else:
        data = zstandard.ZstdDecompressor().decompress(img[12:])
    if len(data) != length:
        bad("decompressed %d bytes, header says %d" % (len(data), length))
    return index, data


def check_padding(b, start, off, align, what):
    if off % align:
        bad("%s at %d, not a multiple of %d" % (what, off, align))
    if off < start or off - start >= align or b[start:off].strip(b"\0"):
        bad("%s at %d: expected zero padding from %d" % (what, off, start))


def check_store(path, srcdir, fmt, abi, kind, magic, twins, align):
    b = open(path, "rb").read()
    abi_id, is64, _ = ABIS[abi]
    mg, version, count, icount, isize = struct.unpack_from("<5I", b, 0)
    want_version = fmt | abi_id << 16 | (0x80000000 if is64 else 0)
    if mg != 0x41424158 or version != want_version:
        return bad("magic/version 0x%08x/0x%08x, expected XABA/0x%08x" % (mg, version, want_version))
    header = 28 if fmt == 4 else 20
    esize = (8 if kind == "xxh3" else 4) + 4 + (1 if fmt >= 3 else 0)
    if icount != 2 * count or isize != icount * esize:
        bad("index %d entries / %d bytes, expected %d / %d" % (icount, isize, 2 * count, 2 * count * esize))
    if fmt == 4 and struct.unpack_from("<Q", b, 20)[0] != xxhash.xxh3_64_intdigest(b[28:], seed=0):
        bad("content_id is not XXH3-64 of [28, end)")
    hsize = esize - 4 - (1 if fmt >= 3 else 0)
    index = []
    for i in range(icount):
        off = header + i * esize
        h = struct.unpack_from("<Q" if hsize == 8 else "<I", b, off)[0]
        d = struct.unpack_from("<I", b, off + hsize)[0]
        index.append((h, d, b[off + hsize + 4] if fmt >= 3 else 0))
    if [e[0] for e in index] != sorted(e[0] for e in index):
        bad("index not sorted by hash")
    dbase = header + isize
    descs = [struct.unpack_from("<7I", b, dbase + 28 * i) for i in range(count)]
    off = dbase + 28 * count
    names = []
    for i in range(count):
        (n,) = struct.unpack_from("<I", b, off)
        names.append(b[off + 4:off + 4 + n])
        off += 4 + n
    data_end, mapping, compressed = off, 0, 0
    for i, nm in enumerate(names):
        rows = sorted((h, ign) for h, d, ign in index if d == i)
        want = sorted((name_hash(kind, x), 0) for x in (nm, without_ext(nm)))
        ignored = twins and i % 2 == 1
        if [h for h, _ in rows] != [h for h, _ in want] or {ign for _, ign in rows} != {1 if ignored else 0}:
            bad("%s: index entries %s, expected %s of its names, ignore=%d" % (nm.decode(), rows, kind, ignored))
        if ignored and nm != without_ext(names[i - 1]) + b".ni.dll":
            bad("%s: expected %s's .ni.dll companion here" % (nm.decode(), names[i - 1].decode()))
        mi, do, ds, ddo, dds, cdo, cds = descs[i]
        if ignored:
            if descs[i] != (0,) * 7:
                bad("%s: ignored descriptor not all zero" % nm.decode())
            continue
        if mi != mapping:
            bad("%s: mapping_index %d, expected %d" % (nm.decode(), mi, mapping))
        mapping += 1
        check_padding(b, data_end, do, align, nm.decode())
        index_in_header, img = decode(b[do:do + ds], magic)
        data_end = do + ds + dds + cds
        if magic == "none":
            if index_in_header is not None:
                bad("%s: compressed in an uncompressed store" % nm.decode())
        elif index_in_header != compressed:
            bad("%s: descriptor index %s, expected %d" % (nm.decode(), index_in_header, compressed))
        compressed += 1
        if open(os.path.join(srcdir, nm.decode()), "rb").read() != img:
            bad("%s: image differs from the source file" % nm.decode())
    if data_end != len(b):
        bad("data ends at %d, the store at %d" % (data_end, len(b)))
    if mapping != len(inputs(srcdir)) or count != mapping * (2 if twins else 1):
        bad("%d entries, %d real: expected %d inputs%s" % (count, mapping, len(inputs(srcdir)), ", each with its twin" if twins else ""))
    print("%s: format %d %s %s %s, %d entries (%s), %d problem(s)"
          % (path, fmt, abi, kind, magic, count, "with .ni.dll twins" if twins else "no twins", len(problems)))


def v1_name(file_name):
    return file_name[:-4] if file_name.endswith(".dll") else file_name


def inputs(d):
    """What `asmstore pack DIR` adds, in its order: the .dll files and culture/*.resources.dll
    satellites one level down, by byte order of the directory listing."""
    names = []
    for f in sorted(os.listdir(d)):
        if os.path.isdir(os.path.join(d, f)):
            names += [f + "/" + s for s in sorted(os.listdir(os.path.join(d, f))) if s.endswith(".resources.dll")]
        elif f.endswith(".dll"):
            names.append(f)
    return names


def check_set(outdir, srcdir, arch):
    common = inputs(srcdir)
    archnames = inputs(list(arch.values())[0]) if arch else []
    abis = sorted(arch, key=lambda a: ABIS[a][0])
    # global order: common then arch once; descriptor indices: ordinal sort of destination paths
    rows = [(n, 0, i) for i, n in enumerate(common)] + [(n, 1, i) for i, n in enumerate(archnames)]
    def dest(a, n):  # %(DestinationSubPath): "<abi>/" before arch names when several ABIs have them
        return (ABIS[a][2] + "/" if a and len(abis) > 1 else "") + n
    keys = sorted((dest(a, n).encode(), a, n) for a in [""] + abis for n in (common if a == "" else archnames))
    want_index = {(a, n): i for i, (_, a, n) in enumerate(keys)}
    files = {"": "assemblies.blob"}
    files.update({a: "assemblies.%s.blob" % ABIS[a][2].replace("-", "_") for a in abis})
    for a, fname in files.items():
        b = open(os.path.join(outdir, fname), "rb").read()
        names = common if a == "" else archnames
        src = srcdir if a == "" else arch[a]
        g = len(rows) if a == "" else 0
        mg, ver, local, gcount, sid = struct.unpack_from("<5I", b, 0)
        if (mg, ver, local, gcount, sid) != (0x41424158, 1, len(names), g, 0 if a == "" else 1):
            bad("%s: header %s" % (fname, (hex(mg), ver, local, gcount, sid)))
        pos = 20 + 24 * local + 40 * g
        for k, n in enumerate(names):
            do, ds, ddo, dds, cdo, cds = struct.unpack_from("<6I", b, 20 + 24 * k)
            if do != pos:
                bad("%s %s: data at %d, expected %d (back to back)" % (fname, n, do, pos))
            index, img = decode(b[do:do + ds], "XALZ")
            if index != want_index[(a, n)]:
                bad("%s %s: descriptor index %s, expected %d" % (fname, n, index, want_index[(a, n)]))
            if img != open(os.path.join(src, n), "rb").read():
                bad("%s %s: image differs from the source file" % (fname, n))
            pos = do + ds + dds + cds
        if pos != len(b):
            bad("%s: data ends at %d, the file at %d" % (fname, pos, len(b)))
        if a == "":
            for t, fn in ((0, lambda s: xxhash.xxh32_intdigest(s)), (1, lambda s: xxhash.xxh64_intdigest(s))):
                table = [struct.unpack_from("<QIII", b, 20 + 24 * local + 20 * (t * g + r)) for r in range(g)]
                want = sorted((fn(v1_name(n).encode()), m, local_i, store) for m, (n, store, local_i) in enumerate(rows))
                if table != want:
                    bad("hash%s table differs: %s vs %s" % ("64" if t else "32", table[:3], want[:3]))
    lines = open(os.path.join(outdir, "assemblies.manifest"), "rb").read().decode().split("\n")
    want = ["Hash 32     Hash 64             Blob ID  Blob idx  Name"]
    for n, store, local_i in rows:
        s = v1_name(n).encode()
        want.append("0x%08x  0x%016x  %03d      %04d      %s" % (xxhash.xxh32_intdigest(s), xxhash.xxh64_intdigest(s), store, local_i, v1_name(n)))
    if lines != want + [""]:
        bad("manifest differs: %s" % [l for l in lines if l not in want][:3])
    print("%s: %d common, %d arch x %d ABIs, %d problem(s)" % (outdir, len(common), len(archnames), len(abis), len(problems)))


if __name__ == "__main__":
    if sys.argv[1] == "store":
        a = sys.argv[2:]
        check_store(a[0], a[1], int(a[2]), a[3], a[4], a[5], a[6] == "1", int(a[7]) if len(a) > 7 else 1)
    else:
        check_set(sys.argv[2], sys.argv[3], dict(x.split("=", 1) for x in sys.argv[4:]))
    for p in problems:
        print("problem:", p)
    sys.exit(1 if problems else 0)
