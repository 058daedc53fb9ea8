#!/usr/bin/env python3
"""tests/lib/scan_mutants.py SEED OUT KIND:PATH... - hostile inputs for asmstore scan, the same
bytes for the same SEED: every base input (KIND: store, so, set (a .NET 6-8 set's directory),
apk-stored, apk-deflated, aab: STORE[,LIBXAMARIN_APP] zipped here; zip: an archive as it is) gives
mutants with bytes flipped, cut short, a 32-bit field set to
0xFFFFFFFF (0, 0x80000000) where the format keeps sizes, offsets and counts (store header and
descriptors, compressed-image headers, ELF headers, ZIP headers and directory), and for the
archives the store inside mutated and zipped again. Writes OUT/NNN-<kind>-<how>[/...] and
OUT/list: the paths to scan, one a line, in order (a set's mutant: its directory's .blob)."""
import os
import random
import shutil
import struct
import sys
import zipfile

BIG = (0xFFFFFFFF, 0xFFFFFFFF, 0, 0x80000000, 0x7FFFFFFF)


def flip(rng, b, count):
    b = bytearray(b)
    for _ in range(count):
        # half in the first 512 bytes, where headers are
        at = rng.randrange(min(len(b), 512)) if rng.random() < 0.5 else rng.randrange(len(b))
        b[at] ^= 1 << rng.randrange(8)
    return bytes(b)


