#!/usr/bin/python3
"""An independent implementation of the assembly store format, written from the format's description
alone (docs/store-format.md for formats 2-4, docs/store-releases.md §1-§5 for format 1,
hash detection and compression), with hashes from Debian's python3-xxhash and zlib, Zstd frames from
python3-zstandard and LZ4 blocks from python3-lz4: nothing here shares code with asmstore.h.

Formats 2-4 (one store per ABI):
  indep_store.py check STORE [SRCDIR] [--hash xxh3|xxh32|crc32] [--align N] [--packed]
      parse a raw store byte by byte and check every rule (header, version word, index order and
      hashes, descriptors, names, content id, data ranges, XALZ/XAZS images); the name hash is found
      from the bytes alone (docs/store-releases.md §5.6). Each image must equal SRCDIR/<name>. --hash,
      --align and --packed add expectations (hash found, image alignment, no gaps). --repacked: a
      store repacked for an existing app (docs/store-releases.md §3.4), whose compressed images keep the
      app's descriptor indices: they must be distinct, and may have holes where an image was
      replaced uncompressed or removed.
  indep_store.py write OUT FORMAT ABI RUNTIME FILE... [--hash crc32|xxh] [--align-images N]
                       [--compression zstd|lz4|none] [--twins yes|no]
      write a store the way upstream's writer does (default: CoreCLR v4 = CRC-32, else xxHash; Zstd
      level 3). CoreCLR v3/v4 entries get their ignored X.ni.dll twins as .NET 10 and the 11 previews
      wrote, except v3 with CRC-32, .NET 11 GA's layout, which has none (docs/store-releases.md §4);
      --twins overrides. --hash crc32 gives 9-byte (v3/v4) or 8-byte (v2) CRC-32 entries on any ABI;
      --align-images N zero-pads so that each image starts at a multiple of N; --compression lz4
      writes XALZ (LZ4 HC level 12), descriptor indices 0..n-1.
Format 1 (.NET 6-8 store sets, docs/store-releases.md §2):
  indep_store.py write-v1 OUTDIR PREFIX ABI[,ABI...] SRCDIR [--no-manifest] [--compression lz4|none] [--pdb]
      SRCDIR/*.dll are the common assemblies, SRCDIR/<culture>/*.dll satellites, SRCDIR/<abi>/*.dll
      (abi = arm64-v8a, armeabi-v7a, x86_64, x86) the per-ABI ones (same names for every ABI);
      X.dll.config (and X.pdb with --pdb) beside X.dll are stored too. Writes OUTDIR/PREFIX.blob,
      OUTDIR/PREFIX.<abi_>.blob per ABI and OUTDIR/PREFIX.manifest (XALZ = LZ4 HC level 9).
  indep_store.py check-v1 SET [SRCDIR]
      SET = a directory holding one set, or any file of it. Checks every rule of §2 (and §3.2's
      descriptor indices); names come from the manifest, or else from SRCDIR's file names.
  indep_store.py sample-check [SAMPLES]
      parse the real samples (default $SAMPLES, else ../shared/assembly-store-samples beside the
      repository, as in tests/lib/lib.sh) and compare them with EXPECTED.json: headers, descriptors, hash
      tables, sha256 of every decompressed image; then check-v1's rules on the v1 sets and check's on
      the v3 stores.
Both:
  indep_store.py lz4-cli STORE...
      decode every XALZ block of the stores (any format) again with the lz4 command-line tool (each
      raw block wrapped in an LZ4 frame) and compare with python3-lz4's output.
Exit 0 when no problem was found."""
import argparse
import hashlib
import json
import os
import re
import struct
import subprocess
import sys
import zlib

import lz4.block
import xxhash
import zstandard

XABA = 0x41424158
MAGICS = {0x5A4C4158: "XALZ", 0x535A4158: "XAZS"}
XALZ, XAZS = 0x5A4C4158, 0x535A4158
# short name: (ABI byte of the version word, 64-bit, Android ABI name)
ABIS = {"arm64": (1, True, "arm64-v8a"), "arm": (2, False, "armeabi-v7a"),
        "x86_64": (3, True, "x86_64"), "x86": (4, False, "x86")}
ANDROID_ABIS = {android: short for short, (_, _, android) in ABIS.items()}
UNDERSCORED_ABIS = {android.replace("-", "_"): short for short, (_, _, android) in ABIS.items()}


def abi_short(name):
    """arm64, arm64-v8a and arm64_v8a all name the same ABI."""
    short = name if name in ABIS else ANDROID_ABIS.get(name) or UNDERSCORED_ABIS.get(name)
    if short is None:
        raise SystemExit("unknown ABI %r" % name)
    return short


def underscored(short):
    return ABIS[short][2].replace("-", "_")


def name_hash(kind, data):
    if kind == "crc32":
        return 0xFFFFFFFF if not data else zlib.crc32(data) & 0xFFFFFFFF
    if kind == "xxh32":
        return xxhash.xxh32_intdigest(data, seed=0)
    if kind == "xxh64":
        return xxhash.xxh64_intdigest(data, seed=0)
    return xxhash.xxh3_64_intdigest(data, seed=0)


def without_ext(name):
    """Path.GetFileNameWithoutExtension with the culture prefix kept."""
    slash = name.rfind(b"/")
    dot = name.rfind(b".")
    return name[:dot] if dot > slash else name


def read(path):
    with open(path, "rb") as f:
        return f.read()


def write_atomically(path, data):
    tmp = "%s.tmp.%d" % (path, os.getpid())
    with open(tmp, "wb") as f:
        f.write(data)
    os.replace(tmp, path)


# ---- compressed images (docs/store-format.md §5.1, docs/store-releases.md §3.1) ----

def compress(kind, data, descriptor_index, lz4_level):
    """The 12-byte header {magic, descriptor_index, uncompressed_length} + one raw LZ4 block or Zstd frame."""
    if kind == "lz4":
        magic = XALZ
        payload = lz4.block.compress(data, mode="high_compression", compression=lz4_level, store_size=False)
    else:
        magic = XAZS
        payload = zstandard.ZstdCompressor(level=3, write_content_size=True).compress(data)
    return struct.pack("<3I", magic, descriptor_index, len(data)) + payload


