#!/usr/bin/env bash
# tests/t_cli_cache.sh - `asmstore load` and `asmstore cache prune|stats` on real files.
. "$(dirname "$0")/lib/lib.sh"
cd "$T_TMP" || exit 1
mkdir in
seq 1 60000 >in/Alpha.dll
seq 5 7 900000 >in/Beta.dll
head -c 40000 /dev/urandom >in/Gamma.dll
"$ASMSTORE" pack -o s.xaba --raw --target net11-preview --runtime monovm in/Alpha.dll in/Beta.dll in/Gamma.dll 2>/dev/null
"$ASMSTORE" pack -o v3.xaba --raw --target net11-preview --runtime monovm --format 3 in/Alpha.dll in/Beta.dll in/Gamma.dll 2>/dev/null
"$ASMSTORE" pack -o plain.xaba --raw --target net11-preview --runtime monovm --no-compress in/Alpha.dll 2>/dev/null

# expected "name size hash" from the source files (xxhsum -H3 when present, else our first load)
expect() {
  for f in Alpha Beta Gamma; do
    if command -v xxhsum >/dev/null; then h=$(xxhsum -H3 "in/$f.dll" | sed 's/.*= //'); else h=; fi
    echo "$f.dll $(stat -c %s "in/$f.dll") $h"
  done
}
expect >want
strip_src() { awk '{print $1, $2, $4}'; }

"$ASMSTORE" load --cache c s.xaba --all >run1 2>err1
if [ "$(awk '{print $3}' run1 | sort -u)" = miss ] && { ! command -v xxhsum >/dev/null || diff <(strip_src <run1) want >/dev/null; }; then
  t_ok "load: first run misses, bytes hash like the source files"
else t_fail "load: first run" "$(cat run1 err1)"; fi

"$ASMSTORE" load --cache c s.xaba --all >run2 2>err2
if [ "$(awk '{print $3}' run2 | sort -u)" = hit ] && diff <(strip_src <run1) <(strip_src <run2) >/dev/null; then
  t_ok "load: second run hits with the same bytes"
else t_fail "load: second run" "$(cat run2 err2)"; fi

ASMSTORE_CACHE_DISABLE=1 "$ASMSTORE" load --cache c s.xaba Alpha Gamma.dll >run3 2>err3
if [ "$(awk '{print $3}' run3 | sort -u)" = miss ] && grep -q 'cache off' err3 && [ "$(wc -l <run3)" = 2 ]; then
  t_ok "ASMSTORE_CACHE_DISABLE=1 turns the cache off"
else t_fail "ASMSTORE_CACHE_DISABLE" "$(cat run3 err3)"; fi

id=$(ls c/decompressed-assembly-cache-v1/)
f=c/decompressed-assembly-cache-v1/$id/1.bin
printf '\x01' | dd of="$f" bs=1 seek=100 conv=notrunc 2>/dev/null
"$ASMSTORE" load --cache c s.xaba --all >run4 2>err4
"$ASMSTORE" load --cache c s.xaba --all >run5 2>/dev/null
if [ "$(awk '$1=="Beta.dll"{print $3}' run4)" = miss ] && grep -q '1 rejected' err4 && diff run2 run5 >/dev/null &&
   diff <(strip_src <run1) <(strip_src <run4) >/dev/null; then
  t_ok "a flipped byte in a cache file is a miss, then replaced"
else t_fail "corrupt cache file" "$(cat run4 err4)"; fi

"$ASMSTORE" load --cache c v3.xaba --all >run6 2>/dev/null
"$ASMSTORE" load --cache c plain.xaba --all >run7 2>/dev/null
if diff <(strip_src <run1) <(strip_src <run6) >/dev/null && [ "$(awk '{print $3}' run7)" = direct ]; then
  t_ok "v3 store through the cache; uncompressed entries are direct"
else t_fail "v3/direct" "$(cat run6 run7)"; fi

"$ASMSTORE" cache stats c >stats1
if grep -q "^$id  *3 " stats1 && grep -q '^total: 3 store ids, 6 files' stats1; then t_ok "cache stats"
else t_fail "cache stats" "$(cat stats1)"; fi

"$ASMSTORE" cache prune c --keep "$id" >prune1
"$ASMSTORE" cache stats c >stats2
if grep -q 'removed 2 store dirs, 3 files' prune1 && grep -q '^total: 1 store ids, 3 files' stats2; then t_ok "cache prune --keep"
else t_fail "cache prune --keep" "$(cat prune1 stats2)"; fi

"$ASMSTORE" cache prune c --max-bytes 200000 >prune2
"$ASMSTORE" cache stats c >stats3
kept=$(awk '/^total/{print $7}' stats3)
if [ -n "$kept" ] && [ "$kept" -le 200000 ] && grep -q 'kept' prune2; then t_ok "cache prune --max-bytes"
else t_fail "cache prune --max-bytes" "$(cat prune2 stats3)"; fi

# past 16 staged files the writer consolidates them into one pack, which the next run's hits come from
mkdir -p many
for i in $(seq 1 20); do seq 1 $((i * 3000)) >"many/M$i.dll"; done
"$ASMSTORE" pack -o many.xaba --raw --target net11-preview --runtime monovm many/*.dll 2>/dev/null
"$ASMSTORE" load --cache cp many.xaba --all >/dev/null 2>pk1
"$ASMSTORE" load --cache cp many.xaba --all >pk2run 2>pk2
"$ASMSTORE" cache stats cp >pkstats
if grep -q '20 misses.*1 packs written (20 images packed)' pk1 && grep -q '20 hits (20 from the pack)' pk2 &&
   [ "$(awk '{print $3}' pk2run | sort -u)" = hit ] && grep -q '^total: 1 store ids, 1 files' pkstats; then
  t_ok "load: 20 misses are packed into one file, the next run hits them all from it"
else t_fail "load: the pack" "$(cat pk1 pk2 pkstats)"; fi

if ! "$ASMSTORE" load --cache c s.xaba NoSuch.dll >/dev/null 2>&1 && ! "$ASMSTORE" load s.xaba >/dev/null 2>&1 &&
   ! "$ASMSTORE" cache prune "$T_TMP/none" >/dev/null 2>&1; then
  t_ok "unknown names, missing arguments and missing cache dirs fail"
else t_fail "error exits"; fi
t_done
