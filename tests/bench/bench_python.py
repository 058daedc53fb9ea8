#!/usr/bin/env python3
"""Reading every image of a store from Python (the asmstore package) beside the C CLI's extract.

    bench_python.py --python VENV/bin/python --asmstore build/asmstore [--store S | --bcl DIR]
                    [--rounds 2] [--reps 5] [--work DIR]

The store: --store, or the .NET BCL in --bcl (the shared framework's *.dll; default the highest
/usr/share/dotnet/shared/Microsoft.NETCore.App/<version>) packed with `asmstore pack --raw --abi
x86_64 --level 19` (what tests/bench/bench.sh packs as its bcl store). Each repetition runs, in turn
(interleaved), `asmstore extract STORE -C DIR` (into a fresh directory) and `python -c` opening the
store and reading every image into memory; each is one process, timed by wall clock and by the CPU
(user + sys) that getrusage(RUSAGE_CHILDREN) gives for it. Every round prints a markdown table of
medians and the ratio Python / CLI (target: within 1.2x); the figures are never a pass/fail."""
import argparse
import glob
import os
import resource
import shutil
import statistics
import subprocess
import sys
import time

READ_ALL = """
import asmstore, sys
n = 0
with asmstore.open(sys.argv[1]) as store:
    for e in store:
        if not e.ignored:
            image = store.read(e)
            n += len(image)
            del image
print(n)
"""


def timed(argv):
    """(wall s, CPU s, stdout) of one process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    out = subprocess.run(argv, check=True, stdout=subprocess.PIPE, text=True).stdout
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, out


def bcl_dir():
    found = sorted(glob.glob("/usr/share/dotnet/shared/Microsoft.NETCore.App/*/System.Runtime.dll"))
    return os.path.dirname(found[-1]) if found else None


def make_store(args):
    if args.store:
        return args.store
    src = args.bcl or bcl_dir()
    if not src:
        sys.exit("bench_python: no .NET BCL found: give --store or --bcl DIR")
    dlls = sorted(glob.glob(os.path.join(src, "*.dll")))
    store = os.path.join(args.work, "bcl.raw")
    subprocess.run([args.asmstore, "pack", "--raw", "--abi", "x86_64", "-o", store, "--level", "19",
                    "--no-check", "--"] + dlls, check=True, stdout=subprocess.DEVNULL)
    return store


def one_round(args, store, n):
    cli, py = [], []
    for rep in range(args.reps):
        out = os.path.join(args.work, "x%d-%d" % (n, rep))
        cli.append(timed([args.asmstore, "extract", store, "-C", out])[:2])
        shutil.rmtree(out)
        wall, cpu, total = timed([args.python, "-c", READ_ALL, store])
        py.append((wall, cpu))
    med = [statistics.median(x[i] for x in rows) for rows in (cli, py) for i in (0, 1)]
    print("\nround %d: %s, %d entries' images (%s bytes), %d repetitions, median (min–max)\n" % (
        n, os.path.basename(store), args.entries, total.strip(), args.reps))
    print("| | wall, s | CPU, s |\n|---|---|---|")
    print("| C CLI `asmstore extract` | %s | %s |" % (spread(cli, 0), spread(cli, 1)))
    print("| Python, every `store.read(e)` | %s | %s |" % (spread(py, 0), spread(py, 1)))
    print("| Python ÷ CLI | %.2f× | %.2f× |" % (med[2] / med[0], med[3] / med[1]))


def spread(rows, i):
    """'median (min–max)' of column i."""
    col = [r[i] for r in rows]
    return "%.3f (%.3f–%.3f)" % (statistics.median(col), min(col), max(col))


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--python", default=sys.executable)
    p.add_argument("--asmstore", default="build/asmstore")
    p.add_argument("--store")
    p.add_argument("--bcl")
    p.add_argument("--rounds", type=int, default=2)
    p.add_argument("--reps", type=int, default=5)
    p.add_argument("--work", default="build/bench-python")
    args = p.parse_args()
    os.makedirs(args.work, exist_ok=True)
    store = make_store(args)
    args.entries = int(subprocess.run([args.python, "-c", "import asmstore, sys; "
                                       "print(len(asmstore.open(sys.argv[1])))", store],
                                      check=True, stdout=subprocess.PIPE, text=True).stdout)
    for n in range(1, args.rounds + 1):
        one_round(args, store, n)


if __name__ == "__main__":
    main()