def decompress(img):
    """(image, magic name or None, descriptor index, problem or None): a stored image is compressed iff
    its first u32 is a compression magic; otherwise it is used as it is."""
    if len(img) < 12 or struct.unpack_from("<I", img)[0] not in MAGICS:
        return img, None, None, None
    magic, index, length = struct.unpack_from("<3I", img, 0)
    tag, payload = MAGICS[magic], img[12:]
    try:
        if magic == XALZ:
            out = lz4.block.decompress(payload, uncompressed_size=length)
        else:
            size = zstandard.get_frame_parameters(payload).content_size
            if size != length:
                return b"", tag, index, "Zstd frame content size %d != header %d" % (size, length)
            out = zstandard.ZstdDecompressor().decompress(payload)
    except Exception as e:  # noqa: BLE001 - any decoder error is a finding
        return b"", tag, index, "%s payload does not decode (%s)" % (tag, e)
    if len(out) != length:
        return out, tag, index, "%s payload decodes to %d bytes, header says %d" % (tag, len(out), length)
    return out, tag, index, None


def describe_image(img):
    """The fields EXPECTED.json records for a stored image."""
    out, tag, index, problem = decompress(img)
    d = {"uncompressed_size": len(out), "uncompressed_sha256": hashlib.sha256(out).hexdigest(),
         "uncompressed_starts_with": out[:2].decode("latin-1")}
    if tag:
        d.update(magic=tag, xalz_descriptor_index=index)
    return d, problem


def check_data_ranges(b, data_start, ranges, packed):
    """Every blob (start, end, what) lies in [data_start, EOF), none overlaps another, the bytes between
    them are zero padding and the file ends with the last blob. packed: each blob starts exactly where
    the one before it (in the order given) ended. Returns (problems, padding bytes)."""
    problems, pos, gaps = [], data_start, 0
    for start, end, what in (ranges if packed else sorted(ranges)):
        if packed and start != pos:
            problems.append("%s at %d, expected %d (blobs back to back)" % (what, start, pos))
        elif start < pos:
            problems.append("%s [%d, %d) overlaps a blob or the tables (free from %d)" % (what, start, end, pos))
        elif start > pos:
            gaps += start - pos
            if b[pos:start].strip(b"\0"):
                problems.append("non-zero bytes in the padding [%d, %d) before %s" % (pos, start, what))
        pos = max(pos, end)
    if pos != len(b):
        problems.append("store is %d bytes, data ends at %d" % (len(b), pos))
    return problems, gaps


# ---- formats 2, 3, 4 ----

def parse_v2(b):
    """Header, index, descriptors and names of a format 2-4 store; raises ValueError on a layout that
    cannot be read at all."""
    if len(b) < 20:
        raise ValueError("file of %d bytes is shorter than a header" % len(b))
    magic, version, entry_count, index_entry_count, index_size = struct.unpack_from("<5I", b, 0)
    if magic != XABA:
        raise ValueError("bad magic")
    fmt, abi, is64 = version & 0xFFFF, (version >> 16) & 0xFF, bool(version & 0x80000000)
    if fmt not in (2, 3, 4) or abi not in (1, 2, 3, 4) or version & 0x7F000000:
        raise ValueError("bad version word 0x%08x" % version)
    header = 28 if fmt >= 4 else 20
    esize = index_size // index_entry_count if index_entry_count else 0
    if esize * index_entry_count != index_size or (index_entry_count and esize not in ((8, 12) if fmt == 2 else (9, 13))):
        raise ValueError("index size %d for %d entries" % (index_size, index_entry_count))
    dbase = header + index_size
    if dbase + 28 * entry_count > len(b):
        raise ValueError("index and descriptors end past the end of the file")
    hsize = 8 if esize in (12, 13) else 4
    index = []
    for i in range(index_entry_count):
        off = header + i * esize
        h = struct.unpack_from("<Q" if hsize == 8 else "<I", b, off)[0]
        d = struct.unpack_from("<I", b, off + hsize)[0]
        index.append((h, d, b[off + hsize + 4] if esize in (9, 13) else 0))
    descs = [struct.unpack_from("<7I", b, dbase + 28 * i) for i in range(entry_count)]
    off, names = dbase + 28 * entry_count, []
    for i in range(entry_count):
        if off + 4 > len(b) or off + 4 + struct.unpack_from("<I", b, off)[0] > len(b):
            raise ValueError("names section runs past the end of the file")
        (n,) = struct.unpack_from("<I", b, off)
        names.append(b[off + 4:off + 4 + n])
        off += 4 + n
    return dict(format=fmt, version_word=version, abi_byte=abi, is_64bit=is64, entry_count=entry_count,
                index_entry_count=index_entry_count, index_size=index_size, header=header, hsize=hsize,
                index=index, descriptors=descs, names=names, data_start=off)


def detect_hash(s):
    """docs/store-releases.md §5.6: 8-byte hashes are XXH3-64; 4-byte ones are CRC-32 on a 64-bit ABI and XXH32
    or CRC-32 on a 32-bit one: keep the function whose values for the first names (with and without the
    last extension) are all in the index."""
    if s["hsize"] == 8:
        candidates = ["xxh3"]
    elif s["is_64bit"]:
        candidates = ["crc32"]
    else:
        candidates = ["xxh32", "crc32"]
    present = {h for h, _, _ in s["index"]}
    for kind in candidates:
        if all(name_hash(kind, nm) in present and name_hash(kind, without_ext(nm)) in present for nm in s["names"][:8]):
            return kind, candidates
    return None, candidates


