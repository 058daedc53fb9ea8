#!/usr/bin/env bash
# asmstore pack for CoreCLR: uncompressed images never at odd offsets (4096 by default, --align-images
# overrides, 1 warns), --keep-uncompressed NAME in a compressed store, and ReadyToRun component stubs
# refused by pack and verify when their composite image is missing. Stubs and composites are
# synthetic PE files built here (python3); the .NET 10 shared framework, when installed, gives real
# (non-component) ReadyToRun images.
. "$(dirname "$0")/lib/lib.sh"
PY=/usr/bin/python3
IND="$TOP/tests/lib/indep_store.py"
FW=${FW:-$(ls -d /usr/share/dotnet/shared/Microsoft.NETCore.App/10.* 2>/dev/null | sort -V | tail -1)}

# OFFSETS STORE: "name offset size compressed" per non-ignored entry, read by the independent reader
offsets() {
  $PY - "$IND" "$1" <<'EOF'
import importlib.util, sys
spec = importlib.util.spec_from_file_location("indep", sys.argv[1]); m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m)
b = open(sys.argv[2], "rb").read()
s = m.parse_v2(b)
for nm, d in zip(s["names"], s["descriptors"]):
    if d[2]:
        print(nm.decode(), d[1], d[2], int(b[d[1]:d[1] + 4] in (b"XAZS", b"XALZ")))
EOF
}
# ALIGNED STORE N: every image offset is a multiple of N (and there is at least one image)
aligned() { offsets "$1" >"$T_TMP/offs" && [ -s "$T_TMP/offs" ] && awk -v n="$2" '$2 % n { bad = 1; print "misaligned:", $0 } END { exit bad }' "$T_TMP/offs"; }

# Synthetic PE32+ images with a CLI header and a ReadyToRun header: a component stub naming its
# composite, the composite itself, and damaged variants (truncated, sections past the end, huge counts).
mkpe() { $PY "$TOP/tests/lib/r2r_pe.py" "$@"; } # OUT KIND [OWNER]

# --- alignment: uncompressed CoreCLR images never at odd offsets ---
src="$T_TMP/src"; mkdir -p "$src"
if [ -n "$FW" ] && [ -f "$FW/System.Runtime.dll" ]; then
  for n in System.Runtime System.Console System.Collections System.Linq System.Text.Json; do cp "$FW/$n.dll" "$src/"; done
else
  for n in A B C; do mkpe "$src/$n.dll" composite; done
  t_skip "real ReadyToRun images" "no .NET 10 shared framework under /usr/share/dotnet; synthetic images instead"
fi
pack() { "$ASMSTORE" pack --raw -o "$T_TMP/s" "$@" 2>"$T_TMP/err"; }
no_warning() { ! grep -q warning "$T_TMP/err"; }
packs_aligned() { local n=$1; shift; pack "$@" && aligned "$T_TMP/s" "$n"; }
t_check "pack --target net10 --runtime coreclr --no-compress: every image at a multiple of 4096" \
  packs_aligned 4096 --target net10 --runtime coreclr --no-compress "$src"
t_check "  ... and no warning" no_warning
t_check "pack --no-compress (net11 coreclr): every image at a multiple of 4096" packs_aligned 4096 --no-compress "$src"
t_check "pack --runtime coreclr --no-compress --align-images 16384: every image at a multiple of 16384" \
  packs_aligned 16384 --runtime coreclr --no-compress --align-images 16384 "$src"
t_check "pack --target net10 --runtime coreclr --no-compress --align-images 16: images at multiples of 16" \
  packs_aligned 16 --target net10 --runtime coreclr --no-compress --align-images 16 "$src"
