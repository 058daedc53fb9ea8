#!/usr/bin/env bash
# tests/t_cli_cache.sh - `asmstore load` and `asmstore cache prune|stats` on real files.
. "$(dirname "$0")/lib/lib.sh"
cd "$T_TMP" || exit 1
mkdir in
seq 1 60000 >in/Alpha.dll
seq 5 7 900000 >in/Beta.dll
head -c 40000 /dev/urandom >in/Gamma.dll
"$ASMSTORE" pack --no-check -o s.xaba --raw --target net11-preview --runtime monovm in/Alpha.dll in/Beta.dll in/Gamma.dll 2>/dev/null
"$ASMSTORE" pack --no-check -o v3.xaba --raw --target net11-preview --runtime monovm --format 3 in/Alpha.dll in/Beta.dll in/Gamma.dll 2>/dev/null
"$ASMSTORE" pack --no-check -o plain.xaba --raw --target net11-preview --runtime monovm --no-compress in/Alpha.dll 2>/dev/null

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

# one of each: the counters say "1 miss", "1 file written", "1 hit", not "1 misses", "1 hits"
"$ASMSTORE" load --cache c1 s.xaba Alpha >/dev/null 2>one1
"$ASMSTORE" load --cache c1 s.xaba Alpha >/dev/null 2>one2
if grep -q '^1 entry in .*: 0 hits (0 from the pack), 1 miss, 0 direct; cache on, 1 file written .*, 0 packs written (0 images packed), .*, 0 write failures$' one1 &&
   grep -q ': 1 hit (0 from the pack), 0 misses,' one2; then
  t_ok "load: one entry cold then warm: '1 miss', '1 file written', then '1 hit'"
else t_fail "load: singular counters" "$(cat one1 one2)"; fi

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
if grep -q 'removed 2 store dirs, 3 files' prune1 && grep -q '^total: 1 store id, 3 files' stats2; then t_ok "cache prune --keep"
else t_fail "cache prune --keep" "$(cat prune1 stats2)"; fi

"$ASMSTORE" cache prune c --max-bytes 200000 >prune2
"$ASMSTORE" cache stats c >stats3
kept=$(awk '/^total/{print $7}' stats3)
if [ -n "$kept" ] && [ "$kept" -le 200000 ] && grep -q 'kept' prune2; then t_ok "cache prune --max-bytes"
else t_fail "cache prune --max-bytes" "$(cat prune2 stats3)"; fi