def check(path, srcdir, expect_hash=None, align=None, packed=False, repacked=False):
    b = read(path)
    try:
        s = parse_v2(b)
    except ValueError as e:
        return [str(e)]
    problems = []
    bad = problems.append
    fmt, names, index, descs = s["format"], s["names"], s["index"], s["descriptors"]
    if s["is_64bit"] != (s["abi_byte"] in (1, 3)):
        bad("64-bit flag does not match the ABI")
    if s["index_entry_count"] != 2 * s["entry_count"]:
        bad("index_entry_count %d != 2 * %d" % (s["index_entry_count"], s["entry_count"]))
    if [e[0] for e in index] != sorted(e[0] for e in index):
        bad("index not sorted by hash")
    kind, candidates = detect_hash(s)
    if kind is None:
        bad("index hashes are not %s of the names (with and without extension)" % " or ".join(candidates))
        kind = candidates[0]
    elif expect_hash and kind != expect_hash:
        bad("name hash is %s, expected %s" % (kind, expect_hash))
    want = sorted(h for nm in names for h in (name_hash(kind, nm), name_hash(kind, without_ext(nm))))
    if want != sorted(e[0] for e in index):
        bad("index hashes are not %s of every name with and without extension" % kind)
    # every name's two index entries point at its descriptor
    pairs = {}
    for h, d, ign in index:
        pairs.setdefault(d, []).append((h, ign))
    ranges, compressed, mapping = [], {}, 0
    for i, nm in enumerate(names):
        label = nm.decode(errors="replace")
        mi, do, ds, ddo, dds, cdo, cds = descs[i]
        hs = sorted(h for h, _ in pairs.get(i, []))
        if hs != sorted([name_hash(kind, nm), name_hash(kind, without_ext(nm))]):
            bad("%s: index entries do not hash its names" % label)
        ignored = {ign for _, ign in pairs.get(i, [])}
        if len(ignored) != 1:
            bad("%s: its two index entries disagree on ignore" % label)
        if 1 in ignored:
            if descs[i] != (0,) * 7:
                bad("%s: ignored descriptor not all zero" % label)
            if not nm.endswith(b".ni.dll"):
                bad("%s: ignored entry is not a .ni.dll" % label)
            continue
        if mi != mapping:
            bad("%s: mapping_index %d, expected %d" % (label, mi, mapping))
        mapping += 1
        if ds == 0:
            bad("%s: empty image" % label)
        if align and do % align:
            bad("%s: image at %d is not aligned to %d" % (label, do, align))
        ranges.append((do, do + ds, label + " image"))
        end = do + ds
        for off, size, what in ((ddo, dds, "pdb"), (cdo, cds, "config")):
            if size:
                if off != end:
                    bad("%s: %s at %d, expected right after the image (%d)" % (label, what, off, end))
                ranges.append((off, off + size, "%s %s" % (label, what)))
                end = off + size
            elif off:
                bad("%s: %s offset %d with size 0" % (label, what, off))
        if do < s["data_start"] or do + ds > len(b):
            bad("%s: image [%d, %d) outside the data region" % (label, do, do + ds))
            continue
        img, tag, dindex, problem = decompress(b[do:do + ds])
        if problem:
            bad("%s: %s" % (label, problem))
        if tag:
            compressed.setdefault(tag, []).append(dindex)
        try:
            src = os.path.join(srcdir, nm.decode()) if srcdir else None
        except UnicodeDecodeError:
            bad("%s: name is not UTF-8" % label)
            continue
        if src and (not os.path.isfile(src) or read(src) != img):
            bad("%s: image differs from %s" % (label, src))
    range_problems, gaps = check_data_ranges(b, s["data_start"], ranges, packed)
    problems += range_problems
    if len(compressed) > 1:
        bad("store mixes XALZ and XAZS images")
    for tag, indices in compressed.items():
        if repacked and len(set(indices)) != len(indices):
            bad("%s descriptor indices repeat" % tag)
        elif not repacked and sorted(indices) != list(range(len(indices))):
            bad("%s descriptor indices are not 0..%d once each" % (tag, len(indices) - 1))
    if fmt >= 4:
        (cid,) = struct.unpack_from("<Q", b, 20)
        if cid != xxhash.xxh3_64_intdigest(b[28:], seed=0):
            bad("content_id does not match XXH3-64 of bytes [28, end)")
    comp = ", ".join("%d %s" % (len(v), k) for k, v in sorted(compressed.items())) or "no compressed"
    print("%s: format %d, abi %d, %s (%d-byte entries), %d entries, %s images, %d padding bytes, %d problem(s)"
          % (path, fmt, s["abi_byte"], kind, s["index_size"] // max(1, s["index_entry_count"]),
             s["entry_count"], comp, gaps, len(problems)))
    return problems


def write(out, fmt, abi_name, runtime, files, hash_kind=None, align=1, compression="zstd", lz4_level=12,
          twins=None):
    abi, is64, _ = ABIS[abi_short(abi_name)]
    coreclr = runtime == "coreclr"
    if hash_kind is None:
        hash_kind = "crc32" if coreclr and fmt == 4 else "xxh"
    kind = "crc32" if hash_kind == "crc32" else ("xxh3" if is64 else "xxh32")
    if twins is None:  # v2 has no ignore byte, so no twins; .NET 11 GA (v3, CRC-32) stopped writing them
        twins = coreclr and fmt >= 3 and not (fmt == 3 and kind == "crc32")
    if twins and fmt < 3:
        raise SystemExit("format 2 has no ignore byte: no --twins yes")
    if align < 1 or align > 16384 or align & (align - 1):
        raise SystemExit("--align-images must be a power of two <= 16384")
    entries = []  # (name, image or None for an ignored entry)
    compressed = 0
    for f in files:
        nm = os.path.basename(f).encode()
        data = read(f)
        if compression != "none":
            data = compress(compression, data, compressed, lz4_level)
            compressed += 1
        entries.append((nm, data))
        if twins:
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
            continue
        pad = -off % align
        blobs += b"\0" * pad + blob
        off += pad
        descs += struct.pack("<7I", mapping, off, len(blob), 0, 0, 0, 0)
        mapping += 1
        off += len(blob)
    index.sort(key=lambda e: e[0])
    hfmt = "<Q" if kind == "xxh3" else "<I"
    idx = b"".join(struct.pack(hfmt, h) + struct.pack("<I", d) + (bytes([ig]) if fmt >= 3 else b"") for h, d, ig in index)
    body = idx + descs + names + blobs
    version = fmt | (abi << 16) | (0x80000000 if is64 else 0)
    head = struct.pack("<5I", XABA, version, n, 2 * n, len(idx))
    if fmt >= 4:
        head += struct.pack("<Q", xxhash.xxh3_64_intdigest(body, seed=0))
    write_atomically(out, head + body)


