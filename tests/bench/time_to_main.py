#!/usr/bin/env python3
"""tests/bench/time_to_main.py - make bench's time to Main: build/coreclr_host started in a fresh process
per sample, the variants interleaved (rotated each round, so none always runs first).

  time_to_main.py HOST STORE.so STORED.so TPA_DIR PROGRAM.dll CACHE_DIR SAMPLES

Variants: tpa (the anchor: the same runtime from the files on disk, TRUSTED_PLATFORM_ASSEMBLIES of
TPA_DIR + PROGRAM's directory), warm (the store, every entry a cache hit), cold (the store, cache
directory deleted first: every entry decompressed, cache files written), nocache (the store,
ASMSTORE_CACHE_DISABLE=1: decompressed, nothing written), direct (STORED.so, the same files packed
uncompressed: every image points into the mapped store, no cache, no copy). Time to Main: from just before the spawn
to the program's first statement, which prints Stopwatch.GetTimestamp() (CLOCK_MONOTONIC on Linux,
the clock of time.monotonic_ns). Wall: spawn to exit. Prints "ttm_<variant>_ms MEDIAN MIN MAX",
"wall_<variant>_ms ..." and "faults_<variant> ..." (minor page faults of the process) lines;
"FAILED ..." when a run misbehaves.
"""
import os
import resource
import shutil
import subprocess
import sys
import time


def run(cmd, env):
    """-> (time to Main ms, wall ms, minor page faults) of one fresh process"""
    faults = resource.getrusage(resource.RUSAGE_CHILDREN).ru_minflt
    t0 = time.monotonic_ns()
    out = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    t1 = time.monotonic_ns()
    faults = resource.getrusage(resource.RUSAGE_CHILDREN).ru_minflt - faults
    words = out.stdout.split()
    if out.returncode != 0 or len(words) != 2 or words[0] != "main-at":
        raise RuntimeError("exit %d: %s %s" % (out.returncode, out.stdout.strip()[:200], out.stderr.strip()[:300]))
    return (int(words[1]) - t0) / 1e6, (t1 - t0) / 1e6, faults


def stats(values):
    v = sorted(values)
    return v[(len(v) - 1) // 2], v[0], v[-1]


def main():
    host, store, stored, tpa_dir, program, cache, samples = sys.argv[1:8]
    samples = int(samples)
    name = os.path.basename(program)
    env = dict(os.environ)
    env.pop("ASMSTORE_CACHE_DISABLE", None)
    nocache_env = dict(env, ASMSTORE_CACHE_DISABLE="1")
    variants = {
        "tpa": ([host, "--tpa", tpa_dir, program, "--time-to-main"], env, False),
        "warm": ([host, "--cache", cache, store, name, "--time-to-main"], env, False),
        "cold": ([host, "--cache", cache, store, name, "--time-to-main"], env, True),
        "nocache": ([host, "--cache", cache, store, name, "--time-to-main"], nocache_env, False),
        "direct": ([host, "--cache", cache, stored, name, "--time-to-main"], env, False),
    }
    order = list(variants)
    ttm = {k: [] for k in order}
    wall = {k: [] for k in order}
    faults = {k: [] for k in order}
    try:
        for cmd, e, _ in variants.values():  # untimed: page cache, and the warm variant's cache files
            run(cmd, e)
        for i in range(samples):
            for k in order[i % len(order):] + order[:i % len(order)]:
                cmd, e, fresh_cache = variants[k]
                if fresh_cache:
                    shutil.rmtree(cache, ignore_errors=True)
                a, b, f = run(cmd, e)
                ttm[k].append(a)
                wall[k].append(b)
                faults[k].append(f)
                if fresh_cache:  # leave a full cache for the warm variant
                    run(variants["warm"][0], env)
    except RuntimeError as err:
        print("FAILED %s" % err)
        return 1
    print("samples %d" % samples)
    for k in order:
        print("ttm_%s_ms %.3f %.3f %.3f" % ((k,) + stats(ttm[k])))
        print("wall_%s_ms %.3f %.3f %.3f" % ((k,) + stats(wall[k])))
        print("faults_%s %d %d %d" % ((k,) + stats(faults[k])))
    return 0


if __name__ == "__main__":
    sys.exit(main())
