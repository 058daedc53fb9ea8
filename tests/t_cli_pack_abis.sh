#!/usr/bin/env bash
# asmstore pack --abi a,b,c,d: one run writes every ABI's store (OUT/<abi>/<the release's file name>),
# byte for byte what packing each ABI alone writes, with each image compressed once (the first store's
# writer lends its payloads to the others: asmstore_write_options.reuse); --json reports every store
# and every entry's indices and sizes (asmstore_writer_entry). Inputs: a real sample's images.
. "$(dirname "$0")/lib/lib.sh"
STORE="$SAMPLES/v3-watercountdown-widget/arm64-v8a/assembly-store.so"
[ -f "$STORE" ] || { t_skip pack-abis "no sample store at $STORE"; t_done; exit; }
"$ASMSTORE" extract -C "$T_TMP/img" "$STORE" >/dev/null 2>&1
nimg=$(ls "$T_TMP/img" | wc -l)
ALL="arm64-v8a:arm64 armeabi-v7a:arm x86_64:x86_64 x86:x86"

# SAME TARGET...: pack --abi arm64,arm,x86_64,x86 -o DIR/ equals four single-ABI packs, file by file
same() {
  rm -rf "$T_TMP/m" "$T_TMP/s"; mkdir -p "$T_TMP/m" "$T_TMP/s"
  "$ASMSTORE" pack "$@" --abi arm64,arm,x86_64,x86 -o "$T_TMP/m/" "$T_TMP/img" 2>"$T_TMP/err" || return 1
  local d f
  for d in $ALL; do
    "$ASMSTORE" pack "$@" --abi "${d##*:}" -o "$T_TMP/s/${d##*:}" "$T_TMP/img" 2>/dev/null || return 1
    f=$(ls "$T_TMP/m/${d%%:*}"/*) && cmp "$f" "$T_TMP/s/${d##*:}" || return 1
  done
}
t_check "pack --abi arm64,arm,x86_64,x86 (net11 coreclr, zstd 22): the four stores equal four one-ABI packs byte for byte" same
three_reused() { [ "$(grep -c "; $nimg compressed images taken from the arm64 store" "$T_TMP/err")" = 3 ]; }
t_check "  ... each of the other three takes all $nimg compressed images from the arm64 store" three_reused
t_check "pack --target net10 --abi arm64,arm,x86_64,x86 (monovm, LZ4 HC 12, XXH3-64 and XXH32 by ABI): the same bytes as one ABI at a time" \
  same --target net10
t_check "pack --target net11-preview --runtime monovm --raw --abi ... (format 4, raw): the same bytes" \
  same --target net11-preview --runtime monovm --raw

# --json: the stores, their reuse, every entry's descriptor and mapping index and sizes
"$ASMSTORE" pack --json --abi x86,arm64 -o "$T_TMP/m/" "$T_TMP/img" >"$T_TMP/j.json" 2>/dev/null
"$ASMSTORE" list --json "$T_TMP/m/x86/libassembly-store.so" >"$T_TMP/l.json" 2>/dev/null
json_ok() {
  python3 - "$T_TMP/j.json" "$T_TMP/l.json" "$nimg" <<'EOF'
import json, sys
p, l, n = json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), int(sys.argv[3])
st = p["stores"]
assert p["abi"] == "x86" and [s["abi"] for s in st] == ["x86", "arm64-v8a"], st
assert [s["reused"] for s in st] == [0, n], [s["reused"] for s in st]
assert [s["hash"] for s in st] == ["crc32", "crc32"] and len(p["files"]) == 2
w = st[0]["written"]
assert sorted(e["descriptor_index"] for e in w) == list(range(n)) and [e["mapping_index"] for e in w] == list(range(n))
assert [e["reused"] for e in st[1]["written"]] == [True] * n
ents = {e["name"]: e for e in next(iter(l["stores"]))["entries"]} if "stores" in l else {e["name"]: e for e in l["entries"]}
for e in w:
    le = ents[e["name"]]
    assert e["size"] == le["size"] and not e["reused"] and not e["ignored"], (e, le)
EOF
}
t_check "pack --json --abi x86,arm64: stores (abi, hash, reused 0 then $nimg), files, each entry's descriptor and mapping index and sizes as list reads them" json_ok

# what several ABIs cannot combine with: exit 2 before writing, saying why
refused() { # WHAT ARGS...: exit 2, a message naming WHAT, nothing written
  local what=$1; shift
  rm -rf "$T_TMP/r"; mkdir "$T_TMP/r"
  "$ASMSTORE" pack "$@" "$T_TMP/img" 2>"$T_TMP/err"; local rc=$?
  [ "$rc" = 2 ] && grep -q -- "$what" "$T_TMP/err" && [ -z "$(ls "$T_TMP/r")" ]
}
t_check "--abi arm64,arm64: exit 2, the ABI named twice" refused "given twice" --abi arm64,arm64 -o "$T_TMP/r/"
t_check "--abi arm64,mips: exit 2, unknown ABI" refused "unknown ABI" --abi arm64,mips -o "$T_TMP/r/"
t_check "--abi , and --abi arm64, (an empty item): exit 2" refused "needs an ABI" --abi , -o "$T_TMP/r/"
t_check "  ... trailing comma" refused "needs an ABI" --abi arm64, -o "$T_TMP/r/"
t_check "--abi arm64,x86 -o FILE: exit 2, -o must name a directory" refused "names a directory" --abi arm64,x86 -o "$T_TMP/r/f.so"
t_check "--target net8 --abi arm64,x86: exit 2, format 1 takes --arch" refused "format 1 set" --target net8 --abi arm64,x86 -o "$T_TMP/r/"
t_done
