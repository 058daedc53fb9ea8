#!/usr/bin/env bash
# Every released store layout, written and checked by the independent implementation
# (tests/lib/indep_store.py, from docs/store-releases.md / docs/store-format.md only; hashes by python3-xxhash
# and zlib, LZ4 blocks by python3-lz4, frames by python3-zstandard), then read by asmstore.
#   A. independent: the real samples reproduce EXPECTED.json; .NET 6-8 (format 1) sets for 1 and 4 ABIs
#      with and without the manifest; CRC-32 format 2/3 stores on every ABI; .NET 11 GA CoreCLR stores
#      with no .ni.dll twins (a real Real.ni.dll an ordinary entry) and CRC-32 ones with twins; 9-byte XXH32 vs CRC-32 on
#      32-bit ABIs told apart from the bytes; padded stores; XALZ stores (blocks also decoded by the lz4
#      CLI); the checker fails on damaged stores.
#   B. asmstore: verify + extract of every store of A (v1: each .blob file, named from the manifest beside
#      it), byte-identical to the sources; without a manifest names are unknown, so bytes are compared.
. "$(dirname "$0")/lib/lib.sh"
PY=/usr/bin/python3
IND="$TOP/tests/lib/indep_store.py"
if ! $PY -c 'import xxhash, zstandard, lz4.block' 2>/dev/null; then
  t_skip "independent implementation" "needs python3-xxhash, python3-zstandard and python3-lz4 (Debian)"; t_done; exit; fi
ind() { $PY "$IND" "$@"; }
declare -A ANDROID=([arm64]=arm64-v8a [arm]=armeabi-v7a [x86_64]=x86_64 [x86]=x86)
declare -A UNDERSCORED=([arm64]=arm64_v8a [arm]=armeabi_v7a [x86_64]=x86_64 [x86]=x86)
ABIS="arm64 arm x86_64 x86"
# t_run NAME CMD...: passes when CMD exits 0; on failure shows the checker's problems
t_run() { local n=$1; shift; if "$@" >"$T_TMP/out" 2>&1; then t_ok "$n: $(tail -1 "$T_TMP/out" | sed "s|$T_TMP/||g")"
  else t_fail "$n" "$(grep -m5 -e problem -e FAIL -e Error "$T_TMP/out"; tail -1 "$T_TMP/out")"; fi; }
# t_refuse NAME CMD...: passes when CMD exits 1 (the checker found the damage)
t_refuse() { local n=$1; shift; "$@" >"$T_TMP/out" 2>&1; local rc=$?
  if [ $rc = 1 ]; then t_ok "$n: $(grep -m1 '^  problem:' "$T_TMP/out" | sed 's/^ *//')"; else t_fail "$n" "exit $rc: $(tail -2 "$T_TMP/out")"; fi; }
u32() { od -An -tu4 -j"$2" -N4 "$1" | tr -d ' '; }
poke() { printf "\\x$3" | dd of="$1" bs=1 seek="$2" conv=notrunc status=none; }

