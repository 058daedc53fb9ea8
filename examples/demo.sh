#!/usr/bin/env bash
# make demo: the main job on real assemblies. Packs the Mono 4.5 framework (or, without Mono, the
# project's own test binaries as stand-in blobs) into a store, inspects it, verifies it and reads
# entries back, printing what happened with the figures.
set -euo pipefail
B=${B:-build}
A=$B/asmstore
out=$B/demo
rm -rf "$out"; mkdir -p "$out"
if [ -d /usr/lib/mono/4.5/Facades ]; then
  inputs=(/usr/lib/mono/4.5 /usr/lib/mono/4.5/Facades); what="the Mono 4.5 framework + Facades"
else
  inputs=("$B"); what="(Mono not installed: the build directory's files as stand-in blobs)"
fi
files=()
for d in "${inputs[@]}"; do for f in "$d"/*.dll; do [ -f "$f" ] && files+=("$f"); done; done
n=${#files[@]}
raw=$(cat "${files[@]}" | wc -c)
echo "== packing $n assemblies ($((raw / 1024)) KiB) from $what"
t0=$(date +%s.%N)
"$A" pack --raw -o "$out/assembly-store.bin" --level 19 "${inputs[@]}"
t1=$(date +%s.%N)
size=$(stat -c %s "$out/assembly-store.bin")
awk -v r="$raw" -v s="$size" -v a="$t0" -v b="$t1" 'BEGIN { printf "   store: %d KiB, %.1f%% of the input, packed in %.2f s (%.0f MB/s)\n", s/1024, 100*s/r, b-a, r/1e6/(b-a) }'
echo "== asmstore info"
"$A" info "$out/assembly-store.bin" | sed 's/^/   /'
echo "== asmstore verify (every entry looked up by both names and decompressed)"
"$A" verify "$out/assembly-store.bin" | sed 's/^/   /'
echo "== extract three entries and compare with the originals"
"$A" extract "$out/assembly-store.bin" -C "$out/x" mscorlib System.Xml.Linq.dll System.Runtime
for f in mscorlib.dll System.Xml.Linq.dll System.Runtime.dll; do
  for src in "${files[@]}"; do
    if [ "$(basename "$src")" = "$f" ]; then
      cmp "$src" "$out/x/$f" && echo "   $f: byte-identical ($(stat -c %s "$out/x/$f") bytes)"
    fi
  done
done