t_check "  ... and no warning" no_warning
pack --target net10 --runtime coreclr --no-compress --align-images 1 "$src"; rc=$?
warned_once() { [ $rc = 0 ] && [ "$(grep -c 'warning: --align-images 1' "$T_TMP/err")" = 1 ] && grep -q 'odd offsets' "$T_TMP/err" && grep -q '16 or more' "$T_TMP/err"; }
t_check "--align-images 1 (a release's layout) still packs, warning once that CoreCLR cannot map odd offsets and what to give" warned_once
t_check "--align-images 1: the images follow each other directly (no padding)" $PY "$IND" check "$T_TMP/s" "$src" --packed
pack --target net10 --runtime coreclr --align-images 1 "$src"
t_check "compressed coreclr store with --align-images 1: no warning (nothing is mapped in place)" no_warning
pack --target net10 --runtime coreclr "$src"
t_check "compressed --target net10 coreclr store keeps the release's back-to-back layout" $PY "$IND" check "$T_TMP/s" "$src" --packed
pack --target net10 --runtime monovm --no-compress --align-images 1 "$src"
t_check "monovm --no-compress --align-images 1: no warning (the CoreCLR rule only)" no_warning

# --- --keep-uncompressed NAME: those entries as they are, the rest compressed ---
first=$(ls "$src" | head -1); second=$(ls "$src" | sed -n 2p)
uncompressed_names() { # the non-ignored entries `list --json` shows uncompressed, sorted, space-separated
  "$ASMSTORE" list --json "$T_TMP/s" | $PY -c 'import json,sys; print(" ".join(sorted(r["name"] for s in json.load(sys.stdin)["stores"] for r in s["entries"] if not r["ignored"] and r["compression"] == "none")))'
}
kept_at() { # NAME N: NAME's image is stored as it is, at a multiple of N
  offsets "$T_TMP/s" | awk -v name="$1" -v n="$2" '$1 == name { found = 1; if ($2 % n || $4) exit 1 } END { exit !found }'
}
roundtrip() { "$ASMSTORE" verify "$T_TMP/s" && rm -rf "$T_TMP/x" && "$ASMSTORE" extract "$T_TMP/s" -C "$T_TMP/x" && diff -r "$src" "$T_TMP/x"; }
pack --target net10 --runtime coreclr --keep-uncompressed "$first" "$src"
t_check "--keep-uncompressed $first: listed uncompressed, every other image compressed" test "$(uncompressed_names)" = "$first"
t_check "--keep-uncompressed: the kept image at a multiple of 4096" kept_at "$first" 4096
t_check "--keep-uncompressed: verify ok, extract byte-identical" roundtrip
pack --target net10 --runtime coreclr --keep-uncompressed 'System.[CR]*' --keep-uncompressed "$second" "$src"
want=$(cd "$src" && { ls System.[CR]*; echo "$second"; } | sort -u | tr '\n' ' ')
t_check "--keep-uncompressed takes patterns and repeats ($want)" test "$(uncompressed_names) " = "$want"
pack --target net10 --runtime coreclr --keep-uncompressed Nope.dll "$src"; rc=$?
says_no_input() { [ $rc = 2 ] && grep -q 'keep-uncompressed Nope.dll: no input' "$T_TMP/err" && grep -q "pattern such as '\*.r2r.dll'" "$T_TMP/err"; }
t_check "--keep-uncompressed NAME matching no input: exit 2, says what it looked for and what to try" says_no_input
pack --target net10 --runtime monovm --keep-uncompressed "$first" "$src"
t_check "--keep-uncompressed in a monovm store: the entry uncompressed" test "$(uncompressed_names)" = "$first"
t_check "  ... and the release's back-to-back layout kept" $PY "$IND" check "$T_TMP/s" "$src" --packed

