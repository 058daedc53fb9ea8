#!/usr/bin/env python3
"""tests/bench/scan_corpus.py OUT ASMSTORE BENCH_TOOL N MONO_DIRS BCL_DIR - the scan section's corpus
(tests/bench/bench_scan.sh): N APKs of real assemblies, the same bytes for the same N, across the
releases (index mod 6):
  0 .NET 6-8: --target net8, the set (LZ4) DEFLATEd under assemblies/    (Mono 4.5 + Facades)
  1 .NET 9 MonoVM, LZ4           2 .NET 10 MonoVM, LZ4                    (Mono 4.5 + Facades)
  3 .NET 10 CoreCLR, LZ4         4 .NET 11 CoreCLR, zstd                  (the .NET shared framework)
  5 .NET 11 MonoVM, zstd                                                  (Mono 4.5 + Facades)
each with 4-14 assemblies drawn by a seeded RNG (LZ4 stores: images up to 4 MiB, the floor's
`lz4 -d` frame size), zstd at level 9 (pack's default 22 would take minutes; decompression speed
hardly depends on the level), every tenth APK with x86_64 beside arm64, STORED stores aligned as
zipalign does (.so: 4096). Then hostile ones: tests/lib/scan_mutants.py over three of them and
tests/lib/zip_cases.py's archives and bomb. Writes
  OUT/apks/NNN-<release>.apk, OUT/hostile/...  the inputs (OUT/list: all of them, OUT/good: the APKs)
  OUT/floor-{0,1}.{zst,lz4,plain}              each half's images as the CLIs read them (bench_tool frames)
  OUT/x/NNN/...                                every image extracted (asmstore extract), for yara -r
  OUT/corpus.txt                               "apks N hostile H apk_bytes B image_bytes I largest L"
"""
import concurrent.futures
import os
import random
import shutil
import struct
import subprocess
import sys
import zipfile

RELEASES = [("net8", ["--target", "net8"], "mono"),
            ("net9", ["--target", "net9"], "mono"),
            ("net10-mono", ["--target", "net10", "--runtime", "monovm"], "mono"),
            ("net10-clr", ["--target", "net10", "--runtime", "coreclr"], "bcl"),
            ("net11-clr", ["--target", "net11", "--level", "9"], "bcl"),
            ("net11-mono", ["--target", "net11", "--runtime", "monovm", "--level", "9"], "mono")]
LZ4_MAX = 4 << 20
TOP = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")


def add(z, name, data, method, align=0):
    """One member; a STORED one's data aligned to align bytes by an extra field (zipalign's 0xD935)."""
    zi = zipfile.ZipInfo(name, date_time=(2026, 1, 1, 0, 0, 0))
    zi.compress_type = method
    if method == zipfile.ZIP_STORED and align:
        start = z.fp.tell() + 30 + len(name.encode()) + 6
        pad = -start % align
        zi.extra = struct.pack("<HHH", 0xD935, 2 + pad, align) + bytes(pad)
    z.writestr(zi, data)


def pick(rng, pool, lz4):
    files = [f for f in pool if not lz4 or os.path.getsize(f) <= LZ4_MAX]
    return sorted(rng.sample(files, rng.randint(4, 14)))


