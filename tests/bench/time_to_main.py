#!/usr/bin/env python3
"""tests/bench/time_to_main.py - make bench's time to Main and memory: a host (build/coreclr_host or
build/mono_host) started in a fresh process per sample, the variants interleaved (rotated each round,
so none always runs first).

  time_to_main.py --host HOST --program PROGRAM --cache DIR --samples N --compressed STORE.so
                  [--tpa DIR] [--nocache] [NAME=STORE.so ...]

Variants: warm (the compressed store, every entry a cache hit), cold (the same, cache directory
deleted first: every entry decompressed, cache files written), nocache (--nocache: the same with
ASMSTORE_CACHE_DISABLE=1: decompressed, nothing written), tpa (--tpa DIR, coreclr_host only: the
anchor, the same runtime from the files on disk, TRUSTED_PLATFORM_ASSEMBLIES of DIR + PROGRAM's
directory), and one per NAME=STORE.so (an uncompressed store: images used in place where aligned
enough for the host, else copied; each with a cache directory of its own). PROGRAM is a path: the
store variants run its file name, an entry in the store; the hosts run it with --time-to-main.

Time to Main: from just before the spawn to the program's first statement, which prints
Stopwatch.GetTimestamp() (CLOCK_MONOTONIC on Linux for CoreCLR and Mono, the clock of
time.monotonic_ns). Wall: spawn to exit. Faults: minor page faults of the process. Memory: the
host's "memory: ..." line (ASMSTORE_HOST_MEMORY=1, /proc/self/smaps_rollup right after Main
returns): private dirty, clean file-backed (private + shared clean) and RSS, kB. Prints
"ttm_<variant>_ms MEDIAN MIN MAX", "wall_<variant>_ms ...", "faults_<variant> ...",
"dirty_<variant>_kb ...", "clean_<variant>_kb ...", "rss_<variant>_kb ...", "size_<variant> BYTES"
(the store's file size) and "served_<variant> ..." (the host's hits/misses/direct/copied counts of
the last run); "FAILED ..." when a run misbehaves.
"""
import argparse
import os
import re
import resource
import shutil
import subprocess
import sys
import time

MEMORY = re.compile(r"^memory: private_dirty_kb=(\d+) private_clean_kb=(\d+) shared_clean_kb=(\d+) rss_kb=(\d+)$", re.M)
SERVED = re.compile(r"\((\d+) hits, (\d+) misses, (\d+) direct \(used in place\), (\d+) copied")


def run(cmd, env):
    """-> dict of one fresh process's figures (time to Main ms, wall ms, faults, memory kB, served counts)"""
    faults = resource.getrusage(resource.RUSAGE_CHILDREN).ru_minflt
    t0 = time.monotonic_ns()
    out = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    t1 = time.monotonic_ns()
    faults = resource.getrusage(resource.RUSAGE_CHILDREN).ru_minflt - faults
    words = out.stdout.split()
    mem = MEMORY.search(out.stderr)
    if out.returncode != 0 or len(words) != 2 or words[0] != "main-at" or not mem:
        raise RuntimeError("%s: exit %d: %s %s" % (" ".join(cmd), out.returncode, out.stdout.strip()[:200],
                                                   out.stderr.strip()[-400:]))
    dirty, pclean, sclean, rss = (int(v) for v in mem.groups())
    served = SERVED.search(out.stderr)
    return {"ttm_ms": (int(words[1]) - t0) / 1e6, "wall_ms": (t1 - t0) / 1e6, "faults": faults,
            "dirty_kb": dirty, "clean_kb": pclean + sclean, "rss_kb": rss,
            "served": "%s hits, %s misses, %s direct, %s copied" % served.groups() if served else "files"}


def stats(values):
    v = sorted(values)
    return v[(len(v) - 1) // 2], v[0], v[-1]


def variants(a):
    """-> {name: (command, env, fresh cache dir or None, store path or None)}"""
    env = dict(os.environ, ASMSTORE_HOST_MEMORY="1")
    env.pop("ASMSTORE_CACHE_DISABLE", None)
    name = os.path.basename(a.program)
    store = lambda path, cache: [a.host, "--cache", cache, path, name, "--time-to-main"]
    warm_cache = os.path.join(a.cache, "compressed")
    v = {}
    if a.tpa:
        v["tpa"] = ([a.host, "--tpa", a.tpa, a.program, "--time-to-main"], env, None, None)
    v["warm"] = (store(a.compressed, warm_cache), env, None, a.compressed)
    v["cold"] = (store(a.compressed, warm_cache), env, warm_cache, a.compressed)
    if a.nocache:
        v["nocache"] = (store(a.compressed, warm_cache), dict(env, ASMSTORE_CACHE_DISABLE="1"), None, a.compressed)
    for spec in a.stores:
        k, path = spec.split("=", 1)
        v[k] = (store(path, os.path.join(a.cache, k)), env, None, path)
    return v


def refill(v):
    """a full cache for the warm variant, written back: freshly written page-cache pages would count as dirty"""
    run(v["warm"][0], v["warm"][1])
    os.sync()


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--host", required=True)
    p.add_argument("--program", required=True)
    p.add_argument("--cache", required=True)
    p.add_argument("--samples", type=int, required=True)
    p.add_argument("--compressed", required=True)
    p.add_argument("--tpa")
    p.add_argument("--nocache", action="store_true")
    p.add_argument("stores", nargs="*", metavar="NAME=STORE.so")
    a = p.parse_args()
    os.makedirs(a.cache, exist_ok=True)  # the cache creates its own directory, not the parents
    v = variants(a)
    order = list(v)
    got = {k: [] for k in order}
    try:
        for cmd, e, _, _ in v.values():  # untimed: page cache, and the warm variant's cache files
            run(cmd, e)
        os.sync()
        for i in range(a.samples):
            for k in order[i % len(order):] + order[:i % len(order)]:
                cmd, e, fresh_cache, _ = v[k]
                if fresh_cache:
                    shutil.rmtree(fresh_cache, ignore_errors=True)
                got[k].append(run(cmd, e))
                if fresh_cache:
                    refill(v)
    except RuntimeError as err:
        print("FAILED %s" % err)
        return 1
    print("samples %d" % a.samples)
    for k in order:
        for m in ("ttm_ms", "wall_ms", "faults", "dirty_kb", "clean_kb", "rss_kb"):
            key = m.replace("_", "_%s_" % k, 1) if "_" in m else "%s_%s" % (m, k)  # ttm_<k>_ms, faults_<k>
            fmt = "%s %.3f %.3f %.3f" if m.endswith("_ms") else "%s %d %d %d"
            print(fmt % ((key,) + stats([r[m] for r in got[k]])))
        if v[k][3]:
            print("size_%s %d" % (k, os.path.getsize(v[k][3])))
        print("served_%s %s" % (k, got[k][-1]["served"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
