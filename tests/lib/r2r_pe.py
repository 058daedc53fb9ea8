#!/usr/bin/env python3
"""r2r_pe.py OUT KIND [OWNER]: a synthetic PE32+ image with a CLI header and a ReadyToRun header.
KIND: stub (a component stub naming its composite OWNER), composite (the composite itself, or any
ReadyToRun image that is no stub), and damaged stubs: truncated, outside (its name's section past
the end), huge (a huge section count). For the CLI's ReadyToRun rule (tools/cli_r2r.c)."""
import struct, sys
out, kind = sys.argv[1], sys.argv[2]
owner = (sys.argv[3] if len(sys.argv) > 3 else "").encode()
VA, RAW, SIZE = 0x2000, 0x200, 0x200
f = bytearray(RAW + SIZE)
f[0:2] = b"MZ"; struct.pack_into("<I", f, 0x3C, 0x80)
f[0x80:0x84] = b"PE\0\0"
opt_size = 112 + 16 * 8
struct.pack_into("<HHIIIHH", f, 0x84, 0x8664, 1, 0, 0, 0, opt_size, 0x2022)
opt = 0x98
struct.pack_into("<H", f, opt, 0x20B)
struct.pack_into("<I", f, opt + 108, 16)
cli_rva, r2r_rva, name_rva, md_rva = VA, VA + 0x48, VA + 0x100, VA + 0x180
struct.pack_into("<II", f, opt + 112 + 14 * 8, cli_rva, 72)
sec = opt + opt_size
f[sec:sec + 8] = b".text\0\0\0"
struct.pack_into("<IIII", f, sec + 8, SIZE, VA, SIZE, RAW)
def at(rva): return RAW + rva - VA
struct.pack_into("<IHHII", f, at(cli_rva), 72, 2, 5, md_rva, 32)  # CLI header, its metadata
f[at(md_rva):at(md_rva) + 32] = b"BSJB" + struct.pack("<HHII", 1, 1, 0, 12) + b"v4.0.30319" + bytes(6)
struct.pack_into("<II", f, at(cli_rva) + 64, r2r_rva, 16 + 12)
flags = 0x20 if kind in ("stub", "huge", "outside") else 0x100
nsec = 0x7FFFFFFF if kind == "huge" else 1
struct.pack_into("<IHHII", f, at(r2r_rva), 0x00525452, 9, 3, flags, nsec)
struct.pack_into("<III", f, at(r2r_rva) + 16, 116 if kind != "composite" else 100,
                 0x7FFFFFF0 if kind == "outside" else name_rva, len(owner) + 1)
f[at(name_rva):at(name_rva) + len(owner)] = owner
if kind == "truncated": f = f[:at(r2r_rva) + 8]
open(out, "wb").write(f)
