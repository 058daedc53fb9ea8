#!/usr/bin/env python3
"""tests/lib/net12_elf.py ABI PAYLOAD OUT [SONAME] - the .so dotnet/android main's AssemblyStoreElfWriter
(commit 2132d36678, .NET 12, not yet released) lays out around PAYLOAD, written here from its layout as
docs/elf-so.md section 3.1 describes it, independently of asmstore.h, so tests can compare
`asmstore pack --target net12` with it byte for byte."""
import struct
import sys

# ABI: (64-bit, e_machine, e_flags, page)
ABIS = {"arm64": (True, 183, 0, 16384), "arm": (False, 40, 0x05000200, 4096),
        "x86_64": (True, 62, 0, 16384), "x86": (False, 3, 0, 4096)}
SECTION_NAMES = b"\0.dynsym\0.dynstr\0.hash\0.dynamic\0payload\0.shstrtab\0"


def up(v, a):
    return (v + a - 1) // a * a


def build(abi, payload, soname):
    is64, machine, flags, page = ABIS[abi]
    w = 8 if is64 else 4
    word = "<Q" if is64 else "<I"
    ehsz, phsz, shsz, symsz = (64, 56, 64, 24) if is64 else (52, 32, 40, 16)
    strings = b"\0_assembly_store\0" + soname.encode() + b"\0"
    sym = up(ehsz + 4 * phsz, w)
    strs = sym + 2 * symsz
    hsh = up(strs + len(strings), 4)
    dyn = up(hsh + 20, w)
    dynsz = 7 * 2 * w
    pay = up(dyn + dynsz, page)
    load = pay + len(payload)
    shoff = up(load + len(SECTION_NAMES), w)
    f = bytearray(shoff + 7 * shsz)

    def put(at, fmt, *vals):
        struct.pack_into(fmt, f, at, *vals)

    def words(at, *vals):
        for i, v in enumerate(vals):
            put(at + i * w, word, v)

    f[0:7] = bytes([0x7F, 0x45, 0x4C, 0x46, 2 if is64 else 1, 1, 1])
    put(16, "<HHI", 3, machine, 1)
    words(24, 0, ehsz, shoff)
    put(24 + 3 * w, "<IHHHHHH", flags, ehsz, phsz, 4, shsz, 7, 6)
    for i, (typ, fl, off, size, align) in enumerate([(6, 4, ehsz, 4 * phsz, w), (1, 4, 0, load, page),
                                                    (2, 4, dyn, dynsz, w), (0x6474E551, 6, 0, 0, w)]):
        at = ehsz + i * phsz
        if is64:
            put(at, "<IIQQQQQQ", typ, fl, off, off, off, size, size, align)
        else:
            put(at, "<IIIIIIII", typ, off, off, off, size, size, fl, align)
    if is64:
        put(sym + symsz, "<IBBHQQ", 1, 0x11, 0, 5, pay, len(payload))
    else:
        put(sym + symsz, "<IIIBBH", 1, pay, len(payload), 0x11, 0, 5)
    f[strs:strs + len(strings)] = strings
    put(hsh, "<IIIII", 1, 2, 1, 0, 0)
    words(dyn, 14, 17, 6, sym, 11, symsz, 5, strs, 10, len(strings), 4, hsh, 0, 0)
    f[pay:load] = payload
    f[load:load + len(SECTION_NAMES)] = SECTION_NAMES
    sections = [(0, 0, 0, 0, 0, 0, 0, 0, 0, 0),
                (1, 11, 2, sym, sym, 2 * symsz, 2, 1, w, symsz),
                (9, 3, 2, strs, strs, len(strings), 0, 0, 1, 0),
                (17, 5, 2, hsh, hsh, 20, 1, 0, 4, 4),
                (23, 6, 2, dyn, dyn, dynsz, 2, 0, w, 2 * w),
                (32, 1, 2, pay, pay, len(payload), 0, 0, page, 0),
                (40, 3, 0, 0, load, len(SECTION_NAMES), 0, 0, 1, 0)]
    for i, (name, typ, fl, addr, off, size, link, info, align, ent) in enumerate(sections):
        at = shoff + i * shsz
        put(at, "<II", name, typ)
        words(at + 8, fl, addr, off, size)
        put(at + 8 + 4 * w, "<II", link, info)
        words(at + 16 + 4 * w, align, ent)
    return bytes(f)


if __name__ == "__main__":
    data = open(sys.argv[2], "rb").read()
    name = sys.argv[4] if len(sys.argv) > 4 else "libassembly-store.so"
    open(sys.argv[3], "wb").write(build(sys.argv[1], data, name))
