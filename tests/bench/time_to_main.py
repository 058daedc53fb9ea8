#!/usr/bin/env python3
"""tests/bench/time_to_main.py - make bench's startup matrix (section 7): hosts (build/coreclr_host,
build/mono_host) started in a fresh process per sample, every variant of the spec interleaved (the
order rotated each round, so none always runs first).

  time_to_main.py --samples N SPEC

SPEC: one variant a line, fields separated by tabs:
  NAME  MODE  CACHE  STORE  COMMAND  ARG...
MODE: files (no store), store (cache warm or in place: CACHE is filled by the untimed first run),
cold (CACHE is removed before every run: each image decompressed, cache files written), nocache
(ASMSTORE_CACHE_DISABLE=1). CACHE: the cache directory of the variant or "-"; STORE: the store's
path ("-": none), for its size. COMMAND ARG...: what to run, after any VAR=VALUE fields (its environment,
as env(1) takes them); it must print "main-at <Stopwatch
timestamp>" (the program's --time-to-main) on stdout.

Figures of one sample: time to Main (from just before the spawn to Main's Stopwatch.GetTimestamp(),
CLOCK_MONOTONIC on Linux for CoreCLR and Mono, the clock of time.monotonic_ns), wall (spawn to
exit), CPU (RUSAGE_CHILDREN deltas of ru_utime + ru_stime: the child's user + system time, every
thread), minor page faults (RUSAGE_CHILDREN delta of ru_minflt), and the host's "memory: ..." line
(ASMSTORE_HOST_MEMORY=1: /proc/self/smaps_rollup right after Main returns): private dirty, clean
file-backed (private + shared clean), RSS, kB.

Prints, per variant that ran: "NAME.ttm MEDIAN MIN MAX" (ms), "NAME.wall", "NAME.cpu" (ms),
"NAME.faults", "NAME.dirty", "NAME.clean", "NAME.rss" (kB), "NAME.size BYTES" (the store's file
size), "NAME.served H M D C" (the host's hits/misses/direct (in place)/copied of the last sample, or
"files"), "NAME.doors B E" (its bundle/external door counts, "- -" when the host prints none); and
"NAME.failed REASON" for a variant that misbehaved (it is dropped, the others go on). With the host's
"phases:" line (ASMSTORE_HOST_PHASES=1, set here), also NAME.cpu_main / .flt_main (CPU ms and faults
at Main's return, since exec), .cpu_after / .flt_after (after Main: the cache's writing), .cpu_img /
.flt_img (making the images), and the marks before (.cpu_open, .cpu_loaded, .cpu_init, ...).
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
DOORS = re.compile(r"doors: (\d+) bundle, (\d+) external")
PHASES = re.compile(r"^phases: open=(\d+)/(\d+) loaded=(\d+)/(\d+) initialized=(\d+)/(\d+) main=(\d+)/(\d+) "
                    r"end=(\d+)/(\d+) images=(\d+)/(\d+)/(\d+)/(\d+) threads=(-?\d+)$", re.M)
FIGURES = ("ttm", "wall", "cpu", "faults", "dirty", "clean", "rss")
# from the host's "phases:" line (ASMSTORE_HOST_PHASES=1, examples/host_phases.h): CPU (ms) and faults at each mark
# since exec (open, loaded: the runtime loaded, init: coreclr_initialize returned, main: Main returned), after Main
# (after: the cache's writing), and of making the images (img)
PHASE_FIGURES = ("cpu_open", "flt_open", "cpu_loaded", "flt_loaded", "cpu_init", "flt_init", "cpu_main", "flt_main",
                 "cpu_after", "flt_after", "cpu_img", "flt_img")


def cpu_faults():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime, r.ru_minflt


def run(cmd, env):
    """-> dict of one fresh process's figures"""
    cpu0, faults0 = cpu_faults()
    t0 = time.monotonic_ns()
    out = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    t1 = time.monotonic_ns()
    cpu1, faults1 = cpu_faults()
    words = out.stdout.split()
    mem = MEMORY.search(out.stderr)
    if out.returncode != 0 or len(words) != 2 or words[0] != "main-at" or not mem:
        last = " | ".join(out.stderr.strip().splitlines()[-3:])[-300:]
        raise RuntimeError("exit %d: %s %s" % (out.returncode, out.stdout.strip()[:100], last))
    dirty, pclean, sclean, rss = (int(v) for v in mem.groups())
    served, doors = SERVED.search(out.stderr), DOORS.search(out.stderr)
    phases = PHASES.search(out.stderr)
    ph = {}
    if phases:
        v = [int(x) for x in phases.groups()]
        ph = {"cpu_open": v[0] / 1e3, "flt_open": v[1], "cpu_loaded": v[2] / 1e3, "flt_loaded": v[3],
              "cpu_init": v[4] / 1e3, "flt_init": v[5], "cpu_main": v[6] / 1e3, "flt_main": v[7],
              "cpu_after": (v[8] - v[6]) / 1e3, "flt_after": v[9] - v[7], "cpu_img": v[10] / 1e3, "flt_img": v[11]}
    return dict(ph, **{"ttm": (int(words[1]) - t0) / 1e6, "wall": (t1 - t0) / 1e6, "cpu": (cpu1 - cpu0) * 1e3,
            "faults": faults1 - faults0, "dirty": dirty, "clean": pclean + sclean, "rss": rss,
            "served": " ".join(served.groups()) if served else "files",
            "doors": " ".join(doors.groups()) if doors else "- -"})