# ---- format 1 (docs/store-releases.md §2) ----

MANIFEST_HEADER = "Hash 32     Hash 64             Blob ID  Blob idx  Name"
MANIFEST_ROW = re.compile(r"0x([0-9a-f]{8})  0x([0-9a-f]{16})  (\d{3})      (\d{4,})      (\S.*)\Z")


def parse_v1(b):
    """(store, problems) of one format-1 file: header, descriptors, hash tables, checked with the rules
    that need only this file (§2.2, §2.3). store is None when the file cannot be read as format 1."""
    if len(b) < 20:
        return None, ["file of %d bytes is shorter than a header" % len(b)]
    magic, version, local, glob_, store_id = struct.unpack_from("<5I", b, 0)
    if magic != XABA:
        return None, ["bad magic"]
    if version != 1:
        return None, ["version 0x%08x is not format 1" % version]
    problems = []
    if store_id not in (0, 1):
        problems.append("store_id %d (only 0 and 1 exist)" % store_id)
    if store_id != 0 and glob_:
        problems.append("store %d has global_entry_count %d; only store 0 carries hash tables" % (store_id, glob_))
    rows = glob_ if store_id == 0 else 0
    data_start = 20 + 24 * local + 40 * rows
    if data_start > len(b):
        return None, problems + ["descriptors and tables end at %d, past the end (%d)" % (data_start, len(b))]
    tables = 20 + 24 * local
    store = dict(format=1, version_word=version, local_entry_count=local, global_entry_count=glob_,
                 store_id=store_id, data_start=data_start,
                 descriptors=[struct.unpack_from("<6I", b, 20 + 24 * i) for i in range(local)],
                 hash32_table=[struct.unpack_from("<QIII", b, tables + 20 * i) for i in range(rows)],
                 hash64_table=[struct.unpack_from("<QIII", b, tables + 20 * (rows + i)) for i in range(rows)])
    problems += check_v1_blobs(b, store)
    if store_id == 0:
        problems += check_v1_tables(store)
    return store, problems


def check_v1_blobs(b, store):
    """§2.3: per descriptor image, then pdb, then config + NUL, all back to back from data_start to EOF;
    absent parts are 0/0."""
    problems, ranges = [], []
    for i, (do, ds, ddo, dds, cdo, cds) in enumerate(store["descriptors"]):
        if ds == 0:
            problems.append("descriptor %d: empty image" % i)
        ranges.append((do, do + ds, "descriptor %d image" % i))
        for off, size, what in ((ddo, dds, "pdb"), (cdo, cds, "config")):
            if size:
                ranges.append((off, off + size, "descriptor %d %s" % (i, what)))
            elif off:
                problems.append("descriptor %d: %s offset %d with size 0" % (i, what, off))
        if cds and (cdo + cds > len(b) or b[cdo + cds - 1] != 0):
            problems.append("descriptor %d: config data does not end with the appended NUL" % i)
    problems += check_data_ranges(b, store["data_start"], ranges, packed=True)[0]
    return problems


def check_v1_tables(store):
    """§2.3: both tables sorted by hash with no equal keys, listing the same rows; one mapping_index per
    assembly, common entries 0..L0-1 in descriptor order, then the arch entries L0 + local index."""
    problems = []
    local0 = store["local_entry_count"]
    for name, rows in (("hash32", store["hash32_table"]), ("hash64", store["hash64_table"])):
        hs = [r[0] for r in rows]
        if any(x >= y for x, y in zip(hs, hs[1:])):
            problems.append("%s table not strictly ascending by hash" % name)
    if any(r[0] >> 32 for r in store["hash32_table"]):
        problems.append("hash32 table holds values above 32 bits")
    targets = sorted(r[1:] for r in store["hash32_table"])
    if targets != sorted(r[1:] for r in store["hash64_table"]):
        problems.append("hash32 and hash64 tables list different (mapping, local, store) rows")
    if sorted(t[0] for t in targets) != list(range(len(targets))):
        problems.append("mapping indices are not 0..%d once each" % (len(targets) - 1))
    for mapping, local, store_id in targets:
        base = 0 if store_id == 0 else local0
        if store_id not in (0, 1) or mapping != base + local:
            problems.append("row (mapping %d, local %d, store %d): expected mapping = %d + local"
                            % (mapping, local, store_id, base))
    for store_id, count in ((0, local0), (1, len(targets) - local0)):
        if sorted(t[1] for t in targets if t[2] == store_id) != list(range(max(0, count))):
            problems.append("store %d rows do not list local indices 0..%d once each" % (store_id, count - 1))
    return problems


def parse_manifest(text):
    """(rows [(h32, h64, store id, local index, name)], problems) per §2.5."""
    problems = []
    if text.startswith("\ufeff"):
        problems.append("manifest starts with a BOM")
    lines = text.split("\n")
    if lines[-1] != "":
        problems.append("manifest does not end with a line end")
    lines = [ln[:-1] if ln.endswith("\r") else ln for ln in lines[:-1]]
    if not lines or lines[0] != MANIFEST_HEADER:
        problems.append("manifest header line is %r" % (lines[0] if lines else ""))
    rows = []
    for n, ln in enumerate(lines[1:], 2):
        m = MANIFEST_ROW.match(ln)
        if not m:
            problems.append("manifest line %d does not have the §2.5 layout: %r" % (n, ln))
            continue
        h32, h64, sid, local, name = int(m[1], 16), int(m[2], 16), int(m[3]), int(m[4]), m[5]
        enc = name.encode()
        if h32 != name_hash("xxh32", enc) or h64 != name_hash("xxh64", enc):
            problems.append("manifest line %d: hashes are not XXH32/XXH64 of %r" % (n, name))
        rows.append((h32, h64, sid, local, name))
    return rows, problems


