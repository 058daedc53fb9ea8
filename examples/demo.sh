#!/usr/bin/env bash
# make demo: the main job on real assemblies, in the layouts .NET 11 shipped (GA), found the way each
# runtime finds its store.
#   Mono:    the Mono 4.5 framework + Facades + examples/hello packed as the .NET 11 MonoVM layout
#            (`pack --target net11 --runtime monovm`: format 3, XXH3-64 names, Zstd, the stub .so whose
#            `payload` section holds the store) at lib/<abi>/libassembly-store.so, the file MonoVM opens
#            in the app's native library directory; inspected, verified, read back, then run by
#            build/mono_host, which opens that file as MonoVM does (its `payload` section, no dlopen).
#   CoreCLR: the installed .NET shared framework + examples/hello_clr packed as the .NET 11 CoreCLR layout
#            (`--target net11 --runtime coreclr`: format 3, CRC-32 names, Zstd, a loadable .so exporting
#            _assembly_store), which CoreCLR finds by dlopen + dlsym: the minimal host reads it cold (cache
#            fill) and warm (cache hits), build/coreclr_host runs hello.dll from it (skipped without .NET).
set -euo pipefail
B=${B:-build}
A=$B/asmstore
out=$B/demo
rm -rf "$out"
mkdir -p "$out"
case $(uname -m) in
  x86_64) abi=x86_64 ;; aarch64) abi=arm64 ;; armv7l|armv8l) abi=arm ;; i?86) abi=x86 ;; *) abi=arm64 ;;
esac

# ---- Mono: the .NET 11 MonoVM layout ----
if [ -d /usr/lib/mono/4.5/Facades ]; then
  inputs=(/usr/lib/mono/4.5 /usr/lib/mono/4.5/Facades)
  what="the Mono 4.5 framework + Facades"
  if [ -f "$B/hello/hello.exe" ]; then
    inputs+=("$B/hello/hello.exe" "$B/hello/Greeting.dll")
    what="$what + hello.exe"
  fi
else
  inputs=("$B")
  what="(Mono not installed: the build directory's files as stand-in blobs)"
