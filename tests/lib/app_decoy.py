#!/usr/bin/python3
"""A decoy libxamarin-app.so: the loader's tables kept, the section headers pointed at copies.

  app_decoy.py IN OUT [--shrink SYMBOL=SIZE]

Appends to IN a copy of .dynsym, .dynstr and every SHT_RELA / SHT_REL section (.rela.dyn, .rel.dyn,
.rela.plt...) and points those section headers (sh_offset) at the copies, writing OUT. glibc and
bionic read the symbols and relocations through PT_DYNAMIC only, so OUT loads exactly as IN does;
a tool that follows the section headers reads and patches the copies instead.
--shrink SYMBOL=SIZE sets SYMBOL's st_size in the table the loader reads to SIZE; the copy keeps the
old size (a library that disagrees with itself, whose section view looks sound).

ELF32 and ELF64, little-endian. Written from the ELF specification (Tool Interface Standard,
"Sections" and "Symbol Table"); exit 2 on a file it cannot read so."""
import struct
import sys

SHT_RELA, SHT_STRTAB, SHT_REL, SHT_DYNSYM = 4, 3, 9, 11


def main(argv):
    if len(argv) not in (3, 5) or (len(argv) == 5 and argv[3] != "--shrink"):
        sys.stderr.write(__doc__)
        return 2
    data = bytearray(open(argv[1], "rb").read())
    if data[:4] != b"\x7fELF" or data[5] != 1:
        sys.stderr.write("%s: not a little-endian ELF file\n" % argv[1])
        return 2
    is64 = data[4] == 2
    if is64:
        shoff, = struct.unpack_from("<Q", data, 40)
        shentsize, shnum = struct.unpack_from("<HH", data, 58)
        shdr = "<IIQQQQIIQQ"  # name type flags addr offset size link info addralign entsize
    else:
        shoff, = struct.unpack_from("<I", data, 32)
        shentsize, shnum = struct.unpack_from("<HH", data, 46)
        shdr = "<IIIIIIIIII"
    sections = [list(struct.unpack_from(shdr, data, shoff + i * shentsize)) for i in range(shnum)]
    dynsym = [i for i, s in enumerate(sections) if s[1] == SHT_DYNSYM]
    if len(dynsym) != 1:
        sys.stderr.write("%s: not exactly one .dynsym section\n" % argv[1])
        return 2
    dynstr = sections[dynsym[0]][6]
    copied = dynsym + [dynstr] + [i for i, s in enumerate(sections) if s[1] in (SHT_RELA, SHT_REL)]
    original = bytes(data)
    for i in copied:
        s = sections[i]
        data += b"\0" * (-len(data) % 16)
        s[4], old = len(data), s[4]
        data += original[old:old + s[5]]
        struct.pack_into(shdr, data, shoff + i * shentsize, *s)
    if len(argv) == 5:
        name, size = argv[4].split("=")
        count = sections[dynsym[0]][5]
        orig_sym = struct.unpack_from(shdr, original, shoff + dynsym[0] * shentsize)[4]
        orig_str = struct.unpack_from(shdr, original, shoff + dynstr * shentsize)[4]
        entsize, size_at, fmt = (24, 16, "<Q") if is64 else (16, 8, "<I")
        for k in range(count // entsize):
            at = orig_sym + k * entsize
            n, = struct.unpack_from("<I", original, at)
            end = original.index(b"\0", orig_str + n)
            if original[orig_str + n:end].decode() == name:
                struct.pack_into(fmt, data, at + size_at, int(size, 0))
                break
        else:
            sys.stderr.write("%s: no dynamic symbol %s\n" % (argv[1], name))
            return 2
    open(argv[2], "wb").write(data)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