# --- ReadyToRun composite: stubs need their composite image in the store ---
app="$T_TMP/app"; mkdir -p "$app"
mkpe "$app/hello.dll" stub hello.r2r.dll
mkpe "$app/Greeting.dll" stub hello.r2r.dll
mkpe "$app/hello.r2r.dll" composite
for k in truncated huge outside; do mkpe "$T_TMP/$k.dll" $k hello.r2r.dll; done
head -c 4000 /dev/urandom >"$T_TMP/random.dll"
printf 'MZ' >"$T_TMP/mz.dll"
"$ASMSTORE" pack --runtime coreclr --no-compress --raw -o "$T_TMP/ok" "$app" 2>"$T_TMP/err"
t_check "pack + verify: stubs and their composite image -> ok" "$ASMSTORE" verify "$T_TMP/ok"
"$ASMSTORE" pack --runtime coreclr --raw -o "$T_TMP/okz" "$app" 2>/dev/null
t_check "verify: compressed store with stubs + composite -> ok" "$ASMSTORE" verify "$T_TMP/okz"
rm -f "$T_TMP/no"
"$ASMSTORE" pack --runtime coreclr --raw -o "$T_TMP/no" "$app/hello.dll" "$app/Greeting.dll" 2>"$T_TMP/err"; rc=$?
refused() {
  [ $rc = 2 ] && [ ! -e "$T_TMP/no" ] && grep -q 'hello.dll (.*) is a ReadyToRun component stub .* composite image hello.r2r.dll' "$T_TMP/err" &&
    grep -q 'add hello.r2r.dll' "$T_TMP/err" && grep -q '^asmstore: 2 component stubs' "$T_TMP/err"
}
t_check "pack: stubs without their composite -> exit 2 before writing; names the stub and the composite, suggests adding it, counts the stubs" refused
"$ASMSTORE" pack --runtime coreclr --raw -o "$T_TMP/no" --keep-uncompressed hello.dll "$app/hello.dll" "$app/hello.r2r.dll" 2>"$T_TMP/err"
t_check "pack: a kept-uncompressed stub with its composite -> ok" "$ASMSTORE" verify "$T_TMP/no"
# repack keeps pack's rule: no stub left without its composite, none put in without it
rp_refused() { # LOG RC: exit 1, nothing written, the stub and its composite named
  [ "$2" = 1 ] && [ ! -e "$T_TMP/rp" ] && grep -q '\(hello\|Greeting\).dll (.*) is a ReadyToRun component stub .* composite image hello.r2r.dll, which the repacked store would not hold' "$1"
}
"$ASMSTORE" repack "$T_TMP/okz" --remove hello.r2r.dll -o "$T_TMP/rp" 2>"$T_TMP/rp.log"; rc=$?
t_check "repack --remove of the composite its stubs need: refused (exit 1), nothing written" rp_refused "$T_TMP/rp.log" $rc
mkdir -p "$T_TMP/il" && mkpe "$T_TMP/il/hello.dll" composite && mkpe "$T_TMP/il/Other.dll" composite
"$ASMSTORE" pack --runtime coreclr --raw -o "$T_TMP/il.store" "$T_TMP/il" 2>/dev/null
"$ASMSTORE" repack "$T_TMP/il.store" --replace hello.dll="$app/hello.dll" -o "$T_TMP/rp" 2>"$T_TMP/rp.log"; rc=$?
t_check "repack --replace with a stub whose composite the store lacks: refused (exit 1), nothing written" rp_refused "$T_TMP/rp.log" $rc
"$ASMSTORE" repack "$T_TMP/okz" --replace hello.dll="$app/hello.dll" -o "$T_TMP/rp" 2>/dev/null
t_check "repack --replace with a stub whose composite the store holds: written, verify passes" "$ASMSTORE" verify "$T_TMP/rp"
rm -f "$T_TMP/rp"
# a store that lacks the composite, written by the independent writer (pack refuses to)
for c in none zstd; do
  $PY "$IND" write "$T_TMP/bad-$c" 3 arm64 coreclr "$app/hello.dll" "$app/Greeting.dll" "$T_TMP/truncated.dll" --compression $c
  "$ASMSTORE" verify "$T_TMP/bad-$c" >"$T_TMP/out.v" 2>&1; rc=$?
  verify_refused() {
    [ $rc = 1 ] && [ "$(grep -c 'component stub whose code is in the composite image hello.r2r.dll' "$T_TMP/out.v")" = 2 ] &&
      grep -q 'pack hello.r2r.dll into the store' "$T_TMP/out.v" && grep -q '^3 problem' "$T_TMP/out.v" &&
      grep -q 'truncated.dll: the image is not a .NET assembly' "$T_TMP/out.v"
  }
  t_check "verify ($c store): stubs without their composite -> exit 1, one problem per stub, naming the composite (and the cut PE)" verify_refused
