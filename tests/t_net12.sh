#!/usr/bin/env bash
# tests/t_net12.sh - what dotnet/android main (.NET 12, not yet released) changes, through the CLI:
# two names of one CRC-32 through pack, list, extract, load, verify and repack on every CRC-32 target;
# verify refusing what the CoreCLR host aborts on (a mapping_index at entry_count, two images of
# one descriptor_index); pack --target net12 byte for byte as AssemblyStoreElfWriter lays it out
# (tests/lib/net12_elf.py, written from docs/elf-so.md §3.1) on every ABI, read back by info, verify,
# extract, elfcheck and readelf, loaded by glibc (x86_64 natively, arm64 at 4 and 16 KiB pages and x86
# under qemu; arm, whose soft-float e_flags armhf glibc refuses, only read); an APK of .NET 12 stores
# (no libxamarin-app.so) grown and --added by repack.
. "$(dirname "$0")/lib/lib.sh"

# Two names of one CRC-32 (a birthday search: CRC-32 is linear, so every character varies), each
# with ".dll": equal lengths, one suffix, so both with and without ".dll" collide.
read -r NA NB < <(python3 -c '
import zlib
a = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
seen, x = {}, 1
while True:
    y, s = x, ""
    for _ in range(8): s += a[y % 62]; y //= 62
    x = (x * 6364136223846793005 + 1442695040888963407) % 2**64
    n = "Lib" + s
    c = zlib.crc32(n.encode())
    if c in seen and seen[c] != n: print(seen[c] + ".dll", n + ".dll"); break
    seen[c] = n')
if [ "$(python3 -c 'import sys, zlib; print(len({zlib.crc32(n.encode()) for n in sys.argv[1:]}))' "$NA" "$NB")" = 1 ]
then t_ok "two names of one CRC-32: $NA $NB"; else t_fail "no CRC-32 collision found"; fi
mkdir -p "$T_TMP/in" "$T_TMP/new"
t_pe --fill "one " "$T_TMP/in/$NA" 900 "$T_TMP/in/$NB" 1200 "$T_TMP/in/Other.dll" 800
t_pe --fill "new " "$T_TMP/new/$NB" 1500

for tg in net11 net11-preview net12; do
  s="$T_TMP/$tg.so"
  if "$ASMSTORE" pack -o "$s" --target $tg --level 1 "$T_TMP/in" 2>"$T_TMP/err" &&
     [ "$("$ASMSTORE" list "$s" | grep -c "$NA\|$NB")" = 2 ]
  then t_ok "$tg: pack and list keep both colliding names"; else t_fail "$tg: pack/list" "$(cat "$T_TMP/err")"; fi
  t_check "$tg: verify finds each by its own name" "$ASMSTORE" verify "$s"
  # load asks by name, with and without ".dll": each gets its own image (900 and 1200 bytes)
  if "$ASMSTORE" load "$s" "$NA" "${NB%.dll}" >"$T_TMP/out" 2>/dev/null &&
     grep -q "^$NA 900 " "$T_TMP/out" && grep -q "^$NB 1200 " "$T_TMP/out"
  then t_ok "$tg: load finds each colliding name"; else t_fail "$tg: load" "$(cat "$T_TMP/out")"; fi
  rm -rf "$T_TMP/x"
  if "$ASMSTORE" extract "$s" -C "$T_TMP/x" >/dev/null 2>&1 &&
     cmp -s "$T_TMP/x/$NA" "$T_TMP/in/$NA" && cmp -s "$T_TMP/x/$NB" "$T_TMP/in/$NB"
  then t_ok "$tg: extract gives each colliding name its own bytes"; else t_fail "$tg: extract"; fi
  rm -rf "$T_TMP/x"
  if "$ASMSTORE" repack "$s" -o "$T_TMP/$tg-re.so" --replace "$NB=$T_TMP/new/$NB" >/dev/null 2>&1 &&
     "$ASMSTORE" verify "$T_TMP/$tg-re.so" >/dev/null &&
     "$ASMSTORE" extract "$T_TMP/$tg-re.so" -C "$T_TMP/x" >/dev/null 2>&1 &&
     cmp -s "$T_TMP/x/$NB" "$T_TMP/new/$NB" && cmp -s "$T_TMP/x/$NA" "$T_TMP/in/$NA"
  then t_ok "$tg: repack replaces one of the pair, the other kept"; else t_fail "$tg: repack"; fi
done

# --- what the runtime aborts on: verify refuses it (the reader still opens the store)
python3 - "$T_TMP/net11.so" "$T_TMP" <<'EOF'
import struct, sys
src = open(sys.argv[1], "rb").read(); P = 16384; st = src[P:]
n, isz = struct.unpack_from("<I", st, 8)[0], struct.unpack_from("<I", st, 16)[0]
d = 20 + isz
def desc(i, k): return struct.unpack_from("<I", st, d + 28 * i + 4 * k)[0]
b = bytearray(src); struct.pack_into("<I", b, P + d + 28, n)
open(sys.argv[2] + "/mapping.so", "wb").write(b)
b = bytearray(src); o0, o2 = desc(0, 1), desc(2, 1)
b[P + o2 + 4:P + o2 + 8] = st[o0 + 4:o0 + 8]
open(sys.argv[2] + "/shared-index.so", "wb").write(b)
EOF
"$ASMSTORE" verify "$T_TMP/mapping.so" >"$T_TMP/out" 2>&1; rc=$?
if [ $rc = 1 ] && grep -q "entry 1 .*mapping_index not below the store's entry count" "$T_TMP/out"
then t_ok "verify refuses a mapping_index equal to entry_count"; else t_fail "verify mapping_index" "rc=$rc $(cat "$T_TMP/out")"; fi
"$ASMSTORE" verify "$T_TMP/shared-index.so" >"$T_TMP/out" 2>&1; rc=$?
if [ $rc = 1 ] && grep -q "entry 2 .*another compressed image has this descriptor_index.*: entry 0" "$T_TMP/out"
then t_ok "verify refuses two images of one descriptor_index"; else t_fail "verify descriptor_index" "rc=$rc $(cat "$T_TMP/out")"; fi
t_check "list still reads the store the runtime would abort on" "$ASMSTORE" list "$T_TMP/shared-index.so"

# --- pack --target net12: AssemblyStoreElfWriter's .so, read back by every command
have() { command -v "$1" >/dev/null 2>&1; }
for abi in arm64 arm x86_64 x86; do
  so="$T_TMP/n12-$abi.so"
  "$ASMSTORE" pack -o "$so" --target net12 --abi $abi --level 1 "$T_TMP/in" 2>/dev/null &&
  "$ASMSTORE" pack --raw -o "$T_TMP/n12-$abi.raw" --target net12 --abi $abi --level 1 "$T_TMP/in" 2>/dev/null &&
  python3 "$TOP/tests/lib/net12_elf.py" $abi "$T_TMP/n12-$abi.raw" "$T_TMP/n12-$abi.py.so"
  t_check "$abi: pack --target net12 == AssemblyStoreElfWriter's layout for the same store (net12_elf.py)" cmp "$so" "$T_TMP/n12-$abi.py.so"
  "$ASMSTORE" info "$so" >"$T_TMP/info" 2>&1
  if grep -q "^layout: .*: the .NET 12 CoreCLR layout (dotnet/android main)$" "$T_TMP/info" &&
     grep -q "^runtime: *CoreCLR$" "$T_TMP/info" && grep -q "^app library: *none: the .NET 12" "$T_TMP/info" &&
     ! grep -q "none found" "$T_TMP/info"
  then t_ok "$abi: info names the .NET 12 layout and needs no app library"; else t_fail "$abi: info" "$(cat "$T_TMP/info")"; fi
  t_check "$abi: elfcheck (bionic rules; 32-bit ABIs on 4 KiB pages)" "$ASMSTORE" elfcheck --abi $abi "$so"
  t_check "$abi: verify" "$ASMSTORE" verify "$so"
  rm -rf "$T_TMP/x"
  if "$ASMSTORE" extract "$so" -C "$T_TMP/x" >/dev/null 2>&1 && cmp -s "$T_TMP/x/$NA" "$T_TMP/in/$NA" &&
     cmp -s "$T_TMP/x/Other.dll" "$T_TMP/in/Other.dll"
  then t_ok "$abi: extract"; else t_fail "$abi: extract"; fi
  if have readelf; then
    if readelf -hlSdW --dyn-syms "$so" >"$T_TMP/re" 2>&1 && ! grep -qi "warning\|error" "$T_TMP/re"; then t_ok "$abi: readelf clean"
    else t_fail "$abi: readelf" "$(grep -i "warning\|error" "$T_TMP/re" | head -3)"; fi
  fi
done
"$ASMSTORE" info "$T_TMP/net11.so" >"$T_TMP/info" 2>&1
if grep -q "the .NET 11 GA CoreCLR layout$" "$T_TMP/info"; then t_ok "net11's own wrapper is not taken for the .NET 12 one"
else t_fail "net11 info" "$(grep layout "$T_TMP/info")"; fi
"$ASMSTORE" pack -o "$T_TMP/mono12.so" --target net12 --runtime monovm "$T_TMP/in" 2>"$T_TMP/err"; rc=$?
if [ $rc = 2 ] && grep -q "no monovm store exists for net12" "$T_TMP/err"; then t_ok "pack --target net12 --runtime monovm refused (Mono leaves .NET 12)"
else t_fail "net12 monovm" "rc=$rc $(cat "$T_TMP/err")"; fi

# glibc dlopen of stored net12 stores (the hosts read stored images only: no cross libzstd)
qemu_of() { case $1 in arm64) echo "qemu-aarch64 -L /usr/aarch64-linux-gnu";; x86) echo "qemu-i386 -L /usr/i686-linux-gnu";; *) echo "";; esac; }
for abi in x86_64 arm64 x86; do
  host="$BUILD/elf-host-$abi"; q=$(qemu_of $abi)
  if [ ! -x "$host" ]; then t_skip "$abi: net12 dlopen" "$host not built (make elf-hosts)"; continue; fi
  if [ -n "$q" ] && ! have "${q%% *}"; then t_skip "$abi: net12 dlopen" "${q%% *} not installed"; continue; fi
  "$ASMSTORE" pack -o "$T_TMP/d12-$abi.so" --target net12 --no-compress --abi $abi "$T_TMP/in" 2>/dev/null
  "$ASMSTORE" pack --raw -o "$T_TMP/d12-$abi.raw" --target net12 --no-compress --abi $abi "$T_TMP/in" 2>/dev/null
  pages="native"; [ $abi = arm64 ] && pages="native 4096 16384"
  for p in $pages; do
    run=$q; [ $p != native ] && run="${q%% *} -p $p ${q#* }"
    if $run "$host" dlopen "$T_TMP/d12-$abi.so" "$T_TMP/d12-$abi.raw" "$T_TMP/in" >"$T_TMP/h" 2>&1 &&
       grep -q "^3 entries read back byte-exact" "$T_TMP/h"
    then t_ok "$abi $p pages: glibc dlopen of the net12 .so, every entry byte-exact"; else t_fail "$abi $p: net12 dlopen" "$(tail -3 "$T_TMP/h")"; fi
  done
  if $q "$host" locate "$T_TMP/d12-$abi.so" "$T_TMP/d12-$abi.raw" "$T_TMP/in" >"$T_TMP/h" 2>&1 &&
     grep -q "^3 entries read back byte-exact" "$T_TMP/h"
  then t_ok "$abi: the file locator maps the net12 .so, every entry byte-exact"; else t_fail "$abi: net12 locate" "$(tail -3 "$T_TMP/h")"; fi