def source_assemblies(srcdir, abis):
    """(common {name: path}, arch {abi: {name: path}}) from SRCDIR: *.dll common, <culture>/*.dll
    satellites (name 'culture/X'), <android abi>/*.dll per ABI; names in the §2.4 form (no .dll)."""
    common, arch = {}, {abi: {} for abi in abis}
    for entry in sorted(os.listdir(srcdir)):
        path = os.path.join(srcdir, entry)
        if os.path.isfile(path) and entry.endswith(".dll"):
            common[entry[:-4]] = path
        elif os.path.isdir(path):
            short = ANDROID_ABIS.get(entry)
            if short is not None and short not in abis:
                continue
            for f in sorted(os.listdir(path)):
                if f.endswith(".dll"):
                    if short is None:
                        common["%s/%s" % (entry, f[:-4])] = os.path.join(path, f)
                    else:
                        arch[short][f[:-4]] = os.path.join(path, f)
    return common, arch


def xalz_keys(common, arch_names, abis):
    """docs/store-releases.md §3.2, .NET 6-8: descriptor index = position in the ordinal sort of every
    compressed assembly's destination sub-path over all ABIs ('<abi>/X.dll' in multi-ABI builds)."""
    keys = {(None, n): n + ".dll" for n in common}
    for abi in abis:
        for n in arch_names:
            keys[(abi, n)] = (ABIS[abi][2] + "/" if len(abis) > 1 else "") + n + ".dll"
    return keys


def write_v1(outdir, prefix, abis, srcdir, manifest=True, compression="lz4", pdb=False, lz4_level=9):
    common, arch = source_assemblies(srcdir, abis)
    arch_names = sorted(arch[abis[0]])
    for abi in abis:
        if sorted(arch[abi]) != arch_names:
            raise SystemExit("every ABI needs the same per-ABI assemblies (%s differs)" % ABIS[abi][2])
    if set(common) & set(arch_names):
        raise SystemExit("assemblies both common and per ABI: %s" % sorted(set(common) & set(arch_names)))
    # entry order does not matter to the runtime; arch stores sort by file name, roughly as .NET's
    # culture-aware compare does (docs/store-releases.md §4)
    arch_names.sort(key=lambda n: ((n + ".dll").lower(), n))
    common_names = sorted(common)
    keys = xalz_keys(common_names, arch_names, abis)
    xalz_index = {k: i for i, k in enumerate(sorted(keys.values()))}
    rows = [(n, 0, i) for i, n in enumerate(common_names)] + [(n, 1, i) for i, n in enumerate(arch_names)]
    for kind in ("xxh32", "xxh64"):
        if len({name_hash(kind, n.encode()) for n, _, _ in rows}) != len(rows):
            raise SystemExit("two names have the same %s hash (the real build fails too)" % kind)

    def store_bytes(store_id, items, table_rows):
        """items: [(xalz key, source path)]."""
        data_start = 20 + 24 * len(items) + 40 * len(table_rows)
        descs, body = b"", b""
        for key, path in items:
            image = read(path)
            if compression != "none":
                image = compress("lz4", image, xalz_index[key], lz4_level)
            parts = [image]
            pdb_path = path[:-4] + ".pdb"
            parts.append(read(pdb_path) if pdb and os.path.isfile(pdb_path) else b"")
            parts.append(read(path + ".config") + b"\0" if os.path.isfile(path + ".config") else b"")
            fields, off = [], data_start + len(body)
            for part in parts:
                fields += [off, len(part)] if part else [0, 0]
                off += len(part)
            descs += struct.pack("<6I", *fields)
            body += b"".join(parts)
        tables = b""
        for kind in ("xxh32", "xxh64"):
            hashed = sorted((name_hash(kind, n.encode()), g, local, sid) for g, (n, sid, local) in enumerate(table_rows))
            tables += b"".join(struct.pack("<QIII", *r) for r in hashed)
        return struct.pack("<5I", XABA, 1, len(items), len(table_rows), store_id) + descs + tables + body

    os.makedirs(outdir, exist_ok=True)
    written = [os.path.join(outdir, prefix + ".blob")]
    write_atomically(written[0], store_bytes(0, [(keys[(None, n)], common[n]) for n in common_names], rows))
    for abi in abis:
        written.append(os.path.join(outdir, "%s.%s.blob" % (prefix, underscored(abi))))
        write_atomically(written[-1], store_bytes(1, [(keys[(abi, n)], arch[abi][n]) for n in arch_names], []))
    if manifest:
        lines = [MANIFEST_HEADER] + ["0x%08x  0x%016x  %03d      %04d      %s" % (
            name_hash("xxh32", n.encode()), name_hash("xxh64", n.encode()), sid, local, n) for n, sid, local in rows]
        written.append(os.path.join(outdir, prefix + ".manifest"))
        write_atomically(written[-1], ("\n".join(lines) + "\n").encode())
    return written


def v1_set(path):
    """(store-0 file or None, {abi: file}, manifest or None) of the set PATH names: a directory holding
    one set, or any file of a set (PREFIX.blob, PREFIX.<abi_>.blob, PREFIX.manifest)."""
    def role(fname):
        if fname.endswith(".manifest"):
            return fname[:-9], "manifest"
        if fname.endswith(".blob"):
            stem = fname[:-5]
            head, _, tail = stem.rpartition(".")
            return (head, UNDERSCORED_ABIS[tail]) if head and tail in UNDERSCORED_ABIS else (stem, 0)
        return None, None
    if os.path.isdir(path):
        d, prefixes = path, {role(f)[0] for f in os.listdir(path)} - {None}
        if len(prefixes) != 1:
            raise SystemExit("%s holds %d store sets (%s); name one of its files" % (path, len(prefixes), sorted(prefixes)))
        prefix = prefixes.pop()
    elif os.path.isfile(path) and role(os.path.basename(path))[0]:
        d, prefix = os.path.dirname(path) or ".", role(os.path.basename(path))[0]
    else:
        raise SystemExit("%s is neither a directory nor a .blob/.manifest file" % path)
    store0, arch, manifest = None, {}, None
    for f in sorted(os.listdir(d)):
        p, r = role(f)
        if p != prefix or r is None:
            continue
        if r == "manifest":
            manifest = os.path.join(d, f)
        elif r == 0:
            store0 = os.path.join(d, f)
        else:
            arch[r] = os.path.join(d, f)
    return store0, arch, manifest