# past 16 staged files the writer consolidates them into one pack, which the next run's hits come from
mkdir -p many
for i in $(seq 1 20); do seq 1 $((i * 3000)) >"many/M$i.dll"; done
"$ASMSTORE" pack --no-check -o many.xaba --raw --target net11-preview --runtime monovm many/*.dll 2>/dev/null
"$ASMSTORE" load --cache cp many.xaba --all >/dev/null 2>pk1
"$ASMSTORE" load --cache cp many.xaba --all >pk2run 2>pk2
"$ASMSTORE" cache stats cp >pkstats
if grep -q '20 misses.*1 pack written (20 images packed)' pk1 && grep -q '20 hits (20 from the pack)' pk2 &&
   [ "$(awk '{print $3}' pk2run | sort -u)" = hit ] && grep -q '^total: 1 store id, 1 file,' pkstats; then
  t_ok "load: 20 misses are packed into one file, the next run hits them all from it"
else t_fail "load: the pack" "$(cat pk1 pk2 pkstats)"; fi

if ! "$ASMSTORE" load --cache c s.xaba NoSuch.dll >/dev/null 2>&1 && ! "$ASMSTORE" load s.xaba >/dev/null 2>&1 &&
   ! "$ASMSTORE" cache prune "$T_TMP/none" >/dev/null 2>&1; then
  t_ok "unknown names, missing arguments and missing cache dirs fail"
else t_fail "error exits"; fi

# load reads every input info reads: a .NET 6-8 set (our --target net8 output) as its directory or
# one of its blobs, with --abi (0.6.0 said "I/O error" for the directory, "out of memory" for a blob)
mkdir -p v1/a64 v1/x64
seq 1 7000 >v1/a64/B.dll
seq 3 9000 >v1/x64/B.dll
"$ASMSTORE" pack --no-check --target net8 -o v1/set in/Alpha.dll --arch arm64 v1/a64/B.dll --arch x86_64 v1/x64/B.dll 2>/dev/null
"$ASMSTORE" load v1/set --abi arm64 --all >v1run 2>v1err; rc=$?
if [ $rc = 0 ] && grep -qx "Alpha $(stat -c %s in/Alpha.dll) miss [0-9a-f]*" v1run &&
   grep -qx "B $(stat -c %s v1/a64/B.dll) miss [0-9a-f]*" v1run && [ "$(wc -l <v1run)" = 2 ]; then
  t_ok "load: a .NET 6-8 set directory, --abi arm64: store 0's entry and arm64's"
else t_fail "load: set directory" "rc $rc: $(cat v1run v1err)"; fi
"$ASMSTORE" load --abi x86_64 v1/set B >v1run 2>v1err; rc=$?
if [ $rc = 0 ] && grep -qx "B $(stat -c %s v1/x64/B.dll) miss [0-9a-f]*" v1run; then t_ok "load --abi x86_64: that ABI's entry"
else t_fail "load --abi x86_64" "rc $rc: $(cat v1run v1err)"; fi
"$ASMSTORE" load v1/set --all >v1run 2>v1err; rc=$?
if [ $rc = 0 ] && [ "$(wc -l <v1run)" = 2 ] && grep -q 'holds stores for 2 ABIs: loading .*--abi picks another' v1err; then
  t_ok "load without --abi on a two-ABI set: one ABI's stores, saying which"
else t_fail "load: two-ABI set" "rc $rc: $(cat v1run v1err)"; fi
"$ASMSTORE" load v1/set/assemblies.blob Alpha.dll >v1run 2>v1err; rc=$?
if [ $rc = 0 ] && grep -qx "Alpha $(stat -c %s in/Alpha.dll) miss [0-9a-f]*" v1run; then t_ok "load: one blob of a set (store 0), by name"
else t_fail "load: assemblies.blob" "rc $rc: $(cat v1run v1err)"; fi
"$ASMSTORE" load v1/set --abi mips --all >/dev/null 2>v1err; rc=$?
"$ASMSTORE" load s.xaba --abi x86 --all >/dev/null 2>v1err2; rc2=$?
"$ASMSTORE" load v1/none --all >/dev/null 2>v1err3; rc3=$?
if [ $rc = 2 ] && grep -q 'unknown ABI' v1err && [ $rc2 = 1 ] && grep -q 'no assembly store found for that ABI' v1err2 &&
   [ $rc3 = 2 ] && grep -q 'No such file' v1err3; then
  t_ok "load: an unknown ABI (2), an ABI the store lacks (1), a missing path (2), each saying so"
else t_fail "load: error exits" "$rc $rc2 $rc3: $(cat v1err v1err2 v1err3)"; fi

# a set with one damaged file: that file is said and skipped, the others load. Damaged so: store 0's
# first descriptor's data offset 0xfffffff0 (0.6's load read past its mapping: SIGSEGV), the x86_64
# store's entry count 0xfffffffe (it sized per-entry state from it: 21 GB; here out of memory under
# ulimit -v). --json stays one document with the "stores" loaded and the first failure in "error".
broken_set() { # DIR FILE OFFSET BYTES
  rm -rf "$1"; cp -r v1/set "$1"; chmod -R u+w "$1"
  printf "$4" | dd of="$1/$2" bs=1 seek="$3" conv=notrunc 2>/dev/null
}
broken_set v1/bad-offset assemblies.blob 20 '\xf0\xff\xff\xff'
broken_set v1/bad-count assemblies.x86_64.blob 8 '\xfe\xff\xff\xff'
load_bounded() { (ulimit -v 1000000; timeout 60 "$ASMSTORE" load "$@"); }
for bad in bad-offset:assemblies.blob:'^B [0-9]* miss ' bad-count:assemblies.x86_64.blob:'^Alpha [0-9]* miss '; do
  IFS=: read -r dir file loaded <<<"$bad"
  load_bounded --abi x86_64 --all "v1/$dir" >bad.out 2>bad.err; rc=$?
  load_bounded --json --abi x86_64 --all "v1/$dir" >bad.json 2>/dev/null; jrc=$?
  if [ $rc = 1 ] && grep -q "$file (.*): .*the store is damaged" bad.err && grep -q "$loaded" bad.out &&
     [ "$(wc -l <bad.out)" = 1 ] && [ $jrc = 1 ] &&
     python3 -c 'import json,sys; d=json.load(open("bad.json")); e=d["error"]; assert len(d["stores"]) == 1 and len(d["stores"][0]["entries"]) == 1 and e["status"] == 1 and sys.argv[1] in e["message"], d' "$file"; then
    t_ok "load: a .NET 6-8 set with $file damaged ($dir): said and skipped, the other store loads, --json one document"
  else t_fail "load: set with $file damaged" "rc $rc json $jrc: $(cat bad.out bad.err bad.json | head -c 1500)"; fi
done

# the real .NET 8 samples: the razr set's directory and its store 0 blob (LZ4 images: the header's decoder)
razr=$SAMPLES/v1-razr-pointcrep
if [ ! -d "$razr" ]; then t_skip "load: real .NET 8 sets" "no $razr"
else
  "$ASMSTORE" load "$razr" --all >rz1 2>rze1; rc1=$?
  "$ASMSTORE" load "$razr/base_assemblies.blob" --all >rz2 2>rze2; rc2=$?
  if [ $rc1 = 0 ] && [ "$(wc -l <rz1)" = 25 ] && grep -q '^System.Private.CoreLib 1451008 miss ' rz1 &&
     [ $rc2 = 0 ] && [ "$(wc -l <rz2)" = 24 ]; then
    t_ok "load: the razr .NET 8 set (25 entries) and its base_assemblies.blob (24)"
  else t_fail "load: razr samples" "$rc1 $rc2: $(head -3 rze1 rze2)"; fi
fi

# a store of 200,000 entries past vm.max_map_count printed a line for each of ~121k failures: load names
# the first 10 and counts the rest (more images than mappings is test_cache's test_more_images_than_mappings)
# shellcheck disable=SC2046
"$ASMSTORE" load s.xaba $(seq -f 'No%g.dll' 1 15) Alpha.dll >many1 2>manye1; rc=$?
if [ $rc = 1 ] && [ "$(grep -c ': not found' manye1)" = 10 ] && grep -q '^Alpha.dll ' many1 &&
   grep -q '^asmstore: 5 more entries failed to load (15 of 16 in all; the first 10 are named above)$' manye1; then
  t_ok "load: the first 10 failures are named, the rest counted in one line"
else t_fail "load: many failures" "$rc: $(cat manye1)"; fi
t_done