done

# --- an APK of .NET 12 stores has no libxamarin-app.so: repack grows a compressed entry (kept
# compressed: the runtime sizes it from its header) and --adds, patching no library
if command -v zip >/dev/null && command -v zipalign >/dev/null; then
  mkdir -p "$T_TMP/apk/lib/arm64-v8a" "$T_TMP/apk/lib/x86" "$T_TMP/big" "$T_TMP/add"
  cp "$T_TMP/n12-arm64.so" "$T_TMP/apk/lib/arm64-v8a/libassembly-store.so"
  cp "$T_TMP/n12-x86.so" "$T_TMP/apk/lib/x86/libassembly-store.so"
  echo '<manifest package="x"/>' >"$T_TMP/apk/AndroidManifest.xml"
  (cd "$T_TMP/apk" && zip -q -0 -r "$T_TMP/n12-0.apk" AndroidManifest.xml lib) && zipalign -f 16384 "$T_TMP/n12-0.apk" "$T_TMP/n12.apk"
  t_pe --fill "big " "$T_TMP/big/$NB" 30000
  t_pe --fill "add " "$T_TMP/add/Added.dll" 5000
  "$ASMSTORE" repack "$T_TMP/n12.apk" -o "$T_TMP/grown.apk" --replace "$NB=$T_TMP/big/$NB" >/dev/null 2>"$T_TMP/err"; rc=$?
  rm -rf "$T_TMP/x"
  if [ $rc = 0 ] && [ "$("$ASMSTORE" list "$T_TMP/grown.apk" | grep -c "30000 .* zstd $NB")" = 2 ] &&
     "$ASMSTORE" verify "$T_TMP/grown.apk" >/dev/null && "$ASMSTORE" extract "$T_TMP/grown.apk" -C "$T_TMP/x" >/dev/null 2>&1 &&
     cmp -s "$T_TMP/x/arm64-v8a/$NB" "$T_TMP/big/$NB" && cmp -s "$T_TMP/x/x86/$NA" "$T_TMP/in/$NA"
  then t_ok "repack grows a compressed entry of a .NET 12 APK, kept compressed, no app library"; else t_fail "net12 grow" "rc=$rc $(cat "$T_TMP/err")"; fi
  "$ASMSTORE" repack "$T_TMP/grown.apk" -o "$T_TMP/added.apk" --add "$T_TMP/add/Added.dll" >/dev/null 2>"$T_TMP/err"; rc=$?
  rm -rf "$T_TMP/x"
  if [ $rc = 0 ] && [ "$("$ASMSTORE" list "$T_TMP/added.apk" | grep -c " Added.dll$")" = 2 ] &&
     "$ASMSTORE" verify "$T_TMP/added.apk" >/dev/null && "$ASMSTORE" elfcheck "$T_TMP/added.apk" >/dev/null &&
     "$ASMSTORE" extract "$T_TMP/added.apk" -C "$T_TMP/x" >/dev/null 2>&1 && cmp -s "$T_TMP/x/x86/Added.dll" "$T_TMP/add/Added.dll" &&
     [ "$("$ASMSTORE" info "$T_TMP/added.apk" | grep -c "the .NET 12 CoreCLR layout (dotnet/android main)$")" = 2 ]
  then t_ok "repack --add into a .NET 12 APK: no library patch, verify and elfcheck pass, still the .NET 12 layout"
  else t_fail "net12 --add" "rc=$rc $(cat "$T_TMP/err")"; fi
  "$ASMSTORE" repack "$T_TMP/n12-x86.so" -o "$T_TMP/added.so" --add "$T_TMP/add/Added.dll" >/dev/null 2>"$T_TMP/err"; rc=$?
  if [ $rc = 0 ] && "$ASMSTORE" verify "$T_TMP/added.so" >/dev/null; then t_ok "repack --add into a .NET 12 .so of its own"
  else t_fail "net12 .so --add" "rc=$rc $(cat "$T_TMP/err")"; fi
