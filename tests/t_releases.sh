#!/usr/bin/env bash
# Every shipped release, read from any container (issue 10):
#   the real samples (format 1 sets with and without their manifest, format 3 stores): list, info,
#   verify, extract; every image's sha256 equals EXPECTED.json and every name the manifest's;
#   APKs and AABs built with the real zip (STORED + zipalign, and DEFLATEd) for each release's
#   paths, with 1 and 4 ABIs: extract gives the right bytes per ABI, a corrupted store of any ABI
#   makes verify exit 1 and name that ABI; --abi; info/list --json parse everywhere.
. "$(dirname "$0")/lib/lib.sh"
A=$ASMSTORE
json_ok() { python3 -m json.tool >/dev/null 2>&1; }
if [ ! -d "$SAMPLES" ]; then t_skip "real samples" "$SAMPLES absent"; t_done; exit; fi

# ---- the real format-1 sets, in place ----
# check_v1 DIR_EXTRACTED SAMPLE_DIR NAMED: every descriptor of every blob of the sample came out with
# the sha256 EXPECTED.json gives, under the manifest's name (NAMED=1) or its XXH64 hash (NAMED=0)
check_v1() {
  python3 - "$SAMPLES/EXPECTED.json" "$2" "$1" "$3" <<'EOF'
import hashlib, json, os, sys
exp, sample, out, named = json.load(open(sys.argv[1])), sys.argv[2], sys.argv[3], sys.argv[4] == "1"
bad = checked = 0
for key, v in exp.items():
    if not key.startswith(sample + "/"): continue
    blob = key.split("/")[1]
    abi = None
    for a, d in (("arm64_v8a", "arm64-v8a"), ("armeabi_v7a", "armeabi-v7a"), ("x86_64", "x86_64"), ("x86", "x86")):
        if blob.endswith("." + a + ".blob"): abi = d
    for i, d in enumerate(v["descriptors"]):
        names = [d["name_from_manifest"] + ".dll"] if named else [n for n in os.listdir(os.path.join(out, abi) if abi and os.path.isdir(os.path.join(out, abi)) else out) if n.startswith("xxh64-") or n.startswith("store")]
        cands = [os.path.join(out, abi, n) if abi and os.path.isdir(os.path.join(out, abi)) else os.path.join(out, n) for n in names]
        ok = any(os.path.isfile(p) and hashlib.sha256(open(p, "rb").read()).hexdigest() == d["uncompressed_sha256"] for p in cands)
        checked += 1
        if not ok: bad += 1; print("missing or different:", key, i, d.get("name_from_manifest"))
print("checked", checked)
sys.exit(1 if bad or checked == 0 else 0)
EOF
}
for s in v1-razr-pointcrep v1-expandroid; do
  dir="$SAMPLES/$s"
  rm -rf "$T_TMP/x"
  if "$A" extract "$dir" -C "$T_TMP/x" >"$T_TMP/out" 2>&1 && check_v1 "$T_TMP/x" "$s" 1 >"$T_TMP/py" 2>&1; then
    t_ok "$s (directory): extract names every image as the manifest does, sha256 = EXPECTED.json ($(tail -1 "$T_TMP/py"))"
  else t_fail "$s extract" "$(cat "$T_TMP/out" "$T_TMP/py" | tail -8)"; fi
  "$A" verify "$dir" >"$T_TMP/out" 2>&1; t_check "$s: verify exits 0 (every entry found by name and decompressed)" test $? = 0
  for b in "$dir"/*.blob; do
    nm=$(basename "$b")
    "$A" info "$b" >"$T_TMP/info" 2>&1 && grep -q "format 1" "$T_TMP/info" && grep -q "from assemblies.manifest" "$T_TMP/info"
    t_check "$s/$nm: info says format 1 and finds the manifest beside it" test $? = 0
    "$A" info --json "$b" | json_ok; t_check "$s/$nm: info --json parses" test $? = 0
    "$A" list --json "$b" | json_ok; t_check "$s/$nm: list --json parses" test $? = 0
    # the names list shows are exactly the manifest's rows for this file
    python3 - "$SAMPLES/EXPECTED.json" "$s/$nm" <(("$A" list --json "$b")) <<'EOF' >"$T_TMP/py" 2>&1
import json, sys
exp = json.load(open(sys.argv[1]))[sys.argv[2]]; got = json.load(open(sys.argv[3]))
want = [d["name_from_manifest"] + ".dll" for d in exp["descriptors"]]
have = [e["name"] for s in got["stores"] for e in s["entries"]]
print(have[:3]); sys.exit(0 if want == have else 1)
EOF
    t_check "$s/$nm: list shows the manifest's names in descriptor order" test $? = 0
  done
  # without the manifest: the same blobs (symlinked, not copied) are listed and extracted by hash
  mkdir -p "$T_TMP/noman-$s"; for b in "$dir"/*.blob; do ln -sf "$b" "$T_TMP/noman-$s/"; done
  rm -rf "$T_TMP/y"
  first=$(ls "$T_TMP/noman-$s"/*.blob | head -1)
  "$A" list "$first" >"$T_TMP/list" 2>&1
  if "$A" extract "$T_TMP/noman-$s" -C "$T_TMP/y" >"$T_TMP/out" 2>&1 && grep -q "XXH64 hash" "$T_TMP/out" && check_v1 "$T_TMP/y" "$s" 0 >"$T_TMP/py" 2>&1 &&
     grep -q "no assemblies.manifest" "$T_TMP/list"; then
    t_ok "$s without its manifest: list says so, extract names files after their hash and says so, bytes = EXPECTED.json"
  else t_fail "$s without manifest" "$(cat "$T_TMP/out" "$T_TMP/py" "$T_TMP/list" | tail -8)"; fi
done
# lookups through store 0's XXH64 table (razr has one): CoreLib lives in the arm64 file
rm -rf "$T_TMP/one"
"$A" extract "$SAMPLES/v1-razr-pointcrep" -C "$T_TMP/one" System.Private.CoreLib System.Runtime.dll >"$T_TMP/out" 2>&1 &&
  [ -f "$T_TMP/one/System.Private.CoreLib.dll" ] && [ -f "$T_TMP/one/System.Runtime.dll" ]
t_check "format 1 lookup by name (with or without .dll) through the XXH64 table" test $? = 0
"$A" extract "$SAMPLES/v1-razr-pointcrep" -C "$T_TMP/one" No.Such.Assembly >"$T_TMP/out" 2>&1
t_check "format 1: a name in no store exits 1" test $? = 1

# ---- every sample: JSON parses, the release is named ----
for f in "$SAMPLES"/v3-*/*/assembly-store.so; do
  "$A" info --json "$f" | json_ok && "$A" list --json "$f" | json_ok
  t_check "$(basename "$(dirname "$f")") v3 sample: info/list --json parse" test $? = 0
  "$A" info "$f" | grep -q "format 3, XXH3-64 index, no wrapper: the .NET 10 layout"
  t_check "$(basename "$(dirname "$f")") v3 sample: info names the .NET 10 layout" test $? = 0
  "$A" info "$f" | grep -q "^runtime: *MonoVM$"
  t_check "$(basename "$(dirname "$f")") v3 sample: MonoVM (xxHash, no ignored .ni.dll twins)" test $? = 0
