#!/usr/bin/python3
"""Writes an uncompressed format-3 arm64 store directly (hashes from tests/lib/indep_store.py), for
stores the CLI's writer will not or cannot make quickly:

  plain_store.py OUT count N         N entries A0000000.dll ... with tiny images, in about a second

Each image is the smallest real assembly (tests/lib/mini_pe.py) with "image I\n" after it, so
asmstore verify and extract accept it.
  plain_store.py OUT names HEX...    one entry per hex-encoded name, any bytes (invalid UTF-8 too)
"""
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from indep_store import name_hash, without_ext  # noqa: E402
from mini_pe import PE_MIN, assembly  # noqa: E402


def write(out, names):
    n = len(names)
    pe = assembly(PE_MIN, "zero")
    images = [pe + b"image %d\n" % i for i in range(n)]
    index = []
    for i, nm in enumerate(names):
        index.append((name_hash("xxh3", nm), i))
        index.append((name_hash("xxh3", without_ext(nm)), i))
    index.sort()
    idx = b"".join(struct.pack("<QIB", h, d, 0) for h, d in index)
    names_blob = b"".join(struct.pack("<I", len(nm)) + nm for nm in names)
    off = 20 + len(idx) + 28 * n + len(names_blob)
    descs = []
    for i, img in enumerate(images):
        descs.append(struct.pack("<7I", i, off, len(img), 0, 0, 0, 0))
        off += len(img)
    head = struct.pack("<5I", 0x41424158, 3 | (1 << 16) | 0x80000000, n, 2 * n, len(idx))
    with open(out, "wb") as f:
        f.write(head + idx + b"".join(descs) + names_blob + b"".join(images))


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[2] == "count":
        write(sys.argv[1], [b"A%07d.dll" % i for i in range(int(sys.argv[3]))])
    elif len(sys.argv) >= 4 and sys.argv[2] == "names":
        write(sys.argv[1], [bytes.fromhex(h) for h in sys.argv[3:]])
    else:
        sys.exit(__doc__)
