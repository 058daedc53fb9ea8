#!/usr/bin/python3
"""An independent implementation of the assembly store format, written from
../shared/reference/store-format.md alone, with hashes from Debian's python3-xxhash and zlib and
frames from python3-zstandard: nothing here shares code with asmstore.h.

  indep_store.py check STORE SRCDIR   parse a raw store byte by byte, check every rule of the
                                      format (header, version word, index order and hashes,
                                      descriptors, names, content id, XAZS frames) and that each
                                      image equals SRCDIR/<name>; prints one line per problem
  indep_store.py write OUT FORMAT ABI RUNTIME FILE...
                                      write a store the way upstream's writer does (zstd level 3)
Exit 0 when no problem was found."""
import os
import struct
import sys
import zlib

import xxhash
import zstandard

ABIS = {"arm64": (1, True), "arm": (2, False), "x86_64": (3, True), "x86": (4, False)}


def name_hash(kind, data):
    if kind == "crc32":
        return 0xFFFFFFFF if not data else zlib.crc32(data) & 0xFFFFFFFF
    if kind == "xxh32":
        return xxhash.xxh32_intdigest(data, seed=0)
    return xxhash.xxh3_64_intdigest(data, seed=0)


def without_ext(name):
    """Path.GetFileNameWithoutExtension with the culture prefix kept."""
    slash = name.rfind(b"/")
    dot = name.rfind(b".")
    return name[:dot] if dot > slash else name


def check(path, srcdir):
    b = open(path, "rb").read()
    problems = []

    def bad(msg):
        problems.append(msg)

    magic, version, entry_count, index_entry_count, index_size = struct.unpack_from("<5I", b, 0)
    if magic != 0x41424158:
        return ["bad magic"]
    fmt, abi, is64 = version & 0xFFFF, (version >> 16) & 0xFF, bool(version & 0x80000000)
    if fmt not in (2, 3, 4) or abi not in (1, 2, 3, 4) or version & 0x7F000000:
        return ["bad version word 0x%08x" % version]
    if is64 != (abi in (1, 3)):
        bad("64-bit flag does not match the ABI")
    header = 28 if fmt >= 4 else 20
    if index_entry_count != 2 * entry_count:
        bad("index_entry_count %d != 2 * %d" % (index_entry_count, entry_count))
    esize = index_size // index_entry_count if index_entry_count else 0
    if esize * index_entry_count != index_size or esize not in ((8, 12) if fmt == 2 else (9, 13)):
        return problems + ["index size %d for %d entries" % (index_size, index_entry_count)]
    hsize = 8 if esize in (12, 13) else 4
    index = []
    for i in range(index_entry_count):
        off = header + i * esize
        h = struct.unpack_from("<Q" if hsize == 8 else "<I", b, off)[0]
        d = struct.unpack_from("<I", b, off + hsize)[0]
        ign = b[off + hsize + 4] if esize in (9, 13) else 0
        index.append((h, d, ign))
    if [e[0] for e in index] != sorted(e[0] for e in index):
        bad("index not sorted by hash")
    dbase = header + index_size
    descs = [struct.unpack_from("<7I", b, dbase + 28 * i) for i in range(entry_count)]
    off = dbase + 28 * entry_count
    names = []
    for i in range(entry_count):
        (n,) = struct.unpack_from("<I", b, off)
        names.append(b[off + 4:off + 4 + n])
        off += 4 + n
    data_start = off
    # hash kind: from the layout; 32-bit v4 (9-byte entries) is CRC-32 or XXH32: try both
    if hsize == 8:
        kinds = ["xxh3"]
    elif fmt < 4:
        kinds = ["xxh32"]
    elif is64:
        kinds = ["crc32"]
    else:
        kinds = ["crc32", "xxh32"]
    kind = None
    for k in kinds:
        want = sorted(h for i, nm in enumerate(names) for h in (name_hash(k, nm), name_hash(k, without_ext(nm))))
        if want == sorted(e[0] for e in index):
            kind = k
            break
    if kind is None:
        bad("index hashes are not %s of the names (with and without extension)" % "/".join(kinds))
        kind = kinds[0]
    # every name's two index entries point at its descriptor
    pairs = {}
    for h, d, ign in index:
        pairs.setdefault(d, []).append((h, ign))
    expected_off = data_start
    mapping = 0
    for i, nm in enumerate(names):
        mi, do, ds, ddo, dds, cdo, cds = descs[i]
        hs = sorted(h for h, _ in pairs.get(i, []))
        if hs != sorted([name_hash(kind, nm), name_hash(kind, without_ext(nm))]):
            bad("%s: index entries do not hash its names" % nm.decode())
        ignored = {ign for _, ign in pairs.get(i, [])}
        if len(ignored) != 1:
            bad("%s: its two index entries disagree on ignore" % nm.decode())
        if 1 in ignored:
            if (mi, do, ds, ddo, dds, cdo, cds) != (0,) * 7:
                bad("%s: ignored descriptor not all zero" % nm.decode())
            if not nm.endswith(b".ni.dll"):
                bad("%s: ignored entry is not a .ni.dll" % nm.decode())
            continue
        if mi != mapping:
            bad("%s: mapping_index %d, expected %d" % (nm.decode(), mi, mapping))
        mapping += 1
        if do != expected_off:
            bad("%s: data at %d, expected %d (blobs back to back)" % (nm.decode(), do, expected_off))
        img = b[do:do + ds]
        expected_off = do + ds
        if dds:
            if ddo != expected_off:
                bad("%s: pdb not right after the image" % nm.decode())
            expected_off = ddo + dds
        if cds:
            if cdo != expected_off:
                bad("%s: config not right after the image/pdb" % nm.decode())
            expected_off = cdo + cds
        if img[:4] == b"XAZS":
            _, _, length = struct.unpack_from("<3I", img, 0)
            frame = img[12:]
            params = zstandard.get_frame_parameters(frame)
            if params.content_size != length:
                bad("%s: frame content size %d != header %d" % (nm.decode(), params.content_size, length))
            img = zstandard.ZstdDecompressor().decompress(frame)
        src = os.path.join(srcdir, nm.decode())
        if srcdir and open(src, "rb").read() != img:
            bad("%s: image differs from %s" % (nm.decode(), src))
    if expected_off != len(b):
        bad("store is %d bytes, data ends at %d" % (len(b), expected_off))
    if fmt >= 4:
        (cid,) = struct.unpack_from("<Q", b, 20)
        if cid != xxhash.xxh3_64_intdigest(b[28:], seed=0):
            bad("content_id does not match XXH3-64 of bytes [28, end)")
    print("%s: format %d, abi %d, %s, %d entries, %d problem(s)" % (path, fmt, abi, kind, entry_count, len(problems)))
    return problems