def build(args):
    """APK i: its path and the bytes of its images."""
    out, asmstore, tool, i, pools = args
    name, opts, pool = RELEASES[i % 6]
    rng = random.Random(i)
    files = pick(rng, pools[pool], "net11" not in name)
    abis = ["arm64", "x86_64"] if i % 10 == 7 else ["arm64"]
    work = os.path.join(out, "tmp", "%03d" % i)
    os.makedirs(work, exist_ok=True)
    apk = os.path.join(out, "apks", "%03d-%s.apk" % (i, name))
    runtime = "libcoreclr.so" if "clr" in name else "libmonosgen-2.0.so"
    stores = []
    with zipfile.ZipFile(apk + ".tmp", "w") as z:
        add(z, "AndroidManifest.xml", b"<manifest package='bench.app%d'/>" % i, zipfile.ZIP_DEFLATED)
        add(z, "classes.dex", b"dex\n035\0" + rng.randbytes(16384), zipfile.ZIP_DEFLATED)
        if name == "net8":
            arch = ["--arch", "arm64", files[0]] + (["--arch", "x86_64", files[0]] if len(abis) > 1 else [])
            subprocess.run([asmstore, "pack", "-o", work + "/set", *opts, *arch, *files[1:]], check=True,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            for f in sorted(os.listdir(work + "/set")):
                add(z, "assemblies/" + f, open(work + "/set/" + f, "rb").read(), zipfile.ZIP_DEFLATED)
                if f.endswith(".blob"):
                    stores.append(work + "/set/" + f)
        for abi in abis:
            lib = "lib/%s/" % ("arm64-v8a" if abi == "arm64" else abi)
            add(z, lib + runtime, b"\x7fELF" + bytes(60), zipfile.ZIP_STORED, 4096)
            if name == "net8":
                continue
            so = "%s/%s.so" % (work, abi)
            subprocess.run([asmstore, "pack", "-o", so, *opts, "--abi", abi, *files], check=True,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            add(z, lib + "libassembly-store.so", open(so, "rb").read(), zipfile.ZIP_STORED, 4096)
            stores.append(so)
    os.replace(apk + ".tmp", apk)
    counts = subprocess.run([tool, "frames", *("%s/frames.%s" % (work, k) for k in ("zst", "lz4", "plain")),
                             *stores], check=True, stdout=subprocess.PIPE, text=True).stdout.split()
    x = os.path.join(out, "x", "%03d" % i)
    subprocess.run([asmstore, "extract", apk, "-C", x], check=True, stdout=subprocess.DEVNULL)
    return apk, int(counts[3]), int(counts[5])


def hostile(out, good):
    """Mutants of three APKs (STORED, DEFLATEd set, zstd) and the broken archives and bomb."""
    h = os.path.join(out, "hostile")
    mutants = os.path.join(TOP, "tests", "lib", "scan_mutants.py")
    subprocess.run([sys.executable, mutants, "41", h] + ["zip:" + g for g in (good[0], good[2], good[4])], check=True)
    paths = open(os.path.join(h, "list")).read().split()
    cases = os.path.join(TOP, "tests", "lib", "zip_cases.py")
    for case in ("bomb", "ratio", "declared-short", "local-size"):
        p = os.path.join(h, "zip-%s.apk" % case)
        subprocess.run([sys.executable, cases, p, case] + ([] if case == "bomb" else [good[1]]), check=True)
        paths.append(p)
    return paths


def main():
    out, asmstore, tool, n = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    mono = sorted(os.path.join(d, f) for d in sys.argv[5].split(":") for f in os.listdir(d) if f.endswith(".dll"))
    bcl = sorted(os.path.join(sys.argv[6], f) for f in os.listdir(sys.argv[6]) if f.endswith(".dll")) or mono
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(os.path.join(out, "apks"))
    os.makedirs(os.path.join(out, "x"))
    jobs = [(out, asmstore, tool, i, {"mono": mono, "bcl": bcl}) for i in range(n)]
    with concurrent.futures.ProcessPoolExecutor(os.cpu_count() or 2) as ex:
        built = list(ex.map(build, jobs))
    for half in (0, 1):
        for k in ("zst", "lz4", "plain"):
            with open(os.path.join(out, "floor-%d.%s" % (half, k)), "wb") as f:
                for i in range(half, n, 2):
                    with open(os.path.join(out, "tmp", "%03d" % i, "frames." + k), "rb") as g:
                        shutil.copyfileobj(g, f)
    good = [b[0] for b in built]
    bad = hostile(out, good)
    shutil.rmtree(os.path.join(out, "tmp"))
    open(os.path.join(out, "good"), "w").write("".join(p + "\n" for p in good))
    open(os.path.join(out, "list"), "w").write("".join(p + "\n" for p in good + bad))
    open(os.path.join(out, "corpus.txt"), "w").write("apks %d hostile %d apk_bytes %d image_bytes %d largest %d\n" % (
        n, len(bad), sum(os.path.getsize(p) for p in good), sum(b[1] for b in built), max(b[2] for b in built)))


if __name__ == "__main__":
    main()