def check_v1_set(path, srcdir, require_store0=True):
    """Every rule of §2 over a whole set, §3.2's descriptor indices, and each image against SRCDIR.
    Returns (problems, {file: parsed store}, {(store id, local): name})."""
    store0_path, arch_paths, manifest_path = v1_set(path)
    problems, parsed = [], {}
    files = ([store0_path] if store0_path else []) + list(arch_paths.values())
    if not store0_path and require_store0:
        problems.append("no store 0 (PREFIX.blob) in the set")
    for f in files:
        store, ps = parse_v1(read(f))
        problems += ["%s: %s" % (os.path.basename(f), p) for p in ps]
        if store is not None:
            parsed[f] = store
    s0 = parsed.get(store0_path)
    if store0_path and s0 and s0["store_id"] != 0:
        problems.append("%s: store_id %d, expected 0" % (os.path.basename(store0_path), s0["store_id"]))
    arch_counts = set()
    for abi, f in arch_paths.items():
        if f in parsed:
            if parsed[f]["store_id"] != 1:
                problems.append("%s: store_id %d, expected 1" % (os.path.basename(f), parsed[f]["store_id"]))
            arch_counts.add(parsed[f]["local_entry_count"])
    if len(arch_counts) > 1:
        problems.append("per-ABI stores hold different entry counts %s" % sorted(arch_counts))
    local0 = s0["local_entry_count"] if s0 else None
    local1 = (s0["global_entry_count"] - local0) if s0 else None
    if s0 and arch_counts and arch_counts != {local1}:
        problems.append("store 0 lists %d per-ABI rows, per-ABI stores hold %s" % (local1, sorted(arch_counts)))
    if s0 and local1 and not arch_paths:
        problems.append("store 0 lists per-ABI rows but the set has no per-ABI store")

    names = {}
    if manifest_path:
        rows, ps = parse_manifest(read(manifest_path).decode("utf-8", errors="replace"))
        problems += ["manifest: " + p for p in ps]
        problems += check_manifest_rows(rows, s0, arch_counts)
        names = {(sid, local): name for _, _, sid, local, name in rows}
    elif srcdir and s0:
        common, arch = source_assemblies(srcdir, list(arch_paths))
        row_of = {r[0]: r for r in s0["hash64_table"]}
        for n in list(common) + sorted({n for per in arch.values() for n in per}):
            r = row_of.get(name_hash("xxh64", n.encode()))
            if r:
                names[(r[3], r[2])] = n
    problems += check_v1_images(parsed, store0_path, arch_paths, names, srcdir)
    return problems, parsed, names


def check_manifest_rows(rows, s0, arch_counts):
    """§2.5: rows in global-index order (common, then the arch entries once), agreeing with both tables."""
    problems = []
    common = sum(1 for r in rows if r[2] == 0)
    for g, (h32, h64, sid, local, name) in enumerate(rows):
        if sid not in (0, 1) or local != (g if sid == 0 else g - common):
            problems.append("manifest row %d (%s): store %d local %d is not in global-index order" % (g, name, sid, local))
    if s0:
        if len(rows) != s0["global_entry_count"]:
            problems.append("manifest has %d rows, store 0 lists %d" % (len(rows), s0["global_entry_count"]))
        t32 = {r[0]: r[1:] for r in s0["hash32_table"]}
        t64 = {r[0]: r[1:] for r in s0["hash64_table"]}
        for g, (h32, h64, sid, local, name) in enumerate(rows):
            if t32.get(h32) != (g, local, sid) or t64.get(h64) != (g, local, sid):
                problems.append("manifest row %d (%s) does not match the hash tables" % (g, name))
    if arch_counts and arch_counts != {len(rows) - common}:
        problems.append("manifest lists %d per-ABI names, per-ABI stores hold %s" % (len(rows) - common, sorted(arch_counts)))
    return problems


def check_v1_images(parsed, store0_path, arch_paths, names, srcdir):
    """Each image decodes (XALZ) and equals its source; pdb and config (minus the NUL) too; every source
    is in the set; XALZ descriptor indices are unique in the set and follow §3.2."""
    problems, compressed, seen = [], {}, {}
    stores = ([(store0_path, None)] if store0_path in parsed else []) + \
        [(f, abi) for abi, f in sorted(arch_paths.items()) if f in parsed]
    for f, abi in stores:
        b, store = read(f), parsed[f]
        for i, (do, ds, ddo, dds, cdo, cds) in enumerate(store["descriptors"]):
            name = names.get((store["store_id"], i))
            label = "%s #%d (%s)" % (os.path.basename(f), i, name or "no name")
            img, tag, dindex, problem = decompress(b[do:do + ds])
            if problem:
                problems.append("%s: %s" % (label, problem))
            if tag == "XAZS":
                problems.append("%s: XAZS image in a format-1 store" % label)
            if tag:
                if dindex in seen:
                    problems.append("%s: XALZ descriptor index %d also used by %s" % (label, dindex, seen[dindex]))
                seen[dindex] = label
                if name:
                    compressed[(abi, name)] = dindex
            if srcdir:
                problems += ["%s: %s" % (label, p) for p in compare_v1_entry(b, store["descriptors"][i], img, srcdir, abi, name)]
    if srcdir:
        common, arch = source_assemblies(srcdir, sorted(arch_paths))
        for n in sorted((set(common) | {n for per in arch.values() for n in per}) - set(names.values())):
            problems.append("source %s is not in the set" % n)
    return problems + check_xalz_order(compressed, names, sorted(arch_paths), store0_path not in parsed)


def compare_v1_entry(b, desc, img, srcdir, abi, name):
    """The image, pdb and config (+ NUL) of one descriptor against SRCDIR."""
    if name is None:
        return ["no source name hashes to this entry"]
    src = source_path(srcdir, abi, name)
    if src is None or read(src) != img:
        return ["image differs from %s" % (src or "its source (missing)")]
    _, _, ddo, dds, cdo, cds = desc
    problems, pdb, cfg = [], src[:-4] + ".pdb", src + ".config"
    if dds and (not os.path.isfile(pdb) or read(pdb) != b[ddo:ddo + dds]):
        problems.append("pdb differs from %s" % pdb)
    want_cfg = read(cfg) + b"\0" if os.path.isfile(cfg) else b""
    if (b[cdo:cdo + cds] if cds else b"") != want_cfg:
        problems.append("config data is not %s + NUL" % cfg)
    return problems