def write(out, fmt, abi_name, runtime, files):
    abi, is64 = ABIS[abi_name]
    coreclr = runtime == "coreclr"
    kind = "crc32" if coreclr and fmt == 4 else ("xxh3" if is64 else "xxh32")
    entries = []  # (name, blob or None)
    for i, f in enumerate(files):
        nm = os.path.basename(f).encode()
        data = open(f, "rb").read()
        frame = zstandard.ZstdCompressor(level=3, write_content_size=True).compress(data)
        entries.append((nm, struct.pack("<3I", 0x535A4158, len([e for e in entries if e[1] is not None]), len(data)) + frame))
        if coreclr:
            entries.append((without_ext(nm) + b".ni.dll", None))
    n = len(entries)
    header = 28 if fmt >= 4 else 20
    esize = (8 if kind == "xxh3" else 4) + 4 + (1 if fmt >= 3 else 0)
    names = b"".join(struct.pack("<I", len(nm)) + nm for nm, _ in entries)
    data_start = header + 2 * n * esize + 28 * n + len(names)
    index, descs, blobs, off, mapping = [], b"", b"", data_start, 0
    for i, (nm, blob) in enumerate(entries):
        ign = 1 if blob is None else 0
        index.append((name_hash(kind, nm), i, ign))
        index.append((name_hash(kind, without_ext(nm)), i, ign))
        if blob is None:
            descs += b"\0" * 28
        else:
            descs += struct.pack("<7I", mapping, off, len(blob), 0, 0, 0, 0)
            mapping += 1
            blobs += blob
            off += len(blob)
    index.sort(key=lambda e: e[0])
    hfmt = "<Q" if kind == "xxh3" else "<I"
    idx = b"".join(struct.pack(hfmt, h) + struct.pack("<I", d) + (bytes([ig]) if fmt >= 3 else b"") for h, d, ig in index)
    body = idx + descs + names + blobs
    version = fmt | (abi << 16) | (0x80000000 if is64 else 0)
    head = struct.pack("<5I", 0x41424158, version, n, 2 * n, len(idx))
    if fmt >= 4:
        head += struct.pack("<Q", xxhash.xxh3_64_intdigest(body, seed=0))
    open(out, "wb").write(head + body)


if __name__ == "__main__":
    if len(sys.argv) >= 3 and sys.argv[1] == "check":
        ps = check(sys.argv[2], sys.argv[3] if len(sys.argv) > 3 else None)
        for p in ps:
            print("  problem:", p)
        sys.exit(1 if ps else 0)
    if len(sys.argv) >= 6 and sys.argv[1] == "write":
        write(sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5], sys.argv[6:])
        sys.exit(0)
    print(__doc__)
    sys.exit(2)