else
  t_skip "net12 APK repack" "zip or zipalign not installed"
fi

# --remove: the .NET 12 host sizes its per-entry array by the store's count, so the entries after
# the removed one take mapping indices 0..n-1 again (they kept theirs, one past the array, before)
if [ -e "$MONO45/Accessibility.dll" ]; then
  mkdir -p "$T_TMP/rm"
  for f in Accessibility CustomMarshalers I18N.West; do cp -L "$MONO45/$f.dll" "$T_TMP/rm/"; done
  "$ASMSTORE" pack -o "$T_TMP/rm.so" --target net12 --abi x86_64 "$T_TMP/rm"/*.dll >/dev/null 2>&1
  "$ASMSTORE" repack "$T_TMP/rm.so" -o "$T_TMP/rm-out.so" --remove Accessibility.dll >/dev/null 2>&1
  t_check "repack --remove of a .NET 12 store: verify passes, mapping indices 0 and 1" \
      bash -c "'$ASMSTORE' verify '$T_TMP/rm-out.so' && '$ASMSTORE' list --json '$T_TMP/rm-out.so' |
               python3 -c 'import json,sys; d=json.load(sys.stdin); assert [e[\"mapping_index\"] for e in d[\"stores\"][0][\"entries\"]] == [0, 1], d'"
fi
t_done