def check_xalz_order(compressed, names, abis, partial):
    """docs/store-releases.md §3.2 (.NET 6-8): each XALZ descriptor index is the position of the entry's
    destination sub-path in the ordinal sort over all ABIs of the set. Entries without compression get no
    descriptor, so a full set sorts its compressed entries only; a set without store 0 (real samples)
    takes every manifest name as compressed."""
    if not compressed:
        return []
    keys = xalz_keys([n for (sid, _), n in names.items() if sid == 0],
                     [n for (sid, _), n in names.items() if sid == 1], abis)
    if not partial:
        keys = {k: v for k, v in keys.items() if k in compressed}
    order = {v: i for i, v in enumerate(sorted(keys.values()))}
    return ["XALZ descriptor index of %s is %d; the ordinal sort over all ABIs gives %d" % (keys[k], d, order[keys[k]])
            for k, d in sorted(compressed.items(), key=str) if k in keys and order[keys[k]] != d]


def source_path(srcdir, abi, name):
    """SRCDIR/<android abi>/<name>.dll for a per-ABI entry when present, else SRCDIR/<name>.dll."""
    for p in ([os.path.join(srcdir, ABIS[abi][2], name + ".dll")] if abi else []) + [os.path.join(srcdir, name + ".dll")]:
        if os.path.isfile(p):
            return p
    return None


# ---- real samples (shared/assembly-store-samples, EXPECTED.json) ----

def describe_v1(path, b):
    """A format-1 file in EXPECTED.json's shape; names from the set's manifest."""
    store, problems = parse_v1(b)
    if store is None:
        return {}, problems
    manifest = v1_set(path)[2]
    names = {}
    if manifest:
        rows, ps = parse_manifest(read(manifest).decode())
        problems += ps
        names = {(sid, local): name for _, _, sid, local, name in rows}
    d = dict(store)
    d["descriptors"] = []
    for i, (do, ds, ddo, dds, cdo, cds) in enumerate(store["descriptors"]):
        image, problem = describe_image(b[do:do + ds])
        problems += [problem] if problem else []
        d["descriptors"].append(dict(image, data_offset=do, data_size=ds, debug_data_offset=ddo, debug_data_size=dds,
                                     config_data_offset=cdo, config_data_size=cds,
                                     name_from_manifest=names.get((store["store_id"], i))))
    for table in ("hash32_table", "hash64_table"):
        d[table] = [dict(hash=h, mapping_index=m, local_store_index=local, store_id=sid) for h, m, local, sid in store[table]]
    return d, problems


def describe_v2(b):
    """A format 2-4 store in EXPECTED.json's shape."""
    s = parse_v2(b)
    kind, _ = detect_hash(s)
    problems, d = [], dict(s)
    by_hash = {}
    for i, nm in enumerate(s["names"]):
        for variant in (nm, without_ext(nm)):
            by_hash[(name_hash(kind or "xxh3", variant), i)] = variant.decode(errors="replace")
    d["index"] = [dict(hash=h, descriptor_index=di, ignore=ign, hashed_name=by_hash.get((h, di))) for h, di, ign in s["index"]]
    d["descriptors"] = []
    for nm, (mi, do, ds, ddo, dds, cdo, cds) in zip(s["names"], s["descriptors"]):
        image, problem = describe_image(b[do:do + ds])
        problems += [problem] if problem else []
        d["descriptors"].append(dict(image, mapping_index=mi, data_offset=do, data_size=ds, debug_data_offset=ddo,
                                     debug_data_size=dds, config_data_offset=cdo, config_data_size=cds,
                                     name=nm.decode(errors="replace")))
    return d, problems


def sample_check(samples):
    """Every field of EXPECTED.json recomputed from the sample bytes, then every rule of the checkers
    (check-v1 without store 0 for the partial .NET 8 set, check for the v3 stores) on the samples."""
    if not os.path.isfile(os.path.join(samples, "EXPECTED.json")):
        raise SystemExit("%s has no EXPECTED.json (give the samples directory or set SAMPLES)" % samples)
    expected = json.loads(read(os.path.join(samples, "EXPECTED.json")))
    failures, count = [], [0]

    def compare(where, got, want):
        if isinstance(want, dict):
            for k, v in want.items():
                if not k.endswith("_note"):
                    compare("%s.%s" % (where, k), got.get(k, "(absent)") if isinstance(got, dict) else "(absent)", v)
            return
        if isinstance(want, list):
            if not isinstance(got, list) or len(got) != len(want):
                count[0] += 1
                failures.append("%s: %s entries, EXPECTED.json has %d" % (where, len(got) if isinstance(got, list) else got, len(want)))
                return
            for i, (g, w) in enumerate(zip(got, want)):
                compare("%s[%d]" % (where, i), g, w)
            return
        count[0] += 1
        same = got == int(want, 16) if isinstance(want, str) and want.startswith("0x") and isinstance(got, int) else got == want
        if not same:
            failures.append("%s: %r, EXPECTED.json says %r" % (where, got, want))

    for rel, want in sorted(expected.items()):
        path = os.path.join(samples, rel)
        b = read(path)
        if b[:4] == b"XABA" and struct.unpack_from("<I", b, 4)[0] == 1:
            got, problems = describe_v1(path, b)
        elif b[:4] == b"XABA":
            got, problems = describe_v2(b)
        else:
            got, problem = describe_image(b)
            problems = [problem] if problem else []
        got.update(size=len(b), sha256=hashlib.sha256(b).hexdigest(), first32_hex=b[:32].hex())
        compare(rel, got, want)
        failures += ["%s: %s" % (rel, p) for p in problems]
    rules = 0
    for entry in sorted(os.listdir(samples)):
        d = os.path.join(samples, entry)
        if entry.startswith("v1-") and os.path.isdir(d):
            problems, parsed, names = check_v1_set(d, None, require_store0=False)
            rules += 1
            failures += ["%s: %s" % (entry, p) for p in problems]
            print("%s: %d file(s), %d names from the manifest, %d problem(s)" % (entry, len(parsed), len(names), len(problems)))
    for rel in sorted(k for k, v in expected.items() if v.get("format") in (2, 3, 4)):
        rules += 1
        failures += ["%s: %s" % (rel, p) for p in check(os.path.join(samples, rel), None)]
    for f in failures:
        print("  FAIL", f)
    print("sample-check: %d fields compared with EXPECTED.json, %d sets/stores checked with every rule, %d failure(s)"
          % (count[0], rules, len(failures)))
    return failures