done
# pack refuses what is no assembly before any work: the first such input named, nothing written
"$ASMSTORE" pack --runtime coreclr --raw -o "$T_TMP/g" "$T_TMP/huge.dll" "$T_TMP/truncated.dll" "$T_TMP/random.dll" 2>"$T_TMP/err"; rc=$?
t_check "pack: a truncated PE among the inputs -> exit 1 naming it, nothing written" \
  sh -c "[ $rc = 1 ] && [ ! -e '$T_TMP/g' ] && grep -q 'truncated.dll (.*): not a .NET assembly' '$T_TMP/err'"
# so the garbage store comes from the independent writer
$PY "$IND" write "$T_TMP/g" 3 arm64 coreclr "$T_TMP/truncated.dll" "$T_TMP/huge.dll" "$T_TMP/outside.dll" "$T_TMP/random.dll" "$T_TMP/mz.dll" --compression none
"$ASMSTORE" verify "$T_TMP/g" >"$T_TMP/out.v" 2>&1; rc=$?
garbage_named() {
  [ $rc = 1 ] && ! grep -q 'component stub' "$T_TMP/out.v" && grep -q '^3 problem' "$T_TMP/out.v" &&
    for f in truncated random mz; do grep -q "$f.dll: the image is not a .NET assembly" "$T_TMP/out.v" || return 1; done
}
t_check "garbage, truncated and out-of-range R2R headers: no crash, not components; verify names the three that are not assemblies" garbage_named
# crossgen2's own composite build (hello.r2r.dll + IL-only stubs), when build/composite holds one
CX=${CX:-$BUILD/composite}
if [ -f "$CX/hello.r2r.dll" ] && [ -f "$CX/hello.dll" ]; then
  t_check "crossgen2 composite: the stubs and hello.r2r.dll pack uncompressed, every image at a multiple of 4096" \
    packs_aligned 4096 --runtime coreclr --no-compress "$CX"
  t_check "  ... and verify" "$ASMSTORE" verify "$T_TMP/s"
  mkdir -p "$T_TMP/cx"; for f in "$CX"/*.dll; do [ "${f##*/}" = hello.r2r.dll ] || ln -s "$f" "$T_TMP/cx/"; done
  pack --runtime coreclr --no-compress "$T_TMP/cx"; rc=$?
  cx_refused() { [ $rc = 2 ] && grep -q 'is a ReadyToRun component stub .* composite image hello.r2r.dll' "$T_TMP/err" && grep -q 'component stubs in all' "$T_TMP/err"; }
  t_check "crossgen2 composite: the stubs without hello.r2r.dll -> exit 2" cx_refused
  $PY "$IND" write "$T_TMP/cx.store" 3 x86_64 coreclr "$CX/hello.dll" "$CX/System.Runtime.dll" --compression zstd
  "$ASMSTORE" verify "$T_TMP/cx.store" >"$T_TMP/out.v" 2>&1; rc=$?
  cx_verify_refused() { [ $rc = 1 ] && [ "$(grep -c 'composite image hello.r2r.dll, which the store does not hold' "$T_TMP/out.v")" = 2 ]; }
  t_check "crossgen2 composite: verify names both stubs of a store without hello.r2r.dll" cx_verify_refused
else t_skip "crossgen2 composite" "no $CX/hello.r2r.dll"; fi
if [ -n "$FW" ] && [ -d "$FW" ]; then
  t_check "the whole .NET shared framework ($(ls "$FW"/*.dll | wc -l) images, none a component): packs with every image at a multiple of 4096" \
    packs_aligned 4096 --runtime coreclr --no-compress "$FW"
  t_check "  ... and verifies" "$ASMSTORE" verify "$T_TMP/s"
fi
t_done
