#!/usr/bin/python3
"""Writes the smallest real .NET assembly (or Portable PDB) the image check accepts, for tests whose
stores would otherwise carry fake image bytes (asmstore verify and extract refuse those):

  mini_pe.py [--pdb] [--fill random|zero|TEXT] OUT SIZE [OUT SIZE]...

An assembly is a PE32 DLL whose one section holds the CLI header (cb 72) and a metadata root
"BSJB" (ECMA-335 II.24.2.1), then filler up to SIZE bytes (at least 616); a --pdb is a metadata root
at offset 0 ("PDB v1.0"), then filler (at least 32 bytes). Filler: random bytes (the default), zero
bytes, or TEXT repeated. The same layout as make_pe in tests/fixture.h."""
import os
import struct
import sys

PE_MIN = 0x268
SECTION_RAW = 0x200


def filler(kind, n):
    if kind == "random":
        return os.urandom(n)
    if kind == "zero":
        return bytes(n)
    text = kind.encode()
    return (text * (n // len(text) + 1))[:n]


def assembly(size, fill):
    size = max(size, PE_MIN)
    b = bytearray(size)
    b[PE_MIN:] = filler(fill, size - PE_MIN)
    b[0:2] = b"MZ"
    struct.pack_into("<I", b, 0x3C, 0x40)                       # e_lfanew
    b[0x40:0x44] = b"PE\0\0"
    struct.pack_into("<HH", b, 0x44, 0x14C, 1)                  # i386, one section
    struct.pack_into("<HHH", b, 0x54, 0xE0, 0x2102, 0x10B)      # optional header size, DLL, PE32
    struct.pack_into("<I", b, 0x58 + 92, 16)                    # NumberOfRvaAndSizes
    struct.pack_into("<II", b, 0x58 + 96 + 8 * 14, 0x2000, 72)  # data directory 14: CLI header
    raw = size - SECTION_RAW
    b[0x138:0x140] = b".text\0\0\0"
    struct.pack_into("<IIII", b, 0x138 + 8, raw, 0x2000, raw, SECTION_RAW)
    struct.pack_into("<IHHIII", b, 0x200, 72, 2, 5, 0x2048, 32, 1)  # CLI header: metadata, flags
    b[0x248:0x268] = b"BSJB" + struct.pack("<HHII", 1, 1, 0, 12) + b"v4.0.30319\0\0" + bytes(4)
    return bytes(b)


def pdb(size, fill):
    size = max(size, 32)
    root = b"BSJB" + struct.pack("<HHII", 1, 1, 0, 12) + b"PDB v1.0" + bytes(8)
    return root + filler(fill, size - 32)


def main(argv):
    make, fill = assembly, "random"
    while argv and argv[0].startswith("--"):
        if argv[0] == "--pdb":
            make, argv = pdb, argv[1:]
        elif argv[0] == "--fill" and len(argv) > 1:
            fill, argv = argv[1], argv[2:]
        else:
            break
    if not argv or len(argv) % 2:
        sys.exit(__doc__)
    for out, size in zip(argv[::2], argv[1::2]):
        with open(out, "wb") as f:
            f.write(make(int(size), fill))


if __name__ == "__main__":
    main(sys.argv[1:])
