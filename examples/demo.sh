#!/usr/bin/env bash
# make demo: the main job on real assemblies. Packs the Mono 4.5 framework + Facades + the hello
# program (or, without Mono, the project's own build files as stand-in blobs) into a dlopen-kind
# libassembly-store.so, inspects and verifies it, reads entries back, then loads it the way a
# runtime host does: the minimal host twice (cold: decompress + cache fill; warm: cache hits) and
# the Mono host running a C# program with every assembly served from the store.
set -euo pipefail
B=${B:-build}
A=$B/asmstore
out=$B/demo
rm -rf "$out"; mkdir -p "$out"
case $(uname -m) in x86_64) abi=x86_64 ;; aarch64) abi=arm64 ;; armv7l|armv8l) abi=arm ;; i?86) abi=x86 ;; *) abi=arm64 ;; esac
if [ -d /usr/lib/mono/4.5/Facades ]; then
  inputs=(/usr/lib/mono/4.5 /usr/lib/mono/4.5/Facades); what="the Mono 4.5 framework + Facades"
  if [ -f "$B/hello/hello.exe" ]; then inputs+=("$B/hello/hello.exe" "$B/hello/Greeting.dll"); what="$what + hello.exe"; fi
else
  inputs=("$B"); what="(Mono not installed: the build directory's files as stand-in blobs)"
fi
files=()
for d in "${inputs[@]}"; do
  if [ -d "$d" ]; then for f in "$d"/*.dll; do [ -f "$f" ] && files+=("$f"); done; else files+=("$d"); fi
done
n=${#files[@]}
raw=$(cat "${files[@]}" | wc -c)
store=$out/libassembly-store.so

echo "== packing $n assemblies ($((raw / 1024)) KiB) from $what into a $abi .so"
t0=$(date +%s.%N)
"$A" pack --target net11-preview --runtime monovm --wrap dlopen --abi "$abi" -o "$store" --level 19 "${inputs[@]}" 2>&1 | sed 's/^/   /'
t1=$(date +%s.%N)
size=$(stat -c %s "$store")
awk -v r="$raw" -v s="$size" -v a="$t0" -v b="$t1" 'BEGIN { printf "   %d KiB, %.1f%% of the input, packed in %.2f s (%.0f MB/s)\n", s/1024, 100*s/r, b-a, r/1e6/(b-a) }'
echo "== asmstore info"
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

# The minimal host (examples/host.c): dlopen -> reader -> cache -> every entry's image.
cache=$out/cache
for run in cold warm; do
  [ $run = cold ] && echo "== build/host, cold: empty cache, every entry decompressed, cache files written in the background" \
                  || echo "== build/host, warm: the same entries as cache hits (validated, mmap'd, no zstd)"
  "$B/host" --cache "$cache" "$(realpath "$store")" >"$out/host.$run"
  sed -n '1,4p' "$out/host.$run" | sed 's/^/   /'; echo "   ..."
  tail -n 1 "$out/host.$run" | tr ';' '\n' | sed 's/^ */   /'
done
awk '/^total:/ { for (i = 1; i <= NF; i++) if ($i == "load") { gsub(/[^0-9.]/, "", $(i+1)); t[FILENAME] = $(i+1) } }
     END { c = t[ARGV[1]]; w = t[ARGV[2]]; if (c && w) printf "   warm/cold load time: %.0f us / %.0f us = %.1fx faster\n", w, c, c / w }' \
  "$out/host.cold" "$out/host.warm"
echo "   cache: $(find "$cache" -name '*.bin' | wc -l) files, $(du -sk "$cache" | cut -f1) KiB in $cache"

# The Mono host (examples/mono_host.c): a C# program, every assembly from the store through the cache.
if [ -x "$B/mono_host" ] && [ -f "$B/hello/hello.exe" ]; then
  echo "== build/mono_host: Mono runs hello.exe with every assembly, mscorlib included, from the store"
  mc=$out/mono-cache
  for run in cold warm; do
    "$B/mono_host" --cache "$mc" "$(realpath "$store")" hello.exe demo >"$out/mono.$run" 2>"$out/mono.$run.err"
  done
  sed 's/^/   | /' "$out/mono.warm"
  for run in cold warm; do sed 's/^mono_host: /   '$run': /; s/: store open/:\n      store open/; s/; cache get/\n      cache get/' "$out/mono.$run.err"; done
else
  echo "== build/mono_host: not built (needs libmono-2.0-dev and mono-devel: make deps)"
fi