# ---- sources: a flat directory for formats 2/3; a tree for format 1 (common, satellites, per ABI) ----
src="$T_TMP/src"; v1src="$T_TMP/v1src"; mkdir -p "$src" "$v1src/fr" "$v1src/de"
if [ -d "$MONO45/Facades" ]; then cp -L "$MONO45"/Facades/*.dll "$src/"; corpus="Mono Facades"
else for i in $(seq 1 40); do t_pe "$src/Blob$i.dll" $((i * 997)); done; corpus="minimal assemblies"; fi
n=$(ls "$src" | wc -l)
set -- "$src"/*.dll
cp "$src"/*.dll "$v1src/"; rm "$v1src/$(basename "$1")" "$v1src/$(basename "$2")"
cp "$3" "$v1src/fr/App.resources.dll"; cp "$4" "$v1src/de/App.resources.dll"
printf '<configuration><runtime/></configuration>\n' >"$v1src/$(basename "$5").config"
arch_names="$(basename "$1") $(basename "$2") System.Private.CoreLib.dll"
for abi in $ABIS; do d="$v1src/${ANDROID[$abi]}"; mkdir -p "$d"
  { cat "$1"; echo "$abi"; } >"$d/$(basename "$1")"; { cat "$2"; echo "$abi"; } >"$d/$(basename "$2")"
  { cat "$3"; echo "$abi"; } >"$d/System.Private.CoreLib.dll"
  printf '<configuration abi="%s"/>\n' "$abi" >"$d/System.Private.CoreLib.dll.config"; done
echo "sources: $n $corpus; format 1 tree: common + fr/de satellites + 3 per-ABI assemblies with configs"

# ===================== A. the independent implementation =====================
echo "-- A. independent writer and checker --"
if [ -f "$SAMPLES/EXPECTED.json" ]; then
  t_run "real samples: v1 sets, v3 stores and XALZ slices reproduce EXPECTED.json" ind sample-check "$SAMPLES"
else t_skip "real samples" "$SAMPLES absent (set SAMPLES=/path/to/assembly-store-samples)"; fi

V1_SETS=""   # dir:abis:manifest
for abis in $ABIS arm64,arm,x86_64,x86; do
  for man in manifest no-manifest; do
    d="$T_TMP/v1/$abis.$man"; prefix=assemblies; [ $man = no-manifest ] && prefix=base_assemblies
    if ind write-v1 "$d" $prefix "$abis" "$v1src" $([ $man = no-manifest ] && echo --no-manifest) >"$T_TMP/out" 2>&1; then
      V1_SETS="$V1_SETS $d:$abis:$man"
      t_run "v1 set $abis ($man, $(ls "$d" | tr '\n' ' '))" ind check-v1 "$d" "$v1src"
    else t_fail "independent v1 writer $abis $man" "$(tail -3 "$T_TMP/out")"; fi
  done
done
t_run "v1 set arm64 with every file of it named instead of the directory" ind check-v1 "$T_TMP/v1/arm64.manifest/assemblies.arm64_v8a.blob" "$v1src"
ind write-v1 "$T_TMP/v1/plain" assemblies arm64 "$v1src" --compression none >/dev/null && V1_SETS="$V1_SETS $T_TMP/v1/plain:arm64:manifest"
t_run "v1 set arm64, images uncompressed" ind check-v1 "$T_TMP/v1/plain" "$v1src"
t_run "v1 XALZ blocks (4 ABIs) also decode with the lz4 CLI" ind lz4-cli "$T_TMP"/v1/arm64,arm,x86_64,x86.manifest/*.blob

STORES=""   # files for group B
add() { STORES="$STORES $1"; }
for abi in $ABIS; do
  for fmt in 2 3; do s="$T_TMP/crc.v$fmt.$abi"
    ind write "$s" $fmt $abi coreclr "$src"/*.dll --hash crc32 && add "$s"
    t_run "CRC-32 v$fmt $abi" ind check "$s" "$src" --hash crc32
  done
done
# .NET 11 GA CoreCLR (v3, CRC-32) has no .ni.dll twins, so a real X.ni.dll is an ordinary entry; the
# twins of .NET 10 / 11 previews' CoreCLR, on a CRC-32 v3 store too, are read past by asmstore
nisrc="$T_TMP/nisrc"; mkdir -p "$nisrc"; cp "$src"/*.dll "$nisrc/"; cp "$1" "$nisrc/Real.ni.dll"
for abi in arm64 x86; do
  s="$T_TMP/ga.$abi"; ind write "$s" 3 $abi coreclr "$nisrc"/*.dll --hash crc32
  if ind check "$s" "$nisrc" --hash crc32 >"$T_TMP/out" 2>&1 && grep -q ", $((n + 1)) entries, " "$T_TMP/out"; then
    t_ok "GA CoreCLR v3 $abi (CRC-32): $((n + 1)) entries, no twins, Real.ni.dll ordinary"
  else t_fail "GA CoreCLR v3 $abi" "$(tail -2 "$T_TMP/out")"; fi
  rm -rf "$T_TMP/x"
  if "$ASMSTORE" verify "$s" >/dev/null 2>&1 && "$ASMSTORE" extract "$s" -C "$T_TMP/x" >/dev/null 2>&1 &&
     cmp -s "$1" "$T_TMP/x/Real.ni.dll" && [ "$(ls "$T_TMP/x" | wc -l)" = $((n + 1)) ]; then
    t_ok "asmstore verify + extract GA CoreCLR v3 $abi: Real.ni.dll comes back, every entry a file"
  else t_fail "asmstore on GA CoreCLR v3 $abi" "$(ls "$T_TMP/x" 2>&1 | head -3)"; fi
  s="$T_TMP/twins.$abi"; ind write "$s" 3 $abi coreclr "$src"/*.dll --hash crc32 --twins yes && add "$s"
  t_run "CRC-32 v3 $abi with .ni.dll twins (--twins yes)" ind check "$s" "$src" --hash crc32
done
for abi in arm x86; do
  ind write "$T_TMP/xxh32.$abi" 3 $abi monovm "$src"/*.dll && add "$T_TMP/xxh32.$abi"
  t_run "9-byte $abi store with XXH32: found from the bytes" ind check "$T_TMP/xxh32.$abi" "$src" --hash xxh32
  ind write "$T_TMP/crc9.$abi" 3 $abi monovm "$src"/*.dll --hash crc32 && add "$T_TMP/crc9.$abi"
  t_run "9-byte $abi store with CRC-32: found from the bytes" ind check "$T_TMP/crc9.$abi" "$src" --hash crc32
  t_refuse "9-byte $abi XXH32 store is not taken for CRC-32" ind check "$T_TMP/xxh32.$abi" "$src" --hash crc32
  t_refuse "9-byte $abi CRC-32 store is not taken for XXH32" ind check "$T_TMP/crc9.$abi" "$src" --hash xxh32
done
declare -A ALIGN=([arm64]=16384 [arm]=4096 [x86_64]=64 [x86]=16)
for abi in $ABIS; do s="$T_TMP/pad.$abi"; a=${ALIGN[$abi]}
  ind write "$s" 3 $abi monovm "$src"/*.dll --align-images $a && add "$s"
  t_run "padded v3 $abi store (xxHash), images aligned to $a" ind check "$s" "$src" --align $a
done
for abi in $ABIS; do
  for fmt in 2 3; do s="$T_TMP/xalz.v$fmt.$abi"
    ind write "$s" $fmt $abi monovm "$src"/*.dll --compression lz4 && add "$s"
    t_run "XALZ v$fmt $abi store" ind check "$s" "$src"
    t_run "XALZ v$fmt $abi blocks also decode with the lz4 CLI" ind lz4-cli "$s"
  done
done

# the checkers can fail: damaged copies
cp "$T_TMP/pad.arm" "$T_TMP/bad"; do0=$(u32 "$T_TMP/bad" $((20 + $(u32 "$T_TMP/bad" 16) + 4)))
poke "$T_TMP/bad" $((do0 - 1)) 01
t_refuse "damaged padded store (a non-zero padding byte) is refused" ind check "$T_TMP/bad" "$src"
cp "$T_TMP/crc.v3.arm64" "$T_TMP/bad"; poke "$T_TMP/bad" 21 ff
t_refuse "damaged CRC-32 store (one index hash) is refused" ind check "$T_TMP/bad" "$src"
cp "$T_TMP/pad.arm" "$T_TMP/bad"
t_refuse "padded store is refused when no padding is allowed (--packed)" ind check "$T_TMP/bad" "$src" --packed
bad1="$T_TMP/v1bad"
cp -r "$T_TMP/v1/arm64,arm,x86_64,x86.manifest" "$bad1"
$PY -c 'import sys; p = sys.argv[1]; L = open(p).read().split("\n"); L[1] = L[1][:2] + ("1" if L[1][2] == "0" else "0") + L[1][3:]; open(p, "w").write("\n".join(L))' "$bad1/assemblies.manifest"
t_refuse "v1 set with a damaged manifest hash is refused" ind check-v1 "$bad1" "$v1src"
rm -rf "$bad1"; cp -r "$T_TMP/v1/arm64,arm,x86_64,x86.manifest" "$bad1"
f="$bad1/assemblies.blob"; poke "$f" $(($(u32 "$f" 20) + 6)) 7f
t_refuse "v1 set with a wrong XALZ descriptor index is refused (§3.2 order)" ind check-v1 "$bad1" "$v1src"
rm -rf "$bad1"; cp -r "$T_TMP/v1/arm64,arm,x86_64,x86.manifest" "$bad1"
f="$bad1/assemblies.x86.blob"; poke "$f" $(($(stat -c %s "$f") - 1)) 0a
t_refuse "v1 set whose config data lost its NUL is refused" ind check-v1 "$bad1" "$v1src"
rm -rf "$bad1"; cp -r "$T_TMP/v1/arm64.manifest" "$bad1"
f="$bad1/assemblies.blob"; poke "$f" $((20 + 24 * $(u32 "$f" 8) + 10)) fe
t_refuse "v1 set with a damaged hash32 row (mapping index) is refused" ind check-v1 "$bad1" "$v1src"
A_PASS=$T_PASS; A_FAIL=$T_FAIL

# ===================== B. asmstore on the same stores =====================
echo "-- B. asmstore verify + extract on the independent stores --"
# same_as DIR REL=SRC...: every REL under DIR equals SRC
same_as() { local d=$1 bad=""; shift
  for p in "$@"; do cmp -s "$d/${p%%=*}" "${p#*=}" || bad="$bad ${p%%=*}"; done
  [ -z "$bad" ] || { echo "missing or different:$(echo $bad | cut -d' ' -f1-5)"; return 1; }; }
# same_content DIR SRC...: the extracted files hold exactly the sources' bytes (names unknown without a manifest)
same_content() { local d=$1; shift
  diff <(find "$d" -type f -name '*.dll' -exec sha256sum {} + | cut -d' ' -f1 | sort) <(sha256sum "$@" | cut -d' ' -f1 | sort) >/dev/null ||
    { echo "extracted bytes differ from the sources"; return 1; }; }
# b_store NAME STORE CHECK...: verify, extract, then CHECK DIR ...
b_store() { local n=$1 s=$2; shift 2; rm -rf "$T_TMP/x"
  if ! "$ASMSTORE" verify "$s" >"$T_TMP/out" 2>&1; then t_fail "asmstore verify $n" "$(tail -2 "$T_TMP/out")"; return; fi
  if ! "$ASMSTORE" extract "$s" -C "$T_TMP/x" >"$T_TMP/out" 2>&1; then t_fail "asmstore extract $n" "$(tail -2 "$T_TMP/out")"; return; fi
  local why; if why=$("$@" "$T_TMP/x" 2>&1); then t_ok "asmstore verify + extract $n: byte-identical"
  else t_fail "asmstore extract $n" "$why"; fi; }
flat_pairs() { for f in "$src"/*.dll; do printf '%s=%s\n' "$(basename "$f")" "$f"; done; }
mapfile -t FLAT < <(flat_pairs)
flat_check() { same_as "$1" "${FLAT[@]}"; }
for s in $STORES; do b_store "$(basename "$s")" "$s" flat_check; done

common_pairs() { local f; for f in "$v1src"/*.dll "$v1src"/*.config "$v1src"/fr/*.dll "$v1src"/de/*.dll; do printf '%s=%s\n' "${f#"$v1src"/}" "$f"; done; }
mapfile -t COMMON < <(common_pairs)
common_check() { same_as "$1" "${COMMON[@]}"; }
common_content() { local c=("${COMMON[@]#*=}"); same_content "$1" "${c[@]/*.config/}"; }
for set in $V1_SETS; do
  d=${set%%:*}; rest=${set#*:}; abis=${rest%%:*}; man=${rest#*:}; prefix=$(cd "$d" && ls *.blob | grep -v '\..*\.blob' | sed 's/\.blob$//')
  if [ "$man" = manifest ]; then b_store "v1 $(basename "$d") $prefix.blob" "$d/$prefix.blob" common_check
  else b_store "v1 $(basename "$d") $prefix.blob (no manifest: compared by content)" "$d/$prefix.blob" common_content; fi
  for abi in ${abis//,/ }; do
    A=${ANDROID[$abi]}
    arch_check() { local p=() x; for x in $arch_names; do p+=("$x=$v1src/$A/$x"); done; same_as "$1" "${p[@]}"; }
    arch_content() { local p=() x; for x in $arch_names; do p+=("$v1src/$A/$x"); done; same_content "$1" "${p[@]}"; }
    f="$d/$prefix.${UNDERSCORED[$abi]}.blob"
    if [ "$man" = manifest ]; then b_store "v1 $(basename "$d") $(basename "$f")" "$f" arch_check
    else b_store "v1 $(basename "$d") $(basename "$f") (no manifest: compared by content)" "$f" arch_content; fi
  done
done
echo "group A (independent implementation): $A_PASS passed, $A_FAIL failed"
echo "group B (asmstore on the independent stores): $((T_PASS - A_PASS)) passed, $((T_FAIL - A_FAIL)) failed"
t_done