fi
files=()
for d in "${inputs[@]}"; do
  if [ -d "$d" ]; then for f in "$d"/*.dll; do [ -f "$f" ] && files+=("$f"); done; else files+=("$d"); fi
done
raw=$(cat "${files[@]}" | wc -c)
mdir=$out/mono/lib/$abi
store=$mdir/libassembly-store.so
mkdir -p "$mdir"

echo "== packing ${#files[@]} assemblies ($((raw / 1024)) KiB) from $what: the .NET 11 MonoVM layout for $abi"
t0=$(date +%s.%N)
"$A" pack --target net11 --runtime monovm --abi "$abi" -o "$mdir/" "${inputs[@]}" 2>&1 | sed 's/^/   /'
t1=$(date +%s.%N)
size=$(stat -c %s "$store")
awk -v r="$raw" -v s="$size" -v a="$t0" -v b="$t1" 'BEGIN {
  printf "   %d KiB, %.1f%% of the input, packed in %.2f s (%.0f MB/s)\n", s/1024, 100*s/r, b-a, r/1e6/(b-a) }'
echo "== asmstore info $store"
"$A" info "$store" | sed 's/^/   /'
echo "== asmstore verify (every entry looked up by both names and decompressed)"
"$A" verify "$store" | sed 's/^/   /'
echo "== extract three entries and compare with the originals"
"$A" extract "$store" -C "$out/x" mscorlib System.Xml.Linq.dll System.Runtime >/dev/null 2>&1 || true
for f in mscorlib.dll System.Xml.Linq.dll System.Runtime.dll; do
  for src in "${files[@]}"; do
    if [ "$(basename "$src")" = "$f" ]; then
      cmp "$src" "$out/x/$f" && echo "   $f: byte-identical ($(stat -c %s "$out/x/$f") bytes)"
    fi
  done
done

# The Mono host (examples/mono_host.c): a C# program, every assembly from the store through the cache.
if [ ! -x "$B/mono_host" ] || [ ! -f "$B/hello/hello.exe" ]; then
  echo "== build/mono_host: not built (needs libmono-2.0-dev and mono-devel: make deps)"
else
  mc=$out/mono/cache
  mono_ok=1
  for run in cold warm; do
    "$B/mono_host" --cache "$mc" "$(realpath "$store")" hello.exe demo >"$out/mono.$run" 2>"$out/mono.$run.err" ||
      mono_ok=
  done
  if [ -n "$mono_ok" ]; then
    echo "== build/mono_host: Mono runs hello.exe with every assembly, mscorlib included, from the store,"
    echo "   opened the way MonoVM does: lib/$abi/libassembly-store.so as a file, its \`payload\` section read"
    sed 's/^/   | /' "$out/mono.warm"
    for run in cold warm; do
      sed 's/^mono_host: /   '$run': /; s/: store open/:\n      store open/; s/; cache get/\n      cache get/' \
        "$out/mono.$run.err"
    done
  else
    echo "== build/mono_host: FAILED on the .NET 11 MonoVM store:"
    sed 's/^/   | /' "$out/mono.cold.err" | head -n 5
    exit 1
  fi
fi

# ---- CoreCLR: the .NET 11 CoreCLR layout of the installed shared framework + hello_clr ----
. "$(dirname "$0")/../tests/lib/coreclr_env.sh"
if ! clr_find_runtime; then
  echo "== CoreCLR: skipped: $CLR_WHY"
  exit 0
fi
if [ ! -f "$B/hello_clr/hello.dll" ]; then
  echo "== CoreCLR: skipped: $B/hello_clr/hello.dll not built (make coreclr-host needs the .NET SDK)"
  exit 0
fi
cdir=$out/coreclr
clib=$cdir/lib/$abi
cstore=$clib/libassembly-store.so
mkdir -p "$clib"
cp "$B/hello_clr/hello.dll" "$B/hello_clr/Greeting.dll" "$cdir/"
fw=("$CLR_DIR"/*.dll)
fwsize=$(($(cat "${fw[@]}" | wc -c) / 1048576))
echo "== packing the .NET $CLR_VERSION shared framework (${#fw[@]} assemblies, $fwsize MiB) + hello.dll + Greeting.dll:"
echo "   the .NET 11 CoreCLR layout for $abi ($PACK_CORECLR_FLAGS)"
"$A" pack --abi "$abi" $PACK_CORECLR_FLAGS -o "$clib/" "$CLR_DIR" "$cdir/hello.dll" "$cdir/Greeting.dll" 2>&1 |
  sed 's/^/   /'
"$A" info "$cstore" | sed -n '1,3p' | sed 's/^/   /'

# The minimal host (examples/host.c): dlopen -> reader -> cache -> every entry's image.
cache=$cdir/host-cache
for run in cold warm; do
  if [ $run = cold ]; then
    echo "== build/host, cold: empty cache, every entry decompressed, cache files written in the background"
  else
    echo "== build/host, warm: the same entries as cache hits (validated, mmap'd, no zstd)"
  fi
  "$B/host" --cache "$cache" "$(realpath "$cstore")" >"$out/host.$run"
  sed -n '1,4p' "$out/host.$run" | sed 's/^/   /'
  echo "   ..."
  tail -n 1 "$out/host.$run" | tr ';' '\n' | sed 's/^ */   /'
done
awk '/^total:/ { for (i = 1; i <= NF; i++) if ($i == "load") { gsub(/[^0-9.]/, "", $(i+1)); t[FILENAME] = $(i+1) } }
     END { c = t[ARGV[1]]; w = t[ARGV[2]]
           if (c && w) printf "   warm/cold load time: %.0f us / %.0f us = %.1fx faster\n", w, c, c / w }' \
  "$out/host.cold" "$out/host.warm"
echo "   cache: $(find "$cache" -type f ! -name '.*' | wc -l) file(s), $(du -sk "$cache" | cut -f1) KiB in $cache"

# The CoreCLR host (examples/coreclr_host.c): .NET's own runtime runs a C# program with every assembly,
# System.Private.CoreLib included, from the store.
cache=$cdir/cache
for run in cold warm; do
  "$B/coreclr_host" -v --cache "$cache" "$(realpath "$cstore")" hello.dll demo "from a store" \
    >"$cdir/$run.out" 2>"$cdir/$run.err" && echo 0 >"$cdir/$run.rc" || echo $? >"$cdir/$run.rc"
done
echo "== build/coreclr_host: CoreCLR $CLR_VERSION runs hello.dll (exit $(cat "$cdir/warm.rc")), every assembly from the store"
sed 's/^/   | /' "$cdir/warm.out"
for run in cold warm; do
  grep -v ': probe ' "$cdir/$run.err" |
    sed 's/^coreclr_host: /   '$run': /; s/; \([0-9]* probes\)/;\n      \1/; s/; runtime /;\n      runtime /'