def stats(values):
    v = sorted(values)
    return v[(len(v) - 1) // 2], v[0], v[-1]


def read_spec(path):
    """-> {name: (command, env, mode, cache, store)} in the spec's order"""
    env = dict(os.environ, ASMSTORE_HOST_MEMORY="1", ASMSTORE_HOST_PHASES="1")
    env.pop("ASMSTORE_CACHE_DISABLE", None)
    v = {}
    with open(path) as f:
        for line in f:
            if not line.strip() or line.startswith("#"):
                continue
            name, mode, cache, store, *cmd = line.rstrip("\n").split("\t")
            e = dict(env, ASMSTORE_CACHE_DISABLE="1") if mode == "nocache" else dict(env)
            while cmd and re.match(r"^[A-Z_]+=", cmd[0]):  # VAR=VALUE before the command: its environment
                k, _, val = cmd.pop(0).partition("=")
                e[k] = val
            v[name] = (cmd, e, mode, None if cache == "-" else cache, None if store == "-" else store)
    return v


def sample(v, k):
    cmd, env, mode, cache, _ = v[k]
    if mode == "cold" and cache:
        shutil.rmtree(cache, ignore_errors=True)
    r = run(cmd, env)
    if mode == "cold" and cache:
        flush(cache)
    return r


def flush(tree):
    """the file tree, or the files under it, written back (the cache files a cold start wrote: before the next start, not
    during it); fsync of those files alone, not os.sync(), which waits for every other writer's pages"""
    if os.path.isfile(tree):
        tree_files = [("", [], [tree])]
    else:
        tree_files = os.walk(tree)
    for d, _, files in tree_files:
        for n in files:
            try:
                fd = os.open(os.path.join(d, n), os.O_RDONLY)
            except OSError:
                continue
            try:
                os.fsync(fd)
            finally:
                os.close(fd)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--samples", type=int, required=True)
    p.add_argument("spec")
    a = p.parse_args()
    v = read_spec(a.spec)
    for _, _, _, cache, _ in v.values():  # the caches create their own directory, not the parents
        if cache:
            os.makedirs(os.path.dirname(cache), exist_ok=True)
    failed = {}
    for k in list(v):  # untimed: the page cache, and every warm variant's cache files
        try:
            sample(v, k)
        except RuntimeError as err:
            failed[k] = str(err)
    for _, _, _, cache, store in v.values():  # written back: a freshly written page mapped counts as dirty
        for path in (cache, store):
            if path:
                flush(path)
    order = [k for k in v if k not in failed]
    got = {k: [] for k in order}
    for i in range(a.samples):
        n = len(order)
        for k in (order[i % n:] + order[:i % n]) if n else []:
            if k in failed:
                continue
            try:
                got[k].append(sample(v, k))
            except RuntimeError as err:
                failed[k] = "sample %d: %s" % (i + 1, err)
    print("samples %d" % a.samples)
    for k in v:
        if k in failed:
            print("%s.failed %s" % (k, failed[k]))
            continue
        for m in FIGURES + PHASE_FIGURES:
            if any(m not in r for r in got[k]):
                continue
            fmt = "%s.%s %.3f %.3f %.3f" if m in ("ttm", "wall", "cpu") or m.startswith("cpu_") else "%s.%s %d %d %d"
            print(fmt % ((k, m) + stats([r[m] for r in got[k]])))
        if v[k][4]:
            print("%s.size %d" % (k, os.path.getsize(v[k][4])))
        print("%s.served %s" % (k, got[k][-1]["served"]))
        print("%s.doors %s" % (k, got[k][-1]["doors"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