done

# ---- archives: each release's paths, 1 and 4 ABIs, STORED+zipalign and DEFLATEd ----
if ! command -v zip >/dev/null || ! command -v zipalign >/dev/null; then
  t_skip "archives" "zip/zipalign not installed"; t_done; exit; fi
src="$T_TMP/src"; mkdir -p "$src"
for f in "$MONO45"/Facades/System.Runtime.dll "$MONO45"/Facades/System.Collections.dll "$MONO45"/System.Xml.dll; do [ -f "$f" ] && cp "$f" "$src/"; done
[ "$(ls "$src" | wc -l)" -gt 0 ] || for i in 1 2 3; do t_pe "$src/Blob$i.dll" $((i * 5000)); done
ABIS="arm64-v8a armeabi-v7a x86_64 x86"
for abi in $ABIS; do "$A" pack --raw --format 3 --abi "$abi" -o "$T_TMP/store-$abi" "$src" >/dev/null 2>&1; done
# make_archive OUT MODE(stored|deflated) LAYOUT(new|blobso|aab-new|aab-blobso) ABIS...
make_archive() {
  local out=$1 mode=$2 layout=$3; shift 3
  local d="$T_TMP/tree"; rm -rf "$d" "$out" "$out.tmp"; mkdir -p "$d"
  echo '<manifest/>' >"$d/AndroidManifest.xml"
  local abi
  for abi in "$@"; do
    local pre="" name="libassembly-store.so"
    case $layout in aab-*) pre="base/" ;; esac
    case $layout in *blobso) name="libassemblies.$abi.blob.so" ;; esac
    mkdir -p "$d/${pre}lib/$abi"; cp "$T_TMP/store-$abi" "$d/${pre}lib/$abi/$name"
  done
  if [ "$mode" = stored ]; then (cd "$d" && zip -q -0 -r "$out.tmp" .) && zipalign -f 16 "$out.tmp" "$out"
  else (cd "$d" && zip -q -r "$out" .); fi
}
for layout in new blobso aab-new aab-blobso; do
  for mode in stored deflated; do
    for abis in "arm64-v8a" "$ABIS"; do
      n=$(wc -w <<<"$abis")
      ap="$T_TMP/app-$layout-$mode-$n.zip"
      make_archive "$ap" "$mode" "$layout" $abis
      rm -rf "$T_TMP/x"
      "$A" extract "$ap" -C "$T_TMP/x" >"$T_TMP/out" 2>&1; rc=$?
      bad=0
      for abi in $abis; do
        sub=$T_TMP/x/$abi; [ "$n" = 1 ] && sub=$T_TMP/x
        for f in "$src"/*.dll; do cmp -s "$f" "$sub/$(basename "$f")" || bad=1; done
      done
      "$A" verify "$ap" >/dev/null 2>&1 && "$A" info --json "$ap" | json_ok && "$A" list --json "$ap" | json_ok || bad=1
      t_check "$layout $mode, $n ABI(s): extract byte-identical per ABI, verify ok, JSON parses" test $rc = 0 -a $bad = 0
    done
  done
done
# a corrupted store of any one ABI: verify exits 1 and names that ABI
for abi in $ABIS; do
  for a2 in $ABIS; do cp "$T_TMP/store-$a2" "$T_TMP/keep-$a2"; done
  python3 - "$T_TMP/store-$abi" <<'EOF'
import sys, struct
p = sys.argv[1]; b = bytearray(open(p, "rb").read())
ec = struct.unpack_from("<I", b, 8)[0]; isz = struct.unpack_from("<I", b, 16)[0]
d = 20 + isz            # first descriptor: image offset at +4, size at +8
off, n = struct.unpack_from("<II", b, d + 4)
b[off + 12] ^= 0xFF      # the zstd frame's magic, right after the 12-byte XAZS header
open(p, "wb").write(b)
EOF
  for mode in stored deflated; do
    make_archive "$T_TMP/bad.zip" "$mode" new $ABIS
    "$A" verify "$T_TMP/bad.zip" >"$T_TMP/out" 2>&1; rc=$?
    if [ $rc = 1 ] && grep -q "($abi)" "$T_TMP/out" && [ "$(grep -c 'ok, ' "$T_TMP/out")" = 3 ]; then
      t_ok "corrupt $abi store in a 4-ABI $mode APK: verify exits 1 and names $abi"
    else t_fail "corrupt $abi ($mode)" "rc=$rc $(tail -6 "$T_TMP/out")"; fi
  done
  for a2 in $ABIS; do cp "$T_TMP/keep-$a2" "$T_TMP/store-$a2"; done
done
# --abi picks one ABI out of four
make_archive "$T_TMP/four.zip" stored new $ABIS
rm -rf "$T_TMP/x"; "$A" extract "$T_TMP/four.zip" --abi x86 -C "$T_TMP/x" >/dev/null 2>&1
[ -f "$T_TMP/x/$(ls "$src" | head -1)" ] && [ ! -d "$T_TMP/x/arm64-v8a" ]
t_check "extract --abi x86 of a 4-ABI APK writes that ABI's files only" test $? = 0
[ "$("$A" list --abi armeabi-v7a "$T_TMP/four.zip" | grep -c '^#')" = 1 ]
t_check "list --abi shows one store" test $? = 0

# format 1 in an APK (.NET 6-8: assemblies/*.blob STORED, the manifest DEFLATEd) and in an AAB
for pre in "" "base/root/"; do
  d="$T_TMP/v1tree"; rm -rf "$d" "$T_TMP/v1.zip"; mkdir -p "$d/${pre}assemblies"
  cp "$SAMPLES"/v1-razr-pointcrep/base_assemblies.blob "$d/${pre}assemblies/assemblies.blob"
  cp "$SAMPLES"/v1-razr-pointcrep/base_assemblies.arm64_v8a.blob "$d/${pre}assemblies/assemblies.arm64_v8a.blob"
  cp "$SAMPLES"/v1-razr-pointcrep/base_assemblies.manifest "$d/${pre}assemblies/assemblies.manifest"
  (cd "$d" && zip -q -0 -r "$T_TMP/v1.zip" . -x '*.manifest' && zip -q -r "$T_TMP/v1.zip" . -i '*.manifest')
  rm -rf "$T_TMP/x"
  "$A" extract "$T_TMP/v1.zip" -C "$T_TMP/x" >"$T_TMP/out" 2>&1 && check_v1 "$T_TMP/x" v1-razr-pointcrep 1 >"$T_TMP/py" 2>&1 && "$A" verify "$T_TMP/v1.zip" >/dev/null
  t_check "format-1 set in an ${pre:-APK}${pre:+AAB} (${pre}assemblies/): names from the deflated manifest, sha256 = EXPECTED.json" test $? = 0
done

# a 4-ABI .NET 6-8 APK (our net8 writer: one common assembly set, CoreLib-like arch assemblies per ABI)
mkdir -p "$T_TMP/v1c" "$T_TMP/v1a"; set -- "$src"/*.dll; cp "$1" "$2" "$T_TMP/v1c/"; cp "$3" "$T_TMP/v1a/"
args=(); for abi in $ABIS; do args+=(--arch "$abi" "$T_TMP/v1a"); done
rm -rf "$T_TMP/v1set" "$T_TMP/v1tree4" "$T_TMP/v1four.zip"
if "$A" pack --target net8 -o "$T_TMP/v1set" "${args[@]}" "$T_TMP/v1c" >/dev/null 2>&1; then
  mkdir -p "$T_TMP/v1tree4/assemblies"; cp "$T_TMP"/v1set/* "$T_TMP/v1tree4/assemblies/"
  (cd "$T_TMP/v1tree4" && zip -q -0 -r "$T_TMP/v1four.zip" . -x '*.manifest' && zip -q -r "$T_TMP/v1four.zip" . -i '*.manifest')
  rm -rf "$T_TMP/x"; bad=0
  "$A" extract "$T_TMP/v1four.zip" -C "$T_TMP/x" >"$T_TMP/out" 2>&1 || bad=1
  for f in "$1" "$2"; do cmp -s "$f" "$T_TMP/x/$(basename "$f")" || bad=1; done
  for abi in $ABIS; do cmp -s "$3" "$T_TMP/x/$abi/$(basename "$3")" || bad=1; done
  "$A" verify "$T_TMP/v1four.zip" >/dev/null 2>&1 || bad=1
  t_check "a 4-ABI .NET 6-8 APK: common assemblies in DIR, each ABI's arch assembly in DIR/<abi>/, verify ok" test $bad = 0
else t_fail "pack --target net8 with 4 ABIs"; fi

# load on an APK whose store is for this machine maps the entry (it used to dlopen the APK itself)
case $(uname -m) in x86_64) habi=x86_64 ;; aarch64) habi=arm64-v8a ;; *) habi= ;; esac
if [ -n "$habi" ]; then
  "$A" pack --format 3 --abi "$habi" -o "$T_TMP/tree-so" "$src" >/dev/null 2>&1
  d="$T_TMP/ltree"; rm -rf "$d"; mkdir -p "$d/lib/$habi"; cp "$T_TMP/tree-so" "$d/lib/$habi/libassembly-store.so"
  (cd "$d" && zip -q -0 -r "$T_TMP/l.zip" .) && zipalign -f 16384 "$T_TMP/l.zip" "$T_TMP/l.apk"
  "$A" load "$T_TMP/l.apk" --all >"$T_TMP/out" 2>&1; rc=$?
  t_check "load on an APK holding this machine's ABI: entries loaded, no dlopen of the APK" test $rc = 0
fi

# ---- LZ4 (XALZ) images with asmstore.h alone, and against liblz4 ----
# tests/lz4_samples.c includes asmstore.h only and links libzstd only (no decompress callback, no
# liblz4): every XALZ image of the real samples (the format 1 sets, the format 3 stores, the lone
# xalz/ images) must come out with EXPECTED.json's sha256
CC=${CC:-cc}
xalz_files=("$SAMPLES"/xalz/*.xalz "$SAMPLES"/v1-*/*.blob "$SAMPLES"/v3-*/*/assembly-store.so)
if $CC -std=c99 -O2 -D_GNU_SOURCE -o "$T_TMP/lz4_samples" "$TOP/tests/lz4_samples.c" -lzstd -ldl 2>"$T_TMP/cc"; then
  if ldd "$T_TMP/lz4_samples" | grep -q liblz4; then t_fail "lz4_samples links liblz4"
  elif mkdir -p "$T_TMP/lz4o" && "$T_TMP/lz4_samples" "$T_TMP/lz4o" "${xalz_files[@]}" >"$T_TMP/out" 2>&1 &&
    python3 - "$SAMPLES" "$T_TMP/lz4o" "${xalz_files[@]}" <<'EOF' >"$T_TMP/py" 2>&1
import hashlib, json, os, sys
root, out, files = sys.argv[1], sys.argv[2], sys.argv[3:]
exp = json.load(open(os.path.join(root, "EXPECTED.json")))
checked = bad = 0
for k, path in enumerate(files, 1):
    v = exp[os.path.relpath(path, root)]
    rows = [(v["xalz_descriptor_index"], v)] if "descriptors" not in v else list(enumerate(v["descriptors"]))
    for i, d in rows:
        if d.get("magic") != "XALZ": continue
        got = os.path.join(out, "%d.%d" % (k, i))
        checked += 1
        if not os.path.isfile(got) or hashlib.sha256(open(got, "rb").read()).hexdigest() != d["uncompressed_sha256"]:
            bad += 1; print("differs:", path, i)
print("checked", checked, "XALZ images")
sys.exit(1 if bad or checked == 0 or checked != len(os.listdir(out)) else 0)
EOF
  then t_ok "asmstore.h alone (no callback, no liblz4): every XALZ image of the real samples has EXPECTED.json's sha256 ($(tail -1 "$T_TMP/py"))"
  else t_fail "asmstore.h alone reads the real XALZ images" "$(cat "$T_TMP/out" "$T_TMP/py" 2>/dev/null | tail -5)"; fi
else t_fail "tests/lz4_samples.c compiles" "$(tail -5 "$T_TMP/cc")"; fi

# tests/lz4_liblz4.c: asmstore_lz4_decode and liblz4's LZ4_decompress_safe on the same blocks (every XALZ
# image of the real samples and of each LZ4 preset's output, generated blocks) and on 300 damaged copies
# of each (ASan + UBSan: the decoder never leaves its buffers): the same bytes, the same refusals
if ! [ -f /usr/include/lz4.h ]; then t_skip "the LZ4 decoder against liblz4" "no lz4.h (Debian: liblz4-dev)"
elif $CC -std=c99 -O1 -g -D_GNU_SOURCE -fsanitize=address,undefined -fno-sanitize-recover=all \
       -o "$T_TMP/lz4_liblz4" "$TOP/tests/lz4_liblz4.c" -llz4 -lzstd -ldl 2>"$T_TMP/cc"; then
  presets=()
  for t in net8 net9 net10; do
    for rt in monovm coreclr; do
      "$A" pack --target $t --runtime $rt --abi arm64 -o "$T_TMP/preset-$t-$rt" "$MONO45/mscorlib.dll" \
        "$MONO45/System.dll" "$MONO45/System.Xml.dll" >/dev/null 2>&1 || continue
      if [ -d "$T_TMP/preset-$t-$rt" ]; then presets+=("$T_TMP/preset-$t-$rt"/*.blob); else presets+=("$T_TMP/preset-$t-$rt"); fi
    done
  done
  if [ ${#presets[@]} -lt 3 ]; then t_fail "pack --target net8, net9, net10 for the LZ4 comparison" "${#presets[@]} outputs"
  elif "$T_TMP/lz4_liblz4" 300 "${xalz_files[@]}" "${presets[@]}" >"$T_TMP/out" 2>&1; then
    t_ok "the header's LZ4 decoder and liblz4 agree ($(tail -1 "$T_TMP/out"); ${#presets[@]} preset outputs)"
  else t_fail "the header's LZ4 decoder against liblz4" "$(tail -12 "$T_TMP/out")"; fi
else t_fail "tests/lz4_liblz4.c compiles" "$(tail -5 "$T_TMP/cc")"; fi
t_done