done
served=$(sed -n 's/^coreclr_host: probe \(.*\)\.dll: store, .*/\1/p' "$cdir/warm.err" | sort -u)
echo "   what came from where (warm run):"
echo "      the store, $(echo "$served" | wc -l) assemblies ($(grep -c ': store, hit,' "$cdir/warm.err") probes answered by cache hits):"
echo "$served" | paste -sd' ' | fold -s -w 104 | sed 's/^/         /'
echo "      declined: $(grep -c '\.ni\.dll: declined' "$cdir/warm.err") Foo.ni.dll names" \
     "(the binder asks for Foo.ni.dll, then Foo.dll; a .NET 11 GA store has no .ni.dll entries," \
     "$(grep -c ': declined (placeholder)' "$cdir/warm.err") answered by placeholders)"
if command -v strace >/dev/null 2>&1; then
  strace -f -qq -e trace=%file -o "$cdir/strace" "$B/coreclr_host" --cache "$cache" "$(realpath "$cstore")" hello.dll \
    >/dev/null 2>&1 || true
  echo "      the filesystem (strace -f): $(grep -v 'execve(' "$cdir/strace" | grep -c '\.dll"') paths ending in .dll touched; opened from the runtime:"
  echo "         $(grep -E '^[0-9]+ +openat\(' "$cdir/strace" | grep -v ' = -1 ' |
                  grep -oE "\"($CLR_DIR|[^\"]*/coreclr-runtime-v1/[0-9a-f]*)/[^\"]*\"" |
                  sed 's|.*/||; s|"||' | sort -u | paste -sd' ')"
  echo "         (libcoreclr.so and libclrjit.so through <cache>/coreclr-runtime-v1/<key>, a private directory of two symlinks)"
fi
# the doors' cost against the start from files: fresh processes, interleaved, CPU time and page faults
# (what repeats on a busy machine; wall time spreads 2-3x), 7 rounds each
echo "   the doors against the files (7 interleaved starts each, medians; CPU = user+sys):"
python3 - "$B/coreclr_host" "$CLR_DIR" "$cdir" "$(realpath "$cstore")" <<'PY' | sed 's/^/      /'
import resource, subprocess, sys
host, fw, d, store = sys.argv[1:5]
starts = [("files (--tpa)", [host, "--tpa", fw, d + "/hello.dll", "--time-to-main"]),
          ("store, warm, bundle door", [host, "--cache", d + "/cache", store, "hello.dll", "--time-to-main"]),
          ("store, warm, --external-only",
           [host, "--external-only", "--cache", d + "/cache", store, "hello.dll", "--time-to-main"])]
got = {name: [] for name, _ in starts}
for i in range(7):
    for name, cmd in starts[i % 3:] + starts[:i % 3]:
        r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        out = subprocess.run(cmd, capture_output=True, text=True)
        r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        doors = [w for w in out.stderr.split(";") if "doors:" in w]
        cpu = (r1.ru_utime + r1.ru_stime - r0.ru_utime - r0.ru_stime) * 1000
        got[name].append((cpu, r1.ru_minflt - r0.ru_minflt, doors[0].strip() if doors else ""))
med = lambda v: sorted(v)[len(v) // 2]
cpu0, flt0 = med([g[0] for g in got["files (--tpa)"]]), med([g[1] for g in got["files (--tpa)"]])
for name, _ in starts:
    cpu, flt = med([g[0] for g in got[name]]), med([g[1] for g in got[name]])
    print("%-29s CPU %5.1f ms (%.2fx files), %5d minor faults (%.2fx)  %s"
          % (name, cpu, cpu / cpu0, flt, flt / flt0, got[name][-1][2]))
PY
"$B/coreclr_host" --tpa "$CLR_DIR" "$cdir/hello.dll" demo "from a store" >"$cdir/tpa.out" 2>"$cdir/tpa.err" || true
cmp -s "$cdir/tpa.out" "$cdir/warm.out" && same="the same output" || same="DIFFERENT output"
echo "   the same runtime from the files on disk (--tpa, the anchor of make bench's time to Main): $same"
sed 's/^coreclr_host: started from files ([^)]*); /      /' "$cdir/tpa.err"