def cut(rng, b):
    keep = rng.choice([0, 3, 4, 8, 16, 31, 64, rng.randrange(len(b)), len(b) - 1, len(b) // 2])
    return b[:max(0, min(keep, len(b) - 1))]


def put32(b, at, value):
    b = bytearray(b)
    if 0 <= at <= len(b) - 4:
        struct.pack_into("<I", b, at, value)
    return bytes(b)


def store_fields(b):
    """Offsets of the 32-bit words of a store's header and first descriptors, and of the size
    words of every compressed image header (XALZ, XAZS: magic, index, size)."""
    at = b.find(b"XABA")
    fields = [at + k for k in range(4, 160, 4)] if at >= 0 else []
    for magic in (b"XALZ", b"XAZS"):
        i = b.find(magic)
        while i >= 0:
            fields += [i + 4, i + 8]
            i = b.find(magic, i + 4)
    return fields


def elf_fields(b):
    """e_phoff/e_shoff/counts and the offset and size words of every program and section header."""
    if len(b) < 64 or b[:4] != b"\x7fELF" or b[4] != 2:
        return []
    phoff, shoff = struct.unpack_from("<QQ", b, 32)
    phentsize, phnum, shentsize, shnum = struct.unpack_from("<HHHH", b, 54)
    fields = [32, 36, 40, 44, 56, 60]
    fields += [phoff + i * phentsize + k for i in range(phnum) for k in (8, 16, 32, 40)]
    fields += [shoff + i * shentsize + k for i in range(shnum) for k in (0, 24, 32, 40)]
    return [f for f in fields if f + 4 <= len(b)]


def zip_fields(b):
    """The size, offset, count and name-length words of every local header, central directory
    record and the end record."""
    fields = []
    for sig, offs in ((b"PK\x03\x04", (14, 18, 22, 26)), (b"PK\x01\x02", (16, 20, 24, 28, 42)),
                      (b"PK\x05\x06", (8, 12, 16))):
        i = b.find(sig)
        while i >= 0:
            fields += [i + o for o in offs]
            i = b.find(sig, i + 4)
    return fields


def fields_of(kind, b):
    if kind.startswith("apk") or kind in ("aab", "zip"):
        return zip_fields(b)
    return elf_fields(b) + store_fields(b)


def mutate_bytes(rng, kind, b, count):
    """count mutants of b: (how, bytes)"""
    out = []
    fields = fields_of(kind, b)
    for k in range(count):
        how = ("flip", "cut", "field", "field", "flips")[k % 5]
        if how == "flip":
            out.append(("flip", flip(rng, b, 1)))
        elif how == "flips":
            out.append(("flips", flip(rng, b, rng.randrange(2, 64))))
        elif how == "cut":
            out.append(("cut", cut(rng, b)))
        elif fields:
            out.append(("ff32", put32(b, rng.choice(fields), rng.choice(BIG))))
        else:
            out.append(("flip", flip(rng, b, 3)))
    return out


def zip_store(path, name, store, method, extra):
    """An APK or AAB: the store at name, STORED or DEFLATEd, beside the members extra."""
    with zipfile.ZipFile(path, "w") as z:
        for n, data in extra:
            z.writestr(n, data, zipfile.ZIP_DEFLATED)
        z.writestr(name, store, method)


class Writer:
    def __init__(self, out):
        self.out, self.n, self.paths = out, 0, []

    def file(self, tag, data, name=None):
        self.n += 1
        path = os.path.join(self.out, "%03d-%s%s" % (self.n, tag, name or ""))
        with open(path, "wb") as f:
            f.write(data)
        self.paths.append(path)

    def set_dir(self, tag, src, changed_name, data):
        """A copy of the set's directory with one file replaced; the input is its common .blob."""
        self.n += 1
        d = os.path.join(self.out, "%03d-%s" % (self.n, tag))
        shutil.copytree(src, d)
        for f in os.listdir(d):
            os.chmod(os.path.join(d, f), 0o644)
        with open(os.path.join(d, changed_name), "wb") as f:
            f.write(data)
        self.paths.append(os.path.join(d, "assemblies.blob"))


APK_EXTRA = [("AndroidManifest.xml", b"<manifest/>"), ("classes.dex", b"dex\n035\0" * 64),
             ("lib/arm64-v8a/libmonosgen-2.0.so", b"\x7fELF" + bytes(60))]
AAB_EXTRA = [("BundleConfig.pb", b"\x0a\x02\x08\x01"),
             ("base/manifest/AndroidManifest.xml", b"<manifest/>")]


def archive_of(out, kind, spec):
    """The base archive of kind for spec "STORE[,LIBXAMARIN_APP]": lib/arm64-v8a/ (base/lib/ in
    an AAB), the store STORED (DEFLATEd for apk-deflated)."""
    files = spec.split(",")
    pre = "base/" if kind == "aab" else ""
    extra = list(AAB_EXTRA if kind == "aab" else APK_EXTRA)
    if len(files) > 1:
        extra.append((pre + "lib/arm64-v8a/libxamarin-app.so", open(files[1], "rb").read()))
    path = os.path.join(out, "base-%s.zip" % kind)
    zip_store(path, pre + "lib/arm64-v8a/libassembly-store.so", open(files[0], "rb").read(),
              zipfile.ZIP_DEFLATED if kind == "apk-deflated" else zipfile.ZIP_STORED, extra)
    return path


def main():
    seed, out = int(sys.argv[1]), sys.argv[2]
    os.makedirs(out, exist_ok=True)
    w = Writer(out)
    for arg in sys.argv[3:]:
        kind, path = arg.split(":", 1)
        rng = random.Random("%d:%s" % (seed, arg))
        if kind == "set":
            for name in sorted(os.listdir(path)):
                b = open(os.path.join(path, name), "rb").read()
                muts = mutate_bytes(rng, "store", b, 12 if name.endswith(".blob") else 6)
                for how, m in muts:
                    w.set_dir("set-%s-%s" % (name.split(".")[1], how), path, name, m)
            continue
        if kind.startswith("apk") or kind == "aab":
            path = archive_of(out, kind, path)
        b = open(path, "rb").read()
        for how, m in mutate_bytes(rng, kind, b, 25):
            w.file("%s-%s" % (kind, how), m, ".aab" if kind == "aab" else ".apk" if kind[:3] in ("apk", "zip") else "")
        if kind.startswith("apk") or kind == "aab":
            # the store inside mutated, the archive well-formed around it
            inner = zipfile.ZipFile(path)
            name = next(n for n in inner.namelist() if n.endswith("libassembly-store.so") or n.endswith(".blob"))
            store = inner.read(name)
            extra = [(n, inner.read(n)) for n in inner.namelist() if n != name]
            method = zipfile.ZIP_STORED if kind != "apk-deflated" else zipfile.ZIP_DEFLATED
            for how, m in mutate_bytes(rng, "store", store, 15):
                tmp = os.path.join(out, "inner.tmp")
                zip_store(tmp, name, m, method, extra)
                w.file("%s-inner-%s" % (kind, how), open(tmp, "rb").read(), ".aab" if kind == "aab" else ".apk")
                os.remove(tmp)
    with open(os.path.join(out, "list"), "w") as f:
        f.write("".join(p + "\n" for p in w.paths))


if __name__ == "__main__":
    main()