# ---- the lz4 command-line tool as a second LZ4 decoder ----

LZ4_FRAME_MAX_BLOCK = 4 << 20


def lz4_frame(block, content_size):
    """One raw LZ4 block as an LZ4 frame (LZ4 Frame Format 1.6): FLG = version 01, independent blocks,
    content size present, no checksums; BD = 4 MiB blocks; HC = second byte of XXH32 of the descriptor."""
    descriptor = bytes([0x40 | 0x20 | 0x08, 7 << 4]) + struct.pack("<Q", content_size)
    hc = (xxhash.xxh32_intdigest(descriptor, seed=0) >> 8) & 0xFF
    return struct.pack("<I", 0x184D2204) + descriptor + bytes([hc]) + struct.pack("<I", len(block)) + block + b"\0\0\0\0"


def store_images(b):
    """Every stored image of a store of any format; raises ValueError when the layout is unreadable."""
    if len(b) >= 8 and struct.unpack_from("<I", b, 4)[0] == 1:
        store, _ = parse_v1(b)
        return [b[do:do + ds] for do, ds, *_ in (store["descriptors"] if store else [])]
    return [b[do:do + ds] for _, do, ds, *_ in parse_v2(b)["descriptors"] if ds]


def lz4_cli(paths):
    problems = []
    for path in paths:
        frames, want, large = [], [], 0
        try:
            images = store_images(read(path))
        except (ValueError, struct.error) as e:
            problems.append("%s: not a readable store (%s)" % (path, e))
            continue
        for img in images:
            out, tag, _, problem = decompress(img)
            if tag != "XALZ":
                continue
            if problem:
                problems.append("%s: %s" % (path, problem))
                continue
            if len(out) > LZ4_FRAME_MAX_BLOCK or len(img) - 12 > LZ4_FRAME_MAX_BLOCK:
                large += 1
                continue
            frames.append(lz4_frame(img[12:], len(out)))
            want.append(out)
        if not frames:
            problems.append("%s: no XALZ block the lz4 CLI could decode" % path)
            continue
        # the tool decodes concatenated frames one after the other
        r = subprocess.run(["lz4", "-d", "-c", "-q"], input=b"".join(frames), capture_output=True, check=False)
        same = r.returncode == 0 and r.stdout == b"".join(want)
        if not same:
            problems.append("%s: lz4 -d gives %s (exit %d, %s)" % (path, "other bytes" if r.returncode == 0 else "an error",
                                                                  r.returncode, r.stderr.decode(errors="replace").strip()))
        print("%s: %d XALZ block(s) decoded by the lz4 CLI, %s; %d over the 4 MiB frame block limit"
              % (path, len(frames), "identical to python3-lz4" if same else "MISMATCH", large))
    return problems


def main(argv):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("check")
    c.add_argument("store")
    c.add_argument("srcdir", nargs="?")
    c.add_argument("--hash", choices=["xxh3", "xxh32", "crc32"])
    c.add_argument("--align", type=int)
    c.add_argument("--packed", action="store_true")
    c.add_argument("--repacked", action="store_true")
    w = sub.add_parser("write")
    w.add_argument("out")
    w.add_argument("format", type=int, choices=[2, 3, 4])
    w.add_argument("abi")
    w.add_argument("runtime", choices=["coreclr", "monovm"])
    w.add_argument("files", nargs="+")
    w.add_argument("--hash", choices=["crc32", "xxh"])
    w.add_argument("--align-images", type=int, default=1)
    w.add_argument("--compression", choices=["zstd", "lz4", "none"], default="zstd")
    w.add_argument("--lz4-level", type=int, default=12)
    w.add_argument("--twins", choices=["yes", "no"])
    w1 = sub.add_parser("write-v1")
    w1.add_argument("outdir")
    w1.add_argument("prefix")
    w1.add_argument("abis")
    w1.add_argument("srcdir")
    w1.add_argument("--no-manifest", action="store_true")
    w1.add_argument("--compression", choices=["lz4", "none"], default="lz4")
    w1.add_argument("--pdb", action="store_true")
    w1.add_argument("--lz4-level", type=int, default=9)
    c1 = sub.add_parser("check-v1")
    c1.add_argument("set")
    c1.add_argument("srcdir", nargs="?")
    sc = sub.add_parser("sample-check")
    sc.add_argument("samples", nargs="?", default=os.environ.get("SAMPLES") or os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "shared", "assembly-store-samples"))
    lc = sub.add_parser("lz4-cli")
    lc.add_argument("stores", nargs="+")
    a = p.parse_args(argv)

    problems = []
    if a.cmd == "check":
        problems = check(a.store, a.srcdir, a.hash, a.align, a.packed, a.repacked)
    elif a.cmd == "write":
        write(a.out, a.format, a.abi, a.runtime, a.files, a.hash, a.align_images, a.compression, a.lz4_level,
              None if a.twins is None else a.twins == "yes")
    elif a.cmd == "write-v1":
        abis = [abi_short(x) for x in a.abis.split(",")]
        for f in write_v1(a.outdir, a.prefix, abis, a.srcdir, not a.no_manifest, a.compression, a.pdb, a.lz4_level):
            print(f)
    elif a.cmd == "check-v1":
        problems, parsed, names = check_v1_set(a.set, a.srcdir)
        print("%s: format 1 set, %d store file(s), %d named entries, %d problem(s)" % (a.set, len(parsed), len(names), len(problems)))
    elif a.cmd == "sample-check":
        return 1 if sample_check(a.samples) else 0
    elif a.cmd == "lz4-cli":
        problems = lz4_cli(a.stores)
    for pr in problems:
        print("  problem:", pr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
